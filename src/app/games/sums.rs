//! The Sums tab: a position made of different games (Nim heaps, octal and subtraction games,
//! Wythoff, Hackenbush pictures and games given by their move graph, read from files), its
//! value, every winning move as "component k, move m", and a game against the computer in normal
//! or misère play.

use eframe::egui;

use super::{Log, number, split};
use crate::app::panels::games::GameTab;
use crate::games::misere::SEARCH_LIMIT;
use crate::games::sum::{self, Component};

pub struct SumsTab {
    text: String,
    misere: bool,
    play: Option<Vec<Component>>,
    over: bool,
    log: Log,
}

impl Default for SumsTab {
    fn default() -> Self {
        Self {
            text: "3\nkayles:5\nwythoff:1,2\nsub:1,3,4:6".into(),
            misere: false,
            play: None,
            over: false,
            log: Log::default(),
        }
    }
}

/// The most moves of one component shown as buttons.
const MAX_BUTTONS: usize = 40;

fn parse(text: &str) -> Result<Vec<Component>, String> {
    let mut read = |path: &str| std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"));
    let components = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .enumerate()
        .map(|(k, l)| {
            Component::parse(l, &mut read).map_err(|e| format!("component {} '{l}': {e}", k + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if components.is_empty() {
        return Err("type the components, one per line, like kayles:5".into());
    }
    Ok(components)
}

/// The winning moves as (component, text, component after).
fn winning(
    components: &[Component],
    misere: bool,
) -> Result<(bool, bool, Vec<sum::SumMove>), String> {
    if misere {
        let r = sum::analyse_misere(components, SEARCH_LIMIT)?;
        Ok((r.first_player_wins, r.draw, r.winning_moves))
    } else {
        let r = sum::analyse(components)?;
        Ok((r.first_player_wins, r.draw, r.winning_moves))
    }
}

impl SumsTab {
    fn new_game(&mut self) -> Result<(), String> {
        let components = parse(&self.text)?;
        self.play = Some(components);
        self.over = false;
        self.log.clear(format!(
            "you move first ({} play: whoever cannot move {})",
            if self.misere { "misère" } else { "normal" },
            if self.misere { "wins" } else { "loses" }
        ));
        Ok(())
    }

    /// Your move: move `m` of component `k` (both from 0), then the computer's.
    fn make(&mut self, k: usize, m: usize) -> Result<(), String> {
        let Some(components) = &self.play else {
            return self.log.refuse("start a game first (Play)");
        };
        if self.over {
            return self.log.refuse("the game is over: start a new one");
        }
        let Some(c) = components.get(k) else {
            return self.log.refuse(format!(
                "there is no component {}: they are numbered 1 to {}",
                k + 1,
                components.len()
            ));
        };
        let options = c.options();
        let Some((text, next)) = options.get(m).cloned() else {
            return self.log.refuse(format!(
                "component {} has {} moves: there is no move {}",
                k + 1,
                options.len(),
                m + 1
            ));
        };
        let mut components = components.clone();
        components[k] = next;
        self.log.push(format!("you: component {}, {text}", k + 1));
        if self.finished(&components, true) {
            self.play = Some(components);
            return Ok(());
        }
        let reply = match winning(&components, self.misere) {
            Ok((true, _, moves)) if !moves.is_empty() => {
                let w = &moves[0];
                let options = components[w.component].options();
                let (_, next) = options
                    .into_iter()
                    .find(|(t, _)| *t == w.r#move)
                    .expect("a winning move is a move");
                Some((w.component, w.r#move.clone(), next, "it wins"))
            }
            _ => components.iter().enumerate().find_map(|(k, c)| {
                c.options()
                    .into_iter()
                    .next()
                    .map(|(t, n)| (k, t, n, "no move wins against best play"))
            }),
        };
        if let Some((k, text, next, why)) = reply {
            components[k] = next;
            self.log
                .push(format!("the computer: component {}, {text}; {why}", k + 1));
            self.finished(&components, false);
        }
        self.play = Some(components);
        Ok(())
    }

    fn finished(&mut self, components: &[Component], you: bool) -> bool {
        if components.iter().any(|c| !c.options().is_empty()) {
            return false;
        }
        self.over = true;
        let you_win = you != self.misere;
        self.log.push(format!(
            "no move left for {}: {}",
            if you { "the computer" } else { "you" },
            if you_win {
                "you win"
            } else {
                "the computer wins"
            }
        ));
        true
    }
}

impl GameTab for SumsTab {
    fn title(&self) -> &'static str {
        "Sums"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["sum", "graph"]
    }

    fn act(&mut self, action: &str) -> Result<(), String> {
        let (verb, w) = split(action);
        match (verb.as_str(), w.as_slice()) {
            ("components", _) => {
                self.text = w.join(" ").replace(';', "\n");
                Ok(())
            }
            ("misere", [on]) => {
                self.misere = *on != "off";
                Ok(())
            }
            ("play", []) => self.new_game().or_else(|e| self.log.refuse(e)),
            ("move", [k, m]) => {
                let k = number("component", k).or_else(|e| self.log.refuse(e))?;
                let m = number("move", m).or_else(|e| self.log.refuse(e))?;
                if k == 0 || m == 0 {
                    return self.log.refuse("components and moves are numbered from 1");
                }
                self.make(k as usize - 1, m as usize - 1)
            }
            _ => Err(format!(
                "unknown action '{action}': the Sums tab takes 'components 3; kayles:5', 'misere on|off', \
                 'play', 'move COMPONENT MOVE' (numbered from 1)"
            )),
        }
    }

    fn state(&self) -> serde_json::Value {
        serde_json::json!({
            "components": self.play.as_ref().map(|c| c.iter().map(Component::describe).collect::<Vec<_>>()),
            "over": self.over,
            "log": self.log.lines(),
        })
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.label(
            "components, one per line: 7 (Nim), kayles:5, 0.137:9, sub:1,3,4:6, grundys-game:9, \
             wythoff:3,5, hackenbush:FILE, graph:FILE:VERTEX",
        );
        ui.add(
            egui::TextEdit::multiline(&mut self.text)
                .desired_rows(4)
                .code_editor(),
        );
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut self.misere, "misère (by direct search)");
            if ui.button("Play").clicked() {
                let _ = self.act("play");
            }
        });
        let components = match &self.play {
            Some(c) => c.clone(),
            None => match parse(&self.text) {
                Ok(c) => c,
                Err(e) => {
                    ui.colored_label(super::REFUSED, e);
                    return;
                }
            },
        };
        if !self.misere {
            match sum::analyse(&components) {
                Ok(r) => {
                    for (k, (c, v)) in r.components.iter().zip(&r.values).enumerate() {
                        ui.monospace(format!("component {}: {c}  value {v}", k + 1));
                    }
                    ui.label(format!("the sum's value: {}", r.value));
                }
                Err(e) => {
                    ui.colored_label(super::REFUSED, e);
                    return;
                }
            }
        }
        match winning(&components, self.misere) {
            Ok((_, true, _)) => {
                ui.label("a draw: play can go on for ever");
            }
            Ok((true, _, moves)) => {
                ui.label("the player to move wins; every winning move:");
                for m in moves {
                    ui.label(format!(
                        "  component {}, {} (leaving {})",
                        m.component + 1,
                        m.r#move,
                        m.leaves
                    ));
                }
            }
            Ok(_) => {
                ui.label("the player to move loses against best play");
            }
            Err(e) => {
                ui.colored_label(super::REFUSED, e);
            }
        }
        if self.play.is_none() {
            return;
        }
        ui.separator();
        ui.heading("Play");
        let mut chosen = None;
        if !self.over {
            for (k, c) in components.iter().enumerate() {
                ui.horizontal_wrapped(|ui| {
                    ui.monospace(format!("{}: {}", k + 1, c.describe()));
                    // "heap 1 (of 5): take 2, leaving 3" is "take 2, leaving 3" when there is
                    // one heap.
                    let single = matches!(c, Component::Heaps { heaps, .. } if heaps.len() == 1);
                    for (m, (text, _)) in c.options().iter().enumerate().take(MAX_BUTTONS) {
                        let label = match text.split_once("): ") {
                            Some((_, rest)) if single => rest,
                            _ => text.as_str(),
                        };
                        if ui.small_button(format!("{}. {label}", m + 1)).clicked() {
                            chosen = Some(format!("move {} {}", k + 1, m + 1));
                        }
                    }
                });
            }
        }
        if let Some(a) = chosen {
            let _ = self.act(&a);
        }
        self.log.ui(ui, 6);
    }
}
