//! A haul: what a range of soups gave, in Catagolue's text format (as apgsearch writes it
//! before uploading; lifelab writes it to disk only) and as JSON.
//!
//! ```text
//! @VERSION lifelab-0.3.0
//! @MD5 <md5 of the root>
//! @ROOT k_abc
//! @RULE b3s23
//! @SYMMETRY C1
//! @NUM_SOUPS 1000
//! @NUM_OBJECTS 23481
//!
//! @CENSUS TABLE
//! xs4_33 8137
//! ...
//!
//! @SAMPLE_SOUPIDS
//! xs4_33 0 1 2 ...
//! ```
//! The table is sorted as apgsearch sorts it: by count, most first, ties by apgcode
//! descending. Sample soups are the (at most ten) lowest soup numbers, so that a range gives
//! the same haul however it is split. Two sections follow that Catagolue's format does not
//! have: `@SOUP_RANGES` (the soup numbers counted, so that `census merge` can refuse a soup
//! counted twice) and `@LONGEST_LIVED` (the methuselah hunt).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use md5::{Digest, Md5};
use serde::Serialize;

use super::settle::SoupOutcome;

/// Sample soups kept per object, as apgsearch keeps them.
pub const SAMPLES: usize = 10;
/// Longest-lived soups kept.
pub const LONGEST: usize = 20;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Haul {
    pub version: String,
    pub root: String,
    pub rule: String,
    pub symmetry: String,
    /// The soups counted, as half-open ranges of soup numbers, sorted and disjoint.
    pub ranges: Vec<(u64, u64)>,
    pub counts: BTreeMap<String, u64>,
    pub samples: BTreeMap<String, Vec<u64>>,
    /// (generation it settled at, soup number), longest first.
    pub longest: Vec<(u64, u64)>,
}

/// One row of the census table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub apgcode: String,
    pub count: u64,
    pub samples: Vec<u64>,
}

/// A haul that could not be read or merged: where and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct HaulError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

pub fn md5_hex(text: &str) -> String {
    Md5::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Haul {
    pub fn new(root: &str, rule: &str, symmetry: &str) -> Self {
        Haul {
            version: format!("lifelab-{}", env!("CARGO_PKG_VERSION")),
            root: root.into(),
            rule: rule.into(),
            symmetry: symmetry.into(),
            ranges: Vec::new(),
            counts: BTreeMap::new(),
            samples: BTreeMap::new(),
            longest: Vec::new(),
        }
    }

    pub fn soups(&self) -> u64 {
        self.ranges.iter().map(|(a, b)| b - a).sum()
    }

    pub fn objects(&self) -> u64 {
        self.counts.values().sum()
    }

    /// Adds soups `first..end`, whose outcomes are `outcomes` (in any order).
    pub fn add(&mut self, first: u64, end: u64, outcomes: &[SoupOutcome]) {
        if first < end {
            self.ranges.push((first, end));
            normalise(&mut self.ranges);
        }
        for o in outcomes {
            for code in &o.objects {
                *self.counts.entry(code.clone()).or_default() += 1;
                let s = self.samples.entry(code.clone()).or_default();
                if !s.contains(&o.index) {
                    s.push(o.index);
                }
            }
            self.longest.push((o.settled, o.index));
        }
        self.trim();
    }

    fn trim(&mut self) {
        for s in self.samples.values_mut() {
            s.sort_unstable();
            s.dedup();
            s.truncate(SAMPLES);
        }
        self.samples.retain(|_, s| !s.is_empty());
        self.longest
            .sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        self.longest.dedup();
        self.longest.truncate(LONGEST);
    }

    /// The table in apgsearch's order.
    pub fn table(&self) -> Vec<Row> {
        let mut pairs: Vec<(u64, &String)> = self.counts.iter().map(|(k, &v)| (v, k)).collect();
        pairs.sort_unstable();
        pairs.reverse();
        pairs
            .into_iter()
            .map(|(count, code)| Row {
                apgcode: code.clone(),
                count,
                samples: self.samples.get(code).cloned().unwrap_or_default(),
            })
            .collect()
    }

    /// Adds another haul of the same root, rule and symmetry, refusing a soup counted twice.
    pub fn merge(&mut self, other: &Haul, file: &str) -> Result<(), HaulError> {
        let err = |message: String| HaulError {
            file: file.into(),
            line: 1,
            message,
        };
        for (what, a, b) in [
            ("@ROOT", &self.root, &other.root),
            ("@RULE", &self.rule, &other.rule),
            ("@SYMMETRY", &self.symmetry, &other.symmetry),
        ] {
            if a != b {
                return Err(err(format!(
                    "{what} is {b}, but the hauls before it have {a}"
                )));
            }
        }
        for &(a, b) in &other.ranges {
            if let Some(&(c, d)) = self.ranges.iter().find(|&&(c, d)| a < d && c < b) {
                return Err(err(format!(
                    "soups {a}..{b} overlap soups {c}..{d} of the hauls before it: a soup would be counted twice"
                )));
            }
        }
        self.ranges.extend(other.ranges.iter().copied());
        normalise(&mut self.ranges);
        for (k, v) in &other.counts {
            *self.counts.entry(k.clone()).or_default() += v;
        }
        for (k, v) in &other.samples {
            self.samples.entry(k.clone()).or_default().extend(v);
        }
        self.longest.extend(other.longest.iter().copied());
        self.trim();
        Ok(())
    }

    /// The haul in Catagolue's text format, then lifelab's two sections.
    pub fn to_text(&self) -> String {
        let table = self.table();
        let mut s = String::new();
        let _ = writeln!(s, "@VERSION {}", self.version);
        let _ = writeln!(s, "@MD5 {}", md5_hex(&self.root));
        let _ = writeln!(s, "@ROOT {}", self.root);
        let _ = writeln!(s, "@RULE {}", self.rule);
        let _ = writeln!(s, "@SYMMETRY {}", self.symmetry);
        let _ = writeln!(s, "@NUM_SOUPS {}", self.soups());
        let _ = writeln!(s, "@NUM_OBJECTS {}", self.objects());
        s.push_str("\n@CENSUS TABLE\n");
        for r in &table {
            let _ = writeln!(s, "{} {}", r.apgcode, r.count);
        }
        s.push_str("\n@SAMPLE_SOUPIDS\n");
        for r in &table {
            let ids: Vec<String> = r.samples.iter().map(u64::to_string).collect();
            let _ = writeln!(s, "{} {}", r.apgcode, ids.join(" "));
        }
        s.push_str("\n@SOUP_RANGES\n");
        for (a, b) in &self.ranges {
            let _ = writeln!(s, "{a}..{b}");
        }
        s.push_str("\n@LONGEST_LIVED\n");
        for (settled, index) in &self.longest {
            let _ = writeln!(s, "{index} {settled}");
        }
        s
    }

    /// Reads a haul that lifelab wrote (Catagolue's sections and lifelab's two).
    pub fn parse(text: &str, file: &str) -> Result<Haul, HaulError> {
        let err = |line: usize, message: String| HaulError {
            file: file.into(),
            line,
            message,
        };
        let mut h = Haul::new("", "", "");
        h.version.clear();
        let (mut soups, mut objects): (Option<u64>, Option<u64>) = (None, None);
        let mut section = "";
        let mut seen: Vec<&str> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let n = n + 1;
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix('@') {
                let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
                let number = |v: &str| {
                    v.parse::<u64>()
                        .map_err(|_| err(n, format!("@{key} needs a number, not '{v}'")))
                };
                match (key, value) {
                    ("VERSION", v) => h.version = v.into(),
                    ("MD5", _) => {}
                    ("ROOT", v) => h.root = v.into(),
                    ("RULE", v) => h.rule = v.into(),
                    ("SYMMETRY", v) => h.symmetry = v.into(),
                    ("NUM_SOUPS", v) => soups = Some(number(v)?),
                    ("NUM_OBJECTS", v) => objects = Some(number(v)?),
                    ("CENSUS", "TABLE") => section = "table",
                    ("SAMPLE_SOUPIDS", "") => section = "samples",
                    ("SOUP_RANGES", "") => section = "ranges",
                    ("LONGEST_LIVED", "") => section = "longest",
                    _ => return Err(err(n, format!("'{line}' is not a line of a haul"))),
                }
                seen.push(key);
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let number = |w: &str| {
                w.parse::<u64>()
                    .map_err(|_| err(n, format!("'{w}' is not a number")))
            };
            match section {
                "table" if words.len() == 2 => {
                    if h.counts
                        .insert(words[0].into(), number(words[1])?)
                        .is_some()
                    {
                        return Err(err(n, format!("{} is in the table twice", words[0])));
                    }
                }
                "samples" if !words.is_empty() => {
                    if !h.counts.contains_key(words[0]) {
                        return Err(err(
                            n,
                            format!("{} has sample soups but is not in @CENSUS TABLE", words[0]),
                        ));
                    }
                    let ids = words[1..]
                        .iter()
                        .map(|w| number(w))
                        .collect::<Result<_, _>>()?;
                    if h.samples.insert(words[0].into(), ids).is_some() {
                        return Err(err(n, format!("{} has two lines of samples", words[0])));
                    }
                }
                "ranges" if words.len() == 1 => {
                    let (a, b) = line
                        .split_once("..")
                        .ok_or_else(|| err(n, format!("'{line}' is not a range A..B")))?;
                    let (a, b) = (number(a)?, number(b)?);
                    if a >= b {
                        return Err(err(n, format!("the range {a}..{b} is empty")));
                    }
                    h.ranges.push((a, b));
                }
                "longest" if words.len() == 2 => {
                    h.longest.push((number(words[1])?, number(words[0])?));
                }
                "" => return Err(err(n, format!("'{line}' comes before any section"))),
                _ => return Err(err(n, format!("'{line}' is not a line of @{section}"))),
            }
        }
        for key in ["ROOT", "RULE", "SYMMETRY", "NUM_SOUPS"] {
            if !seen.contains(&key) {
                return Err(err(1, format!("the haul has no @{key} line")));
            }
        }
        let declared = soups.unwrap_or(0);
        if h.ranges.is_empty() && declared > 0 {
            return Err(err(
                1,
                "the haul has no @SOUP_RANGES section, so which soups it counted is not known (only lifelab's hauls can be merged)".into(),
            ));
        }
        let total = h.ranges.iter().map(|(a, b)| b - a).sum::<u64>();
        normalise(&mut h.ranges);
        if h.ranges.iter().map(|(a, b)| b - a).sum::<u64>() != total {
            return Err(err(1, "@SOUP_RANGES overlap".into()));
        }
        if total != declared {
            return Err(err(
                1,
                format!("@NUM_SOUPS is {declared}, but @SOUP_RANGES hold {total} soups"),
            ));
        }
        if let Some(o) = objects
            && o != h.objects()
        {
            return Err(err(
                1,
                format!(
                    "@NUM_OBJECTS is {o}, but the table adds up to {}",
                    h.objects()
                ),
            ));
        }
        h.trim();
        Ok(h)
    }
}

/// Sorts ranges and joins those that touch.
fn normalise(ranges: &mut Vec<(u64, u64)>) {
    ranges.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::new();
    for &(a, b) in ranges.iter() {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    *ranges = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(index: u64, settled: u64, objects: &[&str]) -> SoupOutcome {
        SoupOutcome {
            index,
            settled,
            objects: objects.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn a_haul_reads_back_as_written_and_merges_exactly() {
        let mut a = Haul::new("k_x", "b3s23", "C1");
        a.add(
            0,
            2,
            &[
                outcome(0, 300, &["xs4_33", "xs4_33"]),
                outcome(1, 900, &["xp2_7"]),
            ],
        );
        let mut b = Haul::new("k_x", "b3s23", "C1");
        b.add(2, 3, &[outcome(2, 100, &["xs4_33", "xp2_7"])]);
        let text = a.to_text();
        assert!(text.contains("@NUM_SOUPS 2\n@NUM_OBJECTS 3\n"), "{text}");
        assert!(
            text.contains("@CENSUS TABLE\nxs4_33 2\nxp2_7 1\n"),
            "{text}"
        );
        let mut back = Haul::parse(&text, "a.txt").unwrap();
        assert_eq!(back, a);
        back.merge(&b, "b.txt").unwrap();
        let mut whole = Haul::new("k_x", "b3s23", "C1");
        whole.add(
            0,
            3,
            &[
                outcome(0, 300, &["xs4_33", "xs4_33"]),
                outcome(1, 900, &["xp2_7"]),
                outcome(2, 100, &["xs4_33", "xp2_7"]),
            ],
        );
        assert_eq!(back, whole);
        let e = back.merge(&b, "b.txt").unwrap_err();
        assert!(e.to_string().contains("counted twice"), "{e}");
    }

    #[test]
    fn a_haul_whose_parts_disagree_is_refused_at_its_line() {
        let mut a = Haul::new("k_x", "b3s23", "C1");
        a.add(0, 1, &[outcome(0, 300, &["xs4_33"])]);
        let text = a.to_text();
        // Samples of an object the table does not have (found by the haul fuzz target).
        let bad = text.replace(
            "@SAMPLE_SOUPIDS\nxs4_33 0",
            "@SAMPLE_SOUPIDS\nxs4_33 0\nxp2_7 0",
        );
        let e = Haul::parse(&bad, "h.txt").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("h.txt:14: xp2_7 has sample soups"),
            "{e}"
        );
        let bad = text.replace("@NUM_OBJECTS 1", "@NUM_OBJECTS 2");
        let e = Haul::parse(&bad, "h.txt").unwrap_err();
        assert!(e.to_string().contains("table adds up to 1"), "{e}");
        let bad = text.replace("@NUM_SOUPS 1", "@NUM_SOUPS 5");
        assert!(
            Haul::parse(&bad, "h.txt")
                .unwrap_err()
                .to_string()
                .contains("hold 1 soups")
        );
    }
}
