//! `lifelab gpus`: the adapters wgpu can see, with the limits that matter to lifelab.

use std::process::ExitCode;

use crate::gpu::{AdapterSummary, context};
use crate::grid::human_bytes;

#[derive(clap::Args, Debug)]
pub struct GpusArgs {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn execute(args: GpusArgs) -> anyhow::Result<ExitCode> {
    let adapters: Vec<AdapterSummary> =
        context::adapters().iter().map(AdapterSummary::of).collect();
    let chosen = context::choose_adapter(crate::gpu::wanted_adapter().as_deref())
        .ok()
        .map(|a| AdapterSummary::of(&a));
    let is_chosen = |a: &AdapterSummary| {
        chosen
            .as_ref()
            .is_some_and(|c| c.name == a.name && c.backend == a.backend)
    };
    if args.json {
        super::print_json(&serde_json::json!({ "adapters": adapters, "default": chosen }))?;
        return Ok(ExitCode::SUCCESS);
    }
    if adapters.is_empty() {
        println!("{}", crate::gpu::GpuError::no_adapter());
        return Ok(ExitCode::SUCCESS);
    }
    for a in &adapters {
        let mark = if is_chosen(a) { "*" } else { " " };
        println!("{mark} {} ({}, {:?})", a.name, a.backend, a.device_type);
        println!("    driver: {}", a.driver);
        println!(
            "    largest buffer {}, largest storage binding {} ({} storage buffers per stage)",
            human_bytes(a.max_buffer_size),
            human_bytes(a.max_storage_buffer_binding_size),
            a.max_storage_buffers_per_shader_stage
        );
        println!(
            "    workgroups per dimension {}, invocations per workgroup {}, timestamp queries {}",
            a.max_compute_workgroups_per_dimension,
            a.max_compute_invocations_per_workgroup,
            if a.timestamp_queries { "yes" } else { "no" }
        );
    }
    println!(
        "* the adapter lifelab uses (choose another with --adapter NAME or {})",
        context::ADAPTER_ENV
    );
    Ok(ExitCode::SUCCESS)
}
