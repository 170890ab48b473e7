#!/usr/bin/env bash
# Two lifelab binaries on the same jobs, interleaved (A B A B ...) so that the machine's noise
# falls on both alike: the median wall-clock time of the whole process for each, and their
# ratio. For a change that must not cost speed. Usage:
#   benches/before_after.sh OLD_BINARY NEW_BINARY [ROUNDS]
set -euo pipefail
OLD=$1
NEW=$2
ROUNDS=${3:-5}
P=/usr/share/golly/Patterns
JOBS=(
    "run --pattern acorn --plane --gens 5206"
    "run --pattern acorn --size 4096 --gens 5206"
    "run --pattern rabbits --size 8192 --gens 17331"
    "run --random 0.5 --size 2048 --gens 200 --engine cpu"
    "run --random 0.5 --size 1024 --gens 1000 --engine tiles"
    "run --pattern acorn --plane --gens 100000"
    "bench --engine cpu --size 2048 --gens 100"
    "bench --engine tiles --size 2048 --gens 100"
)
[ -f "$P/Life/Methuselahs/iwona.rle" ] && JOBS+=("run --pattern $P/Life/Methuselahs/iwona.rle --gens 28786")
[ -f "$P/HashLife/metapixel-galaxy.mc.gz" ] && JOBS+=("run --pattern $P/HashLife/metapixel-galaxy.mc.gz --gens 1000")

seconds() {
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '| job | before (s) | after (s) | after / before |\n| --- | --- | --- | --- |\n'
for job in "${JOBS[@]}"; do
    read -r -a args <<< "$job"
    a=(); b=()
    for _ in $(seq "$ROUNDS"); do
        a+=("$(seconds "$OLD" "${args[@]}")")
        b+=("$(seconds "$NEW" "${args[@]}")")
    done
    ma=$(printf '%s\n' "${a[@]}" | median)
    mb=$(printf '%s\n' "${b[@]}" | median)
    printf '| `%s` | %.3f | %.3f | %.2f |\n' "$job" "$ma" "$mb" "$(echo "$mb / $ma" | bc -l)"
done
