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
