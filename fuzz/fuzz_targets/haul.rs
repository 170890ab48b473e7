//! Census hauls (`census merge`): never panics, an error names a line of the text, and a haul
//! that reads writes back to text that reads as the same haul.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lifelab::census::Haul;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Haul::parse(text, "f") {
        Ok(h) => {
            let again = Haul::parse(&h.to_text(), "f").expect("a written haul reads back");
            assert_eq!(again, h);
            let mut merged = h.clone();
            // A haul merged with itself counts its soups twice: refused, unless it has none.
            assert_eq!(merged.merge(&h, "g").is_err(), h.soups() > 0);
        }
        Err(e) => {
            assert!(e.line >= 1 && e.line <= text.lines().count().max(1), "{e}");
            assert!(e.to_string().starts_with(&format!("f:{}: ", e.line)), "{e}");
        }
    }
});
