//! The status line: generation, population, the universe and rule, the engine and why, the
//! rate achieved (generations and cell updates per second), the step, the adapter and the
//! UI's own frame time.

use eframe::egui;

use super::{Mode, Status};
use crate::engine::Universe;

pub fn ui(ui: &mut egui::Ui, s: &Status) {
    ui.horizontal(|ui| {
        match (s.mode, s.elementary) {
            (Mode::Elementary, Some((rule, width, generation))) => {
                ui.label(format!("W{} ring of {width}", rule.0));
                ui.separator();
                ui.label(format!("generation {generation}"));
            }
            _ => {
                ui.label(format!("generation {}", s.generation));
                ui.separator();
                // Under a Generations rule Golly's population counts the dying cells too; under
                // a rule file's, every cell that is not in state 0 (of two states: the live ones).
                let counted = if s.rule.loaded().is_some() && s.rule.states() > 2 {
                    format!(" (states 1 to {})", s.rule.states() - 1)
                } else if s.rule.states() > 2 {
                    " (live and dying)".to_string()
                } else {
                    String::new()
                };
                match s.population {
                    Some(p) => ui.label(format!("population {p}{counted}")),
                    None => ui.label("population …"),
                };
                ui.separator();
                match s.universe {
                    Universe::Torus { width, height } => {
                        ui.label(format!("{width}x{height} torus, {}", s.rule))
                    }
                    Universe::Bounded {
                        width,
                        height,
                        edges,
                    } => ui.label(format!("{width}x{height} {}, {}", edges.name(), s.rule)),
                    Universe::Plane => ui.label(format!("plane, {}", s.rule)),
                    Universe::Tube(t) => {
                        let (side, way) = match t.sides() {
                            (Some(w), _) => (w, "tall"),
                            (_, h) => (h.unwrap_or(0), "wide"),
                        };
                        let shape = if t.is_strip() {
                            format!("strip {side} across")
                        } else {
                            format!("tube {side} round")
                        };
                        ui.label(format!("infinitely {way} {shape}, {}", s.rule))
                    }
                };
                ui.separator();
                // Which engine ran the last job and, in short, why; the whole reason on hover.
                let why = brief_reason(&s.engine_reason);
                let text = if why.is_empty() {
                    format!("engine {}", s.engine)
                } else {
                    format!("engine {}: {why}", s.engine)
                };
                ui.label(text).on_hover_text(&s.engine_reason);
                if s.step_exponent > 0 {
                    ui.separator();
                    ui.label(format!("step 2^{}", s.step_exponent));
                }
                if let Some(r) = s.repeat {
                    ui.separator();
                    ui.label(
                        egui::RichText::new(r.to_string())
                            .color(egui::Color32::from_rgb(150, 220, 150)),
                    )
                    .on_hover_text(
                        "The whole universe repeats (from the census of every generation)",
                    );
                } else if s.watch_repeats {
                    ui.separator();
                    ui.label(egui::RichText::new("watching for a repeat").weak());
                }
            }
        }
        ui.separator();
        if s.mode == Mode::Life && !s.running {
            // A rate of 0 while paused says nothing; the rate shows while a run goes on.
            ui.label("paused");
        } else {
            ui.label(format!("{:.1} gen/s", s.generations_per_second));
            if let Some(c) = s.cells_per_second().filter(|_| s.mode == Mode::Life) {
                ui.separator();
                ui.label(format!("{c:.3e} cells/s"));
            }
        }
        ui.separator();
        ui.label(format!("frame {:.1} ms", s.frame_ms))
            .on_hover_text("The UI thread's own time in the last frame (idle time not counted)");
        if s.dirty {
            ui.separator();
            ui.label(egui::RichText::new("unsaved edits").color(egui::Color32::LIGHT_RED));
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            // In the room the line leaves: a long engine reason once had the adapter's name
            // drawn over the frame time.
            ui.add(egui::Label::new(egui::RichText::new(&s.adapter).weak()).truncate())
                .on_hover_text(&s.adapter);
        });
    });
}

/// The head of an engine choice's reason, before its details and its explanation: "a sparse
/// workload (7 live cells ...): the tile engine ..." is "a sparse workload".
fn brief_reason(reason: &str) -> &str {
    let cut = reason.find([':', '(']).unwrap_or(reason.len());
    reason[..cut].trim_end()
}

#[cfg(test)]
mod tests {
    use super::brief_reason;

    #[test]
    fn the_status_line_keeps_the_head_of_the_reason() {
        assert_eq!(
            brief_reason(
                "a sparse workload (7 live cells in a span of 21 cells): the tile engine computes only where something changes"
            ),
            "a sparse workload"
        );
        assert_eq!(
            brief_reason(
                "a long jump of 1048576 generations on the unbounded plane: HashLife's memoised quadtree skips what repeats"
            ),
            "a long jump of 1048576 generations on the unbounded plane"
        );
        assert_eq!(
            brief_reason("asked for with --engine"),
            "asked for with --engine"
        );
    }
}
