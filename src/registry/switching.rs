//! What `auto` makes where two engines could both run a long stretch and which is cheaper
//! depends on the pattern, not on its size:
//! - on a torus, a dense and the sparse engine: the cheaper one now, looked at again every so
//!   often and swapped for the other when the pattern has changed character. A soup starts
//!   dense (every tile changes) and settles into ash that barely changes; a methuselah can grow
//!   into a crowd.
//! - a rule file's rule on the plane, the rule-tree engine and HashLife over N states: each runs
//!   a short stretch, and the run goes on with the one that did less work. A self-replicator's
//!   loops and tape repeat, and HashLife skips them (Codd's coders-demo to 1000 generations:
//!   0.5 ms against 16 ms); a gas never repeats, and HashLife makes a new node for nearly every
//!   block (Golly's HPP-demo: 19 s against 0.17 s).
//! - a crowded pattern of a rule of the 3x3 block (non-totalistic, MAP) on the plane, the tile
//!   engine and HashLife, the same way: the rule's circuit costs several times Life's, so the
//!   guns and puffers whose output repeats are HashLife's (Golly's horiship-guns to 1000: 8 ms
//!   against 69 ms), the debris that churns the tile engine's.
//!
//! - for a rule of the 3x3 block, where a second core is free, the same two raced: a run
//!   made in one long step (the command line's `run`) runs the one `auto` chose here and the
//!   other on that core, and goes on with the one that gets there first. No early measure
//!   tells them apart on Golly's small non-totalistic patterns (the seventeenth session's
//!   trials, BENCHMARKS.md): limited-spacefiller to 1000 generations is 1.5 ms tile by tile
//!   against HashLife's 6.2 ms, intergalactic-cruise-ship-factory 4.5 ms against 0.5 ms, and
//!   their first generations look alike. A crowded pattern's trial comes first, HashLife's
//!   side of it on the second core: a HashLife that churns stops there, its memory and its
//!   core given back to a tile engine that may spread over both. A rule file's small pattern
//!   of two states is not raced: HashLife over N states runs it alone.
//!
//! The cells move across through the seam's tiles, at a whole generation.

use crate::engine::{
    Bounds, CellRect, Census, Engine, EngineError, EngineKind, EngineResult, Progress, Put,
    Sampled, Universe, Work,
};
use crate::grid::Grid;
use crate::pattern::macrocell::Macrocell;
use crate::rule::Rule;
use crate::tiles::TileMap;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::Request;
use super::beside::{Beside, race_beside, race_beside_owned};

/// Generations between looks on a torus.
const LOOK_EVERY: u64 = 1024;
/// Go sparse when at most this share of the tiles changed over two generations; go dense when
/// the sparse engine computes more than `DENSER` of them. The gap keeps it from swapping back
/// and forth.
const SPARSER: f64 = 0.25;
const DENSER: f64 = 0.6;
/// The shortest run `auto` makes a trial of: HashLife's two stretches on a gas cost tens of
/// times the tile engine's, which a shorter run would not win back.
pub const TRIAL_RUN: u64 = 512;
/// Generations the stepping engine of a race runs between looks at whether the jumping one
/// has finished: a look is one atomic load, and HashLife that wins waits at most this long.
const RACE_STRETCH: u64 = 8;
/// How much the stepping engine of a race does alone before the race begins: tiles computed
/// and generations stepped, each about 0.1 µs of the tile engine's on Golly's non-totalistic
/// patterns (0.35 ms in all). On a virtual machine of two vCPUs a race cost the tile engine
/// 0.3-0.5 ms however short its run: 0.15 ms to start the thread, 0.15 ms to build the rival
/// there, then a core shared with it (p384drifter to 1000 took 0.09 ms alone and 0.48 ms
/// raced, p42-knightship 0.27 and 0.66); both now end within it. A HashLife that wins starts
/// this much later: of head starts of 0, 0.2, 0.3, 0.5 and 0.8 ms, the first three cost
/// Golly's non-totalistic patterns the same in all, and 0 made the smallest pay the whole race
/// (BENCHMARKS.md, 2026-12-08). Counted in work, not time, so that whether a run races
/// depends on the pattern alone.
pub const HEAD_START: u64 = 4000;
/// Generations HashLife runs twice: once to make the pattern's nodes, once to be measured (a
/// pattern that repeats makes few new ones the second time, a gas as many as the first).
pub const MEMO_STRETCH: u64 = 16;

/// The two engines of a trial, by name, the generations the tile engine runs first, and how
/// many nodes HashLife may make in a generation for each tile the tile engine computed in one
/// and still go on, as (nodes, tiles).
#[derive(Clone, Copy, Debug)]
pub struct Trial {
    pub tiles: &'static str,
    pub hashlife: &'static str,
    pub probe: u64,
    nodes_per_tile: (u64, u64),
    /// Whether HashLife's stretches come first on a pattern that covers many tiles
    /// ([`Memo::First`]).
    hashlife_first: bool,
    /// Whether a HashLife that loses the trial in a long run may go on while it learns the
    /// pattern ([`Switching::chase`]).
    chases: bool,
}

impl Trial {
    /// A rule file's rule: the rule-tree engine and HashLife over N states, HashLife going on
    /// while it makes at most 6 nodes a generation for each tile computed in one. Measured on
    /// Golly's rule-file patterns that both engines run, at 1000 generations (BENCHMARKS.md),
    /// with the tile engine's stretch 16 generations: the loops and replicators that ran
    /// faster on HashLife made up to 4.8 (Margolus' TMGas: 10 ms against 30 ms), Life on the
    /// edge and on the slope, which ran 3–6 times slower on it, 7.5 and 7.0, the gases and the
    /// replicators that churn it 27 to 530. A loop's tiles computed are steady from the start,
    /// and a stretch of 16 generations was a quarter of the cost of one of 64, which was most
    /// of the run on Golly's small demos (Codd's sensing-demo: 0.8 ms of 4.5 ms). A stretch of
    /// 8 chose as 16 did on all 101 of Golly's rule-file patterns (1000 generations, the
    /// twelfth session), and saves 0.1–0.2 ms of the small demos' 3–6 ms.
    pub const RULE_FILE: Trial = Trial {
        tiles: "rule-tree",
        hashlife: "rule-hashlife",
        probe: 8,
        nodes_per_tile: (6, 1),
        hashlife_first: true,
        chases: true,
    };
    /// A two-state rule of the 3x3 block: the tile engine and HashLife, HashLife going on
    /// while it makes at most 4 nodes a generation for every 3 tiles computed in one. A node's
    /// lowest level is a 16x16 block run 4 generations through the rule's circuit, a tile's at
    /// most 64 rows run once. Measured on Golly's crowded non-totalistic patterns at 1000
    /// generations, with the tile engine's stretch 64 generations: horiship-guns made 0.26
    /// nodes in 16 generations for each tile computed in 64 and ran 5 ms on HashLife against
    /// 68 ms tile by tile; pondpuffer-spaceship made 0.81 and oscillators 2.0, and ran 21 ms
    /// and 15 ms tile by tile against 47 ms and 17 ms. (Oscillators to 10^4 takes HashLife
    /// 37 ms and the tile engine 138 ms: its first stretches do not show how much it will
    /// repeat.) A stretch of 16 chose as 64 did on all three of Golly's patterns that come to
    /// the trial (horiship-guns 1576 nodes for 1618 tiles; pondpuffer 4201 for 1652,
    /// oscillators 5161 for 680; the twelfth session), and horiship-guns to 1000 went from
    /// 12.2 to 9.6 ms: where HashLife wins, the tile engine's stretch is the trial's waste.
    pub const BLOCK_RULE: Trial = Trial {
        tiles: "tiles",
        hashlife: "hashlife",
        probe: 16,
        nodes_per_tile: (4, 3),
        hashlife_first: false,
        chases: false,
    };

    /// A rule file's rule of two states (Banks-I, Banks-III): the tile engine, which runs its
    /// table as a rule of the 3x3 block, and HashLife over N states, which memoises it better
    /// than the two-state one (`registry::memo_cost`), held to [`Trial::RULE_FILE`]'s
    /// allowance: the same HashLife, against tiles of the same size. Golly's collection has no
    /// crowded pattern of such a rule to measure it on.
    pub const TWO_STATE_FILE: Trial = Trial {
        tiles: "tiles",
        hashlife: "rule-hashlife",
        probe: 16,
        nodes_per_tile: (6, 1),
        hashlife_first: false,
        chases: false,
    };

    /// Whether HashLife's stretches come first on a pattern of many tiles ([`Memo::First`]).
    pub fn runs_hashlife_first(&self) -> bool {
        self.hashlife_first
    }

    /// Whether a HashLife that loses the trial in a long run may go on
    /// ([`Switching::chase`]).
    pub fn chases(&self) -> bool {
        self.chases
    }

    /// The most nodes HashLife may make in its measured stretch and still go on, against a
    /// tile engine that computed `tiles` in its probe: both counted per generation.
    fn most_nodes(&self, tiles: u64) -> u64 {
        let (nodes, per_tiles) = self.nodes_per_tile;
        nodes * tiles * MEMO_STRETCH / (self.probe * per_tiles)
    }
}

/// HashLife's first stretch of a trial, which makes the pattern's nodes, may make this many
/// times the nodes its measured stretch may, and `FIRST_STRETCH_FLOOR` more, before the trial
/// gives up on it. In their first stretch (the nodes of its import not counted), Golly's
/// horiship-guns, which HashLife wins, made 1.2 times its allowance; pondpuffer-spaceship,
/// which it loses, 2.6 times, and oscillators 10 times. At four times, pondpuffer's HashLife
/// went on to its measured stretch and was given up only there; at twice, the trial costs
/// pondpuffer to 1000 generations 0.8 ms less (19.1 ms of 19.9 ms, whole process) and
/// oscillators 0.7 ms less (BENCHMARKS.md, 2026-12-06).
const FIRST_STRETCH_TIMES: u64 = 2;
/// See [`FIRST_STRETCH_TIMES`]: a small pattern's first nodes are not held against it.
const FIRST_STRETCH_FLOOR: u64 = 1024;
/// Generations from the start of the first trial to the second, where the tile engine won the
/// first; each later one comes [`AGAIN_TIMES`] as far from the start as the last. A run
/// shorter than this makes one trial: a later one would cost more than it could save.
pub const AGAIN_FROM: u64 = 1024;

/// The generations a step must still have to run for a HashLife that lost a trial to go on
/// ([`Switching::chase`]); as [`AGAIN_FROM`], the least that a later trial is made for.
pub const CHASE_LEFT: u64 = AGAIN_FROM;
/// A HashLife that lost a trial and goes on ([`Switching::chase`]) steps in pieces of 16
/// generations, 32, 64..., and stops after a piece that made more than this many times the
/// nodes a generation its trial allowed, unless that is at least an eighth fewer than the
/// piece before made: a HashLife that is learning a constructor makes fewer nodes a generation
/// piece by piece, and one that a gas churns makes as many or more. Nodes a generation, piece
/// by piece from generation 8, in Golly's patterns: von Neumann's golly-constructor 683, 551,
/// 398, 300, 183, 72, 44, 34, 0 (its trial allowed 144) and Boustrophedon-replicator 1647,
/// 1140, 880, 718, 552, 108, 102, 124, 120, 112, 103, 86 (allowed 98), which HashLife alone
/// runs to 10^4 in 65 ms against 135 ms tile by tile, and to 10^5 in 5.1 s against 8.3 s;
/// Margolus DLA 3095, 2930, 2842, ... (allowed 288) and life-on-the-edge 74, 107, 275, 460,
/// ... (allowed 96) stop in their third piece (the first is not judged: it may go on from a
/// stretch of the trial stopped part way, whose nodes it finds made).
const CHASE_TIMES: u64 = 2;

/// How much further on each trial after the first puts the next.
const AGAIN_TIMES: u64 = 4;
/// The new nodes HashLife may make in the measured stretch of a trial after the first whose
/// probe computed no tile (see [`measure_settled`]).
const AGAIN_FLOOR: u64 = 64;

/// The tiles a pattern must cover for HashLife to run first in a trial that allows it
/// ([`Memo::First`]). Golly's rule-file patterns that cover this many or more are large
/// constructors and replicators whose probe computes thousands of tiles (NP-replicator: 6776
/// in 8 generations, 21 ms of a 29 ms run to 1000, where HashLife made 147 nodes in its
/// measured stretch); the smallest cover at most 4, and lose nothing to the probe.
pub const FIRST_TILES: u64 = 256;
/// Run first, HashLife's first stretch may make this many times the nodes of its import. On
/// Golly's rule-file patterns it made 3.8 to 4.5 times on those it then won (NP-replicator,
/// N-compressed-replicator, codon4 and codon5, Devore-rep), 8.4 and 9.5 times on
/// small-JvN-self-replicator and Hutton-replicator, where it churns.
const FIRST_STRETCH_PER_NODE: u64 = 8;

/// What the wrapper watches for.
enum Policy {
    /// The share of tiles changing, on a torus; the dense engine to use once a swap to one is
    /// due (on the CPU or the GPU).
    Activity { dense: Option<EngineKind> },
    /// A trial of a tile engine and HashLife on the plane, in three phases.
    Memo(Trial, Memo),
}

#[derive(Clone, Copy)]
enum Memo {
    /// Before the tile engine's probe, on a pattern that covers at least [`FIRST_TILES`]
    /// tiles (where the trial allows it): HashLife's two stretches run first, held to one new
    /// node in the measured stretch for each tile the pattern covers. Passing, HashLife goes
    /// on and the probe is never made; failing, the trial goes on as `Tiles`, and the nodes it
    /// may have made in vain are bounded by the pattern's size.
    First { from: u64 },
    /// The tile engine runs the first stretch; its tiles computed at the start. HashLife's two
    /// stretches then run within one look, whole, on a copy of the cells: in pieces (as a
    /// window's worker steps, a few generations at a time) HashLife would make the nodes of
    /// each piece's short steps too, and be measured on work the run itself never does; and
    /// the run's own steps go on on the tile engine, generation by generation where the
    /// caller records each one. `again`: a trial after one the tile engine won.
    Tiles { from: u64, again: bool },
    /// The tile engine won the last trial, and at generation `at` another begins, with a
    /// probe of its own: a constructor or a replicator whose first generations churn HashLife
    /// may repeat later (von Neumann's golly-constructor to 10^4: 128 ms tile by tile, 84 ms
    /// on HashLife alone, which lost the trial at generation 8). Each trial puts the next
    /// four times as far from the start, so that a gas pays for a handful in a long run. A
    /// raced trial (`Switching::race`) is the whole run's, and is not made again.
    Again { at: u64 },
    /// HashLife won, and waits (in `Switching::ahead`) at generation `at`, which the tile
    /// engine is catching up with; then it takes over.
    Catching { at: u64 },
    /// Chosen: the run goes on where it is.
    Chosen,
}

/// The jumping engine of a race, when it stopped: the generations it ran from the race's
/// start, and its trial where one was made (whether it won it, and why).
struct Jumper {
    engine: Box<dyn Engine>,
    done: u64,
    trial: Option<(bool, String)>,
}

/// Why the jumping engine of a race stopped short of its end.
enum Failure {
    /// It could not be made, or could not take the cells.
    Setup,
    /// Its step failed.
    Step(EngineError),
}

/// Sets the flag when dropped.
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Sets the flag when dropped by a panic's unwinding.
struct SetIfPanicking<'a>(&'a AtomicBool);

impl Drop for SetIfPanicking<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Release);
        }
    }
}

/// Cancels the progress when dropped.
struct CancelOnDrop<'a>(&'a Progress);

impl Drop for CancelOnDrop<'_> {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// What a stretch of steps records of each generation: nothing, the population, the census.
enum Sink<'a> {
    Nothing,
    Populations(&'a mut Vec<u64>),
    Census(&'a mut Vec<Census>),
}

pub struct Switching {
    inner: Box<dyn Engine>,
    request: Request,
    policy: Policy,
    since_look: u64,
    /// (generation, engine, why) at each swap.
    history: Vec<(u64, &'static str, String)>,
    /// A trial's HashLife that won, ahead of the run, and why it won.
    ahead: Option<(Box<dyn Engine>, String)>,
    /// The engine, by name, that a step of the whole run races the one inside against, on a
    /// second thread ([`Switching::race`]); taken by the race, or by a trial made here.
    rival: Option<&'static str>,
    /// `auto` chose the rival, and the engine inside is there for a race's head start only:
    /// a step that is not a race (a window's pieces, a run resumed) hands the run over to the
    /// rival first ([`Switching::hand_over`]), and until then the rival is the engine named.
    rival_chosen: bool,
    /// The work of a race's head start ([`HEAD_START`]; a test sets none).
    head_start: u64,
    /// The generation the first trial began at, from which later ones are placed.
    began: u64,
    /// HashLife made from the cells a pattern was imported with while [`Memo::First`] is still
    /// to come: its stretches start from it, and the tile engine's cells are not exported
    /// again to make it (NP-replicator: 5.7 ms of a run of 37 ms to 1000). An edit drops it,
    /// once the engine inside has the cells.
    loaded: Option<Loaded>,
    /// The HashLife of the trial the last look made, where it lost a trial that chases, with
    /// the new nodes the trial allowed it in [`MEMO_STRETCH`] generations: a step that runs
    /// the whole of a long run lets it go on ([`Switching::chase`]).
    lost: Option<(Box<dyn Engine>, u64)>,
}

/// See [`Switching::loaded`].
struct Loaded {
    memo: Box<dyn Engine>,
    /// The tiles the cells cover.
    covered: u64,
    /// The engine inside has not been given the cells yet: a HashLife that passes goes on
    /// without them ever being laid out tile by tile (NP-replicator: 6 ms more). Whatever
    /// reads or edits the cells first gives them to it ([`Switching::settle`]).
    deferred: bool,
}

impl Switching {
    /// Between a dense and the sparse engine on a torus, starting with `inner`.
    pub fn new(inner: Box<dyn Engine>, request: Request) -> Switching {
        let dense =
            matches!(inner.kind(), EngineKind::Dense | EngineKind::Gpu).then(|| inner.kind());
        Self::wrapping(inner, request, Policy::Activity { dense }, None)
    }

    fn wrapping(
        inner: Box<dyn Engine>,
        request: Request,
        policy: Policy,
        rival: Option<&'static str>,
    ) -> Switching {
        Switching {
            inner,
            request,
            policy,
            since_look: 0,
            history: Vec::new(),
            ahead: None,
            rival,
            began: 0,
            loaded: None,
            lost: None,
            rival_chosen: false,
            head_start: HEAD_START,
        }
    }

    /// A trial of `trial`'s tile engine and HashLife on the plane: `tiles` (the first of
    /// them) runs first. `race`: where the trial is still to make when a long step comes,
    /// HashLife's side of it runs on a second thread, and a HashLife that passes races the tile
    /// engine to the end of the step.
    pub fn tiles_or_memo(
        tiles_engine: Box<dyn Engine>,
        trial: Trial,
        request: Request,
        race: bool,
    ) -> Switching {
        let from = tiles(tiles_engine.as_ref());
        let phase = if trial.hashlife_first {
            Memo::First { from }
        } else {
            Memo::Tiles { from, again: false }
        };
        let policy = Policy::Memo(trial, phase);
        Self::wrapping(
            tiles_engine,
            request,
            policy,
            race.then_some(trial.hashlife),
        )
    }

    /// `auto`'s choice `rival` (one of `trial`'s two), whose step of the whole run races
    /// `inner` (the other) after `inner`'s head start ([`HEAD_START`]); any other step is
    /// `rival`'s alone ([`Switching::hand_over`]). There is no trial.
    pub fn racing(
        inner: Box<dyn Engine>,
        trial: Trial,
        rival: &'static str,
        request: Request,
    ) -> Switching {
        let mut s = Self::wrapping(
            inner,
            request,
            Policy::Memo(trial, Memo::Chosen),
            Some(rival),
        );
        s.rival_chosen = true;
        s
    }

    /// The rival, where `auto` chose it and it has not been handed the run yet.
    fn chosen_rival(&self) -> Option<super::EngineSpec> {
        self.rival
            .filter(|_| self.rival_chosen)
            .and_then(super::find)
    }

    /// Where `auto` chose the rival ([`Switching::racing`]), makes it the engine inside, from
    /// the cells as they are, for a step that is not a race; the engine inside becomes the
    /// rival a later step of the whole run races. Where the rival cannot be made, the engine
    /// inside goes on.
    fn hand_over(&mut self) -> EngineResult<()> {
        if !std::mem::take(&mut self.rival_chosen) {
            return Ok(());
        }
        let Some(rival) = self.rival else {
            return Ok(());
        };
        self.settle()?;
        let cells = self.inner.export()?;
        if let Ok(e) = engine_at(rival, &self.request, &cells, self.inner.generation()) {
            self.rival = Some(self.inner.name());
            self.inner = e;
        }
        Ok(())
    }

    /// Whether a step of `generations` is a race: a long one that runs the whole of the run
    /// `auto` chose for (the command line's `run`; a window's pieces of a go-to never race,
    /// and keep `auto`'s engine), before any trial was made on this thread (which ends the
    /// chance of one).
    fn races(&self, generations: u64) -> bool {
        self.rival.is_some()
            && generations >= TRIAL_RUN
            && generations >= self.request.workload.generations
    }

    /// Whether a step of `generations` lets a HashLife that loses a trial go on
    /// ([`Switching::chase`]): a trial that chases, and a step that runs the whole of the run
    /// `auto` chose for, as a race's does ([`Switching::races`]; a window's pieces do not).
    fn chases(&self, generations: u64) -> bool {
        matches!(self.policy, Policy::Memo(trial, _) if trial.chases)
            && generations >= TRIAL_RUN
            && generations >= self.request.workload.generations
    }

    /// Steps the engine here alone, [`RACE_STRETCH`] generations at a time, for up to
    /// `generations` or until it has done [`HEAD_START`]'s work; returns the generations run.
    fn head_start(&mut self, generations: u64, progress: &Progress) -> EngineResult<u64> {
        let from = tiles(self.inner.as_ref());
        let mut done = 0;
        while done < generations
            && tiles(self.inner.as_ref()) - from + done < self.head_start
            && !progress.cancelled()
        {
            let n = RACE_STRETCH.min(generations - done);
            let did = self.step_counted(n, progress)?;
            done += did;
            if did < n {
                break;
            }
        }
        Ok(done)
    }

    /// Steps the engine inside `n` generations, counted towards the next look; returns the
    /// generations run (fewer where `progress` was cancelled).
    fn step_counted(&mut self, n: u64, progress: &Progress) -> EngineResult<u64> {
        let did = self.inner.step_with(n, progress)?;
        self.since_look += did;
        Ok(did)
    }

    /// Runs `generations` on two engines at once: the one that jumps (HashLife) whole on a
    /// second thread, the other here, [`RACE_STRETCH`] generations at a time (where `auto`
    /// chose HashLife, the other way round: [`Switching::jump_here`]); the first to
    /// finish goes on with the run and the other is stopped (HashLife through its `Progress`,
    /// the tile engine at its next look at the flag). Both are exact, so which one wins
    /// changes only the time. Where a trial is due, it is made first, its HashLife side on the
    /// second thread while the tile engine goes on: a HashLife that a gas churns stops there,
    /// its memory and its core given back. A race cancelled part way keeps the engine that got
    /// further, and the next long step races again. Returns the generations run (fewer where
    /// `progress` was cancelled).
    fn race(&mut self, generations: u64, progress: &Progress) -> EngineResult<u64> {
        if progress.cancelled() {
            return Ok(0);
        }
        self.settle()?;
        // The race decides the engine from here on.
        self.rival_chosen = false;
        let Some(rival) = self.rival.take() else {
            return self.step_inside(generations, progress, false);
        };
        let due = match self.policy {
            Policy::Memo(trial, Memo::Tiles { from, .. } | Memo::First { from }) => {
                Some((trial, from))
            }
            _ => None,
        };
        // The trial's probe, on the tile engine, here; cancelled, it is still to make.
        let mut probed = 0;
        let mut measured = None;
        if let Some((trial, from)) = due {
            // A window's pieces may have run part of the probe already.
            let n = trial.probe.saturating_sub(self.since_look).min(generations);
            probed = self.inner.step_with(n, progress)?;
            self.since_look += probed;
            if probed < n {
                self.rival = Some(rival);
                return Ok(probed);
            }
            measured = Some((trial, tiles(self.inner.as_ref()) - from));
        }
        if let Policy::Memo(trial, _) = self.policy {
            self.policy = Policy::Memo(trial, Memo::Chosen);
        }
        let mut left = generations - probed;
        if measured.is_none() && !self.inner.jumps() {
            // The engine here runs alone first: a run it ends within `HEAD_START` never pays
            // for a race (a thread started, a rival built, a core shared with it).
            let from = self.inner.generation();
            let head = match self.head_start(left, progress) {
                Ok(head) => head,
                Err(e) => {
                    self.rival = Some(rival);
                    return Err(e);
                }
            };
            probed += head;
            left -= head;
            if left == 0 || progress.cancelled() {
                if left == 0 {
                    let why = format!(
                        "it ended the run within the head start it runs alone before it races the {rival} engine on a second thread"
                    );
                    self.history.push((from, self.inner.name(), why));
                }
                self.rival = Some(rival);
                return Ok(probed);
            }
            if head > 0 {
                let why = "alone for a head start, before the race".to_string();
                self.history.push((from, self.inner.name(), why));
            }
        }
        let start = self.inner.generation();
        let cells = self.inner.export()?;
        // The engine inside runs here, the other on a second thread: a thread can start late
        // (a virtual machine's idle core took up to 4 ms to wake, longer than the whole run of
        // many of Golly's small patterns), and then the race costs what the engine inside
        // alone would. HashLife that jumps here races the tile engine there.
        if self.inner.jumps() {
            return Ok(probed + self.jump_here(rival, left, start, &cells, progress)?);
        }
        let request = self.request.clone();
        let jumper_progress = Arc::new(Progress::new(left));
        let finished = Arc::new(AtomicBool::new(false));
        let jumper = {
            let (jumper_progress, finished) = (Arc::clone(&jumper_progress), Arc::clone(&finished));
            move || {
                // Set however the thread ends, a panic included: the stepping engine stops.
                let _finished = SetOnDrop(&finished);
                let made = engine_at(rival, &request, &cells, start);
                let mut e = made.map_err(|_| Failure::Setup)?;
                let trial = match measured {
                    Some((trial, tiles)) => {
                        Some(measure_probe(trial, tiles, e.as_mut()).map_err(Failure::Step)?)
                    }
                    None => None,
                };
                if trial.as_ref().is_none_or(|(wins, _)| *wins) {
                    let done = e.generation() - start;
                    e.step_with(left - done, &jumper_progress)
                        .map_err(Failure::Step)?;
                }
                let done = e.generation() - start;
                Ok(Jumper {
                    engine: e,
                    done,
                    trial,
                })
            }
        };
        let stepping = |started: bool| {
            if !started {
                // No thread: the stepping engine runs the step alone.
                return self.step_inside(left, progress, false);
            }
            // Cancels the jumping engine however this side ends, a panic included.
            let _stop = CancelOnDrop(&jumper_progress);
            let mut done = 0;
            loop {
                if done == left || finished.load(Ordering::Acquire) || progress.cancelled() {
                    break Ok(done);
                }
                let n = RACE_STRETCH.min(left - done);
                match self.inner.step_with(n, progress) {
                    Ok(did) if did == n => done += did,
                    Ok(did) => break Ok(done + did),
                    Err(e) => break Err(e),
                }
            }
        };
        // A stepping engine that ran the whole step needs nothing of the rival, unless a trial
        // was due (its outcome is the note, and the policy from here): it is left to stop on
        // its own.
        let whole = |r: &EngineResult<u64>| matches!(r, Ok(done) if *done == left);
        let trial_due = measured.is_some();
        let (jumped, stepped) =
            race_beside_owned("lifelab race", jumper, stepping, |r| trial_due || !whole(r));
        let jumped = match jumped {
            Beside::NotStarted => None,
            Beside::Left => {
                let race = format!(
                    "it raced the {rival} engine on a second thread and finished first, at generation {}",
                    start + left
                );
                self.history.push((start, self.inner.name(), race));
                return Ok(probed + left);
            }
            Beside::Done(jumped) => Some(jumped),
        };
        let stepped = stepped?;
        match jumped {
            // No thread: `stepped` is the whole step.
            None => return Ok(probed + stepped),
            // A rival that could not be made or take the cells, or that ran out of memory,
            // only lost the race. Another error is the run's, unless the stepping engine
            // finished anyway (HashLife refuses 2^56 generations at a time, as it would have
            // alone).
            Some(Err(Failure::Setup)) | Some(Err(Failure::Step(EngineError::Memory(_)))) => {}
            Some(Err(Failure::Step(e))) => {
                if stepped < left && !progress.cancelled() {
                    return Err(e);
                }
            }
            Some(Ok(jumper)) => {
                let won = jumper.done == left && stepped < left;
                let (winner, loser) = if won {
                    (jumper.engine.name(), self.inner.name())
                } else {
                    (self.inner.name(), jumper.engine.name())
                };
                let race = format!(
                    "it raced the {loser} engine on a second thread and finished first, at generation {}",
                    start + left
                );
                match jumper.trial {
                    // HashLife lost the trial: the tile engine goes on alone, as after a trial.
                    Some((false, why)) => self.history.push((start, self.inner.name(), why)),
                    Some((true, why)) if won || stepped == left => {
                        self.history.push((start, winner, format!("{why}; {race}")));
                    }
                    None if won || stepped == left => self.history.push((start, winner, race)),
                    // Cancelled before either finished: the one that got further stays, and
                    // the next long step races again.
                    _ => {
                        if jumper.done > stepped {
                            self.rival = Some(self.inner.name());
                            self.inner = jumper.engine;
                            progress.advance(jumper.done - stepped);
                            return Ok(probed + jumper.done);
                        }
                        self.rival = Some(jumper.engine.name());
                        return Ok(probed + stepped);
                    }
                }
                if won {
                    self.inner = jumper.engine;
                    progress.advance(left - stepped);
                    return Ok(generations);
                }
            }
        }
        // The stepping engine stopped when the jumping one did: where that one lost its trial
        // or failed, the rest of the step.
        if stepped < left && !progress.cancelled() {
            return Ok(probed + stepped + self.step_inside(left - stepped, progress, false)?);
        }
        Ok(probed + stepped)
    }

    /// [`Switching::race`] the other way round: the engine inside (HashLife, `auto`'s choice)
    /// jumps `left` generations here, whole, while `rival` (the tile engine) is made from
    /// `cells` and steps on a second thread, [`RACE_STRETCH`] generations at a time; the first
    /// to finish stops the other. The rival's steps count in `progress`, as the stepping
    /// engine's do the other way round, and it passes a cancel of `progress` on to the jump.
    fn jump_here(
        &mut self,
        rival: &'static str,
        left: u64,
        start: u64,
        cells: &TileMap,
        progress: &Progress,
    ) -> EngineResult<u64> {
        let request = self.request.clone();
        let jump = Progress::new(left);
        // `stop`: the jump ended other than for want of memory (where it did, the rival runs
        // the step to its end); `ended`: it ended.
        let (stop, ended) = (AtomicBool::new(false), AtomicBool::new(false));
        let stepper = || {
            let stepped = (!stop.load(Ordering::Acquire))
                .then(|| engine_at(rival, &request, cells, start).ok())
                .flatten()
                .map(|mut e| {
                    let mut done = 0;
                    let failed = loop {
                        if done == left || stop.load(Ordering::Acquire) || progress.cancelled() {
                            break None;
                        }
                        let n = RACE_STRETCH.min(left - done);
                        match e.step_with(n, progress) {
                            Ok(did) if did == n => done += did,
                            Ok(did) => {
                                done += did;
                                break None;
                            }
                            Err(err) => break Some(err),
                        }
                    };
                    (e, done, failed)
                });
            if matches!(stepped, Some((_, done, _)) if done == left) || progress.cancelled() {
                jump.cancel();
            } else {
                // Lost, or could not run: the jump goes on alone, and a cancel of the run
                // must still reach it.
                while !ended.load(Ordering::Acquire) {
                    if progress.cancelled() {
                        jump.cancel();
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
            }
            stepped
        };
        let (stepped, jumped) = race_beside("lifelab race", stepper, |started| {
            started.then(|| {
                // However the jump ends, a panic included, the rival stops waiting for it
                // (dropped last); a panic stops the rival's steps too.
                let _ended = SetOnDrop(&ended);
                let _stop = SetIfPanicking(&stop);
                let jumped = self.inner.step_with(left, &jump);
                if !matches!(jumped, Err(EngineError::Memory(_))) {
                    stop.store(true, Ordering::Release);
                }
                jumped
            })
        });
        let (Some(stepped), Some(jumped)) = (stepped, jumped) else {
            // No thread: the engine inside runs the step alone.
            return self.step_inside(left, progress, false);
        };
        let race = |loser: &str| {
            format!(
                "it raced the {loser} engine on a second thread and finished first, at generation {}",
                start + left
            )
        };
        let (stepper, stepped, failed) = match stepped {
            Some((e, done, failed)) => (Some(e), done, failed),
            None => (None, 0, None),
        };
        match jumped {
            Ok(done) if done == left => {
                self.history.push((start, self.inner.name(), race(rival)));
                progress.advance(left - stepped);
                Ok(left)
            }
            // The jump was stopped: the rival finished, or the run was cancelled.
            Ok(done) => {
                let Some(stepper) = stepper else {
                    progress.advance(done);
                    return Ok(done);
                };
                if stepped == left {
                    self.history
                        .push((start, stepper.name(), race(self.inner.name())));
                    self.inner = stepper;
                    return Ok(left);
                }
                // Cancelled before either finished: the one that got further stays, and the
                // next long step races again.
                if done > stepped || failed.is_some() {
                    self.rival = Some(rival);
                    progress.advance(done - stepped.min(done));
                    return Ok(done);
                }
                self.rival = Some(self.inner.name());
                self.inner = stepper;
                Ok(stepped)
            }
            // HashLife out of memory only lost the race; another failure is the run's, unless
            // the rival finished anyway.
            Err(err) => match (stepper, failed) {
                (Some(stepper), None)
                    if stepped == left || matches!(err, EngineError::Memory(_)) =>
                {
                    let why = race(self.inner.name());
                    self.inner = stepper;
                    if stepped == left {
                        self.history.push((start, self.inner.name(), why));
                        return Ok(left);
                    }
                    // Cancelled part way: the rival's generations stand.
                    Ok(stepped)
                }
                _ => Err(err),
            },
        }
    }

    /// `generations` on the engine inside, looking (and swapping) as due. `chase`: the step
    /// runs the whole of the run `auto` chose for ([`Switching::chases`]), and a HashLife that
    /// loses a trial may go on ([`Switching::chase`]).
    fn step_inside(
        &mut self,
        generations: u64,
        progress: &Progress,
        chase: bool,
    ) -> EngineResult<u64> {
        self.hand_over()?;
        let mut done = 0;
        while done < generations && !progress.cancelled() {
            if self.look_due(generations - done) {
                let extra = self.look(&mut Sink::Nothing, generations - done)?;
                done += extra;
                progress.advance(extra);
                let left = generations - done;
                if let Some((memo, allowance)) = self.lost.take()
                    && chase
                    && left >= CHASE_LEFT
                {
                    done += self.chase(memo, allowance, left, progress)?;
                }
                continue;
            }
            let n = self.stretch(generations - done);
            let did = self.step_counted(n, progress)?;
            done += did;
            if did < n {
                break;
            }
        }
        Ok(done)
    }

    /// Generations to the next look (None: no more looks).
    fn until_look(&self) -> Option<u64> {
        match self.policy {
            Policy::Activity { .. } => Some(LOOK_EVERY.saturating_sub(self.since_look)),
            Policy::Memo(_, Memo::Chosen) => None,
            Policy::Memo(_, Memo::First { .. }) => Some(0),
            Policy::Memo(_, Memo::Again { at }) => Some(at.saturating_sub(self.inner.generation())),
            Policy::Memo(trial, Memo::Tiles { .. }) => {
                Some(trial.probe.saturating_sub(self.since_look))
            }
            Policy::Memo(_, Memo::Catching { at }) => {
                Some(at.saturating_sub(self.inner.generation()))
            }
        }
    }

    /// The generations to run before the next look, out of `left` (at least one).
    fn stretch(&self, left: u64) -> u64 {
        self.until_look().map_or(left, |u| left.min(u.max(1)))
    }

    /// Whether a look is due now with `left` generations still to run (an activity look runs
    /// two of them).
    fn look_due(&self, left: u64) -> bool {
        let need = match self.policy {
            Policy::Activity { .. } => 2,
            Policy::Memo(..) => 1,
        };
        self.until_look() == Some(0) && left >= need
    }

    /// Steps `n` generations of the engine inside, recording each in `sink`.
    fn advance(&mut self, n: u64, sink: &mut Sink) -> EngineResult<()> {
        match sink {
            Sink::Nothing => self.inner.step(n),
            Sink::Populations(out) => self.inner.step_populations(n, out),
            Sink::Census(out) => self.inner.step_census(n, out),
        }
    }

    /// Steps `generations`, looking (and swapping) as due, recording each generation in
    /// `sink`.
    fn run(&mut self, generations: u64, mut sink: Sink) -> EngineResult<()> {
        self.hand_over()?;
        let mut left = generations;
        while left > 0 {
            if self.look_due(left) {
                left -= self.look(&mut sink, left)?;
                // Recorded generation by generation: HashLife does not go on.
                self.lost = None;
                continue;
            }
            let n = self.stretch(left);
            self.advance(n, &mut sink)?;
            left -= n;
            self.since_look += n;
        }
        Ok(())
    }

    /// The share of 64x64 tiles that changed over the next two generations (which it runs,
    /// recording them in `sink`).
    fn activity(&mut self, sink: &mut Sink) -> EngineResult<f64> {
        let tiles = self
            .request
            .universe
            .cells()
            .unwrap_or(1)
            .div_ceil(4096)
            .max(1) as f64;
        // The tile engine keeps its list of what the next generation computes; the others
        // are measured by what changes.
        if self.inner.kind() == EngineKind::Tiles
            && let Some(a) = self.inner.active_fraction()?
        {
            return Ok(a);
        }
        let before = self.inner.export()?;
        self.advance(2, sink)?;
        let after = self.inner.export()?;
        let mut changed = 0usize;
        for ((tx, ty), bits) in after.iter() {
            if before.tile(tx, ty) != Some(bits) {
                changed += 1;
            }
        }
        for ((tx, ty), _) in before.iter() {
            if after.tile(tx, ty).is_none() {
                changed += 1;
            }
        }
        Ok(changed as f64 / tiles)
    }

    /// Looks, and swaps if it is time to, with `left` generations still to run. Returns the
    /// generations the look itself ran (each recorded in `sink`).
    fn look(&mut self, sink: &mut Sink, left: u64) -> EngineResult<u64> {
        // HashLife's stretches may run the run's own generations only where none is recorded
        // and the run goes that far; otherwise the tile engine takes the cells now.
        if !(matches!(sink, Sink::Nothing) && left >= 2 * MEMO_STRETCH) {
            self.settle()?;
        }
        self.lost = None;
        self.since_look = 0;
        let before = self.inner.generation();
        match self.policy {
            Policy::Activity { .. } => self.look_at_activity(sink)?,
            Policy::Memo(trial, phase) => {
                self.look_at_work(trial, phase)?;
                // Where nothing is recorded of each generation, a HashLife that won goes on at
                // once from where its trial left it, if the run goes that far.
                let ahead = matches!(
                    self.policy,
                    Policy::Memo(_, Memo::Catching { at }) if at - before <= left
                );
                if matches!(sink, Sink::Nothing) && ahead {
                    self.take_over(trial);
                }
            }
        }
        Ok(self.inner.generation() - before)
    }

    fn look_at_activity(&mut self, sink: &mut Sink) -> EngineResult<()> {
        let activity = self.activity(sink)?;
        let sparse = self.inner.kind() == EngineKind::Tiles;
        let Policy::Activity { dense } = &mut self.policy else {
            return Ok(());
        };
        let target = if sparse && activity > DENSER {
            *dense.get_or_insert_with(|| super::dense_engine(&self.request))
        } else if !sparse && activity < SPARSER {
            EngineKind::Tiles
        } else {
            return Ok(());
        };
        let Some(spec) = super::find_kind(target) else {
            return Ok(());
        };
        let why = format!("{:.1}% of tiles changing", activity * 100.0);
        match super::create(spec.name, &self.request) {
            Ok((next, _)) => self.swap(next, why),
            // The run goes on where it is rather than fail for want of a faster engine.
            Err(EngineError::Memory(_)) => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn look_at_work(&mut self, trial: Trial, phase: Memo) -> EngineResult<()> {
        self.rival = None;
        let (from, again) = match phase {
            Memo::First { from } => {
                self.policy = Policy::Memo(trial, Memo::Tiles { from, again: false });
                return self.hashlife_first(trial);
            }
            Memo::Tiles { from, again } => (from, again),
            Memo::Catching { .. } => {
                // The tile engine has reached HashLife: the same cells, which HashLife holds
                // with its nodes made.
                self.take_over(trial);
                return Ok(());
            }
            Memo::Chosen => return Ok(()),
            Memo::Again { .. } => {
                // A new probe, on the run's own generations, and the trial at its end.
                let from = tiles(self.inner.as_ref());
                self.policy = Policy::Memo(trial, Memo::Tiles { from, again: true });
                return Ok(());
            }
        };
        self.policy = Policy::Memo(trial, Memo::Chosen);
        let tiles = tiles(self.inner.as_ref()) - from;
        let generation = self.inner.generation();
        if !again {
            self.began = generation.saturating_sub(trial.probe);
        }
        let why = match self.try_hashlife(trial, tiles, again) {
            Ok((memo, true, why)) => {
                let at = memo.generation();
                self.ahead = Some((memo, why));
                self.policy = Policy::Memo(trial, Memo::Catching { at });
                return Ok(());
            }
            Ok((memo, false, why)) => {
                if trial.chases {
                    // As the trial judged it: a probe that computed no tile, by the floor.
                    let allowance = if again && tiles == 0 {
                        AGAIN_FLOOR
                    } else {
                        trial.most_nodes(tiles)
                    };
                    self.lost = Some((memo, allowance));
                }
                why
            }
            // HashLife could not be made, or could not go on (out of memory, a pattern past
            // what its store holds): the run goes on where it is rather than fail for want of
            // a faster engine.
            Err(e) => format!("HashLife could not run: {e}"),
        };
        // A trial the tile engine won again adds to the note of the first it won.
        match self.history.last_mut() {
            Some((_, _, said)) if again => {
                said.push_str(&format!("; again at generation {generation}: {why}"));
            }
            _ => self.history.push((generation, self.inner.name(), why)),
        }
        let after = generation.saturating_sub(self.began);
        let at = self.began + after.saturating_mul(AGAIN_TIMES).max(AGAIN_FROM);
        self.policy = Policy::Memo(trial, Memo::Again { at });
        Ok(())
    }

    /// HashLife made from the tile engine's cells and measured after a probe that computed
    /// `tiles`: the engine, whether it won, and why.
    fn try_hashlife(
        &mut self,
        trial: Trial,
        tiles: u64,
        again: bool,
    ) -> EngineResult<(Box<dyn Engine>, bool, String)> {
        let cells = self.inner.export()?;
        let generation = self.inner.generation();
        let mut memo = engine_at(trial.hashlife, &self.request, &cells, generation)?;
        let (wins, why) = if again && tiles == 0 {
            measure_settled(trial, memo.as_mut())?
        } else {
            measure_probe(trial, tiles, memo.as_mut())?
        };
        Ok((memo, wins, why))
    }

    /// HashLife that lost the trial just made goes on from where its stretches left it, for the
    /// `left` generations of the step, in pieces of [`MEMO_STRETCH`] generations, twice that,
    /// four times..., while it learns the pattern: while each piece makes no more than
    /// [`CHASE_TIMES`] the nodes a generation that `allowance` (the trial's, in
    /// [`MEMO_STRETCH`] generations) gives, or an eighth fewer than the piece before. A
    /// constructor churns HashLife while it builds and repeats once built (see
    /// [`CHASE_TIMES`]): the trial's 16 generations cannot tell it from a gas, the pieces can.
    /// Reaching the end, HashLife goes on with the run; stopping, it hands its cells to the
    /// tile engine at the generation it reached, and the trials go on. Cancelled, or failing
    /// (out of memory), it is dropped and the tile engine goes on from where it was, as after a
    /// lost trial. Returns the generations run, which `progress` counts (HashLife's steps
    /// count in it as they go, and are taken back where it is dropped).
    fn chase(
        &mut self,
        mut memo: Box<dyn Engine>,
        allowance: u64,
        left: u64,
        progress: &Progress,
    ) -> EngineResult<u64> {
        let Policy::Memo(trial, _) = self.policy else {
            return Ok(0);
        };
        let start = self.inner.generation();
        let end = start + left;
        let counted = progress.get().0;
        let ran = |n: u64| {
            progress.set_done(counted + n);
            Ok(n)
        };
        // The nodes the piece before made, in `MEMO_STRETCH` generations; the first piece is
        // neither judged nor compared with (it may find the nodes of a stretch stopped part
        // way made).
        let mut before: Option<u64> = None;
        let mut first = true;
        let mut next = MEMO_STRETCH;
        let stopped = loop {
            if memo.generation() >= end {
                break None;
            }
            let piece = next.min(end - memo.generation());
            next = next.saturating_mul(2);
            let from = nodes(memo.as_ref());
            match memo.step_with(piece, progress) {
                Ok(did) if did == piece => {}
                // Cancelled, or HashLife cannot go on: the tile engine is where it was.
                _ => return ran(0),
            }
            // The last piece, which may be a few generations, is not judged: HashLife is
            // there.
            if std::mem::take(&mut first) || memo.generation() >= end {
                continue;
            }
            let made = (nodes(memo.as_ref()) - from) * MEMO_STRETCH / piece;
            let falling = before.is_some_and(|b| made * 8 <= b * 7);
            if before.is_some() && made > CHASE_TIMES * allowance && !falling {
                break Some(made);
            }
            before = Some(made);
        };
        let at = memo.generation();
        let Some(made) = stopped else {
            let why = format!(
                "HashLife, which lost the trial, went on in pieces of {MEMO_STRETCH} generations and more, making fewer nodes a generation piece by piece or no more than {CHASE_TIMES} times what the trial allowed"
            );
            self.history.push((start, memo.name(), why));
            self.inner = memo;
            self.policy = Policy::Memo(trial, Memo::Chosen);
            return ran(left);
        };
        // Cells too many to flatten leave the tile engine where it was.
        let Ok(cells) = memo.export() else {
            return ran(0);
        };
        if self.inner.import(&cells).is_err() {
            // The tile engine cannot hold them (out of memory): HashLife, which does, goes on.
            self.history.push((
                at,
                memo.name(),
                format!("the {} engine could not take HashLife's cells", trial.tiles),
            ));
            self.inner = memo;
            self.policy = Policy::Memo(trial, Memo::Chosen);
            return ran(at - start);
        }
        self.inner.set_generation(at);
        if let Some((_, _, said)) = self.history.last_mut() {
            said.push_str(&format!(
                "; HashLife went on to generation {at}, where it made {made} new nodes in {MEMO_STRETCH} generations, no fewer than the piece before and more than {CHASE_TIMES} times the {allowance} the trial allowed, and the {} engine took its cells",
                trial.tiles
            ));
        }
        let after = at.saturating_sub(self.began);
        let again = self.began + after.saturating_mul(AGAIN_TIMES).max(AGAIN_FROM);
        self.policy = Policy::Memo(trial, Memo::Again { at: again });
        ran(at - start)
    }

    /// [`Memo::First`]: HashLife's stretches on the cells as they are, before the tile
    /// engine's probe, where the pattern covers enough tiles; a HashLife that passes waits
    /// ahead, as after a probe.
    fn hashlife_first(&mut self, trial: Trial) -> EngineResult<()> {
        let generation = self.inner.generation();
        let loaded = match self.loaded.take() {
            Some(l) if l.memo.generation() == generation => Some(l),
            // Renumbered behind its back: the cells are still the ones loaded.
            Some(mut l) => {
                if l.deferred {
                    self.inner.import(&l.memo.export()?)?;
                }
                None
            }
            None => None,
        };
        let (mut memo, covered, deferred) = match loaded {
            Some(l) => (l.memo, l.covered, l.deferred),
            None => {
                let Ok(cells) = self.inner.export() else {
                    return Ok(());
                };
                let covered = cells.len() as u64;
                if covered < FIRST_TILES {
                    return Ok(());
                }
                // HashLife that cannot be made or go on leaves the trial as it would have been.
                let Ok(memo) = engine_at(trial.hashlife, &self.request, &cells, generation) else {
                    return Ok(());
                };
                (memo, covered, false)
            }
        };
        let imported = nodes(memo.as_ref());
        let measured = measure(FIRST_STRETCH_PER_NODE * imported, covered, memo.as_mut());
        if let Ok((true, made)) = measured {
            let at = memo.generation();
            let why = format!(
                "HashLife, run first on a pattern that covers {covered} tiles, made {made}: \
                 no more than one for each tile, so the {} engine's probe was not made",
                trial.tiles
            );
            self.ahead = Some((memo, why));
            self.policy = Policy::Memo(trial, Memo::Catching { at });
        } else if deferred {
            // The run's own cells are HashLife's, at the generation its stretches reached
            // (a stretch stopped part way ran none of its generations): the tile engine goes
            // on from there, with its probe.
            let at = memo.generation();
            self.inner.import(&memo.export()?)?;
            self.inner.set_generation(at);
        }
        Ok(())
    }

    /// The engine that holds the cells: HashLife while the engine inside waits for them. What
    /// only reads them asks it (a run's start reads the population and the box), and HashLife
    /// reads them from its nodes.
    fn holder(&mut self) -> &mut dyn Engine {
        match &mut self.loaded {
            Some(l) if l.deferred => l.memo.as_mut(),
            _ => self.inner.as_mut(),
        }
    }

    /// Gives the engine inside the cells a HashLife was made from at their import, where it
    /// has not had them yet.
    fn settle(&mut self) -> EngineResult<()> {
        if let Some(l) = &mut self.loaded
            && l.deferred
        {
            self.inner.import(&l.memo.export()?)?;
            l.deferred = false;
        }
        Ok(())
    }

    /// HashLife made from `tiles`, the cells just imported, where [`Memo::First`] will measure
    /// it: on a pattern that covers [`FIRST_TILES`] or more. `None` where HashLife cannot take
    /// them; the trial then makes it from the tile engine's cells, as it would have.
    fn hashlife_of_import(&self, tiles: &TileMap) -> Option<(Box<dyn Engine>, u64)> {
        let Policy::Memo(trial, Memo::First { .. }) = self.policy else {
            return None;
        };
        // As the tile engine would export them: its empty tiles are dropped.
        let covered = tiles
            .iter()
            .filter(|(_, b)| b.iter().any(|&w| w != 0))
            .count() as u64;
        if covered < FIRST_TILES {
            return None;
        }
        let memo = engine_at(
            trial.hashlife,
            &self.request,
            tiles,
            self.inner.generation(),
        );
        memo.ok().map(|memo| (memo, covered))
    }

    /// The HashLife waiting ahead goes on with the run.
    fn take_over(&mut self, trial: Trial) {
        self.policy = Policy::Memo(trial, Memo::Chosen);
        if let Some((memo, why)) = self.ahead.take() {
            self.history.push((memo.generation(), memo.name(), why));
            self.inner = memo;
        }
    }

    /// An edit: a HashLife waiting ahead holds cells that are no longer the run's, and the run
    /// stays where it is.
    fn edited(&mut self) {
        self.loaded = None;
        self.lost = None;
        if let Policy::Memo(trial, Memo::Catching { .. }) = self.policy {
            self.ahead = None;
            self.policy = Policy::Memo(trial, Memo::Chosen);
        }
    }

    fn swap(&mut self, mut next: Box<dyn Engine>, why: String) -> EngineResult<()> {
        let generation = self.inner.generation();
        next.import(&self.inner.export()?)?;
        next.set_generation(generation);
        self.history.push((generation, next.name(), why));
        self.inner = next;
        Ok(())
    }
}

/// The tiles a tile engine (two-state or a rule file's) has computed.
fn tiles(engine: &dyn Engine) -> u64 {
    engine.work().and_then(Work::tiles_computed).unwrap_or(0)
}

/// The engine `name` makes for `request`, holding `cells` at `generation`.
fn engine_at(
    name: &str,
    request: &Request,
    cells: &TileMap,
    generation: u64,
) -> EngineResult<Box<dyn Engine>> {
    let (mut e, _) = super::create(name, request)?;
    e.import(cells)?;
    e.set_generation(generation);
    Ok(e)
}

/// [`measure`] after the tile engine's probe, which computed `tiles`: whether HashLife may go
/// on, and why.
fn measure_probe(trial: Trial, tiles: u64, memo: &mut dyn Engine) -> EngineResult<(bool, String)> {
    let allowance = trial.most_nodes(tiles);
    let (wins, made) = measure(
        FIRST_STRETCH_TIMES * allowance + FIRST_STRETCH_FLOOR,
        allowance,
        memo,
    )?;
    let why = format!(
        "the {} engine computed {tiles} tiles in {} generations, HashLife made {made}",
        trial.tiles, trial.probe
    );
    Ok((wins, why))
}

/// [`measure_probe`] for a trial after the first whose probe computed no tile: the pattern
/// has settled into still lifes and period-2 oscillators, which cost the tile engine its
/// rounds of every generation and HashLife nothing once memoised (von Neumann's
/// construction-arm-demo to 10^4: 2 ms tile by tile, 0.2 ms on HashLife). HashLife's first
/// stretch may make [`FIRST_STRETCH_PER_NODE`] times the nodes it imported (the memo of a
/// pattern it has not seen), or the usual limit for an allowance of [`AGAIN_FLOOR`] where
/// that is more, and the measured one [`AGAIN_FLOOR`].
fn measure_settled(trial: Trial, memo: &mut dyn Engine) -> EngineResult<(bool, String)> {
    let first_limit = (FIRST_STRETCH_TIMES * AGAIN_FLOOR + FIRST_STRETCH_FLOOR)
        .max(FIRST_STRETCH_PER_NODE * nodes(memo));
    let (wins, made) = measure(first_limit, AGAIN_FLOOR, memo)?;
    let why = format!(
        "the {} engine computed no tile in {} generations, HashLife made {made}",
        trial.tiles, trial.probe
    );
    Ok((wins, why))
}

/// HashLife's two stretches on `memo`, the measured one allowed `allowance` new nodes:
/// whether HashLife may go on, and what it made (for the note). One stretch makes the
/// pattern's nodes; the second, measured, makes few where the pattern repeats and as many
/// again where it churns. Each stops where HashLife has made more nodes than could win (an
/// engine that cannot stop inside a step runs it whole): where the tile engine goes on, the
/// stretches are the trial's waste.
fn measure(
    first_limit: u64,
    allowance: u64,
    memo: &mut dyn Engine,
) -> EngineResult<(bool, String)> {
    let first = Progress::new(MEMO_STRETCH);
    first.stop_at_work(nodes(memo) + first_limit + 1);
    let first_lost = memo.step_with(MEMO_STRETCH, &first)? < MEMO_STRETCH;
    let before = nodes(memo);
    let second_lost = !first_lost && {
        let second = Progress::new(MEMO_STRETCH);
        second.stop_at_work(before + allowance + 1);
        memo.step_with(MEMO_STRETCH, &second)? < MEMO_STRETCH
    };
    let made = nodes(memo) - before;
    let hashlife = if first_lost {
        format!("more than {first_limit} new nodes in its first {MEMO_STRETCH}")
    } else if second_lost {
        format!("more than {allowance} new nodes in {MEMO_STRETCH}")
    } else {
        format!("{made} new nodes in {MEMO_STRETCH}")
    };
    // A second stretch that stopped made more than its allowance.
    Ok((!first_lost && made <= allowance, hashlife))
}

/// The nodes a HashLife engine has made.
fn nodes(engine: &dyn Engine) -> u64 {
    engine.work().and_then(Work::nodes_made).unwrap_or(0)
}

impl Engine for Switching {
    // Every method forwards to the engine inside, the defaults too (a test below holds the
    // list against the trait's): a default here would act on the wrapper, not on the engine.
    fn core(&self) -> &crate::engine::Core {
        self.inner.core()
    }

    fn core_mut(&mut self) -> &mut crate::engine::Core {
        self.inner.core_mut()
    }

    fn jumps(&self) -> bool {
        match self.chosen_rival() {
            // The rival of a race is a HashLife.
            Some(spec) => spec.kind == EngineKind::HashLife,
            None => self.inner.jumps(),
        }
    }

    fn name(&self) -> &'static str {
        match self.chosen_rival() {
            Some(spec) => spec.name,
            None => self.inner.name(),
        }
    }

    fn kind(&self) -> EngineKind {
        match self.chosen_rival() {
            Some(spec) => spec.kind,
            None => self.inner.kind(),
        }
    }

    fn rule(&self) -> &Rule {
        self.inner.rule()
    }

    fn universe(&self) -> Universe {
        self.inner.universe()
    }

    fn generation(&self) -> u64 {
        self.inner.generation()
    }

    fn set_generation(&mut self, generation: u64) {
        // The cells a pattern was loaded with, numbered: HashLife made from them keeps them.
        let loaded = self.loaded.take();
        self.edited();
        self.inner.set_generation(generation);
        self.loaded = loaded.map(|mut l| {
            l.memo.set_generation(generation);
            l
        });
    }

    fn step(&mut self, generations: u64) -> EngineResult<()> {
        if self.races(generations) {
            return self
                .race(generations, &Progress::new(generations))
                .map(|_| ());
        }
        if self.chases(generations) {
            let progress = Progress::new(generations);
            return self.step_inside(generations, &progress, true).map(|_| ());
        }
        self.run(generations, Sink::Nothing)
    }

    fn step_with(&mut self, generations: u64, progress: &Progress) -> EngineResult<u64> {
        if self.races(generations) {
            return self.race(generations, progress);
        }
        let chase = self.chases(generations);
        self.step_inside(generations, progress, chase)
    }

    fn step_piece(&self) -> u64 {
        self.inner.step_piece()
    }

    /// Steps as [`Engine::step`] does, with the device's time of each stretch summed (none
    /// once a stretch ran on an engine that does not time itself).
    fn step_timed(&mut self, generations: u64) -> EngineResult<Option<f64>> {
        let mut left = generations;
        let mut total = Some(0.0);
        while left > 0 {
            if self.look_due(left) {
                left -= self.look(&mut Sink::Nothing, left)?;
                self.lost = None;
                total = None;
                continue;
            }
            let n = self.stretch(left);
            let t = self.inner.step_timed(n)?;
            total = total.zip(t).map(|(a, b)| a + b);
            left -= n;
            self.since_look += n;
        }
        Ok(total)
    }

    fn active_fraction(&mut self) -> EngineResult<Option<f64>> {
        self.settle()?;
        self.inner.active_fraction()
    }

    fn work(&self) -> Option<Work> {
        self.inner.work()
    }

    fn grid(&mut self) -> EngineResult<Grid> {
        self.settle()?;
        self.inner.grid()
    }

    fn set_grid(&mut self, grid: &Grid, generation: u64) -> EngineResult<()> {
        self.edited();
        self.inner.set_grid(grid, generation)
    }

    fn piece_ms(&self) -> f64 {
        self.inner.piece_ms()
    }

    fn population(&mut self) -> EngineResult<u64> {
        self.holder().population()
    }

    fn census(&mut self) -> EngineResult<Census> {
        self.holder().census()
    }

    fn track_hash(&mut self, on: bool) {
        // The hash follows the cells the engine inside holds: it takes them first (a failure
        // to is met again by whatever reads them next).
        let _ = self.settle();
        self.inner.track_hash(on)
    }

    // The looks happen here too: a window's worker steps through these while it plots.
    fn step_census(&mut self, generations: u64, out: &mut Vec<Census>) -> EngineResult<()> {
        self.run(generations, Sink::Census(out))
    }

    fn step_populations(&mut self, generations: u64, out: &mut Vec<u64>) -> EngineResult<()> {
        self.run(generations, Sink::Populations(out))
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        self.holder().cell(x, y)
    }

    fn state(&mut self, x: i64, y: i64) -> EngineResult<u8> {
        self.holder().state(x, y)
    }

    fn states_in(&mut self, rect: CellRect) -> EngineResult<Vec<u8>> {
        self.holder().states_in(rect)
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        self.settle()?;
        self.edited();
        self.inner.set_cell(x, y, alive)
    }

    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        self.settle()?;
        self.edited();
        self.inner.put(cells, at, how)
    }

    fn clear(&mut self) -> EngineResult<()> {
        self.edited();
        self.inner.clear()
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        self.holder().bounds()
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        self.holder().cells_in(rect)
    }

    fn view_costs_area(&self) -> bool {
        self.inner.view_costs_area()
    }

    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        self.holder().sample(rect, block)
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        self.holder().export()
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        self.edited();
        match self.hashlife_of_import(tiles) {
            Some((memo, covered)) => {
                // The cells wait in HashLife (see `Loaded::deferred`).
                self.inner.import(&TileMap::new())?;
                self.loaded = Some(Loaded {
                    memo,
                    covered,
                    deferred: true,
                });
                Ok(())
            }
            None => self.inner.import(tiles),
        }
    }

    fn import_quadtree(&mut self, tree: &Macrocell, centre: (i64, i64)) -> EngineResult<()> {
        self.edited();
        self.inner.import_quadtree(tree, centre)
    }

    fn export_quadtree(&mut self) -> EngineResult<Option<Macrocell>> {
        self.settle()?;
        self.inner.export_quadtree()
    }

    fn dense(&self) -> Option<&Grid> {
        self.inner.dense()
    }

    #[cfg(feature = "gpu")]
    fn view_source(&self) -> Option<crate::engine::ViewSource> {
        self.inner.view_source()
    }

    fn current_buffer(&self) -> Option<usize> {
        self.inner.current_buffer()
    }

    fn dispatch(&self) -> Option<crate::engine::Dispatch> {
        self.inner.dispatch()
    }

    fn finish(&mut self) -> EngineResult<()> {
        self.settle()?;
        self.inner.finish()
    }

    fn note(&self) -> Option<String> {
        let swaps: Vec<String> = self
            .history
            .iter()
            .map(|(g, e, why)| format!("on {e} from generation {g} ({why})"))
            .collect();
        let mine = (!swaps.is_empty()).then(|| format!("auto ran it {}", swaps.join(", ")));
        match (mine, self.inner.note()) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
mod forwarding {
    /// The names of the methods in the block that starts with `header`.
    fn methods(source: &str, header: &str) -> std::collections::BTreeSet<String> {
        let start = source.find(header).expect("the block");
        let block = &source[start..];
        let end = block.find("\n}\n").expect("its end");
        block[..end]
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("fn "))
            .map(|l| l.split(['(', '<']).next().unwrap().to_string())
            .collect()
    }

    /// Switching forwards every method of the trait, the defaults too: a default would act on
    /// the wrapper rather than on the engine inside (a GPU engine's timing, a tile engine's
    /// parity, a dense engine's grid).
    #[test]
    fn every_method_of_the_trait_is_forwarded() {
        let trait_methods = methods(include_str!("../engine/mod.rs"), "pub trait Engine: Send {");
        let forwarded = methods(include_str!("switching.rs"), "impl Engine for Switching {");
        let missing: Vec<_> = trait_methods.difference(&forwarded).collect();
        assert!(trait_methods.len() > 30, "{trait_methods:?}");
        assert!(missing.is_empty(), "Switching does not forward {missing:?}");
    }
}

#[cfg(test)]
mod race {
    use crate::engine::{CellRect, Engine, Progress, Put, Universe};
    use crate::grid::Grid;
    use crate::registry::{Request, Workload, create};

    /// Whether a race can happen here; a test without one says it is skipped.
    fn two_threads() -> bool {
        let two = super::super::cpu_threads() >= 2;
        if !two {
            eprintln!("skipped: a race needs two threads for the CPU engines");
        }
        two
    }

    /// A run of `generations` of `cells` under `rule` on the plane, looked at only at its end.
    fn plane_run(rule: &str, cells: &Grid, generations: u64) -> Request {
        Request::new(rule.parse().unwrap(), Universe::Plane).with_workload(Workload {
            generations,
            population: cells.population(),
            span: cells.cells(),
            stride: 0,
            from_quadtree: false,
        })
    }

    /// A 24x24 soup of a non-totalistic rule near Life's (`B3/S23-a`, whose soups settle
    /// into ash and gliders), and `auto`'s engine for 600 generations of it on the plane,
    /// with no head start (the soup's run ends within it): its step is a race from the first.
    fn raced() -> Option<(Box<dyn Engine>, Grid)> {
        if !two_threads() {
            return None;
        }
        let mut soup = Grid::new(24, 24);
        soup.fill_random(0.45, 7);
        let request = plane_run("B3/S23-a", &soup, 600);
        let (_, choice) = create("auto", &request).unwrap();
        assert!(choice.reason.contains("race"), "{}", choice.reason);
        let (tiles, _) = create("tiles", &request).unwrap();
        let mut e = super::Switching::racing(tiles, super::Trial::BLOCK_RULE, "hashlife", request);
        e.head_start = 0;
        e.put(&soup, (0, 0), Put::Or).unwrap();
        Some((Box::new(e), soup))
    }

    /// Whichever engine wins, the cells after the race are the reference engine's, on a torus
    /// wide enough that nothing the soup sends out in 600 generations comes round.
    #[test]
    fn a_race_ends_on_the_reference_engine_s_cells() {
        let Some((mut e, soup)) = raced() else { return };
        let progress = Progress::new(600);
        assert_eq!(e.step_with(600, &progress).unwrap(), 600);
        assert_eq!(e.generation(), 600);
        assert_eq!(progress.get().0, 600);
        let note = e.note().unwrap_or_default();
        assert!(note.contains("raced the"), "{note}");

        let side = 512;
        let torus = Request::new("B3/S23-a".parse().unwrap(), Universe::torus(side, side));
        let (mut reference, _) = create("reference", &torus).unwrap();
        let mut start = Grid::new(side, side);
        start.paste(&soup, side / 2, side / 2);
        reference.set_grid(&start, 0).unwrap();
        reference.step(600).unwrap();
        let want = reference.grid().unwrap();
        let half = (side / 2) as i64;
        let got = e.cells_in(CellRect::new(-half, -half, side, side)).unwrap();
        assert_eq!(got.population(), want.population());
        assert!(
            got == want,
            "the race's cells differ from the reference engine's"
        );
    }

    /// A race cancelled part way (a soup of `B3/S2-a34`, which grows without end, sent a
    /// million generations): the engine stays at the generation the step reports, with the
    /// progress at the same count, on the cells the tile engine alone has there.
    #[test]
    fn a_race_cancelled_part_way_stops_where_it_says() {
        if !two_threads() {
            return;
        }
        let mut soup = Grid::new(64, 64);
        soup.fill_random(0.4, 3);
        let request = plane_run("B3/S2-a34", &soup, 1 << 20);
        let (mut e, _) = create("auto", &request).unwrap();
        e.put(&soup, (0, 0), Put::Or).unwrap();
        let progress = Progress::new(1 << 20);
        let did = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(30));
                progress.cancel();
            });
            e.step_with(1 << 20, &progress).unwrap()
        });
        assert!(did < 1 << 20, "{did}");
        assert_eq!(e.generation(), did);
        assert_eq!(progress.get().0, did);
        let (mut alone, _) = create("tiles", &request).unwrap();
        alone.put(&soup, (0, 0), Put::Or).unwrap();
        alone.step(did).unwrap();
        assert_eq!(e.population().unwrap(), alone.population().unwrap());
        assert_eq!(e.bounds().unwrap(), alone.bounds().unwrap());
    }

    /// A blinker on the plane and `auto`'s engine for 2^20 generations of `B3/S23-a`, which
    /// it gives HashLife.
    fn blinker_sent_far() -> Option<(Box<dyn Engine>, Grid)> {
        if !two_threads() {
            return None;
        }
        let blinker = Grid::from_text("ooo");
        let request = plane_run("B3/S23-a", &blinker, 1 << 20);
        let (mut e, choice) = create("auto", &request).unwrap();
        assert_eq!(choice.engine, "hashlife", "{}", choice.reason);
        e.put(&blinker, (0, 0), Put::Or).unwrap();
        Some((e, blinker))
    }

    /// A blinker sent 2^20 generations: HashLife (which `auto` chose for the jump) has it in
    /// a few dozen nodes, the tile engine would step it a generation at a time for a tenth of a
    /// second, so HashLife wins, and the engine, the generation and the progress are its.
    #[test]
    fn hashlife_that_wins_a_race_goes_on_with_the_run() {
        let Some((mut e, blinker)) = blinker_sent_far() else {
            return;
        };
        let progress = Progress::new(1 << 20);
        assert_eq!(e.step_with(1 << 20, &progress).unwrap(), 1 << 20);
        assert_eq!(e.name(), "hashlife");
        assert_eq!(e.generation(), 1 << 20);
        assert_eq!(progress.get().0, 1 << 20);
        // The tile engine's head start is some four thousand generations of a blinker, which
        // computes a tile only at first: HashLife races it from there.
        let note = e.note().unwrap_or_default();
        assert!(
            note.contains("on tiles from generation 0 (alone for a head start, before the race), on hashlife from generation 39")
                && note.contains("(it raced the tiles engine on a second thread and finished first, at generation 1048576)"),
            "{note}"
        );
        // An even generation: the blinker as it started.
        let cells = e.cells_in(CellRect::new(-2, -2, 7, 5)).unwrap();
        let mut want = Grid::new(7, 5);
        want.paste(&blinker, 2, 2);
        assert!(cells == want, "{}", cells.to_text());
    }

    /// A soup of `B3/S2-a34`, which grows without end, sent 1500 generations from a 16x16
    /// start: `auto` chose HashLife for the jump, but the churning growth makes a new node for
    /// nearly every block, and the tile engine, stepping on the calling thread after its head
    /// start, gets there first; the run goes on with it, at the cells it has.
    #[test]
    fn a_tile_engine_that_wins_a_race_goes_on_with_the_run() {
        if !two_threads() {
            return;
        }
        let mut soup = Grid::new(16, 16);
        soup.fill_random(0.4, 3);
        let request = plane_run("B3/S2-a34", &soup, 1500);
        let (mut e, choice) = create("auto", &request).unwrap();
        assert_eq!(choice.engine, "hashlife", "{}", choice.reason);
        e.put(&soup, (0, 0), Put::Or).unwrap();
        let progress = Progress::new(1500);
        assert_eq!(e.step_with(1500, &progress).unwrap(), 1500);
        assert_eq!(e.name(), "tiles");
        assert_eq!(e.generation(), 1500);
        assert_eq!(progress.get().0, 1500);
        let note = e.note().unwrap_or_default();
        assert!(
            note.contains("on tiles from generation 0 (alone for a head start, before the race), on tiles from generation")
                && note.contains("(it raced the hashlife engine on a second thread and finished first, at generation 1500)"),
            "{note}"
        );
        let (mut alone, _) = create("tiles", &request).unwrap();
        alone.put(&soup, (0, 0), Put::Or).unwrap();
        alone.step(1500).unwrap();
        assert_eq!(e.population().unwrap(), alone.population().unwrap());
        let bounds = alone.bounds().unwrap().unwrap();
        assert_eq!(e.bounds().unwrap(), Some(bounds));
        let rect = CellRect::new(
            bounds.left,
            bounds.top,
            bounds.width() as u32,
            bounds.height() as u32,
        );
        assert!(e.cells_in(rect).unwrap() == alone.cells_in(rect).unwrap());
    }

    /// A step that is not a race (a window's pieces of a go-to) runs on HashLife, `auto`'s
    /// choice, as it did before races had a head start: the engine is named HashLife and
    /// jumps from the first, and goes on as HashLife once it has stepped.
    #[test]
    fn a_step_that_is_not_a_race_runs_on_the_engine_auto_chose() {
        let Some((mut e, _)) = blinker_sent_far() else {
            return;
        };
        assert_eq!((e.name(), e.jumps()), ("hashlife", true));
        e.step(1001).unwrap();
        assert_eq!((e.name(), e.generation()), ("hashlife", 1001));
        // An odd generation: the blinker upright round its middle cell (1, 0), which is
        // column 2 of a rect from x = -1.
        let cells = e.cells_in(CellRect::new(-1, -1, 3, 3)).unwrap();
        assert!(
            cells == Grid::from_text("..o\n..o\n..o"),
            "{}",
            cells.to_text()
        );
        assert_eq!(e.note(), None);
    }

    /// A race cancelled before it starts runs nothing and names no winner.
    #[test]
    fn a_cancelled_race_runs_nothing() {
        let Some((mut e, soup)) = raced() else { return };
        let progress = Progress::new(600);
        progress.cancel();
        assert_eq!(e.step_with(600, &progress).unwrap(), 0);
        assert_eq!(e.generation(), 0);
        assert_eq!(e.population().unwrap(), soup.population());
        assert_eq!(e.note(), None);
    }
}
