//! Golly's own pattern collection (`/usr/share/golly/Patterns`, from the `golly` Debian
//! package), opened as a new user opens it: `lifelab run --pattern FILE --gens N` with no other
//! flag, against `bgolly -m N FILE`, for 100 and for 1000 generations (a macrocell that starts at
//! a later generation, `#G`, runs N more in both). Every file either gives Golly's population, or is refused with an error that
//! names what lifelab lacks; a refusal is allowed only for the files listed in `REFUSED`, and a
//! listed file that starts to run is a failure too, so that the list stays true. No file may
//! give a different population without an error.
//!
//! Golly 3.3's B0 emulation on bounded grids reports the complement on odd generations; no file
//! of these folders runs a B0 rule on a bounded grid, so no exception is needed for it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

const PATTERNS: &str = "/usr/share/golly/Patterns";
const RULES: &str = "/usr/share/golly/Rules/";
const FOLDERS: [&str; 13] = [
    "Life",
    "Life-Like",
    "Non-Totalistic",
    "Generations",
    "Larger-than-Life",
    "HashLife",
    // Rule files (Golly's RuleLoader), found in Golly's rules folder.
    "Loops",
    "Self-Rep",
    "WireWorld",
    "Turmites",
    "Margolus",
    "Patersons-Worms",
    "Other-Rules",
];
const GENERATIONS: [u64; 2] = [100, 1000];

/// Files lifelab refuses for now, each with a piece of the error it must give (the family or
/// the part it lacks). Paths are relative to the Patterns folder.
const REFUSED: &[(&str, &str)] = &[];

fn bgolly_found() -> bool {
    common::golly_installed(PATTERNS)
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Golly's population at generation `gens`, from the algorithm that takes the file: QuickLife
/// (HashLife for macrocells), else Generations, else Larger than Life, else JvN (von Neumann's
/// automata), else RuleLoader with Golly's rules.
fn golly_population(file: &Path, gens: u64) -> Option<u64> {
    golly_population_at(file, gens, gens)
}

/// [`golly_population`] at Golly's absolute generation `target` (`gens` past the file's own).
fn golly_population_at(file: &Path, gens: u64, target: u64) -> Option<u64> {
    let macrocell = file.to_string_lossy().contains(".mc");
    let first = if macrocell { "HashLife" } else { "QuickLife" };
    for algo in [
        first,
        "Generations",
        "Larger than Life",
        "JvN",
        "RuleLoader",
    ] {
        let out = Command::new("bgolly")
            .args(["-a", algo, "-s", RULES, "-m", &target.to_string()])
            .arg(file)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() || text.contains("Fatal error") {
            continue;
        }
        let last = text.lines().rev().find(|l| l.contains(':'))?;
        let (g, p) = last.split_once(':')?;
        let reached: u64 = g.trim().replace(',', "").parse().ok()?;
        if reached > target && target == gens {
            // A macrocell that starts at a later generation (`#G`): lifelab runs `gens` more,
            // so Golly runs to the file's generation plus `gens`.
            return golly_population_at(file, gens, reached + gens);
        }
        if reached != target {
            return None;
        }
        return p.trim().replace(',', "").parse().ok();
    }
    None
}

/// lifelab's population, or its error.
fn lifelab_population(file: &Path, gens: u64) -> Result<u64, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(["run", "--json", "--gens", &gens.to_string(), "--pattern"])
        .arg(file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(text.trim())
        .unwrap_or_else(|e| panic!("{}: not one JSON object ({e}): {text}", file.display()));
    match v.get("population").and_then(|p| p.as_u64()) {
        Some(p) if out.status.success() => Ok(p),
        _ => Err(v
            .get("error")
            .map_or_else(|| v.to_string(), |e| e.as_str().unwrap_or("").to_string())),
    }
}

#[test]
fn every_file_of_golly_s_collection_runs_as_in_golly_or_is_refused_plainly() {
    if !bgolly_found() {
        return;
    }
    let mut all = Vec::new();
    for folder in FOLDERS {
        files(&Path::new(PATTERNS).join(folder), &mut all);
    }
    let left_out: Vec<&PathBuf> = all
        .iter()
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(".lua") || name.ends_with(".zip")
        })
        .collect();
    for p in &left_out {
        eprintln!(
            "left out: {} (a Golly script or a zip archive of patterns, not a pattern file)",
            p.display()
        );
    }
    let patterns: Vec<&PathBuf> = all.iter().filter(|p| !left_out.contains(p)).collect();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::<String>::new());
    let tally = Mutex::new([0usize; 3]); // same, refused as listed, Golly cannot run it
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(4);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(file) = patterns.get(i) else { break };
                    let relative = file
                        .strip_prefix(PATTERNS)
                        .unwrap()
                        .to_string_lossy()
                        .to_string();
                    let listed = REFUSED
                        .iter()
                        .find(|(f, _)| *f == relative)
                        .map(|(_, w)| *w);
                    for gens in GENERATIONS {
                        let golly = golly_population(file, gens);
                        let ours = lifelab_population(file, gens);
                        let fail = |m: String| failures.lock().unwrap().push(m);
                        match (golly, ours, listed) {
                            (Some(g), Ok(l), None) if g == l => tally.lock().unwrap()[0] += 1,
                            (Some(g), Ok(l), _) => fail(format!(
                                "{relative} at {gens}: lifelab {l}, Golly {g}{}",
                                if listed.is_some() {
                                    " (and it is listed as refused)"
                                } else {
                                    ""
                                }
                            )),
                            (None, Ok(l), _) => fail(format!(
                                "{relative} at {gens}: Golly cannot run it, lifelab gives {l}"
                            )),
                            (_, Err(e), Some(why)) if e.contains(why) => {
                                tally.lock().unwrap()[1] += 1
                            }
                            (None, Err(_), None) => tally.lock().unwrap()[2] += 1,
                            (_, Err(e), _) => fail(format!(
                                "{relative} at {gens}: refused ({e}){}",
                                listed.map_or(String::new(), |w| format!(", not with '{w}'"))
                            )),
                        }
                    }
                }
            });
        }
    });
    let [same, refused, neither] = *tally.lock().unwrap();
    eprintln!(
        "{} files, {} runs: {same} as in Golly, {refused} refused as listed, {neither} that Golly cannot run either",
        patterns.len(),
        patterns.len() * GENERATIONS.len()
    );
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {} runs differ from Golly:\n{}",
        failures.len(),
        patterns.len() * GENERATIONS.len(),
        failures.join("\n")
    );
}
