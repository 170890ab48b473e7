#!/usr/bin/env bash
# The data-centre GPU run (issue 14): conformance, then the GPU kernels side by side with the CPU
# engines in one `bench` per question, each as JSON with the adapter's name. Written for an H200
# (or any hardware GPU); run from the repository root: benches/h200.sh [OUT_DIR]. It writes one
# JSON file per step into OUT_DIR (default: h200-results), a line per step (exit status and
# seconds) into OUT_DIR/steps.txt, and goes on past a failed step, so that one run on a lent
# machine says everything it can. LIFELAB names a binary built elsewhere (the lent machine has no
# Rust); without it the script builds one. BENCH_SECONDS sets the time per soup measurement, and
# PACK a tarball of OUT refreshed after every step.
#
# Goals it measures: at least 1.5e13 cell updates/s for B3/S23 on 65536x65536, and acorn on
# 65536x65536 to generation 5206 in under 0.1 s.
set -uo pipefail
OUT=${1:-h200-results}
BENCH_SECONDS=${BENCH_SECONDS:-3}
mkdir -p "$OUT"
if [ -z "${LIFELAB:-}" ]; then
    cargo build --release || exit 1
    LIFELAB=target/release/lifelab
fi

# step NAME LIMIT_S ARGS...: `lifelab ARGS` into OUT/NAME.json, its status and time into steps.txt.
step() {
    local name=$1 limit=$2
    shift 2
    local start=$EPOCHREALTIME
    timeout "$limit" "$LIFELAB" "$@" > "$OUT/$name.json" 2> "$OUT/$name.err"
    local rc=$?
    awk -v n="$name" -v rc="$rc" -v a="$start" -v b="$EPOCHREALTIME" \
        'BEGIN { printf "%s rc=%s seconds=%.1f\n", n, rc, b - a }' | tee -a "$OUT/steps.txt"
    # PACK: a tarball of OUT kept up to date after each step, for a machine that hands back few files.
    if [ -n "${PACK:-}" ]; then tar czf "$PACK" -C "$OUT" .; fi
}

step gpus 60 gpus --json

# Every kernel bit for bit against the reference: the built-in suite on the default kernel
# (whose groups include the tile and blocked kernels), then the whole suite on each kernel,
# and the blocked kernel at 16 generations per dispatch compared every 18.
step check-tiles 120 check --json
step check-dense 120 check --kernel dense --json
step check-sparse 120 check --kernel sparse --json
step check-blocked16 120 check --kernel blocked --block 16 --json
step check-blocked16-wide 120 check --kernel blocked --block 16 --stride 18 --random 0.4 \
    --size 65536x257 --gens 36 --json

# Dense soups: the first kernel (one generation per dispatch) against the blocked kernel at each
# k, and the default (tiles, whose dense stretches run blocked at the adapter's k).
step bench-soups 240 bench --engine gpu --kernel dense --kernel blocked --kernel tiles \
    --block 2 --block 4 --block 8 --block 16 --rule B3/S23 \
    --size 4096 --size 16384 --size 65536 --seconds "$BENCH_SECONDS" --json

# Sparse workloads: acorn and rabbits on 4096², 16384² and 65536², GPU tiles against the CPU
# tile engine, with the active fraction; and acorn on 4096² on the first kernel, same run.
step bench-sparse 180 bench --engine gpu --engine tiles --sparse --rule B3/S23 --size 4096 --json
step bench-acorn-dense-vs-tiles 120 bench --engine gpu --kernel dense --kernel tiles \
    --pattern acorn --size 4096 --json

# The soup census (issue 26): 100,000 soups of b3s23/C1 on the CPU (every core) and on the GPU
# path (first generations on the GPU, the CPU finishing each soup), and the two hauls compared.
step census-cpu 120 census --soups 100000 --haul "$OUT/haul-cpu.txt" --json
step census-gpu 120 census --soups 100000 --gpu --batch 8192 --haul "$OUT/haul-gpu.txt" --json
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
