#!/usr/bin/env bash
# benches/h200.sh on a lent device machine, which has no Rust and no Vulkan loader: the binaries
# built here travel packed in .dev/bins.tgz (lifelab, and the test binaries of tests/gpu.rs,
# tests/census.rs and the library), the loader as Debian packages in .gl/ (see
# /work/.library/device/README.md). On the machine, from the repository root:
#   OUT=<folder handed back> benches/h200_lent.sh
# It runs every GPU test on the real adapter, then benches/h200.sh, then the other rule families
# (Generations, Larger than Life, a rule table) checked bit for bit and benchmarked, GPU against
# the CPU engine auto picks; everything lands in $OUT/h200.tgz, refreshed after each step, and a
# log in $OUT/log.txt.
set -uo pipefail
OUT=${OUT:-/tmp/h200-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -f "$icd" ]; then
    export VK_DRIVER_FILES=$icd
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
tar xzf .dev/bins.tgz
# The tests find the binary and their data by this checkout's path at build time.
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
target/release/lifelab gpus
if ! target/release/lifelab gpus | grep -q NVIDIA; then
    echo "no NVIDIA adapter with the ICD named; trying the loader's own search"
    unset VK_DRIVER_FILES __EGL_VENDOR_LIBRARY_FILENAMES
    ls /usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/local/nvidia/share/vulkan/icd.d 2>&1
    target/release/lifelab gpus
fi
export LIFELAB=$PWD/target/release/lifelab LIFELAB_ADAPTER=${LIFELAB_ADAPTER:-NVIDIA}
R=/tmp/h200-results
mkdir -p "$R"
export PACK=$OUT/h200.tgz

# Every GPU test, on the real adapter (CI runs them on lavapipe).
for t in .dev/t/*; do
    name=$(basename "$t")
    filter=""
    [ "$name" = gpu ] || filter=gpu
    start=$EPOCHREALTIME
    timeout 180 "$t" --test-threads 8 $filter > "$R/test-$name.txt" 2>&1
    rc=$?
    awk -v n="test-$name" -v rc="$rc" -v a="$start" -v b="$EPOCHREALTIME" \
        'BEGIN { printf "%s rc=%s seconds=%.1f\n", n, rc, b - a }' | tee -a "$R/steps.txt"
    tail -3 "$R/test-$name.txt"
done
tar czf "$PACK" -C "$R" .

BENCH_SECONDS=${BENCH_SECONDS:-2} benches/h200.sh "$R"

# The other rule families: bit for bit on an odd torus, then GPU against the CPU engine auto picks.
fam=(--rules .dev/rules --rule 'B2/S/C3' --rule 'R5,C2,M1,S34..58,B34..45,NM' --rule WireWorld
    --rule Langtons-Loops)
# (Larger than Life's reference engine counts each cell's 121 neighbours: a smaller torus.)
for w in 'B2/S/C3 4099x1031 60' 'R5,C2,M1,S34..58,B34..45,NM 1031x517 30' \
    'WireWorld 4099x1031 60' 'Langtons-Loops 4099x1031 60'; do
    read -r r size gens <<< "$w"
    n=check-family-$(echo "$r" | tr -c 'A-Za-z0-9\n' '_')
    start=$EPOCHREALTIME
    timeout 120 "$LIFELAB" check --rules .dev/rules --rule "$r" --random 0.4 --size "$size" \
        --gens "$gens" --json > "$R/$n.json" 2> "$R/$n.err"
    rc=$?
    awk -v n="$n" -v rc="$rc" -v a="$start" -v b="$EPOCHREALTIME" \
        'BEGIN { printf "%s rc=%s seconds=%.1f\n", n, rc, b - a }' | tee -a "$R/steps.txt"
done
start=$EPOCHREALTIME
timeout 180 "$LIFELAB" bench --engine gpu --engine auto "${fam[@]}" --size 4096 --size 16384 \
    --seconds 2 --json > "$R/bench-families.json" 2> "$R/bench-families.err"
rc=$?
awk -v rc="$rc" -v a="$start" -v b="$EPOCHREALTIME" \
    'BEGIN { printf "bench-families rc=%s seconds=%.1f\n", rc, b - a }' | tee -a "$R/steps.txt"
tar czf "$PACK" -C "$R" .
echo finished
