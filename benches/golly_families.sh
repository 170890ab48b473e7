#!/usr/bin/env bash
# Golly's own patterns of the rule families it runs beyond Life-like ones, at 1000 generations:
# lifelab's default engine against bgolly's algorithm for the family (QuickLife for the
# non-totalistic patterns, HashLife for the 2D Wolfram demo, Generations for Generations,
# RuleLoader with Golly's rules folder for rule files), whole process, each job REPS times (5)
# on each program in alternation, the median wall-clock time reported with both populations
# (which must agree).
# Usage: benches/golly_families.sh [path/to/lifelab] [non-totalistic|generations|rule-files|ltl|jvn]
# rule-files takes Golly's Loops and Self-Rep patterns but von Neumann's, which jvn takes
# (against Golly's JvN algorithm); GENS=10000 is the issue's first figure. ltl takes Golly's Larger-than-Life folder
# (SKIP=R500 leaves out the files whose names match, for a quick run).
set -euo pipefail
LIFELAB=${1:-target/release/lifelab}
GENS=${GENS:-1000}
REPS=${REPS:-5}
P=/usr/share/golly/Patterns
command -v bgolly >/dev/null || { echo "bgolly is not installed (apt-get install golly)"; exit 1; }
case "${2:-non-totalistic}" in
    generations) files=("$P"/Generations/*) ;;
    rule-files) files=("$P"/Loops/*.rle $(ls "$P"/Self-Rep/*/* | grep -v -e /JvN/ -e '\.zip$')) ;;
    ltl) files=($(ls "$P"/Larger-than-Life/* | grep -v -e "${SKIP:-^$}")) ;;
    jvn) files=($(ls "$P"/Self-Rep/JvN/* | grep -v '\.zip$')) ;;
    *) files=("$P"/Non-Totalistic/*.rle "$P"/Non-Totalistic/JustFriends/*.rle "$P"/HashLife/wolfram22.mc) ;;
esac

# Bash's own clock: no process forked between the two readings (a `date` took about 1 ms,
# added to both sides, which drew the ratios of runs of a few milliseconds towards 1).
tmp=$(mktemp -d)
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }

printf '| pattern | Golly | lifelab | lifelab engine | ratio | population |\n| --- | --- | --- | --- | --- | --- |\n'
ratios=()
for f in "${files[@]}"; do
    algo=QuickLife
    case "$f" in *.mc) algo=HashLife ;; */Generations/*) algo=Generations ;; esac
    case "${2:-}" in rule-files) algo=RuleLoader ;; ltl) algo="Larger than Life" ;; jvn) algo=JvN ;; esac
    # bgolly's -m is the generation to reach, and a macrocell file's #G line is where it
    # starts (Golly's sphinx files are at 10^11): it runs GENS from there, as lifelab does.
    start=0
    case "$f" in *.mc|*.mc.gz) start=$(zcat -f "$f" | grep -m1 '^#G ' | cut -d' ' -f2 || true) ;; esac
    until=$(echo "${start:-0} + $GENS" | bc)
    gt=(); lt=()
    for _ in $(seq "$REPS"); do
        t0=$EPOCHREALTIME; bgolly -a "$algo" -s /usr/share/golly/Rules/ -m "$until" "$f" > "$tmp/g"; t1=$EPOCHREALTIME
        gp=$(tail -1 "$tmp/g" | sed 's/.*: //; s/,//g')
        gt+=("$(echo "$t1 - $t0" | bc)")
        t0=$EPOCHREALTIME; "$LIFELAB" run --pattern "$f" --gens "$GENS" --json > "$tmp/l" 2>/dev/null; t1=$EPOCHREALTIME
        out=$(cat "$tmp/l")
        lt+=("$(echo "$t1 - $t0" | bc)")
    done
    lp=$(echo "$out" | sed 's/.*"population":\([0-9]*\).*/\1/')
    engine=$(echo "$out" | sed 's/.*"engine":"\([a-z-]*\)".*/\1/')
    g=$(median "${gt[@]}"); l=$(median "${lt[@]}")
    r=$(echo "scale=2; $g / $l" | bc)
    ratios+=("$r")
    same=$([ "$gp" = "$lp" ] && echo "$lp" || echo "DIFFER: Golly $gp, lifelab $lp")
    printf '| %s | %.3f s | %.3f s | %s | %s× | %s |\n' "${f#$P/}" "$g" "$l" "$engine" "$r" "$same"
done
printf '\nmedian ratio (Golly time / lifelab time): %s×\n' "$(printf '%s\n' "${ratios[@]}" | sort -n | sed -n "$(( (${#ratios[@]} + 1) / 2 ))p")"
