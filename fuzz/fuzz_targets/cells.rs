//! Plaintext .cells: never panics, and the writer's output parses back the same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lifelab::pattern::{self, Format};

fuzz_target!(|data: &[u8]| {
    lifelab::memory::set_limit(64 << 20);
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(mut p) = pattern::parse(text, Format::Cells) {
        let written = pattern::write(&p, Format::Cells);
        let again = pattern::parse(&written, Format::Cells).expect("the writer's .cells parses");
        // Warnings are about the text read, which the writer's strict form has none of.
        assert_eq!(again.warnings, Vec::<String>::new(), "the writer's .cells is not strict:\n{written}");
        p.warnings.clear();
        assert_eq!(again, p, "round trip changed the pattern:\n{written}");
    }
});
