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
    /// Advances this many generations (Space, N, Step N).
    Step(u64),
    /// Advances this many steps of 2^k generations at step 2^k (Tab, the Step button: Golly's
    /// Next Step).
    NextStep(u64),
    /// Runs to this generation, with progress (Golly's "go to").
    GoTo(u64),
    /// Stops the job in progress (Step N, a fill, a load, an analysis) at a consistent point.
    Cancel,
    SetSpeed(Pace),
    /// Generations per step, 2^k (HashLife's jump).
    SetStepExponent(u32),
    /// The current state becomes what Reset returns to.
    SetAsStart,
    /// Grid lines zoomed in, on or off.
    SetGridLines(bool),
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
    /// Takes back the last edit, paste, fill, clear, rule change, resize, load or run.
    Undo,
    Redo,
    RandomFill {
        density: f64,
        seed: u64,
        /// `None`: the whole torus.
        region: Option<CellRect>,
    },
    /// Clears the selection, or the whole universe when nothing is selected.
    Clear,
    /// Clears everything outside the selection (Golly's "Clear Outside").
    ClearOutside,
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
    /// Reads the clipboard and starts a floating paste.
    Paste,
    /// Starts a floating paste of a pattern: it follows the mouse, turns and mirrors, and a
    /// click places it (Esc drops it).
    BeginPaste(Pattern),
    TransformPaste(Transform),
    /// Places the floating paste centred on a cell.
    PlacePaste {
        at: (i64, i64),
    },
    CancelPaste,
    CopySelection,
    /// Selects the live cells' box (Golly's Select All).
    SelectAll,

    /// Analyse the current state in the background, looking at most this many generations on.
    Analyze {
        max_gens: u64,
    },

    // The view.
    /// Keeps the live cells in view while running (Golly's autofit).
    SetFollow(bool),
    /// Watches for the whole universe repeating, from a census of every generation.
    SetWatchRepeats(bool),
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

/// How a floating paste turns or mirrors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transform {
    RotateClockwise,
    RotateAnticlockwise,
    FlipLeftRight,
    FlipTopBottom,
}

impl Transform {
    pub fn apply(self, g: &crate::grid::Grid) -> crate::grid::Grid {
        match self {
            Transform::RotateClockwise => g.rotated_clockwise(),
            Transform::RotateAnticlockwise => g.rotated_anticlockwise(),
            Transform::FlipLeftRight => g.flipped_left_right(),
            Transform::FlipTopBottom => g.flipped_top_bottom(),
        }
    }
}

impl Command {
    /// Whether it changes or reads the cells, and so must come after an undo or a reset
    /// still waiting for the piece of work in progress. The view, the pace and the dialogs
    /// answer at once.
    pub fn waits_its_turn(&self) -> bool {
        !matches!(
            self,
            Command::Cancel
                | Command::SetSpeed(_)
                | Command::SetStepExponent(_)
                | Command::SetGridLines(_)
                | Command::Faster
                | Command::Slower
                | Command::Select(_)
                | Command::OpenDialog
                | Command::SaveDialog(_)
                | Command::BeginPaste(_)
                | Command::TransformPaste(_)
                | Command::CancelPaste
                | Command::SelectAll
                | Command::SetFollow(_)
                | Command::SetWatchRepeats(_)
                | Command::Fit
                | Command::FitPattern
                | Command::Centre
                | Command::Zoom(_)
                | Command::DiscardAutosave
                | Command::ConfirmDiscard
                | Command::CancelDiscard
                | Command::Quit
        )
    }

    /// Commands that replace the work as a whole, and so ask first when there are unsaved
    /// edits. (A clear, a fill or a resize can be undone, and does not ask, as in Golly.)
    /// Whether it replaces the engine or clears the cells, and so stops the job in flight (a
    /// go-to, a step) before it is applied.
    pub fn stops_the_job(&self) -> bool {
        matches!(
            self,
            Command::SetEngine(_)
                | Command::SetPlane(_)
                | Command::SetRule(_)
                | Command::Load { .. }
                | Command::LoadFile(_)
                | Command::Clear
                | Command::ClearOutside
                | Command::Resize { .. }
                | Command::RestoreAutosave
        )
    }

    pub fn discards_edits(&self) -> bool {
        matches!(
            self,
            Command::Load { .. } | Command::LoadFile(_) | Command::Quit
        )
    }
}
