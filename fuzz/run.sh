#!/usr/bin/env bash
# Runs every fuzz target for SECONDS seconds each (default 60) and prints, per target, the
# executions reached and whether it found a crash. Needs nightly Rust and cargo-fuzz
# (`cargo install cargo-fuzz`); says so and exits 0 when they are missing.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz: skipped: no nightly Rust toolchain (cargo-fuzz needs one)"
    exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    if [ "${CI:-}" = true ]; then
        # CI has nightly: the targets must run, so fetch the tool.
        echo "fuzz: installing cargo-fuzz"
        cargo +nightly install cargo-fuzz --locked --quiet || { echo "fuzz: cargo-fuzz failed to install"; exit 1; }
    else
        echo "fuzz: skipped: cargo-fuzz is not installed (cargo install cargo-fuzz)"
        exit 0
    fi
fi
status=0
cargo +nightly fuzz build -O >/dev/null 2>&1 || { echo "fuzz: the targets do not build"; cargo +nightly fuzz build -O; exit 1; }
for target in $(cargo +nightly fuzz list); do
    mkdir -p "fuzz/corpus/$target"
    log="fuzz/artifacts/$target.log"
    mkdir -p fuzz/artifacts
    cargo +nightly fuzz run -O "$target" "fuzz/corpus/$target" fuzz/seeds -- \
        -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 >"$log" 2>&1
    rc=$?
    runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    if [ "$rc" -eq 0 ]; then
        echo "fuzz: $target: ${runs:-0} executions in ${seconds} s, no crash"
    else
        echo "fuzz: $target: CRASH after ${runs:-?} executions (see $log and fuzz/artifacts/$target/)"
        tail -30 "$log"
        status=1
    fi
done
exit $status
