//! The flags `run`, `check` and `analyze` share, and how they become a rule, a torus and a seed.

use std::path::Path;

use anyhow::{Context, anyhow, bail};

use crate::engine::EngineKind;
use crate::grid::Grid;
use crate::pattern::{self, Pattern, library};
use crate::rule::Rule;

/// The default torus side when neither the flags, the rule nor the file give one.
pub const DEFAULT_SIDE: u32 = 1024;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct SimArgs {
    /// The rule: B3/S23, 23/3, B2/S34H, B2(1/3)/S12H, a name such as HighLife, W110, or a
    /// formula of x, y, z. A ':T<w>,<h>' suffix sets the torus. Default: the pattern's own
    /// rule, else Life.
    #[arg(long, value_name = "RULE")]
    pub rule: Option<String>,

    /// A library pattern (acorn, glider, gosper-glider-gun, ...) or a pattern file (.rle,
    /// .cells, .lif). It is centred on the torus.
    #[arg(long, value_name = "NAME|FILE", conflicts_with = "random")]
    pub pattern: Option<String>,

    /// Fill the torus at random with this density (0 to 1) instead of a pattern.
    #[arg(long, value_name = "DENSITY")]
    pub random: Option<f64>,

    /// Seed of the random fill and of stochastic rules.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Torus size WxH, or N for NxN (for an elementary rule, N is the ring length). Default:
    /// the rule's or the file's ':T' suffix, else 1024x1024 (grown to fit the pattern).
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,

    /// Elementary rules: the start row. 'center' (one live cell in the middle), 'right' (one
    /// at the right end), 'random:K' (K random live cells) or a row such as '..#.##.'.
    #[arg(long, value_name = "START")]
    pub start: Option<String>,
}

/// The `--engine` flag of `run` and friends: an engine, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineChoice {
    /// The GPU when an adapter exists, else the fast CPU engine.
    Auto,
    Reference,
    Cpu,
    Gpu,
}

impl EngineChoice {
    /// The engine to use; `auto` says on stderr when it falls back to the CPU.
    pub fn resolve(self) -> EngineKind {
        match self {
            EngineChoice::Reference => EngineKind::Reference,
            EngineChoice::Cpu => EngineKind::Cpu,
            EngineChoice::Gpu => EngineKind::Gpu,
            EngineChoice::Auto => match crate::gpu::shared_context() {
                Ok(_) => EngineKind::Gpu,
                Err(e) => {
                    eprintln!("note: {e}; running on the CPU engine");
                    EngineKind::Cpu
                }
            },
        }
    }
}

impl EngineChoice {
    /// Like [`EngineChoice::resolve`], but `auto` takes the GPU only when it is hardware: a
    /// software adapter (lavapipe) is slower than the CPU engine, which also skips empty space.
    pub fn resolve_preferring_hardware(self) -> EngineKind {
        match (self, crate::gpu::shared_context()) {
            (EngineChoice::Auto, Ok(ctx)) if ctx.summary.device_type == "Cpu" => EngineKind::Cpu,
            _ => self.resolve(),
        }
    }
}

/// What the flags describe: ready to hand to an engine.
#[derive(Clone, Debug)]
pub struct Simulation {
    pub rule: Rule,
    pub grid: Grid,
    pub seed: u64,
    /// The pattern's name or file, `random 0.35` or the elementary start, for reports.
    pub source: String,
}

impl SimArgs {
    pub fn build(&self) -> anyhow::Result<Simulation> {
        self.build_for(None)
    }

    /// Builds the simulation, first checking that `engine` can hold the torus in memory.
    pub fn build_for(&self, engine: Option<EngineKind>) -> anyhow::Result<Simulation> {
        let flag_rule = self
            .rule
            .as_deref()
            .map(str::parse::<Rule>)
            .transpose()
            .context("--rule")?;
        let loaded = self.pattern.as_deref().map(resolve_pattern).transpose()?;
        let rule = flag_rule
            .or_else(|| loaded.as_ref().and_then(|(p, _)| p.rule))
            .unwrap_or_else(Rule::life);
        let file_torus = loaded
            .as_ref()
            .and_then(|(p, _)| p.rule.and_then(|r| r.torus));
        let flag_size = self
            .size
            .as_deref()
            .map(|s| parse_size(s, rule.is_elementary()))
            .transpose()?;

        if let Some(start) = &self.start
            && !rule.is_elementary()
        {
            bail!("--start {start} is for elementary rules; rule {rule} is Life-like");
        }
        if let Some(d) = self.random
            && !(0.0..=1.0).contains(&d)
        {
            bail!("--random {d}: the density must be between 0 and 1");
        }

        let size = flag_size.or(rule.torus).or(file_torus);
        let rule = rule.without_torus();
        if rule.is_elementary() {
            return self.build_elementary(rule, size, loaded);
        }

        let (width, height) = size.unwrap_or_else(|| match &loaded {
            Some((p, _)) => default_size(p.width(), p.height()),
            None => (DEFAULT_SIDE, DEFAULT_SIDE),
        });
        Grid::check_torus_size(width as u64, height as u64)?;
        if let Some(kind) = engine {
            crate::engine::check_memory(kind, width, height)?;
        }
        let mut grid = Grid::try_new(width, height)?;
        let source = match (&loaded, self.random) {
            (Some((p, label)), _) => {
                place_centred(&mut grid, &p.cells).with_context(|| format!("pattern {label}"))?;
                label.clone()
            }
            (None, Some(density)) => {
                grid.fill_random(density, self.seed);
                format!("random {density} (seed {})", self.seed)
            }
            (None, None) => "empty torus".to_string(),
        };
        Ok(Simulation {
            rule,
            grid,
            seed: self.seed,
            source,
        })
    }

    fn build_elementary(
        &self,
        rule: Rule,
        size: Option<(u32, u32)>,
        loaded: Option<(Pattern, String)>,
    ) -> anyhow::Result<Simulation> {
        let typed_row = self.start.as_deref().and_then(|s| {
            (!matches!(s, "center" | "centre" | "right") && !s.starts_with("random:")).then_some(s)
        });
        let width = match size {
            Some((w, 1)) => w,
            Some((w, h)) => {
                bail!("an elementary rule runs on a ring: give --size as one number, not {w}x{h}")
            }
            None => match (typed_row, &loaded) {
                (Some(row), _) => row.chars().count() as u32,
                (None, Some((p, _))) => p.width().max(1),
                (None, None) => 256,
            },
        };
        let mut grid = Grid::try_new(width, 1)?;
        let source;
        if let Some((p, label)) = &loaded {
            if p.height() > 1 {
                bail!(
                    "pattern {label} has {} rows; an elementary start is one row",
                    p.height()
                );
            }
            place_centred(&mut grid, &p.cells).with_context(|| format!("pattern {label}"))?;
            source = label.clone();
        } else if let Some(density) = self.random {
            grid.fill_random(density, self.seed);
            source = format!("random {density} (seed {})", self.seed);
        } else {
            let start = self.start.as_deref().unwrap_or("center");
            grid = crate::pattern::elementary::start_row(width, start, self.seed)
                .map_err(|e| anyhow!("--start {start}: {e}"))?;
            source = format!("start {start}");
        }
        Ok(Simulation {
            rule,
            grid,
            seed: self.seed,
            source,
        })
    }
}

/// A library name, or a path to a pattern file.
pub fn resolve_pattern(name: &str) -> anyhow::Result<(Pattern, String)> {
    let path = Path::new(name);
    if path.exists() || name.contains(['/', '\\']) || pattern::Format::from_path(path).is_some() {
        let p = pattern::load_file(path)?;
        return Ok((p, name.to_string()));
    }
    library::get(name)
        .map(|p| (p, name.to_string()))
        .ok_or_else(|| {
            anyhow!(
                "--pattern {name}: no such file, and no library pattern of that name (the library has {})",
                library::names().join(", ")
            )
        })
}

/// `4096x4096`, `4096` (square, or a ring for elementary rules), `31x7`.
pub fn parse_size(text: &str, elementary: bool) -> anyhow::Result<(u32, u32)> {
    let dim = |what: &str, s: &str| -> anyhow::Result<u64> {
        s.trim()
            .parse::<u64>()
            .map_err(|_| anyhow!("--size {text}: {what} '{s}' is not a whole number"))
    };
    let (w, h) = match text.split_once(['x', 'X']) {
        Some((w, h)) => (dim("width", w)?, dim("height", h)?),
        None => {
            let n = dim("size", text)?;
            (n, if elementary { 1 } else { n })
        }
    };
    Grid::check_torus_size(w, h).with_context(|| format!("--size {text}"))?;
    Ok((w as u32, h as u32))
}

/// A torus twice the pattern's size (at least the default), rounded up to a multiple of 64.
fn default_size(w: u32, h: u32) -> (u32, u32) {
    let side = |n: u32| (n.saturating_mul(2)).next_multiple_of(64).max(DEFAULT_SIDE);
    (side(w), side(h))
}

pub fn place_centred(grid: &mut Grid, cells: &Grid) -> anyhow::Result<()> {
    if cells.width() > grid.width() || cells.height() > grid.height() {
        bail!(
            "the pattern is {}x{}, larger than the {}x{} torus",
            cells.width(),
            cells.height(),
            grid.width(),
            grid.height()
        );
    }
    let (x, y) = grid.centre_offset(cells.width(), cells.height());
    grid.paste(cells, x, y);
    Ok(())
}
