//! The app's commands applied without a window: stepping, drawing, rules, undo, files, the
//! plot and the status line.

use super::games::texts;
use super::*;

#[test]
fn commands_step_draw_reset_and_ask_before_discarding() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    assert_eq!(app.cells().unwrap(), glider_on(32, 32));
    assert_eq!(app.status().population, Some(5));

    // Four steps move the glider one cell diagonally (Step N is a job on the worker).
    app.command(&ctx, Command::Step(4));
    assert_eq!(app.cells().unwrap(), glider_on(32, 32).translated(1, 1));
    assert_eq!(app.status().generation, 4);

    // A stroke that starts on a dead cell draws; the edit is unsaved.
    app.command(
        &ctx,
        Command::DrawAt {
            cell: (2, 2),
            begin: true,
        },
    );
    app.command(
        &ctx,
        Command::DrawAt {
            cell: (3, 2),
            begin: false,
        },
    );
    app.command(&ctx, Command::EndStroke);
    let cells = app.cells().unwrap();
    assert!(cells.get(2, 2) && cells.get(3, 2));
    assert!(app.status().dirty);
    // One that starts on a live cell erases.
    app.command(
        &ctx,
        Command::DrawAt {
            cell: (3, 2),
            begin: true,
        },
    );
    app.command(&ctx, Command::EndStroke);
    assert!(!app.cells().unwrap().get(3, 2));

    // Loading over unsaved edits asks first, and Cancel keeps them.
    let acorn = library::get("acorn").unwrap();
    app.command(
        &ctx,
        Command::Load {
            pattern: acorn.clone(),
            source: "acorn".into(),
        },
    );
    assert!(app.is_asking_to_discard());
    app.command(&ctx, Command::CancelDiscard);
    assert!(app.cells().unwrap().get(2, 2));
    app.command(
        &ctx,
        Command::Load {
            pattern: acorn,
            source: "acorn".into(),
        },
    );
    app.command(&ctx, Command::ConfirmDiscard);
    app.settle();
    assert_eq!(app.status().population, Some(7));
    assert!(!app.status().dirty);

    // Reset returns to the loaded state.
    app.command(&ctx, Command::Step(30));
    app.command(&ctx, Command::Reset);
    assert_eq!(app.cells().unwrap().population(), 7);
}

#[test]
fn rules_fills_resize_and_clear() {
    let Some((mut app, ctx)) = app(options("blinker", "20x10")) else {
        return;
    };
    // A bad rule changes nothing: the rule panel never sends one, and a parsed rule applies.
    app.command(&ctx, Command::SetRule("B36/S23".parse().unwrap()));
    app.settle();
    assert_eq!(app.status().rule.to_string(), "B36/S23");
    assert_eq!(app.cells().unwrap().population(), 3);

    // A fill of a selection touches only the selection.
    let region = CellRect::new(0, 0, 5, 4);
    app.command(
        &ctx,
        Command::RandomFill {
            density: 1.0,
            seed: 3,
            region: Some(region),
        },
    );
    let cells = app.cells().unwrap();
    assert!((0..5).all(|x| (0..4).all(|y| cells.get(x, y))));
    assert_eq!(cells.population(), 20 + 3);

    // Resizing keeps the cells, centred; the torus grows.
    app.command(&ctx, Command::ConfirmDiscard);
    app.command(
        &ctx,
        Command::Resize {
            width: 40,
            height: 30,
        },
    );
    app.command(&ctx, Command::ConfirmDiscard);
    app.settle();
    assert_eq!(app.status().size, (40, 30));
    assert_eq!(app.cells().unwrap().population(), 23);

    // A pattern with its own rule and torus switches to them.
    let mut p = library::get("glider").unwrap();
    p.rule = Some("B3/S23:T64,48".parse().unwrap());
    app.command(
        &ctx,
        Command::Load {
            pattern: p,
            source: "glider".into(),
        },
    );
    app.command(&ctx, Command::ConfirmDiscard);
    app.settle();
    assert_eq!(app.status().size, (64, 48));
    assert_eq!(app.status().rule.to_string(), "B3/S23");

    app.command(&ctx, Command::Clear);
    assert_eq!(app.cells().unwrap().population(), 0);
}

#[test]
fn running_records_generations_and_population_history() {
    let Some((mut app, ctx)) = app(options("r-pentomino", "256x256")) else {
        return;
    };
    let pace = lifelab::session::worker::Pace::PerSecond(2000.0);
    run_until(&mut app, &ctx, pace, 40, 200, 2);
    let g = app.status().generation;
    assert!(g >= 40, "ran {g} generations");
    // The population shown is the GPU census of the current generation.
    for _ in 0..100 {
        app.tick().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let want = app.cells().unwrap().population();
    assert_eq!(app.status().population, Some(want));
}

#[test]
fn the_analyze_button_identifies_the_current_state() {
    let Some((mut app, ctx)) = app(options("lwss", "64x64")) else {
        return;
    };
    app.command(&ctx, Command::Analyze { max_gens: 20_000 });
    let findings = wait_for_findings(&mut app, 5).expect("the analysis answers");
    assert!(
        findings[0].starts_with("a spaceship (Lightweight spaceship, xq4_6frc): period 4"),
        "{findings:?}"
    );
}

#[test]
fn cpu_mode_runs_the_same_commands_without_a_gpu() {
    let egui_ctx = egui::Context::default();
    let mut app = LifelabApp::headless(None, &egui_ctx, options("glider", "32x32")).unwrap();
    assert_eq!(app.status().adapter, "CPU mode: no GPU adapter");
    assert_ne!(app.status().engine, "gpu");
    app.command(&egui_ctx, Command::Step(4));
    assert_eq!(app.cells().unwrap(), glider_on(32, 32).translated(1, 1));
    app.command(
        &egui_ctx,
        Command::DrawAt {
            cell: (2, 2),
            begin: true,
        },
    );
    app.command(&egui_ctx, Command::EndStroke);
    assert!(app.cells().unwrap().get(2, 2));
    let mut start = Grid::new(64, 1);
    start.set(32, 0, true);
    app.command(
        &egui_ctx,
        Command::EnterElementary {
            rule: lifelab::rule::ElementaryRule(90),
            start,
            capacity: 8,
        },
    );
    app.command(&egui_ctx, Command::Step(3));
    let rows = app.elementary_rows().unwrap().unwrap();
    assert_eq!(
        (0..64).filter(|&x| rows.get(x, 3)).collect::<Vec<u32>>(),
        [29, 31, 33, 35]
    );
}

#[test]
fn losing_the_gpu_keeps_the_drawn_state_and_goes_on_on_the_cpu() {
    // A private device, so that destroying it leaves the other tests' device alone.
    if gpu().is_none() {
        return;
    }
    let ctx = lifelab::gpu::GpuContext::new(None).unwrap();
    let egui_ctx = egui::Context::default();
    let mut opts = options("glider", "48x40");
    // The GPU engine itself, even on a software adapter that auto would not choose.
    opts.engine = "gpu".into();
    let dir = opts.data_dir.clone().unwrap();
    let mut app = LifelabApp::headless(Some(ctx), &egui_ctx, opts).unwrap();
    // The user draws a block, then runs.
    for (i, cell) in [(5, 5), (6, 5), (5, 6), (6, 6)].into_iter().enumerate() {
        app.command(
            &egui_ctx,
            Command::DrawAt {
                cell,
                begin: i == 0,
            },
        );
    }
    app.command(&egui_ctx, Command::EndStroke);
    let drawn = app.cells().unwrap();
    assert_eq!(drawn.population(), 9);
    app.command(&egui_ctx, Command::Play);
    app.tick().unwrap();
    app.destroy_device_for_test();
    for _ in 0..20 {
        app.tick().unwrap();
        if app.gpu_failure().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let failure = app.gpu_failure().expect("the loss is noticed").to_string();
    assert!(failure.contains("device"), "{failure}");
    // The run the failure stopped goes on on the CPU, from the state the user drew (the last
    // good generation, here the one the run started from), block and all.
    assert!(app.status().running, "the run goes on after the fall-back");
    app.command(&egui_ctx, Command::Pause);
    app.settle();
    let after = |gens: u64| {
        let mut e = lifelab::cpu::ReferenceEngine::new(lifelab::rule::Rule::life(), &drawn, 0);
        for _ in 0..gens {
            e.step_once();
        }
        lifelab::engine::Engine::grid(&mut e).unwrap()
    };
    let g = app.status().generation;
    let kept = app.cells().unwrap();
    assert!(kept.get(5, 5) && kept.get(6, 6), "the drawn block survives");
    assert_eq!(kept, after(g), "generation {g}");
    app.command(&egui_ctx, Command::Step(4));
    assert_eq!(app.cells().unwrap(), after(g + 4));
    assert_eq!(app.status().adapter, "CPU engine (the GPU failed)");
    assert_ne!(app.status().engine, "gpu");
    // And it is autosaved at once.
    app.autosave_now();
    let saved = lifelab::app::autosave::read(&dir.join("autosave.lifelab")).unwrap();
    assert_eq!(saved.cells.population(), 9);
}

#[test]
fn unsaved_work_is_autosaved_and_offered_back_at_the_next_start() {
    let Some(ctx) = gpu() else { return };
    let egui_ctx = egui::Context::default();
    let opts = options("glider", "40x40");
    let mut first = LifelabApp::headless(Some(ctx.clone()), &egui_ctx, opts.clone()).unwrap();
    assert!(first.pending_restore().is_none());
    first.command(
        &egui_ctx,
        Command::DrawAt {
            cell: (1, 1),
            begin: true,
        },
    );
    first.command(&egui_ctx, Command::EndStroke);
    first.autosave_now();
    let work = first.cells().unwrap();
    drop(first); // a crash: no clean exit
    let mut second = LifelabApp::headless(Some(ctx), &egui_ctx, opts.clone()).unwrap();
    assert!(
        second.pending_restore().is_some(),
        "the work is offered back"
    );
    second.command(&egui_ctx, Command::RestoreAutosave);
    assert_eq!(second.cells().unwrap(), work);
    assert!(second.status().dirty, "restored work is still unsaved");
    // Discarding it removes the file.
    second.command(
        &egui_ctx,
        Command::Save {
            path: opts.data_dir.clone().unwrap().join("saved.rle"),
            format: lifelab::pattern::Format::Rle,
        },
    );
    second.settle();
    assert!(!opts.data_dir.unwrap().join("autosave.lifelab").exists());
}

#[test]
fn elementary_mode_scrolls_the_space_time_diagram() {
    let Some((mut app, ctx)) = app(options("glider", "16x16")) else {
        return;
    };
    let mut start = Grid::new(64, 1);
    start.set(32, 0, true);
    app.command(
        &ctx,
        Command::EnterElementary {
            rule: lifelab::rule::ElementaryRule(90),
            start,
            capacity: 8,
        },
    );
    app.command(&ctx, Command::Step(3));
    let rows = app.elementary_rows().unwrap().unwrap();
    // Rule 90 from one cell: generation 3 is cells 29, 31, 33, 35 (Pascal's row 3 mod 2).
    // The newest of the 8 rows kept is row 3 (generation 3 mod 8).
    let alive: Vec<u32> = (0..64).filter(|&x| rows.get(x, 3)).collect();
    assert_eq!(alive, [29, 31, 33, 35]);
}

// ---- Issue 15: undo, editing, paste, keys, info, autosave, plot, repeats, follow, hexagons.

#[test]
fn undo_and_redo_take_back_every_kind_of_change_in_order() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    let start = app.cells().unwrap();
    // A stroke, a fill, a rule change, a resize, then ten steps.
    for (i, cell) in [(2, 2), (3, 2)].into_iter().enumerate() {
        app.command(
            &ctx,
            Command::DrawAt {
                cell,
                begin: i == 0,
            },
        );
    }
    app.command(&ctx, Command::EndStroke);
    let drawn = app.cells().unwrap();
    assert_eq!(drawn.population(), 7);
    app.command(
        &ctx,
        Command::RandomFill {
            density: 1.0,
            seed: 3,
            region: Some(CellRect::new(24, 24, 4, 4)),
        },
    );
    let filled = app.cells().unwrap();
    assert_eq!(filled.population(), 7 + 16);
    app.command(&ctx, Command::SetRule("B36/S23".parse().unwrap()));
    app.command(
        &ctx,
        Command::Resize {
            width: 40,
            height: 40,
        },
    );
    let resized = app.cells().unwrap();
    assert_eq!(app.status().size, (40, 40));
    app.command(&ctx, Command::Step(10));
    let stepped = app.cells().unwrap();
    assert_eq!(app.undo_labels(), (Some("step"), None));

    // Back, one step at a time.
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), resized);
    assert_eq!(app.status().generation, 0);
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), filled);
    assert_eq!(app.status().size, (32, 32));
    assert_eq!(app.status().rule.to_string(), "B36/S23");
    app.command(&ctx, Command::Undo);
    app.settle();
    assert_eq!(app.status().rule.to_string(), "B3/S23");
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), drawn);
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), start);
    app.command(&ctx, Command::Undo);
    assert_eq!(app.notice(), Some("nothing to undo"));
    assert_eq!(app.notice_is_error(), Some(false));

    // And forward again, to the stepped torus.
    for _ in 0..5 {
        app.command(&ctx, Command::Redo);
        app.settle();
    }
    assert_eq!(app.status().size, (40, 40));
    assert_eq!(app.status().generation, 10);
    assert_eq!(app.cells().unwrap(), stepped);
    assert_eq!(app.undo_labels().1, None);
}

#[test]
fn undo_after_a_run_goes_back_to_where_it_started() {
    let Some((mut app, ctx)) = app(options("r-pentomino", "128x128")) else {
        return;
    };
    let before = app.cells().unwrap();
    run_until(
        &mut app,
        &ctx,
        lifelab::session::worker::Pace::Max,
        30,
        500,
        2,
    );
    app.settle();
    assert!(app.status().generation >= 30);
    assert_eq!(app.undo_labels().0, Some("run"));
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), before);
    assert_eq!(app.status().generation, 0);
}

/// Space and the Run button toggle the run; a run started that way is undone as one started
/// by Play (it was not recorded at all: Undo stayed grey after Run, then Run again).
#[test]
fn undo_after_a_run_toggled_on_and_off_goes_back_to_where_it_started() {
    let Some((mut app, ctx)) = app(options("r-pentomino", "128x128")) else {
        return;
    };
    let before = app.cells().unwrap();
    app.command(&ctx, Command::SetSpeed(lifelab::session::worker::Pace::Max));
    app.command(&ctx, Command::TogglePlay);
    for _ in 0..500 {
        app.tick().unwrap();
        if app.status().generation >= 30 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    app.command(&ctx, Command::TogglePlay);
    app.settle();
    assert!(app.status().generation >= 30);
    assert_eq!(app.undo_labels().0, Some("run"));
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), before);
    assert_eq!(app.status().generation, 0);
}

#[test]
fn clear_inside_and_outside_the_selection_and_delete_keys() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    let glider = glider_on(32, 32);
    let corner = CellRect::new(0, 0, 4, 4);
    app.command(
        &ctx,
        Command::RandomFill {
            density: 1.0,
            seed: 1,
            region: Some(corner),
        },
    );
    app.command(&ctx, Command::Select(Some(corner)));
    app.command(&ctx, Command::ClearOutside);
    let kept = app.cells().unwrap();
    assert_eq!(kept.population(), 16);
    assert!(kept.get(0, 0) && kept.get(3, 3));
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap().population(), 5 + 16);
    // Delete clears the selection only; Shift+Delete what is outside it.
    let shift = egui::Modifiers {
        shift: true,
        ..Default::default()
    };
    let cmds = app.keyboard(&ctx, keys(vec![key(egui::Key::Delete, Default::default())]));
    assert!(matches!(cmds[..], [Command::Clear]), "{cmds:?}");
    let cmds = app.keyboard(&ctx, keys(vec![key(egui::Key::Delete, shift)]));
    assert!(matches!(cmds[..], [Command::ClearOutside]), "{cmds:?}");
    app.command(&ctx, Command::Select(Some(corner)));
    app.command(&ctx, Command::Clear);
    assert_eq!(app.cells().unwrap(), glider);
}

/// A paste that brings its own rule lands on a new engine under that rule, as in Golly. The
/// window does not wait for the new engine: the paste follows it, and is one step for Undo.
#[test]
fn a_paste_with_its_own_rule_lands_under_it_and_is_one_undo_step() {
    let Some((mut app, ctx)) = app(options("glider", "64x64")) else {
        return;
    };
    let mut block = library::get("block").unwrap();
    block.rule = Some("B36/S23".parse().unwrap());
    app.command(
        &ctx,
        Command::Stamp {
            pattern: block,
            at: (40, 40),
        },
    );
    // The glider's 5 cells and the block's 4, under HighLife.
    assert_eq!(app.cells().unwrap().population(), 9);
    assert_eq!(app.status().rule.to_string(), "B36/S23");
    assert!(app.cells().unwrap().get(40, 40));
    assert_eq!(app.undo_labels(), (Some("paste"), None));
    app.command(&ctx, Command::Undo);
    app.settle();
    assert_eq!(app.status().rule.to_string(), "B3/S23");
    assert_eq!(app.cells().unwrap(), glider_on(64, 64));
    assert_eq!(app.undo_labels(), (None, Some("paste")));
}

#[test]
fn a_paste_floats_turns_mirrors_and_lands_where_clicked() {
    let Some((mut app, ctx)) = app(options("block", "32x32")) else {
        return;
    };
    let before = app.cells().unwrap();
    let glider = library::get("glider").unwrap();
    app.command(&ctx, Command::BeginPaste(glider.clone()));
    assert_eq!(app.floating_paste(), Some(&glider.cells));
    assert_eq!(app.notice_is_error(), Some(false));
    // The keys, in the order pressed: > turns it clockwise, X mirrors it.
    let cmds = app.keyboard(
        &ctx,
        keys(vec![
            egui::Event::Text(">".into()),
            key(egui::Key::X, Default::default()),
        ]),
    );
    for c in cmds {
        app.command(&ctx, c);
    }
    // .o.      o..    ..o
    // ..o  cw  o.o lr o.o
    // ooo      oo.    .oo
    let want = Grid::from_text("..o\no.o\n.oo");
    assert_eq!(app.floating_paste(), Some(&want));
    // Nothing changes until the click; then it lands centred on the clicked cell.
    assert_eq!(app.cells().unwrap(), before);
    app.command(&ctx, Command::PlacePaste { at: (5, 6) });
    assert!(app.floating_paste().is_none());
    let mut expected = before.clone();
    expected.combine(&want, 4, 5, |o, n| o | n);
    assert_eq!(app.cells().unwrap(), expected);
    // Undo takes the paste back; Esc drops a floating one.
    app.command(&ctx, Command::Undo);
    assert_eq!(app.cells().unwrap(), before);
    app.command(&ctx, Command::BeginPaste(glider));
    let cmds = app.keyboard(&ctx, keys(vec![key(egui::Key::Escape, Default::default())]));
    assert!(matches!(cmds[..], [Command::CancelPaste]), "{cmds:?}");
}

#[test]
fn keys_work_whatever_has_the_focus_and_tab_steps() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    // Two Tabs in one frame are one job of two steps (a second job would find the first
    // busy), and egui never sees them (it would move the focus into the widgets).
    let tab = key(egui::Key::Tab, Default::default());
    let cmds = app.keyboard(&ctx, keys(vec![tab.clone(), tab]));
    assert!(matches!(cmds[..], [Command::NextStep(2)]), "{cmds:?}");
    let shift_ctrl = egui::Modifiers {
        shift: true,
        ..ctrl()
    };
    for (event, want) in [
        // Golly's keys: Return starts and stops, Space is the next generation.
        (key(egui::Key::Enter, Default::default()), "TogglePlay"),
        (key(egui::Key::Space, Default::default()), "Step(1)"),
        (key(egui::Key::N, Default::default()), "Step(1)"),
        (key(egui::Key::Z, ctrl()), "Undo"),
        (key(egui::Key::Z, shift_ctrl), "Redo"),
        (key(egui::Key::Y, ctrl()), "Redo"),
        (key(egui::Key::A, ctrl()), "SelectAll"),
        (key(egui::Key::T, Default::default()), "SetFollow(true)"),
        (
            key(egui::Key::CloseBracket, Default::default()),
            "Zoom(2.0)",
        ),
    ] {
        let cmds = app.keyboard(&ctx, keys(vec![event]));
        assert_eq!(format!("{cmds:?}"), format!("[{want}]"));
    }
    assert!(!app.info_open());
    app.keyboard(&ctx, keys(vec![key(egui::Key::I, ctrl())]));
    assert!(app.info_open());
    assert!(!app.help_open());
    app.keyboard(&ctx, keys(vec![key(egui::Key::F1, Default::default())]));
    assert!(app.help_open());
    // Esc closes them, and Tab steps by the step size: at step 2^3, one Tab is 8
    // generations, one Space one.
    let cmds = app.keyboard(&ctx, keys(vec![key(egui::Key::Escape, Default::default())]));
    assert!(cmds.is_empty(), "{cmds:?}");
    assert!(!app.help_open() && !app.info_open());
    app.command(&ctx, Command::SetStepExponent(3));
    for c in app.keyboard(&ctx, keys(vec![key(egui::Key::Tab, Default::default())])) {
        app.command(&ctx, c);
    }
    app.settle();
    assert_eq!(app.status().generation, 8);
    for c in app.keyboard(&ctx, keys(vec![key(egui::Key::Space, Default::default())])) {
        app.command(&ctx, c);
    }
    app.settle();
    assert_eq!(app.status().generation, 9);
}

#[test]
fn readme_lists_every_shortcut_of_the_help_window() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for (keys, what) in lifelab::app::help::SHORTCUTS {
        assert!(
            readme.contains(keys),
            "README.md does not list {keys} ({what})"
        );
    }
}

/// A file opened in the window without a bounded-grid suffix lands on the unbounded plane, as
/// in Golly, whatever torus was showing; a file's own `:T` gives its torus.
#[test]
fn a_file_without_a_torus_opens_on_the_plane() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    let dir = data_dir("plane");
    let plain = dir.join("plain.rle");
    std::fs::write(&plain, "x = 3, y = 1, rule = B3/S23\n3o!\n").unwrap();
    app.command(&ctx, Command::LoadFile(plain));
    app.settle();
    assert_eq!(app.status().universe, lifelab::engine::Universe::Plane);
    assert_eq!(app.status().population, Some(3));
    let torus = dir.join("torus.rle");
    std::fs::write(&torus, "x = 3, y = 1, rule = B3/S23:T40,30\n3o!\n").unwrap();
    app.command(&ctx, Command::LoadFile(torus));
    app.settle();
    assert_eq!(
        app.status().universe,
        lifelab::engine::Universe::torus(40, 30)
    );
}

#[test]
fn pattern_info_shows_the_files_comments_and_save_keeps_them() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    let dir = data_dir("info");
    let file = dir.join("named.rle");
    std::fs::write(
        &file,
        "#N Blinker pair\n#O A. Author\n#C two blinkers\n#C period 2\nx = 5, y = 1, rule = B3/S23\n3o2bo!\n",
    )
    .unwrap();
    app.command(&ctx, Command::LoadFile(file.clone()));
    app.settle();
    let info = app.pattern_info().clone();
    assert_eq!(info.name.as_deref(), Some("Blinker pair"));
    assert_eq!(info.author.as_deref(), Some("A. Author"));
    assert_eq!(info.comments, ["two blinkers", "period 2"]);
    assert_eq!(info.format.as_deref(), Some("rle"));
    assert_eq!(app.title_text(), "lifelab — Blinker pair");
    app.command(
        &ctx,
        Command::DrawAt {
            cell: (1, 1),
            begin: true,
        },
    );
    app.command(&ctx, Command::EndStroke);
    assert_eq!(app.title_text(), "lifelab — Blinker pair *");
    let saved = dir.join("saved.rle");
    app.command(
        &ctx,
        Command::Save {
            path: saved.clone(),
            format: lifelab::pattern::Format::Rle,
        },
    );
    // Saving is a job on the worker (with progress, as a large torus takes a while).
    app.settle();
    assert!(!app.status().dirty);
    let back = lifelab::pattern::load_file(&saved).unwrap();
    assert_eq!(back.name.as_deref(), Some("Blinker pair"));
    assert_eq!(back.author.as_deref(), Some("A. Author"));
    assert!(
        back.comments.iter().any(|c| c == "two blinkers"),
        "{back:?}"
    );
    assert!(back.comments.iter().any(|c| c == "period 2"), "{back:?}");
}

#[test]
fn loading_clears_what_belonged_to_the_last_pattern() {
    let Some((mut app, ctx)) = app(options("glider", "64x64")) else {
        return;
    };
    app.command(&ctx, Command::Analyze { max_gens: 20_000 });
    let found = wait_for_findings(&mut app, 5);
    assert!(found.is_some());
    app.command(
        &ctx,
        Command::Load {
            pattern: library::get("gosper-glider-gun").unwrap(),
            source: "gosper-glider-gun".into(),
        },
    );
    app.settle();
    assert!(
        app.analysis_findings().is_none(),
        "the glider's analysis is gone"
    );
    assert!(app.title_text().contains("Gosper"), "{}", app.title_text());
    // Elementary mode: the rule box and the status line speak of the elementary rule.
    let mut start = Grid::new(64, 1);
    start.set(32, 0, true);
    app.command(
        &ctx,
        Command::EnterElementary {
            rule: lifelab::rule::ElementaryRule(90),
            start,
            capacity: 8,
        },
    );
    assert_eq!(app.notice(), None);
    assert_eq!(app.status().rule.to_string(), "W90");
    app.command(&ctx, Command::SetRule("W30".parse().unwrap()));
    assert_eq!(app.status().rule.to_string(), "W30");
}

#[test]
fn the_plot_has_the_population_of_every_generation_of_a_step_n() {
    let Some((mut app, ctx)) = app(options("r-pentomino", "64x64")) else {
        return;
    };
    app.command(&ctx, Command::Step(50));
    app.settle();
    let history = app.population_history();
    // The reference engine's populations, generation by generation.
    let mut reference =
        lifelab::cpu::ReferenceEngine::empty(lifelab::rule::Rule::life(), 64, 64, 0).unwrap();
    use lifelab::engine::Engine;
    let start = app.status();
    assert_eq!(start.generation, 50);
    let mut g = Grid::new(64, 64);
    let r = library::get("r-pentomino").unwrap().cells;
    g.paste(&r, (64 - r.width()) / 2, (64 - r.height()) / 2);
    reference.set_grid(&g, 0).unwrap();
    for g in 1..=50u64 {
        reference.step(1).unwrap();
        let want = reference.population().unwrap();
        assert!(
            history.contains(&(g, want)),
            "generation {g}: want population {want}, history {history:?}"
        );
    }
}

#[test]
fn the_status_line_says_when_the_whole_torus_repeats() {
    let Some((mut app, ctx)) = app(options("blinker", "16x16")) else {
        return;
    };
    app.command(&ctx, Command::Step(4));
    app.settle();
    assert_eq!(app.status().repeat, None, "not watched: nothing said");
    app.command(&ctx, Command::SetWatchRepeats(true));
    app.command(&ctx, Command::Step(6));
    app.settle();
    let r = app.status().repeat.expect("a blinker repeats");
    assert_eq!(r.period, 2);
    assert!(
        r.to_string()
            .starts_with("stable with period 2 since generation"),
        "{r}"
    );
    // A block is still; after an edit, the watch knows where the state began.
    app.command(&ctx, Command::Clear);
    for (i, cell) in [(4, 4), (5, 4), (4, 5), (5, 5)].into_iter().enumerate() {
        app.command(
            &ctx,
            Command::DrawAt {
                cell,
                begin: i == 0,
            },
        );
    }
    app.command(&ctx, Command::EndStroke);
    app.command(&ctx, Command::Step(3));
    app.settle();
    let r = app.status().repeat.expect("a block repeats");
    assert_eq!(r.to_string(), "still since generation 1");
    // A stochastic rule is refused with the reason.
    app.command(&ctx, Command::SetWatchRepeats(false));
    app.command(&ctx, Command::SetRule("B3/S2(1/2)3".parse().unwrap()));
    app.settle();
    app.command(&ctx, Command::SetWatchRepeats(true));
    assert!(
        app.notice().unwrap().contains("stochastic"),
        "{:?}",
        app.notice()
    );
}

#[test]
fn following_publishes_the_live_cells_box() {
    let Some((mut app, ctx)) = app(options("glider", "64x64")) else {
        return;
    };
    assert_eq!(app.status().bounds, None);
    app.command(&ctx, Command::SetFollow(true));
    app.command(&ctx, Command::Step(8));
    app.settle();
    // The glider moved two cells down and right from its centred start (30..33).
    let b = app
        .status()
        .bounds
        .expect("the box is published while following");
    assert_eq!((b.left, b.top, b.width(), b.height()), (32, 32, 3, 3));
}

#[test]
fn lifelabs_own_file_dialog_opens_when_asked() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    app.set_own_file_dialog(true);
    app.command(&ctx, Command::OpenDialog);
    assert!(app.file_dialog_open());
}

#[test]
fn a_large_torus_is_autosaved_compactly_and_restored_whole() {
    let Some(ctx) = gpu() else { return };
    let egui_ctx = egui::Context::default();
    let mut opts = options("glider", "8192x8192");
    opts.engine = "cpu".into();
    let dir = opts.data_dir.clone().unwrap();
    let mut first = LifelabApp::headless(Some(ctx.clone()), &egui_ctx, opts.clone()).unwrap();
    first.command(
        &egui_ctx,
        Command::RandomFill {
            density: 0.5,
            seed: 9,
            region: None,
        },
    );
    let work = first.cells().unwrap();
    first.autosave_now();
    drop(first);
    // About one bit per cell: 8 MiB of cells, not the 20 MiB or more of RLE.
    let size = std::fs::metadata(dir.join("autosave.lifelab"))
        .unwrap()
        .len();
    assert!(size < 9 << 20, "{size} bytes");
    let mut second = LifelabApp::headless(Some(ctx), &egui_ctx, opts).unwrap();
    assert!(second.pending_restore().is_some());
    second.command(&egui_ctx, Command::RestoreAutosave);
    assert_eq!(second.cells().unwrap(), work);
}

#[test]
fn a_long_run_keeps_points_all_along_the_plot() {
    let Some((mut app, ctx)) = app(options("r-pentomino", "96x96")) else {
        return;
    };
    // With the repeat watch on, as the census then also carries the hash.
    app.command(&ctx, Command::SetWatchRepeats(true));
    let max = lifelab::session::worker::Pace::Max;
    run_until(&mut app, &ctx, max, 200_000, 3000, 5);
    app.settle();
    let h = app.population_history();
    let last = h.last().unwrap().0;
    assert!(last >= 200_000, "{last}");
    // Thinned to a bounded number of points, but evenly: no gap wider than a few hundredths
    // of the run, and the first generations (the R-pentomino's growth) are there.
    let widest = h.windows(2).map(|w| w[1].0 - w[0].0).max().unwrap();
    assert!(
        widest <= last / 50,
        "a gap of {widest} generations in {last}: {:?}",
        &h[..h.len().min(20)]
    );
    assert!(
        h.iter().any(|&(g, _)| g > 0 && g < 200),
        "{:?}",
        &h[..h.len().min(20)]
    );
}

#[test]
fn the_plot_of_an_empty_universe_has_no_negative_populations() {
    // All zeros once drew the axis around 0, from -5 to 5.
    let mut panel = lifelab::app::panels::plot::PlotPanel::default();
    let history = [(0u64, 0u64), (1, 0), (2, 0)];
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(300.0, 300.0),
        )),
        ..Default::default()
    };
    let _ = ctx.run_ui(input(), |ui| panel.ui(ui, &history));
    let shapes = ctx.run_ui(input(), |ui| panel.ui(ui, &history)).shapes;
    let shown = texts(&shapes);
    let numbers: Vec<f64> = shown.iter().filter_map(|t| t.trim().parse().ok()).collect();
    assert!(numbers.len() >= 4, "the axes have numbers: {shown:?}");
    assert!(
        numbers.iter().all(|&n| n >= 0.0),
        "no negative marks: {shown:?}"
    );
}

#[test]
fn undoing_a_long_run_puts_the_plot_back_as_it_was() {
    // A run of 50000 generations thins the plot's early points; undoing it once drew a straight
    // line from generation 0 to where the run started.
    let Some((mut app, ctx)) = app(options("r-pentomino", "96x96")) else {
        return;
    };
    app.command(&ctx, Command::Step(30));
    app.settle();
    let before = app.population_history();
    assert_eq!(before.len(), 31, "every generation of the step: {before:?}");
    run_until(
        &mut app,
        &ctx,
        lifelab::session::worker::Pace::Max,
        50_000,
        3000,
        5,
    );
    app.settle();
    assert!(app.status().generation >= 50_000);
    app.command(&ctx, Command::Undo);
    app.settle();
    assert_eq!(app.status().generation, 30);
    assert_eq!(app.population_history(), before);
}

/// `auto` chooses per job, as the session owns the engine between jobs: Go to a million
/// generations jumps on HashLife, and a run watched generation by generation goes back to the
/// tile engine. Acorn on the plane has 633 cells from generation 5206 on (its 13 gliders
/// included), whatever engine runs it (LifeWiki).
#[test]
fn auto_takes_hashlife_for_a_long_go_to_and_the_tile_engine_for_a_run() {
    let mut o = options("acorn", "64x64");
    o.size = None;
    o.plane = true;
    o.data_dir = Some(data_dir("acorn-auto-per-job"));
    let Some((mut app, ctx)) = app(o) else {
        return;
    };
    app.settle();
    assert_eq!(app.status().engine, "tiles");
    app.command(&ctx, Command::GoTo(1_000_000));
    app.settle();
    let s = app.status();
    assert_eq!((s.generation, s.population), (1_000_000, Some(633)));
    assert_eq!(s.engine, "hashlife");
    assert!(
        s.engine_reason
            .contains("a long jump of 1000000 generations"),
        "{}",
        s.engine_reason
    );
    // A second go-to on the same engine: the reason is the new job's.
    app.command(&ctx, Command::GoTo(1_100_000));
    app.settle();
    let s = app.status();
    assert_eq!((s.generation, s.population), (1_100_000, Some(633)));
    assert_eq!(s.engine, "hashlife");
    assert!(
        s.engine_reason
            .contains("a long jump of 100000 generations"),
        "{}",
        s.engine_reason
    );
    // A run at a pace, one generation at a time: the tile engine again, from where it was.
    app.command(&ctx, Command::SetStepExponent(0));
    run_until(
        &mut app,
        &ctx,
        lifelab::session::pace::Pace::Max,
        1_100_010,
        2000,
        2,
    );
    app.settle();
    let s = app.status();
    assert_eq!(s.engine, "tiles");
    assert!(s.generation >= 1_100_010);
    assert_eq!(s.population, Some(633));
    // Undo goes back to before the run, then to before each go-to, on whatever engine.
    app.command(&ctx, Command::Undo);
    app.settle();
    assert_eq!(app.status().generation, 1_100_000);
    app.command(&ctx, Command::Undo);
    app.settle();
    assert_eq!(app.status().generation, 1_000_000);
    app.command(&ctx, Command::Undo);
    app.settle();
    assert_eq!(app.status().generation, 0);
    assert_eq!(app.status().population, Some(7));
}

/// A Generations file opens on its board, steps with its dying states, and Undo brings every
/// state back.
#[test]
fn a_generations_file_runs_with_its_states_and_undo_restores_them() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    let dir = data_dir("generations");
    let file = dir.join("row.mcl");
    std::fs::write(
        &file,
        "#MCell 4.20\n#GAME Generations\n#RULE 2367/3457/5\n#BOARD 20x10\n#WRAP 0\n#L 3A\n",
    )
    .unwrap();
    app.command(&ctx, Command::LoadFile(file));
    app.settle();
    assert_eq!(
        app.status().universe,
        lifelab::engine::Universe::Bounded {
            width: 20,
            height: 10,
            edges: lifelab::geometry::Edges::Plane,
        }
    );
    // Golly puts the row of three at (9, 5) on a 20x10 board: (20 + 1 - 3) / 2, (10 + 1 - 1) / 2.
    let start = app.tiles().unwrap();
    assert_eq!(
        (start.state(9, 5), start.state(10, 5), start.state(11, 5)),
        (1, 1, 1)
    );
    // One generation: the middle survives (two neighbours), the ends start dying (state 2),
    // and the cells above and below the middle are born (three neighbours).
    app.command(&ctx, Command::Step(1));
    let one = app.tiles().unwrap();
    assert_eq!(app.status().population, Some(5));
    assert_eq!(
        (one.state(9, 5), one.state(10, 5), one.state(11, 5)),
        (2, 1, 2)
    );
    assert_eq!((one.state(10, 4), one.state(10, 6)), (1, 1));
    app.command(&ctx, Command::Step(3));
    assert_ne!(app.tiles().unwrap(), one);
    app.command(&ctx, Command::Undo);
    assert_eq!(
        app.tiles().unwrap(),
        one,
        "Undo brings the dying states back"
    );
    assert_eq!(app.status().generation, 1);
}

/// bgolly's population of Golly's `file` at generation `gens` (RuleLoader, Golly's rules).
fn golly_population(file: &str, gens: u64) -> u64 {
    let out = std::process::Command::new("bgolly")
        .args(["-a", "RuleLoader", "-s", "/usr/share/golly/Rules/", "-m"])
        .arg(gens.to_string())
        .arg(file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    last.split(':')
        .nth(1)
        .and_then(|p| p.trim().replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("bgolly: {text}"))
}

/// A long go-to of a rule file's pattern whose future never repeats (Golly's Margolus/DLA, a
/// random walk that sticks) tries both engines, as the command line does, and goes on tile by
/// tile: HashLife would make a node for nearly every block. The population is bgolly's.
#[test]
fn a_long_go_to_of_a_rule_file_s_gas_stays_tile_by_tile() {
    let file = "/usr/share/golly/Patterns/Margolus/DLA.rle";
    if !common::golly_installed("/usr/share/golly/Patterns") {
        return;
    }
    let mut o = options(file, "64x64");
    o.size = None;
    o.data_dir = Some(data_dir("dla-go-to"));
    let Some((mut app, ctx)) = app(o) else {
        return;
    };
    app.settle();
    app.command(&ctx, Command::GoTo(2000));
    app.settle();
    let s = app.status();
    assert_eq!(s.generation, 2000);
    assert_eq!(s.engine, "rule-tree", "{}", s.engine_reason);
    // bgolly -a RuleLoader -s /usr/share/golly/Rules/ -m 2000 Margolus/DLA.rle
    assert_eq!(s.population, Some(golly_population(file, 2000)));
}

/// A rule file's pattern (the library's WireWorld diodes, whose rule rides in the file): a
/// long go-to jumps on HashLife over N states, a run goes back to the rule-tree engine. A
/// WireWorld cell never turns empty nor comes from nothing, so the population stays the
/// pattern's 54 cells of wire, however the electrons move.
#[test]
fn auto_takes_n_state_hashlife_for_a_long_go_to_of_a_rule_file() {
    let mut o = options("wireworld-diodes", "64x64");
    o.size = None;
    o.plane = true;
    o.data_dir = Some(data_dir("wireworld-auto-per-job"));
    let Some((mut app, ctx)) = app(o) else {
        return;
    };
    app.settle();
    assert_eq!(app.status().engine, "rule-tree");
    assert_eq!(app.status().population, Some(54));
    app.command(&ctx, Command::GoTo(100_000));
    app.settle();
    let s = app.status();
    assert_eq!((s.generation, s.population), (100_000, Some(54)));
    assert_eq!(s.engine, "rule-hashlife");
    app.command(&ctx, Command::SetStepExponent(0));
    run_until(
        &mut app,
        &ctx,
        lifelab::session::pace::Pace::Max,
        100_010,
        2000,
        2,
    );
    app.settle();
    assert_eq!(app.status().engine, "rule-tree");
    app.command(&ctx, Command::Undo);
    app.settle();
    app.command(&ctx, Command::Undo);
    app.settle();
    assert_eq!(app.status().generation, 0);
    assert_eq!(app.status().population, Some(54));
}

#[test]
fn the_census_panel_counts_lifelibs_objects_and_opens_a_soup_on_the_plane() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    app.census.soups = "40".into();
    app.census.start();
    let job = app.census.job.as_mut().unwrap();
    let t = std::time::Instant::now();
    while job.running() && t.elapsed().as_secs() < 60 {
        job.poll();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let haul = job.haul().unwrap();
    assert_eq!(haul.soups(), 40);
    // lifelib's classifier for soups k_lifelab_0 to k_lifelab_39 (tests/data/census).
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/census/lifelib_b3s23_C1_k_lifelab_.txt"),
    )
    .unwrap();
    let mut want: std::collections::BTreeMap<String, u64> = Default::default();
    for line in text.lines().filter(|l| !l.starts_with('#')).take(40) {
        for o in line.split_whitespace().skip(2) {
            let (code, n) = o.split_once('*').unwrap();
            *want.entry(code.to_string()).or_default() += n.parse::<u64>().unwrap();
        }
    }
    assert_eq!(haul.counts, want);
    // A bad field is said in the panel, and nothing starts.
    app.census.job = None;
    app.census.soups = "5..2".into();
    app.census.start();
    assert!(app.census.job.is_none());
    assert!(
        app.census
            .error
            .as_deref()
            .unwrap()
            .contains("holds no soups")
    );
    // The panel's Open: lifelib's hashsoup("k_test0", "C1") has 131 cells.
    app.command(&ctx, Command::LoadFile("census:C1:k_test:0".into()));
    app.settle();
    assert_eq!(app.status().universe, lifelab::engine::Universe::Plane);
    assert_eq!(app.status().population, Some(131));
}

#[test]
fn switching_the_torus_to_the_plane_keeps_the_plot_and_reset_goes_back_to_the_start() {
    let Some((mut app, ctx)) = app(options("glider", "64x64")) else {
        return;
    };
    let start: Vec<(i64, i64)> = {
        let mut c: Vec<_> = app.tiles().unwrap().cells().collect();
        c.sort();
        c
    };
    assert_eq!(start.len(), 5);
    app.command(&ctx, Command::Step(100));
    app.settle();
    let plot = app.population_history();
    assert_eq!(plot.last(), Some(&(100, 5)));
    // To the plane: the cells go over as they are, the plot stays, and Undo takes it back.
    app.command(&ctx, Command::SetPlane(true));
    app.settle();
    assert_eq!(app.status().universe, lifelab::engine::Universe::Plane);
    assert_eq!(app.status().generation, 100);
    assert_eq!(app.status().population, Some(5));
    assert_eq!(app.population_history(), plot);
    // A glider moves (1, 1) every 4 generations: 25 cells down and right of the start.
    let mut now: Vec<_> = app.tiles().unwrap().cells().collect();
    now.sort();
    let moved: Vec<_> = start.iter().map(|&(x, y)| (x + 25, y + 25)).collect();
    assert_eq!(now, moved);
    // Reset goes back to the pattern's start, on the plane.
    app.command(&ctx, Command::Reset);
    app.settle();
    assert_eq!(app.status().universe, lifelab::engine::Universe::Plane);
    assert_eq!(app.status().generation, 0);
    let mut back: Vec<_> = app.tiles().unwrap().cells().collect();
    back.sort();
    assert_eq!(back, start);
    // R, the key, does the same after a run on the plane.
    app.command(&ctx, Command::Step(8));
    let cmds = app.keyboard(&ctx, keys(vec![key(egui::Key::R, Default::default())]));
    for c in cmds {
        app.command(&ctx, c);
    }
    app.settle();
    assert_eq!(app.status().generation, 0);
    // Undo goes back through the resets and the step, then takes back the switch: to the
    // torus at generation 100.
    let mut undone = 0;
    while app.status().universe == lifelab::engine::Universe::Plane && undone < 6 {
        app.command(&ctx, Command::Undo);
        app.settle();
        undone += 1;
    }
    assert_eq!(
        app.status().universe,
        lifelab::engine::Universe::torus(64, 64)
    );
    assert_eq!(app.status().generation, 100);
}

#[test]
fn the_discard_prompt_names_what_would_be_lost() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    app.command(
        &ctx,
        Command::RandomFill {
            density: 0.3,
            seed: 7,
            region: None,
        },
    );
    app.settle();
    let acorn = library::get("acorn").unwrap();
    let load = Command::Load {
        pattern: acorn,
        source: "acorn".into(),
    };
    app.command(&ctx, load.clone());
    assert!(app.is_asking_to_discard());
    let q = app.discard_question();
    assert!(q.contains("a random fill"), "{q}");
    assert!(!q.contains("drew") && !q.contains("drawn"), "{q}");
    app.command(&ctx, Command::CancelDiscard);
    // A stroke after it: both are named.
    stroke(&mut app, &ctx, (1, 1));
    app.command(&ctx, load);
    let q = app.discard_question();
    assert!(q.contains("a random fill and drawn cells"), "{q}");
    // Discarding leaves nothing to name.
    app.command(&ctx, Command::ConfirmDiscard);
    app.settle();
    assert!(!app.status().dirty);
}

#[test]
fn reset_returns_to_the_patterns_start_until_the_user_moves_it() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    let start = glider_on(32, 32);
    // Two runs, paused in between: Reset goes back to generation 0, not where the second
    // run started (Golly).
    app.command(&ctx, Command::Step(8));
    app.settle();
    app.command(&ctx, Command::Play);
    app.command(&ctx, Command::Pause);
    app.settle();
    app.command(&ctx, Command::Step(4));
    app.settle();
    let g = app.status().generation;
    assert!(g >= 12, "{g}");
    app.command(&ctx, Command::Reset);
    app.settle();
    assert_eq!(app.status().generation, 0);
    assert_eq!(app.cells().unwrap(), start);
    // An edit at the start's generation is part of the pattern: Reset keeps it.
    stroke(&mut app, &ctx, (2, 2));
    let mut drawn = start.clone();
    drawn.set(2, 2, true);
    app.command(&ctx, Command::Step(4));
    app.command(&ctx, Command::Reset);
    assert_eq!(app.cells().unwrap(), drawn);
    // An edit later on is not: Reset goes back to generation 0 without it.
    app.command(&ctx, Command::Step(4));
    stroke(&mut app, &ctx, (20, 20));
    app.command(&ctx, Command::Reset);
    app.settle();
    assert_eq!(app.status().generation, 0);
    assert_eq!(app.cells().unwrap(), drawn);
    // Set as start moves it: to generation 4 with the cell at (20, 20).
    app.command(&ctx, Command::Step(4));
    stroke(&mut app, &ctx, (20, 20));
    app.settle();
    let set = app.cells().unwrap();
    app.command(&ctx, Command::SetAsStart);
    app.command(&ctx, Command::Step(10));
    app.command(&ctx, Command::Reset);
    app.settle();
    assert_eq!(app.status().generation, 4);
    assert_eq!(app.cells().unwrap(), set);
}

/// A stroke of one cell, as a click draws it.
fn stroke(app: &mut LifelabApp, ctx: &egui::Context, cell: (i64, i64)) {
    app.command(ctx, Command::DrawAt { cell, begin: true });
    app.command(ctx, Command::EndStroke);
}

#[test]
fn reset_puts_back_the_starts_rule_as_golly_does() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    let life = lifelab::rule::Rule::life();
    let highlife = lifelab::rule::Rule::parse("B36/S23").unwrap();
    // A rule changed after the start: Reset goes back to Life as well as to generation 0.
    app.command(&ctx, Command::Step(4));
    app.settle();
    app.command(&ctx, Command::SetRule(highlife));
    app.settle();
    assert_eq!(app.status().rule, highlife);
    app.command(&ctx, Command::Step(4));
    app.command(&ctx, Command::Reset);
    app.settle();
    assert_eq!(app.status().rule, life);
    assert_eq!(app.status().generation, 0);
    assert_eq!(app.cells().unwrap(), glider_on(32, 32));
    // Going to an earlier generation runs forward in the start's rule: a glider is 5 cells
    // at every generation in Life.
    app.command(&ctx, Command::Step(8));
    app.settle();
    app.command(&ctx, Command::SetRule(highlife));
    app.settle();
    app.command(&ctx, Command::GoTo(6));
    app.settle();
    assert_eq!(app.status().rule, life);
    assert_eq!(app.status().generation, 6);
    assert_eq!(app.status().population, Some(5));
    // A rule chosen at the start's generation is the pattern's own: Reset keeps it.
    app.command(&ctx, Command::Reset);
    app.settle();
    app.command(&ctx, Command::SetRule(highlife));
    app.settle();
    app.command(&ctx, Command::Step(4));
    app.command(&ctx, Command::Reset);
    app.settle();
    assert_eq!(app.status().rule, highlife);
}

#[test]
fn undoing_back_to_the_opened_state_leaves_nothing_unsaved() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    assert!(!app.status().dirty);
    // A run is no edit, and neither is undoing it.
    app.command(&ctx, Command::Step(10));
    app.settle();
    assert!(!app.status().dirty);
    app.command(&ctx, Command::Undo);
    app.settle();
    assert_eq!(app.status().generation, 0);
    assert!(!app.status().dirty, "undoing a run left unsaved edits");
    // A stroke undone is the state opened again; redone, it is unsaved again, by name.
    stroke(&mut app, &ctx, (2, 2));
    app.settle();
    assert!(app.status().dirty);
    app.command(&ctx, Command::Undo);
    app.settle();
    assert!(!app.status().dirty, "back at the file's state");
    app.command(&ctx, Command::Redo);
    app.settle();
    assert!(app.status().dirty);
    assert!(app.discard_question().contains("drawn cells"));
    // A rule change is an edit (Golly asks before losing it); undone, it is gone.
    app.command(&ctx, Command::Undo);
    app.command(
        &ctx,
        Command::SetRule(lifelab::rule::Rule::parse("B36/S23").unwrap()),
    );
    app.settle();
    assert!(app.discard_question().contains("a rule change"));
    app.command(&ctx, Command::Undo);
    app.settle();
    assert!(!app.status().dirty);
}

#[test]
fn analyze_runs_on_the_users_own_torus() {
    let Some((mut app, ctx)) = app(options("acorn", "64x64")) else {
        return;
    };
    app.command(&ctx, Command::Analyze { max_gens: 20_000 });
    let findings = wait_for_findings(&mut app, 60).expect("the analysis answers");
    assert!(
        findings.iter().any(|l| l.contains("64x64 torus")),
        "{findings:?}"
    );
    assert!(
        !findings.iter().any(|l| l.contains("16384")),
        "{findings:?}"
    );
}

#[test]
fn a_long_go_to_leaves_the_plot_hundreds_of_points() {
    let mut o = options("acorn", "64x64");
    o.plane = true;
    o.data_dir = Some(data_dir("long-go-to"));
    let Some((mut app, ctx)) = app(o) else {
        return;
    };
    app.command(&ctx, Command::GoTo(1_000_000));
    app.settle();
    assert_eq!(app.status().generation, 1_000_000);
    let plot = app.population_history();
    assert!(plot.len() >= 200, "{} points", plot.len());
    // Acorn settles at generation 5206 with 633 cells, its 13 gliders included (LifeWiki).
    for &(g, p) in plot.iter().filter(|(g, _)| *g >= 5206) {
        assert_eq!(p, 633, "generation {g}");
    }
    assert_eq!(plot.last(), Some(&(1_000_000, 633)));
}

/// A rule typed with Golly's tube suffix takes the cells onto that tube (it was dropped, and
/// the rule ran on the universe shown): a glider on a tube 20 cells round comes back round to
/// where it was after 80 generations, five cells at every one.
#[test]
fn a_rule_with_a_tube_moves_the_cells_onto_the_tube() {
    let Some((mut app, ctx)) = app(options("glider", "32x32")) else {
        return;
    };
    app.command(&ctx, Command::SetRule("B3/S23:T0,20".parse().unwrap()));
    app.settle();
    let status = app.status();
    assert_eq!(
        status.universe,
        lifelab::engine::Universe::Tube(lifelab::geometry::Tube::Wide { height: 20 })
    );
    assert_eq!(status.rule, lifelab::rule::Rule::life());
    app.command(&ctx, Command::Step(80));
    app.settle();
    assert_eq!(app.status().population, Some(5));
}
