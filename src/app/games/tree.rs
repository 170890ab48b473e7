//! The game-tree tab: the tree of a small game (six matches by default) drawn as the textbook
//! draws it, with +/- labels, both ranks and the strategy as arrows, in a pan-and-zoom scene;
//! and a match game to play against the computer, with the value of each move and the current
//! position ringed in the tree.
//!
//! Each vertex shows its label and, under it, its rank (the longest play from it) inside the
//! disc, where no arrow reaches; the levels (the seed's rank from the root, 1 at the root) are
//! numbered down the left side.

use eframe::egui;

use super::{Log, number, split};
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
    /// The match game the built tree is of (none for a tree in notation).
    built_game: Option<Matches>,
    scene: egui::Rect,
    play: Option<(Matches, u64)>,
    /// The amounts taken so far, yours and the computer's.
    played: Vec<u64>,
    /// Where the game in progress is in the tree, when the tree is of the same game.
    current: Option<usize>,
    log: Log,
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
            built_game: None,
            scene: egui::Rect::ZERO,
            play: None,
            played: Vec::new(),
            current: None,
            log: Log::default(),
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

    fn rebuild(&mut self) {
        let (built, game) = match self.source {
            Source::Notation => (Tree::parse(&self.notation).map_err(|e| e.to_string()), None),
            Source::Matches => match self.game() {
                Ok(game) => (
                    tree::build(&game, game.count, MAX_DRAWN_VERTICES).map_err(|e| e.to_string()),
                    Some(game),
                ),
                Err(e) => (Err(e), None),
            },
        };
        self.built = Some(built.map(|t| {
            let a = t.analyse();
            (t, a)
        }));
        self.built_game = game;
        self.scene = egui::Rect::ZERO;
        self.follow();
    }

    /// Finds the game in progress in the tree: from the root, follow each move made.
    fn follow(&mut self) {
        self.current = None;
        let (Some((game, _)), Some(Ok((t, _)))) = (&self.play, &self.built) else {
            return;
        };
        if self.built_game.as_ref() != Some(game) {
            return;
        }
        let mut v = 0;
        for a in &self.played {
            let label = format!("take {a}");
            match t.vertices[v]
                .children
                .iter()
                .find(|&&c| t.vertices[c].label == label)
            {
                Some(&c) => v = c,
                None => return,
            }
        }
        self.current = Some(v);
    }

    fn new_game(&mut self) -> Result<(), String> {
        let game = self.game()?;
        self.log.clear(format!(
            "{} matches, take {}, the last one {}",
            game.count,
            game.take,
            if game.misere { "loses" } else { "wins" }
        ));
        self.play = Some((game.clone(), game.count));
        self.played.clear();
        self.follow();
        Ok(())
    }

    /// Your move: take `a`, then the computer's.
    fn take(&mut self, a: u64) -> Result<(), String> {
        let Some((game, left)) = &mut self.play else {
            return self.log.refuse("start a game first (New game)");
        };
        let options = game.take.amounts(*left);
        if options.is_empty() {
            return self.log.refuse("the game is over: start a new one");
        }
        if !options.contains(&a) {
            let why = format!(
                "{left} left and the take-set is {}: you cannot take {a}",
                game.take
            );
            return self.log.refuse(why);
        }
        let wins = game.wins();
        *left -= a;
        self.played.push(a);
        let mut lines = vec![format!("you take {a}, {left} left")];
        if game.take.amounts(*left).is_empty() {
            lines.push(end_message(game.misere, true));
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
            self.played.push(b);
            lines.push(format!("the computer takes {b}: {why}; {left} left"));
            if game.take.amounts(*left).is_empty() {
                lines.push(end_message(game.misere, false));
            }
        }
        for l in lines {
            self.log.push(l);
        }
        self.follow();
        Ok(())
    }
}

impl GameTab for TreeTab {
    fn title(&self) -> &'static str {
        "Game tree"
    }

    fn act(&mut self, action: &str) -> Result<(), String> {
        let (verb, w) = split(action);
        match (verb.as_str(), w.as_slice()) {
            ("matches", [count, take]) => {
                self.source = Source::Matches;
                self.count = number("matches", count)?;
                self.take = take.to_string();
                self.rebuild();
                Ok(())
            }
            ("notation", _) => {
                self.source = Source::Notation;
                self.notation = w.join(" ");
                self.rebuild();
                Ok(())
            }
            ("misere", [on]) => {
                self.misere = *on != "off";
                self.rebuild();
                Ok(())
            }
            ("new", []) => {
                if self.built.is_none() {
                    self.rebuild();
                }
                self.new_game().or_else(|e| self.log.refuse(e))
            }
            ("take", [a]) => {
                let a = number("amount", a).or_else(|e| self.log.refuse(e))?;
                self.take(a)
            }
            _ => Err(format!(
                "unknown action '{action}': the tree tab takes 'matches COUNT TAKE', 'notation TREE', 'misere \
                 on|off', 'new', 'take AMOUNT'"
            )),
        }
    }

    fn state(&self) -> serde_json::Value {
        let geometry = match &self.built {
            Some(Ok((t, a))) if t.vertices.len() <= MAX_DRAWN_VERTICES => Some(drawing(t, a)),
            _ => None,
        };
        serde_json::json!({
            "left": self.play.as_ref().map(|(_, l)| *l),
            "current_vertex": self.current,
            "current_path": match (&self.built, self.current) {
                (Some(Ok((t, _))), Some(v)) => Some(t.path(v)),
                _ => None,
            },
            // Arrowheads that would fall on a rank label, and the highlighted vertex's ring.
            "arrowheads_on_labels": geometry.as_ref().map(|g| g.tips_on_labels()),
            "rank_labels": geometry.as_ref().map(|g| g.labels.len()),
            "log": self.log.lines(),
        })
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
            self.rebuild();
        }
        match self.built.as_ref().expect("built") {
            Err(e) => {
                ui.colored_label(super::REFUSED, e);
            }
            Ok((t, a)) => {
                let verdict = match a.labels[0] {
                    Outcome::FirstWins => "the first player wins",
                    Outcome::SecondWins => "the second player wins",
                    Outcome::Draw => "a draw",
                };
                ui.label(format!(
                    "{} vertices, rank {}: {verdict}. In each disc: the label and the rank (the \
                     longest play from it); on the left: the levels (the root is 1, odd levels \
                     are the first player's). Arrows: the strategy{}. Drag to pan, scroll to zoom.",
                    t.vertices.len(),
                    a.ranks[0],
                    if a.strategies.len() > 1 {
                        " of each player (orange: the first's, violet: the second's)"
                    } else {
                        ""
                    }
                ));
                let height = (ui.available_height() - 180.0).max(260.0);
                let current = self.current;
                egui::Frame::canvas(ui.style()).show(ui, |ui| {
                    ui.set_height(height);
                    egui::Scene::new()
                        .zoom_range(0.05..=4.0)
                        .show(ui, &mut self.scene, |ui| draw_tree(ui, t, a, current));
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
            if ui.button("New game (you first)").clicked() {
                let _ = self.act("new");
            }
        });
        if let Some((game, left)) = &self.play {
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
                let _ = self.act(&format!("take {a}"));
            }
            if self.current.is_some() {
                ui.label("the ringed vertex is where the game stands");
            }
        }
        self.log.ui(ui, 6);
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

/// The disc of a vertex; arrows stop short of it.
const RADIUS: f32 = 13.0;
const GAP: f32 = 3.0;
/// Between leaves side by side, and between levels.
const ACROSS: f32 = 31.0;
const DOWN: f32 = 58.0;
/// Room on the left for the levels' numbers.
const MARGIN: f32 = 44.0;

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
        .map(|v| {
            egui::pos2(
                x[v] * ACROSS + MARGIN + RADIUS,
                t.vertices[v].depth as f32 * DOWN + 30.0,
            )
        })
        .collect()
}

/// Where everything goes, in scene coordinates: computed once for painting and for the tests.
struct Drawing {
    pos: Vec<egui::Pos2>,
    /// Each strategy arrow: its start, its tip, and whose it is (0: the first strategy).
    arrows: Vec<(egui::Pos2, egui::Pos2, usize)>,
    /// Per vertex with a rank shown: the rank's text box.
    labels: Vec<(usize, egui::Rect)>,
    size: egui::Vec2,
}

impl Drawing {
    /// Arrowheads (the last 8 points of an arrow) that touch a rank label.
    fn tips_on_labels(&self) -> usize {
        self.arrows
            .iter()
            .filter(|(from, tip, _)| {
                let dir = (*tip - *from).normalized();
                self.labels
                    .iter()
                    .any(|(_, r)| (0..=8).any(|k| r.expand(1.0).contains(*tip - dir * k as f32)))
            })
            .count()
    }
}

fn drawing(t: &Tree, a: &Analysis) -> Drawing {
    let pos = layout(t);
    let max = pos.iter().fold(egui::Pos2::ZERO, |m, p| m.max(*p));
    let mut arrows = Vec::new();
    for (k, s) in a.strategies.iter().enumerate() {
        for &(v, c) in &s.arrows {
            let (from, to) = (pos[v], pos[c]);
            let dir = (to - from).normalized();
            arrows.push((from + dir * RADIUS, to - dir * (RADIUS + GAP), k));
        }
    }
    let labels = (0..t.vertices.len())
        .filter(|&v| t.vertices[v].leaf.is_none())
        .map(|v| {
            (
                v,
                egui::Rect::from_center_size(pos[v] + egui::vec2(0.0, 5.5), egui::vec2(14.0, 9.0)),
            )
        })
        .collect();
    Drawing {
        pos,
        arrows,
        labels,
        size: max.to_vec2() + egui::vec2(RADIUS + 8.0, RADIUS + 8.0),
    }
}

fn draw_tree(ui: &mut egui::Ui, t: &Tree, a: &Analysis, current: Option<usize>) {
    let d = drawing(t, a);
    let (rect, _) = ui.allocate_exact_size(d.size, egui::Sense::hover());
    let origin = rect.min.to_vec2();
    let painter = ui.painter();
    let colours = [
        egui::Color32::from_rgb(255, 170, 40),
        egui::Color32::from_rgb(190, 120, 255),
    ];
    for (v, vx) in t.vertices.iter().enumerate() {
        for &c in &vx.children {
            let (from, to) = (d.pos[v] + origin, d.pos[c] + origin);
            painter.line_segment([from, to], egui::Stroke::new(1.0, egui::Color32::GRAY));
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
    for &(from, tip, k) in &d.arrows {
        painter.arrow(
            from + origin,
            tip - from,
            egui::Stroke::new(3.0, colours[k % 2]),
        );
    }
    // The levels, down the left side.
    let depth = t.vertices.iter().map(|v| v.depth).max().unwrap_or(0);
    let level_colour = egui::Color32::from_rgb(140, 180, 255);
    painter.text(
        rect.min + egui::vec2(4.0, 8.0),
        egui::Align2::LEFT_CENTER,
        "level",
        egui::FontId::proportional(11.0),
        level_colour,
    );
    for level in 0..=depth {
        painter.text(
            egui::pos2(rect.min.x + 14.0, rect.min.y + level as f32 * DOWN + 30.0),
            egui::Align2::CENTER_CENTER,
            format!("{}", level + 1),
            egui::FontId::proportional(13.0),
            level_colour,
        );
    }
    for (v, vx) in t.vertices.iter().enumerate() {
        let p = d.pos[v] + origin;
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
            painter.text(
                p,
                egui::Align2::CENTER_CENTER,
                a.labels[v].symbol().to_string(),
                egui::FontId::monospace(14.0),
                egui::Color32::WHITE,
            );
        } else {
            painter.circle_filled(p, RADIUS, colour);
            painter.text(
                p + egui::vec2(0.0, -4.5),
                egui::Align2::CENTER_CENTER,
                a.labels[v].symbol().to_string(),
                egui::FontId::monospace(14.0),
                egui::Color32::WHITE,
            );
        }
        if current == Some(v) {
            painter.circle_stroke(
                p,
                RADIUS + 5.0,
                egui::Stroke::new(3.0, egui::Color32::from_rgb(255, 255, 90)),
            );
        }
    }
    // The ranks, inside the discs, over everything.
    for &(v, r) in &d.labels {
        painter.text(
            r.center() + origin,
            egui::Align2::CENTER_CENTER,
            a.ranks[v].to_string(),
            egui::FontId::proportional(10.0),
            egui::Color32::from_rgb(255, 240, 150),
        );
    }
}
