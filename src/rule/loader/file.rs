//! Golly's `.rule` files: `@RULE name`, then sections. RuleLoader takes the first `@TABLE` or
//! `@TREE`; `@COLORS` gives the states' colours. Other sections (`@ICONS`, `@NAMES`, notes)
//! do not change how the rule runs.

use super::tree::RuleTree;
use super::{FileError, RuleDef, table};

/// Golly's RuleLoader colours when a file gives none: state 0 black, the live states a
/// gradient from red to yellow.
fn default_colours(states: u16) -> Vec<[u8; 3]> {
    gradient(states, [255, 0, 0], [255, 255, 0])
}

/// State 0 black, states 1..n-1 from `from` to `to` evenly, as Golly's gradients are.
fn gradient(states: u16, from: [u8; 3], to: [u8; 3]) -> Vec<[u8; 3]> {
    let live = states as i32 - 1;
    let mut colours = vec![[0, 0, 0]];
    for s in 1..states as i32 {
        let c = |k: usize| {
            if live <= 1 {
                from[k]
            } else {
                let (a, b) = (from[k] as i32, to[k] as i32);
                (a + (b - a) * (s - 1) / (live - 1)) as u8
            }
        };
        colours.push([c(0), c(1), c(2)]);
    }
    colours
}

/// Reads a whole `.rule` file (or an `@RULE` section embedded in a pattern), `first_line` being
/// the line of `text`'s first line in `file`. `fallback_name` is the rule's name if the text
/// has no `@RULE` line (Golly names a rule by its file).
pub fn parse(
    text: &str,
    file: &str,
    first_line: usize,
    fallback_name: &str,
) -> Result<RuleDef, FileError> {
    let mut name: Option<String> = None;
    // Each section: its name, its first line's number in the file, and its text.
    let mut sections: Vec<(String, usize, String)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = first_line + i;
        let line = raw.trim_end();
        if let Some(head) = line.strip_prefix('@') {
            let (tag, rest) = head.split_once([' ', '\t']).unwrap_or((head, ""));
            if tag == "RULE" {
                let value = rest.trim();
                if value.is_empty() {
                    return Err(FileError::new(
                        file,
                        n,
                        7,
                        "@RULE needs the rule's name".into(),
                    ));
                }
                name.get_or_insert_with(|| value.to_string());
            }
            sections.push((tag.to_string(), n + 1, String::new()));
            continue;
        }
        if let Some((_, _, body)) = sections.last_mut() {
            body.push_str(raw);
            body.push('\n');
        }
    }
    let name = name.unwrap_or_else(|| fallback_name.to_string());
    let tree: RuleTree = match sections
        .iter()
        .find(|(t, _, _)| t == "TABLE" || t == "TREE")
    {
        Some((t, at, body)) if t == "TABLE" => table::parse(body, *at, file)?,
        Some((_, at, body)) => RuleTree::parse(body, *at, file)?,
        None => {
            return Err(FileError::new(
                file,
                first_line,
                1,
                "no @TABLE or @TREE section: the file does not say how the rule runs".into(),
            ));
        }
    };
    let mut colours = default_colours(tree.states);
    if let Some((_, at, body)) = sections.iter().find(|(t, _, _)| t == "COLORS") {
        read_colours(body, *at, file, &mut colours)?;
    }
    let icons = sections.iter().any(|(t, _, _)| t == "ICONS");
    Ok(RuleDef {
        name,
        states: tree.states,
        block: tree.block_rule(),
        tree: std::sync::Arc::new(tree),
        colours,
        has_icons: icons,
        source: file.to_string(),
    })
}

/// `@COLORS`: `state r g b` lines, or `r1 g1 b1 r2 g2 b2` for a gradient over the live states;
/// text after the numbers is a note. States the rule does not have are ignored, as in Golly.
fn read_colours(
    body: &str,
    first_line: usize,
    file: &str,
    colours: &mut [[u8; 3]],
) -> Result<(), FileError> {
    for (i, raw) in body.lines().enumerate() {
        let n = first_line + i;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut numbers = Vec::new();
        let mut column = 1;
        for part in raw.split([' ', '\t', ',']) {
            if !part.is_empty() {
                match part.parse::<u32>() {
                    Ok(v) if numbers.len() < 6 => numbers.push((v, column)),
                    _ => break,
                }
            }
            column += part.chars().count() + 1;
        }
        let byte = |(v, c): (u32, usize)| -> Result<u8, FileError> {
            u8::try_from(v).map_err(|_| {
                FileError::new(file, n, c, format!("colour value {v} is not 0 to 255"))
            })
        };
        match numbers.len() {
            4 => {
                let state = numbers[0].0 as usize;
                let rgb = [byte(numbers[1])?, byte(numbers[2])?, byte(numbers[3])?];
                if let Some(c) = colours.get_mut(state) {
                    *c = rgb;
                }
            }
            6 => {
                let from = [byte(numbers[0])?, byte(numbers[1])?, byte(numbers[2])?];
                let to = [byte(numbers[3])?, byte(numbers[4])?, byte(numbers[5])?];
                let g = gradient(colours.len() as u16, from, to);
                colours[1..].copy_from_slice(&g[1..]);
            }
            k => {
                return Err(FileError::new(
                    file,
                    n,
                    1,
                    format!(
                        "a colour line is 'state r g b' or a gradient 'r1 g1 b1 r2 g2 b2'; this one has {k} numbers"
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golly_s_default_gradient_runs_red_to_yellow() {
        let c = default_colours(4);
        assert_eq!(
            c,
            vec![[0, 0, 0], [255, 0, 0], [255, 127, 0], [255, 255, 0]]
        );
        assert_eq!(default_colours(2), vec![[0, 0, 0], [255, 0, 0]]);
    }
}
