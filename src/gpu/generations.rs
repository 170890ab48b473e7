//! The GPU engine for rules whose cells hold states, on a torus: Golly's Generations rules
//! (`shaders/generations.wgsl`), rule files' trees (`shaders/rule_tree.wgsl`, the tree in a
//! storage buffer, walked per cell as on the CPU) and Larger than Life (`shaders/ltl.wgsl`, a
//! pass of each row's running counts before the cells' pass). One state per cell, one invocation per cell,
//! two buffers in turn. The CPU keeps a copy of the states, read back once after the
//! generations asked for, for edits and reads.

use bytemuck::{Pod, Zeroable};

use super::{GpuContext, pipeline_cache};
use crate::engine::{
    Bounds, CellRect, Census, Core, Engine, EngineError, EngineKind, EngineResult, Put, Universe,
    census_of_tiles, check_states,
};
use crate::grid::{Grid, human_bytes};
use crate::rule::Rule;
use crate::tiles::TileMap;

const GENERATIONS_WGSL: &str = include_str!("../../shaders/generations.wgsl");
const RULE_TREE_WGSL: &str = include_str!("../../shaders/rule_tree.wgsl");
const LTL_WGSL: &str = include_str!("../../shaders/ltl.wgsl");

/// `shaders/ltl.wgsl`'s parameters.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct LtlParams {
    width: u32,
    height: u32,
    states: u32,
    range: u32,
    shape: u32,
    survive_at: u32,
    widths_at: u32,
    pad: u32,
}

pub fn ltl_source() -> String {
    LTL_WGSL.to_string()
}

/// The Rust side of `struct Params` in `shaders/ltl.wgsl`.
pub fn ltl_layout() -> super::layout::StructLayout {
    super::layout::StructLayout {
        shader: "ltl.wgsl",
        wgsl_struct: "Params",
        fields: super::layout::fields!(
            LtlParams, width, height, states, range, shape, survive_at, widths_at, pad,
        ),
        size: std::mem::size_of::<LtlParams>(),
    }
}

/// A Larger than Life rule as `shaders/ltl.wgsl` reads it: its parameters (less the size) and
/// its table (births by count, survivals by count, a disc's half widths).
fn ltl_table(l: &crate::rule::LtlRule) -> (LtlParams, Vec<u32>) {
    use crate::rule::ltl::Shape;
    let counts = l.neighbours() as u32 + 2;
    let words = counts.div_ceil(32) as usize;
    let mut table = vec![0u32; 2 * words];
    for n in 0..counts {
        if l.next(0, n) == 1 {
            table[(n / 32) as usize] |= 1 << (n % 32);
        }
        if l.next(1, n) == 1 {
            table[words + (n / 32) as usize] |= 1 << (n % 32);
        }
    }
    let r = l.range as i64;
    table.extend((-r..=r).map(|dy| l.shape.disc_half_width(r, dy).max(0) as u32));
    let shape = Shape::ALL
        .iter()
        .position(|&s| s == l.shape)
        .expect("a shape of ALL") as u32;
    let params = LtlParams {
        width: 0,
        height: 0,
        states: l.states as u32,
        range: l.range as u32,
        shape,
        survive_at: words as u32,
        widths_at: 2 * words as u32,
        pad: 0,
    };
    (params, table)
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Params {
    width: u32,
    height: u32,
    states: u32,
    pad: u32,
}

/// `shaders/rule_tree.wgsl`'s parameters: written as [`Params`], whose words they share.
#[repr(C)]
struct TreeParams {
    width: u32,
    height: u32,
    root: u32,
    shape: u32,
}

const _: () = assert!(std::mem::size_of::<TreeParams>() == std::mem::size_of::<Params>());

pub fn source() -> String {
    GENERATIONS_WGSL.to_string()
}

pub fn tree_source() -> String {
    RULE_TREE_WGSL.to_string()
}

/// The Rust side of `struct Params` in `shaders/rule_tree.wgsl`: the same four words, the
/// third the root's base and the fourth the neighbourhood.
pub fn tree_layout() -> super::layout::StructLayout {
    super::layout::StructLayout {
        shader: "rule_tree.wgsl",
        wgsl_struct: "Params",
        fields: super::layout::fields!(TreeParams, width, height, root, shape,),
        size: std::mem::size_of::<TreeParams>(),
    }
}

/// The Rust side of `struct Params` in `shaders/generations.wgsl`.
pub fn layout() -> super::layout::StructLayout {
    super::layout::StructLayout {
        shader: "generations.wgsl",
        wgsl_struct: "Params",
        fields: super::layout::fields!(Params, width, height, states, pad,),
        size: std::mem::size_of::<Params>(),
    }
}

/// Generations per submission.
const BATCH: u64 = 256;

pub struct GpuGenerationsEngine {
    core: Core,
    ctx: GpuContext,
    width: u32,
    height: u32,
    cells: [wgpu::Buffer; 2],
    /// `binds[i]` reads `cells[i]` and writes the other.
    binds: [wgpu::BindGroup; 2],
    pipeline: wgpu::ComputePipeline,
    /// Larger than Life's first pass: each row's running count of live cells.
    prefix: Option<wgpu::ComputePipeline>,
    /// Which buffer holds the current generation.
    current: usize,
    /// The current states on the CPU, row by row, once read back.
    mirror: Option<Vec<u8>>,
}

impl GpuGenerationsEngine {
    pub fn new(ctx: &GpuContext, rule: Rule, width: u32, height: u32) -> EngineResult<Self> {
        // What the shader reads: the Generations table, or the rule file's tree.
        if let Some(l) = rule.ltl() {
            let min = l.min_side();
            if width < min || height < min {
                return Err(EngineError::Unsupported(format!(
                    "{rule} needs a torus of at least {min}x{min} (twice its range), not {width}x{height}"
                )));
            }
        }
        let ltl = rule.ltl().map(|l| ltl_table(&l));
        let (name, shader, table_words, third, fourth): (&str, &str, Vec<u32>, u32, u32) =
            match (rule.generations(), rule.loaded()) {
                _ if ltl.is_some() => (
                    "ltl",
                    LTL_WGSL,
                    ltl.as_ref().map(|(_, t)| t.clone()).unwrap_or_default(),
                    0,
                    0,
                ),
                (Some(g), _) => (
                    "generations",
                    GENERATIONS_WGSL,
                    g.table
                        .table()
                        .iter()
                        .flat_map(|&w| [w as u32, (w >> 32) as u32])
                        .collect(),
                    g.states as u32,
                    0,
                ),
                (None, Some(l)) => {
                    let def = l.def();
                    let shape = match def.tree.shape {
                        crate::rule::loader::Shape::VonNeumann => 0,
                        crate::rule::loader::Shape::Moore => 1,
                        crate::rule::loader::Shape::Hexagonal => 2,
                        crate::rule::loader::Shape::OneDimensional => 3,
                    };
                    (
                        "rule tree",
                        RULE_TREE_WGSL,
                        def.tree.nodes.clone(),
                        def.tree.root,
                        shape,
                    )
                }
                _ => {
                    return Err(EngineError::Unsupported(format!(
                        "{rule} is neither a Generations rule nor a rule file's"
                    )));
                }
            };
        let ((pipeline, layout), prefix) = if ltl.is_some() {
            (
                pipeline_cache::ltl(ctx, shader, "main")?,
                Some(pipeline_cache::ltl(ctx, shader, "prefix")?.0),
            )
        } else {
            let entry = pipeline_cache::with_layout(
                ctx,
                name,
                shader,
                &[
                    pipeline_cache::uniform(0, false),
                    pipeline_cache::storage(1, true),
                    pipeline_cache::storage(2, true),
                    pipeline_cache::storage(3, false),
                ],
                &[],
            )?;
            (entry, None)
        };
        let bytes = width as u64 * height as u64 * 4;
        let limits = ctx.limits();
        let binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        if bytes > binding {
            return Err(EngineError::Unavailable(format!(
                "a {width}x{height} torus of Generations states takes {} per copy, more than the largest storage binding of {} ({})",
                human_bytes(bytes),
                ctx.name(),
                human_bytes(binding)
            )));
        }
        if ltl.is_some() && (width as u64 + 1) * height as u64 * 4 > binding {
            return Err(EngineError::Unavailable(format!(
                "a {width}x{height} torus's running counts of Larger than Life take {}, more than the largest storage binding of {} ({})",
                human_bytes((width as u64 + 1) * height as u64 * 4),
                ctx.name(),
                human_bytes(binding)
            )));
        }
        let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buffer = |label| {
            ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes.max(4),
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let cells = [buffer("generations a"), buffer("generations b")];
        // Larger than Life's running counts of each row's live cells.
        let runs = ltl.is_some().then(|| {
            ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("ltl runs"),
                size: (width as u64 + 1) * height as u64 * 4,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            })
        });
        let params = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("generations params"),
            size: std::mem::size_of::<LtlParams>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let table_bytes = table_words.len() as u64 * 4;
        if table_bytes > binding {
            return Err(EngineError::Unavailable(format!(
                "rule {rule}'s tree takes {}, more than the largest storage binding of {} ({})",
                human_bytes(table_bytes),
                ctx.name(),
                human_bytes(binding)
            )));
        }
        let table = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("generations table"),
            size: table_bytes.max(4),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(EngineError::OutOfMemory(format!(
                "{} could not allocate {}: {e}",
                ctx.name(),
                human_bytes(2 * bytes)
            )));
        }
        match &ltl {
            Some((p, _)) => ctx.queue.write_buffer(
                &params,
                0,
                bytemuck::bytes_of(&LtlParams {
                    width,
                    height,
                    ..*p
                }),
            ),
            None => ctx.queue.write_buffer(
                &params,
                0,
                bytemuck::bytes_of(&Params {
                    width,
                    height,
                    states: third,
                    pad: fourth,
                }),
            ),
        }
        ctx.queue
            .write_buffer(&table, 0, bytemuck::cast_slice(&table_words));
        let bind = |from: usize| {
            let mut entries = vec![
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: table.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: cells[from].as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: cells[1 - from].as_entire_binding(),
                },
            ];
            if let Some(runs) = &runs {
                entries.push(wgpu::BindGroupEntry {
                    binding: 4,
                    resource: runs.as_entire_binding(),
                });
            }
            ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("generations"),
                layout: &layout,
                entries: &entries,
            })
        };
        let binds = [bind(0), bind(1)];
        let mut engine = Self {
            core: Core::new(EngineKind::Gpu, "gpu", rule),
            ctx: ctx.clone(),
            width,
            height,
            cells,
            binds,
            pipeline,
            prefix,
            current: 0,
            mirror: None,
        };
        engine.upload(vec![0; width as usize * height as usize])?;
        Ok(engine)
    }

    fn index(&self, x: i64, y: i64) -> usize {
        let (w, h) = (self.width as i64, self.height as i64);
        (y.rem_euclid(h) * w + x.rem_euclid(w)) as usize
    }

    fn upload(&mut self, states: Vec<u8>) -> EngineResult<()> {
        let words: Vec<u32> = states.iter().map(|&s| s as u32).collect();
        self.current = 0;
        self.ctx
            .queue
            .write_buffer(&self.cells[0], 0, bytemuck::cast_slice(&words));
        self.mirror = Some(states);
        self.ctx.check_faults()
    }

    fn download(&self) -> EngineResult<Vec<u8>> {
        let bytes = self.width as u64 * self.height as u64 * 4;
        let staging = self.ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("generations readback"),
            size: bytes.max(4),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        encoder.copy_buffer_to_buffer(&self.cells[self.current], 0, &staging, 0, bytes);
        self.ctx.queue.submit([encoder.finish()]);
        let mut out = Vec::new();
        super::grid::read_mapped(&self.ctx, &staging, bytes, |d| {
            out = bytemuck::cast_slice::<u8, u32>(d)
                .iter()
                .map(|&s| s as u8)
                .collect();
        })?;
        self.ctx.check_faults()?;
        Ok(out)
    }

    fn mirror(&mut self) -> EngineResult<&mut Vec<u8>> {
        if self.mirror.is_none() {
            self.mirror = Some(self.download()?);
        }
        Ok(self.mirror.as_mut().expect("just read"))
    }

    /// Applies an edit to the CPU copy and writes it back.
    fn edit(&mut self, f: impl FnOnce(&mut Vec<u8>, u32)) -> EngineResult<()> {
        let width = self.width;
        let mut states = self.mirror()?.clone();
        f(&mut states, width);
        self.upload(states)
    }

    fn read_tiles(&mut self) -> EngineResult<TileMap> {
        let w = self.width as usize;
        let mut tiles = TileMap::new();
        for (i, &s) in self.mirror()?.iter().enumerate().filter(|(_, s)| **s != 0) {
            tiles.set_state((i % w) as i64, (i / w) as i64, s);
        }
        Ok(tiles)
    }
}

impl Engine for GpuGenerationsEngine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn universe(&self) -> Universe {
        Universe::torus(self.width, self.height)
    }

    fn step(&mut self, gens: u64) -> EngineResult<()> {
        if gens > 0 {
            self.mirror = None;
        }
        let max = self
            .ctx
            .limits()
            .max_compute_workgroups_per_dimension
            .max(1);
        let y = self.height.min(max).max(1);
        let z = self.height.div_ceil(y);
        let mut done = 0;
        while done < gens {
            let batch = BATCH.min(gens - done);
            let mut encoder =
                self.ctx
                    .device
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                        label: Some("generations"),
                    });
            {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("generations"),
                    timestamp_writes: None,
                });
                for _ in 0..batch {
                    pass.set_bind_group(0, &self.binds[self.current], &[]);
                    if let Some(prefix) = &self.prefix {
                        pass.set_pipeline(prefix);
                        pass.dispatch_workgroups(self.height.div_ceil(64), 1, 1);
                    }
                    pass.set_pipeline(&self.pipeline);
                    pass.dispatch_workgroups(self.width.div_ceil(64), y, z);
                    self.current = 1 - self.current;
                }
            }
            self.ctx.queue.submit([encoder.finish()]);
            self.core.generation += batch;
            done += batch;
        }
        self.ctx.check_faults()
    }

    fn step_piece(&self) -> u64 {
        BATCH
    }

    /// Cells that are not dead, as Golly counts them.
    fn population(&mut self) -> EngineResult<u64> {
        Ok(self.mirror()?.iter().filter(|&&s| s != 0).count() as u64)
    }

    fn census(&mut self) -> EngineResult<Census> {
        let universe = self.universe();
        Ok(census_of_tiles(universe, &self.read_tiles()?))
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        let i = self.index(x, y);
        Ok(self.mirror()?[i] != 0)
    }

    fn state(&mut self, x: i64, y: i64) -> EngineResult<u8> {
        let i = self.index(x, y);
        Ok(self.mirror()?[i])
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        let i = self.index(x, y);
        self.edit(|s, _| s[i] = alive as u8)
    }

    /// A live cell of the bitmap is state 1; an erased one 0 (`Replace`: the rectangle).
    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        let (w, h) = (self.width as i64, self.height as i64);
        self.edit(|s, _| {
            for y in 0..cells.height() {
                for x in 0..cells.width() {
                    let alive = cells.get(x, y);
                    let (cx, cy) = (at.0 + x as i64, at.1 + y as i64);
                    let i = (cy.rem_euclid(h) * w + cx.rem_euclid(w)) as usize;
                    match how {
                        Put::Or if alive => s[i] = 1,
                        Put::Erase if alive => s[i] = 0,
                        Put::Replace => s[i] = alive as u8,
                        _ => {}
                    }
                }
            }
        })
    }

    fn clear(&mut self) -> EngineResult<()> {
        let n = self.width as usize * self.height as usize;
        self.upload(vec![0; n])
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        Ok(self.read_tiles()?.bounds())
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        let mut g = Grid::try_new_bitmap(rect.width, rect.height)?;
        for y in 0..rect.height {
            for x in 0..rect.width {
                let i = self.index(rect.x + x as i64, rect.y + y as i64);
                if self.mirror()?[i] != 0 {
                    g.set(x, y, true);
                }
            }
        }
        Ok(g)
    }

    fn states_in(&mut self, rect: CellRect) -> EngineResult<Vec<u8>> {
        let mut out = Vec::with_capacity(rect.width as usize * rect.height as usize);
        for y in 0..rect.height as i64 {
            for x in 0..rect.width as i64 {
                let i = self.index(rect.x + x, rect.y + y);
                out.push(self.mirror()?[i]);
            }
        }
        Ok(out)
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        self.read_tiles()
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        check_states(&self.core.rule, tiles)?;
        let (w, h) = (self.width as i64, self.height as i64);
        let mut states = vec![0u8; (w * h) as usize];
        for (x, y) in tiles.cells() {
            if (0..w).contains(&x) && (0..h).contains(&y) {
                states[(y * w + x) as usize] = tiles.state(x, y);
            }
        }
        self.upload(states)
    }

    fn finish(&mut self) -> EngineResult<()> {
        self.ctx.wait()?;
        self.ctx.check_faults()
    }
}
