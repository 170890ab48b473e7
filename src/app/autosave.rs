//! Crash-safe autosave of the user's unsaved work: the torus as RLE in the user's data
//! directory, written atomically (a temporary file, then a rename) a few seconds after edits
//! and at once when the GPU fails; removed when the app closes with nothing unsaved; offered
//! back, with a prompt, at the next start.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::pattern::{self, Format, Pattern};

/// How long after an edit the autosave waits, so that a stroke is written once.
pub const DELAY: Duration = Duration::from_secs(5);

/// The directory lifelab keeps its data in: `$LIFELAB_DATA_DIR`, else `$XDG_DATA_HOME/lifelab`,
/// else `~/.local/share/lifelab` (`%APPDATA%\lifelab` on Windows).
pub fn data_dir() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = env("LIFELAB_DATA_DIR") {
        return Some(d);
    }
    if cfg!(windows) {
        return env("APPDATA").map(|d| d.join("lifelab"));
    }
    env("XDG_DATA_HOME")
        .or_else(|| env("HOME").map(|h| h.join(".local/share")))
        .map(|d| d.join("lifelab"))
}

pub struct Autosave {
    path: Option<PathBuf>,
    /// When the work last changed without being autosaved.
    changed_at: Option<Instant>,
}

impl Autosave {
    pub fn new() -> Self {
        Self {
            path: data_dir().map(|d| d.join("autosave.rle")),
            changed_at: None,
        }
    }

    /// An autosave in `dir` (tests, `--data-dir`).
    pub fn at(dir: &Path) -> Self {
        Self {
            path: Some(dir.join("autosave.rle")),
            changed_at: None,
        }
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The pattern a previous run left behind, if any.
    pub fn leftover(&self) -> Option<Pattern> {
        let path = self.path.as_ref()?;
        path.exists()
            .then(|| pattern::load_file(path).ok())
            .flatten()
    }

    /// The work changed: write it once it has been quiet for [`DELAY`].
    pub fn touch(&mut self) {
        self.changed_at.get_or_insert_with(Instant::now);
    }

    pub fn due(&self) -> bool {
        self.changed_at.is_some_and(|t| t.elapsed() >= DELAY)
    }

    /// Writes the pattern atomically.
    pub fn write(&mut self, p: &Pattern) -> std::io::Result<()> {
        self.changed_at = None;
        let Some(path) = &self.path else {
            return Ok(());
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let tmp = path.with_extension("rle.tmp");
        std::fs::write(&tmp, pattern::write(p, Format::Rle))?;
        std::fs::rename(&tmp, path)
    }

    /// Nothing unsaved any more: the file goes.
    pub fn clear(&mut self) {
        self.changed_at = None;
        if let Some(path) = &self.path {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Default for Autosave {
    fn default() -> Self {
        Self::new()
    }
}
