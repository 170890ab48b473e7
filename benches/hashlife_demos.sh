#!/usr/bin/env bash
# Golly's 24 macrocell HashLife demos (/usr/share/golly/Patterns/HashLife, less the 1D
# wolfram22.mc) on the unbounded plane: `lifelab run --pattern F --plane --gens GENS` against
# `bgolly -a HashLife -m GENS F`, whole process, REPS runs of each in alternation, the median
# wall-clock time and the peak resident memory (/usr/bin/time) of each, with both populations
# (which must agree).
# Usage: benches/hashlife_demos.sh [path/to/lifelab]; GENS=1073741824 ONLY='jagged|ruler' for 2^30.
set -euo pipefail
LIFELAB=${1:-target/release/lifelab}
GENS=${GENS:-1048576}
REPS=${REPS:-3}
ONLY=${ONLY:-.}
P=/usr/share/golly/Patterns/HashLife
command -v bgolly >/dev/null || { echo "bgolly is not installed (apt-get install golly)"; exit 1; }
files=($(ls "$P"/*.mc "$P"/*.mc.gz | grep -v wolfram22 | grep -E "$ONLY"))
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
timed() { /usr/bin/time -f "%e %M" -o /tmp/hl_demo_time "$@"; }

printf '| pattern | Golly | lifelab | ratio | Golly memory | lifelab memory | population |\n| --- | --- | --- | --- | --- | --- | --- |\n'
ratios=()
for f in "${files[@]}"; do
    gt=(); lt=(); gm=(); lm=()
    for _ in $(seq "$REPS"); do
        gp=$(timed bgolly -a HashLife -m "$GENS" "$f" | tail -1 | sed 's/.*: //; s/,//g')
        read -r t m < /tmp/hl_demo_time; gt+=("$t"); gm+=("$m")
        out=$(timed "$LIFELAB" run --pattern "$f" --plane --gens "$GENS" --json 2>/dev/null)
        read -r t m < /tmp/hl_demo_time; lt+=("$t"); lm+=("$m")
    done
    lp=$(echo "$out" | sed 's/.*"population":\([0-9]*\).*/\1/')
    g=$(median "${gt[@]}"); l=$(median "${lt[@]}")
    # /usr/bin/time has 10 ms resolution: a run under it counts as 10 ms.
    r=$(echo "scale=2; ($g + 0.005) / ($l + 0.005)" | bc)
    ratios+=("$r")
    same=$([ "$gp" = "$lp" ] && echo "$lp" || echo "DIFFER: Golly $gp, lifelab $lp")
    printf '| %s | %.2f s | %.2f s | %s× | %d MB | %d MB | %s |\n' "${f#$P/}" "$g" "$l" "$r" \
        "$(( $(median "${gm[@]}") / 1024 ))" "$(( $(median "${lm[@]}") / 1024 ))" "$same"
done
printf '\nmedian ratio (Golly time / lifelab time): %s×\n' "$(printf '%s\n' "${ratios[@]}" | sort -n | sed -n "$(( (${#ratios[@]} + 1) / 2 ))p")"
