//! Help → Keyboard shortcuts and Help → Panels: one list of the keys, which the window shows and
//! README's table of actions is checked against, and a short guide to each panel.

use eframe::egui;

/// The keys, as the Help window lists them: (keys, what they do). The keys work whatever widget
/// has the focus, except while a text field is being edited.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Return", "run or pause"),
    ("Space or N", "one generation"),
    ("Tab", "one step (2^k generations at step 2^k)"),
    (
        "R",
        "reset to the start of the pattern (as loaded, or as set)",
    ),
    (
        "+ and −",
        "faster and slower; past the fastest, + makes each step 2^k generations",
    ),
    (
        "Esc",
        "cancel the job in progress, drop the floating paste, close this list, or drop the selection",
    ),
    (
        "Ctrl+Z",
        "undo (edits, pastes, fills, clears, rule changes, resizes, loads, runs)",
    ),
    ("Ctrl+Shift+Z or Ctrl+Y", "redo"),
    (
        "Delete",
        "clear the selection (everything when nothing is selected)",
    ),
    ("Shift+Delete", "clear outside the selection"),
    ("Ctrl+A", "select the live cells"),
    ("Ctrl+C", "copy the selection (or the pattern) as RLE"),
    (
        "Ctrl+V",
        "paste: the pattern follows the mouse; a click places it",
    ),
    (
        "> and <",
        "turn the floating paste clockwise and anticlockwise",
    ),
    (
        "X and Y",
        "mirror the floating paste left to right and top to bottom",
    ),
    ("Ctrl+O and Ctrl+S", "open a pattern; save as RLE"),
    ("Ctrl+I", "pattern info: name, comments, rule and size"),
    (
        "F and C",
        "fit the torus (the pattern on the plane), centre the pattern",
    ),
    ("[ and ]", "zoom out and in"),
    ("T", "follow the pattern while it runs"),
    (
        "L",
        "grid lines on and off (zoomed in; live cells keep a gap either way)",
    ),
    ("F1", "this list"),
];

/// The panels, in the order they appear, with what each is for.
pub const PANELS: &[(&str, &str)] = &[
    (
        "Rule",
        "Choose a named rule or type one (B3/S23, 23/3, B2/S34H for hexagonal, V for von \
         Neumann, B2(1/3)/S12H for stochastic, W110 for elementary, a :T suffix for the torus), \
         then Apply rule.",
    ),
    (
        "Pattern library",
        "Still lifes, oscillators, spaceships, guns, methuselahs: a click loads one, centred.",
    ),
    (
        "Edit",
        "Random fills of the torus or the selection, clears inside and outside the selection, \
         undo and redo, and the torus size.",
    ),
    (
        "Population",
        "The population of every generation, Step N included; zoom and drag it, with a log \
         scale for growth.",
    ),
    (
        "Analysis",
        "What the current state is: still life, oscillator, spaceship, gun or methuselah, with \
         its period, speed and apgcode.",
    ),
    (
        "Elementary automata",
        "Wolfram's rules 0–255 as a scrolling space-time diagram.",
    ),
    (
        "Games (View > Games panel)",
        "Nim, Sprague–Grundy values, game trees, tic-tac-toe and the untouchable king, each \
         solved and playable against the solver.",
    ),
    (
        "Status line",
        "Generation, population, universe and rule, engine (its reason on hover), rate, the \
         UI's frame time, and whether the universe repeats when that is watched.",
    ),
];

/// Which help window is open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Help {
    #[default]
    Closed,
    Shortcuts,
    Panels,
}

pub fn ui(ctx: &egui::Context, help: &mut Help) {
    let (title, rows) = match help {
        Help::Closed => return,
        Help::Shortcuts => ("Keyboard shortcuts", SHORTCUTS),
        Help::Panels => ("The panels", PANELS),
    };
    let mut open = true;
    egui::Window::new(title)
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_width(520.0)
        .show(ctx, |ui| {
            egui::Grid::new(title)
                .num_columns(2)
                .striped(true)
                .spacing([16.0, 6.0])
                .show(ui, |ui| {
                    for (what, text) in rows {
                        ui.label(egui::RichText::new(*what).strong().monospace());
                        ui.add(egui::Label::new(*text).wrap());
                        ui.end_row();
                    }
                });
            if *help == Help::Shortcuts {
                ui.separator();
                ui.label(
                    egui::RichText::new(
                        "Mouse: draw with the Draw tool (a stroke that starts on a live cell \
                         erases), drag with the middle or right button to pan, wheel to zoom, \
                         Shift+drag to select.",
                    )
                    .weak(),
                );
            }
        });
    if !open {
        *help = Help::Closed;
    }
}
