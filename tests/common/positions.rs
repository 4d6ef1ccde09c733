//! The five games of the bench, and positions along a seeded random game:
//! shared by the test files that copy and restore states.

use grail::{Game, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The bench's games: the four rules files and chess.
pub const FILES: &[&str] = &[
    "rules/tamoul.rules",
    "rules/kameloot.rules",
    "rules/camelot.rules",
    "rules/camelot101.rules",
    "examples/chess.rules",
];

/// Positions along one seeded random game at the fewest players (at most
/// `n`, each before its move).
pub fn positions(game: &Game, seed: u64, n: usize) -> Vec<State> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let players = game.players().0;
    let mut s = State::new(game, players, seed, &game.default_options()).expect("starts");
    let mut out = Vec::new();
    while out.len() < n && !s.is_over() {
        let a = s.legal_actions(game);
        if a.is_empty() {
            break;
        }
        out.push(s.clone());
        s.apply_unchecked(game, a[rng.random_range(0..a.len())])
            .expect("applies");
    }
    out
}
