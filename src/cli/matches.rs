//! `lifelab matches` and `lifelab evenwins`: match games solved exactly.

use std::process::ExitCode;

use anyhow::bail;

use crate::games::matches::{EvenWins, MAX_COUNT, Matches};

#[derive(clap::Args, Debug)]
pub struct MatchesArgs {
    /// Matches on the table.
    #[arg(long, default_value_t = 11)]
    pub count: u64,
    /// How many a move may take: 1..3, 3 (1..3) or a list 1,3,4.
    #[arg(long, default_value = "1..3")]
    pub take: String,
    /// Whoever takes the last match loses (default: wins).
    #[arg(long)]
    pub misere: bool,
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args, Debug)]
pub struct EvenWinsArgs {
    #[arg(long, default_value_t = 27)]
    pub count: u64,
    #[arg(long, default_value = "1..4")]
    pub take: String,
    #[arg(long)]
    pub json: bool,
}

fn check_count(count: u64) -> anyhow::Result<()> {
    if count > MAX_COUNT {
        bail!("--count {count}: at most {MAX_COUNT} matches");
    }
    Ok(())
}

/// The most moves "even wins" looks at (it tries every amount at every count).
const MAX_EVEN_WORK: u128 = 400_000_000;

pub fn execute(args: MatchesArgs) -> anyhow::Result<ExitCode> {
    check_count(args.count)?;
    let game = Matches {
        count: args.count,
        take: super::grundy::parse_take(&args.take)?,
        misere: args.misere,
    };
    let r = game.report();
    if args.json {
        super::print_json(&r)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{} matches, take {}, whoever takes the last one {}",
        r.count,
        r.take,
        if r.misere { "loses" } else { "wins" }
    )?;
    if r.no_move {
        // Nobody moves: the game is over before it starts, as if the opponent had moved last.
        outln!(
            "there is no move: {} matches are too few to take any amount of {}, so the first \
             player {} at once",
            r.count,
            r.take,
            if r.first_player_wins { "wins" } else { "loses" }
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    if r.first_player_wins {
        let s: Vec<String> = r.winning_first_moves.iter().map(u64::to_string).collect();
        outln!("the first player wins by taking {}", s.join(" or "))?;
    } else {
        outln!("the second player wins")?;
    }
    outln!("rule: {}", r.rule)?;
    Ok(ExitCode::SUCCESS)
}

pub fn execute_even(args: EvenWinsArgs) -> anyhow::Result<ExitCode> {
    check_count(args.count)?;
    let game = EvenWins {
        count: args.count,
        take: super::grundy::parse_take(&args.take)?,
    };
    let work = (args.count as u128 + 1) * game.take.count().min(args.count.max(1)) as u128;
    if work > MAX_EVEN_WORK {
        bail!(
            "--count {} --take {}: about {work} moves to try, more than {MAX_EVEN_WORK}; choose \
             fewer matches or a smaller take-set",
            args.count,
            args.take
        );
    }
    let r = game.report();
    if args.json {
        super::print_json(&r)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "even wins: {} matches, take {}; whoever ends holding an even number wins",
        r.count,
        r.take
    )?;
    if r.first_player_wins {
        let s: Vec<String> = r.winning_first_moves.iter().map(u64::to_string).collect();
        outln!("the first player wins by taking {}", s.join(" or "))?;
    } else {
        outln!("the first player cannot force a win")?;
    }
    outln!(
        "{}",
        if r.ties_possible {
            "a tie (both even or both odd) is possible"
        } else {
            "no tie is possible: exactly one player ends even"
        }
    )?;
    Ok(ExitCode::SUCCESS)
}
