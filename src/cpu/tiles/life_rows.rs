//! Life's step of a tile's rows, a vector of rows at a time: the tile engine's hot loop on
//! Life, compiled for AVX-512 and AVX2 and picked at run time.

use std::marker::PhantomData;

#[cfg(target_arch = "x86_64")]
use super::lanes::lane_masks_avx512;
use super::lanes::{LANES, lane_masks, lanes_of, vectors};
use super::{E, EMPTY, Meta, N, NE, NONE, NW, S, SE, SW, W, sum_of_three};
use crate::cpu::kernel::{Change, Vectors};
use crate::tiles::{TILE, TileBits};

/// The next generation's tile buffers, shared by the threads of
/// [`super::TileEngine::step_life_tiles_parallel`], each of which writes the tiles it is given.
pub(super) struct NextBuffers<'a>(*mut TileBits, usize, PhantomData<&'a mut [TileBits]>);

// SAFETY: the threads write disjoint tiles (see `tile`), and nothing reads them meanwhile.
unsafe impl Send for NextBuffers<'_> {}
unsafe impl Sync for NextBuffers<'_> {}

impl<'a> NextBuffers<'a> {
    /// The buffers of `next`, borrowed for as long as the threads write them.
    pub(super) fn new(next: &'a mut [TileBits]) -> NextBuffers<'a> {
        NextBuffers(next.as_mut_ptr(), next.len(), PhantomData)
    }

    /// Tile `id`'s buffer.
    ///
    /// # Safety
    /// No other reference to tile `id`'s buffer may live while this one does: the caller
    /// asks for each id once.
    #[allow(clippy::mut_from_ref)]
    pub(super) unsafe fn tile(&self, id: u32) -> &mut TileBits {
        assert!((id as usize) < self.1, "tile {id} of {}", self.1);
        // SAFETY: in bounds (checked above), and unaliased (the caller's promise).
        unsafe { &mut *self.0.add(id as usize) }
    }
}

/// [`life_rows`] on the vector units `vectors`.
pub(super) fn life_rows_on(
    vectors: Vectors,
    full: bool,
    meta: &[Meta],
    cur: &[TileBits],
    id: u32,
    need: u64,
    out: &mut TileBits,
) -> (Change, i64) {
    match vectors {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Vectors::available` found them on this CPU.
        Vectors::Avx512 => unsafe { life_rows_avx512(full, meta, cur, id, need, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Vectors::Avx2 => unsafe { life_rows_avx2(full, meta, cur, id, need, out) },
        _ => life_rows_sized::<false>(full, meta, cur, id, need, out),
    }
}

/// [`life_rows`] with the tile's sides constants where every tile is whole (`full`).
#[inline(always)]
fn life_rows_sized<const MASKS: bool>(
    full: bool,
    meta: &[Meta],
    cur: &[TileBits],
    id: u32,
    need: u64,
    out: &mut TileBits,
) -> (Change, i64) {
    if full {
        life_rows::<MASKS, true>(meta, cur, id, need, out)
    } else {
        life_rows::<MASKS, false>(meta, cur, id, need, out)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn life_rows_avx2(
    full: bool,
    meta: &[Meta],
    cur: &[TileBits],
    id: u32,
    need: u64,
    out: &mut TileBits,
) -> (Change, i64) {
    life_rows_sized::<false>(full, meta, cur, id, need, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vpopcntdq,avx2,popcnt")]
unsafe fn life_rows_avx512(
    full: bool,
    meta: &[Meta],
    cur: &[TileBits],
    id: u32,
    need: u64,
    out: &mut TileBits,
) -> (Change, i64) {
    life_rows_sized::<true>(full, meta, cur, id, need, out)
}

/// Life's next state of the rows `need` of tile `id` into `out`, its next buffer (which holds
/// the generation before this one): what changed there, and the population it gained. A
/// vector of rows at a time, with no dependence between its lanes. `MASKS`: the change masks
/// by AVX-512's tests (only where the caller is compiled for it). Its start (the neighbours'
/// rows and edge bits) repeats [`super::TileEngine::step_life_tile_rolling`]'s: shared through a
/// struct, the compiler built the lanes' shifts from scalars and iwona took 80 ms, not 64.
#[inline(always)]
pub(super) fn life_rows<const MASKS: bool, const FULL: bool>(
    meta: &[Meta],
    cur: &[TileBits],
    id: u32,
    need: u64,
    out_rows: &mut TileBits,
) -> (Change, i64) {
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
    let edge = |[c, w, e]: [u32; 3], row: usize| {
        let c = rows_of(c)[row];
        let wb = rows_of(w)[row] >> west_bit_of(w) & 1;
        let (ones, twos, _) = sum_of_three(c, wb, rows_of(e)[row] & 1, east_shift);
        (ones, twos)
    };
    let mask = if FULL || m.vw == 64 {
        u64::MAX
    } else {
        (1u64 << m.vw) - 1
    };
    // The rows go by whole vectors ([`vectors`]). Each vector reads its rows straight from
    // the tiles, so every row it computes is right and is kept; the sums of the rows above and
    // below it are the same sums shifted a lane in registers (sums stored and read back a row
    // further on stalled on the store buffer).
    let row_sum_at = |r: usize| {
        let (ones, twos, _) = sum_of_three(me[r], west[r] >> west_bit & 1, east[r] & 1, east_shift);
        (ones, twos)
    };
    let mut changed = Change::NONE;
    // Per lane, summed once the tile is done.
    let mut gained = [0i64; LANES];
    for (x, _) in vectors(need) {
        let (c, w, e) = (lanes_of(me, x), lanes_of(west, x), lanes_of(east, x));
        let (mut o1, mut t1) = ([0; LANES], [0; LANES]);
        for j in 0..LANES {
            (o1[j], t1[j], _) = sum_of_three(c[j], w[j] >> west_bit & 1, e[j] & 1, east_shift);
        }
        // The sums of the row above the vector's first and below its last; rows past a
        // torus's last row feed only rows that are not kept.
        let last = x + LANES;
        let above_first = if x == 0 {
            let above = if FULL { TILE as u32 } else { m.vh_above };
            edge([m.nbrs[N], m.nbrs[NW], m.nbrs[NE]], above as usize - 1)
        } else {
            row_sum_at(x - 1)
        };
        let below_last = if last < vh { row_sum_at(last) } else { (0, 0) };
        let below_vh = if last >= vh {
            edge([m.nbrs[S], m.nbrs[SW], m.nbrs[SE]], 0)
        } else {
            (0, 0)
        };
        // Built lane by lane as selects, so that they stay in registers.
        let up = |j: usize| {
            if j == 0 {
                above_first
            } else {
                (o1[j - 1], t1[j - 1])
            }
        };
        let down = |j: usize| {
            if x + j + 1 == vh {
                below_vh
            } else if j + 1 < LANES {
                (o1[j + 1], t1[j + 1])
            } else {
                below_last
            }
        };
        let (o0, t0): ([u64; LANES], [u64; LANES]) = (
            std::array::from_fn(|j| up(j).0),
            std::array::from_fn(|j| up(j).1),
        );
        let (o2, t2): ([u64; LANES], [u64; LANES]) = (
            std::array::from_fn(|j| down(j).0),
            std::array::from_fn(|j| down(j).1),
        );
        let old = *lanes_of(out_rows, x);
        let mut new = [0; LANES];
        for j in 0..LANES {
            let next =
                crate::cpu::kernel::life_next([o0[j], o1[j], o2[j]], [t0[j], t1[j], t2[j]], c[j]);
            // Rows past a torus's last row keep what they hold.
            new[j] = if x + j < vh { next & mask } else { old[j] };
            gained[j] += new[j].count_ones() as i64 - old[j].count_ones() as i64;
        }
        let d: [u64; LANES] = std::array::from_fn(|j| old[j] ^ new[j]);
        let (any, west_edge, east_edge) = if MASKS {
            // SAFETY: MASKS is set only by the AVX-512 copy, for CPUs that have it.
            #[cfg(target_arch = "x86_64")]
            unsafe {
                lane_masks_avx512(&d, east_shift)
            }
            #[cfg(not(target_arch = "x86_64"))]
            lane_masks(&d, east_shift)
        } else {
            lane_masks(&d, east_shift)
        };
        out_rows[x..last].copy_from_slice(&new);
        changed.any |= any << x;
        changed.west |= west_edge << x;
        changed.east |= east_edge << x;
    }
    (changed, gained.iter().sum())
}
