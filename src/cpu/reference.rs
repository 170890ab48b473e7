//! The reference engine: one `bool` per cell, neighbours counted one by one with modular
//! arithmetic. Nothing clever happens here, on purpose: it is the oracle.

use crate::engine::dense;
use crate::engine::{
    Bounds, CellRect, Census, Core, Engine, EngineKind, EngineResult, Put, Universe,
};
use crate::grid::{Grid, GridError};
use crate::hash;
use crate::rule::{ElementaryRule, LifeRule, MapRule, Rule, RuleKind, map};
use crate::tiles::TileMap;

pub struct ReferenceEngine {
    core: Core,
    seed: u64,
    width: usize,
    height: usize,
    cells: Vec<bool>,
}

impl ReferenceEngine {
    /// An empty `width x height` torus.
    pub fn empty(rule: Rule, width: u32, height: u32, seed: u64) -> Result<Self, GridError> {
        let grid = Grid::try_new(width, height)?;
        Ok(Self::new(rule, &grid, seed))
    }

    /// An engine on `grid`'s torus; `seed` drives stochastic rules.
    pub fn new(rule: Rule, grid: &Grid, seed: u64) -> Self {
        let mut engine = Self {
            core: Core::new(EngineKind::Reference, "reference", rule),
            seed,
            width: grid.width() as usize,
            height: grid.height() as usize,
            cells: Vec::new(),
        };
        engine.load(grid);
        engine
    }

    fn load(&mut self, grid: &Grid) {
        self.cells = (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .map(|(x, y)| grid.get(x as u32, y as u32))
            .collect();
    }

    fn cell(&self, x: i64, y: i64) -> bool {
        let x = x.rem_euclid(self.width as i64) as usize;
        let y = y.rem_euclid(self.height as i64) as usize;
        self.cells[y * self.width + x]
    }

    /// One generation.
    pub fn step_once(&mut self) {
        let next = match self.core.rule.kind {
            RuleKind::Life(rule) => self.life_generation(&rule),
            RuleKind::Elementary(rule) => self.elementary_generation(rule),
            RuleKind::Map(rule) => self.map_generation(&rule),
        };
        self.cells = next;
        self.core.generation += 1;
    }

    fn life_generation(&self, rule: &LifeRule) -> Vec<bool> {
        let key = hash::stream_key(self.seed, self.core.generation);
        let mut next = vec![false; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let (xi, yi) = (x as i64, y as i64);
                let count = rule
                    .neighbourhood
                    .offsets()
                    .iter()
                    .filter(|&&(dx, dy)| self.cell(xi + dx as i64, yi + dy as i64))
                    .count();
                let alive = self.cells[y * self.width + x];
                let transition = rule.transition(alive);
                next[y * self.width + x] = transition.is_certain(count as u8)
                    || transition.chance[count]
                        .is_some_and(|p| hash::cell_hash(key, x as u32, y as u32) < p.threshold());
            }
        }
        next
    }

    /// The 3x3 block's index, cell by cell in Golly's MAP order, looked up in the table.
    fn map_generation(&self, rule: &MapRule) -> Vec<bool> {
        let mut next = vec![false; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let (xi, yi) = (x as i64, y as i64);
                let mut index = 0u16;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        if self.cell(xi + dx, yi + dy) {
                            index |= map::bit_at(dx as i32, dy as i32);
                        }
                    }
                }
                next[y * self.width + x] = rule.next(index);
            }
        }
        next
    }

    fn elementary_generation(&self, rule: ElementaryRule) -> Vec<bool> {
        let mut next = vec![false; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let (xi, yi) = (x as i64, y as i64);
                next[y * self.width + x] = rule.apply(
                    self.cell(xi - 1, yi),
                    self.cell(xi, yi),
                    self.cell(xi + 1, yi),
                );
            }
        }
        next
    }
}

impl ReferenceEngine {
    fn to_grid(&self) -> Grid {
        let mut grid = Grid::new(self.width as u32, self.height as u32);
        for (i, _) in self.cells.iter().enumerate().filter(|(_, a)| **a) {
            grid.set((i % self.width) as u32, (i / self.width) as u32, true);
        }
        grid
    }

    /// Edits through a grid: the reference engine is for small tori and plain code.
    fn edit(&mut self, f: impl FnOnce(&mut Grid)) {
        let mut grid = self.to_grid();
        f(&mut grid);
        self.load(&grid);
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
        Universe::torus(self.width as u32, self.height as u32)
    }

    fn step(&mut self, generations: u64) -> EngineResult<()> {
        for _ in 0..generations {
            self.step_once();
        }
        Ok(())
    }

    fn population(&mut self) -> EngineResult<u64> {
        Ok(self.cells.iter().filter(|&&a| a).count() as u64)
    }

    fn census(&mut self) -> EngineResult<Census> {
        Ok(self.to_grid().census())
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        Ok(ReferenceEngine::cell(self, x, y))
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        let x = x.rem_euclid(self.width as i64) as usize;
        let y = y.rem_euclid(self.height as i64) as usize;
        self.cells[y * self.width + x] = alive;
        Ok(())
    }

    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        self.edit(|g| dense::put(g, cells, at, how));
        Ok(())
    }

    fn clear(&mut self) -> EngineResult<()> {
        self.cells.fill(false);
        Ok(())
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        Ok(dense::bounds(&self.to_grid()))
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        Ok(dense::cells_in(&self.to_grid(), rect))
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        Ok(dense::export(&self.to_grid()))
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        self.edit(|g| dense::import(g, tiles));
        Ok(())
    }

    fn grid(&mut self) -> EngineResult<Grid> {
        Ok(self.to_grid())
    }
}
