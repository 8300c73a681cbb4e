#!/usr/bin/env bash
# The Python package's tests (docs/python.md): builds the wheel of crates/python with maturin,
# installs it into a virtual environment of its own (target/python-venv, made with the
# machine's python3 when missing, with maturin and pytest from PyPI), and runs pytest on
# crates/python/tests. The last line says how many passed and failed.
# MYRMIDON_BIN: the `myrmidon` program the tests compare with (default target/debug/myrmidon).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/python-venv
if [ ! -x "$venv/bin/python" ]; then
    # Debian's python3 makes virtual environments only with its python3-venv package.
    if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
        echo "python-tests.sh: installing Debian's python3-venv"
        sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
        sudo_if_needed apt-get update -qq
        sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
    fi
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
    "maturin>=1.5,<2" "pytest>=7,<9" "numpy>=1.21" "pettingzoo>=1.24" "gymnasium>=0.29"
rm -rf target/wheels
# Optimised, as `pip install ./crates/python` builds it.
"$venv/bin/maturin" build --quiet --release -m crates/python/Cargo.toml -o target/wheels
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps \
    target/wheels/myrmidon-*.whl

export MYRMIDON_BIN="${MYRMIDON_BIN:-$PWD/target/debug/myrmidon}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# Run from the tests' folder, so that `import myrmidon` finds the installed wheel and not the
# sources of crates/python/python.
(cd crates/python/tests && "../../../$venv/bin/python" -m pytest -q -p no:cacheprovider .) \
    2>&1 | tee "$log" || status=$?
# (grep finds nothing when nothing failed: not an error here.)
passed=$({ grep -Eo '[0-9]+ passed' "$log" || true; } | tail -1 | grep -Eo '[0-9]+' || echo 0)
failed=$({ grep -Eo '[0-9]+ (failed|errors?)' "$log" || true; } | awk '{n += $1} END {print n + 0}')
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1
fi
echo "python tests: $passed passed, $failed failed"
exit "$status"
