//! The games side panel: a frame of tabs, each owned by one game solver's UI.

use eframe::egui;

/// One tab of the games panel.
pub trait GameTab {
    fn title(&self) -> &'static str;

    /// Other names `--games-tab` takes for this tab.
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    fn ui(&mut self, ui: &mut egui::Ui);

    /// One action in words, such as `take 2 3`: what a click does, for `--games-do` (to show a
    /// state in a screenshot) and for the tests. A move that is not legal is refused with the
    /// message the tab also shows.
    fn act(&mut self, action: &str) -> Result<(), String> {
        Err(format!(
            "unknown action '{action}': the {} tab takes none",
            self.title()
        ))
    }

    /// What the tab shows, for the tests: its position, the last messages, what is
    /// highlighted.
    fn state(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
}

pub struct GamesPanel {
    selected: usize,
    tabs: Vec<Box<dyn GameTab>>,
}

/// A title or name reduced to letters and digits, lower case: `Tic-tac-toe` is `tictactoe`.
fn key(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

impl GamesPanel {
    pub fn new(tabs: Vec<Box<dyn GameTab>>) -> Self {
        Self { selected: 0, tabs }
    }

    /// Selects a tab by (part of) its title or an alias, ignoring case, spaces and dashes:
    /// `tree`, `tictactoe`, `kqk`. Whole titles and aliases win over parts.
    pub fn select(&mut self, title: &str) -> bool {
        let want = key(title);
        let exact = self
            .tabs
            .iter()
            .position(|t| key(t.title()) == want || t.aliases().iter().any(|a| key(a) == want));
        let part = || {
            self.tabs
                .iter()
                .position(|t| key(t.title()).contains(&want))
        };
        match exact.or_else(part) {
            Some(i) => {
                self.selected = i;
                true
            }
            None => false,
        }
    }

    pub fn selected(&mut self) -> Option<&mut Box<dyn GameTab>> {
        self.tabs.get_mut(self.selected)
    }

    /// Whether an error of `act` is an action the tab does not know (rather than a move it
    /// refused).
    pub fn is_unknown(error: &str) -> bool {
        error.starts_with("unknown action")
    }

    /// Actions separated by ';' on the selected tab. A refused move is shown in the tab and
    /// the script goes on; an action the tab does not know stops it. The first error is
    /// returned.
    pub fn act(&mut self, script: &str) -> Result<(), String> {
        let Some(tab) = self.tabs.get_mut(self.selected) else {
            return Err("no games tab".into());
        };
        let mut first = Ok(());
        for action in script.split(';').map(str::trim).filter(|a| !a.is_empty()) {
            if let Err(e) = tab.act(action) {
                let unknown = Self::is_unknown(&e);
                if first.is_ok() || unknown {
                    first = Err(e);
                }
                if unknown {
                    break;
                }
            }
        }
        first
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
