//! The game solvers of SPEC 2, with values worked by hand or taken from the textbook and the
//! literature, never from the program; and the `nim`, `grundy`, `wythoff`, `hackenbush`, `tree`,
//! `matches`, `evenwins`, `tictactoe` and `kqk-untouchable` commands. New game tests belong here,
//! under the heading of their game (the app's games tabs are tested in `app.rs`).

use std::process::Command;

use lifelab::games::graph::{GValue, MoveGraph};
use lifelab::games::grundy::{self, Grundy, SubtractionGame, Sum, TakeSet};
use lifelab::games::hackenbush::Hackenbush;
use lifelab::games::kqk::{self, Position};
use lifelab::games::matches::{EvenWins, Matches};
use lifelab::games::nim::{self, NimMove};
use lifelab::games::octal::{self, HeapGame, HeapMove};
use lifelab::games::retro::{self, PositionSet, Value};
use lifelab::games::search::{IntTree, alphabeta, minimax};
use lifelab::games::tictactoe::{self, Eval, PositionError};
use lifelab::games::tree::{self, Outcome, Tree, TreeError};
use lifelab::games::{misere, wythoff};
use proptest::prelude::*;

fn lifelab(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(args)
        .output()
        .unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = lifelab(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn failure(args: &[&str]) -> String {
    let out = lifelab(args);
    assert_eq!(out.status.code(), Some(1), "{args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

/// Runs with `input` on standard input and returns the one JSON object.
fn json_with_input(args: &[&str], input: &[u8]) -> serde_json::Value {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A private folder of input files for one test.
fn files(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lifelab-games-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

// ---- Nim ----

#[test]
fn nim_3_5_7_has_exactly_three_winning_moves_each_taking_one() {
    // 3 ^ 5 ^ 7 = 1: each heap is odd, so each can drop by one.
    assert_eq!(nim::nim_sum(&[3, 5, 7]), 1);
    let moves = nim::winning_moves(&[3, 5, 7]);
    assert_eq!(
        moves,
        [
            NimMove {
                heap: 0,
                take: 1,
                leaves: 2
            },
            NimMove {
                heap: 1,
                take: 1,
                leaves: 4
            },
            NimMove {
                heap: 2,
                take: 1,
                leaves: 6
            },
        ]
    );
}

#[test]
fn nim_17_24_7_11_takes_5_from_the_heap_of_7() {
    // 10001 ^ 11000 ^ 00111 ^ 01011 = 00101: only 7 has the 4s bit.
    assert_eq!(nim::nim_sum(&[17, 24, 7, 11]), 5);
    assert_eq!(
        nim::winning_moves(&[17, 24, 7, 11]),
        [NimMove {
            heap: 2,
            take: 5,
            leaves: 2
        }]
    );
    let v = json(&["nim", "17", "24", "7", "11", "--json"]);
    assert_eq!(v["nim_sum"], 5);
    assert_eq!(v["first_player_wins"], true);
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{ "heap": 2, "take": 5, "leaves": 2 }])
    );
}

#[test]
fn lost_three_heap_positions_up_to_10() {
    // By hand: (0, k, k), then the triples a < b < c = a ^ b with c <= 10.
    let mut want: Vec<Vec<u64>> = (0..=10).map(|k| vec![0, k, k]).collect();
    for t in [
        [1, 2, 3],
        [1, 4, 5],
        [1, 6, 7],
        [1, 8, 9],
        [2, 4, 6],
        [2, 5, 7],
        [2, 8, 10],
        [3, 4, 7],
        [3, 5, 6],
        [3, 9, 10],
    ] {
        want.push(t.to_vec());
    }
    want.sort();
    assert_eq!(nim::lost_positions(3, 10).unwrap(), want);
    let v = json(&["nim", "--lost", "3", "--max", "10", "--json"]);
    assert_eq!(v["positions"], serde_json::to_value(&want).unwrap());
}

#[test]
fn nim_bad_input_gets_clear_errors() {
    assert!(failure(&["nim", "3", "x"]).contains("heap 2: 'x' is not a number of stones"));
    assert!(failure(&["nim", "3", "-4"]).contains("heap 2: '-4' is negative"));
    assert!(failure(&["nim"]).contains("give the heaps"));
    assert!(
        failure(&["nim", "--lost", "3", "--max", "100000000"]).contains("choose a smaller bound")
    );
    assert!(failure(&["grundy", "subtract", "--take", "0..3"]).contains("the take-set contains 0"));
    assert!(failure(&["grundy", "subtract", "--take", "0,1"]).contains("the take-set contains 0"));
    assert!(failure(&["matches", "--take", "3..1"]).contains("the take-set is empty"));
}

proptest! {
    #[test]
    fn a_nim_move_reaches_nim_sum_0_exactly_when_it_is_winning(heaps in prop::collection::vec(0u64..40, 1..5)) {
        let winning = nim::winning_moves(&heaps);
        for m in nim::all_moves(&heaps) {
            let mut after = heaps.clone();
            after[m.heap] = m.leaves;
            prop_assert_eq!(nim::nim_sum(&after) == 0, winning.contains(&m));
        }
    }

    #[test]
    fn the_grundy_engine_agrees_with_bouton_on_nim(heaps in prop::collection::vec(0u64..9, 1..4)) {
        // Nim is the sum of single heaps from which any number may be taken.
        let heap = SubtractionGame { take: TakeSet::Range { min: 1, max: 1_000 } };
        let mut g = Grundy::new(Sum(heap));
        prop_assert_eq!(g.value(&heaps) as u64, nim::nim_sum(&heaps));
    }

    #[test]
    fn g_of_a_sum_is_the_xor_of_the_parts(
        set in prop::collection::btree_set(1u64..6, 1..4),
        heaps in prop::collection::vec(0u64..10, 1..4),
    ) {
        let take = TakeSet::Set(set.into_iter().collect());
        let game = SubtractionGame { take: take.clone() };
        let parts = game.values(10);
        let xor = heaps.iter().fold(0, |acc, &h| acc ^ parts[h as usize]);
        // The product game, solved directly.
        let mut g = Grundy::new(Sum(SubtractionGame { take }));
        prop_assert_eq!(g.value(&heaps), xor);
    }
}

// ---- Sprague–Grundy ----

#[test]
fn one_heap_take_1_to_3_has_g_m_mod_4() {
    let game = SubtractionGame {
        take: TakeSet::parse("1..3").unwrap(),
    };
    let values = game.values(100);
    assert!(values.iter().enumerate().all(|(m, &v)| v as usize == m % 4));
    let p = game.period(1000).unwrap();
    assert_eq!((p.preperiod, p.period), (0, 4));
    // The generic engine says the same.
    let mut g = Grundy::new(game);
    assert!((0..100u64).all(|m| g.value(&m) as u64 == m % 4));
}

#[test]
fn take_1_3_4_has_period_7() {
    // Known: S = {1, 3, 4} gives 0 1 0 1 2 3 2, repeating.
    let game = SubtractionGame {
        take: TakeSet::parse("1,3,4").unwrap(),
    };
    assert_eq!(game.values(13), [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
    let p = game.period(500).unwrap();
    assert_eq!((p.preperiod, p.period), (0, 7));
    let v = json(&[
        "grundy", "subtract", "--take", "1,3,4", "--upto", "20", "--json",
    ]);
    assert_eq!(v["period"], 7);
    assert_eq!(v["preperiod"], 0);
}

#[test]
fn heaps_9_6_5_4_take_2_from_the_heap_of_6() {
    // g = 9 mod 4, 6 mod 4, ... = 1, 2, 1, 0; the sum is 2; lowering the heap of 6 from g 2
    // to g 0 takes 2.
    let v = json(&[
        "grundy", "heaps", "9", "6", "5", "4", "--take", "1..3", "--json",
    ]);
    assert_eq!(v["grundy_values"], serde_json::json!([1, 2, 1, 0]));
    assert_eq!(v["nim_sum"], 2);
    // Nim's move shape: heap 1 (from 0) is the heap of 6.
    assert!(
        v["winning_moves"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"heap": 1, "take": 2, "leaves": 4})),
        "{v}"
    );
    let (sum, moves) = grundy::heaps_winning_moves(
        &SubtractionGame {
            take: TakeSet::parse("1..3").unwrap(),
        },
        &[9, 6, 5, 4],
    );
    assert_eq!(sum, 2);
    assert!(
        moves
            .iter()
            .any(|m| m.component == 1 && m.from == 6 && m.to == 4)
    );
}

#[test]
fn the_one_sided_rook_is_m_xor_n() {
    let table = grundy::rook_table(64);
    // The generic engine, from the rook's moves alone, agrees.
    let mut generic = Grundy::new(grundy::OneSidedRook);
    for (m, row) in table.iter().enumerate() {
        for (n, &v) in row.iter().enumerate() {
            assert_eq!(v as usize, m ^ n);
            if m < 24 && n < 24 {
                assert_eq!(generic.value(&(m as u64, n as u64)), v);
            }
        }
    }
    let dir = std::env::temp_dir().join(format!("lifelab-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("xor.png");
    let v = json(&[
        "grundy",
        "table",
        "--size",
        "64",
        "--png",
        png.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["equals_xor"], true);
    let img = image::open(&png).unwrap().to_rgb8();
    // Equal values share a colour: the diagonal (value 0) is one colour, (0, 1) another.
    let cell = img.width() / 64;
    let px = |m: u32, n: u32| *img.get_pixel(n * cell + cell / 2, m * cell + cell / 2);
    assert_eq!(px(5, 5), px(17, 17));
    assert_eq!(px(3, 6), px(6, 3)); // 3 ^ 6 = 5 both ways
    assert_eq!(px(1, 4), px(2, 7)); // 1 ^ 4 = 2 ^ 7 = 5
    assert_ne!(px(0, 0), px(0, 1));
}

#[test]
fn the_game_of_n_for_the_textbooks_targets() {
    // Worked by hand over positions (remaining, last domino): see the closing note.
    let cases: [(u64, bool, &[u8]); 6] = [
        (2, true, &[1, 2]),
        (6, true, &[3]),
        (7, false, &[]),
        (13, false, &[]),
        (21, true, &[1]),
        (37, true, &[4]),
    ];
    for (n, wins, moves) in cases {
        let r = grundy::dominoes(n);
        assert_eq!(
            (r.first_player_wins, r.winning_first_moves.as_slice()),
            (wins, moves),
            "N = {n}"
        );
    }
    let v = json(&["grundy", "dominoes", "--target", "21", "--json"]);
    assert_eq!(v["first_player_wins"], true);
    assert_eq!(v["winning_first_moves"], serde_json::json!([1]));
}

// ---- Game trees, matches, minimax, retrograde analysis ----

#[test]
fn eleven_matches_take_2_then_4_minus_l() {
    let game = Matches::eleven();
    let r = game.report();
    assert!(r.first_player_wins);
    assert_eq!(r.winning_first_moves, [2]);
    // After 2 (9 left), the opponent takes l; the only winning answer is 4 - l.
    let wins = game.wins();
    for l in 1..=3u64 {
        let left = 9 - l;
        let answers: Vec<u64> = (1..=3)
            .filter(|&a| a <= left && !wins[(left - a) as usize])
            .collect();
        assert_eq!(answers, [4 - l], "after the opponent takes {l}");
    }
    let v = json(&[
        "matches", "--count", "11", "--take", "1..3", "--misere", "--json",
    ]);
    assert_eq!(v["winning_first_moves"], serde_json::json!([2]));
    assert!(v["rule"].as_str().unwrap().contains("4 - l"));
}

#[test]
fn six_matches_is_a_first_player_win_and_its_tree_has_rank_6() {
    let game = Matches::six();
    assert!(game.report().first_player_wins);
    let t = tree::build(&game, 6, 1000).unwrap();
    let a = t.analyse();
    assert_eq!(a.labels[0], Outcome::FirstWins);
    assert_eq!(a.ranks[0], 6);
    // The strategy's first arrow takes 2.
    let (_, first) = a.strategy.iter().find(|(f, _)| *f == 0).copied().unwrap();
    assert_eq!(t.vertices[first].label, "take 2");
    let v = json(&[
        "tree",
        "--matches",
        "6",
        "--take",
        "1..2",
        "--misere",
        "--json",
    ]);
    assert_eq!(v["rank"], 6);
    assert_eq!(v["label"], "+");
}

#[test]
fn even_wins_27_take_1_to_4_the_first_player_takes_2() {
    let r = EvenWins {
        count: 27,
        take: TakeSet::parse("1..4").unwrap(),
    }
    .report();
    assert!(r.first_player_wins);
    assert!(r.winning_first_moves.contains(&2));
    let v = json(&["evenwins", "--count", "27", "--take", "1..4", "--json"]);
    assert_eq!(v["first_player_wins"], true);
}

#[test]
fn backward_induction_on_a_small_tree() {
    // First player chooses among three subtrees where the second player moves:
    // (+ -) -> the second picks -, (- -) -> -, (+ +) -> +; so the first picks the third.
    let t = Tree::parse("((+ -) (- -) (+ +))").unwrap();
    let a = t.analyse();
    assert_eq!(a.labels[0], Outcome::FirstWins);
    assert_eq!(a.ranks[0], 2);
    // The strategy: the arrow to the third subtree, and nothing below it (leaves follow).
    assert_eq!(a.strategy, [(0, 7)]);
    assert_eq!(t.path(7), "2");
    assert_eq!(t.to_notation(), "((+ -) (- -) (+ +))");
    // A drawn tree: the strategy secures the draw.
    let t = Tree::parse("((0 +) (- +))").unwrap();
    assert_eq!(t.analyse().labels[0], Outcome::Draw);
}

#[test]
fn malformed_trees_name_the_column() {
    let cases = [
        ("((+ -) (- -)", "column 1: this '(' is never closed"),
        (
            "((+ x))",
            "column 5: unexpected 'x' (a tree holds '(', ')', and leaves +, - and 0)",
        ),
        ("(+ -))", "column 6: ')' after the end of the tree"),
        (
            "(+ ())",
            "column 5: an empty list: a vertex needs at least one choice (or write a leaf +, - or 0)",
        ),
        ("", "column 1: empty: write a tree such as ((+ -) (- -))"),
    ];
    for (text, want) in cases {
        assert_eq!(Tree::parse(text).unwrap_err().to_string(), want, "{text}");
    }
    // 10^5 levels of nesting: no stack overflow, in parsing, analysing or dropping.
    let deep = format!("{}+{}", "(".repeat(100_000), ")".repeat(100_000));
    let t = Tree::parse(&deep).unwrap();
    let a = t.analyse();
    assert_eq!(a.ranks[0], 100_000);
    assert!(matches!(
        tree::build(
            &Matches {
                count: 40,
                take: TakeSet::parse("1..3").unwrap(),
                misere: true
            },
            40,
            1000
        ),
        Err(TreeError::TooLarge { limit: 1000 })
    ));
    assert!(failure(&["tree", "((+ -)"]).contains("never closed"));
}

#[test]
fn tic_tac_toe_has_5478_positions_765_classes_and_is_a_draw() {
    let reach = tictactoe::Reachable::new();
    assert_eq!(reach.boards.len(), 5478);
    assert_eq!(reach.symmetry_classes(), 765);
    let solution = retro::solve(&reach);
    assert_eq!(solution.values[0].value, Value::Draw);
    let v = json(&["tictactoe", "--json"]);
    assert_eq!(v["value"], 0);
    assert_eq!(v["positions"], 5478);
}

#[test]
fn tic_tac_toe_two_ply_static_evaluation() {
    // The textbook's F = M - N, worked by hand: centre 1, corner -1, edge -2.
    let a = tictactoe::analyse(&[0; 9], Eval::Static, Some(2));
    let value = |s: usize| a.moves.iter().find(|m| m.square == s).unwrap().value;
    assert_eq!(value(4), 1);
    for corner in [0, 2, 6, 8] {
        assert_eq!(value(corner), -1);
    }
    for edge in [1, 3, 5, 7] {
        assert_eq!(value(edge), -2);
    }
    let v = json(&["tictactoe", "--eval", "static", "--depth", "2", "--json"]);
    assert_eq!(
        v["moves"][4],
        serde_json::json!({ "square": 4, "value": 1 })
    );
}

#[test]
fn a_position_x_wins_at_once_is_worth_1_at_depth_1() {
    let b = tictactoe::parse_position("XX.OO....").unwrap();
    let a = tictactoe::analyse(&b, Eval::Exact, Some(1));
    assert_eq!(a.value, 1);
    assert_eq!(a.moves.iter().find(|m| m.square == 2).unwrap().value, 1);
}

#[test]
fn impossible_tic_tac_toe_positions_are_refused() {
    assert_eq!(
        tictactoe::parse_position("OO......."),
        Err(PositionError::Counts { x: 0, o: 2 })
    );
    assert_eq!(
        tictactoe::parse_position("XXXOOO..."),
        Err(PositionError::BothWin)
    );
    assert_eq!(
        tictactoe::parse_position("XXX.OO..."),
        Ok([1, 1, 1, 0, 2, 2, 0, 0, 0])
    );
    assert_eq!(
        tictactoe::parse_position("XXXOO.O.."),
        Err(PositionError::XWonTooLate)
    );
    assert!(matches!(
        tictactoe::parse_position("XO"),
        Err(PositionError::Length(..))
    ));
    assert!(failure(&["tictactoe", "--position", "OOO......"]).contains("O has 3 marks and X 0"));
}

#[test]
fn the_retrograde_engine_solves_ordinary_kqk_in_at_most_10_moves() {
    // The literature: king and queen mate a bare king from any legal position with White to
    // move, in at most 10 moves.
    let (_, _, r) = kqk::solve_game(None);
    assert!(r.all_won);
    assert_eq!(r.longest_mate, 10);
}

#[test]
fn untouchable_king_on_c3_mates_from_everywhere() {
    // A mate in one worked by hand: Qh2-b2, guarded by the king on c3, against the king on a1.
    let c3 = kqk::parse_square("c3").unwrap();
    let p = Position {
        white_king: c3,
        queen: kqk::parse_square("h2").unwrap(),
        black_king: kqk::parse_square("a1").unwrap(),
        white_to_move: true,
    };
    let s = kqk::value_of(Some(c3), p).unwrap();
    assert_eq!((s.value, s.plies), (Value::Win, 1));
    let r = kqk::solve(c3);
    assert!(r.all_won, "{r:?}");
    let v = json(&["kqk-untouchable", "--king", "c3", "--json"]);
    assert_eq!(v["king"], "c3");
    assert_eq!(v["all_won"], true);
    assert!(v["longest_mate"].as_u64().unwrap() > 10);
}

/// A random explicit game tree with integer leaves.
fn arb_tree() -> impl Strategy<Value = IntTree> {
    (
        prop::collection::vec((1usize..4, -9i32..10), 1..60),
        any::<u64>(),
    )
        .prop_map(|(spec, seed)| {
            let mut children = vec![Vec::new()];
            let mut leaf = vec![0];
            let mut depth = vec![0u32];
            let mut open = vec![0usize];
            let mut rng = seed;
            for (k, value) in spec {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1);
                let parent = open[(rng >> 33) as usize % open.len()];
                for _ in 0..k {
                    let v = children.len();
                    children.push(Vec::new());
                    leaf.push(value + v as i32 % 3);
                    depth.push(depth[parent] + 1);
                    children[parent].push(v);
                    open.push(v);
                }
            }
            IntTree {
                children,
                leaf,
                depth,
            }
        })
}

proptest! {
    #[test]
    fn alpha_beta_agrees_with_minimax_and_visits_no_more_nodes(t in arb_tree(), d in 0u32..8) {
        let m = minimax(&t, &0, d);
        let ab = alphabeta(&t, &0, d);
        prop_assert_eq!(m.value, ab.value);
        prop_assert!(ab.nodes <= m.nodes);
    }

    #[test]
    fn retrograde_analysis_agrees_with_plain_recursion(edges in prop::collection::vec(prop::collection::vec(0usize..100, 0..4), 2..40)) {
        // A random acyclic game: moves only go to higher positions; positions without moves
        // are lost for the player to move, a few are draws.
        struct G(Vec<Vec<usize>>);
        impl PositionSet for G {
            fn count(&self) -> usize { self.0.len() }
            fn moves(&self, p: usize) -> Vec<usize> { self.0[p].clone() }
            fn terminal(&self, p: usize) -> Option<Value> {
                if !self.0[p].is_empty() { None } else if p.is_multiple_of(5) { Some(Value::Draw) } else { Some(Value::Loss) }
            }
        }
        let n = edges.len();
        let g = G(edges.iter().enumerate().map(|(p, e)| {
            let mut v: Vec<usize> = e.iter().filter(|&&q| q % n > p).map(|&q| q % n).collect();
            v.sort_unstable();
            v.dedup();
            v
        }).collect());
        let retro = retro::solve(&g);
        let plain = retro::solve_by_recursion(&g);
        for (p, (solved, &want)) in retro.values.iter().zip(&plain).enumerate() {
            prop_assert_eq!(solved.value, want, "position {}", p);
        }
    }
}

#[test]
fn retrograde_analysis_scales_to_a_million_positions() {
    // Subtraction game with take {1, 2, 5}, as a position set of a million heaps.
    struct Heap(usize);
    impl PositionSet for Heap {
        fn count(&self) -> usize {
            self.0
        }
        fn moves(&self, p: usize) -> Vec<usize> {
            [1, 2, 5]
                .iter()
                .filter(|&&a| a <= p)
                .map(|&a| p - a)
                .collect()
        }
        fn terminal(&self, p: usize) -> Option<Value> {
            (p == 0).then_some(Value::Loss)
        }
    }
    let started = std::time::Instant::now();
    let s = retro::solve(&Heap(1_000_000));
    let game = SubtractionGame {
        take: TakeSet::Set(vec![1, 2, 5]),
    };
    let g = game.values(999_999);
    assert!(
        s.values
            .iter()
            .zip(&g)
            .all(|(v, &g)| (v.value == Value::Loss) == (g == 0))
    );
    eprintln!("a million positions in {:?}", started.elapsed());
}

// ---- Octal games, Grundy's game ----

#[test]
fn kayles_has_period_12_and_its_last_exceptional_value_at_70() {
    // Winning Ways, chapter 4: Kayles (0.77) is periodic with period 12 from n = 71; the last
    // exceptional value is at n = 70.
    let game = HeapGame::parse("kayles").unwrap();
    let (values, p) = game.search_period(100, 10_000_000);
    let p = p.unwrap();
    assert!(p.certified, "{p:?}");
    assert_eq!((p.period, p.last_exception), (12, Some(70)));
    assert_eq!(p.preperiod, 71);
    // The theorem's check reaches 2*71 + 12 + 2.
    assert_eq!(p.needed, 156);
    // The first values, from Winning Ways' table: 0 1 2 3 1 4 3 2 1 4 2 6.
    assert_eq!(values[..12], [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
}

#[test]
fn dawsons_chess_has_period_34_and_its_last_exceptional_value_at_51() {
    let game = HeapGame::parse("0.137").unwrap();
    let (_, p) = game.search_period(100, 10_000_000);
    let p = p.unwrap();
    assert!(p.certified, "{p:?}");
    assert_eq!((p.period, p.last_exception), (34, Some(51)));
    assert_eq!(game, HeapGame::parse("dawsons-chess").unwrap());
}

#[test]
fn grundys_game_starts_as_in_the_literature() {
    let values = HeapGame::Grundys.values(19);
    assert_eq!(
        values,
        [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3]
    );
    // Not octal, no theorem: never certified.
    let (_, p) = HeapGame::Grundys.search_period(200, 10_000_000);
    assert!(p.is_none_or(|p| !p.certified));
}

#[test]
fn kayles_winning_moves_from_7_5_3() {
    // g(7) = 2, g(5) = 4, g(3) = 3 (Winning Ways' table): the sum is 2^4^3 = 5. Heap 7 must go
    // to 2^5 = 7, heap 5 to 4^5 = 1, heap 3 to 3^5 = 6; by hand over the table 0 1 2 3 1 4 3 2:
    // from 5 (take 1 or 2, maybe splitting): 4 -> 1, 3 -> 3, 1+3 -> 1^3 = 2, 2+2 -> 0, 1+2 -> 3,
    // 2+1... value 1 comes from 4 (take 1 from the end) only; the heaps 7 and 3 cannot reach
    // values 7 and 6 (too small).
    let game = HeapGame::parse("kayles").unwrap();
    let values = game.values(7);
    let (total, moves) = octal::winning_moves(&game, &values, &[7, 5, 3]);
    assert_eq!(total, 5);
    assert_eq!(
        moves,
        [HeapMove {
            heap: 1,
            take: 1,
            leaves: 4,
            into: None
        }]
    );
}

// ---- Hard edges (issue 16) ----

#[test]
fn a_take_set_up_to_2_64_minus_1_neither_divides_by_zero_nor_overflows() {
    // Normal play with 11 matches and any amount allowed: take all 11 and win.
    let v = json(&[
        "matches",
        "--count",
        "11",
        "--take",
        "1..18446744073709551615",
        "--json",
    ]);
    assert_eq!(v["first_player_wins"], true);
    assert_eq!(v["winning_first_moves"], serde_json::json!([11]));
    // One heap from which any amount may be taken is Nim: g(n) = n, never periodic.
    let v = json(&[
        "grundy",
        "subtract",
        "--take",
        "1..18446744073709551615",
        "--upto",
        "5",
        "--json",
    ]);
    assert_eq!(v["values"], serde_json::json!([0, 1, 2, 3, 4, 5]));
    assert_eq!(v["certified"], false);
}

/// Runs with stdout already closed, as `| head -1` leaves it once head has its line.
fn with_closed_stdout(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_stdout_ends_the_program_quietly() {
    for args in [
        &["nim", "--lost", "3", "--max", "1000"][..],
        &["tree", "--matches", "8", "--take", "1..3"],
        &["kqk-untouchable", "--king", "c3"],
        &["nim", "3", "5", "7", "--json"],
        &["grundy", "octal", "kayles", "--upto", "100"],
    ] {
        let out = with_closed_stdout(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

#[test]
fn the_game_of_100_million_fits_in_constant_memory() {
    // The generic engine (a hash map over every position) is the independent check for small
    // targets; from N = 14 on, N and N + 13 agree, and 10^8 = 13 * 7692307 + 9, like 35.
    let generic = |n: u64| {
        let mut g = Grundy::new(grundy::Dominoes { target: n });
        (1..=5u8)
            .filter(|&d| d as u64 <= n && g.value(&(d as u64, d)) == 0)
            .collect::<Vec<u8>>()
    };
    for n in 1..=120 {
        assert_eq!(
            grundy::dominoes(n).winning_first_moves,
            generic(n),
            "N = {n}"
        );
    }
    for n in 14..=120 {
        assert_eq!(generic(n), generic(n + 13), "N = {n}");
    }
    assert_eq!(generic(35), [1, 2, 3]);
    let v = json(&["grundy", "dominoes", "--target", "100000000", "--json"]);
    assert_eq!(v["winning_first_moves"], serde_json::json!([1, 2, 3]));
}

#[test]
fn the_xor_table_of_4096_is_computed_not_refused() {
    let v = json(&["grundy", "table", "--size", "4096", "--json"]);
    assert_eq!(v["equals_xor"], true);
}

#[test]
fn tree_ranks_by_level_and_by_longest_play_are_both_given() {
    // The seed: the root is rank 1 and odd ranks are the first player's moves.
    let t = Tree::parse("((+ -) (- -) (+ +))").unwrap();
    assert_eq!((t.level(0), t.level(1), t.level(2)), (1, 2, 3));
    let v = json(&["tree", "((+ -) (- -) (+ +))", "--json"]);
    assert_eq!(v["vertices"][0]["level"], 1);
    assert_eq!(v["vertices"][0]["rank"], 2);
    assert_eq!(v["vertices"][1]["level"], 2);
    assert_eq!(v["vertices"][2]["level"], 3);
    let text = String::from_utf8(lifelab(&["tree", "((+ -) (- -) (+ +))"]).stdout).unwrap();
    assert!(text.contains("rank 2, level 1"), "{text}");
    assert!(text.contains("longest play"), "{text}");
}

#[test]
fn a_drawn_tree_has_a_strategy_for_each_player() {
    // ((0 +) (- +)): the first player goes left (vertex 1), where the second answers with the
    // draw (vertex 2); the second player's strategy answers both first moves: 1 -> 2 and
    // 4 -> 5 (the leaf -).
    let t = Tree::parse("((0 +) (- +))").unwrap();
    let a = t.analyse();
    assert_eq!(a.labels[0], Outcome::Draw);
    assert_eq!(a.strategies.len(), 2);
    assert!(a.strategies[0].first_player);
    assert_eq!(a.strategies[0].arrows, [(0, 1)]);
    assert!(!a.strategies[1].first_player);
    assert_eq!(a.strategies[1].arrows, [(1, 2), (4, 5)]);
    let v = json(&["tree", "((0 +) (- +))", "--json"]);
    assert_eq!(v["strategies"][1]["player"], "second player");
}

#[test]
fn the_tree_parser_takes_the_unicode_minus() {
    let ascii = Tree::parse("((+ -) (- -) (+ +))").unwrap();
    let unicode = Tree::parse("((+ \u{2212}) (\u{2212} \u{2212}) (+ +))").unwrap();
    assert_eq!(unicode.to_notation(), ascii.to_notation());
}

#[test]
fn lost_positions_without_empty_heaps_are_the_seeds_45() {
    let lost = nim::lost_positions_from(3, 1, 20).unwrap();
    assert_eq!(lost.len(), 45);
    assert!(lost.iter().all(|p| p[0] >= 1));
    let v = json(&["nim", "--lost", "3", "--max", "20", "--no-empty", "--json"]);
    assert_eq!(v["count"], 45);
}

#[test]
fn the_period_search_grows_with_the_take_set() {
    // Take 1..k gives g(n) = n mod (k + 1): period k + 1.
    let v = json(&[
        "grundy", "subtract", "--take", "1..5000", "--upto", "3", "--json",
    ]);
    assert_eq!(v["period"], 5001);
    assert_eq!(v["preperiod"], 0);
    assert_eq!(v["certified"], true);
    // Take 1..20000: period 20001, certified once 2 * 20000 + 1 values are in; the search was
    // cut at 10,000 values before.
    let v = json(&[
        "grundy", "subtract", "--take", "1..20000", "--upto", "3", "--json",
    ]);
    assert_eq!(
        (v["period"].as_u64(), v["preperiod"].as_u64()),
        (Some(20001), Some(0))
    );
    assert_eq!(v["certified"], true);
}

#[test]
fn tic_tac_toe_counts_are_computed_for_the_position() {
    // X X O / O O X / X . .: O to move. O at 7 completes 1-4-7; O at 8 leaves X the 7, a full
    // board. So 4 positions: this one, two after O's moves, one after X's.
    let v = json(&["tictactoe", "--position", "XOXOOXX..", "--json"]);
    assert_eq!(v["reachable_positions"], 4);
    let v = json(&["tictactoe", "--json"]);
    assert_eq!(v["reachable_positions"], 5478);
    assert_eq!(v["symmetry_classes"], 765);
}

#[test]
fn static_evaluation_at_depth_0_agrees_with_its_moves() {
    // Each first move evaluated at once by F = M - N: centre 8 - 4 = 4, corner 8 - 5 = 3, edge
    // 8 - 6 = 2; the root is worth the best, 4.
    let a = tictactoe::analyse(&[0; 9], Eval::Static, Some(0));
    let value = |s: usize| a.moves.iter().find(|m| m.square == s).unwrap().value;
    assert_eq!((value(4), value(0), value(1)), (4, 3, 2));
    assert_eq!(a.value, 4);
    let v = json(&["tictactoe", "--eval", "static", "--depth", "0", "--json"]);
    assert_eq!(v["value"], 4);
}

#[test]
fn a_finished_board_says_who_won() {
    let v = json(&["tictactoe", "--position", "XXXOO....", "--json"]);
    assert_eq!(v["over"], true);
    assert_eq!(v["winner"], "X");
    let text =
        String::from_utf8(lifelab(&["tictactoe", "--position", "XXXOO...."]).stdout).unwrap();
    assert!(text.contains("X has three in a row and won"), "{text}");
    let text =
        String::from_utf8(lifelab(&["tictactoe", "--position", "XOXXOOOXX"]).stdout).unwrap();
    assert!(text.contains("the board is full, a draw"), "{text}");
}

#[test]
fn no_matches_means_no_move() {
    let out = lifelab(&["matches", "--count", "0"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("there is no move"), "{text}");
    let v = json(&["matches", "--count", "0", "--json"]);
    assert_eq!(v["no_move"], true);
    assert_eq!(v["first_player_wins"], false);
}

#[test]
fn even_wins_with_take_2_can_tie() {
    // 27 matches, take exactly 2: thirteen takes of 2, one match left that nobody may take.
    // Both players hold even numbers: a tie, although 27 is odd.
    let r = EvenWins {
        count: 27,
        take: TakeSet::parse("2,2").unwrap(),
    }
    .report();
    assert!(r.ties_possible);
    // With every match taken and an odd total, exactly one player ends even.
    let r = EvenWins {
        count: 27,
        take: TakeSet::parse("1..4").unwrap(),
    }
    .report();
    assert!(!r.ties_possible);
}

#[test]
fn nim_reads_heaps_from_a_file_or_standard_input() {
    let dir = files("heaps");
    let path = dir.join("heaps.txt");
    std::fs::write(&path, "3 5\n  7\n").unwrap();
    let v = json(&["nim", "--file", path.to_str().unwrap(), "--json"]);
    assert_eq!(v["heaps"], serde_json::json!([3, 5, 7]));
    assert_eq!(v["nim_sum"], 1);
    std::fs::write(&path, "3 5\n7 x\n").unwrap();
    let err = failure(&["nim", "--file", path.to_str().unwrap()]);
    assert!(
        err.contains("heaps.txt:2:3: heap 4: 'x' is not a number of stones"),
        "{err}"
    );
    // A million heaps of 1: an even count, nim-sum 0.
    let v = json_with_input(&["nim", "--file", "-", "--json"], &b"1\n".repeat(1_000_000));
    assert_eq!(v["nim_sum"], 0);
    assert_eq!(v["first_player_wins"], false);
}

#[test]
fn limits_that_cannot_finish_are_refused_with_the_estimate() {
    let err = failure(&["grundy", "octal", "kayles", "--upto", "10000000"]);
    assert!(err.contains("about") && err.contains("moves"), "{err}");
    let err = failure(&["evenwins", "--count", "10000000", "--take", "1..10000000"]);
    assert!(err.contains("moves to try"), "{err}");
}

// ---- Octal games, Grundy's game: the command ----

#[test]
fn grundy_octal_reports_values_period_and_certificate() {
    let v = json(&["grundy", "octal", "0.77", "--upto", "1000", "--json"]);
    assert_eq!(v["values"].as_array().unwrap().len(), 1001);
    assert_eq!(v["period"], 12);
    assert_eq!(v["preperiod"], 71);
    assert_eq!(v["last_exceptional"], 70);
    assert_eq!(v["certified"], true);
    assert!(v["check"].as_str().unwrap().contains("Guy–Smith"));
    let v = json(&["grundy", "octal", "kayles", "7", "5", "3", "--json"]);
    assert_eq!(v["position"]["nim_sum"], 5);
    assert_eq!(
        v["position"]["winning_moves"],
        serde_json::json!([{ "heap": 1, "take": 1, "leaves": 4 }])
    );
    let v = json(&["grundy", "grundys-game", "--upto", "19", "--json"]);
    assert_eq!(
        v["values"],
        serde_json::json!([0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3])
    );
    assert_eq!(v["certified"], false);
    assert!(failure(&["grundy", "octal", "0.78"]).contains("not an octal code"));
}

#[test]
fn dawsons_kayles_is_dawsons_chess_shifted_by_one() {
    // Winning Ways: 0.07 at n + 1 is 0.137 at n.
    let a = HeapGame::parse("0.07").unwrap().values(200);
    let b = HeapGame::parse("0.137").unwrap().values(199);
    assert_eq!(a[1..], b[..]);
}

// ---- Wythoff's game ----

/// Issue 28, defect 10: a million heaps on one line of `nim --file` (each word used to be
/// found again from the start of its line, which took more than a minute). The nim-sum is the
/// XOR of the heaps (Bouton), computed here; an error far along a long line still names its
/// column, counted in characters.
#[test]
fn nim_file_reads_a_million_heaps_on_one_line() {
    let dir = std::env::temp_dir().join(format!("lifelab-nim-line-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let heaps: Vec<u64> = (0..1_000_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % 1_000_000
        })
        .collect();
    let line: Vec<String> = heaps.iter().map(u64::to_string).collect();
    let file = dir.join("heaps.txt");
    std::fs::write(&file, line.join(" ") + "\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(["nim", "--json", "--file"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["heaps"].as_array().unwrap().len(), 1_000_000);
    assert_eq!(v["nim_sum"], heaps.iter().fold(0, |a, h| a ^ h));
    // The bad word after two heaps and two no-break spaces (two bytes each) is at column 5.
    std::fs::write(&file, "1\u{a0}2\u{a0}x 3\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(["nim", "--file"])
        .arg(&file)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("heaps.txt:1:5:") && e.contains("'x'"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Issue 28, defect 11: a forward path `v0: v1`, `v1: v2`, ... was quadratic (100,000 vertices
/// took 12 s). On a path the value of a vertex is the parity of its distance to the end, worked
/// out by hand: the end has no move (0), the one before it moves only to a 0 (1), and so on.
#[test]
fn grundy_graph_of_a_long_forward_path() {
    let dir = std::env::temp_dir().join(format!("lifelab-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let n = 200_000usize;
    let text: String = (0..n).map(|k| format!("v{k}: v{}\n", k + 1)).collect();
    let file = dir.join("path.txt");
    std::fs::write(&file, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(["grundy", "graph", "--json", "--file"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let vertices = v["vertices"].as_array().unwrap();
    assert_eq!(vertices.len(), n + 1);
    for vertex in vertices {
        let name = vertex["vertex"].as_str().unwrap();
        let k: usize = name[1..].parse().unwrap();
        assert_eq!(vertex["value"], ((n - k) % 2) as u64, "{name}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// Issue 28, defect 12: Hackenbush inside `grundy sum` had no cap on the cuts it tries; it has
/// plain `hackenbush`'s, said in the error (a 30,000-edge star with a heap of 3: value 1, so
/// cuts would be tried).
#[test]
fn hackenbush_in_a_sum_has_the_cut_limit() {
    let dir = std::env::temp_dir().join(format!("lifelab-star-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("star.txt");
    let text: String = (0..30_000).map(|k| format!("g e{k}\n")).collect();
    std::fs::write(&file, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args([
            "grundy",
            "sum",
            &format!("hackenbush:{}", file.display()),
            "3",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("30000 edges") && e.contains("limited to 20000 edges"),
        "{e}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Issue 28, defect 9: heaps near 2^63 - 1, where 5n² no longer fits in 128 bits. The values
/// are Python's exact big integers: (n + math.isqrt(5 * n * n)) // 2, and the partner of
/// 2^63 - 1 found from them.
#[test]
fn wythoff_is_exact_up_to_the_largest_heap() {
    assert_eq!(
        wythoff::lower(8_249_634_742_471_189_718),
        13_348_189_408_090_370_667
    );
    assert_eq!(
        wythoff::lower(9_223_372_036_854_775_807),
        14_923_729_446_516_375_049
    );
    assert_eq!(
        wythoff::lower(9_223_372_036_854_775_806),
        14_923_729_446_516_375_047
    );
    let max = wythoff::MAX_HEAP;
    assert_eq!(wythoff::partner(max), 5_700_357_409_661_599_242);
    assert!(wythoff::is_p(5_700_357_409_661_599_242, max).unwrap());
    assert!(!wythoff::is_p(max, max).unwrap());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(["wythoff", &max.to_string(), &max.to_string(), "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.is_object(), "{v}");
}

#[test]
fn wythoffs_first_lost_positions() {
    let want = [(1, 2), (3, 5), (4, 7), (6, 10), (8, 13)];
    for (n, &p) in want.iter().enumerate() {
        assert_eq!(wythoff::p_position(n as u64 + 1), p);
        assert!(wythoff::is_p(p.0, p.1).unwrap() && wythoff::is_p(p.1, p.0).unwrap());
    }
    let v = json(&["wythoff", "--p-positions", "5", "--json"]);
    assert_eq!(
        v["p_positions"],
        serde_json::json!([[1, 2], [3, 5], [4, 7], [6, 10], [8, 13]])
    );
    let v = json(&["wythoff", "3", "5", "--json"]);
    assert_eq!(v["first_player_wins"], false);
}

#[test]
fn wythoff_is_exact_for_huge_heaps() {
    // φ = 1.6180339887498948482045868...: ⌊10^18 φ⌋ = 1618033988749894848; floating point
    // has 53 bits and cannot tell it from its neighbours.
    let n = 1_000_000_000_000_000_000u64;
    assert_eq!(
        wythoff::p_position(n),
        (1_618_033_988_749_894_848, 2_618_033_988_749_894_848)
    );
    assert!(wythoff::is_p(1_618_033_988_749_894_848, 2_618_033_988_749_894_848).unwrap());
    assert!(!wythoff::is_p(1_618_033_988_749_894_849, 2_618_033_988_749_894_849).unwrap());
    // One more in the larger heap: the only winning move takes it back.
    let v = json(&[
        "wythoff",
        "1618033988749894848",
        "2618033988749894849",
        "--json",
    ]);
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{ "take": [0, 1], "leaves": [1618033988749894848u64, 2618033988749894848u64] }])
    );
}

#[test]
fn wythoff_grundy_values_and_winning_moves() {
    // The table of Wythoff's nim-values (OEIS A004481), rows y = 0..5, columns x = 0..7.
    let want = [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [1, 2, 0, 4, 5, 3, 7, 8],
        [2, 0, 1, 5, 3, 4, 8, 6],
        [3, 4, 5, 6, 2, 0, 1, 9],
        [4, 5, 3, 2, 7, 6, 9, 0],
        [5, 3, 4, 0, 6, 8, 10, 1],
    ];
    let t = wythoff::grundy_table(8, 6);
    for (y, row) in want.iter().enumerate() {
        assert_eq!(t[y], row, "row {y}");
    }
    // From (4, 5): to (3, 5) taking 1 from the first heap, or to (1, 2) taking 3 from both.
    let moves: Vec<[u64; 2]> = wythoff::winning_moves(4, 5)
        .unwrap()
        .iter()
        .map(|m| m.leaves)
        .collect();
    assert_eq!(moves, [[3, 5], [1, 2]]);
    let dir = files("wythoff");
    let png = dir.join("wythoff.png");
    let v = json(&[
        "wythoff",
        "--table",
        "32",
        "--png",
        png.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["values"][2][1], 0);
    let img = image::open(&png).unwrap().to_rgb8();
    let cell = img.width() / 32;
    let px = |x: u32, y: u32| *img.get_pixel(x * cell + cell / 2, y * cell + cell / 2);
    // Lost positions (value 0) share a colour: (1, 2), (5, 3) and (0, 0).
    assert_eq!(px(1, 2), px(0, 0));
    assert_eq!(px(5, 3), px(0, 0));
    assert_ne!(px(1, 1), px(0, 0));
}

// ---- Misère play ----

#[test]
fn misere_nim_by_boutons_rule() {
    assert!(!misere::nim_first_player_wins(&[1, 1, 1]));
    assert!(misere::nim_first_player_wins(&[2, 1, 1]));
    // From (2, 1, 1) the only winning move leaves (1, 1, 1).
    let moves = misere::nim_winning_moves(&[2, 1, 1]);
    assert_eq!(moves.len(), 1);
    assert_eq!(
        moves[0].m,
        NimMove {
            heap: 0,
            take: 1,
            leaves: 1
        }
    );
    assert!(moves[0].reason.contains("odd"));
    let v = json(&["nim", "--misere", "1", "1", "1", "--json"]);
    assert_eq!(v["first_player_wins"], false);
    let v = json(&["nim", "--misere", "2", "1", "1", "--json"]);
    assert_eq!(v["first_player_wins"], true);
    assert_eq!(v["winning_moves"][0]["leaves"], 1);
    assert!(v["winning_moves"][0]["reason"].is_string());
}

proptest! {
    #[test]
    fn boutons_misere_rule_agrees_with_direct_search(heaps in prop::collection::vec(0u64..6, 1..5)) {
        let (wins, moves, _) =
            misere::heaps_misere(&HeapGame::Nim, &heaps, misere::SEARCH_LIMIT).unwrap();
        prop_assert_eq!(wins, misere::nim_first_player_wins(&heaps));
        let rule: Vec<(usize, u64)> = misere::nim_winning_moves(&heaps)
            .iter()
            .map(|m| (m.m.heap, m.m.leaves))
            .collect();
        let searched: Vec<(usize, u64)> = moves.iter().map(|m| (m.heap, m.leaves)).collect();
        prop_assert_eq!(rule, searched);
    }
}

#[test]
fn misere_subtraction_and_octal_games_by_direct_search() {
    // Misère take 1..3: lost when 1 more than a multiple of 4 is left (eleven matches).
    let v = json(&[
        "grundy", "subtract", "--take", "1..3", "--upto", "12", "--misere", "--json",
    ]);
    assert_eq!(v["misere_lost"], serde_json::json!([1, 5, 9]));
    // Misère Kayles by hand: 0 is won (the opponent moved last); 1 must be taken; 2 and 3 win
    // by leaving 1; every move from 4 leaves 3, 2, 1+2 or 1+1, each won for the opponent; 5 and 6
    // win by leaving 4.
    let v = json(&[
        "grundy", "octal", "kayles", "--upto", "6", "--misere", "--json",
    ]);
    assert_eq!(v["misere_lost"], serde_json::json!([1, 4]));
    // A position of several heaps: (1, 1) is won (take one, leaving the last to the
    // opponent).
    let v = json(&["grundy", "octal", "kayles", "1", "1", "--misere", "--json"]);
    assert_eq!(v["position"]["first_player_wins"], true);
}

// ---- Green Hackenbush ----

#[test]
fn hackenbush_trees_by_the_colon_principle() {
    // A stalk of 3 is *3; g-a with branches b and c-d: at a, (0 + 1) XOR (1 + 1) = 3, and the
    // stalk below adds 1: 4. The tree g-a, a-b, a-c: 1 + (1 XOR 1) = 1.
    let value = |t: &str| {
        let h = Hackenbush::parse(t).unwrap();
        h.value(&h.all())
    };
    assert_eq!(value("g a; a b; b c"), 3);
    assert_eq!(value("g a; a b; a c; c d"), 4);
    assert_eq!(value("g a; a b; a c"), 1);
    // Two trees on the ground add up by XOR: 3 XOR 1 = 2.
    assert_eq!(value("g a; a b; b c\ng x"), 2);
}

#[test]
fn hackenbush_cycles_by_the_fusion_principle() {
    let value = |t: &str| {
        let h = Hackenbush::parse(t).unwrap();
        h.value(&h.all())
    };
    // A triangle through the ground: three loops, 1 XOR 1 XOR 1 = 1; a square: 0.
    assert_eq!(value("g a; a b; b g"), 1);
    assert_eq!(value("g a; a b; b c; c g"), 0);
    // A triangle on a stalk (a lollipop): the triangle is a loop's worth, 1, on top of one
    // edge: 2. A loop drawn as such counts the same.
    assert_eq!(value("g a; a b; b c; c a"), 2);
    assert_eq!(value("g a; a a"), 2);
    // Parallel edges between the same vertices form a cycle: two edges g-a fuse to 0.
    assert_eq!(value("g a; g a"), 0);
}

#[test]
fn hackenbush_winning_cuts_from_a_file() {
    // The lollipop (value 2): cutting the stalk leaves nothing (0); cutting a-b leaves the stalk
    // g-a-c-b of 3; cutting b-c leaves a with two twigs, 1. Only the stalk's cut wins.
    let dir = files("hackenbush");
    let path = dir.join("tree.txt");
    std::fs::write(&path, "# a lollipop\ng a\na b\nb c\nc a\n").unwrap();
    let v = json(&["hackenbush", "--file", path.to_str().unwrap(), "--json"]);
    assert_eq!(v["value"], 2);
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{ "edge": 0, "ends": ["g", "a"], "line": 2, "leaves": 0 }])
    );
    std::fs::write(&path, "g a\na b c\n").unwrap();
    let err = failure(&["hackenbush", "--file", path.to_str().unwrap()]);
    assert!(err.contains("tree.txt:2:5: 'c' names a third end"), "{err}");
}

// ---- Games given by their move graph; sums of different games ----

/// A 2-cycle x <-> y with an exit y -> w -> v: worked by hand, v is 0, w is 1, and x, y can only
/// run round the cycle (leaving it at y hands the opponent the win): ∞ with K = {} and {1}.
const LOOPY: &str = "x: y\ny: x w\nw: v\nv:\n";

#[test]
fn a_loopy_graph_has_draws_with_smiths_infinite_values() {
    let g = MoveGraph::parse(LOOPY).unwrap();
    assert_eq!(
        g.values(),
        [
            GValue::Infinite(vec![]),
            GValue::Infinite(vec![1]),
            GValue::Finite(1),
            GValue::Finite(0)
        ]
    );
    assert_eq!(g.values()[1].outcome(), Value::Draw);
    // Misère, by hand: at v the player to move has won; w must move to v and loses; y wins by
    // moving to w; x must move to y and loses.
    let m: Vec<Value> = g.misere().iter().map(|s| s.value).collect();
    assert_eq!(m, [Value::Loss, Value::Win, Value::Loss, Value::Win]);
    let dir = files("graph");
    let path = dir.join("loopy.txt");
    std::fs::write(&path, LOOPY).unwrap();
    let v = json(&[
        "grundy",
        "graph",
        "--file",
        path.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["vertices"][1]["value"], "∞{1}");
    assert_eq!(v["vertices"][1]["outcome"], "draw");
    std::fs::write(&path, "x: y\ny x\n").unwrap();
    let err = failure(&["grundy", "graph", "--file", path.to_str().unwrap()]);
    assert!(err.contains("loopy.txt:2:1: 'y x' has no ':'"), "{err}");
}

#[test]
fn sums_of_different_games() {
    // Nim 3 (g 3), Kayles 5 (g 4), Wythoff (1, 2) (g 0): 3 XOR 4 XOR 0 = 7. Kayles 5 must go to
    // g 3: take 2 leaving 3 (g 3), or take 2 from the middle leaving 1 and 2 (1 XOR 2 = 3). The
    // Nim heap would need 4 > 3, and (1, 2) reaches 1 and 2 only.
    let v = json(&["grundy", "sum", "3", "kayles:5", "wythoff:1,2", "--json"]);
    assert_eq!(v["values"], serde_json::json!([3, 4, 0]));
    assert_eq!(v["value"], 7);
    let moves = v["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert!(moves.iter().all(|m| m["component"] == 1));
    let leaves: Vec<&str> = moves
        .iter()
        .map(|m| m["leaves"].as_str().unwrap())
        .collect();
    assert_eq!(leaves, ["0.77:3", "0.77:1,2"]);
}

#[test]
fn a_sum_with_a_loopy_component_is_won_or_drawn_by_smiths_rule() {
    let dir = files("sum");
    let path = dir.join("loopy.txt");
    std::fs::write(&path, LOOPY).unwrap();
    let graph = format!("graph:{}:y", path.display());
    // y is ∞{1}: with a Nim heap of 1, moving y to w (value 1) makes 1 XOR 1 = 0: a win.
    let v = json(&["grundy", "sum", &graph, "1", "--json"]);
    assert_eq!(v["first_player_wins"], true);
    assert_eq!(v["winning_moves"][0]["component"], 0);
    assert_eq!(v["winning_moves"][0]["move"], "move to w");
    // With a heap of 2, K XOR 2 = {3} lacks 0: a draw.
    let v = json(&["grundy", "sum", &graph, "2", "--json"]);
    assert_eq!(v["draw"], true);
}

#[test]
fn misere_sums_by_direct_search() {
    // Nim heaps as a sum of components: Bouton's misère rule says (1, 1, 1) is lost and
    // (2, 1, 1) won.
    let v = json(&["grundy", "sum", "1", "1", "1", "--misere", "--json"]);
    assert_eq!(v["first_player_wins"], false);
    let v = json(&["grundy", "sum", "2", "1", "1", "--misere", "--json"]);
    assert_eq!(v["first_player_wins"], true);
    assert_eq!(v["winning_moves"][0]["component"], 0);
}

/// The keys of a position's answer, whatever the command and the play.
fn position_keys(v: &serde_json::Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

#[test]
fn grundy_heaps_json_has_one_shape_normal_and_misere() {
    // Take {1, 3, 4} (period 0 1 0 1 2 3 2): g(5) = 3, g(7) = 0, the XOR 3. From the 5 the
    // moves leave 4, 2, 1 (g 2, 0, 1), and only g 0 wins; from the 7 they leave 6, 4, 3 (g 2, 2,
    // 1), never the 3 wanted. One winning move: take 3 from the 5.
    let normal = json(&["grundy", "heaps", "--take", "1,3,4", "5", "7", "--json"]);
    assert_eq!(normal["nim_sum"], 3);
    assert_eq!(
        normal["winning_moves"],
        serde_json::json!([{"heap": 0, "take": 3, "leaves": 2}])
    );
    let misere = json(&[
        "grundy", "heaps", "--take", "1,3,4", "5", "7", "--misere", "--json",
    ]);
    for v in [&normal, &misere] {
        for key in [
            "game",
            "heaps",
            "misere",
            "first_player_wins",
            "winning_moves",
            "winning_move_count",
        ] {
            assert!(v.get(key).is_some(), "{key} missing from {v}");
        }
        assert!(
            v.get("values").is_none() && v.get("period").is_none(),
            "{v}"
        );
    }
    // The position inside `octal` has the same keys as `heaps`, less the game's name.
    let octal = json(&[
        "grundy", "octal", "kayles", "5", "7", "--upto", "3", "--json",
    ]);
    let mut heaps = position_keys(&normal);
    heaps.retain(|k| k != "game");
    assert_eq!(position_keys(&octal["position"]), heaps);
}

#[test]
fn huge_heaps_are_answered_from_the_certified_period() {
    // Take {1, 3, 4}: g repeats 0 1 0 1 2 3 2 from 0, so g(100000001) = g(3) = 1 and g(5) = 3;
    // the XOR is 2. Only taking 4 from the 5 (leaving g(1) = 1 = 3 XOR 2) wins: from the huge
    // heap the three moves leave n mod 7 = 2, 0, 6, values 0, 0, 2, never the 3 wanted.
    let v = json(&[
        "grundy",
        "heaps",
        "--take",
        "1,3,4",
        "100000001",
        "5",
        "--json",
    ]);
    assert_eq!(v["grundy_values"], serde_json::json!([1, 3]));
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{"heap": 1, "take": 4, "leaves": 1}])
    );
    // Kayles: g(n) for n >= 72 repeats 4 1 2 8 1 4 7 2 1 8 2 7 by n mod 12 (Winning Ways,
    // chapter 4); 10^12 mod 12 = 4, so g = 1, a first-player win.
    let v = json(&[
        "grundy",
        "octal",
        "kayles",
        "1000000000000",
        "--upto",
        "2",
        "--json",
    ]);
    assert_eq!(v["position"]["grundy_values"], serde_json::json!([1]));
    assert_eq!(v["position"]["first_player_wins"], true);
    let listed = v["position"]["winning_moves"].as_array().unwrap().len() as u64;
    assert_eq!(listed, octal::MAX_LISTED as u64);
    assert!(v["position"]["winning_move_count"].as_u64().unwrap() > listed);
    // The same heap as a component of a sum.
    let v = json(&["grundy", "sum", "kayles:1000000000000", "--json"]);
    assert_eq!(v["values"], serde_json::json!([1]));
    assert_eq!(v["first_player_wins"], true);
}

#[test]
fn a_move_count_past_64_bits_saturates() {
    // Game 4.0 splits a heap in two without taking: g(n) is 1 for even n and 0 for odd (g(1) =
    // 0, and an even heap splits only into two odd or two even parts, values XOR 0). Three even
    // heaps near 2^64: the XOR is 1, and every split of any of them (both parts odd or both
    // even keeps the XOR of the parts 0) wins: 3 (2^63 - 1) moves, more than a u64 counts.
    let h = "18446744073709551614";
    let v = json(&["grundy", "octal", "4.0", h, h, h, "--upto", "4", "--json"]);
    assert_eq!(v["values"], serde_json::json!([0, 0, 1, 0, 1]));
    assert_eq!(v["position"]["winning_move_count"], u64::MAX);
}

#[test]
fn moves_past_the_values_counted_by_residue_equal_the_direct_count() {
    // The definition, move by move, with every value computed, against the residue count
    // from 256 values and the certified period.
    for code in ["0.77", "0.137", "0.07", "4.7", "0.15"] {
        let game = HeapGame::parse(code).unwrap();
        let (few, period) = game.search_period(0, 300_000_000);
        let period = period.filter(|p| p.certified).expect("certified");
        for heaps in [vec![3000u64], vec![2999, 17], vec![2500, 1234, 3]] {
            let all = game.values(3000);
            for target in [0, 1, 5] {
                let direct =
                    octal::moves_to_value(&game, &all, None, &heaps, target, usize::MAX).unwrap();
                let by_period =
                    octal::moves_to_value(&game, &few, Some(&period), &heaps, target, usize::MAX)
                        .unwrap();
                assert_eq!(by_period, direct, "{code} {heaps:?} to {target}");
                assert_eq!(direct.count, direct.moves.len() as u64);
                let capped =
                    octal::moves_to_value(&game, &few, Some(&period), &heaps, target, 10).unwrap();
                assert_eq!(capped.count, direct.count);
                assert_eq!(capped.moves[..], direct.moves[..direct.moves.len().min(10)]);
            }
        }
    }
}

#[test]
fn three_octal_periods_found_past_16384_values_are_certified() {
    // Periods from Flammenkamp's tables of octal games, as the issue quotes them: 0.4143 has
    // period 21 from 10648; 0.5675 and 0.5664 have period 8 from 9081. The Guy–Smith check
    // needs 2 n0 + p + t values, about 21,300 and 18,200: within reach, not at 32,768.
    for (code, preperiod, period) in [
        ("0.4143", 10648, 21),
        ("0.5675", 9081, 8),
        ("0.5664", 9081, 8),
    ] {
        let v = json(&["grundy", "octal", code, "--upto", "3", "--json"]);
        assert_eq!(v["certified"], true, "{code}: {v}");
        assert_eq!(
            (v["preperiod"].as_u64(), v["period"].as_u64()),
            (Some(preperiod), Some(period)),
            "{code}"
        );
    }
}

#[test]
fn a_sum_names_heaps_in_the_order_written() {
    // Kayles g: 0 1 2 3 1 4 3 2, so g(7) = 2, g(5) = 4, the XOR 6. From the 7, leaving 5 (take
    // 2, g 4) makes the heaps 5, 5; from the 5, leaving 1 and 3 (g 1 XOR 3 = 2) matches the 7.
    let out = lifelab(&["grundy", "sum", "kayles:7,5"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("heap 1 (of 7): take 2, leaving 5"), "{text}");
    assert!(
        text.contains("heap 2 (of 5): take 1 and split the rest into 1 and 3"),
        "{text}"
    );
    assert!(!text.contains("heap 2 (of 7)"), "{text}");
}

#[test]
fn every_games_limit_is_named_in_its_error() {
    // A heap the period cannot reach blames the heap, not an --upto the user never gave.
    let e = failure(&["grundy", "grundys-game", "100000000000", "--upto", "2"]);
    assert!(
        e.contains("a heap of 100000000000") && !e.contains("--upto 1"),
        "{e}"
    );
    // Nim heaps in a sum: values are 32-bit, and the error says so and where to go instead.
    let e = failure(&["grundy", "sum", "4294967296", "1"]);
    assert!(
        e.contains("4294967295 (2^32 - 1)") && e.contains("lifelab nim"),
        "{e}"
    );
    // A heap past every bound: refused in words, without overflowing the estimate.
    let e = failure(&[
        "grundy",
        "grundys-game",
        "18446744073709551615",
        "--upto",
        "2",
    ]);
    assert!(e.contains("past the 100000000 lifelab computes"), "{e}");
    let e = failure(&["grundy", "sum", "grundys-game:18446744073709551615"]);
    assert!(e.contains("a heap of 18446744073709551615"), "{e}");
    // Misère play searches directly: a heap whose moves alone pass the search's limit is
    // refused before they are built.
    let e = failure(&["grundy", "octal", "kayles", "1000000000000", "--misere"]);
    assert!(e.contains("too many for a direct search"), "{e}");
    let e = failure(&["grundy", "sum", "sub:1..50000000:100000000", "--misere"]);
    assert!(e.contains("too many moves for a direct search"), "{e}");
    // A Wythoff table too large to print asks for --png or --json instead of printing nothing.
    let e = failure(&["wythoff", "--table", "17"]);
    assert!(e.contains("--table 17") && e.contains("--png"), "{e}");
}
