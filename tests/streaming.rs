//! The REPL reads a pipe line by line and answers each command as it
//! arrives (memory stays bounded: `yes moves | grail play ...` works), skips
//! an overlong line with a clear error, and never prints raw the control
//! characters a rules file may hold (the file is refused when read).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn grail(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_grail"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The answer to the first command comes while stdin is still open.
#[test]
fn answers_each_line_as_it_arrives() {
    let mut child = grail(&[
        "play",
        "rules/tamoul.rules",
        "--players",
        "4",
        "--seed",
        "7",
    ]);
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    stdin.write_all(b"moves\n").unwrap();
    stdin.flush().unwrap();
    let first = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("an answer before EOF");
    assert_eq!(first, "P0 to choose:");
    let second = rx.recv_timeout(Duration::from_secs(20)).unwrap();
    assert_eq!(second, "  1. draw from the pile");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// An endless stream of commands is served with bounded memory; the run
/// ends when the reader goes away.
#[test]
fn endless_input_is_streamed() {
    let mut child = grail(&[
        "play",
        "rules/tamoul.rules",
        "--players",
        "4",
        "--seed",
        "7",
    ]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = b"moves\n".repeat(1000);
        // 6 MB of commands, far more than the reader below looks at
        for _ in 0..1000 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    for _ in 0..100 {
        assert!(lines.next().is_some());
    }
    drop(lines);
    let _ = child.wait();
    writer.join().unwrap();
}

/// A line above the limit is skipped with an error; the next one runs.
#[test]
fn overlong_line_is_refused() {
    let mut child = grail(&[
        "play",
        "rules/tamoul.rules",
        "--players",
        "4",
        "--seed",
        "7",
    ]);
    let mut input = vec![b'x'; 200_000];
    input.extend_from_slice(b"\nmoves\n");
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "error: line 1 is longer than 65536 bytes; skipped\nP0 to choose:\n  1. draw from the pile\n"
    );
}

/// Control characters in a game's name and card names are refused when the
/// file is read (they would be printed raw by every tool that shows a name),
/// with their place, and the refusal itself prints none of them.
#[test]
fn control_characters_are_refused() {
    let dir = std::env::temp_dir().join(format!("grail-streaming-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = std::fs::read_to_string("tests/scripts/repl/files/race.rules").unwrap();
    let hostile = rules
        .replace("game \"Race\"", "game \"Race\u{1b}]0;pwned\u{7}\"")
        .replace("name \"tile-{value}\"", "name \"ti\u{1b}[2Jle-{value}\"");
    assert_ne!(hostile, rules);
    let path = dir.join("hostile.rules");
    std::fs::write(&path, hostile).unwrap();
    let mut child = grail(&["play", path.to_str().unwrap(), "--seed", "1"]);
    // the file is refused before stdin is read, so the pipe may be closed
    // already: a failed write is expected, not an error
    let _ = child.stdin.take().unwrap().write_all(b"state\nmoves\n");
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(text.contains("holds a control character, U+001B"), "{text}");
    assert!(!out.status.success(), "{text}");
}

/// A reader that stops early (`grail graph ... | head -1`) ends the command
/// quietly, as it ends `cat`: no panic, no backtrace.
#[test]
fn a_closed_output_pipe_stops_quietly() {
    for args in [
        &["graph", "rules/camelot101.rules", "--format", "ron"][..],
        &[
            "sim",
            "rules/tamoul.rules",
            "--games",
            "2000",
            "--seed",
            "1",
        ][..],
    ] {
        let mut child = grail(args);
        drop(child.stdin.take());
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {err}");
    }
}
