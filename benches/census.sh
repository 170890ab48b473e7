#!/bin/bash
# Soups per second of the census, lifelab against lifelib's classifier driven as apgluxe drives
# it (scripts/census/lifelib_oracle.cpp, one thread, HashLife), interleaved, on soups 0..N of
# b3s23/C1. Build the oracle first: bash scripts/census/make_oracle.sh
set -euo pipefail
n=${1:-2000}
bin=${LIFELAB:-target/release/lifelab}
for round in 1 2 3; do
    for threads in 2 1; do
        s=$(date +%s.%N)
        RAYON_NUM_THREADS=$threads $bin census --soups $n --haul /tmp/bench_haul.txt > /dev/null
        e=$(date +%s.%N)
        echo "round $round lifelab ${threads} thread(s): $(echo "$n / ($e - $s)" | bc -l | xargs printf '%.0f') soups/s"
    done
    s=$(date +%s.%N)
    /tmp/lifelib_oracle b3s23 C1 k_lifelab_ 0 $n > /dev/null 2>&1
    e=$(date +%s.%N)
    echo "round $round lifelib oracle 1 thread: $(echo "$n / ($e - $s)" | bc -l | xargs printf '%.0f') soups/s"
done
