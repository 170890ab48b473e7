use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    lifelab::cli::main_with(lifelab::cli::Cli::parse())
}
