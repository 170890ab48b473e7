//! Rule strings (B/S, S/B, names, hex, von Neumann, stochastic, Wolfram, formulas, :T
//! suffixes): never panics, and Display then parse gives the same rule.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lifelab::rule::Rule;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Rule::parse(text) {
        Ok(rule) => {
            let shown = rule.to_string();
            assert_eq!(Rule::parse(&shown), Ok(rule), "{text:?} printed as {shown:?}");
        }
        Err(e) => assert!(!e.message.is_empty()),
    }
});
