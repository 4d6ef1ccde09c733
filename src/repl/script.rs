//! Script mode: the REPL's commands read from a file, stdin or a string,
//! printing exactly what the REPL prints (no prompts). With echo, each
//! command is printed as `> command` before its output and comments and
//! blank lines are copied, so the output reads as a transcript. Also the
//! in-process runner the script tests use.

use super::args::{Flow, PlayArgs, options_from};
use super::session::Session;
use crate::Game;
use std::io::{self, BufRead as _};

/// The longest command line read from a script or a pipe, in bytes. A
/// longer line is skipped with an error (memory stays bounded).
pub const MAX_LINE: usize = 64 * 1024;

/// Run `script` against a session, writing to `out`. Stops at `quit`.
pub fn run_lines(
    session: &mut Session,
    script: &str,
    echo: bool,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    run_reader(session, &mut script.as_bytes(), echo, out)
}

/// Run commands read line by line from `input`, answering each as it
/// arrives (a pipe is never read ahead). Lines longer than [`MAX_LINE`]
/// are skipped with an error; bytes that are not UTF-8 are replaced.
pub fn run_reader(
    session: &mut Session,
    input: &mut dyn io::BufRead,
    echo: bool,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    let mut buf: Vec<u8> = Vec::with_capacity(256);
    let mut number = 0usize;
    loop {
        buf.clear();
        number += 1;
        let n = io::Read::take(&mut *input, MAX_LINE as u64 + 1).read_until(b'\n', &mut buf)?;
        if n == 0 {
            break;
        }
        if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
            skip_line(input)?;
            writeln!(
                out,
                "error: line {number} is longer than {MAX_LINE} bytes; skipped"
            )?;
            continue;
        }
        let line = String::from_utf8_lossy(&buf);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            if echo {
                writeln!(out, "{}", super::sanitize::clean(trimmed))?;
            }
            continue;
        }
        if echo {
            writeln!(out, "> {}", super::sanitize::clean(trimmed))?;
        }
        if session.exec(trimmed, out)? == Flow::Quit {
            break;
        }
    }
    Ok(())
}

/// Read and drop the rest of an overlong line, a bounded chunk at a time.
fn skip_line(input: &mut dyn io::BufRead) -> io::Result<()> {
    loop {
        let (done, used) = {
            let chunk = input.fill_buf()?;
            if chunk.is_empty() {
                return Ok(());
            }
            match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (true, i + 1),
                None => (false, chunk.len()),
            }
        };
        input.consume(used);
        if done {
            return Ok(());
        }
    }
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
