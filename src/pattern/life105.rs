//! Life 1.05 (read only), the format of Golly's older `.lif` files: `#D` descriptions, `#N`
//! (normal Life rules) or `#R s/b`, then blocks that each start with `#P x y` followed by rows
//! of `.` and `*`.

use super::{ParseError, Pattern, bitmap_from_points};
use crate::rule::Rule;

pub fn parse(text: &str) -> Result<Pattern, ParseError> {
    let mut pattern = Pattern::new(crate::grid::Grid::new(0, 0));
    let mut points = Vec::new();
    let (mut block_x, mut row_y) = (0i64, 0i64);
    let mut last_line = 1;
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.trim_end_matches('\r').trim_end();
        let line_no = i + 1;
        last_line = line_no;
        if line.starts_with("#Life") || line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('#') {
            let mut chars = rest.chars();
            let kind = chars.next();
            let text = chars.as_str().trim();
            match kind {
                Some('D') | Some('C') => pattern.comments.push(text.to_string()),
                Some('N') => pattern.rule = Some(Rule::life()),
                Some('R') => {
                    pattern.rule = Some(
                        text.parse::<Rule>()
                            .map_err(|e| ParseError::new(line_no, 4, e.to_string()))?,
                    );
                }
                Some('P') => {
                    let nums: Vec<&str> = text.split_whitespace().collect();
                    let parse = |s: &str| {
                        s.parse::<i64>()
                            .ok()
                            .filter(|v| v.unsigned_abs() <= 1 << 40)
                    };
                    match nums[..] {
                        // Golly's own files write a bare '#P' for the origin.
                        [] => (block_x, row_y) = (0, 0),
                        [x, y] => match (parse(x), parse(y)) {
                            (Some(x), Some(y)) => (block_x, row_y) = (x, y),
                            _ => {
                                return Err(ParseError::new(
                                    line_no,
                                    4,
                                    format!("'#P {text}' needs two integers"),
                                ));
                            }
                        },
                        _ => {
                            return Err(ParseError::new(
                                line_no,
                                4,
                                format!("'#P {text}' needs two integers"),
                            ));
                        }
                    }
                }
                _ => {}
            }
            continue;
        }
        for (c, ch) in line.chars().enumerate() {
            match ch {
                '*' | 'O' => points.push((block_x + c as i64, row_y)),
                '.' => {}
                other => {
                    return Err(ParseError::new(
                        line_no,
                        c + 1,
                        format!("unexpected '{other}' (a Life 1.05 row holds '.' and '*')"),
                    ));
                }
            }
        }
        row_y += 1;
    }
    pattern.cells = bitmap_from_points(&points, last_line)?;
    Ok(pattern)
}
