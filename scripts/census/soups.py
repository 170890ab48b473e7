# Records lifelib's hashsoup for every symmetry lifelab makes, for tests/census.rs:
#   python3 scripts/census/soups.py > tests/data/census/lifelib_soups.txt
# Each line: symmetry, seed, then the soup's cells as x,y pairs relative to lifelib's origin.
import lifelib
sess = lifelib.load_rules('b3s23')
lt = sess.lifetree()
syms = ['C1', 'C2_1', 'C2_2', 'C2_4', 'C4_1', 'C4_4', 'D2_+1', 'D2_+2', 'D2_x', 'D4_+1', 'D4_+2',
        'D4_+4', 'D4_x1', 'D4_x4', 'D8_1', 'D8_4', '8x32', '4x64', '2x128', '1x256']
seeds = ['k_test0', 'k_lifelab_7', 'l_abc123', 'n_xyzzy42', '']
print('# lifelib', lifelib.__version__ if hasattr(lifelib, '__version__') else '')
for s in syms:
    for seed in seeds:
        p = lt.hashsoup('b3s23', s, seed)
        cells = p.coords()
        pairs = ' '.join('%d,%d' % (int(c[0]), int(c[1])) for c in sorted(map(tuple, cells), key=lambda c: (c[1], c[0])))
        print(s, repr(seed), pairs)
