//! RLE: never panics, and what the writer makes of a parsed pattern parses back the same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lifelab::pattern::{self, Format};

fuzz_target!(|data: &[u8]| {
    lifelab::memory::set_limit(64 << 20);
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(p) = pattern::parse(text, Format::Rle) {
        let written = pattern::write(&p, Format::Rle);
        let again = pattern::parse(&written, Format::Rle).expect("the writer's RLE parses");
        assert_eq!(again, p, "round trip changed the pattern:\n{written}");
    }
});
