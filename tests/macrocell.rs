//! Macrocell files in and out of HashLife's quadtree (issue 27), against Golly's own HashLife
//! demos (`/usr/share/golly/Patterns/HashLife`, from the `golly` Debian package) and `bgolly`:
//! a file is read into nodes, run, written from its nodes, and Golly runs what was written to
//! the same population, and for the small demos to the same cells, as it runs the original.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use lifelab::session::setup::{Spec, Start};

const DEMOS: &str = "/usr/share/golly/Patterns/HashLife";

fn bgolly_found() -> bool {
    common::golly_installed(DEMOS)
}

/// Golly's macrocell demos, less the one-dimensional `wolfram22.mc` (the rule issue's).
fn demos() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(DEMOS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            (name.ends_with(".mc") || name.ends_with(".mc.gz")) && name != "wolfram22.mc"
        })
        .collect();
    v.sort();
    v
}

/// bgolly's HashLife run of `file` to the absolute generation `gens`: the population, and
/// the cells as Golly writes them in RLE (with their position) when `cells` is asked for.
fn golly(file: &Path, gens: u64, cells: Option<&Path>) -> (u64, Option<String>) {
    let mut c = Command::new("bgolly");
    c.args(["-a", "HashLife", "-m", &gens.to_string()]);
    if let Some(out) = cells {
        c.arg("-o").arg(out);
    }
    let out = c.arg(file).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().rev().find(|l| l.contains(':')).unwrap();
    let (g, p) = last.split_once(':').unwrap();
    assert_eq!(
        g.trim().replace(',', ""),
        gens.to_string(),
        "{file:?}: {text}"
    );
    let written = cells.map(|p| {
        // The header line names the program and version; the cells and `#CXRLE Pos=` follow.
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("#C ") && !l.starts_with("#CXRLE Gen"))
            .map(|l| l.replace(format!("Gen={gens}").as_str(), ""))
            .collect::<Vec<_>>()
            .join("\n")
    });
    (p.trim().replace(',', "").parse().unwrap(), written)
}

#[test]
fn every_demo_goes_through_the_quadtree_and_golly_runs_what_was_written() {
    if !bgolly_found() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut compared_cells = 0;
    for demo in demos() {
        let name = demo.file_name().unwrap().to_string_lossy().to_string();
        let saved = dir.path().join(format!("{name}.out.mc"));
        let out = Command::new(env!("CARGO_BIN_EXE_lifelab"))
            .args([
                "run",
                "--json",
                "--gens",
                "64",
                "--engine",
                "hashlife",
                "--pattern",
            ])
            .arg(&demo)
            .arg("--out")
            .arg(&saved)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["engine"], "hashlife", "{name}: {v}");
        // The file says generation 64, and bgolly's -m is absolute: 64 more from there.
        let (want, _) = golly(&demo, 64, None);
        assert_eq!(v["population"], want, "{name} at 64");
        let small = v["population"].as_u64().unwrap() < 200_000;
        let (a, b) = (dir.path().join("a.rle"), dir.path().join("b.rle"));
        let (p0, c0) = golly(&demo, 128, small.then_some(a.as_path()));
        let (p1, c1) = golly(&saved, 128, small.then_some(b.as_path()));
        assert_eq!(
            p1, p0,
            "{name}: what lifelab wrote at 64, run by Golly to 128"
        );
        if small {
            assert_eq!(c1, c0, "{name}: the cells and their place at 128");
            compared_cells += 1;
        }
    }
    assert!(
        compared_cells >= 10,
        "{compared_cells} demos compared cell for cell"
    );
}

#[test]
fn opening_a_demo_keeps_its_quadtree_and_works_out_the_box_from_the_nodes() {
    if !bgolly_found() {
        return;
    }
    for demo in demos() {
        let name = demo.display().to_string();
        let sim = Spec {
            pattern: Some(name.clone()),
            ..Spec::default()
        }
        .build()
        .unwrap();
        let Start::Quadtree(q) = &sim.start else {
            panic!("{name}: not kept as a quadtree");
        };
        // The node-level population and box equal the flattened cells' (where they fit).
        if q.population < 20_000_000 {
            let tiles = q.to_tiles().unwrap();
            assert_eq!(q.population, tiles.population(), "{name}");
            assert_eq!(q.bounds, tiles.bounds(), "{name}");
        }
        // HashLife holds the nodes, and answers the same from its own.
        let (mut hl, _) = sim
            .engine("hashlife", 0, Default::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(hl.population().unwrap(), q.population, "{name}");
        assert_eq!(hl.bounds().unwrap(), q.bounds, "{name}");
    }
}

#[test]
fn a_demo_under_a_small_memory_limit_collects_and_gives_golly_s_populations() {
    if !bgolly_found() {
        return;
    }
    // Each makes more nodes in 2^16 generations than its limit (MiB) holds.
    for (name, limit) in [("gotts-dots.mc", "8"), ("mosquito5.mc", "48")] {
        let demo = Path::new(DEMOS).join(name);
        let (want, _) = golly(&demo, 65536, None);
        for memory in [None, Some(limit)] {
            let mut c = Command::new(env!("CARGO_BIN_EXE_lifelab"));
            c.args(["run", "--json", "--gens", "65536", "--pattern"])
                .arg(&demo);
            if let Some(m) = memory {
                c.args(["--memory", m]);
            }
            let out = c.output().unwrap();
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(v["population"], want, "{name}, --memory {memory:?}");
            if memory.is_some() {
                let note = v["engine_note"].as_str().unwrap_or_default();
                assert!(note.contains("collected garbage"), "{name}: {v}");
            }
        }
    }
}

#[test]
fn a_quadtree_goes_into_the_other_engines_as_cells() {
    if !bgolly_found() {
        return;
    }
    let demo = Path::new(DEMOS).join("totalperiodic.mc");
    let (want, _) = golly(&demo, 100, None);
    for engine in ["tiles", "hashlife"] {
        let out = Command::new(env!("CARGO_BIN_EXE_lifelab"))
            .args([
                "run",
                "--json",
                "--gens",
                "100",
                "--engine",
                engine,
                "--pattern",
            ])
            .arg(&demo)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["population"], want, "{engine}: {v}");
    }
}

#[test]
fn a_quadtree_larger_than_the_node_store_is_refused_up_front_with_what_it_needs() {
    // A 1024x1024 soup: about 16,000 distinct leaves and 5,000 nodes above them, more than
    // the 14,745 nodes that HashLife's store may fill in 1 MiB.
    let mut g = lifelab::grid::Grid::new(1024, 1024);
    g.fill_random(0.5, 3);
    let mc = lifelab::pattern::macrocell::Macrocell::from_tiles(
        &lifelab::tiles::TileMap::from_grid(&g, (-512, -512)),
    );
    assert!(mc.nodes.len() > 14_745, "{}", mc.nodes.len());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("soup.mc");
    std::fs::write(&file, mc.write()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args([
            "run", "--json", "--gens", "1", "--engine", "hashlife", "--memory", "1",
        ])
        .arg("--pattern")
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let e = v["error"].as_str().unwrap();
    assert!(
        e.contains(&format!("{} nodes", mc.nodes.len())) && e.contains("--memory"),
        "{e}"
    );
}
