//! Compute pipelines, built once per shader source and device and then shared: the
//! conformance suite creates hundreds of engines, and shader compilation dominates small runs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::GpuContext;
use crate::engine::{EngineError, EngineResult};

pub type Entry = (wgpu::ComputePipeline, wgpu::BindGroupLayout);

#[derive(Clone, Default)]
pub struct PipelineCache(Arc<Mutex<HashMap<String, Entry>>>);

pub fn storage(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

pub fn uniform(binding: u32, dynamic: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: dynamic,
            min_binding_size: None,
        },
        count: None,
    }
}

/// A short name for a shader: `name` and a hash of its source, so that labels and errors stay
/// one line however long the generated WGSL is.
fn short_key(name: &str, source: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in source.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{name} #{h:016x}")
}

/// Builds (or finds) a pipeline for entry point `entry` of `source` with the given bindings and
/// override constants.
fn get(
    ctx: &GpuContext,
    name: &str,
    source: &str,
    entry: &str,
    entries: &[wgpu::BindGroupLayoutEntry],
    constants: &[(&str, f64)],
) -> EngineResult<Entry> {
    let key = format!("{} {entry}", short_key(name, source));
    let mut cache = ctx.pipelines.0.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(e) = cache.get(&key) {
        return Ok(e.clone());
    }
    let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = ctx
        .device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(&key),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
    let layout = ctx
        .device
        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(&key),
            entries,
        });
    let pipeline_layout = ctx
        .device
        .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(&key),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
    let pipeline = ctx
        .device
        .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&key),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(entry),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants,
                ..Default::default()
            },
            cache: None,
        });
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(EngineError::Gpu(format!(
            "building the {key} pipeline failed: {e}"
        )));
    }
    let entry = (pipeline, layout);
    cache.insert(key, entry.clone());
    Ok(entry)
}

/// The bindings of `shaders/life.wgsl`'s dense and blocked kernels: parameters, the band above,
/// the band, the band below, the band written.
const LIFE_BINDINGS: usize = 5;

fn life_entries() -> Vec<wgpu::BindGroupLayoutEntry> {
    vec![
        uniform(0, true),
        storage(1, true),
        storage(2, true),
        storage(3, true),
        storage(4, false),
        // The tile kernel's: change records and marks, the list, this generation's control
        // words and the next generation's.
        storage(5, false),
        storage(6, true),
        storage(7, true),
        storage(8, false),
    ]
}

/// The dense kernel (`main`) of `shaders/life.wgsl` with a generated rule.
pub fn life(ctx: &GpuContext, source: &str, rows: u32) -> EngineResult<Entry> {
    get(
        ctx,
        &format!("life rows={rows}"),
        source,
        "main",
        &life_entries()[..LIFE_BINDINGS],
        &[("ROWS", rows as f64)],
    )
}

/// The blocked kernel of `shaders/tiles.wgsl`: the dense kernel's bindings.
pub fn blocked(ctx: &GpuContext, source: &str) -> EngineResult<Entry> {
    get(
        ctx,
        "life",
        source,
        "blocked",
        &life_entries()[..LIFE_BINDINGS],
        &[],
    )
}

/// The tile kernel of `shaders/tiles.wgsl`.
pub fn tiles(ctx: &GpuContext, source: &str) -> EngineResult<Entry> {
    get(ctx, "life", source, "tiles", &life_entries(), &[])
}

/// `shaders/elementary.wgsl`.
/// Larger than Life's two passes (`entry`: `prefix` or `main`), on one layout: the parameters,
/// the table, the cells read and written, and the rows' running counts.
pub fn ltl(ctx: &GpuContext, source: &str, entry: &str) -> EngineResult<Entry> {
    let entries = [
        uniform(0, false),
        storage(1, true),
        storage(2, true),
        storage(3, false),
        storage(4, false),
    ];
    get(ctx, "ltl", source, entry, &entries, &[])
}

pub fn elementary(ctx: &GpuContext, source: &str) -> EngineResult<Entry> {
    let entries = [uniform(0, true), storage(1, false)];
    get(ctx, "elementary", source, "main", &entries, &[])
}

/// Another entry point of a shader, with its bindings.
pub fn with_entry(
    ctx: &GpuContext,
    name: &str,
    source: &str,
    entry: &str,
    entries: &[wgpu::BindGroupLayoutEntry],
) -> EngineResult<Entry> {
    get(ctx, name, source, entry, entries, &[])
}

/// Any other shader, with its bindings.
pub fn with_layout(
    ctx: &GpuContext,
    name: &str,
    source: &str,
    entries: &[wgpu::BindGroupLayoutEntry],
    constants: &[(&str, f64)],
) -> EngineResult<Entry> {
    get(ctx, name, source, "main", entries, constants)
}
