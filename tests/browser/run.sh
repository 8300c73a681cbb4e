#!/usr/bin/env bash
# The browser tests of the web app (run.mjs): installs what they need when it is missing
# (Debian's chromium; Debian's sqlite3, by which a test makes the server's database refuse
# writes; Debian's postgresql, whose server a test stops under a server on it; playwright-core,
# typescript and axe-core from package-lock.json), type-checks the front end (tsconfig.json:
# web/ with its JSDoc types, every strict option; an error fails the run), then runs them.
#
#   tests/browser/run.sh          (from anywhere; MYRMIDON_BIN etc.: see run.mjs)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if [ ! -x /usr/bin/chromium ]; then
  echo "browser tests: installing Debian's chromium"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi

if ! command -v sqlite3 >/dev/null; then
  echo "browser tests: installing Debian's sqlite3"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3
fi

if ! command -v pg_ctl >/dev/null && ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  echo "browser tests: installing Debian's postgresql"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "browser tests: node and npm are needed (Node 20 or newer)" >&2
  exit 1
fi

# npm ci when node_modules is missing or was installed from another package-lock.json
stamp=node_modules/.myrmidon-lock.sha256
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/typescript ] || [ ! -d node_modules/axe-core ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "browser tests: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi

echo "browser tests: tsc --noEmit (web/)"
npx --no-install tsc --noEmit -p tsconfig.json

exec node run.mjs "$@"
