//! The Analyze button: what the current state is, worked out on a background thread (on the
//! CPU, from a copy), so that the window keeps drawing meanwhile.

use std::sync::mpsc::Receiver;

use eframe::egui;

use crate::analysis::{self, Kind, TorusFate};
use crate::app::command::Command;
use crate::cpu::FastEngine;
use crate::grid::Grid;
use crate::rule::Rule;

#[derive(Default)]
pub struct AnalysisPanel {
    job: Option<Receiver<Vec<String>>>,
    findings: Vec<String>,
}

impl AnalysisPanel {
    /// Takes the channel a started analysis will answer on.
    pub fn start(&mut self, job: Receiver<Vec<String>>) {
        self.job = Some(job);
        self.findings.clear();
    }

    /// Collects the findings when the job has answered; `None` while it runs (or none ran).
    pub fn poll(&mut self) -> Option<Vec<String>> {
        if let Some(job) = &self.job
            && let Ok(findings) = job.try_recv()
        {
            self.findings = findings;
            self.job = None;
        }
        (self.job.is_none() && !self.findings.is_empty()).then(|| self.findings.clone())
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let _ = self.poll();
        ui.horizontal(|ui| {
            let busy = self.job.is_some();
            if ui
                .add_enabled(!busy, egui::Button::new("Analyze"))
                .on_hover_text(
                    "Period, displacement and kind of the current state; lifespans of methuselahs",
                )
                .clicked()
            {
                out.push(Command::Analyze);
            }
            if busy {
                ui.spinner();
                ui.label("analysing…");
                ui.ctx().request_repaint();
            }
        });
        for line in &self.findings {
            ui.label(line);
        }
    }
}

/// The findings for the cells of a torus: a small pattern is identified on its own (and, if
/// it never repeats, its lifespan found); a big one is run where it is until it repeats.
pub fn analyse(rule: Rule, grid: Grid, generation: u64, max_gens: u64) -> Vec<String> {
    let Some(bb) = grid.wrapped_bounding_box() else {
        return vec!["the torus is empty".into()];
    };
    let mut lines = Vec::new();
    let small = bb.width <= 256 && bb.height <= 256 && !rule.is_stochastic();
    if small {
        let cells = grid.crop(bb);
        let id = analysis::identify(rule, &cells, max_gens.min(4000));
        let name = id
            .name
            .as_deref()
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        lines.push(match id.kind {
            Kind::Still => format!("a still life{name}"),
            Kind::Oscillator => format!("an oscillator{name}, period {}", id.period.unwrap_or(0)),
            Kind::Spaceship => format!(
                "a spaceship{name}, period {}, speed {}",
                id.period.unwrap_or(0),
                id.speed.as_deref().unwrap_or("?")
            ),
            Kind::Dies => format!("it dies after {} generations", id.start),
            Kind::Gun => format!(
                "a gun{name}, period {}: {}",
                id.period.unwrap_or(0),
                id.emits.as_deref().unwrap_or("")
            ),
            Kind::Chaotic => "no repetition in its own box: looking for its lifespan".into(),
        });
        if id.kind == Kind::Chaotic {
            let side = analysis::roomy_side(&cells, max_gens).min(8192);
            let report =
                analysis::lifespan(rule, &cells, (side, side), max_gens, 1000, &|g: &Grid| {
                    Ok(Box::new(FastEngine::new(rule, g, 0)) as Box<dyn crate::engine::Engine>)
                });
            match report {
                Ok(r) => match r.result {
                    Some(l) => lines.push(format!(
                        "a methuselah: stable from {} generations on, population {} ({} spaceships escaping)",
                        l.lifespan, l.final_population, l.escaping
                    )),
                    None => lines.push(format!("not stable within {max_gens} generations")),
                },
                Err(e) => lines.push(format!("the analysis stopped: {e}")),
            }
            lines.push(format!(
                "counted from now (generation {generation}), on {}",
                r_note(side)
            ));
        }
    } else {
        let mut e = FastEngine::new(rule, &grid, 0);
        match analysis::find_period(&mut e, &grid, 0, max_gens, &|c| c.hash) {
            Ok(r) => lines.push(match r.fate {
                TorusFate::Dies { generation: g } => {
                    format!("the torus dies after {g} generations")
                }
                TorusFate::Repeats { start, period: 1 } => {
                    format!("the torus is still from {start} generations on")
                }
                TorusFate::Repeats { start, period } => {
                    format!("the torus repeats with period {period} from {start} generations on")
                }
                TorusFate::Unresolved { generations } => {
                    format!("the torus does not repeat within {generations} generations")
                }
            }),
            Err(e) => lines.push(format!("the analysis stopped: {e}")),
        }
        lines.push(format!("counted from now (generation {generation})"));
    }
    lines
}

fn r_note(side: u32) -> String {
    format!("a {side}x{side} torus")
}
