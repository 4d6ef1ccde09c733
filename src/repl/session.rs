//! One REPL session: the game, the current state, the undo stack (which is
//! also the log of what was done and what `save` writes), the redo stack,
//! the bots seated, the trace switch and the options chosen for the next
//! start. Running a command line (`Session::exec`) lives with the command
//! table in `commands.rs`, so this file depends on no handler.
//!
//! Undo is the engine's make/unmake journal: the session's state keeps a
//! mark for every move ([`State::keep_undo`]), so a move's entry holds no
//! copy of the state and `undo` takes it back with [`State::undo`]; `redo`
//! applies the move again (the engine is deterministic). Only a designer
//! edit keeps a whole state (see [`Before`]).

use super::args::AUTO_END_LIMIT;
use crate::agent::{Agent, AgentKind};
use crate::{Action, Game, State, Viewer};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Mixed into the game seed to seed `auto`, so the random moves do not
/// repeat the game's own shuffles.
const AUTO_SALT: u64 = 0xA070_5EED_A070_5EED;
/// Mixed into the game seed (with the seat) to seed a bot.
const BOT_SALT: u64 = 0xB075_5EED_0000_0000;

/// What a history entry did.
#[derive(Clone, Debug)]
pub enum Done {
    /// A player chose a move; the label is as the chooser saw it.
    Move {
        player: usize,
        label: String,
        action: Action,
    },
    /// The designer set up the position (`arrange` or `put`, the command as
    /// typed, normalised; it is replayed as a command by `load`/`reload`).
    Arrange(String),
}

impl std::fmt::Display for Done {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Done::Move { player, label, .. } => write!(f, "P{player}: {label}"),
            Done::Arrange(text) => f.write_str(text),
        }
    }
}

/// How a history entry is taken back.
#[derive(Debug)]
pub enum Before {
    /// A move applied with a mark open: [`State::undo`] takes it back from
    /// the engine's journal, and redo applies it again.
    Journal,
    /// The whole state before the entry, taken back by putting it back.
    /// The journal breaks across these, so they legitimately keep a
    /// snapshot: a designer edit (`arrange`, `put`) writes the table
    /// without journaling and forgets the open marks, and an
    /// explicit-chance state refuses make/unmake. For an edit the snapshot
    /// is the state itself moved aside (the edit is made on a copy), so it
    /// keeps its open marks and the moves before the edit stay undoable
    /// from the journal.
    Snapshot(Box<State>),
}

/// A history entry: what was done, and how to take it back.
#[derive(Debug)]
pub struct Entry {
    pub before: Before,
    pub done: Done,
}

/// An undone entry, for `redo`: the state after it when the entry kept a
/// snapshot (moved back on redo); a journaled move is applied again.
#[derive(Debug)]
pub struct Undone {
    pub done: Done,
    pub after: Option<Box<State>>,
}

/// An agent playing a seat.
pub struct Bot {
    pub kind: AgentKind,
    pub agent: Box<dyn Agent + Send>,
}

/// A game being explored: the REPL and scripts drive one of these.
pub struct Session {
    pub game: Game,
    pub state: State,
    /// Undo stack, oldest first; also what `log` prints and `save` writes.
    pub history: Vec<Entry>,
    /// Undone entries, the latest undone last.
    pub redo: Vec<Undone>,
    /// Random moves for `auto` on seats without a bot, from the game seed.
    pub rng: ChaCha8Rng,
    pub seed: u64,
    pub players: usize,
    /// Options changed from their default (`--set`, `set`, `variant`), by
    /// name: applied at every start, and kept across `reload`.
    pub chosen: Vec<(String, i32)>,
    /// The rules file, for `reload` and `save`.
    pub rules_path: Option<PathBuf>,
    /// One slot per seat.
    pub bots: Vec<Option<Bot>>,
    /// Print the action-graph nodes each move executes.
    pub trace: bool,
    /// Render diagnostics with colour (interactive use on a terminal).
    pub color: bool,
    /// How many `expect` lines failed (a script then exits non-zero).
    pub expect_failures: usize,
    /// The position at the end of the round `auto round` stopped at, before
    /// the next deal: `state`, `view` and `expect` look at it until any other
    /// command runs.
    pub round_end: Option<State>,
}

impl Session {
    /// Start a game; the error is one line.
    pub fn new(game: &Game, players: usize, seed: u64, opts: &[i32]) -> Result<Session, String> {
        let mut state = State::new(game, players, seed, opts).map_err(|e| e.to_string())?;
        state.keep_undo(true);
        let chosen = game
            .options()
            .iter()
            .zip(opts)
            .filter(|(o, v)| o.default != **v)
            .map(|(o, v)| (o.name.clone(), *v))
            .collect();
        Ok(Session {
            game: game.clone(),
            state,
            history: Vec::new(),
            redo: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(seed ^ AUTO_SALT),
            seed,
            players,
            chosen,
            rules_path: None,
            bots: (0..players).map(|_| None).collect(),
            trace: false,
            color: false,
            expect_failures: 0,
            round_end: None,
        })
    }

    /// Remember the rules file this game was loaded from (for `reload`).
    pub fn with_rules_path(mut self, path: impl Into<PathBuf>) -> Session {
        self.rules_path = Some(path.into());
        self
    }

    /// Replace the game by another start (restart, load, reload): history
    /// and redo are those of `fresh`; bots, trace and colour stay.
    pub fn adopt(&mut self, fresh: Session) {
        let mut bots = std::mem::take(&mut self.bots);
        bots.resize_with(fresh.players, || None);
        for (seat, slot) in bots.iter_mut().enumerate() {
            if let Some(b) = slot {
                b.agent = b.kind.build(bot_seed(fresh.seed, seat));
            }
        }
        let (rules_path, trace, color) = (self.rules_path.take(), self.trace, self.color);
        let failures = self.expect_failures;
        *self = fresh;
        self.expect_failures = failures;
        self.bots = bots;
        self.rules_path = rules_path;
        self.trace = trace;
        self.color = color;
    }

    /// The option values the next start uses: defaults, then `chosen`.
    /// Chosen options the game no longer has (or out of range) are skipped
    /// and named in the second list.
    pub fn next_options(&self, game: &Game) -> (Vec<i32>, Vec<String>) {
        let mut opts = game.default_options();
        let mut skipped = Vec::new();
        for (name, v) in &self.chosen {
            if let Err(e) = game.set_option(&mut opts, name, &v.to_string()) {
                skipped.push(e.to_string());
            }
        }
        (opts, skipped)
    }

    /// A short prompt saying who is to move.
    pub fn prompt(&self) -> String {
        match self.state.chooser() {
            _ if self.state.is_over() => "over> ".to_string(),
            Some(p) if !self.legal().is_empty() => format!("P{p}> "),
            _ => "stuck> ".to_string(),
        }
    }

    /// The moves offered: the legal actions with identical moves (cards
    /// nobody can tell apart) listed once.
    pub fn legal(&self) -> Vec<Action> {
        self.state.distinct_actions(&self.game)
    }

    /// Labels of the legal moves, as the chooser sees them.
    pub fn labels(&self, actions: &[Action]) -> Vec<String> {
        actions
            .iter()
            .map(|a| self.state.label(&self.game, *a))
            .collect()
    }

    /// Apply a legal action; the state changes only if the engine accepts
    /// it. Prints `P2: label` (and the trace when it is on). A new move
    /// forgets what could be redone.
    pub fn play(&mut self, action: Action, out: &mut String) -> Result<(), String> {
        self.play_with(action, out, None).map(|_| ())
    }

    /// Like [`Session::play`]; with `round` (a phase) returns the position
    /// just before that phase returned, if it did during the move: the end
    /// of a round, before the next deal.
    pub fn play_with(
        &mut self,
        action: Action,
        out: &mut String,
        round: Option<u16>,
    ) -> Result<Option<State>, String> {
        let player = self.state.chooser().unwrap_or(0);
        let label = self.state.label(&self.game, action);
        if !self.state.legal_actions(&self.game).contains(&action) {
            return Err(format!("that move is not legal now (P{player}: {label})"));
        }
        // The state keeps a mark per move, and an action that fails is taken
        // back at once. An explicit-chance state has no marks: it keeps a copy.
        let snapshot = self
            .state
            .explicit_chance()
            .then(|| Box::new(self.state.clone()));
        let marks = self.state.open_marks();
        let mut rec = super::trace::Recorder::new(&self.game);
        let mut end: Option<State> = None;
        let phases = &self.game.graph().phases;
        let trace = self.trace;
        let applied = if trace || round.is_some() {
            self.state
                .apply_looking(&self.game, action, &mut |st, p, n| {
                    if trace {
                        rec.look(st, p, n);
                    }
                    if Some(p) == round
                        && matches!(
                            phases[p as usize].nodes.get(n as usize),
                            Some(crate::graph::Node::Return)
                        )
                    {
                        end = Some(st.clone());
                    }
                })
        } else {
            self.state.apply(&self.game, action)
        };
        if let Err(e) = applied {
            if let Some(old) = snapshot {
                self.state = *old;
            }
            return Err(format!("{e} (P{player}: {label})"));
        }
        let before = match snapshot {
            Some(old) => Before::Snapshot(old),
            None => {
                debug_assert_eq!(self.state.open_marks(), marks + 1, "a mark per move");
                Before::Journal
            }
        };
        let done = Done::Move {
            player,
            label,
            action,
        };
        let _ = writeln!(out, "{done}");
        if self.trace {
            rec.write(out);
        }
        self.history.push(Entry { before, done });
        self.redo.clear();
        Ok(end)
    }

    /// Record a state change made by the designer (arrange, put) for undo:
    /// `before` is the state as it was (with its open marks), the session's
    /// state the edited copy, which keeps marks from now on.
    pub fn record(&mut self, before: State, done: Done) {
        self.state.keep_undo(true);
        self.history.push(Entry {
            before: Before::Snapshot(Box::new(before)),
            done,
        });
        self.redo.clear();
    }

    /// Take back the newest history entry, keeping it for `redo`.
    pub fn undo_one(&mut self) -> Result<Option<&Done>, String> {
        let Some(Entry { before, done }) = self.history.pop() else {
            return Ok(None);
        };
        let after = match before {
            Before::Journal => {
                if let Err(e) = self.state.undo(&self.game) {
                    self.history.push(Entry { before, done });
                    return Err(format!("cannot undo: {e}"));
                }
                None
            }
            Before::Snapshot(old) => Some(Box::new(std::mem::replace(&mut self.state, *old))),
        };
        self.redo.push(Undone { done, after });
        Ok(self.redo.last().map(|u| &u.done))
    }

    /// Do again the newest undone entry.
    pub fn redo_one(&mut self) -> Result<Option<&Done>, String> {
        let Some(Undone { done, after }) = self.redo.pop() else {
            return Ok(None);
        };
        let before = match (after, &done) {
            (Some(after), _) => {
                Before::Snapshot(Box::new(std::mem::replace(&mut self.state, *after)))
            }
            (None, Done::Move { action, .. }) => {
                if let Err(e) = self.state.apply_unchecked(&self.game, *action) {
                    self.redo.push(Undone { done, after: None });
                    return Err(format!("cannot redo: {e}"));
                }
                Before::Journal
            }
            (None, Done::Arrange(_)) => {
                // not reached: an edit is always undone from a snapshot
                self.redo.push(Undone { done, after: None });
                return Err("cannot redo an edit without its position".into());
            }
        };
        self.history.push(Entry { before, done });
        Ok(self.history.last().map(|e| &e.done))
    }

    /// The bot playing the seat that must choose now, if any.
    pub fn bot_to_move(&self) -> Option<usize> {
        let p = self.state.chooser()?;
        self.bots.get(p)?.as_ref().map(|_| p)
    }

    /// Let the seat to move choose: its bot, or the `auto` generator.
    pub fn agent_move(&mut self, legal: &[Action]) -> Action {
        use rand::Rng;
        let seat = self.state.chooser().unwrap_or(0);
        let i = match self.bots.get_mut(seat).and_then(Option::as_mut) {
            Some(bot) => bot.agent.choose(&self.game, &self.state, legal),
            None => self.rng.random_range(0..legal.len()),
        };
        legal[i.min(legal.len() - 1)]
    }

    /// Bots move while a seat they play must choose (at most
    /// [`AUTO_END_LIMIT`] moves). Ctrl-C stops them between moves (and cuts
    /// a search agent's thinking short: its move is then not played); the
    /// game is kept as it stands.
    pub fn run_bots(&mut self, out: &mut String) -> Result<usize, String> {
        let mut made = 0;
        while made < AUTO_END_LIMIT && self.bot_to_move().is_some() {
            let legal = self.legal();
            if legal.is_empty() {
                break;
            }
            let action = self.agent_move(&legal);
            if crate::interrupt::interrupted() {
                let _ = writeln!(
                    out,
                    "interrupted after {made} bot move(s): the game is kept as it stands (`undo` takes moves back, `bot` lists the bots)"
                );
                break;
            }
            self.play(action, out)?;
            made += 1;
        }
        Ok(made)
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
        match self.bots.get(p).and_then(Option::as_ref) {
            Some(bot) => {
                let _ = writeln!(out, "P{p} ({} bot) to choose:", bot.kind);
            }
            None => {
                let _ = writeln!(out, "P{p} to choose:");
            }
        }
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
        let turns = self.state.turns();
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
        match &self.round_end {
            // between two rounds nobody is to choose: say where we stand instead
            Some(end) => end.view(&self.game, viewer).replacen(
                "stuck: nobody can move\n",
                "end of the round, before the next deal (any move goes on from the next round)\n",
                1,
            ),
            None => self.state.view(&self.game, viewer),
        }
    }

    /// The position `state`, `view` and `expect` look at: the end of the
    /// round `auto round` stopped at, else the game.
    pub fn shown(&self) -> &State {
        self.round_end.as_ref().unwrap_or(&self.state)
    }
}

/// The seed of the bot at `seat` in a game seeded with `seed`.
pub fn bot_seed(seed: u64, seat: usize) -> u64 {
    seed ^ BOT_SALT ^ (seat as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// `a, b and c`.
pub fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
