//! The GPU engine for Life-like rules: drives `shaders/life.wgsl` and `shaders/tiles.wgsl`.
//!
//! The rule reaches the shader in one of two ways, chosen by [`ShaderMode`]: compiled into it as
//! constant boolean logic (the default: generated WGSL, specialised per rule), or read at run
//! time from the uniform table (`generic_rule`). `lifelab bench --shader` measures both.
//!
//! Three kernels advance the torus, chosen by [`LifeKernel`]: the dense kernel (one generation
//! of the whole torus per dispatch), the blocked kernel (several generations per dispatch in
//! workgroup memory), and active tiles (only the tiles near a change, from a list the device
//! keeps; see `tiles.rs`), which runs dense stretches with the blocked kernel.
//!
//! All generations of a `step` are recorded into command encoders with no readback in between;
//! the two buffers of each band ping-pong.

mod codegen;
mod encode;
mod options;
mod plan;
mod seam;

pub use codegen::shader_source;
pub use options::{LifeKernel, LifeOptions, ShaderMode, default_block};
pub use plan::layout;

use super::census::GpuCensus;
use super::census::HASH_WGSL;
use super::grid::GpuGrid;
use super::tiles::{DeviceTiles, Mode};
use super::{GpuContext, pipeline_cache};
use crate::engine::dense;
use crate::engine::{
    Bounds, CellRect, Core, Engine, EngineError, EngineKind, EngineResult, Progress, Put, Sampled,
    Universe,
};
use crate::grid::Grid;
use crate::hash;
use crate::rule::{CountTable, LifeRule, Rule, RuleKind};
use crate::tiles::TileMap;
use codegen::{LIFE_WGSL, TILES_WGSL};
use plan::{Params, Pass, Plan, Unit, dense_pass};

/// Generations recorded into one command encoder (deterministic rules), and on the tile list,
/// where the list's length is read back between batches.
const MAX_BATCH: u64 = 1024;
const SPARSE_BATCH: u64 = 256;

/// Parameter slots of the uniform buffer: per band, one per kind of dispatch (deterministic
/// rules), or one per dispatch of a batch (stochastic rules, whose key changes every
/// generation).
const PARAM_SLOTS: u64 = 1024;

/// Generations of a dense stretch between looks at how many tiles are active (two generations
/// of every tile on the tile kernel, then a compaction): the bookkeeping a dense soup pays.
const PROBE_EVERY: u64 = 1024;

/// The most generations the blocked kernel advances per dispatch: its tile keeps
/// `64 - 2 * block` of the 64 rows it loads (`shaders/tiles.wgsl`).
pub const MAX_BLOCK: u32 = 16;

/// When an encoded batch takes censuses.
#[derive(Clone, Copy)]
enum CensusPlan {
    EveryGeneration { first_slot: u32 },
    AtEnd { slot: u32 },
}

pub struct GpuLifeEngine {
    ctx: GpuContext,
    core: Core,
    table: CountTable,
    seed: u64,
    grid: GpuGrid,
    kernel: LifeKernel,
    /// Generations per blocked dispatch.
    block: u32,
    /// The dense kernel: the whole torus, one generation per dispatch.
    pipeline: wgpu::ComputePipeline,
    /// The blocked kernel, when it runs more than one generation per dispatch (with one, the
    /// dense kernel does the same work without workgroup memory).
    blocked: Option<wgpu::ComputePipeline>,
    /// `bind_groups[p][k]`: band k reading buffer p and writing buffer 1 - p.
    bind_groups: [Vec<wgpu::BindGroup>; 2],
    /// The active-tile machinery (`LifeKernel::Tiles`).
    tiles: Option<DeviceTiles>,
    params: wgpu::Buffer,
    slot_stride: u64,
    /// Parameter slots the buffer holds.
    slots: u64,
    rows: u32,
    /// A one-slot census for `population`, made on first use.
    census: Option<GpuCensus>,
    /// A census of many slots for `step_census`, made on first use.
    batch_census: Option<GpuCensus>,
    /// The current state on the CPU, once read back for reading or editing; dropped when a
    /// generation runs.
    mirror: Option<Grid>,
    /// A tall, thin torus is kept on the device with rows and columns swapped: a row is at
    /// least a 64-bit word, so a torus 1 cell wide would waste 63 of every 64 bits and need an
    /// invocation per cell. Every rule lifelab runs is symmetric under the swap (the hexagonal
    /// neighbourhood too); the stochastic draw swaps its coordinates back.
    transposed: bool,
}

/// Whether a `width x height` torus runs transposed.
fn runs_transposed(width: u32, height: u32) -> bool {
    width < 64 && height > width.max(64)
}

/// The grid with rows and columns swapped.
fn transpose(g: &Grid) -> Grid {
    let mut t = Grid::new(g.height(), g.width());
    for (x, y) in g.alive_cells() {
        t.set(y, x, true);
    }
    t
}

/// Generations per census batch read back at once.
const CENSUS_BATCH: u32 = 1024;

/// Timestamped batches per query set.
const TIMED_BATCHES: u32 = 256;

impl GpuLifeEngine {
    pub fn new(
        ctx: &GpuContext,
        rule: Rule,
        start: &Grid,
        seed: u64,
        options: LifeOptions,
    ) -> EngineResult<Self> {
        let transposed = runs_transposed(start.width(), start.height());
        // A tabled rule's shader is its circuit, whatever the mode: the uniform table of
        // counts is unused (and all dead, so nothing reads it as a chance).
        let tabled = |map: &crate::rule::map::MapRule| {
            (
                CountTable::new(&LifeRule::moore(&[], &[])),
                format!(
                    "{LIFE_WGSL}\n{TILES_WGSL}\n{HASH_WGSL}\n{}",
                    super::tabled::rule_fn(map, transposed)
                ),
            )
        };
        let (table, source) = match rule.kind {
            RuleKind::Life(life) => (CountTable::new(&life), shader_source(&life, options.shader)),
            RuleKind::Map(map) => tabled(&map),
            // A rule file's of two states (Banks-I) as its table, where it has one.
            RuleKind::Loaded(_) => match rule.block_rule() {
                Some(map) => tabled(&map),
                None => {
                    return Err(EngineError::Unsupported(format!(
                        "{}: the GPU rule-tree engine runs it",
                        rule.why_no_block_rule()
                    )));
                }
            },
            RuleKind::Elementary(_) => {
                return Err(EngineError::Unsupported(format!(
                    "{rule} is elementary: the elementary GPU engine runs it"
                )));
            }
            RuleKind::Generations(_) => {
                return Err(EngineError::Unsupported(format!(
                    "{rule} is a Generations rule: the GPU Generations engine runs it"
                )));
            }
            RuleKind::Ltl(_) => {
                return Err(EngineError::Unsupported(format!(
                    "{rule} is a Larger than Life rule: the GPU Larger than Life engine runs it"
                )));
            }
        };
        let b0 = rule.births_from_nothing();
        let rows = options.rows_per_invocation.max(1);
        let kernel = options.kernel;
        let (pipeline, layout) = pipeline_cache::life(ctx, &source, rows)?;
        let (gw, gh) = if transposed {
            (start.height(), start.width())
        } else {
            (start.width(), start.height())
        };
        let grid = GpuGrid::new(ctx, gw, gh, options.max_band_bytes)?;
        let n = grid.bands.len();

        // The halo of a blocked tile reaches `block` rows into the bands above and below.
        let fewest_rows = grid.bands.iter().map(|b| b.rows).min().unwrap_or(1);
        let mut block = options
            .block
            .unwrap_or_else(|| default_block(ctx))
            .clamp(1, MAX_BLOCK);
        if n > 1 {
            block = block.min(fewest_rows);
        }
        if kernel == LifeKernel::Dense {
            block = 1;
        }
        let blocked = if block > 1 {
            Some(pipeline_cache::blocked(ctx, &source)?.0)
        } else {
            None
        };

        let align = ctx.limits().min_uniform_buffer_offset_alignment as u64;
        let slot_stride = (std::mem::size_of::<Params>() as u64).next_multiple_of(align);
        let slots = PARAM_SLOTS.max((2 + block as u64) * n as u64);
        let params = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("life params"),
            size: slot_stride * slots,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let params_size = std::mem::size_of::<Params>() as u64;

        let bind_groups = [0, 1].map(|p| {
            (0..n)
                .map(|k| {
                    let buf = |band: usize, which: usize| {
                        grid.bands[band].buffers[which].as_entire_binding()
                    };
                    ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("life band"),
                        layout: &layout,
                        entries: &[
                            wgpu::BindGroupEntry {
                                binding: 0,
                                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                                    buffer: &params,
                                    offset: 0,
                                    size: wgpu::BufferSize::new(params_size),
                                }),
                            },
                            wgpu::BindGroupEntry {
                                binding: 1,
                                resource: buf((k + n - 1) % n, p),
                            },
                            wgpu::BindGroupEntry {
                                binding: 2,
                                resource: buf(k, p),
                            },
                            wgpu::BindGroupEntry {
                                binding: 3,
                                resource: buf((k + 1) % n, p),
                            },
                            wgpu::BindGroupEntry {
                                binding: 4,
                                resource: buf(k, 1 - p),
                            },
                        ],
                    })
                })
                .collect()
        });
        let tiles = match kernel {
            LifeKernel::Tiles | LifeKernel::Sparse if !b0 => Some(DeviceTiles::new(
                ctx,
                &grid,
                &source,
                &params,
                params_size,
                kernel == LifeKernel::Tiles,
            )?),
            _ => None,
        };

        let mut engine = Self {
            ctx: ctx.clone(),
            core: Core::new(EngineKind::Gpu, "gpu", rule),
            table,
            seed,
            grid,
            kernel,
            block,
            pipeline,
            blocked,
            bind_groups,
            tiles,
            params,
            slot_stride,
            slots,
            rows,
            census: None,
            batch_census: None,
            mirror: Some(start.clone()),
            transposed,
        };
        if !engine.table.is_stochastic() {
            engine.write_static_params();
        }
        engine.upload(start);
        ctx.check_faults()?;
        Ok(engine)
    }

    /// Advances `gens` generations (at most the census's slots), recording the census of each
    /// new generation into slots `first_slot..`. The caller clears, copies out and reads.
    pub fn step_with_census(
        &mut self,
        gens: u64,
        census: &GpuCensus,
        first_slot: u32,
    ) -> EngineResult<()> {
        let gens = gens.min((census.slots() - first_slot) as u64);
        let plan = CensusPlan::EveryGeneration { first_slot };
        self.advance(gens, Some((census, plan)), false)?;
        Ok(())
    }

    /// Advances `gens` generations and records the census of the last one into `slot`.
    pub fn step_then_census(
        &mut self,
        gens: u64,
        census: &GpuCensus,
        slot: u32,
    ) -> EngineResult<()> {
        self.advance(gens, Some((census, CensusPlan::AtEnd { slot })), false)?;
        Ok(())
    }

    /// Records the census of the current state into `slot`.
    pub fn census_now(&mut self, census: &GpuCensus, slot: u32) -> EngineResult<()> {
        self.advance(0, Some((census, CensusPlan::AtEnd { slot })), false)?;
        Ok(())
    }

    /// A census buffer with `slots` slots for this engine's torus.
    pub fn new_census(&self, slots: u32) -> EngineResult<GpuCensus> {
        let mut census = GpuCensus::new(&self.ctx, &self.grid, slots)?;
        if let Some(t) = &self.tiles {
            census.attach_kept(t.census_buffers(), t.census_word())?;
        }
        Ok(census)
    }

    /// The population and state hash of the current generation, from the GPU.
    pub fn census(&mut self) -> EngineResult<crate::grid::Census> {
        if self.census.is_none() {
            self.census = Some(self.new_census(1)?);
        }
        let census = self.census.take().expect("just made");
        census.reset();
        let result = self.census_now(&census, 0).and_then(|_| census.fetch(1));
        self.census = Some(census);
        Ok(result?[0])
    }

    /// The kernel this engine runs, and the generations per blocked dispatch.
    pub fn kernel(&self) -> (LifeKernel, u32) {
        (self.kernel, self.block)
    }

    /// The buffers that hold the current state, band by band (the app draws from them).
    pub fn gpu_grid(&self) -> &GpuGrid {
        &self.grid
    }

    /// Whether the device holds the torus with rows and columns swapped (the viewer cannot
    /// draw those buffers as they are).
    pub fn is_transposed(&self) -> bool {
        self.transposed
    }

    /// Writes a whole torus (of the torus's own orientation) to the device, and starts the
    /// tile kernel's bookkeeping afresh: on the tile list if few tiles hold anything.
    fn upload(&mut self, g: &Grid) {
        let device = if self.transposed {
            std::borrow::Cow::Owned(transpose(g))
        } else {
            std::borrow::Cow::Borrowed(g)
        };
        self.grid.upload(&self.ctx, &device);
        self.restart_tiles(&device);
    }

    /// After `g` (the whole torus, in the device's layout) was written to the current buffers:
    /// the change records no longer describe the state. If few tiles hold anything, the run
    /// goes on the tile list, seeded from the live tiles after writing `g` to the other buffers
    /// too (the cost of a copy, not of a generation of every tile); else as a dense stretch.
    fn restart_tiles(&mut self, g: &Grid) {
        let Some(t) = self.tiles.as_mut() else {
            return;
        };
        t.invalidate();
        let occupied = t.occupancy(&self.grid.bands, g);
        if t.fallback && super::tiles::mostly_occupied(&occupied) {
            t.mode = Mode::Dense;
            return;
        }
        t.mode = Mode::Sparse;
        self.grid.upload_to(&self.ctx, g, 1 - self.grid.current);
        t.seed(&self.ctx, &occupied);
    }

    /// Something wrote to the current state: the change records no longer describe it.
    fn edited(&mut self) {
        if let Some(t) = self.tiles.as_mut() {
            t.invalidate();
        }
    }

    /// The torus's size as the seam sees it.
    fn size(&self) -> (u32, u32) {
        if self.transposed {
            (self.grid.height, self.grid.width)
        } else {
            (self.grid.width, self.grid.height)
        }
    }

    /// Overwrites one 64-bit word of the current state: word `word` of row `y`.
    pub fn write_word(&mut self, y: u32, word: usize, value: u64) {
        self.grid.write_word(&self.ctx, y, word, value);
        self.edited();
    }

    pub fn context(&self) -> &GpuContext {
        &self.ctx
    }
}

impl GpuLifeEngine {
    /// Advances `gens`, with the device's census of every generation (of its own layout).
    fn step_device_census(
        &mut self,
        gens: u64,
        out: &mut Vec<crate::grid::Census>,
    ) -> EngineResult<()> {
        self.mirror = None;
        if self.batch_census.is_none() {
            self.batch_census = Some(self.new_census(CENSUS_BATCH)?);
        }
        let census = self.batch_census.take().expect("just made");
        let mut done = 0;
        let result = (|| {
            while done < gens {
                let batch = (gens - done).min(CENSUS_BATCH as u64);
                census.reset();
                self.step_with_census(batch, &census, 0)?;
                out.extend(census.fetch(batch as u32)?);
                done += batch;
            }
            Ok(())
        })();
        self.batch_census = Some(census);
        result
    }

    /// The CPU copy of the current state, read back once after the last generation ran.
    fn mirror(&mut self) -> EngineResult<&mut Grid> {
        if self.mirror.is_none() {
            let g = self.grid.download(&self.ctx)?;
            self.mirror = Some(if self.transposed { transpose(&g) } else { g });
        }
        Ok(self.mirror.as_mut().expect("just made"))
    }
}
