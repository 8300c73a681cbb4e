#!/usr/bin/env bash
# Every check of the project: formatting, lints, tests. CI (.ci/run) runs exactly this.
set -euo pipefail
cd "$(dirname "$0")"

# rustfmt and clippy come with the toolchain; add them if this one lacks them.
cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy

cargo fmt --all --check
cargo clippy --all-targets -- -D warnings
cargo test --workspace
