//! The engine's typed boundary: faults as an enum with phase and line,
//! checked arithmetic, faults while listing moves reported, status,
//! pending choice, history, undo and typed option errors.

use grail::{Action, EngineError, Fault, Game, OptionError, State, Status};

mod common;
use common::small;

fn fault_of(game: &Game) -> (Fault, usize) {
    match State::new(game, 2, 1, &[]) {
        Err(EngineError::Fault { fault, line, .. }) => (fault, line),
        other => panic!("expected a fault, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn arithmetic_overflow_is_a_fault_with_its_line() {
    let (f, line) = fault_of(&small("n = 2147483647\n  n += 1"));
    assert_eq!((f, line), (Fault::Overflow, 10));
    assert_eq!(fault_of(&small("n = 2147483647 * 2")).0, Fault::Overflow);
    assert_eq!(
        fault_of(&small("n = 0 - 2147483647 - 2")).0,
        Fault::Overflow
    );
    assert_eq!(
        fault_of(&small("n = (0 - 2147483647 - 1) / (0 - 1)")).0,
        Fault::Overflow
    );
    assert_eq!(fault_of(&small("n = 1 / 0")).0, Fault::DivisionByZero);
}

#[test]
fn min_mod_minus_one_is_zero_not_a_panic() {
    let game =
        small("n = (0 - 2147483647 - 1) % (0 - 1)\n  for p in players {\n    p.score = n + 7\n  }");
    let s = State::new(&game, 2, 1, &[]).expect("no fault");
    assert_eq!(s.scores(&game), vec![7, 7]);
}

#[test]
fn a_guard_that_faults_while_listing_is_reported() {
    // the first arm is legal; the second's guard divides by zero
    let game = small("choose seat(0) {\n    \"a\" { }\n    \"b\" when 1 / n > 0 { }\n  }");
    match State::new(&game, 2, 1, &[]) {
        Err(EngineError::Fault { fault, phase, .. }) => {
            assert_eq!(fault, Fault::DivisionByZero);
            assert_eq!(phase, "start");
        }
        other => panic!("expected a fault, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn status_pending_choice_history_and_undo() {
    let game = small(
        "choose seat(1) {\n    \"a\" { n = 1 }\n    \"b\" { n = 2 }\n  }\n  choose seat(0) { \"c\" { } }",
    );
    let mut s = State::new(&game, 2, 1, &[]).unwrap();
    assert_eq!(s.status(&game), Status::Decide(1));
    let p = s.pending_choice(&game).expect("a decision");
    assert_eq!((p.player, p.phase.as_str(), p.line), (1, "start", 9));
    assert_eq!(p.options.len(), 2);
    let first = s.clone();
    s.apply(&game, p.options[1]).unwrap();
    assert_eq!(s.status(&game), Status::Decide(0));
    assert_eq!(s.history(), &[p.options[1]]);
    s.undo(&game).unwrap();
    assert_eq!(s.history(), &[] as &[Action]);
    assert_eq!(format!("{:?}", s.table()), format!("{:?}", first.table()));
    assert!(s.undo(&game).is_err());
    let a = s.legal_actions(&game)[0];
    s.apply(&game, a).unwrap();
    let c = s.legal_actions(&game)[0];
    s.apply(&game, c).unwrap();
    assert_eq!(s.status(&game), Status::Over);
    assert!(s.pending_choice(&game).is_none());
}

#[test]
fn a_choice_with_nothing_to_choose_is_stuck() {
    let game = small("choose seat(0) {\n    \"x\" when n > 5 { }\n  }");
    let s = State::new(&game, 2, 1, &[]).unwrap();
    assert_eq!(s.status(&game), Status::Stuck);
    assert!(s.legal_actions(&game).is_empty());
}

#[test]
fn option_errors_are_typed() {
    let game = Game::load("rules/tamoul.rules").unwrap();
    let mut opts = game.default_options();
    assert!(matches!(
        game.set_option(&mut opts, "treshold", "5"),
        Err(OptionError::Unknown { suggestion: Some(s), .. }) if s == "threshold"
    ));
    assert!(matches!(
        game.set_option(&mut opts, "penalty", "1000"),
        Err(OptionError::OutOfRange {
            min: 0,
            max: 200,
            value: 1000,
            ..
        })
    ));
    assert!(matches!(
        game.set_option(&mut opts, "penalty", "lots"),
        Err(OptionError::NotANumber { .. })
    ));
}

#[test]
fn a_guard_that_faults_after_a_hand_edit_is_kept_not_dropped() {
    let game = Game::from_source(
        "g",
        "game \"G\" { players 2..2 }\n\
         card C { v: int }\n\
         deck cs of C size 3 in pile { 1 x { v: 1..3 } }\n\
         zone pile: shared pile hidden\n\
         zone out: shared pile public\n\
         start { choose seat(0) { \"take\" when top(pile).v > 0 { } } end game }\n\
         winners highest 0\n",
    )
    .expect("compiles");
    let mut s = State::new(&game, 2, 1, &game.default_options()).expect("starts");
    assert_eq!(s.legal_actions(&game).len(), 1);
    assert!(s.listing_fault().is_none());
    // empty the pile by hand: `top(pile)` is none, so the guard faults
    let cards: Vec<u16> = s.table().zone(0).to_vec();
    for c in cards {
        let t = s.edit_table();
        t.lift(c);
        t.insert_at(1, 0, c);
        t.set_card_zone(c as usize, 1);
    }
    s.relist_edited(&game);
    match s.listing_fault() {
        Some(EngineError::Fault { fault, phase, .. }) => {
            assert_eq!((*fault, phase.as_str()), (Fault::NoCard, "start"));
        }
        other => panic!("expected the guard's fault, got {other:?}"),
    }
    assert!(s.legal_actions(&game).is_empty());
}

/// A card held in a variable shows to a seat only if that seat knows the
/// card: a seat's view (the REPL's `view`, `grail serve`'s seat pages) must
/// never name a hidden card through a variable.
#[test]
fn card_variables_follow_what_the_seat_knows() {
    let src = r#"
game "Secret" { players 2..2 }
card C { value: int  name "c{value}" }
deck d of C size 3 in pile { { value: 1..3 } }
zone pile: shared pile hidden
zone hand: per player set owner
var secret: card = none
var mine: card per player = none
var score: int per player = 0
start {
  let p = seat(0)
  move top(pile) to p.hand
  secret = top(pile)
  p.mine = top(p.hand)
  choose p {
    "wait" { }
  }
  end game
}
winners highest p.score
"#;
    let game =
        Game::from_source("secret.rules", src).unwrap_or_else(|d| panic!("{}", d.render_plain()));
    let s = State::new(&game, 2, 1, &[]).expect("starts");
    let all = s.view(&game, grail::Viewer::All);
    let name = |v: &str| {
        all.split_whitespace()
            .find_map(|w| w.strip_prefix(v))
            .expect("the variable is shown")
            .to_string()
    };
    let (secret, mine) = (name("secret="), name("mine="));
    assert!(secret.starts_with('c') && mine.starts_with('c'), "{all}");
    let p0 = s.view(&game, grail::Viewer::Seat(0));
    let p1 = s.view(&game, grail::Viewer::Seat(1));
    // the pile's top is hidden from both seats; P0 sees its own hand
    assert!(
        p0.contains("secret=##") && p1.contains("secret=##"),
        "{p0}\n{p1}"
    );
    assert!(p0.contains(&format!("mine={mine}")), "{p0}");
    assert!(!p1.contains(&format!("mine={mine}")), "{p1}");
}

#[test]
fn an_option_with_two_sources_offers_each_pair_with_its_own_id() {
    let game = Game::load("tests/scripts/fixtures/guess.rules").expect("compiles");
    let s = State::new(&game, 3, 1, &[]).expect("starts");
    let legal = s.legal_actions(&game);
    // Two other players times three roles.
    assert_eq!(legal.len(), 6);
    let labels: Vec<String> = legal.iter().map(|a| s.label(&game, *a)).collect();
    assert_eq!(labels[0], "guess knight for P1");
    assert_eq!(labels[5], "guess thief for P2");
    let space = grail::ActionSpace::new(&game, 3);
    let ids = space.legal_ids(&game, &s).expect("every pair has an id");
    let mut seen = ids.clone();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), 6, "ids are distinct: {ids:?}");
    for (a, id) in legal.iter().zip(&ids) {
        assert_eq!(space.action(&s, *id), Some(*a));
    }
}

#[test]
fn a_two_source_value_outside_sixteen_bits_is_a_fault() {
    let game = small(
        "choose seat(0) {\n    \"pick {x} {y}\" for x in 0..1, y in (0 - 2)..0 {\n      n = x\n    }\n  }",
    );
    match State::new(&game, 2, 1, &[]) {
        Err(EngineError::Fault { fault, .. }) => assert_eq!(fault, Fault::PairOutOfRange),
        other => panic!("expected a fault, got {:?}", other.map(|_| ())),
    }
}

/// Two copies of each card: in a `set` hand they are one move each, in a
/// `row` (where order matters) every card is its own move.
const TWINS: &str = r#"
game "Twins" { players 2..2 }
card C { value: int  name "c{value}" }
deck d of C in pile { 2 x { value: 1..2 } }
zone pile: shared pile hidden
zone hand: per player set owner
zone line: per player row owner
var score: int per player = 0
start {
  deal 4 from pile to seat(0).ZONE
  choose seat(0) {
    "play {c}" for c in seat(0).ZONE {
      seat(0).score += c.value
    }
  }
  end game
}
winners highest p.score
"#;

#[test]
fn identical_cards_in_a_set_are_one_move() {
    let set = Game::from_source("twins.rules", &TWINS.replace("ZONE", "hand")).expect("compiles");
    let s = State::new(&set, 2, 1, &[]).expect("starts");
    assert_eq!(s.legal_actions(&set).len(), 4);
    let distinct = s.distinct_actions(&set);
    let mut labels: Vec<String> = distinct.iter().map(|a| s.label(&set, *a)).collect();
    labels.sort();
    assert_eq!(labels, ["play c1", "play c2"]);
    assert_eq!(s.distinct_count(&set, &s.legal_actions(&set)), 2);
    let row = Game::from_source("twins.rules", &TWINS.replace("ZONE", "line")).expect("compiles");
    let s = State::new(&row, 2, 1, &[]).expect("starts");
    assert_eq!(s.distinct_actions(&row).len(), 4);
}
