#!/usr/bin/env python3
"""Golly's patterns of a rule family, bgolly and two lifelab binaries interleaved job by job.

Usage: benches/interleaved_families.py rule-files|jvn|non-totalistic|generations|ltl GENS FIRST LAST

For each file, bgolly (RuleLoader with Golly's rules folder, JvN, Generations, Larger than
Life or QuickLife), FIRST and LAST (`run --pattern F --gens GENS --json`) run in turn, 11 times
where Golly takes under 50 ms and 3 times otherwise, the order reversed every other time (the
one run last ran a few per cent faster on a virtual machine); the medians of the whole
processes are printed as a Markdown table with both ratios (Golly's time over lifelab's) and
the populations, which must agree. On a noisy machine this is the way to compare two binaries:
a run of each script per binary puts minutes between the two, and the noise of runs of a few
milliseconds moves by 10-20% in that time.
"""
import glob
import gzip
import json
import statistics
import subprocess
import sys
import time

family, gens, first, last = sys.argv[1:5]
P = "/usr/share/golly/Patterns"
if family == "rule-files":
    files = sorted(glob.glob(P + "/Loops/*.rle")) + sorted(
        f for f in glob.glob(P + "/Self-Rep/*/*") if "/JvN/" not in f and not f.endswith(".zip")
    )
    golly = ["bgolly", "-a", "RuleLoader", "-s", "/usr/share/golly/Rules/", "-m", gens]
elif family == "jvn":
    files = sorted(f for f in glob.glob(P + "/Self-Rep/JvN/*") if not f.endswith(".zip"))
    golly = ["bgolly", "-a", "JvN", "-m", gens]
elif family == "ltl":
    files = sorted(glob.glob(P + "/Larger-than-Life/*"))
    golly = ["bgolly", "-a", "Larger than Life", "-m", gens]
elif family == "generations":
    files = sorted(glob.glob(P + "/Generations/*"))
    golly = ["bgolly", "-a", "Generations", "-m", gens]
else:
    files = sorted(glob.glob(P + "/Non-Totalistic/*.rle")) + sorted(
        glob.glob(P + "/Non-Totalistic/JustFriends/*.rle")
    )
    golly = ["bgolly", "-a", "QuickLife", "-m", gens]


def golly_gens(f):
    """bgolly's `-m` is the generation to reach: a macrocell's `#G` line starts it there."""
    opener = gzip.open if f.endswith(".gz") else open
    with opener(f, "rt", errors="replace") as text:
        for line in text:
            # `#GAME` is an MCell file's game, not a generation.
            if line.startswith("#G ") or line.rstrip() == "#G":
                return str(int(line.split()[1]) + int(gens))
            if not line.startswith(("#", "[")):
                break
    return gens


def timed(cmd):
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - t0, out.stdout


def population(out, is_golly):
    try:
        if is_golly:
            return int(out.strip().splitlines()[-1].split(":")[-1].replace(",", ""))
        return json.loads(out)["population"]
    except (ValueError, IndexError, KeyError):
        return None


print("| pattern | Golly | lifelab, first | lifelab, last | ratio, first | ratio, last | population |")
print("| --- | --- | --- | --- | --- | --- | --- |")
ratios_first, ratios_last = [], []
for f in files:
    cmds = [golly[:-1] + [golly_gens(f), f]] + [[b, "run", "--pattern", f, "--gens", gens, "--json"] for b in (first, last)]
    reps = 11 if timed(cmds[0])[0] < 0.05 else 3
    times = [[], [], []]
    pops = [None] * 3
    for rep in range(reps):
        for k in range(3) if rep % 2 == 0 else reversed(range(3)):
            dt, out = timed(cmds[k])
            times[k].append(dt)
            pops[k] = population(out, k == 0)
    m = [statistics.median(t) for t in times]
    ratios_first.append(m[0] / m[1])
    ratios_last.append(m[0] / m[2])
    agree = "" if pops[0] == pops[1] == pops[2] else f" (DIFFER: {pops})"
    print(
        f"| {f[len(P) + 1:]} | {m[0] * 1000:.1f} ms | {m[1] * 1000:.1f} ms | {m[2] * 1000:.1f} ms "
        f"| {m[0] / m[1]:.2f}× | {m[0] / m[2]:.2f}× | {pops[0]}{agree} |",
        flush=True,
    )
below = lambda rs: sum(r < 1 for r in rs)
print(
    f"\nmedian ratio: first {statistics.median(ratios_first):.2f}×, last {statistics.median(ratios_last):.2f}×; "
    f"below 1×: first {below(ratios_first)}, last {below(ratios_last)} of {len(files)}"
)
