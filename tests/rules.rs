//! Rule strings: every notation of SPEC 1.1 and 1.2, the canonical `Display`, round trips, and
//! the error for each kind of bad rule. New rule-notation tests belong here; how rules behave
//! on a grid belongs in `engines.rs`.

use lifelab::rule::{
    ElementaryRule, LifeRule, Neighbourhood, Probability, Rule, RuleKind, Transition,
    compile_formula, named,
};
use proptest::prelude::*;

fn life(s: &str) -> LifeRule {
    *Rule::parse(s)
        .unwrap_or_else(|e| panic!("{e}"))
        .life_rule()
        .expect("a Life-like rule")
}

fn err(s: &str) -> String {
    Rule::parse(s).expect_err(s).to_string()
}

#[test]
fn conway_in_every_notation() {
    let conway = LifeRule::moore(&[3], &[2, 3]);
    for s in [
        "B3/S23", "b3/s23", "B3S23", "S23/B3", "23/3", "Life", "life", " B3/S23 ",
    ] {
        assert_eq!(life(s), conway, "{s}");
    }
    assert_eq!(Rule::parse("23/3").unwrap().to_string(), "B3/S23");
}

#[test]
fn empty_sides() {
    let seeds = life("B2/S");
    assert_eq!(seeds, LifeRule::moore(&[2], &[]));
    assert_eq!(life("/2"), seeds); // the S/B form with an empty S side
    assert_eq!(Rule::parse("Seeds").unwrap().to_string(), "B2/S");
    assert_eq!(life("B/S"), LifeRule::moore(&[], &[]));
}

#[test]
fn every_named_rule_by_name_and_canonical_form() {
    // The table of SPEC 1.1, typed here independently of the program's table.
    let spec = [
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
    ];
    for (name, canonical) in spec {
        for typed in [name.to_string(), name.to_uppercase(), name.to_lowercase()] {
            let rule = Rule::parse(&typed).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(rule.to_string(), canonical, "{typed}");
            assert_eq!(rule.name(), Some(name));
        }
    }
    assert_eq!(Rule::parse("daynight").unwrap().to_string(), "B3678/S34678");
    for extra in ["B3/S3", "B3/S13"] {
        assert!(named::all().iter().any(|(n, _)| *n == extra));
    }
    assert_eq!(named::all().len(), 14);
}

#[test]
fn hexagonal_and_von_neumann_suffixes() {
    let hex = life("B2/S34H");
    assert_eq!(hex.neighbourhood, Neighbourhood::Hexagonal);
    assert_eq!(hex.birth, Transition::from_counts(&[2]));
    assert_eq!(life("b2/s34h"), hex);
    assert_eq!(Rule::parse("34/2H").unwrap().to_string(), "B2/S34H");
    assert_eq!(life("B3/S23V").neighbourhood, Neighbourhood::VonNeumann);
}

#[test]
fn b0_rules_parse() {
    let r = life("B0/S8");
    assert!(r.birth.is_certain(0));
    assert!(r.survival.is_certain(8));
}

#[test]
fn stochastic_rules_of_the_spec() {
    // "a dead cell with exactly 2 live neighbours is born with probability 1/3; a live cell
    // with 1 or 2 neighbours survives" (hex).
    let r = life("B2(1/3)/S12H");
    assert_eq!(r.neighbourhood, Neighbourhood::Hexagonal);
    assert_eq!(r.birth.certain, 0);
    assert_eq!(r.birth.chance[2], Probability::new(1, 3));
    assert_eq!(r.survival, Transition::from_counts(&[1, 2]));
    assert!(r.is_stochastic());

    // "born with probability 1 at 3 and 1/6 at 2; survives at 2 or 3" (hex).
    let r = life("B2(1/6)3/S23H");
    assert!(r.birth.is_certain(3));
    assert_eq!(r.birth.chance[2], Probability::new(1, 6));
    assert_eq!(r.survival, Transition::from_counts(&[2, 3]));

    // Decimals and percentages reduce to the same fraction; probability 1 is certainty.
    assert_eq!(life("B2(0.25)/S"), life("B2(25%)/S"));
    assert_eq!(life("B2(0.25)/S").birth.chance[2], Probability::new(1, 4));
    assert_eq!(life("B3(1)/S23"), life("B3/S23"));
    assert_eq!(
        Rule::parse("B2(2/6)/S12H").unwrap().to_string(),
        "B2(1/3)/S12H"
    );
}

#[test]
fn torus_suffix() {
    let r = Rule::parse("B3/S23:T512,512").unwrap();
    assert_eq!(r.torus, Some((512, 512)));
    assert_eq!(r.to_string(), "B3/S23:T512,512");
    assert_eq!(Rule::parse("Life:t30,20").unwrap().torus, Some((30, 20)));
    // Golly: a single number is a square torus.
    assert_eq!(Rule::parse("B3/S23:T30").unwrap().torus, Some((30, 30)));
    assert_eq!(Rule::parse("W110:T64,1").unwrap().torus, Some((64, 1)));
}

/// Golly's other bounded grids, read as `lifealgo::setgridsize` reads them and written back in
/// the canonical form `lifealgo::canonicalsuffix` gives (shifts taken modulo the side, a Klein
/// bottle's shift kept only on an even twisted side, as one cell, `:K` alone twisting its
/// left and right edges).
#[test]
fn golly_s_bounded_grids_read_and_write_as_golly_writes_them() {
    use lifelab::geometry::Edges;
    for (text, canonical, grid) in [
        (
            "B3/S23:T30+7,20",
            "B3/S23:T30+7,20",
            (
                30,
                20,
                Edges::ShiftedTorus {
                    horizontal: 7,
                    vertical: 0,
                },
            ),
        ),
        (
            "B3/S23:T30-37,20",
            "B3/S23:T30-7,20",
            (
                30,
                20,
                Edges::ShiftedTorus {
                    horizontal: -7,
                    vertical: 0,
                },
            ),
        ),
        (
            "B3/S23:T30,20+3",
            "B3/S23:T30,20+3",
            (
                30,
                20,
                Edges::ShiftedTorus {
                    horizontal: 0,
                    vertical: 3,
                },
            ),
        ),
        (
            "B3/S23:K40*,20",
            "B3/S23:K40*,20",
            (40, 20, Edges::KleinTopBottom { shifted: false }),
        ),
        (
            "B3/S23:K40,20",
            "B3/S23:K40,20*",
            (40, 20, Edges::KleinLeftRight { shifted: false }),
        ),
        (
            "B3/S23:k40*+5,20",
            "B3/S23:K40*+1,20",
            (40, 20, Edges::KleinTopBottom { shifted: true }),
        ),
        (
            "B3/S23:K41*+5,20",
            "B3/S23:K41*,20",
            (41, 20, Edges::KleinTopBottom { shifted: false }),
        ),
        (
            "B3/S23:K40,20*-1",
            "B3/S23:K40,20*+1",
            (40, 20, Edges::KleinLeftRight { shifted: true }),
        ),
        (
            "B3/S23:C40,20",
            "B3/S23:C40,20",
            (40, 20, Edges::CrossSurface),
        ),
        ("B3/S23:C40", "B3/S23:C40,40", (40, 40, Edges::CrossSurface)),
        ("B3/S23:S30", "B3/S23:S30", (30, 30, Edges::Sphere)),
        ("B3/S23:P30,20", "B3/S23:P30,20", (30, 20, Edges::Plane)),
    ] {
        let r = Rule::parse(text).unwrap();
        assert_eq!(r.bounded, Some(grid), "{text}");
        assert_eq!(r.torus, None, "{text}");
        assert_eq!(r.to_string(), canonical, "{text}");
        assert_eq!(Rule::parse(canonical).unwrap(), r, "{canonical}");
    }
    // A shift of nothing (or of the whole side, or no digits, as Golly reads `+`) is the
    // plain torus; a shift of many digits is taken modulo its side; a second shift is refused
    // only where the first is not 0 once so taken, as Golly refuses it.
    for text in ["B3/S23:T30+30,20", "B3/S23:T30+,20", "B3/S23:T30+0,20"] {
        let r = Rule::parse(text).unwrap();
        assert_eq!((r.torus, r.bounded), (Some((30, 20)), None), "{text}");
    }
    let r = Rule::parse("B3/S23:T30+300000000000000000007,20").unwrap();
    assert_eq!(r.to_string(), "B3/S23:T30+7,20");
    let r = Rule::parse("B3/S23:T30+30,20+3").unwrap();
    assert_eq!(r.to_string(), "B3/S23:T30,20+3");
    assert!(Rule::parse("B3/S23:T30++5,20").is_err());
}

#[test]
fn golly_writes_a_ring_as_width_and_height_zero() {
    // Golly's notation for a one-dimensional ring of width w is `:Tw,0`.
    let r = Rule::parse("W90:T11,0").unwrap();
    assert_eq!(r.torus, Some((11, 1)));
    assert_eq!(r.to_string(), "W90:T11,0");
    assert_eq!(Rule::parse("W30:T11,1").unwrap().to_string(), "W30:T11,0");
    // A taller torus (Golly's 2D form's, in a pattern file) prints as it came and reads back
    // (the fuzz target found `w2:T644,6` printed as a ring).
    let tall = Rule::parse("w2:T644,6").unwrap();
    assert_eq!(tall.to_string(), "W2:T644,6");
    assert_eq!(Rule::parse(&tall.to_string()).unwrap(), tall);
    // A Life-like rule's height 0 is Golly's infinite height: a tube 11 cells round.
    let tube = Rule::parse("B3/S23:T11,0").unwrap();
    assert_eq!(tube.torus, None);
    assert_eq!(tube.tube, Some(lifelab::geometry::Tube::Tall { width: 11 }));
}

#[test]
fn wolfram_rules() {
    assert_eq!(
        Rule::parse("W110").unwrap().elementary(),
        Some(ElementaryRule(110))
    );
    assert_eq!(Rule::parse("w30").unwrap().to_string(), "W30");
    assert_eq!(
        Rule::parse("W0").unwrap().elementary(),
        Some(ElementaryRule(0))
    );
    assert_eq!(
        Rule::parse("W255").unwrap().elementary(),
        Some(ElementaryRule(255))
    );
    // A ring's height of 0 is a number, however many zeros spell it (the fuzzer's find: the
    // formula `z` is W170, and ':T06,00' read as a 6-wide tube did not print back the same).
    for text in ["z:T06,00", "W170:T6,00", "W170:T6,0"] {
        let rule = Rule::parse(text).unwrap();
        assert_eq!(rule.torus, Some((6, 1)), "{text}");
        assert_eq!(rule.to_string(), "W170:T6,0", "{text}");
        assert_eq!(Rule::parse(&rule.to_string()).unwrap(), rule, "{text}");
    }
}

#[test]
fn rule_110_truth_table_is_the_spec_s() {
    // SPEC 1.2: rule 110 maps 000, 001, ..., 111 to 0, 1, 1, 1, 0, 1, 1, 0.
    let expected = [false, true, true, true, false, true, true, false];
    assert_eq!(ElementaryRule(110).truth_table(), expected);
}

/// SPEC 1.2's definition, written out: N in 8 binary digits b0..b7 (b0 most significant);
/// neighbourhood 111 takes b0, 110 takes b1, ..., 000 takes b7.
fn spec_output(n: u8, left: bool, centre: bool, right: bool) -> bool {
    let digits = format!("{n:08b}");
    let k = (left as usize) << 2 | (centre as usize) << 1 | right as usize;
    let b_index = 7 - k; // 111 (k = 7) -> b0
    digits.as_bytes()[b_index] == b'1'
}

#[test]
fn every_wolfram_number_round_trips_through_its_truth_table() {
    for n in 0..=255u8 {
        let rule = ElementaryRule(n);
        for k in 0..8 {
            let (l, c, r) = (k & 4 != 0, k & 2 != 0, k & 1 != 0);
            assert_eq!(
                rule.apply(l, c, r),
                spec_output(n, l, c, r),
                "rule {n}, {k:03b}"
            );
        }
        assert_eq!(ElementaryRule::from_truth_table(rule.truth_table()), rule);
        assert_eq!(
            Rule::parse(&format!("W{n}")).unwrap().to_string(),
            format!("W{n}")
        );
    }
}

#[test]
fn formulas_compile_to_wolfram_numbers() {
    // Truth tables worked by hand, read from 111 down to 000.
    let cases = [
        ("x ^ y ^ z", 0b1001_0110),       // parity: rule 150
        ("(x + y + z) % 2", 0b1001_0110), // the same, arithmetically
        ("x + y + z", 0b1001_0110),       // the value is taken mod 2
        ("x & y | !z", 0b1101_0101),      // 213
        ("(x*y + x*z) % 2", 0b0110_0000), // x and (y xor z): 96
        ("x ^ (y | z)", 30),              // rule 30
        ("x ^ z", 90),                    // rule 90
        ("y", 204),                       // identity
        ("x", 240),                       // shift right
        ("0", 0),
        ("1", 255),
        ("~y", 51),
        ("X && Y || Z", 0b1110_1010),
    ];
    for (formula, n) in cases {
        assert_eq!(compile_formula(formula), Ok(ElementaryRule(n)), "{formula}");
        // As a rule string a formula must mention a variable (a bare digit is not a rule).
        if formula.contains(['x', 'y', 'z', 'X', 'Y', 'Z']) {
            let rule = Rule::parse(formula).unwrap();
            assert_eq!(rule.to_string(), format!("W{n}"), "{formula}");
        }
    }
}

#[test]
fn bad_rules_name_the_part_and_the_range() {
    let cases = [
        ("B9/S23", "B9/S23: neighbour count 9 is outside 0..8"),
        ("B3/S29", "B3/S29: neighbour count 9 is outside 0..8"),
        ("B7/S23H", "B7/S23H: neighbour count 7 is outside 0..6"),
        ("B5/S1V", "B5/S1V: neighbour count 5 is outside 0..4"),
        ("W256", "W256: Wolfram rule number 256 is outside 0..255"),
        ("B33/S23", "B33/S23: neighbour count 3 appears twice in B"),
        (
            // (`B3/S23q` is a non-totalistic rule, S3q, as in Golly.)
            "B3/S23x",
            "B3/S23x: unexpected 'x' at column 7 in S (expected a neighbour count 0..8)",
        ),
        (
            "Lfie",
            "Lfie: unknown rule name 'Lfie': it is not a named rule (Life, HighLife, Seeds, \
             Day & Night, Replicator, Maze, Fredkin, 2x2, Life without death, Diamoeba, Morley, \
             Anneal), and no rule file Lfie.rule is in the pattern's folder, a --rules folder, \
             LIFELAB_RULES or Golly's rules folder (/usr/share/golly/Rules)",
        ),
        (
            "B3/S23:T0+1,5",
            "B3/S23:T0+1,5: bounded grid ':T0+1,5': shifting is not allowed if either side is \
             unbounded",
        ),
        (
            "B3/S23:S0",
            "B3/S23:S0: sphere ':S0' can't have an infinite width",
        ),
        (
            "B3/S23:K20,0*",
            "B3/S23:K20,0*: Klein bottle ':K20,0*' can't have an infinite height",
        ),
        // Golly's own refusals (`lifealgo::setgridsize`), in its words.
        (
            "B3/S23:K30*,20*",
            "B3/S23:K30*,20*: Klein bottle ':K30*,20*' can't have both horizontal and vertical \
             twists",
        ),
        (
            "B3/S23:T30*,20",
            "B3/S23:T30*,20: bounded grid ':T30*,20': only a Klein bottle has a twist ('*')",
        ),
        (
            "B3/S23:K30,20+1",
            "B3/S23:K30,20+1: Klein bottle ':K30,20+1': the shift must be on the twisted edges",
        ),
        (
            "B3/S23:S30,20",
            "B3/S23:S30,20: sphere ':S30,20' is square: Golly writes it ':S<side>'",
        ),
        (
            "B3/S23:C30+2,20",
            "B3/S23:C30+2,20: cross-surface ':C30+2,20' can't have a shift",
        ),
        (
            "B3/S23:P30,20-1",
            "B3/S23:P30,20-1: bounded plane ':P30,20-1' can't have a shift",
        ),
        (
            "B3/S23:T30+2,20+1",
            "B3/S23:T30+2,20+1: torus ':T30+2,20+1' can't have both horizontal and vertical shifts",
        ),
        (
            "B3/S23:T30+x,20",
            "B3/S23:T30+x,20: bounded grid ':T30+x,20': the shift '+x' is not a sign and a whole \
             number",
        ),
        (
            "B3/S23:C0,20",
            "B3/S23:C0,20: cross-surface ':C0,20' can't have an infinite width",
        ),
        (
            "B2(3/2)/S",
            "B2(3/2)/S: probability '(3/2)' at column 3 for count 2 in B is above 1",
        ),
        ("B2(1/3/S", "B2(1/3/S: '(' at column 3 is never closed"),
        (
            "x ^ y ^",
            "x ^ y ^: formula: expected a value at column 8 (end of formula)",
        ),
        (
            "x ^ w",
            "x ^ w: formula: unknown name 'w' at column 5 (the variables are x, y, z)",
        ),
        (
            "(x ^ y",
            "(x ^ y: formula: expected ')' at column 7 to close '(' at column 1",
        ),
        (
            "x % 0",
            "x % 0: formula: '% 0' divides by zero at x=0, y=0, z=0",
        ),
        ("", ": empty rule string"),
    ];
    for (input, expected) in cases {
        assert_eq!(err(input), expected, "{input}");
    }
}

#[test]
fn hostile_rule_strings_do_not_overflow_the_stack() {
    let deep = format!("{}x{}", "(".repeat(400), ")".repeat(400));
    assert!(err(&deep).contains("nested more than"));
    let long = vec!["x"; 5000].join(" + ");
    assert!(err(&long).contains("tokens is more than"));
    let many_nots = format!("{}x", "!".repeat(100_000));
    assert!(Rule::parse(&many_nots).is_err());
}

/// Per count: absent, certain, or a probability strictly between 0 and 1.
#[derive(Clone, Debug)]
enum Outcome {
    Never,
    Certain,
    Chance(Probability),
}

fn arb_transition(max: u8) -> impl Strategy<Value = Transition> {
    let outcome = prop_oneof![
        3 => Just(Outcome::Never),
        2 => Just(Outcome::Certain),
        1 => (2u64..60)
            .prop_flat_map(|den| (1..den, Just(den)))
            .prop_map(|(num, den)| Outcome::Chance(Probability::new(num, den).unwrap())),
    ];
    prop::collection::vec(outcome, max as usize + 1).prop_map(|v| {
        let mut t = Transition::default();
        for (n, e) in v.into_iter().enumerate() {
            match e {
                Outcome::Certain => t.certain |= 1 << n,
                Outcome::Chance(p) => t.chance[n] = Some(p),
                Outcome::Never => {}
            }
        }
        t
    })
}

fn arb_life_rule() -> impl Strategy<Value = LifeRule> {
    prop::sample::select(Neighbourhood::ALL.to_vec()).prop_flat_map(|nb| {
        let max = nb.max_count();
        (arb_transition(max), arb_transition(max)).prop_map(move |(birth, survival)| LifeRule {
            neighbourhood: nb,
            birth,
            survival,
        })
    })
}

proptest! {
    #[test]
    fn display_then_parse_is_the_identity(rule in arb_life_rule(), torus in prop::option::of((1u32..5000, 1u32..5000))) {
        let rule = Rule { kind: RuleKind::Life(rule), torus, bounded: None, tube: None };
        let text = rule.to_string();
        prop_assert_eq!(Rule::parse(&text), Ok(rule), "{}", text);
    }

    #[test]
    fn parsing_arbitrary_text_never_panics(s in "\\PC{0,40}") {
        let _ = Rule::parse(&s);
    }

    #[test]
    fn parsing_rule_like_text_never_panics(s in "[BbSs0-9/()%.:TtHhVxyz^&|!+*, -]{0,30}") {
        if let Ok(rule) = Rule::parse(&s) {
            prop_assert_eq!(Rule::parse(&rule.to_string()), Ok(rule));
        }
    }
}

/// Golly's canonical form of isotropic non-totalistic rules: each input, then what bgolly 3.3
/// wrote in the header of its output (`bgolly -a QuickLife -m 0 -o out.rle in.rle` on a one-cell
/// RLE with `rule = INPUT`).
#[test]
fn hensel_rules_print_as_golly_prints_them() {
    for (input, golly) in [
        ("B2-a/S12", "B2-a/S12"),
        ("B2-ac3ai/S1c2-n3-aky4a", "B2-ac3ai/S1c2-n3-aky4a"),
        (
            "B2aei3r4kn5jnr6k/S2ai3k4iknqr5r6ai",
            "B2aei3r4kn5jnr6k/S2ai3k4iknqr5r6ai",
        ),
        ("B2cek3i_S12cei", "B2cek3i/S12cei"),
        ("B3-ej6e/S234i", "B3-ej6e/S234i"),
        ("B37/S2-i34q", "B37/S2-i34q"),
        ("B3_S23-a4ei6", "B3/S23-a4ei6"),
        ("B3aceiknjqr/S23", "B3-y/S23"),
        ("B4ceaiknjqrytwz/S", "B4/S"),
        ("B4ceaiknj/S", "B4aceijkn/S"),
        ("B4-ceaikn/S", "B4jqrtwyz/S"),
        ("B4-jqrtwyz/S", "B4aceikn/S"),
        ("B4aceijknq/S", "B4-rtwyz/S"),
        ("B3-/S23", "B3/S23"),
        ("S23-a/B3", "B3/S23-a"),
        ("B3/S23-", "B3/S23"),
        ("B2cc/S", "B2c/S"),
        ("B7e/S1-c", "B7e/S1e"),
        ("B3/S2-cekn", "B3/S2ai"),
        ("B3/S2c2", "B3/S2c"),
        ("B1e2-c3-n4-ace5-ik6ae7e/S", "B1e2-c3-n4-ace5-ik6ae7e/S"),
        ("B34t5-ce/S012-c3-a4ceijk", "B34t5-ce/S012-c3-a4ceijk"),
    ] {
        let rule = Rule::parse(input).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rule.to_string(), golly, "{input}");
        assert_eq!(Rule::parse(golly).unwrap(), rule, "{golly} reads back");
    }
    // Letters that add up to whole counts are the Life-like rule itself.
    assert_eq!(
        life("B3aceijknqry/S2aceikn3"),
        LifeRule::moore(&[3], &[2, 3])
    );
}

/// Hensel's letters, worked out by hand from their pictures: B1c is born from one corner
/// neighbour only, B2a from two adjacent neighbours, B2i from two opposite edges.
#[test]
fn hensel_letters_are_the_configurations_of_their_pictures() {
    use lifelab::rule::map::{CENTRE, E, N, NE, NW, S, SE, W};
    let m = |s: &str| match Rule::parse(s).unwrap().kind {
        RuleKind::Map(m) => m,
        other => panic!("{s}: {other:?}"),
    };
    let b1c = m("B1c/S");
    for corner in [NW, NE, SE, lifelab::rule::map::SW] {
        assert!(b1c.next(corner));
    }
    assert!(!b1c.next(N) && !b1c.next(E) && !b1c.next(CENTRE | NW));
    let b2a = m("B2a/S");
    assert!(b2a.next(NW | N) && b2a.next(N | NE) && b2a.next(E | SE));
    assert!(!b2a.next(N | S) && !b2a.next(NW | SE) && !b2a.next(NW | NE));
    let b2i = m("B2i/S");
    assert!(b2i.next(N | S) && b2i.next(W | E) && !b2i.next(N | E));
    let s2_a = m("B3/S2-a");
    assert!(!s2_a.next(CENTRE | NW | N) && s2_a.next(CENTRE | N | S));
}

/// MAP strings: Life's, as LifeWiki gives it, is Life; the bit order is Golly's, checked with
/// bgolly on a rule whose only birth is from the NW neighbour (index 256): a cell in the top
/// left corner of a bounded 3x3 grid (`:P3,3`) gives birth down and to the right.
#[test]
fn map_rules_read_and_print_as_golly_has_them() {
    let life_map =
        "MAPARYXfhZofugWaH7oaIDogBZofuhogOiAaIDogIAAgAAWaH7oaIDogGiA6ICAAIAAaIDogIAAgACAAIAAAAAAAA";
    let rule = Rule::parse(life_map).unwrap();
    assert_eq!(rule.to_string(), life_map);
    assert_eq!(
        rule.block_rule().unwrap().totalistic(),
        Some((vec![3], vec![2, 3]))
    );
    // The "==" padding Golly allows, and the neighbourhood from the length.
    assert_eq!(Rule::parse(&format!("{life_map}==")).unwrap(), rule);
    let hex = Rule::parse(&format!("MAP{}", "A".repeat(22))).unwrap();
    assert!(hex.is_hex());
    assert!(Rule::parse("MAPAAAAAA").is_ok());
    // NW is the top bit of the index: the first bit after 256 zeros.
    let mut bits = vec!['A'; 86];
    bits[256 / 6] = ['g', 'Q', 'I', 'E', 'C', 'B'][256 % 6];
    let nw: String = bits.into_iter().collect();
    let RuleKind::Map(m) = Rule::parse(&format!("MAP{nw}")).unwrap().kind else {
        panic!()
    };
    assert!(m.next(lifelab::rule::map::NW));
    assert!(!m.next(lifelab::rule::map::SE));
    assert!(err("MAPAAA").contains("86 base64 characters"));
    assert!(err(&format!("MAP{}!", &life_map[3..88])).contains("column 89"));
}

#[test]
fn other_families_are_named_in_their_errors() {
    // Larger than Life runs; its neighbourhoods that lifelab lacks are named.
    assert!(Rule::parse("R5,C0,M1,S34..58,B34..45,NM").is_ok());
    let weighted = err("R2,C0,S2-3,B3,NW111101111");
    assert!(
        weighted.contains("Larger than Life") && weighted.contains("weighted"),
        "{weighted}"
    );
    // Von Neumann's automata are built in, under Golly's names old and new.
    for (name, states, canonical) in [
        ("JvN29", 29, "JvN29"),
        ("Nobili32", 32, "Nobili32"),
        ("Hutton32", 32, "Hutton32"),
        ("JvN-32", 32, "Nobili32"),
    ] {
        let rule = Rule::parse(name).unwrap();
        assert_eq!(
            (rule.states(), rule.to_string()),
            (states, canonical.to_string())
        );
    }
    // Golly's rule files are found in its rules folder when it is there, and named when not.
    let golly = std::path::Path::new("/usr/share/golly/Rules");
    for (name, states) in [("LifeHistory", 7), ("Langtons-Loops", 8)] {
        match Rule::parse(name) {
            Ok(rule) => {
                assert!(golly.join(format!("{name}.rule")).is_file(), "{name}");
                assert_eq!(rule.states(), states, "{name}");
                assert_eq!(rule.to_string(), name);
            }
            Err(e) => assert!(e.to_string().contains(&format!("{name}.rule")), "{e}"),
        }
    }
    // Moore's letters are not the hexagon's.
    let hex = err("B2-a/S12H");
    assert!(
        hex.contains("unexpected 'a' at column 4 in B") && hex.contains("omp"),
        "{hex}"
    );
    assert!(err("B2q/S").contains("not one of count 2's letters (ceaikn)"));
    assert!(err("B0c/S").contains("count 0 has no letters"));
    assert!(err("B3_S23").contains("'_'"));
}

/// In a pattern file Golly runs `W22` in 2D: live cells stay and each generation is the row
/// below the last. bgolly 3.3 on one cell, `rule = W30`, 3 generations gives
/// `3bo$2b3o$b2o2bo$2ob4o!` (population 12), which is worked out here by hand too.
#[test]
fn wolfram_rules_in_a_2d_file_are_golly_s_2d_form() {
    let rule = Rule::parse_in_2d_file("W30").unwrap();
    assert!(matches!(rule.kind, RuleKind::Map(_)));
    assert_eq!(rule.to_string(), "W30");
    // A ring stays the one-dimensional automaton; a 2D torus is the 2D form.
    assert!(Rule::parse_in_2d_file("W30:T64,0").unwrap().is_elementary());
    let torus = Rule::parse_in_2d_file("W30:T64,32").unwrap();
    assert!(matches!(torus.kind, RuleKind::Map(_)));
    assert_eq!(torus.torus, Some((64, 32)));
    assert_eq!(Rule::parse_in_2d_file(&torus.to_string()).unwrap(), torus);
    assert!(
        Rule::parse_in_2d_file("W31")
            .unwrap_err()
            .to_string()
            .contains("even")
    );
    let mut e = lifelab::cpu::ReferenceEngine::empty(rule, 16, 8, 0).unwrap();
    use lifelab::engine::Engine;
    e.set_cell(8, 0, true).unwrap();
    e.step(3).unwrap();
    let rows: Vec<String> = (0..4)
        .map(|y| {
            (5..12)
                .map(|x| if e.cell(x, y).unwrap() { 'o' } else { '.' })
                .collect()
        })
        .collect();
    assert_eq!(rows, ["...o...", "..ooo..", ".oo..o.", "oo.oooo"]);
}

/// Golly's infinite sides (`lifealgo::setgridsize`): a tube one way (`:T0,<h>`, `:T<w>,0`),
/// written back as Golly writes it, and the plane where both sides are 0 or none is given.
#[test]
fn infinite_sides_are_golly_s_tubes_and_plane() {
    use lifelab::geometry::Tube;
    let tube = |s: &str| Rule::parse(s).unwrap().tube;
    assert_eq!(tube("B3/S23:T0,68"), Some(Tube::Wide { height: 68 }));
    assert_eq!(tube("B3/S23:t40,0"), Some(Tube::Tall { width: 40 }));
    assert_eq!(
        Rule::parse("B3/S23:T0,68").unwrap().to_string(),
        "B3/S23:T0,68"
    );
    assert_eq!(
        Rule::parse("B36/S23:T40,0").unwrap().to_string(),
        "B36/S23:T40,0"
    );
    // Golly's infinite strips: a bounded plane with one side 0.
    for (text, strip) in [
        ("B3/S23:P0,5", Tube::WideStrip { height: 5 }),
        ("B3/S23:P7,0", Tube::TallStrip { width: 7 }),
    ] {
        let r = Rule::parse(text).unwrap();
        assert_eq!(
            (r.torus, r.bounded, r.tube),
            (None, None, Some(strip)),
            "{text}"
        );
        assert_eq!(r.to_string(), text);
    }
    for plane in [
        "B3/S23:T0,0",
        "B3/S23:T0",
        "B3/S23:",
        "B3/S23:T",
        "B3/S23:P0,0",
    ] {
        let r = Rule::parse(plane).unwrap();
        assert_eq!((r.torus, r.bounded, r.tube), (None, None, None), "{plane}");
        assert_eq!(r.to_string(), "B3/S23", "{plane}");
    }
}

/// The hexagonal neighbourhood's letters against an independent implementation: the classes
/// of AlephAlpha's `ca-rules` crate (`src/neighborhood/isohex.rs`, LifeWiki's definitions), whose
/// six bits are, most significant first, the hexagon's top left, top right, left, right, bottom
/// left and bottom right neighbours: in Golly's layout of hexagons on the square grid, NW, N,
/// W, E, S and SE. Each letter of counts 2 to 4, alone in the births, gives birth on exactly
/// its blocks, and the hexagon's own corners NE and SW are ignored.
#[test]
fn hexagonal_letters_are_lifewiki_s_classes() {
    use lifelab::rule::RuleKind;
    let classes: [(&str, &[u8]); 9] = [
        ("2o", &[0x03, 0x05, 0x0a, 0x14, 0x28, 0x30]),
        ("2m", &[0x06, 0x09, 0x11, 0x18, 0x22, 0x24]),
        ("2p", &[0x0c, 0x12, 0x21]),
        ("3o", &[0x07, 0x0b, 0x15, 0x2a, 0x34, 0x38]),
        (
            "3m",
            &[
                0x0d, 0x0e, 0x13, 0x16, 0x1a, 0x1c, 0x23, 0x25, 0x29, 0x2c, 0x31, 0x32,
            ],
        ),
        ("3p", &[0x19, 0x26]),
        ("4o", &[0x0f, 0x17, 0x2b, 0x35, 0x3a, 0x3c]),
        ("4m", &[0x1b, 0x1d, 0x27, 0x2e, 0x36, 0x39]),
        ("4p", &[0x1e, 0x2d, 0x33]),
    ];
    // ca-rules' bit k (5 down to 0) is the cell at this offset.
    let cells = [(1, 1), (0, 1), (1, 0), (-1, 0), (0, -1), (-1, -1)]; // bit 0 (SE) .. bit 5 (NW)
    let block = |six: u8, corners: bool| -> u16 {
        let mut b = 0u16;
        for (k, &(dx, dy)) in cells.iter().enumerate() {
            if six >> k & 1 == 1 {
                b |= 1 << (8 - ((dy + 1) * 3 + dx + 1));
            }
        }
        if corners {
            b |= (1 << 6) | (1 << 2); // NE and SW
        }
        b
    };
    for (class, members) in classes {
        let rule = Rule::parse(&format!("B{class}/SH")).unwrap();
        let RuleKind::Map(table) = rule.kind else {
            panic!("B{class}/SH is not a table: {rule}");
        };
        for six in 0u8..64 {
            let want = members.contains(&six);
            for corners in [false, true] {
                assert_eq!(
                    table.next(block(six, corners)),
                    want,
                    "B{class}/SH on the hexagon 0x{six:02x} (corners {corners})"
                );
            }
        }
        assert_eq!(rule.to_string(), format!("B{class}/SH"));
    }
    // Every letter of a count is the count; canonical forms as written, and errors by place.
    assert_eq!(Rule::parse("B2omp/S34H").unwrap().to_string(), "B2/S34H");
    assert_eq!(Rule::parse("B2om/S2H").unwrap().to_string(), "B2-p/S2H");
    assert_eq!(
        Rule::parse("B2o3p4-o5/S2-p3p45H").unwrap().to_string(),
        "B2o3p4-o5/S2-p3p45H"
    );
    assert_eq!(Rule::parse("12m/2-p/3H").unwrap().to_string(), "12m/2-p/3H");
    let e = Rule::parse("B1o/S2H").unwrap_err().to_string();
    assert!(e.contains("count 1 has no letters"), "{e}");
    let e = Rule::parse("B2c/S3H").unwrap_err().to_string();
    assert!(e.contains("unexpected 'c' at column 3"), "{e}");
}
