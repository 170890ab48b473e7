//! The named rules of SPEC 1.1, selectable by name (case-insensitive; spaces, `&`, `-` and `_`
//! are ignored, so `Day & Night`, `daynight` and `day-night` are the same name).

use super::{LifeRule, RuleKind};

/// (display name, rule string) in the order the rule picker shows them.
pub const NAMED_RULES: [(&str, &str); 14] = [
    ("Life", "B3/S23"),
    ("HighLife", "B36/S23"),
    ("Seeds", "B2/S"),
    ("Day & Night", "B3678/S34678"),
    ("Replicator", "B1357/S1357"),
    ("Maze", "B3/S12345"),
    ("Fredkin", "B1357/S02468"),
    ("2x2", "B36/S125"),
    ("Life without death", "B3/S012345678"),
    ("Diamoeba", "B35678/S5678"),
    ("Morley", "B368/S245"),
    ("Anneal", "B4678/S35678"),
    ("B3/S3", "B3/S3"),
    ("B3/S13", "B3/S13"),
];

/// Other spellings users type for the same rules.
const ALIASES: [(&str, &str); 6] = [
    ("conway", "B3/S23"),
    ("gameoflife", "B3/S23"),
    ("conwayslife", "B3/S23"),
    ("dayandnight", "B3678/S34678"),
    ("lwod", "B3/S012345678"),
    ("move", "B368/S245"),
];

fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '&' | '-' | '_' | '\'' | '\t'))
        .flat_map(char::to_lowercase)
        .collect()
}

fn parse_known(text: &str) -> RuleKind {
    RuleKind::Life(super::lifelike::parse(text).expect("built-in rule strings parse"))
}

/// The rule a name stands for. Names never collide with B/S strings: those are parsed later.
pub fn lookup(name: &str) -> Option<RuleKind> {
    let key = normalise(name);
    NAMED_RULES
        .iter()
        .filter(|(n, _)| !n.starts_with('B'))
        .map(|&(n, r)| (normalise(n), r))
        .chain(ALIASES.iter().map(|&(n, r)| (n.to_string(), r)))
        .find(|(n, _)| *n == key)
        .map(|(_, r)| parse_known(r))
}

/// The display name of a rule, if it is one of the named rules.
pub fn name_of(kind: &RuleKind) -> Option<&'static str> {
    let RuleKind::Life(rule) = kind else {
        return None;
    };
    NAMED_RULES
        .iter()
        .find(|(_, r)| parse_known(r) == RuleKind::Life(*rule))
        .map(|&(n, _)| n)
}

/// Every named rule, parsed, in picker order.
pub fn all() -> Vec<(&'static str, LifeRule)> {
    NAMED_RULES
        .iter()
        .map(|&(n, r)| match parse_known(r) {
            RuleKind::Life(rule) => (n, rule),
            _ => unreachable!("named rules are Life-like"),
        })
        .collect()
}
