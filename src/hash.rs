//! Counter-based randomness: every random bit is a pure function of (seed, generation, cell), so
//! the CPU engines and the GPU shaders (which carry a WGSL copy of these functions) draw the same
//! numbers in any order, on any number of threads, and can be compared bit for bit.

/// Chris Wellons' `lowbias32` integer hash: a bijection on u32 with good avalanche.
#[inline]
pub fn mix32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

/// The key of one generation of one seeded run. Computed once per generation, on the CPU.
pub fn stream_key(seed: u64, generation: u64) -> u32 {
    let mut h = mix32(seed as u32 ^ 0x9e37_79b9);
    h = mix32(h ^ (seed >> 32) as u32);
    h = mix32(h ^ generation as u32);
    mix32(h ^ (generation >> 32) as u32)
}

/// The uniform 32-bit number of cell (x, y) under `key`.
#[inline]
pub fn cell_hash(key: u32, x: u32, y: u32) -> u32 {
    mix32(mix32(key ^ x) ^ y)
}

/// Random fills draw from a generation no simulation reaches, so that a soup and the first
/// stochastic generation made from the same seed are independent.
pub const FILL_GENERATION: u64 = u64::MAX;

/// The threshold below which a cell hash means "alive" for a fill of this density; `None` means
/// every cell (density 1 or more).
pub fn density_threshold(density: f64) -> Option<u32> {
    if density >= 1.0 {
        None
    } else if density <= 0.0 || density.is_nan() {
        Some(0)
    } else {
        Some((density * 4_294_967_296.0) as u32)
    }
}

/// A random fill of some density from a seed: whether each cell is alive depends only on the
/// seed, the density and where the cell is, so a selection fills as the whole torus would.
#[derive(Clone, Copy, Debug)]
pub struct Fill {
    key: u32,
    threshold: Option<u32>,
}

impl Fill {
    pub fn new(seed: u64, density: f64) -> Self {
        Self {
            key: stream_key(seed, FILL_GENERATION),
            threshold: density_threshold(density),
        }
    }

    #[inline]
    pub fn alive(&self, x: u32, y: u32) -> bool {
        self.threshold.is_none_or(|t| cell_hash(self.key, x, y) < t)
    }
}

/// SplitMix64, for the few places that need a sequence rather than a per-cell number (choosing
/// k distinct cells of a ring).
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number in 0..n (n > 0), by rejection so that there is no modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let v = self.next_u64();
            if v < zone {
                return v % n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix32_is_a_bijection_on_a_sample() {
        let mut seen: Vec<u32> = (0..1u32 << 16).map(mix32).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 1 << 16);
    }

    #[test]
    fn fill_density_is_close_to_requested() {
        let t = density_threshold(0.35).unwrap();
        let key = stream_key(7, FILL_GENERATION);
        let n = 200_000u32;
        let alive = (0..n)
            .filter(|&i| cell_hash(key, i % 500, i / 500) < t)
            .count();
        let frac = alive as f64 / n as f64;
        assert!((frac - 0.35).abs() < 0.005, "{frac}");
    }
}
