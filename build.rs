//! Links the binary as a position-dependent executable on Linux: a PIE of this size carries
//! 39,000 relative relocations that the loader applies at every start (about a millisecond,
//! a third of the start-up), and a short `run` is dominated by its start, as Golly's is not.
fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
