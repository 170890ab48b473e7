//! Green Hackenbush pictures: never panics, an error is at a place in the text, and a
//! picture's value is 0 exactly when no cut leaves value 0.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lifelab::games::hackenbush::Hackenbush;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Hackenbush::parse(text) {
        Ok(h) if h.edges.len() <= 64 => {
            let alive = h.grounded(&h.all());
            let value = h.value(&alive);
            let wins = (0..alive.len())
                .filter(|&e| alive[e])
                .any(|e| h.value(&h.cut(&alive, e)) == 0);
            assert_eq!(value != 0, wins, "{text}");
        }
        Ok(_) => {}
        Err(e) => {
            if let Some((line, column)) = e.position() {
                assert!(line >= 1 && column >= 1, "{e}");
                assert!(e.in_file("f").starts_with(&format!("f:{line}:{column}: ")), "{e}");
            }
        }
    }
});
