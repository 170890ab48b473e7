//! Mirek Wojtowicz's MCell format (`.mcl`), read as Golly reads it: `#MCell` first, then
//! `#GAME`, `#RULE` (or `#GOLLY`), `#BOARD WxH`, `#WRAP 0|1`, `#D` comments and the cells in
//! `#L` lines, an RLE of `.` (dead), `A`..`X` (states 1 to 24, with `a`..`j` before them for
//! higher ones) and `$` (next row). A `#BOARD` is a torus with `#WRAP 1` and Golly's bounded
//! plane without, and the cells go where Golly puts them on it.
//!
//! The rule is what decides, as in Golly: a game whose rule lifelab cannot run is refused with
//! the game and the rule named. Under a Generations rule each cell keeps its state; under a
//! two-state rule a state above 1 is live (Golly sets it to 1 too).

use super::{ParseError, Pattern};
use crate::grid::Grid;
use crate::rule::Rule;

/// MCell's games that Golly runs with its own algorithms, and what lifelab says of each.
fn game_note(game: &str) -> Option<&'static str> {
    match game.to_ascii_lowercase().as_str() {
        "life" | "generations" | "larger than life" | "" => None,
        "rules table" => Some(
            "MCell's own rule tables are not Golly's; Golly runs such a file only when a #GOLLY line names its rule file, and this one has none",
        ),
        _ => Some("Golly does not run this MCell game either"),
    }
}

/// MCell's own spelling of Conway's Life as a rule table (Golly maps it to B3/S23).
const MCELL_LIFE_TABLE: &str = "1,0,0,0,0,0,1,0,0,0,0,0,0,0,0,1,1";

pub fn parse(text: &str) -> Result<Pattern, ParseError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end()));
    match lines.find(|(_, l)| !l.trim().is_empty()) {
        Some((_, l)) if l.starts_with("#MCell") => {}
        Some((n, _)) => return Err(ParseError::new(n, 1, "an MCell file starts with '#MCell'")),
        None => return Err(ParseError::new(1, 1, "empty file")),
    }
    let mut game: Option<(usize, String)> = None;
    let mut rule: Option<(usize, String)> = None;
    // Golly's own line: the rule Golly runs, whatever MCell's #RULE says.
    let mut golly: Option<(usize, String)> = None;
    let mut board: Option<(usize, u32, u32)> = None;
    let mut wrap: Option<(usize, bool)> = None;
    let mut comments = Vec::new();
    let mut warnings = Vec::new();
    let mut cells: Vec<(i64, i64, u8)> = Vec::new();
    let (mut x, mut y) = (0i64, 0i64);
    let mut first_cells_line = None;
    for (n, line) in lines {
        let Some(rest) = line.strip_prefix('#') else {
            if !line.trim().is_empty() {
                warnings.push(format!("line {n}: ignored a line that is not a '#' line"));
            }
            continue;
        };
        let (tag, value) = rest.split_once(' ').unwrap_or((rest, ""));
        match tag {
            "GAME" => game = Some((n, value.trim().to_string())),
            "GOLLY" if golly.is_none() => {
                let first = value.split_whitespace().next().unwrap_or("");
                golly = Some((n, first.to_string()));
            }
            "RULE" if rule.is_none() => {
                let first = value.split_whitespace().next().unwrap_or("");
                rule = Some((n, first.to_string()));
            }
            "RULE" | "GOLLY" => {} // the rest of a long MCell rule table
            "BOARD" => {
                let parsed = value
                    .trim()
                    .split_once(['x', 'X'])
                    .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)));
                let Some((w, h)) = parsed.filter(|&(w, h): &(u32, u32)| w > 0 && h > 0) else {
                    return Err(ParseError::new(
                        n,
                        8,
                        format!("#BOARD '{}' is not WIDTHxHEIGHT", value.trim()),
                    ));
                };
                board = Some((n, w, h));
            }
            "WRAP" => match value.trim() {
                "0" => wrap = Some((n, false)),
                "1" => wrap = Some((n, true)),
                v => return Err(ParseError::new(n, 7, format!("#WRAP '{v}' is not 0 or 1"))),
            },
            "D" => comments.push(value.to_string()),
            "L" => {
                first_cells_line.get_or_insert(n);
                read_cells(value, n, &mut x, &mut y, &mut cells)?;
            }
            _ => {} // #SPEED, #CCOLORS, #PALETTE, #DIV...: how MCell showed it
        }
    }
    let rule = match &golly {
        Some((n, text)) => Some(
            Rule::parse_in_2d_file(text)
                .map_err(|e| ParseError::new(*n, 8, format!("the #GOLLY rule: {e}")))?,
        ),
        None => resolve_rule(game.as_ref(), rule.as_ref())?,
    };
    let rule = match (board, wrap) {
        (Some((_, w, h)), Some((_, true))) => Some(Rule {
            torus: Some((w, h)),
            ..rule.unwrap_or_else(Rule::life)
        }),
        // Without a wrap a board is Golly's bounded plane.
        (Some((_, w, h)), _) => Some(Rule {
            bounded: Some((w, h, crate::geometry::Edges::Plane)),
            ..rule.unwrap_or_else(Rule::life)
        }),
        (None, _) => rule,
    }
    .map(Rule::with_ltl_minimum);
    let multi_state = rule.is_some_and(|r| r.states() > 2);
    let (cells_grid, states) = to_grid(&cells, multi_state)
        .map_err(|m| ParseError::new(first_cells_line.unwrap_or(1), 1, m))?;
    let mut pattern = Pattern::new(cells_grid);
    pattern.states = states;
    if let (Some((_, w, h)), false) = (board, cells.is_empty()) {
        pattern.origin = Some(board_origin(&cells, w, h));
    }
    pattern.comments = comments;
    pattern.rule = rule;
    pattern.warnings = warnings;
    Ok(pattern)
}

/// The rule the file's game and rule lines say, or an error that names both.
fn resolve_rule(
    game: Option<&(usize, String)>,
    rule: Option<&(usize, String)>,
) -> Result<Option<Rule>, ParseError> {
    let game_name = game.map_or("", |(_, g)| g.as_str());
    let at = rule.map_or(game.map_or(1, |(n, _)| *n), |(n, _)| *n);
    if let Some(note) = game_note(game_name) {
        let rule_text = rule.map_or(String::new(), |(_, r)| format!(" (rule {r})"));
        return Err(ParseError::new(
            at,
            1,
            format!("MCell game '{game_name}'{rule_text}: {note}"),
        ));
    }
    let Some((n, text)) = rule else {
        return Ok(None);
    };
    if text.starts_with(MCELL_LIFE_TABLE) {
        return Ok(Some(Rule::life()));
    }
    Rule::parse_in_2d_file(text)
        .map(Some)
        .map_err(|e| ParseError::new(*n, 7, format!("MCell game '{game_name}': {e}")))
}

/// One `#L` line's cells, continuing from (x, y).
fn read_cells(
    text: &str,
    line: usize,
    x: &mut i64,
    y: &mut i64,
    cells: &mut Vec<(i64, i64, u8)>,
) -> Result<(), ParseError> {
    let mut count: u64 = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let column = i + 4;
        if let Some(d) = c.to_digit(10) {
            count = count
                .checked_mul(10)
                .and_then(|v| v.checked_add(d as u64))
                .filter(|&v| v <= crate::grid::MAX_DIMENSION as u64)
                .ok_or_else(|| {
                    ParseError::new(
                        line,
                        column,
                        "a run count larger than lifelab's largest torus",
                    )
                })?;
            continue;
        }
        if c.is_whitespace() {
            continue;
        }
        let n = count.max(1) as i64;
        count = 0;
        match c {
            '.' => *x += n,
            '$' => {
                *x = 0;
                *y += n;
            }
            'a'..='j' => match chars.next() {
                Some((_, l @ 'A'..='X')) => {
                    let state = (c as u32 - 'a' as u32 + 1) * 24 + (l as u32 - 'A' as u32 + 1);
                    push_run(cells, x, *y, n, state.min(255) as u8)
                }
                _ => {
                    return Err(ParseError::new(
                        line,
                        column,
                        format!("'{c}' must be followed by a state letter A..X"),
                    ));
                }
            },
            'A'..='X' => push_run(cells, x, *y, n, c as u8 - b'A' + 1),
            other => {
                return Err(ParseError::new(
                    line,
                    column,
                    format!(
                        "unexpected '{other}' in an #L line (expected a count, '.', '$' or a state A..X)"
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn push_run(cells: &mut Vec<(i64, i64, u8)>, x: &mut i64, y: i64, n: i64, state: u8) {
    cells.extend((0..n).map(|k| (*x + k, y, state)));
    *x += n;
}

/// Where Golly puts the cells' box on a board (the board's top-left cell is (0, 0)): the cells
/// go where the `#L` lines put them from the board's corner, then the whole is shifted by half
/// the room left over, computed as MCell does (one more than the board, halved), when that
/// shift is positive either way.
fn board_origin(cells: &[(i64, i64, u8)], w: u32, h: u32) -> (i64, i64) {
    let Some((left, right, top, bottom)) = cells_box(cells) else {
        return (0, 0);
    };
    let shift_x = (w as i64 + 1 - (right - left + 1)) / 2;
    let shift_y = (h as i64 + 1 - (bottom - top + 1)) / 2;
    if shift_x > 0 || shift_y > 0 {
        (left + shift_x, top + shift_y)
    } else {
        (left, top)
    }
}

/// The box round the cells: (left, right, top, bottom), `None` without cells.
fn cells_box(cells: &[(i64, i64, u8)]) -> Option<(i64, i64, i64, i64)> {
    let &(x0, y0, _) = cells.first()?;
    Some(
        cells
            .iter()
            .fold((x0, x0, y0, y0), |(l, r, t, b), &(x, y, _)| {
                (l.min(x), r.max(x), t.min(y), b.max(y))
            }),
    )
}

/// The cells as a bitmap of their box, and with `multi_state` each one's state.
fn to_grid(cells: &[(i64, i64, u8)], multi_state: bool) -> Result<(Grid, Option<Vec<u8>>), String> {
    let Some((left, right, top, bottom)) = cells_box(cells) else {
        return Ok((Grid::new(0, 0), None));
    };
    let (w, h) = ((right - left + 1) as u64, (bottom - top + 1) as u64);
    Grid::check_torus_size(w, h).map_err(|e| e.to_string())?;
    let mut grid = Grid::new(w as u32, h as u32);
    let mut states =
        (multi_state && cells.iter().any(|c| c.2 > 1)).then(|| vec![0u8; (w * h) as usize]);
    for &(x, y, state) in cells {
        let (cx, cy) = ((x - left) as u32, (y - top) as u32);
        grid.set(cx, cy, true);
        if let Some(s) = &mut states {
            s[(cy as u64 * w + cx as u64) as usize] = state;
        }
    }
    Ok((grid, states))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_life_glider_reads_with_its_rule_and_comments() {
        let text = "#MCell 4.20\n#GAME Life\n#RULE 23/3\n#D A glider\n#L .A$..A$3A\n";
        let p = parse(text).unwrap();
        assert_eq!(p.population(), 5);
        assert_eq!((p.width(), p.height()), (3, 3));
        assert_eq!(p.rule, Some(Rule::life()));
        assert_eq!(p.comments, vec!["A glider".to_string()]);
    }

    #[test]
    fn an_unsupported_game_is_refused_with_its_name_and_line() {
        let text = "#MCell 2.0\n#GAME Vote for Life\n#RULE 1,2,3\n#L 3A\n";
        let e = parse(text).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("Vote for Life"), "{}", e.message);
        assert!(e.message.contains("1,2,3"), "{}", e.message);
    }

    #[test]
    fn a_larger_than_life_rule_without_its_neighbourhood_is_refused_where_it_ends() {
        let text = "#MCell 2.0\n#GAME Larger than Life\n#RULE R5,C0,M1,S34..58,B34..45\n#L 3A\n";
        let e = parse(text).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(
            e.message.contains("expected ',' before N at column 25"),
            "{}",
            e.message
        );
        // A board under twice the range is raised to it, as in Golly.
        let text = "#MCell 2.0\n#GAME Larger than Life\n#RULE R5,C0,M1,S34..58,B34..45,NM\n#BOARD 6x30\n#WRAP 1\n#L 3A\n";
        let p = parse(text).unwrap();
        assert_eq!(p.rule.unwrap().torus, Some((10, 30)));
    }

    #[test]
    fn a_wrapped_board_is_a_torus_and_an_unwrapped_one_golly_s_bounded_plane() {
        let text = "#MCell 4.20\n#GAME Life\n#RULE 23/3\n#BOARD 60x40\n#WRAP 1\n#L 3A\n";
        assert_eq!(parse(text).unwrap().rule.unwrap().torus, Some((60, 40)));
        let plane = "#MCell 4.20\n#GAME Life\n#RULE 23/3\n#BOARD 60x40\n#WRAP 0\n#L 3A\n";
        let p = parse(plane).unwrap();
        assert_eq!(
            p.rule.unwrap().bounded,
            Some((60, 40, crate::geometry::Edges::Plane))
        );
        // Golly's shift: (60 + 1 - 3) / 2 and (40 + 1 - 1) / 2 from the board's corner.
        assert_eq!(p.origin, Some((29, 20)));
    }
}
