//! Raw bytes of any file, format sniffed: never panics (non-UTF-8 gets a located error), and a
//! parsed pattern survives RLE.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lifelab::pattern::{self, Format};

fuzz_target!(|data: &[u8]| {
    lifelab::memory::set_limit(64 << 20);
    match pattern::parse_bytes(data, None) {
        Ok(p) => {
            let again = pattern::parse(&pattern::write(&p, Format::Rle), Format::Rle)
                .expect("the writer's RLE parses");
            assert_eq!(again.cells, p.cells);
        }
        Err(e) => assert!(e.line >= 1 && e.column >= 1, "{e}"),
    }
});
