//! The GPU engine for Life-like rules: drives `shaders/life.wgsl`.
//!
//! The rule reaches the shader in one of two ways, chosen by [`ShaderMode`]: compiled into it as
//! constant boolean logic (the default: generated WGSL, specialised per rule), or read at run
//! time from the uniform table (`generic_rule`). `lifelab bench --shader` measures both.
//!
//! All generations of a `step` are recorded into command encoders with no readback in between;
//! the two buffers of each band ping-pong.

use std::fmt::Write;

use bytemuck::{Pod, Zeroable};

use super::census::GpuCensus;
use super::grid::GpuGrid;
use super::{GpuContext, pipeline_cache};
use crate::cpu::dense;
use crate::engine::{
    Bounds, CellRect, Engine, EngineError, EngineResult, Progress, Put, Sampled, Universe,
};
use crate::grid::Grid;
use crate::hash;
use crate::rule::{CountTable, LifeRule, Neighbourhood, Outcome, Rule};
use crate::tiles::TileMap;

const LIFE_WGSL: &str = include_str!("../../shaders/life.wgsl");
pub(super) const HASH_WGSL: &str = include_str!("../../shaders/hash.wgsl");

/// Generations recorded into one command encoder (deterministic rules).
const MAX_BATCH: u64 = 1024;

/// Parameter slots of the uniform buffer: one per band, or one per (generation, band) for
/// stochastic rules, whose key changes every generation.
const PARAM_SLOTS: u64 = 1024;

/// When an encoded batch takes censuses.
#[derive(Clone, Copy)]
enum CensusPlan {
    EveryGeneration { first_slot: u32 },
    AtEnd { slot: u32 },
}

/// How the rule reaches the shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum ShaderMode {
    /// Generated WGSL with the rule as constant logic.
    #[default]
    Specialised,
    /// One shader per neighbourhood that reads the rule from a uniform table.
    Generic,
}

#[derive(Clone, Copy, Debug)]
pub struct LifeOptions {
    pub shader: ShaderMode,
    /// Output rows per invocation.
    pub rows_per_invocation: u32,
    /// Caps the bytes of one band below the device's binding limit.
    pub max_band_bytes: Option<u64>,
}

impl Default for LifeOptions {
    fn default() -> Self {
        Self {
            shader: ShaderMode::Specialised,
            rows_per_invocation: 4,
            max_band_bytes: None,
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Params {
    width: u32,
    words: u32,
    last_word: u32,
    last_bits: u32,
    band_rows: u32,
    above_rows: u32,
    row_offset: u32,
    row_groups: u32,
    key: u32,
    dead_bits: u32,
    alive_bits: u32,
    transposed: u32,
    dead_threshold: [[u32; 4]; 3],
    alive_threshold: [[u32; 4]; 3],
}

/// The WGSL for a rule: the shared helpers, the hash, and `rule_fn`.
/// The Rust side of `struct Params` in `shaders/life.wgsl`.
pub fn layout() -> super::layout::StructLayout {
    super::layout::StructLayout {
        shader: "life.wgsl",
        wgsl_struct: "Params",
        fields: super::layout::fields!(
            Params,
            width,
            words,
            last_word,
            last_bits,
            band_rows,
            above_rows,
            row_offset,
            row_groups,
            key,
            dead_bits,
            alive_bits,
            transposed,
            dead_threshold,
            alive_threshold,
        ),
        size: std::mem::size_of::<Params>(),
    }
}

pub fn shader_source(rule: &LifeRule, mode: ShaderMode) -> String {
    let table = CountTable::new(rule);
    let planes = match rule.neighbourhood {
        Neighbourhood::Moore => "moore_planes",
        Neighbourhood::Hexagonal => "hex_planes",
        Neighbourhood::VonNeumann => "von_neumann_planes",
    };
    let mut f = String::new();
    let _ = writeln!(
        f,
        "fn rule_fn(u: Tri, m: Tri, d: Tri, r: u32, w: u32) -> u32 {{\n    \
         let t = {planes}(u, m, d);\n    let alive = m.c;"
    );
    match mode {
        ShaderMode::Generic => {
            f.push_str("    var next = generic_rule(t, alive);\n");
            if table.is_stochastic() {
                f.push_str(
                    "    var candidates = 0u;\n    for (var c = 0u; c < 10u; c++) {\n        \
                     if params.dead_threshold[c >> 2u][c & 3u] != 0u { candidates |= equal(t, c) & ~alive; }\n        \
                     if params.alive_threshold[c >> 2u][c & 3u] != 0u { candidates |= equal(t, c) & alive; }\n    }\n",
                );
            }
        }
        ShaderMode::Specialised => {
            f.push_str("    var next = 0u;\n");
            let mut candidates = Vec::new();
            for c in 0..table.values {
                let eq = equal_expr(c);
                match (table.dead[c], table.alive[c]) {
                    (Outcome::Alive, Outcome::Alive) => {
                        let _ = writeln!(f, "    next |= {eq};");
                    }
                    (Outcome::Alive, _) => {
                        let _ = writeln!(f, "    next |= {eq} & ~alive;");
                    }
                    (_, Outcome::Alive) => {
                        let _ = writeln!(f, "    next |= {eq} & alive;");
                    }
                    _ => {}
                }
                if matches!(table.dead[c], Outcome::Chance(_)) {
                    candidates.push(format!("({eq} & ~alive)"));
                }
                if matches!(table.alive[c], Outcome::Chance(_)) {
                    candidates.push(format!("({eq} & alive)"));
                }
            }
            if !candidates.is_empty() {
                let _ = writeln!(f, "    let candidates = {};", candidates.join(" | "));
            }
        }
    }
    if table.is_stochastic() {
        f.push_str(
            "    if candidates != 0u {\n        next |= chance(t, alive, candidates, r, w);\n    }\n",
        );
    }
    f.push_str("    return next;\n}\n");
    format!("{LIFE_WGSL}\n{HASH_WGSL}\n{f}")
}

/// `count value == c` as constant logic on the planes.
fn equal_expr(c: usize) -> String {
    let bit = |k: usize| {
        if c >> k & 1 == 1 {
            format!("t.p{k}")
        } else {
            format!("~t.p{k}")
        }
    };
    format!("({} & {} & {} & {})", bit(0), bit(1), bit(2), bit(3))
}

pub struct GpuLifeEngine {
    ctx: GpuContext,
    rule: Rule,
    table: CountTable,
    seed: u64,
    grid: GpuGrid,
    pipeline: wgpu::ComputePipeline,
    /// `bind_groups[p][k]`: band k reading buffer p and writing buffer 1 - p.
    bind_groups: [Vec<wgpu::BindGroup>; 2],
    params: wgpu::Buffer,
    slot_stride: u64,
    rows: u32,
    generation: u64,
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

impl GpuLifeEngine {
    pub fn new(
        ctx: &GpuContext,
        rule: Rule,
        start: &Grid,
        seed: u64,
        options: LifeOptions,
    ) -> EngineResult<Self> {
        let life = *rule
            .life_rule()
            .ok_or_else(|| EngineError::Unsupported(format!("{rule} is not a Life-like rule")))?;
        let table = CountTable::new(&life);
        let source = shader_source(&life, options.shader);
        let rows = options.rows_per_invocation.max(1);
        let (pipeline, layout) = pipeline_cache::life(ctx, &source, rows)?;
        let transposed = runs_transposed(start.width(), start.height());
        let (gw, gh) = if transposed {
            (start.height(), start.width())
        } else {
            (start.width(), start.height())
        };
        let grid = GpuGrid::new(ctx, gw, gh, options.max_band_bytes)?;

        let align = ctx.limits().min_uniform_buffer_offset_alignment as u64;
        let slot_stride = (std::mem::size_of::<Params>() as u64).next_multiple_of(align);
        let params = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("life params"),
            size: slot_stride * PARAM_SLOTS.max(grid.bands.len() as u64),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });

        let n = grid.bands.len();
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
                                    size: wgpu::BufferSize::new(
                                        std::mem::size_of::<Params>() as u64
                                    ),
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

        let engine = Self {
            ctx: ctx.clone(),
            rule,
            table,
            seed,
            grid,
            pipeline,
            bind_groups,
            params,
            slot_stride,
            rows,
            generation: 0,
            census: None,
            batch_census: None,
            mirror: Some(start.clone()),
            transposed,
        };
        if !engine.table.is_stochastic() {
            engine.write_params(0, 1);
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
        }
    }

    /// Writes the slots for `gens` generations from the current one (stochastic rules), or the
    /// one slot per band (deterministic rules, `gens` = 1).
    fn write_params(&self, first_gen: u64, gens: u64) {
        let n = self.grid.bands.len();
        let mut data = vec![0u8; (gens as usize * n) * self.slot_stride as usize];
        for g in 0..gens {
            let key = hash::stream_key(self.seed, first_gen + g);
            for k in 0..n {
                let at = (g as usize * n + k) * self.slot_stride as usize;
                let p = self.band_params(k, key);
                data[at..at + std::mem::size_of::<Params>()]
                    .copy_from_slice(bytemuck::bytes_of(&p));
            }
        }
        self.ctx.queue.write_buffer(&self.params, 0, &data);
    }

    /// Workgroups of 64 invocations, one invocation per word and group of rows, laid out in as
    /// few dimensions as the device's per-dimension cap allows.
    fn dispatch_size(&self, band_rows: u32) -> (u32, u32, u32) {
        let invocations = self.grid.words as u64 * band_rows.div_ceil(self.rows) as u64;
        let groups = invocations.div_ceil(64).max(1);
        let max = self
            .ctx
            .limits()
            .max_compute_workgroups_per_dimension
            .max(1) as u64;
        let x = groups.min(max);
        let rest = groups.div_ceil(x);
        let y = rest.min(max);
        (x as u32, y as u32, rest.div_ceil(y) as u32)
    }

    /// Records `gens` generations into one encoder, with timestamps around them and a census
    /// after them if asked for.
    fn encode(
        &mut self,
        gens: u64,
        stochastic: bool,
        timestamps: Option<&wgpu::QuerySet>,
        census: Option<(&GpuCensus, CensusPlan)>,
    ) -> wgpu::CommandBuffer {
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("life"),
            });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("generations"),
                timestamp_writes: timestamps.map(|q| wgpu::ComputePassTimestampWrites {
                    query_set: q,
                    beginning_of_pass_write_index: Some(0),
                    end_of_pass_write_index: Some(1),
                }),
            });
            let n = self.grid.bands.len();
            for g in 0..gens {
                pass.set_pipeline(&self.pipeline);
                let p = self.grid.current;
                for k in 0..n {
                    let slot = if stochastic { g as usize * n + k } else { k };
                    let offset = (slot as u64 * self.slot_stride) as u32;
                    pass.set_bind_group(0, &self.bind_groups[p][k], &[offset]);
                    let (x, y, z) = self.dispatch_size(self.grid.bands[k].rows);
                    pass.dispatch_workgroups(x, y, z);
                }
                self.grid.current = 1 - p;
                if let Some((c, CensusPlan::EveryGeneration { first_slot })) = census {
                    c.record(&mut pass, self.grid.current, first_slot + g as u32);
                }
            }
            if let Some((c, CensusPlan::AtEnd { slot })) = census {
                c.record(&mut pass, self.grid.current, slot);
            }
        }
        encoder.finish()
    }

    /// Advances `gens` generations (at most the census's slots), recording the census of each
    /// new generation into slots `first_slot..`. The caller clears, copies out and reads.
    pub fn step_with_census(
        &mut self,
        gens: u64,
        census: &GpuCensus,
        first_slot: u32,
    ) -> EngineResult<()> {
        self.mirror = None;
        let stochastic = self.table.is_stochastic();
        let gens = gens.min((census.slots() - first_slot) as u64);
        if stochastic {
            let per_batch = (PARAM_SLOTS / self.grid.bands.len() as u64).max(1);
            let mut done = 0;
            while done < gens {
                let batch = per_batch.min(gens - done);
                self.write_params(self.generation, batch);
                let plan = CensusPlan::EveryGeneration {
                    first_slot: first_slot + done as u32,
                };
                let commands = self.encode(batch, true, None, Some((census, plan)));
                self.ctx.queue.submit([commands]);
                self.ctx.wait()?;
                self.generation += batch;
                done += batch;
            }
        } else {
            let plan = CensusPlan::EveryGeneration { first_slot };
            let commands = self.encode(gens, false, None, Some((census, plan)));
            self.ctx.queue.submit([commands]);
            self.generation += gens;
        }
        self.ctx.check_faults()
    }

    /// Advances `gens` generations and records the census of the last one into `slot`.
    pub fn step_then_census(
        &mut self,
        gens: u64,
        census: &GpuCensus,
        slot: u32,
    ) -> EngineResult<()> {
        self.mirror = None;
        if self.table.is_stochastic() {
            self.step(gens)?;
            return self.census_now(census, slot);
        }
        let commands = self.encode(
            gens,
            false,
            None,
            Some((census, CensusPlan::AtEnd { slot })),
        );
        self.ctx.queue.submit([commands]);
        self.generation += gens;
        self.ctx.check_faults()
    }

    /// Records the census of the current state into `slot`.
    pub fn census_now(&mut self, census: &GpuCensus, slot: u32) -> EngineResult<()> {
        let commands = self.encode(0, false, None, Some((census, CensusPlan::AtEnd { slot })));
        self.ctx.queue.submit([commands]);
        self.ctx.check_faults()
    }

    /// A census buffer with `slots` slots for this engine's torus.
    pub fn new_census(&self, slots: u32) -> EngineResult<GpuCensus> {
        GpuCensus::new(&self.ctx, &self.grid, slots)
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

    /// Advances `gens` generations and returns the device's own time for them, from timestamp
    /// queries, when the device has them (`None` otherwise). Deterministic rules only: they
    /// record all generations in one pass; stochastic rules fall back to `None`.
    fn timed(&mut self, gens: u64) -> EngineResult<Option<f64>> {
        let timestamps = self.ctx.summary.timestamp_queries && !self.table.is_stochastic();
        if !timestamps || gens == 0 {
            self.step(gens)?;
            return Ok(None);
        }
        let queries = self.ctx.device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("bench"),
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        });
        let resolve = self.ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timestamps"),
            size: 16,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = self.ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timestamps readback"),
            size: 16,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let commands = self.encode(gens, false, Some(&queries), None);
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("resolve"),
            });
        encoder.resolve_query_set(&queries, 0..2, &resolve, 0);
        encoder.copy_buffer_to_buffer(&resolve, 0, &readback, 0, 16);
        self.ctx.queue.submit([commands, encoder.finish()]);
        self.generation += gens;
        let mut ticks = [0u64; 2];
        super::grid::read_mapped(&self.ctx, &readback, 16, |d| {
            ticks.copy_from_slice(bytemuck::cast_slice(d));
        })?;
        self.ctx.check_faults()?;
        let period = self.ctx.queue.get_timestamp_period() as f64;
        Ok(Some(
            ticks[1].saturating_sub(ticks[0]) as f64 * period * 1e-9,
        ))
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

    /// Writes a whole torus (of the torus's own orientation) to the device.
    fn upload(&self, g: &Grid) {
        if self.transposed {
            self.grid.upload(&self.ctx, &transpose(g));
        } else {
            self.grid.upload(&self.ctx, g);
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
    pub fn write_word(&self, y: u32, word: usize, value: u64) {
        self.grid.write_word(&self.ctx, y, word, value);
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
    fn name(&self) -> &'static str {
        "gpu"
    }

    fn rule(&self) -> &Rule {
        &self.rule
    }

    fn universe(&self) -> Universe {
        let (w, h) = self.size();
        Universe::torus(w, h)
    }

    fn generation(&self) -> u64 {
        self.generation
    }

    fn set_generation(&mut self, generation: u64) {
        self.generation = generation;
    }

    fn step(&mut self, gens: u64) -> EngineResult<()> {
        if gens > 0 {
            self.mirror = None;
        }
        let stochastic = self.table.is_stochastic();
        let per_batch = if stochastic {
            (PARAM_SLOTS / self.grid.bands.len() as u64).max(1)
        } else {
            MAX_BATCH
        };
        let mut done = 0;
        while done < gens {
            let batch = per_batch.min(gens - done);
            if stochastic {
                self.write_params(self.generation, batch);
            }
            let commands = self.encode(batch, stochastic, None, None);
            self.ctx.queue.submit([commands]);
            self.generation += batch;
            done += batch;
            if stochastic {
                // The next batch rewrites the parameter slots: let this one finish first.
                self.ctx.wait()?;
            }
        }
        self.ctx.check_faults()
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

    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }

    fn grid(&mut self) -> EngineResult<Grid> {
        Ok(self.mirror()?.clone())
    }

    fn finish(&mut self) -> EngineResult<()> {
        self.ctx.wait()?;
        self.ctx.check_faults()
    }

    fn step_timed(&mut self, gens: u64) -> EngineResult<Option<f64>> {
        self.mirror = None;
        self.timed(gens)
    }
}
