//! Move graphs (`grundy graph`): never panics, an error is at a place in the text or says what
//! is missing, and every vertex gets a value whose outcome agrees with its moves.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lifelab::games::graph::MoveGraph;
use lifelab::games::retro::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match MoveGraph::parse(text) {
        Ok(g) => {
            let values = g.values();
            assert_eq!(values.len(), g.names.len());
            for (v, moves) in values.iter().zip(&g.moves) {
                let outcomes: Vec<Value> = moves.iter().map(|&m| values[m].outcome()).collect();
                // Won exactly when some move reaches a lost position.
                assert_eq!(
                    v.outcome() == Value::Win,
                    outcomes.contains(&Value::Loss),
                    "{text}"
                );
            }
        }
        Err(e) => {
            if let Some((line, column)) = e.position() {
                assert!(line >= 1 && column >= 1, "{e}");
                assert!(e.in_file("f").starts_with(&format!("f:{line}:{column}: ")), "{e}");
            }
        }
    }
});
