//! Script mode: the REPL's commands read from a file, stdin or a string,
//! printing exactly what the REPL prints (no prompts). With echo, each
//! command is printed as `> command` before its output and comments and
//! blank lines are copied, so the output reads as a transcript. Also the
//! in-process runner the script tests use.

use super::args::{Flow, PlayArgs, options_from};
use super::session::Session;
use crate::Game;
use std::io;

/// Run `script` against a session, writing to `out`. Stops at `quit`.
pub fn run_lines(
    session: &mut Session,
    script: &str,
    echo: bool,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    for line in script.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            if echo {
                writeln!(out, "{trimmed}")?;
            }
            continue;
        }
        if echo {
            writeln!(out, "> {trimmed}")?;
        }
        if session.exec(trimmed, out)? == Flow::Quit {
            break;
        }
    }
    Ok(())
}

/// Start a game and run a script on it; returns everything printed. A game
/// that cannot start gives one `error:` line.
pub fn run_script(
    game: &Game,
    players: usize,
    seed: u64,
    opts: Vec<i32>,
    script: &str,
    echo: bool,
) -> String {
    match Session::new(game, players, seed, &opts) {
        Ok(mut session) => session_output(&mut session, script, echo),
        Err(e) => format!("error: {e}\n"),
    }
}

/// Run a script on a session; returns everything printed.
pub fn session_output(session: &mut Session, script: &str, echo: bool) -> String {
    let mut out: Vec<u8> = Vec::new();
    // writing to a Vec cannot fail
    let _ = run_lines(session, script, echo, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Like [`run_script`], from command-line arguments (`file`, `--players`,
/// `--seed`, `--set`); `--script` and `--echo` are ignored in favour of the
/// parameters. Rules that do not compile give their diagnostics, as plain
/// text. Without `--seed` the seed is 0, so the output is reproducible.
pub fn script_output(args: &PlayArgs, script: &str, echo: bool) -> String {
    let game = match Game::load(&args.file) {
        Ok(g) => g,
        Err(d) => return d.render_plain(),
    };
    let opts = match options_from(&game, &args.set) {
        Ok(o) => o,
        Err(e) => return format!("error: {e}\n"),
    };
    let players = args.players.unwrap_or(game.players().0);
    match Session::new(&game, players, args.seed.unwrap_or(0), &opts) {
        Ok(s) => session_output(&mut s.with_rules_path(&args.file), script, echo),
        Err(e) => format!("error: {e}\n"),
    }
}
