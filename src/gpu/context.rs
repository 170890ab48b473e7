//! One wgpu context (instance, adapter, device, queue) for the whole program: the CLI creates
//! it headless, the desktop app hands over the device eframe created, and every GPU engine and
//! pipeline is built on it.

use std::sync::{Arc, Mutex};

use serde::Serialize;

/// The environment variable that picks an adapter by a substring of its name, like `--adapter`.
pub const ADAPTER_ENV: &str = "LIFELAB_ADAPTER";

// Why no device could be opened: an engine error, so it lives with the seam's errors.
pub use crate::engine::GpuError;

/// What `lifelab gpus` prints of an adapter.
#[derive(Clone, Debug, Serialize)]
pub struct AdapterSummary {
    pub name: String,
    pub backend: String,
    #[serde(serialize_with = "debug_name")]
    pub device_type: wgpu::DeviceType,
    pub driver: String,
    pub max_buffer_size: u64,
    pub max_storage_buffer_binding_size: u64,
    pub max_storage_buffers_per_shader_stage: u32,
    pub max_compute_workgroups_per_dimension: u32,
    pub max_compute_invocations_per_workgroup: u32,
    pub timestamp_queries: bool,
}

impl AdapterSummary {
    pub fn of(adapter: &wgpu::Adapter) -> Self {
        let info = adapter.get_info();
        let limits = adapter.limits();
        Self {
            name: info.name,
            backend: format!("{:?}", info.backend),
            device_type: info.device_type,
            driver: format!("{} {}", info.driver, info.driver_info)
                .trim()
                .to_string(),
            max_buffer_size: limits.max_buffer_size,
            max_storage_buffer_binding_size: limits.max_storage_buffer_binding_size,
            max_storage_buffers_per_shader_stage: limits.max_storage_buffers_per_shader_stage,
            max_compute_workgroups_per_dimension: limits.max_compute_workgroups_per_dimension,
            max_compute_invocations_per_workgroup: limits.max_compute_invocations_per_workgroup,
            timestamp_queries: adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY),
        }
    }
}

fn debug_name<S: serde::Serializer>(t: &wgpu::DeviceType, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{t:?}"))
}

/// Why a device stopped working, recorded by wgpu's callbacks so that the next operation can
/// report it instead of panicking.
#[derive(Clone, Default)]
pub struct FaultLog(Arc<Mutex<Option<String>>>);

impl FaultLog {
    pub fn record(&self, message: String) {
        let mut slot = self.0.lock().unwrap_or_else(|p| p.into_inner());
        slot.get_or_insert(message);
    }

    pub fn take(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    pub fn peek(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// The device every GPU engine runs on.
#[derive(Clone)]
pub struct GpuContext {
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub summary: AdapterSummary,
    /// Device-lost and uncaptured errors, as text.
    pub faults: FaultLog,
    /// Set when the device was lost: nothing more can run on it.
    pub lost: FaultLog,
    pub(crate) pipelines: super::pipeline_cache::PipelineCache,
}

fn instance() -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    // wgpu checks each indirect dispatch's sizes with a dispatch of its own, which doubles the
    // per-generation cost of the tile kernel (src/gpu/tiles.rs); the sizes lifelab's shaders
    // write are within the limits by construction. WGPU_VALIDATION_INDIRECT_CALL=1 turns the
    // check back on.
    desc.flags
        .remove(wgpu::InstanceFlags::VALIDATION_INDIRECT_CALL);
    desc.flags = desc.flags.with_env();
    desc.backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all());
    wgpu::Instance::new(desc)
}

/// Every adapter wgpu can see, best first: discrete, integrated, virtual, then CPU; Vulkan
/// before the others.
pub fn adapters() -> Vec<wgpu::Adapter> {
    // OpenGL only when nothing else is there (or WGPU_BACKEND asks for it): probing EGL is slow
    // and noisy on machines without a display.
    let instance = instance();
    let wanted = wgpu::Backends::from_env();
    let mut all = match wanted {
        Some(backends) => pollster::block_on(instance.enumerate_adapters(backends)),
        None => {
            let primary = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::PRIMARY));
            if primary.is_empty() {
                pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()))
            } else {
                primary
            }
        }
    };
    all.sort_by_key(|a| rank(&a.get_info()));
    all
}

/// How lifelab ranks adapters, best first: discrete, integrated, virtual, other, then CPU
/// (software); Vulkan before the other backends. The command line and the app's window both
/// choose by it.
pub fn rank(info: &wgpu::AdapterInfo) -> (u8, u8) {
    let kind = match info.device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    };
    let backend = if info.backend == wgpu::Backend::Vulkan {
        0
    } else {
        1
    };
    (kind, backend)
}

/// The adapter name asked for: `--adapter`, else `$LIFELAB_ADAPTER`.
pub fn wanted_name(flag: Option<&str>) -> Option<String> {
    flag.map(str::to_string)
        .or_else(|| std::env::var(ADAPTER_ENV).ok())
        .filter(|s| !s.is_empty())
}

/// The adapter among `adapters` whose name contains `wanted`, or the best.
pub fn pick<'a>(adapters: &'a [wgpu::Adapter], wanted: Option<&str>) -> Option<&'a wgpu::Adapter> {
    match wanted {
        Some(w) => {
            let lower = w.to_lowercase();
            adapters
                .iter()
                .find(|a| a.get_info().name.to_lowercase().contains(&lower))
        }
        None => adapters.iter().min_by_key(|a| rank(&a.get_info())),
    }
}

/// The adapter to use: the first whose name contains `wanted` (or `$LIFELAB_ADAPTER`), or else
/// the best one.
pub fn choose_adapter(wanted: Option<&str>) -> Result<wgpu::Adapter, GpuError> {
    let wanted = wanted_name(wanted);
    let all = adapters();
    if all.is_empty() {
        return Err(GpuError::no_adapter());
    }
    pick(&all, wanted.as_deref())
        .cloned()
        .ok_or_else(|| GpuError::NoMatch {
            wanted: wanted.unwrap_or_default(),
            available: all
                .iter()
                .map(|a| a.get_info().name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

impl GpuContext {
    /// Opens a device on the chosen adapter with the adapter's own limits, so that big buffers
    /// are allowed, and timestamp queries where it has them.
    pub fn new(wanted: Option<&str>) -> Result<Self, GpuError> {
        let adapter = choose_adapter(wanted)?;
        let features = adapter.features() & wgpu::Features::TIMESTAMP_QUERY;
        let desc = wgpu::DeviceDescriptor {
            label: Some("lifelab"),
            required_features: features,
            required_limits: adapter.limits(),
            ..Default::default()
        };
        let (device, queue) =
            pollster::block_on(adapter.request_device(&desc)).map_err(|e| GpuError::Device {
                adapter: adapter.get_info().name,
                reason: e.to_string(),
            })?;
        Ok(Self::from_parts(adapter, device, queue))
    }

    /// Wraps a device someone else opened (eframe, in the app).
    pub fn from_parts(adapter: wgpu::Adapter, device: wgpu::Device, queue: wgpu::Queue) -> Self {
        let faults = FaultLog::default();
        let lost = FaultLog::default();
        let log = faults.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            let message = e.to_string();
            if !is_surface_race(&message) {
                log.record(message);
            }
        }));
        let lost_log = lost.clone();
        device.set_device_lost_callback(move |reason, message| {
            lost_log.record(format!("{reason:?}: {message}"));
        });
        let mut summary = AdapterSummary::of(&adapter);
        summary.timestamp_queries = device.features().contains(wgpu::Features::TIMESTAMP_QUERY);
        Self {
            adapter,
            device,
            queue,
            summary,
            faults,
            lost,
            pipelines: Default::default(),
        }
    }

    pub fn name(&self) -> &str {
        &self.summary.name
    }

    pub fn limits(&self) -> wgpu::Limits {
        self.device.limits()
    }

    /// Waits for all submitted work.
    pub fn wait(&self) -> Result<(), crate::engine::EngineError> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| self.classify(e.to_string()))
    }

    /// An engine error for a failure, as device loss when the device was lost.
    pub fn classify(&self, message: String) -> crate::engine::EngineError {
        use crate::engine::EngineError;
        if let Some(lost) = self.lost.peek() {
            EngineError::DeviceLost(lost)
        } else if message.to_lowercase().contains("out of memory") {
            EngineError::OutOfMemory(message)
        } else {
            EngineError::Gpu(message)
        }
    }

    /// The first error recorded since the last call, as an engine error.
    pub fn check_faults(&self) -> Result<(), crate::engine::EngineError> {
        if let Some(lost) = self.lost.peek() {
            return Err(crate::engine::EngineError::DeviceLost(lost));
        }
        match self.faults.take() {
            Some(m) => {
                // A destroyed or lost device makes every later call fail validation first;
                // a poll lets its lost callback run, so that the error names the cause.
                let _ = self.device.poll(wgpu::PollType::Poll);
                Err(self.classify(m))
            }
            None => Ok(()),
        }
    }
}

/// wgpu refuses to reconfigure the window's surface (on a resize) when another thread submitted
/// work while it waited for the queue to empty, which the engine on the app's worker does. It
/// is no fault of the device: the surface keeps its old size, and egui reconfigures it when the
/// next frame finds it outdated.
pub fn is_surface_race(message: &str) -> bool {
    message.contains("Surface::configure")
        && message.contains("come idle before reconfiguring the Surface")
}

/// Whether the process's adapter is a real GPU rather than a software one (lavapipe,
/// llvmpipe, device type Cpu), which is slower than the CPU engines it shares cores with.
pub fn is_hardware(ctx: &GpuContext) -> bool {
    ctx.summary.device_type != wgpu::DeviceType::Cpu
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_surface_race_is_told_from_real_faults() {
        // The text wgpu 30 gives the uncaptured error, as the app showed it.
        let race = "Validation Error\n\nCaused by:\n  In Surface::configure\n    Failed to wait for GPU to come idle before reconfiguring the Surface\n";
        assert!(super::is_surface_race(race));
        let fault = "Validation Error\n\nCaused by:\n  In Queue::submit\n    Buffer is destroyed\n";
        assert!(!super::is_surface_race(fault));
    }
}
