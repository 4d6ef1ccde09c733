//! Stage 4, the engine: the API every front end uses. A [`Game`] is a
//! compiled rules file (the load pipeline, `crate::load`, reads and
//! compiles it), immutable and shared; create a [`State`] from
//! players, seed and options; list legal actions with labels; apply one;
//! tell whether the game is over and who won; render a player's view.
//!
//! `state.rs` is the data, `eval.rs` expressions, `exec.rs` the
//! interpreter, `view.rs` labels, views and arranging positions.

mod board_view;
mod chance;
mod coll;
mod compile;
mod compile_call;
mod determinize;
mod distinct;
mod eval;
mod evaluate;
mod exec;
mod fault;
mod geometry;
mod memo;
mod observe;
pub mod perft;
mod pools;
mod probe;
mod program;
mod state;
mod tensor;
mod undo;
mod view;

pub use chance::{CHANCE_ARM, ChanceNode, MAX_CHANCE_OUTCOMES};
pub use determinize::{Determinizer, card_locals, relabel_locals};
pub use eval::Fault;
pub use exec::{Action, STEP_BUDGET};
pub use observe::{ActionSpace, DYNAMIC_INT_WIDTH, MAX_ARM_WIDTH};
pub use probe::Probe;
pub use program::Program;
pub use state::{Core, EngineError, Frame, State};
pub use tensor::TensorShape;
pub use undo::{Journal, Mark};
pub use view::Viewer;

/// The load pipeline's entry points, kept here for older paths
/// (`grail::engine::compile`); new code uses `grail::load`.
pub use crate::load::{Compiled, MAX_VARIANT_DEPTH, compile, read_rules};

use crate::diag::{Diagnostics, Source};
use crate::hir::OptionInfo;
use crate::load::Loaded;
use std::path::Path;
use std::sync::Arc;

/// A compiled game: immutable and cheap to clone (shared).
#[derive(Clone)]
pub struct Game {
    data: Arc<Loaded>,
    /// The graph with its expressions compiled (shared, immutable).
    prog: Arc<Program>,
}

impl Game {
    /// Read and compile a rules file (a variant with its bases).
    ///
    /// ```
    /// let path = std::env::temp_dir().join("grail-doc-coin.rules");
    /// std::fs::write(&path, "game \"Coin\" { players 2..4 }\n\
    ///     start { choose seat(0) { \"stop\" { } } end game }\n\
    ///     winners highest 0\n").expect("a temporary file");
    /// let game = grail::Game::load(&path).expect("compiles");
    /// assert_eq!(game.players(), (2, 4));
    /// assert!(grail::Game::load("no/such/file.rules").is_err());
    /// ```
    pub fn load(path: impl AsRef<Path>) -> Result<Game, Diagnostics> {
        crate::load::load(path.as_ref()).map(Game::from)
    }

    /// Compile rules from a string; `name` is used in diagnostics. (A
    /// variant's base is found relative to the current directory.)
    ///
    /// ```
    /// let text = "game \"Coin\" { players 2..2 }\n\
    ///     start { choose seat(0) { \"stop\" { } } end game }\n\
    ///     winners highest 0\n";
    /// let game = grail::Game::from_source("coin.rules", text).expect("compiles");
    /// assert_eq!(game.name(), "Coin");
    /// assert!(grail::Game::from_source("bad.rules", "game {").is_err());
    /// ```
    pub fn from_source(name: &str, text: &str) -> Result<Game, Diagnostics> {
        crate::load::load_text(name, text).map(Game::from)
    }

    /// The action graph, with its compiled expressions (a [`Program`]
    /// dereferences to the [`Graph`]).
    pub fn graph(&self) -> &Program {
        &self.prog
    }
    pub fn source(&self) -> &Source {
        &self.data.source
    }
    /// Warnings found while compiling (the game compiled, so no errors).
    pub fn warnings(&self) -> &Diagnostics {
        &self.data.warnings
    }
    /// A stable hash of the rules text, stored in saved games.
    pub fn digest(&self) -> u64 {
        self.data.digest
    }
    pub fn name(&self) -> &str {
        &self.data.graph.tables.name
    }
    pub fn players(&self) -> (usize, usize) {
        let t = &self.data.graph.tables;
        (t.min_players as usize, t.max_players as usize)
    }
    pub fn options(&self) -> &[OptionInfo] {
        &self.data.graph.tables.options
    }
    pub fn option_index(&self, name: &str) -> Option<usize> {
        self.options().iter().position(|o| o.name == name)
    }
    pub fn default_options(&self) -> Vec<i32> {
        self.options().iter().map(|o| o.default).collect()
    }
    /// Set `name=value` in an option vector, checking name and range.
    pub fn set_option(&self, opts: &mut [i32], name: &str, value: &str) -> Result<(), OptionError> {
        let Some(i) = self.option_index(name) else {
            let names: Vec<String> = self.options().iter().map(|o| o.name.clone()).collect();
            return Err(OptionError::Unknown {
                name: name.to_string(),
                suggestion: crate::diag::did_you_mean(name, names.iter().map(String::as_str))
                    .map(str::to_string),
                names,
            });
        };
        let o = &self.options()[i];
        // A number too large for 32 bits is still a number: say the range.
        let wide: i128 = value.parse().map_err(|_| OptionError::NotANumber {
            name: name.to_string(),
            value: value.to_string(),
        })?;
        if wide < i128::from(o.min) || wide > i128::from(o.max) {
            return Err(OptionError::OutOfRange {
                name: name.to_string(),
                min: o.min,
                max: o.max,
                value: wide,
            });
        }
        opts[i] = wide as i32;
        Ok(())
    }

    /// The option values after `NAME=VALUE` settings (a command line's
    /// `--set`) applied in order to the defaults: the one parser of
    /// `--set` for every front end.
    ///
    /// ```
    /// let text = "game \"Race\" { players 2..2 }\n\
    ///     option target = 100 in 10..500 \"points to win\"\n\
    ///     start { choose seat(0) { \"stop\" { } } end game }\n\
    ///     winners highest target\n";
    /// let game = grail::Game::from_source("race.rules", text).expect("compiles");
    /// let opts = game.options_from(&["target=50"]).expect("a setting");
    /// assert_eq!(opts[game.option_index("target").unwrap()], 50);
    /// assert!(game.options_from(&["target"]).is_err());
    /// ```
    pub fn options_from<S: AsRef<str>>(&self, settings: &[S]) -> Result<Vec<i32>, SetError> {
        let mut opts = self.default_options();
        for s in settings {
            let s = s.as_ref();
            let Some((name, value)) = s.split_once('=') else {
                return Err(SetError::NotASetting(s.to_string()));
            };
            self.set_option(&mut opts, name.trim(), value.trim())
                .map_err(|error| SetError::Option {
                    setting: s.to_string(),
                    error,
                })?;
        }
        Ok(opts)
    }

    /// Whether `players` seats can play this game.
    pub fn check_players(&self, players: usize) -> Result<(), PlayersError> {
        let (min, max) = self.players();
        if players < min || players > max {
            return Err(PlayersError {
                game: self.name().to_string(),
                min,
                max,
                players,
            });
        }
        Ok(())
    }
    pub fn card_count(&self) -> usize {
        self.data.graph.tables.cards.len()
    }
    pub fn card_name(&self, card: usize) -> &str {
        &self.data.graph.tables.cards[card].name
    }
    /// 1-based line of a node, for messages.
    pub fn line_of(&self, phase: u16, node: u32) -> usize {
        let p = &self.data.graph.phases[phase as usize];
        let span = p.spans.get(node as usize).copied().unwrap_or(p.span);
        self.data.source.line_of(span.start)
    }
}

impl From<Loaded> for Game {
    fn from(loaded: Loaded) -> Game {
        Game {
            prog: Arc::new(Program::new(loaded.graph.clone())),
            data: Arc::new(loaded),
        }
    }
}

/// Why [`Game::set_option`] refused a setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name; `suggestion` is the closest one, if any.
    Unknown {
        name: String,
        suggestion: Option<String>,
        names: Vec<String>,
    },
    /// The value is not a whole number.
    NotANumber { name: String, value: String },
    /// The value is outside the option's declared range.
    OutOfRange {
        name: String,
        min: i32,
        max: i32,
        value: i128,
    },
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Unknown {
                name,
                suggestion: Some(s),
                ..
            } => write!(f, "unknown option `{name}`: did you mean `{s}`?"),
            OptionError::Unknown { name, names, .. } if names.is_empty() => {
                write!(f, "unknown option `{name}`: this game has no options")
            }
            OptionError::Unknown { name, names, .. } => write!(
                f,
                "unknown option `{name}`: the options are {}",
                names.join(", ")
            ),
            OptionError::NotANumber { name, value } => {
                write!(f, "option `{name}` takes a whole number, not `{value}`")
            }
            OptionError::OutOfRange {
                name,
                min,
                max,
                value,
            } => write!(f, "option `{name}` must be in {min}..{max}, not {value}"),
        }
    }
}

impl std::error::Error for OptionError {}

/// Front ends that report errors as text can use `?` on a setting.
impl From<OptionError> for String {
    fn from(e: OptionError) -> String {
        e.to_string()
    }
}

/// Why [`Game::options_from`] refused a list of settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetError {
    /// A setting without `=`.
    NotASetting(String),
    /// A setting [`Game::set_option`] refused.
    Option { setting: String, error: OptionError },
}

impl std::fmt::Display for SetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetError::NotASetting(s) => write!(f, "--set takes NAME=VALUE, not `{s}`"),
            SetError::Option { error, .. } => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for SetError {}

impl From<SetError> for String {
    fn from(e: SetError) -> String {
        e.to_string()
    }
}

/// A player count the game is not for ([`Game::check_players`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayersError {
    pub game: String,
    pub min: usize,
    pub max: usize,
    pub players: usize,
}

impl std::fmt::Display for PlayersError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let PlayersError {
            game,
            min,
            max,
            players,
        } = self;
        write!(f, "{game} is for {min} to {max} players, not {players}")
    }
}

impl std::error::Error for PlayersError {}

impl From<PlayersError> for String {
    fn from(e: PlayersError) -> String {
        e.to_string()
    }
}

/// Why make/unmake and undo refuse a state in explicit-chance mode: its
/// chance bookkeeping reruns stretches from a copy, which the journal does
/// not record.
const CHANCE_NO_UNDO: &str =
    "undo and make/unmake are not offered in explicit-chance mode: keep a copy (clone) instead";

/// What a state waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// This player must choose among the legal actions.
    Decide(usize),
    /// The game has ended.
    Over,
    /// A choice with no legal option and no `otherwise`: the game cannot go on.
    Stuck,
    /// Explicit-chance mode only: a random draw waits for its outcome
    /// ([`State::chance_outcomes`], [`State::apply_chance`]).
    Chance,
}

/// The decision a state waits for: where it is in the rules and its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingChoice {
    pub player: usize,
    pub phase: String,
    /// 1-based line of the `choose` (or `window`).
    pub line: usize,
    pub options: Vec<Action>,
}

impl State {
    /// Start a game: `players` seats, a seed, and one value per option
    /// (see [`Game::default_options`]). Runs to the first decision.
    pub fn new(
        game: &Game,
        players: usize,
        seed: u64,
        options: &[i32],
    ) -> Result<State, EngineError> {
        let g = game.graph();
        let mut s = State::new_unstarted(game, players, seed, options)?;
        s.run_with(g, &mut |_, _| {})
            .map_err(|(m, at)| s.fault(game, m, at))?;
        s.finish(game)?;
        Ok(s)
    }

    /// Like [`State::new`], telling `visit` every (phase, node) executed.
    pub fn new_observed(
        game: &Game,
        players: usize,
        seed: u64,
        options: &[i32],
        visit: &mut impl FnMut(u16, u32),
    ) -> Result<State, EngineError> {
        let mut s = State::new_unstarted(game, players, seed, options)?;
        s.run_with(game.graph(), visit)
            .map_err(|(m, at)| s.fault(game, m, at))?;
        s.finish(game)?;
        Ok(s)
    }

    fn new_unstarted(
        game: &Game,
        players: usize,
        seed: u64,
        options: &[i32],
    ) -> Result<State, EngineError> {
        let (lo, hi) = game.players();
        if players < lo || players > hi {
            return Err(EngineError::Setup(format!(
                "{} is for {lo} to {hi} players, not {players}",
                game.name()
            )));
        }
        if options.len() != game.options().len() {
            return Err(EngineError::Setup(format!(
                "expected {} option values, got {}",
                game.options().len(),
                options.len()
            )));
        }
        State::create(game.graph(), players, seed, options)
            .map_err(|m| EngineError::Setup(m.to_string()))
    }

    /// Like [`State::apply_unchecked`], telling `visit` every (phase, node) executed.
    pub fn apply_observed(
        &mut self,
        game: &Game,
        action: Action,
        visit: &mut impl FnMut(u16, u32),
    ) -> Result<(), EngineError> {
        let mark = self.marks.keep.then(|| self.open_mark());
        let r = self
            .take_with(game.graph(), action, visit)
            .map_err(|(m, at)| self.fault(game, m, at))
            .and_then(|()| self.finish(game));
        if let (Err(_), Some(mark)) = (&r, mark) {
            self.unmake(mark);
        }
        r
    }

    /// A game that has just ended has scores: a `winners` key that faults
    /// is reported now rather than hidden later.
    fn finish(&self, game: &Game) -> Result<(), EngineError> {
        if self.over {
            self.try_scores(game)?;
        }
        Ok(())
    }

    fn fault(&self, game: &Game, fault: Fault, (phase, node): (u16, u32)) -> EngineError {
        if fault == Fault::Runaway {
            return EngineError::Runaway { steps: STEP_BUDGET };
        }
        EngineError::Fault {
            fault,
            message: fault.message().to_string(),
            phase: game.graph().phases[phase as usize].name.clone(),
            node,
            line: game.line_of(phase, node),
        }
    }

    /// The player who must decide now, if any.
    pub fn chooser(&self) -> Option<usize> {
        if self.over {
            None
        } else {
            self.waiting.map(usize::from)
        }
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The legal actions now (empty when over, or when stuck).
    pub fn legal_actions(&self, game: &Game) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(game, &mut out);
        out
    }

    /// Like [`State::legal_actions`], reusing a buffer (for simulation).
    /// The actions were listed when the decision was reached (a guard that
    /// faulted then was reported as a fault), so this only copies them.
    pub fn legal_actions_into(&self, game: &Game, out: &mut Vec<Action>) {
        out.clear();
        if self.over || self.waiting.is_none() {
            return;
        }
        out.extend_from_slice(&self.legal);
        if self.can_pass(game) {
            out.push(Action {
                arm: Action::PASS,
                value: 0,
            });
        }
    }

    /// Whether the pending decision is in a window (so `pass` is legal).
    fn can_pass(&self, game: &Game) -> bool {
        let Some(fr) = self.frames.last() else {
            return false;
        };
        matches!(
            game.graph().phases[fr.phase as usize]
                .nodes
                .get(fr.pc as usize),
            Some(crate::graph::Node::Choose { pass: Some(_), .. })
        )
    }

    /// List the legal actions of the pending decision again, after the
    /// position was edited by hand (setup scripts, `arrange`, `put`).
    pub(crate) fn relist(&mut self, game: &Game) -> Result<(), EngineError> {
        self.edited = true;
        self.forget_marks();
        if self.over || self.waiting.is_none() {
            return Ok(());
        }
        let mut legal = std::mem::take(&mut self.legal);
        legal.clear();
        let r = self.for_each_action(game.graph(), false, |a| {
            legal.push(a);
            true
        });
        self.legal = legal;
        let at = self.frames.last().map_or((0, 0), |f| (f.phase, f.pc));
        let r = r.map_err(|f| self.fault(game, f, at));
        self.listing_fault = r.as_ref().err().map(|e| Box::new(e.clone()));
        r
    }

    /// The fault a guard hit when the pending decision was last listed
    /// after a hand edit ([`State::relist_edited`]), if any: the legal
    /// actions are then those found before the fault. Cleared by the next
    /// listing that succeeds and by every action taken.
    pub fn listing_fault(&self) -> Option<&EngineError> {
        self.listing_fault.as_deref()
    }

    /// Relist after one hand edit (`arrange`, `put`, or a caller that
    /// changed the position through its fields, as a test may). A position built up
    /// edit by edit may pass through positions where a guard faults (no
    /// king yet); the list is then what was found before the fault, and
    /// [`State::apply_setup`] relists the finished position, reporting any
    /// fault. The fault is kept, not dropped: see [`State::listing_fault`].
    pub fn relist_edited(&mut self, game: &Game) {
        if self.relist(game).is_err() {
            self.edited = true;
        }
    }

    /// What the state waits for: a player's decision, nothing (over), or
    /// nothing possible (stuck).
    pub fn status(&self, game: &Game) -> Status {
        if let Some(chance) = self.chance_status() {
            return chance;
        }
        match self.chooser() {
            _ if self.over => Status::Over,
            Some(p) if !self.legal.is_empty() || self.can_pass(game) => Status::Decide(p),
            _ => Status::Stuck,
        }
    }

    /// The pending decision: who, where in the rules, and the legal actions.
    pub fn pending_choice(&self, game: &Game) -> Option<PendingChoice> {
        let player = self.chooser()?;
        let fr = self.frames.last()?;
        Some(PendingChoice {
            player,
            phase: game.graph().phases[fr.phase as usize].name.clone(),
            line: game.line_of(fr.phase, fr.pc),
            options: self.legal_actions(game),
        })
    }

    /// Every action taken since the start, in order.
    pub fn history(&self) -> &[Action] {
        &self.history
    }

    /// Take back the last action. An action taken with [`State::make`], or
    /// applied while [`State::keep_undo`] is on, is taken back from the
    /// journal (no replay, no copy). Otherwise (a state loaded from a save,
    /// copied, or whose marks a hand edit forgot) the game is replayed from
    /// its seed and options without the action (the engine is
    /// deterministic); a position edited by hand then cannot be undone.
    pub fn undo(&mut self, game: &Game) -> Result<(), EngineError> {
        if self.explicit_chance() {
            return Err(EngineError::Illegal(CHANCE_NO_UNDO.into()));
        }
        if self.marks.depth() > 0 {
            self.close_mark();
            return Ok(());
        }
        if self.edited {
            return Err(EngineError::Illegal(
                "a position edited by hand cannot be undone".into(),
            ));
        }
        let Some((_, keep)) = self.history.split_last() else {
            return Err(EngineError::Illegal("no action to undo".into()));
        };
        let mut s = State::new(game, self.players(), self.seed, &self.core.opts)?;
        for a in keep {
            s.apply_unchecked(game, *a)?;
        }
        *self = s;
        Ok(())
    }

    /// Decisions taken since the start.
    pub fn decisions(&self) -> u32 {
        self.decisions
    }

    /// Turns begun since the start.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The seed the game was created with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Apply a legal action and run to the next decision. On error the
    /// state may be half-changed: callers that must keep the game apply to
    /// a clone (the REPL does).
    pub fn apply(&mut self, game: &Game, action: Action) -> Result<(), EngineError> {
        if !self.is_legal(game, action) {
            return Err(EngineError::Illegal("that move is not legal now".into()));
        }
        self.apply_unchecked(game, action)
    }

    /// Whether `action` is legal now.
    pub fn is_legal(&self, game: &Game, action: Action) -> bool {
        !self.over
            && self.waiting.is_some()
            && (self.legal.contains(&action)
                || (action.arm == Action::PASS && action.value == 0 && self.can_pass(game)))
    }

    /// Apply an action known to be legal (taken from `legal_actions`).
    /// While [`State::keep_undo`] is on, a mark is kept for [`State::undo`]
    /// and an error leaves the state as it was.
    pub fn apply_unchecked(&mut self, game: &Game, action: Action) -> Result<(), EngineError> {
        if self.explicit_chance() {
            return self.apply_with_chance(game, action);
        }
        if self.marks.keep {
            return self.make_unchecked(game, action).map(drop);
        }
        self.apply_inner(game, action)
    }

    /// Apply an action and run on (no mark opened here).
    pub(super) fn apply_inner(&mut self, game: &Game, action: Action) -> Result<(), EngineError> {
        let r = self
            .take_with(game.graph(), action, &mut |_, _| {})
            .map_err(|(m, at)| self.fault(game, m, at))
            .and_then(|()| self.finish(game));
        #[cfg(debug_assertions)]
        if r.is_ok() {
            self.check_conservation(game).expect("cards are conserved");
        }
        r
    }

    /// Who won, once the game is over: every player with the best score
    /// under the `winners` rule (ties share), among the players its `where`
    /// condition admits. Empty when nobody wins (no player admitted).
    pub fn winners(&self, game: &Game) -> Vec<usize> {
        if !self.over {
            return Vec::new();
        }
        let scores = self.scores(game);
        let t = &game.graph().tables;
        let admitted: Vec<usize> = (0..scores.len())
            .filter(|p| match &t.winners_filter {
                None => true,
                Some(cond) => {
                    let mut locals = vec![0i32; usize::from(t.winners_locals).max(16)];
                    locals[0] = *p as i32;
                    eval::Ev {
                        g: game.graph(),
                        c: &self.core,
                        locals: &mut locals,
                        rng: None,
                    }
                    .eval(cond)
                    .is_ok_and(|v| v != 0)
                }
            })
            .collect();
        let keys = admitted.iter().map(|p| scores[*p]);
        let best = if t.winners_highest {
            keys.max()
        } else {
            keys.min()
        };
        let Some(best) = best else {
            return Vec::new();
        };
        let tied = admitted
            .into_iter()
            .filter(|p| scores[*p] == best)
            .collect();
        self.break_ties(game, tied)
    }

    /// Narrow tied winners by the further keys of `winners highest (a, b)`.
    fn break_ties(&self, game: &Game, mut tied: Vec<usize>) -> Vec<usize> {
        let g = game.graph();
        for key in &g.tables.winners_tiebreak {
            if tied.len() < 2 {
                break;
            }
            let value = |p: usize| {
                let mut locals = vec![0i32; usize::from(g.tables.winners_locals).max(16)];
                locals[0] = p as i32;
                eval::Ev {
                    g,
                    c: &self.core,
                    locals: &mut locals,
                    rng: None,
                }
                .eval(key)
                .unwrap_or(0)
            };
            let values: Vec<i32> = tied.iter().map(|p| value(*p)).collect();
            let best = if g.tables.winners_highest {
                values.iter().max()
            } else {
                values.iter().min()
            };
            let best = *best.expect("two or more tied");
            tied = tied
                .into_iter()
                .zip(values)
                .filter(|(_, v)| *v == best)
                .map(|(p, _)| p)
                .collect();
        }
        tied
    }

    /// The `winners` key for each player. A finished game's key cannot
    /// fault (a fault is reported when the game ends); during a game a key
    /// that faults shows as 0 here: [`State::try_scores`] gives the fault.
    pub fn scores(&self, game: &Game) -> Vec<i32> {
        match self.try_scores(game) {
            Ok(s) => s,
            Err(_) => vec![0; self.players()],
        }
    }

    /// The `winners` key for each player, or the fault evaluating it.
    pub fn try_scores(&self, game: &Game) -> Result<Vec<i32>, EngineError> {
        let g = game.graph();
        let Some(key) = &g.tables.winners_key else {
            return Ok(Vec::new());
        };
        (0..self.core.n as i32)
            .map(|p| {
                let mut locals = vec![0i32; usize::from(g.tables.winners_locals).max(16)];
                locals[0] = p;
                eval::Ev {
                    g,
                    c: &self.core,
                    locals: &mut locals,
                    rng: None,
                }
                .eval(key)
                .map_err(|fault| {
                    let text = &game.source().text;
                    let at = text.find("\nwinners ").map_or(0, |i| i + 1);
                    EngineError::Fault {
                        fault,
                        message: fault.message().to_string(),
                        phase: "winners".into(),
                        node: 0,
                        line: game.source().line_of(at as u32),
                    }
                })
            })
            .collect()
    }

    /// The description of the first declared invariant that does not hold now.
    pub fn broken_invariant(&self, game: &Game) -> Option<String> {
        let g = game.graph();
        for (text, e) in &g.tables.invariants {
            let mut locals = [0i32; 16];
            let ok = eval::Ev {
                g,
                c: &self.core,
                locals: &mut locals,
                rng: None,
            }
            .eval(e);
            if ok != Ok(1) {
                return Some(text.clone());
            }
        }
        None
    }

    /// Every card is in exactly one zone, and the index agrees.
    pub fn check_conservation(&self, game: &Game) -> Result<(), EngineError> {
        let n = game.card_count();
        let mut seen = vec![false; n];
        for (z, cards) in self.core.zones().enumerate() {
            for c in cards {
                let c = *c as usize;
                if c >= n || seen[c] {
                    return Err(EngineError::Conservation(format!("card {c} appears twice")));
                }
                seen[c] = true;
                if self.core.card_zone(c) as usize != z {
                    return Err(EngineError::Conservation(format!(
                        "card {c} is indexed in the wrong zone"
                    )));
                }
            }
        }
        match seen.iter().position(|s| !s) {
            Some(c) => Err(EngineError::Conservation(format!(
                "card {} ({}) has vanished",
                c,
                game.card_name(c)
            ))),
            None => Ok(()),
        }
    }

    pub fn players(&self) -> usize {
        self.core.n as usize
    }

    /// The position the rules see: zones, cards' places and knowledge,
    /// variables, options (read-only).
    pub fn table(&self) -> &Core {
        &self.core
    }

    /// The position, to edit by hand (tests, tools). The state is marked
    /// edited, so [`State::undo`] refuses it; call
    /// [`State::relist_edited`] when done so the legal actions follow.
    pub fn edit_table(&mut self) -> &mut Core {
        self.edited = true;
        self.forget_marks();
        &mut self.core
    }

    /// The phases running, outermost first, each with the node it is at.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The (phase, node) the game waits at or runs, if any.
    pub fn at(&self) -> Option<(u16, u32)> {
        self.frames.last().map(|f| (f.phase, f.pc))
    }

    /// Steps (graph nodes) executed since the game began.
    pub fn steps(&self) -> u64 {
        self.steps
    }
}
