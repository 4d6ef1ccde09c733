//! Standard chess written in the rules language reproduces the published
//! perft tables (the depths that run in a few seconds; `grail perft` checks
//! the rest).

use grail::engine::perft::perft;
use grail::{Game, State};

fn position(setup: Option<&str>) -> (Game, State) {
    let game =
        Game::load("examples/chess.rules").unwrap_or_else(|d| panic!("{}", d.render_plain()));
    let mut state = State::new(&game, 2, 1, &game.default_options()).expect("chess starts");
    if let Some(path) = setup {
        let text = std::fs::read_to_string(path).expect("setup file");
        state.apply_setup(&game, &text).expect("setup applies");
    }
    (game, state)
}

#[test]
fn start_position() {
    let (game, state) = position(None);
    assert_eq!(perft(&game, &state, 1), 20);
    assert_eq!(perft(&game, &state, 2), 400);
    assert_eq!(perft(&game, &state, 3), 8_902);
}

#[test]
fn kiwipete() {
    let (game, state) = position(Some("examples/chess/kiwipete.setup"));
    assert_eq!(perft(&game, &state, 1), 48);
    assert_eq!(perft(&game, &state, 2), 2_039);
}

#[test]
fn position_3() {
    let (game, state) = position(Some("examples/chess/position3.setup"));
    assert_eq!(perft(&game, &state, 1), 14);
    assert_eq!(perft(&game, &state, 2), 191);
    assert_eq!(perft(&game, &state, 3), 2_812);
}

#[test]
fn castling_and_en_passant_can_be_switched_off() {
    let (game, mut state) = position(Some("examples/chess/kiwipete.setup"));
    // Kiwipete has two castling moves among its 48.
    let mut opts = game.default_options();
    game.set_option(&mut opts, "castling", "0").unwrap();
    let mut off = State::new(&game, 2, 1, &opts).unwrap();
    off.apply_setup(
        &game,
        &std::fs::read_to_string("examples/chess/kiwipete.setup").unwrap(),
    )
    .unwrap();
    assert_eq!(perft(&game, &off, 1), 46);
    // a bad setup line names its line and changes nothing
    let before = format!("{:?}", state.table());
    let err = state
        .apply_setup(
            &game,
            "arrange board.e4 white-pawn\narrange board.z9 black-king",
        )
        .unwrap_err();
    assert!(err.starts_with("line 2:"), "{err}");
    assert_eq!(before, format!("{:?}", state.table()));
}

/// A count too long to wait for (Tamoul's three whole turns: every
/// interception window of every discard) reports as it goes, every
/// `TICK` paths, and stops when the report says so, with the paths
/// counted so far; `grail perft` prints them on Ctrl-C. Split by first
/// move, each part is handed over as soon as it is counted.
#[test]
fn a_long_count_reports_as_it_goes_and_stops_when_asked() {
    use grail::engine::perft::{Meter, TICK, divide_metered, perft_metered};
    let game = Game::load("rules/tamoul.rules").unwrap_or_else(|d| panic!("{}", d.render_plain()));
    let state = State::new(&game, 4, 1, &game.default_options()).expect("tamoul starts");
    let mut ticks = Vec::new();
    let mut tick = |n: u64| {
        ticks.push(n);
        ticks.len() >= 2
    };
    let mut meter = Meter::new(&mut tick);
    let n = perft_metered(&game, &state, 3, &mut meter);
    assert!(meter.stopped);
    assert_eq!(n, 2 * TICK);
    assert_eq!(ticks, [TICK, 2 * TICK]);
    // one whole turn, split (the discard pile is empty at the start: one
    // first move), is the whole count
    let whole = perft(&game, &state, 1);
    let mut parts = Vec::new();
    let mut never = |_| false;
    divide_metered(
        &game,
        &state,
        1,
        &mut Meter::new(&mut never),
        &mut |l, n| parts.push((l.to_string(), n)),
    );
    assert_eq!(parts, [("draw from the pile".to_string(), whole)]);
    assert!(whole > TICK, "{whole}");
}
