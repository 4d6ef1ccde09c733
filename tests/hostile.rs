//! Hostile inputs as data: every file under `tests/hostile/` is run through
//! the real binaries, with a time bound, and its output is snapshotted with
//! insta. A case fails if the program panics, overflows its stack, dies of a
//! signal, exits with 101 or runs past the bound.
//!
//! - `NAME.rules`: run as `grail check NAME.rules`;
//! - `NAME.cmd`: comment lines (`#`), then one command line (`grail ...` or
//!   `rulecheck ...`, words split on spaces, run from the repository root),
//!   then optionally a line `--- stdin` and the text given on stdin.
//!
//! Helper files that are not cases live in subfolders (`tests/hostile/data/`).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every case must end within this bound (the machine may be loaded).
const TIME_BOUND: Duration = Duration::from_secs(60);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

struct Case {
    name: String,
    args: Vec<String>,
    stdin: String,
}

fn cases() -> Vec<Case> {
    let dir = root().join("tests/hostile");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/hostile exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let rel = format!("tests/hostile/{name}");
        match p.extension().and_then(|x| x.to_str()) {
            Some("rules") => out.push(Case {
                name,
                args: vec!["grail".into(), "check".into(), rel],
                stdin: String::new(),
            }),
            Some("cmd") => {
                let text = std::fs::read_to_string(&p).expect("readable case");
                let (head, stdin) = match text.split_once("--- stdin\n") {
                    Some((h, s)) => (h, s.to_string()),
                    None => (text.as_str(), String::new()),
                };
                let line = head
                    .lines()
                    .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
                    .unwrap_or_else(|| panic!("{name}: no command line"));
                out.push(Case {
                    name,
                    args: line.split_whitespace().map(str::to_string).collect(),
                    stdin,
                });
            }
            _ => {}
        }
    }
    out
}

/// Long lines (a 100,000-character name) and long outputs are cut, so that
/// snapshots stay readable; what matters is the start of the message.
fn cut(text: &str) -> String {
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if i == 60 {
            out.push_str("[... more lines]\n");
            break;
        }
        let mut l: String = line.chars().take(160).collect();
        if l.len() < line.len() {
            l.push_str(" [...]");
        }
        // Nondeterministic figures.
        if l.starts_with("speed ") || l.contains("games/s") || l.contains("nodes/s") {
            l = "speed [...]".into();
        }
        if let Some(i) = l.rfind(" in ")
            && (l.ends_with(" s") || l.ends_with(" ms"))
        {
            l = format!("{} in [time]", &l[..i]);
        }
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out
}

struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

fn run(case: &Case) -> Outcome {
    let exe = match case.args[0].as_str() {
        "grail" => env!("CARGO_BIN_EXE_grail"),
        "rulecheck" => env!("CARGO_BIN_EXE_rulecheck"),
        other => panic!("{}: unknown program `{other}`", case.name),
    };
    let tmp = std::env::temp_dir().join(format!("grail-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let args: Vec<String> = case.args[1..]
        .iter()
        .map(|a| a.replace("$TMP", &tmp.display().to_string()))
        .collect();
    let start = Instant::now();
    let mut child = Command::new(exe)
        .args(&args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().unwrap();
    let input = case.stdin.clone();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out_pipe = child.stdout.take().unwrap();
    let err_pipe = child.stderr.take().unwrap();
    let read = |mut p: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            // Bounded: a runaway printer must not fill the test's memory.
            let _ = (&mut p).take(4 << 20).read_to_end(&mut v);
            let _ = std::io::copy(&mut p, &mut std::io::sink());
            String::from_utf8_lossy(&v).to_string()
        })
    };
    let out_t = read(Box::new(out_pipe));
    let err_t = read(Box::new(err_pipe));
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code();
        }
        if start.elapsed() > TIME_BOUND {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{}: still running after {:?} (a hang)",
                case.name, TIME_BOUND
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = start.elapsed();
    let _ = writer.join();
    let tmp_text = tmp.display().to_string();
    let clean = |s: String| s.replace(&tmp_text, "$TMP");
    Outcome {
        code,
        stdout: clean(out_t.join().unwrap()),
        stderr: clean(err_t.join().unwrap()),
        elapsed,
    }
}

#[test]
fn hostile_inputs() {
    let cases = cases();
    assert!(cases.len() >= 60, "only {} hostile cases", cases.len());
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("hostile/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    let mut failures = Vec::new();
    settings.bind(|| {
        for case in &cases {
            let o = run(case);
            let all = format!("{}{}", o.stdout, o.stderr);
            if o.code.is_none()
                || o.code == Some(101)
                || all.contains("panicked")
                || all.contains("overflowed its stack")
            {
                failures.push(format!(
                    "{}: crashed (exit {:?} after {:?}):\n{}",
                    case.name,
                    o.code,
                    o.elapsed,
                    cut(&all)
                ));
                continue;
            }
            let shown = format!(
                "$ {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
                case.args.join(" "),
                o.code.unwrap_or(-1),
                cut(&o.stdout),
                cut(&o.stderr)
            );
            insta::assert_snapshot!(case.name.clone(), shown);
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The step budget, exactly: `steps_5000000.rules` takes 5,000,000 steps
/// without a decision and ends; `steps_5000001.rules` (one assignment more)
/// is stopped as a runaway. The cases above snapshot the messages.
#[test]
fn step_budget_at_and_past_the_limit() {
    let data = root().join("tests/hostile/data");
    let game = grail::Game::load(data.join("steps_5000000.rules")).expect("compiles");
    let s = grail::State::new(&game, 2, 1, &game.default_options()).expect("runs");
    assert_eq!(s.steps(), grail::engine::STEP_BUDGET);
    assert_eq!(s.steps(), 5_000_000);
    let game = grail::Game::load(data.join("steps_5000001.rules")).expect("compiles");
    let Err(err) = grail::State::new(&game, 2, 1, &game.default_options()) else {
        panic!("5,000,001 steps without a decision must be a runaway");
    };
    assert!(err.to_string().contains("5000000 steps"), "{err}");
}

/// A game declaring more than 65,000 of a kind is refused (E0030): the
/// engine numbers them in 16 bits, and 70,000 variables used to alias
/// `v65536` to `v0` silently. Each kind at the limit and one past it.
#[test]
fn declarations_at_and_past_the_limit() {
    const N: usize = grail::syntax::limits::MAX_DECLARED;
    let head = "game \"D\" { players 2..2 }\ncard C { value: int }\n\
                deck d of C size 1 in pile { 1 x { value: 1 } }\nzone pile: shared pile hidden\n";
    let tail = "start { end game }\nwinners highest 0\n";
    // (kind, how many `head` declares already, N declarations, the message)
    type Decls = fn(usize) -> String;
    let kinds: [(&str, usize, Decls, &str); 4] = [
        (
            "variables",
            0,
            |n| (0..n).map(|i| format!("var v{i}: int = 0\n")).collect(),
            "more than 65,000 variables",
        ),
        (
            "enum values",
            0,
            |n| {
                let values: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
                format!("enum Big {{ {} }}\n", values.join(", "))
            },
            "more than 65,000 values in enum `Big`",
        ),
        (
            "options",
            0,
            |n| {
                (0..n)
                    .map(|i| format!("option o{i} = 1 in 0..2\n"))
                    .collect()
            },
            "more than 65,000 options",
        ),
        (
            "zones",
            1,
            |n| {
                (0..n)
                    .map(|i| format!("zone z{i}: shared pile hidden\n"))
                    .collect()
            },
            "more than 65,000 zones and boards",
        ),
    ];
    for (what, already, decls, message) in kinds {
        let at = format!("{head}{}{tail}", decls(N - already));
        let past = format!("{head}{}{tail}", decls(N - already + 1));
        let loaded_at = grail::load::load_text("at.rules", &at);
        let loaded_past = grail::load::load_text("past.rules", &past);
        if let Err(d) = &loaded_at {
            panic!("{what} at the limit refused:\n{}", d.render_plain());
        }
        let d = loaded_past
            .err()
            .unwrap_or_else(|| panic!("{what} past the limit accepted"));
        let shown = d.render_plain();
        assert!(shown.contains(message), "{what}:\n{shown}");
    }
}
