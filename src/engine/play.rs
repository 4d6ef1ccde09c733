//! The state's API, what every front end calls: start a game
//! ([`State::new`]), list and apply legal actions, ask what the state waits
//! for ([`Status`], [`PendingChoice`]), the history and [`State::undo`],
//! and read-only access to the table and the interpreter's stack.
//!
//! Invariant: outside a running `apply`, a state waits at a decision (its
//! legal list is filled), is over, or is stuck; an error from `make`, or
//! from `apply` while undo is kept, leaves the state as it was.

use super::error::{Illegal, SetupError};
use super::{Action, Core, EngineError, Fault, Frame, Game, STEP_BUDGET, State};

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
    /// For a variant, the file the `choose` is written in (its own or its
    /// base's); `None` for a plain file.
    pub file: Option<std::path::PathBuf>,
    /// 1-based line of the `choose` (or `window`) in that file.
    pub line: usize,
    pub options: Vec<Action>,
}

impl PendingChoice {
    /// Its line as messages name it: `line 3`, or for a variant `v.rules
    /// line 3` (the file the `choose` is written in).
    pub fn line_name(&self) -> String {
        super::error::line_name(self.file.as_deref(), self.line)
    }
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

    /// Make this state a new game, as [`State::new`] would start it
    /// (`players` seats, a seed, one value per option), in this state's
    /// buffers: with the game, player count and options of the game it
    /// holds, nothing is allocated. Runs to the first decision. On an
    /// error the state holds no game to play on (restart it again).
    pub fn restart(
        &mut self,
        game: &Game,
        players: usize,
        seed: u64,
        options: &[i32],
    ) -> Result<(), EngineError> {
        self.restart_observed(game, players, seed, options, &mut |_, _| {})
    }

    /// Like [`State::restart`], telling `visit` every (phase, node) executed.
    pub fn restart_observed(
        &mut self,
        game: &Game,
        players: usize,
        seed: u64,
        options: &[i32],
        visit: &mut impl FnMut(u16, u32),
    ) -> Result<(), EngineError> {
        let g = game.graph();
        check_setup(game, players, options)?;
        self.reset_to(g, players, seed, options)
            .map_err(|m| EngineError::Setup(SetupError::Start(m)))?;
        self.run_with(g, visit)
            .map_err(|(m, at)| self.fault(game, m, at))?;
        self.finish(game)
    }

    pub(super) fn new_unstarted(
        game: &Game,
        players: usize,
        seed: u64,
        options: &[i32],
    ) -> Result<State, EngineError> {
        check_setup(game, players, options)?;
        State::create(game.graph(), players, seed, options)
            .map_err(|m| EngineError::Setup(SetupError::Start(m)))
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

    /// A game that has just ended has scores and winners: a `winners` key,
    /// filter or tie-break that faults is reported now rather than hidden
    /// later.
    pub(super) fn finish(&self, game: &Game) -> Result<(), EngineError> {
        if self.over {
            self.winners_in(game, &mut [0; super::outcome::SEATS])?;
        }
        Ok(())
    }

    pub(super) fn fault(
        &self,
        game: &Game,
        fault: Fault,
        (phase, node): (u16, u32),
    ) -> EngineError {
        let name = game.graph().phases[phase as usize].name.clone();
        let (file, line) = game.file_line_of(phase, node);
        if fault == Fault::Runaway {
            return EngineError::Runaway {
                steps: STEP_BUDGET,
                phase: name,
                node,
                file,
                line,
            };
        }
        EngineError::Fault {
            fault,
            phase: name,
            node,
            file,
            line,
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
    pub(super) fn can_pass(&self, game: &Game) -> bool {
        let Some(fr) = self.frames.last() else {
            return false;
        };
        game.graph()
            .choice_at(fr.phase, fr.pc)
            .is_some_and(|c| c.can_pass())
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
    /// edit by edit may pass through positions where a guard faults (a
    /// piece it reads not placed yet); the list is then what was found before the fault, and
    /// [`State::apply_setup`] relists the finished position, reporting any
    /// fault. The fault is kept, not dropped: see [`State::listing_fault`].
    pub fn relist_edited(&mut self, game: &Game) {
        if self.relist(game).is_err() {
            self.edited = true;
        }
    }

    /// What the state waits for: a player's decision, nothing (over), or
    /// nothing possible (stuck).
    ///
    /// ```
    /// let text = "game \"Coin\" { players 2..2 }\n\
    ///     start { choose seat(0) { \"stop\" { } } end game }\n\
    ///     winners highest 0\n";
    /// let game = grail::Game::from_source("coin.rules", text).expect("compiles");
    /// let mut state = grail::State::new(&game, 2, 7, &game.default_options()).unwrap();
    /// assert_eq!(state.status(&game), grail::Status::Decide(0));
    /// let stop = state.legal_actions(&game)[0];
    /// state.apply(&game, stop).unwrap();
    /// assert_eq!(state.status(&game), grail::Status::Over);
    /// assert_eq!(state.history(), &[stop]);
    /// let again = state.apply(&game, stop);
    /// assert_eq!(again, Err(grail::EngineError::Illegal(grail::Illegal::NotLegal)));
    /// assert_eq!(again.unwrap_err().to_string(), "that move is not legal now");
    /// state.undo(&game).unwrap();
    /// assert_eq!(state.status(&game), grail::Status::Decide(0));
    /// ```
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
        let (file, line) = game.file_line_of(fr.phase, fr.pc);
        Some(PendingChoice {
            player,
            phase: game.graph().phases[fr.phase as usize].name.clone(),
            file,
            line,
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
            return Err(EngineError::Illegal(Illegal::ChanceNoUndo));
        }
        if self.marks.depth() > 0 {
            self.close_mark();
            return Ok(());
        }
        if self.edited {
            return Err(EngineError::Illegal(Illegal::EditedUndo));
        }
        let Some((_, keep)) = self.history.split_last() else {
            return Err(EngineError::Illegal(Illegal::NothingToUndo));
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
            return Err(EngineError::Illegal(Illegal::NotLegal));
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

/// The seats and options a game can start with, else a setup error.
fn check_setup(game: &Game, players: usize, options: &[i32]) -> Result<(), EngineError> {
    let (lo, hi) = game.players();
    if players < lo || players > hi {
        return Err(EngineError::Setup(SetupError::Players {
            game: game.name().to_string(),
            lo,
            hi,
            got: players,
        }));
    }
    if options.len() != game.options().len() {
        return Err(EngineError::Setup(SetupError::OptionCount {
            expected: game.options().len(),
            got: options.len(),
        }));
    }
    Ok(())
}
