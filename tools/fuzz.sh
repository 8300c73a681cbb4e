#!/usr/bin/env bash
# Fuzzes everything the rules library reads as text (the crate in fuzz/, cargo-fuzz targets).
#
#   tools/fuzz.sh [seconds-per-target] [target...]
#
# Builds the targets (nightly toolchain, cargo-fuzz), writes seed corpora from random games into
# fuzz/corpus/<target>/, then runs each target (all of them, or those named) for the given time
# (600 s by default), one after the other, in one process each. Prints a line per target with
# its executions per second and whether it crashed; a crashing input is kept in
# fuzz/artifacts/<target>/ and the whole log in fuzz/artifacts/<target>.log. Exits non-zero if
# any target crashed. Needs `cargo install cargo-fuzz`.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

seconds=${1:-600}
[[ $# -gt 0 ]] && shift
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: tools/fuzz.sh [seconds-per-target] [target...]" >&2
    exit 2
fi

all=$(cargo +nightly fuzz list)
if [[ $# -gt 0 ]]; then
    targets=("$@")
    for t in "${targets[@]}"; do
        grep -qx -- "$t" <<<"$all" || { echo "no fuzz target $t; there are: $(echo $all)" >&2; exit 2; }
    done
else
    mapfile -t targets <<<"$all"
fi

# The library's only unsafe code is register-level SIMD (epaminondas/simd.rs): AddressSanitizer
# finds little in safe Rust and makes the targets several times slower, so it is off unless
# FUZZ_SANITIZER names one (address, memory, thread, leak).
sanitizer=${FUZZ_SANITIZER:-none}
cargo +nightly fuzz build --sanitizer "$sanitizer"
cargo +nightly run --quiet --release --example seed -- corpus

crashed=0
summary=()
for t in "${targets[@]}"; do
    mkdir -p "artifacts/$t"
    log="artifacts/$t.log"
    echo "== $t: ${seconds} s"
    status=0
    # A slow input (over 10 s) is a finding too; libFuzzer reports it as a timeout.
    cargo +nightly fuzz run --sanitizer "$sanitizer" "$t" -- -max_total_time="$seconds" -timeout=10 \
        -print_final_stats=1 >"$log" 2>&1 || status=$?
    rate=$(awk '/stat::average_exec_per_sec/ { r = $NF } END { print r == "" ? "?" : r }' "$log")
    if [[ $status -eq 0 ]]; then
        result="ok"
    else
        crashed=1
        input=$(grep -o 'artifacts/[^ ]*' "$log" | tail -n 1 || true)
        result="CRASH (exit $status) ${input:-see $log}"
    fi
    summary+=("$(printf '%-22s %8s exec/s  %s' "$t" "$rate" "$result")")
    echo "${summary[-1]}"
done

echo
echo "== summary (${seconds} s per target)"
printf '%s\n' "${summary[@]}"
exit $crashed
