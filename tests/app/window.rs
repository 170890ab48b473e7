//! The real window under Xvfb: screenshots looked at pixel by pixel.

use super::*;

#[test]
fn the_window_shows_a_glider_at_the_expected_pixels() {
    if gpu().is_none() {
        return;
    }
    let Some(display) = display() else { return };
    for gens in [0u64, 4] {
        let (image, info) = screenshot(
            &display,
            &[
                "--pattern",
                "glider",
                "--size",
                "16x16",
                "--zoom",
                "24",
                "--after-gens",
                &gens.to_string(),
            ],
            &format!("glider{gens}"),
        );
        assert_eq!(info["generation"], gens);
        assert_eq!(info["population"], 5);
        // Not blank: the panels, the grid and the cells make many colours.
        let mut colours: Vec<[u8; 4]> = image.pixels().map(|p| p.0).collect();
        colours.sort_unstable();
        colours.dedup();
        assert!(colours.len() > 50, "{} colours", colours.len());
        // Every cell of the glider is drawn live at its pixel, and its neighbourhood is dead.
        let glider = glider_on(16, 16).translated(gens as i64 / 4, gens as i64 / 4);
        for y in 0..16 {
            for x in 0..16 {
                let (px, py) = cell_centre(&info, x, y);
                let p = image.get_pixel(px, py);
                assert_eq!(
                    is_live(p),
                    glider.get(x, y),
                    "cell ({x}, {y}) at pixel ({px}, {py}): {p:?}"
                );
            }
        }
    }
}

#[test]
fn zoomed_out_pixels_shade_the_live_fraction() {
    if gpu().is_none() {
        return;
    }
    let Some(display) = display() else { return };
    // Half the cells of a 2048x2048 soup live; at 1 point per 8 cells each pixel covers 64 of
    // them, so it is drawn between the dead and the live colour.
    let (image, info) = screenshot(
        &display,
        &[
            "--random",
            "0.5",
            "--size",
            "2048x2048",
            "--zoom",
            "0.125",
            "--after-gens",
            "0",
        ],
        "soup",
    );
    let population = info["population"].as_u64().unwrap() as f64;
    assert!((population / (2048.0 * 2048.0) - 0.5).abs() < 0.01);
    // The torus is drawn once, 256 pixels square: sample inside it.
    let (x0, y0) = cell_centre(&info, 0, 0);
    let mut reds = Vec::new();
    for y in (y0 + 8..y0 + 248).step_by(7) {
        for x in (x0 + 8..x0 + 248).step_by(11) {
            reds.push(image.get_pixel(x, y)[0] as f64);
        }
    }
    let mean = reds.iter().sum::<f64>() / reds.len() as f64;
    // A block with a live cell is at least 0.45 of the way from the dead colour to the live
    // one, and the rest of the way by the square root of its live fraction: 0.45 + 0.55 *
    // sqrt(0.5) = 0.839 of the way from dead red 0.06 to live red 1.0 is 0.849, or 216.
    assert!((mean - 216.0).abs() < 20.0, "mean red {mean}");
}

#[test]
fn without_an_adapter_the_window_runs_on_the_cpu_and_says_so() {
    // wgpu built without Metal finds no adapter for WGPU_BACKEND=metal on Linux: the same
    // state as a machine with no GPU driver. The window must still simulate and draw.
    let Some(display) = display() else { return };
    let (image, info) = screenshot_env(
        &display,
        &[
            "--pattern",
            "glider",
            "--size",
            "16x16",
            "--zoom",
            "24",
            "--after-gens",
            "4",
        ],
        "cpu-mode",
        &[("WGPU_BACKEND", "metal")],
    );
    assert_eq!(info["cpu_mode"], true);
    assert_eq!(info["generation"], 4);
    assert_eq!(info["population"], 5);
    let glider = glider_on(16, 16).translated(1, 1);
    for y in 0..16 {
        for x in 0..16 {
            let (px, py) = cell_centre(&info, x, y);
            let p = image.get_pixel(px, py);
            assert_eq!(
                is_live(p),
                glider.get(x, y),
                "cell ({x}, {y}) at pixel ({px}, {py}): {p:?}"
            );
        }
    }
    // The banner, filled with (120, 90, 10), sits just above the view (a few points of
    // spacing between them).
    let v = &info["view"]["rect"];
    let (x0, y0) = (v[0].as_f64().unwrap() as u32, v[1].as_f64().unwrap() as u32);
    let above: Vec<[u8; 3]> = (y0 - 20..y0)
        .map(|y| {
            let p = image.get_pixel(x0 + 3, y).0;
            [p[0], p[1], p[2]]
        })
        .collect();
    assert!(above.contains(&[120, 90, 10]), "above the view: {above:?}");
}

#[test]
fn the_space_time_diagram_is_one_bounded_picture_with_the_newest_row_at_the_bottom() {
    if gpu().is_none() {
        return;
    }
    let Some(display) = display() else { return };
    // On the GPU viewer and on the CPU one (no adapter).
    for (name, env) in [
        ("w90-gpu", vec![]),
        ("w90-cpu", vec![("WGPU_BACKEND", "metal")]),
    ] {
        let (image, info) = screenshot_env(
            &display,
            &["--rule", "W90", "--size", "65", "--after-gens", "8"],
            name,
            &env,
        );
        assert_eq!(info["mode"], "elementary", "{name}");
        assert_eq!(info["generation"], 8, "{name}");
        let v = &info["view"];
        let f = |p: &serde_json::Value, i: usize| p[i].as_f64().unwrap();
        let (rx, ry) = (f(&v["rect"], 0), f(&v["rect"], 1));
        let (ox, oy) = (f(&v["origin"], 0), f(&v["origin"], 1));
        let ppc = v["pixels_per_cell"].as_f64().unwrap();
        let rows = f(&v["torus"], 1) as u64;
        let newest = info["ring_newest"].as_u64().unwrap();
        // No wrapping: cell (x, row) is at one place only.
        let pixel = |x: f64, row: f64| {
            let p = image.get_pixel(
                (rx + (x + 0.5 - ox) * ppc) as u32,
                (ry + (row + 0.5 - oy) * ppc) as u32,
            );
            [p[0], p[1], p[2]]
        };
        // Rule 90 from one cell (the ring's centre, 32): generation g is row g of Pascal's
        // triangle mod 2, cells 32 - g + 2j for the odd C(g, j) (Lucas: j & (g - j) == 0).
        for g in 0..=8u64 {
            let row = ((g + rows - newest - 1) % rows) as f64;
            for x in 0..65u64 {
                let j = (x + g)
                    .checked_sub(32)
                    .filter(|d| d % 2 == 0)
                    .map(|d| d / 2);
                let alive = j.is_some_and(|j| j <= g && j & (g - j) == 0);
                let p = pixel(x as f64, row);
                assert_eq!(
                    is_live(&image::Rgba([p[0], p[1], p[2], 255])),
                    alive,
                    "{name}: generation {g}, cell {x}: {p:?}"
                );
            }
        }
        // The newest generation is the bottom row, and left of the picture and above it is the
        // panel's colour (view_render::OUTSIDE, 0.106 of 255), not another copy of the ring.
        assert_eq!((8 + rows - newest - 1) % rows, rows - 1);
        for (x, row) in [(-3.0, rows as f64 - 1.0), (70.0, 5.0)] {
            assert_eq!(
                pixel(x, row),
                [27, 27, 27],
                "{name}: outside at ({x}, {row})"
            );
        }
    }
}

#[test]
fn hexagonal_rules_are_drawn_as_hexagons_around_each_cell() {
    let Some(display) = display() else { return };
    let dir = data_dir("hex-window");
    let file = dir.join("one.rle");
    // One live cell under a hexagonal rule, centred on a 16x16 torus: at (7, 7).
    std::fs::write(&file, "x = 1, y = 1, rule = B2/S34H:T16,16\no!\n").unwrap();
    let (image, info) = screenshot(
        &display,
        &[
            "--pattern",
            file.to_str().unwrap(),
            "--zoom",
            "32",
            "--after-gens",
            "0",
        ],
        "hexagons",
    );
    let v = &info["view"];
    assert_eq!(v["hex"], true);
    let f = |p: &serde_json::Value, i: usize| p[i].as_f64().unwrap();
    let (rx, ry, rw, rh) = (
        f(&v["rect"], 0),
        f(&v["rect"], 1),
        f(&v["rect"], 2),
        f(&v["rect"], 3),
    );
    let (ox, oy) = (f(&v["origin"], 0), f(&v["origin"], 1));
    let ppc = v["pixels_per_cell"].as_f64().unwrap();
    // The side panel has a fixed width: the view starts at 300 points.
    assert_eq!(rx, 300.0);
    // Where the centre of cell (x, y) is drawn: each row half a cell left of the row above,
    // rows sqrt(3)/2 apart, in the one copy of the torus drawn, the 16x16 cells centred on
    // the cell at the view's centre.
    let row = 3f64.sqrt() / 2.0;
    let mid_y = (oy + rh / 2.0 / ppc) / row;
    let mid_x = ox + rw / 2.0 / ppc + mid_y / 2.0;
    let (copy_x, copy_y) = ((mid_x - 8.0).round(), (mid_y - 8.0).round());
    let centre = |x: f64, y: f64| -> (u32, u32) {
        let cx = copy_x + (x - copy_x).rem_euclid(16.0) + 0.5;
        let cy = copy_y + (y - copy_y).rem_euclid(16.0) + 0.5;
        let px = rx + (cx - cy / 2.0 - ox) * ppc;
        let py = ry + (cy * row - oy) * ppc;
        assert!(
            px > rx + ppc && py > ry + ppc && px < rx + rw - ppc && py < ry + rh - ppc,
            "({x}, {y}) is drawn outside the view"
        );
        (px as u32, py as u32)
    };
    let live = |(px, py): (u32, u32)| is_live(image.get_pixel(px, py));
    assert!(live(centre(7.0, 7.0)), "the cell's hexagon is live");
    // Its six hexagonal neighbours touch it and are dead.
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)] {
        let c = centre(7.0 + dx as f64, 7.0 + dy as f64);
        assert!(!live(c), "neighbour ({dx}, {dy}) at {c:?}");
    }
    // Halfway from the cell's centre towards each neighbour's is still the cell (the
    // hexagons tile with no gaps): a square grid would put (1, 1)'s direction in a corner.
    let (x0, y0) = centre(7.0, 7.0);
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)] {
        let (x1, y1) = centre(7.0 + dx as f64, 7.0 + dy as f64);
        let mid = ((x0 * 3 + x1) / 4, (y0 * 3 + y1) / 4);
        assert!(live(mid), "a quarter of the way to ({dx}, {dy}): {mid:?}");
    }
}

#[test]
fn a_mistyped_adapter_name_opens_in_cpu_mode_and_says_which() {
    let Some(display) = display() else { return };
    let (_, info) = screenshot_env(
        &display,
        &[
            "--pattern",
            "glider",
            "--size",
            "16x16",
            "--after-gens",
            "1",
        ],
        "mistyped-adapter",
        &[("LIFELAB_ADAPTER", "no-such-gpu")],
    );
    assert_eq!(info["cpu_mode"], true);
    let text = info["cpu_mode_text"].as_str().unwrap();
    assert!(text.contains("no-such-gpu"), "{text}");
    assert_eq!(info["generation"], 1);
}

/// The view's pixels, with their coordinates, below the top rows where the coordinate label sits.
fn view_pixels(image: &image::RgbaImage, info: &serde_json::Value) -> Vec<(u32, u32, [u8; 3])> {
    let r = &info["view"]["rect"];
    let f = |i: usize| r[i].as_f64().unwrap() as u32;
    let (x0, y0, w, h) = (f(0), f(1), f(2), f(3));
    let mut out = Vec::new();
    for y in y0 + 30..y0 + h {
        for x in x0..x0 + w {
            let p = image.get_pixel(x, y).0;
            out.push((x, y, [p[0], p[1], p[2]]));
        }
    }
    out
}

#[test]
fn zoomed_out_a_lone_glider_lights_its_pixel_and_the_torus_is_drawn_once() {
    if gpu().is_none() {
        return;
    }
    let Some(display) = display() else { return };
    // One glider on a 2048x2048 torus at 1 pixel per 32 cells: 5 live cells among the 1024
    // of its pixel's block. The torus is 64 pixels square and drawn once, in a frame.
    for (name, env) in [
        ("lone-glider-gpu", vec![]),
        ("lone-glider-cpu", vec![("WGPU_BACKEND", "metal")]),
    ] {
        let (image, info) = screenshot_env(
            &display,
            &[
                "--pattern",
                "glider",
                "--size",
                "2048x2048",
                "--zoom",
                "0.03125",
                "--after-gens",
                "0",
            ],
            name,
            &env,
        );
        assert_eq!(info["population"], 5, "{name}");
        let pixels = view_pixels(&image, &info);
        const DEAD: [u8; 3] = [15, 17, 22];
        const FRAME: [u8; 3] = [51, 114, 216];
        const PANEL: [u8; 3] = [27, 27, 27];
        // A lit pixel is warm and bright enough to see: at least 0.45 of the way to live.
        let warm = |p: [u8; 3]| p[0] > 100 && p[0] as u32 > p[2] as u32 + 50;
        let lit: Vec<_> = pixels.iter().filter(|&&(_, _, p)| warm(p)).collect();
        assert!(!lit.is_empty(), "{name}: the glider's pixel is not lit");
        // The glider sits at the torus's centre, cell (1024, 1024) give or take its size.
        let (cx, cy) = cell_centre(&info, 1024, 1024);
        for &&(x, y, p) in &lit {
            assert!(p[0] >= 120, "{name}: lit pixel ({x}, {y}) is dim: {p:?}");
            assert!(
                x.abs_diff(cx) <= 2 && y.abs_diff(cy) <= 2,
                "{name}: lit pixel ({x}, {y}) is not at the glider ({cx}, {cy})"
            );
        }
        // One copy of the torus: 64x64 pixels of cells (65 where a block straddles an edge),
        // framed by a line one pixel wide; everything else is the panel.
        let cells = pixels
            .iter()
            .filter(|&&(_, _, p)| p == DEAD || warm(p))
            .count();
        assert!(
            (64 * 64..=65 * 65).contains(&cells),
            "{name}: {cells} cell pixels"
        );
        let frame = pixels.iter().filter(|&&(_, _, p)| p == FRAME).count();
        assert!((256..=528).contains(&frame), "{name}: {frame} frame pixels");
        let others: Vec<_> = pixels
            .iter()
            .filter(|&&(_, _, p)| p != DEAD && p != FRAME && !warm(p))
            .collect();
        let panel = others.iter().filter(|&&&(_, _, p)| p == PANEL).count();
        assert_eq!(
            panel,
            others.len(),
            "{name}: not the panel: {:?}",
            others.iter().find(|&&&(_, _, p)| p != PANEL)
        );
        // The view is far larger than one copy, so a tiled torus could not hide.
        assert!(panel > 50 * cells, "{name}: {panel} panel pixels");
    }
}

#[test]
fn zoomed_in_live_cells_keep_a_gap_and_the_grid_lines_turn_off() {
    if gpu().is_none() {
        return;
    }
    let Some(display) = display() else { return };
    const DEAD: [u8; 3] = [15, 17, 22];
    for (view, env) in [("gpu", vec![]), ("cpu", vec![("WGPU_BACKEND", "metal")])] {
        for grid in [true, false] {
            let name = format!("gaps-{view}-{grid}");
            let mut args = vec![
                "--pattern",
                "glider",
                "--size",
                "16x16",
                "--zoom",
                "16",
                "--after-gens",
                "0",
            ];
            if !grid {
                args.push("--no-grid");
            }
            let (image, info) = screenshot_env(&display, &args, &name, &env);
            // The glider's bottom row, cells (6, 8), (7, 8) and (8, 8): between two live
            // neighbours' centres, exactly one pixel column is not live, the gap.
            let (ax, y) = cell_centre(&info, 6, 8);
            let (bx, _) = cell_centre(&info, 7, 8);
            let between: Vec<[u8; 3]> = (ax..=bx)
                .map(|x| image.get_pixel(x, y).0)
                .filter(|p| !is_live(&image::Rgba(*p)))
                .map(|p| [p[0], p[1], p[2]])
                .collect();
            assert_eq!(between.len(), 1, "{name}: {between:?}");
            if grid {
                // The grid line over the gap: the line's grey, not the dead colour.
                assert_ne!(between[0], DEAD, "{name}");
            } else {
                assert_eq!(between[0], DEAD, "{name}");
                // No lines between dead cells either: the row through dead cells (2..5, 3)
                // is all the dead colour.
                let (x0, y0) = cell_centre(&info, 2, 3);
                let (x1, _) = cell_centre(&info, 5, 3);
                for x in x0..=x1 {
                    let p = image.get_pixel(x, y0).0;
                    assert_eq!([p[0], p[1], p[2]], DEAD, "{name}: a line at ({x}, {y0})");
                }
            }
        }
    }
}
