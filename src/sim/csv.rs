//! `grail sim --csv FILE`: one record per game, in game order, for anyone
//! who wants their own plots. Columns: `game`, `seed`, `outcome`
//! (finished, stuck, fault, unfinished), `turns`, `decisions`, one
//! `score_P<n>` per seat (the first `winners` key, empty when the game did
//! not finish) and `winners` (seats separated by spaces, such as `P0 P2`).

use super::{GameOutcome, GameResult};
use std::fmt::Write;

/// The header line, for a table of `players` seats.
pub fn header(players: usize) -> String {
    let mut s = String::from("game,seed,outcome,turns,decisions");
    for p in 0..players {
        let _ = write!(s, ",score_P{p}");
    }
    s.push_str(",winners\n");
    s
}

/// One game's line (`scores` empty when it did not finish).
pub fn row(r: &GameResult, players: usize) -> String {
    let (outcome, turns, decisions, winners) = match &r.outcome {
        GameOutcome::Finished {
            turns,
            decisions,
            winners,
        } => {
            let w: Vec<String> = winners.iter().map(|p| format!("P{p}")).collect();
            (
                "finished",
                turns.to_string(),
                decisions.to_string(),
                w.join(" "),
            )
        }
        GameOutcome::Stuck(_) => ("stuck", String::new(), String::new(), String::new()),
        GameOutcome::Fault(_) => ("fault", String::new(), String::new(), String::new()),
        GameOutcome::Unfinished(_) => ("unfinished", String::new(), String::new(), String::new()),
    };
    let mut s = format!("{},{},{outcome},{turns},{decisions}", r.index, r.seed);
    for p in 0..players {
        s.push(',');
        if let Some(v) = r.scores.get(p) {
            let _ = write!(s, "{v}");
        }
    }
    let _ = writeln!(s, ",{winners}");
    s
}

/// The whole file: the header and the rows sorted by game number.
pub fn table(mut rows: Vec<(u64, String)>, players: usize) -> String {
    rows.sort_by_key(|r| r.0);
    let mut s = header(players);
    for (_, line) in rows {
        s.push_str(&line);
    }
    s
}
