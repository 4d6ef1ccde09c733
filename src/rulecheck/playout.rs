//! One game of a simulation, watched closely: every action-graph node run
//! and every choice arm taken (coverage), the legal actions at each
//! decision (branching), the leader after each decision (lead changes), and
//! after setup and every decision the declared invariants and card
//! conservation. A game stops at its first incident. The same function
//! replays a game to collect the moves that reproduce an incident.
//!
//! A thread plays its games in one [`Seat`]: the state restarted in its
//! own buffers, the agents reseeded, the position table emptied; a game
//! played there is the game a fresh state plays.
//!
//! Game `i` has engine seed `grail::sim::game_seed(run_seed, i)` and seat
//! `p`'s agent seed `grail::sim::agent_seed(seed, p)`, as in `grail sim`.

use super::cycle::Cycles;
use super::stats::{At, Incident, Kind, Layout, Stats};
use crate::agent::AgentKind;
use crate::engine::{Action, EngineError, Game, State};
use crate::playout::{self, Observer, Stop};
use crate::sim::{Seated, game_seed};
use std::ops::ControlFlow;

/// One column of one game: what is fixed for all its games.
pub struct Table<'a> {
    pub game: &'a Game,
    pub layout: &'a Layout,
    pub players: usize,
    pub options: &'a [i32],
    pub agent: AgentKind,
    pub max_decisions: u32,
}

/// The unique leader under the winners rule, if there is one.
fn leader(scores: &[i32], highest: bool) -> Option<usize> {
    let best = if highest {
        scores.iter().max()
    } else {
        scores.iter().min()
    }?;
    let mut at = scores.iter().enumerate().filter(|(_, s)| *s == best);
    let (p, _) = at.next()?;
    at.next().is_none().then_some(p)
}

/// The win margin: how far the single winner's key is ahead of the best
/// of the others (0 for a shared win; none without a winner).
fn margin(scores: &[i32], winners: &[usize], highest: bool) -> Option<u32> {
    match winners {
        [] => None,
        [w] => {
            let mine = i64::from(*scores.get(*w)?);
            let others = scores
                .iter()
                .enumerate()
                .filter(|(p, _)| p != w)
                .map(|(_, s)| i64::from(*s));
            let best = if highest { others.max() } else { others.min() }?;
            let m = if highest { mine - best } else { best - mine };
            Some(m.clamp(0, i64::from(u32::MAX)) as u32)
        }
        _ => Some(0),
    }
}

/// Where a fault happened, as (phase, node) of the graph.
pub(super) fn fault_at(game: &Game, e: &EngineError, state: Option<&State>) -> At {
    match e {
        EngineError::Fault { phase, node, .. } => game
            .graph()
            .phases
            .iter()
            .position(|p| &p.name == phase)
            .map_or(At::Game, |i| At::Node(i as u16, *node)),
        _ => state
            .and_then(State::decision_node)
            .map_or(At::Game, |(p, n)| At::Node(p, n)),
    }
}

pub(super) fn kind_of(e: &EngineError) -> Kind {
    match e {
        EngineError::Runaway { .. } => Kind::DoesNotEnd,
        EngineError::Conservation(_) => Kind::CardLost,
        _ => Kind::RuleFault,
    }
}

/// Check the declared invariants and card conservation now.
pub(super) fn audit(game: &Game, state: &State) -> Option<(Kind, At, String)> {
    if let Some(text) = state.broken_invariant(game) {
        let i = game
            .graph()
            .tables
            .invariants
            .iter()
            .position(|(t, _)| *t == text)
            .unwrap_or(0);
        return Some((
            Kind::InvariantBroken,
            At::Invariant(i as u16),
            format!("invariant \"{text}\" does not hold"),
        ));
    }
    if let Err(e) = state.check_conservation(game) {
        return Some((Kind::CardLost, At::Game, e.to_string()));
    }
    None
}

/// What rulecheck watches in a game: coverage of nodes and arms,
/// branching, the picks made (for reproductions), the audits after setup
/// and every decision, and lead changes.
struct Watch<'a> {
    layout: &'a Layout,
    stats: &'a mut Stats,
    picks: Option<&'a mut Vec<u32>>,
    highest: bool,
    lead: Option<usize>,
    changes: u32,
    /// What an audit found, when it stopped the game.
    found: Option<(Kind, At, String)>,
    cycles: &'a mut Cycles,
    /// The scores after the last decision (a reused buffer).
    scores: &'a mut Vec<i32>,
    /// The seat of the game's first decision.
    first: Option<usize>,
}

impl Observer for Watch<'_> {
    fn node(&mut self, phase: u16, node: u32) {
        self.stats.nodes[self.layout.node(phase, node)] += 1;
    }

    fn decision(&mut self, game: &Game, state: &State, legal: &[Action], pick: usize) {
        self.stats.choices += 1;
        // Branching counts distinct moves: identical cards are one move.
        let distinct = state.distinct_count(game, legal);
        self.stats.offered += distinct as u64;
        self.stats.forced += u64::from(distinct == 1);
        if self.first.is_none() {
            self.first = state.chooser();
        }
        if let Some(p) = self.picks.as_deref_mut() {
            p.push(pick as u32);
        }
        let action = legal[pick];
        if action.arm != Action::PASS
            && let Some((phase, node)) = state.decision_node()
            && let Some(arm) = self.layout.arm(phase, node, action.arm)
        {
            self.stats.arms[arm] += 1;
            if let Some(v) = self.layout.value(arm, action.value)
                && let Some(c) = self.stats.values.get_mut(v)
            {
                *c += 1;
            }
        }
    }

    fn after(&mut self, game: &Game, state: &State, taken: u32) -> ControlFlow<()> {
        if let Some((kind, at, m)) = audit(game, state) {
            let m = if taken == 0 {
                format!("{m} after setup")
            } else {
                format!("{m} after move {taken}")
            };
            self.found = Some((kind, at, m));
            return ControlFlow::Break(());
        }
        if taken > 0 && !state.is_over() && self.cycles.seen(state) {
            let at = state
                .decision_node()
                .map_or(At::Game, |(p, n)| At::Cycle(p, n));
            let m = format!(
                "the same position came back {} times by move {taken}",
                super::cycle::REPEATS
            );
            self.found = Some((Kind::DoesNotEnd, at, m));
            return ControlFlow::Break(());
        }
        state.scores_into(game, self.scores);
        let now = leader(self.scores, self.highest);
        if taken == 0 {
            self.lead = now;
        } else if let Some(now) = now {
            if self.lead.is_some_and(|l| l != now) {
                self.changes += 1;
            }
            self.lead = Some(now);
        }
        ControlFlow::Continue(())
    }
}

/// What a thread keeps from one game to the next: the state (restarted
/// in its buffers), the agents (reseeded in place when they can be), the
/// table of positions, and the buffers of scores and legal actions.
pub struct Seat {
    state: Option<State>,
    seated: Seated,
    cycles: Cycles,
    scores: Vec<i32>,
    buf: Vec<Action>,
}

impl Default for Seat {
    fn default() -> Seat {
        Seat {
            state: None,
            seated: Seated::default(),
            cycles: Cycles::new(),
            scores: Vec::new(),
            buf: Vec::new(),
        }
    }
}

impl Seat {
    /// Drop the state, after a game the engine panicked in.
    pub fn forget_state(&mut self) {
        self.state = None;
    }
}

/// Play game `index` of the run seeded `run_seed` in `seat`, counting it
/// into `stats`. `picks`, when given, receives the index in the legal
/// actions of every move made (for reproductions).
pub fn play(
    t: &Table,
    run_seed: u64,
    index: u64,
    seat: &mut Seat,
    stats: &mut Stats,
    picks: Option<&mut Vec<u32>>,
) {
    let game = t.game;
    let seed = game_seed(run_seed, index);
    stats.games += 1;
    seat.seated.seat(t.players, seed, |_| t.agent);
    seat.cycles.clear();
    let Seat {
        state: slot,
        seated,
        cycles,
        scores,
        buf,
        ..
    } = seat;
    let mut w = Watch {
        layout: t.layout,
        stats,
        picks,
        highest: game.graph().tables.winners_highest,
        lead: None,
        changes: 0,
        found: None,
        cycles,
        scores,
        first: None,
    };
    let played = playout::play_in(
        game,
        slot,
        (t.players, seed, t.options),
        &mut |game: &Game, state: &State, p, legal: &[Action]| seated.pick(game, state, p, legal),
        &mut w,
        buf,
        Some(t.max_decisions),
    );
    let trouble = trouble(game, played, &mut w);
    let Some((kind, at, moves, failing_move, message)) = trouble else {
        return;
    };
    stats.incident(
        kind,
        at,
        Incident {
            game: index,
            seed,
            moves,
            failing_move,
            message,
        },
    );
}

/// What went wrong in a game: (kind, where, moves made, whether the last
/// move failed, message); `None` for a game that ended, which is counted
/// as finished here.
fn trouble(
    game: &Game,
    played: Result<(&State, playout::Playout), EngineError>,
    w: &mut Watch,
) -> Option<(Kind, At, u32, bool, String)> {
    let found = match played {
        Err(e) => {
            let m = match &e {
                EngineError::Fault { fault, .. } => format!("at setup: {fault}"),
                _ => format!("at setup: {e}"),
            };
            (kind_of(&e), fault_at(game, &e, None), 0, false, m)
        }
        Ok((state, run)) => {
            let taken = run.taken;
            match run.stop {
                Stop::Over => {
                    let winners = state.winners(game);
                    let (changes, first) = (w.changes, w.first);
                    let m = margin(&state.scores(game), &winners, w.highest);
                    w.stats.finish(
                        state.turns(),
                        state.decisions(),
                        &winners,
                        changes,
                        first,
                        m,
                    );
                    return None;
                }
                Stop::Capped => {
                    let m = format!(
                        "still running after {taken} decisions ({} turns)",
                        state.turns()
                    );
                    (Kind::DoesNotEnd, At::Game, taken, false, m)
                }
                Stop::Stuck => {
                    let at = state
                        .decision_node()
                        .map_or(At::Game, |(p, n)| At::Node(p, n));
                    let who = match state.chooser() {
                        Some(p) => format!("P{p} must choose but has no legal action"),
                        None => "nobody can act".to_string(),
                    };
                    let m = format!("{who} after {taken} decisions");
                    (Kind::Softlock, at, taken, false, m)
                }
                Stop::Fault(e) => {
                    let m = match &e {
                        EngineError::Fault { fault, .. } => format!("move {taken}: {fault}"),
                        _ => format!("move {taken}: {e}"),
                    };
                    (kind_of(&e), fault_at(game, &e, Some(state)), taken, true, m)
                }
                Stop::Observer => {
                    let (kind, at, m) = w.found.take().unwrap_or((
                        Kind::RuleFault,
                        At::Game,
                        "stopped".to_string(),
                    ));
                    (kind, at, taken, false, m)
                }
            }
        }
    };
    Some(found)
}

/// The moves of game `index` up to where it stopped, as indices into the
/// legal actions at each decision.
/// (A game the engine panics in gives the moves made before the panic.)
pub fn replay(t: &Table, run_seed: u64, index: u64) -> Vec<u32> {
    let mut stats = Stats::empty(t.layout, t.players);
    let mut picks = Vec::new();
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        play(
            t,
            run_seed,
            index,
            &mut Seat::default(),
            &mut stats,
            Some(&mut picks),
        )
    }));
    picks
}

#[cfg(test)]
mod tests {
    use super::{Kind, audit, leader};
    use crate::engine::{Game, State};

    const GAME: &str = "game \"G\" { players 2..2 }\n\
        card C { v: int }\n\
        deck cs of C size 3 in pile { 1 x { v: 1..3 } }\n\
        zone pile: shared pile hidden\n\
        zone out: shared pile public\n\
        invariant \"nothing is out\": count(out) == 0\n\
        start { choose seat(0) { \"wait\" { } } end game }\n\
        winners highest 0\n";

    #[test]
    fn audits_find_broken_invariants_and_lost_cards() {
        let game = Game::from_source("g", GAME).expect("compiles");
        let mut s = State::new(&game, 2, 1, &game.default_options()).expect("starts");
        assert_eq!(audit(&game, &s), None);
        let card = *s.table().zone(0).last().expect("a card");
        s.edit_table().lift(card);
        let (kind, _, m) = audit(&game, &s).expect("lost");
        assert_eq!(kind, Kind::CardLost, "{m}");
        s.edit_table().insert_at(1, 0, card);
        s.edit_table().set_card_zone(card as usize, 1);
        let (kind, _, m) = audit(&game, &s).expect("out");
        assert_eq!(kind, Kind::InvariantBroken);
        assert!(m.contains("nothing is out"), "{m}");
        // The card twice in the pile, then once there but indexed as out.
        s.edit_table().lift(card);
        s.edit_table().insert_at(0, 0, card);
        s.edit_table().insert_at(0, 0, card);
        s.edit_table().set_card_zone(card as usize, 0);
        let (kind, _, m) = audit(&game, &s).expect("twice");
        assert_eq!(kind, Kind::CardLost, "{m}");
        assert!(m.contains(&format!("card {card} appears twice")), "{m}");
        s.edit_table().lift(card);
        s.edit_table().set_card_zone(card as usize, 1);
        let (kind, _, m) = audit(&game, &s).expect("wrong zone");
        assert_eq!(kind, Kind::CardLost, "{m}");
        assert!(m.contains("indexed in the wrong zone"), "{m}");
    }

    #[test]
    fn leaders_are_unique() {
        assert_eq!(leader(&[3, 5, 1], true), Some(1));
        assert_eq!(leader(&[3, 5, 1], false), Some(2));
        assert_eq!(leader(&[5, 5, 1], true), None);
        assert_eq!(leader(&[], true), None);
    }
}
