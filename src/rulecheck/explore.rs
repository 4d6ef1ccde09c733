//! Guided exploration: after the random games, search the lines of play
//! that random agents almost never take, as a coverage-guided fuzzer does.
//! A game's input is its sequence of choices (indices into the legal
//! actions at each decision) together with its engine seed.
//!
//! - The **corpus** holds the lines of play that did something new: ran an
//!   action-graph node or took a choice option that no game (random or
//!   explored) had, or pushed a measure of the state (the cards in each zone,
//!   each number variable: `explore_measure::features`) below its lowest or above its
//!   highest value so far in that column. Extremes steer the search toward
//!   conditions such as `count(draw) == 0` before they are ever true.
//! - A **mutation** replays a corpus entry's first moves, chooses
//!   differently at the cut, and plays on. Every free choice prefers an
//!   option that no game has taken yet; half the mutations also push one
//!   state measure up or down, looking one move ahead for the option that
//!   moves it most (a cheap distance to the conditions not yet true).
//!   Aimed mutations start from the game that came nearest a branch target
//!   in their column (`explore_near.rs`); half of those from the game
//!   nearest a guard **resume** it: a late cut, a few steered choices, then
//!   its own later moves again where they are legal (`explore_play.rs`);
//!   half the aimed games avoid the options that shut the way to their
//!   target (`explore_keep.rs`).
//! - The search runs in **rounds** of [`ROUND`] games, played on all cores
//!   and merged in job order: the corpus, and so every game, depends only
//!   on the seed, never on the threads. A budget of games (`--explore
//!   2000`) makes the whole report deterministic; a time budget
//!   (`--explore 10s`, the default) stops the same sequence sooner or later.
//! - A game budget is **stretched while the search makes progress**: past
//!   it, the search plays on until [`PATIENCE`] games after the last one
//!   that grew the corpus (reached a new node or option, came nearer a
//!   guard, pushed a measure further), and at most [`STRETCH`] times the
//!   budget ([`Budget::Games`]), as a fuzzer goes on while it still finds
//!   new paths. A rare line gets more games only where the search is still
//!   getting somewhere. A time budget is stretched on a narrower sign, up
//!   to [`STRETCH`] times the time: while a target's distance fell to
//!   within [`NEAR`] in the last [`PATIENCE`] games. And while something
//!   is left to reach and some target came within [`NEAR`] of being taken,
//!   either budget is stretched to the most: a line the search is closing
//!   in on is not called dead at the bell.
//! - It stops early once nothing the random games missed is left (the
//!   caller says what is left) and at least [`MIN_GAMES`] games (or a
//!   quarter of a time budget) hunted for faults, softlocks and broken
//!   invariants, or once it stalls: at least
//!   [`PLATEAU`] games, four times as many as it took to reach anything new
//!   or to bring a target within [`NEAR`] nearer than before (while a
//!   target is within [`NEAR`], not before the budget given is spent).
//!
//! Faults met on the way are kept with their line of play ([`Hit`]), to be
//! reported with a reproduction like the random games' incidents.

use super::explore_branch as branch;
use super::explore_dist::Target;
use super::explore_measure::features;
use super::explore_near::{Gained, Key, NEAR, Nearest, falls, focus, improve, key};
use super::explore_play::{Aims, Job, Trace, guarded};
use super::playout::Table;
use super::stats::{At, Kind, Layout};
use crate::engine::Probe;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

/// Games per round (played in parallel, merged in order).
pub const ROUND: u64 = 32;
/// Games played even when nothing is left to reach, to hunt rare faults.
pub const MIN_GAMES: u64 = 256;
/// The search gives up once it has played at least this many games, and
/// four times as many as it took to reach the last new node or option.
pub const PLATEAU: u64 = 2048;
/// How often a mutation aims at a branch no game has taken.
const AIM: f64 = 0.6;
/// The share of the unaimed mutations given to the nearest near target.
const FOCUS: f64 = 0.5;
/// How often a game aimed from the game that came nearest a target's guard
/// resumes it: cut late, a few free choices steered, then its own later
/// moves played again where they are legal (a fuzzer's splice, for a line
/// of play).
const RESUME: f64 = 0.5;
/// A resumed game's cut is at most this many decisions before the point
/// where its parent came nearest...
const LATE: usize = 60;
/// ...and at most this many free choices are steered before the parent's
/// moves are played again.
const DETOUR: u32 = 12;
/// Mixed into the run seed for the exploration's own games.
const SALT: u64 = 0xe8b1_07e5_0000_0017;

pub use super::explore_budget::{Budget, PATIENCE, STRETCH, stretched};

/// One explored game worth keeping: how to play it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Find {
    /// The column it was played in, its engine seed and every pick made
    /// (an index into the legal actions, from 0).
    pub column: usize,
    pub seed: u64,
    pub picks: Vec<u32>,
    /// Its number among the exploration's games, and when it ended
    /// (milliseconds after the exploration started).
    pub game: u64,
    pub millis: u64,
}

/// The first explored game that reached something: which find, and after
/// how many of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub find: u32,
    pub moves: u32,
}

/// A fault, softlock or broken invariant met only by exploration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub kind: Kind,
    pub at: At,
    /// The game that met it first, with its picks up to there.
    pub find: Find,
    pub failing_move: bool,
    pub message: String,
    /// Explored games that met it.
    pub count: u64,
}

/// What the exploration of one file did and reached.
#[derive(Clone, Debug, Default)]
pub struct Explored {
    pub games: u64,
    pub millis: u64,
    /// Lines of play kept in the corpus.
    pub corpus: usize,
    /// Times each node ran and each arm was chosen in explored games.
    pub nodes: Vec<u64>,
    pub arms: Vec<u64>,
    /// For what no random game reached: the first explored game that did.
    pub first_node: Vec<Option<Reach>>,
    pub first_arm: Vec<Option<Reach>>,
    pub finds: Vec<Find>,
    pub hits: Vec<Hit>,
    /// The state measures watched (probe texts).
    pub features: Vec<String>,
    /// By branch target (phase, guard node): the nearest any explored game
    /// came to taking it, in any column (its branch distance; 0 takes it).
    pub nearest: Vec<(u16, u32, u32)>,
}

/// Everything fixed for the exploration of one file.
pub struct Setup<'a> {
    /// One table per column (in the run's column order).
    pub tables: Vec<Table<'a>>,
    pub layout: &'a Layout,
    /// Coverage of the random games, summed over columns.
    pub nodes: &'a [u64],
    pub arms: &'a [u64],
    /// Places where the random games already met an incident.
    pub known: BTreeSet<(Kind, At)>,
    /// A decision limit for explored games.
    pub limit: u32,
    pub seed: u64,
}

/// The search's state between rounds.
struct Search<'s, 'a> {
    s: &'s Setup<'a>,
    probes: Vec<Vec<(String, Probe)>>,
    columns: Vec<(&'a [i32], usize)>,
    x: Explored,
    lo: Vec<Vec<i32>>,
    hi: Vec<Vec<i32>>,
    corpus: Vec<u32>,
    master: ChaCha8Rng,
    /// Coverage of random and explored games together.
    total_n: Vec<u64>,
    total_a: Vec<u64>,
    /// Games played when something new was last reached.
    last_new: u64,
    /// Games played when the corpus last grew (by a new node or option, a
    /// guard come nearer, a measure pushed further): the search's progress.
    last_find: u64,
    /// By target: the nearest its guard came, in which find, after how
    /// many moves (whichever round found it).
    best: Nearest,
    /// The same for a target's distance outside its guard.
    best_proxy: Nearest,
    /// By target with pinned parameters: their values in its `best` game.
    pins: BTreeMap<Key, Vec<i32>>,
    /// The pins its `best_proxy` game measured its proxy with (a game aimed
    /// from it measures the same card's position).
    proxy_pins: BTreeMap<Key, Vec<i32>>,
    /// By target: when its distance (guard or proxy) last fell.
    gained: Gained,
    /// Games played when a target's distance last fell to within [`NEAR`]
    /// (0: never): a time budget is stretched while this is recent.
    near_fall: u64,
    /// The actions of the finds that came nearest a target's guard (by
    /// find), for resumed games.
    lines: BTreeMap<u32, Vec<crate::engine::Action>>,
}

impl<'s, 'a> Search<'s, 'a> {
    fn new(s: &'s Setup<'a>) -> Self {
        let layout = s.layout;
        let probes: Vec<Vec<(String, Probe)>> = s
            .tables
            .iter()
            .map(|t| features(t.game, t.players))
            .collect();
        let x = Explored {
            nodes: vec![0; layout.nodes],
            arms: vec![0; layout.arms],
            first_node: vec![None; layout.nodes],
            first_arm: vec![None; layout.arms],
            features: probes
                .first()
                .map_or(Vec::new(), |p| p.iter().map(|(t, _)| t.clone()).collect()),
            ..Explored::default()
        };
        Search {
            lo: probes.iter().map(|p| vec![i32::MAX; p.len()]).collect(),
            hi: probes.iter().map(|p| vec![i32::MIN; p.len()]).collect(),
            columns: s.tables.iter().map(|t| (t.options, t.players)).collect(),
            probes,
            x,
            corpus: Vec::new(),
            master: ChaCha8Rng::seed_from_u64(s.seed ^ SALT),
            total_n: s.nodes.to_vec(),
            total_a: s.arms.to_vec(),
            last_new: 0,
            last_find: 0,
            best: BTreeMap::new(),
            best_proxy: BTreeMap::new(),
            pins: BTreeMap::new(),
            proxy_pins: BTreeMap::new(),
            gained: BTreeMap::new(),
            near_fall: 0,
            lines: BTreeMap::new(),
            s,
        }
    }

    /// A fresh game, in the columns in turn.
    fn fresh_job(&self, game: u64, rng: u64) -> Job {
        Job {
            column: (game % self.s.tables.len() as u64) as usize,
            seed: crate::sim::game_seed(self.s.seed ^ SALT, game),
            prefix: Vec::new(),
            avoid: None,
            goal: None,
            aim: None,
            pins: Vec::new(),
            tail: Vec::new(),
            detour: 0,
            rng,
            game,
        }
    }

    /// A corpus entry's first moves, then a different choice (or, aimed at
    /// a branch no game has taken, from the game that came nearest to it,
    /// cut before then and steered).
    fn mutant_job(&mut self, targets: &[Target], game: u64, rng: u64) -> Job {
        let m = &mut self.master;
        let len = self.corpus.len();
        let e = if m.random_bool(0.5) {
            len - 1 - m.random_range(0..len.min(16))
        } else {
            m.random_range(0..len)
        };
        let mut parent = &self.x.finds[self.corpus[e] as usize];
        let columns = self.columns.len();
        let near = focus(&self.best, &self.best_proxy, &self.gained, targets, columns);
        // the aimed share as before, in a column drawn at random (each
        // column's nearest games are a line of their own: one stuck does
        // not take the others' share); the near target gets part of the
        // rest
        let aim = if !targets.is_empty() && m.random_bool(AIM) {
            let k = m.random_range(0..targets.len());
            Some((k, m.random_range(0..columns.max(1))))
        } else {
            near.filter(|_| m.random_bool(FOCUS))
        };
        let mut upto = parent.picks.len();
        // from the game nearest the guard (`true`), or nearest outside it
        let nearest = aim.and_then(|(k, c)| {
            let key = key(&targets[k], c);
            match (self.best.get(&key), self.best_proxy.get(&key)) {
                (Some(b), Some(p)) => Some(if m.random_bool(0.5) {
                    (b, true)
                } else {
                    (p, false)
                }),
                (b, p) => b.map(|b| (b, true)).or(p.map(|p| (p, false))),
            }
        });
        let mut resumed = None;
        let mut from_proxy = false;
        if let Some((&(_, id, moves), guard)) = nearest
            && m.random_bool(0.75)
        {
            from_proxy = !guard;
            parent = &self.x.finds[id as usize];
            upto = (moves as usize).min(parent.picks.len());
            resumed = self
                .lines
                .get(&id)
                .filter(|_| guard && m.random_bool(RESUME));
        }
        let cut = match (aim.is_some(), upto) {
            (_, 0) => 0,
            // a resumed game is cut shortly before its parent came nearest
            _ if resumed.is_some() => upto - m.random_range(0..=upto.min(LATE)),
            // an aimed game may replay its parent up to its nearest
            (true, u) => m.random_range(0..=u),
            (false, u) => m.random_range(0..u),
        };
        let (tail, detour) = match resumed {
            Some(line) => (
                line.get(cut..).unwrap_or_default().to_vec(),
                m.random_range(1..=DETOUR),
            ),
            None => (Vec::new(), 0),
        };
        let features = self.probes[parent.column].len();
        let goal = (features > 0 && m.random_bool(0.5))
            .then(|| (m.random_range(0..features), m.random_bool(0.5)));
        Job {
            column: parent.column,
            seed: parent.seed,
            prefix: parent.picks[..cut].to_vec(),
            // an aimed game plays on from the cut, steered: a forced change
            // there could break the very line that came nearest (a streak of
            // lucky picks)
            avoid: if aim.is_some() {
                None
            } else {
                parent.picks.get(cut).copied()
            },
            goal,
            // the pins its parent measured with, where it came nearest
            // outside the guard; else those of the guard's nearest game
            pins: aim
                .and_then(|(k, _)| {
                    let pins = if from_proxy {
                        &self.proxy_pins
                    } else {
                        &self.pins
                    };
                    pins.get(&key(&targets[k], parent.column)).cloned()
                })
                .unwrap_or_default(),
            aim: aim.map(|(k, _)| k),
            tail,
            detour,
            rng,
            game,
        }
    }

    /// The next round's jobs.
    fn jobs(&mut self, targets: &[Target], n: u64) -> Vec<Job> {
        let games = self.x.games;
        (0..n)
            .map(|j| {
                let game = games + j;
                let rng = self.master.random();
                if self.corpus.is_empty() || self.master.random_bool(0.2) {
                    self.fresh_job(game, rng)
                } else {
                    self.mutant_job(targets, game, rng)
                }
            })
            .collect()
    }

    /// Count the nodes and arms a game ran; whether any was new.
    fn cover(&mut self, tr: &Trace, id: u32, game: u64) -> bool {
        let mut new = false;
        let x = &mut self.x;
        let sides = [
            (
                &tr.nodes,
                &mut self.total_n,
                &mut x.nodes,
                &mut x.first_node,
            ),
            (&tr.arms, &mut self.total_a, &mut x.arms, &mut x.first_arm),
        ];
        for (seen, total, mine, first) in sides {
            for (i, &m) in seen.iter().enumerate() {
                if m == u32::MAX {
                    continue;
                }
                if total[i] == 0 {
                    first[i] = Some(Reach { find: id, moves: m });
                    new = true;
                    self.last_new = game + 1;
                }
                mine[i] += 1;
                total[i] += 1;
            }
        }
        new
    }

    /// Target `key`'s distance fell to `d` in game `game`.
    fn fell(&mut self, key: Key, d: u32, game: u64) {
        self.gained.insert(key, game + 1);
        if d <= NEAR {
            self.near_fall = game + 1;
        }
    }

    /// Whether a game came nearer a target or pushed a measure further than
    /// any before.
    fn nearer(&mut self, tr: &Trace, targets: &[Target], job: &Job) -> bool {
        let (mut new, column) = (false, job.column);
        let id = self.x.finds.len() as u32;
        // a game that failed is no line to build on; a proxy measured with
        // other pins (another card) is as good a way to the guard, and its
        // game is resumed with its own pins
        if let Some(k) = job.aim
            && tr.incident.is_none()
        {
            let (d, moves) = tr.near_proxy;
            let key = key(&targets[k], column);
            if falls(&self.best_proxy, &key, d) {
                self.fell(key, d, job.game);
            }
            if improve(&mut self.best_proxy, key, d, id, moves) {
                new = true;
                self.proxy_pins.insert(key, job.pins.clone());
            }
        }
        if tr.incident.is_none() {
            for (k, &(d, moves)) in tr.near.iter().enumerate() {
                let key = key(&targets[k], column);
                if falls(&self.best, &key, d) {
                    self.fell(key, d, job.game);
                }
                if improve(&mut self.best, key, d, id, moves) {
                    new = true;
                    self.lines.entry(id).or_insert_with(|| tr.actions.clone());
                    if let Some(p) = tr.near_pins.get(k).filter(|p| !p.is_empty()) {
                        self.pins.insert(key, p.clone());
                    }
                }
            }
        }
        let (lo, hi) = (&mut self.lo[column], &mut self.hi[column]);
        for f in 0..tr.lo.len() {
            if tr.lo[f] < lo[f] {
                lo[f] = tr.lo[f];
                new = true;
            }
            if tr.hi[f] > hi[f] {
                hi[f] = tr.hi[f];
                new = true;
            }
        }
        new
    }

    /// A fault, softlock or broken invariant the random games did not meet.
    fn hit(&mut self, find: &Find, incident: (Kind, At, u32, bool, String)) {
        let (kind, at, moves, failing_move, message) = incident;
        if self.s.known.contains(&(kind, at)) {
            return; // the random games report it already
        }
        if let Some(h) = self
            .x
            .hits
            .iter_mut()
            .find(|h| (h.kind, h.at) == (kind, at))
        {
            h.count += 1;
            return;
        }
        let mut f = find.clone();
        f.picks.truncate(moves as usize);
        self.x.hits.push(Hit {
            kind,
            at,
            find: f,
            failing_move,
            message,
            count: 1,
        });
    }

    /// Merge one played game into the search.
    fn merge(&mut self, job: Job, mut tr: Trace, targets: &[Target], millis: u64) {
        self.x.games += 1;
        let id = self.x.finds.len() as u32;
        let covered = self.cover(&tr, id, job.game);
        let new = self.nearer(&tr, targets, &job) || covered;
        let find = Find {
            column: job.column,
            seed: job.seed,
            picks: std::mem::take(&mut tr.picks),
            game: job.game,
            millis,
        };
        if let Some(incident) = tr.incident.take() {
            self.hit(&find, incident);
            // a game that failed is no line to build on, but it may be what
            // first reached a node
            if covered {
                self.x.finds.push(find);
            }
        } else if new {
            self.corpus.push(id);
            self.last_find = job.game + 1;
            self.x.finds.push(find);
        }
    }
}

/// Search within `budget`; `left(nodes, arms)` says, for the coverage of
/// random and explored games together, whether anything the random games
/// missed is still unreached.
pub fn explore(s: &Setup, budget: Budget, left: &dyn Fn(&[u64], &[u64]) -> bool) -> Explored {
    let started = Instant::now();
    let mut q = Search::new(s);
    if budget == Budget::Off || s.tables.is_empty() {
        return q.x;
    }
    let mut open = left(&q.total_n, &q.total_a);
    // some target came within NEAR of being taken while something is left
    // to reach: the budget is stretched to the most
    let mut closing = false;
    loop {
        let games = q.x.games;
        let limit = |n: u64| match closing {
            true => n.saturating_mul(STRETCH),
            false => stretched(n, q.last_new.max(q.last_find)),
        };
        let over = match budget {
            Budget::Off => true,
            Budget::Games(n) => games >= limit(n),
            Budget::Time(d) => {
                let t = started.elapsed();
                t >= d && (t >= d * STRETCH as u32 || !closing && games >= q.near_fall + PATIENCE)
            }
        } || crate::interrupt::interrupted();
        // stalled: nothing new reached, and no target come within NEAR
        // more nearly, for three quarters of the games played; while
        // closing in on a line, not before the budget given is spent
        let stale = (!closing || budget.spent(games, started.elapsed()))
            && games >= PLATEAU.max(q.last_new.max(q.near_fall).saturating_mul(4));
        // nothing left to reach: hunt faults for MIN_GAMES games, or a
        // quarter of a time budget if that comes first
        let hunted =
            games >= MIN_GAMES || matches!(budget, Budget::Time(d) if started.elapsed() >= d / 4);
        if over || stale || (!open && hunted) {
            break;
        }
        let n = match budget {
            Budget::Games(b) => ROUND.min(limit(b) - games),
            _ => ROUND,
        };
        // the branches no game has taken, rebuilt every round
        let targets = branch::targets(s.tables[0].game, s.layout, &q.total_n, &q.columns);
        let at = branch::index(s.layout, &targets);
        let jobs = q.jobs(&targets, n);
        let covered: Vec<bool> = q.total_a.iter().map(|a| *a > 0).collect();
        let aims = Aims {
            targets: &targets,
            at: &at,
        };
        let traces: Vec<Trace> = jobs
            .par_iter()
            .map(|j| {
                let t = &s.tables[j.column];
                guarded(t, &q.probes[j.column], &covered, j, s.limit, &aims)
            })
            .collect();
        let millis = started.elapsed().as_millis() as u64;
        for (job, tr) in jobs.into_iter().zip(traces) {
            q.merge(job, tr, &targets, millis);
        }
        q.x.corpus = q.corpus.len();
        // keep the lines of the games still nearest some guard
        let kept: BTreeSet<u32> = q.best.values().map(|b| b.1).collect();
        q.lines.retain(|id, _| kept.contains(id));
        open = open && left(&q.total_n, &q.total_a);
        let columns = q.columns.len();
        closing = open && focus(&q.best, &q.best_proxy, &q.gained, &targets, columns).is_some();
    }
    q.x.millis = started.elapsed().as_millis() as u64;
    let mut nearest: BTreeMap<(u16, u32), u32> = BTreeMap::new();
    for (k, b) in &q.best {
        let d = nearest.entry((k.0, k.1)).or_insert(u32::MAX);
        *d = (*d).min(b.0);
    }
    q.x.nearest = nearest.into_iter().map(|((p, n), d)| (p, n, d)).collect();
    q.x
}
