//! Tests of the branch distance (`explore_branch.rs`) of `any` and `all`:
//! measured as counts (witnesses, counter-examples) or as the nearest
//! element, checked against the same numbers written as probes, at every
//! run of a guard in a small game that deals six chips of values 1 to 6
//! one at a time; and the count taken outside the guard's frame
//! (`explore_proxy.rs`), over the values of the guard's player local; and
//! a loop first in an `if`'s body measured at the guard above it, and
//! linked to it (`explore_link.rs`); and the parts of an `and` taken
//! outside the frame for the same values of the guard's locals, a local
//! set once read as its value; and two squares compared for identity,
//! measured as how far apart they are on the board.

use super::super::explore_dist::{FAR, Target, build};
use crate::engine::{Game, State};
use crate::graph::Node;
use crate::hir::Expr;
use crate::syntax::ast::{AggKind, BinOp};

const RULES: &str = r#"
game "Quantifiers" { players 2..2 }
card Chip { value: int }
deck chips of Chip size 6 in pile {
  1 x { value: 1..6 }
}
zone pile: shared pile public
zone hand: shared pile public
var score: int per player = 0
fn big(n: int) -> bool = any(c in hand where c.value > n)
start {
  while count(pile) > 0 {
    choose seat(0) {
      "take the top" { move top(pile) to hand }
      "take the bottom" { move bottom(pile) to hand }
    }
    if not big(3) {
      seat(0).score += 1
    }
    if all(c in hand where c.value < 3) {
      seat(1).score += 1
    }
  }
  end game
}
winners highest p.score
"#;

/// The guard of phase 0 whose condition `pick` recognises.
fn guard(game: &Game, pick: impl Fn(&Expr) -> bool) -> (usize, Expr) {
    let nodes = &game.graph().phases[0].nodes;
    nodes
        .iter()
        .enumerate()
        .find_map(|(n, node)| match node {
            Node::JumpIfNot(e, _) if pick(e) => Some((n, e.clone())),
            _ => None,
        })
        .expect("the guard is in the graph")
}

/// At every run of target `t`'s guard, in a game taking the bottom chip then
/// the top one in turn: its distance and the probe's value.
fn measured(game: &Game, t: &Target, probe: &str) -> Vec<(u32, i32)> {
    let probe = game.probe(probe, 2).expect("probe");
    let mut state = State::new(game, 2, 7, &game.default_options()).expect("start");
    let mut out = Vec::new();
    let mut turn = 0;
    while !state.is_over() {
        let action = state.legal_actions(game)[(turn + 1) % 2];
        turn += 1;
        state
            .apply_looking(game, action, &mut |st: &State, p, n| {
                if p == t.phase && n == t.at {
                    let want = st.eval_probe(game, &probe).expect("probe value");
                    out.push((t.distance(game, st), want));
                }
            })
            .expect("a legal move");
    }
    assert_eq!(out.len(), 6, "the guard runs once per chip taken");
    out
}

fn is_all(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Agg {
            kind: AggKind::All,
            ..
        }
    )
}

fn target(game: &Game, pick: impl Fn(&Expr) -> bool, want: bool) -> Target {
    let (n, e) = guard(game, pick);
    Target::new(0, n, want, build(game.graph(), 0, &e, want, &[]))
}

#[test]
fn an_any_wanted_false_is_as_far_as_its_witnesses_through_a_function() {
    let game = Game::from_source("q.rules", RULES).expect("rules");
    // `not big(3)`: the body wants `any(c in hand where c.value > 3)` false
    let t = target(&game, |e| matches!(e, Expr::Not(_)), true);
    let seen = measured(&game, &t, "count(c in hand where c.value > 3)");
    for (d, want) in &seen {
        assert_eq!(*d, *want as u32, "{seen:?}");
    }
    // a slope: 0 while no big chip is held, then 1, 2, 3
    let mut ds: Vec<u32> = seen.iter().map(|(d, _)| *d).collect();
    ds.dedup();
    assert!(ds.len() >= 3, "{seen:?}");
}

#[test]
fn an_any_wanted_true_is_as_far_as_its_nearest_element() {
    let game = Game::from_source("q.rules", RULES).expect("rules");
    // the `not big(3)` guard wanted false: some chip above 3
    let t = target(&game, |e| matches!(e, Expr::Not(_)), false);
    let near = "if count(hand) == 0 then 1000 else \
                min((if c.value > 3 then 0 else 4 - c.value) for c in hand)";
    let seen = measured(&game, &t, near);
    for (d, want) in &seen {
        assert_eq!(*d, *want as u32, "{seen:?}");
    }
    assert!(seen.iter().any(|(d, _)| *d > 0 && *d < FAR), "{seen:?}");
}

#[test]
fn an_all_wanted_true_is_as_far_as_its_counter_examples() {
    let game = Game::from_source("q.rules", RULES).expect("rules");
    let t = target(&game, is_all, true);
    let seen = measured(&game, &t, "count(c in hand where c.value >= 3)");
    for (d, want) in &seen {
        assert_eq!(*d, *want as u32, "{seen:?}");
    }
    assert!(seen.iter().any(|(d, _)| *d >= 2), "{seen:?}");
}

#[test]
fn an_all_wanted_false_is_as_far_as_its_nearest_counter_example() {
    let game = Game::from_source("q.rules", RULES).expect("rules");
    let t = target(&game, is_all, false);
    let near = "if count(hand) == 0 then 1000 else \
                min((if c.value >= 3 then 0 else 3 - c.value) for c in hand)";
    let seen = measured(&game, &t, near);
    for (d, want) in &seen {
        assert_eq!(*d, *want as u32, "{seen:?}");
    }
    assert!(seen.iter().any(|(d, _)| *d > 0 && *d < FAR), "{seen:?}");
}

const PROXY_RULES: &str = r#"
game "Proxy" { players 2..2 }
card Chip { value: int }
deck chips of Chip size 6 in pile {
  1 x { value: 1..6 }
}
zone pile: shared pile public
zone hand: per player pile public
var score: int per player = 0
fn holds(p: player) -> bool = any(c in p.hand where c.value > 3)
start {
  while count(pile) > 0 {
    choose seat(0) {
      "to the first" { move top(pile) to seat(0).hand }
      "to the second" { move top(pile) to seat(1).hand }
    }
    for q in players {
      if not holds(q) {
        q.score += 1
      }
    }
  }
  end game
}
winners highest p.score
"#;

#[test]
fn outside_its_frame_an_any_wanted_false_counts_for_the_nearest_player() {
    let game = Game::from_source("p.rules", PROXY_RULES).expect("rules");
    let t = target(&game, |e| matches!(e, Expr::Not(_)), true);
    let e = super::proxy::proxy(game.graph(), 0, &t.dist).expect("a proxy over the players");
    let mut proxy = game.probe("0", 2).expect("probe");
    proxy.set_expr(e);
    let fewest = "min(count(c in p.hand where c.value > 3) for p in players)";
    let fewest = game.probe(fewest, 2).expect("probe");
    let mut state = State::new(&game, 2, 7, &game.default_options()).expect("start");
    let mut seen = Vec::new();
    let mut turn = 0;
    while !state.is_over() {
        let d = state.eval_probe(&game, &proxy).expect("proxy value");
        seen.push((d, state.eval_probe(&game, &fewest).expect("probe value")));
        let action = state.legal_actions(&game)[turn % 2];
        turn += 1;
        state.apply(&game, action).expect("a legal move");
    }
    assert_eq!(seen.len(), 6, "{seen:?}");
    for (d, want) in &seen {
        assert_eq!(d, want, "{seen:?}");
    }
    assert!(seen.iter().any(|(d, _)| *d >= 1), "{seen:?}");
}

const NESTED: &str = r#"
game "Nested" { players 2..2 }
card Chip { value: int }
deck chips of Chip size 6 in pile {
  1 x { value: 1..6 }
}
zone pile: shared pile public
zone hand: shared pile public
var score: int per player = 0
start {
  while count(pile) > 0 {
    choose seat(0) {
      "take the top" { move top(pile) to hand }
      "take the bottom" { move bottom(pile) to hand }
    }
    if count(hand) >= 4 {
      for c in hand where count(pile) == 7 {
        seat(1).score += 1
      }
    }
  }
  end game
}
winners highest p.score
"#;

#[test]
fn a_loop_first_in_an_if_is_measured_at_the_guard_above() {
    let game = Game::from_source("n.rules", NESTED).expect("rules");
    let g = game.graph();
    let n = g.phases[0]
        .nodes
        .iter()
        .position(|node| matches!(node, Node::ForNext { .. }))
        .expect("the loop is in the graph");
    let options = game.default_options();
    let columns = [(options.as_slice(), 2)];
    let mut t = super::aim::loop_target(g, 0, n, &columns).expect("a loop target");
    super::aim::under_guard(g, &mut t);
    let (above, _) = guard(&game, |e| matches!(e, Expr::Bin(BinOp::Ge, ..)));
    assert_eq!((t.node, t.at), (n as u32, above as u32));
    // the guard's gap, then the filter's (the pile never holds 7)
    let probe = "(if count(hand) >= 4 then 0 else 4 - count(hand)) + 7 - count(pile)";
    let seen = measured(&game, &t, probe);
    for (d, want) in &seen {
        assert_eq!(*d, *want as u32, "{seen:?}");
    }
    // 1 to 3 chips in hand: the guard 3 to 1 short, the filter 2 to 4
    let ds: Vec<u32> = seen.iter().map(|(d, _)| *d).collect();
    assert_eq!(ds, [5, 5, 5, 5, 6, 7]);
}

const LINKED: &str = r#"
game "Linked" { players 2..2 }
card Chip { value: int }
deck chips of Chip size 6 in pile {
  1 x { value: 1..6 }
}
zone pile: shared pile public
zone hand: shared pile public
var score: int per player = 0
fn big(n: int) -> bool = any(c in hand where c.value > n)
start {
  while count(pile) > 0 {
    choose seat(0) {
      "take the top" { move top(pile) to hand }
      "take the bottom" { move bottom(pile) to hand }
    }
    if not big(4) {
      for d in hand where d.value >= 3 {
        seat(1).score += 1
      }
    }
  }
  end game
}
winners highest p.score
"#;

#[test]
fn a_loop_under_a_guard_wanting_none_of_its_collection_needs_an_element_failing_it_too() {
    let game = Game::from_source("l.rules", LINKED).expect("rules");
    let g = game.graph();
    let n = g.phases[0]
        .nodes
        .iter()
        .position(|node| matches!(node, Node::ForNext { .. }))
        .expect("the loop is in the graph");
    let options = game.default_options();
    let columns = [(options.as_slice(), 2)];
    let mut t = super::aim::loop_target(g, 0, n, &columns).expect("a loop target");
    super::aim::under_guard(g, &mut t);
    super::link(g, &mut t);
    // the guard's witnesses (chips above 4), then the nearest chip to both
    // 3 or more (the filter) and 4 or less (failing the guard's test)
    let probe = "count(c in hand where c.value > 4) + (if count(hand) == 0 then 1000 else \
                 min(((if c.value >= 3 then 0 else 3 - c.value) \
                 + (if c.value > 4 then c.value - 4 else 0)) for c in hand))";
    let seen = measured(&game, &t, probe);
    for (d, want) in &seen {
        assert_eq!(*d, *want as u32, "{seen:?}");
    }
    // the filter alone would be met by the first chip of 3 or more even
    // while only big chips are held: linked, a hand of big chips is not 0
    assert!(seen.iter().any(|(d, _)| *d > 0), "{seen:?}");
}

const JOINT: &str = r#"
game "Joint" { players 2..2 }
card Chip { value: int }
deck chips of Chip size 6 in pile {
  1 x { value: 1..6 }
}
zone pile: shared pile public
zone hand: per player pile public
var score: int per player = 0
fn holds(p: player) -> bool = any(c in p.hand where c.value > 3)
phase check(q: player) {
  let n = count(q.hand)
  if not holds(q) and n >= 3 {
    q.score += 1
  }
}
start {
  while count(pile) > 0 {
    choose seat(0) {
      "to the first" { move top(pile) to seat(0).hand }
      "to the second" { move top(pile) to seat(1).hand }
    }
    for q in players {
      check(q)
    }
  }
  end game
}
winners highest p.score
"#;

#[test]
fn outside_its_frame_the_parts_of_an_and_are_measured_for_the_same_player() {
    let game = Game::from_source("j.rules", JOINT).expect("rules");
    let g = game.graph();
    let p = g
        .phases
        .iter()
        .position(|ph| ph.name == "check")
        .expect("the phase");
    let (n, e) = g.phases[p]
        .nodes
        .iter()
        .enumerate()
        .find_map(|(n, node)| match node {
            Node::JumpIfNot(e, _) => Some((n, e.clone())),
            _ => None,
        })
        .expect("the guard");
    let t = Target::new(p, n, true, build(g, p as u16, &e, true, &[]));
    // `n` is set once from the parameter: read as `count(q.hand)`
    let e = super::proxy::proxy(g, p as u16, &t.dist).expect("a proxy over the players");
    let mut proxy = game.probe("0", 2).expect("probe");
    proxy.set_expr(e);
    let short = "(if count(p.hand) >= 3 then 0 else 3 - count(p.hand))";
    let big = "count(c in p.hand where c.value > 3)";
    let joint = game.probe(&format!("min(({big} + {short}) for p in players)"), 2);
    let apart = format!("min({big} for p in players) + min({short} for p in players)");
    let (joint, apart) = (joint.expect("probe"), game.probe(&apart, 2).expect("probe"));
    let mut state = State::new(&game, 2, 7, &game.default_options()).expect("start");
    let mut seen = Vec::new();
    let mut turn = 0;
    while !state.is_over() {
        let d = state.eval_probe(&game, &proxy).expect("proxy value");
        let value = |probe| state.eval_probe(&game, probe).expect("probe value");
        seen.push((d, value(&joint), value(&apart)));
        // all but the last chip to the first player
        let action = state.legal_actions(&game)[usize::from(turn == 5)];
        turn += 1;
        state.apply(&game, action).expect("a legal move");
    }
    assert_eq!(seen.len(), 6, "{seen:?}");
    for (d, want, _) in &seen {
        assert_eq!(d, want, "{seen:?}");
    }
    // the nearest player to both parts is not each part's nearest
    assert!(seen.iter().any(|(d, _, apart)| d != apart), "{seen:?}");
}

const WALK: &str = r#"
game "Walk" { players 2..2 }
card Chip { value: int }
deck chips of Chip size 1 in pile {
  1 x { value: 1..1 }
}
zone pile: shared pile public
board field {
  grid 8 x 8
}
pattern ring: step (0,1) (1,1) (1,0) (1,-1) (0,-1) (-1,-1) (-1,0) (-1,1)
var tok: card = none
var score: int per player = 0
fn abs(v: int) -> int = if v < 0 then -v else v
fn apart(z: zone) -> int =
  if abs(x_of(z) - 5) > abs(y_of(z) - 4) then abs(x_of(z) - 5) else abs(y_of(z) - 4)
start {
  tok = top(pile)
  move tok to cell(0, 0)
  while seat(0).score < 12 {
    choose seat(0) {
      "step to {t}" for t in moves(zone_of(tok), ring, 0, 1) { move tok to t }
    }
    seat(0).score += 1
    let here = zone_of(tok)
    if here == cell(5, 4) {
      seat(1).score += 1
    }
    if zone_of(tok) == pile {
      seat(1).score += 2
    }
  }
  end game
}
winners highest p.score
"#;

/// At every run of target `t`'s guard in a walk of twelve steps (four up
/// and right from a1, then around): its distance and the probe's value.
fn walked(game: &Game, t: &Target, probe: &str) -> Vec<(u32, i32)> {
    let probe = game.probe(probe, 2).expect("probe");
    let mut state = State::new(game, 2, 7, &game.default_options()).expect("start");
    let mut seen = Vec::new();
    let mut turn = 0;
    while !state.is_over() {
        let legal = state.legal_actions(game);
        let action = legal[if turn < 4 { 1 } else { turn % legal.len() }];
        turn += 1;
        state
            .apply_looking(game, action, &mut |st: &State, p, n| {
                if p == t.phase && n == t.at {
                    let want = st.eval_probe(game, &probe).expect("probe value");
                    seen.push((t.distance(game, st), want));
                }
            })
            .expect("a legal move");
    }
    assert_eq!(seen.len(), 12, "the guard runs once a step");
    seen
}

/// Two squares compared for identity (`here == cell(5, 4)`, `here` a
/// local of the guard's phase) are as far apart as a king steps between
/// them on the board, so a walk gets nearer step by step; a square and a
/// zone that is no board's cell are [`FAR`] apart.
#[test]
fn two_squares_compared_are_as_far_as_a_king_steps_between_them() {
    let game = Game::from_source("w.rules", WALK).expect("rules");
    let on =
        |rhs: fn(&Expr) -> bool| move |e: &Expr| matches!(e, Expr::Bin(BinOp::Eq, _, b) if rhs(b));
    let t = target(&game, on(|b| matches!(b, Expr::Call(..))), true);
    let seen = walked(&game, &t, "apart(zone_of(tok))");
    for (d, want) in &seen {
        assert_eq!(*d, *want as u32, "{seen:?}");
    }
    // diagonal steps from a1 toward f5: 4, 3, 2, 1 king steps left
    let first: Vec<u32> = seen.iter().take(4).map(|(d, _)| *d).collect();
    assert_eq!(first, [4, 3, 2, 1], "{seen:?}");
    let t = target(&game, on(|b| matches!(b, Expr::Zone(..))), true);
    let seen = walked(&game, &t, "0");
    assert!(seen.iter().all(|(d, _)| *d == FAR), "{seen:?}");
}
