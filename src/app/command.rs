//! Everything a panel, key or mouse gesture can ask for. Panels return commands; the app applies
//! them in one place after drawing, so that no panel mutates the simulation mid-frame.

use std::path::PathBuf;

use crate::engine::CellRect;
use crate::pattern::{Format, Pattern};
use crate::rule::{ElementaryRule, Rule};
use crate::session::worker::Pace;

#[derive(Clone, Debug)]
pub enum Command {
    // Running.
    Play,
    Pause,
    TogglePlay,
    Step(u64),
    /// Runs to this generation, with progress (Golly's "go to").
    GoTo(u64),
    /// Stops the job in progress (Step N, a fill, a load, an analysis) at a consistent point.
    Cancel,
    SetSpeed(Pace),
    /// Generations per step, 2^k (HashLife's jump).
    SetStepExponent(u32),
    Faster,
    Slower,
    Reset,
    /// The engine: `auto` or a registry name.
    SetEngine(String),
    /// The unbounded plane, or back to a torus of the given size.
    SetPlane(bool),

    // The rule and the cells.
    SetRule(Rule),
    /// Replace the torus with a pattern (centred; its rule and `:T` size apply).
    Load {
        pattern: Pattern,
        source: String,
    },
    LoadFile(PathBuf),
    /// Stamp a pattern onto the universe, centred at a cell.
    Stamp {
        pattern: Pattern,
        at: (i64, i64),
    },
    RandomFill {
        density: f64,
        seed: u64,
        /// `None`: the whole torus.
        region: Option<CellRect>,
    },
    Clear,
    Resize {
        width: u32,
        height: u32,
    },
    /// Draw or erase at a cell: a stroke that begins on a dead cell draws, one that begins on a
    /// live cell erases (as in Golly).
    DrawAt {
        cell: (i64, i64),
        begin: bool,
    },
    /// Ends a stroke: the edit counts as unsaved.
    EndStroke,
    Select(Option<CellRect>),

    // Files and the clipboard.
    OpenDialog,
    SaveDialog(Format),
    Save {
        path: PathBuf,
        format: Format,
    },
    Paste,
    CopySelection,

    /// Analyse the current state in the background.
    Analyze,

    // The view.
    Fit,
    FitPattern,
    Centre,
    Zoom(f64),

    // Elementary mode.
    EnterLife,
    EnterElementary {
        rule: ElementaryRule,
        start: crate::grid::Grid,
        capacity: u32,
    },

    // Answers to the autosave prompt at the start.
    RestoreAutosave,
    DiscardAutosave,

    // Answers to the unsaved-edits prompt.
    ConfirmDiscard,
    CancelDiscard,
    Quit,
}

impl Command {
    /// Commands that throw the current cells away, and so ask first when there are unsaved
    /// edits.
    pub fn discards_edits(&self) -> bool {
        matches!(
            self,
            Command::Load { .. }
                | Command::LoadFile(_)
                | Command::Clear
                | Command::Resize { .. }
                | Command::SetPlane(_)
                | Command::RandomFill { region: None, .. }
                | Command::Quit
        )
    }
}
