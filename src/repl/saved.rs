//! Saved games and replays. A saved game is RON: the rules file and its
//! digest, players, seed, every option's value and the steps (moves with
//! their labels, and the `arrange`/`put` set-ups). Replaying starts a fresh
//! game and makes the steps again; `load`, `reload` and `restart` build on it.
//! A move is replayed when it is legal with the same label, else by its label
//! alone (so edited rules keep the game where they can); the first step that
//! cannot be made is where the game diverges.

use super::session::{Done, Session};
use crate::{Action, Game};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The version written in `grail_save`.
pub const FORMAT: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Format version.
    pub grail_save: u32,
    /// The rules file, as given on the command line.
    pub rules: String,
    /// `Game::digest` of the rules text.
    pub digest: u64,
    /// The game's name.
    pub game: String,
    pub players: usize,
    pub seed: u64,
    /// Every option with its value in the saved game.
    pub options: Vec<(String, i32)>,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Step {
    /// A move: who chose, the action, and its label as the chooser saw it.
    Move {
        player: usize,
        arm: u16,
        value: i32,
        label: String,
    },
    /// A set-up command (`arrange ...` or `put ...`).
    Setup(String),
}

impl Step {
    fn describe(&self) -> String {
        match self {
            Step::Move { player, label, .. } => format!("P{player}: {label}"),
            Step::Setup(text) => text.clone(),
        }
    }
}

/// The steps of a session's game so far.
pub fn steps_of(s: &Session) -> Vec<Step> {
    s.history
        .iter()
        .map(|e| match &e.done {
            Done::Move {
                player,
                label,
                action,
            } => Step::Move {
                player: *player,
                arm: action.arm,
                value: action.value,
                label: label.clone(),
            },
            Done::Arrange(text) => Step::Setup(text.clone()),
        })
        .collect()
}

impl SavedGame {
    pub fn of(s: &Session) -> SavedGame {
        let rules = s
            .rules_path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| s.game.source().name.clone());
        SavedGame {
            grail_save: FORMAT,
            rules,
            digest: s.game.digest(),
            game: s.game.name().to_string(),
            players: s.players,
            seed: s.seed,
            options: s
                .game
                .options()
                .iter()
                .zip(&s.state.table().opts)
                .map(|(o, v)| (o.name.clone(), *v))
                .collect(),
            steps: steps_of(s),
        }
    }

    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::new()
            .depth_limit(2)
            .struct_names(true);
        let body = ron::ser::to_string_pretty(self, pretty).unwrap_or_default();
        format!("// A game saved by `grail play`; `load FILE` replays it.\n{body}\n")
    }

    /// Parse a saved game; the error is one line.
    pub fn parse(text: &str) -> Result<SavedGame, String> {
        let saved: SavedGame = ron::from_str(text).map_err(|e| {
            let msg = e.to_string().replace('\n', " ");
            format!("not a saved game ({msg})")
        })?;
        if saved.grail_save != FORMAT {
            return Err(format!(
                "saved in format {}, this grail reads format {FORMAT}",
                saved.grail_save
            ));
        }
        Ok(saved)
    }

    /// The option values for `game`: its defaults with the saved values
    /// set by name; names or values it does not accept are listed apart.
    pub fn options_for(&self, game: &Game) -> (Vec<i32>, Vec<String>) {
        let mut opts = game.default_options();
        let mut bad = Vec::new();
        for (name, v) in &self.options {
            if let Err(e) = game.set_option(&mut opts, name, &v.to_string()) {
                bad.push(e.to_string());
            }
        }
        (opts, bad)
    }
}

/// The largest saved game or options file the REPL reads (a game of
/// 100,000 moves saves in about 8 MiB); more is refused, so that `load
/// /dev/zero` cannot take all memory.
pub const MAX_FILE: u64 = 64 << 20;

/// Read a text file of at most [`MAX_FILE`] bytes (`what` names it in errors).
pub fn read_capped(path: &str, what: &str) -> Result<String, String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {what}`{path}`: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {what}`{path}`: {e}"))?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(format!(
            "cannot read {what}`{path}`: it is larger than {} MiB",
            MAX_FILE >> 20
        ));
    }
    String::from_utf8(bytes)
        .map_err(|_| format!("cannot read {what}`{path}`: it is not UTF-8 text"))
}

/// Write a file whole or not at all: into a temporary file beside it, then
/// renamed over it. Only a regular file is replaced: renaming over a device
/// or a pipe (`save /dev/null`) would replace the device itself.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    if let Ok(m) = std::fs::metadata(path)
        && !m.is_file()
    {
        return Err(format!(
            "cannot write `{}`: it is not a regular file",
            path.display()
        ));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let shown = path.display();
    std::fs::write(&tmp, text).map_err(|e| format!("cannot write `{shown}`: {e}"))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write `{shown}`: {e}")
    })
}

/// A replayed game.
pub struct Replayed {
    pub session: Session,
    /// Steps made.
    pub done: usize,
    /// Why the step after the last one made could not be made.
    pub diverged: Option<String>,
}

/// Start `game` afresh and make `steps` until one cannot be made.
pub fn replay(
    game: &Game,
    players: usize,
    seed: u64,
    opts: &[i32],
    steps: &[Step],
) -> Result<Replayed, String> {
    let mut s = Session::new(game, players, seed, opts)?;
    let mut scratch = String::new();
    for (i, step) in steps.iter().enumerate() {
        let made = match step {
            Step::Move {
                player,
                arm,
                value,
                label,
            } => find_move(
                &s,
                *player,
                Action {
                    arm: *arm,
                    value: *value,
                },
                label,
            )
            .and_then(|a| s.play(a, &mut scratch)),
            Step::Setup(text) => setup(&mut s, text),
        };
        scratch.clear();
        if let Err(why) = made {
            let diverged = format!("step {} ({}): {why}", i + 1, step.describe());
            return Ok(Replayed {
                session: s,
                done: i,
                diverged: Some(diverged),
            });
        }
    }
    Ok(Replayed {
        session: s,
        done: steps.len(),
        diverged: None,
    })
}

/// The legal move a saved one stands for: the same action with the same
/// label, else the one move with that label.
fn find_move(s: &Session, player: usize, action: Action, label: &str) -> Result<Action, String> {
    if s.state.is_over() {
        return Err("the game is already over there".into());
    }
    let legal = s.legal();
    let Some(chooser) = s.state.chooser().filter(|_| !legal.is_empty()) else {
        return Err("nobody can move there (stuck)".into());
    };
    if chooser != player {
        return Err(format!("P{chooser} must choose there, not P{player}"));
    }
    if legal.contains(&action) && s.state.label(&s.game, action) == label {
        return Ok(action);
    }
    let same: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| s.state.label(&s.game, *a) == label)
        .collect();
    match same[..] {
        [a] => Ok(a),
        [] => Err(format!("no move is labelled '{label}' there")),
        _ => Err(format!("{} moves are labelled '{label}' there", same.len())),
    }
}

/// Replay an `arrange` or `put` line.
fn setup(s: &mut Session, text: &str) -> Result<(), String> {
    let first = text.split_whitespace().next().unwrap_or("");
    if first != "arrange" && first != "put" {
        return Err(format!("`{first}` is not a set-up (arrange or put)"));
    }
    let mut out = String::new();
    s.exec_to_string(text, &mut out);
    match out.strip_prefix("error: ") {
        Some(e) => Err(e.trim_end().to_string()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path that is not a regular file (here a socket) is not replaced.
    #[cfg(unix)]
    #[test]
    fn save_over_a_special_file_is_refused() {
        let dir = std::env::temp_dir().join(format!("grail-saved-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let sock = dir.join("sock");
        let _ = std::fs::remove_file(&sock);
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let err = write_atomically(&sock, "x").unwrap_err();
        assert!(err.contains("not a regular file"), "{err}");
        assert!(!std::fs::metadata(&sock).unwrap().is_file());
        // a regular file is replaced whole
        let file = dir.join("game.ron");
        write_atomically(&file, "one").unwrap();
        write_atomically(&file, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "two");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file of exactly the limit is read; one byte more is refused.
    #[test]
    fn read_capped_at_and_past_the_limit() {
        let dir = std::env::temp_dir().join(format!("grail-capped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("big.ron");
        let mut text = vec![b' '; MAX_FILE as usize];
        std::fs::write(&file, &text).unwrap();
        let path = file.to_str().unwrap();
        assert_eq!(read_capped(path, "").unwrap().len() as u64, MAX_FILE);
        text.push(b' ');
        std::fs::write(&file, &text).unwrap();
        let err = read_capped(path, "").unwrap_err();
        assert!(err.contains("larger than 64 MiB"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
