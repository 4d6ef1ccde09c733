//! Stage 4, the engine: the API every front end uses. Load and compile a
//! rules file into an immutable, shared [`Game`]; create a [`State`] from
//! players, seed and options; list legal actions with labels; apply one;
//! tell whether the game is over and who won; render a player's view.
//!
//! `state.rs` is the data, `eval.rs` expressions, `exec.rs` the
//! interpreter, `view.rs` labels, views and arranging positions.

mod eval;
mod exec;
pub mod perft;
mod state;
mod view;

pub use exec::{Action, STEP_BUDGET};
pub use state::{Core, EngineError, Frame, State};
pub use view::Viewer;

use crate::check::hir::{Hir, OptionInfo};
use crate::diag::{Diagnostic, Diagnostics, Source};
use crate::graph::Graph;
use std::path::Path;
use std::sync::Arc;

/// The result of running a source through the front end.
pub struct Compiled {
    pub hir: Hir,
    pub graph: Option<Graph>,
    pub diags: Diagnostics,
}

/// Parse, check and (when there is no error) build the action graph.
pub fn compile(source: Source) -> Compiled {
    let (mut file, mut found) = crate::syntax::parse_file(&source.text);
    if source.base_len > 0 {
        crate::syntax::merge_variant(&mut file, source.base_len);
    }
    let parse_failed = found.iter().any(Diagnostic::is_error);
    let (mut hir, check_diags) = crate::check::check(&file);
    if let Some(crate::syntax::ast::Item::Variant(name, ..)) = file
        .items
        .iter()
        .find(|i| matches!(i, crate::syntax::ast::Item::Variant(..)))
    {
        hir.tables.name = format!("{} ({name})", hir.tables.name);
    }
    // After a syntax error, missing declarations are noise: keep the checker's
    // findings only about what did parse.
    if parse_failed {
        found.extend(
            check_diags
                .into_iter()
                .filter(|d| !matches!(d.code.as_str(), "E0108" | "E0109" | "E0107")),
        );
    } else {
        found.extend(check_diags);
    }
    let mut diags = Diagnostics::new(source);
    diags.items = found;
    diags.sort();
    let graph = (!diags.has_errors()).then(|| crate::graph::build(&hir));
    Compiled { hir, graph, diags }
}

struct GameData {
    graph: Graph,
    source: Source,
    warnings: Diagnostics,
    digest: u64,
}

/// A compiled game: immutable and cheap to clone (shared).
#[derive(Clone)]
pub struct Game {
    data: Arc<GameData>,
}

impl Game {
    /// Read and compile a rules file.
    pub fn load(path: impl AsRef<Path>) -> Result<Game, Diagnostics> {
        let source = read_rules(path.as_ref())?;
        Game::from_compiled(source)
    }

    fn from_compiled(source: Source) -> Result<Game, Diagnostics> {
        let c = compile(source.clone());
        match c.graph {
            Some(graph) => Ok(Game {
                data: Arc::new(GameData {
                    graph,
                    digest: digest(&source.text),
                    source,
                    warnings: c.diags,
                }),
            }),
            None => Err(c.diags),
        }
    }

    /// Compile rules from a string; `name` is used in diagnostics. (A
    /// variant's base is found relative to the current directory.)
    pub fn from_source(name: &str, text: &str) -> Result<Game, Diagnostics> {
        let source = match variant_base(text) {
            Some(_) => with_base(Path::new(name), text.to_string(), 0)?,
            None => Source::new(name, text),
        };
        Game::from_compiled(source)
    }

    pub fn graph(&self) -> &Graph {
        &self.data.graph
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
    pub fn set_option(&self, opts: &mut [i32], name: &str, value: &str) -> Result<(), String> {
        let Some(i) = self.option_index(name) else {
            let names: Vec<&str> = self.options().iter().map(|o| o.name.as_str()).collect();
            return Err(
                match crate::diag::did_you_mean(name, names.iter().copied()) {
                    Some(s) => format!("unknown option `{name}`: did you mean `{s}`?"),
                    None if names.is_empty() => {
                        format!("unknown option `{name}`: this game has no options")
                    }
                    None => format!(
                        "unknown option `{name}`: the options are {}",
                        names.join(", ")
                    ),
                },
            );
        };
        let o = &self.options()[i];
        // A number too large for 32 bits is still a number: say the range.
        let wide: i128 = value
            .parse()
            .map_err(|_| format!("option `{name}` takes a whole number, not `{value}`"))?;
        let v = i32::try_from(wide).unwrap_or(if wide < 0 { i32::MIN } else { i32::MAX });
        if wide < o.min as i128 || wide > o.max as i128 {
            return Err(format!(
                "option `{name}` must be in {}..{}, not {wide}",
                o.min, o.max
            ));
        }
        opts[i] = v;
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

/// Read a rules file. A variant (`variant "NAME" extends "BASE"`) is read
/// after its base (found relative to the variant), so that its declarations
/// replace the base's; diagnostics then show the combined text.
pub fn read_rules(path: &Path) -> Result<Source, Diagnostics> {
    let name = path.display().to_string();
    match read_text(path) {
        Ok(text) => with_base(path, text, 0),
        Err(Err(d)) => Err(d),
        Err(Ok(e)) => {
            let mut d = Diagnostics::new(Source::new(name.clone(), ""));
            d.push(
                Diagnostic::error("E0000", format!("cannot read `{name}`: {e}"))
                    .help("check the path; rules files live in rules/ and examples/"),
            );
            Err(d)
        }
    }
}

/// How many variants may extend each other (a variant of a variant ...).
pub const MAX_VARIANT_DEPTH: usize = 8;

/// Read a rules file as text: invalid UTF-8 is reported with its line and
/// byte offset, and a leading byte-order mark is dropped.
fn read_text(path: &Path) -> Result<String, Result<std::io::Error, Diagnostics>> {
    let bytes = std::fs::read(path).map_err(Ok)?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(match text.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_string(),
            None => text,
        }),
        Err(e) => {
            let bytes = e.as_bytes();
            let at = e.utf8_error().valid_up_to();
            let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
            let col = at
                - bytes[..at]
                    .iter()
                    .rposition(|b| *b == b'\n')
                    .map_or(0, |i| i + 1)
                + 1;
            let name = path.display().to_string();
            let mut d = Diagnostics::new(Source::new(name.clone(), ""));
            d.push(
                Diagnostic::error(
                    "E0000",
                    format!(
                        "`{name}` is not UTF-8 text: byte {at} (line {line}, column {col}) is 0x{:02x}",
                        bytes[at]
                    ),
                )
                .help("rules files are UTF-8 text; save the file as UTF-8 in your editor"),
            );
            Err(Err(d))
        }
    }
}

fn with_base(path: &Path, text: String, depth: usize) -> Result<Source, Diagnostics> {
    let name = path.display().to_string();
    let Some(base) = variant_base(&text) else {
        return Ok(Source::new(name, text));
    };
    let base_path = path.parent().unwrap_or(Path::new(".")).join(&base);
    let fail = |msg: String| {
        let mut d = Diagnostics::new(Source::new(name.clone(), text.clone()));
        let at = text.find("variant").unwrap_or(0);
        d.push(
            Diagnostic::error("E0116", msg)
                .label(crate::diag::Span::new(at, at + 7), "this variant")
                .help("a variant names its base file relative to itself: `variant \"Level 2\" extends \"../game.rules\"`"),
        );
        d
    };
    if depth >= MAX_VARIANT_DEPTH {
        let circle = variant_circle(path);
        return Err(fail(if circle {
            "variants extend each other in a circle".into()
        } else {
            format!(
                "variants extend each other more than {MAX_VARIANT_DEPTH} deep (a variant of a variant ...)"
            )
        }));
    }
    let base_text = read_text(&base_path).map_err(|e| match e {
        Ok(e) => fail(format!(
            "cannot read the base `{}`: {e}",
            base_path.display()
        )),
        Err(d) => d,
    })?;
    let base_source = with_base(&base_path, base_text, depth + 1)?;
    let combined = format!("{}\n{}", base_source.text, text);
    let mut source = Source::new(
        format!("{name} (after its base {})", base_path.display()),
        combined,
    );
    source.base_len = base_source.text.len() as u32 + 1;
    Ok(source)
}

/// Whether following the bases from `path` comes back to a file already seen.
fn variant_circle(path: &Path) -> bool {
    let mut seen = Vec::new();
    let mut at = path.to_path_buf();
    for _ in 0..=2 * MAX_VARIANT_DEPTH {
        let key = std::fs::canonicalize(&at).unwrap_or(at.clone());
        if seen.contains(&key) {
            return true;
        }
        seen.push(key);
        let Some(base) = std::fs::read_to_string(&at)
            .ok()
            .and_then(|t| variant_base(&t))
        else {
            return false;
        };
        at = at.parent().unwrap_or(Path::new(".")).join(base);
    }
    false
}

/// The base named by a `variant "NAME" extends "BASE"` line, if any.
fn variant_base(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim_start)
        .find(|l| l.starts_with("variant ") && l.contains(" extends "))
        .and_then(|l| l.rsplit('"').nth(1).map(str::to_string))
}

fn digest(text: &str) -> u64 {
    // FNV-1a: stable across runs and platforms, unlike std's hasher.
    let mut h: u64 = 0xcbf29ce484222325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
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
        self.take_with(game.graph(), action, visit)
            .map_err(|(m, at)| self.fault(game, m, at))
    }

    fn fault(&self, game: &Game, message: &str, (phase, node): (u16, u32)) -> EngineError {
        if message == "runaway" {
            return EngineError::Runaway { steps: STEP_BUDGET };
        }
        EngineError::Fault {
            message: message.to_string(),
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
    pub fn legal_actions_into(&self, game: &Game, out: &mut Vec<Action>) {
        out.clear();
        if self.over || self.waiting.is_none() {
            return;
        }
        let _ = self.for_each_action(game.graph(), true, |a| {
            out.push(a);
            true
        });
    }

    /// Apply a legal action and run to the next decision. On error the
    /// state may be half-changed: callers that must keep the game apply to
    /// a clone (the REPL does).
    pub fn apply(&mut self, game: &Game, action: Action) -> Result<(), EngineError> {
        let mut legal = false;
        if !self.over && self.waiting.is_some() {
            let _ = self.for_each_action(game.graph(), true, |a| {
                legal = a == action;
                !legal
            });
        }
        if !legal {
            return Err(EngineError::Illegal("that move is not legal now".into()));
        }
        self.apply_unchecked(game, action)
    }

    /// Apply an action known to be legal (taken from `legal_actions`).
    pub fn apply_unchecked(&mut self, game: &Game, action: Action) -> Result<(), EngineError> {
        let r = self
            .take_with(game.graph(), action, &mut |_, _| {})
            .map_err(|(m, at)| self.fault(game, m, at));
        #[cfg(debug_assertions)]
        if r.is_ok() {
            self.check_conservation(game).expect("cards are conserved");
        }
        r
    }

    /// Who won, once the game is over: every player with the best score
    /// under the `winners` rule (ties share).
    pub fn winners(&self, game: &Game) -> Vec<usize> {
        if !self.over {
            return Vec::new();
        }
        let scores = self.scores(game);
        let t = &game.graph().tables;
        let best = if t.winners_highest {
            scores.iter().max()
        } else {
            scores.iter().min()
        };
        let Some(best) = best.copied() else {
            return Vec::new();
        };
        (0..scores.len()).filter(|p| scores[*p] == best).collect()
    }

    /// The `winners` key for each player.
    pub fn scores(&self, game: &Game) -> Vec<i32> {
        let g = game.graph();
        let Some(key) = &g.tables.winners_key else {
            return Vec::new();
        };
        (0..self.core.n as i32)
            .map(|p| {
                let mut locals = [0i32; 16];
                locals[0] = p;
                eval::Ev {
                    g,
                    c: &self.core,
                    locals: &mut locals,
                    rng: None,
                }
                .eval(key)
                .unwrap_or(0)
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
        for (z, cards) in self.core.zones.iter().enumerate() {
            for c in cards {
                let c = *c as usize;
                if c >= n || seen[c] {
                    return Err(EngineError::Conservation(format!("card {c} appears twice")));
                }
                seen[c] = true;
                if self.core.card_zone[c] as usize != z {
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
}
