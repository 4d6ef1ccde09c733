//! What a simulation finding is made from and how its game is shown
//! again (for `verdicts.rs` and the passes that add findings after it:
//! `balance.rs`, `classify.rs`, `explore_report.rs`): the simulated file
//! ([`Input`]), a finding ([`Found`]) and the game behind it
//! ([`Evidence`]), whose reproduction is printed inline (`printf 'play
//! 3\nstate\n' | grail play FILE --players 2 --seed S`) or, past
//! [`INLINE_MOVES`], written as a saved game under the reproduction folder
//! (`repro.rs`) that the REPL's `load` opens at the step.

use super::explore::Explored;
use super::lints::{Context, Lint};
use super::plan::{Column, Plan, shell_word};
use super::repro;
use super::stats::{Layout, Stats};
use crate::diag::Diagnostic;
use crate::engine::Game;
use std::fmt::Write;
use std::path::Path;

/// Reproductions with at most this many moves are printed inline.
pub const INLINE_MOVES: usize = 30;

/// The game behind a simulation finding, and how to see it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evidence {
    /// The column's label and seats.
    pub column: String,
    pub players: usize,
    /// The game's number in the run and its engine seed.
    pub game: u64,
    pub seed: u64,
    /// The moves to replay, as numbers in the REPL's move list (from 1).
    pub moves: Vec<u32>,
    /// Whether the last move is the one that failed.
    pub failing_move: bool,
    /// What happened in that game.
    pub detail: String,
    /// A shell command that opens the game at that step.
    pub repro: String,
    /// The file the command reads, when one was written: a saved game
    /// (`.ron`, opened with `load`), or a script of `play` lines.
    pub script: Option<String>,
}

/// One simulated file: what is needed to turn its stats into findings.
pub struct Input<'a> {
    pub cx: &'a Context<'a>,
    pub game: &'a Game,
    pub layout: &'a Layout,
    pub plan: &'a Plan,
    /// The rules file as named on the command line.
    pub path: &'a str,
    pub columns: &'a [Column],
    pub stats: &'a [Stats],
    /// Where long reproductions are written (inline only when `None`).
    pub repro_dir: Option<&'a Path>,
    /// What guided exploration reached after the random games, if it ran.
    pub explored: Option<&'a Explored>,
    /// For a rules variant: its base, simulated beside it.
    pub base: Option<&'a BaseInput<'a>>,
}

/// The base of a rules variant, as simulated beside it (its columns in
/// the same order as the variant's).
pub struct BaseInput<'a> {
    pub game: &'a Game,
    pub layout: &'a Layout,
    pub hir: &'a crate::check::hir::Hir,
    pub stats: &'a [Stats],
}

pub type Found = (&'static Lint, Diagnostic, Option<Evidence>);

/// How to open game `seed` of column `col` after `moves` (numbers in the
/// REPL's move list, from 1): inline, or as a saved game in the reproduction
/// folder (a script of `play` lines if the game cannot be saved).
pub fn evidence(
    input: &Input,
    col: usize,
    game: u64,
    seed: u64,
    moves: Vec<u32>,
    failing_move: bool,
    detail: &str,
) -> Evidence {
    let column = &input.columns[col];
    let mut script = String::new();
    for m in &moves {
        let _ = writeln!(script, "play {m}");
    }
    script.push_str("state\n");
    let mut cmd = format!(
        "grail play {} --players {} --seed {}",
        shell_word(input.path),
        column.players,
        seed
    );
    for s in column.set_args(input.game) {
        let _ = write!(cmd, " --set {}", shell_word(&s));
    }
    let set = column.set_args(input.game);
    let mut written = None;
    let mut loaded = None;
    if moves.len() > INLINE_MOVES
        && let Some(dir) = input.repro_dir
    {
        // a saved game that `load` opens at the step, else a script
        let keep = moves.len() - usize::from(failing_move);
        let name =
            |ext| repro::file_name(input.path, &column.label, column.players, &set, seed, ext);
        let file = dir.join(name("ron"));
        let shown = file.display().to_string();
        let saved = repro::loadable(&shown)
            .then(|| {
                repro::saved_game(
                    input.game,
                    input.path,
                    column.players,
                    seed,
                    &column.options,
                    &moves[..keep],
                )
            })
            .flatten();
        if let Some(ron) = saved
            && std::fs::create_dir_all(dir).is_ok()
            && std::fs::write(&file, ron).is_ok()
        {
            let mut then = String::new();
            if failing_move && let Some(m) = moves.last() {
                let _ = write!(then, "play {m}\\n");
            }
            loaded = Some((shown.clone(), then));
            written = Some(shown);
        } else {
            let file = dir.join(name("grail"));
            let ok = std::fs::create_dir_all(dir).is_ok() && std::fs::write(&file, &script).is_ok();
            if ok {
                written = Some(file.display().to_string());
            }
        }
    }
    let repro = match (&loaded, &written) {
        (Some((f, then)), _) => {
            format!(
                "printf 'load %s\\n{then}state\\n' {} | {cmd}",
                shell_word(f)
            )
        }
        (None, Some(f)) => format!("{cmd} --script {}", shell_word(f)),
        (None, None) => format!("printf '{}' | {cmd}", script.replace('\n', "\\n")),
    };
    Evidence {
        column: column.label.clone(),
        players: column.players,
        game,
        seed,
        moves,
        failing_move,
        detail: detail.to_string(),
        repro,
        script: written,
    }
}
