//! The Xvfb harness: a private X display for the real window, and screenshots of it with
//! their sidecar (where the view was, how the run went).

use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};

use super::in_ci;

/// An X server for the screenshot tests: the one in $DISPLAY, or a private Xvfb. The tests
/// take turns (the guard holds a lock) so that parallel tests never race for a display number.
pub struct Display {
    name: String,
    server: Option<Child>,
    _turn: std::sync::MutexGuard<'static, ()>,
}

impl Drop for Display {
    fn drop(&mut self) {
        if let Some(s) = &mut self.server {
            // SIGTERM lets Xvfb remove its lock file; SIGKILL left one per test, and enough of
            // them once used up every display number a test would try.
            let _ = Process::new("kill")
                .args(["-TERM", &s.id().to_string()])
                .status();
            for _ in 0..100 {
                if let Ok(Some(_)) = s.try_wait() {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            let _ = s.kill();
            let _ = s.wait();
        }
    }
}

/// Whether display `n` is held by a running server (a lock file whose process is gone is left
/// over from a killed one, and is removed).
pub fn display_taken(n: u32) -> bool {
    let lock = format!("/tmp/.X{n}-lock");
    let Ok(text) = std::fs::read_to_string(&lock) else {
        return Path::new(&lock).exists();
    };
    let alive = text
        .trim()
        .parse::<u32>()
        .is_ok_and(|pid| Path::new(&format!("/proc/{pid}")).exists());
    if !alive {
        let _ = std::fs::remove_file(&lock);
    }
    alive
}

pub static X_TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub fn display() -> Option<Display> {
    let turn = X_TURN.lock().unwrap_or_else(|e| e.into_inner());
    if let Ok(d) = std::env::var("DISPLAY")
        && !d.is_empty()
    {
        return Some(Display {
            name: d,
            server: None,
            _turn: turn,
        });
    }
    // Other test binaries or users may hold low numbers: start from one derived from our pid
    // and move on when a server cannot start there.
    let base = 100 + std::process::id() % 400;
    let mut last_error = String::new();
    for n in (base..base + 40).filter(|&n| !display_taken(n)) {
        let name = format!(":{n}");
        // A socket without a lock is left over from a server that died: it would look ready.
        let socket = format!("/tmp/.X11-unix/X{n}");
        let _ = std::fs::remove_file(&socket);
        let mut child = match Process::new("Xvfb")
            .args([
                name.as_str(),
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
                // Without it the server resets when its last client leaves (the readiness
                // probe below), and refuses the next connection meanwhile.
                "-noreset",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(child) => child,
            Err(e) => {
                assert!(
                    !in_ci(),
                    "Xvfb is missing ({e}): .ci/run installs it with apt-get install xvfb"
                );
                eprintln!("skipped: no X display and no Xvfb ({e})");
                return None;
            }
        };
        for _ in 0..200 {
            // Ready once it accepts a connection, not merely once the socket exists.
            if std::os::unix::net::UnixStream::connect(&socket).is_ok() {
                return Some(Display {
                    name,
                    server: Some(child),
                    _turn: turn,
                });
            }
            if let Ok(Some(status)) = child.try_wait() {
                last_error = format!("Xvfb {name} exited: {status}");
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    panic!("could not start Xvfb on any display from :{base}: {last_error}");
}

pub fn screenshot(
    display: &Display,
    args: &[&str],
    name: &str,
) -> (image::RgbaImage, serde_json::Value) {
    screenshot_env(display, args, name, &[])
}

/// A screenshot with extra environment variables (such as a backend with no adapters).
pub fn screenshot_env(
    display: &Display,
    args: &[&str],
    name: &str,
    env: &[(&str, &str)],
) -> (image::RgbaImage, serde_json::Value) {
    let dir = std::env::temp_dir().join(format!("lifelab-app-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png: PathBuf = dir.join(format!("{name}.png"));
    let runtime = dir.join("runtime");
    std::fs::create_dir_all(&runtime).unwrap();
    let out = Process::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(args)
        .args([
            "--screenshot",
            png.to_str().unwrap(),
            "--window",
            "1024x700",
        ])
        .env("DISPLAY", &display.name)
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("LIFELAB_DATA_DIR", dir.join("data"))
        .env_remove("WAYLAND_DISPLAY")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the app failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let image = image::open(&png).unwrap().to_rgba8();
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{}.json", png.display())).unwrap())
            .unwrap();
    (image, info)
}

/// The pixel at the centre of a torus cell, for the copy of the torus the view shows first.
pub fn cell_centre(info: &serde_json::Value, x: u32, y: u32) -> (u32, u32) {
    let v = &info["view"];
    let f = |p: &serde_json::Value, i: usize| p[i].as_f64().unwrap();
    let (rx, ry) = (f(&v["rect"], 0), f(&v["rect"], 1));
    let (ox, oy) = (f(&v["origin"], 0), f(&v["origin"], 1));
    let (tw, th) = (f(&v["torus"], 0), f(&v["torus"], 1));
    let ppc = v["pixels_per_cell"].as_f64().unwrap();
    // The torus is drawn once, its copy centred on the view's centre cell.
    let (rw, rh) = (f(&v["rect"], 2), f(&v["rect"], 3));
    let copy_x = (ox + rw / 2.0 / ppc - tw / 2.0).round();
    let copy_y = (oy + rh / 2.0 / ppc - th / 2.0).round();
    let dx = copy_x + (x as f64 - copy_x).rem_euclid(tw) + 0.5 - ox;
    let dy = copy_y + (y as f64 - copy_y).rem_euclid(th) + 0.5 - oy;
    ((rx + dx * ppc) as u32, (ry + dy * ppc) as u32)
}

pub fn is_live(p: &image::Rgba<u8>) -> bool {
    // view_render::LIVE is (1.0, 0.86, 0.31): a warm yellow.
    p[0] > 220 && p[1] > 190 && p[2] < 120
}
