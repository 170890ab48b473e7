//! The GPU engines (wgpu compute shaders) and the one device they share. Each engine sits next
//! to the shader it drives: `life.rs` drives `shaders/life.wgsl`, `elementary.rs` drives
//! `shaders/elementary.wgsl`.

pub mod census;
pub mod context;
pub mod elementary;
pub mod generations;
pub mod grid;
pub mod layout;
pub mod life;
pub(crate) mod pipeline_cache;
pub mod tabled;
pub mod tiles;

use std::sync::{Mutex, OnceLock};

pub use context::{AdapterSummary, GpuContext, GpuError, is_hardware};
pub use life::{LifeKernel, LifeOptions, ShaderMode};

use crate::engine::{Engine, EngineError, EngineResult};
use crate::grid::Grid;
use crate::rule::Rule;

static WANTED_ADAPTER: Mutex<Option<String>> = Mutex::new(None);
static SHARED: OnceLock<Result<GpuContext, GpuError>> = OnceLock::new();

/// Chooses the adapter (a substring of its name) the shared context will open; call before
/// the first use. `LIFELAB_ADAPTER` does the same from the environment.
pub fn select_adapter(name: Option<&str>) {
    *WANTED_ADAPTER.lock().unwrap_or_else(|p| p.into_inner()) = name.map(str::to_string);
}

/// The adapter name asked for with `--adapter`, if any.
pub fn wanted_adapter() -> Option<String> {
    WANTED_ADAPTER
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone()
}

/// Whether a hardware GPU may be present, asked of the operating system without starting a
/// graphics API. On Linux a GPU has a device node: a DRM render node, NVIDIA's, WSL's. Where
/// there is none, the only adapter wgpu could find is a software one (lavapipe), which `auto`
/// never takes, and finding it costs a run Vulkan's and EGL's set-up: 190 M instructions, tens
/// of milliseconds, where a small pattern's whole run was 57 M. Elsewhere, or when an adapter
/// is named, one may be.
pub fn hardware_may_exist() -> bool {
    static NODES: OnceLock<bool> = OnceLock::new();
    if !cfg!(target_os = "linux") || wanted_adapter().is_some() {
        return true;
    }
    *NODES.get_or_init(|| {
        let render = std::fs::read_dir("/dev/dri").is_ok_and(|d| {
            d.flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
        });
        render
            || ["/dev/nvidiactl", "/dev/nvidia0", "/dev/dxg"]
                .iter()
                .any(|p| std::path::Path::new(p).exists())
    })
}

/// The process's GPU context, opened on first use.
pub fn shared_context() -> Result<&'static GpuContext, EngineError> {
    SHARED
        .get_or_init(|| GpuContext::new(wanted_adapter().as_deref()))
        .as_ref()
        .map_err(|e| EngineError::Adapter(e.clone()))
}

/// A GPU engine for any rule on `ctx`.
pub fn create_engine(
    ctx: &GpuContext,
    rule: Rule,
    grid: &Grid,
    seed: u64,
    options: LifeOptions,
) -> EngineResult<Box<dyn Engine>> {
    if rule.is_elementary() {
        Ok(Box::new(elementary::GpuElementaryEngine::new(
            ctx, rule, grid,
        )?))
    } else if rule.states() > 2
        || (rule.loaded().is_some() && !rule.is_tabled())
        || rule.ltl().is_some()
    {
        let mut e = generations::GpuGenerationsEngine::new(ctx, rule, grid.width(), grid.height())?;
        e.put(grid, (0, 0), crate::engine::Put::Replace)?;
        Ok(Box::new(e))
    } else {
        Ok(Box::new(life::GpuLifeEngine::new(
            ctx, rule, grid, seed, options,
        )?))
    }
}

/// Every shader lifelab builds (generated ones for a sample of rules and both modes), with the
/// struct it shares with the Rust side (see [`layout`]).
pub fn shaders() -> Vec<(String, layout::StructLayout)> {
    let mut out = Vec::new();
    for (_, rule) in crate::rule::named::all() {
        for mode in [ShaderMode::Specialised, ShaderMode::Generic] {
            out.push((life::shader_source(&rule, mode), life::layout()));
        }
    }
    out.push((elementary::source(), elementary::layout()));
    out.push((generations::source(), generations::layout()));
    out.push((generations::tree_source(), generations::tree_layout()));
    out.push((generations::ltl_source(), generations::ltl_layout()));
    out.push((census::source(), census::layout()));
    out.push((tiles::compact_source(), tiles::layout()));
    out
}
