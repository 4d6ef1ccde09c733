//! Every command that README.md shows runs as written. The commands are read
//! from the file itself (indented lines and fenced `sh` lines that start
//! with `cargo `), so the README cannot drift from the code.
//!
//! `cargo test` itself is the command running this test, so it is only
//! checked to be there. Every `cargo run` line runs through cargo for real,
//! with no input on stdin, except `play`, which reads `state` from stdin
//! (as a script) and must show the table; every command must exit 0: a failure such as "could not determine which binary to
//! run" is caught here.

use std::process::{Command, Stdio};

fn readme_commands() -> Vec<String> {
    let text = std::fs::read_to_string("README.md").expect("README.md");
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(lang) = trimmed.strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(lang.to_string()),
            };
            continue;
        }
        let shell_fence = matches!(fence.as_deref(), Some("sh" | "bash" | "console" | "shell"));
        let indented = fence.is_none() && line.starts_with("    ");
        if (indented || shell_fence) && trimmed.starts_with("cargo ") {
            out.push(trimmed.trim_start_matches("$ ").to_string());
        }
    }
    out
}

#[test]
fn the_readme_shows_the_two_commands_and_the_msrv() {
    let cmds = readme_commands();
    assert!(
        cmds.iter()
            .any(|c| c.starts_with("cargo run --release -- play rules/")),
        "README must show how to open a game: {cmds:?}"
    );
    assert!(
        cmds.iter().any(|c| c == "cargo test --release"),
        "README must show the test command: {cmds:?}"
    );
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    let cargo = std::fs::read_to_string("Cargo.toml").expect("Cargo.toml");
    let msrv = cargo
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("Cargo.toml states rust-version")
        .trim_matches('"');
    assert!(
        readme.contains(&format!("Rust {msrv}")),
        "README must state the minimum Rust version {msrv}"
    );
}

#[test]
fn every_readme_command_runs() {
    let cmds = readme_commands();
    assert!(
        cmds.len() >= 5,
        "expected the README's commands, found {cmds:?}"
    );
    for cmd in cmds {
        if cmd.starts_with("cargo test") {
            continue;
        }
        let words: Vec<&str> = cmd.split_whitespace().collect();
        let play = words.contains(&"play");
        let mut child = Command::new(env!("CARGO"))
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("`{cmd}` could not start: {e}"));
        {
            use std::io::Write as _;
            let mut stdin = child.stdin.take().expect("stdin");
            if play {
                stdin.write_all(b"state\n").expect("write to the REPL");
            }
        }
        let out = child.wait_with_output().expect("the command ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "`{cmd}` failed ({}):\n{stderr}",
            out.status
        );
        assert!(
            !out.stdout.is_empty() || !out.stderr.is_empty(),
            "`{cmd}` printed nothing"
        );
        if play {
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                stdout.contains("P0") && stdout.contains("P3"),
                "`{cmd}` with `state` should show the four seats:\n{stdout}"
            );
        }
    }
}
