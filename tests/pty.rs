//! End to end: the real `grail play` binary in a pseudo-terminal, driven
//! key by key as a designer would: Tab completion of commands, labels, zones
//! and help topics, the inline hint, Ctrl-C cancelling a line, Ctrl-D
//! leaving, the history kept in a file and recalled with the up arrow in the
//! next session, and colour on a terminal unless `NO_COLOR` is set.
//! Without a pseudo-terminal (some sandboxes) the tests say so and pass.

#![cfg(unix)]

use expectrl::{ControlCode, Eof, Expect, Session};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

type Pty = expectrl::session::OsSession;

/// Generous: a loaded CI machine may be slow to start a debug binary.
const TIMEOUT: Duration = Duration::from_secs(60);

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grail-pty-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `grail play` on Tamoul in a pseudo-terminal, or None (with a message)
/// when the system has none.
fn spawn(history: &Path, color: bool) -> Option<Pty> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grail"));
    cmd.args([
        "play",
        "rules/tamoul.rules",
        "--players",
        "2",
        "--seed",
        "7",
    ]);
    cmd.arg("--history").arg(history);
    cmd.env("TERM", "xterm");
    cmd.env_remove("GRAIL_HISTORY");
    match color {
        true => cmd.env_remove("NO_COLOR"),
        false => cmd.env("NO_COLOR", "1"),
    };
    match Session::spawn(cmd) {
        Ok(mut p) => {
            p.set_expect_timeout(Some(TIMEOUT));
            Some(p)
        }
        Err(e) => {
            eprintln!("skipped: no pseudo-terminal here ({e})");
            None
        }
    }
}

/// Wait for `text`; on failure, say what was expected.
fn expect(p: &mut Pty, text: &str) -> String {
    match p.expect(text) {
        Ok(found) => String::from_utf8_lossy(found.before()).into_owned(),
        Err(e) => panic!("expected `{}` from the REPL: {e}", text.escape_debug()),
    }
}

fn send(p: &mut Pty, keys: &str) {
    p.send(keys).unwrap();
}

/// Type keys slowly enough for the line editor to handle each one (a Tab
/// sent in the same write as the next key may be read together with it).
fn type_keys(p: &mut Pty, keys: &[&str]) {
    for k in keys {
        send(p, k);
        std::thread::sleep(Duration::from_millis(150));
    }
}

#[test]
fn completion_hints_cancel_and_history() {
    let dir = scratch("session");
    let history = dir.join("history");
    let Some(mut p) = spawn(&history, false) else {
        return;
    };
    expect(&mut p, "1. draw from the pile");
    expect(&mut p, "P0> ");

    // a command name, completed
    type_keys(&mut p, &["sta", "\t", "\r"]);
    expect(&mut p, "view of everything");
    expect(&mut p, "P0> ");

    // a move label, completed whole from its start
    type_keys(&mut p, &["play d", "\t", "\r"]);
    expect(&mut p, "P0: draw from the pile");
    expect(&mut p, "P0> ");

    // a zone name, then a help topic
    type_keys(&mut p, &["state P1.sl", "\t", "\r"]);
    expect(&mut p, "P1.slots: row, hidden, 4 cards");
    expect(&mut p, "P0> ");
    type_keys(&mut p, &["help und", "\t", "\r"]);
    expect(&mut p, "usage: undo [K]");
    expect(&mut p, "P0> ");

    // the inline hint shows the rest of the command and its arguments;
    // Ctrl-C drops the line, which never runs
    type_keys(&mut p, &["expl"]);
    expect(&mut p, "ain N");
    p.send(ControlCode::EndOfText).unwrap();
    std::thread::sleep(Duration::from_millis(150));
    type_keys(&mut p, &["log\r"]);
    let before = expect(&mut p, "1. P0: draw from the pile");
    assert!(
        !before.contains("error:"),
        "the cancelled line ran: {before}"
    );
    expect(&mut p, "P0> ");

    // Ctrl-D leaves
    p.send(ControlCode::EndOfTransmission).unwrap();
    p.expect(Eof).unwrap();

    let kept = std::fs::read_to_string(&history).expect("a history file");
    for line in ["state", "play draw from the pile", "help undo", "log"] {
        assert!(
            kept.lines().any(|l| l == line),
            "`{line}` is not in the history:\n{kept}"
        );
    }
    assert!(!kept.contains("expl\n"), "a cancelled line is not kept");

    // the next session recalls the lines: up twice is `help undo`
    let Some(mut p) = spawn(&history, false) else {
        return;
    };
    expect(&mut p, "P0> ");
    type_keys(&mut p, &["\x1b[A", "\x1b[A", "\r"]);
    expect(&mut p, "usage: undo [K]");
    expect(&mut p, "P0> ");
    type_keys(&mut p, &["quit\r"]);
    p.expect(Eof).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn colour_on_a_terminal_unless_no_color() {
    let dir = scratch("colour");
    let history = dir.join("history");
    let Some(mut p) = spawn(&history, true) else {
        return;
    };
    expect(&mut p, "\x1b[1mP0 to choose:\x1b[0m");
    type_keys(&mut p, &["bogus\r"]);
    expect(&mut p, "\x1b[31merror: unknown command 'bogus'");
    type_keys(&mut p, &["quit\r"]);
    p.expect(Eof).unwrap();

    let Some(mut p) = spawn(&history, false) else {
        return;
    };
    type_keys(&mut p, &["bogus\r"]);
    let before = expect(&mut p, "error: unknown command 'bogus'");
    assert!(!before.ends_with("\x1b[31m"), "NO_COLOR: no colour");
    type_keys(&mut p, &["quit\r"]);
    p.expect(Eof).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A history path that is no regular file (`/dev/full` reads zeros for
/// ever and takes no writes) gets a clear error; the REPL runs without one.
#[test]
fn history_that_is_not_a_file() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let Some(mut p) = spawn(Path::new("/dev/full"), false) else {
        return;
    };
    expect(
        &mut p,
        "error: the history `/dev/full` is not a regular file; no history is kept",
    );
    expect(&mut p, "P0> ");
    type_keys(&mut p, &["moves\r"]);
    expect(&mut p, "1. draw from the pile");
    type_keys(&mut p, &["quit\r"]);
    p.expect(Eof).unwrap();
}

/// Ctrl-C during `auto end` stops the moves and keeps the game: the REPL
/// says so, and the moves made stay in the log (issue 14: it used to end
/// the REPL and the unsaved game with it).
#[test]
fn ctrl_c_stops_auto_and_keeps_the_game() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grail"));
    cmd.args(["play", "tests/hostile/data/slow_moves.rules", "--seed", "1"]);
    let history = scratch("auto").join("history");
    cmd.arg("--history").arg(&history);
    cmd.env("TERM", "xterm").env("NO_COLOR", "1");
    let mut p = match Session::spawn(cmd) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("skipped: no pseudo-terminal here ({e})");
            return;
        }
    };
    p.set_expect_timeout(Some(TIMEOUT));
    expect(&mut p, "P0> ");
    type_keys(&mut p, &["auto end\r"]);
    std::thread::sleep(Duration::from_millis(1500));
    p.send(ControlCode::EndOfText).unwrap();
    expect(&mut p, "interrupted after");
    expect(&mut p, "the game is kept");
    expect(&mut p, "> ");
    type_keys(&mut p, &["log\r"]);
    expect(&mut p, "1. P0: step");
    // a second `auto` can be interrupted too
    type_keys(&mut p, &["auto end\r"]);
    std::thread::sleep(Duration::from_millis(800));
    p.send(ControlCode::EndOfText).unwrap();
    expect(&mut p, "interrupted after");
    // Ctrl-D at the prompt, once the editor reads keys again
    expect(&mut p, "> ");
    std::thread::sleep(Duration::from_millis(150));
    p.send(ControlCode::EndOfTransmission).unwrap();
    p.expect(Eof).unwrap();
}

/// Ctrl-C while a search bot thinks (a million iterations: minutes) stops
/// it: the REPL says so, the bot's unfinished move is not played, and the
/// game goes on from where it was. (The opening has one move, which the
/// bot plays at once; it thinks at the second.)
#[test]
fn ctrl_c_stops_a_thinking_bot_and_keeps_the_game() {
    let dir = scratch("bot");
    let Some(mut p) = spawn(&dir.join("history"), false) else {
        return;
    };
    expect(&mut p, "P0> ");
    type_keys(&mut p, &["bot 0 mcts:1000000\r"]);
    std::thread::sleep(Duration::from_millis(1500));
    p.send(ControlCode::EndOfText).unwrap();
    expect(&mut p, "interrupted after 1 bot move(s)");
    expect(&mut p, "the game is kept");
    expect(&mut p, "> ");
    type_keys(&mut p, &["log\r"]);
    expect(&mut p, "1. P0: draw from the pile");
    let rest = expect(&mut p, "> ");
    assert!(
        !rest.contains("2. P0"),
        "the cut search's move was played: {rest}"
    );
    type_keys(&mut p, &["bot 0 off\r"]);
    expect(&mut p, "P0> ");
    std::thread::sleep(Duration::from_millis(150));
    p.send(ControlCode::EndOfTransmission).unwrap();
    p.expect(Eof).unwrap();
}
