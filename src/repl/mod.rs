//! The designer's REPL: `grail play FILE` opens a game and reads commands
//! from a line editor, a script file or a pipe (see docs/repl.md).
//!
//! Layers, each importing only the ones below it:
//! `commands.rs` is the command table (the source of `help` and of the
//! command reference in docs/repl.md), dispatch and `Session::exec`; the
//! handlers are in `look.rs` (seeing), `step.rs` (moving, bots), `hint.rs`
//! (`hint`, a search agent's top moves), `expect.rs` (checks) and `house.rs`
//! (options, restart, save/load/reload, with `saved.rs` for the file format
//! and replays). `complete.rs` and `editor.rs` are the interactive side
//! (completion, hints, history, colour); `script.rs` runs scripts (and is the
//! in-process runner for tests). Below the handlers: `session.rs` (the game
//! being explored, its history), `trace.rs` (the lines a move ran) and the
//! leaf `args.rs` (command-line arguments, `Flow`, argument parsing);
//! everything printed goes through [`crate::sanitize`] (re-exported here as
//! `sanitize`: control and invisible characters escaped). This file is
//! the CLI entry: setup, then a script or the line editor.

pub mod args;
pub mod commands;
pub mod complete;
pub mod editor;
pub mod expect;
pub mod hint;
pub mod house;
pub mod look;
pub use crate::sanitize;
pub mod saved;
pub mod script;
pub mod session;
pub mod step;
pub mod trace;

pub use args::{Flow, PlayArgs, options_from};
pub use commands::{COMMANDS, Command};
pub use script::{run_lines, run_script, script_output, session_output};
pub use session::Session;

use crate::Game;
use std::io::IsTerminal;

fn random_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (t.as_nanos() as u64) % 1_000_000
}

/// The exit code of a script: 1 when an `expect` failed.
fn expect_status(session: &Session) -> u8 {
    match session.expect_failures {
        0 => 0,
        n => {
            eprintln!("{n} expect line(s) failed");
            1
        }
    }
}

/// `grail play`: returns the exit code.
pub fn run(args: PlayArgs) -> u8 {
    let game = match Game::load(&args.file) {
        Ok(g) => g,
        Err(d) => {
            eprint!("{}", d.render_auto());
            return 1;
        }
    };
    if !game.warnings().items.is_empty() {
        eprint!("{}", game.warnings().render_auto());
    }
    let opts = match options_from(&game, &args.set) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {}", sanitize::clean(&e.to_string()));
            return 2;
        }
    };
    let players = args.players.unwrap_or(game.players().0);
    let seed = args.seed.unwrap_or_else(random_seed);
    let mut session = match Session::new(&game, players, seed, &opts) {
        Ok(s) => s.with_rules_path(&args.file),
        Err(e) => {
            eprintln!("error: {}", sanitize::clean(&e.to_string()));
            return 2;
        }
    };
    match &args.script {
        Some(path) => {
            let file = match std::fs::File::open(path) {
                Ok(f) => f,
                Err(e) => {
                    let msg = format!("error: cannot read script `{}`: {e}", path.display());
                    eprintln!("{}", sanitize::clean(&msg));
                    return 1;
                }
            };
            if args.seed.is_none() {
                eprintln!("seed {seed} (replay with --seed {seed})");
            }
            let mut out = std::io::stdout().lock();
            let mut input = std::io::BufReader::new(file);
            if let Err(e) = script::run_reader(&mut session, &mut input, args.echo, &mut out)
                && e.kind() != std::io::ErrorKind::BrokenPipe
            {
                let msg = format!("error: cannot read script `{}`: {e}", path.display());
                eprintln!("{}", sanitize::clean(&msg));
                return 1;
            }
            expect_status(&session)
        }
        None if !std::io::stdin().is_terminal() => {
            if args.seed.is_none() {
                eprintln!("seed {seed} (replay with --seed {seed})");
            }
            // answered line by line as the commands arrive
            let mut out = std::io::stdout().lock();
            let mut input = std::io::stdin().lock();
            if let Err(e) = script::run_reader(&mut session, &mut input, args.echo, &mut out)
                && e.kind() != std::io::ErrorKind::BrokenPipe
            {
                eprintln!("error: cannot read commands from stdin: {e}");
                return 1;
            }
            expect_status(&session)
        }
        None => {
            let history = match (args.no_history, &args.history) {
                (true, _) => None,
                (false, Some(p)) => Some(p.clone()),
                (false, None) => editor::default_history_path(),
            };
            let mut intro = format!(
                "{}: {players} players, seed {seed}. Type `help` for the commands, `quit` to leave.\n",
                session.game.name()
            );
            session.report_position(&mut intro);
            editor::interactive(&mut session, history, &intro)
        }
    }
}
