//! The reference engine: one byte per cell (its state: 0 dead, 1 alive, 2.. Generations' dying
//! states), neighbours counted one by one with modular arithmetic. Nothing clever happens
//! here, on purpose: it is the oracle.

use crate::engine::dense;
use crate::engine::{
    Bounds, CellRect, Census, Core, Edges, Engine, EngineKind, EngineResult, Put, Universe,
};
use crate::grid::{Grid, GridError};
use crate::hash;
use crate::rule::{
    ElementaryRule, GenerationsRule, LifeRule, LtlRule, MapRule, Rule, RuleKind, map,
};
use crate::tiles::TileMap;

pub struct ReferenceEngine {
    core: Core,
    seed: u64,
    width: usize,
    height: usize,
    /// Golly's bounded grids: how the edges are joined (`None`: a torus).
    edges: Option<Edges>,
    cells: Vec<u8>,
}

impl ReferenceEngine {
    /// An empty `width x height` torus.
    pub fn empty(rule: Rule, width: u32, height: u32, seed: u64) -> Result<Self, GridError> {
        let grid = Grid::try_new(width, height)?;
        Ok(Self::new(rule, &grid, seed))
    }

    /// An empty torus or bounded grid (the unbounded plane is refused).
    pub fn in_universe(rule: Rule, universe: Universe, seed: u64) -> EngineResult<Self> {
        let Some((width, height)) = universe.size() else {
            return Err(crate::engine::EngineError::Unsupported(
                "the reference engine runs a torus or a bounded plane, not the unbounded plane"
                    .into(),
            ));
        };
        // Golly's border is one cell deep: a wider neighbourhood would read past it.
        if universe.has_joined_edges() && rule.ltl().is_some_and(|l| l.range > 1) {
            return Err(crate::engine::EngineError::Unsupported(format!(
                "a Larger than Life rule of range above 1 reads beyond Golly's one-cell border of {}",
                universe.describe()
            )));
        }
        let mut engine = Self::empty(rule, width, height, seed)?;
        engine.edges = universe.edges();
        Ok(engine)
    }

    /// An engine on `grid`'s torus; `seed` drives stochastic rules.
    pub fn new(rule: Rule, grid: &Grid, seed: u64) -> Self {
        let mut engine = Self {
            core: Core::new(EngineKind::Reference, "reference", rule),
            seed,
            width: grid.width() as usize,
            height: grid.height() as usize,
            edges: None,
            cells: Vec::new(),
        };
        engine.load(grid);
        engine
    }

    fn load(&mut self, grid: &Grid) {
        self.cells = (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .map(|(x, y)| grid.get(x as u32, y as u32) as u8)
            .collect();
    }

    /// The index of the cell a generation reads at (x, y): wrapped on a torus; on a bounded
    /// grid, the cell Golly's border copies there (`None` beyond the bounded plane's edges).
    fn at(&self, x: i64, y: i64) -> Option<usize> {
        let (w, h) = (self.width as i64, self.height as i64);
        let (x, y) = match self.edges {
            None => (x.rem_euclid(w), y.rem_euclid(h)),
            Some(edges) => edges.resolve(x, y, w, h)?,
        };
        Some((y * w + x) as usize)
    }

    /// The index of the cell (x, y) names for a caller: wrapped on a torus, and only inside a
    /// bounded grid (its border exists only while a generation is computed).
    fn inside(&self, x: i64, y: i64) -> Option<usize> {
        let (w, h) = (self.width as i64, self.height as i64);
        match self.edges {
            None => Some((y.rem_euclid(h) * w + x.rem_euclid(w)) as usize),
            Some(_) => ((0..w).contains(&x) && (0..h).contains(&y)).then(|| (y * w + x) as usize),
        }
    }

    fn state_at(&self, x: i64, y: i64) -> u8 {
        self.at(x, y).map_or(0, |i| self.cells[i])
    }

    fn state_inside(&self, x: i64, y: i64) -> u8 {
        self.inside(x, y).map_or(0, |i| self.cells[i])
    }

    /// Whether the cell is alive (state 1: a dying cell is not).
    fn cell(&self, x: i64, y: i64) -> bool {
        self.state_at(x, y) == 1
    }

    /// The index of the cell's 3x3 block of live cells, in Golly's MAP order.
    fn block(&self, x: i64, y: i64) -> u16 {
        let mut index = 0u16;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if self.cell(x + dx, y + dy) {
                    index |= map::bit_at(dx as i32, dy as i32);
                }
            }
        }
        index
    }

    /// One generation.
    pub fn step_once(&mut self) {
        let next = match self.core.rule.kind {
            RuleKind::Life(rule) => self.life_generation(&rule),
            RuleKind::Elementary(rule) => self.elementary_generation(rule),
            RuleKind::Map(rule) => self.map_generation(&rule),
            RuleKind::Generations(rule) => self.generations_generation(&rule),
            RuleKind::Loaded(rule) => self.tree_generation(&rule.def().tree),
            RuleKind::Ltl(rule) => self.ltl_generation(&rule),
        };
        self.cells = next;
        self.core.generation += 1;
    }

    fn life_generation(&self, rule: &LifeRule) -> Vec<u8> {
        let key = hash::stream_key(self.seed, self.core.generation);
        let mut next = vec![0; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let (xi, yi) = (x as i64, y as i64);
                let count = rule
                    .neighbourhood
                    .offsets()
                    .iter()
                    .filter(|&&(dx, dy)| self.cell(xi + dx as i64, yi + dy as i64))
                    .count();
                let alive = self.cells[y * self.width + x] == 1;
                let transition = rule.transition(alive);
                next[y * self.width + x] = (transition.is_certain(count as u8)
                    || transition.chance[count]
                        .is_some_and(|p| hash::cell_hash(key, x as u32, y as u32) < p.threshold()))
                    as u8;
            }
        }
        next
    }

    /// The 3x3 block's index, cell by cell in Golly's MAP order, looked up in the table.
    fn map_generation(&self, rule: &MapRule) -> Vec<u8> {
        let mut next = vec![0; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                next[y * self.width + x] = rule.next(self.block(x as i64, y as i64)) as u8;
            }
        }
        next
    }

    /// Golly's Generations, cell by cell: the live cells' block decides births (in state 0
    /// only) and survivals; a dying cell goes one state up, and to 0 after the last.
    fn generations_generation(&self, rule: &GenerationsRule) -> Vec<u8> {
        let mut next = vec![0; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let i = y * self.width + x;
                next[i] = rule.next(self.cells[i], self.block(x as i64, y as i64));
            }
        }
        next
    }

    /// A rule file's tree, walked cell by cell.
    fn tree_generation(&self, tree: &crate::rule::loader::RuleTree) -> Vec<u8> {
        let mut next = vec![0; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let (xi, yi) = (x as i64, y as i64);
                next[y * self.width + x] =
                    tree.next_with(|dx, dy| self.state_at(xi + dx as i64, yi + dy as i64));
            }
        }
        next
    }

    /// Larger than Life, each cell's shape counted cell by cell (r^2 per cell: the oracle).
    fn ltl_generation(&self, rule: &LtlRule) -> Vec<u8> {
        let r = rule.range as i64;
        let offsets: Vec<(i64, i64)> = (-r..=r)
            .flat_map(|dy| (-r..=r).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| rule.shape.contains(r, dx, dy))
            .collect();
        let mut next = vec![0; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let (xi, yi) = (x as i64, y as i64);
                let count = offsets
                    .iter()
                    .filter(|&&(dx, dy)| self.cell(xi + dx, yi + dy))
                    .count() as u32;
                let i = y * self.width + x;
                next[i] = rule.next(self.cells[i], count);
            }
        }
        next
    }

    fn elementary_generation(&self, rule: ElementaryRule) -> Vec<u8> {
        let mut next = vec![0; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let (xi, yi) = (x as i64, y as i64);
                next[y * self.width + x] = rule.apply(
                    self.cell(xi - 1, yi),
                    self.cell(xi, yi),
                    self.cell(xi + 1, yi),
                ) as u8;
            }
        }
        next
    }
}

impl ReferenceEngine {
    /// The cells that are not dead.
    fn to_grid(&self) -> Grid {
        let mut grid = Grid::new(self.width as u32, self.height as u32);
        for (i, _) in self.cells.iter().enumerate().filter(|(_, s)| **s != 0) {
            grid.set((i % self.width) as u32, (i / self.width) as u32, true);
        }
        grid
    }

    /// Edits through a grid: the reference engine is for small tori and plain code. A cell the
    /// edit leaves as it was keeps its state; one it makes alive is state 1.
    fn edit(&mut self, f: impl FnOnce(&mut Grid)) {
        let mut grid = self.to_grid();
        f(&mut grid);
        for (i, s) in self.cells.iter_mut().enumerate() {
            let now = grid.get((i % self.width) as u32, (i / self.width) as u32);
            if now != (*s != 0) {
                *s = now as u8;
            }
        }
    }

    /// Every cell as tiles, with its state.
    fn to_tiles(&self) -> TileMap {
        let mut tiles = dense::export(&self.to_grid());
        for (i, &s) in self.cells.iter().enumerate().filter(|(_, s)| **s > 1) {
            tiles.set_state((i % self.width) as i64, (i / self.width) as i64, s);
        }
        tiles
    }
}

impl Engine for ReferenceEngine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn universe(&self) -> Universe {
        let (width, height) = (self.width as u32, self.height as u32);
        if let Some(edges) = self.edges {
            Universe::Bounded {
                width,
                height,
                edges,
            }
        } else {
            Universe::torus(width, height)
        }
    }

    fn step(&mut self, generations: u64) -> EngineResult<()> {
        for _ in 0..generations {
            self.step_once();
        }
        Ok(())
    }

    /// Cells that are not dead (Golly's population under a Generations rule too).
    fn population(&mut self) -> EngineResult<u64> {
        Ok(self.cells.iter().filter(|&&s| s != 0).count() as u64)
    }

    fn census(&mut self) -> EngineResult<Census> {
        Ok(crate::engine::census_of_tiles(
            self.universe(),
            &self.to_tiles(),
        ))
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        Ok(self.state_inside(x, y) != 0)
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        if let Some(i) = self.inside(x, y) {
            self.cells[i] = alive as u8;
        }
        Ok(())
    }

    fn state(&mut self, x: i64, y: i64) -> EngineResult<u8> {
        Ok(self.state_inside(x, y))
    }

    fn states_in(&mut self, rect: CellRect) -> EngineResult<Vec<u8>> {
        Ok((0..rect.height as i64)
            .flat_map(|y| (0..rect.width as i64).map(move |x| (x, y)))
            .map(|(x, y)| self.state_inside(rect.x + x, rect.y + y))
            .collect())
    }

    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        self.edit(|g| dense::put(g, cells, at, how));
        Ok(())
    }

    fn clear(&mut self) -> EngineResult<()> {
        self.cells.fill(0);
        Ok(())
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        Ok(dense::bounds(&self.to_grid()))
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        Ok(dense::cells_in(&self.to_grid(), rect))
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        Ok(self.to_tiles())
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        crate::engine::check_states(self.rule(), tiles)?;
        let mut grid = Grid::new(self.width as u32, self.height as u32);
        dense::import(&mut grid, tiles);
        self.load(&grid);
        for (x, y, s) in tiles.dying_cells() {
            if (0..self.width as i64).contains(&x)
                && (0..self.height as i64).contains(&y)
                && let Some(i) = self.at(x, y)
            {
                self.cells[i] = s;
            }
        }
        Ok(())
    }

    fn grid(&mut self) -> EngineResult<Grid> {
        Ok(self.to_grid())
    }
}
