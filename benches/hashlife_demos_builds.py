#!/usr/bin/env python3
"""Golly's HashLife demos on several lifelab builds and bgolly, interleaved run by run.

Usage: benches/hashlife_demos_builds.py REPS GENS REGEX BUILD... ("golly" as a BUILD is
`bgolly -a HashLife`)

For each macrocell demo in /usr/share/golly/Patterns/HashLife whose path matches REGEX (less the
1D wolfram22.mc), every build runs `run --pattern F --plane --gens GENS` REPS times, in turn with
the others, the order reversed every other time; the median wall-clock time and peak resident
memory of each are printed as a Markdown row, with the first build's time over each other's.
`benches/hashlife_demos.sh` compares one build with Golly and checks the populations; this one
compares builds side by side, which on a noisy machine is the only fair way.
"""
import glob
import os
import re
import statistics
import subprocess
import sys
import time

reps, gens, only = int(sys.argv[1]), sys.argv[2], sys.argv[3]
builds = sys.argv[4:]
P = "/usr/share/golly/Patterns/HashLife"
files = sorted(
    f
    for f in glob.glob(P + "/*.mc") + glob.glob(P + "/*.mc.gz")
    if "wolfram22" not in f and re.search(only, f)
)


def command(build, f):
    if build == "golly":
        return ["bgolly", "-a", "HashLife", "-m", gens, f]
    return [build, "run", "--pattern", f, "--plane", "--gens", gens]


print("| pattern | " + " | ".join(os.path.basename(b) for b in builds) + " | first's time over each other's |")
print("| --- |" + " --- |" * (len(builds) + 1))
for f in files:
    times = {b: [] for b in builds}
    memory = {b: [] for b in builds}
    for i in range(reps):
        for b in builds if i % 2 == 0 else builds[::-1]:
            start = time.perf_counter()
            p = subprocess.Popen(command(b, f), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, _, usage = os.wait4(p.pid, 0)
            times[b].append(time.perf_counter() - start)
            memory[b].append(usage.ru_maxrss // 1024)
    medians = [statistics.median(times[b]) for b in builds]
    cells = [f"{statistics.median(times[b]):.3f} s, {statistics.median(memory[b]):.0f} MB" for b in builds]
    ratios = " ".join(f"{medians[0] / m:.2f}×" for m in medians[1:])
    print(f"| {os.path.basename(f)} | " + " | ".join(cells) + f" | {ratios} |", flush=True)
