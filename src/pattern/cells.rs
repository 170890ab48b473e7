//! Plaintext `.cells` files, as on LifeWiki:
//!
//! ```text
//! !Name: Glider
//! !The smallest spaceship.
//! .O.
//! ..O
//! OOO
//! ```
//!
//! `.` is dead, `O` (or `*`) alive; short rows are padded with dead cells. lifelab also writes
//! and reads `!Author:` and `!Rule:` lines, which other readers take as comments.

use super::{ParseError, Pattern};
use crate::grid::{Grid, MAX_DIMENSION};
use crate::rule::Rule;

pub fn parse(text: &str) -> Result<Pattern, ParseError> {
    let mut pattern = Pattern::new(Grid::new(0, 0));
    let mut rows: Vec<(usize, &str)> = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.trim_end_matches('\r');
        if let Some(comment) = line.strip_prefix('!') {
            if !rows.is_empty() {
                // Comments after the cells start would shift rows; treat as an error so the
                // user learns the file is odd.
                return Err(ParseError::new(
                    i + 1,
                    1,
                    "a '!' comment line after the first row of cells",
                ));
            }
            let comment = comment.trim();
            if let Some(name) = comment.strip_prefix("Name:") {
                pattern.name = Some(name.trim().to_string());
            } else if let Some(author) = comment.strip_prefix("Author:") {
                pattern.author = Some(author.trim().to_string());
            } else if let Some(rule) = comment.strip_prefix("Rule:") {
                let rule = rule
                    .trim()
                    .parse::<Rule>()
                    .map_err(|e| ParseError::new(i + 1, 8, e.to_string()))?;
                pattern.rule = Some(rule);
            } else if !comment.is_empty() {
                pattern.comments.push(comment.to_string());
            }
            continue;
        }
        rows.push((i + 1, line.trim_end()));
    }
    while rows.last().is_some_and(|(_, r)| r.is_empty()) {
        rows.pop();
    }
    let mut width = 0usize;
    for &(line, row) in &rows {
        for (c, ch) in row.chars().enumerate() {
            if !matches!(ch, '.' | 'O' | '*') {
                return Err(ParseError::new(
                    line,
                    c + 1,
                    format!(
                        "unexpected '{ch}' (a .cells row holds '.' for dead and 'O' for alive)"
                    ),
                ));
            }
            width = width.max(c + 1);
        }
        if width > MAX_DIMENSION as usize {
            return Err(ParseError::new(
                line,
                MAX_DIMENSION as usize + 1,
                format!("row is longer than the largest grid side {MAX_DIMENSION}"),
            ));
        }
    }
    if rows.len() > MAX_DIMENSION as usize {
        return Err(ParseError::new(
            rows[MAX_DIMENSION as usize].0,
            1,
            format!("more rows than the largest grid side {MAX_DIMENSION}"),
        ));
    }
    let mut cells = Grid::try_new_bitmap(width as u32, rows.len() as u32)
        .map_err(|e| ParseError::grid(1, 1, e))?;
    for (y, &(_, row)) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            if ch != '.' {
                cells.set(x as u32, y as u32, true);
            }
        }
    }
    pattern.cells = cells;
    Ok(pattern)
}

/// Full rows, so that the width and trailing empty rows survive a round trip.
pub fn write(pattern: &Pattern) -> String {
    let mut out = String::new();
    if let Some(name) = &pattern.name {
        out.push_str(&format!("!Name: {name}\n"));
    }
    if let Some(author) = &pattern.author {
        out.push_str(&format!("!Author: {author}\n"));
    }
    if let Some(rule) = &pattern.rule {
        out.push_str(&format!("!Rule: {rule}\n"));
    }
    for c in &pattern.comments {
        out.push_str(&format!("!{c}\n"));
    }
    out.push_str(&pattern.cells.to_text());
    out
}
