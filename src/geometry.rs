//! Where cells are: rectangles of cells and the box of the live ones, in the `i64`
//! coordinates every universe uses (wrapping on a torus, as they are on the plane).

/// A rectangle of cells, `x..x+width` by `y..y+height`; on a torus it may run over the edge and
/// wraps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct CellRect {
    pub x: i64,
    pub y: i64,
    pub width: u32,
    pub height: u32,
}

impl CellRect {
    pub fn new(x: i64, y: i64, width: u32, height: u32) -> Self {
        Self {
            x,
            y,
            width,
            height,
        }
    }

    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= self.x
            && y >= self.y
            && x < self.x + self.width as i64
            && y < self.y + self.height as i64
    }
}

/// The smallest rectangle holding every live cell: `left..=right` by `top..=bottom`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Bounds {
    pub left: i64,
    pub top: i64,
    pub right: i64,
    pub bottom: i64,
}

impl Bounds {
    pub fn width(&self) -> u64 {
        (self.right - self.left) as u64 + 1
    }

    pub fn height(&self) -> u64 {
        (self.bottom - self.top) as u64 + 1
    }

    /// The union of two boxes.
    pub fn union(self, o: Bounds) -> Bounds {
        Bounds {
            left: self.left.min(o.left),
            top: self.top.min(o.top),
            right: self.right.max(o.right),
            bottom: self.bottom.max(o.bottom),
        }
    }

    /// As a rectangle, when it is small enough to be one.
    pub fn rect(&self) -> Option<CellRect> {
        Some(CellRect::new(
            self.left,
            self.top,
            u32::try_from(self.width()).ok()?,
            u32::try_from(self.height()).ok()?,
        ))
    }
}

/// How Golly joins the edges of a bounded grid other than the plain torus (`:P`, a shifted `:T`,
/// `:K`, `:C`, `:S`). Golly computes such a grid by copying cells into a one-cell border round
/// it before each generation (`lifealgo::CreateBorderCells`); [`Edges::resolve`] says which cell
/// each border cell is a copy of, so a rule of range one reads the same neighbours here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(tag = "edges", rename_all = "snake_case")]
pub enum Edges {
    /// `:P<w>,<h>`: nothing beyond the edges.
    #[default]
    Plane,
    /// `:T<w>+<s>,<h>`: a torus whose top and bottom edges meet `s` cells apart (one of the two
    /// shifts is zero).
    ShiftedTorus { horizontal: i32, vertical: i32 },
    /// `:K<w>*,<h>`: a Klein bottle whose top and bottom edges are joined with a half turn;
    /// `shifted` is Golly's `*+1`, on an even width.
    KleinTopBottom { shifted: bool },
    /// `:K<w>,<h>*`: a Klein bottle whose left and right edges are joined with a half turn.
    KleinLeftRight { shifted: bool },
    /// `:C<w>,<h>`: the cross-surface, both pairs of edges joined with a half turn.
    CrossSurface,
    /// `:S<w>`: the sphere, a square whose top edge is joined to its left, and its bottom to its
    /// right.
    Sphere,
}

impl Edges {
    /// The cell of a `w x h` grid that (x, y) reads: itself inside the grid; beyond an edge by
    /// one cell (corners included), the cell Golly copies there; `None` where nothing is (the
    /// bounded plane, or further out).
    pub fn resolve(self, x: i64, y: i64, w: i64, h: i64) -> Option<(i64, i64)> {
        let (x_in, y_in) = ((0..w).contains(&x), (0..h).contains(&y));
        if x_in && y_in {
            return Some((x, y));
        }
        if !(-1..=w).contains(&x) || !(-1..=h).contains(&y) {
            return None;
        }
        let wrap = |v: i64, n: i64| v.rem_euclid(n);
        // Where both pairs of edges are twisted, a corner reads the grid's own corner.
        let own_corner = || Some((x.clamp(0, w - 1), y.clamp(0, h - 1)));
        match self {
            Edges::Plane => None,
            // The shifted pair's border rows (corners included) are read along the shift; the
            // other pair meets as on a torus.
            Edges::ShiftedTorus { horizontal, .. } if horizontal != 0 => {
                let s = horizontal as i64;
                match y {
                    -1 => Some((wrap(x - s, w), h - 1)),
                    _ if y == h => Some((wrap(x + s, w), 0)),
                    _ => Some((wrap(x, w), y)),
                }
            }
            Edges::ShiftedTorus { vertical, .. } => {
                let s = vertical as i64;
                match x {
                    -1 => Some((w - 1, wrap(y - s, h))),
                    _ if x == w => Some((0, wrap(y + s, h))),
                    _ => Some((x, wrap(y, h))),
                }
            }
            // Half a turn reads column w-1-x across the top and bottom; Golly's shift by one
            // moves that one column further.
            Edges::KleinTopBottom { shifted } if !y_in => {
                let across = wrap(w - 1 - shifted as i64 - x, w);
                Some((across, if y == -1 { h - 1 } else { 0 }))
            }
            Edges::KleinTopBottom { .. } => Some((wrap(x, w), y)),
            Edges::KleinLeftRight { shifted } if !x_in => {
                let across = wrap(h - 1 - shifted as i64 - y, h);
                Some((if x == -1 { w - 1 } else { 0 }, across))
            }
            Edges::KleinLeftRight { .. } => Some((x, wrap(y, h))),
            Edges::CrossSurface if !x_in && !y_in => own_corner(),
            Edges::CrossSurface if !y_in => Some((w - 1 - x, if y == -1 { h - 1 } else { 0 })),
            Edges::CrossSurface => Some((if x == -1 { w - 1 } else { 0 }, h - 1 - y)),
            Edges::Sphere if !x_in && !y_in => own_corner(),
            Edges::Sphere if x == -1 => Some((y, 0)),
            Edges::Sphere if x == w => Some((y, h - 1)),
            Edges::Sphere if y == -1 => Some((0, x)),
            Edges::Sphere => Some((w - 1, x)),
        }
    }

    /// Golly's canonical suffix for a `w x h` grid with these edges: `:K40*,20`, `:T30+7,20`.
    pub fn suffix(self, w: u32, h: u32) -> String {
        let signed = |s: i32| {
            if s < 0 {
                s.to_string()
            } else {
                format!("+{s}")
            }
        };
        match self {
            Edges::Plane => format!(":P{w},{h}"),
            Edges::ShiftedTorus { horizontal, .. } if horizontal != 0 => {
                format!(":T{w}{},{h}", signed(horizontal))
            }
            Edges::ShiftedTorus { vertical, .. } => format!(":T{w},{h}{}", signed(vertical)),
            Edges::KleinTopBottom { shifted } => {
                format!(":K{w}*{},{h}", if shifted { "+1" } else { "" })
            }
            Edges::KleinLeftRight { shifted } => {
                format!(":K{w},{h}*{}", if shifted { "+1" } else { "" })
            }
            Edges::CrossSurface => format!(":C{w},{h}"),
            Edges::Sphere => format!(":S{w}"),
        }
    }

    /// What a reader calls it: `a Klein bottle`.
    pub fn name(self) -> &'static str {
        match self {
            Edges::Plane => "bounded plane",
            Edges::ShiftedTorus { .. } => "shifted torus",
            Edges::KleinTopBottom { .. } | Edges::KleinLeftRight { .. } => "Klein bottle",
            Edges::CrossSurface => "cross-surface",
            Edges::Sphere => "sphere",
        }
    }
}

/// Golly's grids infinite one way. The tube (`:T0,<h>`, `:T<w>,0`) is a torus one way: its
/// finite side wraps round as a torus's. The strip (`:P0,<h>`, `:P<w>,0`) is a bounded plane
/// one way: nothing lives beyond its finite side. Along the other side a pattern spreads for
/// ever.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(tag = "tube", rename_all = "snake_case")]
pub enum Tube {
    /// `:T0,<h>`: infinitely wide, its `height` rows wrapping top to bottom.
    Wide { height: u32 },
    /// `:T<w>,0`: infinitely tall, its `width` columns wrapping left to right.
    Tall { width: u32 },
    /// `:P0,<h>`: infinitely wide, `height` rows high, dead above and below them.
    WideStrip { height: u32 },
    /// `:P<w>,0`: infinitely tall, `width` columns wide, dead left and right of them.
    TallStrip { width: u32 },
}

impl Tube {
    /// The finite side, as (width, height); the unbounded side is `None`.
    pub fn sides(self) -> (Option<u32>, Option<u32>) {
        match self {
            Tube::Wide { height } | Tube::WideStrip { height } => (None, Some(height)),
            Tube::Tall { width } | Tube::TallStrip { width } => (Some(width), None),
        }
    }

    /// Whether the finite side ends in dead cells (a strip) rather than wrapping (a tube).
    pub fn is_strip(self) -> bool {
        matches!(self, Tube::WideStrip { .. } | Tube::TallStrip { .. })
    }

    /// The sides that wrap, as (width, height): a tube's finite side, a strip's none.
    pub fn wrapped_sides(self) -> (Option<u32>, Option<u32>) {
        if self.is_strip() {
            (None, None)
        } else {
            self.sides()
        }
    }

    /// The cell (x, y) brought into the tube: wrapped round its finite side (a strip's cells
    /// are where they are).
    pub fn wrap(self, x: i64, y: i64) -> (i64, i64) {
        match self {
            Tube::Wide { height } => (x, y.rem_euclid(height as i64)),
            Tube::Tall { width } => (x.rem_euclid(width as i64), y),
            Tube::WideStrip { .. } | Tube::TallStrip { .. } => (x, y),
        }
    }

    /// Whether cell (x, y) lies on the grid: always round a tube, within a strip's finite side
    /// (cells 0 to side - 1).
    pub fn holds(self, x: i64, y: i64) -> bool {
        match self {
            Tube::WideStrip { height } => (0..height as i64).contains(&y),
            Tube::TallStrip { width } => (0..width as i64).contains(&x),
            Tube::Wide { .. } | Tube::Tall { .. } => true,
        }
    }

    /// Golly's canonical suffix: `:T0,68`, `:P0,68`.
    pub fn suffix(self) -> String {
        match self {
            Tube::Wide { height } => format!(":T0,{height}"),
            Tube::Tall { width } => format!(":T{width},0"),
            Tube::WideStrip { height } => format!(":P0,{height}"),
            Tube::TallStrip { width } => format!(":P{width},0"),
        }
    }

    /// `an infinitely wide tube 68 cells round (Golly's :T0,68)`, `an infinitely wide strip 68
    /// cells high (Golly's :P0,68)`.
    pub fn describe(self) -> String {
        let cells = |n: u32| {
            if n == 1 {
                "1 cell".to_string()
            } else {
                format!("{n} cells")
            }
        };
        let (way, side) = match self {
            Tube::Wide { height } => ("wide tube", format!("{} round", cells(height))),
            Tube::Tall { width } => ("tall tube", format!("{} round", cells(width))),
            Tube::WideStrip { height } => ("wide strip", format!("{} high", cells(height))),
            Tube::TallStrip { width } => ("tall strip", format!("{} wide", cells(width))),
        };
        format!("an infinitely {way} {side} (Golly's {})", self.suffix())
    }
}

#[cfg(test)]
mod tests {
    use super::Edges;

    /// Golly's own pictures of its bounded grids (the comments of `lifealgo.cpp`'s
    /// `JoinTwistedEdges`, `JoinShiftedEdges` and `JoinAdjacentEdges`): the grid's cells in
    /// capitals, and round them, in lower case, the cell each border cell copies. (The pictures
    /// of the shifted Klein bottles there disagree with Golly's code by two cells; those are
    /// checked against bgolly itself, in `tests/golly.rs`.)
    #[test]
    fn each_border_cell_reads_the_cell_golly_draws_there() {
        let pictures: [(Edges, &str); 7] = [
            (Edges::CrossSurface, "alkjid lABCDi hEFGHe dIJKLa idcbal"),
            (
                Edges::KleinTopBottom { shifted: false },
                "ilkjil dABCDa hEFGHe lIJKLi adcbad",
            ),
            (
                Edges::KleinLeftRight { shifted: false },
                "dijkla lABCDi hEFGHe dIJKLa labcdi",
            ),
            (
                Edges::ShiftedTorus {
                    horizontal: 1,
                    vertical: 0,
                },
                "klijkl dABCDa hEFGHe lIJKLi abcdab",
            ),
            (
                Edges::ShiftedTorus {
                    horizontal: 0,
                    vertical: 1,
                },
                "hijkla lABCDe dEFGHi hIJKLa labcde",
            ),
            (Edges::Sphere, "aadgc aABCg bDEFh cGHIi gcfii"),
            (Edges::Plane, "..... .ABC. .DEF. .GHI. ....."),
        ];
        for (edges, picture) in pictures {
            // Border letters name grid cells; the grid's own row gives the letters' places.
            let rows: Vec<Vec<char>> = picture
                .split_whitespace()
                .map(|r| r.chars().collect())
                .collect();
            let (w, h) = (rows[0].len() as i64 - 2, rows.len() as i64 - 2);
            let place = |c: char| {
                (0..h)
                    .flat_map(|y| (0..w).map(move |x| (x, y)))
                    .find(|&(x, y)| rows[y as usize + 1][x as usize + 1] == c)
            };
            for (by, row) in rows.iter().enumerate() {
                for (bx, &c) in row.iter().enumerate() {
                    let (x, y) = (bx as i64 - 1, by as i64 - 1);
                    let want = if c == '.' {
                        None
                    } else {
                        Some(place(c.to_ascii_uppercase()).expect("a letter of the grid"))
                    };
                    assert_eq!(
                        edges.resolve(x, y, w, h),
                        want,
                        "{edges:?} at ({x}, {y}): {c}"
                    );
                }
            }
            assert_eq!(edges.resolve(-2, 0, w, h), None);
            assert_eq!(edges.resolve(0, h + 1, w, h), None);
        }
    }

    #[test]
    fn suffixes_are_golly_s_canonical_ones() {
        assert_eq!(
            Edges::KleinTopBottom { shifted: false }.suffix(40, 20),
            ":K40*,20"
        );
        assert_eq!(
            Edges::KleinLeftRight { shifted: true }.suffix(3, 4),
            ":K3,4*+1"
        );
        assert_eq!(Edges::CrossSurface.suffix(40, 20), ":C40,20");
        assert_eq!(Edges::Sphere.suffix(30, 30), ":S30");
        let shifted = Edges::ShiftedTorus {
            horizontal: 7,
            vertical: 0,
        };
        assert_eq!(shifted.suffix(30, 20), ":T30+7,20");
        let shifted = Edges::ShiftedTorus {
            horizontal: 0,
            vertical: -3,
        };
        assert_eq!(shifted.suffix(30, 20), ":T30,20-3");
    }
}
