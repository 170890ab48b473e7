//! `lifelab hackenbush`: Green Hackenbush. The value of a picture (trees by the colon principle,
//! cycles by the fusion principle) and every winning cut.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use serde::Serialize;

use crate::games::hackenbush::{Cut, Hackenbush};

#[derive(clap::Args, Debug)]
pub struct HackenbushArgs {
    /// The picture, edges separated by ';', like 'g a; a b; a c' (g is the ground).
    pub picture: Option<String>,
    /// Read the picture from this file (`-`: standard input), one edge per line. Errors name the
    /// line and column.
    #[arg(long, value_name = "FILE", conflicts_with = "picture")]
    pub file: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Report {
    edges: usize,
    /// Edges not connected to the ground: they fall at once and count for nothing.
    fallen: Vec<usize>,
    value: u32,
    first_player_wins: bool,
    winning_moves: Vec<Cut>,
}

use crate::games::hackenbush::MAX_CUT_EDGES;

pub fn execute(args: HackenbushArgs) -> anyhow::Result<ExitCode> {
    let (name, text) = match (&args.picture, &args.file) {
        (Some(t), _) => ("the picture".to_string(), t.clone()),
        (None, Some(path)) => (path.display().to_string(), super::read_text(path)?),
        (None, None) => bail!("give a picture, like 'g a; a b; a c', or --file PICTURE.txt"),
    };
    let h = Hackenbush::parse(&text).map_err(|e| match args.file {
        Some(_) => anyhow::anyhow!(e.in_file(&name)),
        None => anyhow::anyhow!("{name}: {e}"),
    })?;
    let alive = h.grounded(&h.all());
    let value = h.value(&alive);
    if value != 0 && h.edges.len() > MAX_CUT_EDGES {
        bail!(
            "{} edges: the value is {value}, but trying every cut is limited to {MAX_CUT_EDGES} edges",
            h.edges.len()
        );
    }
    let report = Report {
        edges: h.edges.len(),
        fallen: (0..h.edges.len()).filter(|&e| !alive[e]).collect(),
        value,
        first_player_wins: value != 0,
        winning_moves: if value == 0 {
            Vec::new()
        } else {
            h.cuts_to(&alive, 0)
                .into_iter()
                .map(|e| Cut::new(&h, e, 0))
                .collect()
        },
    };
    if args.json {
        super::print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{} edges, value {} (the nim value: trees by the colon principle, cycles by the fusion principle)",
        report.edges,
        report.value
    )?;
    if !report.fallen.is_empty() {
        outln!(
            "{} edges are not connected to the ground and fall at once",
            report.fallen.len()
        )?;
    }
    if report.first_player_wins {
        outln!("the player to move wins; every winning cut:")?;
        for c in &report.winning_moves {
            outln!("  {}", h.describe(c.edge))?;
        }
    } else {
        outln!("the value is 0: the player to move loses against best play")?;
    }
    Ok(ExitCode::SUCCESS)
}
