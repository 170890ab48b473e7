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
# (SKIP=R500 leaves out the files whose names match, for a quick run). TIMEOUT (seconds, 600)
# bounds each run: a run cut off is shown as "> TIMEOUT s" and left out of the median.
set -euo pipefail
LIFELAB=${1:-target/release/lifelab}
GENS=${GENS:-1000}
REPS=${REPS:-5}
TIMEOUT=${TIMEOUT:-600}
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
    gt=(); lt=(); gcut=0; lcut=0
    for _ in $(seq "$REPS"); do
        rc=0
        t0=$EPOCHREALTIME; timeout "$TIMEOUT" bgolly -a "$algo" -s /usr/share/golly/Rules/ -m "$until" "$f" > "$tmp/g" || rc=$?; t1=$EPOCHREALTIME
        [ "$rc" = 124 ] && gcut=1
        gp=$(tail -1 "$tmp/g" | sed 's/.*: //; s/,//g')
        gt+=("$(echo "$t1 - $t0" | bc)")
        rc=0
        t0=$EPOCHREALTIME; timeout "$TIMEOUT" "$LIFELAB" run --pattern "$f" --gens "$GENS" --json > "$tmp/l" 2>/dev/null || rc=$?; t1=$EPOCHREALTIME
        [ "$rc" = 124 ] && lcut=1
        out=$(cat "$tmp/l")
        lt+=("$(echo "$t1 - $t0" | bc)")
    done
    lp=$(echo "$out" | sed 's/.*"population":\([0-9]*\).*/\1/')
    engine=$(echo "$out" | sed 's/.*"engine":"\([a-z-]*\)".*/\1/')
    g=$(median "${gt[@]}"); l=$(median "${lt[@]}")
    gs=$(printf '%.3f s' "$g"); ls=$(printf '%.3f s' "$l")
    [ "$gcut" = 1 ] && gs="> $TIMEOUT s" && gp="(cut off)"
    [ "$lcut" = 1 ] && ls="> $TIMEOUT s" && lp="(cut off)" && engine="(cut off)"
    if [ "$gcut" = 0 ] && [ "$lcut" = 0 ]; then
        r=$(echo "scale=2; $g / $l" | bc)
        ratios+=("$r")
    else
        r="—"
    fi
    same=$([ "$gp" = "$lp" ] && echo "$lp" || echo "DIFFER: Golly $gp, lifelab $lp")
    [ "$gcut" = 1 ] && same="lifelab $lp, Golly cut off"
    [ "$lcut" = 1 ] && same="Golly $gp, lifelab cut off"
    printf '| %s | %s | %s | %s | %s× | %s |\n' "${f#$P/}" "$gs" "$ls" "$engine" "$r" "$same"
done
printf '\nmedian ratio (Golly time / lifelab time): %s×\n' "$(printf '%s\n' "${ratios[@]}" | sort -n | sed -n "$(( (${#ratios[@]} + 1) / 2 ))p")"
