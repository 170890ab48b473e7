#!/usr/bin/env bash
# Methuselahs on the unbounded plane, to their stabilisation (issue 23): every pattern of Golly's
# Methuselahs folder and the library's methuselahs, `lifelab run --pattern F --gens N` (a file is
# on the plane by default; `--plane` for the library's) against `bgolly -a QuickLife` and
# `bgolly -a HashLife`, whole process, REPS runs of each in alternation, the median wall-clock
# time of each, with the populations (which must agree). The generations are the lifespans the
# files' own comments give (Dean Hickerson's and Golly's notes), or LifeWiki's for the library's.
# Usage: benches/methuselahs.sh [path/to/lifelab]; ENGINE=tiles adds a column for that engine.
set -euo pipefail
LIFELAB=${1:-target/release/lifelab}
REPS=${REPS:-5}
ENGINE=${ENGINE:-}
# Runs longer than this many generations leave out QuickLife and --engine (minutes there).
SLOW=${SLOW:-100000}
P=/usr/share/golly/Patterns/Life/Methuselahs
command -v bgolly >/dev/null || { echo "bgolly is not installed (apt-get install golly)"; exit 1; }
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
# The library's methuselahs as RLE for bgolly, written by lifelab (its populations are compared
# with Golly's below all the same).
for m in acorn rabbits bunnies r-pentomino diehard; do
    "$LIFELAB" run --pattern "$m" --plane --gens 0 --out "$DIR/$m.rle" >/dev/null
done

# name, lifelab's argument, bgolly's file, generations
jobs=(
    "iwona|$P/iwona.rle|$P/iwona.rle|28786"
    "justyna|$P/justyna.rle|$P/justyna.rle|26458"
    "lidka-predecessor|$P/lidka-predecessor.rle|$P/lidka-predecessor.rle|29055"
    "blom|$P/blom.rle|$P/blom.rle|23314"
    "natural-LWSS|$P/natural-LWSS.rle|$P/natural-LWSS.rle|23334"
    "temp-pulsars-big-s|$P/temp-pulsars-big-s.rle|$P/temp-pulsars-big-s.rle|21035"
    "rabbits-relation-17423|$P/rabbits-relation-17423.rle|$P/rabbits-relation-17423.rle|17423"
    "rabbits-relation-17465|$P/rabbits-relation-17465.rle|$P/rabbits-relation-17465.rle|17465"
    "acorn.lif|$P/acorn.lif|$P/acorn.lif|5206"
    "rabbits.lif|$P/rabbits.lif|$P/rabbits.lif|17331"
    "ark1|$P/ark1.rle|$P/ark1.rle|736692"
    "ark2|$P/ark2.rle|$P/ark2.rle|8120878"
    "acorn (library)|acorn|$DIR/acorn.rle|5206"
    "rabbits (library)|rabbits|$DIR/rabbits.rle|17331"
    "bunnies (library)|bunnies|$DIR/bunnies.rle|17332"
    "R-pentomino (library)|r-pentomino|$DIR/r-pentomino.rle|1103"
    "diehard (library)|diehard|$DIR/diehard.rle|130"
)
[ -n "${ONLY:-}" ] && mapfile -t jobs < <(printf '%s\n' "${jobs[@]}" | grep -E "$ONLY")

median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
# Seconds a command takes, its output in $DIR/out; bash's own clock, so that no process is
# forked between the two readings.
timed() {
    local t0 t1
    t0=$EPOCHREALTIME; "$@" > "$DIR/out" 2>/dev/null; t1=$EPOCHREALTIME
    echo "$t1 - $t0" | bc
}
# bgolly's population: HashLife prints it; QuickLife's is read from the RLE it wrote.
golly_pop() {
    "$LIFELAB" run --pattern "$DIR/g.rle" --gens 0 --engine tiles --json | sed 's/.*"population":\([0-9]*\).*/\1/'
}

extra=""; [ -n "$ENGINE" ] && extra=" | lifelab --engine $ENGINE"
printf '| pattern, generations | Golly QuickLife | Golly HashLife | lifelab (auto)%s | speed-up over Golly'"'"'s faster | population (Golly, lifelab) |\n' "$extra"
printf '| --- | --- | --- | ---%s | --- | --- |\n' "$([ -n "$ENGINE" ] && echo ' | ---')"
ratios=()
for j in "${jobs[@]}"; do
    IFS='|' read -r name arg gfile gens <<< "$j"
    plane=""; [ -f "$arg" ] || plane="--plane"
    q=(); h=(); l=(); e=()
    for _ in $(seq "$REPS"); do
        # QuickLife is left out of the long runs: it takes 90 s on ark1.
        if [ "$gens" -le "$SLOW" ]; then
            q+=("$(timed bgolly -a QuickLife -m "$gens" -o "$DIR/g.rle" "$gfile")")
        fi
        h+=("$(timed bgolly -a HashLife -m "$gens" "$gfile")")
        hp=$(tail -1 "$DIR/out" | sed 's/.*: //; s/,//g')
        # shellcheck disable=SC2086
        l+=("$(timed "$LIFELAB" run --pattern "$arg" $plane --gens "$gens" --json)")
        lp=$(sed 's/.*"population":\([0-9]*\).*/\1/' "$DIR/out")
        if [ -n "$ENGINE" ] && [ "$gens" -le "$SLOW" ]; then
            # shellcheck disable=SC2086
            e+=("$(timed "$LIFELAB" run --pattern "$arg" $plane --gens "$gens" --engine "$ENGINE" --json)")
            ep=$(sed 's/.*"population":\([0-9]*\).*/\1/' "$DIR/out")
            [ "$ep" = "$lp" ] || lp="$lp, --engine $ENGINE $ep"
        fi
    done
    hm=$(median "${h[@]}"); lm=$(median "${l[@]}")
    if [ "${#q[@]}" -gt 0 ]; then
        qp=$(golly_pop); qm=$(median "${q[@]}"); qs=$(printf '%.3f s' "$qm")
    else
        qp=$hp; qm=$hm; qs="(not run)"
    fi
    best=$(printf '%s\n%s\n' "$qm" "$hm" | sort -n | head -1)
    r=$(echo "scale=2; $best / $lm" | bc)
    ratios+=("$r")
    col=""; [ -n "$ENGINE" ] && col=" | (not run)"
    [ "${#e[@]}" -gt 0 ] && col=$(printf ' | %.3f s' "$(median "${e[@]}")")
    pops="$qp, $lp"; [ "$qp" = "$hp" ] || pops="QuickLife $qp, HashLife $hp, lifelab $lp"
    [ "$qp" = "${lp%%,*}" ] || pops="DIFFER: $pops"
    printf '| %s, %s | %s | %.3f s | %.3f s%s | %s× | %s |\n' "$name" "$gens" "$qs" "$hm" "$lm" "$col" "$r" "$pops"
done
printf '\nmedian speed-up over the faster of Golly'"'"'s two: %s×; the least: %s×\n' \
    "$(median "${ratios[@]}")" "$(printf '%s\n' "${ratios[@]}" | sort -n | head -1)"
