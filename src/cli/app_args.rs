//! The desktop app's options as the command line reads them.

use std::path::PathBuf;

use crate::session::pace::Pace;

/// The app's command-line options (`lifelab` with no subcommand); `main` hands them to the
/// app as its `AppOptions`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct AppArgs {
    /// Open with this library pattern or pattern file.
    #[arg(long, value_name = "NAME|FILE")]
    pub pattern: Option<String>,

    /// Open with a random soup of this density (0 to 1) instead of a pattern.
    #[arg(long, value_name = "DENSITY", conflicts_with = "pattern")]
    pub random: Option<f64>,

    /// Open with this rule (a Wolfram rule opens elementary mode).
    #[arg(long, value_name = "RULE")]
    pub rule: Option<String>,

    /// Open with a torus of this size (WxH, or N for NxN).
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,

    /// Open on the unbounded plane instead of a torus.
    #[arg(long)]
    pub plane: bool,

    /// The engine: auto (chosen by the work), or one of reference, cpu, tiles, hashlife,
    /// generations, rule-tree, rule-hashlife, gpu.
    #[arg(long, value_name = "ENGINE", default_value = "auto", value_parser = super::setup::engine_name)]
    pub engine: String,

    /// HashLife's node cache in MiB (default: collects from 224 MiB, grows to a share of the memory available when that frees too little).
    #[arg(long, value_name = "MB", value_parser = crate::memory::parse_mib)]
    pub memory: Option<u64>,

    /// Start running at once.
    #[arg(long)]
    pub run: bool,

    /// Generations per second when running, or 'max'.
    #[arg(long, value_name = "GEN/S|max", value_parser = Pace::parse)]
    pub speed: Option<Pace>,

    /// Zoom, in screen points per cell (below 1: 1/zoom cells per point). Default: fit.
    #[arg(long)]
    pub zoom: Option<f64>,

    /// Open without grid lines (View > Grid lines, or L, turns them on).
    #[arg(long)]
    pub no_grid: bool,

    /// Save a PNG of the window after --after-gens generations, then exit. A JSON file next
    /// to it (FILE.png.json) says where the view was and how the run went.
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,

    /// With --screenshot: the generation to take it at.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub after_gens: u64,

    /// The window's size in points.
    #[arg(long, value_name = "WxH", default_value = "1280x800")]
    pub window: String,

    /// Open the games panel on this tab (nim, grundy, octal, wythoff, hackenbush, sums, tree,
    /// tictactoe, kqk).
    #[arg(long, value_name = "TAB")]
    pub games_tab: Option<String>,

    /// With --games-tab: actions on that tab, separated by ';', as its buttons make them (for
    /// example `take 2 1; take 1 3` on Nim), to show a position in a screenshot.
    #[arg(long, value_name = "ACTIONS", requires = "games_tab")]
    pub games_do: Option<String>,

    /// Seed of random fills and stochastic rules.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Where the autosave lives (default: the user's data directory).
    #[arg(long, value_name = "DIR", hide = true)]
    pub data_dir: Option<PathBuf>,
}
