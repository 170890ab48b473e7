#!/bin/bash
# Builds the census oracle against python-lifelib's sources (pip install python-lifelib, then
# import it once so that it generates its rule code), e.g.
#   bash scripts/census/make_oracle.sh && /tmp/lifelib_oracle b3s23 C1 k_lifelab_ 0 200
set -euo pipefail
ll=$(python3 -c 'import lifelib, os; print(os.path.dirname(lifelib.__file__))')
g++ -std=c++11 -O3 -march=native -I"$ll" "$(dirname "$0")/lifelib_oracle.cpp" -o /tmp/lifelib_oracle
