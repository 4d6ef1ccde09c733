//! One explored game (`explore.rs`): replay a job's prefix, then make its
//! free choices (steered toward its branch target or state measure, or an
//! option never taken, or at random), noting the nodes and options it ran,
//! the state measures' extremes and how near each target's guard came.
//! A thread plays its explored games in one state restarted from game to
//! game, with the look-ahead's scratch states ([`Warm`]).

use super::explore_branch as branch;
use super::explore_dist::Target;
use super::explore_measure::look_ahead;
use super::playout::{Table, audit, fault_at, kind_of};
use super::stats::{At, Kind, Layout};
use crate::engine::{Action, Game, Probe, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How often an aimed game's free choice is steered toward its target.
pub(super) const STEER: f64 = 0.75;

/// One game to play: a fresh one, or a corpus entry's first moves and a
/// different choice at the cut.
pub(super) struct Job {
    pub(super) column: usize,
    pub(super) seed: u64,
    pub(super) prefix: Vec<u32>,
    /// The pick to avoid at decision `prefix.len()` (the parent's).
    pub(super) avoid: Option<u32>,
    /// A state measure to push (index, lowest first?): free choices look
    /// one move ahead for the option that moves it most, half the time.
    pub(super) goal: Option<(usize, bool)>,
    /// A branch target to steer toward (an index into the round's
    /// targets): free choices look ahead for it, a share of the time.
    pub(super) aim: Option<usize>,
    /// The values of the aimed target's pinned parameters where its guard
    /// came nearest (`Target::pins`; empty: its proxy, if pinned, is off).
    pub(super) pins: Vec<i32>,
    /// Resuming the nearest game: its moves from the cut on, played again
    /// (each where it is legal, within [`WINDOW`] of the last one played)
    /// once `detour` free choices after the cut were steered; empty: none.
    pub(super) tail: Vec<Action>,
    pub(super) detour: u32,
    pub(super) rng: u64,
    pub(super) game: u64,
}

/// How far ahead in a resumed game's moves the next legal one is looked for.
const WINDOW: usize = 6;

/// What one explored game did.
pub(super) struct Trace {
    /// For each flat node and arm: the moves made when it first ran (0 at
    /// setup), `u32::MAX` if it never did.
    pub(super) nodes: Vec<u32>,
    pub(super) arms: Vec<u32>,
    pub(super) picks: Vec<u32>,
    /// The actions picked, in order (kept for a game that came nearest a
    /// target, to be resumed).
    pub(super) actions: Vec<Action>,
    pub(super) lo: Vec<i32>,
    pub(super) hi: Vec<i32>,
    pub(super) incident: Option<(Kind, At, u32, bool, String)>,
    /// For each target: the nearest its guard came, and after how many moves.
    pub(super) near: Vec<(u32, u32)>,
    /// For the aimed target: the nearest its distance outside its guard
    /// came at a decision, and after how many moves.
    pub(super) near_proxy: (u32, u32),
    /// For each target with pins: their values where its guard came nearest.
    pub(super) near_pins: Vec<Vec<i32>>,
}

/// The branch targets of a round, and for each flat node its target.
pub(super) struct Aims<'a> {
    pub(super) targets: &'a [Target],
    pub(super) at: &'a [u16],
}

impl Trace {
    fn new(layout: &Layout, features: usize, targets: usize) -> Trace {
        Trace {
            nodes: vec![u32::MAX; layout.nodes],
            arms: vec![u32::MAX; layout.arms],
            picks: Vec::new(),
            actions: Vec::new(),
            lo: vec![i32::MAX; features],
            hi: vec![i32::MIN; features],
            incident: None,
            near: vec![(u32::MAX, 0); targets],
            near_proxy: (u32::MAX, 0),
            near_pins: vec![Vec::new(); targets],
        }
    }

    /// The nearest the aimed target's `proxy` came, after `taken` moves;
    /// whether it is 0 now (all it measures met).
    fn measure_proxy(
        &mut self,
        game: &Game,
        state: &State,
        proxy: Option<&Probe>,
        taken: u32,
    ) -> bool {
        let Some(v) = proxy.and_then(|p| state.eval_probe(game, p).ok()) else {
            return false;
        };
        let v = v.max(0) as u32;
        if v < self.near_proxy.0 {
            self.near_proxy = (v, taken);
        }
        v == 0
    }

    /// The state measures' new extremes.
    fn measure(&mut self, game: &Game, state: &State, probes: &[(String, Probe)]) {
        for (f, (_, probe)) in probes.iter().enumerate() {
            if let Ok(v) = state.eval_probe(game, probe) {
                self.lo[f] = self.lo[f].min(v);
                self.hi[f] = self.hi[f].max(v);
            }
        }
    }
}

/// How the free choices of one explored game are made.
struct Chooser<'a> {
    job: &'a Job,
    aims: &'a Aims<'a>,
    probes: &'a [(String, Probe)],
    covered: &'a [bool],
    /// The aimed target's distance outside its guard, as a probe.
    proxy: Option<Probe>,
    rng: ChaCha8Rng,
    fresh: Vec<usize>,
    /// The look-ahead's scratch states, warm for the thread's games.
    scratch: &'a mut branch::Scratch,
    /// The aimed target's proxy is 0 at this decision: every free choice
    /// is steered, so that what it measures stays met (a random pick among
    /// the options that keep it so) while the game plays on to the guard.
    hold: bool,
    /// The next of the job's `tail` moves to play again.
    resumed: usize,
    /// The options this game avoids where another is offered: those that
    /// shut the way to its target (`Target::shut`), in half the games
    /// aimed at one; empty: none.
    shut: &'a [usize],
}

impl Chooser<'_> {
    /// A resumed game's next move that is legal here (within [`WINDOW`] of
    /// the last one played again), unless it would undo what the held
    /// proxy measures.
    fn resume(&mut self, game: &Game, state: &State, buf: &[Action], k: usize) -> Option<usize> {
        let job = self.job;
        if job.tail.is_empty() || k < job.prefix.len() + job.detour as usize {
            return None;
        }
        let end = (self.resumed + WINDOW).min(job.tail.len());
        let (j, i) = (self.resumed..end)
            .find_map(|j| buf.iter().position(|a| *a == job.tail[j]).map(|i| (j, i)))?;
        if self.hold
            && let Some(proxy) = &self.proxy
        {
            let next = self.scratch.state(state);
            next.clone_from(state);
            let kept = next.apply(game, buf[i]).is_ok()
                && next.eval_probe(game, proxy).is_ok_and(|v| v <= 0);
            if !kept {
                return None;
            }
        }
        self.resumed = j + 1;
        Some(i)
    }

    /// `i`, or at random among the options left where `i` would shut the
    /// way ([`Chooser::shut`]); never at a prefix's decision `k`.
    fn keep_open(
        &mut self,
        buf: &[Action],
        k: usize,
        i: usize,
        arm_of: &dyn Fn(&Action) -> Option<usize>,
    ) -> usize {
        let shut = self.shut;
        let closes = |a: &Action| arm_of(a).is_some_and(|f| shut.binary_search(&f).is_ok());
        if k < self.job.prefix.len() || shut.is_empty() || !closes(&buf[i]) {
            return i;
        }
        let open = buf.iter().filter(|a| !closes(a)).count();
        if open == 0 {
            return i;
        }
        let nth = self.rng.random_range(0..open);
        (0..buf.len())
            .filter(|j| !closes(&buf[*j]))
            .nth(nth)
            .unwrap_or(i)
    }

    /// The pick at decision `k` among `buf` (`arm_of` maps an action to its
    /// flat arm): the prefix's, else resumed, steered, fresh or at random.
    fn pick(
        &mut self,
        game: &Game,
        state: &State,
        buf: &[Action],
        k: usize,
        arm_of: &dyn Fn(&Action) -> Option<usize>,
    ) -> usize {
        let job = self.job;
        if k < job.prefix.len() {
            return (job.prefix[k] as usize).min(buf.len() - 1);
        }
        self.fresh.clear();
        let covered = self.covered;
        self.fresh
            .extend((0..buf.len()).filter(|&i| arm_of(&buf[i]).is_some_and(|a| !covered[a])));
        let avoid = job.avoid.filter(|_| k == job.prefix.len() && buf.len() > 1);
        if let Some(a) = avoid {
            self.fresh.retain(|&i| i != a as usize);
        }
        if let Some(i) = self.resume(game, state, buf, k) {
            return i;
        }
        let steer = avoid.is_none() && buf.len() > 1;
        if let Some(i) = self.steered(game, state, buf, steer) {
            return i;
        }
        let rng = &mut self.rng;
        if !self.fresh.is_empty() && rng.random_bool(0.75) {
            return self.fresh[rng.random_range(0..self.fresh.len())];
        }
        match avoid {
            Some(a) => {
                let i = rng.random_range(0..buf.len() - 1);
                if i >= a as usize { i + 1 } else { i }
            }
            None => rng.random_range(0..buf.len()),
        }
    }

    /// Half the time, the option toward the job's branch target, else the
    /// one that pushes its state measure.
    fn steered(
        &mut self,
        game: &Game,
        state: &State,
        buf: &[Action],
        steer: bool,
    ) -> Option<usize> {
        let job = self.job;
        let aimed = match job.aim {
            Some(k) if steer && (self.hold || self.rng.random_bool(STEER)) => {
                self.aims.targets.get(k).and_then(|t| {
                    branch::toward(
                        game,
                        state,
                        buf,
                        t,
                        self.proxy.as_ref(),
                        &mut self.rng,
                        self.scratch,
                    )
                })
            }
            _ => None,
        };
        match job.goal {
            _ if aimed.is_some() => aimed,
            Some((f, low)) if steer && self.rng.random_bool(0.5) => {
                self.probes.get(f).and_then(|(_, p)| {
                    let next = self.scratch.state(state);
                    look_ahead(game, state, buf, p, low, &mut self.rng, next)
                })
            }
            _ => None,
        }
    }
}

/// The node the state stopped at (for a softlock's label).
fn stopped_at(state: &State) -> At {
    state
        .frames()
        .last()
        .map_or(At::Game, |f| At::Node(f.phase, f.pc))
}

/// What a thread keeps from one explored game to the next: the state
/// (restarted in its buffers, as `sim`'s games are) and the look-ahead's
/// scratch states, so that a game allocates no new state once warm.
#[derive(Default)]
pub(super) struct Warm {
    state: Option<State>,
    scratch: branch::Scratch,
    buf: Vec<Action>,
}

thread_local! {
    /// This thread's [`Warm`], taken for a game and given back after it
    /// (not after a panic: a state the engine panicked in is dropped).
    static WARM: std::cell::Cell<Option<Box<Warm>>> = const { std::cell::Cell::new(None) };
}

/// The job's table set up in `slot` (restarted there when it holds a
/// state, as [`State::new`] would start it), its nodes noted in `tr`
/// (`None`: it failed, and `tr` says how).
fn set_up<'s>(
    t: &Table,
    job: &Job,
    tr: &mut Trace,
    slot: &'s mut Option<State>,
) -> Option<&'s mut State> {
    let (game, layout) = (t.game, t.layout);
    let nodes = &mut tr.nodes;
    let mut seen = |p: u16, n: u32| nodes[layout.node(p, n)] = 0;
    let started = match slot {
        Some(s) => s.restart_observed(game, t.players, job.seed, t.options, &mut seen),
        None => State::new_observed(game, t.players, job.seed, t.options, &mut seen)
            .map(|s| *slot = Some(s)),
    };
    if let Err(e) = started {
        let m = format!("at setup: {e}");
        tr.incident = Some((kind_of(&e), fault_at(game, &e, None), 0, false, m));
        return None;
    }
    let state = slot.as_mut()?;
    if let Some((k, at, m)) = audit(game, state) {
        tr.incident = Some((k, at, 0, false, format!("{m} after setup")));
        return None;
    }
    Some(state)
}

/// The aimed target's distance outside its guard, as a probe (its pinned
/// parameters read as the job's values; none without them).
fn aimed_proxy(t: &Table, job: &Job, aims: &Aims) -> Option<Probe> {
    let tg = aims.targets.get(job.aim?)?;
    let e = tg.proxy.as_ref()?;
    if tg.pins.len() != job.pins.len() {
        return None;
    }
    let e = match tg.pins.is_empty() {
        true => e.clone(),
        false => super::explore_proxy::pin(e, &tg.pins, &job.pins),
    };
    Some(t.game.probe_of(e, t.players))
}

/// The options a game avoids ([`Chooser::shut`]): its target's, in the
/// games aimed at it whose seed has an even bit 32 (half of them, with no
/// draw from the game's own generator).
fn shut_of<'a>(job: &Job, aims: &Aims<'a>) -> &'a [usize] {
    match job.aim.and_then(|k| aims.targets.get(k)) {
        Some(t) if (job.rng >> 32) & 1 == 0 => &t.shut,
        _ => &[],
    }
}

pub(super) fn play(
    t: &Table,
    probes: &[(String, Probe)],
    covered: &[bool],
    job: &Job,
    limit: u32,
    aims: &Aims,
    warm: &mut Warm,
) -> Trace {
    let (game, layout) = (t.game, t.layout);
    let mut tr = Trace::new(layout, probes.len(), aims.targets.len());
    let Some(state) = set_up(t, job, &mut tr, &mut warm.state) else {
        return tr;
    };
    let mut ch = Chooser {
        job,
        aims,
        probes,
        covered,
        proxy: aimed_proxy(t, job, aims),
        rng: ChaCha8Rng::seed_from_u64(job.rng),
        fresh: Vec::new(),
        scratch: &mut warm.scratch,
        hold: false,
        resumed: 0,
        shut: shut_of(job, aims),
    };
    let buf = &mut warm.buf;
    let mut taken = 0u32;
    loop {
        tr.measure(game, state, probes);
        ch.hold = tr.measure_proxy(game, state, ch.proxy.as_ref(), taken);
        if state.is_over() || taken >= limit {
            return tr;
        }
        state.legal_actions_into(game, buf);
        if state.chooser().is_none() || buf.is_empty() {
            let m = format!("no legal action after {taken} decisions");
            tr.incident = Some((Kind::Softlock, stopped_at(state), taken, false, m));
            return tr;
        }
        let frame = state.frames().last().map(|f| (f.phase, f.pc));
        let arm_of = |a: &Action| {
            let (p, n) = frame?;
            (a.arm != Action::PASS)
                .then(|| layout.arm(p, n, a.arm))
                .flatten()
        };
        let pick = ch.pick(game, state, buf, taken as usize, &arm_of);
        let pick = ch.keep_open(buf, taken as usize, pick, &arm_of);
        let action = buf[pick];
        tr.picks.push(pick as u32);
        tr.actions.push(action);
        if let Some(a) = arm_of(&action)
            && tr.arms[a] == u32::MAX
        {
            tr.arms[a] = taken + 1;
        }
        taken += 1;
        if let Err(e) = step(&mut tr, t, aims, state, action, taken) {
            let at = fault_at(game, &e, Some(&*state));
            let m = format!("move {taken}: {e}");
            tr.incident = Some((kind_of(&e), at, taken, true, m));
            return tr;
        }
        if let Some((k, at, m)) = audit(game, state) {
            tr.incident = Some((k, at, taken, false, format!("{m} after move {taken}")));
            return tr;
        }
    }
}

/// Apply `action` (move number `taken`), noting the nodes it runs and how
/// near each target's guard comes.
fn step(
    tr: &mut Trace,
    t: &Table,
    aims: &Aims,
    state: &mut State,
    action: Action,
    taken: u32,
) -> Result<(), crate::engine::EngineError> {
    let (game, layout) = (t.game, t.layout);
    let (nodes, near, pins) = (&mut tr.nodes, &mut tr.near, &mut tr.near_pins);
    state.apply_looking(game, action, &mut |st: &State, p, n| {
        let i = layout.node(p, n);
        if nodes[i] == u32::MAX {
            nodes[i] = taken;
        }
        let Some(&first) = aims.at.get(i).filter(|k| **k != u16::MAX) else {
            return;
        };
        // the targets of one node follow each other
        for (k, tg) in aims.targets.iter().enumerate().skip(first as usize) {
            if (tg.phase, tg.at) != (p, n) {
                break;
            }
            let d = tg.distance(game, st);
            if d < near[k].0 {
                near[k] = (d, taken);
                if !tg.pins.is_empty() {
                    pins[k].clear();
                    pins[k].extend(tg.pins.iter().map(|s| {
                        st.eval_in_frame(game, &crate::hir::Expr::Local(*s))
                            .unwrap_or(-1)
                    }));
                }
            }
        }
    })
}

/// Play `job`, turning a panic into a fault of the whole game.
pub(super) fn guarded(
    t: &Table,
    probes: &[(String, Probe)],
    covered: &[bool],
    job: &Job,
    limit: u32,
    aims: &Aims,
) -> Trace {
    let mut warm = WARM.take().unwrap_or_default();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let tr = play(t, probes, covered, job, limit, aims, &mut warm);
        WARM.set(Some(warm));
        tr
    }))
    .unwrap_or_else(|payload| Trace {
        nodes: Vec::new(),
        arms: Vec::new(),
        picks: job.prefix.clone(),
        actions: Vec::new(),
        lo: Vec::new(),
        hi: Vec::new(),
        near: Vec::new(),
        near_proxy: (u32::MAX, 0),
        near_pins: Vec::new(),
        incident: Some((
            Kind::RuleFault,
            At::Game,
            u32::MAX,
            false,
            super::simulate::panic_message(payload.as_ref()),
        )),
    })
}

#[cfg(test)]
#[path = "explore_play_tests.rs"]
mod tests;
