//! HashLife over N states (Golly's `ghashbase`, which its RuleLoader runs on): a rule file's
//! rule on the unbounded plane, as a quadtree of shared nodes whose futures are memoised, so a
//! self-replicator's millions of generations cost what its new configurations cost.
//!
//! A node of level 1 is a 2x2 block of states; a node of level k > 1 has four children of
//! level k - 1 (nw, ne, sw, se). The root of level L covers -2^(L-1) .. 2^(L-1) on both axes,
//! as a macrocell file's root does. A node of level k >= 2 knows its centre (level k - 1)
//! 2^j generations on, for any j <= k - 2: the result of level 2 is one generation of the rule's
//! tree; a larger one is assembled from nine overlapping children's results, as Gosper's
//! algorithm has it (twice for a full jump, once then the centres for a shorter one).
//!
//! The store is bounded as the two-state one is: past its soft limit (224 MiB by default) the
//! nodes that neither the root nor the recursion in progress reach are freed, in the middle of a
//! step where need be, keeping the memoised results of those kept, or dropping them too when
//! that frees too little; a step that does not fit even then fails plainly. Until then a step
//! of a self-replicator made every node it ever needed: Hutton's replicator to 10^5 took 442 MB
//! against Golly's 266 MB, and `--memory 256` did not hold it.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::hashlife::{Bucket, SOFT_START_BYTES, over_full, prefetch_slot, probe_buckets, slot_of};
use crate::engine::{
    Bounds, CellRect, Census, Core, Engine, EngineError, EngineKind, EngineResult, Progress, Put,
    Sampled, StepTally, Universe, Work, cells_by_state, census_of_tiles, check_states, put_by_cell,
    states_by_cell,
};
use crate::grid::Grid;
use crate::pattern::macrocell::{Macrocell, McNode};
use crate::rule::Rule;
use crate::rule::loader::RuleTree;
use crate::tiles::TileMap;

/// Bytes one node takes with its share of the tables.
const NODE_BYTES: u64 = 96;

/// Bytes one node takes where the store starts collecting by default: the node (24) and its
/// share of the index (9 to 18 bytes, 7/16 to 7/8 full), rounded up. From the same 224 MiB as
/// the two-state store, about the 4.7 million nodes of Golly's 256 MB for `ghashbase`.
const SOFT_NODE_BYTES: u64 = 48;

/// Results computed between looks at a step's [`Progress`], as the two-state HashLife's.
const CHECK_EVERY: u32 = 64;

/// No population: 8 bytes more a node was a third more memory for a fresh process to have
/// cleared (Hutton's replicator to 10^4: 872,000 nodes), and a population is asked of the few
/// nodes a root reaches ([`RuleHashLifeEngine::population_of`]); an empty node is the one of
/// its level.
#[derive(Clone, Copy)]
struct Node {
    /// Children (level > 1) or the four states nw, ne, sw, se (level 1).
    kids: [u32; 4],
    /// 0 for a slot a collection freed (on the free list).
    level: u8,
    /// Reached in the collection in progress.
    marked: bool,
    /// The centre 2^(level - 2) generations on (`NONE` until asked): the result every step
    /// asks of the nodes at or below its own level, kept in the node, where it costs no lookup.
    full: u32,
}

const NONE: u32 = u32::MAX;
const _: () = assert!(std::mem::size_of::<Node>() == 24);

/// The nodes by content: an open-addressed table of node numbers, each beside the top half of
/// its hash, the keys read from the nodes themselves (8 bytes a slot, where a map of keys to
/// numbers took 24). A probe reads a node only where the hashes agree, so a lookup costs about
/// one cache miss; HashLife's time is mostly these lookups. The slots go by buckets of a cache
/// line, whose eight tags a lookup compares at once ([`Bucket::tags`]).
#[derive(Default)]
struct NodeIndex {
    buckets: Vec<Bucket>,
    len: usize,
}

impl NodeIndex {
    /// A light hash, not the full mixing the two-state HashLife's `hash4` had until it became a
    /// folded multiply: full mixing scatters the nodes one step makes across the table, where
    /// this one keeps some of them near one another (Evoloop to 10^4 generations: 2.2 s with
    /// the mixing hash, 1.5 s with this).
    #[inline]
    fn hash(level: u8, kids: [u32; 4]) -> u64 {
        let mut h = level as u64;
        for k in kids {
            h = (h.rotate_left(5) ^ k as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
        h ^ h >> 29
    }

    /// The bucket a lookup of `hash` reads first.
    #[inline(always)]
    fn home(&self, hash: u64) -> usize {
        hash as usize & self.buckets.len().wrapping_sub(1)
    }

    /// The node with this content, or the empty slot where it goes.
    #[inline]
    fn find(&self, nodes: &[Node], hash: u64, level: u8, kids: [u32; 4]) -> Result<u32, usize> {
        if self.buckets.is_empty() {
            return Err(usize::MAX);
        }
        probe_buckets(&self.buckets, self.home(hash), hash, |id| {
            let n = &nodes[id as usize];
            n.kids == kids && n.level == level
        })
    }

    /// Starts loading the bucket a lookup of `hash` reads first: a recursion step looks up
    /// nine nodes, then four, whose buckets are far apart in a table bigger than the caches,
    /// and their misses overlap where each lookup waited for its own (Goucher's replicator to
    /// 1000 generations: lifelab ran fewer instructions than Golly and took 1.4 times as long).
    #[inline(always)]
    fn prefetch(&self, hash: u64) {
        prefetch_slot(&self.buckets, self.home(hash));
    }

    /// Puts `id` (just pushed onto `nodes`) in `slot` from [`NodeIndex::find`], growing the
    /// table past 7/8 full ([`over_full`]).
    fn insert(&mut self, nodes: &[Node], slot: usize, hash: u64, id: u32) {
        if slot == usize::MAX || over_full(self.len + 1, self.buckets.len()) {
            // Every node, the new one included (it is in `nodes` already).
            self.rebuild(nodes, (self.buckets.len() * 2).max(1 << 9));
            return;
        }
        self.set(slot, slot_of(hash, id));
        self.len += 1;
    }

    fn set(&mut self, slot: usize, value: u64) {
        self.buckets[slot / 8].0[slot % 8] = value;
    }

    fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.len = 0;
    }

    /// A new table of `buckets` buckets holding every node of `nodes` but the free ones,
    /// which are all different (each was made where a lookup found no equal).
    fn rebuild(&mut self, nodes: &[Node], buckets: usize) {
        // In huge pages, as the two-state HashLife's: a lookup is a read at random, and with
        // 4 KiB pages most of them missed the TLB as well as the cache.
        self.buckets = crate::memory::vec_in_huge_pages(buckets);
        self.buckets.resize(buckets, Bucket::default());
        self.len = 0;
        for (k, n) in nodes.iter().enumerate().filter(|(_, n)| n.level != 0) {
            let hash = NodeIndex::hash(n.level, n.kids);
            let at = probe_buckets(&self.buckets, self.home(hash), hash, |_| false)
                .expect_err("a table with room");
            self.set(at, slot_of(hash, k as u32));
            self.len += 1;
        }
    }
}

/// What the recursion in progress holds, for a collection: nodes, and memoised results
/// (node, exponent, result) that must outlast one that drops the others.
struct Held {
    nodes: Vec<u32>,
    memos: Vec<(u32, u8, u32)>,
}

pub struct RuleHashLifeEngine {
    core: Core,
    /// The rule's tree: a rule file's own, or a Generations rule's.
    tree: Arc<RuleTree>,
    nodes: Vec<Node>,
    index: NodeIndex,
    /// `results[(node, j)]`: the node's centre 2^j generations on, for j < level - 2 (the
    /// full step's is in the node).
    results: FxHashMap<(u32, u8), u32>,
    /// The empty node of each level.
    empty: Vec<u32>,
    root: u32,
    /// Slots of `nodes` a collection freed, taken before the vector grows.
    free: Vec<u32>,
    /// Nodes held (not free).
    live: usize,
    /// The most nodes the store may hold (`--memory`, or a quarter of lifelab's memory).
    max_nodes: usize,
    /// Where a collection starts: `max_nodes` under `--memory`, else lower, and doubled when a
    /// collection that keeps the memoised results frees too little (as the two-state store's
    /// `soft_nodes`): memory follows what the pattern needs, as Golly's does.
    soft_nodes: usize,
    /// The recursion in progress, a call a level: the node and exponent of the call at each
    /// level from `top` down, which a collection finds what each call holds from.
    frames: Box<[(u32, u8); 65]>,
    /// The level of the step's root while a step runs.
    top: u8,
    /// Collections so far, and those of them that dropped the memoised results.
    collections: u32,
    drops: u32,
    /// The step in progress was abandoned because the store is full even after collecting.
    full: bool,
    /// Nodes made since the engine was created, the ones dropped since included.
    made: u64,
    /// Results computed since the step's progress was last looked at.
    since_check: u32,
    /// The step in progress is abandoned (cancelled, or its node budget spent).
    stopped: bool,
    /// How far the step in progress has got, for its `Progress` while a long jump runs.
    tally: StepTally,
    /// The populations counted of nodes above level 3, until `reset` renumbers the nodes.
    populations: FxHashMap<u32, u64>,
}

impl RuleHashLifeEngine {
    pub fn new(rule: Rule, universe: Universe, memory: Option<u64>) -> EngineResult<Self> {
        let Some(tree) = rule.tree() else {
            return Err(EngineError::Unsupported(format!(
                "N-state HashLife runs rule files' and Generations rules; {rule} is neither"
            )));
        };
        if !universe.is_plane() {
            return Err(EngineError::Unsupported(
                "N-state HashLife runs on the unbounded plane only (the rule-tree engine runs tori and the bounded plane, the reference engine Golly's other bounded grids)".into(),
            ));
        }
        if tree.births_from_nothing() {
            return Err(EngineError::Unsupported(format!(
                "{rule} turns empty cells into live ones, which fills the unbounded plane at once"
            )));
        }
        let bytes = memory.unwrap_or_else(|| crate::memory::limit().bytes / 4);
        let max_nodes = (bytes / NODE_BYTES).max(1 << 16) as usize;
        let soft_nodes = match memory {
            Some(_) => max_nodes,
            None => ((SOFT_START_BYTES / SOFT_NODE_BYTES) as usize).min(max_nodes),
        };
        let mut engine = Self {
            core: Core::new(EngineKind::HashLife, "rule-hashlife", rule),
            tree,
            // Room for the nodes a collection keeps to, reserved up front so that the vector
            // seldom moves and keeps its huge pages (see `reserve_in_huge_pages`); a step
            // that makes more doubles it.
            nodes: crate::memory::reserve_in_huge_pages(max_nodes).unwrap_or_default(),
            index: NodeIndex::default(),
            results: FxHashMap::default(),
            empty: Vec::new(),
            root: 0,
            free: Vec::new(),
            live: 0,
            max_nodes,
            soft_nodes,
            frames: Box::new([(NONE, 0); 65]),
            top: 0,
            collections: 0,
            drops: 0,
            full: false,
            made: 0,
            since_check: 0,
            stopped: false,
            tally: StepTally::default(),
            populations: FxHashMap::default(),
        };
        engine.reset();
        Ok(engine)
    }

    fn reset(&mut self) {
        self.populations.clear();
        self.nodes.clear();
        self.free.clear();
        self.live = 0;
        self.index.clear();
        self.results.clear();
        self.empty.clear();
        let mut e = self.node(1, [0; 4]);
        self.empty.push(e); // level 1 at index 0
        for level in 2..=64u8 {
            let below = e;
            e = self.node(level, [e; 4]);
            // An empty node's future is the empty node below it, memoised as any other's,
            // so that the one test of a full step's memo answers it.
            self.nodes[e as usize].full = below;
            self.empty.push(e);
        }
        self.root = self.empty_of(3);
    }

    fn empty_of(&self, level: u8) -> u32 {
        self.empty[level as usize - 1]
    }

    fn node(&mut self, level: u8, kids: [u32; 4]) -> u32 {
        self.node_hashed(level, kids, NodeIndex::hash(level, kids))
    }

    /// Several nodes of one level, their slots loading together.
    fn nodes_of<const N: usize>(&mut self, level: u8, keys: [[u32; 4]; N]) -> [u32; N] {
        let hashes = keys.map(|k| NodeIndex::hash(level, k));
        for &h in &hashes {
            self.index.prefetch(h);
        }
        let mut out = [0; N];
        for (k, key) in keys.into_iter().enumerate() {
            out[k] = self.node_hashed(level, key, hashes[k]);
        }
        out
    }

    #[inline]
    fn node_hashed(&mut self, level: u8, kids: [u32; 4], hash: u64) -> u32 {
        let slot = match self.index.find(&self.nodes, hash, level, kids) {
            Ok(id) => return id,
            Err(slot) => slot,
        };
        let node = Node {
            kids,
            level,
            marked: false,
            full: NONE,
        };
        let id = match self.free.pop() {
            Some(id) => {
                self.nodes[id as usize] = node;
                id
            }
            None => {
                if self.nodes.len() == self.nodes.capacity() {
                    // Doubling, the pages past the first 2 MiB huge ones (as the table's).
                    self.nodes.reserve(self.nodes.len().max(1 << 12));
                    crate::memory::advise_huge_pages(&self.nodes);
                }
                self.nodes.push(node);
                self.nodes.len() as u32 - 1
            }
        };
        self.index.insert(&self.nodes, slot, hash, id);
        self.made += 1;
        self.live += 1;
        id
    }

    fn kids(&self, id: u32) -> [u32; 4] {
        self.nodes[id as usize].kids
    }

    fn level(&self, id: u32) -> u8 {
        self.nodes[id as usize].level
    }

    fn is_empty(&self, id: u32) -> bool {
        id == self.empty_of(self.level(id))
    }

    /// The live cells of node `id`. Counted, not kept in each node: a root reaches few distinct
    /// nodes, where the store holds millions. Counts above level 3 are memoised until
    /// [`Self::reset`] renumbers the nodes.
    fn population_of(&mut self, id: u32) -> u64 {
        let n = self.nodes[id as usize];
        if n.level == 1 {
            return n.kids.iter().filter(|&&s| s != 0).count() as u64;
        }
        if self.is_empty(id) {
            return 0;
        }
        if let Some(&p) = self.populations.get(&id) {
            return p;
        }
        let p = (n.kids.iter())
            .map(|&k| self.population_of(k))
            .fold(0u64, u64::saturating_add);
        if n.level > 3 {
            self.populations.insert(id, p);
        }
        p
    }

    /// The four children of the four children: the 4x4 grid of grandchildren, row by row.
    fn grandchildren(&self, id: u32) -> [u32; 16] {
        let g = self.kids(id).map(|c| self.kids(c));
        [
            g[0][0], g[0][1], g[1][0], g[1][1], g[0][2], g[0][3], g[1][2], g[1][3], g[2][0],
            g[2][1], g[3][0], g[3][1], g[2][2], g[2][3], g[3][2], g[3][3],
        ]
    }

    /// The centre of node `id` (level k >= 2) 2^j generations on, j <= k - 2. Most asked for
    /// are empty or memoised, and are read here without a call.
    #[inline]
    fn result(&mut self, id: u32, j: u8, progress: Option<&Progress>) -> u32 {
        let n = &self.nodes[id as usize];
        let level = n.level;
        debug_assert!(j + 2 <= level);
        if j + 2 == level && n.full != NONE {
            return n.full;
        }
        if id == self.empty_of(level) {
            return self.empty_of(level - 1);
        }
        if j + 2 != level
            && let Some(&r) = self.results.get(&(id, j))
        {
            return r;
        }
        self.compute_result(id, j, progress)
    }

    #[inline(never)]
    fn compute_result(&mut self, id: u32, j: u8, progress: Option<&Progress>) -> u32 {
        let level = self.level(id);
        let full = j + 2 == level;
        self.since_check += 1;
        if self.since_check >= CHECK_EVERY {
            self.since_check = 0;
            self.stopped |= progress.is_some_and(|p| p.stops_at(self.made));
        }
        if self.live >= self.soft_nodes {
            // Here, where this call holds no node but `id` yet.
            self.collect(id, level);
        }
        if self.stopped {
            // The step is abandoned (cancelled, or the store full): any node of the level will
            // do, and nothing from here on is memoised.
            return self.empty_of(level - 1);
        }
        let r = if level == 2 {
            self.leaf_result(id)
        } else {
            // Where a collection below finds this call (what it holds is found from it: a
            // stack of every node held cost a tenth of the step).
            self.frames[level as usize] = (id, j);
            let g = self.grandchildren(id);
            let lv = level - 1;
            // The nine overlapping nodes of level k - 1, row by row.
            let sub = |r: usize, c: usize| {
                [
                    g[r * 4 + c],
                    g[r * 4 + c + 1],
                    g[(r + 1) * 4 + c],
                    g[(r + 1) * 4 + c + 1],
                ]
            };
            // The corners are the node's own children; the other five are looked up. Looked
            // up too, the corners were four of a full step's fourteen lookups, always found.
            let [nw, ne, sw, se] = self.kids(id);
            let [n01, n10, n11, n12, n21] =
                self.nodes_of(lv, [sub(0, 1), sub(1, 0), sub(1, 1), sub(1, 2), sub(2, 1)]);
            let subs = [nw, n01, ne, n10, n11, n12, sw, n21, se];
            let half = if full { j - 1 } else { j };
            // Nine results, and four more where the step is the node's whole reach.
            self.tally.enter(level, if full { 13 } else { 9 });
            // Loops, not `map`: through `map` the compiler called the results out of line.
            let mut nine = [NONE; 9];
            for (r, &n) in nine.iter_mut().zip(&subs) {
                *r = self.result(n, half, progress);
                self.part_done(level, progress);
            }
            let out = if full {
                let four = |r: usize, c: usize| {
                    [
                        nine[r * 3 + c],
                        nine[r * 3 + c + 1],
                        nine[(r + 1) * 3 + c],
                        nine[(r + 1) * 3 + c + 1],
                    ]
                };
                let fours = self.nodes_of(lv, [four(0, 0), four(0, 1), four(1, 0), four(1, 1)]);
                let mut out = [NONE; 4];
                for (r, &n) in out.iter_mut().zip(&fours) {
                    *r = self.result(n, j - 1, progress);
                    self.part_done(level, progress);
                }
                out
            } else {
                // The centre of each 2x2 of the nine, made straight from their quarters
                // nearest it: no node of the 2x2 itself, which only this step would use.
                let centre = |r: usize, c: usize| {
                    let q = |i: usize| self.kids(nine[i]);
                    let at = r * 3 + c;
                    [q(at)[3], q(at + 1)[2], q(at + 3)[1], q(at + 4)[0]]
                };
                let centres = [centre(0, 0), centre(0, 1), centre(1, 0), centre(1, 1)];
                self.nodes_of(lv - 1, centres)
            };
            self.node(level - 1, out)
        };
        if self.stopped {
            // Made of the stand-ins above: not this node's future.
        } else if full {
            self.nodes[id as usize].full = r;
        } else {
            self.results.insert((id, j), r);
        }
        r
    }

    /// A sub-result of the node the recursion is in is done; an abandoned step's stand-ins
    /// count for nothing.
    #[inline(always)]
    fn part_done(&mut self, level: u8, progress: Option<&Progress>) {
        if !self.stopped {
            self.tally.part_done(level, progress);
        }
    }

    /// One generation of the centre 2x2 of a 4x4 node.
    fn leaf_result(&mut self, id: u32) -> u32 {
        // The children are level-1 nodes, whose kids are states.
        let mut cells = [[0u8; 4]; 4];
        let k = self.kids(id);
        for (q, &leaf) in k.iter().enumerate() {
            let s = self.kids(leaf);
            let (oy, ox) = ((q / 2) * 2, (q % 2) * 2);
            cells[oy][ox] = s[0] as u8;
            cells[oy][ox + 1] = s[1] as u8;
            cells[oy + 1][ox] = s[2] as u8;
            cells[oy + 1][ox + 1] = s[3] as u8;
        }
        let tree = &self.tree;
        let next = |y: usize, x: usize| {
            tree.next_with(|dx, dy| cells[(y as i32 + dy) as usize][(x as i32 + dx) as usize])
                as u32
        };
        let kids = [next(1, 1), next(1, 2), next(2, 1), next(2, 2)];
        self.node(1, kids)
    }

    /// A node of one level more with `id` in its centre.
    fn expand(&mut self, id: u32) -> u32 {
        let level = self.level(id);
        let e = self.empty_of(level - 1);
        let [nw, ne, sw, se] = self.kids(id);
        let a = self.node(level, [e, e, e, nw]);
        let b = self.node(level, [e, e, ne, e]);
        let c = self.node(level, [e, sw, e, e]);
        let d = self.node(level, [se, e, e, e]);
        self.node(level + 1, [a, b, c, d])
    }

    /// Whether the root's cells all lie in its centre quarter (a level L - 2 square).
    fn centred(&self) -> bool {
        let root = self.root;
        if self.level(root) < 4 {
            return false;
        }
        // Each quadrant's cells lie in the child nearest the centre, and that child's in its
        // own child nearest the centre.
        let nearest_only = |id: u32, i: usize| {
            let kids = self.kids(id);
            (0..4)
                .all(|k| k == i || self.is_empty(kids[k]))
                .then_some(kids[i])
        };
        let [nw, ne, sw, se] = self.kids(root);
        [(nw, 3), (ne, 2), (sw, 1), (se, 0)]
            .into_iter()
            .all(|(q, i)| nearest_only(q, i).is_some_and(|c| nearest_only(c, i).is_some()))
    }

    /// 2^j generations; false (the cells as they were) where `progress` stopped it.
    fn step_power(&mut self, j: u8, progress: Option<&Progress>) -> EngineResult<bool> {
        while self.level(self.root) < j + 3 || !self.centred() {
            if self.level(self.root) >= 63 {
                return Err(EngineError::Unsupported(
                    "the pattern has grown past the 2^62 cells across N-state HashLife's quadtree holds".into(),
                ));
            }
            self.root = self.expand(self.root);
        }
        self.tally.start(1 << j, self.level(self.root));
        self.top = self.level(self.root);
        let next = self.result(self.root, j, progress);
        self.top = 0;
        let done = !std::mem::take(&mut self.stopped);
        if std::mem::take(&mut self.full) {
            return Err(EngineError::Unsupported(format!(
                "N-state HashLife's node store is full ({} nodes in {}) even after collecting garbage; give it more with --memory",
                self.live,
                crate::memory::human_bytes(self.max_nodes as u64 * NODE_BYTES)
            )));
        }
        if done {
            self.root = next;
            self.core.generation += 1u64 << j;
        }
        Ok(done)
    }

    /// Frees the nodes that neither the root, the recursion in progress, `extra` (the node of
    /// the call at `level` about to compute) nor the empty nodes reach, keeping the memoised
    /// results of those kept where that frees enough, as Golly's `ghashbase` does (a step
    /// goes on from them), else dropping them too. A store still full after that abandons the
    /// step, which then fails with a clear error.
    #[cold]
    #[inline(never)]
    fn collect(&mut self, extra: u32, level: u8) {
        let held = self.held(extra, level);
        self.sweep(true, &held);
        if self.live * 10 < self.soft_nodes * 6 {
            return;
        }
        if self.soft_nodes < self.max_nodes {
            // What the steps reach does not fit below the soft limit: raise it before
            // dropping memoised results, which a step would compute again.
            self.soft_nodes = (self.soft_nodes * 2).min(self.max_nodes);
            return;
        }
        self.sweep(false, &held);
        self.drops += 1;
        if self.live * 10 >= self.max_nodes * 9 {
            self.full = true;
            self.stopped = true;
        }
    }

    /// What the recursion holds below the root, and the memoised results it reads back: the
    /// node of each call above `level`, the nine nodes it steps (the five it made found again
    /// by content, as nodes are unique) and the results of those done, and in a full step
    /// the four nodes made of those and their results; and `extra`.
    fn held(&self, extra: u32, level: u8) -> Held {
        let mut held = Held {
            nodes: vec![self.root, extra],
            memos: Vec::new(),
        };
        let find = |level: u8, kids: [u32; 4]| {
            let hash = NodeIndex::hash(level, kids);
            self.index.find(&self.nodes, hash, level, kids).ok()
        };
        for at in level + 1..=self.top {
            let (id, j) = self.frames[at as usize];
            held.nodes.push(id);
            let full = j + 2 == at;
            let half = if full { j - 1 } else { j };
            let g = self.grandchildren(id);
            let sub = |r: usize, c: usize| {
                [
                    g[r * 4 + c],
                    g[r * 4 + c + 1],
                    g[(r + 1) * 4 + c],
                    g[(r + 1) * 4 + c + 1],
                ]
            };
            let mut nine = [NONE; 9];
            for (k, nine) in nine.iter_mut().enumerate() {
                let (r, c) = (k / 3, k % 3);
                // The corners are the call's node's children.
                let Some(n) = find(at - 1, sub(r, c)) else {
                    continue;
                };
                held.nodes.push(n);
                if let Some(m) = self.memo(n, half) {
                    held.memos.push((n, half, m));
                    *nine = m;
                }
            }
            if full && nine.iter().all(|&m| m != NONE) {
                for (r, c) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    let four = [
                        nine[r * 3 + c],
                        nine[r * 3 + c + 1],
                        nine[(r + 1) * 3 + c],
                        nine[(r + 1) * 3 + c + 1],
                    ];
                    if let Some(n) = find(at - 1, four) {
                        held.nodes.push(n);
                        if let Some(m) = self.memo(n, j - 1) {
                            held.memos.push((n, j - 1, m));
                        }
                    }
                }
            }
        }
        held
    }

    /// The memoised centre of node `id` 2^j generations on, if any.
    fn memo(&self, id: u32, j: u8) -> Option<u32> {
        let n = &self.nodes[id as usize];
        let r = if self.is_empty(id) {
            self.empty_of(n.level - 1)
        } else if j + 2 == n.level {
            n.full
        } else {
            self.results.get(&(id, j)).copied().unwrap_or(NONE)
        };
        (r != NONE).then_some(r)
    }

    /// Marks what `held`, the root and the empty nodes reach (through the memoised results
    /// too where `keep_results`; `held`'s own results always), frees the rest and rebuilds
    /// the index.
    fn sweep(&mut self, keep_results: bool, held: &Held) {
        self.collections += 1;
        self.populations.clear();
        for n in self.nodes.iter_mut() {
            n.marked = false;
        }
        let mut todo: Vec<u32> = Vec::with_capacity(held.nodes.len() + 128);
        todo.extend_from_slice(&held.nodes);
        todo.extend(held.memos.iter().map(|&(_, _, m)| m));
        todo.extend_from_slice(&self.empty);
        loop {
            while let Some(id) = todo.pop() {
                let n = &mut self.nodes[id as usize];
                if n.marked {
                    continue;
                }
                n.marked = true;
                let n = *n;
                if n.level > 1 {
                    todo.extend(n.kids);
                }
                if keep_results && n.full != NONE {
                    todo.push(n.full);
                }
            }
            if !keep_results {
                break;
            }
            // The shorter steps' results of the nodes kept, until no more are reached.
            let nodes = &self.nodes;
            todo.extend(
                self.results
                    .iter()
                    .filter(|&(&(id, _), &r)| {
                        nodes[id as usize].marked && !nodes[r as usize].marked
                    })
                    .map(|(_, &r)| r),
            );
            if todo.is_empty() {
                break;
            }
        }
        if keep_results {
            let nodes = &self.nodes;
            self.results.retain(|&(id, _), _| nodes[id as usize].marked);
        } else {
            self.results.clear();
        }
        self.free.clear();
        self.live = 0;
        for (id, n) in self.nodes.iter_mut().enumerate() {
            if !n.marked || n.level == 0 {
                n.level = 0;
                n.full = NONE;
                self.free.push(id as u32);
                continue;
            }
            self.live += 1;
            if !keep_results {
                n.full = NONE;
            }
        }
        // The free slots taken lowest first, near the nodes kept.
        self.free.reverse();
        // A quarter to a half full.
        let buckets = (self.live / 4).next_power_of_two().max(1 << 9);
        self.index.rebuild(&self.nodes, buckets);
        // The empty nodes' futures are the empty nodes below them, and the recursion reads
        // back the results it holds, whatever was dropped.
        for level in 2..=64u8 {
            let e = self.empty_of(level);
            self.nodes[e as usize].full = self.empty_of(level - 1);
        }
        for &(n, j, m) in &held.memos {
            if self.is_empty(n) {
                continue;
            }
            if j + 2 == self.nodes[n as usize].level {
                self.nodes[n as usize].full = m;
            } else {
                self.results.insert((n, j), m);
            }
        }
    }

    fn to_macrocell(&self) -> Macrocell {
        // Ids in the file are 1-based in order of appearance; 0 is any empty node.
        let mut ids: FxHashMap<u32, u32> = FxHashMap::default();
        let mut nodes: Vec<McNode> = Vec::new();
        let mut stack = vec![(self.root, false)];
        while let Some((id, done)) = stack.pop() {
            if self.is_empty(id) || ids.contains_key(&id) {
                continue;
            }
            let n = self.nodes[id as usize];
            if n.level == 1 {
                nodes.push(McNode::States(n.kids.map(|s| s as u8)));
                ids.insert(id, nodes.len() as u32);
                continue;
            }
            if done {
                let kids = n.kids.map(|k| ids.get(&k).copied().unwrap_or(0));
                nodes.push(McNode::Inner {
                    level: n.level,
                    children: kids,
                });
                ids.insert(id, nodes.len() as u32);
            } else {
                stack.push((id, true));
                for &k in n.kids.iter().rev() {
                    stack.push((k, false));
                }
            }
        }
        let root = ids.get(&self.root).copied().unwrap_or(0);
        Macrocell {
            nodes,
            root,
            rule: Some(self.core.rule),
            generation: 0,
            comments: Vec::new(),
        }
    }

    /// The engine's node for a file's root (its levels kept: the root stays origin-centred).
    fn load_macrocell(&mut self, mc: &Macrocell) -> u32 {
        if mc.root == 0 {
            return self.empty_of(3);
        }
        let mut ids = vec![0u32; mc.nodes.len() + 1];
        for (i, n) in mc.nodes.iter().enumerate() {
            ids[i + 1] = match *n {
                McNode::States(s) => self.node(1, s.map(|v| v as u32)),
                McNode::Inner { level, children } => {
                    let kids = children.map(|c| {
                        if c == 0 {
                            self.empty_of(level - 1)
                        } else {
                            ids[c as usize]
                        }
                    });
                    self.node(level, kids)
                }
                McNode::Leaf(bits) => {
                    // An 8x8 leaf of a two-state file: level 3 of 2x2 blocks.
                    let cell = |x: usize, y: usize| (bits >> (y * 8 + x) & 1) as u32;
                    let block = |s: &mut Self, x: usize, y: usize| {
                        s.node(
                            1,
                            [
                                cell(x, y),
                                cell(x + 1, y),
                                cell(x, y + 1),
                                cell(x + 1, y + 1),
                            ],
                        )
                    };
                    let quad = |s: &mut Self, x: usize, y: usize| {
                        let k = [
                            block(s, x, y),
                            block(s, x + 2, y),
                            block(s, x, y + 2),
                            block(s, x + 2, y + 2),
                        ];
                        s.node(2, k)
                    };
                    let k = [
                        quad(self, 0, 0),
                        quad(self, 4, 0),
                        quad(self, 0, 4),
                        quad(self, 4, 4),
                    ];
                    self.node(3, k)
                }
            };
        }
        let mut root = ids[mc.root as usize];
        while self.level(root) < 3 {
            root = self.expand(root);
        }
        root
    }

    fn to_tiles(&self) -> EngineResult<TileMap> {
        let limit = crate::memory::limit().bytes / 4;
        self.to_macrocell().to_tiles(limit).map_err(|e| {
            EngineError::Unsupported(format!("{e}, more than a quarter of lifelab's memory"))
        })
    }

    fn get(&self, x: i64, y: i64) -> u8 {
        let mut id = self.root;
        let mut half = 1i128 << (self.level(id) - 1);
        let (mut x, mut y) = (x as i128 + half, y as i128 + half);
        if !(0..2 * half).contains(&x) || !(0..2 * half).contains(&y) {
            return 0;
        }
        loop {
            let n = self.nodes[id as usize];
            if self.is_empty(id) {
                return 0;
            }
            let q = ((y >= half) as usize) * 2 + (x >= half) as usize;
            if n.level == 1 {
                return n.kids[q] as u8;
            }
            id = n.kids[q];
            if x >= half {
                x -= half;
            }
            if y >= half {
                y -= half;
            }
            half /= 2;
        }
    }

    fn set(&mut self, x: i64, y: i64, state: u8) {
        loop {
            let half = 1i128 << (self.level(self.root) - 1);
            if (-half..half).contains(&(x as i128)) && (-half..half).contains(&(y as i128)) {
                break;
            }
            self.root = self.expand(self.root);
        }
        let half = 1i128 << (self.level(self.root) - 1);
        self.root = self.set_in(self.root, x as i128 + half, y as i128 + half, state);
        self.results.clear();
    }

    fn set_in(&mut self, id: u32, x: i128, y: i128, state: u8) -> u32 {
        let n = self.nodes[id as usize];
        let half = 1i128 << (n.level - 1);
        let q = ((y >= half) as usize) * 2 + (x >= half) as usize;
        let mut kids = n.kids;
        if n.level == 1 {
            kids[q] = state as u32;
        } else {
            kids[q] = self.set_in(kids[q], x & (half - 1), y & (half - 1), state);
        }
        self.node(n.level, kids)
    }

    /// The first (`least`) or last column (`across`) or row of node `id` that holds a live
    /// cell, from its top-left corner. Each node is looked at once (`memo`), so a quadtree of
    /// millions of cells in shared blocks costs its nodes, not its cells.
    fn extent(
        &self,
        id: u32,
        across: bool,
        least: bool,
        memo: &mut FxHashMap<u32, u64>,
    ) -> Option<u64> {
        let n = self.nodes[id as usize];
        if self.is_empty(id) {
            return None;
        }
        if let Some(&v) = memo.get(&id) {
            return Some(v);
        }
        // Quadrants nw, ne, sw, se: the two at offset 0 along the axis, then the two at half.
        let (low, high) = if across {
            ([0, 2], [1, 3])
        } else {
            ([0, 1], [2, 3])
        };
        let half = 1u64 << (n.level - 1);
        let pair = |qs: [usize; 2], memo: &mut FxHashMap<u32, u64>| {
            let mut best: Option<u64> = None;
            for q in qs {
                let v = if n.level == 1 {
                    (n.kids[q] != 0).then_some(0)
                } else {
                    self.extent(n.kids[q], across, least, memo)
                };
                best = match (best, v) {
                    (Some(a), Some(b)) => Some(if least { a.min(b) } else { a.max(b) }),
                    (a, b) => a.or(b),
                };
            }
            best
        };
        let v = if least {
            match pair(low, memo) {
                Some(v) => v,
                None => pair(high, memo)? + half,
            }
        } else {
            match pair(high, memo) {
                Some(v) => v + half,
                None => pair(low, memo)?,
            }
        };
        memo.insert(id, v);
        Some(v)
    }
}

impl Engine for RuleHashLifeEngine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn universe(&self) -> Universe {
        Universe::Plane
    }

    fn jumps(&self) -> bool {
        true
    }

    fn step(&mut self, generations: u64) -> EngineResult<()> {
        for j in 0..64u8 {
            if generations >> j & 1 == 1 {
                self.step_power(j, None)?;
            }
        }
        Ok(())
    }

    fn step_with(&mut self, generations: u64, progress: &Progress) -> EngineResult<u64> {
        let mut done = 0;
        for j in 0..64u8 {
            if generations >> j & 1 == 1 {
                if progress.stops_at(self.made) || !self.step_power(j, Some(progress))? {
                    break;
                }
                done += 1 << j;
                progress.advance(1 << j);
            }
        }
        Ok(done)
    }

    fn work(&self) -> Option<Work> {
        Some(Work::NodesMade(self.made))
    }

    fn step_piece(&self) -> u64 {
        u64::MAX
    }

    fn population(&mut self) -> EngineResult<u64> {
        Ok(self.population_of(self.root))
    }

    fn census(&mut self) -> EngineResult<Census> {
        Ok(census_of_tiles(Universe::Plane, &self.to_tiles()?))
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        Ok(self.get(x, y) != 0)
    }

    fn state(&mut self, x: i64, y: i64) -> EngineResult<u8> {
        Ok(self.get(x, y))
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        self.set(x, y, alive as u8);
        Ok(())
    }

    /// A live cell of the bitmap is state 1; an erased one is 0.
    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        if self.is_empty(self.root) {
            // Into an empty universe (a pattern being opened) the cells go as one quadtree
            // built from them: a path copied for each cell cost a node a level per cell.
            let mut tiles = TileMap::new();
            put_by_cell(cells, at, how, |x, y, s| {
                if s != 0 {
                    tiles.set_state(x, y, s);
                }
            });
            return self.import(&tiles);
        }
        put_by_cell(cells, at, how, |x, y, s| self.set(x, y, s));
        Ok(())
    }

    fn clear(&mut self) -> EngineResult<()> {
        self.reset();
        Ok(())
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        let half = 1i128 << (self.level(self.root) - 1);
        let side = |across: bool, least: bool| {
            let v = self.extent(self.root, across, least, &mut FxHashMap::default())?;
            Some((v as i128 - half) as i64)
        };
        let (Some(left), Some(right), Some(top), Some(bottom)) = (
            side(true, true),
            side(true, false),
            side(false, true),
            side(false, false),
        ) else {
            return Ok(None);
        };
        Ok(Some(Bounds {
            left,
            right,
            top,
            bottom,
        }))
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        cells_by_state(rect, |x, y| self.get(x, y))
    }

    fn states_in(&mut self, rect: CellRect) -> EngineResult<Vec<u8>> {
        states_by_cell(rect, |x, y| self.get(x, y))
    }

    /// Zoomed out, the quadtree answers from its populations without expanding a cell: an
    /// aligned block is a node, as in the two-state HashLife.
    fn view_costs_area(&self) -> bool {
        // Its view is read from its live cells (or nodes), whatever the rectangle.
        false
    }

    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        let aligned = block >= 2
            && block.is_power_of_two()
            && rect.x.rem_euclid(block as i64) == 0
            && rect.y.rem_euclid(block as i64) == 0;
        if !aligned {
            return crate::engine::sample_by_bands(self, rect, block);
        }
        let level = block.trailing_zeros() as u8;
        let (columns, rows) = (rect.width.div_ceil(block), rect.height.div_ceil(block));
        let mut counts = vec![0u64; columns as usize * rows as usize];
        let (left, top) = (rect.x as i128, rect.y as i128);
        let (right, bottom) = (left + rect.width as i128, top + rect.height as i128);
        let half = 1i128 << (self.level(self.root) - 1);
        let mut todo = vec![(self.root, -half, -half)];
        while let Some((id, x, y)) = todo.pop() {
            let n = self.nodes[id as usize];
            let size = 1i128 << n.level;
            if self.is_empty(id) || x >= right || y >= bottom || x + size <= left || y + size <= top
            {
                continue;
            }
            if n.level <= level {
                // Wholly in the block it starts in: blocks are aligned to their size.
                let (bx, by) = ((x - left) / block as i128, (y - top) / block as i128);
                counts[by as usize * columns as usize + bx as usize] += self.population_of(id);
                continue;
            }
            let h = size / 2;
            for (k, (dx, dy)) in [(0, 0), (h, 0), (0, h), (h, h)].into_iter().enumerate() {
                todo.push((n.kids[k], x + dx, y + dy));
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
        self.to_tiles()
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        check_states(&self.core.rule, tiles)?;
        self.reset();
        let mc = Macrocell::from_tiles_with_states(tiles);
        self.root = self.load_macrocell(&mc);
        Ok(())
    }

    fn import_quadtree(&mut self, tree: &Macrocell, centre: (i64, i64)) -> EngineResult<()> {
        if centre != (0, 0) {
            return self.import(&crate::engine::quadtree_tiles(tree, centre)?);
        }
        let (max, states) = (tree.max_state(), self.core.rule.states());
        if max as u16 >= states {
            return Err(EngineError::Unsupported(format!(
                "the cells have states up to {max}, and rule {} has {states} (0 to {})",
                self.core.rule,
                states - 1
            )));
        }
        self.reset();
        self.root = self.load_macrocell(tree);
        Ok(())
    }

    fn export_quadtree(&mut self) -> EngineResult<Option<Macrocell>> {
        Ok(Some(self.to_macrocell()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(k: u32) -> Node {
        Node {
            kids: [k, k >> 8, 0, 0],
            level: 1,
            marked: false,
            full: NONE,
        }
    }

    /// Adds `node` to `nodes` and `index` under `hash`, which it must not hold yet.
    fn add(index: &mut NodeIndex, nodes: &mut Vec<Node>, node: Node, hash: u64) -> u32 {
        nodes.push(node);
        let id = nodes.len() as u32 - 1;
        let slot = index
            .find(nodes, hash, node.level, node.kids)
            .expect_err("a new node");
        index.insert(nodes, slot, hash, id);
        id
    }

    /// A third of a 40x40 square live, at random.
    fn soup(e: &mut dyn Engine) {
        let mut x = 0x9e37_79b9_u64;
        for y in 0..40 {
            for i in 0..40 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x.is_multiple_of(3) {
                    e.set_cell(i, y, true).unwrap();
                }
            }
        }
    }

    /// As in the two-state HashLife: a jump stopped part way has run none of its generations
    /// and estimates that it had got some of the way; a whole one counts whole. A growing
    /// soup of a Generations rule (`B3/S23/C3`) on HashLife over N states.
    #[test]
    fn a_jump_in_progress_estimates_how_far_it_has_got() {
        let rule: Rule = "B3/S23/C3".parse().unwrap();
        let mut e = RuleHashLifeEngine::new(rule, Universe::Plane, None).unwrap();
        soup(&mut e);
        let stopped = Progress::new(1024);
        stopped.stop_at_work(e.made + 2_000);
        assert_eq!(e.step_with(1024, &stopped).unwrap(), 0);
        let (estimate, total) = stopped.estimate();
        assert_eq!(stopped.get(), (0, 1024));
        assert!(0 < estimate && estimate < total, "{estimate} of {total}");
        let whole = Progress::new(64);
        assert_eq!(e.step_with(64, &whole).unwrap(), 64);
        assert_eq!(whole.estimate(), (64, 64));
    }

    /// A store that collects in the middle of a step gives the Generations engine's cells,
    /// state for state: from a soft limit of 512 nodes raised as it fills (the memoised
    /// results kept), and within a hard limit of 700 that it reaches (the results dropped
    /// too). A soup of `B3/S23/C3` to generation 1000, in steps of 2^9 and less. Within 200
    /// nodes the step fails plainly.
    #[test]
    fn collections_within_a_step_keep_every_cell_right() {
        use crate::cpu::generations::GenerationsEngine;
        let rule: Rule = "B3/S23/C3".parse().unwrap();
        for (soft, max) in [(1 << 9, 1 << 24), (700, 700)] {
            let mut e = RuleHashLifeEngine::new(rule, Universe::Plane, None).unwrap();
            (e.soft_nodes, e.max_nodes) = (soft, max);
            let mut g = GenerationsEngine::new(rule, Universe::Plane).unwrap();
            soup(&mut e);
            soup(&mut g);
            e.step(1000).unwrap();
            g.step(1000).unwrap();
            assert!(e.collections >= 10, "{} collections", e.collections);
            if max > soft {
                assert!(e.soft_nodes > soft && e.drops == 0, "the soft limit raised");
            } else {
                assert!(e.drops >= 10, "{} collections dropped the results", e.drops);
            }
            assert!(e.live <= max);
            let b = g.bounds().unwrap().expect("a live soup");
            assert_eq!(e.bounds().unwrap(), Some(b));
            for y in b.top..=b.bottom {
                for x in b.left..=b.right {
                    assert_eq!(e.state(x, y).unwrap(), g.state(x, y).unwrap(), "({x}, {y})");
                }
            }
            assert_eq!(e.population().unwrap(), g.population().unwrap());
        }
        let mut e = RuleHashLifeEngine::new(rule, Universe::Plane, None).unwrap();
        (e.soft_nodes, e.max_nodes) = (200, 200);
        soup(&mut e);
        let error = e.step(1000).unwrap_err().to_string();
        assert!(error.contains("node store is full"), "{error}");
        assert_eq!(e.generation(), 0);
    }

    /// Keys of one hash fill their bucket and go on into the next ones, round the table's end;
    /// a tag of 0, which every empty slot shows too, is found among them and no empty slot is
    /// taken for a node.
    #[test]
    fn keys_of_one_hash_overflow_round_the_end_and_are_each_found() {
        let mut index = NodeIndex::default();
        let mut nodes = Vec::new();
        let first = leaf(1000);
        let h = NodeIndex::hash(first.level, first.kids);
        add(&mut index, &mut nodes, first, h);
        let buckets = index.buckets.len();
        // The last bucket, and a tag of 0.
        let hash = (buckets - 1) as u64;
        let ids: Vec<u32> = (0..40)
            .map(|k| add(&mut index, &mut nodes, leaf(k), hash))
            .collect();
        assert_eq!(index.buckets.len(), buckets, "no growth in between");
        for (k, &id) in ids.iter().enumerate() {
            assert_eq!(index.find(&nodes, hash, 1, leaf(k as u32).kids), Ok(id));
        }
        assert_eq!(index.find(&nodes, h, 1, first.kids), Ok(0));
        let absent = leaf(41);
        assert!(index.find(&nodes, hash, 1, absent.kids).is_err());
    }

    /// Every node is found again after the table has doubled several times.
    #[test]
    fn every_node_is_found_after_the_table_grows() {
        let mut index = NodeIndex::default();
        let mut nodes = Vec::new();
        for k in 0..20_000 {
            let n = leaf(k);
            add(&mut index, &mut nodes, n, NodeIndex::hash(n.level, n.kids));
        }
        assert!(
            index.buckets.len() >= 1 << 12,
            "{} buckets",
            index.buckets.len()
        );
        for (id, n) in nodes.iter().enumerate() {
            let hash = NodeIndex::hash(n.level, n.kids);
            assert_eq!(index.find(&nodes, hash, n.level, n.kids), Ok(id as u32));
        }
        assert_eq!(index.len, nodes.len());
    }
}
