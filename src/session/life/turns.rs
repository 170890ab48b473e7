//! Undo and redo through the session, and what must wait its turn behind the work before it.
//! The worker reads each step's state in order with the edits, so that recording a step never
//! waits; an undo, a reset or a go-to back waits for the piece of work in progress, the job in
//! flight and the states still on their way, and `poll` does it once they have landed. No frame
//! waits for any of them.

use std::sync::mpsc::{Receiver, TryRecvError, channel};

use super::{Pending, Session, SessionError, StateRead};
use crate::engine::Universe;
use crate::rule::Rule;
use crate::session::edit::{Edit, StrokeLog};
use crate::session::undo::{Change, Snapshot, Unsaved};
use crate::session::worker::Thinned;

/// An action that waits for the work before it to land.
pub(super) enum Deferred {
    /// An undo (`back`) or a redo; `now`: the state it replaces, once asked of the worker.
    Turn {
        back: bool,
        unsaved: Unsaved,
        now: Option<Receiver<StateRead>>,
    },
    /// Back to the start state.
    Reset,
    /// A go-to back before the current generation: Reset, then forward.
    GoTo(u64),
    /// The rest of such a go-to, from wherever the work before it leaves the cells.
    Step(u64),
    /// The plot an undone state had, once its new engine has landed.
    Plot(Thinned),
}

/// What an undo (`back`) or a redo did once it could be done: `None` when there was nothing
/// to take back or do again.
pub struct Turned {
    pub back: bool,
    pub done: Result<Option<Undone>, SessionError>,
}

/// A step of the history on its way (a handful at a time, so the variants' sizes do not
/// matter).
#[allow(clippy::large_enum_variant)]
pub(super) enum Unrecorded {
    /// A whole state, as the worker reads it in the edits' order.
    State {
        label: String,
        state: Receiver<StateRead>,
        rule: Rule,
        universe: Universe,
        plot: Thinned,
        unsaved: Unsaved,
    },
    /// A stroke, once the worker has applied its last edit.
    Stroke {
        log: StrokeLog,
        ticket: u64,
        unsaved: Unsaved,
    },
}

/// What an undo or redo did, for the window to follow.
#[derive(Clone, Debug, PartialEq)]
pub struct Undone {
    /// What the Edit menu called the step.
    pub label: String,
    /// The universe the step went back to, when it is another one.
    pub universe: Option<Universe>,
    /// What is unsaved in the state it went back to.
    pub unsaved: Unsaved,
}

impl Session {
    /// Whether something asked for still waits for the work before it (an undo, a reset):
    /// the window holds back what changes the cells until it is done, to keep their order.
    pub fn catching_up(&self) -> bool {
        !self.deferred.is_empty()
            || self.figures.edits_applied < self.caught_up_at
            // A new engine on its way (a rule change, a load): what comes next is its.
            || matches!(self.job, Some(Pending::Engine { .. }))
    }

    /// What the next deferred undo or redo did, once it is done.
    pub fn take_turned(&mut self) -> Option<Turned> {
        self.turned.pop_front()
    }

    /// Does what was deferred, in order, as far as the work before it has landed.
    pub(super) fn run_deferred(&mut self) {
        while let Some(next) = self.deferred.pop_front() {
            // The job in flight must land, and what the action before queued be applied (the
            // figures then count from the cells it left).
            self.figures = self.worker.figures();
            if self.job.is_some() || self.figures.edits_applied < self.caught_up_at {
                self.deferred.push_front(next);
                return;
            }
            match next {
                Deferred::Turn { back, unsaved, now } => {
                    // Every step taken before it must be in the history first.
                    self.record_ready();
                    if !self.unrecorded.is_empty() {
                        self.deferred
                            .push_front(Deferred::Turn { back, unsaved, now });
                        return;
                    }
                    if now.is_none() && !self.history.needs_now(back) {
                        // Nothing to undo, or a stroke: done at once.
                        let done = self.turn(back, unsaved, None);
                        self.turned.push_back(Turned { back, done });
                        self.caught_up_at = self.worker.edits_queued();
                        continue;
                    }
                    let now = now.unwrap_or_else(|| {
                        let (to, state) = channel();
                        self.edit(Edit::Snapshot(to));
                        state
                    });
                    let state = match now.try_recv() {
                        Err(TryRecvError::Empty) => {
                            self.deferred.push_front(Deferred::Turn {
                                back,
                                unsaved,
                                now: Some(now),
                            });
                            return;
                        }
                        Ok(state) => state.ok(),
                        Err(TryRecvError::Disconnected) => None,
                    };
                    let now = state.map(|(cells, generation)| Snapshot {
                        cells,
                        generation,
                        rule: self.rule,
                        universe: self.universe,
                        plot: self.worker.thinned_history(),
                    });
                    let done = self.turn(back, unsaved, now);
                    self.turned.push_back(Turned { back, done });
                }
                Deferred::Reset | Deferred::GoTo(_) if self.start_pending.is_some() => {
                    self.take_start(false);
                    if self.start_pending.is_some() {
                        self.deferred.push_front(next);
                        return;
                    }
                    self.deferred.push_front(next);
                }
                Deferred::Reset => {
                    if let Err(e) = self.reset_now() {
                        self.job_error = Some(e.to_string());
                    }
                }
                Deferred::GoTo(target) => {
                    if let Err(e) = self.go_back_to(target) {
                        self.job_error = Some(e.to_string());
                    }
                }
                Deferred::Step(gens) => {
                    if let Err(e) = self.step_now(gens) {
                        self.job_error = Some(e.to_string());
                    }
                }
                Deferred::Plot(plot) => self.set_history(plot),
            }
            self.caught_up_at = self.worker.edits_queued();
        }
    }

    /// Records the state before a step the user may want to take back ("run", "paste"...).
    /// The worker reads it in order with the edits, so nothing here waits for it.
    pub fn remember(&mut self, label: &str, unsaved: Unsaved) {
        // The rule and universe a new engine in flight brings are the state's.
        self.land_rebuild();
        let (to, state) = channel();
        self.edit(Edit::Snapshot(to));
        self.unrecorded.push_back(Unrecorded::State {
            label: label.to_string(),
            state,
            rule: self.rule,
            universe: self.universe,
            plot: self.worker.thinned_history(),
            unsaved,
        });
    }

    /// Records a stroke, whose last edit has this ticket, drawn where `unsaved` was unsaved.
    pub fn remember_stroke(&mut self, log: StrokeLog, ticket: u64, unsaved: Unsaved) {
        self.unrecorded.push_back(Unrecorded::Stroke {
            log,
            ticket,
            unsaved,
        });
        self.record_ready();
    }

    /// Moves the steps the worker has read into the history, in order, as far as it has.
    pub(super) fn record_ready(&mut self) {
        while let Some(front) = self.unrecorded.front() {
            let change = match front {
                Unrecorded::Stroke { ticket, .. } if !self.applied(*ticket) => break,
                Unrecorded::Stroke { log, unsaved, .. } => {
                    let changed =
                        std::mem::take(&mut log.lock().unwrap_or_else(|p| p.into_inner()).changed);
                    (!changed.is_empty())
                        .then(|| ("draw".to_string(), Change::Cells(changed), unsaved.clone()))
                }
                Unrecorded::State {
                    label,
                    state,
                    rule,
                    universe,
                    plot,
                    unsaved,
                } => match state.try_recv() {
                    Err(TryRecvError::Empty) => break,
                    Ok(Ok((cells, generation))) => Some((
                        label.clone(),
                        Change::State(Box::new(Snapshot {
                            cells,
                            generation,
                            rule: *rule,
                            universe: *universe,
                            plot: plot.clone(),
                        })),
                        unsaved.clone(),
                    )),
                    // The engine could not give its cells: the step cannot be taken back.
                    Ok(Err(e)) => {
                        self.job_error = Some(format!("{label}: not kept for undo: {e}"));
                        None
                    }
                    Err(TryRecvError::Disconnected) => None,
                },
            };
            self.unrecorded.pop_front();
            if let Some((label, change, unsaved)) = change {
                self.history.record(label, change, unsaved);
            }
        }
    }

    /// Takes back the last step, once the work before it has landed (the run's piece in
    /// progress, the steps the worker has still to read); what it did comes back through
    /// [`Session::take_turned`]. `unsaved`: what is unsaved now, which a redo gives back.
    pub fn undo(&mut self, unsaved: Unsaved) {
        self.defer_turn(true, unsaved);
    }

    /// Does again the last step undone, as [`Session::undo`] does. `unsaved`: what is unsaved
    /// now, which an undo gives back.
    pub fn redo(&mut self, unsaved: Unsaved) {
        self.defer_turn(false, unsaved);
    }

    fn defer_turn(&mut self, back: bool, unsaved: Unsaved) {
        self.cancel();
        self.pause();
        self.deferred.push_back(Deferred::Turn {
            back,
            unsaved,
            now: None,
        });
        self.run_deferred();
    }

    /// An undo or redo, with every step before it recorded; `now`: the state it replaces.
    fn turn(
        &mut self,
        back: bool,
        unsaved: Unsaved,
        now: Option<Snapshot>,
    ) -> Result<Option<Undone>, SessionError> {
        self.pause();
        let step = if back {
            self.history.undo(|| now, unsaved)
        } else {
            self.history.redo(|| now, unsaved)
        };
        let Some(step) = step else {
            return Ok(None);
        };
        let universe = match step.change {
            Change::Cells(cells) => {
                let cells = cells
                    .iter()
                    .map(|&(c, before, after)| (c, if back { before } else { after }))
                    .collect();
                self.edit(Edit::Set(cells));
                self.mark_start();
                None
            }
            Change::State(s) => self.restore(*s)?,
        };
        Ok(Some(Undone {
            label: step.label,
            universe,
            unsaved: step.unsaved,
        }))
    }

    /// Puts a whole state back: in place when the rule and universe are the same, else on a
    /// new engine. Returns the universe when it changed.
    fn restore(&mut self, s: Snapshot) -> Result<Option<Universe>, SessionError> {
        let mut changed = None;
        if s.rule == self.rule && s.universe == self.universe {
            self.import(s.cells, s.generation);
        } else {
            let wanted = self.wanted.clone();
            changed = (s.universe != self.universe).then_some(s.universe);
            self.rebuild(s.rule, s.universe, Some(s.cells), s.generation, &wanted)?;
            // A new engine starts an empty plot: the kept one goes back once it has landed.
            self.deferred.push_front(Deferred::Plot(s.plot));
            return Ok(changed);
        }
        self.set_history(s.plot);
        Ok(changed)
    }

    /// What Undo and Redo would take back or do again.
    pub fn undo_labels(&self) -> (Option<&str>, Option<&str>) {
        (self.history.undo_label(), self.history.redo_label())
    }

    /// Forgets every step (a restored autosave starts a history of its own).
    pub fn clear_undo(&mut self) {
        self.unrecorded.clear();
        self.history.clear();
    }
}
