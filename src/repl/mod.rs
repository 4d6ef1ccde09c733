//! The designer's REPL: `grail play FILE` opens a game and reads commands
//! (`state`, `moves`, `play`, `undo`, `auto`, `view`, `arrange`, `log`,
//! `options`, `help`, `quit`) from a line editor, a script file or a pipe.
//!
//! `session.rs` holds the game being explored and runs one command line,
//! `commands.rs` is the command table and its handlers, `script.rs` runs
//! scripts (and is the in-process runner for tests). This file is the CLI
//! entry: arguments, setup and the interactive loop. The line editor has no
//! helper yet; completion can plug one in from [`commands::COMMANDS`] and
//! [`Session::labels`].

pub mod commands;
pub mod script;
pub mod session;

pub use commands::{COMMANDS, Command, Flow};
pub use script::{run_lines, run_script, script_output};
pub use session::Session;

use crate::Game;
use std::io::{IsTerminal, Read};
use std::path::PathBuf;

#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// The rules file.
    pub file: PathBuf,
    /// Number of players (default: the fewest the game allows).
    #[arg(long, short)]
    pub players: Option<usize>,
    /// Seed for shuffles and random moves (default: a random seed, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Set an option, e.g. `--set target=50` (repeatable; see the `options` command).
    #[arg(long = "set", value_name = "OPT=VALUE")]
    pub set: Vec<String>,
    /// Read commands from this file instead of the keyboard.
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// In script mode, print each command as `> command` before its output.
    #[arg(long)]
    pub echo: bool,
}

/// The option values after applying `NAME=VALUE` settings to the defaults.
pub fn options_from(game: &Game, sets: &[String]) -> Result<Vec<i32>, String> {
    let mut opts = game.default_options();
    for s in sets {
        let Some((name, value)) = s.split_once('=') else {
            return Err(format!("--set takes NAME=VALUE, not '{s}'"));
        };
        game.set_option(&mut opts, name.trim(), value.trim())?;
    }
    Ok(opts)
}

fn random_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (t.as_nanos() as u64) % 1_000_000
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
            eprintln!("error: {e}");
            return 2;
        }
    };
    let players = args.players.unwrap_or(game.players().0);
    let seed = args.seed.unwrap_or_else(random_seed);
    let mut session = match Session::new(&game, players, seed, &opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let script = match &args.script {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => Some(text),
            Err(e) => {
                eprintln!("error: cannot read script `{}`: {e}", path.display());
                return 1;
            }
        },
        None if !std::io::stdin().is_terminal() => {
            let mut text = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut text) {
                eprintln!("error: cannot read commands from stdin: {e}");
                return 1;
            }
            Some(text)
        }
        None => None,
    };
    match script {
        Some(text) => {
            if args.seed.is_none() {
                eprintln!("seed {seed} (replay with --seed {seed})");
            }
            let mut out = std::io::stdout().lock();
            // a closed pipe ends the run quietly
            let _ = run_lines(&mut session, &text, args.echo, &mut out);
            0
        }
        None => interactive(&mut session, players, seed),
    }
}

fn interactive(session: &mut Session, players: usize, seed: u64) -> u8 {
    use rustyline::error::ReadlineError;
    let mut editor = match rustyline::DefaultEditor::new() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: cannot start the line editor: {e}");
            return 1;
        }
    };
    let mut out = std::io::stdout();
    println!(
        "{}: {players} players, seed {seed}. Type `help` for the commands, `quit` to leave.",
        session.game.name()
    );
    let mut intro = String::new();
    session.report_position(&mut intro);
    print!("{intro}");
    loop {
        match editor.readline(&session.prompt()) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                match session.exec(&line, &mut out) {
                    Ok(Flow::Continue) => {}
                    Ok(Flow::Quit) | Err(_) => return 0,
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => return 0,
            Err(e) => {
                eprintln!("error: {e}");
                return 1;
            }
        }
    }
}
