//! Macrocell `.mc`: never panics or hangs, whatever the shape (empty nodes repeated to level 64,
//! sparse cells far apart, huge coordinates); the counts and the box come from the shared
//! structure, the writer's output reads back the same, and an expansion is bounded.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lifelab::pattern::macrocell;

fuzz_target!(|data: &[u8]| {
    lifelab::memory::set_limit(64 << 20);
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(tree) = macrocell::parse(text) else { return };
    let population = tree.population();
    let bounds = tree.bounds();
    assert_eq!(bounds.is_none(), population == 0, "a box exactly when there are cells");
    let again = macrocell::parse(&tree.write()).expect("the writer's .mc parses");
    assert_eq!(again.population(), population);
    assert_eq!(again.bounds(), bounds);
    assert_eq!(again.max_state(), tree.max_state());
    // Expanded into tiles only within a small limit: the same cells, or a refusal that counts.
    match tree.to_tiles(1 << 20) {
        Ok(tiles) => assert_eq!(tiles.population(), population),
        Err(e) => assert!(e.bytes > 1 << 20, "refused within the limit: {e:?}"),
    }
});
