//! Sums of different games: a position is a list of components, and a move is a move in one of
//! them. Under normal play the sum's value is the XOR of the components' (generalised)
//! Sprague–Grundy values, and a winning move takes one component to the value that makes the
//! XOR 0. Under misère play values do not add up, and the whole sum is searched.
//!
//! A component is written `KIND:ARGS`:
//! - `7` or `nim:7`: a Nim heap; `kayles:7`, `0.137:9`, `grundys-game:12`, `sub:1,3,4:10`: heaps
//!   of a heap game (several: `kayles:7,5,3`);
//! - `wythoff:3,5`: a Wythoff position;
//! - `hackenbush:FILE`: a Green Hackenbush picture;
//! - `graph:FILE` or `graph:FILE:VERTEX`: a game given by its move graph, at its first vertex or
//!   at VERTEX.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::Serialize;

use super::graph::{GValue, MoveGraph};
use super::grundy::TakeSet;
use super::hackenbush::Hackenbush;
use super::misere::{self, Rules, SearchError};
use super::octal::{self, HeapGame, Periodicity};
use super::retro::Value;
use super::wythoff;

#[derive(Clone, Debug)]
pub enum Component {
    Heaps {
        game: HeapGame,
        heaps: Vec<u64>,
    },
    Wythoff {
        x: u64,
        y: u64,
    },
    Hackenbush {
        name: String,
        picture: Arc<Hackenbush>,
        alive: Vec<bool>,
    },
    Graph {
        name: String,
        graph: Arc<MoveGraph>,
        at: usize,
    },
}

/// The most work a heap component's values may take (options looked at).
pub const MAX_COST: u128 = 400_000_000;

impl PartialEq for Component {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (
                Component::Heaps { game, heaps },
                Component::Heaps {
                    game: g2,
                    heaps: h2,
                },
            ) => game == g2 && heaps == h2,
            (Component::Wythoff { x, y }, Component::Wythoff { x: x2, y: y2 }) => {
                (x, y) == (x2, y2)
            }
            (
                Component::Hackenbush { picture, alive, .. },
                Component::Hackenbush {
                    picture: p2,
                    alive: a2,
                    ..
                },
            ) => Arc::ptr_eq(picture, p2) && alive == a2,
            (
                Component::Graph { graph, at, .. },
                Component::Graph {
                    graph: g2, at: a2, ..
                },
            ) => Arc::ptr_eq(graph, g2) && at == a2,
            _ => false,
        }
    }
}

impl Eq for Component {}

impl Hash for Component {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Component::Heaps { game, heaps } => (game, heaps).hash(state),
            Component::Wythoff { x, y } => (x, y).hash(state),
            Component::Hackenbush { picture, alive, .. } => {
                (Arc::as_ptr(picture) as usize, alive).hash(state)
            }
            Component::Graph { graph, at, .. } => (Arc::as_ptr(graph) as usize, at).hash(state),
        }
    }
}

fn number(text: &str, what: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| format!("'{text}' is not {what} (a whole number from 0)"))
}

impl Component {
    /// Reads one component; `read` gives the text of a file named in it.
    pub fn parse(
        spec: &str,
        read: &mut dyn FnMut(&str) -> Result<String, String>,
    ) -> Result<Component, String> {
        let spec = spec.trim();
        let (kind, rest) = match spec.split_once(':') {
            Some((k, r)) => (k.trim(), r),
            None => ("nim", spec),
        };
        let heaps = |text: &str| -> Result<Vec<u64>, String> {
            let heaps = text
                .split(',')
                .map(|w| number(w, "a heap"))
                .collect::<Result<Vec<_>, _>>()?;
            // In the order written: a move names its heap as the user counts them.
            Ok(heaps)
        };
        match kind.to_ascii_lowercase().as_str() {
            "wythoff" => {
                let (x, y) = rest.split_once(',').ok_or_else(|| {
                    format!("'{rest}': a Wythoff position is two heaps, like 3,5")
                })?;
                let (x, y) = (number(x, "a heap")?, number(y, "a heap")?);
                if x.max(y) >= wythoff::MAX_TABLE {
                    return Err(format!(
                        "wythoff:{x},{y}: in a sum, Wythoff heaps go up to {} (its Grundy values \
                         have no formula and are tabled)",
                        wythoff::MAX_TABLE - 1
                    ));
                }
                Ok(Component::Wythoff { x, y })
            }
            "hackenbush" => {
                let text = read(rest)?;
                let picture = Hackenbush::parse(&text).map_err(|e| e.in_file(rest))?;
                let alive = picture.grounded(&picture.all());
                Ok(Component::Hackenbush {
                    name: rest.to_string(),
                    picture: Arc::new(picture),
                    alive,
                })
            }
            "graph" => {
                // A vertex after a last ':' unless that is part of the path (C:\...).
                let (file, vertex) = match rest.rsplit_once(':') {
                    Some((f, v)) if !f.is_empty() && !v.contains(['/', '\\']) => (f, Some(v)),
                    _ => (rest, None),
                };
                let text = read(file)?;
                let graph = MoveGraph::parse(&text).map_err(|e| e.in_file(file))?;
                let at = match vertex {
                    Some(v) => graph
                        .vertex(v)
                        .ok_or_else(|| format!("{file} has no vertex '{v}'"))?,
                    None => 0,
                };
                Ok(Component::Graph {
                    name: file.to_string(),
                    graph: Arc::new(graph),
                    at,
                })
            }
            "sub" | "take" | "subtraction" => {
                let (take, n) = rest.rsplit_once(':').ok_or_else(|| {
                    format!(
                        "'{spec}': write a subtraction game as sub:TAKE:HEAPS, like sub:1,3,4:10"
                    )
                })?;
                let take = TakeSet::parse(take).map_err(|e| format!("{take}: {e}"))?;
                Ok(Component::Heaps {
                    game: HeapGame::Subtraction(take),
                    heaps: heaps(n)?,
                })
            }
            _ => {
                // A heap game by name or code: `kayles:7`, `0.77:7`, `nim:7`, `octal:0.77:7`.
                let (game, n) = match kind {
                    "octal" => rest.rsplit_once(':').ok_or_else(|| {
                        format!("'{spec}': write octal:CODE:HEAPS, like octal:0.77:7")
                    })?,
                    _ => (kind, rest),
                };
                let game = HeapGame::parse(game).map_err(|e| e.to_string())?;
                Ok(Component::Heaps {
                    game,
                    heaps: heaps(n)?,
                })
            }
        }
    }

    /// The component written back in the form it is read in.
    pub fn describe(&self) -> String {
        match self {
            Component::Heaps { game, heaps } => {
                let h: Vec<String> = heaps.iter().map(u64::to_string).collect();
                let h = if h.is_empty() {
                    "0".into()
                } else {
                    h.join(",")
                };
                match game {
                    HeapGame::Nim => format!("nim:{h}"),
                    HeapGame::Grundys => format!("grundys-game:{h}"),
                    HeapGame::Subtraction(t) => format!("sub:{}:{h}", take_text(t)),
                    HeapGame::Octal(c) => format!("{c}:{h}"),
                }
            }
            Component::Wythoff { x, y } => format!("wythoff:{x},{y}"),
            Component::Hackenbush {
                name,
                picture,
                alive,
            } => {
                let left = alive.iter().filter(|&&a| a).count();
                format!(
                    "hackenbush:{name} ({left} of {} edges)",
                    picture.edges.len()
                )
            }
            Component::Graph { name, graph, at } => {
                format!("graph:{name}:{}", graph.names[*at])
            }
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            Component::Heaps { heaps, .. } => heaps.iter().all(|&h| h == 0),
            Component::Hackenbush { alive, .. } => !alive.contains(&true),
            _ => false,
        }
    }

    /// How many options there are, about: a direct search must not build more.
    fn option_count(&self) -> u128 {
        match self {
            Component::Heaps { game, heaps } => heaps
                .iter()
                .map(|&h| game.options_at(h))
                .fold(0u128, u128::saturating_add),
            Component::Wythoff { x, y } => (*x + *y + x.min(y)) as u128,
            Component::Hackenbush { alive, .. } => alive.len() as u128,
            Component::Graph { graph, at, .. } => graph.moves[*at].len() as u128,
        }
    }

    /// Every move, in words, with the component it leaves.
    pub fn options(&self) -> Vec<(String, Component)> {
        let mut out = Vec::new();
        match self {
            Component::Heaps { game, heaps } => {
                for (i, &h) in heaps.iter().enumerate() {
                    // Equal heaps have the same moves: the first of them stands for all.
                    if heaps[..i].contains(&h) {
                        continue;
                    }
                    game.for_each_option(h, |take, a, b| {
                        let mut next = heaps.clone();
                        next[i] = a;
                        next.push(b);
                        let m = super::octal::HeapMove {
                            heap: i,
                            take,
                            leaves: a + b,
                            into: (a > 0).then_some([a, b]),
                        };
                        out.push((
                            m.describe(heaps),
                            Component::Heaps {
                                game: game.clone(),
                                heaps: misere::canonical(&next),
                            },
                        ));
                    });
                }
            }
            Component::Wythoff { x, y } => {
                for m in wythoff::all_moves(*x, *y) {
                    out.push((
                        m.describe(),
                        Component::Wythoff {
                            x: m.leaves[0],
                            y: m.leaves[1],
                        },
                    ));
                }
            }
            Component::Hackenbush {
                name,
                picture,
                alive,
            } => {
                for e in (0..alive.len()).filter(|&e| alive[e]) {
                    out.push((
                        picture.describe(e),
                        Component::Hackenbush {
                            name: name.clone(),
                            picture: picture.clone(),
                            alive: picture.cut(alive, e),
                        },
                    ));
                }
            }
            Component::Graph { name, graph, at } => {
                for &f in &graph.moves[*at] {
                    out.push((
                        format!("move to {}", graph.names[f]),
                        Component::Graph {
                            name: name.clone(),
                            graph: graph.clone(),
                            at: f,
                        },
                    ));
                }
            }
        }
        out
    }
}

fn take_text(t: &TakeSet) -> String {
    match t {
        TakeSet::Range { min, max } => format!("{min}..{max}"),
        TakeSet::Set(v) => v.iter().map(u64::to_string).collect::<Vec<_>>().join(","),
    }
}

/// Tables shared by the components of one sum.
#[derive(Default)]
pub struct Cache {
    /// A heap game's values and the period found in them.
    heaps: HashMap<HeapGame, (Vec<u32>, Option<Periodicity>)>,
    wythoff: Option<Vec<Vec<u32>>>,
    graphs: HashMap<usize, Vec<GValue>>,
}

impl Cache {
    /// A heap game's values reaching `top`: through the period its search certifies, so a
    /// heap of any size is answered, else computed up to `top`, refused when that would take
    /// too long.
    pub fn heap_values(
        &mut self,
        game: &HeapGame,
        top: u64,
    ) -> Result<(&[u32], Option<&Periodicity>), String> {
        let (values, period) = self
            .heaps
            .entry(game.clone())
            .or_insert_with(|| game.search_period(0, MAX_COST));
        let certified = period.as_ref().is_some_and(|p| p.certified);
        if values.len() as u64 <= top && !certified {
            let cost = game.cost(top);
            if cost > MAX_COST {
                let why = match game {
                    HeapGame::Grundys => "Grundy's game is not known to be periodic".to_string(),
                    _ => format!(
                        "no period is certified within its first {} values",
                        values.len()
                    ),
                };
                return Err(format!(
                    "a heap of {top} in {}: {why}, and its values up to {top} would take about \
                     {cost} steps, more than the {MAX_COST} allowed",
                    game.name()
                ));
            }
            *values = game.values(top);
        }
        Ok((values.as_slice(), period.as_ref()))
    }

    fn wythoff(&mut self, x: u64, y: u64) -> u32 {
        let side = x.max(y) + 1;
        if self
            .wythoff
            .as_ref()
            .is_none_or(|t| (t.len() as u64) < side)
        {
            let side = side.next_power_of_two().min(wythoff::MAX_TABLE);
            self.wythoff = Some(wythoff::grundy_table(side, side));
        }
        self.wythoff.as_ref().expect("tabled")[y as usize][x as usize]
    }

    fn graph(&mut self, graph: &Arc<MoveGraph>) -> &[GValue] {
        self.graphs
            .entry(Arc::as_ptr(graph) as usize)
            .or_insert_with(|| graph.values())
    }

    /// A component's (generalised) Sprague–Grundy value.
    pub fn value(&mut self, c: &Component) -> Result<GValue, String> {
        Ok(match c {
            Component::Heaps { game, heaps } => {
                if *game == HeapGame::Nim {
                    let xor = heaps.iter().fold(0u64, |a, &h| a ^ h);
                    GValue::Finite(xor.try_into().map_err(|_| {
                        format!(
                            "the Nim heaps' XOR is {xor}: values in a sum go up to {} (2^32 - 1); \
                             lifelab nim takes any heaps",
                            u32::MAX
                        )
                    })?)
                } else {
                    let top = heaps.iter().copied().max().unwrap_or(0);
                    let (values, period) = self.heap_values(game, top)?;
                    let g = |h| HeapGame::value_at(values, period, h).expect("the values reach it");
                    GValue::Finite(heaps.iter().fold(0, |a, &h| a ^ g(h)))
                }
            }
            Component::Wythoff { x, y } => GValue::Finite(self.wythoff(*x, *y)),
            Component::Hackenbush { picture, alive, .. } => GValue::Finite(picture.value(alive)),
            Component::Graph { graph, at, .. } => self.graph(graph)[*at].clone(),
        })
    }

    /// The moves of a component to a position of finite value `need` (at most
    /// [`octal::MAX_LISTED`] of a heap game's), and how many there are.
    pub fn moves_to(
        &mut self,
        c: &Component,
        need: u32,
    ) -> Result<(Vec<(String, Component)>, u64), String> {
        if let Component::Heaps {
            game: HeapGame::Nim,
            heaps,
        } = c
        {
            // Only the heap whose XOR with the rest gives `need` can be lowered to it.
            let total = heaps.iter().fold(0u64, |a, &h| a ^ h);
            let mut out = Vec::new();
            for (i, &h) in heaps.iter().enumerate() {
                let to = h ^ total ^ need as u64;
                if to < h {
                    let mut next = heaps.clone();
                    next[i] = to;
                    let m = super::octal::HeapMove {
                        heap: i,
                        take: h - to,
                        leaves: to,
                        into: None,
                    };
                    out.push((
                        m.describe(heaps),
                        Component::Heaps {
                            game: HeapGame::Nim,
                            heaps: misere::canonical(&next),
                        },
                    ));
                }
            }
            let n = out.len() as u64;
            return Ok((out, n));
        }
        if let Component::Heaps { game, heaps } = c {
            // By the values, through the period for a huge heap: its options are never built.
            let top = heaps.iter().copied().max().unwrap_or(0);
            let (values, period) = self.heap_values(game, top)?;
            let found = octal::moves_to_value(game, values, period, heaps, need, octal::MAX_LISTED)
                .map_err(|n| {
                    format!("the value of a heap of {n} in {} is not known", game.name())
                })?;
            let listed = found
                .moves
                .iter()
                .map(|m| {
                    let next: Vec<u64> = octal::apply(heaps, m)
                        .into_iter()
                        .filter(|&h| h > 0)
                        .collect();
                    (
                        m.describe(heaps),
                        Component::Heaps {
                            game: game.clone(),
                            heaps: next,
                        },
                    )
                })
                .collect();
            return Ok((listed, found.count));
        }
        if let Component::Hackenbush {
            name,
            picture,
            alive,
        } = c
        {
            // Each cut is tried and dropped unless it is wanted: making every follower first
            // held a copy of the picture per edge (a 20,000-edge star took 409 MB and 40 s).
            let left = alive.iter().filter(|&&a| a).count();
            if left > super::hackenbush::MAX_CUT_EDGES {
                return Err(format!(
                    "hackenbush:{name} has {left} edges: trying every cut for a winning move is limited to {} edges",
                    super::hackenbush::MAX_CUT_EDGES
                ));
            }
            let mut out = Vec::new();
            for e in (0..alive.len()).filter(|&e| alive[e]) {
                let cut = picture.cut(alive, e);
                if picture.value(&cut) == need {
                    out.push((
                        picture.describe(e),
                        Component::Hackenbush {
                            name: name.clone(),
                            picture: picture.clone(),
                            alive: cut,
                        },
                    ));
                }
            }
            let n = out.len() as u64;
            return Ok((out, n));
        }
        let mut out = Vec::new();
        for (text, next) in c.options() {
            if self.value(&next)? == GValue::Finite(need) {
                out.push((text, next));
            }
        }
        let n = out.len() as u64;
        Ok((out, n))
    }
}

/// A winning move of a sum: in component `component` (counted from 0), the move `move`, leaving
/// that component as `leaves`.
#[derive(Clone, Debug, Serialize)]
pub struct SumMove {
    pub component: usize,
    pub r#move: String,
    pub leaves: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grundy_after: Option<u32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SumReport {
    pub components: Vec<String>,
    pub values: Vec<GValue>,
    /// The sum's value: the XOR, or ∞ when play can go on for ever.
    pub value: GValue,
    pub first_player_wins: bool,
    pub draw: bool,
    /// The winning moves, at most [`octal::MAX_LISTED`] per component.
    pub winning_moves: Vec<SumMove>,
    /// How many winning moves there are (more than listed for a huge heap that splits).
    pub winning_move_count: u64,
}

/// The value of the sum under normal play and every winning move.
pub fn analyse(components: &[Component]) -> Result<SumReport, String> {
    let mut cache = Cache::default();
    let values = components
        .iter()
        .enumerate()
        .map(|(k, c)| {
            cache
                .value(c)
                .map_err(|e| format!("component {}: {e}", k + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let value = values.iter().fold(GValue::Finite(0), |acc, v| acc.add(v));
    let outcome = value.outcome();
    let mut winning = Vec::new();
    let mut count = 0u64;
    if outcome == Value::Win {
        for (k, c) in components.iter().enumerate() {
            // The value the component must reach: the XOR of all the others.
            let rest = values
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .fold(GValue::Finite(0), |acc, (_, v)| acc.add(v));
            let Some(need) = rest.finite() else { continue };
            let (moves, n) = cache
                .moves_to(c, need)
                .map_err(|e| format!("component {}: {e}", k + 1))?;
            count = count.saturating_add(n);
            for (text, next) in moves {
                winning.push(SumMove {
                    component: k,
                    r#move: text,
                    leaves: next.describe(),
                    grundy_after: Some(need),
                });
            }
        }
    }
    Ok(SumReport {
        components: components.iter().map(Component::describe).collect(),
        values,
        first_player_wins: outcome == Value::Win,
        draw: outcome == Value::Draw,
        value,
        winning_moves: winning,
        winning_move_count: count,
    })
}

/// A sum under misère play, by direct search.
#[derive(Clone, Debug, Serialize)]
pub struct MisereReport {
    pub components: Vec<String>,
    pub misere: bool,
    pub first_player_wins: bool,
    pub draw: bool,
    pub positions_searched: usize,
    pub winning_moves: Vec<SumMove>,
}

struct SumRules;

impl Rules for SumRules {
    type State = Vec<Component>;
    fn options(&self, s: &Vec<Component>) -> Vec<Vec<Component>> {
        let mut out = Vec::new();
        for (k, c) in s.iter().enumerate() {
            for (_, next) in c.options() {
                let mut state = s.clone();
                if next.is_empty() {
                    state.remove(k);
                } else {
                    state[k] = next;
                }
                out.push(state);
            }
        }
        out
    }
}

fn live(components: &[Component]) -> Vec<Component> {
    components
        .iter()
        .filter(|c| !c.is_empty())
        .cloned()
        .collect()
}

pub fn analyse_misere(components: &[Component], limit: usize) -> Result<MisereReport, String> {
    if let Some(c) = components.iter().find(|c| c.option_count() > limit as u128) {
        return Err(format!(
            "{}: too many moves for a direct search (more than {limit})",
            c.describe()
        ));
    }
    let start = live(components);
    let solved = misere::search(&SumRules, start.clone(), true, limit)
        .map_err(|e: SearchError| e.to_string())?;
    let value = solved.value(&start).expect("the start is searched");
    let mut winning = Vec::new();
    for (k, c) in components.iter().enumerate() {
        for (text, next) in c.options() {
            let mut after = components.to_vec();
            after[k] = next.clone();
            if solved.value(&live(&after)) == Some(Value::Loss) {
                winning.push(SumMove {
                    component: k,
                    r#move: text,
                    leaves: next.describe(),
                    grundy_after: None,
                });
            }
        }
    }
    Ok(MisereReport {
        components: components.iter().map(Component::describe).collect(),
        misere: true,
        first_player_wins: value == Value::Win,
        draw: value == Value::Draw,
        positions_searched: solved.states(),
        winning_moves: winning,
    })
}
