//! Undo and redo, as in Golly: every edit, paste, fill, clear, rule change, resize, load and
//! run can be taken back, without a limit on the count but within a memory bound (the oldest
//! steps go first). A stroke keeps only the cells it changed; everything else keeps the whole
//! state it replaced, so that undoing a run goes back to where the run started.
//!
//! The history holds states and changes; whoever owns the engine applies them.

use crate::engine::Universe;
use crate::rule::Rule;
use crate::session::cells::Cells;
use crate::session::worker::Thinned;

/// A whole state the universe can go back to.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub cells: Cells,
    pub generation: u64,
    pub rule: Rule,
    pub universe: Universe,
    /// The plot's history up to this state: a long run thins its early points, so undoing the
    /// run puts them back rather than drawing a line from generation 0.
    pub plot: Thinned,
}

impl Snapshot {
    fn bytes(&self) -> u64 {
        self.cells.bytes() + self.plot.points().len() as u64 * 16 + 64
    }
}

/// What an undo step changes back.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Cells a stroke set: (cell, alive before, alive after).
    Cells(Vec<((i64, i64), bool, bool)>),
    /// The state before the step (after it, on the redo side).
    State(Box<Snapshot>),
}

impl Change {
    fn bytes(&self) -> u64 {
        match self {
            Change::Cells(c) => c.len() as u64 * 24 + 32,
            Change::State(s) => s.bytes(),
        }
    }
}

/// What was not saved, by what it was ("drawn cells", "a paste"...): empty when everything
/// was. Each step keeps it for the state it goes back to, so that undoing back to the state a
/// file was opened or saved in leaves nothing unsaved, as in Golly.
pub type Unsaved = Vec<&'static str>;

/// One step of the history: what the Edit menu calls it ("draw", "paste", "run"...), what
/// it changed, and what was unsaved in the state it goes back to.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub label: String,
    pub change: Change,
    pub unsaved: Unsaved,
}

/// The undo and redo stacks, within a bound on the memory they hold.
#[derive(Debug)]
pub struct History {
    undo: Vec<Step>,
    redo: Vec<Step>,
    bytes: u64,
    bound: u64,
}

impl History {
    /// A history holding at most `bound` bytes of states and changes.
    pub fn new(bound: u64) -> Self {
        Self {
            undo: Vec::new(),
            redo: Vec::new(),
            bytes: 0,
            bound,
        }
    }

    /// A quarter of the memory lifelab may take: the undo history of a huge torus keeps fewer
    /// steps, never the machine's memory.
    pub fn default_bound() -> u64 {
        crate::memory::limit().bytes / 4
    }

    /// Records a step that is about to happen, from a state where `unsaved` was not saved;
    /// the redo side is forgotten, as in every editor.
    pub fn record(&mut self, label: impl Into<String>, change: Change, unsaved: Unsaved) {
        for s in self.redo.drain(..) {
            self.bytes -= s.change.bytes();
        }
        self.push_undo(Step {
            label: label.into(),
            change,
            unsaved,
        });
    }

    fn push_undo(&mut self, step: Step) {
        self.bytes += step.change.bytes();
        self.undo.push(step);
        self.trim();
    }

    /// Drops the oldest steps (undo side first) until the history fits its bound; the newest
    /// step stays even when it alone is larger.
    fn trim(&mut self) {
        while self.bytes > self.bound && self.undo.len() + self.redo.len() > 1 {
            let s = if self.undo.len() > 1 || self.redo.is_empty() {
                self.undo.remove(0)
            } else {
                self.redo.remove(0)
            };
            self.bytes -= s.change.bytes();
        }
    }

    /// The label of the step Undo would take back.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|s| s.label.as_str())
    }

    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|s| s.label.as_str())
    }

    /// Whether the next undo (`back`) or redo needs the present state, to keep for the way
    /// back: a whole state's step does, a stroke's cells and an empty side do not.
    pub fn needs_now(&self, back: bool) -> bool {
        let side = if back { &self.undo } else { &self.redo };
        side.last()
            .is_some_and(|s| matches!(s.change, Change::State(_)))
    }

    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }

    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// Takes the newest step off the undo side. `now` gives the state it replaces, which the
    /// redo side keeps (a stroke's cells need none), with what is unsaved in it.
    pub fn undo(
        &mut self,
        now: impl FnOnce() -> Option<Snapshot>,
        unsaved: Unsaved,
    ) -> Option<Step> {
        let step = self.undo.pop()?;
        self.bytes -= step.change.bytes();
        let back = match &step.change {
            Change::Cells(c) => Change::Cells(c.clone()),
            Change::State(_) => match now() {
                Some(s) => Change::State(Box::new(s)),
                // Without the present state there is nothing to redo to.
                None => return Some(step),
            },
        };
        self.redo.push(Step {
            label: step.label.clone(),
            change: back,
            unsaved,
        });
        self.bytes += self.redo.last().expect("pushed").change.bytes();
        self.trim();
        Some(step)
    }

    /// Takes the newest step off the redo side; `now` gives the state it replaces, which goes
    /// back on the undo side, with what is unsaved in it.
    pub fn redo(
        &mut self,
        now: impl FnOnce() -> Option<Snapshot>,
        unsaved: Unsaved,
    ) -> Option<Step> {
        let step = self.redo.pop()?;
        self.bytes -= step.change.bytes();
        let back = match &step.change {
            Change::Cells(c) => Change::Cells(c.clone()),
            Change::State(_) => match now() {
                Some(s) => Change::State(Box::new(s)),
                None => return Some(step),
            },
        };
        self.push_undo(Step {
            label: step.label.clone(),
            change: back,
            unsaved,
        });
        Some(step)
    }

    /// Forgets everything (elementary mode, a new session).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
        self.bytes = 0;
    }

    /// Bytes held now.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::TileMap;

    fn state(generation: u64, cells: &[(i64, i64)]) -> Snapshot {
        let mut t = TileMap::new();
        for &(x, y) in cells {
            t.set(x, y, true);
        }
        Snapshot {
            cells: t.into(),
            generation,
            rule: Rule::life(),
            universe: Universe::torus(64, 64),
            plot: Thinned::default(),
        }
    }

    #[test]
    fn undo_and_redo_walk_the_steps_both_ways() {
        let mut h = History::new(1 << 30);
        h.record("fill", Change::State(Box::new(state(0, &[]))), vec![]);
        h.record(
            "draw",
            Change::Cells(vec![((1, 1), false, true)]),
            vec!["a random fill"],
        );
        assert_eq!(h.undo_label(), Some("draw"));
        let both = vec!["a random fill", "drawn cells"];
        let s = h.undo(|| None, both.clone()).unwrap();
        assert_eq!(s.change, Change::Cells(vec![((1, 1), false, true)]));
        // Each undo says what was unsaved in the state it went back to.
        assert_eq!(s.unsaved, vec!["a random fill"]);
        let s = h.undo(|| Some(state(0, &[(5, 5)])), s.unsaved).unwrap();
        assert_eq!(s.change, Change::State(Box::new(state(0, &[]))));
        assert!(s.unsaved.is_empty(), "back at the file's state");
        assert!(h.undo(|| None, vec![]).is_none());
        // Redo gives back the state the undo replaced, then the stroke, and what was unsaved
        // in each.
        let s = h.redo(|| Some(state(0, &[])), vec![]).unwrap();
        assert_eq!(s.change, Change::State(Box::new(state(0, &[(5, 5)]))));
        assert_eq!(s.unsaved, vec!["a random fill"]);
        assert_eq!(h.redo_label(), Some("draw"));
        let s = h.redo(|| None, s.unsaved).unwrap();
        assert_eq!(s.unsaved, both);
        assert!(h.undo(|| None, both.clone()).is_some());
        // A new step forgets the redo side.
        h.record(
            "clear",
            Change::State(Box::new(state(0, &[(5, 5)]))),
            vec![],
        );
        assert_eq!(h.redo_len(), 0);
        assert_eq!(h.undo_len(), 2);
    }

    #[test]
    fn the_oldest_steps_go_when_the_bound_is_reached() {
        let one = state(0, &[(0, 0)]).bytes();
        let mut h = History::new(3 * one);
        for g in 0..10 {
            h.record(
                format!("step {g}"),
                Change::State(Box::new(state(g, &[(0, 0)]))),
                vec![],
            );
        }
        assert_eq!(h.undo_len(), 3);
        assert!(h.bytes() <= 3 * one);
        // The newest are kept.
        assert_eq!(h.undo_label(), Some("step 9"));
        // A single step larger than the bound is still kept: the last edit can be undone.
        let mut h = History::new(1);
        h.record(
            "huge",
            Change::State(Box::new(state(0, &[(0, 0), (100, 100)]))),
            vec![],
        );
        assert_eq!(h.undo_len(), 1);
    }
}
