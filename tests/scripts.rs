//! Tests as data: every REPL script under `tests/scripts/` (`*.grail`) runs
//! in-process and its transcript (commands echoed) is snapshotted with insta
//! in `tests/scripts/snapshots/`. A script names its game on a header line:
//! `# args: rules/tamoul.rules --players 4 --seed 7 --set target=30`.
//! Also: the transcript in docs/repl.md is the output of `tour.grail`, any
//! input line is handled without a panic, and piping into the binary works.

use clap::Parser;
use grail::repl::{PlayArgs, Session, script_output};
use std::path::Path;

/// The `grail play` arguments, parsed exactly as the command line is.
#[derive(Parser)]
struct Header {
    #[command(flatten)]
    args: PlayArgs,
}

fn header_args(path: &Path, text: &str) -> PlayArgs {
    let line = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("# args:"))
        .unwrap_or_else(|| {
            panic!(
                "{}: the script needs a `# args: FILE --seed N ...` line",
                path.display()
            )
        });
    let words = std::iter::once("play").chain(line.split_whitespace());
    let args = match Header::try_parse_from(words) {
        Ok(h) => h.args,
        Err(e) => panic!("{}: bad `# args:` line: {e}", path.display()),
    };
    assert!(
        args.seed.is_some(),
        "{}: give a --seed so the script is reproducible",
        path.display()
    );
    args
}

fn transcript(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    script_output(&header_args(path, &text), &text, true)
}

#[test]
fn scripts() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("scripts/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("scripts/**/*.grail", |path| {
            insta::assert_snapshot!(transcript(path));
        });
    });
}

/// docs/repl.md shows the transcript of tests/scripts/tour.grail verbatim.
#[test]
fn docs_transcript_is_current() {
    let out = transcript(Path::new("tests/scripts/tour.grail"));
    let doc = std::fs::read_to_string("docs/repl.md").unwrap();
    assert!(
        doc.contains(&out),
        "docs/repl.md must contain the output of tests/scripts/tour.grail; it is now:\n{out}"
    );
}

/// No input makes the REPL panic, and a bad line leaves the state as it was.
#[test]
fn any_line_is_safe() {
    use proptest::prelude::*;
    let game = grail::Game::load("rules/tamoul.rules").unwrap();
    let words = prop::sample::select(vec![
        "state",
        "moves",
        "play",
        "undo",
        "auto",
        "view",
        "arrange",
        "log",
        "options",
        "help",
        "quit",
        "0",
        "1",
        "2",
        "-1",
        "99999999999999999999",
        "all",
        "P1",
        "p9",
        "end",
        "draw",
        "discard",
        "P1.slots",
        "slots.2",
        "P9.slots",
        "hand",
        "P0.hand",
        "P1.",
        "P.slots",
        ".",
        "red-7",
        "black-13",
        "black-0",
        "keep",
        "take",
        "pass",
        "#",
        "é",
        "",
    ]);
    let line = prop::collection::vec(prop_oneof![words.prop_map(String::from), "\\PC{0,6}"], 0..5)
        .prop_map(|w| w.join(" "));
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(300));
    runner
        .run(&prop::collection::vec(line, 1..12), |lines| {
            let mut s = Session::new(&game, 3, 5, &game.default_options()).unwrap();
            for line in &lines {
                let before = serde_saved(&s);
                let mut out = String::new();
                s.exec_to_string(line, &mut out);
                if out.starts_with("error:") {
                    prop_assert_eq!(out.lines().count(), 1, "one line per error: {}", out);
                    prop_assert_eq!(
                        &before,
                        &serde_saved(&s),
                        "state changed by a failed `{}`",
                        line
                    );
                }
                prop_assert!(s.state.check_conservation(&game).is_ok());
            }
            Ok(())
        })
        .unwrap();
}

fn serde_saved(s: &Session) -> String {
    format!("{:?}|{}", s.state, s.history.len())
}

/// Commands piped into `grail play` run as a script.
#[test]
fn piped_stdin_runs_as_a_script() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_grail"))
        .args([
            "play",
            "rules/tamoul.rules",
            "--players",
            "4",
            "--seed",
            "7",
            "--echo",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"# a comment\nmoves\nbogus\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "# a comment\n> moves\nP0 to choose:\n  1. draw from the pile\n> bogus\n\
         error: unknown command 'bogus'; commands: state, moves, play, undo, auto, view, arrange, put, log, options, help, quit\n"
    );
}
