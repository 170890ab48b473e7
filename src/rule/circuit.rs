//! A rule of the 3x3 block (a [`MapRule`]: Hensel's letters, MAP, Golly's 2D Wolfram) as a
//! circuit of multiplexers on words, so that 64 cells are decided at once whatever the table.
//!
//! The circuit is the table's reduced binary decision diagram: a node tests one cell of the
//! block and picks one of two smaller circuits; equal halves collapse into one. Isotropic rules
//! need a few dozen nodes, each one `lo ^ ((lo ^ hi) & x)` on a word.

use std::collections::HashMap;

use super::MapRule;

/// The first order in which the block's cells are tested (index bits: 4 is the centre, 8 NW, 0
/// SE): the centre first, then the edges, then the corners.
const ORDER: [u8; 9] = [4, 7, 1, 5, 3, 8, 6, 2, 0];

/// Orders tried besides `ORDER`, the smallest circuit kept. The size depends on the order (Life:
/// 41 nodes in `ORDER`, 26 at best); a build takes about 10 µs, so this costs about a
/// millisecond once per engine, and measured on Golly's non-totalistic rules it finds circuits
/// 10 to 35% smaller than `ORDER`'s.
const ORDERS_TRIED: usize = 96;

#[derive(Clone, Debug)]
pub struct Circuit {
    /// (cell tested, value if dead, value if alive), children before parents. Values 0 and 1
    /// are the constants; node i is value i + 2.
    nodes: Vec<(u8, u16, u16)>,
    root: u16,
}

impl Circuit {
    pub fn new(rule: &MapRule) -> Self {
        let mut best = Self::with_order(rule, ORDER);
        // A fixed xorshift sequence of shuffles, so that a rule always gets the same circuit.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..ORDERS_TRIED {
            let mut order = ORDER;
            for i in (1..order.len()).rev() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                order.swap(i, (seed % (i as u64 + 1)) as usize);
            }
            let c = Self::with_order(rule, order);
            if c.nodes.len() < best.nodes.len() {
                best = c;
            }
        }
        best
    }

    fn with_order(rule: &MapRule, order: [u8; 9]) -> Self {
        let mut circuit = Circuit {
            nodes: Vec::new(),
            root: 0,
        };
        let mut unique = HashMap::new();
        circuit.root = circuit.build(rule, &order, 0, 0, &mut unique);
        circuit
    }

    fn build(
        &mut self,
        rule: &MapRule,
        order: &[u8; 9],
        level: usize,
        index: u16,
        unique: &mut HashMap<(u8, u16, u16), u16>,
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

    /// How many values `eval` needs room for.
    pub fn scratch_len(&self) -> usize {
        self.nodes.len() + 2
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
    /// Node by node over all the words, so that each node's loop vectorises (the tile engine's
    /// 64 rows, HashLife's 16 words); `values` is scratch space, grown as needed.
    pub fn eval_words(&self, block: [&[u64]; 9], out: &mut [u64], values: &mut Vec<u64>) {
        let n = out.len();
        values.resize(self.scratch_len() * n, 0);
        values[..n].fill(0);
        values[n..2 * n].fill(u64::MAX);
        for (i, &(cell, lo, hi)) in self.nodes.iter().enumerate() {
            let (done, rest) = values.split_at_mut((i + 2) * n);
            let lo = &done[lo as usize * n..][..n];
            let hi = &done[hi as usize * n..][..n];
            let x = &block[cell as usize][..n];
            for (((v, &l), &h), &x) in rest[..n].iter_mut().zip(lo).zip(hi).zip(x) {
                *v = l ^ ((l ^ h) & x);
            }
        }
        out.copy_from_slice(&values[self.root as usize * n..][..n]);
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
}
