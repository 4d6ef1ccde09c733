//! Option variants: the input picks a shipped game, `--set` settings and
//! random actions. Each setting names one of the game's options (or, one
//! time in eight, is arbitrary text) with an arbitrary 64-bit value, so
//! values in range, at its ends, past them and beyond 32 bits all come up;
//! they go through `Game::options_from`, the one parser of `--set`, which
//! must refuse bad ones with an error. Options it accepts start a game
//! (or are refused by `State::new` with an error) that is played as in
//! `actions`: after each action the cards are conserved and no invariant is
//! broken, and a game that is not over has a legal action.
#![no_main]

use arbitrary::Arbitrary;
use grail::State;
use grail_fuzz::games;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Setting {
    option: u8,
    value: i64,
    /// Used as the whole setting when `option % 8 == 7`.
    raw: String,
}

#[derive(Arbitrary, Debug)]
struct Input {
    game: u8,
    players: u8,
    seed: u64,
    settings: Vec<Setting>,
    choices: Vec<u16>,
}

fuzz_target!(
    // Compile the games before the first input, so a loaded machine does
    // not count their compilation against that input's timeout.
    init: {
        games();
    },
    |input: Input| {
    let all = games();
    let (name, game) = &all[input.game as usize % all.len()];
    let options = game.options();
    let sets: Vec<String> = input
        .settings
        .iter()
        .take(16)
        .map(|s| {
            if s.option % 8 == 7 || options.is_empty() {
                s.raw.chars().take(200).collect()
            } else {
                let o = &options[s.option as usize % options.len()];
                // Mostly near the range, sometimes anywhere.
                let span = i64::from(o.max) - i64::from(o.min) + 3;
                let v = if s.value % 4 == 0 {
                    s.value
                } else {
                    i64::from(o.min) - 1 + s.value.rem_euclid(span)
                };
                format!("{}={v}", o.name)
            }
        })
        .collect();
    let Ok(opts) = game.options_from(&sets) else {
        return;
    };
    for (o, v) in options.iter().zip(&opts) {
        assert!(
            (o.min..=o.max).contains(v),
            "{name}: {sets:?} accepted {}={v} outside {}..{}",
            o.name,
            o.min,
            o.max
        );
    }
    let (lo, hi) = game.players();
    let players = lo + input.players as usize % (hi - lo + 1);
    let Ok(mut s) = State::new(game, players, input.seed, &opts) else {
        return;
    };
    let mut acts = Vec::new();
    for &c in input.choices.iter().take(400) {
        if s.is_over() {
            break;
        }
        s.legal_actions_into(game, &mut acts);
        assert!(
            !acts.is_empty(),
            "{name} {sets:?}: not over, yet no legal action"
        );
        let a = acts[c as usize % acts.len()];
        if let Err(e) = s.apply(game, a) {
            panic!("{name} {sets:?}: applying a legal action failed: {e}");
        }
        if let Err(e) = s.check_conservation(game) {
            panic!("{name} {sets:?}: cards not conserved: {e}");
        }
        if let Some(b) = s.broken_invariant(game) {
            panic!("{name} {sets:?}: invariant broken: {b}");
        }
    }
}
);
