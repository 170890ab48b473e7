//! RLE: never panics, and what the writer makes of a parsed pattern parses back the same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lifelab::pattern::{self, Format};

fuzz_target!(|data: &[u8]| {
    lifelab::memory::set_limit(64 << 20);
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(mut p) = pattern::parse(text, Format::Rle) {
        let written = pattern::write(&p, Format::Rle);
        let again = pattern::parse(&written, Format::Rle).expect("the writer's RLE parses");
        // Warnings are about the text read, which the writer's strict form has none of.
        assert_eq!(again.warnings, Vec::<String>::new(), "the writer's RLE is not strict:\n{written}");
        p.warnings.clear();
        assert_eq!(again, p, "round trip changed the pattern:\n{written}");
    }
});
