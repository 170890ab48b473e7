use std::process::ExitCode;

use clap::Parser;

/// An allocation that fails ends with a clear error, never an abort (docs/robustness.md).
#[global_allocator]
static ALLOCATOR: lifelab::memory::Guarded = lifelab::memory::Guarded;

fn main() -> ExitCode {
    quiet_wayland();
    match lifelab::cli::Cli::try_parse() {
        Ok(cli) if cli.command.is_none() => desktop(cli),
        Ok(cli) => lifelab::cli::main_with(cli),
        Err(e) => lifelab::cli::argument_error(e),
    }
}

/// No subcommand: the desktop app, with the options the command line read.
#[cfg(feature = "app")]
fn desktop(cli: lifelab::cli::Cli) -> ExitCode {
    if cli.adapter.is_some() {
        lifelab::gpu::select_adapter(cli.adapter.as_deref());
    }
    lifelab::rule::loader::set_user_dirs(cli.rule_dirs.clone());
    let a = cli.app;
    let options = lifelab::app::AppOptions {
        pattern: a.pattern,
        random: a.random,
        rule: a.rule,
        size: a.size,
        plane: a.plane,
        engine: a.engine,
        memory: a.memory,
        run: a.run,
        speed: a.speed,
        zoom: a.zoom,
        no_grid: a.no_grid,
        screenshot: a.screenshot,
        after_gens: a.after_gens,
        window: a.window,
        games_tab: a.games_tab,
        games_do: a.games_do,
        seed: a.seed,
        data_dir: a.data_dir,
    };
    match lifelab::app::run(options, lifelab::app::game_tabs()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            lifelab::cli::report(&e);
            ExitCode::FAILURE
        }
    }
}

#[cfg(not(feature = "app"))]
fn desktop(_: lifelab::cli::Cli) -> ExitCode {
    eprintln!("error: this build has no desktop app (the `app` feature); see `lifelab --help`");
    ExitCode::from(2)
}

/// libwayland prints an error whenever XDG_RUNTIME_DIR is unset, even when wgpu only probes
/// for a GPU headless; a private directory keeps it quiet.
fn quiet_wayland() {
    #[cfg(unix)]
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        use std::os::unix::fs::DirBuilderExt;
        let user = std::env::var("USER").unwrap_or_else(|_| "user".to_string());
        let dir = std::env::temp_dir().join(format!("lifelab-runtime-{user}"));
        let made = std::fs::DirBuilder::new().mode(0o700).create(&dir);
        if made.is_ok() || dir.is_dir() {
            // SAFETY: at the top of main, before any other thread exists.
            unsafe { std::env::set_var("XDG_RUNTIME_DIR", &dir) };
        }
    }
}
