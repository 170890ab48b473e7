//! The GPU engine for elementary rules, and the space-time buffer the app draws: both drive
//! `shaders/elementary.wgsl`.

use bytemuck::{Pod, Zeroable};

use super::{GpuContext, pipeline_cache};
use crate::engine::dense;
use crate::engine::{
    Bounds, CellRect, Census, Core, Engine, EngineError, EngineKind, EngineResult, Put, Universe,
};
use crate::grid::{Grid, human_bytes};
use crate::rule::{ElementaryRule, Rule};
use crate::tiles::TileMap;

const ELEMENTARY_WGSL: &str = include_str!("../../shaders/elementary.wgsl");

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Params {
    width: u32,
    words: u32,
    last_word: u32,
    last_bits: u32,
    rows: u32,
    src_base: u32,
    dst_base: u32,
    rule: u32,
}

/// The elementary shader.
pub fn source() -> String {
    ELEMENTARY_WGSL.to_string()
}

/// The Rust side of `struct Params` in `shaders/elementary.wgsl`.
pub fn layout() -> super::layout::StructLayout {
    super::layout::StructLayout {
        shader: "elementary.wgsl",
        wgsl_struct: "Params",
        fields: super::layout::fields!(
            Params, width, words, last_word, last_bits, rows, src_base, dst_base, rule,
        ),
        size: std::mem::size_of::<Params>(),
    }
}

/// Rings of one width in one buffer, with parameter slots selected by dynamic offset.
struct Rings {
    ctx: GpuContext,
    width: u32,
    words: u32,
    buffer: wgpu::Buffer,
    params: wgpu::Buffer,
    slot_stride: u64,
    pipeline: wgpu::ComputePipeline,
    bind_group: wgpu::BindGroup,
}

impl Rings {
    /// A buffer of `total_rows` rows and `slots` parameter slots.
    fn new(ctx: &GpuContext, width: u32, total_rows: u32, slots: u32) -> EngineResult<Self> {
        let (pipeline, layout) = pipeline_cache::elementary(ctx, ELEMENTARY_WGSL)?;
        let words = (width as u64).div_ceil(64) as u32 * 2;
        let bytes = words as u64 * 4 * total_rows as u64;
        let limits = ctx.limits();
        let binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        if bytes > binding || words as u64 * total_rows as u64 > u32::MAX as u64 {
            return Err(EngineError::Unavailable(format!(
                "{total_rows} rows of {width} cells take {}, more than the largest storage binding of {} ({})",
                human_bytes(bytes),
                ctx.name(),
                human_bytes(binding)
            )));
        }
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("elementary rows"),
            size: bytes.max(4),
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let align = limits.min_uniform_buffer_offset_alignment as u64;
        let slot_stride = (std::mem::size_of::<Params>() as u64).next_multiple_of(align);
        let params = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("elementary params"),
            size: slot_stride * slots as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(EngineError::OutOfMemory(format!(
                "{} could not allocate {}: {e}",
                ctx.name(),
                human_bytes(bytes)
            )));
        }
        let bind_group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("elementary"),
            layout: &layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &params,
                        offset: 0,
                        size: wgpu::BufferSize::new(std::mem::size_of::<Params>() as u64),
                    }),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: buffer.as_entire_binding(),
                },
            ],
        });
        Ok(Self {
            ctx: ctx.clone(),
            width,
            words,
            buffer,
            params,
            slot_stride,
            pipeline,
            bind_group,
        })
    }

    fn params(&self, rule: ElementaryRule, rows: u32, src_row: u32, dst_row: u32) -> Params {
        let last_word = (self.width - 1) / 32;
        Params {
            width: self.width,
            words: self.words,
            last_word,
            last_bits: self.width - last_word * 32,
            rows,
            src_base: src_row * self.words,
            dst_base: dst_row * self.words,
            rule: rule.0 as u32,
        }
    }

    fn write_slots(&self, slots: &[Params]) {
        let mut data = vec![0u8; slots.len() * self.slot_stride as usize];
        for (i, p) in slots.iter().enumerate() {
            let at = i * self.slot_stride as usize;
            data[at..at + std::mem::size_of::<Params>()].copy_from_slice(bytemuck::bytes_of(p));
        }
        self.ctx.queue.write_buffer(&self.params, 0, &data);
    }

    /// Records one dispatch per slot in `slots` (in order) into one pass.
    fn run(&self, slots: impl Iterator<Item = u32>, rows: u32) {
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("elementary"),
            });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("elementary generations"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipeline);
            let x = self.words.div_ceil(64);
            let max = self
                .ctx
                .limits()
                .max_compute_workgroups_per_dimension
                .max(1);
            let y = rows.min(max).max(1);
            let z = rows.div_ceil(y);
            for slot in slots {
                let offset = (slot as u64 * self.slot_stride) as u32;
                pass.set_bind_group(0, &self.bind_group, &[offset]);
                pass.dispatch_workgroups(x, y, z);
            }
        }
        self.ctx.queue.submit([encoder.finish()]);
    }
}

/// The engine: `height` independent rings of `width` cells, like the CPU engines.
pub struct GpuElementaryEngine {
    core: Core,
    rings: Rings,
    height: u32,
    /// 0: the state is in the first half of the buffer; 1: in the second.
    current: u32,
    /// The current state on the CPU, once read back.
    mirror: Option<Grid>,
}

/// Generations per submission.
const BATCH: u64 = 1024;

impl GpuElementaryEngine {
    pub fn new(ctx: &GpuContext, rule: Rule, start: &Grid) -> EngineResult<Self> {
        let elementary = rule
            .elementary()
            .ok_or_else(|| EngineError::Unsupported(format!("{rule} is not an elementary rule")))?;
        let height = start.height();
        let rings = Rings::new(ctx, start.width(), 2 * height, 2)?;
        rings.write_slots(&[
            rings.params(elementary, height, 0, height),
            rings.params(elementary, height, height, 0),
        ]);
        let mut engine = Self {
            core: Core::new(EngineKind::Gpu, "gpu", rule),
            rings,
            height,
            current: 0,
            mirror: None,
        };
        engine.upload(start.clone())?;
        Ok(engine)
    }
}

impl GpuElementaryEngine {
    fn download(&self) -> EngineResult<Grid> {
        let ctx = &self.rings.ctx;
        let bytes = self.rings.words as u64 * 4 * self.height as u64;
        let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("elementary readback"),
            size: bytes.max(4),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        encoder.copy_buffer_to_buffer(
            &self.rings.buffer,
            self.current as u64 * bytes,
            &staging,
            0,
            bytes,
        );
        ctx.queue.submit([encoder.finish()]);
        let mut grid = Grid::try_new(self.rings.width, self.height)?;
        super::grid::read_mapped(ctx, &staging, bytes, |d| {
            bytemuck::cast_slice_mut::<u64, u8>(grid.words_mut()).copy_from_slice(d);
        })?;
        ctx.check_faults()?;
        Ok(grid)
    }

    /// The CPU copy of the current state, read back once after the last generation ran.
    fn mirror(&mut self) -> EngineResult<&mut Grid> {
        if self.mirror.is_none() {
            self.mirror = Some(self.download()?);
        }
        Ok(self.mirror.as_mut().expect("just made"))
    }

    fn upload(&mut self, grid: Grid) -> EngineResult<()> {
        self.current = 0;
        self.rings.ctx.queue.write_buffer(
            &self.rings.buffer,
            0,
            bytemuck::cast_slice(grid.words()),
        );
        self.mirror = Some(grid);
        self.rings.ctx.check_faults()
    }

    /// Applies an edit to the CPU copy and writes it back.
    fn edit(&mut self, f: impl FnOnce(&mut Grid)) -> EngineResult<()> {
        let mut g = self.mirror()?.clone();
        f(&mut g);
        self.upload(g)
    }
}

impl Engine for GpuElementaryEngine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn universe(&self) -> Universe {
        Universe::torus(self.rings.width, self.height)
    }

    fn step(&mut self, gens: u64) -> EngineResult<()> {
        if gens > 0 {
            self.mirror = None;
        }
        let mut done = 0;
        while done < gens {
            let batch = BATCH.min(gens - done);
            let first = self.current;
            self.rings
                .run((0..batch).map(|g| (first + g as u32) % 2), self.height);
            self.current = (first + batch as u32) % 2;
            self.core.generation += batch;
            done += batch;
        }
        self.rings.ctx.check_faults()
    }

    fn step_piece(&self) -> u64 {
        BATCH
    }

    fn population(&mut self) -> EngineResult<u64> {
        Ok(self.mirror()?.population())
    }

    fn census(&mut self) -> EngineResult<Census> {
        Ok(self.mirror()?.census())
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        let m = self.mirror()?;
        let (x, y) = dense::wrap(m, x, y);
        Ok(m.get(x, y))
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        self.edit(|g| {
            let (x, y) = dense::wrap(g, x, y);
            g.set(x, y, alive);
        })
    }

    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        self.edit(|g| dense::put(g, cells, at, how))
    }

    fn clear(&mut self) -> EngineResult<()> {
        self.edit(Grid::clear)
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        Ok(dense::bounds(self.mirror()?))
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        Ok(dense::cells_in(self.mirror()?, rect))
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        Ok(dense::export(self.mirror()?))
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        self.edit(|g| dense::import(g, tiles))
    }

    fn grid(&mut self) -> EngineResult<Grid> {
        Ok(self.mirror()?.clone())
    }

    fn finish(&mut self) -> EngineResult<()> {
        self.rings.ctx.wait()?;
        self.rings.ctx.check_faults()
    }
}

/// The app's space-time diagram: a ring of `capacity` rows on the GPU; each generation computes
/// the next row from the newest, overwriting the oldest.
pub struct SpaceTime {
    rings: Rings,
    capacity: u32,
    /// The row that holds the newest generation.
    newest: u32,
    generation: u64,
}

impl SpaceTime {
    pub fn new(
        ctx: &GpuContext,
        rule: ElementaryRule,
        start: &Grid,
        capacity: u32,
    ) -> EngineResult<Self> {
        let capacity = capacity.max(2);
        let rings = Rings::new(ctx, start.width(), capacity, capacity)?;
        // Slot r computes row r from row r - 1.
        let slots: Vec<Params> = (0..capacity)
            .map(|r| rings.params(rule, 1, (r + capacity - 1) % capacity, r))
            .collect();
        rings.write_slots(&slots);
        let mut data = vec![0u32; rings.words as usize * capacity as usize];
        data[..rings.words as usize].copy_from_slice(bytemuck::cast_slice(start.row(0)));
        ctx.queue
            .write_buffer(&rings.buffer, 0, bytemuck::cast_slice(&data));
        Ok(Self {
            rings,
            capacity,
            newest: 0,
            generation: 0,
        })
    }

    pub fn step(&mut self, gens: u64) -> EngineResult<()> {
        let mut done = 0;
        while done < gens {
            let batch = BATCH.min(gens - done) as u32;
            let from = self.newest;
            let cap = self.capacity;
            self.rings.run((1..=batch).map(|i| (from + i) % cap), 1);
            self.newest = (from + batch) % cap;
            self.generation += batch as u64;
            done += batch as u64;
        }
        self.rings.ctx.check_faults()
    }

    /// The rows' buffer, its u32 words per row, the row count and the newest row.
    pub fn buffer(&self) -> (&wgpu::Buffer, u32, u32, u32) {
        (
            &self.rings.buffer,
            self.rings.words,
            self.capacity,
            self.newest,
        )
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn width(&self) -> u32 {
        self.rings.width
    }

    /// The whole ring of rows as a grid, row r of the buffer as row r (tests and screenshots).
    pub fn read_rows(&self) -> EngineResult<Grid> {
        let ctx = &self.rings.ctx;
        let bytes = self.rings.words as u64 * 4 * self.capacity as u64;
        let staging = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("space-time readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        encoder.copy_buffer_to_buffer(&self.rings.buffer, 0, &staging, 0, bytes);
        ctx.queue.submit([encoder.finish()]);
        let mut grid = Grid::new(self.rings.width, self.capacity);
        super::grid::read_mapped(ctx, &staging, bytes, |d| {
            bytemuck::cast_slice_mut::<u64, u8>(grid.words_mut()).copy_from_slice(d);
        })?;
        ctx.check_faults()?;
        Ok(grid)
    }
}
