//! A rule of the 3x3 block (a [`MapRule`]: Hensel's letters, MAP, Golly's 2D Wolfram) as a
//! circuit of multiplexers on words, so that 64 cells are decided at once whatever the table.
//!
//! The circuit is the table's reduced binary decision diagram: a node tests one cell of the
//! block and picks one of two smaller circuits; equal halves collapse into one. Isotropic rules
//! need a few dozen nodes, each one `lo ^ ((lo ^ hi) & x)` on a word.

use std::sync::{Mutex, OnceLock};

use rustc_hash::FxHashMap;

use super::MapRule;

/// The first order in which the block's cells are tested (index bits: 4 is the centre, 8 NW, 0
/// SE): the centre first, then the edges, then the corners.
const ORDER: [u8; 9] = [4, 7, 1, 5, 3, 8, 6, 2, 0];

/// Shuffled orders tried besides `ORDER` before the best of them is improved by swapping two
/// cells at a time. The size depends on the order (Life: 41 nodes in `ORDER`, 26 at best).
/// Each size is counted from the table in about a microsecond. On Golly's non-totalistic rules
/// this search found circuits as small as the best of 5000 shuffles on nine of ten, and up to
/// 17% smaller than the best of 96 shuffles, which it replaced, in about as many counts (73
/// to 125 against 97) made three times faster.
const ORDERS_SHUFFLED: usize = 8;

#[derive(Clone, Debug)]
pub struct Circuit {
    /// (cell tested, value if dead, value if alive), children before parents. Values 0 and 1
    /// are the constants; node i is value i + 2.
    nodes: Vec<(u8, u16, u16)>,
    root: u16,
    /// The nodes as the word kernels run them: every operand an index into one array of values,
    /// the constants at 0 and 1, the block's nine cells at 2 to 10 (index bit b at b + 2), node
    /// i at i + 11. No table of pointers to the inputs is read, and no index is checked.
    program: Vec<[u16; 3]>,
    /// `program` cut into runs of lines that test the same cell (the nodes are in order of
    /// level): that cell's value index and the end of its run. The run reads the cell once.
    levels: Vec<(u16, u16)>,
}

/// Where `program`'s nodes start in its array of values.
const FIRST_NODE: usize = 11;

/// A circuit's scratch values, kept by its caller between calls, each on a cache line's
/// boundary (a value of 4 words on half of one). A `Vec<[u64; 16]>` is aligned to 8 bytes only
/// (16 from the allocator), and every 64-byte load and store of a value then straddled two
/// lines: the circuit ran at half its speed (B2-a/S12: 7.3 ns a row, 3.8 aligned).
#[derive(Default)]
pub struct Values(Vec<Lines>);

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Lines([u64; 16]);

impl Values {
    pub const fn new() -> Self {
        Values(Vec::new())
    }

    /// Room for `len` values of `N` words.
    pub fn chunks<const N: usize>(&mut self, len: usize) -> &mut [[u64; N]] {
        let lines = (len * N).div_ceil(16);
        if self.0.len() < lines {
            self.0.resize(lines, Lines([0; 16]));
        }
        // SAFETY: `Lines` is `repr(C)` round one `[u64; 16]`, and its 128 bytes are a multiple of
        // its alignment, so a slice of them is a slice of those arrays with nothing between.
        let words: &mut [[u64; 16]] = unsafe {
            std::slice::from_raw_parts_mut(self.0.as_mut_ptr().cast::<[u64; 16]>(), self.0.len())
        };
        &mut words.as_flattened_mut().as_chunks_mut::<N>().0[..len]
    }
}

impl Circuit {
    /// The rule's circuit, built once per process: each engine (and each engine the session
    /// switches to) asks for it, and a search of orders costs a fraction of a millisecond.
    pub fn new(rule: &MapRule) -> Self {
        static BUILT: OnceLock<Mutex<FxHashMap<MapRule, Circuit>>> = OnceLock::new();
        let built = BUILT.get_or_init(Default::default);
        if let Some(c) = built.lock().ok().and_then(|m| m.get(rule).cloned()) {
            return c;
        }
        let c = Self::search(rule);
        if let Ok(mut m) = built.lock() {
            // A rule search makes many; a circuit is small, but the map must not grow for ever.
            if m.len() >= 4096 {
                m.clear();
            }
            m.insert(*rule, c.clone());
        }
        c
    }

    /// The smallest circuit of the orders tried: `ORDER` and a few shuffles, the best of them
    /// then improved by swapping two cells while a swap makes it smaller (a local search, as
    /// in the variable reordering of decision diagrams). Each order's size is counted from the
    /// table ([`size_with_order`]), and only the best is built: building every one took about
    /// a millisecond, a quarter of a short run of a non-totalistic pattern.
    fn search(rule: &MapRule) -> Self {
        let table = rule.table();
        let (mut best, mut least) = (ORDER, size_with_order(&table, &ORDER));
        // A fixed xorshift sequence of shuffles, so that a rule always gets the same circuit.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..ORDERS_SHUFFLED {
            let mut order = ORDER;
            for i in (1..order.len()).rev() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                order.swap(i, (seed % (i as u64 + 1)) as usize);
            }
            let size = size_with_order(&table, &order);
            if size < least {
                (best, least) = (order, size);
            }
        }
        // Every swap of two cells of the best order, the first pass from the best shuffle;
        // the sizes fall with each pass that improves, so it ends.
        let mut improved = true;
        while improved {
            improved = false;
            for i in 0..best.len() {
                for j in i + 1..best.len() {
                    let mut order = best;
                    order.swap(i, j);
                    let size = size_with_order(&table, &order);
                    if size < least {
                        (best, least, improved) = (order, size, true);
                    }
                }
            }
        }
        Self::with_order(rule, best)
    }

    fn with_order(rule: &MapRule, order: [u8; 9]) -> Self {
        let mut circuit = Circuit {
            nodes: Vec::new(),
            root: 0,
            program: Vec::new(),
            levels: Vec::new(),
        };
        let mut unique = FxHashMap::default();
        circuit.root = circuit.build(rule, &order, 0, 0, &mut unique);
        circuit.by_level(&order);
        let value = |v: u16| if v < 2 { v } else { v - 2 + FIRST_NODE as u16 };
        circuit.program = circuit
            .nodes
            .iter()
            .map(|&(cell, lo, hi)| [cell as u16 + 2, value(lo), value(hi)])
            .collect();
        circuit.program.push([0, value(circuit.root), 0]);
        for (i, line) in circuit.program.iter().enumerate() {
            match circuit.levels.last_mut() {
                Some((x, end)) if *x == line[0] => *end = i as u16 + 1,
                _ => circuit.levels.push((line[0], i as u16 + 1)),
            }
        }
        // What makes `eval_n`'s unchecked reads sound: each line reads only values before its own.
        assert!(
            circuit
                .program
                .iter()
                .enumerate()
                .all(|(i, line)| { line.iter().all(|&v| (v as usize) < i + FIRST_NODE) })
        );
        circuit
    }

    /// The nodes put in order of the cell they test, the last tested first. The build leaves
    /// each node right after the ones it reads, so on a few words every node waited for the
    /// one before it to be stored and read back; the nodes of one level read only deeper ones,
    /// and the processor overlaps them.
    fn by_level(&mut self, order: &[u8; 9]) {
        let depth = |cell: u8| order.iter().position(|&c| c == cell).unwrap_or(0);
        let mut sorted: Vec<usize> = (0..self.nodes.len()).collect();
        sorted.sort_by_key(|&i| std::cmp::Reverse(depth(self.nodes[i].0)));
        let mut renamed = vec![0u16; self.nodes.len() + 2];
        renamed[1] = 1;
        for (new, &old) in sorted.iter().enumerate() {
            renamed[old + 2] = new as u16 + 2;
        }
        self.nodes = sorted
            .iter()
            .map(|&i| {
                let (cell, lo, hi) = self.nodes[i];
                (cell, renamed[lo as usize], renamed[hi as usize])
            })
            .collect();
        self.root = renamed[self.root as usize];
    }

    fn build(
        &mut self,
        rule: &MapRule,
        order: &[u8; 9],
        level: usize,
        index: u16,
        unique: &mut FxHashMap<(u8, u16, u16), u16>,
    ) -> u16 {
        if level == order.len() {
            return rule.next(index) as u16;
        }
        let cell = order[level];
        let lo = self.build(rule, order, level + 1, index, unique);
        let hi = self.build(rule, order, level + 1, index | 1 << cell, unique);
        if lo == hi {
            return lo;
        }
        *unique.entry((cell, lo, hi)).or_insert_with(|| {
            self.nodes.push((cell, lo, hi));
            self.nodes.len() as u16 + 1
        })
    }

    /// How many values `eval` and `eval_n` need room for.
    pub fn scratch_len(&self) -> usize {
        self.program.len() + FIRST_NODE
    }

    /// The next state of 64 cells from the nine words of their blocks, `block[b]` holding at
    /// each bit the cell of index bit b (`block[4]` the cells themselves). `values` has at
    /// least `scratch_len` words.
    #[inline]
    pub fn eval(&self, block: &[u64; 9], values: &mut [u64]) -> u64 {
        values[0] = 0;
        values[1] = u64::MAX;
        for (i, &(cell, lo, hi)) in self.nodes.iter().enumerate() {
            let (lo, hi) = (values[lo as usize], values[hi as usize]);
            values[i + 2] = lo ^ ((lo ^ hi) & block[cell as usize]);
        }
        values[self.root as usize]
    }

    /// The next state of `out.len()` words at once: `block[b][k]` is word k of index bit b.
    /// Thirty-two words at a time, node by node, so that a node is a few vector operations and
    /// every value of a chunk stays in the first-level cache; the last few words go by sixteen,
    /// eight or four, since a tile often computes only the handful of rows round a spaceship
    /// (see [`Circuit::eval_rows`] for what a chunk's length costs). `values` is scratch space,
    /// grown as needed.
    #[inline(always)]
    pub fn eval_words(&self, block: [&[u64]; 9], out: &mut [u64], values: &mut Values) {
        let mut start = 0;
        while start < out.len() {
            let rest = &mut out[start..];
            start += match rest.len() {
                17.. => self.eval_chunk::<32>(block, start, rest, values),
                9..=16 => self.eval_chunk::<16>(block, start, rest, values),
                5..=8 => self.eval_chunk::<8>(block, start, rest, values),
                _ => self.eval_chunk::<4>(block, start, rest, values),
            };
        }
    }

    /// [`Circuit::eval_words`] on the first `m` (at most `L`, a multiple of 32) words of nine
    /// `L`-word inputs, into `out`'s first `m`; the last chunk also overwrites words of `out`
    /// past `m` with the results of whatever the inputs hold there. The inputs have room past
    /// `m`, so each chunk is copied whole, a fixed-size copy the compiler unrolls. The chunks are
    /// as long as the words allow, up to 32: a run of the program costs about as much for 4
    /// words as for 16, its levels waiting on each other (B2-a/S12 alone: 18 ns a word by
    /// fours, 6 by sixteens, 4.6 by thirty-twos, 4 by sixty-fours; but a tile engine's 64-word
    /// chunks pushed its tiles out of the first-level cache, and 32 ran faster). Every chunk
    /// starts at a multiple of 32 and is at most 32 long, so none reaches past word `L`.
    #[inline(always)]
    pub fn eval_rows<const L: usize>(
        &self,
        block: &[[u64; L]; 9],
        out: &mut [u64; L],
        m: usize,
        values: &mut Values,
    ) {
        const { assert!(L.is_multiple_of(32), "inputs a multiple of 32 words") };
        let mut start = 0;
        while start < m.min(L) {
            start += match m - start {
                17.. => self.chunk::<32, L>(block, start, out, values),
                9..=16 => self.chunk::<16, L>(block, start, out, values),
                5..=8 => self.chunk::<8, L>(block, start, out, values),
                _ => self.chunk::<4, L>(block, start, out, values),
            };
        }
    }

    /// `N` words of [`Circuit::eval_rows`] from word `start`; returns `N`.
    #[inline(always)]
    fn chunk<const N: usize, const L: usize>(
        &self,
        block: &[[u64; L]; 9],
        start: usize,
        out: &mut [u64; L],
        values: &mut Values,
    ) -> usize {
        let values = values.chunks::<N>(self.scratch_len());
        for (v, b) in values[2..FIRST_NODE].iter_mut().zip(block) {
            *v = b[start..start + N]
                .try_into()
                .expect("a chunk within the inputs");
        }
        let r = self.run::<N>(values);
        out[start..start + N].copy_from_slice(&r);
        N
    }

    /// Up to `N` words of [`Circuit::eval_words`] from word `start`, the missing ones taken as
    /// empty; returns `N`.
    #[inline(always)]
    fn eval_chunk<const N: usize>(
        &self,
        block: [&[u64]; 9],
        start: usize,
        out: &mut [u64],
        values: &mut Values,
    ) -> usize {
        let m = out.len().min(N);
        // The inputs go straight to their places; the words past `m` keep what they held, and
        // their results are dropped.
        let values = values.chunks::<N>(self.scratch_len());
        for (v, b) in values[2..FIRST_NODE].iter_mut().zip(&block) {
            v[..m].copy_from_slice(&b[start..start + m]);
        }
        let r = self.run::<N>(values);
        out[..m].copy_from_slice(&r[..m]);
        N
    }

    /// The next state of `N` words at once, with fixed-size rows that unroll: HashLife's
    /// blocks (16 or 4 words, or the half of them that is not quiet), inlined into the caller,
    /// which is compiled for AVX2 where the CPU has it. `values` has room for
    /// [`Circuit::scratch_len`] values.
    #[inline(always)]
    pub fn eval_n<const N: usize>(
        &self,
        block: [&[u64; N]; 9],
        values: &mut [[u64; N]],
    ) -> [u64; N] {
        for (v, b) in values[2..FIRST_NODE].iter_mut().zip(block) {
            *v = *b;
        }
        self.run(values)
    }

    /// The program on the inputs already in `values[2..FIRST_NODE]`.
    #[inline(always)]
    fn run<const N: usize>(&self, values: &mut [[u64; N]]) -> [u64; N] {
        let values = &mut values[..self.program.len() + FIRST_NODE];
        values[0] = [0; N];
        values[1] = [u64::MAX; N];
        // The last line's `lo ^ ((lo ^ 0) & 0)` copies the root to the last value. Each level's
        // cell is read once for all its nodes: a node is then two reads, a select and a
        // store, where reading the cell too made the loads the bottleneck.
        let mut i = 0;
        for &(x, end) in &self.levels {
            // SAFETY: a level's cell is an input or a constant (index below FIRST_NODE).
            let x = unsafe { *values.get_unchecked(x as usize) };
            while i < end as usize {
                // SAFETY: `with_order` numbers every operand below its own node's index
                // (children before parents, the root before the last line), `levels` ends at
                // the program's end, and `values` was cut to hold them all.
                let (l, h) = unsafe {
                    let [_, lo, hi] = *self.program.get_unchecked(i);
                    (
                        *values.get_unchecked(lo as usize),
                        *values.get_unchecked(hi as usize),
                    )
                };
                let mut v = [0u64; N];
                for k in 0..N {
                    v[k] = l[k] ^ ((l[k] ^ h[k]) & x[k]);
                }
                // SAFETY: as above: i + FIRST_NODE < values.len().
                unsafe { *values.get_unchecked_mut(i + FIRST_NODE) = v };
                i += 1;
            }
        }
        values[values.len() - 1]
    }

    /// The circuit as straight-line code: one line per node from `line(value, cell, lo, hi)`,
    /// values numbered as in `eval` (0 and 1 the constants), and the root's value.
    pub fn lines(&self, mut line: impl FnMut(usize, u8, u16, u16)) -> u16 {
        for (i, &(cell, lo, hi)) in self.nodes.iter().enumerate() {
            line(i + 2, cell, lo, hi);
        }
        self.root
    }
}

/// Word k has bit j set where bit k of j is set: the index bits of a table of bits that lie
/// within a word (a table indexed by blocks of cells, 64 entries a word).
pub const BIT_OF_POSITION: [u64; 6] = [
    0xaaaa_aaaa_aaaa_aaaa,
    0xcccc_cccc_cccc_cccc,
    0xf0f0_f0f0_f0f0_f0f0,
    0xff00_ff00_ff00_ff00,
    0xffff_0000_ffff_0000,
    0xffff_ffff_0000_0000,
];

/// Exchanges index bits `i` < `j` of a 512-entry table of bits: the entry at each index moves
/// to the index with those two bits swapped.
fn swap_index_bits(table: &mut [u64; 8], i: usize, j: usize) {
    const SET: [u64; 6] = BIT_OF_POSITION;
    if j < 6 {
        // Within each word: bit i set and j clear trades with bit i clear and j set.
        let delta = (1 << j) - (1 << i);
        let m = SET[i] & !SET[j];
        for w in table.iter_mut() {
            let t = (*w ^ (*w >> delta)) & m;
            *w ^= t | (t << delta);
        }
    } else if i < 6 {
        // Bit i within the word, bit j of the word's number.
        let s = 1 << i;
        let wj = 1 << (j - 6);
        for a in (0..8).filter(|a| a & wj == 0) {
            let b = a | wj;
            let t = ((table[a] >> s) ^ table[b]) & !SET[i];
            table[b] ^= t;
            table[a] ^= t << s;
        }
    } else {
        let (wi, wj) = (1 << (i - 6), 1 << (j - 6));
        for a in (0..8).filter(|a| a & wi != 0 && a & wj == 0) {
            table.swap(a, a ^ wi ^ wj);
        }
    }
}

/// The byte values (as a set of 256 bits) whose two nibbles differ.
const BYTES_WITH_UNEQUAL_HALVES: [u64; 4] = {
    let mut set = [0u64; 4];
    let mut v = 0;
    while v < 256 {
        if v & 15 != v >> 4 {
            set[v / 64] |= 1 << (v % 64);
        }
        v += 1;
    }
    set
};

/// The nibble values (as a set of 16 bits) whose two halves differ.
const NIBBLES_WITH_UNEQUAL_HALVES: u16 = {
    let mut set = 0;
    let mut v = 0;
    while v < 16 {
        if v & 3 != v >> 2 {
            set |= 1 << v;
        }
        v += 1;
    }
    set
};

/// The number of nodes of the rule's reduced decision diagram that tests the cells in `order`,
/// counted without building it: the nodes testing `order[l]` are the distinct functions left
/// once the cells before it are fixed that still depend on it (Sieling and Wegener). With the
/// table's indices permuted so that `order[0]` is the top bit, those functions are the chunks
/// of 2^(9-l) bits whose two halves differ.
fn size_with_order(table: &[u64; 8], order: &[u8; 9]) -> usize {
    // The table with its index bits permuted, so that bit j is the block whose cells are the
    // bits of j, order[0] as j's bit 8: at most eight swaps of two index bits, each a few
    // operations on the eight words.
    let mut table = *table;
    // at[p]: the cell whose bit is at index bit p.
    let mut at: [u8; 9] = std::array::from_fn(|p| p as u8);
    for p in (0..9).rev() {
        let want = order[8 - p];
        let q = at.iter().position(|&c| c == want).unwrap_or(p);
        if q != p {
            swap_index_bits(&mut table, q.min(p), q.max(p));
            at.swap(p, q);
        }
    }
    let mut nodes = 0;
    // Chunks of 512, 256 and 128 bits: one, two and four of them, compared word by word.
    for words in [8usize, 4, 2] {
        let mut depends = [&table[..0]; 4];
        let mut n = 0;
        for c in table.chunks(words) {
            if c[..words / 2] != c[words / 2..] {
                depends[n] = c;
                n += 1;
            }
        }
        nodes += (0..n)
            .filter(|&k| !depends[..k].contains(&depends[k]))
            .count();
    }
    // Chunks of 64, 32 and 16 bits, packed in the words: each whose halves differ, found by a
    // mask of the bits where they do, put in a list (at most 32).
    for bits in [64u32, 32, 16] {
        let half = bits / 2;
        let chunk = if bits == 64 {
            u64::MAX
        } else {
            (1 << bits) - 1
        };
        // The low half of every chunk.
        let low = (0..64 / bits).fold(0u64, |m, k| m | ((1u64 << half) - 1) << (k * bits));
        let (mut seen, mut n) = ([0u64; 32], 0);
        for &w in &table {
            let mut differ = (w ^ w >> half) & low;
            while differ != 0 {
                // The chunk of the lowest differing bit (bits is a power of two).
                let at = differ.trailing_zeros() & !(bits - 1);
                differ &= !(chunk << at);
                seen[n] = w >> at & chunk;
                n += 1;
            }
        }
        let seen = &mut seen[..n];
        seen.sort_unstable();
        nodes += seen.len() - seen.windows(2).filter(|p| p[0] == p[1]).count();
    }
    // Chunks of 8 and 4 bits: the set of every value present, less the values whose halves
    // are equal (a chunk's halves differ where its value's do), without a look at each chunk.
    let (mut bytes, mut nibbles) = ([0u64; 4], 0u16);
    for &w in &table {
        for b in w.to_le_bytes() {
            bytes[b as usize / 64] |= 1 << (b % 64);
            nibbles |= 1 << (b & 15) | 1 << (b >> 4);
        }
    }
    nodes += (bytes.iter().zip(BYTES_WITH_UNEQUAL_HALVES))
        .map(|(s, m)| (s & m).count_ones() as usize)
        .sum::<usize>();
    nodes += (nibbles & NIBBLES_WITH_UNEQUAL_HALVES).count_ones() as usize;
    // Chunks of 2 bits whose halves differ are 01 or 10: at most two nodes.
    let (mut ones, mut twos) = (0u64, 0u64);
    for &w in &table {
        ones |= w & !(w >> 1) & 0x5555_5555_5555_5555;
        twos |= !w & (w >> 1) & 0x5555_5555_5555_5555;
    }
    nodes + (ones != 0) as usize + (twos != 0) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;

    /// Every one of the 512 blocks, one per bit of a word (eight words), against the table.
    #[test]
    fn the_circuit_computes_the_table_for_every_block() {
        for text in [
            "B3/S23",
            "B2-a/S12",
            "B2-ac3ai/S1c2-n3-aky4a",
            "B3_S23-a4ei6",
            "B0/S8",
            "B2/S34H",
            "MAPARYXfhZofugWaH7oaIDogBZofuhogOiAaIDogIAAgAAWaH7oaIDogGiA6ICAAIAAaIDogIAAgACAAIAAAAAAAA",
        ] {
            let rule: Rule = text.parse().unwrap();
            let map = rule.block_rule().unwrap();
            let circuit = Circuit::new(&map);
            let mut values = vec![0; circuit.scratch_len()];
            for word in 0..8u16 {
                let mut block = [0u64; 9];
                for bit in 0..64u16 {
                    let index = word * 64 + bit;
                    for (b, w) in block.iter_mut().enumerate() {
                        *w |= ((index >> b & 1) as u64) << bit;
                    }
                }
                let out = circuit.eval(&block, &mut values);
                for bit in 0..64u16 {
                    let index = word * 64 + bit;
                    assert_eq!(
                        out >> bit & 1 == 1,
                        map.next(index),
                        "{text}, block {index}"
                    );
                }
            }
        }
    }

    /// The count from the permuted table equals the size of the circuit built in that order,
    /// for every rule here and a spread of orders.
    #[test]
    fn the_size_counted_from_the_table_is_the_built_circuit_s() {
        let mut seed = 12345u64;
        for text in [
            "B3/S23",
            "B2-ac3ai/S1c2-n3-aky4a",
            "B0/S8",
            "B2/S34H",
            "B1/S1V",
            "B/S",
            // Not symmetric: each cell of the block its own part.
            "MAPCGXCSg1AkAwIwYABYdgjAFIR6RxCqREAg4QaEIAIEUJEqg2imhGQowKZ4wLEhAEEQKMsMESAQxABElchyQACkg",
        ] {
            let map = text.parse::<Rule>().unwrap().block_rule().unwrap();
            for _ in 0..50 {
                let mut order = ORDER;
                for i in (1..9).rev() {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    order.swap(i, (seed >> 33) as usize % (i + 1));
                }
                assert_eq!(
                    size_with_order(&map.table(), &order),
                    Circuit::with_order(&map, order).nodes.len(),
                    "{text} in order {order:?}"
                );
            }
        }
    }

    /// Each swap of two index bits moves every entry where a table indexed by hand puts it.
    #[test]
    fn swapping_two_index_bits_moves_each_entry_to_its_new_index() {
        let mut rng = crate::hash::SplitMix64(3);
        for i in 0..9 {
            for j in i + 1..9 {
                let table: [u64; 8] = std::array::from_fn(|_| rng.next_u64());
                let mut swapped = table;
                swap_index_bits(&mut swapped, i, j);
                for k in 0..512usize {
                    let (bi, bj) = (k >> i & 1, k >> j & 1);
                    let to = k & !(1 << i) & !(1 << j) | bj << i | bi << j;
                    assert_eq!(
                        table[k / 64] >> (k % 64) & 1,
                        swapped[to / 64] >> (to % 64) & 1,
                        "bits {i} and {j}, entry {k}"
                    );
                }
            }
        }
    }

    /// Runs of every length from 1 to 72 words (thirty-two at a time, then sixteen, eight or
    /// four) give each word the table's answer: a word dropped or shifted at a chunk's edge
    /// fails this.
    #[test]
    fn runs_of_every_length_give_the_table_s_answer_in_every_word() {
        let rule: Rule = "B2-ac3ai/S1c2-n3-aky4a".parse().unwrap();
        let map = rule.block_rule().unwrap();
        let circuit = Circuit::new(&map);
        let mut rng = crate::hash::SplitMix64(7);
        let mut values = Values::new();
        for len in 1..=72 {
            let bits: Vec<Vec<u64>> = (0..9)
                .map(|_| (0..len).map(|_| rng.next_u64()).collect())
                .collect();
            let block: [&[u64]; 9] = std::array::from_fn(|b| &bits[b][..]);
            let mut out = vec![0u64; len];
            circuit.eval_words(block, &mut out, &mut values);
            assert_table_s_answers(&map, &out, |b, k| bits[b][k], len);
        }
    }

    /// Each word of `out` against the table, bit by bit: `input(b, k)` is word k of index bit b.
    fn assert_table_s_answers(
        map: &MapRule,
        out: &[u64],
        input: impl Fn(usize, usize) -> u64,
        len: usize,
    ) {
        for (k, &word) in out.iter().enumerate() {
            for bit in 0..64 {
                let index = (0..9).fold(0u16, |i, b| i | ((input(b, k) >> bit & 1) as u16) << b);
                assert_eq!(
                    word >> bit & 1 == 1,
                    map.next(index),
                    "{len} words, word {k}, bit {bit}"
                );
            }
        }
    }

    /// [`Circuit::eval_rows`] on the first `m` words of 128-word inputs (a tile engine's batch),
    /// for every `m`: each of the first `m` words gets the table's answer.
    #[test]
    fn a_batch_of_every_length_gets_the_table_s_answer_in_every_word() {
        let rule: Rule = "B37/S2-i34q".parse().unwrap();
        let map = rule.block_rule().unwrap();
        let circuit = Circuit::new(&map);
        let mut rng = crate::hash::SplitMix64(11);
        let mut values = Values::new();
        let mut block = Box::new([[0u64; 128]; 9]);
        for m in 1..=128 {
            for input in block.iter_mut() {
                input.iter_mut().for_each(|w| *w = rng.next_u64());
            }
            let mut out = [0u64; 128];
            circuit.eval_rows(&block, &mut out, m, &mut values);
            assert_table_s_answers(&map, &out[..m], |b, k| block[b][k], m);
        }
    }
}
