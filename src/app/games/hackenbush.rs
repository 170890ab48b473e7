//! The Hackenbush tab: a Green Hackenbush picture typed as edges, drawn standing on the ground;
//! its value (trees by the colon principle, cycles by the fusion principle), the winning cuts,
//! and a game against the computer, cutting edges by clicking them.

use eframe::egui;

use super::{Log, number, split};
use crate::app::panels::games::GameTab;
use crate::games::hackenbush::Hackenbush;

pub struct HackenbushTab {
    text: String,
    parsed: Option<(String, Result<Hackenbush, String>)>,
    /// The picture being played and the edges still standing.
    play: Option<(Hackenbush, Vec<bool>)>,
    over: bool,
    hints: bool,
    log: Log,
}

impl Default for HackenbushTab {
    fn default() -> Self {
        Self {
            // A tree worth 1 + (1 XOR 2) = 4, a triangle on a stalk (2) and a stalk of two (2):
            // 4 XOR 2 XOR 2 = 4, and the one winning cut is the tree's root edge.
            text: "# one edge per line; g is the ground\ng a\na b\na c\nc d\ng e\ne f\nf h\nh e\ng k\nk m\n"
                .into(),
            parsed: None,
            play: None,
            over: false,
            hints: true,
            log: Log::default(),
        }
    }
}

/// An edge as the drawing numbers it (from 1), with its ends.
fn edge(h: &Hackenbush, e: usize) -> String {
    let (a, b) = h.edges[e].ends;
    format!("edge {} ({}–{})", e + 1, h.names[a], h.names[b])
}

impl HackenbushTab {
    fn picture(&mut self) -> &Result<Hackenbush, String> {
        if self.parsed.as_ref().is_none_or(|(t, _)| *t != self.text) {
            let r = Hackenbush::parse(&self.text).map_err(|e| e.to_string());
            self.parsed = Some((self.text.clone(), r));
        }
        &self.parsed.as_ref().expect("just set").1
    }

    fn new_game(&mut self) -> Result<(), String> {
        let h = self.picture().clone()?;
        let alive = h.grounded(&h.all());
        self.play = Some((h, alive));
        self.over = false;
        self.log
            .clear("you move first: click an edge to cut it; whoever cuts the last edge wins");
        Ok(())
    }

    /// Cuts edge `e` (counted from 0), then the computer answers.
    fn cut(&mut self, e: usize) -> Result<(), String> {
        let Some((h, alive)) = &self.play else {
            return self.log.refuse("start a game first (Play)");
        };
        if self.over {
            return self.log.refuse("the game is over: start a new one");
        }
        if e >= h.edges.len() {
            return self.log.refuse(format!(
                "there is no edge {}: the edges are numbered 1 to {}",
                e + 1,
                h.edges.len()
            ));
        }
        if !alive[e] {
            return self.log.refuse(format!("{} is already gone", edge(h, e)));
        }
        let (h, mut alive) = (h.clone(), alive.clone());
        alive = h.cut(&alive, e);
        self.log.push(format!(
            "you cut {}; value now {}",
            edge(&h, e),
            h.value(&alive)
        ));
        if !alive.contains(&true) {
            self.log.push("you cut the last edge: you win");
            self.over = true;
            self.play = Some((h, alive));
            return Ok(());
        }
        let winning = h.cuts_to(&alive, 0);
        let (reply, why) = match winning.first() {
            Some(&w) => (w, "it leaves value 0, a lost position for you".to_string()),
            None => {
                // Lost: the cut that keeps the most edges standing keeps the game long.
                let best = (0..alive.len())
                    .filter(|&i| alive[i])
                    .max_by_key(|&i| h.cut(&alive, i).iter().filter(|&&a| a).count())
                    .expect("an edge stands");
                (best, "every cut loses against best play".to_string())
            }
        };
        alive = h.cut(&alive, reply);
        self.log
            .push(format!("the computer cuts {}; {why}", edge(&h, reply)));
        if !alive.contains(&true) {
            self.log.push("the computer cut the last edge: it wins");
            self.over = true;
        }
        self.play = Some((h, alive));
        Ok(())
    }
}

impl GameTab for HackenbushTab {
    fn title(&self) -> &'static str {
        "Hackenbush"
    }

    fn act(&mut self, action: &str) -> Result<(), String> {
        let (verb, w) = split(action);
        match (verb.as_str(), w.as_slice()) {
            ("picture", _) => {
                // Edges separated by ';' as on the command line.
                self.text = w.join(" ").replace(';', "\n");
                Ok(())
            }
            ("play", []) => self.new_game().or_else(|e| self.log.refuse(e)),
            ("cut", [n]) => {
                let n = number("edge", n).or_else(|e| self.log.refuse(e))?;
                if n == 0 {
                    return self.log.refuse("the edges are numbered from 1");
                }
                self.cut(n as usize - 1)
            }
            ("hints", [on]) => {
                self.hints = *on != "off";
                Ok(())
            }
            _ => Err(format!(
                "unknown action '{action}': the Hackenbush tab takes 'picture g a; a b', 'play', 'cut EDGE' \
                 (numbered from 1), 'hints on|off'"
            )),
        }
    }

    fn state(&self) -> serde_json::Value {
        serde_json::json!({
            "standing": self.play.as_ref().map(|(_, a)| a.iter().filter(|&&x| x).count()),
            "value": self.play.as_ref().map(|(h, a)| h.value(a)),
            "over": self.over,
            "log": self.log.lines(),
        })
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.label("the picture: one edge per line, its two ends; g is the ground");
        ui.add(
            egui::TextEdit::multiline(&mut self.text)
                .desired_rows(5)
                .code_editor(),
        );
        let h = match self.picture() {
            Ok(h) => h.clone(),
            Err(e) => {
                ui.colored_label(super::REFUSED, e.clone());
                return;
            }
        };
        let (shown, alive) = match &self.play {
            Some((p, a)) => (p.clone(), a.clone()),
            None => {
                let a = h.grounded(&h.all());
                (h, a)
            }
        };
        let value = shown.value(&alive);
        let winning = if value == 0 {
            Vec::new()
        } else {
            shown.cuts_to(&alive, 0)
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(format!(
                "value {value}: {}",
                if value == 0 {
                    "the player to move loses"
                } else {
                    "the player to move wins"
                }
            ));
            if ui.button("Play").clicked() {
                let _ = self.act("play");
            }
            ui.checkbox(&mut self.hints, "show the winning cuts (in gold)");
        });
        if !winning.is_empty() {
            let w: Vec<String> = winning.iter().map(|&e| edge(&shown, e)).collect();
            ui.label(format!("winning cuts: {}", w.join(", ")));
        }
        let clicked = draw(ui, &shown, &alive, if self.hints { &winning } else { &[] });
        if let Some(e) = clicked
            && self.play.is_some()
        {
            let _ = self.act(&format!("cut {}", e + 1));
        }
        if self.play.is_some() {
            self.log.ui(ui, 6);
        }
    }
}

/// Where each vertex is drawn: the ground's neighbours spread along the ground line, each vertex
/// above its parent in a breadth-first tree, leaves side by side.
fn layout(h: &Hackenbush) -> Vec<egui::Pos2> {
    let n = h.names.len();
    let mut adj = vec![Vec::new(); n];
    for e in &h.edges {
        adj[e.ends.0].push(e.ends.1);
        adj[e.ends.1].push(e.ends.0);
    }
    let mut depth = vec![usize::MAX; n];
    let mut children = vec![Vec::new(); n];
    depth[0] = 0;
    let mut queue = std::collections::VecDeque::from([0usize]);
    while let Some(v) = queue.pop_front() {
        for &w in &adj[v] {
            if depth[w] == usize::MAX {
                depth[w] = depth[v] + 1;
                children[v].push(w);
                queue.push_back(w);
            }
        }
    }
    // Vertices off the ground hang from it, drawn a level higher.
    for (v, d) in depth.iter_mut().enumerate().skip(1) {
        if *d == usize::MAX {
            *d = 1;
            children[0].push(v);
        }
    }
    let mut x = vec![0f32; n];
    let mut next = 0f32;
    let mut order = Vec::new();
    let mut stack = vec![0usize];
    while let Some(v) = stack.pop() {
        order.push(v);
        stack.extend(children[v].iter().rev());
    }
    for &v in &order {
        if children[v].is_empty() {
            x[v] = next;
            next += 1.0;
        }
    }
    for &v in order.iter().rev() {
        if let [first, .., last] | [first @ last] = children[v].as_slice() {
            x[v] = (x[*first] + x[*last]) / 2.0;
        }
    }
    (0..n)
        .map(|v| egui::pos2(x[v] * 40.0, -(depth[v] as f32) * 50.0))
        .collect()
}

/// Draws the picture; returns the edge clicked, if any.
fn draw(ui: &mut egui::Ui, h: &Hackenbush, alive: &[bool], winning: &[usize]) -> Option<usize> {
    let mut pos = layout(h);
    let (min, max) = pos
        .iter()
        .fold((pos[0], pos[0]), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    // Never wider than the panel: a wide picture is drawn smaller.
    let available = ui.available_width().max(100.0);
    let scale = (available / (max.x - min.x + 80.0)).min(1.0);
    for p in &mut pos {
        *p = egui::pos2((p.x - min.x) * scale + min.x, p.y * scale);
    }
    let size = egui::vec2(available, (max.y - min.y) * scale + 70.0);
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click());
    let painter = ui.painter_at(rect);
    let ground_y = rect.max.y - 20.0;
    let origin = egui::pos2(rect.min.x + 40.0 - min.x, ground_y);
    let at = |v: usize, other: usize| {
        // The ground is a line: an edge meets it below its other end.
        if v == 0 {
            egui::pos2(pos[other].x + origin.x, ground_y)
        } else {
            pos[v] + origin.to_vec2()
        }
    };
    painter.line_segment(
        [
            egui::pos2(rect.min.x, ground_y),
            egui::pos2(rect.max.x, ground_y),
        ],
        egui::Stroke::new(3.0, egui::Color32::from_rgb(120, 90, 60)),
    );
    let mut nearest: Option<(usize, f32)> = None;
    let pointer = response.interact_pointer_pos();
    for (i, e) in h.edges.iter().enumerate() {
        let (colour, width) = if !alive[i] {
            (egui::Color32::from_gray(70), 1.0)
        } else if winning.contains(&i) {
            (egui::Color32::from_rgb(255, 200, 40), 4.0)
        } else {
            (egui::Color32::from_rgb(60, 170, 70), 3.0)
        };
        let stroke = egui::Stroke::new(width, colour);
        let (a, b) = (at(e.ends.0, e.ends.1), at(e.ends.1, e.ends.0));
        let (mid, dist) = if e.ends.0 == e.ends.1 {
            // A loop: a small circle above its vertex.
            let c = a + egui::vec2(0.0, -12.0);
            painter.circle_stroke(c, 10.0, stroke);
            (c, pointer.map(|p| (p.distance(c) - 10.0).abs()))
        } else {
            painter.line_segment([a, b], stroke);
            let seg = b - a;
            let d = pointer.map(|p| {
                let t = ((p - a).dot(seg) / seg.length_sq().max(1e-3)).clamp(0.0, 1.0);
                p.distance(a + seg * t)
            });
            (a + seg * 0.5, d)
        };
        // Beside a steep edge, above a flat one.
        let flat = (b - a).x.abs() > (b - a).y.abs();
        painter.text(
            mid + if flat {
                egui::vec2(0.0, -9.0)
            } else {
                egui::vec2(6.0, 0.0)
            },
            if flat {
                egui::Align2::CENTER_CENTER
            } else {
                egui::Align2::LEFT_CENTER
            },
            (i + 1).to_string(),
            egui::FontId::proportional(10.0),
            egui::Color32::GRAY,
        );
        if let Some(d) = dist
            && alive[i]
            && d < 8.0
            && nearest.is_none_or(|(_, best)| d < best)
        {
            nearest = Some((i, d));
        }
    }
    for p in &pos[1..] {
        painter.circle_filled(*p + origin.to_vec2(), 4.0, egui::Color32::from_gray(220));
    }
    if response.clicked() {
        nearest.map(|(i, _)| i)
    } else {
        None
    }
}
