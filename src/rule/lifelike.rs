//! The parser for Life-like rule strings: `B3/S23`, `B3S23`, `S23/B3`, `23/3`, `B2/S`, with an
//! optional `H` or `V` suffix and optional probabilities, `B2(1/3)/S12H`.

use super::{LifeRule, Neighbourhood, Probability, Transition};

/// Parses `body` (the rule string without any `:` suffix). Errors name the offending part and,
/// where there is one, its column (1-based, within `body`).
pub(super) fn parse(body: &str) -> Result<LifeRule, String> {
    let chars: Vec<char> = body.chars().collect();
    let (neighbourhood, chars) = match chars.last().map(|c| c.to_ascii_uppercase()) {
        Some('H') => (Neighbourhood::Hexagonal, &chars[..chars.len() - 1]),
        Some('V') => (Neighbourhood::VonNeumann, &chars[..chars.len() - 1]),
        _ => (Neighbourhood::Moore, &chars[..]),
    };
    let max = neighbourhood.max_count();

    let lettered = outside_parens(chars).any(|(_, c)| matches!(c, 'B' | 'b' | 'S' | 's'));
    let sections: Vec<Section> = if lettered {
        lettered_sections(chars)?
    } else {
        old_sections(chars)?
    };

    let mut birth = None;
    let mut survival = None;
    for section in sections {
        let slot = if section.birth {
            &mut birth
        } else {
            &mut survival
        };
        if slot.is_some() {
            return Err(format!(
                "'{}' appears twice (column {})",
                if section.birth { 'B' } else { 'S' },
                section.start + 1
            ));
        }
        *slot = Some(parse_counts(chars, &section, max)?);
    }
    Ok(LifeRule {
        neighbourhood,
        birth: birth.unwrap_or_default(),
        survival: survival.unwrap_or_default(),
    })
}

/// A run of neighbour counts: `chars[start..end]` holds the counts (after any B/S letter).
struct Section {
    birth: bool,
    start: usize,
    end: usize,
}

fn outside_parens(chars: &[char]) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut depth = 0i32;
    chars.iter().enumerate().filter_map(move |(i, &c)| {
        let outside = depth == 0 && c != '(';
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        outside.then_some((i, c))
    })
}

/// `B3/S23`, `S23/B3`, `B3S23`, `B3`: each section starts with its letter, and a `/` may separate
/// two sections.
fn lettered_sections(chars: &[char]) -> Result<Vec<Section>, String> {
    let mut sections: Vec<Section> = Vec::new();
    let mut slash_pending = false;
    for (i, c) in outside_parens(chars) {
        match c {
            'B' | 'b' | 'S' | 's' => {
                if let Some(last) = sections.last_mut() {
                    last.end = if slash_pending { last.end } else { i };
                }
                sections.push(Section {
                    birth: c.eq_ignore_ascii_case(&'b'),
                    start: i + 1,
                    end: chars.len(),
                });
                slash_pending = false;
            }
            '/' => {
                let Some(last) = sections.last_mut() else {
                    return Err(format!("'/' at column {} comes before 'B' or 'S'", i + 1));
                };
                if slash_pending {
                    return Err(format!("second '/' at column {}", i + 1));
                }
                last.end = i;
                slash_pending = true;
            }
            c if sections.is_empty() && !c.is_whitespace() => {
                return Err(format!(
                    "unexpected '{c}' at column {} (a rule starts with 'B' or 'S')",
                    i + 1
                ));
            }
            c if slash_pending && !c.is_whitespace() => {
                return Err(format!(
                    "unexpected '{c}' at column {} after '/' (expected 'B' or 'S')",
                    i + 1
                ));
            }
            _ => {}
        }
    }
    if slash_pending {
        return Err("the rule ends with '/' (expected 'B' or 'S' after it)".to_string());
    }
    Ok(sections)
}

/// The old S/B form without letters: `23/3` is survival 2 and 3, birth 3.
fn old_sections(chars: &[char]) -> Result<Vec<Section>, String> {
    let slashes: Vec<usize> = outside_parens(chars)
        .filter(|&(_, c)| c == '/')
        .map(|(i, _)| i)
        .collect();
    match slashes[..] {
        [slash] => Ok(vec![
            Section {
                birth: false,
                start: 0,
                end: slash,
            },
            Section {
                birth: true,
                start: slash + 1,
                end: chars.len(),
            },
        ]),
        [] => Err(format!(
            "'{}' is not a rule: expected B.../S... (like B3/S23), S/B (like 23/3), \
             W0..W255, a formula of x, y, z, or a rule name",
            chars.iter().collect::<String>()
        )),
        [_, second, ..] => Err(format!("second '/' at column {}", second + 1)),
    }
}

fn parse_counts(chars: &[char], s: &Section, max: u8) -> Result<Transition, String> {
    let letter = if s.birth { 'B' } else { 'S' };
    let mut t = Transition::default();
    let mut i = s.start;
    while i < s.end {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let Some(n) = c.to_digit(10) else {
            return Err(format!(
                "unexpected '{c}' at column {} in {letter} (expected a neighbour count 0..{max})",
                i + 1
            ));
        };
        let n = n as u8;
        if n > max {
            return Err(format!("neighbour count {n} is outside 0..{max}"));
        }
        if t.is_certain(n) || t.chance[n as usize].is_some() {
            return Err(format!("neighbour count {n} appears twice in {letter}"));
        }
        i += 1;
        let mut probability = None;
        if i < s.end && chars[i] == '(' {
            let close = chars[i..s.end]
                .iter()
                .position(|&c| c == ')')
                .map(|p| i + p)
                .ok_or_else(|| format!("'(' at column {} is never closed", i + 1))?;
            let text: String = chars[i + 1..close].iter().collect();
            probability = parse_probability(&text).map_err(|why| {
                format!(
                    "probability '({text})' at column {} for count {n} in {letter} {why}",
                    i + 1
                )
            })?;
            i = close + 1;
        }
        match probability {
            None => t.certain |= 1 << n,
            Some(p) => t.chance[n as usize] = Some(p),
        }
    }
    Ok(t)
}

/// `1/3`, `0.25` or `25%`. `Ok(None)` means probability 1, that is, certain.
fn parse_probability(text: &str) -> Result<Option<Probability>, &'static str> {
    let text = text.trim();
    let (num, den) = if let Some((a, b)) = text.split_once('/') {
        (whole(a)?, whole(b)?)
    } else if let Some(pct) = text.strip_suffix('%') {
        let (num, den) = decimal(pct)?;
        (num, den.checked_mul(100).ok_or("has too many digits")?)
    } else {
        decimal(text)?
    };
    if den == 0 {
        return Err("divides by zero");
    }
    if num == 0 {
        return Err("is 0: leave the count out instead");
    }
    if num > den {
        return Err("is above 1");
    }
    if num == den {
        return Ok(None);
    }
    Probability::new(num, den)
        .map(Some)
        .ok_or("has a reduced denominator above 4294967295")
}

fn whole(s: &str) -> Result<u64, &'static str> {
    let s = s.trim();
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err("is not a fraction a/b, a decimal or a percentage");
    }
    s.parse().map_err(|_| "has too many digits")
}

/// A decimal such as `0.25` or `.5` or `1`, as (numerator, power-of-ten denominator).
fn decimal(s: &str) -> Result<(u64, u64), &'static str> {
    let (int, frac) = s.trim().split_once('.').unwrap_or((s.trim(), ""));
    if int.is_empty() && frac.is_empty() {
        return Err("is empty");
    }
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return Err("is not a fraction a/b, a decimal or a percentage");
    }
    if frac.len() > 18 {
        return Err("has too many digits");
    }
    let den = 10u64.pow(frac.len() as u32);
    let int: u64 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| "has too many digits")?
    };
    let frac: u64 = if frac.is_empty() {
        0
    } else {
        frac.parse().map_err(|_| "has too many digits")?
    };
    let num = int
        .checked_mul(den)
        .and_then(|v| v.checked_add(frac))
        .ok_or("has too many digits")?;
    Ok((num, den))
}
