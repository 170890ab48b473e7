//! Run-length encoded patterns, as Golly and LifeWiki write them:
//!
//! ```text
//! #N Glider
//! #C The smallest spaceship.
//! x = 3, y = 3, rule = B3/S23
//! bob$2bo$3o!
//! ```
//!
//! `b` or `.` is a dead cell, `o` or `A` a live one, `$` ends a row, `!` ends the pattern; each
//! may carry a run count. The header is optional. Multi-state cells (Generations' dying states)
//! are Golly's letters: `A` to `X` are states 1 to 24, and `p` to `y` before a letter add 24
//! per step (`pA` is 25, `yO` 255).
//!
//! Like Golly, the reader takes what is not strictly valid but clear, and says so in the
//! pattern's warnings: a body without the final `!`, runs past the header's size (the pattern
//! grows), a header of `x = 0, y = 0`, a run count of 0 (read as 1). What cannot be read is an
//! error with its line and column.

use super::{ParseError, Pattern};
use crate::grid::{Grid, MAX_DIMENSION};
use crate::rule::Rule;
use crate::tiles::TileMap;

/// Longest line the writer produces, as Golly's and LifeWiki's files do.
pub const LINE_WIDTH: usize = 70;

struct Header {
    width: u32,
    height: u32,
}

/// An RLE file read: what it says, and its live runs, not yet laid out.
pub struct Parsed {
    /// The name, comments, rule and warnings; `cells` is empty.
    pub pattern: Pattern,
    /// Runs of cells that are not dead: (y, x, length, state).
    runs: Vec<(u32, u32, u32, u8)>,
    pub width: u32,
    pub height: u32,
}

impl Parsed {
    /// The cells as one bitmap of the pattern's size.
    pub fn into_pattern(self) -> Result<Pattern, ParseError> {
        let mut cells =
            Grid::try_new_bitmap(self.width, self.height).map_err(|e| ParseError::grid(1, 1, e))?;
        for &(ry, rx, n, _) in &self.runs {
            set_run(&mut cells, rx, ry, n);
        }
        let states = self.runs.iter().any(|r| r.3 > 1).then(|| {
            let mut states = vec![0u8; self.width as usize * self.height as usize];
            for &(ry, rx, n, s) in &self.runs {
                let at = ry as usize * self.width as usize + rx as usize;
                states[at..at + n as usize].fill(s);
            }
            states
        });
        Ok(Pattern {
            cells,
            states,
            ..self.pattern
        })
    }

    /// The cells as tiles, top-left corner at (0, 0): for a pattern too spread out for one
    /// bitmap (gliders far from the debris).
    pub fn into_tiles(self) -> (Pattern, TileMap) {
        let mut map = TileMap::new();
        for &(ry, rx, n, s) in &self.runs {
            for x in rx..rx + n {
                map.set_state(x as i64, ry as i64, s);
            }
        }
        (self.pattern, map)
    }

    /// Bytes one bitmap of the pattern would take.
    pub fn bitmap_bytes(&self) -> u64 {
        Grid::bytes_for(self.width as u64, self.height as u64)
    }
}

pub fn parse(text: &str) -> Result<Pattern, ParseError> {
    read(text)?.into_pattern()
}

/// Reads an RLE file. A rule file's text after the cells, from an `@RULE` line on (Golly 3.3
/// writes and reads it so), is loaded first, and the header's rule of that name is it.
pub fn read(text: &str) -> Result<Parsed, ParseError> {
    let mut offset = 0;
    for (i, line) in text.split('\n').enumerate() {
        if line.trim_start().starts_with("@RULE") {
            let rule =
                crate::rule::loader::load_embedded(&text[offset..], "the embedded @RULE", i + 1)
                    .map_err(|e| {
                        ParseError::new(
                            e.line,
                            e.column,
                            format!("the rule embedded after the cells: {}", e.message),
                        )
                    })?;
            return crate::rule::loader::with_embedded(rule, || read_cells(&text[..offset]));
        }
        offset += line.len() + 1;
    }
    read_cells(text)
}

fn read_cells(text: &str) -> Result<Parsed, ParseError> {
    let mut pattern = Pattern::new(Grid::new(0, 0));
    let mut header: Option<Header> = None;
    // Golly's `#CXRLE Pos=x,y`: the top-left cell, in Golly's coordinates (the origin in the
    // middle of a bounded grid).
    // It is read (and a malformed one refused) only where it is used.
    let mut position: Option<Result<(i64, i64), ParseError>> = None;
    let mut lines = text.split('\n').enumerate().peekable();

    // Comment lines and the header come first.
    while let Some(&(i, raw)) = lines.peek() {
        let line = raw.trim_end_matches('\r');
        let trimmed = line.trim();
        if trimmed.is_empty() {
            lines.next();
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix('#') {
            if let Some(cx) = rest.strip_prefix("CXRLE") {
                let at = (i + 1, line.len() - cx.len() + 1);
                match read_cxrle(cx, at.0, at.1) {
                    Ok(None) => {}
                    Ok(Some(p)) => position = Some(Ok(p)),
                    Err(e) => position = Some(Err(e)),
                }
                lines.next();
                continue;
            }
            read_comment(&mut pattern, rest, i + 1)?;
            lines.next();
            continue;
        }
        if trimmed.starts_with(['x', 'X']) && trimmed[1..].trim_start().starts_with('=') {
            header = Some(read_header(&mut pattern, line, i + 1)?);
            lines.next();
        }
        break;
    }
    // On a bounded grid other than the torus, where the cells go changes what they do (a wall,
    // a twist): the file's position is kept, as Golly keeps it. On the plane and the torus a
    // pattern is centred, which changes nothing but coordinates.
    if let (Some(position), Some((w, h, _))) = (position, pattern.rule.and_then(|r| r.bounded)) {
        let (px, py) = position?;
        // Golly's origin is the grid's middle cell; a position beyond any grid is refused.
        let corner = px
            .checked_add((w / 2) as i64)
            .zip(py.checked_add((h / 2) as i64))
            .ok_or_else(|| {
                ParseError::new(
                    1,
                    1,
                    format!("#CXRLE position {px},{py} is beyond any grid"),
                )
            })?;
        pattern.origin = Some(corner);
    }

    // The body: runs of cells.
    let mut runs: Vec<(u32, u32, u32, u8)> = Vec::new(); // (y, x, length, state)
    // A multi-state prefix (`p`..`y`) waiting for its letter: (its 24s, line, column).
    let mut prefix: Option<(u8, usize, usize)> = None;
    let (mut x, mut y) = (0u64, 0u64);
    let (mut max_x, mut max_y) = (0u64, 0u64);
    let mut count: Option<(u64, usize, usize)> = None; // (value, line, column)
    let mut last_pos = (1, 1);
    let mut ended = false;
    'body: for (i, raw) in lines {
        let line_no = i + 1;
        let chars: Vec<char> = raw.trim_end_matches('\r').chars().collect();
        for (c0, &ch) in chars.iter().enumerate() {
            let col = c0 + 1;
            last_pos = (line_no, col + 1);
            if ch.is_ascii_digit() {
                let (v, l, c) = count.unwrap_or((0, line_no, col));
                let v = v * 10 + ch.to_digit(10).unwrap() as u64;
                if v > MAX_DIMENSION as u64 {
                    let more: String = chars[c0 + 1..]
                        .iter()
                        .take_while(|c| c.is_ascii_digit())
                        .collect();
                    return Err(ParseError::new(
                        l,
                        c,
                        format!(
                            "run count {v}{more} is larger than the largest grid side {MAX_DIMENSION}"
                        ),
                    ));
                }
                count = Some((v, l, c));
                continue;
            }
            if ch.is_whitespace() {
                continue;
            }
            if let Some((high, pl, pc)) = prefix.take() {
                if !ch.is_ascii_uppercase() || ch > 'X' {
                    return Err(ParseError::new(
                        pl,
                        pc,
                        format!(
                            "multi-state prefix '{}' must be followed by a state letter A..X, not '{ch}'",
                            (b'p' + high - 1) as char
                        ),
                    ));
                }
                let state = high as u32 * 24 + (ch as u32 - 'A' as u32 + 1);
                if state > 255 {
                    return Err(ParseError::new(
                        pl,
                        pc,
                        format!(
                            "state {}{ch} is {state}, above the largest, 255 (yO)",
                            (b'p' + high - 1) as char
                        ),
                    ));
                }
                let (n, cl, cc) = count.take().unwrap_or((1, pl, pc));
                let end = x + n.max(1);
                if end > MAX_DIMENSION as u64 {
                    return Err(ParseError::new(
                        cl,
                        cc,
                        format!("row {} is longer than {MAX_DIMENSION} cells", y + 1),
                    ));
                }
                runs.push((y as u32, x as u32, n.max(1) as u32, state as u8));
                max_x = max_x.max(end);
                max_y = max_y.max(y + 1);
                x = end;
                continue;
            }
            if ('p'..='y').contains(&ch) {
                prefix = Some((ch as u8 - b'p' + 1, line_no, col));
                continue;
            }
            let (mut n, cl, cc) = count.take().unwrap_or((1, line_no, col));
            if n == 0 {
                pattern.warnings.push(format!(
                    "line {cl}, column {cc}: run count 0, read as 1 (as Golly does)"
                ));
                n = 1;
            }
            match ch {
                'b' | '.' | 'o' | 'A'..='X' => {
                    let end = x + n;
                    if end > MAX_DIMENSION as u64 {
                        return Err(ParseError::new(
                            cl,
                            cc,
                            format!("row {} is longer than {MAX_DIMENSION} cells", y + 1),
                        ));
                    }
                    if ch != 'b' && ch != '.' {
                        let state = if ch == 'o' { 1 } else { ch as u8 - b'A' + 1 };
                        runs.push((y as u32, x as u32, n as u32, state));
                        max_x = max_x.max(end);
                        max_y = max_y.max(y + 1);
                    }
                    x = end;
                }
                '$' => {
                    y += n;
                    x = 0;
                    if y > MAX_DIMENSION as u64 {
                        return Err(ParseError::new(
                            cl,
                            cc,
                            format!("more than {MAX_DIMENSION} rows"),
                        ));
                    }
                }
                '!' => {
                    ended = true;
                    break 'body;
                }
                c if c.is_ascii_alphabetic() => {
                    return Err(ParseError::new(
                        line_no,
                        col,
                        format!(
                            "unexpected '{c}' in the RLE body (cells are b or . for dead, o for alive, A..X and p..y with a letter for states 1 to 255)"
                        ),
                    ));
                }
                c => {
                    return Err(ParseError::new(
                        line_no,
                        col,
                        format!(
                            "unexpected '{c}' in the RLE body (expected b, o, $, ! or a run count)"
                        ),
                    ));
                }
            }
        }
    }
    if let Some((high, l, c)) = prefix {
        return Err(ParseError::new(
            l,
            c,
            format!(
                "multi-state prefix '{}' at the end, without its state letter A..X",
                (b'p' + high - 1) as char
            ),
        ));
    }
    if let Some((v, l, c)) = count {
        return Err(ParseError::new(
            l,
            c,
            format!("run count {v} is not followed by b, o, $ or !"),
        ));
    }
    if !ended {
        pattern.warnings.push(format!(
            "line {}, column {}: the RLE body ends without '!' (read to the end, as Golly does)",
            last_pos.0, last_pos.1
        ));
    }
    // The header's size, grown (as Golly grows it) to hold every run.
    let (width, height) = match &header {
        Some(h) => {
            if (max_x > h.width as u64 || max_y > h.height as u64) && (h.width, h.height) != (0, 0)
            {
                pattern.warnings.push(format!(
                    "the cells span {max_x}x{max_y}, more than the header's x = {}, y = {}: read as Golly does, the pattern grown to hold them",
                    h.width, h.height
                ));
            }
            (h.width.max(max_x as u32), h.height.max(max_y as u32))
        }
        None => (max_x as u32, max_y as u32),
    };
    Ok(Parsed {
        pattern,
        runs,
        width,
        height,
    })
}

/// Sets `n` cells from (x, y) rightwards, a word at a time.
fn set_run(grid: &mut Grid, x: u32, y: u32, n: u32) {
    let row = grid.row_mut(y);
    let (mut x, end) = (x as usize, x as usize + n as usize);
    while x < end {
        let bit = x % 64;
        let take = (64 - bit).min(end - x);
        let mask = if take == 64 {
            u64::MAX
        } else {
            ((1u64 << take) - 1) << bit
        };
        row[x / 64] |= mask;
        x += take;
    }
}

/// Golly's extended RLE line, `#CXRLE Pos=-13,-4 Gen=100`: the position of the top-left cell
/// (the generation is the header's business elsewhere). `column` is where `text` starts.
fn read_cxrle(text: &str, line: usize, column: usize) -> Result<Option<(i64, i64)>, ParseError> {
    let mut position = None;
    let mut at = column;
    for word in text.split(' ') {
        if let Some(pos) = word.strip_prefix("Pos=") {
            let parsed = pos
                .split_once(',')
                .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)));
            match parsed {
                Some(p) => position = Some(p),
                None => {
                    return Err(ParseError::new(
                        line,
                        at,
                        format!("#CXRLE position '{word}' is not Pos=<x>,<y> in whole numbers"),
                    ));
                }
            }
        }
        at += word.len() + 1;
    }
    Ok(position)
}

fn read_comment(pattern: &mut Pattern, rest: &str, line: usize) -> Result<(), ParseError> {
    let mut chars = rest.chars();
    let kind = chars.next().unwrap_or(' ');
    let text = chars.as_str().trim().to_string();
    match kind {
        'N' => pattern.name = Some(text),
        'O' => pattern.author = Some(text),
        'C' | 'c' | 'D' => pattern.comments.push(text),
        'r' => {
            let rule = Rule::parse_in_2d_file(&text)
                .map_err(|e| ParseError::new(line, 4, e.to_string()))?;
            pattern.rule = Some(rule);
        }
        'P' | 'R' => {} // positions for other programs' coordinate systems
        _ => pattern.comments.push(rest.trim().to_string()),
    }
    Ok(())
}

fn read_header(pattern: &mut Pattern, line: &str, line_no: usize) -> Result<Header, ParseError> {
    let mut width = None;
    let mut height = None;
    let mut offset = 0;
    let mut fields = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        // The rule's value may hold commas (`:T40,30`), so it runs to the end of the line.
        let is_rule = rest
            .split_once('=')
            .is_some_and(|(k, _)| k.trim().eq_ignore_ascii_case("rule"));
        let end = if is_rule {
            rest.len()
        } else {
            rest.find(',').unwrap_or(rest.len())
        };
        fields.push((offset, &rest[..end]));
        offset += end + 1;
        rest = rest.get(end + 1..).unwrap_or("");
    }
    for (field_offset, field) in fields {
        let column = field_offset + field.len() - field.trim_start().len() + 1;
        let Some((key, value)) = field.split_once('=') else {
            if field.trim().is_empty() {
                continue;
            }
            return Err(ParseError::new(
                line_no,
                column,
                format!("header field '{}' is not 'name = value'", field.trim()),
            ));
        };
        let value_column = column + field.trim_start().find('=').unwrap() + 1;
        let value_column = value_column + value.len() - value.trim_start().len();
        let value = value.trim();
        match key.trim().to_ascii_lowercase().as_str() {
            k @ ("x" | "y") => {
                let v: u64 = value.parse().map_err(|_| {
                    ParseError::new(
                        line_no,
                        value_column,
                        format!("header {k} = '{value}' is not a whole number"),
                    )
                })?;
                if v > MAX_DIMENSION as u64 {
                    return Err(ParseError::new(
                        line_no,
                        value_column,
                        format!(
                            "header {k} = {v} is larger than the largest grid side {MAX_DIMENSION}"
                        ),
                    ));
                }
                if k == "x" {
                    width = Some(v as u32);
                } else {
                    height = Some(v as u32);
                }
            }
            "rule" => {
                let rule = Rule::parse_in_2d_file(value)
                    .map_err(|e| ParseError::new(line_no, value_column, e.to_string()))?;
                pattern.rule = Some(rule);
            }
            other => {
                return Err(ParseError::new(
                    line_no,
                    column,
                    format!("unknown header field '{other}' (expected x, y and rule)"),
                ));
            }
        }
    }
    match (width, height) {
        (Some(width), Some(height)) => Ok(Header { width, height }),
        _ => Err(ParseError::new(
            line_no,
            1,
            "the header needs both x and y, as in 'x = 3, y = 3'",
        )),
    }
}

/// Writes `#N`, `#O`, `#C` lines, the header and the body, wrapped at [`LINE_WIDTH`].
pub fn write(pattern: &Pattern) -> String {
    let mut out = String::new();
    if let Some(name) = &pattern.name {
        out.push_str(&format!("#N {name}\n"));
    }
    if let Some(author) = &pattern.author {
        out.push_str(&format!("#O {author}\n"));
    }
    for c in &pattern.comments {
        out.push_str(&format!("#C {c}\n"));
    }
    // Golly's position of the top-left cell (its origin in the middle of the grid), where it
    // matters: on a bounded grid that is not a torus.
    if let (Some((x, y)), Some((w, h, _))) = (pattern.origin, pattern.rule.and_then(|r| r.bounded))
    {
        out.push_str(&format!(
            "#CXRLE Pos={},{}\n",
            x - (w / 2) as i64,
            y - (h / 2) as i64
        ));
    }
    out.push_str(&format!(
        "x = {}, y = {}",
        pattern.width(),
        pattern.height()
    ));
    if let Some(rule) = &pattern.rule {
        out.push_str(&format!(", rule = {rule}"));
    }
    out.push('\n');

    let mut wrapper = Wrapper::default();
    let cells = &pattern.cells;
    if pattern.states.is_some() {
        write_states(pattern, &mut wrapper);
        out.push_str(&wrapper.finish());
        return out;
    }
    // The row the reader is on: '$' runs move it down to the next row with live cells.
    let mut cursor = 0;
    for y in 0..cells.height() {
        if cells.row(y).iter().all(|&w| w == 0) {
            continue;
        }
        if y > cursor {
            wrapper.token((y - cursor) as u64, '$');
            cursor = y;
        }
        let mut x = 0;
        while x < cells.width() {
            let alive = cells.get(x, y);
            let run = run_length(cells, x, y, alive);
            if !alive && x + run == cells.width() {
                break; // trailing dead cells are implied
            }
            wrapper.token(run as u64, if alive { 'o' } else { 'b' });
            x += run;
        }
    }
    wrapper.token(1, '!');
    out.push_str(&wrapper.finish());
    out
}

/// The body of a multi-state pattern: `.` for dead cells, Golly's letters for the others.
fn write_states(pattern: &Pattern, wrapper: &mut Wrapper) {
    let cells = &pattern.cells;
    let mut cursor = 0;
    for y in 0..cells.height() {
        if cells.row(y).iter().all(|&w| w == 0) {
            continue;
        }
        if y > cursor {
            wrapper.token((y - cursor) as u64, "$");
            cursor = y;
        }
        let mut x = 0;
        while x < cells.width() {
            let state = pattern.state(x, y);
            let mut end = x + 1;
            while end < cells.width() && pattern.state(end, y) == state {
                end += 1;
            }
            if state == 0 && end == cells.width() {
                break;
            }
            wrapper.token((end - x) as u64, state_letters(state));
            x = end;
        }
    }
    wrapper.token(1, "!");
}

/// Golly's letters for a state: `.`, `A`..`X`, then `pA`.. (24 per prefix letter).
pub fn state_letters(state: u8) -> String {
    match state {
        0 => ".".to_string(),
        s => {
            let (high, low) = ((s - 1) / 24, (s - 1) % 24);
            let letter = (b'A' + low) as char;
            if high == 0 {
                letter.to_string()
            } else {
                format!("{}{letter}", (b'p' + high - 1) as char)
            }
        }
    }
}

fn run_length(cells: &Grid, x: u32, y: u32, alive: bool) -> u32 {
    let mut end = x;
    while end < cells.width() && cells.get(end, y) == alive {
        // Skip whole words of the same state at once; soups have long runs rarely, but empty
        // and full regions do.
        if end.is_multiple_of(64) {
            let w = cells.row(y)[(end / 64) as usize];
            let same = if alive { !w } else { w };
            if same == 0 && end + 64 <= cells.width() {
                end += 64;
                continue;
            }
        }
        end += 1;
    }
    end - x
}

/// Packs tokens into lines of at most [`LINE_WIDTH`] characters, never splitting a token.
#[derive(Default)]
struct Wrapper {
    out: String,
    line_len: usize,
}

impl Wrapper {
    fn token(&mut self, count: u64, tag: impl std::fmt::Display) {
        let token = if count == 1 {
            tag.to_string()
        } else {
            format!("{count}{tag}")
        };
        if self.line_len + token.len() > LINE_WIDTH {
            self.out.push('\n');
            self.line_len = 0;
        }
        self.line_len += token.len();
        self.out.push_str(&token);
    }

    fn finish(mut self) -> String {
        self.out.push('\n');
        self.out
    }
}
