//! The population of every generation (Step N included), with egui_plot: numbered axes at
//! every zoom, and a log scale for growth.

use std::ops::RangeInclusive;

use eframe::egui;
use egui_plot::{GridInput, GridMark, Line, Plot, PlotPoints};

#[derive(Default)]
pub struct PlotPanel {
    /// Population on a logarithmic axis.
    pub log: bool,
}

impl PlotPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, history: &[(u64, u64)]) {
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.log, "log scale");
            ui.label(
                egui::RichText::new("drag, wheel to zoom, double-click to fit")
                    .weak()
                    .small(),
            );
        });
        let log = self.log;
        let points: PlotPoints = history
            .iter()
            .map(|&(g, p)| [g as f64, y_of(p, log)])
            .collect();
        let mut plot = Plot::new("population")
            .height(170.0)
            .x_axis_label("generation")
            .y_axis_label(if log {
                "population (log)"
            } else {
                "population"
            })
            .y_axis_min_width(44.0)
            // From generation 0, and at least ten generations wide (a single point would
            // otherwise sit in the middle of -20..20).
            .include_x(0.0)
            .include_x(10.0)
            .allow_scroll(false)
            .x_grid_spacer(nice_marks)
            .x_axis_formatter(|m, _| number(m.value, m.step_size))
            // The data under the cursor, not the cursor's own height.
            .label_formatter(move |h| {
                let p = match h {
                    egui_plot::HoverPosition::NearDataPoint { position, .. } => position,
                    egui_plot::HoverPosition::Elsewhere { position } => position,
                };
                hover_text(history, p.x)
            });
        plot = if log {
            plot.y_grid_spacer(decades)
                .y_axis_formatter(|m: GridMark, _: &RangeInclusive<f64>| power_of_ten(m.value))
        } else {
            plot.y_grid_spacer(nice_marks)
                .y_axis_formatter(|m, _| number(m.value, m.step_size))
                // From 0 up, and at least 5 tall: an empty universe would otherwise be drawn
                // around 0, with negative populations on the axis.
                .include_y(0.0)
                .include_y(5.0)
        };
        plot.show(ui, |plot| {
            plot.line(Line::new("population", points));
        });
    }
}

/// The tooltip at generation `x`: the recorded point nearest it, or nothing on an empty plot.
pub fn hover_text(history: &[(u64, u64)], x: f64) -> Option<String> {
    let after = history.partition_point(|&(g, _)| (g as f64) < x);
    let near = [after.checked_sub(1), Some(after)]
        .into_iter()
        .flatten()
        .filter_map(|i| history.get(i))
        .min_by(|a, b| (a.0 as f64 - x).abs().total_cmp(&(b.0 as f64 - x).abs()))?;
    Some(format!("generation {}\npopulation {}", near.0, near.1))
}

/// Where a population sits on the y axis: on the log scale, 0 is drawn at 10^-0.5, below 1.
fn y_of(population: u64, log: bool) -> f64 {
    match (log, population) {
        (false, p) => p as f64,
        (true, 0) => -0.5,
        (true, p) => (p as f64).log10(),
    }
}

/// About four marks at 1, 2 or 5 times a power of ten, whatever the zoom, so that the axis
/// always has numbers.
pub fn nice_marks(input: GridInput) -> Vec<GridMark> {
    let (min, max) = input.bounds;
    let span = (max - min).abs();
    if !span.is_finite() || span <= 0.0 {
        return Vec::new();
    }
    let raw = span / 4.0;
    let base = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * base)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * base);
    let mut marks = Vec::new();
    let mut v = (min / step).ceil() * step;
    while v <= max && marks.len() < 16 {
        marks.push(GridMark {
            value: v,
            step_size: step,
        });
        v += step;
    }
    marks
}

/// Marks at whole powers of ten (every one, or every few when there are many).
fn decades(input: GridInput) -> Vec<GridMark> {
    let (min, max) = input.bounds;
    if !(max - min).is_finite() {
        return Vec::new();
    }
    let step = ((max - min) / 5.0).ceil().max(1.0);
    let mut marks = Vec::new();
    let mut k = (min / step).ceil() * step;
    while k <= max && marks.len() < 16 {
        marks.push(GridMark {
            value: k,
            step_size: step,
        });
        k += step;
    }
    marks
}

/// A tick label: whole numbers as they are up to 99999, then in powers of ten (1.5e6); as
/// many decimals as the step needs when zoomed in closer than 1.
pub fn number(v: f64, step: f64) -> String {
    // No "-0".
    let v = if v.abs() < step.abs() * 1e-9 { 0.0 } else { v };
    if v.abs() >= 1e5 {
        let e = v.abs().log10().floor();
        let m = v / 10f64.powf(e);
        if (m - m.round()).abs() < 1e-9 {
            format!("{}e{e}", m.round())
        } else {
            format!("{m:.1}e{e}")
        }
    } else if step >= 1.0 || step <= 0.0 {
        format!("{v:.0}")
    } else {
        let decimals = (-step.log10()).ceil() as usize;
        format!("{v:.decimals$}")
    }
}

/// 10^k as the population it stands for: 1, 10, 100, 1000, then 1e4.
fn power_of_ten(k: f64) -> String {
    if k < 0.0 {
        "0".to_string()
    } else if k <= 3.0 {
        format!("{}", 10f64.powf(k).round())
    } else {
        format!("1e{k:.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(min: f64, max: f64) -> Vec<f64> {
        nice_marks(GridInput {
            bounds: (min, max),
            base_step_size: 1e-9,
        })
        .into_iter()
        .map(|m| m.value)
        .collect()
    }

    #[test]
    fn every_range_gets_round_numbered_marks() {
        // The ranges of the issue: acorn near generation 490, population 0 to about 200.
        assert_eq!(marks(0.0, 490.0), [0.0, 200.0, 400.0]);
        assert_eq!(marks(0.0, 210.0), [0.0, 100.0, 200.0]);
        // Zoomed far in, and far out.
        assert_eq!(marks(10.0, 12.0), [10.0, 10.5, 11.0, 11.5, 12.0]);
        assert_eq!(marks(0.0, 3e6), [0.0, 1e6, 2e6, 3e6]);
        assert!(marks(5.0, 5.0).is_empty());
    }

    #[test]
    fn labels_are_short_at_every_scale() {
        assert_eq!(number(400.0, 200.0), "400");
        assert_eq!(number(10.5, 0.5), "10.5");
        assert_eq!(number(2e6, 1e6), "2e6");
        assert_eq!(number(1.5e6, 5e5), "1.5e6");
        assert_eq!(power_of_ten(2.0), "100");
        assert_eq!(power_of_ten(6.0), "1e6");
        assert_eq!(power_of_ten(-0.5), "0");
        assert_eq!(number(-0.0, 1.0), "0");
        assert_eq!(number(-1e-12, 10.0), "0");
    }
}
