#!/bin/bash
# Records tests/data/census from lifelib (pip install python-lifelib): the soups of every
# symmetry, and the census oracle's objects for each soup of several rules and symmetries.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=tests/data/census
python3 scripts/census/soups.py > $out/lifelib_soups.txt
# lifelib compiles in the rules it is given.
python3 -c "from lifelib import autocompile as a; a.reset_tree(['b3s23', 'b36s23', 'b3s2-i34q'], throw_error=True)"
bash scripts/census/make_oracle.sh
record() { # rule symmetry soups
    {
        echo "# lifelib's classifier, driven as apgluxe's censusSoup drives it (scripts/census/lifelib_oracle.cpp):"
        echo "#   bash scripts/census/record.sh, which runs /tmp/lifelib_oracle $1 $2 k_lifelab_ 0 $3"
        echo "# Each line: soup number, the generation it settled at, then apgcode*count."
        /tmp/lifelib_oracle "$1" "$2" k_lifelab_ 0 "$3" 2>/dev/null
    } > "$out/lifelib_$1_$2_k_lifelab_.txt"
}
record b3s23 C1 1000
record b3s23 D8_1 300
record b3s23 C2_4 300
record b3s23 1x256 300
record b36s23 C1 300
record b3s2-i34q C1 300
python3 -c "from lifelib import autocompile as a; a.reset_tree()"
