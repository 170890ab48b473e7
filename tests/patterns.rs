//! Pattern files and the built-in library: reading, writing, round trips, and the located
//! error for each kind of malformed file. New file-format tests belong here; what patterns do
//! when run belongs in `engines.rs`.

use lifelab::grid::Grid;
use lifelab::pattern::{self, Format, Pattern, library, parse_bytes};
use lifelab::rule::Rule;
use proptest::prelude::*;

fn rle(text: &str) -> Pattern {
    pattern::parse(text, Format::Rle).unwrap_or_else(|e| panic!("{e}"))
}

fn rle_err(text: &str) -> String {
    pattern::parse(text, Format::Rle)
        .expect_err(text)
        .to_string()
}

#[test]
fn reads_a_commented_rle() {
    let p = rle(
        "#N Glider\n#O Richard K. Guy\n#C The smallest spaceship.\n#C Second line.\n\
         x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n",
    );
    assert_eq!(p.name.as_deref(), Some("Glider"));
    assert_eq!(p.author.as_deref(), Some("Richard K. Guy"));
    assert_eq!(p.comments, ["The smallest spaceship.", "Second line."]);
    assert_eq!(p.rule, Some(Rule::life()));
    assert_eq!(p.cells.to_text(), ".O.\n..O\nOOO\n");
}

#[test]
fn rle_header_torus_and_layout_variants() {
    let p = rle("x=3,y=2,rule=B36/S23:T512,256\n3o$\nobo!");
    assert_eq!(p.rule.unwrap().torus, Some((512, 256)));
    assert_eq!(p.cells.to_text(), "OOO\nO.O\n");
    // Runs spanning lines, '.' and 'A' as in multi-state files, run counts on '$'.
    let p = rle("x = 4, y = 4\n2.A\nA2$\nAA!");
    assert_eq!(p.cells.to_text(), "..OO\n....\nOO..\n....\n");
    // No header: the size comes from the cells.
    let p = rle("bo$2bo$3o!");
    assert_eq!((p.width(), p.height()), (3, 3));
    // Text after '!' is ignored, as Golly does.
    assert_eq!(rle("x = 1, y = 1\no! trailing words").population(), 1);
    // Golly's XRLE position comment is not a user comment.
    assert!(
        rle("#CXRLE Pos=-2,-2\nx = 1, y = 1\no!")
            .comments
            .is_empty()
    );
}

/// Golly's `#CXRLE Pos=x,y` places the pattern's top-left cell, in Golly's coordinates (the
/// origin in the middle of the grid, whose top-left cell is (-w/2, -h/2)). On a bounded grid
/// other than the torus that changes what the cells do, so it is kept there: -13,-4 on a 40x20
/// cross-surface is (7, 6) from the grid's corner. A malformed position is an error at its column.
#[test]
fn golly_s_position_places_a_pattern_on_its_bounded_grid() {
    let p = rle("#CXRLE Pos=-13,-4\nx = 3, y = 2, rule = B3/S23:C40,20\n3o$3o!");
    assert_eq!(p.origin, Some((7, 6)));
    let p = rle("#CXRLE Pos=-1,0 Gen=3\nx = 1, y = 1, rule = B3/S23:P7,5\no!");
    assert_eq!(p.origin, Some((2, 2)));
    // On the plane and the torus a pattern is centred, as before.
    assert_eq!(
        rle("#CXRLE Pos=5,5\nx = 1, y = 1, rule = B3/S23:T9,9\no!").origin,
        None
    );
    assert_eq!(
        rle_err("#CXRLE Gen=1 Pos=3;4\nx = 1, y = 1, rule = B3/S23:S9\no!"),
        "line 1, column 14: #CXRLE position 'Pos=3;4' is not Pos=<x>,<y> in whole numbers"
    );
    // Where the position is not used (the plane, a torus) a malformed one is passed over, as
    // the line always was.
    assert_eq!(rle("#CXRLE Pos=3;4\nx = 1, y = 1\no!").population(), 1);
}

#[test]
fn rle_writer_matches_the_hand_written_form() {
    let glider = Grid::from_text(".O.\n..O\nOOO");
    let mut p = Pattern::new(glider);
    p.name = Some("Glider".into());
    p.rule = Some(Rule::life());
    assert_eq!(
        pattern::write(&p, Format::Rle),
        "#N Glider\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n"
    );
    // Empty rows collapse into a counted '$'; trailing dead cells and rows are implied.
    let p = Pattern::new(Grid::from_text("O...\n....\n....\n.O..\n...."));
    assert_eq!(pattern::write(&p, Format::Rle), "x = 4, y = 5\no3$bo!\n");
    assert_eq!(
        pattern::write(&Pattern::new(Grid::new(0, 0)), Format::Rle),
        "x = 0, y = 0\n!\n"
    );
    // Leading empty rows are a counted '$' too.
    let p = Pattern::new(Grid::from_text("...\n...\n.O.\n"));
    assert_eq!(pattern::write(&p, Format::Rle), "x = 3, y = 3\n2$bo!\n");
    for (w, h) in [(0, 0), (0, 3), (3, 0)] {
        let p = Pattern::new(Grid::new(w, h));
        assert_eq!(rle(&pattern::write(&p, Format::Rle)), p);
    }
}

#[test]
fn rle_lines_are_wrapped_at_70_columns_without_splitting_runs() {
    let mut cells = Grid::new(300, 40);
    cells.fill_random(0.5, 3);
    let text = pattern::write(&Pattern::new(cells.clone()), Format::Rle);
    for line in text.lines() {
        assert!(line.len() <= 70, "{} columns: {line}", line.len());
    }
    // A line never ends with a bare count: every run stays whole.
    for line in text.lines().skip(1) {
        assert!(!line.ends_with(|c: char| c.is_ascii_digit()), "{line}");
    }
    assert_eq!(rle(&text).cells, cells);
}

#[test]
fn cells_format() {
    let text = "!Name: Glider\n!A spaceship.\n.O.\n..O\nOOO\n";
    let p = pattern::parse(text, Format::Cells).unwrap();
    assert_eq!(p.name.as_deref(), Some("Glider"));
    assert_eq!(p.comments, ["A spaceship."]);
    assert_eq!(p.cells.to_text(), ".O.\n..O\nOOO\n");
    assert_eq!(pattern::write(&p, Format::Cells), text);
    // Short rows are padded; '*' is accepted too.
    let p = pattern::parse("*\n..*\n", Format::Cells).unwrap();
    assert_eq!(p.cells.to_text(), "O..\n..O\n");
}

#[test]
fn life_106_format() {
    let text = "#Life 1.06\n0 -1\n1 0\n-1 1\n0 1\n1 1\n";
    let p = pattern::parse(text, Format::Life).unwrap();
    assert_eq!(p.cells.to_text(), ".O.\n..O\nOOO\n");
    let written = pattern::write(&p, Format::Life);
    assert_eq!(written, "#Life 1.06\n1 0\n2 1\n0 2\n1 2\n2 2\n");
}

#[test]
fn life_105_files_as_golly_ships_them() {
    // Golly's Patterns/Life/Methuselahs/acorn.lif.
    let text = "#Life 1.05\n#D Acorn\n#D The most vigorously growing 7-cell methuselah pattern.\n\
                #D Found by Charles Corderman.\n#P\n.*\n...*\n**..***\n";
    let p = parse_bytes(text.as_bytes(), None).unwrap();
    assert_eq!(p.cells, library::get("acorn").unwrap().cells);
    assert_eq!(p.comments[0], "Acorn");
    let p = parse_bytes(b"#Life 1.05\n#R 23/36\n#P -1 -1\n*\n#P 2 -1\n.*\n", None).unwrap();
    assert_eq!(p.rule.unwrap().to_string(), "B36/S23");
    assert_eq!(p.cells.to_text(), "O...O\n");
}

#[test]
fn formats_are_sniffed_from_content() {
    assert_eq!(Format::sniff("#Life 1.06\n0 0"), Format::Life);
    assert_eq!(Format::sniff("!Name: x\n.O"), Format::Cells);
    assert_eq!(Format::sniff("#N x\nx = 1, y = 1\no!"), Format::Rle);
    assert_eq!(Format::sniff("bo$2bo$3o!"), Format::Rle);
}

/// Patterns to round-trip: every library pattern, a soup with odd sizes, and edge cases.
fn samples() -> Vec<Pattern> {
    let mut v: Vec<Pattern> = library::PATTERNS.iter().map(|p| p.pattern()).collect();
    let mut soup = Grid::new(131, 67);
    soup.fill_random(0.37, 11);
    let mut p = Pattern::new(soup);
    p.name = Some("soup".into());
    p.comments = vec!["density 0.37".into(), "seed 11".into()];
    p.author = Some("lifelab".into());
    p.rule = Some("B2(1/3)/S12H:T200,100".parse().unwrap());
    v.push(p);
    let mut full = Grid::new(70, 3);
    full.fill_random(1.0, 0);
    v.push(Pattern::new(full));
    v.push(Pattern::new(Grid::new(5, 4))); // empty, with a size
    v
}

#[test]
fn rle_and_cells_round_trip_exactly() {
    for p in samples() {
        for format in [Format::Rle, Format::Cells] {
            if p.states.is_some() && format == Format::Cells {
                continue; // plaintext has two states; a multi-state pattern is RLE's
            }
            let text = pattern::write(&p, format);
            let back = pattern::parse(&text, format).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back, p, "{format:?}\n{text}");
        }
    }
}

#[test]
fn life_106_round_trips_the_cells() {
    // Life 1.06 keeps only live cells, so the pattern comes back as its bounding box.
    for p in samples() {
        let text = pattern::write(&p, Format::Life);
        let back = pattern::parse(&text, Format::Life).unwrap();
        assert_eq!(back.cells, p.trimmed().cells, "{:?}", p.name);
    }
}

#[test]
fn library_has_the_spec_patterns_and_they_parse() {
    for name in [
        "glider",
        "blinker",
        "toad",
        "beacon",
        "beehive",
        "block",
        "lwss",
        "mwss",
        "hwss",
        "pulsar",
        "pentadecathlon",
        "gosper-glider-gun",
        "diehard",
        "r-pentomino",
        "acorn",
        "rabbits",
    ] {
        let p = library::get(name).unwrap_or_else(|| panic!("{name} missing"));
        assert!(p.population() > 0, "{name}");
        assert!(p.name.is_some(), "{name} has no #N line");
    }
    assert!(library::get("R-Pentomino").is_some());
    assert!(library::get("Gosper glider gun").is_some());
    assert!(library::get("gun").is_some());
    assert!(library::get("no such thing").is_none());
    for p in library::PATTERNS {
        let parsed = p.pattern();
        assert!(parsed.rule.is_some(), "{} has no rule", p.id);
    }
}

#[test]
fn library_cell_counts_match_the_literature() {
    // Cell counts from LifeWiki.
    let counts = [
        ("glider", 5),
        ("blinker", 3),
        ("toad", 6),
        ("beacon", 6),
        ("beehive", 6),
        ("block", 4),
        ("lwss", 9),
        ("mwss", 11),
        ("hwss", 13),
        ("pulsar", 48),
        ("pentadecathlon", 12),
        ("gosper-glider-gun", 36),
        ("diehard", 7),
        ("r-pentomino", 5),
        ("acorn", 7),
        ("rabbits", 9),
    ];
    for (name, n) in counts {
        assert_eq!(library::get(name).unwrap().population(), n, "{name}");
    }
}

#[test]
fn malformed_files_report_line_and_column() {
    let cases: [(&str, &str); 8] = [
        (
            "x = 3, y = 3\n1000000000000o!",
            "line 2, column 1: run count 1000000000000 is larger than the largest grid side 16777216",
        ),
        (
            "x = 3, y = 3\nbo$2bq!",
            "line 2, column 6: multi-state prefix 'q' must be followed by a state letter A..X, not '!'",
        ),
        (
            "x = 3, y = 3\nbo$2b#!",
            "line 2, column 6: unexpected '#' in the RLE body (expected b, o, $, ! or a run count)",
        ),
        (
            "x = three, y = 3\no!",
            "line 1, column 5: header x = 'three' is not a whole number",
        ),
        (
            "x = 3\no!",
            "line 1, column 1: the header needs both x and y, as in 'x = 3, y = 3'",
        ),
        (
            "x = 3, y = 3, rule = B9/S23\no!",
            "line 1, column 22: B9/S23: neighbour count 9 is outside 0..8",
        ),
        (
            "x = 3, y = 3, colour = red\no!",
            "line 1, column 15: unknown header field 'colour' (expected x, y and rule)",
        ),
        (
            "x = 3, y = 3\n3",
            "line 2, column 1: run count 3 is not followed by b, o, $ or !",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(rle_err(text), expected, "{text}");
    }
    let cells = pattern::parse("!c\n.O.\n.X.\n", Format::Cells).unwrap_err();
    assert_eq!(
        cells.to_string(),
        "line 3, column 2: unexpected 'X' (a .cells row holds '.' for dead and 'O' for alive)"
    );
    let life = pattern::parse("#Life 1.06\n0 0\n1 one\n", Format::Life).unwrap_err();
    assert_eq!(
        life.to_string(),
        "line 3, column 3: 'one' is not an integer coordinate"
    );
    let life = pattern::parse("#Life 1.06\n0\n", Format::Life).unwrap_err();
    assert_eq!(
        life.to_string(),
        "line 2, column 2: expected two numbers 'x y'"
    );
}

#[test]
fn non_utf8_bytes_are_located() {
    let err = parse_bytes(b"x = 3, y = 3\nbo$\xff2bo!", None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 2, column 4: byte 0xff is not UTF-8 text"
    );
}

#[test]
fn files_that_cannot_be_read_name_the_file() {
    let dir = std::env::temp_dir().join(format!("lifelab-patterns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.rle");
    assert_eq!(
        pattern::load_file(&missing).unwrap_err().to_string(),
        format!("{}: no such file", missing.display())
    );
    assert_eq!(
        pattern::load_file(&dir).unwrap_err().to_string(),
        format!("{}: is a directory, not a file", dir.display())
    );
    let bad = dir.join("bad.rle");
    std::fs::write(&bad, "x = 2, y = 1\n3q!").unwrap();
    assert_eq!(
        pattern::load_file(&bad).unwrap_err().to_string(),
        format!(
            "{}:2:2: multi-state prefix 'q' must be followed by a state letter A..X, not '!'",
            bad.display()
        )
    );
    let good = dir.join("glider.cells");
    pattern::save_file(&library::get("glider").unwrap(), &good).unwrap();
    assert_eq!(
        pattern::load_file(&good).unwrap().cells,
        library::get("glider").unwrap().cells
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

proptest! {
    #[test]
    fn rle_reader_never_panics(s in "[xy=, 0-9bo.A$!#NCr\\n]{0,60}") {
        if let Ok(p) = pattern::parse(&s, Format::Rle) {
            let again = pattern::parse(&pattern::write(&p, Format::Rle), Format::Rle);
            prop_assert_eq!(again.map(|q| q.cells), Ok(p.cells));
        }
    }

    #[test]
    fn macrocell_reader_never_panics(s in "(#[RGCNOל]?[ -~ל]{0,12}\n|[0-9 $.*\n]{0,12}){0,6}") {
        // A tag that is not ASCII once sliced a character in two.
        let _ = parse_bytes(format!("[M2] (lifelab)\n#ל\n{s}").as_bytes(), None);
    }

    #[test]
    fn random_bitmaps_round_trip(w in 1u32..150, h in 1u32..40, density in 0.0f64..1.0, seed: u64) {
        let mut cells = Grid::new(w, h);
        cells.fill_random(density, seed);
        let p = Pattern::new(cells);
        for format in [Format::Rle, Format::Cells] {
            let back = pattern::parse(&pattern::write(&p, format), format).unwrap();
            prop_assert_eq!(&back, &p);
        }
    }
}

#[test]
fn macrocell_files_round_trip_on_a_torus_and_on_the_plane() {
    use lifelab::engine::Universe;
    let dir = std::env::temp_dir().join(format!("lifelab-mc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (size, plane) in [("64x64", false), ("100x37", false), ("", true)] {
        let spec = lifelab::session::Spec {
            random: Some(0.4),
            seed: 5,
            size: (!size.is_empty()).then(|| size.to_string()),
            plane,
            ..Default::default()
        };
        let sim = spec.build().unwrap();
        let (mut e, _) = sim.engine("tiles", 0, Default::default()).unwrap();
        e.step(17).unwrap();
        let path = dir.join(format!("soup{size}.mc"));
        lifelab::session::save::write_engine(e.as_mut(), &Default::default(), &path).unwrap();
        let back = lifelab::session::Spec {
            pattern: Some(path.display().to_string()),
            plane,
            ..Default::default()
        }
        .build()
        .unwrap();
        assert_eq!(back.generation, 17, "{size}");
        assert_eq!(back.universe, e.universe(), "{size}");
        let (mut again, _) = back.engine("tiles", 0, Default::default()).unwrap();
        assert_eq!(
            again.export().unwrap().cells().count() as u64,
            e.population().unwrap()
        );
        let mut a: Vec<_> = again.export().unwrap().cells().collect();
        let mut b: Vec<_> = e.export().unwrap().cells().collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{size}");
        if !plane {
            assert!(matches!(back.universe, Universe::Torus { .. }));
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// What Golly reads of the same text (its bounding-box crop), when bgolly is installed.
fn golly_reads(text: &str) -> Option<Grid> {
    if std::process::Command::new("bgolly")
        .arg("-h")
        .output()
        .is_err()
    {
        return None;
    }
    let dir = std::env::temp_dir().join(format!(
        "lifelab-lenient-{}-{}",
        std::process::id(),
        text.len()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("in.rle"), text).unwrap();
    let out = std::process::Command::new("bgolly")
        .args(["-q", "-q", "-m", "0", "-o"])
        .arg(dir.join("out.rle"))
        .arg(dir.join("in.rle"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let back = std::fs::read_to_string(dir.join("out.rle")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    Some(rle(&back).trimmed().cells)
}

#[test]
fn rle_that_golly_reads_is_read_with_a_warning() {
    // Each reads as the glider, as Golly reads it (checked against bgolly where installed);
    // each says what was not strictly valid.
    let glider = library::get("glider").unwrap().cells;
    let cases = [
        ("x = 3, y = 3\nbo$2bo$3o", "the RLE body ends without '!'"),
        (
            "x = 2, y = 3\nbo$2bo$3o!",
            "more than the header's x = 2, y = 3",
        ),
        (
            "x = 3, y = 2\nbo$2bo$3o!",
            "more than the header's x = 3, y = 2",
        ),
        (
            "x = 3, y = 3\n0bo$2bo$3o!",
            "line 2, column 1: run count 0, read as 1",
        ),
    ];
    for (text, warning) in cases {
        let p = rle(text);
        assert_eq!(p.trimmed().cells, glider, "{text}");
        assert!(
            p.warnings.iter().any(|w| w.contains(warning)),
            "{text}: {:?}",
            p.warnings
        );
        if let Some(g) = golly_reads(text) {
            assert_eq!(g, glider, "Golly reads {text} so");
        }
    }
    // A header of x = 0, y = 0 (what Golly writes for an empty pattern) is no size at all.
    let p = rle("x = 0, y = 0\nbo$2bo$3o!");
    assert_eq!((p.cells, p.warnings.len()), (glider, 0));
    // What is strict stays so.
    assert_eq!(
        rle(library::get("acorn").unwrap().to_string().as_str())
            .warnings
            .len(),
        0
    );
}

#[test]
fn an_rle_too_spread_out_for_one_bitmap_loads_as_tiles() {
    // Two gliders thirty million cells apart in each direction: no bitmap holds the box, but the
    // runs are few.
    let dir = std::env::temp_dir().join(format!("lifelab-sparse-rle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("far.rle");
    std::fs::write(
        &path,
        "x = 8000003, y = 8000003\nbo$2bo$3o7999998$8000000b3o!\n",
    )
    .unwrap();
    let loaded = lifelab::session::setup::resolve_pattern(path.to_str().unwrap()).unwrap();
    let tiles = loaded.tiles.expect("read as tiles");
    assert_eq!(tiles.population(), 8);
    let b = tiles.bounds().unwrap();
    assert_eq!((b.width(), b.height()), (8_000_003, 8_000_001));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn life_106_keeps_the_rule_and_torus_as_golly_does() {
    // A #R line, as Golly writes and reads it.
    let mut p = Pattern::new(library::get("glider").unwrap().cells);
    p.rule = Some("B126/S3H:T1024,1024".parse().unwrap());
    let text = pattern::write(&p, Format::Life);
    assert!(
        text.starts_with("#Life 1.06\n#R B126/S3H:T1024,1024\n"),
        "{text}"
    );
    let back = pattern::parse(&text, Format::Life).unwrap();
    assert_eq!(back.rule, p.rule);
    assert_eq!(back.cells, p.cells);
    // What a format cannot keep is said.
    p.name = Some("glider".into());
    assert!(!pattern::dropped(&p, Format::Life).is_empty());
    assert!(pattern::dropped(&p, Format::Rle).is_empty());
}
