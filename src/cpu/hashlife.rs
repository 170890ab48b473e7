//! HashLife, Gosper's algorithm: the universe is a quadtree of hash-consed nodes (equal squares
//! are one node), and each node memoises its future: the centre half of a node of level L
//! (2^L cells a side) advanced 2^min(j, L-2) generations, j being the step exponent. A step of
//! 2^k generations is one such result of a big enough root; any N is reached by its binary
//! digits. Repetition in space and in time is computed once.
//!
//! Leaves are 8x8 cells in a `u64` (row r in bits 8r..8r+8, column c in bit c). The recursion
//! stops at 32x32 nodes, whose results (one to eight generations) the bit-sliced kernel computes
//! directly: that is cheaper than the thirteen 16x16 results below them and the nodes it would
//! take to memoise those.
//!
//! On the unbounded plane the root grows as the pattern does. A torus whose sides are powers of
//! two is the periodic tiling of the plane by its contents, so its whole state is one node N
//! cells a side (N the larger side), and copies of it make the bigger nodes a step needs: this
//! is exact for every rule, B0 included.
//!
//! The node store is bounded: when it fills, nodes not reachable from the root (or from the
//! recursion in progress) are collected, first keeping memoised results, then dropping them;
//! a pattern that does not fit even then is an error, never a killed process.

use super::kernel::{BlockTable, Kernel};
use crate::engine::{
    Bounds, CellRect, Census, CensusSum, Core, Engine, EngineError, EngineKind, EngineResult,
    Progress, Put, Sampled, StepTally, Universe, Work, census_index,
};
use crate::grid::Grid;
use crate::pattern::macrocell::{Macrocell, McNode, leaf_box};
use crate::rule::Rule;
use crate::tiles::{TILE, TileMap};
use rustc_hash::FxHashMap;

type Id = u32;
const NONE: Id = u32::MAX;
/// Leaves are 8x8.
const LEAF: u8 = 3;
/// Bytes one node the store may hold costs: the node (24) and its share of the hash table. The
/// table is 7/16 to 7/8 full while it grows (9 to 18 bytes a node) and at least 1/4 full after
/// a collection, which leaves at most 60% of the nodes (at most 20 bytes per node the store may
/// hold); the node vector grows no further than the store may hold.
pub const NODE_BYTES: u64 = 64;
const _: () = assert!(std::mem::size_of::<Node>() == 24);

#[derive(Clone, Copy)]
struct Node {
    /// nw, ne, sw, se; a leaf keeps its bits in the first two.
    children: [Id; 4],
    level: u8,
    /// The step exponent `result` was computed for (min(j, level - 2)), or 255.
    result_exp: u8,
    marked: bool,
    /// No live cell. A node keeps no population: 8 bytes more a node was a third more memory
    /// to clear for the store, and a population is asked of the few nodes a root reaches
    /// ([`HashLifeEngine::population_of`]).
    empty: bool,
    result: Id,
}

impl Node {
    fn bits(&self) -> u64 {
        self.children[0] as u64 | (self.children[1] as u64) << 32
    }
}

/// Why a step stopped early.
enum Stop {
    Cancelled,
    /// The store cannot hold what the step needs.
    Full,
}

/// The hash-consed node store.
struct Store {
    nodes: Vec<Node>,
    free: Vec<Id>,
    /// Open addressing, linear probing by buckets of eight slots: the node id in the low 32
    /// bits and 32 bits of its hash above, so that most probes that miss never read the node.
    /// The id is stored plus one, so that an empty slot is 0.
    table: Vec<Bucket>,
    /// 64 less log2 of the buckets: a key's home bucket is its hash shifted right by this.
    shift: u32,
    live: usize,
    /// The most nodes the store may hold (`--memory`).
    max_nodes: usize,
    /// Where a collection starts: at most `max_nodes`, and below it without `--memory`, where
    /// it doubles whenever a collection that keeps the memoised results frees too little. So
    /// memory follows what the pattern needs, as Golly's does, not the share of the system
    /// the store may take; collecting nodes that no step will ask for again costs nothing.
    soft_nodes: usize,
    /// The empty node of each level.
    empty: Vec<Id>,
    /// Nodes the recursion in progress holds: roots of the collection besides the root.
    stack: Vec<Id>,
    /// Collections so far (reported in notes).
    collections: u32,
    /// Nodes made since the engine was created, the ones dropped since included.
    made: u64,
}

pub(super) const EMPTY_SLOT: u64 = 0;

/// A table slot for node `id` whose hash is `h`.
pub(super) fn slot_of(h: u64, id: Id) -> u64 {
    (h >> 32) << 32 | (id as u64 + 1)
}

fn hash4(c: [Id; 4], level: u8) -> u64 {
    // One folded 64x64-bit multiply: a few instructions for a hash computed for every lookup
    // of every recursion step (the SplitMix finalizer it replaces was an eighth of the
    // instructions of a step). A factor is zero only for keys whose first or last pair of
    // children are ids past two billion, which the store never reaches by default; even then
    // the lookups stay right, only slower.
    let a = (c[0] as u64 | (c[1] as u64) << 32) ^ 0x9e37_79b9_7f4a_7c15;
    let b = (c[2] as u64 | (c[3] as u64) << 32 ^ (level as u64) << 56) ^ 0xc2b2_ae3d_27d4_eb4f;
    let m = a as u128 * b as u128;
    m as u64 ^ (m >> 64) as u64
}

/// Starts loading `slots[i]` into the cache (a hint: nothing waits for it, and an index past
/// the end loads nothing that matters).
#[inline(always)]
pub(super) fn prefetch_slot<T>(slots: &[T], i: usize) {
    // No bounds check: the address is only a hint, and `wrapping_add` makes any index sound.
    let at = slots.as_ptr().wrapping_add(i);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and faults on no address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(at as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// Eight slots of a node table, one cache line, probed bucket after bucket (both HashLifes).
/// Probing slot by slot took a branch on each slot's tag, and one in five was mispredicted
/// (N-state: Banks-II to 10^4 generations, cachegrind's branch model: 270,000 mispredictions
/// against Golly's 150,000, a third of them there, in a run of about 50 million instructions on
/// both; two-state: Banks-III to 10^6, 386,000 of 1.6 million).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub(super) struct Bucket(pub(super) [u64; 8]);

impl Bucket {
    /// The lanes whose tag (high half) is `tag`, as a bit mask; an empty lane matches a tag
    /// of 0.
    #[inline(always)]
    pub(super) fn tags(&self, tag: u64) -> u32 {
        self.halves::<true>(tag as u32)
    }

    /// The empty lanes (low half 0: a slot holds its node plus one), as a bit mask.
    #[inline(always)]
    pub(super) fn empty(&self) -> u32 {
        self.halves::<false>(0)
    }

    /// The lanes whose high (`HIGH`) or low half is `value`.
    #[inline(always)]
    fn halves<const HIGH: bool>(&self, value: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is in every x86_64 CPU; the loads read the bucket's own 64 bytes,
        // which its alignment keeps whole.
        unsafe {
            use std::arch::x86_64::*;
            let p = self.0.as_ptr() as *const __m128i;
            let v = _mm_set1_epi32(value as i32);
            let mut mask = 0;
            for k in 0..2 {
                let a = _mm_castsi128_ps(_mm_load_si128(p.add(2 * k)));
                let b = _mm_castsi128_ps(_mm_load_si128(p.add(2 * k + 1)));
                // Four slots' high halves, or their low halves.
                let half = _mm_castps_si128(if HIGH {
                    _mm_shuffle_ps::<0b11_01_11_01>(a, b)
                } else {
                    _mm_shuffle_ps::<0b10_00_10_00>(a, b)
                });
                let m = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(half, v))) as u32;
                mask |= m << (4 * k);
            }
            mask
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut mask = 0;
            for (i, &slot) in self.0.iter().enumerate() {
                let half = if HIGH { slot >> 32 } else { slot & 0xffff_ffff };
                mask |= ((half == value as u64) as u32) << i;
            }
            mask
        }
    }
}

/// Whether a table of `buckets` buckets that holds `entries` keys is to double: past 7/8 full.
/// A probe compares a whole bucket at once, so a full table costs little on lookups, and every
/// byte a table takes is memory a fresh process must have cleared, which on a virtual machine
/// costs as much as a megabyte of lookups (both HashLifes grew at 3/4 and 1/2: broken-lines
/// to 2^20 took 106 MB and 0.76 s, Hutton's replicator to 10^4 55 MB and 0.21 s; 80 MB and
/// 0.54 s, 47 MB and 0.19 s at 7/8).
pub(super) fn over_full(entries: usize, buckets: usize) -> bool {
    entries * 8 > buckets * 8 * 7
}

/// The node whose slot, from bucket `home` on, has the tag of `hash` and for which `is` holds,
/// or the first empty slot (8 per bucket) where that key goes: both HashLifes' lookup. Slots
/// empty only when a table is rebuilt, so a key is never past a bucket with room.
#[inline(always)]
pub(super) fn probe_buckets(
    table: &[Bucket],
    home: usize,
    hash: u64,
    is: impl Fn(u32) -> bool,
) -> Result<u32, usize> {
    let mask = table.len() - 1;
    let mut b = home;
    loop {
        let bucket = &table[b];
        let mut hits = bucket.tags(hash >> 32);
        while hits != 0 {
            let slot = bucket.0[hits.trailing_zeros() as usize];
            hits &= hits - 1;
            // An empty slot's tag is 0 too.
            if slot as u32 != 0 && is(slot as u32 - 1) {
                return Ok(slot as u32 - 1);
            }
        }
        let empty = bucket.empty();
        if empty != 0 {
            return Err(8 * b + empty.trailing_zeros() as usize);
        }
        b = (b + 1) & mask;
    }
}

/// An empty table of `buckets` buckets.
fn table(buckets: usize) -> Vec<Bucket> {
    let mut t = crate::memory::vec_in_huge_pages(buckets);
    t.resize(buckets, Bucket::default());
    t
}

impl Store {
    fn new(max_nodes: usize, soft_nodes: usize) -> Store {
        let max_nodes = max_nodes.clamp(1 << 12, u32::MAX as usize - 1);
        let mut s = Store {
            // Room for every node the store may hold, so that the nodes never move and keep
            // their huge pages (jagged2 to 2^20: 5.64 -> 5.45 s); where the system will not
            // reserve that much, the vector doubles as it fills.
            nodes: crate::memory::reserve_in_huge_pages(max_nodes)
                .unwrap_or_else(|| crate::memory::vec_in_huge_pages((1 << 20).min(max_nodes))),
            free: Vec::new(),
            // Small, so that a small pattern starts at once; it doubles as it fills.
            table: Vec::new(),
            shift: 64,
            live: 0,
            // Ids are 32 bits, and the table stores id + 1.
            max_nodes,
            soft_nodes: soft_nodes.clamp(1 << 12, max_nodes),
            empty: Vec::new(),
            stack: Vec::new(),
            collections: 0,
            made: 0,
        };
        s.set_table(table(1 << 9));
        let leaf = s.intern_unchecked([0; 4], LEAF, true);
        s.empty = vec![NONE; LEAF as usize];
        s.empty.push(leaf);
        s
    }

    /// The node with these children, or the empty slot where it would go.
    fn probe(&self, c: [Id; 4], level: u8) -> Result<Id, usize> {
        self.probe_hashed(c, level, hash4(c, level))
    }

    /// `probe`, the key's hash already computed (by `prefetch`).
    #[inline(always)]
    fn probe_hashed(&self, c: [Id; 4], level: u8, h: u64) -> Result<Id, usize> {
        probe_buckets(&self.table, self.home(h), h, |id| {
            let n = &self.nodes[id as usize];
            n.children == c && n.level == level
        })
    }

    /// Starts loading the table slot a lookup of these children will read first: the table is
    /// far bigger than the caches, and a recursion step looks up several nodes at once.
    /// Returns the key's hash, for `probe_hashed`.
    #[inline(always)]
    fn prefetch(&self, c: [Id; 4], level: u8) -> u64 {
        let h = hash4(c, level);
        prefetch_slot(&self.table, self.home(h));
        h
    }

    /// The bucket where a key of hash `h` is looked for first: the hash's top bits, which the
    /// slot keeps (its tag is the top 32), so that the table grows without reading a node.
    #[inline(always)]
    fn home(&self, h: u64) -> usize {
        (h >> self.shift) as usize
    }

    fn insert_slot(&mut self, id: Id) {
        let n = self.nodes[id as usize];
        self.place(hash4(n.children, n.level), id);
    }

    /// Node `id`, whose hash is `h`, in the first empty slot from its home.
    fn place(&mut self, h: u64, id: Id) {
        let b = self.home(h);
        self.place_from(b, slot_of(h, id));
    }

    /// `slot` in the first empty slot from bucket `b` on.
    fn place_from(&mut self, mut b: usize, slot: u64) {
        let mask = self.table.len() - 1;
        loop {
            let empty = self.table[b].empty();
            if empty != 0 {
                self.table[b].0[empty.trailing_zeros() as usize] = slot;
                return;
            }
            b = (b + 1) & mask;
        }
    }

    fn set_slot(&mut self, slot: usize, value: u64) {
        self.table[slot / 8].0[slot % 8] = value;
    }

    fn intern_unchecked(&mut self, c: [Id; 4], level: u8, empty: bool) -> Id {
        match self.probe(c, level) {
            Ok(id) => id,
            Err(slot) => self.insert_at(slot, c, level, empty),
        }
    }

    /// Adds a node that `probe` did not find, in the slot it returned.
    fn insert_at(&mut self, slot: usize, c: [Id; 4], level: u8, empty: bool) -> Id {
        let node = Node {
            children: c,
            level,
            result_exp: 255,
            marked: false,
            empty,
            result: NONE,
        };
        let id = match self.free.pop() {
            Some(id) => {
                self.nodes[id as usize] = node;
                id
            }
            None => {
                if self.nodes.len() == self.nodes.capacity() {
                    // Doubling, but never past the most nodes the store may hold.
                    let room = self.soft_nodes.saturating_sub(self.nodes.len());
                    self.nodes
                        .reserve_exact(self.nodes.len().min(room).max(1 << 12));
                    crate::memory::advise_huge_pages(&self.nodes);
                }
                self.nodes.push(node);
                (self.nodes.len() - 1) as Id
            }
        };
        self.live += 1;
        self.made += 1;
        let h = hash4(c, level);
        if over_full(self.live, self.table.len()) {
            // The slots move, the new node's not yet among them; it goes in after.
            if !self.grow_table() {
                self.place(h, id);
            }
        } else {
            self.set_slot(slot, slot_of(h, id));
        }
        id
    }

    /// The table rebuilt from the nodes, of `size` slots or a few more.
    fn rebuild_table(&mut self, size: usize) {
        self.set_table(table(size.div_ceil(8).next_power_of_two()));
        for id in 0..self.nodes.len() {
            if self.nodes[id].level != 0 {
                self.insert_slot(id as Id);
            }
        }
    }

    fn set_table(&mut self, t: Vec<Bucket>) {
        // Tags are 32 bits: a home needs no more of them (a table of 2^32 buckets is 256 GiB).
        let bits = t.len().trailing_zeros().min(32);
        self.shift = 64 - bits;
        self.table = t;
    }

    /// The table at twice its size, each slot moved by its tag alone. A slot's home in the
    /// new table is twice its old home or one more, so the old table is read in order and the
    /// new one written nearly in order, where rehashing every node (the first build of
    /// broken-lines' nodes: a twelfth of its run) read each node and wrote a slot at random.
    /// Returns whether it rebuilt the table from the nodes instead (past 2^32 buckets, where a
    /// tag no longer holds a home), the newest node among them.
    fn grow_table(&mut self) -> bool {
        let old = std::mem::take(&mut self.table);
        if old.len() >= 1 << 32 {
            self.rebuild_table(old.len() * 16);
            return true;
        }
        self.set_table(table(old.len() * 2));
        let shift = self.shift - 32;
        for bucket in &old {
            for &slot in &bucket.0 {
                if slot != EMPTY_SLOT {
                    self.place_from(((slot >> 32) >> shift) as usize, slot);
                }
            }
        }
        false
    }

    fn node(&self, id: Id) -> &Node {
        &self.nodes[id as usize]
    }

    #[inline(always)]
    fn empty(&mut self, level: u8) -> Id {
        match self.empty.get(level as usize) {
            Some(&e) => e,
            None => self.more_empty(level),
        }
    }

    #[cold]
    fn more_empty(&mut self, level: u8) -> Id {
        while self.empty.len() <= level as usize {
            let below = *self.empty.last().expect("the empty leaf");
            let l = self.empty.len() as u8;
            let e = self.intern_unchecked([below; 4], l, true);
            self.empty.push(e);
        }
        self.empty[level as usize]
    }
}

pub struct HashLifeEngine {
    core: Core,
    kernel: Kernel,
    universe: Universe,
    store: Store,
    root: Id,
    /// Plane: the cell at the root's top-left corner.
    origin: (i64, i64),
    /// Torus: log2 of the node side (the larger torus side, at least 16).
    torus_level: u8,
    /// The level whose results the kernel computes directly: 32x32 blocks (5), or 16x16 (4)
    /// for a rule of the 3x3 block, whose circuit costs several times Life's count: the
    /// smaller blocks repeat far more (rr14gun to 1000: 85% of the 16x16 squares had been
    /// seen), and memoising them computes a third of the cells. Golly's non-totalistic
    /// patterns to 1000 ran 10-40% faster so; Golly's Life demos ran up to twice as slow.
    base: u8,
    /// A tabled rule's 4x4-to-2x2 table, made once its 16x16 results are many enough to pay
    /// for it, and how many it has computed.
    table: Option<BlockTable>,
    computed16: u64,
    /// Results computed since the last look at the cancel flag.
    since_check: u32,
    limit_bytes: u64,
    /// How far the step in progress has got, for its `Progress` while a long jump runs.
    tally: StepTally,
    /// The populations counted of nodes above 16x16, until a collection reuses their numbers.
    populations: FxHashMap<Id, u64>,
}

/// Where the default store starts collecting (see `Store::soft_nodes`): 7/8 of the 256 MiB
/// Golly's HashLife keeps by default. Its nodes (3.67 million) fill a table of 2^19 buckets to
/// the point where it would double, and each time a collection raises the limit it doubles with
/// the table. From 512 MiB, jagged2 to 2^20 took 440 MB and 6.6 s against Golly's 260 MB and
/// 6.0 s; from here, 209 MB and 6.0 s (BENCHMARKS.md, thirtieth session): a node a collection
/// drops costs less to make again than the memory the system must clear to keep it.
pub(super) const SOFT_START_BYTES: u64 = 224 << 20;

/// The default node store: a third of the memory available, at most 8 GiB.
pub fn default_memory() -> u64 {
    crate::memory::available()
        .map_or(1 << 30, |a| a / 3)
        .clamp(64 << 20, 8 << 30)
}

/// The live cells of node `id`, the counts of nodes above 16x16 memoised in `memo`.
fn count(s: &Store, memo: &mut FxHashMap<Id, u64>, id: Id) -> u64 {
    let n = s.node(id);
    if n.empty {
        return 0;
    }
    let leaf = |c: Id| s.node(c).bits().count_ones() as u64;
    match n.level {
        LEAF => return n.bits().count_ones() as u64,
        l if l == LEAF + 1 => return n.children.iter().map(|&c| leaf(c)).sum(),
        _ => {}
    }
    if let Some(&p) = memo.get(&id) {
        return p;
    }
    let p = (n.children.iter())
        .map(|&c| count(s, memo, c))
        .fold(0u64, u64::saturating_add);
    memo.insert(id, p);
    p
}

/// The centre 8x8 of a 16x16 block (rows and columns 4..12), as a leaf.
fn centre16(rows: &[u16; 16]) -> u64 {
    (0..8).fold(0u64, |acc, r| {
        acc | ((rows[4 + r] >> 4) as u64 & 0xff) << (8 * r)
    })
}

/// The 16x16 results a tabled rule's circuit computes before its 4x4-to-2x2 table is made: the
/// table takes about 0.13 ms to make and saves about a tenth of a microsecond a result
/// (rr14gun to 1000, 9,000 results: 6.7 ms to 5.5 ms; p384drifter, 1,100: never made).
const TABLE_AFTER: u64 = 2048;

/// Results computed between looks at the step's [`Progress`]: a look is two loads, and a node
/// budget of a thousand (`auto`'s trial of a crowded pattern) is not overshot by much.
const CHECK_EVERY: u32 = 64;

impl HashLifeEngine {
    pub fn new(rule: Rule, universe: Universe, memory: Option<u64>) -> EngineResult<Self> {
        let mut kernel = Kernel::for_rule(&rule).ok_or_else(|| {
            EngineError::Unsupported(format!(
                "HashLife runs two-state rules of the 3x3 block; {}",
                rule.why_no_block_rule()
            ))
        })?;
        if rule.is_stochastic() {
            return Err(EngineError::Unsupported(format!(
                "HashLife memoises the future, which a stochastic rule ({rule}) does not have"
            )));
        }
        universe.refuse_tube("HashLife")?;
        if universe.is_bounded_plane() {
            return Err(EngineError::Unsupported(format!(
                "HashLife runs a power-of-two torus or the unbounded plane, not {}",
                universe.describe()
            )));
        }
        let torus_level = match universe {
            Universe::Torus { width, height } => {
                if !width.is_power_of_two() || !height.is_power_of_two() {
                    return Err(EngineError::Unsupported(format!(
                        "HashLife runs a torus whose sides are powers of two; {width}x{height} is not"
                    )));
                }
                (width.max(height).trailing_zeros() as u8).max(4)
            }
            Universe::Plane | Universe::Bounded { .. } | Universe::Tube(_) => {
                if kernel.births_from_nothing {
                    // With Smax Golly runs the dual rule, which HashLife memoises like any
                    // other; without, the rules alternate, which its jumps cannot.
                    match rule.b0_emulation() {
                        Some((even, odd)) if even == odd => {
                            kernel = Kernel::for_rule(&even).expect("a 2D rule");
                        }
                        _ => {
                            return Err(EngineError::Unsupported(format!(
                                "{rule} gives birth on empty space (B0) without S{}: on the unbounded plane Golly alternates two rules, which HashLife's jumps cannot; the tile engine runs it",
                                rule.life_rule().map_or(8, |l| l.neighbourhood.max_count())
                            )));
                        }
                    }
                }
                4
            }
        };
        let limit_bytes = memory.unwrap_or_else(default_memory);
        let soft_bytes = if memory.is_some() {
            limit_bytes
        } else {
            SOFT_START_BYTES
        };
        let mut store = Store::new(
            (limit_bytes / NODE_BYTES) as usize,
            (soft_bytes / NODE_BYTES) as usize,
        );
        let root = store.empty(torus_level);
        let base = if kernel.has_circuit() {
            LEAF + 1
        } else {
            LEAF + 2
        };
        Ok(Self {
            core: Core::new(EngineKind::HashLife, "hashlife", rule),
            kernel,
            universe,
            store,
            root,
            origin: (-(1i64 << (torus_level - 1)), -(1i64 << (torus_level - 1))),
            torus_level,
            base,
            table: None,
            computed16: 0,
            since_check: 0,
            limit_bytes,
            tally: StepTally::default(),
            populations: FxHashMap::default(),
        })
    }

    fn is_torus(&self) -> bool {
        !self.universe.is_plane()
    }

    /// Makes (or finds) an inner node, collecting garbage first when the store is full.
    fn make(&mut self, c: [Id; 4]) -> Result<Id, Stop> {
        let level = self.store.node(c[0]).level + 1;
        self.make_hashed(c, level, hash4(c, level))
    }

    /// `make`, the node's level and hash already known.
    #[inline(always)]
    fn make_hashed(&mut self, c: [Id; 4], level: u8, h: u64) -> Result<Id, Stop> {
        let slot = match self.find_or_room(c, level, c, h)? {
            Ok(id) => return Ok(id),
            Err(slot) => slot,
        };
        let empty = c.iter().all(|&k| self.store.node(k).empty);
        Ok(self.store.insert_at(slot, c, level, empty))
    }

    fn leaf(&mut self, bits: u64) -> Result<Id, Stop> {
        let c = [bits as u32, (bits >> 32) as u32, 0, 0];
        let slot = match self.find_or_room(c, LEAF, [NONE; 4], hash4(c, LEAF))? {
            Ok(id) => return Ok(id),
            Err(slot) => slot,
        };
        Ok(self.store.insert_at(slot, c, LEAF, bits == 0))
    }

    /// The node with these children, or the slot a new one goes in, after collecting garbage
    /// (which keeps `keep`) when the store is full. Inlined into every lookup of a step.
    #[inline(always)]
    fn find_or_room(
        &mut self,
        c: [Id; 4],
        level: u8,
        keep: [Id; 4],
        h: u64,
    ) -> Result<Result<Id, usize>, Stop> {
        let found = self.store.probe_hashed(c, level, h);
        if found.is_ok() || self.store.live < self.store.soft_nodes {
            return Ok(found);
        }
        self.collect_then_probe(c, level, keep)
    }

    #[cold]
    #[inline(never)]
    fn collect_then_probe(
        &mut self,
        c: [Id; 4],
        level: u8,
        keep: [Id; 4],
    ) -> Result<Result<Id, usize>, Stop> {
        // The collection rebuilds the table, so the slot moves.
        self.collect(keep)?;
        Ok(self.store.probe(c, level))
    }

    /// Mark and sweep from the root, the recursion's stack and `extra`; keeps memoised results
    /// when that frees enough, else drops them too.
    fn collect(&mut self, extra: [Id; 4]) -> Result<(), Stop> {
        self.sweep(true, extra);
        self.store.collections += 1;
        let s = &mut self.store;
        if s.live * 10 < s.soft_nodes * 6 {
            return Ok(());
        }
        if s.soft_nodes < s.max_nodes {
            // What the steps reach does not fit below the soft limit: raise it before
            // dropping memoised results, which a step would compute again.
            s.soft_nodes = (s.soft_nodes * 2).min(s.max_nodes);
            return Ok(());
        }
        self.sweep(false, extra);
        self.store.collections += 1;
        if self.store.live * 10 < self.store.max_nodes * 9 {
            return Ok(());
        }
        Err(Stop::Full)
    }

    fn sweep(&mut self, keep_results: bool, extra: [Id; 4]) {
        self.populations.clear();
        let s = &mut self.store;
        for n in s.nodes.iter_mut() {
            n.marked = false;
        }
        let mut todo: Vec<Id> = Vec::new();
        todo.push(self.root);
        todo.extend(s.stack.iter().copied());
        todo.extend(s.empty.iter().copied().filter(|&e| e != NONE));
        todo.extend(extra.iter().copied().filter(|&e| e != NONE));
        while let Some(id) = todo.pop() {
            let n = &mut s.nodes[id as usize];
            if n.marked || n.level == 0 {
                continue;
            }
            n.marked = true;
            let n = *n;
            if n.level > LEAF {
                todo.extend(n.children);
            }
            if keep_results && n.result != NONE {
                todo.push(n.result);
            }
        }
        s.free.clear();
        s.live = 0;
        for (id, n) in s.nodes.iter_mut().enumerate() {
            if n.level == 0 {
                s.free.push(id as Id);
                continue;
            }
            if !n.marked {
                n.level = 0;
                n.result = NONE;
                s.free.push(id as Id);
                continue;
            }
            s.live += 1;
            if !keep_results {
                n.result = NONE;
                n.result_exp = 255;
            }
        }
        // At least a quarter full: the table's share of NODE_BYTES.
        let size = (s.live * 2).max(1 << 16);
        s.rebuild_table(size);
    }

    /// The centre half of node `id` advanced 2^min(j, level - 2) generations.
    /// Inlined: most results a step asks for are memoised or empty, and a call of the whole
    /// recursion for each (thirteen a step) cost more than the lookup.
    #[inline(always)]
    fn result(&mut self, id: Id, j: u8, progress: Option<&Progress>) -> Result<Id, Stop> {
        let n = self.store.node(id);
        let exp = j.min(n.level - 2);
        if n.result != NONE && n.result_exp == exp {
            return Ok(n.result);
        }
        if n.empty && !self.kernel.births_from_nothing {
            let level = n.level;
            return Ok(self.store.empty(level - 1));
        }
        self.compute_result(id, j, progress)
    }

    /// A result neither memoised nor empty.
    #[inline(never)]
    fn compute_result(&mut self, id: Id, j: u8, progress: Option<&Progress>) -> Result<Id, Stop> {
        let n = *self.store.node(id);
        let exp = j.min(n.level - 2);
        self.since_check += 1;
        if self.since_check >= CHECK_EVERY {
            self.since_check = 0;
            if self.stops(progress) {
                return Err(Stop::Cancelled);
            }
        }
        // Steps start from roots of level 5 or more, and the recursion stops at the base.
        debug_assert!(n.level >= self.base);
        let out = if n.level == self.base {
            if self.base == LEAF + 2 {
                self.base32(n.children, exp)?
            } else {
                // A step's recursion reaches 16x16 nodes through `results16`; a result asked of
                // one directly goes the same way.
                let mut out = [NONE];
                self.results16(&[id], j, &mut out, progress)?;
                out[0]
            }
        } else {
            self.recurse(n.children, n.level, j, progress)?
        };
        let node = &mut self.store.nodes[id as usize];
        // The node may have been collected and reused meanwhile only if nothing held it; the
        // caller holds it on the stack, so it is still the same node.
        node.result = out;
        node.result_exp = exp;
        Ok(out)
    }

    /// A 32x32 node's centre 16x16 after 2^exp (1 to 8) generations, computed directly: cheaper
    /// than the recursion's thirteen 16x16 results and the nodes it would make for them.
    fn base32(&mut self, c: [Id; 4], exp: u8) -> Result<Id, Stop> {
        let mut rows = [0u64; 16];
        for (k, &child) in c.iter().enumerate() {
            let leaves = self.store.node(child).children;
            for (m, &leaf) in leaves.iter().enumerate() {
                let bits = self.store.node(leaf).bits();
                let x0 = 16 * (k & 1) + 8 * (m & 1);
                let q0 = 8 * (k >> 1) + 4 * (m >> 1);
                for i in 0..4 {
                    // Leaf rows 2i and 2i + 1 into the low and high halves of a word.
                    let pair = bits >> (16 * i) & 0xffff;
                    rows[q0 + i] |= ((pair & 0xff) | (pair & 0xff00) << 24) << x0;
                }
            }
        }
        let rows = self.kernel.packed32(rows, 1 << exp);
        // The centre: rows 8..24 (words 4..12), columns 8..24.
        let leaf = |q0: usize, x0: usize| {
            (0..4).fold(0u64, |acc, i| {
                let w = rows[q0 + i] >> x0;
                acc | ((w & 0xff) | (w >> 32 & 0xff) << 8) << (16 * i)
            })
        };
        let quads = [leaf(4, 8), leaf(4, 16), leaf(8, 8), leaf(8, 16)];
        for &b in &quads {
            self.store
                .prefetch([b as u32, (b >> 32) as u32, 0, 0], LEAF);
        }
        let mut out = [NONE; 4];
        for (k, &b) in quads.iter().enumerate() {
            out[k] = self.leaf(b)?;
            self.store.stack.push(out[k]);
        }
        let r = self.make(out);
        self.store.stack.truncate(self.store.stack.len() - 4);
        r
    }

    /// The results of 16x16 nodes (`ids`, nine or four of them, held by the caller), each
    /// pushed on the stack: those not memoised are computed four at a time, side by side in
    /// one call of the kernel. One 16x16 block is four words, too few for the kernel's
    /// vectors to hide the time each node of a rule's circuit waits for the last.
    fn results16(
        &mut self,
        ids: &[Id],
        j: u8,
        out: &mut [Id],
        progress: Option<&Progress>,
    ) -> Result<(), Stop> {
        let exp = j.min(LEAF + 1 - 2);
        let mut pending = [0usize; 9];
        let mut waiting = 0;
        for (k, &id) in ids.iter().enumerate() {
            let n = *self.store.node(id);
            out[k] = if n.result != NONE && n.result_exp == exp {
                n.result
            } else if n.empty && !self.kernel.births_from_nothing {
                self.store.empty(LEAF)
            } else {
                pending[waiting] = k;
                waiting += 1;
                continue;
            };
            self.store.stack.push(out[k]);
        }
        self.since_check += waiting as u32;
        if self.since_check >= CHECK_EVERY {
            self.since_check = 0;
            if self.stops(progress) {
                return Err(Stop::Cancelled);
            }
        }
        self.computed16 += waiting as u64;
        if self.table.is_none() && self.computed16 >= TABLE_AFTER {
            self.table = self.kernel.block_table();
        }
        // The centres first, then their leaves: making a leaf may collect garbage.
        let mut centres = [0u64; 9];
        if let Some(table) = &self.table {
            for (centre, &k) in centres.iter_mut().zip(&pending[..waiting]) {
                let rows = self.rows16(self.store.node(ids[k]).children);
                *centre = centre16(&table.step16(rows, 1 << exp));
            }
        } else {
            for (four, centres) in pending[..waiting].chunks(4).zip(centres.chunks_mut(4)) {
                // Block b's row 4q + i in bits 16i..16i + 16 of word 4b + q.
                let mut words = [0u64; 16];
                for (b, &k) in four.iter().enumerate() {
                    let rows = self.rows16(self.store.node(ids[k]).children);
                    for (y, &row) in rows.iter().enumerate() {
                        words[4 * b + y / 4] |= (row as u64) << (16 * (y % 4));
                    }
                }
                let words = self.kernel.packed16(words, 1 << exp);
                for (b, centre) in centres.iter_mut().enumerate().take(four.len()) {
                    let rows =
                        std::array::from_fn(|y| (words[4 * b + y / 4] >> (16 * (y % 4))) as u16);
                    *centre = centre16(&rows);
                }
            }
        }
        for (&centre, &k) in centres.iter().zip(&pending[..waiting]) {
            out[k] = self.leaf(centre)?;
            self.store.stack.push(out[k]);
            let node = &mut self.store.nodes[ids[k] as usize];
            node.result = out[k];
            node.result_exp = exp;
        }
        Ok(())
    }

    /// A 16x16 node's rows, one to a `u16`.
    fn rows16(&self, c: [Id; 4]) -> [u16; 16] {
        let bits = c.map(|leaf| self.store.node(leaf).bits());
        std::array::from_fn(|y| {
            let (w, e) = if y < 8 {
                (bits[0], bits[1])
            } else {
                (bits[2], bits[3])
            };
            let r = 8 * (y % 8);
            (w >> r & 0xff | (e >> r & 0xff) << 8) as u16
        })
    }

    fn recurse(
        &mut self,
        c: [Id; 4],
        level: u8,
        j: u8,
        progress: Option<&Progress>,
    ) -> Result<Id, Stop> {
        let mark = self.store.stack.len();
        // Nine results, and four more where the step is the node's whole reach.
        self.tally.enter(level, if j >= level - 2 { 13 } else { 9 });
        let r = self.recurse_inner(c, level, j, progress);
        self.store.stack.truncate(mark);
        r
    }

    fn recurse_inner(
        &mut self,
        c: [Id; 4],
        level: u8,
        j: u8,
        progress: Option<&Progress>,
    ) -> Result<Id, Stop> {
        let ch = |s: &Store, id: Id| s.node(id).children;
        let [a, b, cc, d] = c;
        let (a4, b4, c4, d4) = (
            ch(&self.store, a),
            ch(&self.store, b),
            ch(&self.store, cc),
            ch(&self.store, d),
        );
        // The nine overlapping subnodes of level - 1; their lookups start together.
        let five = [
            [a4[1], b4[0], a4[3], b4[2]],
            [a4[2], a4[3], c4[0], c4[1]],
            [a4[3], b4[2], c4[1], d4[0]],
            [b4[2], b4[3], d4[0], d4[1]],
            [c4[1], d4[0], c4[3], d4[2]],
        ];
        let [n01, n10, n11, n12, n21] = self.make_all(five)?;
        let nine = [a, n01, b, n10, n11, n12, cc, n21, d];
        let by_four = level - 1 == self.base && self.base == LEAF + 1;
        let full = j >= level - 2;
        let mut r = [NONE; 9];
        if by_four {
            self.results16(&nine, j, &mut r, progress)?;
        } else {
            for (k, &x) in nine.iter().enumerate() {
                r[k] = self.result(x, j, progress)?;
                self.store.stack.push(r[k]);
                self.tally.part_done(level, progress);
            }
        }
        let quads = [
            [r[0], r[1], r[3], r[4]],
            [r[1], r[2], r[4], r[5]],
            [r[3], r[4], r[6], r[7]],
            [r[4], r[5], r[7], r[8]],
        ];
        let quads = self.make_all(quads)?;
        let mut out = [NONE; 4];
        if full && by_four {
            self.results16(&quads, j, &mut out, progress)?;
        } else {
            for (k, &node) in quads.iter().enumerate() {
                out[k] = if full {
                    let r = self.result(node, j, progress)?;
                    self.tally.part_done(level, progress);
                    r
                } else {
                    self.centre(node)?
                };
                self.store.stack.push(out[k]);
            }
        }
        self.make(out)
    }

    /// Makes (or finds) several inner nodes of one level, held on the stack; their table slots
    /// start loading together, since the table is far bigger than the caches.
    fn make_all<const N: usize>(&mut self, keys: [[Id; 4]; N]) -> Result<[Id; N], Stop> {
        let level = self.store.node(keys[0][0]).level + 1;
        let hashes = keys.map(|k| self.store.prefetch(k, level));
        let mut made = [NONE; N];
        for (k, key) in keys.into_iter().enumerate() {
            made[k] = self.make_hashed(key, level, hashes[k])?;
            self.store.stack.push(made[k]);
        }
        Ok(made)
    }

    /// The centre half of a node (of level 4 or more), not advanced.
    fn centre(&mut self, id: Id) -> Result<Id, Stop> {
        let [a, b, c, d] = self.store.node(id).children;
        let s = &self.store;
        if s.node(id).level == LEAF + 1 {
            // Each leaf's quarter nearest the centre, rows and columns 4..8 of the north-west
            // one, 0..4 of the south-east.
            let quarter = |leaf: Id, x0: u32, y0: u32, x: u32, y: u32| {
                let bits = s.node(leaf).bits();
                (0..4).fold(0u64, |acc, r| {
                    acc | (bits >> (8 * (y0 + r) + x0) & 0xf) << (8 * (y + r) + x)
                })
            };
            let bits = quarter(a, 4, 4, 0, 0)
                | quarter(b, 0, 4, 4, 0)
                | quarter(c, 4, 0, 0, 4)
                | quarter(d, 0, 0, 4, 4);
            return self.leaf(bits);
        }
        let q = [
            s.node(a).children[3],
            s.node(b).children[2],
            s.node(c).children[1],
            s.node(d).children[0],
        ];
        self.make(q)
    }

    /// The root grown one level, the old root at its centre.
    fn expand(&mut self) -> Result<(), Stop> {
        // What it holds on the stack, and no more (a step holds the root it started from).
        let held = self.store.stack.len();
        let level = self.store.node(self.root).level;
        let [a, b, c, d] = self.store.node(self.root).children;
        let e = self.store.empty(level - 1);
        let nw = self.make([e, e, e, a])?;
        self.store.stack.push(nw);
        let ne = self.make([e, e, b, e])?;
        self.store.stack.push(ne);
        let sw = self.make([e, c, e, e])?;
        self.store.stack.push(sw);
        let se = self.make([d, e, e, e])?;
        self.store.stack.push(se);
        self.root = self.make([nw, ne, sw, se])?;
        self.store.stack.truncate(held);
        let half = 1i64 << (level - 1);
        self.origin = (self.origin.0 - half, self.origin.1 - half);
        Ok(())
    }

    /// The live cells of node `id`. Counted, not kept in each node: a root reaches few distinct
    /// nodes (at most 25,000 in Golly's demos at 2^20), where the store holds millions.
    fn population_of(&mut self, id: Id) -> u64 {
        count(&self.store, &mut self.populations, id)
    }

    /// Whether every live cell of the root lies in its centre half.
    fn centred(&self) -> bool {
        let s = &self.store;
        let root = s.node(self.root);
        if root.level <= LEAF + 1 {
            return root.empty;
        }
        let [a, b, c, d] = root.children;
        let outer = |id: Id, keep: usize| {
            s.node(id)
                .children
                .iter()
                .enumerate()
                .all(|(k, &g)| k == keep || s.node(g).empty)
        };
        outer(a, 3) && outer(b, 2) && outer(c, 1) && outer(d, 0)
    }

    /// Shrinks the plane's root while its live cells fit in its centre half.
    fn shrink(&mut self) -> Result<(), Stop> {
        while self.store.node(self.root).level > LEAF + 2 && self.centred() {
            let level = self.store.node(self.root).level;
            self.root = self.centre(self.root)?;
            let q = 1i64 << (level - 2);
            self.origin = (self.origin.0 + q, self.origin.1 + q);
        }
        Ok(())
    }

    /// Advances exactly 2^k generations.
    fn step_pow2(&mut self, k: u8, progress: Option<&Progress>) -> Result<(), Stop> {
        if self.is_torus() {
            return self.step_torus(k, progress);
        }
        // The root the step starts from is what a step that stops goes back to: it stays
        // reachable (on the stack) while collections run inside the step, though the expanded
        // root holds only its children.
        self.store.stack.push(self.root);
        while self.store.node(self.root).level < k + 2 || !self.centred() {
            self.expand()?;
        }
        self.expand()?;
        let level = self.store.node(self.root).level;
        self.tally.start(1 << k, level);
        let next = self.result(self.root, k, progress)?;
        self.root = next;
        let q = 1i64 << (level - 2);
        self.origin = (self.origin.0 + q, self.origin.1 + q);
        self.store.stack.clear();
        self.shrink()
    }

    /// The torus: copies of its node make a node big enough for the step; its result is the
    /// torus advanced, seen from an offset that a quadrant swap undoes.
    fn step_torus(&mut self, k: u8, progress: Option<&Progress>) -> Result<(), Stop> {
        let n = self.torus_level;
        let m = n.max(k + 1);
        // The level-m node tiled by the torus.
        let mut x = self.root;
        for _ in n..m {
            x = self.make([x; 4])?;
            self.store.stack.push(x);
        }
        let big = self.make([x; 4])?;
        self.store.stack.push(big);
        self.tally.start(1 << k, m + 1);
        let r = self.result(big, k, progress)?;
        self.store.stack.push(r);
        // `r` is the torus seen from (2^(m-1), 2^(m-1)).
        let mut t = r;
        if m > n {
            while self.store.node(t).level > n {
                t = self.store.node(t).children[0];
            }
        } else {
            let [a, b, c, d] = self.store.node(r).children;
            t = self.make([d, c, b, a])?;
        }
        self.root = t;
        self.store.stack.clear();
        Ok(())
    }

    /// Runs `gens` generations by their binary digits, reporting and honouring `progress`.
    fn advance(&mut self, gens: u64, progress: Option<&Progress>) -> EngineResult<u64> {
        if !self.is_torus() && gens >= 1 << 56 {
            return Err(EngineError::Unsupported(format!(
                "{gens} generations would carry the plane's coordinates past what 64 bits hold; at most 2^56 at a time"
            )));
        }
        let mut done = 0;
        for k in (0..64u8).rev() {
            let step = 1u64 << k;
            if gens - done < step {
                continue;
            }
            if self.stops(progress) {
                break;
            }
            let before = (self.root, self.origin);
            match self.step_pow2(k, progress) {
                Ok(()) => {}
                Err(stop) => {
                    // The step did not finish: the state is the one before it.
                    (self.root, self.origin) = before;
                    self.store.stack.clear();
                    return match stop {
                        Stop::Cancelled => Ok(done),
                        Stop::Full => Err(self.full_error()),
                    };
                }
            }
            done += step;
            self.core.generation += step;
            if let Some(p) = progress {
                p.advance(step);
            }
        }
        Ok(done)
    }

    /// Whether the step in progress is to stop: cancelled, or its node budget spent.
    fn stops(&self, progress: Option<&Progress>) -> bool {
        progress.is_some_and(|p| p.stops_at(self.store.made))
    }

    fn full_error(&self) -> EngineError {
        EngineError::Unsupported(format!(
            "HashLife's node store is full ({} nodes in {}) even after collecting garbage; give it more with --memory",
            self.store.live,
            crate::memory::human_bytes(self.limit_bytes)
        ))
    }

    fn level(&self) -> u8 {
        self.store.node(self.root).level
    }

    /// The region the root covers, and where its top-left corner is.
    fn root_origin(&self) -> (i64, i64) {
        if self.is_torus() { (0, 0) } else { self.origin }
    }

    /// Visits every non-empty leaf within `clip` (cells, half-open), with its top-left corner.
    fn leaves(&self, clip: (i64, i64, i64, i64), f: &mut dyn FnMut(i64, i64, u64)) {
        let (x0, y0) = self.root_origin();
        self.visit(self.root, x0, y0, clip, f);
    }

    fn visit(
        &self,
        id: Id,
        x: i64,
        y: i64,
        clip: (i64, i64, i64, i64),
        f: &mut dyn FnMut(i64, i64, u64),
    ) {
        let n = self.store.node(id);
        if n.empty {
            return;
        }
        let size = 1i64 << n.level;
        if x >= clip.2 || y >= clip.3 || x + size <= clip.0 || y + size <= clip.1 {
            return;
        }
        if n.level == LEAF {
            // Only the part inside the clip (a torus's node may hold copies beyond it).
            let (c0, c1) = ((clip.0 - x).clamp(0, 8), (clip.2 - x).clamp(0, 8));
            let (r0, r1) = ((clip.1 - y).clamp(0, 8), (clip.3 - y).clamp(0, 8));
            let cols = ((1u64 << c1) - 1) & !((1u64 << c0) - 1);
            let mut mask = 0u64;
            for r in r0..r1 {
                mask |= cols << (8 * r);
            }
            let bits = n.bits() & mask;
            if bits != 0 {
                f(x, y, bits);
            }
            return;
        }
        let h = size / 2;
        let c = n.children;
        self.visit(c[0], x, y, clip, f);
        self.visit(c[1], x + h, y, clip, f);
        self.visit(c[2], x, y + h, clip, f);
        self.visit(c[3], x + h, y + h, clip, f);
    }

    /// The clip of the whole universe: the torus's own cells (its node may hold copies).
    fn everything(&self) -> (i64, i64, i64, i64) {
        match self.universe {
            Universe::Torus { width, height } => (0, 0, width as i64, height as i64),
            Universe::Plane | Universe::Bounded { .. } | Universe::Tube(_) => {
                (i64::MIN / 2, i64::MIN / 2, i64::MAX / 2, i64::MAX / 2)
            }
        }
    }

    /// Builds the tree of `tiles` (torus: periodic in its sides; plane: the root grows to hold
    /// them) and makes it the state.
    fn build(&mut self, tiles: &TileMap) -> Result<(), Stop> {
        match self.universe {
            Universe::Torus { width, height } => {
                let n = self.torus_level;
                let side = 1i64 << n;
                // The torus's cells, repeated over the node when a side is shorter.
                let mut periodic = TileMap::new();
                let (w, h) = (width as i64, height as i64);
                let mut g8 = Grid::new(64, 64);
                for ((tx, ty), bits) in tiles.iter() {
                    g8.words_mut().copy_from_slice(bits);
                    for cy in (0..side).step_by(h as usize) {
                        for cx in (0..side).step_by(w as usize) {
                            if w >= 64 && h >= 64 {
                                periodic.or_grid(&g8, (tx * TILE + cx, ty * TILE + cy));
                            } else {
                                for (x, y) in g8.alive_cells() {
                                    let gx = (tx * TILE + x as i64).rem_euclid(w) + cx;
                                    let gy = (ty * TILE + y as i64).rem_euclid(h) + cy;
                                    periodic.set(gx, gy, true);
                                }
                            }
                        }
                    }
                }
                self.root = self.tree(&periodic, 0, 0, n)?;
            }
            Universe::Plane | Universe::Bounded { .. } | Universe::Tube(_) => {
                let Some(b) = tiles.bounds() else {
                    self.root = self.store.empty(4);
                    self.origin = (-8, -8);
                    return Ok(());
                };
                let reach = [b.left, b.top, b.right + 1, b.bottom + 1]
                    .iter()
                    .map(|v| v.unsigned_abs())
                    .max()
                    .unwrap_or(8)
                    .max(8);
                let level = ((64 - (reach - 1).leading_zeros()) as u8 + 1).max(4);
                let half = 1i64 << (level - 1);
                self.root = self.tree(tiles, -half, -half, level)?;
                self.origin = (-half, -half);
                self.shrink()?;
            }
        }
        Ok(())
    }

    /// The node of `level` whose top-left cell is (x, y), from tiles.
    fn tree(&mut self, tiles: &TileMap, x: i64, y: i64, level: u8) -> Result<Id, Stop> {
        if level == LEAF {
            let (tx, ty) = (x.div_euclid(TILE), y.div_euclid(TILE));
            let Some(t) = tiles.tile(tx, ty) else {
                return Ok(self.store.empty(LEAF));
            };
            let (bx, by) = (x.rem_euclid(TILE), y.rem_euclid(TILE) as usize);
            let mut bits = 0u64;
            for r in 0..8 {
                bits |= ((t[by + r] >> bx) & 0xff) << (8 * r);
            }
            return self.leaf(bits);
        }
        let size = 1i64 << level;
        if level >= 6 {
            // An empty region: no tile in it. The plane's root of level 6 starts half a tile
            // off the tiles' grid, so the tiles counted are those the region overlaps.
            let (t0x, t0y) = (x.div_euclid(TILE), y.div_euclid(TILE));
            let t = (x + size - 1).div_euclid(TILE) - t0x + 1;
            let few = (t as u128 * t as u128) < tiles.len() as u128;
            let any = if few {
                (0..t).any(|dy| (0..t).any(|dx| tiles.tile(t0x + dx, t0y + dy).is_some()))
            } else {
                tiles
                    .iter()
                    .any(|((tx, ty), _)| tx >= t0x && tx < t0x + t && ty >= t0y && ty < t0y + t)
            };
            if !any {
                return Ok(self.store.empty(level));
            }
        }
        let h = size / 2;
        let mut c = [NONE; 4];
        for (k, (dx, dy)) in [(0, 0), (h, 0), (0, h), (h, h)].into_iter().enumerate() {
            c[k] = self.tree(tiles, x + dx, y + dy, level - 1)?;
            self.store.stack.push(c[k]);
        }
        let id = self.make(c);
        self.store.stack.truncate(self.store.stack.len() - 4);
        id
    }

    /// Sets one cell by copying the path to it (every copy of it, on a torus whose node
    /// repeats it).
    fn set_one(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        let r = (|| -> Result<(), Stop> {
            match self.universe {
                Universe::Torus { width, height } => {
                    let (x, y) = self.universe.wrap(x, y);
                    let side = 1i64 << self.torus_level;
                    for cy in (y..side).step_by(height as usize) {
                        for cx in (x..side).step_by(width as usize) {
                            let level = self.level();
                            self.root = self.with_bit(self.root, level, cx, cy, alive)?;
                        }
                    }
                }
                Universe::Plane | Universe::Bounded { .. } | Universe::Tube(_) => {
                    loop {
                        let size = 1i64 << self.level();
                        let (ox, oy) = self.origin;
                        let inside = x >= ox + size / 4
                            && y >= oy + size / 4
                            && x < ox + 3 * size / 4
                            && y < oy + 3 * size / 4;
                        if inside {
                            break;
                        }
                        self.expand()?;
                    }
                    let level = self.level();
                    self.root = self.with_bit(
                        self.root,
                        level,
                        x - self.origin.0,
                        y - self.origin.1,
                        alive,
                    )?;
                }
            }
            Ok(())
        })();
        self.store.stack.clear();
        r.map_err(|_| self.full_error())
    }

    /// Node `id` (of `level`) with cell (x, y) of it set.
    fn with_bit(&mut self, id: Id, level: u8, x: i64, y: i64, alive: bool) -> Result<Id, Stop> {
        let n = *self.store.node(id);
        if level == LEAF {
            let bit = 1u64 << (y * 8 + x);
            let bits = if alive {
                n.bits() | bit
            } else {
                n.bits() & !bit
            };
            return self.leaf(bits);
        }
        let h = 1i64 << (level - 1);
        let k = (x >= h) as usize + 2 * (y >= h) as usize;
        self.store.stack.push(id);
        let child = self.with_bit(n.children[k], level - 1, x % h, y % h, alive)?;
        self.store.stack.push(child);
        let mut c = n.children;
        c[k] = child;
        self.make(c)
    }

    fn set_tiles(&mut self, tiles: &TileMap) -> EngineResult<()> {
        let r = self.build(tiles);
        self.store.stack.clear();
        r.map_err(|_| self.full_error())
    }

    /// Makes a macrocell file's quadtree the state, node for node: shared subtrees stay shared,
    /// so the time and memory follow the file's nodes, not its cells. The root keeps the
    /// file's centre, the origin.
    fn load_tree(&mut self, tree: &Macrocell) -> Result<(), Stop> {
        let mut ids = vec![NONE; tree.nodes.len() + 1];
        // Everything built so far is held against a collection until the root is made.
        let held = self.store.stack.len();
        for (i, n) in tree.nodes.iter().enumerate() {
            let id = match *n {
                McNode::Leaf(bits) => self.leaf(bits)?,
                McNode::Inner { level, children } => {
                    let mut c = [NONE; 4];
                    for (k, &child) in children.iter().enumerate() {
                        c[k] = match child {
                            0 => self.store.empty(level - 1),
                            _ => ids[child as usize],
                        };
                    }
                    self.make(c)?
                }
                McNode::States(_) => unreachable!("a multi-state file goes in as tiles"),
            };
            ids[i + 1] = id;
            self.store.stack.push(id);
        }
        self.root = ids[tree.root as usize];
        self.store.stack.truncate(held);
        let half = 1i128 << (tree.level() - 1);
        // A level-64 root's corner is -2^63, which `i64` just holds; shrinking brings it in.
        self.origin = (-half as i64, -half as i64);
        self.shrink()
    }

    /// The memoised box of node `id`'s live cells, relative to its top-left corner.
    fn node_box(&self, id: Id, memo: &mut FxHashMap<Id, Option<[u64; 4]>>) -> Option<[u64; 4]> {
        let n = *self.store.node(id);
        if n.empty {
            return None;
        }
        if let Some(&b) = memo.get(&id) {
            return b;
        }
        let b = if n.level == LEAF {
            leaf_box(n.bits())
        } else {
            let h = 1u64 << (n.level - 1);
            let mut acc: Option<[u64; 4]> = None;
            for (k, &c) in n.children.iter().enumerate() {
                if let Some(cb) = self.node_box(c, memo) {
                    let (dx, dy) = ((k & 1) as u64 * h, (k >> 1) as u64 * h);
                    let s = [cb[0] + dx, cb[1] + dy, cb[2] + dx, cb[3] + dy];
                    acc = Some(acc.map_or(s, |a| {
                        [
                            a[0].min(s[0]),
                            a[1].min(s[1]),
                            a[2].max(s[2]),
                            a[3].max(s[3]),
                        ]
                    }));
                }
            }
            acc
        };
        memo.insert(id, b);
        b
    }

    /// The box of the live cells within `clip`: a node wholly inside it answers from its
    /// memoised box, so the time follows the tree's distinct nodes, not its cells.
    fn bounds_in(
        &self,
        id: Id,
        x: i64,
        y: i64,
        clip: (i64, i64, i64, i64),
        memo: &mut FxHashMap<Id, Option<[u64; 4]>>,
    ) -> Option<Bounds> {
        let n = *self.store.node(id);
        if n.empty {
            return None;
        }
        let size = 1i64 << n.level;
        if x >= clip.2 || y >= clip.3 || x + size <= clip.0 || y + size <= clip.1 {
            return None;
        }
        let inside = x >= clip.0 && y >= clip.1 && x + size <= clip.2 && y + size <= clip.3;
        if inside || n.level == LEAF {
            if !inside {
                // A leaf across the clip: only its cells inside.
                let mut b: Option<Bounds> = None;
                self.visit(id, x, y, clip, &mut |lx, ly, bits| {
                    for r in 0..8 {
                        let row = bits >> (8 * r) & 0xff;
                        if row != 0 {
                            let lb = Bounds {
                                left: lx + row.trailing_zeros() as i64,
                                right: lx + 63 - row.leading_zeros() as i64,
                                top: ly + r,
                                bottom: ly + r,
                            };
                            b = Some(b.map_or(lb, |b| b.union(lb)));
                        }
                    }
                });
                return b;
            }
            let r = self.node_box(id, memo)?;
            return Some(Bounds {
                left: x + r[0] as i64,
                top: y + r[1] as i64,
                right: x + r[2] as i64,
                bottom: y + r[3] as i64,
            });
        }
        let h = size / 2;
        let c = n.children;
        [(0, 0), (h, 0), (0, h), (h, h)]
            .into_iter()
            .enumerate()
            .filter_map(|(k, (dx, dy))| self.bounds_in(c[k], x + dx, y + dy, clip, memo))
            .reduce(Bounds::union)
    }

    /// The plane's state as a macrocell quadtree, node for node (its root is centred on the
    /// origin, as the file's is).
    fn to_tree(&self) -> Macrocell {
        let mut ids: FxHashMap<Id, u32> = FxHashMap::default();
        let mut nodes: Vec<McNode> = Vec::new();
        let mut todo = vec![(self.root, false)];
        while let Some((id, children_done)) = todo.pop() {
            let n = *self.store.node(id);
            if n.empty || ids.contains_key(&id) {
                continue;
            }
            if n.level == LEAF {
                nodes.push(McNode::Leaf(n.bits()));
            } else if children_done {
                nodes.push(McNode::Inner {
                    level: n.level,
                    children: n.children.map(|c| ids.get(&c).copied().unwrap_or(0)),
                });
            } else {
                todo.push((id, true));
                todo.extend(n.children.iter().rev().map(|&c| (c, false)));
                continue;
            }
            ids.insert(id, nodes.len() as u32);
        }
        Macrocell {
            root: ids.get(&self.root).copied().unwrap_or(0),
            nodes,
            rule: Some(self.core.rule),
            generation: self.core.generation,
            comments: Vec::new(),
        }
    }

    /// Memory the store may take, and nodes in it.
    pub fn nodes(&self) -> usize {
        self.store.live
    }
}

impl Engine for HashLifeEngine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn jumps(&self) -> bool {
        true
    }

    fn universe(&self) -> Universe {
        self.universe
    }

    fn step(&mut self, generations: u64) -> EngineResult<()> {
        self.advance(generations, None).map(|_| ())
    }

    fn step_with(&mut self, generations: u64, progress: &Progress) -> EngineResult<u64> {
        self.advance(generations, Some(progress))
    }

    fn work(&self) -> Option<Work> {
        Some(Work::NodesMade(self.store.made))
    }

    fn step_piece(&self) -> u64 {
        u64::MAX
    }

    fn population(&mut self) -> EngineResult<u64> {
        if self.is_torus() {
            let mut p = 0;
            self.leaves(self.everything(), &mut |_, _, b| p += b.count_ones() as u64);
            // The node holds whole copies of the torus when a side is shorter than it.
            return Ok(p);
        }
        Ok(self.population_of(self.root))
    }

    fn census(&mut self) -> EngineResult<Census> {
        let universe = self.universe;
        let mut words: std::collections::HashMap<(i64, i64), u32> = Default::default();
        self.leaves(self.everything(), &mut |x, y, bits| {
            for r in 0..8 {
                let row = (bits >> (8 * r) & 0xff) as u32;
                if row == 0 {
                    continue;
                }
                let wx = x.div_euclid(32);
                *words.entry((wx, y + r)).or_default() |= row << x.rem_euclid(32);
            }
        });
        let mut sum = CensusSum::default();
        for ((wx, y), w) in words {
            sum.add_word(census_index(universe, wx, y), w);
        }
        Ok(sum.census())
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        let (x, y) = self.universe.wrap(x, y);
        let mut found = false;
        self.leaves((x, y, x + 1, y + 1), &mut |lx, ly, bits| {
            found = bits >> ((y - ly) * 8 + (x - lx)) & 1 == 1;
        });
        Ok(found)
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        self.set_one(x, y, alive)
    }

    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        // A few cells go in by path copying; many are merged as tiles.
        let few = match how {
            Put::Replace => cells.cells() <= 1 << 14,
            Put::Or | Put::Erase => cells.population() <= 1 << 14,
        };
        if how != Put::Erase && self.universe.is_plane() && self.store.node(self.root).empty {
            // Into an empty plane (a pattern being opened) the cells go as one quadtree built
            // from them: a path copied for each cell cost a node a level per cell
            // (p384drifter's 1,145 cells: 2.3 M instructions, a quarter of its run to 1000).
            let mut tiles = TileMap::new();
            tiles.or_grid(cells, at);
            return self.set_tiles(&tiles);
        }
        if few {
            for y in 0..cells.height() {
                for x in 0..cells.width() {
                    let alive = cells.get(x, y);
                    let set = match how {
                        Put::Replace => Some(alive),
                        Put::Or => alive.then_some(true),
                        Put::Erase => alive.then_some(false),
                    };
                    if let Some(a) = set {
                        self.set_one(at.0 + x as i64, at.1 + y as i64, a)?;
                    }
                }
            }
            return Ok(());
        }
        let mut tiles = self.export()?;
        match self.universe {
            Universe::Torus { width, height } => {
                let mut g = Grid::try_new(width, height)?;
                crate::engine::dense::import(&mut g, &tiles);
                crate::engine::dense::put(&mut g, cells, at, how);
                tiles = crate::engine::dense::export(&g);
            }
            Universe::Plane | Universe::Bounded { .. } | Universe::Tube(_) => {
                let region = CellRect::new(at.0, at.1, cells.width(), cells.height());
                let mut current = tiles.crop(region);
                match how {
                    Put::Replace => current = cells.clone(),
                    Put::Or => current.combine(cells, 0, 0, |o, n| o | n),
                    Put::Erase => current.combine(cells, 0, 0, |o, n| o & !n),
                }
                let mut outside = TileMap::new();
                for (x, y) in tiles.cells() {
                    if !region.contains(x, y) {
                        outside.set(x, y, true);
                    }
                }
                tiles = outside;
                tiles.or_grid(&current, at);
            }
        }
        self.set_tiles(&tiles)
    }

    fn clear(&mut self) -> EngineResult<()> {
        self.root = self.store.empty(self.torus_level);
        self.origin = (
            -(1i64 << (self.torus_level - 1)),
            -(1i64 << (self.torus_level - 1)),
        );
        Ok(())
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        let (x, y) = self.root_origin();
        let mut memo = FxHashMap::default();
        Ok(self.bounds_in(self.root, x, y, self.everything(), &mut memo))
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        let mut out = Grid::try_new_bitmap(rect.width, rect.height)?;
        let pieces: Vec<(i64, i64, i64, i64, i64, i64)> = match self.universe {
            // Split a wrapping rectangle into pieces that lie on the torus.
            Universe::Torus { width, height } => {
                let (w, h) = (width as i64, height as i64);
                let mut v = Vec::new();
                let mut oy = 0i64;
                while oy < rect.height as i64 {
                    let y = (rect.y + oy).rem_euclid(h);
                    let ph = (h - y).min(rect.height as i64 - oy);
                    let mut ox = 0i64;
                    while ox < rect.width as i64 {
                        let x = (rect.x + ox).rem_euclid(w);
                        let pw = (w - x).min(rect.width as i64 - ox);
                        v.push((x, y, pw, ph, ox, oy));
                        ox += pw;
                    }
                    oy += ph;
                }
                v
            }
            Universe::Plane | Universe::Bounded { .. } | Universe::Tube(_) => {
                vec![(rect.x, rect.y, rect.width as i64, rect.height as i64, 0, 0)]
            }
        };
        for (x, y, pw, ph, ox, oy) in pieces {
            self.leaves((x, y, x + pw, y + ph), &mut |lx, ly, bits| {
                for r in 0..8 {
                    let row = bits >> (8 * r) & 0xff;
                    for cbit in crate::grid::BitIter(row) {
                        let (cx, cy) = (lx + cbit as i64, ly + r);
                        if cx >= x && cy >= y && cx < x + pw && cy < y + ph {
                            out.set((cx - x + ox) as u32, (cy - y + oy) as u32, true);
                        }
                    }
                }
            });
        }
        Ok(out)
    }

    fn view_costs_area(&self) -> bool {
        // Its view is read from its live cells (or nodes), whatever the rectangle.
        false
    }

    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        let aligned = block >= 8
            && block.is_power_of_two()
            && rect.x.rem_euclid(block as i64) == 0
            && rect.y.rem_euclid(block as i64) == 0;
        if !aligned {
            return crate::engine::sample_by_bands(self, rect, block);
        }
        // The quadtree answers directly: each aligned block is a node, its population known.
        let level = block.trailing_zeros() as u8;
        let columns = rect.width.div_ceil(block);
        let rows = rect.height.div_ceil(block);
        let mut counts = vec![0u64; columns as usize * rows as usize];
        let universe = self.universe;
        let (x0, y0) = self.root_origin();
        let mut todo = vec![(self.root, x0, y0)];
        let clip = self.everything();
        while let Some((id, x, y)) = todo.pop() {
            let n = *self.store.node(id);
            if n.empty {
                continue;
            }
            let size = 1i64 << n.level;
            if x >= clip.2 || y >= clip.3 || x + size <= clip.0 || y + size <= clip.1 {
                continue;
            }
            if n.level <= level || n.level == LEAF {
                // Into the bin of the block it starts in (bins are block-aligned).
                let (bx, by) = match universe {
                    Universe::Torus { width, height } => (
                        (x - rect.x).rem_euclid(width as i64),
                        (y - rect.y).rem_euclid(height as i64),
                    ),
                    Universe::Plane | Universe::Bounded { .. } | Universe::Tube(_) => {
                        (x - rect.x, y - rect.y)
                    }
                };
                if bx >= 0 && by >= 0 && bx < rect.width as i64 && by < rect.height as i64 {
                    let i = (by / block as i64) as usize * columns as usize
                        + (bx / block as i64) as usize;
                    counts[i] += count(&self.store, &mut self.populations, id);
                }
                continue;
            }
            let h = size / 2;
            for (k, (dx, dy)) in [(0, 0), (h, 0), (0, h), (h, h)].into_iter().enumerate() {
                todo.push((n.children[k], x + dx, y + dy));
            }
        }
        let area = block as u64 * block as u64;
        Ok(Sampled {
            columns,
            rows,
            block,
            values: counts
                .iter()
                .map(|&c| crate::engine::sample_value(c, area))
                .collect(),
        })
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        let mut map = TileMap::new();
        self.leaves(self.everything(), &mut |x, y, bits| {
            for r in 0..8 {
                let row = bits >> (8 * r) & 0xff;
                if row != 0 {
                    let gy = y + r;
                    let (tx, ty) = (x.div_euclid(TILE), gy.div_euclid(TILE));
                    map.tile_mut(tx, ty)[gy.rem_euclid(TILE) as usize] |= row << x.rem_euclid(TILE);
                }
            }
        });
        Ok(map)
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        self.set_tiles(tiles)
    }

    fn import_quadtree(&mut self, tree: &Macrocell, centre: (i64, i64)) -> EngineResult<()> {
        // A torus repeats its cells over its node, and a multi-state file is not two-state:
        // those go in as cells. So does a root of one leaf, smaller than the plane's least.
        if self.is_torus() || centre != (0, 0) || tree.is_multi_state() || tree.level() <= LEAF {
            return self.import(&crate::engine::quadtree_tiles(tree, centre)?);
        }
        // Every node of the file may be a node of the store: refused up front when they
        // cannot all fit, rather than after filling it.
        let room = self.store.max_nodes / 10 * 9;
        if tree.nodes.len() > room {
            return Err(EngineError::Unsupported(format!(
                "the quadtree has {} nodes, and HashLife's node store holds at most {room} in {}; give it more with --memory (at least {} MiB)",
                tree.nodes.len(),
                crate::memory::human_bytes(self.limit_bytes),
                (tree.nodes.len() as u64 * NODE_BYTES * 2).div_ceil(1 << 20)
            )));
        }
        self.clear()?;
        let r = self.load_tree(tree);
        self.store.stack.clear();
        if r.is_err() {
            self.clear()?;
            return Err(self.full_error());
        }
        if self.level() >= 63 {
            self.clear()?;
            return Err(EngineError::Unsupported(
                "the cells lie beyond ±2^61, farther out than HashLife's plane reaches".into(),
            ));
        }
        Ok(())
    }

    fn export_quadtree(&mut self) -> EngineResult<Option<Macrocell>> {
        Ok((!self.is_torus()).then(|| self.to_tree()))
    }

    fn note(&self) -> Option<String> {
        (self.store.collections > 0).then(|| {
            format!(
                "HashLife collected garbage {} times to stay within {} (of the {} it may take)",
                self.store.collections,
                crate::memory::human_bytes(self.store.soft_nodes as u64 * NODE_BYTES),
                crate::memory::human_bytes(self.limit_bytes)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::FastEngine;

    /// Keys of one hash overflow their bucket into the next ones, and round the table's end;
    /// a key whose tag is 0, which every empty slot shows too, is found, and one never placed
    /// is not (a lookup that took an empty slot for a node would index past the nodes).
    #[test]
    fn keys_of_one_hash_are_found_past_their_bucket_and_round_the_end() {
        let mut s = Store::new(1 << 16, 1 << 16);
        let ids: Vec<Id> = (0..20u32)
            .map(|k| s.intern_unchecked([k + 1, 7, 0, 0], LEAF, false))
            .collect();
        // Tag 0, homed in the first bucket; the top tag, homed in the last.
        for h in [0u64, u64::MAX] {
            for &id in &ids {
                s.place(h, id);
            }
            for &id in &ids {
                let c = s.node(id).children;
                assert_eq!(s.probe_hashed(c, LEAF, h), Ok(id), "hash {h:x}");
            }
            assert!(
                s.probe_hashed([99, 7, 0, 0], LEAF, h).is_err(),
                "hash {h:x}"
            );
        }
    }

    /// A store that may hold more nodes than the million the vector used to start with fills
    /// without its nodes moving: a move split their huge pages into small ones.
    #[test]
    fn the_nodes_never_move_while_the_store_fills() {
        let mut s = Store::new(1 << 21, 1 << 21);
        let at = s.nodes.as_ptr();
        for k in 0..(1u32 << 20) + (1 << 17) {
            s.intern_unchecked([k + 1, 0, 0, 0], LEAF, false);
        }
        assert!(s.nodes.len() > 1 << 20);
        assert_eq!(s.nodes.as_ptr(), at);
    }

    /// The table grown by its slots' tags alone (`Store::grow_table`) still finds every node:
    /// a lookup that missed would only make a duplicate, which no population shows. Distinct
    /// leaves and nodes over them, enough for the table to double seven times, then each
    /// looked up again, and interned again without a node more.
    #[test]
    fn every_node_is_found_after_the_table_grows() {
        let mut s = Store::new(1 << 24, 1 << 24);
        let start = s.table.len();
        let leaves: Vec<Id> = (0..200_000u64)
            .map(|k| {
                let bits = k.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                s.intern_unchecked([bits as u32, (bits >> 32) as u32, 0, 0], LEAF, false)
            })
            .collect();
        let inner: Vec<(Id, [Id; 4])> = leaves
            .windows(4)
            .step_by(3)
            .map(|w| {
                let c = [w[0], w[1], w[2], w[3]];
                (s.intern_unchecked(c, LEAF + 1, false), c)
            })
            .collect();
        assert!(
            s.table.len() >= start << 7,
            "the table grew to {}",
            s.table.len()
        );
        let made = s.made;
        for (k, &id) in leaves.iter().enumerate() {
            let c = s.node(id).children;
            assert_eq!(s.probe(c, LEAF), Ok(id), "leaf {k}");
        }
        for &(id, c) in &inner {
            assert_eq!(s.probe(c, LEAF + 1), Ok(id));
            assert_eq!(s.intern_unchecked(c, LEAF + 1, false), id);
        }
        assert_eq!(s.made, made);
    }

    /// A jump counts in its progress only once whole, but says how far it has got: stopped
    /// part way (by a node budget, as a cancel would), acorn's jump of 4096 generations has
    /// run none of them, and its estimate lies strictly between none and all; a jump that ends
    /// counts whole, the estimate with it.
    #[test]
    fn a_jump_in_progress_estimates_how_far_it_has_got() {
        let acorn = crate::pattern::library::get("acorn").unwrap();
        let mut e = HashLifeEngine::new(Rule::life(), Universe::Plane, None).unwrap();
        for (x, y) in acorn.cells.alive_cells() {
            e.set_cell(x as i64, y as i64, true).unwrap();
        }
        let stopped = Progress::new(4096);
        stopped.stop_at_work(e.store.made + 20_000);
        assert_eq!(e.step_with(4096, &stopped).unwrap(), 0);
        let (estimate, total) = stopped.estimate();
        assert_eq!(stopped.get(), (0, 4096));
        assert!(0 < estimate && estimate < total, "{estimate} of {total}");
        let whole = Progress::new(4096);
        assert_eq!(e.step_with(4096, &whole).unwrap(), 4096);
        assert_eq!(whole.estimate(), (4096, 4096));
    }

    fn torus_matches(rule: &str, side: u32, gens: &[u64]) {
        let rule: Rule = rule.parse().unwrap();
        let mut g = Grid::new(side, side);
        g.fill_random(0.4, side as u64);
        let mut fast = FastEngine::new(rule, &g, 0);
        let mut hl = HashLifeEngine::new(rule, Universe::torus(side, side), None).unwrap();
        hl.set_grid(&g, 0).unwrap();
        for &n in gens {
            fast.step(n).unwrap();
            hl.step(n).unwrap();
            let got = hl.grid().unwrap();
            if let Some((x, y)) = fast.grid_ref().first_difference(&got) {
                panic!(
                    "{rule} on {side}x{side}: generation {} differs at ({x}, {y})",
                    fast.generation()
                );
            }
        }
    }

    #[test]
    fn tori_match_the_fast_engine() {
        for side in [1, 2, 8, 16, 32, 64, 128] {
            torus_matches("B3/S23", side, &[1, 1, 2, 3, 4, 8, 16, 5, 64, 100]);
        }
        torus_matches("B2/S34H", 64, &[1, 7, 33]);
        torus_matches("B3/S23V", 32, &[1, 7, 33]);
        torus_matches("B0/S8", 16, &[1, 2, 3, 40]);
    }

    /// A tabled rule's 16x16 results, first by its circuit, then (past `TABLE_AFTER` of them)
    /// by its 4x4-to-2x2 table, against the dense engine on a torus.
    #[test]
    fn a_tabled_rule_matches_the_fast_engine_before_and_after_its_table_is_made() {
        for rule in ["B2-ac3ai/S1c2-n3-aky4a", "B2o/S2m34H", "B3/S23-a4ei6"] {
            let r: Rule = rule.parse().unwrap();
            let mut g = Grid::new(256, 256);
            g.fill_random(0.3, 5);
            let mut fast = FastEngine::new(r, &g, 0);
            let mut hl = HashLifeEngine::new(r, Universe::torus(256, 256), None).unwrap();
            hl.set_grid(&g, 0).unwrap();
            let mut tabled = false;
            for n in [1, 2, 5, 16, 30, 64, 100] {
                fast.step(n).unwrap();
                hl.step(n).unwrap();
                let got = hl.grid().unwrap();
                if let Some((x, y)) = fast.grid_ref().first_difference(&got) {
                    panic!(
                        "{rule}: generation {} differs at ({x}, {y})",
                        fast.generation()
                    );
                }
                tabled |= hl.table.is_some();
            }
            assert!(tabled, "{rule}: the table was never made");
        }
    }

    /// Without `--memory` the store collects from a soft limit, and raises it when keeping the
    /// memoised results frees too little, never failing while the hard limit has room.
    #[test]
    fn the_soft_limit_collects_then_grows_and_the_cells_stay_right() {
        let rule = Rule::life();
        let side = 256;
        let mut g = Grid::new(side, side);
        g.fill_random(0.35, 7);
        let mut fast = FastEngine::new(rule, &g, 0);
        let mut hl = HashLifeEngine::new(rule, Universe::torus(side, side), None).unwrap();
        hl.store.soft_nodes = 1 << 12;
        hl.set_grid(&g, 0).unwrap();
        for n in [1, 100, 1000] {
            fast.step(n).unwrap();
            hl.step(n).unwrap();
            assert!(
                fast.grid_ref()
                    .first_difference(&hl.grid().unwrap())
                    .is_none()
            );
        }
        assert!(hl.store.collections > 0);
        assert!(hl.store.soft_nodes > 1 << 12 && hl.store.soft_nodes <= hl.store.max_nodes);
        assert!(hl.note().unwrap().contains("collected garbage"));
    }

    /// Every pattern reaching from 1 to 140 cells from the origin, in each quadrant, goes into
    /// the plane's quadtree whole (a root of level 6 starts half a tile off the tiles' grid,
    /// and its tiles were once looked up as if it did not: reaches 17 to 32 came out empty).
    #[test]
    fn every_reach_of_a_pattern_on_the_plane_is_imported_whole() {
        for reach in 1..=140i64 {
            for (sx, sy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                let mut tiles = TileMap::new();
                let cells = [
                    (0, 0),
                    (reach - 1, 0),
                    (0, reach - 1),
                    (reach / 2, reach / 3),
                ];
                for (x, y) in cells {
                    tiles.set(sx * x - (sx < 0) as i64, sy * y - (sy < 0) as i64, true);
                }
                let mut hl = HashLifeEngine::new(Rule::life(), Universe::Plane, None).unwrap();
                hl.import(&tiles).unwrap();
                assert_eq!(
                    hl.population().unwrap(),
                    tiles.population(),
                    "reach {reach}, quadrant ({sx}, {sy})"
                );
                assert_eq!(
                    hl.export().unwrap().bounds(),
                    tiles.bounds(),
                    "reach {reach}"
                );
            }
        }
    }

    #[test]
    fn a_glider_on_the_plane_moves_one_cell_in_four_generations() {
        let mut hl = HashLifeEngine::new(Rule::life(), Universe::Plane, None).unwrap();
        let glider = Grid::from_text(".O.\n..O\nOOO\n");
        hl.put(&glider, (0, 0), Put::Or).unwrap();
        hl.step(4 * 1000).unwrap();
        let b = hl.bounds().unwrap().unwrap();
        assert_eq!((b.left, b.top), (1000, 1000));
        assert_eq!(hl.population().unwrap(), 5);
        assert_eq!(
            hl.cells_in(CellRect::new(1000, 1000, 3, 3)).unwrap(),
            glider
        );
    }
}
