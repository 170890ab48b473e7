#!/bin/bash
# Soups per second of the census on soups 0..N of b3s23/C1, interleaved in rounds: lifelab's CPU
# path on 2 and 1 threads, its GPU path (squares of 512 and 64 cells; on this machine the GPU is
# lavapipe, which runs on the same two cores), and lifelib's classifier driven as apgluxe drives
# it (scripts/census/lifelib_oracle.cpp, one thread, HashLife; build it first with
# bash scripts/census/make_oracle.sh, or the oracle's rows are skipped), and apgluxe itself on 1
# and 2 threads where APGLUXE names its directory (built as scripts/census/record_apgluxe.sh
# builds it). For the GPU path it also
# prints how far the GPU carried the soups and the CPU's share (the rate a GPU that took no time
# would give on these cores). lifelab's CPU rows are timed as apgluxe's are, whole process.
# GPU=0 leaves the GPU path out (a long CPU comparison: bash benches/census.sh 12000).
set -euo pipefail
n=${1:-2000}
bin=${LIFELAB:-target/release/lifelab}
rate() { echo "$n / $1" | bc -l | xargs printf '%.0f'; }
for round in 1 2 3; do
    for threads in 2 1; do
        s=$(date +%s.%N)
        RAYON_NUM_THREADS=$threads $bin census --soups $n --haul /tmp/bench_haul.txt --json > /dev/null
        e=$(date +%s.%N)
        echo "round $round lifelab CPU ${threads} thread(s): $(rate "($e - $s)") soups/s"
    done
    for square in 512 64; do
        [ "${GPU:-1}" = 0 ] && break
        out=$($bin census --soups $n --gpu --square $square --batch $n --haul /tmp/bench_haul_gpu.txt --json)
        echo "$out" | python3 -c '
import json, sys
v = json.load(sys.stdin); g = v["gpu_path"]; n = '"$n"'
print("round '"$round"' lifelab GPU path (%s), squares of '"$square"': %.0f soups/s; GPU %.2f s, %d settled there, %d handed on, %d generations; CPU share %.2f s = %.0f soups/s"
      % (v["gpu"], n / v["seconds"], g["gpu_seconds"], g["settled"], g["handed_on"], g["generations"], g["cpu_seconds"], n / max(g["cpu_seconds"], 1e-9)))'
        diff <(grep -v '^@VERSION' /tmp/bench_haul.txt) <(grep -v '^@VERSION' /tmp/bench_haul_gpu.txt) > /dev/null \
            || echo "round $round: the GPU path's haul differs from the CPU's"
    done
    if [ -n "${APGLUXE:-}" ]; then
        for threads in 1 2; do
            s=$(date +%s.%N)
            (cd "$APGLUXE" && ./apgluxe -s k_lifelab_ -n $n -t 1 -p $threads < /dev/null > /dev/null)
            e=$(date +%s.%N)
            echo "round $round apgluxe $threads thread(s): $(rate "($e - $s)") soups/s"
        done
    fi
    if [ -x /tmp/lifelib_oracle ]; then
        s=$(date +%s.%N)
        /tmp/lifelib_oracle b3s23 C1 k_lifelab_ 0 $n > /dev/null 2>&1
        e=$(date +%s.%N)
        echo "round $round lifelib oracle 1 thread: $(rate "($e - $s)") soups/s"
    fi
done
