//! Splitting a settled soup into objects and naming each, as lifelib's classifier does:
//! 1. clusters: live cells joined through the soup's envelope (every cell alive during the
//!    last period) by the rule's zone of influence;
//! 2. each cluster run alone: its cycle gives its apgcode;
//! 3. a periodic cluster split in space-time into pieces that do not interact (`separate`).
//!
//! Results are memoised by shape and by apgcode, so a block costs a lookup.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::aperiodic;
use super::object::{Cycle, NoCycle, Patch, apgcode, cycle};
use crate::pattern::apgcode::decode;
use crate::rule::Rule;
use crate::rule::map::{self, MapRule};

/// Generations a cluster is run alone looking for its cycle (lifelib looks up to 2^20 with
/// HashLife; nothing periodic in a soup has a period near this).
const CYCLE_LIMIT: u64 = 1 << 14;

/// A cell's zone of influence: the cells within two of it, without the corners (`95`, for rules
/// where two diagonal cells give no birth) or with them (`99`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    NinetyFive,
    NinetyNine,
}

impl Zone {
    pub fn of(rule: &MapRule) -> Zone {
        let diagonal = rule.next(map::NW | map::SE) || rule.next(map::NE | map::SW);
        if diagonal || rule.births_from_nothing() {
            Zone::NinetyNine
        } else {
            Zone::NinetyFive
        }
    }

    fn offsets(self) -> Vec<(i64, i64)> {
        let mut v = Vec::new();
        for dy in -2i64..=2 {
            for dx in -2i64..=2 {
                let corner = dx.abs() == 2 && dy.abs() == 2;
                if (dx, dy) != (0, 0) && !(corner && self == Zone::NinetyFive) {
                    v.push((dx, dy));
                }
            }
        }
        v
    }
}

/// A disjoint-set forest over cell ids.
struct Sets(Vec<usize>);

impl Sets {
    fn new(n: usize) -> Self {
        Sets((0..n).collect())
    }
    fn find(&mut self, mut a: usize) -> usize {
        while self.0[a] != a {
            self.0[a] = self.0[self.0[a]];
            a = self.0[a];
        }
        a
    }
    fn merge(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b)] = a.min(b);
        }
    }
    fn count(&mut self) -> usize {
        (0..self.0.len()).filter(|&i| self.find(i) == i).count()
    }
}

pub struct Classifier {
    pub rule: Rule,
    pub map: MapRule,
    zone: Zone,
    offsets: Vec<(i64, i64)>,
    shapes: HashMap<(usize, usize, Vec<u8>), Vec<String>>,
    decompositions: HashMap<String, Vec<String>>,
}

impl Classifier {
    pub fn new(rule: Rule, map: MapRule) -> Self {
        let zone = Zone::of(&map);
        Classifier {
            rule,
            map,
            zone,
            offsets: zone.offsets(),
            shapes: HashMap::default(),
            decompositions: HashMap::default(),
        }
    }

    /// The objects of a settled soup: `live` its cells now, `envelope` every cell alive during
    /// the generations looked at. Each element is one object's apgcode.
    pub fn census(
        &mut self,
        live: &HashSet<(i64, i64)>,
        envelope: &HashSet<(i64, i64)>,
        recurse: bool,
    ) -> Vec<String> {
        let mut left: HashSet<(i64, i64)> = live.clone();
        let mut order: Vec<(i64, i64)> = live.iter().copied().collect();
        order.sort_unstable_by_key(|&(x, y)| (y, x));
        let mut elements = Vec::new();
        for seed in order {
            if !left.contains(&seed) {
                continue;
            }
            let cluster = self.grow(seed, envelope);
            let cells: Vec<(i64, i64)> = cluster.into_iter().filter(|c| left.remove(c)).collect();
            elements.extend(self.identify(&cells, recurse));
        }
        elements
    }

    /// The cells of `envelope` reached from `seed` through zones of influence.
    fn grow(&self, seed: (i64, i64), envelope: &HashSet<(i64, i64)>) -> Vec<(i64, i64)> {
        let mut seen = HashSet::from_iter([seed]);
        let mut todo = vec![seed];
        while let Some((x, y)) = todo.pop() {
            for &(dx, dy) in &self.offsets {
                let c = (x + dx, y + dy);
                if envelope.contains(&c) && seen.insert(c) {
                    todo.push(c);
                }
            }
        }
        seen.into_iter().collect()
    }

    /// The objects one cluster is.
    pub fn identify(&mut self, cells: &[(i64, i64)], recurse: bool) -> Vec<String> {
        let patch = Patch::from_cells(cells);
        let key = (patch.w, patch.h, patch.cells.clone());
        if let Some(found) = self.shapes.get(&key) {
            return found.clone();
        }
        let elements = match cycle(&patch, &self.map, CYCLE_LIMIT) {
            Ok(c) => {
                let code = apgcode(&c);
                if code.starts_with('x') {
                    self.separate(&code)
                } else {
                    // What an oversized object splits into depends on `recurse`, so it is not
                    // kept by shape (lifelib keeps only `x` codes too).
                    return if recurse {
                        self.oversized(&c)
                    } else {
                        vec![code]
                    };
                }
            }
            Err(NoCycle::Aperiodic | NoCycle::Grew) => {
                vec![aperiodic::classify(&self.rule, cells)]
            }
        };
        self.shapes.insert(key, elements.clone());
        elements
    }

    /// An object too big for a Wechsler form: its clusters over eight periods, each named
    /// without recursing further.
    fn oversized(&mut self, c: &Cycle) -> Vec<String> {
        let mut x = c.phases[0].clone();
        let mut envelope: HashSet<(i64, i64)> = x.live().collect();
        for _ in 0..8 * c.period {
            x = x.step(&self.map);
            envelope.extend(x.live());
        }
        let live: HashSet<(i64, i64)> = x.live().collect();
        self.census(&live, &envelope, false)
    }

    /// The apgcode of a periodic piece alone (what the separation recurses on).
    fn code_of(&self, piece: &Patch) -> String {
        if piece.is_empty() {
            return "xs0_0".into();
        }
        match cycle(piece, &self.map, CYCLE_LIMIT) {
            Ok(c) => apgcode(&c),
            Err(_) => "PATHOLOGICAL".into(),
        }
    }

    /// lifelib's complete object separation: the object's live cells in every phase of a
    /// period, joined where one cell is within a step of another in space or time, are the
    /// islands; islands that evolve together only because of one another are joined again;
    /// then the fewest groups of islands that each evolve as they do in the whole.
    pub fn separate(&mut self, code: &str) -> Vec<String> {
        if let Some(found) = self.decompositions.get(code) {
            return found.clone();
        }
        let elements = self.separate_uncached(code);
        self.decompositions
            .insert(code.to_string(), elements.clone());
        elements
    }

    fn separate_uncached(&mut self, code: &str) -> Vec<String> {
        let single = || vec![code.to_string()];
        let Some(body) = code.split_once('_').map(|(_, b)| b) else {
            return single();
        };
        let Some(cells) = decode(body) else {
            return single();
        };
        let start = Patch::from_cells(&cells);
        let Ok(c) = cycle(&start, &self.map, CYCLE_LIMIT) else {
            return single();
        };
        if c.period > 30_000 || start.is_empty() {
            return single();
        }
        let period = c.period as usize;
        let mut phases = c.phases.clone();
        phases.push(phases[period - 1].step(&self.map));
        // Ids of (generation, x, y).
        let mut ids: Vec<HashMap<(i64, i64), usize>> = Vec::new();
        let mut at: Vec<(usize, i64, i64)> = Vec::new();
        for (t, p) in phases.iter().enumerate() {
            let mut m = HashMap::default();
            for (x, y) in p.live() {
                m.insert((x, y), at.len());
                at.push((t, x, y));
            }
            ids.push(m);
        }
        let n = at.len();
        let mut uf = Sets::new(n);
        let mut uf2 = Sets::new(n);
        let mut suppressed: HashMap<(usize, i64, i64), Vec<usize>> = HashMap::default();
        for (id, &(t, x, y)) in at.iter().enumerate() {
            let join = |other: Option<&usize>, uf: &mut Sets, uf2: &mut Sets| {
                if let Some(&o) = other {
                    uf.merge(id, o);
                    uf2.merge(id, o);
                }
            };
            if t == 0 {
                join(ids[period].get(&(x + c.dx, y + c.dy)), &mut uf, &mut uf2);
            }
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    if dy > 0 || (dy == 0 && dx > 0) {
                        join(ids[t].get(&(x + dx, y + dy)), &mut uf, &mut uf2);
                    }
                    if t < period {
                        join(ids[t + 1].get(&(x + dx, y + dy)), &mut uf, &mut uf2);
                    }
                    if (dx, dy) != (0, 0) && !ids[t].contains_key(&(x + dx, y + dy)) {
                        suppressed.entry((t, x + dx, y + dy)).or_default().push(id);
                    }
                }
            }
        }
        // A dead cell beside three cells may be kept dead by them together.
        let mut keys: Vec<_> = suppressed.keys().copied().collect();
        keys.sort_unstable();
        for k in keys {
            let v = &suppressed[&k];
            if v.len() >= 3 {
                for w in v.windows(2) {
                    uf2.merge(w[0], w[1]);
                }
            }
        }
        if uf2.count() > 1 {
            let pieces = islands(&mut uf2, &at, period);
            let mut elements = Vec::new();
            for piece in pieces {
                let code = self.code_of(&piece[0]);
                elements.extend(self.separate(&code));
            }
            return elements;
        }
        let mut pieces = islands(&mut uf, &at, period);
        while self.join_interacting(&mut uf, &pieces, &ids, &at, period) {
            pieces = islands(&mut uf, &at, period);
        }
        let count = pieces.len();
        if count == 1 {
            return single();
        }
        let faithful = |map: &MapRule, p: &[Patch]| (0..period).all(|t| p[t].step(map) == p[t + 1]);
        if pieces.iter().all(|p| faithful(&self.map, p)) {
            let mut elements = Vec::new();
            for piece in &pieces {
                let code = self.code_of(&piece[0]);
                elements.extend(self.separate(&code));
            }
            return elements;
        }
        let low_period_osc = period <= 3 && c.dx == 0 && c.dy == 0;
        let mut invalid: HashSet<u64> = HashSet::default();
        for colours in 2..=count {
            if low_period_osc
                && ((colours > 4 && self.zone == Zone::NinetyFive)
                    || (colours > 7 && self.zone == Zone::NinetyNine))
            {
                break;
            }
            let cost = (colours as f64).powi(count as i32);
            if cost > 1_048_576.0 || count > 16 {
                break;
            }
            let mut colour = vec![0u8; count];
            let found = self.colourings(
                &mut colour,
                1,
                0,
                colours as u8,
                &pieces,
                period,
                &mut invalid,
            );
            if let Some(unions) = found {
                let mut elements = Vec::new();
                for u in unions {
                    let code = self.code_of(&u);
                    elements.extend(self.separate(&code));
                }
                return elements;
            }
        }
        single()
    }

    /// One pass of lifelib's joining: a cell an island alone would give birth to, but the
    /// whole does not, is kept dead by a neighbour; if that neighbour is of one other island,
    /// the two are joined. Whether anything was joined.
    fn join_interacting(
        &self,
        uf: &mut Sets,
        pieces: &[Vec<Patch>],
        ids: &[HashMap<(i64, i64), usize>],
        at: &[(usize, i64, i64)],
        period: usize,
    ) -> bool {
        let island_of = |uf: &mut Sets, id: usize| uf.find(id);
        // The root of each island, in the order `islands` lists them.
        let mut roots: Vec<usize> = Vec::new();
        for id in 0..at.len() {
            let r = uf.find(id);
            if !roots.contains(&r) {
                roots.push(r);
            }
        }
        for t in 0..period {
            for (i, piece) in pieces.iter().enumerate() {
                let successor = piece[t].step(&self.map);
                if successor == piece[t + 1] {
                    continue;
                }
                for (x, y) in successor.live() {
                    if piece[t + 1].get(x, y) {
                        continue;
                    }
                    let mut friends: Vec<usize> = Vec::new();
                    for dy in -1i64..=1 {
                        for dx in -1i64..=1 {
                            if (dx, dy) == (0, 0) {
                                continue;
                            }
                            if let Some(&o) = ids[t].get(&(x + dx, y + dy)) {
                                let r = island_of(uf, o);
                                let j = roots.iter().position(|&q| q == r).unwrap_or(i);
                                if j != i && !friends.contains(&j) {
                                    friends.push(j);
                                }
                            }
                        }
                    }
                    if friends.len() == 1 {
                        uf.merge(roots[i], roots[friends[0]]);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The first way (in lifelib's order) of colouring the islands with exactly `n` colours
    /// whose groups each evolve as in the whole; the groups' phase-0 patches.
    #[allow(clippy::too_many_arguments)]
    fn colourings(
        &self,
        colour: &mut Vec<u8>,
        i: usize,
        max: u8,
        n: u8,
        pieces: &[Vec<Patch>],
        period: usize,
        invalid: &mut HashSet<u64>,
    ) -> Option<Vec<Patch>> {
        if i == colour.len() {
            if max != n - 1 {
                return None;
            }
            let mut masks = vec![0u64; n as usize];
            for (k, &c) in colour.iter().enumerate() {
                masks[c as usize] |= 1 << k;
            }
            if masks.iter().any(|m| invalid.contains(m)) {
                return None;
            }
            let mut unions: Vec<Vec<Patch>> = Vec::new();
            for c in 0..n {
                let phases: Vec<Patch> = (0..=period)
                    .map(|t| {
                        let cells: Vec<(i64, i64)> = colour
                            .iter()
                            .enumerate()
                            .filter(|(_, k)| **k == c)
                            .flat_map(|(k, _)| pieces[k][t].live().collect::<Vec<_>>())
                            .collect();
                        Patch::from_cells(&cells)
                    })
                    .collect();
                unions.push(phases);
            }
            let mut all = true;
            for (c, u) in unions.iter().enumerate() {
                if !(0..period).all(|t| u[t].step(&self.map) == u[t + 1]) {
                    invalid.insert(masks[c]);
                    all = false;
                }
            }
            return all.then(|| unions.into_iter().map(|mut u| u.swap_remove(0)).collect());
        }
        let limit = (max + 1).min(n - 1);
        for c in 0..=limit {
            colour[i] = c;
            if let Some(found) =
                self.colourings(colour, i + 1, max.max(c), n, pieces, period, invalid)
            {
                return Some(found);
            }
        }
        colour[i] = 0;
        None
    }
}

/// The islands of a space-time partition, each as its patches in generations 0..=period, in
/// the order their first cells were numbered.
fn islands(uf: &mut Sets, at: &[(usize, i64, i64)], period: usize) -> Vec<Vec<Patch>> {
    let mut index: HashMap<usize, usize> = HashMap::default();
    let mut cells: Vec<Vec<Vec<(i64, i64)>>> = Vec::new();
    for (id, &(t, x, y)) in at.iter().enumerate() {
        let r = uf.find(id);
        let k = *index.entry(r).or_insert_with(|| {
            cells.push(vec![Vec::new(); period + 1]);
            cells.len() - 1
        });
        cells[k][t].push((x, y));
    }
    cells
        .into_iter()
        .map(|c| c.iter().map(|p| Patch::from_cells(p)).collect())
        .collect()
}
