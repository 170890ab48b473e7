//! A vector of a tile's rows, the unit of the tile engine's vector loops (Life's step and a
//! rule's circuit): which vectors cover the rows a tile needs, and how a vector of new rows is
//! written into the next buffer with its change masks and population.

use super::Meta;
use crate::cpu::kernel::Change;
use crate::tiles::{TILE, TileBits};

/// Rows a vector takes (eight words: one AVX-512 register, two AVX2).
pub(super) const LANES: usize = 8;

/// `LANES` words of `rows` from `x`.
#[inline(always)]
pub(super) fn lanes_of(rows: &[u64], x: usize) -> &[u64; LANES] {
    rows[x..x + LANES].try_into().expect("LANES words")
}

/// The vectors that cover `need`, each as its first row x and the rows it is needed for (bit
/// j: row x + j, none of them needed by a vector before it). Each starts at the first needed
/// row not yet covered (at row 64 - LANES at most): more rows than needed rather than a scalar
/// remainder (a tile often needs a handful), and no vector for a gap between needed rows.
#[inline(always)]
pub(super) fn vectors(need: u64) -> impl Iterator<Item = (usize, u64)> {
    let mut rest = need;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let x = (rest.trailing_zeros() as usize).min(64 - LANES);
            let window = u64::MAX >> (64 - LANES) << x;
            let rows = (rest & window) >> x;
            rest &= !window;
            (x, rows)
        })
    })
}

/// Per lane of `d` (a row's change), a bit: whether it changed, at its west edge (bit 0) and
/// at its east edge (bit `east_bit`).
#[inline(always)]
pub(super) fn lane_masks(d: &[u64; LANES], east_bit: u32) -> (u64, u64, u64) {
    let (mut any, mut west, mut east) = (0, 0, 0);
    for (j, &d) in d.iter().enumerate() {
        any |= ((d != 0) as u64) << j;
        west |= (d & 1) << j;
        east |= (d >> east_bit & 1) << j;
    }
    (any, west, east)
}

/// [`lane_masks`] as three AVX-512 tests, each straight into a mask register (the compiler
/// made each an eight-instruction reduction).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) unsafe fn lane_masks_avx512(d: &[u64; LANES], east_bit: u32) -> (u64, u64, u64) {
    use std::arch::x86_64::*;
    // SAFETY: `d` is eight words, the 64 bytes the load reads.
    let v = unsafe { _mm512_loadu_epi64(d.as_ptr() as *const i64) };
    let any = _mm512_test_epi64_mask(v, v);
    let west = _mm512_test_epi64_mask(v, _mm512_set1_epi64(1));
    let east = _mm512_test_epi64_mask(v, _mm512_set1_epi64(1i64 << east_bit));
    (any as u64, west as u64, east as u64)
}

/// Writes `next`, rows `x..x + LANES` of tile `m` a generation on, into `out_rows` (its next
/// buffer), adding what changed to `changed` and the population gained to `gained`, per lane.
/// Rows past a torus's last row keep what they hold, and columns past its last column are
/// cleared. `MASKS`: the change masks by AVX-512's tests, to be set only by a caller compiled
/// for AVX-512 and run where `Vectors::available` found it; `FULL`: every tile is whole.
/// Life's fused step keeps its own copy of these lines: through this function (the new rows
/// passed by reference or by value) iwona took a third longer.
#[inline(always)]
pub(super) fn write_lanes<const MASKS: bool, const FULL: bool>(
    m: &Meta,
    x: usize,
    next: &[u64; LANES],
    out_rows: &mut TileBits,
    changed: &mut Change,
    gained: &mut [i64; LANES],
) {
    let vh = if FULL { TILE as usize } else { m.vh as usize };
    let east_shift = if FULL { 63 } else { m.vw - 1 };
    let mask = if FULL || m.vw == 64 {
        u64::MAX
    } else {
        (1u64 << m.vw) - 1
    };
    let old = *lanes_of(out_rows, x);
    let mut new = [0; LANES];
    for j in 0..LANES {
        new[j] = if x + j < vh { next[j] & mask } else { old[j] };
        gained[j] += new[j].count_ones() as i64 - old[j].count_ones() as i64;
    }
    let d: [u64; LANES] = std::array::from_fn(|j| old[j] ^ new[j]);
    let (any, west_edge, east_edge) = if MASKS {
        // SAFETY: MASKS is set only by the AVX-512 copies, for CPUs that have it.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            lane_masks_avx512(&d, east_shift)
        }
        #[cfg(not(target_arch = "x86_64"))]
        lane_masks(&d, east_shift)
    } else {
        lane_masks(&d, east_shift)
    };
    out_rows[x..x + LANES].copy_from_slice(&new);
    changed.any |= any << x;
    changed.west |= west_edge << x;
    changed.east |= east_edge << x;
}
