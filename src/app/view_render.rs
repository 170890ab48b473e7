//! The viewport's renderer: drives `shaders/view.wgsl` through an egui-wgpu paint callback.
//! The pipeline and each view's bind groups are created once; per frame only a 128-byte
//! uniform block is written and one triangle drawn, straight from the engine's buffers.

use bytemuck::{Pod, Zeroable};
use eframe::{egui, egui_wgpu};

const VIEW_WGSL: &str = include_str!("../../shaders/view.wgsl");

/// The most bands the viewer can bind; a bigger torus still runs but is not drawn.
pub const MAX_BANDS: usize = 4;

#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, Default)]
pub struct ViewUniforms {
    pub rect_min: [f32; 2],
    pub origin_frac: [f32; 2],
    pub origin_cell: [u32; 2],
    pub cells_per_pixel: f32,
    pub grid_lines: u32,
    pub width: u32,
    pub height: u32,
    pub words: u32,
    pub band_rows: u32,
    pub mode: u32,
    pub newest: u32,
    /// Where the one copy drawn starts, in cells from `origin_cell` (`Viewport::copy_origin`).
    pub copy_min: [i32; 2],
    /// 1: hexagonal cells (then `origin_frac` is the column and row fraction of the sheared
    /// origin, see `viewport.rs`).
    pub hex: u32,
    pub _pad: [u32; 3],
    pub live: [f32; 4],
    pub dead: [f32; 4],
    pub line: [f32; 4],
    pub edge: [f32; 4],
}

/// The view shader.
pub fn source() -> String {
    VIEW_WGSL.to_string()
}

/// The Rust side of `struct View` in `shaders/view.wgsl`.
pub fn layout() -> crate::gpu::layout::StructLayout {
    crate::gpu::layout::StructLayout {
        shader: "view.wgsl",
        wgsl_struct: "View",
        fields: crate::gpu::layout::fields!(
            ViewUniforms,
            rect_min,
            origin_frac,
            origin_cell,
            cells_per_pixel,
            grid_lines,
            width,
            height,
            words,
            band_rows,
            mode,
            newest,
            copy_min,
            hex,
            live,
            dead,
            line,
            edge,
        ),
        size: std::mem::size_of::<ViewUniforms>(),
    }
}

/// Colours, in gamma space as egui's framebuffer expects.
pub const LIVE: [f32; 4] = [1.0, 0.86, 0.31, 1.0];
pub const DEAD: [f32; 4] = [0.06, 0.07, 0.09, 1.0];
pub const LINE: [f32; 4] = [0.25, 0.27, 0.32, 1.0];
pub const EDGE: [f32; 4] = [0.2, 0.45, 0.85, 1.0];
/// Around a bounded picture: egui's dark panel colour, so the diagram sits on the panel.
pub const OUTSIDE: [f32; 4] = [0.106, 0.106, 0.106, 1.0];

#[derive(Clone)]
pub struct ViewPipeline {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
}

impl ViewPipeline {
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("view"),
            source: wgpu::ShaderSource::Wgsl(VIEW_WGSL.into()),
        });
        let mut entries = vec![wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }];
        for b in 1..=MAX_BANDS as u32 {
            entries.push(wgpu::BindGroupLayoutEntry {
                binding: b,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: true },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            });
        }
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("view"),
            entries: &entries,
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("view"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("view"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        Self { pipeline, layout }
    }
}

/// One view's uniform buffer and bind groups (one per ping-pong buffer of the state).
#[derive(Clone)]
pub struct ViewTarget {
    pipeline: ViewPipeline,
    uniforms: wgpu::Buffer,
    bind_groups: Vec<wgpu::BindGroup>,
    /// Rows per band, for the uniforms.
    pub band_rows: u32,
    pub words: u32,
}

impl ViewTarget {
    /// A view of a Life engine's torus; `None` when it has more bands than the viewer binds.
    /// A view of an engine's buffers, however many bands it has (`None` past what the
    /// shader binds).
    pub fn for_source(
        pipeline: &ViewPipeline,
        device: &wgpu::Device,
        source: &crate::engine::ViewSource,
    ) -> Option<Self> {
        if source
            .sets
            .first()
            .is_none_or(|bands| bands.len() > MAX_BANDS || bands.is_empty())
        {
            return None;
        }
        let sets: Vec<Vec<&wgpu::Buffer>> = source
            .sets
            .iter()
            .map(|bands| bands.iter().collect())
            .collect();
        Some(Self::new(
            pipeline,
            device,
            &sets,
            source.band_rows,
            source.words,
        ))
    }

    fn new(
        pipeline: &ViewPipeline,
        device: &wgpu::Device,
        sets: &[Vec<&wgpu::Buffer>],
        band_rows: u32,
        words: u32,
    ) -> Self {
        let uniforms = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("view uniforms"),
            size: std::mem::size_of::<ViewUniforms>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_groups = sets
            .iter()
            .map(|bands| {
                let mut entries = vec![wgpu::BindGroupEntry {
                    binding: 0,
                    resource: uniforms.as_entire_binding(),
                }];
                for b in 0..MAX_BANDS {
                    // Bands the torus does not have repeat the first; the shader never reads them.
                    let buffer = bands.get(b).unwrap_or(&bands[0]);
                    entries.push(wgpu::BindGroupEntry {
                        binding: b as u32 + 1,
                        resource: buffer.as_entire_binding(),
                    });
                }
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("view"),
                    layout: &pipeline.layout,
                    entries: &entries,
                })
            })
            .collect();
        Self {
            pipeline: pipeline.clone(),
            uniforms,
            bind_groups,
            band_rows,
            words,
        }
    }

    /// The paint callback for one frame, drawing from buffer set `current`.
    pub fn callback(&self, current: usize, uniforms: ViewUniforms) -> ViewCallback {
        ViewCallback {
            pipeline: self.pipeline.pipeline.clone(),
            bind_group: self.bind_groups[current.min(self.bind_groups.len() - 1)].clone(),
            buffer: self.uniforms.clone(),
            uniforms,
        }
    }
}

pub struct ViewCallback {
    pipeline: wgpu::RenderPipeline,
    bind_group: wgpu::BindGroup,
    buffer: wgpu::Buffer,
    uniforms: ViewUniforms,
}

impl egui_wgpu::CallbackTrait for ViewCallback {
    fn prepare(
        &self,
        _device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        _encoder: &mut wgpu::CommandEncoder,
        _resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        queue.write_buffer(&self.buffer, 0, bytemuck::bytes_of(&self.uniforms));
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        _resources: &egui_wgpu::CallbackResources,
    ) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.draw(0..3, 0..1);
    }
}
