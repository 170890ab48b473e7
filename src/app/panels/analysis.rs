//! The Analyze button: the app's presenter of `analysis::analyse`, run on a background thread
//! from a copy of the cells, so that the window keeps drawing meanwhile.

use std::sync::mpsc::Receiver;

use eframe::egui;

use crate::analysis::{self, Question};
use crate::app::command::Command;
use crate::engine::Progress;

pub struct AnalysisPanel {
    job: Option<Receiver<Vec<String>>>,
    findings: Vec<String>,
    /// The most generations to look at, as typed.
    limit: String,
}

impl Default for AnalysisPanel {
    fn default() -> Self {
        Self {
            job: None,
            findings: Vec::new(),
            // Past acorn's 5206 generations, and quick on the CPU.
            limit: "50,000".into(),
        }
    }
}

impl AnalysisPanel {
    /// Takes the channel a started analysis will answer on.
    pub fn start(&mut self, job: Receiver<Vec<String>>) {
        self.job = Some(job);
        self.findings.clear();
    }

    /// Forgets the findings (the cells they were about are gone).
    pub fn clear(&mut self) {
        self.job = None;
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
            let limit = ui
                .add_enabled_ui(!busy, |ui| {
                    ui.label("up to");
                    let (n, enter) = crate::app::panels::controls::count_field(
                        ui,
                        &mut self.limit,
                        "The most generations to look at: 50,000, 1e6 or 2^20 (Enter analyses)",
                    );
                    ui.label("gens");
                    (n.filter(|&n| n > 0), enter)
                })
                .inner;
            let (max_gens, enter) = limit;
            let clicked = ui
                .add_enabled(!busy && max_gens.is_some(), egui::Button::new("Analyze"))
                .on_hover_text(
                    "Period, displacement and kind of the current state; lifespans of methuselahs, on this universe",
                )
                .clicked();
            if let Some(max_gens) = max_gens
                && (clicked || (enter && !busy))
            {
                out.push(Command::Analyze { max_gens });
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

/// The findings as the panel shows them: the analysis's sentences, counted from `generation`.
pub fn analyse(q: &Question, generation: u64) -> Vec<String> {
    match analysis::analyse(q, &Progress::default()) {
        Ok(mut f) => {
            crate::session::final_census::fill(&mut f, q.rule);
            let mut lines = f.sentences();
            lines.push(format!(
                "counted from now (generation {generation}), {} generations on the {} engine",
                f.generations, f.engine
            ));
            lines
        }
        Err(e) => vec![format!("the analysis stopped: {e:#}")],
    }
}
