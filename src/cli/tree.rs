//! `lifelab tree`: a game tree in the notation `((+ -) (- -))`, or built from the rules of a
//! match game: each vertex's label by backward induction, the ranks, and the strategy.

use std::process::ExitCode;

use anyhow::bail;
use serde::Serialize;

use crate::games::matches::Matches;
use crate::games::tree::{self, Outcome, Tree, TreeError};

#[derive(clap::Args, Debug)]
pub struct TreeArgs {
    /// The tree, like '((+ -) (- -) (+ +))': leaves + (first player wins), - (second player
    /// wins), 0 (draw); lists are choices; the first player moves at the root.
    pub tree: Option<String>,

    /// Read the tree from this file (`-`: standard input): for trees too large for a command
    /// line. Errors name the line and column.
    #[arg(long, value_name = "FILE", conflicts_with = "tree")]
    pub file: Option<std::path::PathBuf>,

    /// Instead, the tree of a match game with this many matches (with --take, --misere).
    #[arg(long, value_name = "COUNT", conflicts_with_all = ["tree", "file"])]
    pub matches: Option<u64>,

    #[arg(long, default_value = "1..2")]
    pub take: String,

    /// The last one to take loses.
    #[arg(long)]
    pub misere: bool,

    /// The most vertices to build.
    #[arg(long, default_value_t = 100_000)]
    pub limit: usize,

    #[arg(long)]
    pub json: bool,
}

/// A vertex of the JSON report. Vertices are numbered in preorder (the order of the notation),
/// the root 0; `parent` links them, so the report grows linearly even for very deep trees.
#[derive(Serialize)]
struct VertexReport {
    id: usize,
    parent: Option<usize>,
    depth: u32,
    #[serde(skip_serializing_if = "String::is_empty")]
    r#move: String,
    label: Outcome,
    /// The longest play from the vertex.
    rank: u32,
    /// The seed's rank by level: the root is 1, odd levels are the first player's.
    level: u32,
    first_to_move: bool,
    leaf: bool,
}

#[derive(Serialize)]
struct StrategyReport {
    player: &'static str,
    /// The result it guarantees at least, from the first player's point of view.
    secures: Outcome,
    arrows: Vec<Arrow>,
}

#[derive(Serialize)]
struct Arrow {
    from: usize,
    to: usize,
}

#[derive(Serialize)]
struct TreeReport {
    label: Outcome,
    rank: u32,
    vertex_count: usize,
    depth: u32,
    vertices: Vec<VertexReport>,
    strategy: Vec<Arrow>,
    strategy_for: &'static str,
    /// For a draw, one for each player.
    strategies: Vec<StrategyReport>,
    ranks: &'static str,
}

const RANKS: &str = "rank: the longest play from a vertex (0 at a leaf); level: the seed's rank \
     by level from the root (the root is level 1, odd levels are the first player's moves)";

fn player(first: bool) -> &'static str {
    if first {
        "first player"
    } else {
        "second player"
    }
}

/// The largest tree the text report lists vertex by vertex.
const MAX_LISTED_VERTICES: usize = 100_000;
const MAX_LISTED_DEPTH: u32 = 100;

pub fn execute(args: TreeArgs) -> anyhow::Result<ExitCode> {
    let tree = match (&args.tree, &args.file, args.matches) {
        (Some(text), _, _) => {
            Tree::parse(text).map_err(|e| anyhow::anyhow!("tree '{text}': {e}"))?
        }
        (None, Some(path), _) => {
            let text = super::read_text(path)?;
            let name = path.display();
            // file:line:column, as for pattern files.
            Tree::parse(&text).map_err(|e| match e {
                TreeError::Syntax {
                    line,
                    column,
                    message,
                } => anyhow::anyhow!("{name}:{line}:{column}: {message}"),
                other => anyhow::anyhow!("{name}: {other}"),
            })?
        }
        (None, None, Some(count)) => {
            let game = Matches {
                count,
                take: super::grundy::parse_take(&args.take)?,
                misere: args.misere,
            };
            // The tree is counted before it is built: a limit past what memory holds is
            // refused up front with what the tree would take.
            let per = std::mem::size_of::<tree::Vertex>() as u64 + 8 + 64;
            let memory = crate::memory::limit();
            let fits = memory.bytes / per;
            let cap = (args.limit as u64).min(fits);
            if game.tree_vertices(cap).is_none() {
                if cap < args.limit as u64 {
                    bail!(
                        "--matches {count}: the tree has more than {cap} vertices, which would take more than {} at about {per} bytes a vertex, more than {memory}",
                        crate::memory::human_bytes(cap.saturating_mul(per))
                    );
                }
                bail!(
                    "--matches {count}: the tree has more than {} vertices (--limit)",
                    args.limit
                );
            }
            tree::build(&game, count, cap as usize)?
        }
        (None, None, None) => {
            bail!("give a tree, like '((+ -) (- -))', or --matches 6 --take 1..2 --misere")
        }
    };
    let a = tree.analyse();
    let strategy_for = player(a.strategies[0].first_player);
    let report = TreeReport {
        label: a.labels[0],
        rank: a.ranks[0],
        vertex_count: tree.vertices.len(),
        depth: tree.vertices.iter().map(|v| v.depth).max().unwrap_or(0),
        vertices: (0..tree.vertices.len())
            .map(|v| VertexReport {
                id: v,
                parent: tree.vertices[v].parent,
                depth: tree.vertices[v].depth,
                r#move: tree.vertices[v].label.clone(),
                label: a.labels[v],
                rank: a.ranks[v],
                level: tree.level(v),
                first_to_move: tree.first_to_move(v),
                leaf: tree.vertices[v].leaf.is_some(),
            })
            .collect(),
        strategy: a
            .strategy
            .iter()
            .map(|&(from, to)| Arrow { from, to })
            .collect(),
        strategy_for,
        strategies: a
            .strategies
            .iter()
            .map(|s| StrategyReport {
                player: player(s.first_player),
                secures: s.secures,
                arrows: s
                    .arrows
                    .iter()
                    .map(|&(from, to)| Arrow { from, to })
                    .collect(),
            })
            .collect(),
        ranks: RANKS,
    };
    if args.json {
        super::print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let winner = match report.label {
        Outcome::FirstWins => "the first player wins",
        Outcome::SecondWins => "the second player wins",
        Outcome::Draw => "a draw",
    };
    outln!(
        "value {} ({winner}), rank {}",
        report.label.symbol(),
        report.rank
    )?;
    if report.depth > MAX_LISTED_DEPTH || report.vertex_count > MAX_LISTED_VERTICES {
        // Indentation and paths grow with depth: a listing of a very deep tree would be
        // quadratic in its size.
        outln!(
            "{} vertices, {} deep: too large to list (at most {MAX_LISTED_VERTICES} vertices, \
             {MAX_LISTED_DEPTH} deep); --json reports every vertex",
            report.vertex_count,
            report.depth
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!("({RANKS})")?;
    // Each strategy's arrows are marked with its own sign.
    let marks = ["==>", "~~>"];
    let mut arrows: std::collections::HashMap<usize, String> = Default::default();
    for (s, mark) in a.strategies.iter().zip(marks) {
        let guarantee = match (s.secures, s.first_player) {
            (Outcome::Draw, _) => "at least a draw",
            _ => "the win",
        };
        outln!(
            "strategy of the {} ({guarantee}): arrows marked {mark}",
            player(s.first_player)
        )?;
        for &(_, t) in &s.arrows {
            arrows.insert(t, mark.to_string());
        }
    }
    // Depth-first, children in order.
    let mut stack = vec![0usize];
    while let Some(v) = stack.pop() {
        let vx = &tree.vertices[v];
        let indent = "  ".repeat(vx.depth as usize);
        let arrow = arrows
            .get(&v)
            .map_or("    ".to_string(), |m| format!("{m} "));
        let name = if vx.label.is_empty() {
            tree.path(v)
        } else {
            vx.label.clone()
        };
        match vx.leaf {
            Some(o) => outln!("{indent}{arrow}{name}: leaf {}", o.symbol())?,
            None => outln!(
                "{indent}{arrow}{name}: {} rank {}, level {} ({} to move)",
                a.labels[v].symbol(),
                a.ranks[v],
                tree.level(v),
                if tree.first_to_move(v) {
                    "first"
                } else {
                    "second"
                },
            )?,
        }
        stack.extend(vx.children.iter().rev());
    }
    Ok(ExitCode::SUCCESS)
}
