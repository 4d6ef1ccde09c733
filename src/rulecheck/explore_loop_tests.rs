//! Tests of the distance of a guard after a loop (`explore_loop.rs`): in a
//! small game whose loop files the next chip of the pile away as soon as a
//! chip in hand beats it, the guard "it was not filed" is measured at the
//! loop's start as the number of chips in hand that beat it, and is 0
//! exactly when the guard then goes the wanted way; and the same guard in
//! a phase whose card parameter it reads, measured outside its frame for
//! that card read where the guard ran (`explore_proxy::pinned`).

use super::after_loop;
use crate::engine::{Game, State};
use crate::graph::Node;
use crate::rulecheck::explore_dist::Target;

const RULES: &str = r#"
game "After a loop" { players 2..2 }
card Chip { value: int }
deck chips of Chip size 8 in pile {
  1 x { value: 1..8 }
}
zone pile: shared pile public
zone hand: shared pile public
zone filed: shared pile public
var score: int per player = 0
start {
  while count(pile) > 0 {
    choose seat(0) {
      "take the top" { move top(pile) to hand }
      "take the bottom" { move bottom(pile) to hand }
    }
    if count(pile) > 0 {
      let c = top(pile)
      for h in hand {
        let v = h.value
        if v > c.value and not in_zone(c, filed) {
          move c to filed
        }
      }
      if not in_zone(c, filed) {
        seat(1).score += 1
      }
    }
  }
  end game
}
winners highest p.score
"#;

/// The guard after the loop: its node and condition.
fn guard(game: &Game) -> (usize, crate::hir::Expr) {
    let nodes = &game.graph().phases[0].nodes;
    nodes
        .iter()
        .enumerate()
        .rev()
        .find_map(|(n, node)| match node {
            Node::JumpIfNot(e, _) if matches!(nodes[n - 1], Node::Jump(_)) => Some((n, e.clone())),
            _ => None,
        })
        .expect("a guard after a loop")
}

#[test]
fn a_guard_after_a_loop_is_as_far_as_the_ifs_that_would_run() {
    let game = Game::from_source("l.rules", RULES).expect("rules");
    let g = game.graph();
    let (n, e) = guard(&game);
    let (at, d) = after_loop(g, 0, n, &e, true).expect("taken through the loop");
    assert!(matches!(
        g.phases[0].nodes[at as usize],
        Node::ForStart { .. }
    ));
    let mut t = Target::new(0, n, true, d);
    t.at = at;
    let beat = game
        .probe("count(h in hand where h.value > top(pile).value)", 2)
        .expect("probe");
    // (distance at the loop's start, the probe there, the guard's way),
    // over games taking always the top, always the bottom, or in turn
    let mut seen: Vec<(u32, i32, bool)> = Vec::new();
    for pattern in [[0, 0], [1, 1], [0, 1], [1, 0]] {
        let mut state = State::new(&game, 2, 3, &game.default_options()).expect("start");
        let mut turn = 0;
        while !state.is_over() {
            let action = state.legal_actions(&game)[pattern[turn % 2]];
            turn += 1;
            state
                .apply_looking(&game, action, &mut |st: &State, p, node| {
                    if p == 0 && node == at {
                        let b = st.eval_probe(&game, &beat).expect("probe value");
                        seen.push((t.distance(&game, st), b, false));
                    } else if p == 0 && node as usize == n {
                        let went = st.eval_in_frame(&game, &e).expect("guard") != 0;
                        seen.last_mut().expect("measured first").2 = went;
                    }
                })
                .expect("a legal move");
        }
    }
    assert!(seen.len() >= 12, "{seen:?}");
    for (d, b, went) in &seen {
        assert_eq!(*d, *b as u32, "{seen:?}");
        assert_eq!(*d == 0, *went, "{seen:?}");
    }
    assert!(seen.iter().any(|(d, ..)| *d >= 2), "{seen:?}");
    assert!(seen.iter().any(|(d, ..)| *d == 0), "{seen:?}");
}

#[test]
fn a_loop_that_writes_outside_the_guarded_if_is_not_taken_through() {
    let text = RULES.replace(
        "        let v = h.value\n",
        "        let v = h.value\n        seat(0).score += 1\n",
    );
    let game = Game::from_source("l.rules", &text).expect("rules");
    let (n, e) = guard(&game);
    assert!(after_loop(game.graph(), 0, n, &e, true).is_none());
    // the guard wanted false: no `if` in the loop tests it that way
    let game = Game::from_source("l.rules", RULES).expect("rules");
    let (n, e) = guard(&game);
    assert!(after_loop(game.graph(), 0, n, &e, false).is_none());
}

const PINNED_RULES: &str = r#"
game "Pinned" { players 2..2 }
card Chip { value: int }
deck chips of Chip size 8 in pile {
  1 x { value: 1..8 }
}
zone pile: shared pile public
zone hand: shared pile public
zone filed: shared pile public
var score: int per player = 0
phase file(c: card) {
  for h in hand {
    if h.value > c.value and not in_zone(c, filed) {
      move c to filed
    }
  }
  if not in_zone(c, filed) {
    seat(1).score += 1
  }
}
start {
  while count(pile) > 0 {
    choose seat(0) {
      "take the top" { move top(pile) to hand }
      "take the bottom" { move bottom(pile) to hand }
    }
    if count(pile) > 0 {
      file(top(pile))
    }
  }
  end game
}
winners highest p.score
"#;

#[test]
fn a_guard_reading_a_card_parameter_is_measured_outside_its_frame_for_a_pinned_card() {
    use crate::rulecheck::explore_proxy::{pin, pinned, proxy};
    let game = Game::from_source("p.rules", PINNED_RULES).expect("rules");
    let g = game.graph();
    let p = g
        .phases
        .iter()
        .position(|ph| ph.params == 1)
        .expect("the phase with a card parameter");
    let nodes = &g.phases[p].nodes;
    let n = (1..nodes.len())
        .rev()
        .find(|&n| matches!(nodes[n], Node::JumpIfNot(..)) && matches!(nodes[n - 1], Node::Jump(_)))
        .expect("a guard after a loop");
    let Node::JumpIfNot(e, _) = &nodes[n] else {
        unreachable!()
    };
    let (at, d) = after_loop(g, p, n, e, true).expect("taken through the loop");
    let mut t = Target::new(p, n, true, d);
    t.at = at;
    // no proxy over the card's values; one for a card read where the guard ran
    assert!(proxy(g, p as u16, &t.dist).is_none());
    let (e, pins) = pinned(g, p as u16, &t.dist).expect("a pinned proxy");
    assert_eq!(pins, vec![0]);
    let mut seen = Vec::new();
    for pattern in [[0, 0], [1, 1], [0, 1]] {
        let mut state = State::new(&game, 2, 3, &game.default_options()).expect("start");
        let mut turn = 0;
        while !state.is_over() {
            let action = state.legal_actions(&game)[pattern[turn % 2]];
            turn += 1;
            state
                .apply_looking(&game, action, &mut |st: &State, ph, node| {
                    if ph as usize == p && node == at {
                        let c = st
                            .eval_in_frame(&game, &crate::hir::Expr::Local(0))
                            .expect("the card");
                        let probe = game.probe_of(pin(&e, &pins, &[c]), 2);
                        let outside = st.eval_probe(&game, &probe).expect("proxy value");
                        seen.push((t.distance(&game, st), outside as u32));
                    }
                })
                .expect("a legal move");
        }
    }
    assert!(seen.len() >= 9, "{seen:?}");
    assert!(seen.iter().all(|(d, o)| d == o), "{seen:?}");
    assert!(seen.iter().any(|(d, _)| *d >= 2), "{seen:?}");
}
