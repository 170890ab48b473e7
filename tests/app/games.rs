//! The games panel: each tab driven as a user would, and what it shows read back.

use super::*;

// ---- The games panel: each tab driven through the same actions as its buttons, and drawn ----

/// The games tab with this title, fresh.
fn games_tab(title: &str) -> Box<dyn GameTab> {
    lifelab::app::game_tabs()
        .into_iter()
        .find(|t| t.title() == title)
        .unwrap_or_else(|| panic!("no games tab {title}"))
}

/// Draws a tab for two frames (the first lays out) on a headless egui context and returns what
/// the painter was given.
fn draw_tab(tab: &mut dyn GameTab) -> Vec<egui::epaint::ClippedShape> {
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(900.0, 3000.0),
        )),
        ..Default::default()
    };
    let _ = ctx.run_ui(input(), |ui| tab.ui(ui));
    ctx.run_ui(input(), |ui| tab.ui(ui)).shapes
}

pub(super) fn texts(shapes: &[egui::epaint::ClippedShape]) -> Vec<String> {
    texts_at(shapes).into_iter().map(|(t, _)| t).collect()
}

/// Everything a tab shows as text.
fn shown_text(tab: &mut dyn GameTab) -> Vec<String> {
    texts(&draw_tab(tab))
}

fn log_of(tab: &dyn GameTab) -> Vec<String> {
    tab.state()["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn games_heaps_are_numbered_from_1_everywhere() {
    let mut nim = games_tab("Nim");
    // 3 5 7, take 1 from heap 1: (2, 5, 7) has nim-sum 0, so the computer has no winning move
    // and takes one from the largest heap, heap 3.
    nim.act("take 1 1").unwrap();
    assert_eq!(nim.state()["heaps"], serde_json::json!([2, 5, 6]));
    let log = log_of(nim.as_ref());
    assert!(
        log.iter().any(|l| l == "you took 1 from heap 1, leaving 2"),
        "{log:?}"
    );
    assert!(
        log.iter()
            .any(|l| l.starts_with("the computer takes 1 from heap 3")),
        "{log:?}"
    );
    // The explanation of a winning reply counts from 1 too: from (2, 5, 6) taking 2 from heap 2
    // leaves (2, 3, 6), nim-sum 7; the reply lowers heap 3 from 6 to 1.
    nim.act("take 2 2").unwrap();
    let log = log_of(nim.as_ref());
    assert!(
        log.last().unwrap().contains("heap 3 goes from 6 to 1"),
        "{log:?}"
    );
    let err = nim.act("take 4 1").unwrap_err();
    assert_eq!(err, "there is no heap 4: the heaps are numbered 1 to 3");
    let text = shown_text(nim.as_mut()).join("\n");
    assert!(
        text.contains("heap 1:") && text.contains("heap 3:"),
        "{text}"
    );
    assert!(!text.contains("heap 0"), "{text}");
    // A mistyped heap in the heaps field is named as the Nim command names it: from 1.
    let mut nim = games_tab("Nim");
    nim.act("new 3 x").unwrap_err();
    let text = shown_text(nim.as_mut()).join("\n");
    assert!(
        text.contains("heap 2: 'x' is not a number of stones"),
        "{text}"
    );
}

#[test]
fn games_a_move_that_is_not_legal_is_refused_with_a_message() {
    let mut nim = games_tab("Nim");
    let err = nim.act("take 2 9").unwrap_err();
    assert_eq!(err, "heap 2 holds 5 stones: you cannot take 9");
    // Nothing was taken (before, 9 was clamped to 5).
    assert_eq!(nim.state()["heaps"], serde_json::json!([3, 5, 7]));
    assert!(shown_text(nim.as_mut()).contains(&err));
    assert!(
        nim.act("take 2 x")
            .unwrap_err()
            .contains("'x' is not a whole number")
    );
    // The Grundy tab's take-set: 1..3 does not allow 4.
    let mut grundy = games_tab("Grundy");
    grundy.act("play").unwrap();
    let err = grundy.act("take 1 4").unwrap_err();
    assert_eq!(
        err,
        "4 is not in the take-set 1..3: you cannot take it from heap 1"
    );
    assert_eq!(grundy.state()["heaps"], serde_json::json!([9, 6, 5, 4]));
    // Tic-tac-toe: a taken square.
    let mut ttt = games_tab("Tic-tac-toe");
    ttt.act("play 4").unwrap();
    let taken: Vec<usize> = (0..9)
        .filter(|&s| ttt.state()["board"].as_str().unwrap().as_bytes()[s] != b'.')
        .collect();
    let err = ttt.act(&format!("play {}", taken[1])).unwrap_err();
    assert!(err.contains("is taken"), "{err}");
}

#[test]
fn games_the_grundy_tab_can_be_played() {
    // Heaps 9 6 5 4 with take 1..3 have g = 1 2 1 0. You take 1 from the 9: g 0 2 1 0, sum 3.
    // Bouton's rule lowers the heap whose g has the sum's top bit, the 6 (g 2), to g 2 XOR 3 =
    // 1: taking 1 leaves 5.
    let mut grundy = games_tab("Grundy");
    grundy.act("play").unwrap();
    grundy.act("take 1 1").unwrap();
    assert_eq!(grundy.state()["heaps"], serde_json::json!([8, 5, 5, 4]));
    let log = log_of(grundy.as_ref());
    assert!(
        log.last()
            .unwrap()
            .starts_with("the computer takes 1 from heap 2"),
        "{log:?}"
    );
    let text = shown_text(grundy.as_mut()).join("\n");
    assert!(text.contains("Play: take 1..3 from one heap"), "{text}");
}

#[test]
fn games_the_tree_rings_the_current_position_and_keeps_arrows_off_the_ranks() {
    let mut tree = games_tab("Game tree");
    tree.act("new").unwrap();
    assert_eq!(tree.state()["current_vertex"], 0);
    // Six matches, take 1 or 2, misère: counts 1, 4 and 7 are lost. You take 1 (5 left); the
    // computer takes 1, leaving you 4. In the tree: the first child of the first child.
    tree.act("take 1").unwrap();
    assert_eq!(tree.state()["left"], 4);
    assert_eq!(tree.state()["current_path"], "0.0");
    let state = tree.state();
    assert_eq!(state["arrowheads_on_labels"], 0);
    assert!(state["rank_labels"].as_u64().unwrap() > 0);
    // The ring is drawn: a circle stroked in the highlight colour.
    fn ringed(shape: &egui::Shape) -> bool {
        match shape {
            egui::Shape::Circle(c) => c.stroke.color == egui::Color32::from_rgb(255, 255, 90),
            egui::Shape::Vec(v) => v.iter().any(ringed),
            _ => false,
        }
    }
    let shapes = draw_tab(tree.as_mut());
    assert!(shapes.iter().any(|s| ringed(&s.shape)));
    let text = texts(&shapes);
    assert!(text.iter().any(|t| t == "level"), "{text:?}");
    // A move the take-set does not allow.
    let err = tree.act("take 3").unwrap_err();
    assert_eq!(err, "4 left and the take-set is 1..2: you cannot take 3");
}

#[test]
fn games_tic_tac_toe_shows_the_numbers_its_explanations_use() {
    let mut ttt = games_tab("Tic-tac-toe");
    let text = shown_text(ttt.as_mut());
    for s in 0..9 {
        assert!(text.contains(&s.to_string()), "square {s}: {text:?}");
    }
    ttt.act("play 4").unwrap();
    let log = log_of(ttt.as_ref());
    assert!(
        log.last().unwrap().starts_with("the computer plays "),
        "{log:?}"
    );
}

#[test]
fn games_the_untouchable_king_tab_colours_every_position_and_plays_the_mate() {
    let mut king = games_tab("Untouchable king");
    // White king c3, queen h2: with the black king on a1 Qb2 mates at once (worked by hand);
    // the squares next to the white king are not legal for the black king.
    let state = king.state();
    assert_eq!(state["king"], "c3");
    assert_eq!(state["board"]["a1"], 1);
    assert!(state["board"]["b3"].is_null());
    assert!(state["board"]["c3"].is_null());
    let text = shown_text(king.as_mut());
    assert!(text.iter().any(|t| t.contains("are won (all)")), "{text:?}");
    king.act("start a1").unwrap();
    assert!(log_of(king.as_ref())[0].contains("White mates in 1"));
    let err = king.act("move a8").unwrap_err();
    assert_eq!(err, "the queen cannot go to a8: not a legal move");
    king.act("move b2").unwrap();
    assert_eq!(king.state()["over"], true);
    assert_eq!(
        log_of(king.as_ref()).last().unwrap(),
        "checkmate: White wins"
    );
    // As Black, the solver mates as fast as it can: at once.
    let mut king = games_tab("Untouchable king");
    king.act("side black").unwrap();
    king.act("start a1").unwrap();
    assert_eq!(king.state()["over"], true);
    assert_eq!(king.state()["queen"], "b2");
    // Another square for the white king: the board follows it.
    let mut king = games_tab("Untouchable king");
    king.act("king a1").unwrap();
    assert_eq!(king.state()["king"], "a1");
    assert!(king.state()["board"]["b2"].is_null());
}

#[test]
fn games_the_octal_tab_plays_kayles() {
    // A heap of 3; you take 1 from its end, leaving 2; the computer takes both (g(2) = 2 != 0,
    // and taking 2 leaves 0) and you have no move.
    let mut octal = games_tab("Octal");
    octal.act("heaps 3").unwrap();
    octal.act("play").unwrap();
    assert_eq!(
        octal.act("take 1 3").unwrap_err(),
        "heap 1 (of 3): you cannot take 3 leaving 0 in kayles (0.77)"
    );
    assert_eq!(
        octal.act("take 1 5").unwrap_err(),
        "heap 1 holds 3: you cannot take 5"
    );
    octal.act("take 1 1").unwrap();
    assert_eq!(octal.state()["heaps"], serde_json::json!([]));
    assert!(
        log_of(octal.as_ref())
            .last()
            .unwrap()
            .ends_with("the computer wins")
    );
    let text = shown_text(octal.as_mut()).join("\n");
    assert!(text.contains("certified: period 12 from n = 71"), "{text}");
}

#[test]
fn games_the_wythoff_tab_answers_with_a_lost_position() {
    // From (4, 5) you take 1 from both: (3, 4). The computer takes 2 from both, leaving
    // (1, 2), the first lost position.
    let mut w = games_tab("Wythoff");
    w.act("position 4 5").unwrap();
    w.act("play").unwrap();
    assert!(w.act("take 1 2").unwrap_err().contains("the same number"));
    w.act("take 1 1").unwrap();
    assert_eq!(w.state()["position"], serde_json::json!([1, 2]));
}

#[test]
fn games_the_hackenbush_tab_cuts_and_answers() {
    // The default picture: a tree worth 4, a triangle on a stalk (2) and a stalk of 2. Cutting
    // the tree's root edge (edge 1) wins: the tree falls, 6 edges stand at value 0; the
    // computer then cuts one edge, and 5 stand.
    let mut h = games_tab("Hackenbush");
    let text = shown_text(h.as_mut()).join("\n");
    assert!(text.contains("value 4"), "{text}");
    assert!(text.contains("winning cuts: edge 1 (g–a)"), "{text}");
    h.act("play").unwrap();
    h.act("cut 1").unwrap();
    assert_eq!(h.state()["standing"], 5);
    assert_eq!(h.act("cut 2").unwrap_err(), "edge 2 (a–b) is already gone");
}

#[test]
fn games_the_sums_tab_plays_a_sum_of_different_games() {
    // Nim 3, Kayles 5, Wythoff (1, 2), take {1, 3, 4} from 6: values 3, 4, 0, 2. You take 1
    // from the Nim heap: 2 XOR 4 XOR 0 XOR 2 = 4. Only Kayles 5 can go to 0, by taking 1 from
    // the middle: 2 + 2.
    let mut sums = games_tab("Sums");
    sums.act("play").unwrap();
    assert!(sums.act("move 9 1").unwrap_err().contains("no component 9"));
    sums.act("move 1 1").unwrap();
    let components = sums.state()["components"].clone();
    assert_eq!(components[0], "nim:2");
    assert_eq!(components[1], "0.77:2,2");
}

#[test]
fn games_the_nim_log_reads_oldest_first_and_the_opening_line_goes() {
    let mut nim = games_tab("Nim");
    nim.act("new 9 9 9 9").unwrap();
    nim.act("take 1 1").unwrap();
    let text = shown_text(nim.as_mut());
    let at = |prefix: &str| {
        text.iter()
            .position(|t| t.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in {text:?}"))
    };
    assert!(at("you move first") < at("you took 1 from heap 1"));
    assert!(at("you took 1 from heap 1") < at("the computer takes"));
    // Enough moves later the opening line is no longer shown.
    for h in [2, 3, 4, 2, 3] {
        // A refusal is a line of the log too.
        let _ = nim.act(&format!("take 1 {h}"));
    }
    let text = shown_text(nim.as_mut());
    assert!(
        !text.iter().any(|t| t.starts_with("you move first")),
        "{text:?}"
    );
}
