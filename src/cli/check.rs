//! `lifelab check`: the same work on an engine (the GPU by default) and on the CPU reference,
//! compared bit for bit after every generation. Without work flags it runs the built-in
//! conformance suite. Exits 1 on any difference, naming the rule, generation and cell.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use serde::Serialize;

use super::setup::{SimArgs, engine_name};
use crate::check::{self, Case, Fault, Mismatch};
use crate::engine::{EngineKind, Universe};
use crate::registry::{self, Request};

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub sim: SimArgs,

    /// Generations to compare (with work flags; the suite chooses its own).
    #[arg(long, default_value_t = 100)]
    pub gens: u64,

    /// The engine to check against the reference: gpu, cpu, tiles or hashlife. Cases the
    /// engine does not run (HashLife and stochastic rules, say) are counted as skipped.
    #[arg(long, default_value = "gpu", value_parser = engine_name)]
    pub engine: String,

    /// How the GPU shader gets the rule.
    #[arg(long, value_enum, default_value = "specialised")]
    pub shader: super::choices::ShaderArg,

    /// The GPU kernel for every case (default: each case's own; the suite's groups of the
    /// tile and blocked kernels name theirs, the rest run the default, tiles).
    #[arg(long, value_enum)]
    pub kernel: Option<super::choices::KernelArg>,

    /// GPU: generations per dispatch of the blocked kernel for every case, 1 to 16.
    #[arg(long, value_name = "K", value_parser = super::setup::block)]
    pub block: Option<u32>,

    /// Generations between comparisons of the given work (default 1: every generation); the
    /// blocked kernel advances up to --block of them per dispatch.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub stride: u64,

    /// Print one JSON object (a summary) instead of text.
    #[arg(long)]
    pub json: bool,

    /// Flip cell X,Y of the engine under test after generation GEN (tests the checker).
    #[arg(long, hide = true, value_name = "GEN,X,Y")]
    pub inject_fault: Option<String>,
}

#[derive(Serialize)]
struct GroupReport {
    name: String,
    cases: usize,
    seconds: f64,
}

#[derive(Serialize)]
struct CheckReport {
    passed: bool,
    engine: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    adapter: Option<String>,
    cases: usize,
    /// Cases the engine does not support, left out.
    skipped: usize,
    generations: u64,
    groups: Vec<GroupReport>,
    mismatch: Option<Mismatch>,
    seconds: f64,
}

fn parse_fault(text: &str) -> anyhow::Result<Fault> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [g, x, y] = parts[..] else {
        bail!("--inject-fault {text}: expected GEN,X,Y");
    };
    let num = |s: &str| {
        s.parse::<u64>()
            .with_context(|| format!("--inject-fault {text}: '{s}' is not a number"))
    };
    Ok(Fault {
        generation: num(g)?,
        x: num(x)? as u32,
        y: num(y)? as u32,
    })
}

pub fn execute(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let kind = registry::find(&args.engine).map(|s| s.kind);
    if args.engine.eq_ignore_ascii_case("auto") || kind == Some(EngineKind::Reference) {
        bail!(
            "--engine {} would compare the reference with itself; choose gpu, cpu, tiles or hashlife",
            args.engine
        );
    }
    let fault = args.inject_fault.as_deref().map(parse_fault).transpose()?;
    let adapter = if kind.is_some_and(EngineKind::on_gpu) {
        Some(crate::gpu::shared_context()?.name().to_string())
    } else {
        None
    };
    let s = &args.sim;
    let groups: Vec<check::Group> = if s.any() {
        let sim = s.build()?;
        vec![check::Group {
            name: "the given work",
            cases: vec![Case {
                label: sim.source.clone(),
                rule: sim.rule,
                start: sim.start_grid()?,
                seed: sim.seed,
                gens: args.gens,
                options: Default::default(),
                stride: args.stride,
            }],
        }]
    } else {
        check::suite()
    };
    let spec = registry::find(&args.engine).expect("checked by the flag's parser");
    if !args.json {
        println!(
            "checking the {} engine{} against the reference engine",
            args.engine,
            adapter
                .as_deref()
                .map(|a| format!(" on {a}"))
                .unwrap_or_default()
        );
    }

    let started = Instant::now();
    let mut report = CheckReport {
        passed: true,
        engine: spec.name,
        adapter,
        cases: 0,
        skipped: 0,
        generations: 0,
        groups: Vec::new(),
        mismatch: None,
        seconds: 0.0,
    };
    'groups: for group in groups {
        let t = Instant::now();
        let mut done = 0;
        for mut case in group.cases {
            case.options.gpu.shader = args.shader.into();
            if let Some(k) = args.kernel {
                case.options.gpu.kernel = k.into();
            }
            if args.block.is_some() {
                case.options.gpu.block = args.block;
            }
            let universe = Universe::torus(case.start.width(), case.start.height());
            if (spec.supports)(&Request::new(case.rule, universe)).is_err() {
                report.skipped += 1;
                continue;
            }
            let found = check::run_case(spec.name, &case, fault)
                .with_context(|| format!("{} ({}, {})", case.rule, case.label, group.name))?;
            report.cases += 1;
            done += 1;
            report.generations += case.gens;
            if let Some(m) = found {
                report.passed = false;
                report.mismatch = Some(m);
                report.groups.push(GroupReport {
                    name: group.name.to_string(),
                    cases: done,
                    seconds: t.elapsed().as_secs_f64(),
                });
                break 'groups;
            }
        }
        let g = GroupReport {
            name: group.name.to_string(),
            cases: done,
            seconds: t.elapsed().as_secs_f64(),
        };
        if !args.json {
            println!(
                "ok   {:<50} {:>5} cases {:>8.2} s",
                g.name, g.cases, g.seconds
            );
        }
        report.groups.push(g);
    }
    report.seconds = started.elapsed().as_secs_f64();

    if args.json {
        super::print_json(&report)?;
    } else if let Some(m) = &report.mismatch {
        println!("MISMATCH {m}");
    } else {
        println!(
            "passed: {} cases, {} generations compared bit for bit, {:.1} s{}",
            report.cases,
            report.generations,
            report.seconds,
            if report.skipped > 0 {
                format!(
                    " ({} cases the {} engine does not run were skipped)",
                    report.skipped, spec.name
                )
            } else {
                String::new()
            }
        );
    }
    Ok(if report.passed {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "error: {} differs from the reference: {}",
            spec.name,
            report.mismatch.as_ref().expect("set")
        );
        ExitCode::FAILURE
    })
}
