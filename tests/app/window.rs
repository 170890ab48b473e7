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
    // them, so it is drawn between the dead and the live colour, near sqrt(1/2) of the way.
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
    let v = &info["view"]["rect"];
    let (x0, y0) = (v[0].as_f64().unwrap() as u32, v[1].as_f64().unwrap() as u32);
    let (w, h) = (v[2].as_f64().unwrap() as u32, v[3].as_f64().unwrap() as u32);
    let mut reds = Vec::new();
    for y in (y0 + 40..y0 + h - 40).step_by(37) {
        for x in (x0 + 40..x0 + w - 40).step_by(41) {
            reds.push(image.get_pixel(x, y)[0] as f64);
        }
    }
    let mean = reds.iter().sum::<f64>() / reds.len() as f64;
    // dead red 0.06, live red 1.0: sqrt(0.5) of the way is 0.72, or 184 of 255.
    assert!((mean - 184.0).abs() < 20.0, "mean red {mean}");
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
    // rows sqrt(3)/2 apart; of the copies of the torus (16 cells across, and 16 rows down
    // shifted 8 left), the first inside the view.
    let row = 3f64.sqrt() / 2.0;
    let centre = |x: f64, y: f64| -> (u32, u32) {
        for m in -3..=3 {
            for k in -3..=3 {
                let (cx, cy) = (x + 0.5 + 16.0 * k as f64, y + 0.5 + 16.0 * m as f64);
                let px = rx + (cx - cy / 2.0 - ox) * ppc;
                let py = ry + (cy * row - oy) * ppc;
                if px > rx + ppc && py > ry + ppc && px < rx + rw - ppc && py < ry + rh - ppc {
                    return (px as u32, py as u32);
                }
            }
        }
        panic!("no copy of ({x}, {y}) in view");
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
