#!/bin/bash
# Records tests/data/census/apgluxe_b3s23_C1_k_lifelab_10000.txt: the haul that apgluxe itself
# (Adam P. Goucher's apgsearch, v4.2-ll1.2, with the lifelib it ships) writes for soups 0 to 9999
# of b3s23/C1 from the root k_lifelab_. apgluxe's offline build (it writes its haul to a log file
# and uploads nothing) is github.com/AlephAlpha/apgluxe_offline; its rule and symmetry scripts
# need Python 2, and it builds with g++ -O3 -march=native -fopenmp.
#
#   bash scripts/census/record_apgluxe.sh /path/to/apgluxe_offline
#
# The same build gives apgluxe's soups per second for BENCHMARKS.md:
#   ./apgluxe -s k_lifelab_ -n 4000 -t 1 [-p 2]
set -euo pipefail
src=${1:?the apgluxe_offline checkout}
out="$(cd "$(dirname "$0")/../.." && pwd)/tests/data/census"
cd "$src"
python2 lifelib/avxlife/rule2asm.py b3s23
python2 mkparams.py b3s23 C1
make
rm -f log.*.k_lifelab_.txt
# -t: one haul, then stop; stdin closed, since apgluxe polls it for a q.
./apgluxe -s k_lifelab_ -n 10000 -t 1 < /dev/null > /dev/null
cp log.*.k_lifelab_.txt "$out/apgluxe_b3s23_C1_k_lifelab_10000.txt"
