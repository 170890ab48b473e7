//! egui's fonts, with a fallback for the few symbols its defaults lack that lifelab's own file
//! dialog (egui_file) draws: folders, a file, a disk, and the up and refresh arrows. Without
//! it they show as empty boxes.

use eframe::egui;

/// A 2 KB subset of Symbola (see `assets/fonts/README.md`).
const FILE_ICONS: &[u8] = include_bytes!("../../assets/fonts/file-icons.ttf");

pub fn install(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    fonts.font_data.insert(
        "file-icons".into(),
        std::sync::Arc::new(egui::FontData::from_static(FILE_ICONS)),
    );
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        // Last: egui's own fonts still draw everything they have.
        fonts
            .families
            .entry(family)
            .or_default()
            .push("file-icons".into());
    }
    ctx.set_fonts(fonts);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every symbol egui_file 0.29 draws that is not ASCII.
    const FILE_DIALOG_SYMBOLS: &str = "⟲⬆💾📁📂🗀🗋";

    fn has_all(ctx: &egui::Context) -> bool {
        let _ = ctx.run_ui(Default::default(), |_| {});
        ctx.fonts_mut(|f| {
            f.has_glyphs(&egui::FontId::proportional(14.0), FILE_DIALOG_SYMBOLS)
                && f.has_glyphs(&egui::FontId::monospace(14.0), FILE_DIALOG_SYMBOLS)
        })
    }

    #[test]
    fn the_file_dialogs_symbols_have_glyphs() {
        // egui's default fonts lack them (the boxes the issue saw), and the fallback has them.
        assert!(!has_all(&egui::Context::default()));
        let ctx = egui::Context::default();
        install(&ctx);
        assert!(has_all(&ctx));
    }
}
