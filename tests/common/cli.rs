//! The binary as the command-line tests run it: its output, its one JSON object, its failure.

use std::process::{Command, Output};

use serde_json::Value;

/// Runs `lifelab ARGS` and returns what it printed and its exit code.
pub fn lifelab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(args)
        .env("CI", "")
        .output()
        .expect("the binary runs")
}

/// Runs a command that must succeed with `--json` and returns its one JSON object.
pub fn json(args: &[&str]) -> Value {
    json_with(args, &[])
}

/// [`json`] with environment variables set for the command.
pub fn json_with(args: &[&str], env: &[(&str, &str)]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_lifelab"))
        .args(args)
        .env("CI", "")
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.lines().count(), 1, "exactly one JSON line: {stdout}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// Runs a command that must fail with exit code 1 and returns its stderr.
pub fn failure(args: &[&str]) -> String {
    let out = lifelab(args);
    assert_eq!(out.status.code(), Some(1), "{args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

/// Runs a command that must fail with exit code 1 under `--json`, and returns the `error` of
/// its one JSON object.
pub fn json_error(args: &[&str]) -> String {
    let out = lifelab(args);
    assert_eq!(out.status.code(), Some(1), "{args:?} should fail");
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
    v["error"].as_str().expect("an error").to_string()
}
