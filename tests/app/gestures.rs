//! Mouse gestures on the view, through whole frames of the window: a stroke and a selection
//! act on the press, at the cell pressed, as in Golly.

use super::*;

/// The centre, in window points, of torus cell `c` as the view shows it now (headless, a
/// point is a pixel).
fn at_cell(app: &LifelabApp, c: (i64, i64)) -> egui::Pos2 {
    let g = app.canvas_geometry();
    let ppc = g.pixels_per_cell;
    let (tw, th) = (g.torus[0] as f64, g.torus[1] as f64);
    // The copy of the cell nearest the view's centre.
    let centre = (
        g.origin[0] + g.rect[2] as f64 / 2.0 / ppc,
        g.origin[1] + g.rect[3] as f64 / 2.0 / ppc,
    );
    let near = |c: f64, mid: f64, n: f64| c + ((mid - c) / n).round() * n;
    let x = near(c.0 as f64 + 0.5, centre.0, tw);
    let y = near(c.1 as f64 + 0.5, centre.1, th);
    egui::pos2(
        g.rect[0] + ((x - g.origin[0]) * ppc) as f32,
        g.rect[1] + ((y - g.origin[1]) * ppc) as f32,
    )
}

fn settled_app(name: &str) -> (LifelabApp, egui::Context) {
    let mut o = options("block", "32x32");
    o.data_dir = Some(data_dir(name));
    let (mut app, ctx) = app(o).unwrap();
    for _ in 0..3 {
        frame(&mut app, &ctx, vec![]);
    }
    assert!(app.canvas_geometry().pixels_per_cell >= 4.0);
    (app, ctx)
}

#[test]
fn gestures_the_pressed_cell_is_drawn_at_once_and_a_quick_stroke_keeps_every_cell() {
    let (mut app, ctx) = settled_app("press-draws");
    let none = egui::Modifiers::default();
    let before = app.cells().unwrap();
    assert!(!before.get(3, 3));
    // Pressed and held without moving: the cell is drawn while the button is still down.
    let p = at_cell(&app, (3, 3));
    frame(&mut app, &ctx, pointer(p, Some(true), none));
    for _ in 0..3 {
        frame(&mut app, &ctx, pointer(p, None, none));
    }
    let held = app.cells().unwrap();
    assert!(held.get(3, 3), "holding the button drew nothing");
    assert_eq!(held.population(), before.population() + 1);
    frame(&mut app, &ctx, pointer(p, Some(false), none));

    // A quick stroke: pressed on (3, 8), one motion to (8, 8), let go. Every cell between
    // is drawn, the pressed one included.
    let (from, to) = (at_cell(&app, (3, 8)), at_cell(&app, (8, 8)));
    frame(&mut app, &ctx, pointer(from, Some(true), none));
    frame(&mut app, &ctx, pointer(to, None, none));
    frame(&mut app, &ctx, pointer(to, Some(false), none));
    let after = app.cells().unwrap();
    for x in 3..=8 {
        assert!(after.get(x, 8), "the stroke lost cell ({x}, 8)");
    }
    assert_eq!(after.population(), held.population() + 6);
    // The two strokes are two edits.
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), held);
    // A tap pressed and let go within one frame (a touchpad's) draws its cell too.
    let tap = at_cell(&app, (12, 12));
    let mut events = pointer(tap, Some(true), none);
    events.extend(pointer(tap, Some(false), none));
    frame(&mut app, &ctx, events);
    frame(&mut app, &ctx, vec![]);
    assert!(
        app.cells().unwrap().get(12, 12),
        "a one-frame tap drew nothing"
    );
}

#[test]
fn gestures_a_shift_drag_selects_from_the_pressed_cell() {
    let (mut app, ctx) = settled_app("press-selects");
    let shift = egui::Modifiers {
        shift: true,
        ..Default::default()
    };
    let before = app.cells().unwrap();
    let (from, to) = (at_cell(&app, (2, 3)), at_cell(&app, (6, 9)));
    frame(&mut app, &ctx, pointer(from, Some(true), shift));
    frame(&mut app, &ctx, pointer(to, None, shift));
    frame(&mut app, &ctx, pointer(to, Some(false), shift));
    assert_eq!(app.status().selection, Some(CellRect::new(2, 3, 5, 7)));
    // Selecting draws nothing.
    assert_eq!(app.cells().unwrap(), before);
}

#[test]
fn gestures_the_plots_tooltip_shows_the_recorded_point_under_the_cursor() {
    let mut o = options("acorn", "256x256");
    o.data_dir = Some(data_dir("plot-tooltip"));
    // An engine that records every generation (auto takes HashLife for a long step).
    o.engine = "tiles".into();
    let (mut app, ctx) = app(o).unwrap();
    frame(&mut app, &ctx, vec![]);
    app.command(&ctx, Command::Step(3000));
    app.settle();
    let history = app.population_history();
    assert!(history.len() > 2000, "{} points", history.len());
    let shapes = frame(&mut app, &ctx, vec![]);
    let (_, at) = texts_at(&shapes)
        .into_iter()
        .find(|(t, _)| t == "log scale")
        .expect("the plot's log scale box");
    // Across the plot, halfway up: each tooltip is a recorded point, whatever the cursor's
    // height (acorn's population is near 600 there, not what halfway up reads).
    let none = egui::Modifiers::default();
    let mut seen = 0;
    for dx in (40..300).step_by(15) {
        let p = egui::pos2(at.x + dx as f32, at.y + 110.0);
        frame(&mut app, &ctx, pointer(p, None, none));
        let shapes = frame(&mut app, &ctx, pointer(p, None, none));
        for (t, _) in texts_at(&shapes) {
            // The tooltip, not the status line's "generation N".
            let Some((g, pop)) = t
                .strip_prefix("generation ")
                .and_then(|r| r.split_once("\npopulation "))
            else {
                continue;
            };
            let point = (g.parse::<u64>().ok(), pop.parse::<u64>().ok());
            let recorded = match point {
                (Some(g), Some(p)) => history.contains(&(g, p)),
                _ => false,
            };
            assert!(recorded, "the tooltip says {t:?}");
            seen += 1;
        }
    }
    assert!(seen >= 5, "{seen} tooltips");
}

/// Where a text the frame painted starts, the first one at or above `max_y`.
fn text_pos(shapes: &[egui::epaint::ClippedShape], text: &str, max_y: f32) -> Option<egui::Pos2> {
    texts_at(shapes)
        .into_iter()
        .find(|(t, p)| t == text && p.y <= max_y)
        .map(|(_, p)| p)
}

#[test]
fn gestures_the_toolbars_number_fields_take_typing_and_go_to_goes_back() {
    let (mut app, ctx) = settled_app("toolbar-typing");
    let start = app.cells().unwrap();
    let shapes = frame(&mut app, &ctx, vec![]);
    // The Step N field: click into it, replace its text with "2^5", press Enter.
    let field = text_pos(&shapes, "100", 48.0).expect("the Step N field") + egui::vec2(4.0, 6.0);
    let none = egui::Modifiers::default();
    frame(&mut app, &ctx, pointer(field, Some(true), none));
    frame(&mut app, &ctx, pointer(field, Some(false), none));
    let mut typing = vec![key(egui::Key::A, ctrl())];
    typing.push(egui::Event::Text("2^5".into()));
    frame(&mut app, &ctx, typing);
    frame(&mut app, &ctx, vec![key(egui::Key::Enter, none)]);
    for _ in 0..3 {
        frame(&mut app, &ctx, vec![]);
    }
    app.settle();
    assert_eq!(app.status().generation, 32);
    // Go to an earlier generation: back to the start, then forward, as in Golly.
    app.command(&ctx, Command::GoTo(8));
    app.settle();
    assert_eq!(app.status().generation, 8);
    app.command(&ctx, Command::GoTo(0));
    app.settle();
    assert_eq!(app.status().generation, 0);
    assert_eq!(app.cells().unwrap(), start);
}

#[test]
fn gestures_the_speed_buttons_stay_put_as_the_speed_text_changes() {
    let (mut app, ctx) = settled_app("toolbar-steady");
    let plus = |app: &mut LifelabApp| {
        let shapes = frame(app, &ctx, vec![]);
        text_pos(&shapes, "+", 48.0).expect("the + button")
    };
    let at = plus(&mut app);
    for pace in [
        lifelab::session::pace::Pace::PerSecond(0.25),
        lifelab::session::pace::Pace::PerSecond(1024.0),
        lifelab::session::pace::Pace::Max,
    ] {
        app.command(&ctx, Command::SetSpeed(pace));
        // And the step menu's text, from 2^0 to 2^40.
        for k in [0, 40] {
            app.command(&ctx, Command::SetStepExponent(k));
            let now = plus(&mut app);
            assert!(
                (now.x - at.x).abs() < 0.5,
                "{pace:?} 2^{k}: + moved from {at:?} to {now:?}"
            );
        }
    }
    // The step menu offers every 2^k, and the status says which.
    app.command(&ctx, Command::SetStepExponent(10));
    frame(&mut app, &ctx, vec![]);
    assert_eq!(app.status().step_exponent, 10);
    let shapes = frame(&mut app, &ctx, vec![]);
    assert!(text_pos(&shapes, "step 2^10", 48.0).is_some());
}

#[test]
fn gestures_at_1280x800_analyze_is_on_screen_and_the_side_panel_hides() {
    let (mut app, ctx) = settled_app("layout");
    let shapes = frame(&mut app, &ctx, vec![]);
    let status_bar = text_pos(&shapes, "generation 0", 800.0)
        .expect("the status line")
        .y;
    let analyze = text_pos(&shapes, "Analyze", 800.0).expect("the Analyze button");
    assert!(
        analyze.y + 14.0 < status_bar,
        "Analyze at {analyze:?} is below the fold (the status line is at {status_bar})"
    );
    // View → Side panel off: the view takes the window's width.
    let wide = app.canvas_geometry().rect[2];
    app.show_tools = false;
    for _ in 0..30 {
        frame(&mut app, &ctx, vec![]);
    }
    let wider = app.canvas_geometry().rect[2];
    assert!(wider >= 1279.0 && wider > wide, "{wide} -> {wider}");
}

#[test]
fn gestures_the_status_line_says_paused_and_the_real_rate_while_running() {
    let (mut app, ctx) = settled_app("status-rate");
    let shapes = frame(&mut app, &ctx, vec![]);
    let line = text_pos(&shapes, "generation 0", 800.0)
        .expect("the status line")
        .y;
    // The status line's own texts: those on its row.
    let on_line = |shapes: &[egui::epaint::ClippedShape]| -> Vec<String> {
        texts_at(shapes)
            .into_iter()
            .filter(|(_, p)| (p.y - line).abs() < 4.0)
            .map(|(t, _)| t)
            .collect()
    };
    let paused = on_line(&shapes);
    assert!(paused.iter().any(|t| t == "paused"), "{paused:?}");
    assert!(!paused.iter().any(|t| t.ends_with("gen/s")), "{paused:?}");
    app.command(&ctx, Command::SetSpeed(lifelab::session::pace::Pace::Max));
    app.command(&ctx, Command::Play);
    let mut rate = None;
    for _ in 0..200 {
        std::thread::sleep(std::time::Duration::from_millis(10));
        app.tick().unwrap();
        let shapes = frame(&mut app, &ctx, vec![]);
        rate = on_line(&shapes)
            .into_iter()
            .find_map(|t| t.strip_suffix(" gen/s")?.parse::<f64>().ok())
            .filter(|&r| r > 0.0);
        if rate.is_some() {
            break;
        }
    }
    app.command(&ctx, Command::Pause);
    assert!(
        rate.is_some(),
        "no rate in the status line while running at max"
    );
}

fn wheel(at: egui::Pos2, unit: egui::MouseWheelUnit, dy: f32) -> Vec<egui::Event> {
    let mut events = pointer(at, None, egui::Modifiers::default());
    events.push(egui::Event::MouseWheel {
        unit,
        delta: egui::vec2(0.0, dy),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: egui::Modifiers::default(),
    });
    events
}

#[test]
fn gestures_the_wheel_zooms_by_powers_of_two_as_in_golly() {
    let (mut app, ctx) = settled_app("wheel");
    let at = at_cell(&app, (16, 16));
    let zoom = |app: &LifelabApp| app.canvas_geometry().pixels_per_cell;
    let fitted = zoom(&app);
    assert_eq!(fitted.log2().fract(), 0.0, "the fit's zoom {fitted}");
    // One notch in doubles the zoom, one out halves it: never 25 or 10 pixels per cell.
    frame(&mut app, &ctx, wheel(at, egui::MouseWheelUnit::Line, 1.0));
    frame(&mut app, &ctx, vec![]);
    assert_eq!(zoom(&app), fitted * 2.0);
    for _ in 0..2 {
        frame(&mut app, &ctx, wheel(at, egui::MouseWheelUnit::Line, -1.0));
    }
    frame(&mut app, &ctx, vec![]);
    assert_eq!(zoom(&app), fitted / 2.0);
    // A touchpad's 50 points, in two halves, are one notch.
    for _ in 0..2 {
        frame(
            &mut app,
            &ctx,
            wheel(at, egui::MouseWheelUnit::Point, -25.0),
        );
    }
    frame(&mut app, &ctx, vec![]);
    assert_eq!(zoom(&app), fitted / 4.0);
    // The keys step the same way.
    for c in app.keyboard(
        &ctx,
        keys(vec![key(egui::Key::CloseBracket, Default::default())]),
    ) {
        app.command(&ctx, c);
    }
    frame(&mut app, &ctx, vec![]);
    assert_eq!(zoom(&app), fitted / 2.0);
}

/// Types `text` into the number field that shows `shown` (the first below `min_y`), and
/// presses Enter.
fn type_into(app: &mut LifelabApp, ctx: &egui::Context, shown: &str, min_y: f32, text: &str) {
    let shapes = frame(app, ctx, vec![]);
    let (_, at) = texts_at(&shapes)
        .into_iter()
        .find(|(t, p)| t == shown && p.y >= min_y)
        .unwrap_or_else(|| panic!("no field shows {shown}"));
    let field = at + egui::vec2(4.0, 6.0);
    let none = egui::Modifiers::default();
    frame(app, ctx, pointer(field, Some(true), none));
    frame(app, ctx, pointer(field, Some(false), none));
    frame(
        app,
        ctx,
        vec![key(egui::Key::A, ctrl()), egui::Event::Text(text.into())],
    );
    frame(app, ctx, vec![key(egui::Key::Enter, none)]);
    frame(app, ctx, vec![]);
}

#[test]
fn gestures_plane_to_torus_makes_the_torus_the_fields_show_with_the_pattern_in_its_middle() {
    let mut o = options("acorn", "64x64");
    o.plane = true;
    o.data_dir = Some(data_dir("plane-to-torus"));
    let (mut app, ctx) = app(o).unwrap();
    for _ in 0..3 {
        frame(&mut app, &ctx, vec![]);
    }
    assert_eq!(app.status().universe, lifelab::engine::Universe::Plane);
    // The edit panel's torus fields, typed into: 2048 by 1536.
    type_into(&mut app, &ctx, "1024", 60.0, "2048");
    type_into(&mut app, &ctx, "1024", 60.0, "1536");
    // Simulation → Universe → Torus.
    app.command(&ctx, Command::SetPlane(false));
    app.settle();
    assert_eq!(
        app.status().universe,
        lifelab::engine::Universe::torus(2048, 1536)
    );
    // Acorn (7x3) whole, in the middle: its box at ((2048 - 7) / 2, (1536 - 3) / 2), never
    // split across the corners.
    let (x0, y0) = (1020, 766);
    let mut want: Vec<(i64, i64)> = [(1, 0), (3, 1), (0, 2), (1, 2), (4, 2), (5, 2), (6, 2)]
        .iter()
        .map(|&(x, y)| (x0 + x, y0 + y))
        .collect();
    want.sort();
    let mut got: Vec<_> = app.tiles().unwrap().cells().collect();
    got.sort();
    assert_eq!(got, want);
}

#[test]
fn gestures_analyze_looks_as_far_as_the_panel_says() {
    let mut o = options("acorn", "64x64");
    o.plane = true;
    o.data_dir = Some(data_dir("analyze-limit"));
    let (mut app, ctx) = app(o).unwrap();
    for _ in 0..3 {
        frame(&mut app, &ctx, vec![]);
    }
    // Acorn lives 5206 generations: within 1000 nothing repeats.
    type_into(&mut app, &ctx, "50,000", 60.0, "1000");
    let findings = wait_for_findings(&mut app, 30).expect("the analysis answers");
    assert!(
        findings[0] == "no repetition within 1000 generations",
        "{findings:?}"
    );
    // A change of rule leaves nothing said about the old one.
    app.command(
        &ctx,
        Command::SetRule(lifelab::rule::Rule::parse("B36/S23").unwrap()),
    );
    app.settle();
    assert!(app.analysis_findings().is_none());
}

#[test]
fn gestures_the_view_menu_on_the_plane_fits_the_pattern_once() {
    let mut o = options("acorn", "64x64");
    o.plane = true;
    o.data_dir = Some(data_dir("view-menu"));
    let (mut app, ctx) = app(o).unwrap();
    let shapes = frame(&mut app, &ctx, vec![]);
    let view = text_pos(&shapes, "View", 30.0).expect("the View menu") + egui::vec2(6.0, 6.0);
    let none = egui::Modifiers::default();
    frame(&mut app, &ctx, pointer(view, Some(true), none));
    frame(&mut app, &ctx, pointer(view, Some(false), none));
    let shapes = frame(&mut app, &ctx, vec![]);
    let fits: Vec<String> = texts_at(&shapes)
        .into_iter()
        .map(|(t, _)| t)
        // The menu's items, not the toolbar's Fit.
        .filter(|t| t.starts_with("Fit "))
        .collect();
    assert_eq!(fits, vec!["Fit pattern (F)".to_string()]);
}
