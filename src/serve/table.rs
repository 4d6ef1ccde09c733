//! One table of `grail serve`: a REPL [`Session`] (the game, its undo
//! history, options, save format) behind a lock, the secret token of each
//! seat and of the designer, the agents seated by the designer, and a
//! version number that every change bumps and every page watches.
//!
//! Everything a seat receives is built here from `State::view` for that
//! seat, the labels of its own moves, and public facts (whose turn, the
//! result); the designer's answers come from the REPL's commands. Nothing
//! here reads the engine's insides.

use super::token;
use crate::agent::{Agent, AgentKind};
use crate::repl::Session;
use crate::repl::session::Done;
use crate::{Status, Viewer};
use serde_json::{Value, json};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use tokio::sync::watch;

/// Commands a designer may not run from the browser: they read or write
/// files on the server, or end the process.
const NOT_IN_BROWSER: &[&str] = &["save", "load", "variant", "reload", "quit", "exit"];
/// Commands that change nothing, so pages need not look again.
const READ_ONLY: &[&str] = &[
    "state", "view", "moves", "explain", "log", "options", "help", "hint", "expect",
];
/// Commands after which bots wait for the designer (as in the REPL).
const PAUSE_BOTS: &[&str] = &["undo", "redo", "arrange", "put"];
/// The longest command line accepted from the designer page.
pub const MAX_COMMAND: usize = 2000;
/// The most log lines sent to a page (the latest ones).
const LOG_LINES: usize = 500;

/// A refused request: an HTTP status and a sentence for the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub status: u16,
    pub message: String,
}

fn refuse(status: u16, message: impl Into<String>) -> Refused {
    Refused {
        status,
        message: message.into(),
    }
}

/// What one bot step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BotStep {
    Moved,
    /// The table changed while the agent thought: look again.
    Raced,
    /// No bot to move, or its move failed.
    Stop,
}

/// An agent the designer seated (`bot P1 mcts:200`).
pub struct SeatBot {
    pub kind: AgentKind,
    /// Taken out while the agent thinks, outside the lock.
    agent: Option<Box<dyn Agent + Send>>,
}

/// The mutable part of a table, behind its lock.
pub struct Inner {
    pub session: Session,
    /// One token per seat; grows when a restart adds players.
    pub seat_tokens: Vec<String>,
    pub bots: Vec<Option<SeatBot>>,
    /// Bots wait after `undo`, `redo`, `arrange`, `put` until resumed.
    pub paused: bool,
    pub version: u64,
}

/// One game in progress with its links.
pub struct Table {
    pub id: String,
    pub designer_token: String,
    pub inner: Mutex<Inner>,
    /// The latest version, for the pages' event streams.
    pub changed: watch::Sender<u64>,
    /// A bot driver is running for this table.
    pub driving: AtomicBool,
}

impl Table {
    pub fn new(id: String, session: Session) -> Table {
        let players = session.players;
        Table {
            id,
            designer_token: token::fresh(),
            inner: Mutex::new(Inner {
                session,
                seat_tokens: (0..players).map(|_| token::fresh()).collect(),
                bots: (0..players).map(|_| None).collect(),
                paused: false,
                version: 0,
            }),
            changed: watch::Sender::new(0),
            driving: AtomicBool::new(false),
        }
    }

    /// The lock; a panic elsewhere does not lose the game.
    pub fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The seat whose token this is.
    pub fn seat_of(&self, given: &str) -> Option<usize> {
        let inner = self.lock();
        let n = inner.session.players;
        inner.seat_tokens[..n]
            .iter()
            .position(|t| token::same(t, given))
    }

    pub fn is_designer(&self, given: &str) -> bool {
        token::same(&self.designer_token, given)
    }

    /// The path of each seat's page, and of the designer's.
    pub fn links(&self) -> (Vec<String>, String) {
        let inner = self.lock();
        let seats = inner.seat_tokens[..inner.session.players]
            .iter()
            .map(|t| format!("/t/{}/s/{t}", self.id))
            .collect();
        (seats, format!("/t/{}/d/{}", self.id, self.designer_token))
    }

    fn bump(&self, inner: &mut Inner) {
        inner.version += 1;
        self.changed.send_replace(inner.version);
    }

    /// What seat `seat` may know, as JSON.
    pub fn seat_json(&self, seat: usize) -> Value {
        let inner = self.lock();
        let s = &inner.session;
        let mine = matches!(s.state.status(&s.game), Status::Decide(p) if p == seat);
        let bot = inner.bots.get(seat).and_then(Option::as_ref);
        let moves: Vec<Value> = if mine && bot.is_none() {
            let legal = s.legal();
            s.labels(&legal)
                .into_iter()
                .enumerate()
                .map(|(i, l)| json!({"n": i + 1, "label": l}))
                .collect()
        } else {
            Vec::new()
        };
        let log: Vec<String> = tail(&s.history)
            .iter()
            .map(|e| match &e.done {
                Done::Move { player, label, .. } if *player == seat => format!("you: {label}"),
                Done::Move { player, .. } => format!("P{player} chose"),
                Done::Arrange(_) => "the designer set up the position".to_string(),
            })
            .collect();
        json!({
            "table": self.id,
            "game": s.game.name(),
            "seat": seat,
            "players": s.players,
            "version": inner.version,
            "view": s.view(Viewer::Seat(seat)),
            "status": status_line(s),
            "your_turn": mine,
            "bot": bot.map(|b| b.kind.to_string()),
            "moves": moves,
            "log": log,
        })
    }

    /// Everything, for the designer, as JSON.
    pub fn designer_json(&self) -> Value {
        let (seat_links, designer) = self.links();
        let mut inner = self.lock();
        let mut options = String::new();
        inner.session.exec_to_string("options", &mut options);
        let s = &inner.session;
        let legal = s.legal();
        let moves: Vec<Value> = s
            .labels(&legal)
            .into_iter()
            .enumerate()
            .map(|(i, l)| json!({"n": i + 1, "label": l}))
            .collect();
        let seats: Vec<Value> = seat_links
            .iter()
            .enumerate()
            .map(|(p, link)| {
                let bot = inner.bots.get(p).and_then(Option::as_ref);
                json!({"seat": p, "link": link, "bot": bot.map(|b| b.kind.to_string())})
            })
            .collect();
        let log: Vec<String> = tail(&s.history)
            .iter()
            .map(|e| e.done.to_string())
            .collect();
        json!({
            "table": self.id,
            "game": s.game.name(),
            "players": s.players,
            "seed": s.seed,
            "version": inner.version,
            "view": s.view(Viewer::All),
            "status": status_line(s),
            "chooser": s.state.chooser(),
            "moves": moves,
            "log": log,
            "seats": seats,
            "designer": designer,
            "paused": inner.paused,
            "options": options,
        })
    }

    /// Seat `seat` makes its move number `n` (from 1). `version`, when
    /// given, is the version the page showed: a stale page is refused.
    pub fn play_seat(&self, seat: usize, n: i64, version: Option<u64>) -> Result<String, Refused> {
        let mut inner = self.lock();
        if let Some(v) = version
            && v != inner.version
        {
            return Err(refuse(
                409,
                "the table changed since your page was drawn: look again and choose",
            ));
        }
        let s = &inner.session;
        match s.state.status(&s.game) {
            Status::Over => return Err(refuse(409, "the game is over: no more moves")),
            Status::Stuck | Status::Chance => {
                return Err(refuse(409, "nobody can move: the game is stuck"));
            }
            Status::Decide(p) if p != seat => {
                return Err(refuse(
                    409,
                    format!("it is P{p}'s turn to choose, not yours (you are P{seat})"),
                ));
            }
            Status::Decide(_) => {}
        }
        if let Some(b) = inner.bots.get(seat).and_then(Option::as_ref) {
            return Err(refuse(
                409,
                format!("P{seat} is played by a bot ({})", b.kind),
            ));
        }
        let legal = s.legal();
        let Some(action) = usize::try_from(n)
            .ok()
            .filter(|n| (1..=legal.len()).contains(n))
            .map(|n| legal[n - 1])
        else {
            return Err(refuse(
                400,
                format!("no move {n}: your moves are numbered 1..{}", legal.len()),
            ));
        };
        let mut out = String::new();
        inner
            .session
            .play(action, &mut out)
            .map_err(|e| refuse(400, e))?;
        inner.paused = false;
        self.bump(&mut inner);
        Ok(out)
    }

    /// Run one REPL command line for the designer; returns its output.
    /// `bot` seats agents that play with a delay; file commands are refused.
    pub fn designer_command(&self, line: &str) -> String {
        let line = line.trim();
        if line.len() > MAX_COMMAND {
            return format!("error: a command is at most {MAX_COMMAND} characters\n");
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = words.first().map(|w| w.to_ascii_lowercase()) else {
            return String::new();
        };
        if NOT_IN_BROWSER.contains(&first.as_str()) {
            return format!(
                "error: `{first}` is not available from the browser (it touches the server's files): \
                 use the Save button, then `load` the file in `grail play`\n"
            );
        }
        let mut inner = self.lock();
        let mut out = String::new();
        if first == "bot" {
            match seat_bots(&mut inner, &words[1..]) {
                Ok(text) => out = text,
                Err(e) => return format!("error: {e}\n"),
            }
            inner.paused = false;
        } else if first == "resume" {
            inner.paused = false;
            out.push_str("bots resume\n");
        } else {
            inner.session.exec_to_string(line, &mut out);
            let players = inner.session.players;
            while inner.seat_tokens.len() < players {
                inner.seat_tokens.push(token::fresh());
            }
            inner.bots.resize_with(players, || None);
            if PAUSE_BOTS.contains(&first.as_str()) {
                inner.paused = true;
            } else if !READ_ONLY.contains(&first.as_str()) {
                inner.paused = false;
            }
        }
        if !READ_ONLY.contains(&first.as_str()) {
            self.bump(&mut inner);
        }
        crate::repl::sanitize::clean(&out).into_owned()
    }

    /// The saved game, as `grail play`'s `save` writes it.
    pub fn saved(&self) -> String {
        let inner = self.lock();
        crate::repl::saved::SavedGame::of(&inner.session).to_ron()
    }

    /// Whether a bot should move now.
    pub fn bot_due(&self) -> bool {
        let inner = self.lock();
        let s = &inner.session;
        !inner.paused
            && matches!(s.state.status(&s.game), Status::Decide(p)
                if inner.bots.get(p).is_some_and(Option::is_some))
    }

    /// Let the bot to move choose (thinking outside the lock) and play.
    /// [`BotStep::Raced`] when the table changed while it thought.
    pub fn bot_step(&self) -> BotStep {
        let (game, state, legal, seat, mut agent, version) = {
            let mut inner = self.lock();
            let s = &inner.session;
            let Status::Decide(seat) = s.state.status(&s.game) else {
                return BotStep::Stop;
            };
            let (game, state, legal) = (s.game.clone(), s.state.clone(), s.legal());
            if inner.paused || legal.is_empty() {
                return BotStep::Stop;
            }
            let version = inner.version;
            let Some(agent) = inner
                .bots
                .get_mut(seat)
                .and_then(Option::as_mut)
                .and_then(|b| b.agent.take())
            else {
                return BotStep::Stop;
            };
            (game, state, legal, seat, agent, version)
        };
        let i = agent.choose(&game, &state, &legal).min(legal.len() - 1);
        let mut inner = self.lock();
        if let Some(b) = inner.bots.get_mut(seat).and_then(Option::as_mut)
            && b.agent.is_none()
        {
            b.agent = Some(agent);
        }
        if inner.version != version || inner.paused {
            return BotStep::Raced;
        }
        let mut out = String::new();
        if inner.session.play(legal[i], &mut out).is_err() {
            return BotStep::Stop;
        }
        self.bump(&mut inner);
        BotStep::Moved
    }
}

/// `bot SEAT AGENT|off` and `bot all AGENT|off`.
fn seat_bots(inner: &mut Inner, args: &[&str]) -> Result<String, String> {
    let players = inner.session.players;
    let [seat, agent] = args else {
        return Err(format!(
            "write `bot SEAT AGENT` or `bot SEAT off` (seats P0..P{}, agents {})",
            players - 1,
            crate::agent::AGENTS
        ));
    };
    let seats: Vec<usize> = if seat.eq_ignore_ascii_case("all") {
        (0..players).collect()
    } else {
        let n = seat.trim_start_matches(['P', 'p']).parse::<usize>().ok();
        match n.filter(|n| *n < players) {
            Some(n) => vec![n],
            None => {
                return Err(format!(
                    "no seat `{seat}`: the seats are P0..P{}",
                    players - 1
                ));
            }
        }
    };
    let kind = if agent.eq_ignore_ascii_case("off") {
        None
    } else {
        Some(agent.parse::<AgentKind>()?)
    };
    let mut out = String::new();
    for p in seats {
        inner.bots[p] = kind.map(|kind| SeatBot {
            kind,
            agent: Some(kind.build(crate::repl::session::bot_seed(inner.session.seed, p))),
        });
        match kind {
            Some(k) => out.push_str(&format!("P{p} is played by {k}\n")),
            None => out.push_str(&format!("P{p} is played by a person\n")),
        }
    }
    Ok(out)
}

fn tail<T>(items: &[T]) -> &[T] {
    &items[items.len().saturating_sub(LOG_LINES)..]
}

/// Who is to choose, or how the game ended: public to every seat.
fn status_line(s: &Session) -> String {
    match s.state.status(&s.game) {
        Status::Decide(p) => format!("P{p} to choose"),
        Status::Stuck | Status::Chance => s.stuck_line(),
        Status::Over => {
            let mut out = String::new();
            s.report_result(&mut out);
            out.trim_end().replace('\n', " - ")
        }
    }
}
