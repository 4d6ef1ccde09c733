//! Tests as data: every REPL script under `tests/scripts/` (`*.grail`) runs
//! in-process and its transcript (commands echoed) is snapshotted with insta
//! in `tests/scripts/snapshots/`. A script names its game on a header line:
//! `# args: rules/tamoul.rules --players 4 --seed 7 --set target=30`, and
//! may write files under `$SCRATCH`, a fresh folder per script.
//! Also: docs/repl.md shows the output of `tour.grail` and the command
//! reference drawn from the command table; any input line is handled without
//! a panic; piping into the binary works; save -> load reproduces a game
//! exactly; reload follows an edited rules file (or keeps the old rules when
//! the new ones have errors).

use clap::Parser;
use grail::repl::{PlayArgs, Session, script_output};
use std::path::{Path, PathBuf};

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

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grail-scripts-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The transcript of a script, checked: its `expect` lines hold, unless
/// the script says how many are meant to fail (`# expect-failures: N`).
fn transcript(path: &Path) -> String {
    let out = run_transcript(path);
    let text = std::fs::read_to_string(path).unwrap();
    let meant: usize = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("# expect-failures:"))
        .map_or(0, |n| n.trim().parse().unwrap());
    let failed = out
        .lines()
        .filter(|l| l.starts_with("expect failed:"))
        .count();
    assert_eq!(
        failed,
        meant,
        "{}: expect lines failed:\n{out}",
        path.display()
    );
    out
}

fn run_transcript(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    if !text.contains("$SCRATCH") {
        return script_output(&header_args(path, &text), &text, true);
    }
    let stem = path.file_stem().unwrap().to_string_lossy();
    let dir = scratch(&stem);
    let dir_text = dir.display().to_string();
    let text = text.replace("$SCRATCH", &dir_text);
    let out = script_output(&header_args(path, &text), &text, true);
    let _ = std::fs::remove_dir_all(&dir);
    out.replace(&dir_text, "$SCRATCH")
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

const BEGIN: &str = "<!-- BEGIN command reference: generated from src/repl/commands.rs -->\n";
const END: &str = "<!-- END command reference -->\n";

/// docs/repl.md has the command reference that `help CMD` prints, from the
/// same table. `UPDATE_DOCS=1 cargo test --test scripts` rewrites it.
#[test]
fn docs_reference_is_current() {
    let doc = std::fs::read_to_string("docs/repl.md").unwrap();
    let (Some(a), Some(b)) = (doc.find(BEGIN), doc.find(END)) else {
        panic!("docs/repl.md needs the markers:\n{BEGIN}{END}");
    };
    let want = format!("\n{}", grail::repl::commands::reference());
    let have = &doc[a + BEGIN.len()..b];
    if have != want && std::env::var_os("UPDATE_DOCS").is_some() {
        let new = format!("{}{want}{}", &doc[..a + BEGIN.len()], &doc[b..]);
        std::fs::write("docs/repl.md", new).unwrap();
        return;
    }
    assert!(
        have == want,
        "docs/repl.md's command reference is out of date: run UPDATE_DOCS=1 cargo test --test scripts"
    );
    // every command has its section, and `help CMD` says what the page says
    for c in grail::repl::COMMANDS {
        let heading = format!("#### `{}", grail::repl::commands::usage(c));
        assert!(doc.contains(&heading), "docs/repl.md lacks `{heading}`");
        let help = grail::repl::commands::help_one(c);
        for line in help.lines().skip(2).filter(|l| !l.starts_with("also:")) {
            assert!(
                have.contains(line),
                "`help {}` says what the page does not: {line}",
                c.name
            );
        }
    }
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
        "redo",
        "explain",
        "bot",
        "trace",
        "set",
        "variant",
        "restart",
        "load",
        "reload",
        "--seed",
        "--force",
        "greedy",
        "random",
        "off",
        "on",
        "round",
        "turn",
        "target",
        "threshold",
        "default",
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
            let mut s = Session::new(&game, 3, 5, &game.default_options())
                .unwrap()
                .with_rules_path("rules/tamoul.rules");
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
         error: unknown command 'bogus'; `help` lists the commands\n"
    );
}

/// A script with a failed `expect` exits with status 1 (and one that holds, 0).
#[test]
fn failed_expect_fails_the_script() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    for (script, code) in [
        ("expect count(P0.slots) == 4\n", 0),
        ("expect count(P0.slots) == 5\nmoves\n", 1),
        ("expect P0.nothing\n", 1),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grail"))
            .args([
                "play",
                "rules/tamoul.rules",
                "--players",
                "4",
                "--seed",
                "7",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{script}");
    }
}

fn run(s: &mut Session, script: &str) -> String {
    grail::repl::session_output(s, script, true)
}

/// Everything a designer can see of a game: the god view, each seat's view,
/// the moves, the log; and the state itself.
fn fingerprint(s: &mut Session) -> String {
    let mut seen = format!("{:?}\n", s.state);
    seen.push_str(&run(s, "view all\nview 0\nview 1\nview 2\nmoves\nlog"));
    seen
}

/// save -> load gives back exactly the same game, and its undo history.
#[test]
fn save_then_load_reproduces_the_game() {
    let dir = scratch("round-trip");
    let file = dir.join("game.ron");
    let game = grail::Game::load("rules/tamoul.rules").unwrap();
    let mut opts = game.default_options();
    game.set_option(&mut opts, "target", "40").unwrap();
    let mut a = Session::new(&game, 3, 11, &opts)
        .unwrap()
        .with_rules_path("rules/tamoul.rules");
    let out = run(
        &mut a,
        "auto 7\narrange P1.slots red-0 red-0 black-1 red-1\nput P2.score 12\nauto 12\nundo 2",
    );
    assert!(!out.contains("error:"), "{out}");
    let n = a.history.len();
    assert!(n > 10, "the game went on: {n} steps");
    let out = run(&mut a, &format!("save {}", file.display()));
    assert!(out.contains(&format!("saved {n} steps")), "{out}");
    let mut b = Session::new(&game, 2, 99, &game.default_options())
        .unwrap()
        .with_rules_path("rules/tamoul.rules");
    let out = run(&mut b, &format!("load {}", file.display()));
    assert!(out.contains(&format!("replayed {n} steps")), "{out}");
    assert_eq!(fingerprint(&mut a), fingerprint(&mut b));
    assert_eq!(a.state.table().opts, b.state.table().opts);
    assert_eq!((a.seed, a.players), (b.seed, b.players));
    // the undo history came back too: undo everything, and both are at the start
    run(&mut a, &format!("undo {n}"));
    run(&mut b, &format!("undo {n}"));
    assert_eq!(fingerprint(&mut a), fingerprint(&mut b));
    // the file is what `SavedGame` reads back
    let text = std::fs::read_to_string(&file).unwrap();
    let saved = grail::repl::saved::SavedGame::parse(&text).unwrap();
    assert_eq!(saved.to_ron(), text);
    assert_eq!(saved.digest, game.digest());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy of the race fixture in a scratch folder, and a session on it.
fn race_copy(name: &str, sets: &[(&str, &str)]) -> (PathBuf, PathBuf, Session) {
    let dir = scratch(name);
    let file = dir.join("race.rules");
    std::fs::copy("tests/scripts/repl/files/race.rules", &file).unwrap();
    let game = grail::Game::load(&file).unwrap();
    let mut opts = game.default_options();
    for (k, v) in sets {
        game.set_option(&mut opts, k, v).unwrap();
    }
    let s = Session::new(&game, 2, 3, &opts)
        .unwrap()
        .with_rules_path(&file);
    (dir, file, s)
}

fn edit(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "the fixture has no `{from}`");
    std::fs::write(file, text.replace(from, to)).unwrap();
}

/// The designer edits an option's default and reloads: the game is replayed
/// with the new default; an option set by hand keeps its value.
#[test]
fn reload_follows_an_edited_option_default() {
    let (dir, file, mut s) = race_copy("reload-default", &[("tiles", "3")]);
    run(&mut s, "play 1\nplay 2");
    let before = run(&mut s, "log");
    edit(&file, "option goal = 8 in", "option goal = 3 in");
    edit(&file, "option tiles = 2 in", "option tiles = 1 in");
    let out = run(&mut s, "reload");
    let path = file.display();
    assert!(
        out.contains(&format!("reloaded {path} (the rules changed)")),
        "{out}"
    );
    assert!(out.contains("option goal: default 8 -> 3"), "{out}");
    assert!(out.contains("option goal: 8 -> 3 in this game"), "{out}");
    assert!(out.contains("option tiles: default 2 -> 1"), "{out}");
    assert!(
        !out.contains("option tiles: 3 ->"),
        "tiles was set by hand: {out}"
    );
    assert!(out.contains("replayed 2 steps"), "{out}");
    let goal = s.game.option_index("goal").unwrap();
    let tiles = s.game.option_index("tiles").unwrap();
    assert_eq!(
        (s.state.table().opts[goal], s.state.table().opts[tiles]),
        (3, 3)
    );
    assert_eq!(run(&mut s, "log"), before);
    // and a restart keeps both
    run(&mut s, "restart");
    assert_eq!(
        (s.state.table().opts[goal], s.state.table().opts[tiles]),
        (3, 3)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rules file with errors: its diagnostics, one error line, the old game.
#[test]
fn reload_with_errors_keeps_the_game() {
    let (dir, file, mut s) = race_copy("reload-errors", &[]);
    run(&mut s, "play 1");
    let before = fingerprint(&mut s);
    edit(&file, "p.points += c.value", "p.points += c.colour");
    let out = run(&mut s, "reload");
    assert!(
        out.contains("colour"),
        "the diagnostics name the problem: {out}"
    );
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("error: ")
            && last.ends_with("the game goes on with the rules loaded before"),
        "{out}"
    );
    assert_eq!(fingerprint(&mut s), before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// When an edit makes a move impossible, the replay stops just before it.
#[test]
fn reload_says_where_the_game_diverges() {
    let (dir, file, mut s) = race_copy("reload-diverges", &[]);
    run(&mut s, "play pass\nplay 1\nplay 2");
    edit(&file, "\"play {c}\" for c", "\"use {c}\" for c");
    let out = run(&mut s, "reload");
    assert!(!out.contains("replayed "), "{out}");
    assert!(
        out.contains("the game diverges at step 2 (P1: play tile-"),
        "{out}"
    );
    assert!(out.contains("no move is labelled 'play tile-"), "{out}");
    assert!(out.contains("kept the 1 step before it"), "{out}");
    assert_eq!(s.history.len(), 1);
    assert!(run(&mut s, "moves").contains("1. use tile-"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// New rules that cannot seat the game under way: one error line, old game.
#[test]
fn reload_refuses_rules_that_cannot_seat_the_game() {
    let (dir, file, mut s) = race_copy("reload-players", &[]);
    run(&mut s, "play 1");
    let before = fingerprint(&mut s);
    edit(&file, "players 2..4", "players 3..4");
    let mut out = String::new();
    s.exec_to_string("reload", &mut out);
    assert_eq!(
        out,
        "error: cannot replay on the new rules: Race is for 3 to 4 players, not 2; \
         the game goes on with the rules loaded before\n"
    );
    assert_eq!(fingerprint(&mut s), before);
    let _ = std::fs::remove_dir_all(&dir);
}
