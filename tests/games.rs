//! The game solvers of SPEC 2, with values worked by hand or taken from the textbook and the
//! literature, never from the program; and the `nim`, `grundy`, `tree`, `matches`, `evenwins`,
//! `tictactoe` and `kqk-untouchable` commands. New game tests belong here.

use std::process::Command;

use lifelab::games::grundy::{self, Grundy, SubtractionGame, Sum, TakeSet};
use lifelab::games::kqk::{self, Position};
use lifelab::games::matches::{EvenWins, Matches};
use lifelab::games::nim::{self, NimMove};
use lifelab::games::octal::{self, HeapGame, HeapMove};
use lifelab::games::retro::{self, PositionSet, Value};
use lifelab::games::search::{IntTree, alphabeta, minimax};
use lifelab::games::tictactoe::{self, Eval, PositionError};
use lifelab::games::tree::{self, Outcome, Tree, TreeError};
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
    assert_eq!(v["period"]["period"], 7);
}

#[test]
fn heaps_9_6_5_4_take_2_from_the_heap_of_6() {
    // g = 9 mod 4, 6 mod 4, ... = 1, 2, 1, 0; the sum is 2; lowering the heap of 6 from g 2
    // to g 0 takes 2.
    let v = json(&[
        "grundy", "heaps", "9", "6", "5", "4", "--take", "1..3", "--json",
    ]);
    assert_eq!(v["grundy_values"], serde_json::json!([1, 2, 1, 0]));
    assert_eq!(v["sum"], 2);
    assert_eq!(v["winning_move"]["from"], 6);
    assert_eq!(v["winning_move"]["to"], 4);
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
    for (m, row) in table.iter().enumerate() {
        for (n, &v) in row.iter().enumerate() {
            assert_eq!(v as usize, m ^ n);
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
