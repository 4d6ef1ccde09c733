//! Random action sequences on every shipped game: the input picks the game,
//! the number of players, the seed and each action (modulo the legal ones).
//! After every action the cards are conserved and no invariant is broken;
//! a game that is not over always has a legal action; nothing panics.
#![no_main]

use arbitrary::Arbitrary;
use grail::State;
use grail_fuzz::games;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    game: u8,
    players: u8,
    seed: u64,
    choices: Vec<u16>,
}

fuzz_target!(|input: Input| {
    let all = games();
    let (name, game) = &all[input.game as usize % all.len()];
    let (lo, hi) = game.players();
    let players = lo + input.players as usize % (hi - lo + 1);
    let mut s = match State::new(game, players, input.seed, &game.default_options()) {
        Ok(s) => s,
        Err(e) => panic!("{name}: cannot start with {players} players: {e}"),
    };
    let mut acts = Vec::new();
    for &c in input.choices.iter().take(400) {
        if s.is_over() {
            break;
        }
        s.legal_actions_into(game, &mut acts);
        assert!(!acts.is_empty(), "{name}: not over, yet no legal action");
        let a = acts[c as usize % acts.len()];
        if let Err(e) = s.apply(game, a) {
            panic!("{name}: applying a legal action failed: {e}");
        }
        if let Err(e) = s.check_conservation(game) {
            panic!("{name}: cards not conserved: {e}");
        }
        if let Some(b) = s.broken_invariant(game) {
            panic!("{name}: invariant broken: {b}");
        }
    }
});
