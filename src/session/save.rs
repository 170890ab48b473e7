//! Writing what an engine holds to a pattern file, in the format the file's extension names,
//! refusing up front what could not be read back.

use std::path::Path;

use anyhow::{Context, bail};

use crate::engine::{Engine, Universe};
use crate::pattern::macrocell::Macrocell;
use crate::pattern::{self, Format, MAX_FILE_BYTES, Pattern};

/// What a saved file says besides its cells.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    pub name: Option<String>,
    pub author: Option<String>,
    pub comments: Vec<String>,
}

/// A file's text, and what its format could not keep.
pub struct Written {
    pub text: String,
    pub warnings: Vec<String>,
}

/// The engine's cells as text in `format`, with the rule (and the torus) in the header.
pub fn text_of(engine: &mut dyn Engine, meta: &Meta, format: Format) -> anyhow::Result<Written> {
    let universe = engine.universe();
    let mut rule = *engine.rule();
    // The universe goes into the rule's suffix: a torus as `:T`, Golly's other bounded grids
    // as theirs (`:P`, `:K`, `:C`, `:S`, a shifted `:T`), so that a file reopens on its grid.
    (rule.torus, rule.bounded, rule.tube) = match universe {
        Universe::Torus { width, height } => (Some((width, height)), None, None),
        Universe::Bounded {
            width,
            height,
            edges,
        } => (None, Some((width, height, edges)), None),
        Universe::Tube(t) => (None, None, Some(t)),
        Universe::Plane => (None, None, None),
    };
    let multi_state = rule.states() > 2;
    if multi_state && !matches!(format, Format::Rle | Format::Macrocell) {
        bail!(
            "rule {rule} has {} states, and lifelab writes multi-state cells as RLE or macrocell only; save it as .rle or .mc",
            rule.states()
        );
    }
    if format == Format::Macrocell {
        // An engine that keeps a quadtree gives its nodes as they are; the others' cells are
        // built into one.
        let states_form = Macrocell::states_form_for(&rule);
        let mut mc = match engine.export_quadtree()? {
            Some(mc) if states_form && !mc.is_multi_state() => mc.with_states(),
            Some(mc) => mc,
            None => {
                let mut tiles = engine.export()?;
                // Golly centres a bounded grid (a tube round its circumference) on the origin,
                // and a macrocell's rows are one lower in Golly than lifelab's corner says.
                let (x, y) = crate::session::setup::macrocell_centre(universe);
                if (x, y) != (0, 0) {
                    tiles = tiles.shifted(-x, -y);
                }
                if states_form {
                    Macrocell::from_tiles_with_states(&tiles)
                } else {
                    Macrocell::from_tiles(&tiles)
                }
            }
        };
        mc.rule = Some(rule);
        mc.generation = engine.generation();
        mc.comments = meta.name.iter().chain(&meta.comments).cloned().collect();
        return Ok(Written {
            text: mc.write(),
            warnings: Vec::new(),
        });
    }
    // The cells, and each cell's state when the rule has more than two.
    let bounds = engine.bounds()?;
    let (cells, states) = match bounds {
        None => (crate::grid::Grid::new(0, 0), None),
        Some(b) => {
            let (w, h) = (b.width(), b.height());
            if let Some(bytes) = estimated_bytes(format, w, h, engine.population()?)
                && bytes > MAX_FILE_BYTES
            {
                bail!(
                    "the pattern spans {w}x{h} cells: as {} it would take about {}, more than the {} lifelab reads back; save it as RLE or as a macrocell file (.mc)",
                    format.extension(),
                    crate::memory::human_bytes(bytes),
                    crate::memory::human_bytes(MAX_FILE_BYTES)
                );
            }
            crate::grid::Grid::check_torus_size(w, h).with_context(|| {
                format!("the pattern spans {w}x{h} cells; save it as a macrocell file (.mc), which stores only what is there")
            })?;
            let rect = b.rect().expect("checked above");
            if multi_state {
                // Read from the engine's tiles a word and a dying cell at a time: a cell at a
                // time through an engine of states took 40 s for Golly's Transers (345/26/5) at
                // generation 20,000, a 20,000-cell square with 200,000 cells in it.
                let tiles = engine.export()?;
                let cells = tiles.crop(rect);
                let mut states = vec![0u8; w as usize * h as usize];
                for y in 0..h as usize {
                    for (k, &word) in cells.row(y as u32).iter().enumerate() {
                        let mut bits = word;
                        while bits != 0 {
                            let x = k * 64 + bits.trailing_zeros() as usize;
                            states[y * w as usize + x] = 1;
                            bits &= bits - 1;
                        }
                    }
                }
                for (x, y, v) in tiles.dying_cells() {
                    if (b.left..=b.right).contains(&x) && (b.top..=b.bottom).contains(&y) {
                        states[(y - b.top) as usize * w as usize + (x - b.left) as usize] = v;
                    }
                }
                (cells, Some(states))
            } else {
                (engine.cells_in(rect)?, None)
            }
        }
    };
    let p = Pattern {
        cells,
        name: meta.name.clone(),
        author: meta.author.clone(),
        comments: meta.comments.clone(),
        rule: Some(rule),
        warnings: Vec::new(),
        states,
        // Where the cells are matters on a bounded grid that is not a torus (a wall, a twist):
        // the writer gives it as Golly's `#CXRLE Pos`.
        origin: match (universe, bounds) {
            (Universe::Bounded { .. }, Some(b)) => Some((b.left, b.top)),
            _ => None,
        },
    };
    Ok(Written {
        text: pattern::write(&p, format),
        warnings: pattern::dropped(&p, format),
    })
}

/// About how large a file of a `w x h` box with `population` cells would be.
fn estimated_bytes(format: Format, w: u64, h: u64, population: u64) -> Option<u64> {
    match format {
        Format::Cells => Some((w + 1).saturating_mul(h)),
        Format::Life => Some(population.saturating_mul(16)),
        Format::Rle => Some(population.saturating_mul(8).saturating_add(h * 4)),
        Format::Macrocell => None,
    }
}

/// Writes the engine's cells to `path`; the extension chooses the format (RLE when there is
/// none). Returns what the format could not keep.
pub fn write_engine(
    engine: &mut dyn Engine,
    meta: &Meta,
    path: &Path,
) -> anyhow::Result<Vec<String>> {
    let format = Format::from_path(path).unwrap_or(Format::Rle);
    let written = text_of(engine, meta, format)?;
    crate::pattern::write_atomically(path, written.text.as_bytes())
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(written.warnings)
}
