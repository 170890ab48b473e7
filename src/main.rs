use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    quiet_wayland();
    match lifelab::cli::Cli::try_parse() {
        Ok(cli) => lifelab::cli::main_with(cli),
        Err(e) => lifelab::cli::argument_error(e),
    }
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
