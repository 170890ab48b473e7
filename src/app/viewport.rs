//! The view onto the universe: which cell is at the view's top-left corner and how many screen
//! points a cell takes. Pure arithmetic, tested without a window; the shader in
//! `shaders/view.wgsl` does the same mapping per pixel.
//!
//! On a torus coordinates wrap (the origin is kept inside it); on the unbounded plane they do
//! not; a bounded picture (the space-time diagram) neither wraps nor extends.
//!
//! Hexagonal rules are drawn as hexagons. Golly's hexagonal neighbourhood of (x, y) is the
//! square one without (x+1, y-1) and (x-1, y+1); shifting each row half a cell left of the one
//! above it (and spacing rows by √3/2) puts exactly those six neighbours around each cell. The
//! view then works in "display" coordinates, X = x - y/2 and Y = y·√3/2, and the origin is
//! kept in them; each cell is the hexagon of display points nearest its centre.

use crate::engine::{CellRect, Universe};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// The cell coordinates (fractional) at the view's top-left point, kept inside a torus.
    pub origin: (f64, f64),
    /// Screen points per cell: 32 is zoomed in, 1/16 shows 16 cells per point.
    pub zoom: f64,
    /// The size for wrapping (a torus) or of the picture (bounded); unused on the plane.
    pub torus: (u32, u32),
    /// The unbounded plane: no wrapping.
    pub plane: bool,
    /// A picture with edges (the space-time diagram) rather than a torus: the view does not
    /// wrap, and fitting fills the view exactly.
    pub bounded: bool,
    /// Hexagonal cells (see the module's comment); the origin is then in display coordinates.
    pub hex: bool,
    /// Grid lines, zoomed in (View > Grid lines).
    pub grid: bool,
    /// Golly's infinite strip: its finite side, as (width, height), whose two edges the view
    /// draws (the strip is otherwise drawn as the plane).
    pub strip: Option<(Option<u32>, Option<u32>)>,
}

/// A strip's finite side, `None` for any other universe.
fn strip_sides(universe: Universe) -> Option<(Option<u32>, Option<u32>)> {
    universe.tube().filter(|t| t.is_strip()).map(|t| t.sides())
}

/// The spacing of hexagonal rows, √3/2 of a cell's width.
pub const ROW: f64 = 0.866_025_403_784_438_6;

/// Display coordinates of a point given in cell coordinates (hexagonal view).
pub fn hex_display(x: f64, y: f64) -> (f64, f64) {
    (x - y / 2.0, y * ROW)
}

/// Cell coordinates of a display point (hexagonal view).
pub fn hex_cell_point(dx: f64, dy: f64) -> (f64, f64) {
    let y = dy / ROW;
    (dx + y / 2.0, y)
}

/// The cell whose hexagon holds the point `(x, y)` (in continuous cell coordinates): the cell
/// whose centre is nearest in the display metric. Also how far the point is from the nearest
/// hexagon edge, in display units (for the grid lines).
pub fn hex_cell(x: f64, y: f64) -> ((i64, i64), f64) {
    let mut best = [(f64::MAX, (0i64, 0i64)); 2];
    let row = (y - 0.5).floor() as i64;
    for cy in [row, row + 1] {
        // In row cy, the nearest centres lie either side of this column.
        let dy = y - (cy as f64 + 0.5);
        let ideal = x - 0.5 - dy / 2.0;
        for cx in [ideal.floor() as i64, ideal.floor() as i64 + 1] {
            let dx = x - (cx as f64 + 0.5);
            let (ex, ey) = (dx - dy / 2.0, dy * ROW);
            let d = (ex * ex + ey * ey).sqrt();
            if d < best[0].0 {
                best[1] = best[0];
                best[0] = (d, (cx, cy));
            } else if d < best[1].0 {
                best[1] = (d, (cx, cy));
            }
        }
    }
    // Half the gap between the two nearest centres' distances is (near enough, for a
    // line a pixel wide) the distance to the edge between them.
    (best[0].1, (best[1].0 - best[0].0) / 2.0)
}

impl Viewport {
    /// From 64 points per cell down to 1 point per 2^20 cells.
    pub const MAX_ZOOM: f64 = 64.0;
    pub const MIN_ZOOM: f64 = 1.0 / (1 << 20) as f64;
    /// Fitting a pattern zooms in no further than this.
    pub const FIT_MAX_ZOOM: f64 = 16.0;
    /// Grid lines appear from this zoom on (while they are on).
    pub const GRID_LINES_FROM: f64 = 8.0;
    /// Live cells keep a gap a pixel wide from this zoom on, as in Golly, so that neighbours
    /// read as separate cells with the grid off too.
    pub const GAPS_FROM: f64 = 4.0;

    pub fn new(torus: (u32, u32)) -> Self {
        Self {
            origin: (0.0, 0.0),
            zoom: 1.0,
            torus,
            plane: false,
            bounded: false,
            hex: false,
            grid: true,
            strip: None,
        }
    }

    /// A view of `universe`.
    pub fn of(universe: Universe) -> Self {
        match universe {
            Universe::Torus { width, height } => Self::new((width, height)),
            // Golly's bounded plane: one picture, which neither wraps nor extends.
            Universe::Bounded { width, height, .. } => Self::bounded((width, height)),
            // A tube is drawn as the plane, its cells repeated round it (the engine wraps them);
            // a strip as the plane with its edges.
            Universe::Plane | Universe::Tube(_) => Self {
                plane: true,
                strip: strip_sides(universe),
                ..Self::new((1, 1))
            },
        }
    }

    /// A view of a bounded picture `size` cells big.
    pub fn bounded(size: (u32, u32)) -> Self {
        Self {
            bounded: true,
            ..Self::new(size)
        }
    }

    pub fn wraps(&self) -> bool {
        !self.plane && !self.bounded
    }

    /// The display coordinates under a point given relative to the view's top-left.
    fn screen_to_display(&self, p: (f64, f64)) -> (f64, f64) {
        (
            self.origin.0 + p.0 / self.zoom,
            self.origin.1 + p.1 / self.zoom,
        )
    }

    fn display_of(&self, c: (f64, f64)) -> (f64, f64) {
        if self.hex { hex_display(c.0, c.1) } else { c }
    }

    fn cell_of_display(&self, d: (f64, f64)) -> (f64, f64) {
        if self.hex {
            hex_cell_point(d.0, d.1)
        } else {
            d
        }
    }

    /// The (unwrapped, continuous) cell coordinates under a point given relative to the view's
    /// top-left.
    pub fn screen_to_cell(&self, p: (f64, f64)) -> (f64, f64) {
        self.cell_of_display(self.screen_to_display(p))
    }

    /// Switches between square and hexagonal cells, keeping the cell at the view's centre
    /// where it is (`size` is the view's).
    pub fn set_hex(&mut self, hex: bool, size: (f64, f64)) {
        if hex == self.hex {
            return;
        }
        let centre = self.screen_to_cell((size.0 / 2.0, size.1 / 2.0));
        self.hex = hex;
        self.centre_on(size, centre);
    }

    /// A cell's coordinates brought into the universe (wrapped on a torus).
    pub fn wrap_cell(&self, c: (i64, i64)) -> (i64, i64) {
        if self.wraps() {
            (
                c.0.rem_euclid(self.torus.0 as i64),
                c.1.rem_euclid(self.torus.1 as i64),
            )
        } else {
            c
        }
    }

    /// The unwrapped cell under a point (relative to the view's top-left): the hexagon
    /// holding it in a hexagonal view.
    pub fn cell_at_unwrapped(&self, p: (f64, f64)) -> (i64, i64) {
        let (x, y) = self.screen_to_cell(p);
        if self.hex {
            hex_cell(x, y).0
        } else {
            (x.floor() as i64, y.floor() as i64)
        }
    }

    /// The cell under a point (relative to the view's top-left), wrapped on a torus.
    pub fn cell_at(&self, p: (f64, f64)) -> (i64, i64) {
        self.wrap_cell(self.cell_at_unwrapped(p))
    }

    /// Where the top-left corner of a cell appears (in a hexagonal view, the corner of the
    /// sheared square that holds its hexagon); on a torus, for the copy nearest the view's
    /// top-left (cells above or left of the origin wrap round to the right and below).
    pub fn cell_to_screen(&self, cell: (i64, i64)) -> (f64, f64) {
        let (mut x, mut y) = (cell.0 as f64, cell.1 as f64);
        if self.wraps() {
            let (w, h) = (self.torus.0 as f64, self.torus.1 as f64);
            // The copy of the row at or below the view's top...
            let top = self.cell_of_display(self.origin).1;
            y = top + (y - top).rem_euclid(h);
            // ...and in that row, the copy at or right of its left edge.
            let dx = self.display_of((x, y)).0 - self.origin.0;
            x -= dx.div_euclid(w) * w;
        }
        let d = self.display_of((x, y));
        (
            (d.0 - self.origin.0) * self.zoom,
            (d.1 - self.origin.1) * self.zoom,
        )
    }

    /// Where a point given in cell coordinates relative to a cell at screen point `at` appears
    /// (outlines of selections and pastes: a hexagonal view shears them).
    pub fn offset_to_screen(&self, at: (f64, f64), offset: (f64, f64)) -> (f64, f64) {
        let d = self.display_of(offset);
        (at.0 + d.0 * self.zoom, at.1 + d.1 * self.zoom)
    }

    /// On a torus, the origin moves by whole tori (which changes nothing shown) to stay
    /// inside the first one.
    fn wrap(&mut self) {
        if !self.wraps() {
            return;
        }
        let (w, h) = (self.torus.0 as f64, self.torus.1 as f64);
        if self.hex {
            // One torus down in display coordinates is (-h/2, h·√3/2).
            let k = (self.origin.1 / (h * ROW)).floor();
            self.origin.1 -= k * h * ROW;
            self.origin.0 += k * h / 2.0;
            self.origin.0 = self.origin.0.rem_euclid(w);
        } else {
            self.origin.0 = self.origin.0.rem_euclid(w);
            self.origin.1 = self.origin.1.rem_euclid(h);
        }
    }

    /// Multiplies the zoom by `factor` (clamped), keeping the cell under `p` where it is.
    pub fn zoom_about(&mut self, p: (f64, f64), factor: f64) {
        let before = self.screen_to_display(p);
        self.zoom = (self.zoom * factor).clamp(Self::MIN_ZOOM, Self::MAX_ZOOM);
        self.origin = (before.0 - p.0 / self.zoom, before.1 - p.1 / self.zoom);
        self.wrap();
    }

    /// One zoom step about `p`, as in Golly: to the next power of two in (`inwards`) or out,
    /// from whatever zoom a fit left.
    pub fn zoom_step(&mut self, p: (f64, f64), inwards: bool) {
        let k = self.zoom.log2();
        let to = if inwards {
            (k + 1e-9).floor() + 1.0
        } else {
            (k - 1e-9).ceil() - 1.0
        };
        self.zoom_about(p, 2f64.powf(to) / self.zoom);
    }

    /// Moves the picture with the mouse: a drag of `delta` points drags the cells along.
    pub fn pan(&mut self, delta: (f64, f64)) {
        self.origin.0 -= delta.0 / self.zoom;
        self.origin.1 -= delta.1 / self.zoom;
        self.wrap();
    }

    /// Zooms so that `rect` (the whole torus when `None`) fills a `size`-point view, with a
    /// margin, and centres it. Zoom steps are powers of two, as in Golly (except for a bounded
    /// picture, which fits exactly).
    pub fn fit(&mut self, size: (f64, f64), rect: Option<CellRect>) {
        let r = rect.unwrap_or(CellRect::new(0, 0, self.torus.0, self.torus.1));
        let margin = if rect.is_some() { 0.8 } else { 1.0 };
        // The rectangle's extent on screen: a hexagonal view shears it.
        let (w, h) = if self.hex {
            (
                r.width as f64 + r.height as f64 / 2.0,
                r.height as f64 * ROW,
            )
        } else {
            (r.width as f64, r.height as f64)
        };
        let fit = (size.0 / w.max(1.0)).min(size.1 / h.max(1.0)) * margin;
        let max = if rect.is_some() {
            Self::FIT_MAX_ZOOM
        } else {
            Self::MAX_ZOOM
        };
        // A bounded picture fills the view; a torus gets a power of two.
        let zoom = if self.bounded {
            fit
        } else {
            2f64.powf(fit.log2().floor())
        };
        self.zoom = zoom.clamp(Self::MIN_ZOOM, max);
        let centre = (
            r.x as f64 + r.width as f64 / 2.0,
            r.y as f64 + r.height as f64 / 2.0,
        );
        self.centre_on(size, centre);
    }

    /// Following a pattern: when any corner of `rect` is out of a `size`-point view, fits the
    /// view to it again (Golly's autofit). Whether the view moved.
    pub fn keep_in_view(&mut self, size: (f64, f64), rect: CellRect) -> bool {
        let inside = |x: i64, y: i64| {
            // On a torus, the copy of the cell nearest the view's top-left.
            let (sx, sy) = self.cell_to_screen((x, y));
            sx >= 0.0 && sy >= 0.0 && sx + self.zoom <= size.0 && sy + self.zoom <= size.1
        };
        let (right, bottom) = (
            rect.x + rect.width as i64 - 1,
            rect.y + rect.height as i64 - 1,
        );
        if inside(rect.x, rect.y) && inside(right, bottom) {
            return false;
        }
        self.fit(size, Some(rect));
        true
    }

    /// Puts cell coordinates `centre` at the middle of a `size`-point view.
    pub fn centre_on(&mut self, size: (f64, f64), centre: (f64, f64)) {
        let centre = self.display_of(centre);
        self.origin = (
            centre.0 - size.0 / 2.0 / self.zoom,
            centre.1 - size.1 / 2.0 / self.zoom,
        );
        self.wrap();
    }

    /// A new universe: the view stays on the same cell when it still exists.
    pub fn set_universe(&mut self, universe: Universe) {
        match universe {
            Universe::Torus { width, height } => {
                self.torus = (width, height);
                self.plane = false;
                self.bounded = false;
            }
            Universe::Bounded { width, height, .. } => {
                self.torus = (width, height);
                self.plane = false;
                self.bounded = true;
            }
            Universe::Plane | Universe::Tube(_) => {
                self.plane = true;
                self.bounded = false;
            }
        }
        self.strip = strip_sides(universe);
        self.wrap();
    }

    /// The strip's two edges as line segments across the view (each from and to a screen
    /// point relative to the view's top-left), for a view `size` points big.
    pub fn strip_edges(&self, size: (f64, f64)) -> Vec<[(f64, f64); 2]> {
        let Some(sides) = self.strip else {
            return Vec::new();
        };
        // The cells at the view's corners, a cell beyond them, along the strip.
        let (x0, y0) = self.cell_at_unwrapped((0.0, 0.0));
        let (x1, y1) = self.cell_at_unwrapped(size);
        let (y0, y1) = (y0.min(y1) - 1, y0.max(y1) + 1);
        // A hexagonal view shears the rows by half a cell each.
        let (x0, x1) = (x0.min(x1) - (y1 - y0), x0.max(x1) + (y1 - y0));
        match sides {
            (None, Some(h)) => [0, h as i64]
                .map(|y| [self.cell_to_screen((x0, y)), self.cell_to_screen((x1, y))])
                .to_vec(),
            (Some(w), _) => [0, w as i64]
                .map(|x| [self.cell_to_screen((x, y0)), self.cell_to_screen((x, y1))])
                .to_vec(),
            (None, None) => Vec::new(),
        }
    }

    /// The top-left cell (unwrapped) of the one copy of a torus or bounded picture that a
    /// `size`-point view draws; `None` on the plane. A bounded picture's copy is itself. A
    /// torus's is centred on the view's centre, so that the whole torus shows once whatever
    /// the zoom, and a pan brings the cells leaving one side in at the other: the view wraps,
    /// and it never tiles.
    pub fn copy_origin(&self, size: (f64, f64)) -> Option<(i64, i64)> {
        if self.plane {
            return None;
        }
        if self.bounded {
            return Some((0, 0));
        }
        let (cx, cy) = self.screen_to_cell((size.0 / 2.0, size.1 / 2.0));
        let (w, h) = (self.torus.0 as f64, self.torus.1 as f64);
        // Rounded, so that a fitted torus (centred on its middle) starts at its cell 0.
        Some(((cx - w / 2.0).round() as i64, (cy - h / 2.0).round() as i64))
    }

    /// Whether an unwrapped cell lies in the copy a `size`-point view draws (always on the
    /// plane).
    pub fn in_copy(&self, size: (f64, f64), cell: (i64, i64)) -> bool {
        self.copy_origin(size).is_none_or(|(x0, y0)| {
            let (dx, dy) = (cell.0 - x0, cell.1 - y0);
            dx >= 0 && dy >= 0 && dx < self.torus.0 as i64 && dy < self.torus.1 as i64
        })
    }

    pub fn shows_grid_lines(&self) -> bool {
        self.grid && self.zoom >= Self::GRID_LINES_FROM
    }

    pub fn shows_gaps(&self) -> bool {
        self.zoom >= Self::GAPS_FROM
    }

    /// The view shader's flags: bit 0 grid lines, bit 1 gaps.
    pub fn line_flags(&self) -> u32 {
        self.shows_grid_lines() as u32 | (self.shows_gaps() as u32) << 1
    }

    /// The cells a `size`-point view shows, and at how many cells per sample: every cell when
    /// a cell is a pixel or more (`ppp` pixels per point), else blocks of a power of two cells,
    /// the rectangle aligned to them. On a torus the rectangle is at most the torus.
    pub fn request(&self, size: (f64, f64), ppp: f64) -> (CellRect, u32) {
        let cells_per_pixel = 1.0 / (self.zoom * ppp);
        let block = if cells_per_pixel <= 1.0 {
            1
        } else {
            (cells_per_pixel.ceil() as u64)
                .next_power_of_two()
                .min(1 << 30) as i64
        };
        // The cells' box: in a hexagonal view the rows shift, so the box is wider than the
        // view by half its height in rows, and starts at the top row's left.
        let top_left = self.cell_of_display(self.origin);
        let (sw, sh) = if self.hex {
            let rows = size.1 / self.zoom / ROW;
            (size.0 / self.zoom + rows / 2.0 + 2.0, rows + 2.0)
        } else {
            (size.0 / self.zoom, size.1 / self.zoom)
        };
        let x0 = ((top_left.0 - if self.hex { 1.0 } else { 0.0 }).floor() as i64).div_euclid(block)
            * block;
        let y0 = (top_left.1.floor() as i64).div_euclid(block) * block;
        let mut w = (sw.ceil() as i64 + 2 * block).max(1);
        let mut h = (sh.ceil() as i64 + 2 * block).max(1);
        if self.wraps() {
            w = w.min(self.torus.0 as i64);
            h = h.min(self.torus.1 as i64);
        }
        // A rectangle no bigger than a few screens of samples.
        let cap = 1i64 << 15;
        w = w.min(cap * block);
        h = h.min(cap * block);
        (CellRect::new(x0, y0, w as u32, h as u32), block as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strip's edges lie along its first row's top and below its last row, across the whole
    /// view (worked out by hand: 8 points a cell, the view's top at row -5); a tube has none.
    #[test]
    fn a_strip_s_edges_are_drawn_where_its_rows_end() {
        use crate::engine::Tube;
        let mut v = Viewport::of(Universe::Tube(Tube::WideStrip { height: 20 }));
        v.zoom = 8.0;
        v.origin = (-10.0, -5.0);
        let edges = v.strip_edges((640.0, 400.0));
        assert_eq!(edges.len(), 2);
        for (edge, y) in edges.iter().zip([40.0, 200.0]) {
            assert_eq!((edge[0].1, edge[1].1), (y, y));
            assert!(edge[0].0 <= 0.0 && edge[1].0 >= 640.0, "{edge:?}");
        }
        let mut v = Viewport::of(Universe::Tube(Tube::TallStrip { width: 7 }));
        v.zoom = 4.0;
        v.origin = (-2.0, 0.0);
        let xs: Vec<f64> = v
            .strip_edges((100.0, 100.0))
            .iter()
            .map(|e| e[0].0)
            .collect();
        assert_eq!(xs, [8.0, 36.0]);
        assert!(
            Viewport::of(Universe::Tube(Tube::Wide { height: 20 }))
                .strip_edges((640.0, 400.0))
                .is_empty()
        );
    }

    #[test]
    fn screen_and_cell_coordinates_invert_each_other() {
        let mut v = Viewport::new((100, 50));
        v.zoom = 8.0;
        v.origin = (10.0, 20.0);
        assert_eq!(v.cell_at((0.0, 0.0)), (10, 20));
        assert_eq!(v.cell_at((7.9, 7.9)), (10, 20));
        assert_eq!(v.cell_at((8.0, 16.0)), (11, 22));
        assert_eq!(v.cell_to_screen((11, 22)), (8.0, 16.0));
        // The plane does not wrap.
        let mut p = Viewport::of(Universe::Plane);
        p.origin = (-10.5, 3.0);
        assert_eq!(p.cell_at((0.0, 0.0)), (-11, 3));
        assert_eq!(p.cell_to_screen((-11, 3)), (-0.5, 0.0));
    }

    #[test]
    fn coordinates_wrap_around_the_torus() {
        let mut v = Viewport::new((100, 50));
        v.zoom = 4.0;
        v.origin = (98.0, 49.0);
        // Three cells right of x = 98 is x = 1 on a 100-wide torus.
        assert_eq!(v.cell_at((12.0, 4.0)), (1, 0));
        // Cells left of the origin appear a torus-width to the right.
        assert_eq!(v.cell_to_screen((97, 49)), (99.0 * 4.0, 0.0));
        v.pan((8.0, 0.0)); // drag right by two cells: the origin moves left
        assert_eq!(v.origin, (96.0, 49.0));
        v.pan((-20.0 * 4.0, 0.0));
        assert_eq!(v.origin, (16.0, 49.0));
    }

    #[test]
    fn zooming_keeps_the_cell_under_the_cursor() {
        let mut v = Viewport::new((1000, 1000));
        v.zoom = 2.0;
        v.origin = (100.0, 200.0);
        let cursor = (300.0, 120.0);
        let before = v.screen_to_cell(cursor);
        v.zoom_about(cursor, 4.0);
        assert_eq!(v.zoom, 8.0);
        let after = v.screen_to_cell(cursor);
        assert!((before.0 - after.0).abs() < 1e-9 && (before.1 - after.1).abs() < 1e-9);
        v.zoom_about(cursor, 1e-9);
        assert_eq!(v.zoom, Viewport::MIN_ZOOM);
        v.zoom_about(cursor, 1e9);
        assert_eq!(v.zoom, Viewport::MAX_ZOOM);
    }

    #[test]
    fn fit_shows_the_whole_torus_at_a_power_of_two_zoom() {
        let mut v = Viewport::new((16384, 16384));
        v.fit((800.0, 600.0), None);
        // 600 / 16384 = 0.0366: the power of two below is 1/32.
        assert_eq!(v.zoom, 1.0 / 32.0);
        // The torus centre is at the view's centre.
        let c = v.screen_to_cell((400.0, 300.0));
        assert_eq!(
            (c.0.rem_euclid(16384.0), c.1.rem_euclid(16384.0)),
            (8192.0, 8192.0)
        );
        let mut v = Viewport::new((64, 64));
        v.fit((640.0, 640.0), Some(CellRect::new(30, 30, 3, 3)));
        assert_eq!(v.zoom, Viewport::FIT_MAX_ZOOM); // a small pattern is not blown up
        assert!(v.shows_grid_lines());
    }

    #[test]
    fn zoomed_out_requests_are_aligned_blocks_of_at_most_the_torus() {
        let mut v = Viewport::new((4096, 4096));
        v.zoom = 1.0 / 8.0;
        v.origin = (100.0, 13.0);
        let (r, block) = v.request((800.0, 600.0), 1.0);
        assert_eq!(block, 8);
        assert_eq!((r.x, r.y), (96, 8));
        assert_eq!((r.width, r.height), (4096, 4096));
        v.zoom = 4.0;
        let (r, block) = v.request((800.0, 600.0), 1.0);
        assert_eq!((block, r.width, r.height), (1, 202, 152));
    }

    #[test]
    fn hexagons_surround_each_cell_with_its_six_neighbours() {
        // Golly's hexagonal neighbours of (0, 0): (±1, 0), (0, ±1), (-1, -1) and (1, 1).
        // Their centres are all one cell width from the centre of (0, 0) in display
        // coordinates; the two square neighbours that are not hexagonal ones are farther.
        let centre = |x: i64, y: i64| hex_display(x as f64 + 0.5, y as f64 + 0.5);
        let (c0, c1) = centre(0, 0);
        let dist = |(x, y): (i64, i64)| {
            let (a, b) = centre(x, y);
            ((a - c0).powi(2) + (b - c1).powi(2)).sqrt()
        };
        for n in [(1, 0), (-1, 0), (0, 1), (0, -1), (-1, -1), (1, 1)] {
            assert!((dist(n) - 1.0).abs() < 1e-9, "{n:?}: {}", dist(n));
        }
        for far in [(1, -1), (-1, 1)] {
            assert!(dist(far) > 1.7, "{far:?}");
        }
        // Each cell's own centre is in its hexagon; a point just past the middle towards a
        // neighbour is in the neighbour's.
        assert_eq!(hex_cell(0.5, 0.5).0, (0, 0));
        assert_eq!(hex_cell(1.05, 0.5).0, (1, 0));
        assert_eq!(hex_cell(0.95, 0.5).0, (0, 0));
        assert_eq!(hex_cell(1.05, 1.05).0, (1, 1));
        // Display and cell coordinates invert each other.
        let (x, y) = hex_cell_point(hex_display(3.25, -7.5).0, hex_display(3.25, -7.5).1);
        assert!((x - 3.25).abs() < 1e-12 && (y + 7.5).abs() < 1e-12);
    }

    #[test]
    fn a_hexagonal_view_maps_clicks_to_the_hexagon_drawn_there() {
        let mut v = Viewport::new((100, 100));
        v.hex = true;
        v.zoom = 10.0;
        v.origin = hex_display(20.0, 30.0);
        // The centre of cell (25, 34) on screen, and back.
        let (sx, sy) = {
            let (dx, dy) = hex_display(25.5, 34.5);
            ((dx - v.origin.0) * v.zoom, (dy - v.origin.1) * v.zoom)
        };
        assert_eq!(v.cell_at((sx, sy)), (25, 34));
        // A whole torus down is the same place on the torus.
        let o = v.origin;
        v.origin = (o.0 - 50.0, o.1 + 100.0 * ROW);
        v.wrap();
        assert!((v.origin.0 - o.0).abs() < 1e-9 && (v.origin.1 - o.1).abs() < 1e-9);
        // The cell's corner appears where the shear puts it.
        let corner = v.cell_to_screen((25, 34));
        let (dx, dy) = hex_display(25.0, 34.0);
        let want = ((dx - v.origin.0) * v.zoom, (dy - v.origin.1) * v.zoom);
        assert!((corner.0 - want.0).abs() < 1e-6 && (corner.1 - want.1).abs() < 1e-6);
    }

    #[test]
    fn following_refits_only_when_the_pattern_leaves_the_view() {
        let mut v = Viewport::of(Universe::Plane);
        v.zoom = 4.0;
        v.origin = (0.0, 0.0);
        // 100 x 50 cells are visible in a 400 x 200 view.
        assert!(!v.keep_in_view((400.0, 200.0), CellRect::new(10, 10, 20, 20)));
        assert_eq!(v.origin, (0.0, 0.0));
        // A glider that has flown to (150, 60) brings the view along, and fits it.
        assert!(v.keep_in_view((400.0, 200.0), CellRect::new(150, 60, 3, 3)));
        let (x, y) = v.cell_to_screen((150, 60));
        assert!(x >= 0.0 && y >= 0.0 && x < 400.0 && y < 200.0, "{x}, {y}");
    }

    #[test]
    fn a_bounded_picture_fits_exactly_and_does_not_wrap() {
        // 801 x 512 in a 1200 x 900 view: the width decides, 1200 / 801 points per cell.
        let mut v = Viewport::bounded((801, 512));
        v.fit((1200.0, 900.0), None);
        assert_eq!(v.zoom, 1200.0 / 801.0);
        // Centred: the picture's middle row is at the view's middle, so the origin is above
        // the picture (negative), and stays so.
        let want_y = 256.0 - 450.0 / v.zoom;
        assert!(want_y < 0.0);
        assert!(
            v.origin.0.abs() < 1e-9 && (v.origin.1 - want_y).abs() < 1e-9,
            "{v:?}"
        );
        v.pan((10.0, 0.0));
        assert!(
            v.origin.0 < 0.0,
            "panning right shows the space left of the picture"
        );
        // A torus of the same size gets a power of two and wraps.
        let mut t = Viewport::new((801, 512));
        t.fit((1200.0, 900.0), None);
        assert_eq!(t.zoom, 1.0);
        t.pan((10.0, 0.0));
        assert!(t.origin.0 > 0.0);
    }
}
