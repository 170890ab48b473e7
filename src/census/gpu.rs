//! The census's GPU path (`shaders/soups.wgsl`): a batch of soups advances in one dispatch, each
//! in its own square of the plane, through the first phase of the stabilisation. What the GPU
//! hands back for each soup (its cells, its generation, the stabilisation machine's state) is a
//! [`Start`] that the CPU finishes from, so the census is the CPU's, soup for soup.

use bytemuck::{Pod, Zeroable};

use super::GpuPath;
use super::settle::{Stage, Start};
use super::stabilise::Stabiliser;
use crate::engine::{EngineError, EngineResult};
use crate::gpu::GpuContext;
use crate::gpu::grid::read_mapped;
use crate::gpu::layout::{StructLayout, fields};
use crate::gpu::pipeline_cache;
use crate::rule::MapRule;

const SOUPS_WGSL: &str = include_str!("../../shaders/soups.wgsl");

/// The seed block of each soup: rows, and words across (a soup 256 cells wide at any bit
/// offset fits in 9 words).
const SEED_ROWS: usize = 32;
const SEED_WORDS: usize = 9;

/// Generations each dispatch runs at most (a dispatch stays well short of a driver's watchdog).
const GENERATIONS_PER_DISPATCH: u32 = 512;

/// The statuses of `shaders/soups.wgsl`.
const RUNNING: u32 = 0;
const SETTLED: u32 = 1;
const PHASE_TWO: u32 = 2;
// 3, EDGE: reached its square's edge.
/// Not on the GPU at all: the soup does not fit its square.
const ON_CPU: u32 = 4;
const EMPTY: u32 = u32::MAX;

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Params {
    side: u32,
    words: u32,
    soups: u32,
    generations: u32,
}

/// One soup's state on the GPU: `struct Soup` in `shaders/soups.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct SoupState {
    status: u32,
    generation: u32,
    machine: Stabiliser,
    population: u32,
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
    px0: u32,
    py0: u32,
    px1: u32,
    py1: u32,
    seed_word: u32,
    seed_row: u32,
    half: u32,
}

/// The soups shader for a rule: the kernel, then the rule's circuit as `rule_fn`.
pub fn source(table: &MapRule) -> String {
    format!(
        "{SOUPS_WGSL}\n{}",
        crate::gpu::tabled::rule_fn(table, false)
    )
}

/// The structs the Rust side shares with `shaders/soups.wgsl`.
pub fn layouts() -> Vec<StructLayout> {
    vec![
        StructLayout {
            shader: "soups.wgsl",
            wgsl_struct: "Params",
            fields: fields!(Params, side, words, soups, generations),
            size: std::mem::size_of::<Params>(),
        },
        StructLayout {
            shader: "soups.wgsl",
            wgsl_struct: "Soup",
            fields: fields!(
                SoupState, status, generation, machine, population, x0, y0, x1, y1, px0, py0, px1,
                py1, seed_word, seed_row, half
            ),
            size: std::mem::size_of::<SoupState>(),
        },
        StructLayout {
            shader: "soups.wgsl",
            wgsl_struct: "Machine",
            fields: fields!(
                Stabiliser, i, depth, previous, period, security, countdown, extra
            ),
            size: std::mem::size_of::<Stabiliser>(),
        },
    ]
}

/// The soups kernel on one device, with buffers for a batch, made once and used by every
/// batch.
pub struct GpuSoups {
    ctx: GpuContext,
    pipeline: wgpu::ComputePipeline,
    path: GpuPath,
    words: u32,
    buffers: Buffers,
}

/// The kernel's bindings (parameters, states, seeds, both copies of every square, the count of
/// soups still running) and the buffers they are read back through.
struct Buffers {
    params: wgpu::Buffer,
    states: wgpu::Buffer,
    seeds: wgpu::Buffer,
    cells: wgpu::Buffer,
    running: wgpu::Buffer,
    running_back: wgpu::Buffer,
    states_back: wgpu::Buffer,
    cells_back: wgpu::Buffer,
    bind: wgpu::BindGroup,
}

impl Buffers {
    fn new(ctx: &GpuContext, layout: &wgpu::BindGroupLayout, soups: u64, region: u64) -> Self {
        use wgpu::BufferUsages as U;
        let buffer = |label: &str, size: u64, usage: U| {
            ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size.max(16),
                usage,
                mapped_at_creation: false,
            })
        };
        let state_bytes = soups * std::mem::size_of::<SoupState>() as u64;
        let cell_bytes = soups * region * 4;
        let read = U::MAP_READ | U::COPY_DST;
        let params = buffer("soups params", 16, U::UNIFORM | U::COPY_DST);
        let states = buffer(
            "soups states",
            state_bytes,
            U::STORAGE | U::COPY_DST | U::COPY_SRC,
        );
        let seeds = buffer(
            "soups seeds",
            soups * (SEED_ROWS * SEED_WORDS * 4) as u64,
            U::STORAGE | U::COPY_DST,
        );
        let cells = buffer(
            "soups cells",
            2 * cell_bytes,
            U::STORAGE | U::COPY_DST | U::COPY_SRC,
        );
        let running = buffer("soups running", 4, U::STORAGE | U::COPY_DST | U::COPY_SRC);
        let bind = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("soups"),
            layout,
            entries: &[&params, &states, &seeds, &cells, &running]
                .iter()
                .enumerate()
                .map(|(k, b)| wgpu::BindGroupEntry {
                    binding: k as u32,
                    resource: b.as_entire_binding(),
                })
                .collect::<Vec<_>>(),
        });
        Buffers {
            running_back: buffer("soups running readback", 4, read),
            states_back: buffer("soups states readback", state_bytes, read),
            // Only copy 0 comes back.
            cells_back: buffer("soups cells readback", cell_bytes, read),
            params,
            states,
            seeds,
            cells,
            running,
            bind,
        }
    }
}

/// Where a soup goes in its square: the offset added to lifelib's coordinates, or None when it
/// does not fit with a dead cell all round (or in the seed block).
fn placement(cells: &[(i64, i64)], side: u32) -> Option<(i64, i64)> {
    let side = side as i64;
    let (x0, x1) = (
        cells.iter().map(|c| c.0).min()?,
        cells.iter().map(|c| c.0).max()?,
    );
    let (y0, y1) = (
        cells.iter().map(|c| c.1).min()?,
        cells.iter().map(|c| c.1).max()?,
    );
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    if w > 256 || h > SEED_ROWS as i64 || w + 2 > side || h + 2 > side {
        return None;
    }
    Some((side / 2 - (x0 + w / 2), side / 2 - (y0 + h / 2)))
}

impl GpuSoups {
    pub fn new(ctx: &GpuContext, table: &MapRule, path: GpuPath) -> EngineResult<Self> {
        if path.generations == 0 || path.batch == 0 {
            return Err(EngineError::Unsupported(
                "the GPU path needs at least one generation and one soup a batch".into(),
            ));
        }
        if path.side < 64 || !path.side.is_multiple_of(32) {
            return Err(EngineError::Unsupported(format!(
                "a soup's square is {} cells a side; it must be a multiple of 32, at least 64",
                path.side
            )));
        }
        let words = path.side / 32;
        // Both copies of every square in one binding: the batch shrinks to what fits.
        let per_soup = 2 * path.side as u64 * words as u64 * 4;
        let limits = ctx.limits();
        let limit = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let fits = (limit / per_soup).min(limits.max_compute_workgroups_per_dimension as u64);
        if fits == 0 {
            return Err(EngineError::Unsupported(format!(
                "a soup's square of {} cells a side needs {per_soup} bytes, more than one binding on {} holds",
                path.side,
                ctx.name()
            )));
        }
        let path = GpuPath {
            batch: path.batch.clamp(1, fits as u32),
            ..path
        };
        let entries = [
            pipeline_cache::uniform(0, false),
            pipeline_cache::storage(1, false),
            pipeline_cache::storage(2, true),
            pipeline_cache::storage(3, false),
            pipeline_cache::storage(4, false),
        ];
        let (pipeline, layout) =
            pipeline_cache::with_layout(ctx, "soups", &source(table), &entries, &[])?;
        let region = path.side as u64 * words as u64;
        let buffers = Buffers::new(ctx, &layout, path.batch as u64, region);
        ctx.check_faults()?;
        Ok(GpuSoups {
            ctx: ctx.clone(),
            pipeline,
            path,
            words,
            buffers,
        })
    }

    /// Soups per batch, as the device allows.
    pub fn batch(&self) -> usize {
        self.path.batch as usize
    }

    /// Carries each soup (its cells in lifelib's coordinates) as far as the GPU can, and says
    /// where the CPU takes it on.
    pub fn run(&self, soups: &[Vec<(i64, i64)>]) -> EngineResult<Vec<Start>> {
        let mut starts = Vec::with_capacity(soups.len());
        for chunk in soups.chunks(self.batch()) {
            starts.extend(self.run_batch(chunk)?);
        }
        Ok(starts)
    }

    fn run_batch(&self, soups: &[Vec<(i64, i64)>]) -> EngineResult<Vec<Start>> {
        let ctx = &self.ctx;
        let n = soups.len();
        let side = self.path.side;
        let region = side as u64 * self.words as u64;
        let mut states = Vec::with_capacity(n);
        let mut offsets = Vec::with_capacity(n);
        let mut seeds = vec![0u32; n * SEED_ROWS * SEED_WORDS];
        for (s, cells) in soups.iter().enumerate() {
            let mut state = SoupState {
                status: ON_CPU,
                generation: 0,
                machine: Stabiliser::new(),
                population: cells.len() as u32,
                x0: EMPTY,
                y0: EMPTY,
                x1: 0,
                y1: 0,
                px0: EMPTY,
                py0: EMPTY,
                px1: 0,
                py1: 0,
                seed_word: 0,
                seed_row: 0,
                half: 0,
            };
            let place = placement(cells, side);
            if let Some((ox, oy)) = place {
                let xs = cells.iter().map(|c| (c.0 + ox) as u32);
                let ys = cells.iter().map(|c| (c.1 + oy) as u32);
                state.status = RUNNING;
                state.x0 = xs.clone().min().unwrap_or(EMPTY);
                state.x1 = xs.max().unwrap_or(0);
                state.y0 = ys.clone().min().unwrap_or(EMPTY);
                state.y1 = ys.max().unwrap_or(0);
                state.seed_word = state.x0 / 32;
                state.seed_row = state.y0;
                let block = &mut seeds[s * SEED_ROWS * SEED_WORDS..][..SEED_ROWS * SEED_WORDS];
                for &(x, y) in cells {
                    let (x, y) = ((x + ox) as u32, (y + oy) as u32);
                    let (row, bit) = ((y - state.seed_row) as usize, x - 32 * state.seed_word);
                    block[row * SEED_WORDS + (bit / 32) as usize] |= 1 << (bit % 32);
                }
            }
            offsets.push(place);
            states.push(state);
        }
        let b = &self.buffers;
        let state_bytes = (n * std::mem::size_of::<SoupState>()) as u64;
        let cell_bytes = region * n as u64 * 4;
        ctx.queue
            .write_buffer(&b.states, 0, bytemuck::cast_slice(&states));
        ctx.queue
            .write_buffer(&b.seeds, 0, bytemuck::cast_slice(&seeds));
        // Both copies of this batch's squares start empty (copy 1 begins at soup n's place).
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        encoder.clear_buffer(&b.cells, 0, Some(2 * cell_bytes));
        ctx.queue.submit([encoder.finish()]);

        let mut done = 0u32;
        while done < self.path.generations {
            let generations = GENERATIONS_PER_DISPATCH.min(self.path.generations - done);
            let p = Params {
                side,
                words: self.words,
                soups: n as u32,
                generations,
            };
            ctx.queue.write_buffer(&b.params, 0, bytemuck::bytes_of(&p));
            ctx.queue.write_buffer(&b.running, 0, &[0; 4]);
            let mut encoder = ctx.device.create_command_encoder(&Default::default());
            {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                pass.set_pipeline(&self.pipeline);
                pass.set_bind_group(0, &b.bind, &[]);
                pass.dispatch_workgroups(n as u32, 1, 1);
            }
            encoder.copy_buffer_to_buffer(&b.running, 0, &b.running_back, 0, 4);
            ctx.queue.submit([encoder.finish()]);
            let mut still = 0u32;
            read_mapped(ctx, &b.running_back, 4, |v| {
                still = u32::from_le_bytes([v[0], v[1], v[2], v[3]]);
            })?;
            ctx.check_faults()?;
            done += generations;
            if still == 0 {
                break;
            }
        }

        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&b.states, 0, &b.states_back, 0, state_bytes);
        encoder.copy_buffer_to_buffer(&b.cells, 0, &b.cells_back, 0, cell_bytes);
        ctx.queue.submit([encoder.finish()]);
        let mut back: Vec<SoupState> = Vec::new();
        read_mapped(ctx, &b.states_back, state_bytes, |v| {
            back = bytemuck::pod_collect_to_vec(v);
        })?;
        let mut starts = Vec::with_capacity(n);
        read_mapped(ctx, &b.cells_back, cell_bytes, |v| {
            let words: &[u32] = bytemuck::cast_slice(v);
            for (s, state) in back.iter().enumerate() {
                let Some((ox, oy)) = offsets[s] else {
                    starts.push(Start::fresh(&soups[s]));
                    continue;
                };
                let square = &words[s * region as usize..][..region as usize];
                starts.push(self.start_of(state, square, ox, oy));
            }
        })?;
        ctx.check_faults()?;
        Ok(starts)
    }

    /// The CPU's start for a soup the GPU has carried: its live cells, back in lifelib's
    /// coordinates, and its stage.
    fn start_of(&self, state: &SoupState, square: &[u32], ox: i64, oy: i64) -> Start {
        let mut cells = Vec::with_capacity(state.population as usize);
        if state.x0 != EMPTY {
            let words = self.words as usize;
            for y in state.y0..=state.y1 {
                for j in state.x0 / 32..=state.x1 / 32 {
                    let mut v = square[y as usize * words + j as usize];
                    while v != 0 {
                        let x = j * 32 + v.trailing_zeros();
                        cells.push((x as i64 - ox, y as i64 - oy));
                        v &= v - 1;
                    }
                }
            }
        }
        let stage = match state.status {
            SETTLED => Stage::Settled(state.machine.period as u64),
            PHASE_TWO => Stage::PhaseTwo,
            // Reached the edge (EDGE), or ran out of the GPU's generations (RUNNING): on in
            // the first phase.
            _ => Stage::Stabilising(state.machine),
        };
        Start {
            generation: state.generation as u64,
            cells,
            stage,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_soup_is_centred_in_its_square_or_left_to_the_cpu() {
        let soup: Vec<(i64, i64)> = vec![(8, 8), (23, 23)];
        assert_eq!(placement(&soup, 64), Some((32 - 16, 32 - 16)));
        let strip: Vec<(i64, i64)> = vec![(0, 0), (255, 0)];
        assert_eq!(placement(&strip, 256), None);
        assert_eq!(placement(&strip, 512), Some((256 - 128, 256)));
        assert_eq!(placement(&[], 512), None);
    }
}
