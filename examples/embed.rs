//! Embedding grail: load a rules file, play one game with an agent of our
//! own, and print the winners. Run it with
//!
//! ```text
//! cargo run --release --example embed -- rules/tamoul.rules 4 7
//! ```
//!
//! (rules file, players, seed; all three optional). The agent here is a
//! tiny one: at each decision it takes the action whose global id (see
//! docs/embedding.md) is the least, except every third decision, when it
//! takes a pseudo-random one. Anything that can pick an index into
//! `legal_actions` can play.

use grail::engine::ActionSpace;
use grail::{Game, State, Status};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "rules/tamoul.rules".into());
    let players = args.next().and_then(|a| a.parse().ok());
    let seed = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    match play(&path, players, seed) {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprint!("{e}");
            std::process::exit(1);
        }
    }
}

/// Play one game of the rules at `path` (the fewest players it allows by
/// default): the first moves and the ending, as text.
pub fn play(path: &str, players: Option<usize>, seed: u64) -> Result<String, String> {
    let game = Game::load(path).map_err(|d| d.render_plain())?;
    let players = players.unwrap_or(game.players().0);
    let mut state = State::new(&game, players, seed, &game.default_options())
        .map_err(|e| format!("error: {e}\n"))?;
    let space = ActionSpace::new(&game, players);
    let mut out = String::new();
    let mut rng = seed | 1;
    let mut decisions = 0u32;
    while let Status::Decide(seat) = state.status(&game) {
        let legal = state.legal_actions(&game);
        let pick = if decisions % 3 == 2 {
            // xorshift64: our own randomness, not the engine's
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % legal.len() as u64) as usize
        } else {
            let ids = space.legal_ids(&game, &state).unwrap_or_default();
            (0..legal.len()).min_by_key(|&i| ids.get(i)).unwrap_or(0)
        };
        let action = legal[pick];
        if decisions < 5 {
            out.push_str(&format!("P{seat}: {}\n", state.label(&game, action)));
        }
        state
            .apply(&game, action)
            .map_err(|e| format!("error: {e}\n"))?;
        decisions += 1;
        if decisions >= 100_000 {
            break;
        }
    }
    let ending = match state.status(&game) {
        Status::Over => {
            let winners: Vec<String> = state
                .winners(&game)
                .iter()
                .map(|p| format!("P{p}"))
                .collect();
            let winners = if winners.is_empty() {
                "none".to_string()
            } else {
                winners.join(", ")
            };
            format!(
                "{} over after {decisions} decisions; winners: {winners}\n",
                game.name()
            )
        }
        Status::Stuck | Status::Chance => format!("stuck after {decisions} decisions\n"),
        Status::Decide(_) => format!("still running after {decisions} decisions\n"),
    };
    out.push_str(&ending);
    Ok(out)
}
