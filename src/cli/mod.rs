//! The command line: `lifelab` alone opens the app; subcommands run headless. Each subcommand
//! lives in its own file; with `--json` each prints exactly one JSON object on stdout.

mod bench;
mod check;
mod gpus;
mod run;
pub mod setup;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use setup::{SimArgs, Simulation};

#[derive(Parser, Debug)]
#[command(
    name = "lifelab",
    args_conflicts_with_subcommands = true,
    version,
    about = "A laboratory for cellular automata and finite games",
    long_about = "A laboratory for cellular automata and finite games.\n\n\
        Run without a subcommand to open the desktop app. The subcommands run headless."
)]
pub struct Cli {
    /// Use the GPU adapter whose name contains NAME (see `lifelab gpus`); the environment
    /// variable LIFELAB_ADAPTER does the same.
    #[arg(long, global = true, value_name = "NAME")]
    pub adapter: Option<String>,

    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub app: crate::app::AppOptions,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a pattern or a random soup for some generations and report the population.
    Run(run::RunArgs),
    /// Run the same work on the GPU (or fast CPU) engine and the reference engine, and compare
    /// them bit for bit; without work flags, the built-in conformance suite.
    Check(check::CheckArgs),
    /// Benchmark engines: cell updates per second per rule and grid size.
    Bench(bench::BenchArgs),
    /// List the GPU adapters and the limits that matter.
    Gpus(gpus::GpusArgs),
}

/// Errors reach the user as one line on stderr (and, with `--json`, as `{"error": ...}` on
/// stdout), with exit code 1.
pub fn main_with(cli: Cli) -> ExitCode {
    if cli.adapter.is_some() {
        crate::gpu::select_adapter(cli.adapter.as_deref());
    }
    let Some(command) = cli.command else {
        return match crate::app::run(cli.app, crate::app::game_tabs()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                report_error(&e, false);
                ExitCode::FAILURE
            }
        };
    };
    let json = command.json();
    match command.execute() {
        Ok(code) => code,
        Err(e) => {
            report_error(&e, json);
            ExitCode::FAILURE
        }
    }
}

fn report_error(e: &anyhow::Error, json: bool) {
    let message = format!("{e:#}");
    if json {
        println!("{}", serde_json::json!({ "error": message }));
    }
    eprintln!("error: {message}");
}

impl Command {
    fn json(&self) -> bool {
        match self {
            Command::Run(a) => a.json,
            Command::Bench(a) => a.json,
            Command::Check(a) => a.json,
            Command::Gpus(a) => a.json,
        }
    }

    fn execute(self) -> anyhow::Result<ExitCode> {
        match self {
            Command::Run(a) => run::execute(a),
            Command::Bench(a) => bench::execute(a),
            Command::Check(a) => check::execute(a),
            Command::Gpus(a) => gpus::execute(a),
        }
    }
}

/// Prints a serialisable value as the one JSON object of a `--json` run.
pub(crate) fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string(value)?);
    Ok(())
}
