//! Patterns and their file formats: RLE, plaintext `.cells`, Life 1.06 (read and write),
//! Life 1.05 and MCell (read, for Golly's older `.lif` and its `.mcl` files), plus the built-in
//! library. Files compressed with gzip (`.rle.gz`, `.mc.gz`, as Golly reads them) are
//! decompressed as they are read.
//!
//! Every reader reports a malformed file as a [`ParseError`] with the line and column, and never
//! panics. Every writer's output reads back as the same pattern (for Life 1.06, which has no room
//! for names or rules, the same cells up to translation).

pub mod apgcode;
mod cells;
pub mod elementary;
pub mod library;
mod life105;
mod life106;
pub mod macrocell;
pub mod mcell;
pub mod rle;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::grid::{Grid, GridError};
use crate::rule::Rule;

pub use library::LibraryPattern;

/// Patterns larger than this on disk are refused before they are read.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// A pattern: a rectangle of cells and what the file said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The cells of the pattern's rectangle (the RLE header's x by y).
    pub cells: Grid,
    pub name: Option<String>,
    pub author: Option<String>,
    pub comments: Vec<String>,
    /// The file's own rule, with its torus size when it carried `:T<w>,<h>`.
    pub rule: Option<Rule>,
    /// What the reader took although it was not strictly valid (as Golly takes it).
    pub warnings: Vec<String>,
    /// Each cell's state, row by row, when some cell is above state 1 (Generations' dying
    /// states); `cells` then holds the cells that are not dead. `None`: two states.
    pub states: Option<Vec<u8>>,
    /// Where the file puts the rectangle's top-left cell on its bounded grid, whose top-left
    /// cell is (0, 0) (an MCell board); `None`: centred, as Golly centres a pattern.
    pub origin: Option<(i64, i64)>,
}

impl Pattern {
    pub fn new(cells: Grid) -> Self {
        Self {
            cells,
            name: None,
            author: None,
            comments: Vec::new(),
            rule: None,
            warnings: Vec::new(),
            states: None,
            origin: None,
        }
    }

    /// The state of cell (x, y) of the rectangle.
    pub fn state(&self, x: u32, y: u32) -> u8 {
        match &self.states {
            Some(s) => s[(y * self.width() + x) as usize],
            None => self.cells.get(x, y) as u8,
        }
    }

    /// The highest state of any cell.
    pub fn max_state(&self) -> u8 {
        match &self.states {
            Some(s) => (0..self.height())
                .flat_map(|y| self.live_spans(y))
                .map(|(a, b)| s[a..b].iter().copied().max().unwrap_or(0))
                .max()
                .unwrap_or(0),
            None => (self.population() > 0) as u8,
        }
    }

    /// The stretches of 64 cells of row y that hold a live one, as ranges of indices into
    /// `states`: a multi-state pattern's bytes are read only there. A long constructor's
    /// rectangle is mostly empty (JvN's NP-replicator: 145,411 by 170 cells, 62,708 of them
    /// live), and each page of it read for the first time costs a fault.
    fn live_spans(&self, y: u32) -> impl Iterator<Item = (usize, usize)> + '_ {
        let w = self.width() as usize;
        let base = y as usize * w;
        self.cells
            .row(y)
            .iter()
            .enumerate()
            .filter(|&(_, &word)| word != 0)
            .map(move |(k, _)| (base + k * 64, base + ((k + 1) * 64).min(w)))
    }

    /// The cells with their states as tiles, the rectangle's top-left corner at `at`.
    pub fn to_tiles(&self, at: (i64, i64)) -> crate::tiles::TileMap {
        let mut tiles = crate::tiles::TileMap::from_grid(&self.cells, at);
        if let Some(states) = &self.states {
            let w = self.width() as usize;
            for y in 0..self.height() {
                for (a, b) in self.live_spans(y) {
                    // A tile's stretch of the span at a time.
                    let mut i = a;
                    while i < b {
                        let gx = at.0 + (i - y as usize * w) as i64;
                        let end = (i + (64 - gx.rem_euclid(64)) as usize).min(b);
                        if crate::tiles::any_above_one(&states[i..end]) {
                            tiles.set_states_in_row(gx, at.1 + y as i64, &states[i..end]);
                        }
                        i = end;
                    }
                }
            }
        }
        tiles
    }

    pub fn width(&self) -> u32 {
        self.cells.width()
    }

    pub fn height(&self) -> u32 {
        self.cells.height()
    }

    pub fn population(&self) -> u64 {
        self.cells.population()
    }

    /// The same pattern cut down to the bounding box of its live cells.
    pub fn trimmed(&self) -> Pattern {
        let (cells, states) = match self.cells.bounding_box() {
            Some(bb) => {
                let states = self.states.as_ref().map(|_| {
                    (bb.y..bb.y + bb.height)
                        .flat_map(|y| (bb.x..bb.x + bb.width).map(move |x| (x, y)))
                        .map(|(x, y)| self.state(x, y))
                        .collect()
                });
                (self.cells.crop(bb), states)
            }
            None => (Grid::new(0, 0), None),
        };
        let shift = self
            .cells
            .bounding_box()
            .map_or((0, 0), |bb| (bb.x as i64, bb.y as i64));
        Pattern {
            cells,
            states,
            origin: self.origin.map(|(x, y)| (x + shift.0, y + shift.1)),
            ..self.clone()
        }
    }
}

/// The file formats lifelab reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Run-length encoded, Golly's and LifeWiki's default.
    Rle,
    /// Plaintext: `!` comment lines, then rows of `.` and `O`.
    Cells,
    /// Life 1.06 (`x y` per live cell); reading also takes Life 1.05, which Golly's `.lif`
    /// files use.
    Life,
    /// Golly's macrocell format, HashLife's quadtree.
    Macrocell,
}

impl Format {
    /// The format a file name's extension suggests.
    pub fn from_path(path: &Path) -> Option<Format> {
        let mut ext = path.extension()?.to_str()?.to_ascii_lowercase();
        if ext == "gz" {
            // `glider.rle.gz`: the format is the name's inner extension.
            ext = Path::new(path.file_stem()?)
                .extension()?
                .to_str()?
                .to_ascii_lowercase();
        }
        match ext.as_str() {
            "rle" => Some(Format::Rle),
            "cells" => Some(Format::Cells),
            "lif" | "life" | "l" | "06" => Some(Format::Life),
            "mc" => Some(Format::Macrocell),
            _ => None,
        }
    }

    /// The format of a file's text, from its first non-empty line.
    pub fn sniff(text: &str) -> Format {
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("");
        if first.starts_with("#Life 1.0") {
            Format::Life
        } else if first.starts_with("[M2]") {
            Format::Macrocell
        } else if first.starts_with('!') || first.bytes().all(|b| matches!(b, b'.' | b'O' | b'*')) {
            Format::Cells
        } else {
            Format::Rle
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Rle => "rle",
            Format::Cells => "cells",
            Format::Life => "lif",
            Format::Macrocell => "mc",
        }
    }
}

/// What is wrong with a pattern's text, and where (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl ParseError {
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            column,
            message: message.into(),
        }
    }

    fn grid(line: usize, column: usize, e: GridError) -> Self {
        Self::new(line, column, e.to_string())
    }
}

/// Why a pattern file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{}: no such file", path.display())]
    NotFound { path: PathBuf },
    #[error("{}: is a directory, not a file", path.display())]
    IsDirectory { path: PathBuf },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: the file is {}, larger than the {} an input file may be", path.display(), crate::grid::human_bytes(*size), crate::grid::human_bytes(MAX_FILE_BYTES))]
    TooLarge { path: PathBuf, size: u64 },
    #[error("{}:{}:{}: {}", path.display(), error.line, error.column, error.message)]
    Parse { path: PathBuf, error: ParseError },
}

/// Parses text in the given format.
pub fn parse(text: &str, format: Format) -> Result<Pattern, ParseError> {
    match format {
        Format::Rle => rle::parse(text),
        Format::Cells => cells::parse(text),
        Format::Life if text.trim_start().starts_with("#Life 1.05") => life105::parse(text),
        Format::Life => life106::parse(text),
        Format::Macrocell => macrocell_pattern(text),
    }
}

/// A macrocell file as one bitmap, for callers that take patterns (the app's paste); the
/// simulation setup reads large ones as tiles instead.
fn macrocell_pattern(text: &str) -> Result<Pattern, ParseError> {
    let mc = macrocell::parse(text)?;
    let last = text.lines().count().max(1);
    let limit = crate::memory::limit().bytes / 4;
    let tiles = mc.to_tiles(limit).map_err(|e| {
        ParseError::new(
            last,
            1,
            format!("{e}, more than a quarter of lifelab's memory"),
        )
    })?;
    let mut states = None;
    let cells = match tiles.bounds() {
        None => Grid::new(0, 0),
        Some(b) => {
            let (w, h) = (b.width(), b.height());
            Grid::check_torus_size(w, h).map_err(|e| ParseError::grid(last, 1, e))?;
            if tiles.has_states() {
                states = Some(
                    (0..h as i64)
                        .flat_map(|y| (0..w as i64).map(move |x| (x, y)))
                        .map(|(x, y)| tiles.state(b.left + x, b.top + y))
                        .collect(),
                );
            }
            tiles.crop(crate::geometry::CellRect::new(
                b.left, b.top, w as u32, h as u32,
            ))
        }
    };
    Ok(Pattern {
        cells,
        name: None,
        author: None,
        comments: mc.comments,
        rule: mc.rule,
        warnings: Vec::new(),
        states,
        origin: None,
    })
}

/// Whether a file's text is MCell's (read only: lifelab writes the other formats).
pub fn is_mcell(text: &str) -> bool {
    text.trim_start().starts_with("#MCell")
}

/// Parses raw bytes: checks they are UTF-8 (naming the first bad byte's place), then sniffs the
/// format unless one is given.
pub fn parse_bytes(bytes: &[u8], format: Option<Format>) -> Result<Pattern, ParseError> {
    let text = utf8(bytes)?;
    if is_mcell(text) {
        return mcell::parse(text);
    }
    // The content decides: files named `.rle` that hold plaintext are common enough.
    let sniffed = Format::sniff(text);
    let format = match (format, sniffed) {
        (Some(Format::Rle), Format::Cells) if text.contains('$') => Format::Rle,
        (_, sniffed) => sniffed,
    };
    parse(text, format)
}

/// The bytes as text, or an error naming the line and column of the first byte that is not
/// UTF-8.
pub fn utf8(bytes: &[u8]) -> Result<&str, ParseError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let column = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
        ParseError::new(
            line,
            column,
            format!("byte 0x{:02x} is not UTF-8 text", bytes[e.valid_up_to()]),
        )
    })
}

/// Loads a pattern file. The format comes from the file's content (its extension only breaks
/// ties), and every failure names the file.
pub fn load_file(path: &Path) -> Result<Pattern, LoadError> {
    let bytes = read_file(path)?;
    let hint = Format::from_path(path);
    // Rule files beside the pattern come first, as in Golly.
    let folder = path.parent().unwrap_or(Path::new("."));
    crate::rule::loader::in_folder(folder, || parse_bytes(&bytes, hint)).map_err(|error| {
        LoadError::Parse {
            path: path.to_path_buf(),
            error,
        }
    })
}

/// Reads an input file whole, refusing directories and files over [`MAX_FILE_BYTES`] before
/// reading anything. Other text inputs (game trees) use it too.
pub fn read_file(path: &Path) -> Result<Vec<u8>, LoadError> {
    let meta = std::fs::metadata(path).map_err(|source| match source.kind() {
        std::io::ErrorKind::NotFound => LoadError::NotFound {
            path: path.to_path_buf(),
        },
        _ => LoadError::Io {
            path: path.to_path_buf(),
            source,
        },
    })?;
    if meta.is_dir() {
        return Err(LoadError::IsDirectory {
            path: path.to_path_buf(),
        });
    }
    let too_large = |size| LoadError::TooLarge {
        path: path.to_path_buf(),
        size,
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large(meta.len()));
    }
    let io = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    // The length of a pipe or a device says nothing: the read itself stops past the limit.
    let file = std::fs::File::open(path).map_err(io)?;
    let raw = read_at_most(file, MAX_FILE_BYTES).map_err(io)?;
    if raw.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(raw.len() as u64));
    }
    if !raw.starts_with(&[0x1f, 0x8b]) {
        return Ok(raw);
    }
    let text = read_at_most(flate2::read::MultiGzDecoder::new(&raw[..]), MAX_FILE_BYTES).map_err(
        |source| LoadError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::new(
                source.kind(),
                format!("the file is gzip-compressed but does not decompress: {source}"),
            ),
        },
    )?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(text.len() as u64));
    }
    Ok(text)
}

/// Up to `limit + 1` bytes of a reader: one more than the limit says that it was exceeded.
fn read_at_most(reader: impl std::io::Read, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    reader.take(limit + 1).read_to_end(&mut out)?;
    Ok(out)
}

/// Writes a pattern in the given format.
pub fn write(pattern: &Pattern, format: Format) -> String {
    match format {
        Format::Rle => rle::write(pattern),
        Format::Cells => cells::write(pattern),
        Format::Life => life106::write(pattern),
        Format::Macrocell => {
            let at = (
                -(pattern.width() as i64 / 2),
                -(pattern.height() as i64 / 2),
            );
            let states_form = pattern
                .rule
                .is_some_and(|r| macrocell::Macrocell::states_form_for(&r));
            let mut mc = if states_form {
                macrocell::Macrocell::from_tiles_with_states(&pattern.to_tiles(at))
            } else {
                macrocell::Macrocell::from_tiles(&crate::tiles::TileMap::from_grid(
                    &pattern.cells,
                    at,
                ))
            };
            mc.rule = pattern.rule;
            mc.comments = pattern
                .name
                .iter()
                .chain(&pattern.comments)
                .cloned()
                .collect();
            mc.write()
        }
    }
}

/// What writing `pattern` in `format` would leave out, in words, so that a save can warn.
pub fn dropped(pattern: &Pattern, format: Format) -> Vec<String> {
    let mut out = Vec::new();
    let has_text =
        pattern.name.is_some() || pattern.author.is_some() || !pattern.comments.is_empty();
    match format {
        Format::Life if has_text => out.push(
            "Life 1.06 has no place for the name, author and comments: they are not written".into(),
        ),
        Format::Cells if pattern.rule.is_some() => out.push(
            "plaintext (.cells) keeps the rule only in a '!Rule:' comment, which lifelab reads and Golly does not".into(),
        ),
        Format::Macrocell if pattern.author.is_some() => {
            out.push("the macrocell format keeps the author only as a comment".into())
        }
        _ => {}
    }
    out
}

/// Saves a pattern; the format comes from the extension (RLE when there is none).
pub fn save_file(pattern: &Pattern, path: &Path) -> std::io::Result<()> {
    let format = Format::from_path(path).unwrap_or(Format::Rle);
    write_atomically(path, write(pattern, format).as_bytes())
}

/// Replaces `path` with `bytes` all at once: they go to a temporary file in the same folder,
/// flushed to disk, which is then renamed over the old file. A write that fails (a full disk)
/// or is killed half-way leaves the old file as it was, never a truncated one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".lifelab-");
    // The new file keeps the old one's permissions, or gets a plain file's: a temporary file
    // is made readable by its owner only.
    #[cfg(unix)]
    builder.permissions(match std::fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => std::os::unix::fs::PermissionsExt::from_mode(0o644),
    });
    let mut file = builder.tempfile_in(folder)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

impl fmt::Display for Pattern {
    /// RLE, the lingua franca.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&rle::write(self))
    }
}

/// Builds a bitmap from live cells given relative to an arbitrary origin, for the formats that
/// list coordinates. The bitmap is the cells' bounding box.
fn bitmap_from_points(points: &[(i64, i64)], line: usize) -> Result<Grid, ParseError> {
    let Some(&(x0, y0)) = points.first() else {
        return Ok(Grid::new(0, 0));
    };
    let (mut min_x, mut max_x, mut min_y, mut max_y) = (x0, x0, y0, y0);
    for &(x, y) in points {
        min_x = min_x.min(x);
        max_x = max_x.max(x);
        min_y = min_y.min(y);
        max_y = max_y.max(y);
    }
    let width = (max_x as i128 - min_x as i128 + 1) as u64;
    let height = (max_y as i128 - min_y as i128 + 1) as u64;
    if width > crate::grid::MAX_DIMENSION as u64 || height > crate::grid::MAX_DIMENSION as u64 {
        return Err(ParseError::new(
            line,
            1,
            format!(
                "the cells span {width}x{height}, more than the largest grid side {}",
                crate::grid::MAX_DIMENSION
            ),
        ));
    }
    let mut grid = Grid::try_new_bitmap(width as u32, height as u32)
        .map_err(|e| ParseError::grid(line, 1, e))?;
    for &(x, y) in points {
        grid.set((x - min_x) as u32, (y - min_y) as u32, true);
    }
    Ok(grid)
}
