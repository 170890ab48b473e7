//! Life 1.06 (and 1.05): never panics; the writer keeps the live cells (Life 1.06 has no room
//! for names or rules, and keeps the cells up to translation).
#![no_main]
use libfuzzer_sys::fuzz_target;
use lifelab::pattern::{self, Format};

fuzz_target!(|data: &[u8]| {
    lifelab::memory::set_limit(64 << 20);
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(p) = pattern::parse(text, Format::Life) {
        let written = pattern::write(&p, Format::Life);
        let again = pattern::parse(&written, Format::Life).expect("the writer's Life 1.06 parses");
        assert_eq!(again.trimmed().cells, p.trimmed().cells, "round trip changed the cells");
    }
});
