//! One REPL session: the game, the current state, the undo stack (which is
//! also the log of what was done), and the generator `auto` draws from.
//! Reads a command line, dispatches it through the command table and writes
//! what it prints; errors are one line and leave the state untouched.

use super::commands::{self, Flow};
use crate::{Action, Game, State, Viewer};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::io;

/// Mixed into the game seed to seed `auto`, so the random moves do not
/// repeat the game's own shuffles.
const AUTO_SALT: u64 = 0xA070_5EED_A070_5EED;

/// What a history entry did.
#[derive(Clone, Debug)]
pub enum Done {
    /// A player chose a move; the label is as the chooser saw it.
    Move { player: usize, label: String },
    /// The designer arranged a zone (the command as typed, normalised).
    Arrange(String),
}

impl std::fmt::Display for Done {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Done::Move { player, label } => write!(f, "P{player}: {label}"),
            Done::Arrange(text) => f.write_str(text),
        }
    }
}

/// A history entry: the state before it, and what was done.
#[derive(Clone, Debug)]
pub struct Entry {
    pub before: State,
    pub done: Done,
}

/// A game being explored: the REPL and scripts drive one of these.
pub struct Session {
    pub game: Game,
    pub state: State,
    /// Undo stack, oldest first; also what `log` prints.
    pub history: Vec<Entry>,
    /// Random moves for `auto`, derived from the game seed.
    pub rng: ChaCha8Rng,
    pub seed: u64,
}

impl Session {
    /// Start a game; the error is one line.
    pub fn new(game: &Game, players: usize, seed: u64, opts: &[i32]) -> Result<Session, String> {
        let state = State::new(game, players, seed, opts).map_err(|e| e.to_string())?;
        Ok(Session {
            game: game.clone(),
            state,
            history: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed ^ AUTO_SALT),
            seed,
        })
    }

    /// Run one command line and write what it prints. Blank lines and
    /// `#` comments do nothing. Never panics on any input.
    pub fn exec(&mut self, line: &str, out: &mut dyn io::Write) -> io::Result<Flow> {
        let mut text = String::new();
        let flow = self.exec_to_string(line, &mut text);
        out.write_all(text.as_bytes())?;
        out.flush()?;
        Ok(flow)
    }

    /// Like [`Session::exec`], appending to a string.
    pub fn exec_to_string(&mut self, line: &str, out: &mut String) -> Flow {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Flow::Continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match commands::dispatch(self, &words, out) {
            Ok(flow) => flow,
            Err(message) => {
                let _ = writeln!(out, "error: {message}");
                Flow::Continue
            }
        }
    }

    /// A short prompt saying who is to move.
    pub fn prompt(&self) -> String {
        match self.state.chooser() {
            _ if self.state.is_over() => "over> ".to_string(),
            Some(p) if !self.legal().is_empty() => format!("P{p}> "),
            _ => "stuck> ".to_string(),
        }
    }

    pub fn legal(&self) -> Vec<Action> {
        self.state.legal_actions(&self.game)
    }

    /// Labels of the legal moves, as the chooser sees them.
    pub fn labels(&self, actions: &[Action]) -> Vec<String> {
        actions
            .iter()
            .map(|a| self.state.label(&self.game, *a))
            .collect()
    }

    /// Apply an action to a copy of the state; keep it only if the engine
    /// accepts it. Prints `P2: label`.
    pub fn play(&mut self, action: Action, out: &mut String) -> Result<(), String> {
        let player = self.state.chooser().unwrap_or(0);
        let label = self.state.label(&self.game, action);
        let mut next = self.state.clone();
        next.apply(&self.game, action)
            .map_err(|e| format!("{e} (P{player}: {label})"))?;
        let before = std::mem::replace(&mut self.state, next);
        let done = Done::Move { player, label };
        let _ = writeln!(out, "{done}");
        self.history.push(Entry { before, done });
        Ok(())
    }

    /// Record a state change made by the designer (arrange) for undo.
    pub fn record(&mut self, before: State, done: Done) {
        self.history.push(Entry { before, done });
    }

    /// Describe where the game stands after a change: the result when it is
    /// over, a stuck notice, or the numbered moves of the chooser.
    pub fn report_position(&self, out: &mut String) {
        if self.state.is_over() {
            self.report_result(out);
            return;
        }
        let legal = self.legal();
        if legal.is_empty() {
            let _ = writeln!(out, "{}", self.stuck_line());
            return;
        }
        self.list_moves(&legal, out);
    }

    /// `P0 to choose:` and the numbered labels.
    pub fn list_moves(&self, legal: &[Action], out: &mut String) {
        let p = self.state.chooser().unwrap_or(0);
        let _ = writeln!(out, "P{p} to choose:");
        let width = legal.len().to_string().len();
        for (i, label) in self.labels(legal).iter().enumerate() {
            let _ = writeln!(out, "  {:>width$}. {label}", i + 1);
        }
    }

    pub fn stuck_line(&self) -> String {
        match self.state.chooser() {
            Some(p) => format!(
                "stuck: P{p} must choose but has no legal move, and the game is not over (a softlock in the rules)"
            ),
            None => "stuck: nobody can move, and the game is not over (a softlock in the rules)"
                .to_string(),
        }
    }

    /// Winners and scores of a finished game.
    pub fn report_result(&self, out: &mut String) {
        let winners: Vec<String> = self
            .state
            .winners(&self.game)
            .iter()
            .map(|p| format!("P{p}"))
            .collect();
        let turns = self.state.turns;
        let who = match winners.len() {
            0 => "nobody wins".to_string(),
            1 => format!("{} wins", winners[0]),
            _ => format!("{} share the win", join_and(&winners)),
        };
        let plural = if turns == 1 { "" } else { "s" };
        let _ = writeln!(out, "game over after {turns} turn{plural}: {who}");
        let scores = self.state.scores(&self.game);
        if !scores.is_empty() {
            let list: Vec<String> = scores
                .iter()
                .enumerate()
                .map(|(p, s)| format!("P{p} {s}"))
                .collect();
            let _ = writeln!(out, "scores: {}", list.join(", "));
        }
    }

    /// The table as seen by a seat, or everything.
    pub fn view(&self, viewer: Viewer) -> String {
        self.state.view(&self.game, viewer)
    }
}

/// `a, b and c`.
pub fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
