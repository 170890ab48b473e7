// The counter-based hash of src/hash.rs, word for word, so that stochastic rules draw the same
// numbers on the GPU as on the CPU.

// Chris Wellons' lowbias32.
fn mix32(v: u32) -> u32 {
    var x = v;
    x ^= x >> 16u;
    x *= 0x7feb352du;
    x ^= x >> 15u;
    x *= 0x846ca68bu;
    x ^= x >> 16u;
    return x;
}

// The uniform 32-bit number of cell (x, y) under a generation's key.
fn cell_hash(key: u32, x: u32, y: u32) -> u32 {
    return mix32(mix32(key ^ x) ^ y);
}
