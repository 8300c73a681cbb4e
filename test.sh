#!/usr/bin/env bash
# Every check of the project: formatting, lints, tests. CI (.ci/run) runs exactly this.
set -euo pipefail
cd "$(dirname "$0")"

# rustfmt and clippy come with the toolchain; add them if this one lacks them.
cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy

cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
# The fuzz crate (fuzz/, outside the workspace, nightly) must keep building against the library:
# format, lints and its own test; tools/fuzz.sh runs the fuzzers themselves.
# Install the nightly toolchain (with rustfmt and clippy) if this machine lacks it.
if ! cargo +nightly --version >/dev/null 2>&1 \
    || ! cargo +nightly fmt --version >/dev/null 2>&1 \
    || ! cargo +nightly clippy --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal --component rustfmt,clippy || {
        echo "test.sh: the fuzz crate needs the nightly toolchain, which could not be installed" >&2
        exit 1
    }
fi
cargo +nightly fmt --manifest-path fuzz/Cargo.toml --check
cargo +nightly clippy --manifest-path fuzz/Cargo.toml --all-targets -- -D warnings
# The PostgreSQL tests start a temporary server of their own (initdb into a temporary folder,
# a free loopback port, stopped at the end): they need Debian's PostgreSQL programs.
if ! command -v pg_ctl >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    echo "test.sh: installing Debian's postgresql for the PostgreSQL tests"
    sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
    sudo_if_needed apt-get update -qq
    sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
fi
# Run every test, then say in one line how many passed and failed over all the test binaries.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace 2>&1 | tee "$log"
cargo +nightly test --manifest-path fuzz/Cargo.toml --lib 2>&1 | tee -a "$log"
# The Python package (crates/python): its wheel built by maturin into a virtual environment
# of its own (target/python-venv), and its pytest suite against the program just built.
MYRMIDON_BIN="$PWD/target/debug/myrmidon" tools/python-tests.sh 2>&1 | tee -a "$log"
# The web app in a real browser (Debian's chromium driven by playwright-core, both installed
# when missing), against the binary `cargo test` just built; screenshots in target/browser-shots.
MYRMIDON_BIN="$PWD/target/debug/myrmidon" tests/browser/run.sh 2>&1 | tee -a "$log"
awk '/^test result:/ { p += $4; f += $6 }
     /^browser tests:/ { p += $3; f += $5 }
     /^python tests:/ { p += $3; f += $5 }
     END { printf "all tests: %d passed, %d failed\n", p, f }' "$log"
