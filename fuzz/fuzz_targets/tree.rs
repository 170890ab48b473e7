//! Game-tree notation: never panics (deep nesting included), the analysis runs, and the tree
//! prints back to notation that parses to the same tree.
#![no_main]
use libfuzzer_sys::fuzz_target;
use lifelab::games::tree::Tree;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(t) = Tree::parse(text) {
        let a = t.analyse();
        assert_eq!(a.labels.len(), t.vertices.len());
        let again = Tree::parse(&t.to_notation()).expect("printed notation parses");
        assert_eq!(again.to_notation(), t.to_notation());
        assert_eq!(again.analyse().labels, a.labels);
    }
});
