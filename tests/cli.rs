//! The headless command line, run as users run it: flags, text and JSON output, exit codes and
//! error messages. New tests of subcommands belong here (GPU-only subcommands in `gpu.rs`).

mod common;

use std::process::Command;

use common::cli::{failure, json, lifelab};
use serde_json::Value;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lifelab-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn acorn_on_the_cpu_reaches_633() {
    let v = json(&[
        "run",
        "--pattern",
        "acorn",
        "--size",
        "4096x4096",
        "--gens",
        "5206",
        "--engine",
        "cpu",
        "--json",
    ]);
    assert_eq!(v["population"], 633);
    assert_eq!(v["generation"], 5206);
    assert_eq!(v["width"], 4096);
    assert_eq!(v["height"], 4096);
    assert_eq!(v["rule"], "B3/S23");
    assert_eq!(v["engine"], "cpu");
    assert!(v["seconds"].as_f64().unwrap() > 0.0);
}

#[test]
fn text_output_names_generation_and_population() {
    let out = lifelab(&[
        "run",
        "--pattern",
        "diehard",
        "--gens",
        "130",
        "--engine",
        "reference",
        "--size",
        "64",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(text.contains("generation 130: population 0"), "{text}");
}

#[test]
fn a_files_rule_and_torus_apply_unless_flags_override_them() {
    let dir = temp_dir("rule");
    let file = dir.join("blinker.rle");
    std::fs::write(&file, "x = 3, y = 1, rule = B36/S23:T64,48\n3o!\n").unwrap();
    let path = file.to_str().unwrap();
    let v = json(&["run", "--pattern", path, "--gens", "1", "--json"]);
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(64), Some(48))
    );
    assert_eq!(v["rule"], "B36/S23");
    assert_eq!(v["population"], 3);
    let v = json(&[
        "run",
        "--pattern",
        path,
        "--rule",
        "B3/S23",
        "--size",
        "20x10",
        "--gens",
        "1",
        "--json",
    ]);
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(20), Some(10))
    );
    assert_eq!(v["rule"], "B3/S23");
    // The rule's own :T suffix sets the torus too.
    let v = json(&[
        "run",
        "--pattern",
        "glider",
        "--rule",
        "Life:T50,40",
        "--gens",
        "0",
        "--json",
    ]);
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(50), Some(40))
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn random_soups_have_the_requested_density_and_are_reproducible() {
    let args = [
        "run", "--random", "0.35", "--seed", "7", "--size", "200x100", "--gens", "0", "--json",
    ];
    let v = json(&args);
    let n = v["population"].as_u64().unwrap() as f64;
    assert!((n / 20_000.0 - 0.35).abs() < 0.02, "{n}");
    assert_eq!(json(&args)["population"], v["population"]);
    let other = json(&[
        "run", "--random", "0.35", "--seed", "8", "--size", "200x100", "--gens", "0", "--json",
    ]);
    assert_ne!(other["population"], v["population"]);
}

#[test]
fn out_writes_the_final_torus_that_reads_back() {
    let dir = temp_dir("out");
    let out = dir.join("result.rle");
    let v = json(&[
        "run",
        "--pattern",
        "r-pentomino",
        "--size",
        "300x200",
        "--gens",
        "200",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    let p = lifelab::pattern::load_file(&out).unwrap();
    assert_eq!(p.population(), v["population"].as_u64().unwrap());
    assert_eq!(p.rule.unwrap().to_string(), "B3/S23:T300,200");
    // Running it again from the file continues where it stopped: 1103 - 200 more generations.
    let v = json(&[
        "run",
        "--pattern",
        out.to_str().unwrap(),
        "--gens",
        "903",
        "--json",
    ]);
    assert_eq!(v["population"], 116);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn elementary_runs_report_the_last_row() {
    // Row 64 of Pascal's triangle mod 2 has exactly two odd entries.
    let v = json(&[
        "run", "--rule", "W90", "--size", "129", "--start", "center", "--gens", "64", "--json",
    ]);
    assert_eq!(v["population"], 2);
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(129), Some(1))
    );
    let v = json(&[
        "run", "--rule", "W110", "--size", "64", "--start", "right", "--gens", "0", "--json",
    ]);
    assert_eq!(v["population"], 1);
    let v = json(&[
        "run", "--rule", "W30", "--size", "64", "--start", "random:5", "--gens", "0", "--json",
    ]);
    assert_eq!(v["population"], 5);
    let v = json(&[
        "run", "--rule", "x ^ z", "--start", "..#.##.", "--gens", "0", "--json",
    ]);
    assert_eq!(
        (v["population"].as_u64(), v["width"].as_u64()),
        (Some(3), Some(7))
    );
    assert_eq!(v["rule"], "W90");
}

#[test]
fn bad_input_gets_a_clear_error_and_exit_code_1() {
    assert!(
        failure(&["run", "--rule", "B9/S23"])
            .contains("error: --rule: B9/S23: neighbour count 9 is outside 0..8")
    );
    assert!(
        failure(&["run", "--pattern", "nonexistent.rle"]).contains("nonexistent.rle: no such file")
    );
    assert!(failure(&["run", "--pattern", "acron"]).contains("no library pattern of that name"));
    assert!(
        failure(&["run", "--size", "0x5"])
            .contains("--size 0x5: a 0x5 torus has no cells: width and height must be at least 1")
    );
    assert!(
        failure(&["run", "--pattern", "gosper-glider-gun", "--size", "20x20"])
            .contains("the pattern is 36x9, larger than the 20x20 torus")
    );
    assert!(failure(&["run", "--random", "1.5"]).contains("the density must be between 0 and 1"));
    assert!(
        failure(&["run", "--rule", "W30", "--size", "8x8"]).contains("give --size as one number")
    );
    assert!(failure(&["run", "--start", "center"]).contains("is for elementary rules"));
    // With --json the error is also the one JSON object on stdout.
    let out = lifelab(&["run", "--rule", "B9/S23", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["error"],
        "--rule: B9/S23: neighbour count 9 is outside 0..8"
    );
}

#[test]
fn bench_reports_cell_updates_per_second_against_a_baseline() {
    let v = json(&[
        "bench", "--engine", "cpu", "--rule", "B3/S23", "--rule", "W110", "--size", "256",
        "--gens", "5", "--json",
    ]);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for r in results {
        assert_eq!(r["engine"], "cpu");
        assert_eq!(r["generations"], 5);
        assert!(r["cell_updates_per_second"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(v["baseline"]["engine"], "reference");
}

#[test]
fn help_lists_the_subcommands() {
    let out = lifelab(&["--help"]);
    let text = String::from_utf8(out.stdout).unwrap();
    for sub in ["run", "bench"] {
        assert!(text.contains(sub), "{sub} missing from --help");
    }
}

#[test]
fn argument_errors_are_json_with_json() {
    for args in [
        ["run", "--gens", "-1", "--json"],
        ["run", "--random", "-0.1", "--json"],
        ["run", "--seed", "18446744073709551616", "--json"],
    ] {
        let out = lifelab(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(stdout.lines().count(), 1, "{args:?}: {stdout}");
        let v: Value = serde_json::from_str(&stdout).unwrap();
        assert!(
            v["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{args:?}: {v}"
        );
    }
}

#[test]
fn a_file_too_large_to_read_back_is_refused_before_it_is_written() {
    let dir = temp_dir("too-large");
    let out = dir.join("soup.cells");
    // 20001 x 20000 bytes of plaintext: more than the 256 MiB lifelab reads back.
    let err = failure(&[
        "run",
        "--random",
        "0.001",
        "--size",
        "20000x20000",
        "--gens",
        "0",
        "--engine",
        "tiles",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        err.contains("save it as RLE or as a macrocell file"),
        "{err}"
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn memory_limits_are_said_the_same_way_everywhere() {
    // A soup no engine can hold, and a torus from a rule line on a dense engine: one wording,
    // one limit.
    let dir = temp_dir("limits");
    let blinker = dir.join("vast.rle");
    std::fs::write(
        &blinker,
        "x = 3, y = 1, rule = B3/S23:T16000000,16000000\n3o!\n",
    )
    .unwrap();
    let soup = ["run", "--size", "16000000x16000000", "--random", "0.5"];
    let file = [
        "run",
        "--pattern",
        blinker.to_str().unwrap(),
        "--engine",
        "cpu",
    ];
    let tail = |e: &str| e.split("more than").nth(1).unwrap().to_string();
    // The limit is half of the memory available, which moves between two processes (11.5 GiB
    // in one, 11.4 in the next, in a CI run): the same words, the numbers aside, and in each
    // the limit half of the memory it names.
    let (a, b) = (failure(&soup), failure(&file));
    for e in [&a, &b] {
        assert!(e.contains("16000000x16000000 torus on the"), "{e}");
        assert!(e.contains("TiB, more than lifelab's limit of"), "{e}");
        // In MiB, from "11.4 GiB" (each rounded to a tenth of its unit).
        let mib = |after: &str| -> (f64, f64) {
            let rest = e.split(after).nth(1).unwrap_or_else(|| panic!("{e}"));
            let mut words = rest.split(' ');
            let value: f64 = words.next().unwrap().parse().unwrap();
            let unit = match words.next().unwrap().trim_end_matches(',') {
                "MiB" => 1.0,
                "GiB" => 1024.0,
                "TiB" => 1024.0 * 1024.0,
                other => panic!("unit {other}: {e}"),
            };
            (value * unit, 0.1 * unit)
        };
        let ((limit, l_err), (available, a_err)) = (mib("limit of "), mib("half of the "));
        assert!(
            (limit - available / 2.0).abs() <= l_err + a_err,
            "{limit} MiB is not half of {available} MiB: {e}"
        );
    }
    let words = |e: &str| tail(e).replace(|c: char| c.is_ascii_digit(), "#");
    assert_eq!(words(&a), words(&b));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_vast_torus_or_header_costs_only_what_lives_in_it() {
    // Golly's bounded grids and RLE headers take no memory for empty space; neither does
    // lifelab's tile engine. A blinker keeps its 3 cells; one lone cell dies.
    let dir = temp_dir("vast");
    let blinker = dir.join("vast.rle");
    std::fs::write(
        &blinker,
        "x = 3, y = 1, rule = B3/S23:T16000000,16000000\n3o!\n",
    )
    .unwrap();
    let v = json(&["run", "--pattern", blinker.to_str().unwrap(), "--json"]);
    assert_eq!(v["population"], 3);
    assert_eq!(v["universe"]["width"], 16_000_000);
    let header = dir.join("header.rle");
    std::fs::write(&header, "x = 16000000, y = 16000000\no!\n").unwrap();
    let v = json(&["run", "--pattern", header.to_str().unwrap(), "--json"]);
    assert_eq!(v["population"], 0);
    // Two cells 16 million apart: no torus round them would fit, and a file without a torus
    // runs on the plane anyway, as in Golly: both die.
    let apart = dir.join("apart.rle");
    std::fs::write(&apart, "o15999999$15999999bo!\n").unwrap();
    let v = json(&["run", "--pattern", apart.to_str().unwrap(), "--json"]);
    assert_eq!(v["universe"]["kind"], "plane");
    assert_eq!(v["population"], 0);
    // With --size the torus is asked for, and one that large is refused with the limit.
    let e = failure(&[
        "run",
        "--pattern",
        apart.to_str().unwrap(),
        "--size",
        "20000000",
    ]);
    assert!(e.contains("20000000"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A pattern file opens on the unbounded plane, as in Golly: a glider keeps its five cells
/// after 1000 generations (on the old default 1024x1024 torus it would too, so the universe is
/// checked), and `--size` still asks for a torus.
#[test]
fn a_pattern_file_runs_on_the_plane_unless_a_torus_is_asked_for() {
    let dir = temp_dir("plane");
    let glider = dir.join("glider.rle");
    std::fs::write(&glider, "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n").unwrap();
    let path = glider.to_str().unwrap();
    let v = json(&["run", "--pattern", path, "--gens", "1000", "--json"]);
    assert_eq!(v["universe"]["kind"], "plane");
    assert_eq!(v["population"], 5);
    let v = json(&["run", "--pattern", path, "--size", "64", "--json"]);
    assert_eq!(v["width"], 64);
    // A library pattern too: acorn on the plane settles at 633 by 5206 (the literature).
    let v = json(&["run", "--pattern", "acorn", "--gens", "5206", "--json"]);
    assert_eq!(v["universe"]["kind"], "plane");
    assert_eq!(v["population"], 633);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A pipe is read once (it has no second reading), a gzip-compressed file is decompressed, and
/// a device that never ends is cut off at the input limit instead of filling memory.
#[test]
fn pipes_gzip_and_endless_inputs_are_read_as_they_are() {
    use std::io::Write;
    let rle = "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(["run", "--pattern", "/dev/stdin", "--gens", "4", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(rle.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["population"], 5, "{v}");

    let dir = temp_dir("gzip");
    let gz = dir.join("glider.rle.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(rle.as_bytes()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let v = json(&["run", "--pattern", gz.to_str().unwrap(), "--json"]);
    assert_eq!(v["population"], 5);
    assert_eq!(v["universe"]["kind"], "plane");
    std::fs::remove_dir_all(dir).unwrap();

    let e = failure(&["run", "--pattern", "/dev/zero"]);
    assert!(e.contains("/dev/zero") && e.contains("larger than"), "{e}");
}

/// MCell files: a Life one runs, and one of a game lifelab does not run yet is refused with the
/// game, the rule, the file and the line (Golly's collection has 33, none of them Life).
#[test]
fn mcell_files_run_or_are_refused_by_their_game() {
    let dir = temp_dir("mcell");
    let life = dir.join("glider.mcl");
    std::fs::write(&life, "#MCell 4.20\n#GAME Life\n#RULE 23/3\n#L .A$..A$3A\n").unwrap();
    let v = json(&["run", "--pattern", life.to_str().unwrap(), "--json"]);
    assert_eq!(v["population"], 5);
    // Generations: a row of three under 2367/3457/5. The middle cell has two neighbours and
    // survives, the ends have one and start dying; the cells above and below the middle see
    // three and are born: 3 live and 2 dying, and Golly's population counts both.
    let generations = dir.join("banner.mcl");
    std::fs::write(
        &generations,
        "#MCell 2.0\n#GAME Generations\n#RULE 2367/3457/5\n#L 3A\n",
    )
    .unwrap();
    let v = json(&[
        "run",
        "--pattern",
        generations.to_str().unwrap(),
        "--gens",
        "1",
        "--json",
    ]);
    assert_eq!(v["population"], 5, "{v}");
    assert_eq!(v["rule"], "2367/3457/5", "{v}");
    let ltl = dir.join("bosco.mcl");
    std::fs::write(
        &ltl,
        "#MCell 4.20\n#GAME Larger than Life\n#RULE R5,C0,M1,S34..58,B34..45\n#L 3A\n",
    )
    .unwrap();
    let e = failure(&["run", "--pattern", ltl.to_str().unwrap()]);
    assert!(
        e.contains("bosco.mcl:3:") && e.contains("Larger than Life") && e.contains("R5,C0,M1"),
        "{e}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Issue 28: `--memory` of 2^44 MiB or more used to wrap round to a tiny limit when shifted
/// into bytes. It is refused, with the largest value that fits; the largest is taken (and then
/// refused by the memory check for what it is).
#[test]
fn a_memory_limit_past_64_bits_is_refused_not_wrapped() {
    let e = failure(&["run", "--memory", "17592186044416", "--gens", "1"]);
    assert!(
        e.contains("17592186044416 MiB is more than 2^64 bytes") && e.contains("17592186044415"),
        "{e}"
    );
    let e = failure(&[
        "run",
        "--memory",
        "17592186044415",
        "--pattern",
        "glider",
        "--engine",
        "hashlife",
    ]);
    assert!(e.contains("16777216.0 TiB"), "{e}");
}

/// `auto` asks the GPU's cost only where the GPU could win, since asking opens the device.
/// A Larger than Life soup on a 100x100 torus, which the ltl engine runs in a fraction of a
/// second, must never load Vulkan; `lifelab gpus` must (so the loader's record is read
/// right). The record is glibc's dynamic loader's own (`LD_DEBUG=libs`), not a clock.
#[test]
fn a_run_the_cpu_does_in_a_moment_never_opens_the_gpu() {
    let libraries = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_lifelab"))
            .args(args)
            .env("LD_DEBUG", "libs")
            .output()
            .expect("the binary runs");
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stderr).contains("libvulkan")
    };
    if !libraries(&["gpus"]) {
        assert!(
            !common::in_ci(),
            "lifelab gpus loaded no Vulkan in CI; .ci/run installs libvulkan1"
        );
        eprintln!("skipped: no Vulkan loader here, or no LD_DEBUG record");
        return;
    }
    let ltl = "R5,C0,M1,S34..58,B34..45,NM";
    let args = [
        "run", "--random", "0.3", "--size", "100", "--rule", ltl, "--gens", "20000",
    ];
    assert!(!libraries(&args), "{args:?} opened the GPU");
}
