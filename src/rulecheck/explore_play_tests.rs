//! Tests of one explored game (`explore_play.rs`): a resumed game plays
//! its steered choices first, then its parent's later moves again, each
//! where it is legal.

use super::{Aims, Job, Warm, play};
use crate::engine::{Action, Game};
use crate::rulecheck::playout::Table;
use crate::rulecheck::stats::Layout;

/// Seat 0 picks one of three options ten times; "c" is only offered while
/// fewer than three "c"s were picked, so a replayed "c" can be illegal.
const RULES: &str = r#"
game "Picks" { players 2..2 }
var turns: int = 0
var cs: int = 0
var score: int per player = 0
start {
  while turns < 10 {
    turns += 1
    choose seat(0) {
      "a" { seat(0).score += 1 }
      "b" { seat(1).score += 1 }
      "c" when cs < 3 { cs += 1 }
    }
  }
  end game
}
winners highest p.score
"#;

fn job(tail: Vec<Action>, detour: u32) -> Job {
    Job {
        column: 0,
        seed: 7,
        prefix: Vec::new(),
        avoid: None,
        goal: None,
        aim: None,
        pins: Vec::new(),
        tail,
        detour,
        rng: 11,
        game: 0,
    }
}

/// The actions a job's game picked.
fn played(game: &Game, job: &Job) -> Vec<Action> {
    let layout = Layout::of(game.graph());
    let options = game.default_options();
    let table = Table {
        game,
        layout: &layout,
        players: 2,
        options: &options,
        agent: crate::rulecheck::plan::Plan::default().agent_kind(),
        max_decisions: 1000,
    };
    let covered = vec![true; layout.arms];
    let aims = Aims {
        targets: &[],
        at: &[],
    };
    let mut warm = Warm::default();
    let tr = play(&table, &[], &covered, job, 1000, &aims, &mut warm);
    assert!(tr.incident.is_none(), "{:?}", tr.incident);
    tr.actions
}

/// The three options at the start: "a", "b" and "c".
fn options(game: &Game) -> Vec<Action> {
    let s = crate::engine::State::new(game, 2, 7, &game.default_options()).expect("starts");
    s.legal_actions(game).to_vec()
}

#[test]
fn a_resumed_game_replays_its_parents_moves_where_they_are_legal() {
    let game = Game::from_source("picks.rules", RULES).expect("compiles");
    let o = options(&game);
    let (a, b, c) = (o[0], o[1], o[2]);
    // a parent line: its ten actions, played at random
    let parent = played(&game, &job(Vec::new(), 0));
    assert_eq!(parent.len(), 10);
    // resumed at once: the same line
    assert_eq!(played(&game, &job(parent.clone(), 0)), parent);
    // four "c"s in a row: the fourth is not offered, and the next move
    // within the window is played instead
    let got = played(&game, &job(vec![c, c, c, c, b, a], 0));
    assert_eq!(&got[..5], &[c, c, c, b, a]);
    // a detour: the first three choices are the chooser's own, then the
    // line from its start
    let line = vec![a, b, a, b, a, b, a];
    let resumed = played(&game, &job(line.clone(), 3));
    assert_eq!(resumed.len(), 10);
    assert_eq!(&resumed[3..], &line[..]);
}
