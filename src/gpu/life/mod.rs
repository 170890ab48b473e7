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
mod options;
mod plan;

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
        let (table, source) = match rule.kind {
            RuleKind::Life(life) => (CountTable::new(&life), shader_source(&life, options.shader)),
            // A tabled rule's shader is its circuit, whatever the mode: the uniform table of
            // counts is unused (and all dead, so nothing reads it as a chance).
            RuleKind::Map(map) => (
                CountTable::new(&LifeRule::moore(&[], &[])),
                format!(
                    "{LIFE_WGSL}\n{TILES_WGSL}\n{HASH_WGSL}\n{}",
                    super::tabled::rule_fn(&map, transposed)
                ),
            ),
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
            RuleKind::Loaded(_) => {
                return Err(EngineError::Unsupported(format!(
                    "{rule} is a rule file's rule: the GPU rule-tree engine runs it"
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

    fn band_params(&self, k: usize, key: u32) -> Params {
        let g = &self.grid;
        let band = &g.bands[k];
        let above = &g.bands[(k + g.bands.len() - 1) % g.bands.len()];
        let last_word = (g.width - 1) / 32;
        let pack = |t: [u32; 10]| {
            let mut out = [[0u32; 4]; 3];
            for (c, v) in t.into_iter().enumerate() {
                out[c / 4][c % 4] = v;
            }
            out
        };
        let (tiles_x, band_first_tile, band_tile_rows) = match &self.tiles {
            Some(t) => (t.geo.tiles_x, t.geo.band_first[k], t.geo.band_rows[k]),
            None => (0, 0, 0),
        };
        Params {
            width: g.width,
            words: g.words,
            last_word,
            last_bits: g.width - last_word * 32,
            band_rows: band.rows,
            above_rows: above.rows,
            row_offset: band.first_row,
            row_groups: band.rows.div_ceil(self.rows),
            key,
            dead_bits: self.table.certain_bits(false),
            alive_bits: self.table.certain_bits(true),
            transposed: self.transposed as u32,
            dead_threshold: pack(self.table.thresholds(false)),
            alive_threshold: pack(self.table.thresholds(true)),
            height: g.height,
            bands: g.bands.len() as u32,
            band: k as u32,
            tiles_x,
            band_first_tile,
            band_tile_rows,
            all_tiles: 0,
            // Against the generation before the current one, unless a draw by chance can undo
            // a settled tile (see tiles.rs).
            compare_prev: !self.table.is_stochastic() as u32,
            block: 1,
            _pad0: 0,
            _pad1: 0,
            _pad2: 0,
            keys: [[0; 4]; 8],
        }
    }

    /// The parameters of band `k` for a dispatch of `pass` whose first generation computed is
    /// `first_gen + 1` (stochastic rules key each generation).
    fn pass_params(&self, k: usize, pass: Pass, first_gen: u64) -> Params {
        let stochastic = self.table.is_stochastic();
        let key = |g: u64| {
            if stochastic {
                hash::stream_key(self.seed, g)
            } else {
                0
            }
        };
        let mut p = self.band_params(k, key(first_gen));
        match pass {
            Pass::TilesAll => p.all_tiles = 1,
            Pass::Block(j) => {
                p.block = j;
                for s in 0..j as usize {
                    p.keys[s / 4][s % 4] = key(first_gen + s as u64);
                }
            }
            _ => {}
        }
        p
    }

    /// Deterministic rules: one slot per kind of dispatch and band, written once.
    fn write_static_params(&self) {
        let n = self.grid.bands.len();
        let mut passes = vec![Pass::TilesList, Pass::TilesAll];
        passes.extend((1..=self.block).map(Pass::Block));
        let mut data = vec![0u8; passes.len() * n * self.slot_stride as usize];
        for pass in passes {
            for k in 0..n {
                let at = (pass.variant() as usize * n + k) * self.slot_stride as usize;
                let p = self.pass_params(k, pass, 0);
                data[at..at + std::mem::size_of::<Params>()]
                    .copy_from_slice(bytemuck::bytes_of(&p));
            }
        }
        self.ctx.queue.write_buffer(&self.params, 0, &data);
    }

    /// Stochastic rules: one slot per dispatch of the plan and band, keyed by its generations.
    fn write_plan_params(&self, plan: &Plan) {
        let n = self.grid.bands.len();
        let mut data = vec![0u8; plan.units.len() * n * self.slot_stride as usize];
        let mut first = self.core.generation;
        for (u, unit) in plan.units.iter().enumerate() {
            for k in 0..n {
                let at = (u * n + k) * self.slot_stride as usize;
                let p = self.pass_params(k, unit.pass, first);
                data[at..at + std::mem::size_of::<Params>()]
                    .copy_from_slice(bytemuck::bytes_of(&p));
            }
            first += unit.pass.gens();
        }
        self.ctx.queue.write_buffer(&self.params, 0, &data);
    }

    /// Workgroups of 64 invocations, one invocation per word and group of rows, laid out in as
    /// few dimensions as the device's per-dimension cap allows.
    fn dispatch_size(&self, band_rows: u32) -> (u32, u32, u32) {
        let invocations = self.grid.words as u64 * band_rows.div_ceil(self.rows) as u64;
        self.split(invocations.div_ceil(64))
    }

    /// One workgroup per blocked tile: 30 words by `64 - 2k` rows.
    fn block_dispatch_size(&self, band_rows: u32, k: u32) -> (u32, u32, u32) {
        let last_word = (self.grid.width - 1) / 32;
        let tiles_x = (last_word + 30) / 30;
        let tile_rows = band_rows.div_ceil(64 - 2 * k);
        self.split(tiles_x as u64 * tile_rows as u64)
    }

    fn split(&self, groups: u64) -> (u32, u32, u32) {
        super::tiles::split(
            groups,
            self.ctx.limits().max_compute_workgroups_per_dimension,
        )
    }

    /// Plans up to `gens` generations in at most `max_units` dispatches, and commits the tile
    /// bookkeeping to that plan. `every_gen`: a census follows each generation (so no
    /// generation may hide inside a blocked dispatch).
    fn plan(&mut self, gens: u64, max_units: usize, every_gen: bool) -> Plan {
        let mut plan = Plan::default();
        // Change records are exact after this many tile-kernel generations in a row.
        let need = if self.table.is_stochastic() { 1 } else { 2 };
        let block = self.block;
        let dense_k = if every_gen { 1 } else { block as u64 };
        while plan.gens < gens && plan.units.len() < max_units {
            let left = gens - plan.gens;
            let unit = match self.tiles.as_mut() {
                Some(t) if t.mode == Mode::Sparse && t.seeded => {
                    t.seeded = false;
                    t.list_ready = true;
                    Unit {
                        pass: Pass::Seed,
                        compact: true,
                        census: None,
                        kept: false,
                    }
                }
                Some(t) if t.mode == Mode::Sparse && t.list_ready => Unit {
                    pass: Pass::TilesList,
                    compact: true,
                    census: None,
                    kept: t.census_kept,
                },
                // A sparse run starting afresh (after an edit), or a look from a dense stretch
                // every PROBE_EVERY generations: every tile, so that the list's length can be
                // read back and the run may go on the list.
                Some(t)
                    if t.mode == Mode::Sparse
                        || (t.dense_gens >= PROBE_EVERY && (left <= need || t.flag_gens > 0)) =>
                {
                    t.flag_gens += 1;
                    let compact = t.flag_gens >= need as u32;
                    if compact {
                        t.list_ready = true;
                        t.dense_gens = 0;
                    }
                    Unit {
                        pass: Pass::TilesAll,
                        compact,
                        census: None,
                        kept: t.census_kept,
                    }
                }
                Some(t) => {
                    t.invalidate();
                    let room = if t.dense_gens >= PROBE_EVERY {
                        left - need
                    } else {
                        left
                    };
                    let pass = dense_pass(dense_k.min(room), block);
                    t.dense_gens += pass.gens();
                    Unit {
                        pass,
                        compact: false,
                        census: None,
                        kept: false,
                    }
                }
                None => Unit {
                    pass: dense_pass(dense_k.min(left), block),
                    compact: false,
                    census: None,
                    kept: false,
                },
            };
            plan.gens += unit.pass.gens();
            plan.units.push(unit);
        }
        plan.read = self.tiles.as_ref().is_some_and(|t| t.list_ready);
        plan
    }

    /// Records a plan into one encoder, with timestamps around it and a census at the end if
    /// asked for. Stochastic rules: the caller wrote the plan's parameters.
    fn encode(
        &mut self,
        plan: &Plan,
        timestamps: Option<(&wgpu::QuerySet, u32)>,
        census: Option<&GpuCensus>,
        end_census: Option<u32>,
    ) -> (wgpu::CommandBuffer, bool) {
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("life"),
            });
        let stochastic = self.table.is_stochastic();
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("generations"),
                timestamp_writes: timestamps.map(|(q, at)| wgpu::ComputePassTimestampWrites {
                    query_set: q,
                    beginning_of_pass_write_index: Some(at),
                    end_of_pass_write_index: Some(at + 1),
                }),
            });
            let n = self.grid.bands.len();
            for (u, unit) in plan.units.iter().enumerate() {
                let p = self.grid.current;
                let group = if stochastic {
                    u as u64
                } else {
                    unit.pass.variant()
                };
                let offset = |k: usize| ((group * n as u64 + k as u64) * self.slot_stride) as u32;
                match unit.pass {
                    Pass::Main | Pass::Block(_) => {
                        let pipeline = match (unit.pass, &self.blocked) {
                            (Pass::Block(_), Some(b)) => b,
                            _ => &self.pipeline,
                        };
                        pass.set_pipeline(pipeline);
                        for k in 0..n {
                            pass.set_bind_group(0, &self.bind_groups[p][k], &[offset(k)]);
                            let rows = self.grid.bands[k].rows;
                            let (x, y, z) = match unit.pass {
                                Pass::Block(j) => self.block_dispatch_size(rows, j),
                                _ => self.dispatch_size(rows),
                            };
                            pass.dispatch_workgroups(x, y, z);
                        }
                    }
                    Pass::Seed => {
                        // The compaction that follows a kernel reading buffer 1 - p writes the
                        // list and control words of parity p: the current generation's.
                        let t = self.tiles.as_ref().expect("a seed has tiles");
                        t.record_compact(&mut pass, 1 - p, true);
                        continue;
                    }
                    Pass::TilesAll | Pass::TilesList => {
                        let t = self.tiles.as_ref().expect("a tile pass has tiles");
                        let all = unit.pass == Pass::TilesAll;
                        for k in 0..n {
                            t.record_kernel(&mut pass, p, k, offset(k), all);
                        }
                        if unit.compact {
                            t.record_compact(&mut pass, p, all);
                        }
                    }
                }
                self.grid.current = 1 - p;
                if let (Some(c), Some(slot)) = (census, unit.census)
                    && !(unit.kept && c.record_kept(&mut pass, self.grid.current, slot))
                {
                    c.record(&mut pass, self.grid.current, slot);
                }
            }
            if let (Some(c), Some(slot)) = (census, end_census) {
                let kept = self.tiles.as_ref().is_some_and(|t| t.census_kept);
                if !(kept && c.record_kept(&mut pass, self.grid.current, slot)) {
                    c.record(&mut pass, self.grid.current, slot);
                }
            }
        }
        let read = plan.read
            && self
                .tiles
                .as_ref()
                .is_some_and(|t| t.copy_counts(&mut encoder, self.grid.current));
        (encoder.finish(), read)
    }

    /// Advances `gens` generations in batches, with censuses as `census` asks, and returns the
    /// device's time for them when `timed` and the device has timestamp queries.
    fn advance(
        &mut self,
        gens: u64,
        census: Option<(&GpuCensus, CensusPlan)>,
        timed: bool,
    ) -> EngineResult<Option<f64>> {
        if gens > 0 {
            self.mirror = None;
        }
        let stochastic = self.table.is_stochastic();
        let n = self.grid.bands.len();
        let max_units = if stochastic {
            (self.slots / n as u64).max(1) as usize
        } else {
            usize::MAX
        };
        let every_gen = matches!(census, Some((_, CensusPlan::EveryGeneration { .. })));
        let timestamps = timed && self.ctx.summary.timestamp_queries;
        let queries = timestamps.then(|| {
            self.ctx.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("bench"),
                ty: wgpu::QueryType::Timestamp,
                count: 2 * TIMED_BATCHES,
            })
        });
        let mut seconds = 0.0;
        let mut batches = 0u32;
        let mut done = 0;
        loop {
            if let Some(t) = self.tiles.as_mut() {
                t.poll(&self.ctx, false);
            }
            let sparse = self.tiles.as_ref().is_some_and(|t| t.mode == Mode::Sparse);
            if every_gen
                && sparse
                && let Some(t) = self.tiles.as_mut()
                && !t.census_kept
            {
                // A census of every generation on the tile list: start the one the kernel
                // keeps, so that each generation costs its active tiles only.
                t.start_census(&self.ctx);
            }
            let cap = if sparse { SPARSE_BATCH } else { MAX_BATCH };
            let mut plan = self.plan((gens - done).min(cap), max_units, every_gen);
            let last = done + plan.gens >= gens;
            if let Some((_, CensusPlan::EveryGeneration { first_slot })) = census {
                // A slot per generation: a seed pass computes none, so it takes none.
                let mut at = done;
                for unit in plan.units.iter_mut().filter(|u| u.pass.gens() > 0) {
                    unit.census = Some(first_slot + at as u32);
                    at += unit.pass.gens();
                }
            }
            let end_census = match census {
                Some((_, CensusPlan::AtEnd { slot })) if last => Some(slot),
                _ => None,
            };
            if plan.units.is_empty() && end_census.is_none() {
                break;
            }
            if stochastic {
                self.write_plan_params(&plan);
            }
            let stamp = queries.as_ref().map(|q| (q, 2 * batches));
            let (commands, read) = self.encode(&plan, stamp, census.map(|c| c.0), end_census);
            self.ctx.queue.submit([commands]);
            if read && let Some(t) = self.tiles.as_mut() {
                t.start_read();
            }
            self.core.generation += plan.gens;
            done += plan.gens;
            if stochastic {
                // The next batch rewrites the parameter slots: let this one finish first.
                self.ctx.wait()?;
            }
            if let Some(q) = &queries {
                batches += 1;
                if batches == TIMED_BATCHES || last {
                    seconds += self.read_timestamps(q, batches)?;
                    batches = 0;
                }
            }
            if last {
                break;
            }
        }
        self.ctx.check_faults()?;
        Ok(queries.map(|_| seconds))
    }

    /// The device seconds of the first `batches` timestamped passes of `queries`.
    fn read_timestamps(&self, queries: &wgpu::QuerySet, batches: u32) -> EngineResult<f64> {
        let bytes = 16 * batches as u64;
        let resolve = self.ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timestamps"),
            size: bytes,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = self.ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timestamps readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("resolve"),
            });
        encoder.resolve_query_set(queries, 0..2 * batches, &resolve, 0);
        encoder.copy_buffer_to_buffer(&resolve, 0, &readback, 0, bytes);
        self.ctx.queue.submit([encoder.finish()]);
        let mut ticks = 0u64;
        super::grid::read_mapped(&self.ctx, &readback, bytes, |d| {
            let t: &[u64] = bytemuck::cast_slice(d);
            ticks = t.chunks_exact(2).map(|p| p[1].saturating_sub(p[0])).sum();
        })?;
        let period = self.ctx.queue.get_timestamp_period() as f64;
        Ok(ticks as f64 * period * 1e-9)
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

impl Engine for GpuLifeEngine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn universe(&self) -> Universe {
        let (w, h) = self.size();
        Universe::torus(w, h)
    }

    fn step(&mut self, gens: u64) -> EngineResult<()> {
        self.advance(gens, None, false)?;
        Ok(())
    }

    fn piece_ms(&self) -> f64 {
        // A piece's time includes waiting in the device's one queue behind the window's
        // frames, which on a software adapter take tens of milliseconds: pieces of 15 ms
        // would shrink to a generation or two and leave the device idle between them.
        100.0
    }

    fn step_with(&mut self, gens: u64, progress: &Progress) -> EngineResult<u64> {
        // Pieces the device finishes in well under a second, waited for, so that cancelling
        // takes effect soon and the queue never holds minutes of work.
        let piece = ((1u64 << 27) / self.grid.width as u64 / self.grid.height as u64).clamp(1, 256);
        let mut done = 0;
        while done < gens && !progress.cancelled() {
            let n = piece.min(gens - done);
            self.step(n)?;
            self.ctx.wait()?;
            done += n;
            progress.advance(n);
        }
        Ok(done)
    }

    fn population(&mut self) -> EngineResult<u64> {
        match &self.mirror {
            Some(m) => Ok(m.population()),
            None => Ok(GpuLifeEngine::census(self)?.population),
        }
    }

    fn census(&mut self) -> EngineResult<crate::grid::Census> {
        if self.transposed {
            // The device's census hashes its own layout; the seam's is the torus's.
            return Ok(self.mirror()?.census());
        }
        GpuLifeEngine::census(self)
    }

    fn step_census(&mut self, gens: u64, out: &mut Vec<crate::grid::Census>) -> EngineResult<()> {
        if self.transposed {
            for _ in 0..gens {
                Engine::step(self, 1)?;
                out.push(Engine::census(self)?);
            }
            return Ok(());
        }
        self.step_device_census(gens, out)
    }

    fn step_populations(&mut self, gens: u64, out: &mut Vec<u64>) -> EngineResult<()> {
        // The device's census, read back in batches; its population is the same whichever
        // way round the torus is held.
        let mut censuses = Vec::new();
        self.step_device_census(gens, &mut censuses)?;
        out.extend(censuses.iter().map(|c| c.population));
        Ok(())
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        let m = self.mirror()?;
        let (x, y) = dense::wrap(m, x, y);
        Ok(m.get(x, y))
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        let transposed = self.transposed;
        let m = self.mirror()?;
        let (x, y) = dense::wrap(m, x, y);
        if m.get(x, y) != alive {
            m.set(x, y, alive);
            let (row, word, value) = if transposed {
                // Device row x, the word holding cell y: gathered from column x.
                let k = y / 64;
                let value = (0..64)
                    .filter(|b| k * 64 + b < m.height() && m.get(x, k * 64 + b))
                    .fold(0u64, |v, b| v | 1 << b);
                (x, k as usize, value)
            } else {
                ((y), (x / 64) as usize, m.row(y)[(x / 64) as usize])
            };
            self.grid.write_word(&self.ctx, row, word, value);
            self.edited();
        }
        self.ctx.check_faults()
    }

    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        let whole = (cells.width(), cells.height()) == self.size() && how == Put::Replace;
        if whole && at == (0, 0) {
            self.upload(cells);
            self.mirror = Some(cells.clone());
            return self.ctx.check_faults();
        }
        if self.transposed {
            let m = self.mirror()?;
            dense::put(m, cells, at, how);
            let m = self.mirror.take().expect("made above");
            self.upload(&m);
            self.mirror = Some(m);
            return self.ctx.check_faults();
        }
        let h = self.grid.height;
        let m = self.mirror()?;
        dense::put(m, cells, at, how);
        let y0 = at.1.rem_euclid(h as i64) as u32;
        let rows = cells.height().min(h);
        let m = self.mirror.take().expect("made above");
        self.grid
            .upload_rows(&self.ctx, &m, (0..rows).map(|dy| (y0 + dy) % h));
        self.restart_tiles(&m);
        self.mirror = Some(m);
        self.ctx.check_faults()
    }

    fn clear(&mut self) -> EngineResult<()> {
        let (w, h) = self.size();
        let empty = Grid::try_new(w, h)?;
        self.put(&empty, (0, 0), Put::Replace)
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        Ok(dense::bounds(self.mirror()?))
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        Ok(dense::cells_in(self.mirror()?, rect))
    }

    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        Ok(dense::sample(self.mirror()?, rect, block))
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        Ok(dense::export(self.mirror()?))
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        let (w, h) = self.size();
        let mut g = Grid::try_new(w, h)?;
        dense::import(&mut g, tiles);
        self.put(&g, (0, 0), Put::Replace)
    }

    /// The bands' buffers as they are, unless the device holds the torus transposed (a
    /// renderer would draw it on its side).
    fn view_source(&self) -> Option<crate::engine::ViewSource> {
        if self.transposed {
            return None;
        }
        Some(crate::engine::ViewSource {
            sets: (0..2)
                .map(|p| {
                    self.grid
                        .bands
                        .iter()
                        .map(|b| b.buffers[p].clone())
                        .collect()
                })
                .collect(),
            band_rows: self.grid.bands[0].rows,
            words: self.grid.words,
        })
    }

    fn current_buffer(&self) -> Option<usize> {
        Some(self.grid.current)
    }

    fn dispatch(&self) -> Option<crate::engine::Dispatch> {
        Some(crate::engine::Dispatch {
            kernel: self.kernel.name(),
            block: self.block,
            blocked: matches!(self.kernel, LifeKernel::Tiles | LifeKernel::Blocked),
        })
    }

    /// The share of the torus's tiles that the next generation computes: the list's length
    /// over the tiles, read back now (after the work submitted so far). 1 where every tile is
    /// computed (the dense and blocked kernels, B0 rules, a dense stretch).
    fn active_fraction(&mut self) -> EngineResult<Option<f64>> {
        let current = self.grid.current;
        Ok(Some(match self.tiles.as_mut() {
            Some(t) if t.list_ready => {
                let count = t.read_now(&self.ctx, current)?;
                count as f64 / t.geo.tiles().max(1) as f64
            }
            _ => 1.0,
        }))
    }

    fn grid(&mut self) -> EngineResult<Grid> {
        Ok(self.mirror()?.clone())
    }

    fn finish(&mut self) -> EngineResult<()> {
        self.ctx.wait()?;
        self.ctx.check_faults()
    }

    fn step_timed(&mut self, gens: u64) -> EngineResult<Option<f64>> {
        self.advance(gens, None, true)
    }

    fn note(&self) -> Option<String> {
        Some(match self.kernel {
            LifeKernel::Blocked => {
                format!("kernel blocked, {} generations per dispatch", self.block)
            }
            LifeKernel::Dense => "kernel dense".to_string(),
            LifeKernel::Tiles | LifeKernel::Sparse if self.tiles.is_none() => format!(
                "kernel {}: a B0 rule changes every tile, so the blocked kernel runs the whole torus, {} generations per dispatch",
                self.kernel.name(),
                self.block
            ),
            LifeKernel::Sparse => "kernel sparse (active tiles only)".to_string(),
            LifeKernel::Tiles => format!(
                "kernel tiles (active tiles; dense stretches blocked, {} generations per dispatch)",
                self.block
            ),
        })
    }
}
