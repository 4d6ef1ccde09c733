//! Guided exploration: after the random games, search the lines of play
//! that random agents almost never take, as a coverage-guided fuzzer does.
//! A game's input is its sequence of choices (indices into the legal
//! actions at each decision) together with its engine seed.
//!
//! - The **corpus** holds the lines of play that did something new: ran an
//!   action-graph node or took a choice option that no game (random or
//!   explored) had, or pushed a measure of the state (the cards in each zone,
//!   each number variable: [`features`]) below its lowest or above its
//!   highest value so far in that column. Extremes steer the search toward
//!   conditions such as `count(draw) == 0` before they are ever true.
//! - A **mutation** replays a corpus entry's first moves, chooses
//!   differently at the cut, and plays on. Every free choice prefers an
//!   option that no game has taken yet; half the mutations also push one
//!   state measure up or down, looking one move ahead for the option that
//!   moves it most (a cheap distance to the conditions not yet true).
//! - The search runs in **rounds** of [`ROUND`] games, played on all cores
//!   and merged in job order: the corpus, and so every game, depends only
//!   on the seed, never on the threads. A budget of games (`--explore
//!   2000`) makes the whole report deterministic; a time budget
//!   (`--explore 10s`, the default) stops the same sequence sooner or later.
//! - It stops early once nothing the random games missed is left (the
//!   caller says what is left) and at least [`MIN_GAMES`] games hunted for
//!   faults, softlocks and broken invariants, or once it stalls: at least
//!   [`PLATEAU`] games, four times as many as it took to reach anything new.
//!
//! Faults met on the way are kept with their line of play ([`Hit`]), to be
//! reported with a reproduction like the random games' incidents.

use super::explore_branch::{self as branch, Target};
use super::explore_measure::{features, look_ahead};
use super::playout::{Table, audit, fault_at, kind_of};
use super::stats::{At, Kind, Layout};
use crate::engine::{Action, Probe, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

/// Games per round (played in parallel, merged in order).
pub const ROUND: u64 = 32;
/// Games played even when nothing is left to reach, to hunt rare faults.
pub const MIN_GAMES: u64 = 256;
/// The search gives up once it has played at least this many games, and
/// four times as many as it took to reach the last new node or option.
pub const PLATEAU: u64 = 2048;
/// Mixed into the run seed for the exploration's own games.
const SALT: u64 = 0xe8b1_07e5_0000_0017;

pub use super::explore_budget::Budget;

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
}

/// One game to play: a fresh one, or a corpus entry's first moves and a
/// different choice at the cut.
struct Job {
    column: usize,
    seed: u64,
    prefix: Vec<u32>,
    /// The pick to avoid at decision `prefix.len()` (the parent's).
    avoid: Option<u32>,
    /// A state measure to push (index, lowest first?): free choices look
    /// one move ahead for the option that moves it most, half the time.
    goal: Option<(usize, bool)>,
    /// A branch target to steer toward (an index into the round's
    /// targets): free choices look ahead for it, half the time.
    aim: Option<usize>,
    rng: u64,
    game: u64,
}

/// What one explored game did.
struct Trace {
    /// For each flat node and arm: the moves made when it first ran (0 at
    /// setup), `u32::MAX` if it never did.
    nodes: Vec<u32>,
    arms: Vec<u32>,
    picks: Vec<u32>,
    lo: Vec<i32>,
    hi: Vec<i32>,
    incident: Option<(Kind, At, u32, bool, String)>,
    /// For each target: the nearest its guard came, and after how many moves.
    near: Vec<(u32, u32)>,
}

/// The branch targets of a round, and for each flat node its target.
struct Aims<'a> {
    targets: &'a [Target],
    at: &'a [u16],
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

fn play(
    t: &Table,
    probes: &[(String, Probe)],
    covered: &[bool],
    job: &Job,
    limit: u32,
    aims: &Aims,
) -> Trace {
    let (game, layout) = (t.game, t.layout);
    let mut tr = Trace {
        nodes: vec![u32::MAX; layout.nodes],
        arms: vec![u32::MAX; layout.arms],
        picks: Vec::new(),
        lo: vec![i32::MAX; probes.len()],
        hi: vec![i32::MIN; probes.len()],
        incident: None,
        near: vec![(u32::MAX, 0); aims.targets.len()],
    };
    let now = Cell::new(0u32);
    let nodes = &mut tr.nodes;
    let mut seen = |p: u16, n: u32| {
        let i = layout.node(p, n);
        if nodes[i] == u32::MAX {
            nodes[i] = now.get();
        }
    };
    let mut state = match State::new_observed(game, t.players, job.seed, t.options, &mut seen) {
        Ok(s) => s,
        Err(e) => {
            let m = format!("at setup: {e}");
            tr.incident = Some((kind_of(&e), fault_at(game, &e, None), 0, false, m));
            return tr;
        }
    };
    if let Some((k, at, m)) = audit(game, &state) {
        tr.incident = Some((k, at, 0, false, format!("{m} after setup")));
        return tr;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(job.rng);
    let mut buf: Vec<Action> = Vec::new();
    let mut fresh: Vec<usize> = Vec::new();
    let mut taken = 0u32;
    loop {
        for (f, (_, probe)) in probes.iter().enumerate() {
            if let Ok(v) = state.eval_probe(game, probe) {
                tr.lo[f] = tr.lo[f].min(v);
                tr.hi[f] = tr.hi[f].max(v);
            }
        }
        if state.is_over() || taken >= limit {
            return tr;
        }
        state.legal_actions_into(game, &mut buf);
        if state.chooser().is_none() || buf.is_empty() {
            let at = state
                .frames()
                .last()
                .map_or(At::Game, |f| At::Node(f.phase, f.pc));
            let m = format!("no legal action after {taken} decisions");
            tr.incident = Some((Kind::Softlock, at, taken, false, m));
            return tr;
        }
        let frame = state.frames().last().map(|f| (f.phase, f.pc));
        let arm_of = |a: &Action| {
            let (p, n) = frame?;
            (a.arm != Action::PASS)
                .then(|| layout.arm(p, n, a.arm))
                .flatten()
        };
        let k = taken as usize;
        let pick = if k < job.prefix.len() {
            (job.prefix[k] as usize).min(buf.len() - 1)
        } else {
            fresh.clear();
            fresh.extend((0..buf.len()).filter(|&i| arm_of(&buf[i]).is_some_and(|a| !covered[a])));
            let avoid = job.avoid.filter(|_| k == job.prefix.len() && buf.len() > 1);
            if let Some(a) = avoid {
                fresh.retain(|&i| i != a as usize);
            }
            let aimed = match job.aim {
                Some(k) if avoid.is_none() && buf.len() > 1 && rng.random_bool(0.5) => aims
                    .targets
                    .get(k)
                    .and_then(|t| branch::toward(game, &state, &buf, t, &mut rng)),
                _ => None,
            };
            let ahead = match job.goal {
                _ if aimed.is_some() => aimed,
                Some((f, low)) if avoid.is_none() && buf.len() > 1 && rng.random_bool(0.5) => {
                    probes
                        .get(f)
                        .and_then(|(_, p)| look_ahead(game, &state, &buf, p, low, &mut rng))
                }
                _ => None,
            };
            if let Some(i) = ahead {
                i
            } else if !fresh.is_empty() && rng.random_bool(0.75) {
                fresh[rng.random_range(0..fresh.len())]
            } else {
                match avoid {
                    Some(a) => {
                        let i = rng.random_range(0..buf.len() - 1);
                        if i >= a as usize { i + 1 } else { i }
                    }
                    None => rng.random_range(0..buf.len()),
                }
            }
        };
        let action = buf[pick];
        tr.picks.push(pick as u32);
        if let Some(a) = arm_of(&action)
            && tr.arms[a] == u32::MAX
        {
            tr.arms[a] = taken + 1;
        }
        now.set(taken + 1);
        let (nodes, near) = (&mut tr.nodes, &mut tr.near);
        let applied = state.apply_looking(game, action, &mut |st: &State, p, n| {
            let i = layout.node(p, n);
            if nodes[i] == u32::MAX {
                nodes[i] = now.get();
            }
            if let Some(&k) = aims.at.get(i).filter(|k| **k != u16::MAX) {
                let d = aims.targets[k as usize].distance(game, st);
                if d < near[k as usize].0 {
                    near[k as usize] = (d, now.get());
                }
            }
        });
        taken += 1;
        if let Err(e) = applied {
            let at = fault_at(game, &e, Some(&state));
            let m = format!("move {taken}: {e}");
            tr.incident = Some((kind_of(&e), at, taken, true, m));
            return tr;
        }
        if let Some((k, at, m)) = audit(game, &state) {
            tr.incident = Some((k, at, taken, false, format!("{m} after move {taken}")));
            return tr;
        }
    }
}

/// Play `job`, turning a panic into a fault of the whole game.
fn guarded(
    t: &Table,
    probes: &[(String, Probe)],
    covered: &[bool],
    job: &Job,
    limit: u32,
    aims: &Aims,
) -> Trace {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        play(t, probes, covered, job, limit, aims)
    }))
    .unwrap_or_else(|payload| Trace {
        nodes: Vec::new(),
        arms: Vec::new(),
        picks: job.prefix.clone(),
        lo: Vec::new(),
        hi: Vec::new(),
        near: Vec::new(),
        incident: Some((
            Kind::RuleFault,
            At::Game,
            u32::MAX,
            false,
            super::simulate::panic_message(payload.as_ref()),
        )),
    })
}

/// Search within `budget`; `left(nodes, arms)` says, for the coverage of
/// random and explored games together, whether anything the random games
/// missed is still unreached.
pub fn explore(s: &Setup, budget: Budget, left: &dyn Fn(&[u64], &[u64]) -> bool) -> Explored {
    let started = Instant::now();
    let layout = s.layout;
    let probes: Vec<Vec<(String, Probe)>> = s
        .tables
        .iter()
        .map(|t| features(t.game, t.players))
        .collect();
    let mut x = Explored {
        nodes: vec![0; layout.nodes],
        arms: vec![0; layout.arms],
        first_node: vec![None; layout.nodes],
        first_arm: vec![None; layout.arms],
        features: probes
            .first()
            .map_or(Vec::new(), |p| p.iter().map(|(t, _)| t.clone()).collect()),
        ..Explored::default()
    };
    if budget == Budget::Off || s.tables.is_empty() {
        return x;
    }
    let mut lo: Vec<Vec<i32>> = probes.iter().map(|p| vec![i32::MAX; p.len()]).collect();
    let mut hi: Vec<Vec<i32>> = probes.iter().map(|p| vec![i32::MIN; p.len()]).collect();
    let mut corpus: Vec<u32> = Vec::new();
    let mut master = ChaCha8Rng::seed_from_u64(s.seed ^ SALT);
    let mut total_n: Vec<u64> = s.nodes.to_vec();
    let mut total_a: Vec<u64> = s.arms.to_vec();
    let mut open = left(&total_n, &total_a);
    let mut last_new = 0u64;
    let mut best: BTreeMap<(u16, u32, bool), (u32, u32, u32)> = BTreeMap::new();
    loop {
        let games = x.games;
        let over = match budget {
            Budget::Off => true,
            Budget::Games(n) => games >= n,
            Budget::Time(d) => started.elapsed() >= d,
        };
        let stale = games >= PLATEAU.max(last_new.saturating_mul(4));
        if over || stale || (!open && games >= MIN_GAMES) {
            break;
        }
        let n = match budget {
            Budget::Games(b) => ROUND.min(b - games),
            _ => ROUND,
        };
        // the guards with a branch no game has taken, and the nearest
        // each came so far (by target, whichever round found it)
        let targets = branch::targets(s.tables[0].game, layout, &total_n);
        let at = branch::index(layout, &targets);
        let jobs: Vec<Job> = (0..n)
            .map(|j| {
                let game = games + j;
                let rng = master.random();
                if corpus.is_empty() || master.random_bool(0.2) {
                    let column = (game % s.tables.len() as u64) as usize;
                    return Job {
                        column,
                        seed: crate::sim::game_seed(s.seed ^ SALT, game),
                        prefix: Vec::new(),
                        avoid: None,
                        goal: None,
                        aim: None,
                        rng,
                        game,
                    };
                }
                let len = corpus.len();
                let e = if master.random_bool(0.5) {
                    len - 1 - master.random_range(0..len.min(16))
                } else {
                    master.random_range(0..len)
                };
                let mut parent = &x.finds[corpus[e] as usize];
                // half the mutations aim at a branch no game has taken,
                // from the game that came nearest to it (cut before then)
                let aim = (!targets.is_empty() && master.random_bool(0.5))
                    .then(|| master.random_range(0..targets.len()));
                let mut upto = parent.picks.len();
                if let Some(&(_, id, moves)) = aim.and_then(|k| best.get(&targets[k].key()))
                    && master.random_bool(0.75)
                {
                    parent = &x.finds[id as usize];
                    upto = (moves as usize).min(parent.picks.len());
                }
                let cut = match (aim.is_some(), upto) {
                    (_, 0) => 0,
                    // an aimed game may replay its parent up to its nearest
                    (true, u) => master.random_range(0..=u),
                    (false, u) => master.random_range(0..u),
                };
                let features = probes[parent.column].len();
                let goal = (features > 0 && master.random_bool(0.5))
                    .then(|| (master.random_range(0..features), master.random_bool(0.5)));
                Job {
                    column: parent.column,
                    seed: parent.seed,
                    prefix: parent.picks[..cut].to_vec(),
                    // an aimed game plays on from the cut, steered: a
                    // forced change there could break the very line that
                    // came nearest (a streak of lucky picks)
                    avoid: if aim.is_some() {
                        None
                    } else {
                        parent.picks.get(cut).copied()
                    },
                    goal,
                    aim,
                    rng,
                    game,
                }
            })
            .collect();
        let covered: Vec<bool> = total_a.iter().map(|a| *a > 0).collect();
        let aims = Aims {
            targets: &targets,
            at: &at,
        };
        let traces: Vec<Trace> = jobs
            .par_iter()
            .map(|j| {
                let t = &s.tables[j.column];
                guarded(t, &probes[j.column], &covered, j, s.limit, &aims)
            })
            .collect();
        let millis = started.elapsed().as_millis() as u64;
        for (job, tr) in jobs.into_iter().zip(traces) {
            x.games += 1;
            let id = x.finds.len() as u32;
            let mut new = false;
            for (i, &m) in tr.nodes.iter().enumerate() {
                if m == u32::MAX {
                    continue;
                }
                if total_n[i] == 0 {
                    x.first_node[i] = Some(Reach { find: id, moves: m });
                    new = true;
                    last_new = job.game + 1;
                }
                x.nodes[i] += 1;
                total_n[i] += 1;
            }
            for (i, &m) in tr.arms.iter().enumerate() {
                if m == u32::MAX {
                    continue;
                }
                if total_a[i] == 0 {
                    x.first_arm[i] = Some(Reach { find: id, moves: m });
                    new = true;
                    last_new = job.game + 1;
                }
                x.arms[i] += 1;
                total_a[i] += 1;
            }
            let c = job.column;
            // a game that failed is no line to build on
            let near = if tr.incident.is_none() {
                &tr.near[..]
            } else {
                &[]
            };
            for (k, &(d, moves)) in near.iter().enumerate() {
                let key = targets[k].key();
                if best.get(&key).is_none_or(|b| d < b.0) {
                    best.insert(key, (d, x.finds.len() as u32, moves));
                    new = true;
                }
            }
            for f in 0..tr.lo.len() {
                if tr.lo[f] < lo[c][f] {
                    lo[c][f] = tr.lo[f];
                    new = true;
                }
                if tr.hi[f] > hi[c][f] {
                    hi[c][f] = tr.hi[f];
                    new = true;
                }
            }
            let find = Find {
                column: c,
                seed: job.seed,
                picks: tr.picks,
                game: job.game,
                millis,
            };
            if let Some((kind, at, moves, failing_move, message)) = tr.incident {
                if s.known.contains(&(kind, at)) {
                    // the random games report it already
                } else if let Some(h) = x.hits.iter_mut().find(|h| (h.kind, h.at) == (kind, at)) {
                    h.count += 1;
                } else {
                    let mut f = find.clone();
                    f.picks.truncate(moves as usize);
                    x.hits.push(Hit {
                        kind,
                        at,
                        find: f,
                        failing_move,
                        message,
                        count: 1,
                    });
                }
                // a game that failed is no line to build on
                if x.first_node
                    .iter()
                    .chain(&x.first_arm)
                    .flatten()
                    .any(|r| r.find == id)
                {
                    x.finds.push(find);
                }
                continue;
            }
            if new {
                corpus.push(id);
                x.finds.push(find);
            }
        }
        x.corpus = corpus.len();
        open = open && left(&total_n, &total_a);
    }
    x.millis = started.elapsed().as_millis() as u64;
    x
}
