//! A rule's circuit on a tile's rows, a vector of rows at a time: the inputs of each vector
//! are built in registers straight from the tiles and wait in a batch with other tiles' for
//! one run of the circuit; the results go back a vector at a time. A row copied and shifted
//! into a scratch column, gathered from there and written back alone cost about 120
//! instructions besides the circuit's (BENCHMARKS.md, 2026-12-06).

use super::lanes::{LANES, lanes_of, vectors, write_lanes};
use super::life_rows::NextBuffers;
use super::{E, EMPTY, Meta, N, NE, NONE, NW, S, SE, SW, Scratch, W};
use crate::cpu::kernel::{Batch, Change, Kernel, Vectors};
use crate::tiles::{TILE, TileBits};

/// A row with its west and east neighbours shifted in: (west, itself, east), where bit j of
/// west holds the cell left of bit j.
type Shifted = (u64, u64, u64);

/// Writes into `out` the nine inputs of the circuit for rows `x..x + LANES` of tile `id` of
/// generation `cur`, in the order of its index bits ([`crate::cpu::kernel::Kernel::gather`]'s):
/// SE, S, SW, E, centre, W, NE, N, NW. Rows past a torus's last row get inputs whose results
/// are not kept. `AVX512`: assembled by AVX-512's shuffles (the compiler built the portable
/// form's lanes from scalars); it must be set only by a caller compiled for AVX-512 and run
/// where `Vectors::available` found it.
#[inline(always)]
pub(super) fn circuit_inputs<const FULL: bool, const AVX512: bool>(
    meta: &[Meta],
    cur: &[TileBits],
    id: u32,
    x: usize,
    out: [&mut [u64; LANES]; 9],
) {
    let m = &meta[id as usize];
    let rows_of = |t: u32| if t == NONE { &EMPTY } else { &cur[t as usize] };
    let west_bit_of = |t: u32| {
        if FULL || t == NONE {
            63
        } else {
            meta[t as usize].vw - 1
        }
    };
    let east_shift = if FULL { 63 } else { m.vw - 1 };
    let (me, west, east) = (rows_of(id), rows_of(m.nbrs[W]), rows_of(m.nbrs[E]));
    let west_bit = west_bit_of(m.nbrs[W]);
    let vh = if FULL { TILE as usize } else { m.vh as usize };
    let shifted = |c: u64, west_cell: u64, east_cell: u64| -> Shifted {
        (c << 1 | west_cell, c, c >> 1 | east_cell << east_shift)
    };
    let row_at = |r: usize| shifted(me[r], west[r] >> west_bit & 1, east[r] & 1);
    let edge = |[c, w, e]: [u32; 3], row: usize| {
        shifted(
            rows_of(c)[row],
            rows_of(w)[row] >> west_bit_of(w) & 1,
            rows_of(e)[row] & 1,
        )
    };
    let last = x + LANES;
    let above_first = if x == 0 {
        let above = if FULL { TILE as u32 } else { m.vh_above };
        edge([m.nbrs[N], m.nbrs[NW], m.nbrs[NE]], above as usize - 1)
    } else {
        row_at(x - 1)
    };
    let below_last = if last < vh { row_at(last) } else { (0, 0, 0) };
    // The lane whose row below is the first of the tile below (none: LANES), and that row.
    let (to_below, below_vh) = if last >= vh {
        (vh - 1 - x, edge([m.nbrs[S], m.nbrs[SW], m.nbrs[SE]], 0))
    } else {
        (LANES, (0, 0, 0))
    };
    let v = Vector {
        rows: [lanes_of(west, x), lanes_of(me, x), lanes_of(east, x)],
        west_bit,
        east_shift,
        above_first,
        below_last,
        to_below,
        below_vh,
    };
    if AVX512 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX512 is set only by the AVX-512 copies, for CPUs that have it.
        unsafe {
            v.inputs_avx512(out)
        }
        #[cfg(not(target_arch = "x86_64"))]
        v.inputs(out)
    } else {
        v.inputs(out)
    }
}

/// A vector's rows (west tile, own, east tile) and the rows round it, shifted.
struct Vector<'a> {
    rows: [&'a [u64; LANES]; 3],
    west_bit: u32,
    east_shift: u32,
    above_first: Shifted,
    below_last: Shifted,
    to_below: usize,
    below_vh: Shifted,
}

impl Vector<'_> {
    #[inline(always)]
    fn inputs(&self, out: [&mut [u64; LANES]; 9]) {
        let [w, c, e] = self.rows;
        let mid: [u64; LANES] = *c;
        let wst: [u64; LANES] = std::array::from_fn(|j| c[j] << 1 | (w[j] >> self.west_bit & 1));
        let est: [u64; LANES] = std::array::from_fn(|j| c[j] >> 1 | (e[j] & 1) << self.east_shift);
        let up = |part: &[u64; LANES], first: u64| -> [u64; LANES] {
            std::array::from_fn(|j| if j == 0 { first } else { part[j - 1] })
        };
        let down = |part: &[u64; LANES], after: u64, below: u64| -> [u64; LANES] {
            std::array::from_fn(|j| {
                let next = if j + 1 < LANES { part[j + 1] } else { after };
                if j == self.to_below { below } else { next }
            })
        };
        let (a, b, v) = (self.above_first, self.below_last, self.below_vh);
        let [se, s, sw, east, centre, west, ne, n, nw] = out;
        *se = down(&est, b.2, v.2);
        *s = down(&mid, b.1, v.1);
        *sw = down(&wst, b.0, v.0);
        *east = est;
        *centre = mid;
        *west = wst;
        *ne = up(&est, a.2);
        *n = up(&mid, a.1);
        *nw = up(&wst, a.0);
    }

    /// [`Vector::inputs`] in AVX-512 registers: a row up or down is a lane shift (`valignq`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn inputs_avx512(&self, out: [&mut [u64; LANES]; 9]) {
        use std::arch::x86_64::*;
        let load = |r: &[u64; LANES]| {
            // SAFETY: eight words, the 64 bytes read.
            unsafe { _mm512_loadu_si512(r.as_ptr().cast()) }
        };
        let [w, c, e] = self.rows.map(load);
        let one = _mm512_set1_epi64(1);
        let wst = _mm512_or_si512(
            _mm512_slli_epi64::<1>(c),
            _mm512_and_si512(
                _mm512_srlv_epi64(w, _mm512_set1_epi64(self.west_bit as i64)),
                one,
            ),
        );
        let est = _mm512_or_si512(
            _mm512_srli_epi64::<1>(c),
            _mm512_sllv_epi64(
                _mm512_and_si512(e, one),
                _mm512_set1_epi64(self.east_shift as i64),
            ),
        );
        let below_lane = if self.to_below < LANES {
            1u8 << self.to_below
        } else {
            0
        };
        let up = |part: __m512i, first: u64| {
            // Lanes [first, part 0..=6].
            _mm512_alignr_epi64::<7>(part, _mm512_set1_epi64(first as i64))
        };
        let down = |part: __m512i, after: u64, below: u64| {
            // Lanes [part 1..=7, after], and the row below the tile in its lane.
            let shifted = _mm512_alignr_epi64::<1>(_mm512_set1_epi64(after as i64), part);
            _mm512_mask_set1_epi64(shifted, below_lane, below as i64)
        };
        let (a, b, v) = (self.above_first, self.below_last, self.below_vh);
        let all = [
            down(est, b.2, v.2),
            down(c, b.1, v.1),
            down(wst, b.0, v.0),
            est,
            c,
            wst,
            up(est, a.2),
            up(c, a.1),
            up(wst, a.0),
        ];
        for (slot, v) in out.into_iter().zip(all) {
            // SAFETY: eight words, the 64 bytes written.
            unsafe { _mm512_storeu_si512(slot.as_mut_ptr().cast(), v) };
        }
    }
}

/// What a task of [`circuit_tiles_on`] reads and writes: the kernel whose circuit it runs,
/// generation `cur` and the next generation's buffers.
pub(super) struct CircuitStep<'a> {
    pub(super) kernel: &'a Kernel,
    pub(super) meta: &'a [Meta],
    pub(super) cur: &'a [TileBits],
    pub(super) next: &'a NextBuffers<'a>,
    pub(super) full: bool,
}

/// The tiles of `needs` (each with the rows it needs) a generation on under the circuit,
/// batched as the one-thread path batches them, on the vector units `vectors`: each tile's
/// rows written into its next buffer, and (tile, change, population gained) pushed on
/// `landed`. No tile of `needs` may be in another task's.
pub(super) fn circuit_tiles_on(
    vectors: Vectors,
    step: &CircuitStep,
    needs: &[(u32, u64)],
    s: &mut Scratch,
    landed: &mut Vec<(u32, Change, i64)>,
) {
    match vectors {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Vectors::available` found them on this CPU.
        Vectors::Avx512 => unsafe { circuit_tiles_avx512(step, needs, s, landed) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Vectors::Avx2 => unsafe { circuit_tiles_avx2(step, needs, s, landed) },
        _ => circuit_tiles_sized::<false>(step, needs, s, landed),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn circuit_tiles_avx2(
    step: &CircuitStep,
    needs: &[(u32, u64)],
    s: &mut Scratch,
    landed: &mut Vec<(u32, Change, i64)>,
) {
    circuit_tiles_sized::<false>(step, needs, s, landed)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vpopcntdq,avx2,popcnt")]
unsafe fn circuit_tiles_avx512(
    step: &CircuitStep,
    needs: &[(u32, u64)],
    s: &mut Scratch,
    landed: &mut Vec<(u32, Change, i64)>,
) {
    circuit_tiles_sized::<true>(step, needs, s, landed)
}

#[inline(always)]
fn circuit_tiles_sized<const MASKS: bool>(
    step: &CircuitStep,
    needs: &[(u32, u64)],
    s: &mut Scratch,
    landed: &mut Vec<(u32, Change, i64)>,
) {
    if step.full {
        circuit_tiles::<MASKS, true>(step, needs, s, landed)
    } else {
        circuit_tiles::<MASKS, false>(step, needs, s, landed)
    }
}

#[inline(always)]
fn circuit_tiles<const MASKS: bool, const FULL: bool>(
    step: &CircuitStep,
    needs: &[(u32, u64)],
    s: &mut Scratch,
    landed: &mut Vec<(u32, Change, i64)>,
) {
    let mut waiting = std::mem::take(&mut s.waiting);
    for &(id, need) in needs {
        // A tile's vectors go in one batch, so that it lands once.
        let batch = s.planes.batch();
        if batch.room() < vectors(need).count() * LANES {
            write_batch::<MASKS, FULL>(step, &mut waiting, batch, landed);
        }
        for (x, _) in vectors(need) {
            let slots = batch.push_lanes().expect("a tile's vectors fit the batch");
            circuit_inputs::<FULL, MASKS>(step.meta, step.cur, id, x, slots);
        }
        waiting.push((id, need));
    }
    write_batch::<MASKS, FULL>(step, &mut waiting, s.planes.batch(), landed);
    s.waiting = waiting;
}

/// Runs the circuit on `batch` and writes each waiting tile's vectors into its next buffer.
#[inline(always)]
fn write_batch<const MASKS: bool, const FULL: bool>(
    step: &CircuitStep,
    waiting: &mut Vec<(u32, u64)>,
    batch: &mut Batch,
    landed: &mut Vec<(u32, Change, i64)>,
) {
    let results = step.kernel.run_batch(batch);
    let mut at = 0;
    for (id, need) in waiting.drain(..) {
        let m = &step.meta[id as usize];
        // SAFETY: each tile is in one task's `needs`, once (its mark's stamp).
        let out = unsafe { step.next.tile(id) };
        let mut changed = Change::NONE;
        let mut gained = [0i64; LANES];
        for (x, _) in vectors(need) {
            write_lanes::<MASKS, FULL>(m, x, lanes_of(results, at), out, &mut changed, &mut gained);
            at += LANES;
        }
        landed.push((id, changed, gained.iter().sum()));
    }
}
