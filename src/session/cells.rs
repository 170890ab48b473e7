//! Cells as the session holds them between engines (a start, an undo step, a checkpoint):
//! tiles, or a quadtree's nodes where the engine keeps one, so that a HashLife pattern of 10^8
//! cells is never flattened to be kept.

use std::sync::Arc;

use crate::engine::Universe;
use crate::engine::{Bounds, Engine, EngineResult};
use crate::session::setup::{FileCells, Quadtree, Start};
use crate::tiles::TileMap;

#[derive(Clone, Debug, PartialEq)]
pub enum Cells {
    Tiles(TileMap),
    /// Centred where [`Quadtree::centre`] says, with its population and box worked out.
    Quadtree(Arc<Quadtree>),
}

impl Default for Cells {
    fn default() -> Self {
        Cells::Tiles(TileMap::new())
    }
}

impl From<TileMap> for Cells {
    fn from(t: TileMap) -> Self {
        Cells::Tiles(t)
    }
}

impl Cells {
    /// A file's loose cells placed in `universe` as the command line places them
    /// ([`FileCells::place`]).
    pub fn of_file(cells: FileCells, universe: Universe) -> anyhow::Result<Cells> {
        match cells.place(universe)? {
            Start::Quadtree(q) => Ok(Cells::Quadtree(q)),
            Start::Tiles(t) => Ok(Cells::Tiles(t)),
            _ => unreachable!("a file's loose cells are placed as a quadtree or as tiles"),
        }
    }

    /// What the engine holds: its quadtree where it keeps one, else its tiles.
    pub fn read(e: &mut dyn Engine) -> EngineResult<Cells> {
        Ok(match e.export_quadtree()? {
            Some(tree) => Cells::Quadtree(Arc::new(Quadtree::new(tree, (0, 0)))),
            None => Cells::Tiles(e.export()?),
        })
    }

    /// Makes these the engine's cells.
    pub fn load(&self, e: &mut dyn Engine) -> EngineResult<()> {
        match self {
            Cells::Tiles(t) => e.import(t),
            Cells::Quadtree(q) => e.import_quadtree(&q.tree, q.centre),
        }
    }

    pub fn population(&self) -> u64 {
        match self {
            Cells::Tiles(t) => t.population(),
            Cells::Quadtree(q) => q.population,
        }
    }

    pub fn bounds(&self) -> Option<Bounds> {
        match self {
            Cells::Tiles(t) => t.bounds(),
            Cells::Quadtree(q) => q.bounds,
        }
    }

    pub fn is_quadtree(&self) -> bool {
        matches!(self, Cells::Quadtree(_))
    }

    /// The cells as tiles (a quadtree expanded, refused beyond a quarter of the memory).
    pub fn into_tiles(self) -> EngineResult<TileMap> {
        match self {
            Cells::Tiles(t) => Ok(t),
            Cells::Quadtree(q) => q.to_tiles(),
        }
    }

    /// Bytes held, for the undo history's bound.
    pub fn bytes(&self) -> u64 {
        match self {
            // 64 rows of 64 bits and the map's own entry, per tile.
            Cells::Tiles(t) => t.len() as u64 * (512 + 48),
            Cells::Quadtree(q) => q.tree.nodes.len() as u64 * 24,
        }
    }
}
