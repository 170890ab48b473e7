//! The Analyze button: the app's presenter of `analysis::analyse`, run on a background thread
//! from a copy of the cells, so that the window keeps drawing meanwhile.

use std::sync::mpsc::Receiver;

use eframe::egui;

use crate::analysis::{self, Question};
use crate::app::command::Command;
use crate::engine::Progress;

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

/// The findings as the panel shows them: the analysis's sentences, counted from `generation`.
pub fn analyse(q: &Question, generation: u64) -> Vec<String> {
    match analysis::analyse(q, &Progress::default()) {
        Ok(f) => {
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
