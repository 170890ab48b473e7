//! The tabs of the games panel, one per game solver. The solvers live in `crate::games`; these
//! only show them and let the user play. Each tab's buttons go through its `act`, so a click, a
//! `--games-do` script and a test make the same moves, and a move that is not legal is refused
//! with a message in the tab's log. Heaps, components and edges are counted from 1 everywhere a
//! person reads them.

mod grundy;
mod hackenbush;
mod kqk;
mod nim;
mod octal;
mod sums;
mod tictactoe;
mod tree;
mod wythoff;

use eframe::egui;

use super::panels::games::GameTab;

pub fn tabs() -> Vec<Box<dyn GameTab>> {
    vec![
        Box::new(nim::NimTab::default()),
        Box::new(grundy::GrundyTab::default()),
        Box::new(octal::OctalTab::default()),
        Box::new(wythoff::WythoffTab::default()),
        Box::new(hackenbush::HackenbushTab::default()),
        Box::new(sums::SumsTab::default()),
        Box::new(tree::TreeTab::default()),
        Box::new(tictactoe::TicTacToeTab::default()),
        Box::new(kqk::KingTab::default()),
    ]
}

/// The q x q table of `value(x, y)` as a texture, equal values in equal colours.
pub(crate) fn table_texture(
    ctx: &egui::Context,
    name: &str,
    q: usize,
    value: impl Fn(usize, usize) -> u32,
) -> egui::TextureHandle {
    let mut image = egui::ColorImage::filled([q, q], egui::Color32::BLACK);
    for y in 0..q {
        for x in 0..q {
            let [r, g, b] = crate::games::grundy::value_colour(value(x, y), q as u32);
            image.pixels[y * q + x] = egui::Color32::from_rgb(r, g, b);
        }
    }
    ctx.load_texture(name, image, egui::TextureOptions::NEAREST)
}

/// The messages of a game: moves, explanations and refusals, newest last.
#[derive(Default)]
pub(crate) struct Log {
    lines: Vec<(String, bool)>,
}

/// The colour of a refused move.
pub(crate) const REFUSED: egui::Color32 = egui::Color32::from_rgb(255, 140, 120);

impl Log {
    pub fn new(first: impl Into<String>) -> Self {
        Self {
            lines: vec![(first.into(), false)],
        }
    }

    pub fn push(&mut self, line: impl Into<String>) {
        self.lines.push((line.into(), false));
    }

    /// Records a refusal and returns it as the error.
    pub fn refuse<T>(&mut self, why: impl Into<String>) -> Result<T, String> {
        let why = why.into();
        self.lines.push((why.clone(), true));
        Err(why)
    }

    pub fn clear(&mut self, first: impl Into<String>) {
        *self = Self::new(first);
    }

    /// The latest `shown` lines, oldest first, as a game record reads: the newest at the
    /// bottom, and the opening line gone once enough moves follow it.
    pub fn ui(&self, ui: &mut egui::Ui, shown: usize) {
        let from = self.lines.len().saturating_sub(shown);
        for (line, refused) in &self.lines[from..] {
            if *refused {
                ui.label(egui::RichText::new(line).color(REFUSED));
            } else {
                ui.label(egui::RichText::new(line).small());
            }
        }
    }

    pub fn lines(&self) -> Vec<&str> {
        self.lines.iter().map(|(l, _)| l.as_str()).collect()
    }

    pub fn last(&self) -> Option<&str> {
        self.lines.last().map(|(l, _)| l.as_str())
    }
}

/// An action's verb and its words.
pub(crate) fn split(action: &str) -> (String, Vec<&str>) {
    let mut words = action.split_whitespace();
    let verb = words.next().unwrap_or("").to_ascii_lowercase();
    (verb, words.collect())
}

/// A number typed by the user, or why it is not one.
pub(crate) fn number(what: &str, text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| format!("{what}: '{}' is not a whole number", text.trim()))
}

/// Heap `text` (counted from 1) among `count` heaps, as an index from 0.
pub(crate) fn heap_index(text: &str, count: usize) -> Result<usize, String> {
    let h = number("heap", text)?;
    if h == 0 || h > count as u64 {
        return Err(format!(
            "there is no heap {h}: the heaps are numbered 1 to {count}"
        ));
    }
    Ok(h as usize - 1)
}
