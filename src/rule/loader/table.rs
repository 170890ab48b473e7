//! Golly's `@TABLE` rule tables, read as Golly 3.3's RuleTable algorithm reads them and
//! compiled into a reduced [`RuleTree`].
//!
//! A table lists transitions `C,N,E,S,W,C'` (von Neumann), `C,N,NE,E,SE,S,SW,W,NW,C'` (Moore),
//! `C,N,E,SE,S,W,NW,C'` (hexagonal) or `C,W,E,C'` (one-dimensional); an entry is a state or a
//! variable (a set of states), and a variable named twice in one transition is bound: it takes
//! the same state each time, and can be the output. The first transition that matches decides;
//! a cell no transition matches stays as it is. Symmetries add the transition's rotations and
//! reflections, or every permutation of its neighbours.
//!
//! The tree is built a cell at a time in the tree's order: a node stands for the set of
//! transitions that still match, so equal sets share one node.

// Fx, not SipHash: the keys are our own, and compiling a table is part of every start.
use rustc_hash::FxHashMap as HashMap;

use super::FileError;
use super::tree::{RuleTree, Shape, TreeBuilder};

/// The most nodes a compiled table may have before it is refused as too large.
const MAX_NODES: usize = 1 << 22;

/// The table's cell order for each shape (the centre first), as positions in the tree's
/// order: `TREE_FROM_TABLE[shape][k]` is the table index of the tree's k-th cell.
fn tree_from_table(shape: Shape) -> &'static [usize] {
    match shape {
        // Tree N W E S C; table C N E S W.
        Shape::VonNeumann => &[1, 4, 2, 3, 0],
        // Tree NW NE SW SE N W E S C; table C N NE E SE S SW W NW.
        Shape::Moore => &[8, 2, 6, 4, 1, 7, 3, 5, 0],
        // Tree NW SE N W E S C; table C N E SE S W NW.
        Shape::Hexagonal => &[6, 3, 1, 5, 2, 4, 0],
        // Tree W E C; table C W E.
        Shape::OneDimensional => &[1, 2, 0],
    }
}

fn inputs_of(shape: Shape) -> usize {
    shape.order().len()
}

/// The symmetries Golly 3.3 offers for each neighbourhood.
fn symmetries_of(shape: Shape) -> &'static [&'static str] {
    match shape {
        Shape::VonNeumann => &[
            "none",
            "rotate4",
            "rotate4reflect",
            "reflect_horizontal",
            "permute",
        ],
        Shape::Moore => &[
            "none",
            "rotate4",
            "rotate8",
            "rotate4reflect",
            "rotate8reflect",
            "reflect_horizontal",
            "permute",
        ],
        Shape::Hexagonal => &[
            "none",
            "rotate2",
            "rotate3",
            "rotate6",
            "rotate6reflect",
            "permute",
        ],
        Shape::OneDimensional => &["none", "reflect", "permute"],
    }
}

/// The images of a transition under a symmetry, as maps of table positions: image position
/// i takes the original's entry at `map[i]`. The neighbours (positions 1..) form a ring in
/// the table's order, so rotations are shifts of the ring and reflections `q -> c - q`.
fn remaps(shape: Shape, symmetry: &str) -> Vec<Vec<usize>> {
    let n = inputs_of(shape);
    let ring = n - 1;
    let make = |f: &dyn Fn(usize) -> usize| -> Vec<usize> {
        std::iter::once(0)
            .chain((0..ring).map(|q| 1 + f(q)))
            .collect()
    };
    let rotations = |count: usize| -> Vec<Vec<usize>> {
        let step = ring / count;
        (0..count)
            .map(|j| make(&|q| (q + j * step) % ring))
            .collect()
    };
    let reflections = |count: usize| -> Vec<Vec<usize>> {
        let step = ring / count;
        (0..count)
            .map(|j| make(&|q| (j * step + ring - q) % ring))
            .collect()
    };
    match (shape, symmetry) {
        (_, "none") => vec![make(&|q| q)],
        (Shape::OneDimensional, "reflect") => vec![make(&|q| q), make(&|q| 1 - q)],
        (_, "reflect_horizontal") => vec![make(&|q| q), make(&|q| (ring - q) % ring)],
        (_, s) => {
            let (count, reflect) = match s {
                "rotate2" => (2, false),
                "rotate3" => (3, false),
                "rotate4" => (4, false),
                "rotate6" => (6, false),
                "rotate8" => (8, false),
                "rotate4reflect" => (4, true),
                "rotate6reflect" => (6, true),
                "rotate8reflect" => (8, true),
                _ => unreachable!("symmetries are checked against the neighbourhood's list"),
            };
            let mut all = rotations(count);
            if reflect {
                all.extend(reflections(count));
            }
            all
        }
    }
}

/// The most cells a transition reads (Moore's nine).
const MAX_INPUTS: usize = 9;

/// One transition after its bound variables are expanded: a set of states per position (in
/// the table's order, by number in [`Sets`]; the unused tail is 0) and the output. Fixed-size,
/// so that a table of thousands of transitions is read without an allocation for each entry.
#[derive(Clone, Copy)]
struct Transition {
    inputs: [u32; MAX_INPUTS],
    output: u8,
    line: usize,
}

/// Every distinct set of states the table names, by number. Set `s` below `n_states` is the
/// state `s` alone, so that a single state needs no lookup and is known by its number.
struct Sets {
    list: Vec<Vec<u8>>,
    index: HashMap<Vec<u8>, u32>,
}

impl Sets {
    fn new(states: u16) -> Self {
        Self {
            list: (0..states).map(|s| vec![s as u8]).collect(),
            index: HashMap::default(),
        }
    }

    /// The number of this set of states (in any order, repeats allowed).
    fn id(&mut self, states: &[u8]) -> u32 {
        let mut set = states.to_vec();
        set.sort_unstable();
        set.dedup();
        if let [s] = set[..] {
            return s as u32;
        }
        if let Some(&id) = self.index.get(&set) {
            return id;
        }
        let id = self.list.len() as u32;
        self.list.push(set.clone());
        self.index.insert(set, id);
        id
    }

    fn get(&self, id: u32) -> &[u8] {
        &self.list[id as usize]
    }
}

/// A variable: its states as written (a bound variable takes them in this order) and the set
/// they make.
struct Variable {
    states: Vec<u8>,
    set: u32,
}

/// A token of a line and its 1-based column. The delimiters are ASCII, so the line is cut
/// between bytes that are whole characters (a table is read at every start, a byte at a time).
fn tokens<'a>(line: &'a str, delimiters: &[u8]) -> Vec<(&'a str, usize)> {
    let mut out = Vec::with_capacity(12);
    let mut start = None;
    for (i, &c) in line.as_bytes().iter().enumerate() {
        if delimiters.contains(&c) {
            if let Some(s) = start.take() {
                out.push((&line[s..i], s + 1));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((&line[s..], s + 1));
    }
    out
}

/// Reads an `@TABLE` section (or a `.table` file) and compiles it. `first_line` is the file's
/// line number of the section's first line.
pub fn parse(text: &str, first_line: usize, file: &str) -> Result<RuleTree, FileError> {
    let err = |line: usize, column: usize, m: String| FileError::new(file, line, column, m);
    let mut states: Option<u16> = None;
    let mut shape: Option<Shape> = None;
    let mut symmetry: Option<String> = None;
    let mut variables: HashMap<String, Variable> = HashMap::default();
    let mut sets: Option<Sets> = None;
    let mut transitions: Vec<Transition> = Vec::new();
    let mut last_line = first_line;
    for (i, raw) in text.lines().enumerate() {
        let n = first_line + i;
        last_line = n;
        let line = raw.split('#').next().unwrap_or("");
        // Columns count from the raw line's start, so the trim keeps the offset.
        let lead = line.len() - line.trim_start().len();
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let lower = line.to_ascii_lowercase();
        let header = ["n_states:", "neighborhood:", "symmetries:"]
            .into_iter()
            .find(|h| lower.starts_with(h));
        if let (Some(h), Some(_)) = (header, &sets) {
            // The lines above were read with the header as it was: a change now would make
            // them mean something else.
            return Err(err(
                n,
                lead + 1,
                format!(
                    "{} comes after a variable or transition; n_states, neighborhood and symmetries must all come before the first",
                    &h[..h.len() - 1]
                ),
            ));
        }
        if let Some(rest) = lower.strip_prefix("n_states:") {
            let v: u32 = rest.trim().parse().map_err(|_| {
                err(
                    n,
                    lead + 10,
                    format!("n_states '{}' is not a whole number", rest.trim()),
                )
            })?;
            if !(2..=256).contains(&v) {
                return Err(err(
                    n,
                    lead + 10,
                    format!("n_states {v}: a rule has 2 to 256 states"),
                ));
            }
            states = Some(v as u16);
        } else if lower.starts_with("neighborhood:") {
            let value = line["neighborhood:".len()..].trim();
            shape = Some(match value {
                "vonNeumann" => Shape::VonNeumann,
                "Moore" => Shape::Moore,
                "hexagonal" => Shape::Hexagonal,
                "oneDimensional" => Shape::OneDimensional,
                other => {
                    return Err(err(
                        n,
                        lead + 14,
                        format!(
                            "neighborhood '{other}' is not one Golly's rule tables have (vonNeumann, Moore, hexagonal, oneDimensional); Golly emulates others, such as Margolus, with a Moore table"
                        ),
                    ));
                }
            });
        } else if lower.starts_with("symmetries:") {
            let Some(shape) = shape else {
                return Err(err(
                    n,
                    lead + 1,
                    "the neighborhood must be declared before the symmetries".into(),
                ));
            };
            let value = line["symmetries:".len()..].trim();
            if !symmetries_of(shape).contains(&value) {
                return Err(err(
                    n,
                    lead + 12,
                    format!(
                        "symmetries '{value}' is not one the {} neighbourhood has ({})",
                        shape.name(),
                        symmetries_of(shape).join(", ")
                    ),
                ));
            }
            symmetry = Some(value.to_string());
        } else {
            let (Some(states), Some(shape), Some(_)) = (states, shape, &symmetry) else {
                return Err(err(
                    n,
                    lead + 1,
                    "n_states, neighborhood and symmetries must all come before the first variable or transition".into(),
                ));
            };
            let sets = sets.get_or_insert_with(|| Sets::new(states));
            if lower.starts_with("var ") || lower.starts_with("var\t") {
                let parts = tokens(line, b"= {,}\t");
                let Some(&(name, _)) = parts.get(1) else {
                    return Err(err(
                        n,
                        lead + 1,
                        "a variable line is 'var name={states}'".into(),
                    ));
                };
                let named = tokens(line, b"= \t");
                if named.get(1).map(|t| t.0) != Some(name) {
                    return Err(err(
                        n,
                        lead + 5,
                        format!(
                            "'{}' is not a variable name (it holds a delimiter)",
                            named.get(1).map_or("", |t| t.0)
                        ),
                    ));
                }
                if parts.len() < 3 {
                    return Err(err(
                        n,
                        lead + 1,
                        format!("the variable '{name}' has no states"),
                    ));
                }
                let mut set = Vec::new();
                for &(t, c) in &parts[2..] {
                    set.extend(
                        state_or_variable(t, &variables, states)
                            .map_err(|m| err(n, lead + c, m))?,
                    );
                }
                let variable = Variable {
                    set: sets.id(&set),
                    states: set,
                };
                variables.insert(name.to_string(), variable);
            } else {
                read_transition(line, n, lead, states, shape, &variables, &mut transitions)
                    .map_err(|(c, m)| err(n, c, m))?;
            }
        }
    }
    let (Some(states), Some(shape), Some(symmetry)) = (states, shape, symmetry) else {
        return Err(err(
            last_line,
            1,
            "the table needs n_states, neighborhood and symmetries".into(),
        ));
    };
    let sets = sets.unwrap_or_else(|| Sets::new(states));
    let expanded = expand(&transitions, shape, &symmetry);
    check_contradictions(&expanded, states, shape, file)?;
    compile(&expanded, &sets, states, shape).map_err(|m| err(first_line, 1, m))
}

/// A state number, or the states of a variable defined above.
fn state_or_variable(
    t: &str,
    variables: &HashMap<String, Variable>,
    states: u16,
) -> Result<Vec<u8>, String> {
    if let Some(v) = variables.get(t) {
        return Ok(v.states.clone());
    }
    state(t, states).map(|s| vec![s])
}

/// A state number below `states`.
fn state(t: &str, states: u16) -> Result<u8, String> {
    match t.parse::<u32>() {
        Ok(s) if s < states as u32 => Ok(s as u8),
        Ok(s) => Err(format!("state {s} is out of range (n_states is {states})")),
        Err(_) => Err(format!(
            "'{t}' is neither a state nor a variable defined above"
        )),
    }
}

/// One transition line, its bound variables expanded into a transition per combination.
fn read_transition(
    line: &str,
    n: usize,
    lead: usize,
    states: u16,
    shape: Shape,
    variables: &HashMap<String, Variable>,
    out: &mut Vec<Transition>,
) -> Result<(), (usize, String)> {
    let inputs = inputs_of(shape);
    if states <= 10 && variables.is_empty() && !line.contains(',') {
        // Golly's comma-free form: one digit per entry.
        let digits: Vec<char> = line.chars().collect();
        if digits.len() < inputs + 1 {
            return Err((
                lead + 1,
                format!(
                    "'{line}' has too few entries: a transition has {} and an output",
                    inputs
                ),
            ));
        }
        let mut entries = Vec::new();
        for (k, &c) in digits[..=inputs].iter().enumerate() {
            let Some(d) = c.to_digit(10).filter(|&d| d < states as u32) else {
                return Err((
                    lead + k + 1,
                    format!("'{c}' is not a state (n_states is {states})"),
                ));
            };
            entries.push(d as u8);
        }
        let mut set = [0; MAX_INPUTS];
        for (k, &s) in entries[..inputs].iter().enumerate() {
            set[k] = s as u32;
        }
        out.push(Transition {
            inputs: set,
            output: entries[inputs],
            line: n,
        });
        return Ok(());
    }
    let parts = tokens(line, b", \t");
    if parts.len() < inputs + 1 {
        return Err((
            lead + 1,
            format!(
                "a transition has {} entries and an output, this one has {}",
                inputs,
                parts.len()
            ),
        ));
    }
    let entries = &parts[..=inputs];
    // Each entry resolved once: the set of a variable, or a state (as its own set), or which
    // bound variable it is. Variables named more than once are bound, numbered in order of
    // appearance; a bound one takes each of its states in turn.
    let mut vars: [Option<&Variable>; MAX_INPUTS + 1] = [None; MAX_INPUTS + 1];
    for (k, &(t, _)) in entries.iter().enumerate() {
        vars[k] = variables.get(t);
    }
    let mut bound: Vec<&Variable> = Vec::new();
    let mut bound_at = [usize::MAX; MAX_INPUTS + 1];
    let mut fixed = [0u32; MAX_INPUTS + 1];
    for (k, &(t, c)) in entries.iter().enumerate() {
        match vars[k] {
            Some(v) => {
                if let Some(j) = (0..k).find(|&j| entries[j].0 == t) {
                    bound_at[k] = bound_at[j];
                } else if entries[k + 1..].iter().any(|e| e.0 == t) {
                    bound_at[k] = bound.len();
                    bound.push(v);
                } else {
                    fixed[k] = v.set;
                }
            }
            None if k < inputs => fixed[k] = state(t, states).map_err(|m| (lead + c, m))? as u32,
            None => {}
        }
    }
    let (t, c) = entries[inputs];
    let output_fixed = match (bound_at[inputs], vars[inputs]) {
        (usize::MAX, Some(v)) if v.states.len() == 1 => v.states[0],
        (usize::MAX, Some(_)) => {
            return Err((
                lead + c,
                format!(
                    "the output '{t}' is a variable of several states that is not bound (named only once), so it has no one value"
                ),
            ));
        }
        (usize::MAX, None) => state(t, states).map_err(|m| (lead + c, m))?,
        _ => 0,
    };
    let mut choice = vec![0usize; bound.len()];
    loop {
        let mut set = [0; MAX_INPUTS];
        for (k, s) in set.iter_mut().enumerate().take(inputs) {
            *s = match bound_at[k] {
                usize::MAX => fixed[k],
                b => bound[b].states[choice[b]] as u32,
            };
        }
        let output = match bound_at[inputs] {
            usize::MAX => output_fixed,
            b => bound[b].states[choice[b]],
        };
        out.push(Transition {
            inputs: set,
            output,
            line: n,
        });
        // The next combination of the bound variables, the first changing fastest.
        let mut k = 0;
        while k < bound.len() {
            choice[k] += 1;
            if choice[k] < bound[k].states.len() {
                break;
            }
            choice[k] = 0;
            k += 1;
        }
        if k == bound.len() {
            return Ok(());
        }
    }
}

/// Every transition with its images under the table's symmetry, in order (an image is a
/// transition too).
fn expand(transitions: &[Transition], shape: Shape, symmetry: &str) -> Vec<Transition> {
    let n = inputs_of(shape);
    let maps = (symmetry != "permute").then(|| remaps(shape, symmetry));
    let mut out = Vec::with_capacity(transitions.len() * maps.as_ref().map_or(1, Vec::len));
    for t in transitions {
        match &maps {
            None => {
                let mut image = *t;
                image.inputs[1..n].sort_unstable();
                loop {
                    out.push(image);
                    if !next_permutation(&mut image.inputs[1..n]) {
                        break;
                    }
                }
            }
            Some(maps) => {
                for map in maps {
                    let mut image = *t;
                    for (i, &j) in map.iter().enumerate() {
                        image.inputs[i] = t.inputs[j];
                    }
                    out.push(image);
                }
            }
        }
    }
    out
}

/// The next lexicographic permutation, as C++'s `next_permutation` (equal items are not
/// swapped, so each distinct arrangement comes once); false after the last.
fn next_permutation<T: Ord>(v: &mut [T]) -> bool {
    if v.len() < 2 {
        return false;
    }
    let Some(i) = (0..v.len() - 1).rev().find(|&i| v[i] < v[i + 1]) else {
        v.reverse();
        return false;
    };
    let j = (i + 1..v.len())
        .rev()
        .find(|&j| v[i] < v[j])
        .expect("v[i + 1] is larger");
    v.swap(i, j);
    v[i + 1..].reverse();
    true
}

/// Two transitions of single states for the same cells that give different outputs, written
/// on different lines: the second can never apply, which is a mistake in the table.
fn check_contradictions(
    transitions: &[Transition],
    states: u16,
    shape: Shape,
    file: &str,
) -> Result<(), FileError> {
    let n = inputs_of(shape);
    let mut seen: HashMap<[u32; MAX_INPUTS], (u8, usize)> =
        HashMap::with_capacity_and_hasher(transitions.len(), Default::default());
    for t in transitions {
        // A set below `states` is a single state.
        if t.inputs[..n].iter().any(|&s| s >= states as u32) {
            continue;
        }
        match seen.get(&t.inputs) {
            Some(&(output, line)) if output != t.output && line != t.line => {
                return Err(FileError::new(
                    file,
                    t.line,
                    1,
                    format!(
                        "this transition gives {} for the cells {:?}, which line {line} already sends to {output}: the two contradict each other",
                        t.output,
                        &t.inputs[..n]
                    ),
                ));
            }
            Some(_) => {}
            None => {
                seen.insert(t.inputs, (t.output, t.line));
            }
        }
    }
    Ok(())
}

/// The table as a reduced tree: a node is the set of transitions that still match after the
/// cells above it, so equal sets are one node.
///
/// Below a cell, a transition is only what it still asks of the cells after it and what it
/// gives: its suffix. Transitions with equal suffixes are one suffix, and of a list of them
/// only the first can match, so a node is a list of distinct suffixes in table order (never
/// sorted: the first that matches decides). That is what keeps a table with many images small
/// to compile (the permutations of a `permute` table share their suffixes after a few cells):
/// the sets of whole transitions that still match are far more than the nodes they reduce to.
fn compile(
    transitions: &[Transition],
    sets: &Sets,
    states: u16,
    shape: Shape,
) -> Result<RuleTree, String> {
    let order = tree_from_table(shape);
    let depths = order.len();
    // suffix_of[d][i]: transition i's suffix from the tree's d-th cell on; suffixes[d][k]: the
    // states that suffix k takes at that cell and the suffix it goes on to (the output at the
    // last cell).
    let mut suffixes: Vec<Vec<(&[u8], u32)>> = vec![Vec::new(); depths];
    let mut suffix_of: Vec<Vec<u32>> = vec![Vec::new(); depths];
    for d in (0..depths).rev() {
        let nexts = if d + 1 == depths {
            states as usize
        } else {
            suffixes[d + 1].len()
        };
        let mut index = PairIndex::new(sets.list.len(), nexts, transitions.len());
        let mut of = Vec::with_capacity(transitions.len());
        for (i, t) in transitions.iter().enumerate() {
            let next = if d + 1 == depths {
                t.output as u32
            } else {
                suffix_of[d + 1][i]
            };
            let set = t.inputs[order[d]];
            let id = index.get_or_insert(set, next, || {
                suffixes[d].push((sets.get(set), next));
                suffixes[d].len() as u32 - 1
            });
            of.push(id);
        }
        suffix_of[d] = of;
    }
    let mut root = Vec::new();
    let mut seen = vec![false; suffixes[0].len()];
    for &k in &suffix_of[0] {
        if !std::mem::replace(&mut seen[k as usize], true) {
            root.push(k);
        }
    }
    let mut c = Compiler {
        states,
        builder: TreeBuilder::new(states),
        memo: vec![HashMap::default(); depths],
        unmatched: vec![None; depths],
        scratch: vec![vec![Vec::new(); states as usize]; depths],
        entries: vec![Vec::with_capacity(states as usize); depths],
        stamps: suffixes.iter().map(|s| vec![0; s.len()]).collect(),
        stamp: 0,
        suffixes,
    };
    let root = c.build(0, &root)?;
    Ok(c.builder.finish(shape, root))
}

/// Numbers of (set, next suffix) pairs: a table of every pair where there are few (a table
/// of a few states and transitions, read at every start), a hash map otherwise.
enum PairIndex {
    Dense { numbers: Vec<u32>, nexts: usize },
    Sparse(HashMap<(u32, u32), u32>),
}

impl PairIndex {
    fn new(sets: usize, nexts: usize, pairs: usize) -> Self {
        match sets.checked_mul(nexts) {
            Some(n) if n <= 1 << 13 => PairIndex::Dense {
                numbers: vec![u32::MAX; n],
                nexts,
            },
            _ => PairIndex::Sparse(HashMap::with_capacity_and_hasher(pairs, Default::default())),
        }
    }

    fn get_or_insert(&mut self, set: u32, next: u32, make: impl FnOnce() -> u32) -> u32 {
        match self {
            PairIndex::Dense { numbers, nexts } => {
                let slot = &mut numbers[set as usize * *nexts + next as usize];
                if *slot == u32::MAX {
                    *slot = make();
                }
                *slot
            }
            PairIndex::Sparse(map) => *map.entry((set, next)).or_insert_with(make),
        }
    }
}

struct Compiler<'a> {
    states: u16,
    suffixes: Vec<Vec<(&'a [u8], u32)>>,
    builder: TreeBuilder,
    /// For each depth, the node of each list of suffixes built there.
    memo: Vec<HashMap<Box<[u32]>, u32>>,
    /// For each depth, the node where no transition matches any more.
    unmatched: Vec<Option<u32>>,
    /// For each depth, the children's lists of the node being built there, kept between nodes.
    scratch: Vec<Vec<Vec<u32>>>,
    /// For each depth, the entries of the node being built there, kept between nodes.
    entries: Vec<Vec<u32>>,
    /// For each depth and suffix, the last child list it was put in (`stamp` numbers the
    /// lists), so that a suffix is in a child once, at its first place.
    stamps: Vec<Vec<u32>>,
    stamp: u32,
}

impl Compiler<'_> {
    fn build(&mut self, depth: usize, matching: &[u32]) -> Result<u32, String> {
        // Most of a many-state table's children match nothing: that node, once per depth.
        let known = match matching {
            [] => self.unmatched[depth],
            _ => self.memo[depth].get(matching).copied(),
        };
        if let Some(base) = known {
            return Ok(base);
        }
        let states = self.states as usize;
        let mut entries = std::mem::take(&mut self.entries[depth]);
        entries.clear();
        if depth + 1 == self.suffixes.len() {
            // The first suffix that matches each state of the last cell gives its output;
            // with none the cell stays as it is.
            const UNSET: u32 = u32::MAX;
            entries.resize(states, UNSET);
            let mut left = states;
            for &k in matching {
                let (set, output) = self.suffixes[depth][k as usize];
                for &s in set {
                    if entries[s as usize] == UNSET {
                        entries[s as usize] = output;
                        left -= 1;
                    }
                }
                if left == 0 {
                    break;
                }
            }
            for (s, e) in entries.iter_mut().enumerate() {
                if *e == UNSET {
                    *e = s as u32;
                }
            }
        } else {
            let mut children = std::mem::take(&mut self.scratch[depth]);
            children.iter_mut().for_each(Vec::clear);
            for &k in matching {
                let (set, next) = self.suffixes[depth][k as usize];
                for &s in set {
                    children[s as usize].push(next);
                }
            }
            // Two suffixes here can go on to the same one below; in a child only its first
            // place counts, since a later copy never decides.
            // The count is shared by every depth, so all of them start again when it would
            // wrap (a call numbers at most one list per state).
            if self.stamp > u32::MAX - states as u32 {
                self.stamps.iter_mut().for_each(|s| s.fill(0));
                self.stamp = 0;
            }
            let stamps = &mut self.stamps[depth + 1];
            for child in children.iter_mut().filter(|c| c.len() > 1) {
                self.stamp += 1;
                let stamp = self.stamp;
                child.retain(|&k| std::mem::replace(&mut stamps[k as usize], stamp) != stamp);
            }
            for child in &children {
                entries.push(self.build(depth + 1, child)?);
            }
            self.scratch[depth] = children;
        }
        let base = self.builder.node_of(&entries);
        self.entries[depth] = entries;
        if self.builder.len() > MAX_NODES {
            return Err(format!(
                "the table compiles to more than {MAX_NODES} tree nodes, more than lifelab takes"
            ));
        }
        match matching {
            [] => self.unmatched[depth] = Some(base),
            _ => {
                self.memo[depth].insert(matching.into(), base);
            }
        }
        Ok(base)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remaps_are_golly_s_symmetry_groups() {
        // Golly's vonNeumann rotate4 list, as a set.
        let mut r = remaps(Shape::VonNeumann, "rotate4");
        r.sort();
        assert_eq!(
            r,
            vec![
                vec![0, 1, 2, 3, 4],
                vec![0, 2, 3, 4, 1],
                vec![0, 3, 4, 1, 2],
                vec![0, 4, 1, 2, 3]
            ]
        );
        assert_eq!(
            remaps(Shape::Moore, "reflect_horizontal")[1],
            vec![0, 1, 8, 7, 6, 5, 4, 3, 2]
        );
        assert_eq!(remaps(Shape::Moore, "rotate8reflect").len(), 16);
        let mut hex = remaps(Shape::Hexagonal, "rotate6reflect");
        hex.sort();
        hex.dedup();
        assert_eq!(hex.len(), 12);
        assert!(hex.contains(&vec![0, 6, 5, 4, 3, 2, 1]));
        assert_eq!(remaps(Shape::OneDimensional, "reflect")[1], vec![0, 2, 1]);
    }

    #[test]
    fn next_permutation_skips_equal_items() {
        let mut v = vec![1, 1, 2];
        let mut all = vec![v.clone()];
        while next_permutation(&mut v) {
            all.push(v.clone());
        }
        assert_eq!(all, vec![vec![1, 1, 2], vec![1, 2, 1], vec![2, 1, 1]]);
    }
}
