//! Crash-safe autosave of the user's unsaved work, in the user's data directory: written on a
//! timer a few seconds after the work changes (and at once when the GPU fails), atomically (a
//! temporary file, then a rename) and off the UI thread; removed when the app closes with
//! nothing unsaved; offered back, with a prompt, at the next start.
//!
//! The file is compact and always reads back, whatever the size of the torus: a header line of
//! JSON (rule, universe, generation, name, comments), then the live 64x64 tiles as packed bits.
//! Empty space costs nothing, a dense soup about one bit per cell. (RLE was neither: an
//! 871 MiB RLE of a 20000x65536 soup was more than the RLE reader takes.)

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};

use crate::engine::Universe;
use crate::rule::Rule;
use crate::tiles::{TileBits, TileMap};

/// How long after a change the autosave waits, so that a stroke is written once.
pub const DELAY: Duration = Duration::from_secs(5);

const MAGIC: &[u8] = b"lifelab autosave 1\n";
const FILE: &str = "autosave.lifelab";

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

/// The work as the autosave keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    pub rule: Rule,
    pub universe: Universe,
    pub generation: u64,
    pub cells: TileMap,
    /// What the work was (a file, a library pattern) and its own name and comments.
    pub source: String,
    pub name: Option<String>,
    pub comments: Vec<String>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Header {
    rule: String,
    /// [width, height], or none for the unbounded plane.
    torus: Option<[u32; 2]>,
    generation: u64,
    tiles: u64,
    source: String,
    name: Option<String>,
    comments: Vec<String>,
}

/// Writes `saved` to `path` (atomically: a temporary file, then a rename).
pub fn write(path: &Path, saved: &Saved) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
    }
    // Golly's other bounded grids (`:P`, `:K`, `:C`, `:S`, a shifted `:T`) go with the rule, as
    // in a pattern file; `torus` keeps their size.
    let mut rule = saved.rule;
    if let Universe::Bounded {
        width,
        height,
        edges,
    } = saved.universe
    {
        rule.bounded = Some((width, height, edges));
    }
    rule.tube = saved.universe.tube();
    let header = Header {
        rule: rule.to_string(),
        torus: saved.universe.size().map(|(w, h)| [w, h]),
        generation: saved.generation,
        tiles: saved.cells.len() as u64,
        source: saved.source.clone(),
        name: saved.name.clone(),
        comments: saved.comments.clone(),
    };
    let tmp = path.with_extension("lifelab.tmp");
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(&tmp).with_context(|| format!("{}", tmp.display()))?,
    );
    out.write_all(MAGIC)?;
    serde_json::to_writer(&mut out, &header)?;
    out.write_all(b"\n")?;
    for ((tx, ty), bits) in saved.cells.iter() {
        out.write_all(&tx.to_le_bytes())?;
        out.write_all(&ty.to_le_bytes())?;
        for row in bits {
            out.write_all(&row.to_le_bytes())?;
        }
    }
    out.into_inner()
        .map_err(|e| anyhow!("{}: {e}", tmp.display()))?
        .sync_all()?;
    std::fs::rename(&tmp, path).with_context(|| format!("{}", path.display()))?;
    Ok(())
}

/// Reads an autosave back. It refuses, with the reason, a file that is not one, is cut short,
/// or would not fit in the memory lifelab may take.
pub fn read(path: &Path) -> anyhow::Result<Saved> {
    let what = || path.display().to_string();
    let size = std::fs::metadata(path).with_context(what)?.len();
    crate::memory::check(|| format!("the autosave {}", path.display()), size)?;
    let mut input = std::io::BufReader::new(std::fs::File::open(path).with_context(what)?);
    let mut magic = vec![0u8; MAGIC.len()];
    input
        .read_exact(&mut magic)
        .with_context(|| format!("{}: not a lifelab autosave", what()))?;
    if magic != MAGIC {
        bail!(
            "{}: not a lifelab autosave (it does not start with {MAGIC:?})",
            what()
        );
    }
    let mut line = Vec::new();
    std::io::BufRead::read_until(&mut input, b'\n', &mut line)?;
    let header: Header = serde_json::from_slice(&line)
        .with_context(|| format!("{}: the header line is not valid", what()))?;
    let mut rule: Rule = header
        .rule
        .parse()
        .map_err(|e| anyhow!("{}: rule {:?}: {e}", what(), header.rule))?;
    rule.torus = None;
    let tube = rule.tube.take();
    let universe = match (header.torus, rule.bounded.take()) {
        (_, _) if let Some(t) = tube => Universe::Tube(t),
        (_, Some((width, height, edges))) => Universe::Bounded {
            width,
            height,
            edges,
        },
        (Some([w, h]), None) => {
            crate::grid::Grid::check_torus_dimensions(w as u64, h as u64)
                .with_context(|| format!("{}: the torus", what()))?;
            Universe::torus(w, h)
        }
        (None, None) => Universe::Plane,
    };
    let tile_bytes = 16 + 64 * 8;
    let body = size.saturating_sub((MAGIC.len() + line.len()) as u64);
    if header.tiles.saturating_mul(tile_bytes) != body {
        bail!(
            "{}: the header promises {} tiles ({} bytes) but {body} bytes follow; the file is cut short or damaged",
            what(),
            header.tiles,
            header.tiles.saturating_mul(tile_bytes)
        );
    }
    let mut cells = TileMap::new();
    let mut buf = vec![0u8; tile_bytes as usize];
    for _ in 0..header.tiles {
        input.read_exact(&mut buf)?;
        let word = |i: usize| u64::from_le_bytes(buf[i * 8..i * 8 + 8].try_into().expect("8"));
        let (tx, ty) = (word(0) as i64, word(1) as i64);
        let mut bits: TileBits = [0; 64];
        for (r, row) in bits.iter_mut().enumerate() {
            *row = word(2 + r);
        }
        cells.insert(tx, ty, bits);
    }
    Ok(Saved {
        rule,
        universe,
        generation: header.generation,
        cells,
        source: header.source,
        name: header.name,
        comments: header.comments,
    })
}

pub struct Autosave {
    path: Option<PathBuf>,
    /// When the work last changed without being autosaved.
    changed_at: Option<Instant>,
    /// A write in progress on its own thread, and what it answers.
    writing: Option<std::sync::mpsc::Receiver<anyhow::Result<()>>>,
}

impl Autosave {
    pub fn new() -> Self {
        Self::in_dir(data_dir())
    }

    /// An autosave in `dir` (tests, `--data-dir`).
    pub fn at(dir: &Path) -> Self {
        Self::in_dir(Some(dir.to_path_buf()))
    }

    fn in_dir(dir: Option<PathBuf>) -> Self {
        Self {
            path: dir.map(|d| d.join(FILE)),
            changed_at: None,
            writing: None,
        }
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The work a previous run left behind, if any; a file that cannot be read is reported.
    pub fn leftover(&self) -> Option<anyhow::Result<Saved>> {
        let path = self.path.as_ref()?;
        path.exists().then(|| read(path))
    }

    /// The work changed: write it once it has been quiet for [`DELAY`].
    pub fn touch(&mut self) {
        self.changed_at.get_or_insert_with(Instant::now);
    }

    pub fn due(&self) -> bool {
        self.changed_at.is_some_and(|t| t.elapsed() >= DELAY)
    }

    /// How long until a write is due (for a repaint at that moment, input or not).
    pub fn due_in(&self) -> Option<Duration> {
        self.changed_at.map(|t| DELAY.saturating_sub(t.elapsed()))
    }

    /// Writes on a thread of its own, so that a large torus does not stall the window.
    pub fn write_in_background(&mut self, saved: Saved) {
        self.changed_at = None;
        let Some(path) = self.path.clone() else {
            return;
        };
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(write(&path, &saved));
        });
        self.writing = Some(rx);
    }

    /// Writes now, on this thread (tests, and after a GPU failure).
    pub fn write_now(&mut self, saved: &Saved) -> anyhow::Result<()> {
        self.changed_at = None;
        self.wait();
        match &self.path {
            Some(path) => write(path, saved),
            None => Ok(()),
        }
    }

    /// The outcome of a background write that has finished.
    pub fn poll(&mut self) -> Option<anyhow::Result<()>> {
        let r = self.writing.as_ref()?.try_recv().ok()?;
        self.writing = None;
        Some(r)
    }

    /// Waits for a background write.
    pub fn wait(&mut self) -> Option<anyhow::Result<()>> {
        let r = self.writing.take()?.recv().ok()?;
        Some(r)
    }

    /// Nothing unsaved any more: the file goes.
    pub fn clear(&mut self) {
        self.changed_at = None;
        self.wait();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_torus_reads_back_exactly_and_a_damaged_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("lifelab-autosave-{}", std::process::id()));
        let path = dir.join(FILE);
        let mut cells = TileMap::new();
        for (x, y) in [(0, 0), (63, 64), (-5, 1000), (19999, 65535)] {
            cells.set(x, y, true);
        }
        let saved = Saved {
            rule: "B36/S23".parse().unwrap(),
            universe: Universe::torus(20000, 65536),
            generation: 123,
            cells,
            source: "soup.rle".into(),
            name: Some("a soup".into()),
            comments: vec!["drawn by hand".into()],
        };
        write(&path, &saved).unwrap();
        assert_eq!(read(&path).unwrap(), saved);
        // Golly's other bounded grids come back as themselves, not as a torus.
        for edges in [
            crate::geometry::Edges::Plane,
            crate::geometry::Edges::KleinTopBottom { shifted: true },
            crate::geometry::Edges::Sphere,
        ] {
            let bounded = Saved {
                universe: Universe::Bounded {
                    width: 40,
                    height: 40,
                    edges,
                },
                cells: TileMap::new(),
                ..saved.clone()
            };
            write(&path, &bounded).unwrap();
            assert_eq!(read(&path).unwrap(), bounded);
        }
        // So do Golly's infinite tubes.
        for tube in [
            crate::geometry::Tube::Wide { height: 68 },
            crate::geometry::Tube::Tall { width: 17 },
        ] {
            let tubed = Saved {
                universe: Universe::Tube(tube),
                ..saved.clone()
            };
            write(&path, &tubed).unwrap();
            assert_eq!(read(&path).unwrap(), tubed);
        }
        write(&path, &saved).unwrap();
        // Cut short: the header promises more tiles than there are bytes.
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 100]).unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("cut short"), "{e}");
        std::fs::write(&path, b"x = 3, y = 1\n3o!\n").unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("not a lifelab autosave"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
