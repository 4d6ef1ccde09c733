//! REPL command lines against a live game: the first byte picks a shipped
//! game, the rest is a script of command lines run on one session (as
//! `grail play --script` does). Never a panic, whatever is typed.
//! `save`, `load`, `reload` and `variant` touch the file system and are
//! skipped. So are `hint` and every line containing `mc` (the `mc`,
//! `mcts` and `ismcts` search agents): their work is bounded (at most a
//! million iterations a move) but seconds long, which would read as hangs.
//! So is every line containing `greedy`: a greedy bot in every seat plays
//! the game to its end (bounded too), and a whole greedy game of the
//! largest board took 8 s in the instrumented build under load, near
//! libFuzzer's 10 s timeout.
#![no_main]

use grail::repl::{Flow, Session};
use grail_fuzz::games;
use libfuzzer_sys::fuzz_target;

const FILE_COMMANDS: [&str; 4] = ["save", "load", "reload", "variant"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, script)) = data.split_first() else {
        return;
    };
    let all = games();
    let (_, game) = &all[pick as usize % all.len()];
    let (lo, _) = game.players();
    let Ok(mut session) = Session::new(game, lo, u64::from(pick), &game.default_options()) else {
        return;
    };
    let text = String::from_utf8_lossy(script);
    let mut out = String::new();
    for line in text.lines().take(64) {
        let first = line.split_whitespace().next().unwrap_or("");
        if FILE_COMMANDS.iter().any(|c| c.eq_ignore_ascii_case(first))
            || first.eq_ignore_ascii_case("hint")
            || line.to_ascii_lowercase().contains("mc")
            || line.to_ascii_lowercase().contains("greedy")
        {
            continue;
        }
        out.clear();
        if session.exec_to_string(line, &mut out) == Flow::Quit {
            break;
        }
    }
});
