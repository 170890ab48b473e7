//! Population and state hashes computed on the GPU (`shaders/census.wgsl`), written into slots
//! of a small buffer and read back in batches: the app's status line and population plot, and
//! period detection, never read the grid itself back.

use bytemuck::{Pod, Zeroable};

use super::grid::{GpuGrid, read_mapped};
use super::{GpuContext, pipeline_cache};
use crate::engine::EngineResult;
use crate::grid::Census;

const CENSUS_WGSL: &str = include_str!("../../shaders/census.wgsl");

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Params {
    words: u32,
    first_word: u32,
    slot: u32,
    _pad: u32,
}

/// The hash functions of the census, which the Life shaders use too.
pub(super) const HASH_WGSL: &str = include_str!("../../shaders/hash.wgsl");

/// The census shader, with the hash functions it uses.
pub fn source() -> String {
    format!("{HASH_WGSL}\n{CENSUS_WGSL}")
}

/// The Rust side of `struct Params` in `shaders/census.wgsl`.
pub fn layout() -> super::layout::StructLayout {
    super::layout::StructLayout {
        shader: "census.wgsl",
        wgsl_struct: "Params",
        fields: super::layout::fields!(Params, words, first_word, slot, _pad),
        size: std::mem::size_of::<Params>(),
    }
}

/// Words one invocation sums at most, so that a workgroup's count fits in 32 bits.
const WORDS_PER_INVOCATION: u32 = 64;

pub struct GpuCensus {
    ctx: GpuContext,
    pipeline: wgpu::ComputePipeline,
    totals: wgpu::Buffer,
    readback: wgpu::Buffer,
    slots: u32,
    bands: usize,
    slot_stride: u64,
    /// `bind_groups[p][k]`: band k of ping-pong buffer p.
    bind_groups: [Vec<wgpu::BindGroup>; 2],
    /// Workgroups per band dispatch, as (x, y).
    dispatch: Vec<(u32, u32)>,
    /// Copies the tile kernel's census of ping-pong buffer p into a slot: its pipeline, its
    /// parameters (one per slot) and `[p]`'s bind group.
    copy: Option<(wgpu::ComputePipeline, wgpu::Buffer, [wgpu::BindGroup; 2])>,
}

fn entries() -> [wgpu::BindGroupLayoutEntry; 3] {
    [
        pipeline_cache::uniform(0, true),
        pipeline_cache::storage(1, true),
        pipeline_cache::storage(2, false),
    ]
}

/// The census's bindings: one slot's parameters (at a dynamic offset), the words it reads and
/// the totals it adds into.
fn bind_group(
    ctx: &GpuContext,
    layout: &wgpu::BindGroupLayout,
    label: &str,
    params: &wgpu::Buffer,
    cells: &wgpu::Buffer,
    totals: &wgpu::Buffer,
) -> wgpu::BindGroup {
    ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: params,
                    offset: 0,
                    size: wgpu::BufferSize::new(16),
                }),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: cells.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: totals.as_entire_binding(),
            },
        ],
    })
}

impl GpuCensus {
    pub fn new(ctx: &GpuContext, grid: &GpuGrid, slots: u32) -> EngineResult<Self> {
        Self::build(ctx, grid, slots, None)
    }

    /// A census that adds ping-pong buffer p's into `totals[p]` instead of its own buffer
    /// (the tile kernel's control words, to start the census it keeps).
    pub fn into_buffers(
        ctx: &GpuContext,
        grid: &GpuGrid,
        slots: u32,
        totals: [&wgpu::Buffer; 2],
    ) -> EngineResult<Self> {
        Self::build(ctx, grid, slots, Some(totals))
    }

    fn build(
        ctx: &GpuContext,
        grid: &GpuGrid,
        slots: u32,
        outside: Option<[&wgpu::Buffer; 2]>,
    ) -> EngineResult<Self> {
        let slots = slots.max(1);
        let entries = entries();
        let source = source();
        let (pipeline, layout) =
            pipeline_cache::with_layout(ctx, "census", &source, &entries, &[])?;
        let totals = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("census totals"),
            size: slots as u64 * 16,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let readback = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("census readback"),
            size: slots as u64 * 16,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bands = grid.bands.len();
        let align = ctx.limits().min_uniform_buffer_offset_alignment as u64;
        let slot_stride = (std::mem::size_of::<Params>() as u64).next_multiple_of(align);
        let params = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("census params"),
            size: slot_stride * slots as u64 * bands as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut data = vec![0u8; (slot_stride * slots as u64 * bands as u64) as usize];
        let mut dispatch = Vec::new();
        let max = ctx.limits().max_compute_workgroups_per_dimension.max(1);
        for (k, band) in grid.bands.iter().enumerate() {
            let words = band.rows * grid.words;
            for slot in 0..slots {
                let p = Params {
                    words,
                    first_word: band.first_row * grid.words,
                    slot,
                    _pad: 0,
                };
                let at = ((slot as usize * bands) + k) * slot_stride as usize;
                data[at..at + 16].copy_from_slice(bytemuck::bytes_of(&p));
            }
            let groups = words.div_ceil(256 * WORDS_PER_INVOCATION).max(1);
            let x = groups.min(max);
            dispatch.push((x, groups.div_ceil(x)));
        }
        ctx.queue.write_buffer(&params, 0, &data);
        let bind_groups = [0, 1].map(|p| {
            grid.bands
                .iter()
                .map(|band| {
                    let into = outside.map_or(&totals, |o| o[p]);
                    bind_group(ctx, &layout, "census", &params, &band.buffers[p], into)
                })
                .collect()
        });
        Ok(Self {
            ctx: ctx.clone(),
            pipeline,
            totals,
            readback,
            slots,
            bands,
            slot_stride,
            bind_groups,
            dispatch,
            copy: None,
        })
    }

    /// Lets [`GpuCensus::record_kept`] copy the census the tile kernel keeps at word `word` of
    /// `ctrl[p]` for buffer p.
    pub fn attach_kept(&mut self, ctrl: [&wgpu::Buffer; 2], word: u32) -> EngineResult<()> {
        let ctx = &self.ctx;
        let entries = entries();
        let (pipeline, layout) =
            pipeline_cache::with_entry(ctx, "census copy", &source(), "copy_census", &entries)?;
        let params = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("census copy params"),
            size: self.slot_stride * self.slots as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut data = vec![0u8; (self.slot_stride * self.slots as u64) as usize];
        for slot in 0..self.slots {
            let p = Params {
                words: 4,
                first_word: word,
                slot,
                _pad: 0,
            };
            let at = slot as usize * self.slot_stride as usize;
            data[at..at + 16].copy_from_slice(bytemuck::bytes_of(&p));
        }
        ctx.queue.write_buffer(&params, 0, &data);
        let groups =
            [0, 1].map(|p| bind_group(ctx, &layout, "census copy", &params, ctrl[p], &self.totals));
        self.copy = Some((pipeline, params, groups));
        Ok(())
    }

    /// Writes the census the tile kernel keeps for buffer `parity` into `slot`, when this
    /// census was attached to it ([`GpuCensus::attach_kept`]); returns whether it did.
    pub fn record_kept(&self, pass: &mut wgpu::ComputePass<'_>, parity: usize, slot: u32) -> bool {
        let Some((pipeline, _, groups)) = &self.copy else {
            return false;
        };
        pass.set_pipeline(pipeline);
        let offset = (slot as u64 * self.slot_stride) as u32;
        pass.set_bind_group(0, &groups[parity], &[offset]);
        pass.dispatch_workgroups(1, 1, 1);
        true
    }

    pub fn slots(&self) -> u32 {
        self.slots
    }

    /// Zeroes every slot: the census adds into them.
    pub fn reset(&self) {
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("census reset"),
            });
        encoder.clear_buffer(&self.totals, 0, None);
        self.ctx.queue.submit([encoder.finish()]);
    }

    /// Adds the census of ping-pong buffer `parity` into `slot`.
    pub fn record(&self, pass: &mut wgpu::ComputePass<'_>, parity: usize, slot: u32) {
        pass.set_pipeline(&self.pipeline);
        for k in 0..self.bands {
            let offset = ((slot as u64 * self.bands as u64 + k as u64) * self.slot_stride) as u32;
            pass.set_bind_group(0, &self.bind_groups[parity][k], &[offset]);
            let (x, y) = self.dispatch[k];
            pass.dispatch_workgroups(x, y, 1);
        }
    }

    fn copy_out(&self, n: u32) -> u64 {
        let bytes = n.clamp(1, self.slots) as u64 * 16;
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("census copy"),
            });
        encoder.copy_buffer_to_buffer(&self.totals, 0, &self.readback, 0, bytes);
        self.ctx.queue.submit([encoder.finish()]);
        bytes
    }

    /// The first `n` slots, once the work before them is done.
    pub fn fetch(&self, n: u32) -> EngineResult<Vec<Census>> {
        let bytes = self.copy_out(n);
        let mut out = Vec::with_capacity(n as usize);
        read_mapped(&self.ctx, &self.readback, bytes, |d| {
            let words: &[u32] = bytemuck::cast_slice(d);
            out.extend(words.chunks_exact(4).map(Census::from_words));
        })?;
        Ok(out)
    }

    /// Starts reading the first `n` slots without waiting; [`GpuCensus::try_take`] collects
    /// them in a later frame. One read at a time.
    pub fn fetch_async(&self, n: u32) -> PendingCensus {
        let bytes = self.copy_out(n);
        let (tx, rx) = std::sync::mpsc::channel();
        self.readback
            .map_async(wgpu::MapMode::Read, ..bytes, move |r| {
                let _ = tx.send(r.is_ok());
            });
        PendingCensus { rx, bytes }
    }

    /// The slots of a finished read, or `None` while it is still in flight.
    pub fn try_take(&self, pending: &PendingCensus) -> Option<Vec<Census>> {
        let _ = self.ctx.device.poll(wgpu::PollType::Poll);
        match pending.rx.try_recv() {
            Ok(true) => {
                let out = self
                    .readback
                    .get_mapped_range(..pending.bytes)
                    .ok()
                    .map(|view| {
                        let words: &[u32] = bytemuck::cast_slice(&view);
                        words.chunks_exact(4).map(Census::from_words).collect()
                    });
                self.readback.unmap();
                out
            }
            Ok(false) => {
                self.readback.unmap();
                Some(Vec::new())
            }
            Err(_) => None,
        }
    }
}

/// A census read in flight.
pub struct PendingCensus {
    rx: std::sync::mpsc::Receiver<bool>,
    bytes: u64,
}
