#!/usr/bin/env bash
# The data-centre GPU run (issue 14): conformance, then the GPU kernels side by side with the CPU
# engines in one `bench` per question, each as JSON with the adapter's name. Written for an H200
# (or any hardware GPU); run from the repository root: benches/h200.sh [OUT_DIR]. It writes one
# JSON file per step into OUT_DIR (default: h200-results) and prints a summary line per step.
#
# Goals it measures: at least 1.5e13 cell updates/s for B3/S23 on 65536x65536, and acorn on
# 65536x65536 to generation 5206 in under 0.1 s.
set -euo pipefail
OUT=${1:-h200-results}
mkdir -p "$OUT"
cargo build --release
LIFELAB=target/release/lifelab

"$LIFELAB" gpus --json > "$OUT/gpus.json"

# Every kernel bit for bit against the reference: the built-in suite on the default kernel
# (whose groups include the tile and blocked kernels), then the whole suite on each kernel,
# and the blocked kernel at 16 generations per dispatch compared every 18.
"$LIFELAB" check --json > "$OUT/check-tiles.json"
"$LIFELAB" check --kernel dense --json > "$OUT/check-dense.json"
"$LIFELAB" check --kernel sparse --json > "$OUT/check-sparse.json"
"$LIFELAB" check --kernel blocked --block 16 --json > "$OUT/check-blocked16.json"
"$LIFELAB" check --kernel blocked --block 16 --stride 18 --random 0.4 --size 65536x257 \
    --gens 36 --json > "$OUT/check-blocked16-wide.json"

# Dense soups: the first kernel (one generation per dispatch) against the blocked kernel at each
# k, and the default (tiles, whose dense stretches run blocked at the adapter's k).
"$LIFELAB" bench --engine gpu --kernel dense --kernel blocked --kernel tiles \
    --block 2 --block 4 --block 8 --block 16 --rule B3/S23 \
    --size 4096 --size 16384 --size 65536 --seconds 3 --json > "$OUT/bench-soups.json"

# Sparse workloads: acorn and rabbits on 4096², 16384² and 65536², GPU tiles against the CPU
# tile engine, with the active fraction; and acorn on 4096² on the first kernel, same run.
"$LIFELAB" bench --engine gpu --engine tiles --sparse --rule B3/S23 --size 4096 \
    --json > "$OUT/bench-sparse.json"
"$LIFELAB" bench --engine gpu --kernel dense --kernel tiles --pattern acorn --size 4096 \
    --json > "$OUT/bench-acorn-dense-vs-tiles.json"

# The soup census (issue 26): 100,000 soups of b3s23/C1 on the CPU (every core) and on the GPU
# path (first generations on the GPU, the CPU finishing each soup), and the two hauls compared.
"$LIFELAB" census --soups 100000 --haul "$OUT/haul-cpu.txt" --json > "$OUT/census-cpu.json"
"$LIFELAB" census --soups 100000 --gpu --batch 8192 --haul "$OUT/haul-gpu.txt" --json \
    > "$OUT/census-gpu.json"
if diff <(grep -v '^@VERSION' "$OUT/haul-cpu.txt") <(grep -v '^@VERSION' "$OUT/haul-gpu.txt") > /dev/null; then
    echo '{"census_hauls_equal": true}' > "$OUT/census-compare.json"
else
    echo '{"census_hauls_equal": false}' > "$OUT/census-compare.json"
fi

for f in "$OUT"/*.json; do
    printf '%s: ' "$f"
    head -c 300 "$f"
    echo
done
