//! The game-tree tab: the tree of a small game (six matches by default) drawn as the textbook
//! draws it, with ranks, +/- labels and the strategy as arrows, in a pan-and-zoom scene; and a
//! match game to play against the computer, with the value of each move.

use eframe::egui;

use crate::app::panels::games::GameTab;
use crate::games::grundy::TakeSet;
use crate::games::matches::Matches;
use crate::games::tree::{self, Analysis, Outcome, Tree};

pub struct TreeTab {
    source: Source,
    notation: String,
    count: u64,
    take: String,
    misere: bool,
    built: Option<Result<(Tree, Analysis), String>>,
    scene: egui::Rect,
    play: Option<(Matches, u64)>,
    log: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Matches,
    Notation,
}

impl Default for TreeTab {
    fn default() -> Self {
        Self {
            source: Source::Matches,
            notation: "((+ -) (- -) (+ +))".into(),
            count: 6,
            take: "1..2".into(),
            misere: true,
            built: None,
            scene: egui::Rect::ZERO,
            play: None,
            log: Vec::new(),
        }
    }
}

impl TreeTab {
    fn game(&self) -> Result<Matches, String> {
        Ok(Matches {
            count: self.count,
            take: TakeSet::parse(&self.take).map_err(|e| e.to_string())?,
            misere: self.misere,
        })
    }

    fn build(&self) -> Result<(Tree, Analysis), String> {
        let t = match self.source {
            Source::Notation => Tree::parse(&self.notation).map_err(|e| e.to_string())?,
            Source::Matches => {
                let game = self.game()?;
                tree::build(&game, game.count, 5_000).map_err(|e| e.to_string())?
            }
        };
        let a = t.analyse();
        Ok((t, a))
    }
}

impl GameTab for TreeTab {
    fn title(&self) -> &'static str {
        "Game tree"
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        let mut changed = self.built.is_none();
        ui.horizontal(|ui| {
            changed |= ui
                .radio_value(&mut self.source, Source::Matches, "matches")
                .changed();
            changed |= ui
                .radio_value(&mut self.source, Source::Notation, "notation")
                .changed();
        });
        match self.source {
            Source::Matches => {
                ui.horizontal(|ui| {
                    changed |= ui
                        .add(egui::DragValue::new(&mut self.count).range(1..=40))
                        .changed();
                    ui.label("matches, take");
                    changed |= ui
                        .add(egui::TextEdit::singleline(&mut self.take).desired_width(50.0))
                        .changed();
                    changed |= ui.checkbox(&mut self.misere, "last one loses").changed();
                });
            }
            Source::Notation => {
                changed |= ui.text_edit_singleline(&mut self.notation).changed();
            }
        }
        if changed {
            self.built = Some(self.build());
            self.scene = egui::Rect::ZERO;
        }
        match self.built.as_ref().expect("built") {
            Err(e) => {
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
            Ok((t, a)) => {
                let verdict = match a.labels[0] {
                    Outcome::FirstWins => "the first player wins",
                    Outcome::SecondWins => "the second player wins",
                    Outcome::Draw => "a draw",
                };
                ui.label(format!(
                    "{} vertices, rank {}: {verdict}; arrows: the strategy (drag to pan, scroll to zoom)",
                    t.vertices.len(),
                    a.ranks[0]
                ));
                if t.vertices.len() > MAX_DRAWN_VERTICES {
                    ui.label(format!(
                        "Too large to draw (more than {MAX_DRAWN_VERTICES} vertices); \
                         `lifelab tree --json` lists every vertex."
                    ));
                    ui.separator();
                    self.play_ui(ui);
                    return;
                }
                let height = (ui.available_height() - 180.0).max(260.0);
                egui::Frame::canvas(ui.style()).show(ui, |ui| {
                    ui.set_height(height);
                    egui::Scene::new()
                        .zoom_range(0.05..=4.0)
                        .show(ui, &mut self.scene, |ui| draw_tree(ui, t, a));
                });
            }
        }
        ui.separator();
        self.play_ui(ui);
    }
}

impl TreeTab {
    fn play_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.heading("Play");
            if ui.button("New game (you first)").clicked()
                && let Ok(game) = self.game()
            {
                self.log = vec![format!(
                    "{} matches, take {}, the last one {}",
                    game.count,
                    game.take,
                    if game.misere { "loses" } else { "wins" }
                )];
                self.play = Some((game.clone(), game.count));
            }
        });
        let Some((game, left)) = &mut self.play else {
            return;
        };
        let wins = game.wins();
        ui.monospace(format!("{left:>3} left  {}", "|".repeat(*left as usize)));
        let mut chosen = None;
        ui.horizontal_wrapped(|ui| {
            for a in game.take.amounts(*left) {
                let value = if wins[(*left - a) as usize] {
                    "loses"
                } else {
                    "wins"
                };
                if ui
                    .button(format!("take {a}"))
                    .on_hover_text(format!("with best play this move {value}"))
                    .clicked()
                {
                    chosen = Some(a);
                }
            }
        });
        if let Some(a) = chosen {
            *left -= a;
            self.log.push(format!("you take {a}, {left} left"));
            if game.take.amounts(*left).is_empty() {
                self.log.push(end_message(game.misere, true));
            } else {
                let options = game.take.amounts(*left);
                let best = options
                    .iter()
                    .copied()
                    .find(|&b| !wins[(*left - b) as usize]);
                let (b, why) = match best {
                    Some(b) => (b, format!("leaves {}, a lost count for you", *left - b)),
                    None => (
                        options[0],
                        "every move loses against best play; taking the least keeps the game long"
                            .into(),
                    ),
                };
                *left -= b;
                self.log
                    .push(format!("the computer takes {b}: {why}; {left} left"));
                if game.take.amounts(*left).is_empty() {
                    self.log.push(end_message(game.misere, false));
                }
            }
        }
        for line in self.log.iter().rev().take(6) {
            ui.label(egui::RichText::new(line).small());
        }
    }
}

fn end_message(misere: bool, you_moved_last: bool) -> String {
    let you_win = you_moved_last != misere;
    if you_win {
        "game over: you win".into()
    } else {
        "game over: the computer wins".into()
    }
}

/// The largest tree drawn: the drawing is redone every frame.
const MAX_DRAWN_VERTICES: usize = 5_000;

/// A tidy layout: leaves side by side, each vertex above the middle of its children.
fn layout(t: &Tree) -> Vec<egui::Pos2> {
    let n = t.vertices.len();
    let mut x = vec![0f32; n];
    let mut next_leaf = 0f32;
    // Leaves in depth-first order get consecutive columns.
    let mut order = Vec::with_capacity(n);
    let mut stack = vec![0usize];
    while let Some(v) = stack.pop() {
        order.push(v);
        stack.extend(t.vertices[v].children.iter().rev());
    }
    for &v in &order {
        if t.vertices[v].children.is_empty() {
            x[v] = next_leaf;
            next_leaf += 1.0;
        }
    }
    for &v in order.iter().rev() {
        let c = &t.vertices[v].children;
        if !c.is_empty() {
            x[v] = (x[c[0]] + x[c[c.len() - 1]]) / 2.0;
        }
    }
    (0..n)
        .map(|v| egui::pos2(x[v] * 46.0, t.vertices[v].depth as f32 * 70.0))
        .collect()
}

fn draw_tree(ui: &mut egui::Ui, t: &Tree, a: &Analysis) {
    let pos = layout(t);
    let max = pos.iter().fold(egui::Pos2::ZERO, |m, p| m.max(*p));
    let (rect, _) =
        ui.allocate_exact_size(max.to_vec2() + egui::vec2(60.0, 60.0), egui::Sense::hover());
    let origin = rect.min.to_vec2() + egui::vec2(30.0, 30.0);
    let painter = ui.painter();
    let arrows: std::collections::HashSet<(usize, usize)> = a.strategy.iter().copied().collect();
    for (v, vx) in t.vertices.iter().enumerate() {
        for &c in &vx.children {
            let (from, to) = (pos[v] + origin, pos[c] + origin);
            if arrows.contains(&(v, c)) {
                let dir = (to - from).normalized();
                painter.arrow(
                    from + dir * 14.0,
                    (to - from) - dir * 28.0,
                    egui::Stroke::new(3.0, egui::Color32::from_rgb(255, 170, 40)),
                );
            } else {
                painter.line_segment([from, to], egui::Stroke::new(1.0, egui::Color32::GRAY));
            }
            if !t.vertices[c].label.is_empty() {
                painter.text(
                    from + (to - from) * 0.5 + egui::vec2(4.0, 0.0),
                    egui::Align2::LEFT_CENTER,
                    t.vertices[c].label.trim_start_matches("take "),
                    egui::FontId::proportional(10.0),
                    egui::Color32::LIGHT_GRAY,
                );
            }
        }
    }
    for (v, vx) in t.vertices.iter().enumerate() {
        let p = pos[v] + origin;
        let colour = match a.labels[v] {
            Outcome::FirstWins => egui::Color32::from_rgb(60, 160, 80),
            Outcome::SecondWins => egui::Color32::from_rgb(190, 60, 60),
            Outcome::Draw => egui::Color32::from_rgb(120, 120, 140),
        };
        if vx.leaf.is_some() {
            painter.rect_filled(
                egui::Rect::from_center_size(p, egui::vec2(20.0, 20.0)),
                3.0,
                colour,
            );
        } else {
            painter.circle_filled(p, 12.0, colour);
            // The rank, beside the vertex.
            painter.text(
                p + egui::vec2(-16.0, -14.0),
                egui::Align2::RIGHT_CENTER,
                a.ranks[v].to_string(),
                egui::FontId::proportional(10.0),
                egui::Color32::from_rgb(140, 180, 255),
            );
        }
        painter.text(
            p,
            egui::Align2::CENTER_CENTER,
            a.labels[v].symbol().to_string(),
            egui::FontId::monospace(14.0),
            egui::Color32::WHITE,
        );
    }
}
