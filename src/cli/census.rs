//! `lifelab census`: a soup census (apgsearch's soups and objects, a haul in Catagolue's
//! format), one soup as RLE, and merging hauls of shards.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use serde_json::json;

use crate::census::{self, Haul, Progress, Request, Symmetry};
use crate::rule::Rule;

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct CensusArgs {
    #[command(subcommand)]
    pub command: Option<CensusCommand>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The rule: B/S or isotropic non-totalistic, two states, not B0; or a rule file's rule that is one (its haul names it in Hensel's notation).
    #[arg(long, default_value = "B3/S23")]
    pub rule: String,
    /// C1, G1, C2_1, C2_2, C2_4, C4_1, C4_4, D2_+1, D2_+2, D2_x, D4_+1, D4_+2, D4_+4, D4_x1,
    /// D4_x4, D8_1, D8_4, 8x32, 4x64, 2x128 or 1x256.
    #[arg(long, default_value = "C1")]
    pub symmetry: String,
    /// The soups' seed strings are ROOT followed by the soup's number.
    #[arg(long, default_value = "k_lifelab_")]
    pub root: String,
    /// N (soups 0 to N-1) or A..B (soups A to B-1).
    #[arg(long)]
    pub soups: Option<String>,
    /// Where the haul is written (default: haul_<rule>_<symmetry>_<root>_<A>_<B>.txt).
    #[arg(long)]
    pub haul: Option<PathBuf>,
    /// Table rows printed (the haul has them all).
    #[arg(long, default_value_t = 30)]
    pub top: usize,
    /// Carry the soups through their first generations on the GPU, many to a dispatch; the
    /// CPU finishes each one from there. The census is the same, soup for soup.
    #[arg(long)]
    pub gpu: bool,
    /// With --gpu: cells a side of each soup's square on the GPU (a multiple of 32). A soup
    /// that reaches its square's edge goes on on the CPU.
    #[arg(long, default_value_t = 512, requires = "gpu")]
    pub square: u32,
    /// With --gpu: soups per GPU batch.
    #[arg(long, default_value_t = 1024, requires = "gpu")]
    pub batch: u32,
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Subcommand, Debug)]
#[command(defer = true)]
pub enum CensusCommand {
    /// One soup as RLE: the seed string is ROOT followed by INDEX, as apgsearch makes it.
    Soup {
        root: String,
        index: u64,
        #[arg(long, default_value = "C1")]
        symmetry: String,
        /// Also run it and list its objects (as comment lines).
        #[arg(long)]
        objects: bool,
        #[arg(long, default_value = "B3/S23")]
        rule: String,
        #[arg(long)]
        json: bool,
    },
    /// Add up hauls of the same root, rule and symmetry (shards of one range, run anywhere).
    Merge {
        #[arg(required = true)]
        hauls: Vec<PathBuf>,
        /// Where the merged haul is written.
        #[arg(long)]
        haul: PathBuf,
        #[arg(long)]
        json: bool,
    },
}

impl CensusArgs {
    pub fn json(&self) -> bool {
        match &self.command {
            Some(CensusCommand::Soup { json, .. } | CensusCommand::Merge { json, .. }) => *json,
            None => self.run.json,
        }
    }
}

pub fn execute(args: CensusArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        Some(CensusCommand::Soup {
            root,
            index,
            symmetry,
            objects,
            rule,
            json,
        }) => soup(&root, index, &symmetry, objects, &rule, json),
        Some(CensusCommand::Merge { hauls, haul, json }) => merge(&hauls, &haul, json),
        None => run(args.run),
    }
}

fn parse_symmetry(s: &str) -> anyhow::Result<Symmetry> {
    s.parse().map_err(|e: String| anyhow!("--symmetry {e}"))
}

fn parse_rule(s: &str) -> anyhow::Result<Rule> {
    let rule = Rule::parse(s).map_err(|e| anyhow!("--rule {e}"))?;
    census::census_table(&rule).map_err(|e| anyhow!("--rule {e}"))?;
    Ok(rule)
}

fn parse_soups(s: &str) -> anyhow::Result<(u64, u64)> {
    census::parse_soups(s.trim()).map_err(|e| anyhow!("--soups {e}"))
}

fn soup(
    root: &str,
    index: u64,
    symmetry: &str,
    objects: bool,
    rule: &str,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let symmetry = parse_symmetry(symmetry)?;
    let rule = if objects {
        parse_rule(rule)?
    } else {
        Rule::parse(rule).map_err(|e| anyhow!("--rule {e}"))?
    };
    let seed = format!("{root}{index}");
    let cells = census::soup::hashsoup(&seed, symmetry);
    let mut pattern = census::soup::soup_pattern(&cells, rule, format!("{seed} ({symmetry})"));
    let outcome = if objects {
        Some(census::one(rule, symmetry, root, index).map_err(|e| anyhow!(e))?)
    } else {
        None
    };
    if let Some(o) = &outcome {
        pattern
            .comments
            .push(format!("settles at generation {}", o.settled));
        pattern
            .comments
            .push(format!("objects: {}", o.objects.join(" ")));
    }
    let rle = crate::pattern::rle::write(&pattern);
    if json {
        outln!(
            "{}",
            json!({
                "seed": seed,
                "symmetry": symmetry.name(),
                "population": cells.len(),
                "rle": rle,
                "settled": outcome.as_ref().map(|o| o.settled),
                "objects": outcome.as_ref().map(|o| &o.objects),
            })
        )?;
    } else {
        for line in rle.lines() {
            outln!("{line}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn write_haul(haul: &Haul, path: &std::path::Path) -> anyhow::Result<()> {
    crate::pattern::write_atomically(path, haul.to_text().as_bytes())
        .with_context(|| format!("writing the haul to {}", path.display()))
}

/// The haul as JSON: every row of the table, as the text haul has them.
fn haul_json(haul: &Haul, path: &std::path::Path, stopped: bool) -> serde_json::Value {
    let table = haul.table();
    json!({
        "rule": haul.rule,
        "symmetry": haul.symmetry,
        "root": haul.root,
        "soups": haul.soups(),
        "ranges": haul.ranges,
        "objects": haul.objects(),
        "distinct": table.len(),
        "table": table,
        "longest": haul.longest.iter().map(|(settled, index)| json!({
            "soup": index,
            "seed": format!("{}{index}", haul.root),
            "settled": settled,
        })).collect::<Vec<_>>(),
        "haul": path.display().to_string(),
        "stopped": stopped,
    })
}

fn print_haul(haul: &Haul, path: &std::path::Path, top: usize) -> anyhow::Result<()> {
    let table = haul.table();
    outln!(
        "{} soups of {}/{} from root {}: {} objects, {} distinct",
        haul.soups(),
        haul.rule,
        haul.symmetry,
        haul.root,
        haul.objects(),
        table.len()
    )?;
    let total = haul.objects().max(1) as f64;
    for r in table.iter().take(top) {
        outln!(
            "{:>12}  {:>8.4}%  {}",
            r.count,
            100.0 * r.count as f64 / total,
            r.apgcode
        )?;
    }
    if table.len() > top {
        outln!("  ... and {} more in the haul", table.len() - top)?;
    }
    outln!("Longest-lived soups (the generation each settled at):")?;
    for (settled, index) in haul.longest.iter().take(10) {
        outln!(
            "  {settled:>8}  {}{index}   lifelab --pattern census:{}:{}:{index}",
            haul.root,
            haul.symmetry,
            haul.root
        )?;
    }
    outln!("haul written to {}", path.display())?;
    Ok(())
}

fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let symmetry = parse_symmetry(&args.symmetry)?;
    let rule = parse_rule(&args.rule)?;
    let Some(soups) = &args.soups else {
        bail!("--soups N (or A..B) says which soups to census");
    };
    let (first, end) = parse_soups(soups)?;
    let request = Request {
        rule,
        symmetry,
        root: args.root.clone(),
        first,
        end,
        gpu: args.gpu.then_some(census::GpuPath {
            side: args.square,
            batch: args.batch,
            ..Default::default()
        }),
    };
    // The adapter, opened before the clock starts.
    let adapter = if args.gpu {
        let ctx = crate::gpu::shared_context().map_err(|e| anyhow!("the GPU path: {e}"))?;
        Some(ctx.name().to_string())
    } else {
        None
    };
    let path = args.haul.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "haul_{}_{}_{}_{first}_{end}.txt",
            census::catagolue_rule(&rule),
            symmetry.name().replace('+', "p"),
            args.root
        ))
    });
    let progress = Arc::new(Progress::default());
    {
        let p = progress.clone();
        // Ctrl-C ends the census at a whole soup; the haul of what was done is still written.
        let _ = ctrlc::set_handler(move || p.stop.store(true, Ordering::Relaxed));
    }
    let total = end - first;
    let bar = (!args.json).then(|| {
        let bar = indicatif::ProgressBar::new(total).with_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} soups  {per_sec}  {msg}  {eta} left",
            )
            .expect("a valid template"),
        );
        bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        bar
    });
    let started = Instant::now();
    let haul = std::thread::scope(|s| {
        // The census says when it is done, so that its end is not held to the bar's next tick.
        let (done, finished) = std::sync::mpsc::channel();
        let (request, progress) = (&request, &progress);
        let worker = s.spawn(move || {
            let haul = census::run(request, progress);
            let _ = done.send(());
            haul
        });
        while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(Duration::from_millis(100))
        {
            if let Some(bar) = &bar {
                bar.set_position(progress.soups.load(Ordering::Relaxed));
                bar.set_message(format!(
                    "{} objects",
                    progress.objects.load(Ordering::Relaxed)
                ));
            }
        }
        worker
            .join()
            .map_err(|_| anyhow!("the census thread panicked"))?
            .map_err(|e| anyhow!(e))
    })?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let stopped = haul.soups() < total;
    write_haul(&haul, &path)?;
    if args.json {
        let mut v = haul_json(&haul, &path, stopped);
        v["seconds"] = json!(started.elapsed().as_secs_f64());
        v["gpu"] = json!(adapter);
        if args.gpu {
            v["gpu_path"] = gpu_tally(&progress.gpu);
        }
        outln!("{v}")?;
    } else {
        if stopped {
            outln!(
                "stopped: soups {first}..{} were censused (the haul is of those)",
                first + haul.soups()
            )?;
        }
        print_haul(&haul, &path, args.top)?;
        let secs = started.elapsed().as_secs_f64();
        if args.gpu {
            let t = gpu_tally(&progress.gpu);
            outln!(
                "the GPU settled {} soups and handed {} on still settling, {} at the first phase's end; {} were too big for their square; it ran {} generations in {:.2} s, and the CPU finished them in {:.2} s",
                t["settled"],
                t["handed_on"],
                t["phase_two"],
                t["on_cpu"],
                t["generations"],
                t["gpu_seconds"].as_f64().unwrap_or(0.0),
                t["cpu_seconds"].as_f64().unwrap_or(0.0)
            )?;
        }
        let on = adapter.map_or("the CPU".to_string(), |a| format!("the GPU path ({a})"));
        outln!(
            "{:.1} s, {:.0} soups/s on {on}",
            secs,
            haul.soups() as f64 / secs.max(1e-9)
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn gpu_tally(t: &census::GpuTally) -> serde_json::Value {
    let get = |a: &std::sync::atomic::AtomicU64| a.load(Ordering::Relaxed);
    json!({
        "settled": get(&t.settled),
        "handed_on": get(&t.handed_on),
        "phase_two": get(&t.phase_two),
        "on_cpu": get(&t.on_cpu),
        "generations": get(&t.generations),
        "gpu_seconds": get(&t.gpu_micros) as f64 / 1e6,
        "cpu_seconds": get(&t.cpu_micros) as f64 / 1e6,
    })
}

fn merge(files: &[PathBuf], out: &std::path::Path, json: bool) -> anyhow::Result<ExitCode> {
    let mut merged: Option<Haul> = None;
    for f in files {
        let name = f.display().to_string();
        let text = std::fs::read_to_string(f).with_context(|| format!("reading {name}"))?;
        let haul = Haul::parse(&text, &name)?;
        match &mut merged {
            None => merged = Some(haul),
            Some(m) => m.merge(&haul, &name)?,
        }
    }
    let merged = merged.ok_or_else(|| anyhow!("no hauls to merge"))?;
    write_haul(&merged, out)?;
    if json {
        outln!("{}", haul_json(&merged, out, false))?;
    } else {
        print_haul(&merged, out, 30)?;
    }
    Ok(ExitCode::SUCCESS)
}
