//! The games side panel: a frame of tabs, each owned by one game solver's UI.

use eframe::egui;

/// One tab of the games panel.
pub trait GameTab {
    fn title(&self) -> &'static str;
    fn ui(&mut self, ui: &mut egui::Ui);
}

pub struct GamesPanel {
    selected: usize,
    tabs: Vec<Box<dyn GameTab>>,
}

impl GamesPanel {
    pub fn new(tabs: Vec<Box<dyn GameTab>>) -> Self {
        Self { selected: 0, tabs }
    }

    /// Selects a tab by (part of) its title, ignoring case, spaces and dashes: `tree`,
    /// `tictactoe`.
    pub fn select(&mut self, title: &str) {
        let key = |s: &str| {
            s.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect::<String>()
        };
        let want = key(title);
        if let Some(i) = self
            .tabs
            .iter()
            .position(|t| key(t.title()).contains(&want))
        {
            self.selected = i;
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            for (i, tab) in self.tabs.iter().enumerate() {
                if ui
                    .selectable_label(self.selected == i, tab.title())
                    .clicked()
                {
                    self.selected = i;
                }
            }
        });
        ui.separator();
        if let Some(tab) = self.tabs.get_mut(self.selected) {
            egui::ScrollArea::vertical().show(ui, |ui| tab.ui(ui));
        }
    }
}
