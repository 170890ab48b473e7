//! The command line: `lifelab` alone opens the app; subcommands run headless. Each subcommand
//! lives in its own file; with `--json` each prints exactly one JSON object on stdout.

/// `println!` for subcommands: `outln!(...)?`. Unlike `println!`, a closed stdout is an error to
/// return (which `main_with` ends on quietly) rather than a panic.
macro_rules! outln {
    () => {
        $crate::cli::write_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::cli::write_line(format_args!($($arg)*))
    };
}

mod analyze;
pub mod app_args;
mod bench;
mod census;
mod check;
pub mod choices;
mod gpus;
mod grundy;
mod hackenbush;
mod kqk;
mod matches;
mod nim;
mod run;
pub mod setup;
mod tictactoe;
mod tree;
mod wythoff;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use setup::SimArgs;

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

    /// A folder of Golly rule files (`<name>.rule`), searched after the pattern's own folder
    /// and before LIFELAB_RULES and Golly's rules folder; may be given more than once.
    #[arg(long = "rules", id = "rule_dirs", global = true, value_name = "DIR")]
    pub rule_dirs: Vec<std::path::PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub app: app_args::AppArgs,
}

#[derive(Subcommand, Debug)]
// Each subcommand's arguments are built only when it runs (or its help is asked for): building
// all of them, then dropping them, was a third of a millisecond of every run's start.
#[command(defer = true)]
pub enum Command {
    /// Run a pattern or a random soup for some generations and report the population.
    Run(run::RunArgs),
    /// Run the same work on the GPU (or fast CPU) engine and the reference engine, and compare
    /// them bit for bit; without work flags, the built-in conformance suite.
    Check(check::CheckArgs),
    /// What a pattern is: still life, oscillator, spaceship, gun, or a methuselah and its
    /// lifespan; for a soup, when the whole torus repeats.
    Analyze(analyze::AnalyzeArgs),
    /// Benchmark engines: cell updates per second per rule and grid size.
    Bench(bench::BenchArgs),
    /// List the GPU adapters and the limits that matter.
    Gpus(gpus::GpusArgs),
    /// A soup census as apgsearch runs it: soups, their objects by apgcode, a haul in
    /// Catagolue's format, and the longest-lived soups; `census soup`, `census merge`.
    Census(census::CensusArgs),
    /// Nim: the nim-sum, the outcome and every winning move; or --lost N --max M, a listing.
    Nim(nim::NimArgs),
    /// Sprague–Grundy values: subtraction and octal games, Grundy's game, sums of different
    /// games, games given by their move graph, the game of N, the XOR table.
    Grundy(grundy::GrundyArgs),
    /// Wythoff's game: the lost positions, the Grundy values, and the winning moves.
    Wythoff(wythoff::WythoffArgs),
    /// Green Hackenbush: the value of a picture and every winning cut.
    Hackenbush(hackenbush::HackenbushArgs),
    /// A game tree: backward induction, ranks and the winning strategy.
    Tree(tree::TreeArgs),
    /// Match games (take from a heap, normal or misère): who wins and how.
    Matches(matches::MatchesArgs),
    /// "Even wins": whoever ends holding an even number of matches wins.
    Evenwins(matches::EvenWinsArgs),
    /// Tic-tac-toe: the value of a position and of each move.
    Tictactoe(tictactoe::TicTacToeArgs),
    /// King and queen against king with the white king fixed on its square.
    #[command(name = "kqk-untouchable")]
    KqkUntouchable(kqk::KqkArgs),
}

/// Errors reach the user as one line on stderr (and, with `--json`, as `{"error": ...}` on
/// stdout), with exit code 1.
pub fn main_with(cli: Cli) -> ExitCode {
    if cli.adapter.is_some() {
        crate::gpu::select_adapter(cli.adapter.as_deref());
    }
    crate::rule::loader::set_user_dirs(cli.rule_dirs.clone());
    let Some(command) = cli.command else {
        eprintln!(
            "error: no subcommand (the desktop app is `lifelab` with none; see `lifelab --help`)"
        );
        return ExitCode::from(2);
    };
    let json = command.json();
    crate::memory::set_json_errors(json);
    match command.execute() {
        Ok(code) => code,
        // A closed stdout (`| head -1`): the reader has all it wants, so end quietly, as Unix
        // tools do.
        Err(e) if closed_stdout(&e) => ExitCode::SUCCESS,
        Err(e) => {
            report_error(&e, json);
            ExitCode::FAILURE
        }
    }
}

/// The error line a failed command or app prints.
pub fn report(e: &anyhow::Error) {
    report_error(e, false);
}

fn closed_stdout(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// A command line clap could not take: help and version print as usual (exit 0); any other
/// mistake is an error like the others, exit code 1, and with `--json` anywhere on the line it
/// is also the one JSON object on stdout.
pub fn argument_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    let json = std::env::args().any(|a| a == "--json");
    // clap's own text: its first line, without the "error: " prefix.
    let text = e.to_string();
    let first = text.lines().next().unwrap_or_default().trim();
    let message = first.strip_prefix("error: ").unwrap_or(first).to_string();
    if json {
        println!("{}", serde_json::json!({ "error": message }));
    }
    eprint!("{}", e.render());
    ExitCode::FAILURE
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
            Command::Analyze(a) => a.json,
            Command::Bench(a) => a.json,
            Command::Check(a) => a.json,
            Command::Gpus(a) => a.json,
            Command::Census(a) => a.json(),
            Command::Nim(a) => a.json,
            Command::Grundy(a) => a.json(),
            Command::Wythoff(a) => a.json,
            Command::Hackenbush(a) => a.json,
            Command::Tree(a) => a.json,
            Command::Matches(a) => a.json,
            Command::Evenwins(a) => a.json,
            Command::Tictactoe(a) => a.json,
            Command::KqkUntouchable(a) => a.json,
        }
    }

    fn execute(self) -> anyhow::Result<ExitCode> {
        match self {
            Command::Run(a) => run::execute(a),
            Command::Analyze(a) => analyze::execute(a),
            Command::Bench(a) => bench::execute(a),
            Command::Check(a) => check::execute(a),
            Command::Gpus(a) => gpus::execute(a),
            Command::Census(a) => census::execute(a),
            Command::Nim(a) => nim::execute(a),
            Command::Grundy(a) => grundy::execute(a),
            Command::Wythoff(a) => wythoff::execute(a),
            Command::Hackenbush(a) => hackenbush::execute(a),
            Command::Tree(a) => tree::execute(a),
            Command::Matches(a) => matches::execute(a),
            Command::Evenwins(a) => matches::execute_even(a),
            Command::Tictactoe(a) => tictactoe::execute(a),
            Command::KqkUntouchable(a) => kqk::execute(a),
        }
    }
}

/// The registry options the engine flags ask for.
pub(crate) fn engine_options(
    memory_mb: Option<u64>,
    gpu: &setup::GpuArgs,
) -> crate::registry::Options {
    let mut options = crate::registry::Options {
        memory: memory_mb.map(|m| m << 20),
        ..Default::default()
    };
    options.gpu.kernel = gpu.kernel.into();
    options.gpu.block = gpu.block;
    options
}

/// Prints a serialisable value as the one JSON object of a `--json` run.
pub(crate) fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    outln!("{}", serde_json::to_string(value)?)?;
    Ok(())
}

/// One line on stdout (see `outln!`).
pub(crate) fn write_line(args: std::fmt::Arguments) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)?;
    out.write_all(b"\n")
}

/// Reads a text file named on the command line, `-` being standard input; errors name the file.
pub(crate) fn read_text(path: &std::path::Path) -> anyhow::Result<String> {
    let bytes = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)?;
        bytes
    } else {
        crate::pattern::read_file(path)?
    };
    let name = path.display();
    let text = crate::pattern::utf8(&bytes)
        .map_err(|e| anyhow::anyhow!("{name}:{}:{}: {}", e.line, e.column, e.message))?;
    Ok(text.to_string())
}
