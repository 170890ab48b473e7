//! The tabs of the games panel, one per game solver. The solvers live in `crate::games`; these
//! only show them and let the user play.

mod grundy;
mod nim;
mod tictactoe;
mod tree;

use eframe::egui;

use super::panels::games::GameTab;

pub fn tabs() -> Vec<Box<dyn GameTab>> {
    vec![
        Box::new(nim::NimTab::default()),
        Box::new(grundy::GrundyTab::default()),
        Box::new(tree::TreeTab::default()),
        Box::new(tictactoe::TicTacToeTab::default()),
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
