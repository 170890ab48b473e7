//! Edits the owner queues for the worker: they are applied in order, before the next piece of
//! work, so that drawing never waits for a generation to finish.

use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

use crate::engine::{CellRect, Engine, EngineResult, Put};
use crate::grid::Grid;
use crate::session::cells::Cells;

/// A stroke as the worker applies it: whether it draws or erases (decided by its first cell,
/// as in Golly: a stroke that starts on a live cell erases), and (cell, before, after) for
/// each cell whose state it changed. Undo and redo read it back.
#[derive(Debug, Default)]
pub struct Stroke {
    pub alive: Option<bool>,
    pub changed: Vec<((i64, i64), bool, bool)>,
}

pub type StrokeLog = Arc<Mutex<Stroke>>;

/// A read the worker runs on the engine, which sends its own answer.
pub type ReadFn = Box<dyn FnOnce(&mut dyn Engine) + Send>;

/// A typed edit of the cells.
pub enum Edit {
    /// Cells of a stroke; the changes go into `log`.
    Draw {
        cells: Vec<(i64, i64)>,
        log: StrokeLog,
    },
    /// Cells set to given states (an undo or redo of a stroke).
    Set(Vec<((i64, i64), bool)>),
    /// A bitmap written at a place (a paste, a fill, a clear of a selection).
    Put {
        cells: Grid,
        at: (i64, i64),
        how: Put,
    },
    /// Every cell dead, at generation 0.
    Clear,
    /// Every cell outside the rectangle dead.
    KeepOnly(CellRect),
    /// Every cell replaced (Reset, an undo step), at a generation.
    Import { cells: Box<Cells>, generation: u64 },
    /// Not a change: the cells and generation as they are when the worker gets here, after
    /// every edit before it and before every one after it (an undo step's state).
    Snapshot(Sender<EngineResult<(Cells, u64)>>),
    /// Not a change: a read of the cells here, in the edits' order, whose answer goes to
    /// whoever asked ([`crate::session::job::Reading`]).
    Read(ReadFn),
    /// Not a change: the engine stops keeping the census hash it kept for repeat detection.
    StopHashing,
}

impl Edit {
    pub fn apply(self, e: &mut dyn Engine) -> EngineResult<()> {
        match self {
            Edit::Draw { cells, log } => {
                let mut log = log.lock().unwrap_or_else(|p| p.into_inner());
                for (x, y) in cells {
                    let before = e.cell(x, y)?;
                    let alive = *log.alive.get_or_insert(!before);
                    if before != alive {
                        e.set_cell(x, y, alive)?;
                        log.changed.push(((x, y), before, alive));
                    }
                }
                Ok(())
            }
            Edit::Set(cells) => {
                for ((x, y), alive) in cells {
                    e.set_cell(x, y, alive)?;
                }
                Ok(())
            }
            Edit::Put { cells, at, how } => e.put(&cells, at, how),
            Edit::Clear => {
                e.clear()?;
                e.set_generation(0);
                Ok(())
            }
            Edit::KeepOnly(keep) => {
                let cells = e.cells_in(keep)?;
                let generation = e.generation();
                e.clear()?;
                e.put(&cells, (keep.x, keep.y), Put::Or)?;
                e.set_generation(generation);
                Ok(())
            }
            Edit::Import { cells, generation } => {
                cells.load(e)?;
                e.set_generation(generation);
                Ok(())
            }
            Edit::Snapshot(to) => {
                let _ = to.send(Cells::read(e).map(|cells| (cells, e.generation())));
                Ok(())
            }
            Edit::Read(read) => {
                read(e);
                Ok(())
            }
            Edit::StopHashing => {
                e.track_hash(false);
                Ok(())
            }
        }
    }
}
