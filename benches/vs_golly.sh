#!/usr/bin/env bash
# lifelab against Golly's bgolly on the same jobs, side by side in one run: each job three times
# on each program, the median wall-clock time of the whole process reported, with the population
# each program reached (they must agree). Usage: benches/vs_golly.sh [path/to/lifelab]
set -euo pipefail
LIFELAB=${1:-target/release/lifelab}
command -v bgolly >/dev/null || { echo "bgolly is not installed (apt-get install golly)"; exit 1; }
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
printf '#N Acorn\nx = 7, y = 3, rule = B3/S23:T4096,4096\nbo$3bo$2o2b3o!\n' > "$DIR/acorn4096.rle"
printf '#N Acorn\nx = 7, y = 3, rule = B3/S23\nbo$3bo$2o2b3o!\n' > "$DIR/acorn.rle"
printf '#N Rabbits\nx = 7, y = 3, rule = B3/S23:T8192,8192\no3b3o$3o2bo$bo!\n' > "$DIR/rabbits8192.rle"

# Median of three runs of a command, in seconds; the command's last output line is kept.
median3() {
    local times=()
    for _ in 1 2 3; do
        local t0 t1
        t0=$(date +%s.%N)
        "$@" > "$DIR/out.txt" 2>&1
        t1=$(date +%s.%N)
        times+=("$(echo "$t1 - $t0" | bc)")
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n 2p
}

# The population in an RLE file bgolly wrote.
rle_population() {
    "$LIFELAB" run --pattern "$1" --gens 0 --engine tiles --json | sed 's/.*"population":\([0-9]*\).*/\1/'
}

job() {
    local label=$1 algo=$2 gens=$3 rle=$4 lifelab_args=$5
    local g l gp lp engine
    g=$(median3 bgolly -a "$algo" -m "$gens" -o "$DIR/golly.rle" "$DIR/$rle")
    if [ "$algo" = HashLife ]; then
        # HashLife's own report: its last line is "generation: population".
        gp=$(bgolly -a "$algo" -m "$gens" "$DIR/$rle" | tail -1 | sed 's/.*: //; s/,//g')
    else
        gp=$(rle_population "$DIR/golly.rle")
    fi
    # shellcheck disable=SC2086
    l=$(median3 "$LIFELAB" run $lifelab_args --gens "$gens" --json)
    lp=$(sed 's/.*"population":\([0-9]*\).*/\1/' "$DIR/out.txt")
    engine=$(sed 's/.*"engine":"\([a-z]*\)".*/\1/' "$DIR/out.txt")
    printf '| %s | %.3f s (%s) | %.3f s (%s) | %.1fx | %s | %s |\n' \
        "$label" "$g" "$algo" "$l" "$engine" "$(echo "$g / $l" | bc -l)" "$gp" "$lp"
}

echo "| job | bgolly | lifelab (auto) | lifelab's speed-up | population (Golly) | population (lifelab) |"
echo "| --- | --- | --- | --- | --- | --- |"
job "acorn, 4096x4096 torus, to 5206" QuickLife 5206 acorn4096.rle "--pattern acorn --size 4096x4096"
job "rabbits, 8192x8192 torus, to 17332" QuickLife 17332 rabbits8192.rle "--pattern rabbits --size 8192x8192"
job "acorn, 4096x4096 torus, to 10^5" QuickLife 100000 acorn4096.rle "--pattern acorn --size 4096x4096"
job "acorn, 4096x4096 torus, to 10^6" QuickLife 1000000 acorn4096.rle "--pattern acorn --size 4096x4096"
job "acorn, unbounded plane, to 10^6" HashLife 1000000 acorn.rle "--pattern acorn --plane"
for p in acorn rabbits; do
    t=$(median3 "$LIFELAB" analyze --pattern "$p" --json)
    printf '| analyze %s | (no such command) | %.3f s | | | %s |\n' "$p" "$t" \
        "$(sed 's/.*"lifespan":\([0-9]*\).*/lifespan \1/' "$DIR/out.txt")"
done
