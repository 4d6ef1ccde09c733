//! One game of a simulation, watched closely: every action-graph node run
//! and every choice arm taken (coverage), the legal actions at each
//! decision (branching), the leader after each decision (lead changes), and
//! after setup and every decision the declared invariants and card
//! conservation. A game stops at its first incident. The same function
//! replays a game to collect the moves that reproduce an incident.
//!
//! Game `i` has engine seed `grail::sim::game_seed(run_seed, i)` and seat
//! `p`'s agent seed `grail::sim::agent_seed(seed, p)`, as in `grail sim`.

use super::stats::{At, Incident, Kind, Layout, Stats};
use crate::agent::{Agent, AgentKind};
use crate::engine::{Action, EngineError, Game, State};
use crate::sim::{agent_seed, game_seed};

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
            .and_then(|s| s.frames.last())
            .map_or(At::Game, |f| At::Node(f.phase, f.pc)),
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

/// Play game `index` of the run seeded `run_seed`, counting it into `stats`.
/// `buf` is a reusable buffer; `picks`, when given, receives the index in
/// the legal actions of every move made (for reproductions).
pub fn play(
    t: &Table,
    run_seed: u64,
    index: u64,
    buf: &mut Vec<Action>,
    stats: &mut Stats,
    mut picks: Option<&mut Vec<u32>>,
) {
    let game = t.game;
    let layout = t.layout;
    let seed = game_seed(run_seed, index);
    stats.games += 1;
    let incident = |stats: &mut Stats, kind, at, moves, failing_move, message| {
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
    };
    let nodes = &mut stats.nodes;
    let started = State::new_observed(game, t.players, seed, t.options, &mut |p, n| {
        nodes[layout.node(p, n)] += 1
    });
    let mut state = match started {
        Ok(s) => s,
        Err(e) => {
            let at = fault_at(game, &e, None);
            let m = match &e {
                EngineError::Fault { message, .. } => format!("at setup: {message}"),
                _ => format!("at setup: {e}"),
            };
            incident(stats, kind_of(&e), at, 0, false, m);
            return;
        }
    };
    if let Some((kind, at, m)) = audit(game, &state) {
        incident(stats, kind, at, 0, false, format!("{m} after setup"));
        return;
    }
    let mut agents: Vec<Box<dyn Agent + Send>> = (0..t.players)
        .map(|p| t.agent.build(agent_seed(seed, p)))
        .collect();
    let highest = game.graph().tables.winners_highest;
    let mut lead = leader(&state.scores(game), highest);
    let mut changes = 0u32;
    let mut taken: u32 = 0;
    loop {
        if state.is_over() {
            let winners = state.winners(game);
            stats.finish(state.turns, state.decisions, &winners, changes);
            return;
        }
        if taken >= t.max_decisions {
            let m = format!(
                "still running after {taken} decisions ({} turns)",
                state.turns
            );
            incident(stats, Kind::DoesNotEnd, At::Game, taken, false, m);
            return;
        }
        state.legal_actions_into(game, buf);
        let (Some(seat), false) = (state.chooser(), buf.is_empty()) else {
            let at = state
                .frames
                .last()
                .map_or(At::Game, |f| At::Node(f.phase, f.pc));
            let who = match state.chooser() {
                Some(p) => format!("P{p} must choose but has no legal action"),
                None => "nobody can act".to_string(),
            };
            let m = format!("{who} after {taken} decisions");
            incident(stats, Kind::Softlock, at, taken, false, m);
            return;
        };
        stats.choices += 1;
        stats.offered += buf.len() as u64;
        stats.forced += u64::from(buf.len() == 1);
        let pick = agents[seat].choose(game, &state, buf).min(buf.len() - 1);
        let action = buf[pick];
        if let Some(p) = picks.as_deref_mut() {
            p.push(pick as u32);
        }
        if action.arm != Action::PASS
            && let Some(f) = state.frames.last()
            && let Some(arm) = layout.arm(f.phase, f.pc, action.arm)
        {
            stats.arms[arm] += 1;
        }
        let nodes = &mut stats.nodes;
        let applied = state.apply_observed(game, action, &mut |p, n| nodes[layout.node(p, n)] += 1);
        taken += 1;
        if let Err(e) = applied {
            let at = fault_at(game, &e, Some(&state));
            let m = match &e {
                EngineError::Fault { message, .. } => format!("move {taken}: {message}"),
                _ => format!("move {taken}: {e}"),
            };
            incident(stats, kind_of(&e), at, taken, true, m);
            return;
        }
        if let Some((kind, at, m)) = audit(game, &state) {
            incident(
                stats,
                kind,
                at,
                taken,
                false,
                format!("{m} after move {taken}"),
            );
            return;
        }
        if let Some(now) = leader(&state.scores(game), highest) {
            if lead.is_some_and(|l| l != now) {
                changes += 1;
            }
            lead = Some(now);
        }
    }
}

/// The moves of game `index` up to where it stopped, as indices into the
/// legal actions at each decision.
/// (A game the engine panics in gives the moves made before the panic.)
pub fn replay(t: &Table, run_seed: u64, index: u64) -> Vec<u32> {
    let mut stats = Stats::empty(t.layout, t.players);
    let mut picks = Vec::new();
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let buf = &mut Vec::new();
        play(t, run_seed, index, buf, &mut stats, Some(&mut picks))
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
        let card = s.core.zones[0].pop().expect("a card");
        let (kind, _, m) = audit(&game, &s).expect("lost");
        assert_eq!(kind, Kind::CardLost, "{m}");
        s.core.zones[1].push(card);
        s.core.card_zone[card as usize] = 1;
        let (kind, _, m) = audit(&game, &s).expect("out");
        assert_eq!(kind, Kind::InvariantBroken);
        assert!(m.contains("nothing is out"), "{m}");
    }

    #[test]
    fn leaders_are_unique() {
        assert_eq!(leader(&[3, 5, 1], true), Some(1));
        assert_eq!(leader(&[3, 5, 1], false), Some(2));
        assert_eq!(leader(&[5, 5, 1], true), None);
        assert_eq!(leader(&[], true), None);
    }
}
