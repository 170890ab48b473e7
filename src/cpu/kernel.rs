//! The bit-sliced kernel on columns of words, shared by the tile engine and HashLife's 32x32
//! blocks: cells of a row in the bits of a `u64`, a count per cell in four bit planes, the rule as
//! word-wide boolean logic (the fast engine's scheme, laid out along a column of rows instead of
//! along a row of words).
//!
//! For the tile engine (`rows`), input rows come with their horizontal neighbours already
//! shifted in: `w[i]` holds, at bit j, the cell left of bit j of row i; `e[i]` the cell to its
//! right; `c[i]` the row itself. Output row k is the next state of input row k + 1. The soup
//! census's plane (`columns`) gives the column and its west and east neighbours unshifted, and
//! the kernel shifts them in. HashLife's blocks (`packed32`) pack two 32-cell rows to a word and
//! shift in place.

use std::sync::{Arc, OnceLock};

use super::circuit_jit::CompiledCircuit;
use crate::hash;
use crate::rule::{
    Circuit, CountTable, LifeRule, MapRule, Neighbourhood, Outcome, Rule, RuleKind, Values,
};

/// Rows the kernel computes in one call at most (its count planes hold 64).
pub const RUN: usize = 64;

/// Rows of a column of words (a tile of the tile engine, a column of the census's plane) that
/// changed: anywhere in their word, at its west cell (bit 0) and at its east cell. A neighbouring
/// column reads only the edge cells next to it, so a change inside wakes nothing beside it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Change {
    pub any: u64,
    pub west: u64,
    pub east: u64,
}

impl Change {
    pub const NONE: Change = Change::all(0);
    pub const ALL: Change = Change::all(u64::MAX);

    /// Every row of `mask`, edges included: what is known of an edited tile.
    pub const fn all(mask: u64) -> Change {
        Change {
            any: mask,
            west: mask,
            east: mask,
        }
    }

    pub fn is_none(&self) -> bool {
        self.any == 0
    }

    /// Notes that row `row` went from `old` to `new` (nothing if they are equal), the east edge
    /// at bit `east_bit`. Without a branch, for the tile engine's rows.
    #[inline(always)]
    pub fn note(&mut self, row: usize, old: u64, new: u64, east_bit: u32) {
        let d = old ^ new;
        self.any |= ((d != 0) as u64) << row;
        self.west |= (d & 1) << row;
        self.east |= (d >> east_bit & 1) << row;
    }
}

/// Two copies of a kernel method's body, compiled for AVX2 and for AVX-512 (`$avx2` and
/// `$avx512`), each picked at run time where `Vectors::available` found the units.
macro_rules! vector_copies {
    (
        $avx2:ident, $avx512:ident $(<$lt:lifetime>)? ($s:ident, $($arg:ident: $ty:ty),* $(,)?)
        $(-> $ret:ty)? $body:block
    ) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        unsafe fn $avx2 $(<$lt>)? (&$s, $($arg: $ty),*) $(-> $ret)? $body

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512vl,avx2")]
        unsafe fn $avx512 $(<$lt>)? (&$s, $($arg: $ty),*) $(-> $ret)? $body
    };
}

/// Calls the copy of a kernel loop (made by `vector_copies!`) for the vector unit the kernel
/// runs on: the AVX-512 copy for a rule's circuit only, the AVX2 one otherwise, or `$base`
/// on a CPU without either.
macro_rules! pick_copy {
    ($s:ident, $avx2:ident, $avx512:ident($($arg:expr),* $(,)?), $base:expr) => {
        match $s.vectors {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Vectors::available` found AVX-512 on this CPU.
            Vectors::Avx512 if $s.circuit.is_some() => unsafe { $s.$avx512($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Vectors::available` found AVX2 on this CPU.
            Vectors::Avx2 | Vectors::Avx512 => unsafe { $s.$avx2($($arg),*) },
            _ => $base,
        }
    };
}

/// The vector units a kernel's loops run on, each a copy of the same code compiled for them
/// and picked at run time. Life's tiles take AVX-512 (eight rows a register: iwona 86 ms on
/// AVX2, 77 ms). A rule's circuit takes it too, where a node is then one `vpternlog` on
/// eight words: on an Intel Xeon (Emerald Rapids), pondpuffer-spaceship on the tile engine
/// 40.9 ms on AVX2 and 36.1 ms, oscillators 29.3 and 27.0; on an AMD EPYC (Zen 4, which
/// splits a 512-bit operation in two) it had measured no faster, 20.2 and 21.4 ms. The
/// counting kernels take AVX2 for both (oscillators.rle 24 ms and 26 ms on AVX-512).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vectors {
    /// The target's baseline (SSE2 on x86-64, NEON on AArch64).
    Base,
    Avx2,
    Avx512,
}

impl Vectors {
    /// The widest this CPU has, found once.
    pub fn best() -> Vectors {
        static BEST: std::sync::OnceLock<Vectors> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| {
            Self::available()
                .into_iter()
                .last()
                .unwrap_or(Vectors::Base)
        })
    }

    /// Every one this CPU runs, narrowest first.
    pub fn available() -> Vec<Vectors> {
        #[allow(unused_mut)]
        let mut all = vec![Vectors::Base];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx2") && has!("popcnt") {
                all.push(Vectors::Avx2);
                // With its population count: Life's tiles count each row they write.
                if has!("avx512f")
                    && has!("avx512vl")
                    && has!("avx512bw")
                    && has!("avx512vpopcntdq")
                {
                    all.push(Vectors::Avx512);
                }
            }
        }
        all
    }
}

/// A rule of the 3x3 block as Golly's HashLife and QuickLife compute it: entry w, a 4x4 block
/// (row r in bits 4r..4r + 4, column c bit c), is the block's centre 2x2 a generation later
/// (row 1 in bits 0 and 1, row 2 in bits 2 and 3). Its cost is a lookup for every four cells,
/// whatever the rule's circuit.
pub struct BlockTable {
    table: Box<[u8; 1 << 16]>,
    /// Whether the CPU has BMI2's `pext`, which gathers a 4x4 block's index from its four
    /// rows in one instruction where the portable form takes ten (a third of the cost of a
    /// non-totalistic rule's run on HashLife).
    pext: bool,
}

impl BlockTable {
    fn new(table: Box<[u8; 1 << 16]>) -> BlockTable {
        #[cfg(target_arch = "x86_64")]
        let pext = std::arch::is_x86_feature_detected!("bmi2");
        #[cfg(not(target_arch = "x86_64"))]
        let pext = false;
        BlockTable { table, pext }
    }

    /// `gens` generations of a 16x16 block (row y in `rows[y]`, column x bit x): after g
    /// generations rows and columns g..16-g are right.
    pub fn step16(&self, rows: [u16; 16], gens: u32) -> [u16; 16] {
        // Past 7 generations nothing of the block is right.
        assert!(
            gens <= 7,
            "a 16x16 block has no right cells after {gens} generations"
        );
        #[cfg(target_arch = "x86_64")]
        if self.pext {
            // SAFETY: the CPU has BMI2, checked when the table was made.
            return unsafe { self.step16_pext(rows, gens) };
        }
        self.step16_portable(rows, gens)
    }

    fn step16_portable(&self, rows: [u16; 16], gens: u32) -> [u16; 16] {
        self.step16_with(rows, gens, |t| {
            (t & 0xf) | (t >> 12 & 0xf0) | (t >> 24 & 0xf00) | (t >> 36 & 0xf000)
        })
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    unsafe fn step16_pext(&self, rows: [u16; 16], gens: u32) -> [u16; 16] {
        use std::arch::x86_64::_pext_u64;
        self.step16_with(rows, gens, |t| _pext_u64(t, 0x000f_000f_000f_000f))
    }

    /// The step, with `index` taking four rows (16 bits apart, the block's first column at
    /// bit 0) to the 4x4 block's index.
    #[inline(always)]
    fn step16_with(&self, mut rows: [u16; 16], gens: u32, index: impl Fn(u64) -> u64) -> [u16; 16] {
        let table = &*self.table;
        for g in 1..=gens as usize {
            let mut next = [0u16; 16];
            // Each 2x2 of rows and columns g..16-g from the 4x4 round it.
            let mut y = g;
            while y < 16 - g {
                let four = rows[y - 1] as u64
                    | (rows[y] as u64) << 16
                    | (rows[y + 1] as u64) << 32
                    | (rows[y + 2] as u64) << 48;
                // The two rows kept in registers while their 2x2s are put in.
                let (mut upper, mut lower) = (0u32, 0u32);
                let mut x = g;
                while x < 16 - g {
                    let v = table[index(four >> (x - 1)) as usize & 0xffff] as u32;
                    upper |= (v & 3) << x;
                    lower |= (v >> 2 & 3) << x;
                    x += 2;
                }
                next[y] = upper as u16;
                next[y + 1] = lower as u16;
                y += 2;
            }
            rows = next;
        }
        rows
    }
}

/// A Life-like rule compiled for the kernel.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub neighbourhood: Neighbourhood,
    /// For each count value (t = n + alive for Moore, n otherwise): masks for a dead and a live
    /// cell, all ones where the cell is certainly alive next.
    certain: Vec<(usize, u64, u64)>,
    /// Count values with a chance outcome: (value, threshold if dead, threshold if alive).
    chance: Vec<(usize, u32, u32)>,
    /// Whether a dead cell with no live neighbour is born (B0).
    pub births_from_nothing: bool,
    /// A rule of the 3x3 block (non-totalistic, MAP), decided by its circuit instead of counts.
    circuit: Option<Circuit>,
    /// The circuit compiled for the batches of the tile engine, where the CPU runs the code:
    /// on the first batch, so that a kernel that runs none (HashLife's) compiles nothing.
    compiled: Arc<OnceLock<Option<CompiledCircuit>>>,
    /// The same for HashLife's blocks of 16 words ([`Kernel::packed`]), on the first block.
    compiled_blocks: Arc<OnceLock<Option<CompiledCircuit>>>,
    /// Whether the rule is B3/S23 on the Moore neighbourhood, which runs in one fused loop.
    life: bool,
    /// The vector units its loops run on ([`Vectors::best`]; a test picks each in turn).
    pub vectors: Vectors,
}

/// A circuit's nine inputs for output row k of rows shifted west (`w`), centred (`c`) and
/// shifted east (`e`), row k of each slice, in the order of its index bits: SE, S, SW, E,
/// centre, W, NE, N, NW.
fn block_of<'a>(w: &'a [u64], c: &'a [u64], e: &'a [u64]) -> [&'a [u64]; 9] {
    [
        &e[2..],
        &c[2..],
        &w[2..],
        &e[1..],
        &c[1..],
        &w[1..],
        e,
        c,
        w,
    ]
}

impl Kernel {
    pub fn new(rule: &LifeRule) -> Self {
        let table = CountTable::new(rule);
        let mask = |o: Outcome| if o == Outcome::Alive { u64::MAX } else { 0 };
        let threshold = |o: Outcome| match o {
            Outcome::Chance(t) => t,
            _ => 0,
        };
        let certain = (0..table.values)
            .map(|c| (c, mask(table.dead[c]), mask(table.alive[c])))
            .filter(|&(_, d, a)| d != 0 || a != 0)
            .collect();
        let chance: Vec<(usize, u32, u32)> = (0..table.values)
            .map(|c| (c, threshold(table.dead[c]), threshold(table.alive[c])))
            .filter(|&(_, d, a)| d != 0 || a != 0)
            .collect();
        let births_from_nothing = table.dead[0] != Outcome::Dead;
        let life = rule.neighbourhood == Neighbourhood::Moore
            && certain == [(3, u64::MAX, u64::MAX), (4, 0, u64::MAX)];
        Self {
            neighbourhood: rule.neighbourhood,
            certain,
            chance,
            births_from_nothing,
            circuit: None,
            compiled: Arc::default(),
            compiled_blocks: Arc::default(),
            life,
            vectors: Vectors::best(),
        }
    }

    /// A rule of the 3x3 block, decided by its circuit.
    pub fn for_map(rule: &MapRule) -> Self {
        Self {
            neighbourhood: Neighbourhood::Moore,
            certain: Vec::new(),
            chance: Vec::new(),
            births_from_nothing: rule.births_from_nothing(),
            circuit: Some(Circuit::new(rule)),
            compiled: Arc::default(),
            compiled_blocks: Arc::default(),
            life: false,
            vectors: Vectors::best(),
        }
    }

    /// The kernel of any 2D rule; `None` for an elementary one.
    pub fn for_rule(rule: &Rule) -> Option<Self> {
        match &rule.kind {
            RuleKind::Life(l) => Some(Self::new(l)),
            RuleKind::Map(m) => Some(Self::for_map(m)),
            RuleKind::Ltl(l) => l.block_rule().map(|m| Self::for_map(&m)),
            // A rule file's of two states, as its table (Banks-I).
            RuleKind::Loaded(_) => rule.block_rule().map(|m| Self::for_map(&m)),
            RuleKind::Elementary(_) | RuleKind::Generations(_) => None,
        }
    }

    /// Whether the rule is B3/S23 on the Moore neighbourhood ([`life_next`] computes it).
    pub fn is_life(&self) -> bool {
        self.life
    }

    /// A tabled rule's [`BlockTable`], from its circuit run on all 65,536 blocks at once, 64
    /// to a word; `None` for a counted rule.
    pub fn block_table(&self) -> Option<BlockTable> {
        use crate::rule::circuit::BIT_OF_POSITION as SET;
        let circuit = self.circuit.as_ref()?;
        // Bit p of the 4x4 block's index, for the 1024 words of 64 blocks.
        let cells: Vec<Vec<u64>> = (0..16)
            .map(|p| {
                (0..1024usize)
                    .map(|i| match p {
                        0..6 => SET[p],
                        _ if i >> (p - 6) & 1 == 1 => u64::MAX,
                        _ => 0,
                    })
                    .collect()
            })
            .collect();
        let mut values = Values::new();
        let mut out = vec![vec![0u64; 1024]; 4];
        for (k, out) in out.iter_mut().enumerate() {
            // Output cell (1 + k % 2, 1 + k / 2); the circuit's index bits are its block's
            // SE, S, SW, E, centre, W, NE, N, NW.
            let (x, y) = (1 + k % 2, 1 + k / 2);
            let at = |dx: usize, dy: usize| &cells[4 * (y + dy - 1) + x + dx - 1][..];
            let block = [
                at(2, 2),
                at(1, 2),
                at(0, 2),
                at(2, 1),
                at(1, 1),
                at(0, 1),
                at(2, 0),
                at(1, 0),
                at(0, 0),
            ];
            circuit.eval_words(block, out, &mut values);
        }
        // Bit m of a byte spread to bit 0 of byte m of a word: eight entries made at once, each
        // output's eight bits spread and shifted to its place.
        const SPREAD: [u64; 256] = {
            let mut spread = [0u64; 256];
            let mut b = 0;
            while b < 256 {
                let mut m = 0;
                while m < 8 {
                    spread[b] |= ((b as u64 >> m) & 1) << (8 * m);
                    m += 1;
                }
                b += 1;
            }
            spread
        };
        let mut table = vec![0u8; 1 << 16];
        for (e, eight) in table.chunks_exact_mut(8).enumerate() {
            let (word, shift) = (e / 8, 8 * (e % 8));
            let entries = (0..4).fold(0u64, |acc, k| {
                acc | SPREAD[(out[k][word] >> shift & 0xff) as usize] << k
            });
            eight.copy_from_slice(&entries.to_le_bytes());
        }
        Some(BlockTable::new(table.into_boxed_slice().try_into().ok()?))
    }

    /// `circuit` compiled for arrays `stride` words apart, made in `cell` on first use, where
    /// the kernel runs on AVX-512 and the system runs the code.
    fn compiled_in<'a>(
        &self,
        cell: &'a OnceLock<Option<CompiledCircuit>>,
        circuit: &Circuit,
        stride: usize,
    ) -> Option<&'a CompiledCircuit> {
        match self.vectors {
            Vectors::Avx512 => cell
                .get_or_init(|| CompiledCircuit::new(circuit, stride))
                .as_ref(),
            _ => None,
        }
    }

    /// Whether the rule is decided by a circuit (a rule of the 3x3 block), not by counts.
    pub fn has_circuit(&self) -> bool {
        self.circuit.is_some()
    }

    pub fn is_stochastic(&self) -> bool {
        !self.chance.is_empty()
    }

    /// The count planes of output row k from input rows k, k+1, k+2.
    #[inline(always)]
    fn planes(&self, w: &[u64], c: &[u64], e: &[u64], k: usize) -> [u64; 4] {
        let three = |x: &[u64]| [x[k], x[k + 1], x[k + 2]];
        count_planes(self.neighbourhood, three(w), three(c), three(e))
    }

    /// The next state of rows 1..=out.len() of the inputs (each input slice is out.len() + 2
    /// long). Deterministic rules only. The count planes go through `planes` first, in one
    /// pass, then each count value the rule cares about in another: both loops vectorise.
    /// Compiled a second time for AVX2, picked at run time.
    #[inline]
    pub fn rows(&self, w: &[u64], c: &[u64], e: &[u64], out: &mut [u64], planes: &mut Planes) {
        pick_copy!(
            self,
            rows_avx2,
            rows_avx512(w, c, e, out, planes),
            self.rows_in(w, c, e, out, &mut planes.planes, &mut planes.values)
        )
    }

    vector_copies! {
        rows_avx2, rows_avx512(
            self,
            w: &[u64],
            c: &[u64],
            e: &[u64],
            out: &mut [u64],
            planes: &mut Planes,
        ) {
            self.rows_in(w, c, e, out, &mut planes.planes, &mut planes.values)
        }
    }

    /// [`Kernel::rows`] for the rows `k` of `out` whose bit `which >> k & 1` is set, where
    /// that pays: a rule's circuit costs the same for every word it is given, so those rows'
    /// inputs are gathered and computed alone, and the other rows of `out` are left as they
    /// are. A kernel without a circuit computes every row.
    pub fn rows_where(
        &self,
        w: &[u64],
        c: &[u64],
        e: &[u64],
        out: &mut [u64],
        which: u64,
        planes: &mut Planes,
    ) {
        let n = out.len();
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        if self.circuit.is_none() || which & all == all {
            return self.rows(w, c, e, out, planes);
        }
        pick_copy!(
            self,
            gathered_avx2,
            gathered_avx512(w, c, e, out, which & all, planes),
            self.gathered(w, c, e, out, which & all, planes)
        )
    }

    vector_copies! {
        gathered_avx2, gathered_avx512(
            self,
            w: &[u64],
            c: &[u64],
            e: &[u64],
            out: &mut [u64],
            which: u64,
            planes: &mut Planes,
        ) {
            self.gathered(w, c, e, out, which, planes)
        }
    }

    /// The circuit on the rows of `which` alone, the results put back in their rows of `out`.
    #[inline(always)]
    fn gathered(
        &self,
        w: &[u64],
        c: &[u64],
        e: &[u64],
        out: &mut [u64],
        which: u64,
        planes: &mut Planes,
    ) {
        let batch = &mut planes.batch;
        let gathered = self.gather(w, c, e, which, batch);
        assert!(gathered, "64 rows fit an empty batch");
        let mut bits = which;
        for &v in self.run_batch_in(batch).iter() {
            out[bits.trailing_zeros() as usize] = v;
            bits &= bits - 1;
        }
    }

    /// Appends to `batch` the nine inputs of the output rows `k` of `which` (as in
    /// [`Kernel::rows`], input row k is the row above output row k; the inputs are the rows
    /// above, at and below it, shifted west, centred and shifted east), in the circuit's order:
    /// SE, S, SW, E, centre, W, NE, N, NW. Returns false, appending nothing, when they do not
    /// fit. [`Kernel::rows_where`] runs a tile's rows alone this way; the tile engine's step
    /// fills the batch by vectors instead ([`Batch::push_lanes`]).
    fn gather(&self, w: &[u64], c: &[u64], e: &[u64], which: u64, batch: &mut Batch) -> bool {
        let rows = which.count_ones() as usize;
        if batch.len + rows > BATCH {
            return false;
        }
        // Output row k reads input rows k..=k + 2, which `w`, `c` and `e` must hold.
        let top = 64 - which.leading_zeros() as usize;
        assert!(
            top + 2 <= w.len().min(c.len()).min(e.len()),
            "rows past the inputs"
        );
        let [se, s, sw, east, centre, west, ne, n, nw, _] = &mut batch.inputs.0;
        let mut m = batch.len;
        let mut bits = which;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            // SAFETY: k + 2 < top + 2 <= each input's length (asserted above), and m stays
            // below batch.len + rows <= BATCH, each output's length (checked above).
            unsafe {
                let (a, b, d) = (k, k + 1, k + 2);
                *se.get_unchecked_mut(m) = *e.get_unchecked(d);
                *s.get_unchecked_mut(m) = *c.get_unchecked(d);
                *sw.get_unchecked_mut(m) = *w.get_unchecked(d);
                *east.get_unchecked_mut(m) = *e.get_unchecked(b);
                *centre.get_unchecked_mut(m) = *c.get_unchecked(b);
                *west.get_unchecked_mut(m) = *w.get_unchecked(b);
                *ne.get_unchecked_mut(m) = *e.get_unchecked(a);
                *n.get_unchecked_mut(m) = *c.get_unchecked(a);
                *nw.get_unchecked_mut(m) = *w.get_unchecked(a);
            }
            m += 1;
        }
        batch.len = m;
        true
    }

    /// The next state of every row gathered in `batch`, in the order gathered; the batch is
    /// then empty. Nothing for a counted rule. Compiled a second time for AVX2, picked at run
    /// time.
    pub fn run_batch<'b>(&self, batch: &'b mut Batch) -> &'b mut [u64] {
        pick_copy!(
            self,
            run_batch_avx2,
            run_batch_avx512(batch),
            self.run_batch_in(batch)
        )
    }

    vector_copies! {
        run_batch_avx2, run_batch_avx512<'b>(self, batch: &'b mut Batch) -> &'b mut [u64] {
            self.run_batch_in(batch)
        }
    }

    #[inline(always)]
    fn run_batch_in<'b>(&self, batch: &'b mut Batch) -> &'b mut [u64] {
        let m = std::mem::take(&mut batch.len);
        let Some(circuit) = &self.circuit else {
            return &mut [];
        };
        let compiled = self.compiled_in(&self.compiled, circuit, BATCH);
        if let Some(compiled) = compiled {
            let scratch = batch.values.chunks::<8>(compiled.scratch_words() / 8 + 1);
            let base = batch.inputs.0.as_mut_ptr().cast::<u64>();
            // SAFETY: the batch is ten arrays of BATCH words, the stride it was compiled for,
            // and m <= BATCH rows rounded up to whole runs of eight stay within them (BATCH is
            // a multiple of eight); the scratch has a slot for each spill.
            unsafe { compiled.run(base, m.div_ceil(8), scratch.as_mut_ptr().cast()) };
            return &mut batch.inputs.0[9][..m];
        }
        let (inputs, result) = batch
            .inputs
            .0
            .split_first_chunk_mut::<9>()
            .expect("ten rows");
        circuit.eval_rows(inputs, &mut result[0], m, &mut batch.values);
        &mut result[0][..m]
    }

    #[inline(always)]
    fn rows_in(
        &self,
        w: &[u64],
        c: &[u64],
        e: &[u64],
        out: &mut [u64],
        planes: &mut [[u64; 64]; 4],
        values: &mut Values,
    ) {
        let n = out.len();
        if let Some(circuit) = &self.circuit {
            circuit.eval_words(block_of(w, c, e), out, values);
            return;
        }
        if self.life {
            // One fused loop, the count planes never stored: each input row's sum of three
            // (ones a, twos b) is made once and shared by the three output rows that read it.
            // The runs here are short (a tile's changed rows), so the sums roll through three
            // registers rather than arrays that would need clearing.
            let sum = |i: usize| add3(w[i], c[i], e[i]);
            let ((mut a0, mut b0), (mut a1, mut b1)) = (sum(0), sum(1));
            for k in 0..n {
                let (a2, b2) = sum(k + 2);
                out[k] = life_next([a0, a1, a2], [b0, b1, b2], c[k + 1]);
                (a0, b0, a1, b1) = (a1, b1, a2, b2);
            }
            return;
        }
        for k in 0..n {
            let p = self.planes(w, c, e, k);
            for (plane, &value) in planes.iter_mut().zip(&p) {
                plane[k] = value;
            }
        }
        self.decide(&c[1..n + 1], planes, out);
    }

    /// Each output word from its count planes (the first out.len() of each) and the cells
    /// themselves: the rule, one pass over the words for each count value it makes alive.
    #[inline(always)]
    fn decide(&self, alive: &[u64], planes: &[[u64; 64]; 4], out: &mut [u64]) {
        let n = out.len();
        out.fill(0);
        let [p0, p1, p2, p3] = planes;
        let (p0, p1, p2, p3) = (&p0[..n], &p1[..n], &p2[..n], &p3[..n]);
        let alive = &alive[..n];
        for &(value, dead, live) in &self.certain {
            let inv = |bit: usize| if value >> bit & 1 == 1 { 0 } else { u64::MAX };
            let (i0, i1, i2, i3) = (inv(0), inv(1), inv(2), inv(3));
            let flip = dead ^ live;
            for k in 0..n {
                let eq = (p0[k] ^ i0) & (p1[k] ^ i1) & (p2[k] ^ i2) & (p3[k] ^ i3);
                out[k] |= eq & (dead ^ (alive[k] & flip));
            }
        }
    }

    /// The next generation of a run of rows of one column of the soup census's plane, from the
    /// column and its west and east neighbours as they lie there, unshifted: each is
    /// cells.len() + 2 rows long, from the row above the run to the row below it (the run is
    /// 64 rows at most). `cells` holds the run as it was two generations before and gets the
    /// next generation; the result has bit k set where row k changed, and where it is live.
    /// Deterministic rules only. For a Moore count each row's horizontal sum is made once and
    /// shared by the three rows that read it, and Life itself is one fused loop; the loops
    /// vectorise, and are compiled a second time for AVX2, picked at run time.
    pub fn columns(
        &self,
        west: &[u64],
        centre: &[u64],
        east: &[u64],
        cells: &mut [u64],
        planes: &mut Planes,
    ) -> Run {
        pick_copy!(
            self,
            columns_avx2,
            columns_avx512(west, centre, east, cells, planes),
            self.columns_any(west, centre, east, cells, planes)
        )
    }

    vector_copies! {
        columns_avx2, columns_avx512(
            self,
            west: &[u64],
            centre: &[u64],
            east: &[u64],
            cells: &mut [u64],
            planes: &mut Planes,
        ) -> Run {
            self.columns_any(west, centre, east, cells, planes)
        }
    }

    #[inline(always)]
    fn columns_any(
        &self,
        west: &[u64],
        centre: &[u64],
        east: &[u64],
        cells: &mut [u64],
        planes: &mut Planes,
    ) -> Run {
        let n = cells.len();
        let m = n + 2;
        let (west, centre, east) = (&west[..m], &centre[..m], &east[..m]);
        let Scratch { a, b, out } = &mut planes.scratch;
        let (a, b, out) = (&mut a[..m], &mut b[..m], &mut out[..n]);
        if self.circuit.is_some() || self.neighbourhood != Neighbourhood::Moore {
            // Shifted in, as the tile engine gives them.
            for i in 0..m {
                a[i] = centre[i] << 1 | west[i] >> 63;
                b[i] = centre[i] >> 1 | east[i] << 63;
            }
            self.rows_in(a, centre, b, out, &mut planes.planes, &mut planes.values);
            return Run::of(cells, out);
        }
        // a, b: the ones and twos of each row's sum of three (west, itself, east).
        for i in 0..m {
            let c = centre[i];
            let (w, e) = (c << 1 | west[i] >> 63, c >> 1 | east[i] << 63);
            let x = w ^ e;
            a[i] = x ^ c;
            b[i] = (w & e) | (x & c);
        }
        let (a0, a1, a2) = (&a[..n], &a[1..n + 1], &a[2..m]);
        let (b0, b1, b2) = (&b[..n], &b[1..n + 1], &b[2..m]);
        let alive = &centre[1..n + 1];
        if self.life {
            // B3/S23: t = 3, or t = 4 and alive.
            for k in 0..n {
                out[k] = life_next([a0[k], a1[k], a2[k]], [b0[k], b1[k], b2[k]], alive[k]);
            }
            return Run::of(cells, out);
        }
        for k in 0..n {
            let t = sum3([a0[k], a1[k], a2[k]], [b0[k], b1[k], b2[k]]);
            for (plane, value) in planes.planes.iter_mut().zip(t) {
                plane[k] = value;
            }
        }
        self.decide(alive, &planes.planes, out);
        Run::of(cells, out)
    }

    /// `gens` generations of 32 rows of 32 cells, packed two rows to a word (row 2q in the low
    /// half of word q, row 2q + 1 in the high half). Deterministic rules only. Bits that cross
    /// a half's edge make its first and last columns garbage, like the missing rows above and
    /// below: after g generations only rows and columns g..32-g are right. Written as
    /// whole-array steps so that it vectorises, and compiled a second time for AVX2, picked at
    /// run time.
    pub fn packed32(&self, rows: [u64; 16], gens: u32) -> [u64; 16] {
        pick_copy!(
            self,
            packed32_avx2,
            packed32_avx512(rows, gens),
            self.packed_any::<32>(rows, gens)
        )
    }

    vector_copies! {
        packed32_avx2, packed32_avx512(
            self,
            rows: [u64; 16],
            gens: u32,
        ) -> [u64; 16] {
            self.packed_any::<32>(rows, gens)
        }
    }

    /// [`Kernel::packed32`] for four blocks of 16 rows of 16 cells, four rows to a word (row
    /// 4q + i of block b in bits 16i..16i + 16 of word 4b + q): after g generations rows and
    /// columns g..16-g of each are right. Garbage from the block beside crosses only rows that
    /// would be garbage anyway.
    pub fn packed16(&self, rows: [u64; 16], gens: u32) -> [u64; 16] {
        pick_copy!(
            self,
            packed16_avx2,
            packed16_avx512(rows, gens),
            self.packed_any::<16>(rows, gens)
        )
    }

    vector_copies! {
        packed16_avx2, packed16_avx512(
            self,
            rows: [u64; 16],
            gens: u32,
        ) -> [u64; 16] {
            self.packed_any::<16>(rows, gens)
        }
    }

    /// 16 words of rows `W` cells wide (64 / W rows a word).
    #[inline(always)]
    fn packed_any<const W: u32>(&self, rows: [u64; 16], gens: u32) -> [u64; 16] {
        match self.neighbourhood {
            Neighbourhood::Moore => self.packed_in::<W>(Neighbourhood::Moore, rows, gens),
            Neighbourhood::Hexagonal => self.packed_in::<W>(Neighbourhood::Hexagonal, rows, gens),
            Neighbourhood::VonNeumann => self.packed_in::<W>(Neighbourhood::VonNeumann, rows, gens),
        }
    }

    #[inline(always)]
    fn packed_in<const W: u32>(
        &self,
        nb: Neighbourhood,
        mut rows: [u64; 16],
        gens: u32,
    ) -> [u64; 16] {
        const N: usize = 16;
        const H: usize = N / 2;
        thread_local! {
            // A circuit's scratch, kept between HashLife's many blocks; taken out and put
            // back, so that the evaluation stays in this function, compiled for AVX2.
            static VALUES: std::cell::Cell<Values> = const { std::cell::Cell::new(Values::new()) };
        }
        let mut values = VALUES.take();
        let scratch = self.circuit.as_ref().map_or(0, |c| c.scratch_len());
        for _ in 0..gens {
            let mut up = [0u64; N];
            let mut down = [0u64; N];
            for q in 0..N {
                up[q] = rows[q] << W | if q > 0 { rows[q - 1] >> (64 - W) } else { 0 };
                down[q] = rows[q] >> W
                    | if q < N - 1 {
                        rows[q + 1] << (64 - W)
                    } else {
                        0
                    };
            }
            if self.life {
                // Life fused, as the tile engine has it: each row's sum of three, then B3/S23
                // from the three sums (the generic counts below made all four count planes
                // and compared them with each value the rule cares about: a third more of
                // HashLife's Life instructions).
                let sum = |x: u64| row_sum(x << 1, x, x >> 1);
                rows = std::array::from_fn(|q| {
                    let (a, b, c) = (sum(up[q]), sum(rows[q]), sum(down[q]));
                    life_next([a.0, b.0, c.0], [a.1, b.1, c.1], rows[q])
                });
                continue;
            }
            if let Some(circuit) = &self.circuit {
                let shifted = |x: &[u64; N], left: bool| -> [u64; N] {
                    std::array::from_fn(|q| if left { x[q] << 1 } else { x[q] >> 1 })
                };
                let (se, sw) = (shifted(&down, false), shifted(&down, true));
                let (e, w) = (shifted(&rows, false), shifted(&rows, true));
                let (ne, nw) = (shifted(&up, false), shifted(&up, true));
                // A half whose rows and the row beside it are empty stays empty (no B0 here):
                // a glider or a spaceship in flight leaves one half of most blocks quiet, and the
                // circuit then runs on the other half alone.
                let quiet = |r: std::ops::RangeInclusive<usize>| {
                    !self.births_from_nothing && rows[r].iter().all(|&x| x == 0)
                };
                let block = [&se, &down, &sw, &e, &rows, &w, &ne, &up, &nw];
                let compiled = self.compiled_in(&self.compiled_blocks, circuit, N);
                rows = match (quiet(0..=H), quiet(H - 1..=N - 1)) {
                    (true, true) => [0; N],
                    (false, false) => match compiled {
                        Some(compiled) => compiled_block(compiled, block, 0..N, &mut values),
                        None => circuit.eval_n(block, values.chunks::<N>(scratch)),
                    },
                    (top_quiet, _) => {
                        let h = if top_quiet { H } else { 0 };
                        if let Some(compiled) = compiled {
                            compiled_block(compiled, block, h..h + H, &mut values)
                        } else {
                            let part = block.map(|b| -> [u64; H] {
                                b[h..h + H].try_into().expect("half the words")
                            });
                            let out = circuit.eval_n(part.each_ref(), values.chunks::<H>(scratch));
                            let mut next = [0u64; N];
                            next[h..h + H].copy_from_slice(&out);
                            next
                        }
                    }
                };
                continue;
            }
            let mut p = [[0u64; N]; 4];
            for q in 0..N {
                let c = [up[q], rows[q], down[q]];
                let planes = count_planes(nb, c.map(|x| x << 1), c, c.map(|x| x >> 1));
                for (b, plane) in planes.iter().enumerate() {
                    p[b][q] = *plane;
                }
            }
            let mut out = [0u64; N];
            for &(value, dead, live) in &self.certain {
                let inv = |bit: usize| if value >> bit & 1 == 1 { 0 } else { u64::MAX };
                let (i0, i1, i2, i3) = (inv(0), inv(1), inv(2), inv(3));
                let flip = dead ^ live;
                for q in 0..N {
                    let eq = (p[0][q] ^ i0) & (p[1][q] ^ i1) & (p[2][q] ^ i2) & (p[3][q] ^ i3);
                    out[q] |= eq & (dead ^ (rows[q] & flip));
                }
            }
            rows = out;
        }
        VALUES.set(values);
        rows
    }

    /// [`Kernel::rows`] for stochastic rules: cells with a chance outcome draw their number
    /// from (key, x, y), where output row k is row `y0 + k` and bit j is column `x0 + j`
    /// (both wrapped by the caller's `wrap`).
    #[allow(clippy::too_many_arguments)]
    pub fn rows_stochastic(
        &self,
        w: &[u64],
        c: &[u64],
        e: &[u64],
        out: &mut [u64],
        planes: &mut Planes,
        key: u32,
        x0: i64,
        y0: i64,
        wrap: &dyn Fn(i64, i64) -> (u32, u32),
    ) {
        self.rows(w, c, e, out, planes);
        for (k, o) in out.iter_mut().enumerate() {
            let p = self.planes(w, c, e, k);
            let alive = c[k + 1];
            let mut candidates = 0;
            for &(value, dead_t, alive_t) in &self.chance {
                let state =
                    (if dead_t != 0 { !alive } else { 0 }) | (if alive_t != 0 { alive } else { 0 });
                candidates |= equal(&p, value) & state;
            }
            for bit in crate::grid::BitIter(candidates) {
                let value = (0..4).fold(0, |acc, q| acc | ((p[q] >> bit & 1) as usize) << q);
                let Some(&(_, dead_t, alive_t)) = self.chance.iter().find(|e| e.0 == value) else {
                    continue;
                };
                let threshold = if alive >> bit & 1 == 1 {
                    alive_t
                } else {
                    dead_t
                };
                let (x, y) = wrap(x0 + bit as i64, y0 + k as i64);
                if hash::cell_hash(key, x, y) < threshold {
                    *o |= 1 << bit;
                }
            }
        }
    }
}

/// What one run of [`Kernel::columns`] did: bit k says that row k changed (anywhere, at its
/// west cell, bit 0, and at its east cell, bit 63), and that it is live.
#[derive(Clone, Copy, Debug, Default)]
pub struct Run {
    pub changed: u64,
    pub west: u64,
    pub east: u64,
    pub live: u64,
}

impl Run {
    /// Writes `out` over `cells`, noting what changed.
    fn of(cells: &mut [u64], out: &[u64]) -> Run {
        let mut run = Run::default();
        for (k, (cell, &new)) in cells.iter_mut().zip(out).enumerate() {
            let diff = *cell ^ new;
            run.changed |= ((diff != 0) as u64) << k;
            run.west |= (diff & 1) << k;
            run.east |= (diff >> 63) << k;
            run.live |= ((new != 0) as u64) << k;
            *cell = new;
        }
        run
    }
}

/// Count planes for up to 64 rows, a circuit's values and [`Kernel::columns`]'s rows between
/// its passes, reused between calls.
pub struct Planes {
    pub planes: [[u64; 64]; 4],
    values: Values,
    scratch: Scratch,
    /// [`Kernel::rows_where`]'s rows, and a tile engine's rows of a generation
    /// ([`Planes::batch`]).
    batch: Batch,
}

impl Planes {
    /// The batch in which a tile engine gathers its tiles' rows for one run of a circuit.
    pub fn batch(&mut self) -> &mut Batch {
        &mut self.batch
    }
}

/// How many rows a [`Batch`] holds: the circuit's values, the batch's inputs and its results
/// (for B2-a/S12 about 12, 9 and 1 KiB) stay within the first-level cache beside the tiles.
const BATCH: usize = 128;
// A tile's vectors (at most eight of eight rows) fit an empty batch, so that it lands once.
const _: () = assert!(BATCH >= 64, "a tile's 64 rows fit an empty batch");
const _: () = assert!(
    BATCH.is_multiple_of(8),
    "a compiled circuit's runs of eight rows stay within the batch"
);

/// Rows of many tiles waiting for one run of a rule's circuit ([`Batch::push_lanes`], or one
/// tile's by [`Kernel::gather`]): its runs are then as long as they can be, where a tile's few
/// rows alone made short ones.
pub struct Batch {
    /// The nine inputs of each row gathered, and the results.
    inputs: Box<Aligned<[[u64; BATCH]; 10]>>,
    len: usize,
    values: Values,
}

impl Default for Batch {
    fn default() -> Self {
        Batch {
            inputs: Box::new(Aligned([[0; BATCH]; 10])),
            len: 0,
            values: Values::new(),
        }
    }
}

impl Batch {
    /// Rows the batch has room for.
    pub fn room(&self) -> usize {
        BATCH - self.len
    }

    /// Room for the nine inputs (in [`Kernel::gather`]'s order) of `L` more rows, taken; none
    /// when they do not fit.
    #[inline(always)]
    pub fn push_lanes<const L: usize>(&mut self) -> Option<[&mut [u64; L]; 9]> {
        let m = self.len;
        if m + L > BATCH {
            return None;
        }
        self.len = m + L;
        let [i0, i1, i2, i3, i4, i5, i6, i7, i8, _] = self.inputs.0.each_mut();
        Some(
            [i0, i1, i2, i3, i4, i5, i6, i7, i8]
                .map(|input| (&mut input[m..m + L]).try_into().expect("L words")),
        )
    }
}

/// The next state of words `words` (whole runs of eight) of a block of 16 words under a
/// circuit compiled for arrays of 16 words ([`Kernel::packed`]); the other words are empty.
/// The nine inputs are copied into one block of ten arrays first: the copy is 18 stores, where
/// the interpreter stores each of its nodes' values.
#[inline(always)]
fn compiled_block(
    compiled: &CompiledCircuit,
    block: [&[u64; 16]; 9],
    words: std::ops::Range<usize>,
    values: &mut Values,
) -> [u64; 16] {
    thread_local! {
        static ARRAYS: std::cell::RefCell<Box<Aligned<[[u64; 16]; 10]>>> =
            std::cell::RefCell::new(Box::new(Aligned([[0; 16]; 10])));
    }
    debug_assert!(
        words.start.is_multiple_of(8) && words.len().is_multiple_of(8) && words.end <= 16
    );
    ARRAYS.with_borrow_mut(|arrays| {
        for (to, from) in arrays.0.iter_mut().zip(block) {
            to[words.clone()].copy_from_slice(&from[words.clone()]);
        }
        let scratch = values.chunks::<8>(compiled.scratch_words() / 8 + 1);
        // SAFETY: ten arrays of 16 words, the stride the circuit was compiled for; the runs
        // start at word `words.start` and stay within the first 16 words of each (`words` is
        // whole runs of eight within 16); the scratch has a slot for each spill.
        unsafe {
            let base = arrays.0.as_mut_ptr().cast::<u64>().add(words.start);
            compiled.run(base, words.len() / 8, scratch.as_mut_ptr().cast());
        }
        let mut next = [0u64; 16];
        next[words.clone()].copy_from_slice(&arrays.0[9][words]);
        next
    })
}

/// Rows on cache lines' boundaries, as the circuit's values are (see [`Values`]): its chunks
/// are copied from here.
#[repr(align(64))]
struct Aligned<T>(T);

/// [`Kernel::columns`]'s rows between its passes.
struct Scratch {
    a: [u64; RUN + 2],
    b: [u64; RUN + 2],
    out: [u64; RUN],
}

impl Default for Planes {
    fn default() -> Self {
        Planes {
            planes: [[0; 64]; 4],
            values: Values::new(),
            scratch: Scratch {
                a: [0; RUN + 2],
                b: [0; RUN + 2],
                out: [0; RUN],
            },
            batch: Batch::default(),
        }
    }
}

/// The count planes of one word from its three rows (above, itself, below), each also shifted
/// west and east: t = n + alive (0..=9) for Moore, n otherwise.
#[inline(always)]
pub(super) fn count_planes(nb: Neighbourhood, w: [u64; 3], c: [u64; 3], e: [u64; 3]) -> [u64; 4] {
    match nb {
        Neighbourhood::Moore => {
            // Column sums of three rows for the west, centre and east words, then their sum.
            let (a0, a1) = add3(w[0], w[1], w[2]);
            let (b0, b1) = add3(c[0], c[1], c[2]);
            let (d0, d1) = add3(e[0], e[1], e[2]);
            let (ones, carry) = add3(a0, b0, d0);
            // Twos: a1 + b1 + d1 + carry, four bits of weight 2.
            let (p, q) = add3(a1, b1, d1);
            let twos = p ^ carry;
            let k2 = p & carry;
            [ones, twos, q ^ k2, q & k2]
        }
        Neighbourhood::Hexagonal => {
            // (-1,-1), (0,-1), (-1,0), (1,0), (0,1), (1,1).
            let (s1, c1) = add3(w[0], c[0], w[1]);
            let (s2, c2) = add3(e[1], c[2], e[2]);
            let ones = s1 ^ s2;
            let c3 = s1 & s2;
            let z = c1 ^ c2;
            [ones, z ^ c3, (c1 & c2) | (z & c3), 0]
        }
        Neighbourhood::VonNeumann => {
            let (a, b, cc, d) = (c[0], w[1], e[1], c[2]);
            let x = a ^ b;
            let y = cc ^ d;
            let (ca, cb) = (a & b, cc & d);
            let ones = x ^ y;
            let cx = x & y;
            let z = ca ^ cb;
            [ones, z ^ cx, (ca & cb) | (z & cx), 0]
        }
    }
}

/// The count planes of three rows' horizontal sums of three, each given as its ones and twos:
/// t = n + alive for Moore (0..=9).
#[inline(always)]
fn sum3(ones: [u64; 3], twos: [u64; 3]) -> [u64; 4] {
    let (o, carry) = add3(ones[0], ones[1], ones[2]);
    let (p, q) = add3(twos[0], twos[1], twos[2]);
    let k2 = p & carry;
    [o, p ^ carry, q ^ k2, q & k2]
}

/// A row's sum of three (its west, itself, its east) as ones and twos.
#[inline(always)]
pub fn row_sum(w: u64, c: u64, e: u64) -> (u64, u64) {
    add3(w, c, e)
}

/// B3/S23 for a row from the sums of three ([`row_sum`]) of the rows above, itself and below.
#[inline(always)]
pub fn life_next(ones: [u64; 3], twos: [u64; 3], alive: u64) -> u64 {
    life(sum3(ones, twos), alive)
}

/// B3/S23 from the count planes of t = n + alive: t = 3, or t = 4 and alive.
#[inline(always)]
fn life([t0, t1, t2, t3]: [u64; 4], alive: u64) -> u64 {
    !t3 & ((t0 & t1 & !t2) | (alive & !t0 & !t1 & t2))
}

/// Full adder: (sum, carry).
#[inline(always)]
fn add3(a: u64, b: u64, c: u64) -> (u64, u64) {
    let x = a ^ b;
    (x ^ c, (a & b) | (x & c))
}

/// Word-wide `count == value` from the count planes.
#[inline(always)]
fn equal(p: &[u64; 4], value: usize) -> u64 {
    let bit = |q: usize| if value >> q & 1 == 1 { p[q] } else { !p[q] };
    bit(0) & bit(1) & bit(2) & bit(3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;

    #[test]
    fn a_blinker_turns_in_a_column_of_words() {
        let rule: Rule = "B3/S23".parse().unwrap();
        let k = Kernel::new(rule.life_rule().unwrap());
        // Rows 0..5 with a horizontal blinker in row 2, columns 1..4.
        let c = [0u64, 0, 0b1110, 0, 0];
        let w: Vec<u64> = c.iter().map(|r| r << 1).collect();
        let e: Vec<u64> = c.iter().map(|r| r >> 1).collect();
        let mut out = [0u64; 3];
        k.rows(&w, &c, &e, &mut out, &mut Planes::default());
        assert_eq!(out, [0b0100, 0b0100, 0b0100]);
    }

    /// The block kernels (one 32x32 block, four 16x16 ones side by side), on every vector unit
    /// this CPU has, for counted rules and rules of the 3x3 block (their circuits), against the
    /// reference engine: each block alone on a torus big enough that nothing wraps, compared
    /// where the kernel is defined (rows and columns g..side-g after g generations).
    #[test]
    fn the_block_kernels_agree_with_the_reference_engine() {
        use crate::cpu::reference::ReferenceEngine;
        use crate::engine::Engine;
        use crate::grid::Grid;
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for rule in [
            "B3/S23",
            "B36/S23",
            "B2/S",
            "B1357/S1357",
            "B2/S34H",
            "B3/S23V",
            "B0/S8",
            "B2-ac3ai/S1c2-n3-aky4a",
            "B2-a5/S1e2-a35678",
            "B2o/S2m34H",
        ] {
            let rule: Rule = rule.parse().unwrap();
            let k = Kernel::for_rule(&rule).unwrap();
            for density in [1u32, 2, 3] {
                let mut words = [0u64; 16];
                for w in &mut words {
                    // Sparse, half and dense soups: an AND or OR of random words.
                    *w = match density {
                        1 => next() & next(),
                        2 => next(),
                        _ => next() | next(),
                    };
                }
                // (side, cell (x, y) of block b as a bit of the words)
                type Bit = fn(u32, u32, u32) -> (usize, u32);
                let layouts: [(u32, Bit); 2] = [
                    (32, |_, x, y| (y as usize / 2, 32 * (y % 2) + x)),
                    (16, |b, x, y| ((4 * b + y / 4) as usize, 16 * (y % 4) + x)),
                ];
                for (side, bit) in layouts {
                    let blocks = if side == 32 { 1 } else { 4 };
                    let mut references: Vec<ReferenceEngine> = (0..blocks)
                        .map(|b| {
                            let mut grid = Grid::new(64, 64);
                            for y in 0..side {
                                for x in 0..side {
                                    let (w, i) = bit(b, x, y);
                                    grid.set(x + 16, y + 16, words[w] >> i & 1 == 1);
                                }
                            }
                            ReferenceEngine::new(rule, &grid, 0)
                        })
                        .collect();
                    for g in 1..=side / 4 {
                        for r in &mut references {
                            r.step(1).unwrap();
                        }
                        let run = |k: &Kernel| {
                            if side == 32 {
                                k.packed32(words, g)
                            } else {
                                k.packed16(words, g)
                            }
                        };
                        let mut outputs = vec![];
                        for v in Vectors::available() {
                            let mut k = k.clone();
                            k.vectors = v;
                            outputs.push(run(&k));
                        }
                        for out in outputs {
                            for (b, reference) in references.iter_mut().enumerate() {
                                for y in g..side - g {
                                    for x in g..side - g {
                                        let (w, i) = bit(b as u32, x, y);
                                        let got = out[w] >> i & 1 == 1;
                                        let want =
                                            reference.cell(x as i64 + 16, y as i64 + 16).unwrap();
                                        assert_eq!(
                                            got, want,
                                            "{rule}, {side}x{side} block {b}, generation {g}, cell ({x}, {y})"
                                        );
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// A tabled rule's 4x4-to-2x2 table, stepping random 16x16 blocks, against the reference
    /// engine where it is defined (rows and columns g..16-g after g generations).
    #[test]
    fn the_block_table_agrees_with_the_reference_engine() {
        use crate::cpu::reference::ReferenceEngine;
        use crate::engine::Engine;
        use crate::grid::Grid;
        let mut rng = crate::hash::SplitMix64(11);
        for rule in [
            "B3/S23",
            "B2-ac3ai/S1c2-n3-aky4a",
            "B2-a5/S1e2-a35678",
            "B2o/S2m34H",
            "MAPCGXCSg1AkAwIwYABYdgjAFIR6RxCqREAg4QaEIAIEUJEqg2imhGQowKZ4wLEhAEEQKMsMESAQxABElchyQACkg",
        ] {
            let rule: Rule = rule.parse().unwrap();
            let map = rule.block_rule().unwrap();
            let table = Kernel::for_map(&map).block_table().unwrap();
            for _ in 0..6 {
                let rows: [u16; 16] = std::array::from_fn(|_| rng.next_u64() as u16);
                let mut grid = Grid::new(48, 48);
                for y in 0..16u32 {
                    for x in 0..16u32 {
                        grid.set(x + 16, y + 16, rows[y as usize] >> x & 1 == 1);
                    }
                }
                let mut reference = ReferenceEngine::new(rule, &grid, 0);
                for g in 1..=4u32 {
                    reference.step(1).unwrap();
                    let out = table.step16(rows, g);
                    // The portable form, where the CPU's has been tested.
                    assert_eq!(
                        table.step16_portable(rows, g),
                        out,
                        "{rule}, generation {g}"
                    );
                    for y in g..16 - g {
                        for x in g..16 - g {
                            let want = reference.cell(x as i64 + 16, y as i64 + 16).unwrap();
                            assert_eq!(
                                out[y as usize] >> x & 1 == 1,
                                want,
                                "{rule}, generation {g}, cell ({x}, {y})"
                            );
                        }
                    }
                }
            }
        }
    }
}
