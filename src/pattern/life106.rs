//! Life 1.06: the header `#Life 1.06`, then one live cell per line as `x y` (integers, which
//! may be negative). The pattern becomes the bounding box of its cells.

use super::{ParseError, Pattern, bitmap_from_points};
use crate::rule::Rule;

pub fn parse(text: &str) -> Result<Pattern, ParseError> {
    let mut lines = text.split('\n').enumerate();
    let header = lines
        .by_ref()
        .find(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i, l.trim()));
    match header {
        Some((_, h)) if h.starts_with("#Life 1.06") => {}
        Some((i, h)) => {
            return Err(ParseError::new(
                i + 1,
                1,
                format!("expected the header '#Life 1.06', found '{h}'"),
            ));
        }
        None => return Err(ParseError::new(1, 1, "empty file: expected '#Life 1.06'")),
    }
    let mut pattern = Pattern::new(crate::grid::Grid::new(0, 0));
    let mut points = Vec::new();
    let mut last_line = 1;
    for (i, raw) in lines {
        let line = raw.trim_end_matches('\r');
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        last_line = i + 1;
        if let Some(rest) = trimmed.strip_prefix('#') {
            // Not part of Life 1.06, but some writers add descriptions; keep them.
            let mut chars = rest.chars();
            let kind = chars.next();
            let text = chars.as_str().trim().to_string();
            match kind {
                Some('N') => pattern.name = Some(text),
                Some('R') => {
                    pattern.rule = Some(
                        text.parse::<Rule>()
                            .map_err(|e| ParseError::new(i + 1, 4, e.to_string()))?,
                    )
                }
                _ => pattern.comments.push(text),
            }
            continue;
        }
        let mut numbers = Vec::with_capacity(2);
        let mut offset = 0;
        for field in line.split_whitespace() {
            let column = line[offset..].find(field).unwrap() + offset + 1;
            offset = column - 1 + field.len();
            let v: i64 = field.parse().map_err(|_| {
                ParseError::new(
                    i + 1,
                    column,
                    format!("'{field}' is not an integer coordinate"),
                )
            })?;
            if v.unsigned_abs() > 1 << 40 {
                return Err(ParseError::new(
                    i + 1,
                    column,
                    format!("coordinate {v} is out of range"),
                ));
            }
            numbers.push((v, column));
        }
        match numbers[..] {
            [(x, _), (y, _)] => points.push((x, y)),
            [_, _, (_, column), ..] => {
                return Err(ParseError::new(
                    i + 1,
                    column,
                    "more than two numbers on a line (expected 'x y')",
                ));
            }
            _ => {
                return Err(ParseError::new(
                    i + 1,
                    line.len() + 1,
                    "expected two numbers 'x y'",
                ));
            }
        }
    }
    pattern.cells = bitmap_from_points(&points, last_line)?;
    Ok(pattern)
}

/// The header, the rule in a `#R` line as Golly writes it (with its `:T` torus), and the live
/// cells, with (0, 0) the pattern's top-left corner. Life 1.06 has no place for names or
/// comments, so they are not written (`pattern::dropped` says so).
pub fn write(pattern: &Pattern) -> String {
    let mut out = String::from("#Life 1.06\n");
    if let Some(rule) = &pattern.rule {
        out.push_str(&format!("#R {rule}\n"));
    }
    for (x, y) in pattern.cells.alive_cells() {
        out.push_str(&format!("{x} {y}\n"));
    }
    out
}
