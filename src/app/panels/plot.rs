//! The population over time, with egui_plot.

use eframe::egui;
use egui_plot::{Line, Plot, PlotPoints};

pub fn ui(ui: &mut egui::Ui, history: &[(u64, u64)]) {
    let points: PlotPoints = history.iter().map(|&(g, p)| [g as f64, p as f64]).collect();
    Plot::new("population")
        .height(160.0)
        .x_axis_label("generation")
        .y_axis_label("population")
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.line(Line::new("population", points));
        });
}
