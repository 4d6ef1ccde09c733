//! Tests of the options that shut the way to a target (`explore_keep.rs`):
//! in a small game where a seat empties its row only by matching cards
//! while it has not called, calling shuts the way to an empty row, and
//! passing does not; an option that sets a variable no gate around a
//! row's move reads shuts nothing; and a game without such a gate has no
//! option to avoid.

use super::shut;
use crate::engine::Game;
use crate::graph::Node;
use crate::rulecheck::stats::Layout;

const RULES: &str = r#"
game "Keep open" { players 2..2 }
card Chip { value: int }
deck chips of Chip size 8 in pile {
  1 x { value: 1..8 }
}
zone pile: shared pile public
zone row: per player pile public
var called: bool per player = false
var loud: bool per player = false
start {
  for p in players {
    deal 2 from pile to p.row
  }
  loop {
    for p in players {
      choose p {
        "call" { p.called = true }
        "shout" { p.loud = true }
        "wait" { }
      }
      for q in players where not q.called {
        choose q {
          "match {c}" for c in q.row {
            move c to pile
          }
          "pass" { }
        }
      }
      if count(pile) == 8 {
        end game
      }
    }
  }
}
winners lowest count(p.row)
"#;

/// The labels of the shut options (the first text of each).
fn shut_labels(rules: &str, proxy: &str) -> Vec<String> {
    let game = Game::from_source("k.rules", rules).expect("rules");
    let g = game.graph();
    let layout = Layout::of(g);
    let probe = game.probe(proxy, 2).expect("proxy");
    let arms = shut(g, &layout, probe.expr());
    let mut out = Vec::new();
    for (p, ph) in g.phases.iter().enumerate() {
        for (n, node) in ph.nodes.iter().enumerate() {
            let Node::Choose { arms: a, .. } = node else {
                continue;
            };
            for (k, arm) in a.iter().enumerate() {
                if layout
                    .arm(p as u16, n as u32, k as u16)
                    .is_some_and(|f| arms.contains(&f))
                {
                    out.push(format!("{:?}", arm.label.first()));
                }
            }
        }
    }
    out
}

#[test]
fn calling_shuts_the_way_to_an_empty_row() {
    let shut = shut_labels(RULES, "min(count(p.row) for p in players)");
    assert_eq!(shut.len(), 1, "{shut:?}");
    assert!(shut[0].contains("\"call\""), "{shut:?}");
}

#[test]
fn a_move_under_no_gate_leaves_every_option_open() {
    // the row is emptied whoever has called: no option shuts the way
    let open = RULES.replace("for q in players where not q.called", "for q in players");
    assert!(shut_labels(&open, "min(count(p.row) for p in players)").is_empty());
    // a measure written only where no gate holds it: nothing shuts it
    assert!(shut_labels(RULES, "count(p in players where p.loud)").is_empty());
    // an option setting a variable no such gate reads ("shout") shuts
    // nothing, whatever the measure
    let shut = shut_labels(RULES, "min(count(p.row) for p in players)");
    assert!(!shut.iter().any(|l| l.contains("shout")), "{shut:?}");
}
