//! `lifelab grundy`: Sprague–Grundy values of subtraction and octal games, Grundy's game, sums
//! of different games, games given by their move graph, the game of N, and the x XOR y table as
//! a picture.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use serde::Serialize;

use crate::games::graph::{GValue, MoveGraph};
use crate::games::grundy::{self, TakeSet};
use crate::games::octal::{self, HeapGame, HeapMove, Periodicity};
use crate::games::retro::Value;
use crate::games::{misere, sum};

#[derive(clap::Args, Debug)]
pub struct GrundyArgs {
    #[command(subcommand)]
    pub command: GrundyCommand,
}

#[derive(clap::Subcommand, Debug)]
#[command(defer = true)]
pub enum GrundyCommand {
    /// One heap; a move takes an amount from the take-set: the g sequence and its period.
    Subtract {
        /// The take-set: 1..3 (inclusive), 3 (same as 1..3) or a list 1,3,4.
        #[arg(long)]
        take: String,
        /// Show g(0) to g(UPTO).
        #[arg(long, default_value_t = 20)]
        upto: u64,
        /// Misère play: which heaps up to UPTO are lost, by direct search.
        #[arg(long)]
        misere: bool,
        #[arg(long)]
        json: bool,
    },
    /// Several heaps of a subtraction game: g of the sum and every winning move.
    Heaps {
        #[arg(value_name = "HEAP", allow_negative_numbers = true, required = true)]
        heaps: Vec<String>,
        #[arg(long)]
        take: String,
        /// Misère play, by direct search.
        #[arg(long)]
        misere: bool,
        #[arg(long)]
        json: bool,
    },
    /// An octal game by its code (0.77, 4.7) or name (kayles, dawsons-kayles, dawsons-chess,
    /// treblecross, guiles, officers): the nim-sequence, its period certified by the Guy–Smith
    /// theorem, and with HEAPs the winning moves.
    Octal {
        /// The code, like 0.77 or 0.137, or a name.
        game: String,
        /// A position of several heaps, like 7 5 3.
        #[arg(value_name = "HEAP", allow_negative_numbers = true)]
        heaps: Vec<String>,
        /// Show g(0) to g(UPTO).
        #[arg(long, default_value_t = 40)]
        upto: u64,
        /// Misère play, by direct search.
        #[arg(long)]
        misere: bool,
        #[arg(long)]
        json: bool,
    },
    /// Grundy's game: split a heap into two unequal heaps. Its sequence is not known to be
    /// periodic.
    #[command(name = "grundys-game")]
    GrundysGame {
        #[arg(value_name = "HEAP", allow_negative_numbers = true)]
        heaps: Vec<String>,
        #[arg(long, default_value_t = 40)]
        upto: u64,
        #[arg(long)]
        misere: bool,
        #[arg(long)]
        json: bool,
    },
    /// A sum of different games: its value and every winning move ("component k, move m").
    /// Components: 7 or nim:7, kayles:7 (any name or code, several heaps 7,5), sub:1,3,4:10,
    /// grundys-game:9, wythoff:3,5, hackenbush:FILE, graph:FILE or graph:FILE:VERTEX.
    Sum {
        #[arg(value_name = "COMPONENT", required = true)]
        components: Vec<String>,
        /// Misère play, by direct search of the whole sum.
        #[arg(long)]
        misere: bool,
        #[arg(long)]
        json: bool,
    },
    /// A game given by its move graph (lines `a: b c`; cycles allowed): each vertex's
    /// generalised Sprague–Grundy value (n, or ∞ for positions that can be drawn) and outcome.
    Graph {
        /// The graph file (`-`: standard input).
        #[arg(long, value_name = "FILE")]
        file: PathBuf,
        /// Misère play: outcomes by retrograde analysis.
        #[arg(long)]
        misere: bool,
        #[arg(long)]
        json: bool,
    },
    /// "The game of N" with five dominoes worth 1..5: who wins, and the winning first moves.
    Dominoes {
        #[arg(long)]
        target: u64,
        #[arg(long)]
        json: bool,
    },
    /// The table v(m, n) = m XOR n of the one-sided rook (two-heap Nim), as a picture.
    Table {
        /// q: the table is q x q (a power of two shows the fractal best).
        #[arg(long, default_value_t = 64)]
        size: u64,
        /// Write the coloured table here.
        #[arg(long, value_name = "FILE.png")]
        png: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
}

impl GrundyArgs {
    pub fn json(&self) -> bool {
        match &self.command {
            GrundyCommand::Subtract { json, .. }
            | GrundyCommand::Heaps { json, .. }
            | GrundyCommand::Octal { json, .. }
            | GrundyCommand::GrundysGame { json, .. }
            | GrundyCommand::Sum { json, .. }
            | GrundyCommand::Graph { json, .. }
            | GrundyCommand::Dominoes { json, .. }
            | GrundyCommand::Table { json, .. } => *json,
        }
    }
}

/// The largest sequence or table lifelab computes.
const MAX_UPTO: u64 = 100_000_000;
const MAX_TABLE: u64 = 4096;
/// The most options a sequence asked for may look at (a few seconds).
const MAX_WORK: u128 = 2_000_000_000;
/// The most options the search for a period looks at (about a second).
const PERIOD_BUDGET: u128 = 300_000_000;
/// The most heaps a misère sequence lists, each searched on its own.
const MAX_MISERE_UPTO: u64 = 200;

pub fn parse_take(text: &str) -> anyhow::Result<TakeSet> {
    TakeSet::parse(text).with_context(|| format!("--take {text}"))
}

/// Refuses a sequence that would take too long, with the estimate.
fn check_work(game: &HeapGame, upto: u64) -> anyhow::Result<()> {
    if upto > MAX_UPTO {
        bail!("--upto {upto}: at most {MAX_UPTO} values");
    }
    let work = game.cost(upto);
    if work > MAX_WORK {
        bail!(
            "--upto {upto}: {} up to {upto} means looking at about {work} moves (more than \
             {MAX_WORK}, a few seconds); choose a smaller bound",
            game.name()
        );
    }
    Ok(())
}

/// `grundy heaps`: a position, the shape of `nim --json`, with the game it is played in.
#[derive(Serialize)]
struct HeapsReport {
    game: String,
    #[serde(flatten)]
    position: PositionReport,
}

/// A heap game's sequence, period and, for a position, its winning moves.
#[derive(Serialize)]
struct SequenceReport {
    game: String,
    values: Vec<u32>,
    period: Option<u64>,
    preperiod: Option<u64>,
    certified: bool,
    last_exceptional: Option<u64>,
    /// How the period is established: the theorem and the range checked.
    check: Option<String>,
    /// How many values were computed to look for the period.
    computed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    misere_lost: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<PositionReport>,
}

/// A position of several heaps: the shape of `nim --json`.
#[derive(Serialize)]
struct PositionReport {
    heaps: Vec<u64>,
    misere: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    grundy_values: Option<Vec<u32>>,
    /// The XOR of the heaps' values (normal play).
    #[serde(skip_serializing_if = "Option::is_none")]
    nim_sum: Option<u32>,
    first_player_wins: bool,
    /// The first [`octal::MAX_LISTED`] winning moves.
    winning_moves: Vec<HeapMove>,
    /// How many winning moves there are (more than listed for a huge heap that splits).
    winning_move_count: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    positions_searched: Option<usize>,
}

#[derive(Serialize)]
struct TableReport {
    size: u64,
    /// Every entry checked: the mex rule's value of the one-sided rook equals m XOR n.
    equals_xor: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    png: Option<PathBuf>,
}

pub fn execute(args: GrundyArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        GrundyCommand::Subtract {
            take,
            upto,
            misere,
            json,
        } => return subtract(&take, upto, misere, json),
        GrundyCommand::Heaps {
            heaps,
            take,
            misere,
            json,
        } => {
            let heaps = super::nim::parse_heaps(&heaps)?;
            let game = HeapGame::Subtraction(parse_take(&take)?);
            heaps_command(game, heaps, misere, json)?
        }
        GrundyCommand::Octal {
            game,
            heaps,
            upto,
            misere,
            json,
        } => {
            let game = HeapGame::parse(&game)?;
            let heaps = super::nim::parse_heaps(&heaps)?;
            return sequence(game, heaps, Some(upto), misere, json);
        }
        GrundyCommand::GrundysGame {
            heaps,
            upto,
            misere,
            json,
        } => {
            let heaps = super::nim::parse_heaps(&heaps)?;
            return sequence(HeapGame::Grundys, heaps, Some(upto), misere, json);
        }
        GrundyCommand::Sum {
            components,
            misere,
            json,
        } => sum_command(&components, misere, json)?,
        GrundyCommand::Graph { file, misere, json } => graph_command(&file, misere, json)?,
        GrundyCommand::Dominoes { target, json } => {
            let r = grundy::dominoes(target);
            if json {
                super::print_json(&r)?;
            } else if r.first_player_wins {
                let s: Vec<String> = r.winning_first_moves.iter().map(u8::to_string).collect();
                outln!(
                    "N = {target}: the first player wins by putting the coin on {}",
                    s.join(" or ")
                )?;
            } else {
                outln!("N = {target}: the second player wins: every first move loses")?;
            }
        }
        GrundyCommand::Table { size, png, json } => {
            if size == 0 || size > MAX_TABLE {
                bail!("--size {size}: the table size must be between 1 and {MAX_TABLE}");
            }
            let table = grundy::rook_table(size);
            let equals_xor = table
                .iter()
                .enumerate()
                .all(|(m, row)| row.iter().enumerate().all(|(n, &v)| v as usize == m ^ n));
            if let Some(path) = &png {
                write_png(&table, size as u32, path)?;
            }
            if json {
                super::print_json(&TableReport {
                    size,
                    equals_xor,
                    png,
                })?;
            } else {
                if size <= 16 {
                    for row in &table {
                        let s: Vec<String> = row.iter().map(|v| format!("{v:>2}")).collect();
                        outln!("  {}", s.join(" "))?;
                    }
                }
                outln!(
                    "v(m, n) of the one-sided rook {} m XOR n for all m, n < {size}",
                    if equals_xor { "equals" } else { "DIFFERS FROM" }
                )?;
                if let Some(p) = &png {
                    outln!("wrote {}", p.display())?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn subtract(take: &str, upto: u64, misere: bool, json: bool) -> anyhow::Result<ExitCode> {
    let game = HeapGame::Subtraction(parse_take(take)?);
    sequence(game, Vec::new(), Some(upto), misere, json)
}

/// `grundy heaps`: g of each heap and of the sum, and every winning move (normal play), or the
/// outcome by direct search (misère).
fn heaps_command(game: HeapGame, heaps: Vec<u64>, misere: bool, json: bool) -> anyhow::Result<()> {
    let top = heaps.iter().copied().max().unwrap_or(0);
    let (values, found) = if misere {
        (Vec::new(), None)
    } else {
        values_reaching(&game, 0, top)?
    };
    let position = position_report(&game, heaps, misere, &values, found.as_ref())?;
    if json {
        return super::print_json(&HeapsReport {
            game: game.name(),
            position,
        });
    }
    outln!("{}:", game.name())?;
    position_lines(&game, &position, &values, found.as_ref())
}

/// The check behind a period, in words.
fn check_text(p: &Periodicity) -> String {
    if p.certified {
        format!(
            "{}; checked for {} <= n < {} (needed up to {})",
            p.theorem, p.preperiod, p.checked_to, p.needed
        )
    } else if p.needed == u64::MAX {
        format!(
            "{}; g(n + {}) = g(n) holds for {} <= n < {} but proves nothing beyond",
            p.theorem, p.period, p.preperiod, p.checked_to
        )
    } else {
        format!(
            "not certified: {}; only checked for {} <= n < {}",
            p.theorem, p.preperiod, p.checked_to
        )
    }
}

fn period_lines(found: Option<&Periodicity>, computed: u64) -> anyhow::Result<()> {
    match found {
        Some(p) => {
            let last = match p.last_exception {
                Some(n) => format!("last exceptional value at n = {n}"),
                None => "no exceptional values".to_string(),
            };
            outln!(
                "{} period {} from n = {} ({last}){}",
                if p.certified {
                    "periodic with"
                } else {
                    "apparently periodic with"
                },
                p.period,
                p.preperiod,
                if p.certified { ", certified:" } else { ":" }
            )?;
            outln!("  {}", check_text(p))?;
            outln!("  ({computed} values computed)")?;
        }
        None => outln!("no period within the first {computed} values")?,
    }
    Ok(())
}

/// Heaps 0..=upto lost for the player to move under misère play, each by direct search.
fn misere_sequence(game: &HeapGame, upto: u64) -> anyhow::Result<Vec<u64>> {
    if upto > MAX_MISERE_UPTO {
        bail!("--upto {upto} with --misere: at most {MAX_MISERE_UPTO} heaps, each searched whole");
    }
    let mut lost = Vec::new();
    for n in 0..=upto {
        let (wins, _, _) = misere::heaps_misere(game, &[n], misere::SEARCH_LIMIT)
            .with_context(|| format!("a heap of {n} under misère play"))?;
        if !wins {
            lost.push(n);
        }
    }
    Ok(lost)
}

fn misere_lines(lost: &[u64], upto: u64) -> anyhow::Result<()> {
    let s: Vec<String> = lost.iter().map(u64::to_string).collect();
    outln!(
        "misère play (the last mover loses), by direct search: the heaps up to {upto} lost for \
         the player to move: {}",
        s.join(" ")
    )?;
    Ok(())
}

/// g(0..=show) and, for heaps up to `top`, their values: from the period the search
/// certifies, so a heap of any size is answered, else computed up to `top` when that is
/// within [`MAX_WORK`].
fn values_reaching(
    game: &HeapGame,
    show: u64,
    top: u64,
) -> anyhow::Result<(Vec<u32>, Option<Periodicity>)> {
    check_work(game, show)?;
    let (mut values, found) = game.search_period(show, PERIOD_BUDGET);
    let certified = found.as_ref().is_some_and(|p| p.certified);
    if (values.len() as u64) <= top && !certified {
        let cost = game.cost(top);
        if top > MAX_UPTO || cost > MAX_WORK {
            let beyond = if top > MAX_UPTO {
                format!("its values up to {top} are past the {MAX_UPTO} lifelab computes")
            } else {
                format!(
                    "its values up to {top} mean looking at about {cost} moves (more than \
                     {MAX_WORK}, a few seconds)"
                )
            };
            let why = match game {
                HeapGame::Grundys => "Grundy's game is not known to be periodic".to_string(),
                HeapGame::Nim => "Nim is never periodic (lifelab nim takes any heap)".to_string(),
                _ => format!(
                    "no period is certified within its first {} values",
                    values.len()
                ),
            };
            bail!("a heap of {top} in {}: {why}, and {beyond}", game.name());
        }
        values = game.values(top);
    }
    Ok((values, found))
}

/// A position's answer: by its values under normal play (through the period for huge heaps),
/// by direct search under misère play.
fn position_report(
    game: &HeapGame,
    heaps: Vec<u64>,
    misere: bool,
    values: &[u32],
    found: Option<&Periodicity>,
) -> anyhow::Result<PositionReport> {
    if misere {
        let (wins, moves, searched) = misere::heaps_misere(game, &heaps, misere::SEARCH_LIMIT)?;
        return Ok(PositionReport {
            heaps,
            misere: true,
            grundy_values: None,
            nim_sum: None,
            first_player_wins: wins,
            winning_move_count: moves.len() as u64,
            winning_moves: moves,
            positions_searched: Some(searched),
        });
    }
    let w =
        octal::moves_to_value(game, values, found, &heaps, 0, octal::MAX_LISTED).map_err(|n| {
            anyhow::anyhow!("the value of a heap of {n} in {} is not known", game.name())
        })?;
    let g = |h: u64| HeapGame::value_at(values, found, h).unwrap_or(0);
    Ok(PositionReport {
        grundy_values: Some(heaps.iter().map(|&h| g(h)).collect()),
        heaps,
        misere: false,
        nim_sum: Some(w.total),
        first_player_wins: w.total != 0,
        winning_moves: w.moves,
        winning_move_count: w.count,
        positions_searched: None,
    })
}

fn position_lines(
    game: &HeapGame,
    p: &PositionReport,
    values: &[u32],
    found: Option<&Periodicity>,
) -> anyhow::Result<()> {
    let heaps: Vec<String> = p.heaps.iter().map(u64::to_string).collect();
    outln!(
        "position {} ({}):",
        heaps.join(" "),
        if p.misere {
            "misère play, by direct search"
        } else {
            "normal play"
        }
    )?;
    if let (Some(g), Some(total)) = (&p.grundy_values, p.nim_sum) {
        let g: Vec<String> = g.iter().map(u32::to_string).collect();
        outln!("  values {}; their XOR {total}", g.join(" "))?;
    }
    if let Some(n) = p.positions_searched {
        outln!("  {n} positions searched")?;
    }
    if !p.first_player_wins {
        return Ok(outln!("  the player to move loses against best play")?);
    }
    outln!("  the player to move wins; every winning move (heaps counted from 1):")?;
    // Bouton's rule: the first move that lowers a heap's value (to its value XOR the sum).
    let g = |n: u64| HeapGame::value_at(values, found, n);
    let lowers = |m: &HeapMove| {
        let after = match m.into {
            Some([a, b]) => g(a).zip(g(b)).map(|(x, y)| x ^ y),
            None => g(m.leaves),
        };
        after < g(p.heaps[m.heap])
    };
    let textbook = (!p.misere && !matches!(game, HeapGame::Octal(_) | HeapGame::Grundys))
        .then(|| p.winning_moves.iter().position(lowers))
        .flatten();
    for (k, m) in p.winning_moves.iter().enumerate() {
        outln!(
            "    {}{}",
            m.describe(&p.heaps),
            if textbook == Some(k) {
                "   <- Bouton's rule"
            } else {
                ""
            }
        )?;
    }
    let listed = p.winning_moves.len() as u64;
    if p.winning_move_count > listed {
        outln!(
            "    … and {} more ({} winning moves in all; the first {listed} are listed)",
            p.winning_move_count - listed,
            p.winning_move_count
        )?;
    }
    Ok(())
}

/// `subtract`, `octal` and `grundys-game`: the sequence up to `upto`, its period, and a
/// position's winning moves.
fn sequence(
    game: HeapGame,
    heaps: Vec<u64>,
    upto: Option<u64>,
    misere: bool,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let top = heaps.iter().copied().max().unwrap_or(0);
    let show = upto.unwrap_or(0);
    let (values, found) = values_reaching(&game, show, if misere { 0 } else { top })?;
    let position = if heaps.is_empty() {
        None
    } else {
        Some(position_report(
            &game,
            heaps,
            misere,
            &values,
            found.as_ref(),
        )?)
    };
    let misere_lost = match (misere, upto) {
        (true, Some(upto)) => Some(misere_sequence(&game, upto)?),
        _ => None,
    };
    let report = SequenceReport {
        game: game.name(),
        values: values[..=show as usize].to_vec(),
        period: found.as_ref().map(|p| p.period),
        preperiod: found.as_ref().map(|p| p.preperiod),
        certified: found.as_ref().is_some_and(|p| p.certified),
        last_exceptional: found.as_ref().and_then(|p| p.last_exception),
        check: found.as_ref().map(check_text),
        computed: values.len() as u64,
        misere_lost,
        position,
    };
    if json {
        super::print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(upto) = upto {
        outln!("{}: g(0..={upto})", report.game)?;
        let s: Vec<String> = report.values.iter().map(u32::to_string).collect();
        outln!("  {}", s.join(" "))?;
        if game == HeapGame::Grundys {
            outln!(
                "Grundy's game is not an octal game: no periodicity theorem applies, and its \
                 sequence is not known to be periodic"
            )?;
        } else if game == HeapGame::Nim {
            outln!("Nim: g(n) = n, never periodic")?;
        } else {
            period_lines(found.as_ref(), report.computed)?;
        }
        if let Some(lost) = &report.misere_lost {
            misere_lines(lost, upto)?;
        }
    }
    if let Some(p) = &report.position {
        position_lines(&game, p, &values, found.as_ref())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads the files that components name.
fn read_component_file(name: &str) -> Result<String, String> {
    super::read_text(Path::new(name)).map_err(|e| format!("{e:#}"))
}

fn sum_command(specs: &[String], misere: bool, json: bool) -> anyhow::Result<()> {
    let components = specs
        .iter()
        .enumerate()
        .map(|(k, s)| {
            sum::Component::parse(s, &mut read_component_file)
                .map_err(|e| anyhow::anyhow!("component {} '{s}': {e}", k + 1))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    if misere {
        let r =
            sum::analyse_misere(&components, misere::SEARCH_LIMIT).map_err(anyhow::Error::msg)?;
        if json {
            return super::print_json(&r);
        }
        outln!(
            "misère play, by direct search of {} positions:",
            r.positions_searched
        )?;
        for (k, c) in r.components.iter().enumerate() {
            outln!("  component {}: {c}", k + 1)?;
        }
        outcome_lines(r.first_player_wins, r.draw, &r.winning_moves)?;
        return Ok(());
    }
    let r = sum::analyse(&components).map_err(anyhow::Error::msg)?;
    if json {
        return super::print_json(&r);
    }
    for (k, (c, v)) in r.components.iter().zip(&r.values).enumerate() {
        outln!("  component {}: {c}, value {v}", k + 1)?;
    }
    outln!("  the sum's value: {}", r.value)?;
    outcome_lines(r.first_player_wins, r.draw, &r.winning_moves)?;
    let listed = r.winning_moves.len() as u64;
    if r.winning_move_count > listed {
        outln!(
            "  … and {} more ({} winning moves in all; the first {} of each heap game are listed)",
            r.winning_move_count - listed,
            r.winning_move_count,
            octal::MAX_LISTED
        )?;
    }
    Ok(())
}

fn outcome_lines(wins: bool, draw: bool, moves: &[sum::SumMove]) -> anyhow::Result<()> {
    if draw {
        outln!("a draw: neither player can force a win, and play can go on for ever")?;
    } else if wins {
        outln!("the player to move wins; every winning move:")?;
        for m in moves {
            outln!(
                "  component {}, {} (leaving {})",
                m.component + 1,
                m.r#move,
                m.leaves
            )?;
        }
    } else {
        outln!("the player to move loses against best play")?;
    }
    Ok(())
}

#[derive(Serialize)]
struct VertexReport {
    vertex: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<GValue>,
    outcome: &'static str,
    /// Moves that win (to a lost vertex), or for a draw that keep it.
    best_moves: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    plies: Option<u32>,
}

#[derive(Serialize)]
struct GraphReport {
    misere: bool,
    vertices: Vec<VertexReport>,
}

fn outcome_word(v: Value) -> &'static str {
    match v {
        Value::Win => "win",
        Value::Loss => "loss",
        Value::Draw => "draw",
    }
}

fn graph_command(file: &Path, misere: bool, json: bool) -> anyhow::Result<()> {
    let text = super::read_text(file)?;
    let name = file.display();
    let g = MoveGraph::parse(&text).map_err(|e| anyhow::anyhow!(e.in_file(&name.to_string())))?;
    let outcomes: Vec<(Value, Option<GValue>, Option<u32>)> = if misere {
        g.misere()
            .into_iter()
            .map(|s| (s.value, None, (s.value != Value::Draw).then_some(s.plies)))
            .collect()
    } else {
        g.values()
            .into_iter()
            .map(|v| (v.outcome(), Some(v), None))
            .collect()
    };
    let best = |u: usize| -> Vec<String> {
        let want = match outcomes[u].0 {
            Value::Win => Value::Loss,
            Value::Draw => Value::Draw,
            Value::Loss => return Vec::new(),
        };
        g.moves[u]
            .iter()
            .filter(|&&f| outcomes[f].0 == want)
            .map(|&f| g.names[f].clone())
            .collect()
    };
    let report = GraphReport {
        misere,
        vertices: (0..g.names.len())
            .map(|u| VertexReport {
                vertex: g.names[u].clone(),
                value: outcomes[u].1.clone(),
                outcome: outcome_word(outcomes[u].0),
                best_moves: best(u),
                plies: outcomes[u].2,
            })
            .collect(),
    };
    if json {
        return super::print_json(&report);
    }
    outln!(
        "{} vertices, {} play; outcome for the player to move{}:",
        g.names.len(),
        if misere { "misère" } else { "normal" },
        if misere {
            ""
        } else {
            ", and the generalised Sprague–Grundy value (∞{K}: play may go on for ever)"
        }
    )?;
    for v in &report.vertices {
        let value = v
            .value
            .as_ref()
            .map_or(String::new(), |v| format!(" {v:>6}"));
        let best = if v.best_moves.is_empty() {
            String::new()
        } else {
            format!(
                " ({} {})",
                if v.outcome == "draw" {
                    "keep the draw:"
                } else {
                    "win by moving to"
                },
                v.best_moves.join(", ")
            )
        };
        outln!("  {:>12}{value} {}{best}", v.vertex, v.outcome)?;
    }
    Ok(())
}

/// A table of values as a picture, row y at the top and equal values in equal colours (the
/// colours go round the wheel once over `scale` values).
pub(crate) fn write_png(table: &[Vec<u32>], scale: u32, path: &Path) -> anyhow::Result<()> {
    let q = table.len() as u32;
    let cell = (512 / q).max(1);
    let side = q * cell;
    let mut img = image::RgbImage::new(side, side);
    for (y, row) in table.iter().enumerate() {
        for (x, &v) in row.iter().enumerate() {
            let c = image::Rgb(grundy::value_colour(v, scale));
            for dy in 0..cell {
                for dx in 0..cell {
                    img.put_pixel(x as u32 * cell + dx, y as u32 * cell + dy, c);
                }
            }
        }
    }
    img.save(path)
        .with_context(|| format!("writing {}", path.display()))
}
