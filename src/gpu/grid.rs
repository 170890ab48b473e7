//! A torus in GPU memory: SPEC 5's layout, split into bands of whole rows when the torus is
//! larger than one storage binding allows, each band a pair of ping-pong buffers. Uploads and
//! readbacks are plain copies of the same bytes the CPU's `Grid` holds.

use crate::engine::{EngineError, EngineResult};
use crate::grid::{Grid, human_bytes};

use super::GpuContext;

/// A band of rows `first_row..first_row + rows`, with its two buffers.
pub struct Band {
    pub first_row: u32,
    pub rows: u32,
    pub buffers: [wgpu::Buffer; 2],
}

pub struct GpuGrid {
    pub width: u32,
    pub height: u32,
    /// u32 words per row (twice the 64-bit words).
    pub words: u32,
    pub bands: Vec<Band>,
    /// Which buffer of each band holds the current state.
    pub current: usize,
}

/// Bytes of memory the device may give lifelab, where that can be known: a CPU adapter
/// (lavapipe, llvmpipe) allocates from system memory, which it shares with the CPU-side grid,
/// so it gets 80% of what /proc/meminfo calls available. For real GPUs wgpu does not say, and
/// allocation failures are caught instead.
pub fn memory_budget(ctx: &GpuContext) -> Option<u64> {
    if ctx.summary.device_type != wgpu::DeviceType::Cpu {
        return None;
    }
    Some(crate::memory::available()? / 5 * 4)
}

/// Fails, naming the largest square torus that fits, when a `width x height` torus cannot fit
/// the device's memory budget. A CPU adapter shares system memory with the CPU side, which
/// holds the grid it uploaded and the grid read back: four copies with the two on the device.
pub fn check_fits(ctx: &GpuContext, width: u32, height: u32) -> EngineResult<()> {
    let Some(budget) = memory_budget(ctx) else {
        return Ok(());
    };
    let copies = 4;
    let grid = Grid::bytes_for(width as u64, height as u64);
    let needed = copies * grid;
    if needed <= budget {
        return Ok(());
    }
    // bytes_for(s, s) = s * s / 8 for s a multiple of 64.
    let side = (((budget / copies) as f64 * 8.0).sqrt() as u64 / 64 * 64)
        .min(crate::grid::MAX_DIMENSION as u64);
    Err(EngineError::OutOfMemory(format!(
        "a {width}x{height} torus needs {} on {} ({copies} copies of {}), more than the {} it can use; \
         the largest square torus it can take is about {side}x{side}",
        human_bytes(needed),
        ctx.name(),
        human_bytes(grid),
        human_bytes(budget)
    )))
}

impl GpuGrid {
    /// Allocates the bands for a `width x height` torus. `max_band_bytes` caps a band below the
    /// device's binding limit (tests use it to exercise banding on small tori).
    pub fn new(
        ctx: &GpuContext,
        width: u32,
        height: u32,
        max_band_bytes: Option<u64>,
    ) -> EngineResult<Self> {
        let limits = ctx.limits();
        let words = (width as u64).div_ceil(64) as u32 * 2;
        let row_bytes = words as u64 * 4;
        let binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let cap = max_band_bytes.map_or(binding, |m| m.min(binding));
        if row_bytes > binding {
            let widest = binding / 4 / 2 * 64;
            return Err(EngineError::Unavailable(format!(
                "a row of {width} cells takes {}, more than the largest storage binding of {} ({}); \
                 the widest torus it can take is {widest} cells",
                human_bytes(row_bytes),
                ctx.name(),
                human_bytes(binding)
            )));
        }
        check_fits(ctx, width, height)?;
        let band_rows = ((cap / row_bytes).max(1)).min(height as u64) as u32;
        let total = 2 * row_bytes * height as u64;
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let mut bands = Vec::new();
        let mut first_row = 0;
        while first_row < height {
            let rows = band_rows.min(height - first_row);
            let make = |i: usize| {
                ctx.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(&format!("torus rows {first_row}.. ({i})")),
                    size: rows as u64 * row_bytes,
                    usage: wgpu::BufferUsages::STORAGE
                        | wgpu::BufferUsages::COPY_SRC
                        | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            };
            bands.push(Band {
                first_row,
                rows,
                buffers: [make(0), make(1)],
            });
            first_row += rows;
        }
        if let Some(e) = pollster::block_on(scope.pop()) {
            drop(bands);
            let largest = largest_square(ctx);
            return Err(EngineError::OutOfMemory(format!(
                "{} could not allocate {} for a {width}x{height} torus (two copies of the grid: {e}); \
                 the largest square torus it can take is about {largest}x{largest}",
                ctx.name(),
                human_bytes(total)
            )));
        }
        ctx.check_faults()?;
        Ok(Self {
            width,
            height,
            words,
            bands,
            current: 0,
        })
    }

    pub fn row_bytes(&self) -> u64 {
        self.words as u64 * 4
    }

    /// Writes a grid of the same size into the current buffers.
    pub fn upload(&self, ctx: &GpuContext, grid: &Grid) {
        // Each write_buffer stages its bytes until the next submission completes, so a large
        // torus is written a piece at a time: staging then never holds a third copy of it.
        self.upload_in_pieces(ctx, grid, 64 << 20);
    }

    /// Writes a grid of the same size into buffers `which` (0 or 1) of every band.
    pub fn upload_to(&self, ctx: &GpuContext, grid: &Grid, which: usize) {
        self.upload_pieces_to(ctx, grid, 64 << 20, which);
    }

    /// [`GpuGrid::upload`] in pieces of `piece` bytes (a multiple of 8), waiting for the
    /// device after each `piece` bytes staged. Public so that tests can use tiny pieces.
    pub fn upload_in_pieces(&self, ctx: &GpuContext, grid: &Grid, piece: usize) {
        self.upload_pieces_to(ctx, grid, piece, self.current);
    }

    fn upload_pieces_to(&self, ctx: &GpuContext, grid: &Grid, piece: usize, which: usize) {
        assert_eq!((grid.width(), grid.height()), (self.width, self.height));
        assert!(
            piece > 0 && piece.is_multiple_of(8),
            "pieces of whole words"
        );
        let words = grid.words();
        let per_row = grid.words_per_row();
        let mut staged = 0;
        for band in &self.bands {
            let start = band.first_row as usize * per_row;
            let bytes: &[u8] =
                bytemuck::cast_slice(&words[start..start + band.rows as usize * per_row]);
            for (i, chunk) in bytes.chunks(piece).enumerate() {
                ctx.queue
                    .write_buffer(&band.buffers[which], (i * piece) as u64, chunk);
                staged += chunk.len();
                if staged >= piece {
                    ctx.queue.submit([]);
                    // A failure here shows up again, classified, at the next readback.
                    let _ = ctx.wait();
                    staged = 0;
                }
            }
        }
    }

    /// Writes rows `ys` of `grid` (which has this torus's size) into the current buffers: an
    /// edit uploads what it touched, not the torus.
    pub fn upload_rows(&self, ctx: &GpuContext, grid: &Grid, ys: impl Iterator<Item = u32>) {
        for y in ys {
            let band = self
                .bands
                .iter()
                .find(|b| y >= b.first_row && y < b.first_row + b.rows)
                .expect("row inside the torus");
            let offset = (y - band.first_row) as u64 * self.row_bytes();
            ctx.queue.write_buffer(
                &band.buffers[self.current],
                offset,
                bytemuck::cast_slice(grid.row(y)),
            );
        }
    }

    /// Overwrites one 64-bit word of row `y` of the current state (an edit in the app).
    pub fn write_word(&self, ctx: &GpuContext, y: u32, word: usize, value: u64) {
        let band = self
            .bands
            .iter()
            .find(|b| y >= b.first_row && y < b.first_row + b.rows)
            .expect("row inside the torus");
        let offset = (y - band.first_row) as u64 * self.row_bytes() + word as u64 * 8;
        ctx.queue
            .write_buffer(&band.buffers[self.current], offset, &value.to_le_bytes());
    }

    /// Reads the current state back into a CPU grid.
    pub fn download(&self, ctx: &GpuContext) -> EngineResult<Grid> {
        let mut grid = Grid::try_new(self.width, self.height)?;
        let largest =
            self.bands.iter().map(|b| b.rows).max().unwrap_or(0) as u64 * self.row_bytes();
        let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: largest.max(4),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let per_row = grid.words_per_row();
        for band in &self.bands {
            let bytes = band.rows as u64 * self.row_bytes();
            let mut encoder = ctx
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("readback"),
                });
            encoder.copy_buffer_to_buffer(&band.buffers[self.current], 0, &staging, 0, bytes);
            ctx.queue.submit([encoder.finish()]);
            let start = band.first_row as usize * per_row;
            let end = start + band.rows as usize * per_row;
            read_mapped(ctx, &staging, bytes, |data| {
                bytemuck::cast_slice_mut::<u64, u8>(&mut grid.words_mut()[start..end])
                    .copy_from_slice(data);
            })?;
        }
        ctx.check_faults()?;
        Ok(grid)
    }
}

/// Maps `buffer[..bytes]`, hands the bytes to `read`, unmaps.
pub fn read_mapped(
    ctx: &GpuContext,
    buffer: &wgpu::Buffer,
    bytes: u64,
    read: impl FnOnce(&[u8]),
) -> EngineResult<()> {
    let (tx, rx) = std::sync::mpsc::channel();
    buffer.map_async(wgpu::MapMode::Read, ..bytes, move |r| {
        let _ = tx.send(r);
    });
    ctx.wait()?;
    match rx.recv() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(ctx.classify(format!("mapping a buffer failed: {e}"))),
        Err(_) => return Err(ctx.classify("mapping a buffer never finished".to_string())),
    }
    {
        let view = buffer
            .get_mapped_range(..bytes)
            .map_err(|e| ctx.classify(format!("{e:?}")))?;
        read(&view);
    }
    buffer.unmap();
    Ok(())
}

/// The largest square torus whose two copies the device can allocate, found by trying.
fn largest_square(ctx: &GpuContext) -> u32 {
    let fits = |side: u32| {
        let bytes = (side as u64).div_ceil(64) * 8 * side as u64;
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let limits = ctx.limits();
        let chunk = limits.max_buffer_size.clamp(1, 1 << 30);
        let mut buffers = Vec::new();
        let mut left = 2 * bytes;
        while left > 0 {
            let size = left.min(chunk);
            buffers.push(ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("probe"),
                size,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            }));
            left -= size;
        }
        let ok = pollster::block_on(scope.pop()).is_none();
        drop(buffers);
        ok
    };
    let (mut lo, mut hi) = (64u32, crate::grid::MAX_DIMENSION);
    if !fits(lo) {
        return 0;
    }
    while hi - lo > 64 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo / 64 * 64
}
