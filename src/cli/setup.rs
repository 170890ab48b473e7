//! The flags `run`, `check` and `analyze` share. They only describe what the user asked for;
//! `session::setup` turns that into a simulation, for the app as well.

pub use crate::session::setup::{parse_size, resolve_pattern};
use crate::session::{Simulation, Spec};

#[derive(clap::Args, Debug, Clone, Default)]
pub struct SimArgs {
    /// The rule: B3/S23, 23/3, B2/S34H, B2(1/3)/S12H, non-totalistic B2-a/S12, a MAP string, a
    /// name such as HighLife, W110, or a formula of x, y, z. A ':T<w>,<h>' suffix sets the
    /// torus. Default: the pattern's own rule, else Life.
    #[arg(long, value_name = "RULE")]
    pub rule: Option<String>,

    /// A library pattern (acorn, glider, gosper-glider-gun, ...) or a pattern file (.rle,
    /// .cells, .lif, .mc, .mcl, and .gz of them). It runs on the unbounded plane, centred on
    /// the origin, unless --size, the rule or the file gives a torus.
    #[arg(long, value_name = "NAME|FILE", conflicts_with = "random")]
    pub pattern: Option<String>,

    /// Fill the torus at random with this density (0 to 1) instead of a pattern.
    #[arg(long, value_name = "DENSITY", value_parser = density)]
    pub random: Option<f64>,

    /// Seed of the random fill and of stochastic rules.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Torus size WxH, or N for NxN (for an elementary rule, N is the ring length). Default:
    /// the rule's or the file's ':T' suffix; a pattern without one runs on the plane, a soup or
    /// an empty universe on 1024x1024. With --plane: the size of a random soup.
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,

    /// Run on the unbounded plane (Golly's default universe, and lifelab's for a pattern)
    /// instead of a torus.
    #[arg(long, conflicts_with = "start")]
    pub plane: bool,

    /// Elementary rules: the start row. 'center' (one live cell in the middle), 'right' (one
    /// at the right end), 'random:K' (K random live cells) or a row such as '..#.##.'.
    #[arg(long, value_name = "START")]
    pub start: Option<String>,
}

// The GPU engine's kernel flags (`run`). Not a doc comment: clap would make it the about of
// the command it is flattened into, once that command's arguments are deferred.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct GpuArgs {
    /// The GPU kernel: tiles (active tiles, with dense stretches blocked; the default), sparse
    /// (active tiles only), blocked (the whole torus, several generations per dispatch) or
    /// dense (the whole torus, one generation per dispatch).
    #[arg(long, value_enum, default_value = "tiles")]
    pub kernel: super::choices::KernelArg,

    /// GPU: generations per dispatch of the blocked kernel, 1 to 16 (default: the adapter's).
    #[arg(long, value_name = "K", value_parser = block)]
    pub block: Option<u32>,
}

/// Generations per blocked dispatch.
pub(crate) fn block(text: &str) -> Result<u32, String> {
    let max = crate::gpu::life::MAX_BLOCK;
    match text.trim().parse::<u32>() {
        Ok(k) if (1..=max).contains(&k) => Ok(k),
        _ => Err(format!(
            "'{text}': the generations per dispatch must be a whole number from 1 to {max}"
        )),
    }
}

fn density(text: &str) -> Result<f64, String> {
    let d: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number"))?;
    if (0.0..=1.0).contains(&d) {
        Ok(d)
    } else {
        Err(format!("{d}: the density must be between 0 and 1"))
    }
}

impl SimArgs {
    pub fn spec(&self) -> Spec {
        Spec {
            rule: self.rule.clone(),
            pattern: self.pattern.clone(),
            random: self.random,
            seed: self.seed,
            size: self.size.clone(),
            start: self.start.clone(),
            plane: self.plane,
        }
    }

    pub fn build(&self) -> anyhow::Result<Simulation> {
        self.spec().build()
    }

    /// Whether any work flag was given (`check` runs its suite otherwise).
    pub fn any(&self) -> bool {
        self.rule.is_some()
            || self.pattern.is_some()
            || self.random.is_some()
            || self.size.is_some()
            || self.start.is_some()
            || self.plane
    }
}

/// `--engine`: `auto` or an engine of the registry.
pub fn engine_name(text: &str) -> Result<String, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("auto") || crate::registry::find(t).is_some() {
        Ok(t.to_lowercase())
    } else {
        Err(format!(
            "no engine called '{t}' (engines: auto, {})",
            crate::registry::names().join(", ")
        ))
    }
}
