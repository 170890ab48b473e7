//! What one command encoder records: the passes of a batch of generations, and the uniform
//! parameters each dispatch reads (`struct Params` in `shaders/life.wgsl`).

use bytemuck::{Pod, Zeroable};

/// A dense stretch's dispatch for up to `k` generations (at most `block`): the blocked kernel
/// for more than one, else the dense kernel.
pub(super) fn dense_pass(k: u64, block: u32) -> Pass {
    match k.min(block as u64) {
        0 | 1 => Pass::Main,
        k => Pass::Block(k as u32),
    }
}

/// One dispatch over every band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pass {
    /// The dense kernel.
    Main,
    /// The blocked kernel, advancing this many generations.
    Block(u32),
    /// The tile kernel over every tile, recording changes.
    TilesAll,
    /// The tile kernel over the list.
    TilesList,
    /// No generation: the compaction of every tile, from the change records a seeded start
    /// wrote (`DeviceTiles::seed`), makes the list of the current generation.
    Seed,
}

impl Pass {
    pub(super) fn gens(self) -> u64 {
        match self {
            Pass::Block(k) => k as u64,
            Pass::Seed => 0,
            _ => 1,
        }
    }

    /// The parameter slot group of a deterministic rule's dispatch (see `write_static_params`).
    pub(super) fn variant(self) -> u64 {
        match self {
            Pass::Main | Pass::TilesList | Pass::Seed => 0,
            Pass::TilesAll => 1,
            Pass::Block(k) => 1 + k as u64,
        }
    }
}

pub(super) struct Unit {
    pub(super) pass: Pass,
    /// Followed by the compaction pass (over the list, or every tile after `TilesAll`).
    pub(super) compact: bool,
    /// The census slot this generation's census goes into.
    pub(super) census: Option<u32>,
    /// The tile kernel keeps this generation's census (see `DeviceTiles::start_census`): a
    /// copy of four words, not a census of the torus.
    pub(super) kept: bool,
}

/// What one command encoder records.
#[derive(Default)]
pub(super) struct Plan {
    pub(super) units: Vec<Unit>,
    pub(super) gens: u64,
    /// The list's length is to be read back after it.
    pub(super) read: bool,
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
pub(super) struct Params {
    pub(super) width: u32,
    pub(super) words: u32,
    pub(super) last_word: u32,
    pub(super) last_bits: u32,
    pub(super) band_rows: u32,
    pub(super) above_rows: u32,
    pub(super) row_offset: u32,
    pub(super) row_groups: u32,
    pub(super) key: u32,
    pub(super) dead_bits: u32,
    pub(super) alive_bits: u32,
    pub(super) transposed: u32,
    pub(super) dead_threshold: [[u32; 4]; 3],
    pub(super) alive_threshold: [[u32; 4]; 3],
    pub(super) height: u32,
    pub(super) bands: u32,
    pub(super) band: u32,
    pub(super) tiles_x: u32,
    pub(super) band_first_tile: u32,
    pub(super) band_tile_rows: u32,
    pub(super) all_tiles: u32,
    pub(super) compare_prev: u32,
    pub(super) block: u32,
    pub(super) _pad0: u32,
    pub(super) _pad1: u32,
    pub(super) _pad2: u32,
    pub(super) keys: [[u32; 4]; 8],
}

/// The Rust side of `struct Params` in `shaders/life.wgsl`.
pub fn layout() -> crate::gpu::layout::StructLayout {
    crate::gpu::layout::StructLayout {
        shader: "life.wgsl",
        wgsl_struct: "Params",
        fields: crate::gpu::layout::fields!(
            Params,
            width,
            words,
            last_word,
            last_bits,
            band_rows,
            above_rows,
            row_offset,
            row_groups,
            key,
            dead_bits,
            alive_bits,
            transposed,
            dead_threshold,
            alive_threshold,
            height,
            bands,
            band,
            tiles_x,
            band_first_tile,
            band_tile_rows,
            all_tiles,
            compare_prev,
            block,
            _pad0,
            _pad1,
            _pad2,
            keys,
        ),
        size: std::mem::size_of::<Params>(),
    }
}
