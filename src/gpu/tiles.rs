//! Active tiles on the device: the bookkeeping around the tile kernel of `shaders/tiles.wgsl`
//! and the compaction pass of `shaders/compact.wgsl`, after the CPU tile engine's design
//! (`src/cpu/tiles.rs`).
//!
//! The torus is cut into tiles of [`TILE_WORDS`] u32 words (64 cells) by [`TILE_ROWS`] rows,
//! inside bands. The kernel computes the tiles on a list and records, per tile, which of its
//! edges changed; the compaction pass lists every tile a change touches, in the list of that
//! tile's band, and grows the indirect dispatch sizes of the next generation as it goes. The
//! next generation is an indirect dispatch over that list. Nothing is read back per
//! generation: the host reads the list's length once per batch, asynchronously, to choose
//! between the tile kernel and a dense stretch of the blocked kernel.
//!
//! Why a skipped tile is right: while generation t is current, the other buffer holds t - 1.
//! For deterministic rules a tile's change is measured against t - 1 (the generation before the
//! current one, which the written buffer still holds), so if nothing within one cell of a tile
//! changed between t - 1 and t + 1, the tile at t + 2 equals itself at t, which is already in
//! the buffer about to be written: still lifes and period-2 oscillators cost nothing. For
//! stochastic rules the change is measured against t, and a tile where any cell drew by chance
//! counts as changed.

use std::sync::mpsc::Receiver;

use bytemuck::{Pod, Zeroable};

use super::grid::{GpuGrid, read_mapped};
use super::{GpuContext, pipeline_cache};
use crate::engine::EngineResult;

const COMPACT_WGSL: &str = include_str!("../../shaders/compact.wgsl");

/// Tile width in u32 words (64 cells, one 64-bit word of the grid's rows).
pub const TILE_WORDS: u32 = 2;
/// Tile height in rows.
pub const TILE_ROWS: u32 = 64;
/// Every bit of a tile's change record (`shaders/tiles.wgsl`): the tile and all its edges.
const FLAG_ALL: u32 = 0x1ff;
/// Invocations per workgroup of the compaction pass.
const COMPACT_GROUP: u32 = 64;
/// Control words per band: the kernel's dispatch (x, y, z), the list's length, the
/// compaction's dispatch (x, y, z), padding.
const CTRL_WORDS: u64 = 8;

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct CompactParams {
    tiles_x: u32,
    tile_rows: u32,
    band_tile_rows: u32,
    bands: u32,
    band: u32,
    band_first_tile: u32,
    band_tiles: u32,
    all_tiles: u32,
}

/// The compaction shader.
pub fn compact_source() -> String {
    COMPACT_WGSL.to_string()
}

/// The Rust side of `struct Params` in `shaders/compact.wgsl`.
pub fn layout() -> super::layout::StructLayout {
    super::layout::StructLayout {
        shader: "compact.wgsl",
        wgsl_struct: "Params",
        fields: super::layout::fields!(
            CompactParams,
            tiles_x,
            tile_rows,
            band_tile_rows,
            bands,
            band,
            band_first_tile,
            band_tiles,
            all_tiles,
        ),
        size: std::mem::size_of::<CompactParams>(),
    }
}

/// Whether the next generations run on the tile list or as a dense stretch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Sparse,
    Dense,
}

/// How the tiles lie on a torus of bands.
#[derive(Clone, Debug)]
pub struct TileGeometry {
    /// Tiles across.
    pub tiles_x: u32,
    /// Rows of tiles over the whole torus.
    pub tile_rows: u32,
    /// Rows of tiles of every band but the last (all bands but the last have the same rows).
    pub band_tile_rows: u32,
    /// Per band: its first tile and its rows of tiles.
    pub band_first: Vec<u32>,
    pub band_rows: Vec<u32>,
}

impl TileGeometry {
    pub fn new(grid: &GpuGrid) -> Self {
        let tiles_x = grid.words / TILE_WORDS;
        let band_rows: Vec<u32> = grid
            .bands
            .iter()
            .map(|b| b.rows.div_ceil(TILE_ROWS))
            .collect();
        let mut band_first = Vec::new();
        let mut first = 0;
        for r in &band_rows {
            band_first.push(first * tiles_x);
            first += r;
        }
        Self {
            tiles_x,
            tile_rows: first,
            band_tile_rows: band_rows[0],
            band_first,
            band_rows,
        }
    }

    pub fn tiles(&self) -> u64 {
        self.tiles_x as u64 * self.tile_rows as u64
    }

    pub fn band_tiles(&self, k: usize) -> u32 {
        self.band_rows[k] * self.tiles_x
    }
}

/// Workgroups as (x, y, z) within the per-dimension cap.
pub fn split(groups: u64, max: u32) -> (u32, u32, u32) {
    let max = max.max(1) as u64;
    let groups = groups.max(1);
    let x = groups.min(max);
    let rest = groups.div_ceil(x);
    let y = rest.min(max);
    (x as u32, y as u32, rest.div_ceil(y) as u32)
}

pub struct DeviceTiles {
    pub geo: TileGeometry,
    kernel: wgpu::ComputePipeline,
    compact: wgpu::ComputePipeline,
    /// `kernel_groups[p][k]`: band k reading buffer p, with the lists and control words of
    /// parity p.
    kernel_groups: [Vec<wgpu::BindGroup>; 2],
    compact_groups: [Vec<wgpu::BindGroup>; 2],
    compact_stride: u64,
    ctrl: [wgpu::Buffer; 2],
    ctrl_init: Vec<u8>,
    /// Per tile: change record, mark.
    state: wgpu::Buffer,
    staging: wgpu::Buffer,
    pending: Option<Receiver<bool>>,
    max_groups: u32,
    /// Whether a dense stretch takes over when most tiles are active.
    pub fallback: bool,
    pub mode: Mode,
    /// Generations in a row computed by the tile kernel, whose change records are therefore
    /// exact (two are needed when changes are measured against the generation before).
    pub flag_gens: u32,
    /// The list of the current parity is the list of the next generation.
    pub list_ready: bool,
    /// Both buffers hold the current state and the change records mark every tile with a
    /// live cell: a compaction of every tile makes the list (see [`DeviceTiles::seed`]).
    pub seeded: bool,
    /// The last list length read back.
    pub active: Option<u64>,
    /// Generations of dense stretches since the tiles were last looked at.
    pub dense_gens: u64,
    /// The census the tile kernel keeps after the control words of each parity (see
    /// `shaders/tiles.wgsl`) is that of its buffer: started by [`DeviceTiles::start_census`],
    /// and stale after anything but the tile kernel wrote to the buffers.
    pub census_kept: bool,
    /// Starts the kept census: buffer p's census added into the words after `ctrl[p]`'s.
    starter: super::census::GpuCensus,
}

impl DeviceTiles {
    /// The tile machinery for `grid`, whose tile kernel reads `params` (one slot of
    /// `params_size` bytes at a dynamic offset).
    pub fn new(
        ctx: &GpuContext,
        grid: &GpuGrid,
        source: &str,
        params: &wgpu::Buffer,
        params_size: u64,
        fallback: bool,
    ) -> EngineResult<Self> {
        let geo = TileGeometry::new(grid);
        let n = grid.bands.len();
        let (kernel, kernel_layout) = pipeline_cache::tiles(ctx, source)?;
        let entries = [
            pipeline_cache::uniform(0, true),
            pipeline_cache::storage(1, false),
            pipeline_cache::storage(2, true),
            pipeline_cache::storage(3, true),
            pipeline_cache::storage(4, false),
            pipeline_cache::storage(5, false),
        ];
        let (compact, compact_layout) =
            pipeline_cache::with_layout(ctx, "compact", &compact_source(), &entries, &[])?;
        let max_groups = ctx.limits().max_compute_workgroups_per_dimension.max(1);
        let tiles = geo.tiles();
        let storage = |label: &str, bytes: u64, extra: wgpu::BufferUsages| {
            ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes.max(16),
                usage: wgpu::BufferUsages::STORAGE | extra,
                mapped_at_creation: false,
            })
        };
        let state = storage("tile records", tiles * 8, wgpu::BufferUsages::COPY_DST);
        // Every entry is a tile of its own band, even those past the list's end, which a
        // dispatch rounded up may read: tile 0 of the band.
        let mut list_init = vec![0u32; tiles as usize];
        for k in 0..n {
            let first = geo.band_first[k] as usize;
            let count = geo.band_tiles(k) as usize;
            list_init[first..first + count].fill(first as u32);
        }
        let lists = [0, 1].map(|i| {
            let b = storage(
                &format!("tile list {i}"),
                tiles * 4,
                wgpu::BufferUsages::COPY_DST,
            );
            ctx.queue
                .write_buffer(&b, 0, bytemuck::cast_slice(&list_init));
            b
        });
        let ctrl_bytes = n as u64 * CTRL_WORDS * 4;
        let ctrl = [0, 1].map(|i| {
            storage(
                &format!("tile control {i}"),
                // And the kept census: 4 words.
                ctrl_bytes + 16,
                wgpu::BufferUsages::INDIRECT
                    | wgpu::BufferUsages::COPY_DST
                    | wgpu::BufferUsages::COPY_SRC,
            )
        });
        let mut words = Vec::with_capacity(n * CTRL_WORDS as usize);
        for k in 0..n {
            let band_tiles = geo.band_tiles(k) as u64;
            let kx = band_tiles.div_ceil(max_groups as u64).max(1) as u32;
            let cx = band_tiles
                .div_ceil(COMPACT_GROUP as u64)
                .div_ceil(max_groups as u64)
                .max(1) as u32;
            words.extend_from_slice(&[kx, 1, 1, 0, cx, 0, 1, 0]);
        }
        let ctrl_init = bytemuck::cast_slice(&words).to_vec();
        let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("tile counts readback"),
            size: ctrl_bytes.max(16),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });

        let align = ctx.limits().min_uniform_buffer_offset_alignment as u64;
        let compact_stride = (std::mem::size_of::<CompactParams>() as u64).next_multiple_of(align);
        let compact_params = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("compaction params"),
            size: compact_stride * 2 * n as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut data = vec![0u8; (compact_stride * 2 * n as u64) as usize];
        for all in 0..2u32 {
            for k in 0..n {
                let p = CompactParams {
                    tiles_x: geo.tiles_x,
                    tile_rows: geo.tile_rows,
                    band_tile_rows: geo.band_tile_rows,
                    bands: n as u32,
                    band: k as u32,
                    band_first_tile: geo.band_first[k],
                    band_tiles: geo.band_tiles(k),
                    all_tiles: all,
                };
                let at = ((all as usize * n) + k) * compact_stride as usize;
                data[at..at + std::mem::size_of::<CompactParams>()]
                    .copy_from_slice(bytemuck::bytes_of(&p));
            }
        }
        ctx.queue.write_buffer(&compact_params, 0, &data);

        fn binding(buffer: &wgpu::Buffer, size: u64) -> wgpu::BindingResource<'_> {
            wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer,
                offset: 0,
                size: wgpu::BufferSize::new(size),
            })
        }
        let kernel_groups = [0usize, 1].map(|p| {
            (0..n)
                .map(|k| {
                    let band =
                        |b: usize, which: usize| grid.bands[b].buffers[which].as_entire_binding();
                    ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("tile kernel"),
                        layout: &kernel_layout,
                        entries: &[
                            wgpu::BindGroupEntry {
                                binding: 0,
                                resource: binding(params, params_size),
                            },
                            wgpu::BindGroupEntry {
                                binding: 1,
                                resource: band((k + n - 1) % n, p),
                            },
                            wgpu::BindGroupEntry {
                                binding: 2,
                                resource: band(k, p),
                            },
                            wgpu::BindGroupEntry {
                                binding: 3,
                                resource: band((k + 1) % n, p),
                            },
                            wgpu::BindGroupEntry {
                                binding: 4,
                                resource: band(k, 1 - p),
                            },
                            wgpu::BindGroupEntry {
                                binding: 5,
                                resource: state.as_entire_binding(),
                            },
                            wgpu::BindGroupEntry {
                                binding: 6,
                                resource: lists[p].as_entire_binding(),
                            },
                            wgpu::BindGroupEntry {
                                binding: 7,
                                resource: ctrl[p].as_entire_binding(),
                            },
                            wgpu::BindGroupEntry {
                                binding: 8,
                                resource: ctrl[1 - p].as_entire_binding(),
                            },
                        ],
                    })
                })
                .collect()
        });
        let compact_groups = [0usize, 1].map(|p| {
            (0..n)
                .map(|_| {
                    ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("compaction"),
                        layout: &compact_layout,
                        entries: &[
                            wgpu::BindGroupEntry {
                                binding: 0,
                                resource: binding(
                                    &compact_params,
                                    std::mem::size_of::<CompactParams>() as u64,
                                ),
                            },
                            wgpu::BindGroupEntry {
                                binding: 1,
                                resource: state.as_entire_binding(),
                            },
                            wgpu::BindGroupEntry {
                                binding: 2,
                                resource: lists[p].as_entire_binding(),
                            },
                            wgpu::BindGroupEntry {
                                binding: 3,
                                resource: ctrl[p].as_entire_binding(),
                            },
                            wgpu::BindGroupEntry {
                                binding: 4,
                                resource: lists[1 - p].as_entire_binding(),
                            },
                            wgpu::BindGroupEntry {
                                binding: 5,
                                resource: ctrl[1 - p].as_entire_binding(),
                            },
                        ],
                    })
                })
                .collect()
        });
        let starter = super::census::GpuCensus::into_buffers(
            ctx,
            grid,
            2 * n as u32 + 1,
            [&ctrl[0], &ctrl[1]],
        )?;
        let tiles = Self {
            geo,
            kernel,
            compact,
            kernel_groups,
            compact_groups,
            compact_stride,
            ctrl,
            ctrl_init,
            state,
            staging,
            pending: None,
            max_groups,
            fallback,
            mode: Mode::Sparse,
            flag_gens: 0,
            list_ready: false,
            seeded: false,
            active: None,
            dense_gens: 0,
            census_kept: false,
            starter,
        };
        tiles.reset(ctx);
        Ok(tiles)
    }

    /// Sets both lists' control words to their empty state (after that the tile kernel empties
    /// the words the compaction pass is about to fill, every generation).
    fn reset(&self, ctx: &GpuContext) {
        for c in &self.ctrl {
            ctx.queue.write_buffer(c, 0, &self.ctrl_init);
        }
    }

    /// The state on the device no longer follows from the change records (an edit, an upload,
    /// or a dense stretch): the next generations compute every tile until they do again.
    pub fn invalidate(&mut self) {
        self.flag_gens = 0;
        self.list_ready = false;
        self.seeded = false;
        self.census_kept = false;
    }

    /// The buffers' word where the kept census starts, after every band's control words.
    pub fn census_word(&self) -> u32 {
        (self.geo.band_first.len() as u64 * CTRL_WORDS) as u32
    }

    /// The buffers holding the kept census, by parity.
    pub fn census_buffers(&self) -> [&wgpu::Buffer; 2] {
        [&self.ctrl[0], &self.ctrl[1]]
    }

    /// Makes the kept census that of both buffers as they are now: a census of the whole torus,
    /// once; from then on the tile kernel keeps it current.
    pub fn start_census(&mut self, ctx: &GpuContext) {
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("kept census"),
            });
        let at = self.census_word() as u64 * 4;
        for c in &self.ctrl {
            encoder.clear_buffer(c, at, Some(16));
        }
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("kept census"),
                timestamp_writes: None,
            });
            for p in 0..2 {
                self.starter.record(&mut pass, p, self.census_word() / 4);
            }
        }
        ctx.queue.submit([encoder.finish()]);
        self.census_kept = true;
    }

    /// Which tiles of `g` (the whole torus in the device's layout, cut into `bands`) hold a
    /// live cell.
    pub fn occupancy(&self, bands: &[super::grid::Band], g: &crate::grid::Grid) -> Vec<bool> {
        let per_row = g.words_per_row();
        let mut occupied = vec![false; self.geo.tiles() as usize];
        for (k, band) in bands.iter().enumerate() {
            let first_row = self.geo.band_first[k] / self.geo.tiles_x;
            for y in band.first_row..band.first_row + band.rows {
                let tile_row = first_row + (y - band.first_row) / TILE_ROWS;
                let base = (tile_row * self.geo.tiles_x) as usize;
                for (x, w) in g.row(y).iter().enumerate().take(per_row) {
                    if *w != 0 {
                        occupied[base + x] = true;
                    }
                }
            }
        }
        occupied
    }

    /// Starts the tile list from a state written to both buffers, without computing a
    /// generation of every tile: as if the state had not changed in the generation before,
    /// every tile with a live cell is marked as changed everywhere, so that the first
    /// generation computes those tiles and their neighbours (nothing else can change), and its
    /// change records, measured against the same state, are exact from then on.
    pub fn seed(&mut self, ctx: &GpuContext, occupied: &[bool]) {
        let all = FLAG_ALL;
        let words: Vec<u32> = occupied
            .iter()
            .flat_map(|&o| [if o { all } else { 0 }, 0])
            .collect();
        ctx.queue
            .write_buffer(&self.state, 0, bytemuck::cast_slice(&words));
        self.reset(ctx);
        self.flag_gens = 2;
        self.list_ready = false;
        self.seeded = true;
    }

    /// Records the tile kernel for band `k` reading buffer `p`: every tile of the band, or the
    /// list. `offset` is the band's parameter slot.
    pub fn record_kernel(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        p: usize,
        k: usize,
        offset: u32,
        all: bool,
    ) {
        pass.set_pipeline(&self.kernel);
        pass.set_bind_group(0, &self.kernel_groups[p][k], &[offset]);
        if all {
            let (x, y, z) = split(self.geo.band_tiles(k) as u64, self.max_groups);
            pass.dispatch_workgroups(x, y, z);
        } else {
            pass.dispatch_workgroups_indirect(&self.ctrl[p], k as u64 * CTRL_WORDS * 4);
        }
    }

    /// Records the compaction of every band after a generation that read buffer `p`: the
    /// tiles just computed (the list, or every tile) list their neighbours for the next.
    pub fn record_compact(&self, pass: &mut wgpu::ComputePass<'_>, p: usize, all: bool) {
        pass.set_pipeline(&self.compact);
        let n = self.geo.band_first.len();
        for k in 0..n {
            let slot = all as u64 * n as u64 + k as u64;
            let offset = (slot * self.compact_stride) as u32;
            pass.set_bind_group(0, &self.compact_groups[p][k], &[offset]);
            if all {
                let groups = (self.geo.band_tiles(k) as u64).div_ceil(COMPACT_GROUP as u64);
                let (x, y, z) = split(groups, self.max_groups);
                pass.dispatch_workgroups(x, y, z);
            } else {
                pass.dispatch_workgroups_indirect(&self.ctrl[p], (k as u64 * CTRL_WORDS + 4) * 4);
            }
        }
    }

    fn ctrl_bytes(&self) -> u64 {
        self.geo.band_first.len() as u64 * CTRL_WORDS * 4
    }

    /// Copies the control words of parity `p` to the readback buffer, unless a read is still
    /// in flight. Returns whether it did; then call [`DeviceTiles::start_read`] after
    /// submitting.
    pub fn copy_counts(&self, encoder: &mut wgpu::CommandEncoder, p: usize) -> bool {
        if self.pending.is_some() {
            return false;
        }
        encoder.copy_buffer_to_buffer(&self.ctrl[p], 0, &self.staging, 0, self.ctrl_bytes());
        true
    }

    pub fn start_read(&mut self) {
        let (tx, rx) = std::sync::mpsc::channel();
        self.staging
            .map_async(wgpu::MapMode::Read, ..self.ctrl_bytes(), move |r| {
                let _ = tx.send(r.is_ok());
            });
        self.pending = Some(rx);
    }

    /// Collects a finished read of the list's length, if one came in (`wait`: waits for it),
    /// and chooses the mode: the tile kernel while at most a quarter of the tiles are active,
    /// a dense stretch once more than half are.
    pub fn poll(&mut self, ctx: &GpuContext, wait: bool) {
        let Some(rx) = &self.pending else {
            return;
        };
        if wait {
            let _ = ctx.wait();
        } else {
            let _ = ctx.device.poll(wgpu::PollType::Poll);
        }
        let ok = match rx.try_recv() {
            Ok(ok) => ok,
            Err(std::sync::mpsc::TryRecvError::Empty) => return,
            Err(_) => false,
        };
        self.pending = None;
        if ok {
            let bytes = self.ctrl_bytes();
            let count = self
                .staging
                .get_mapped_range(..bytes)
                .ok()
                .map(|view| count_of(&view));
            self.staging.unmap();
            if let Some(c) = count {
                self.observe(c);
            }
        } else {
            self.staging.unmap();
        }
    }

    fn observe(&mut self, active: u64) {
        self.active = Some(active);
        let tiles = self.geo.tiles();
        if !self.fallback {
            return;
        }
        if active * 2 > tiles {
            self.mode = Mode::Dense;
        } else if active * 4 <= tiles {
            self.mode = Mode::Sparse;
        }
    }

    /// The length of the current list, read now (after the work submitted so far).
    pub fn read_now(&mut self, ctx: &GpuContext, p: usize) -> EngineResult<u64> {
        self.poll(ctx, true);
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("tile counts"),
            });
        encoder.copy_buffer_to_buffer(&self.ctrl[p], 0, &self.staging, 0, self.ctrl_bytes());
        ctx.queue.submit([encoder.finish()]);
        let mut count = 0;
        read_mapped(ctx, &self.staging, self.ctrl_bytes(), |d| {
            count = count_of(d)
        })?;
        self.observe(count);
        Ok(count)
    }
}

/// The sum of the list lengths in a copy of the control words.
fn count_of(bytes: &[u8]) -> u64 {
    let words: &[u32] = bytemuck::cast_slice(bytes);
    words
        .chunks_exact(CTRL_WORDS as usize)
        .map(|c| c[3] as u64)
        .sum()
}

/// Whether more than a quarter of the tiles hold a live cell: then a run starts as a dense
/// stretch, before any list was read back.
pub fn mostly_occupied(occupied: &[bool]) -> bool {
    occupied.iter().filter(|o| **o).count() * 4 > occupied.len()
}
