//! The command table (name, aliases, arguments, one-line help, details) and
//! one handler per command. Handlers write to a string and return a one-line
//! error message on bad input; the session prints it as `error: ...`. The
//! table is public so a line editor can complete command names from it.

use super::session::{Done, Session};
use crate::{Action, Viewer};
use rand::Rng;
use std::fmt::Write as _;

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A handler: the session, the words after the command name, the output.
pub type Handler = fn(&mut Session, &[&str], &mut String) -> Result<Flow, String>;

/// One REPL command.
pub struct Command {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    /// Argument synopsis, e.g. `[K]`.
    pub args: &'static str,
    /// One line for `help`.
    pub help: &'static str,
    /// More lines for `help NAME`.
    pub details: &'static str,
    pub run: Handler,
}

/// `auto end` stops after this many moves if the game has not ended.
pub const AUTO_END_LIMIT: usize = 100_000;

pub static COMMANDS: &[Command] = &[
    Command {
        name: "state",
        aliases: &[],
        args: "",
        help: "show everything on the table (hidden cards too) and who is to move",
        details: "The designer's view: every zone with its cards, the variables, the turn and who must choose.",
        run: cmd_state,
    },
    Command {
        name: "moves",
        aliases: &[],
        args: "",
        help: "list the legal moves, numbered from 1",
        details: "Labels are shown as the player who chooses sees them (cards it does not know are ##).",
        run: cmd_moves,
    },
    Command {
        name: "play",
        aliases: &[],
        args: "N | LABEL-PREFIX",
        help: "make a move, by number or by the start of its label",
        details: "`play 2` makes move 2 of `moves`; a bare `2` does the same.\n\
                  `play take` makes the one move whose label starts with `take` (case does not matter).\n\
                  The moves that follow are listed afterwards.",
        run: cmd_play,
    },
    Command {
        name: "undo",
        aliases: &[],
        args: "[K]",
        help: "take back the last K moves or arrangements (default 1)",
        details: "Every move (including those made by `auto`) and every `arrange` can be taken back.",
        run: cmd_undo,
    },
    Command {
        name: "auto",
        aliases: &[],
        args: "[N | end]",
        help: "play N random moves (default 1), or until the game ends",
        details: "Moves are drawn from a generator seeded from the game seed, so a script always plays the same.\n\
                  Stops early when the game ends or is stuck. `auto end` stops after 100000 moves at most.",
        run: cmd_auto,
    },
    Command {
        name: "view",
        aliases: &[],
        args: "[SEAT | all]",
        help: "show the table as one player knows it (`view 2`, `view P2`) or everything (`view all`)",
        details: "Cards the player does not know are shown as ##. Without an argument: the view of who is to move.",
        run: cmd_view,
    },
    Command {
        name: "arrange",
        aliases: &[],
        args: "ZONE CARD...",
        help: "put the named cards in a zone, bottom first (to set up a position)",
        details: "Zones are named as in `state`: `draw`, `discard`, `P1.slots`. Cards by name: `red-7`.\n\
                  The cards named are taken from wherever they are; the cards they replace take their places.\n\
                  Nobody knows the arranged cards unless the zone shows them. `undo` takes an arrangement back.\n\
                  Example: arrange P1.slots red-7 black-13 red-0 black-2",
        run: cmd_arrange,
    },
    Command {
        name: "put",
        aliases: &[],
        args: "VARIABLE VALUE",
        help: "set a variable to set up a position (`put P1.tavern cat`, `put closer none`)",
        details: "Variables are named as in `state`: global ones by name, a player's as `P1.score`.\n\
                  Values: numbers, yes/no, seats (P2) or none, enum values, card names. `undo` takes it back.",
        run: cmd_put,
    },
    Command {
        name: "log",
        aliases: &[],
        args: "",
        help: "list the moves and arrangements so far",
        details: "Undone moves are no longer listed.",
        run: cmd_log,
    },
    Command {
        name: "options",
        aliases: &[],
        args: "",
        help: "list the game's options: value, default, range and what they do",
        details: "Set options when starting: grail play FILE --set NAME=VALUE.",
        run: cmd_options,
    },
    Command {
        name: "help",
        aliases: &["?"],
        args: "[COMMAND]",
        help: "list the commands, or explain one",
        details: "",
        run: cmd_help,
    },
    Command {
        name: "quit",
        aliases: &["exit"],
        args: "",
        help: "leave the REPL (Ctrl-D too); in a script, stop there",
        details: "",
        run: cmd_quit,
    },
];

/// Find a command by name or alias (case does not matter).
pub fn find(name: &str) -> Option<&'static Command> {
    let name = name.to_ascii_lowercase();
    COMMANDS
        .iter()
        .find(|c| c.name == name || c.aliases.contains(&name.as_str()))
}

fn command_names() -> String {
    COMMANDS
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Run the command in `words` (non-empty). A bare number is `play N`.
pub fn dispatch(s: &mut Session, words: &[&str], out: &mut String) -> Result<Flow, String> {
    let Some(first) = words.first() else {
        return Ok(Flow::Continue);
    };
    if looks_numeric(first) {
        return cmd_play(s, words, out);
    }
    match find(first) {
        Some(c) => (c.run)(s, &words[1..], out),
        None => Err(format!(
            "unknown command '{first}'; commands: {}",
            command_names()
        )),
    }
}

/// `12`, `-3`, `+4`: meant as a number even when out of range.
fn looks_numeric(word: &str) -> bool {
    let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn no_args(name: &str, args: &[&str]) -> Result<(), String> {
    match args.first() {
        None => Ok(()),
        Some(_) => Err(format!(
            "{name} takes no arguments, got '{}'",
            args.join(" ")
        )),
    }
}

fn cmd_state(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    no_args("state", args)?;
    // the view says who is to choose, or that the game is over or stuck
    out.push_str(&s.view(Viewer::All));
    Ok(Flow::Continue)
}

fn cmd_moves(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    no_args("moves", args)?;
    if s.state.is_over() {
        out.push_str("no moves: ");
    }
    s.report_position(out);
    Ok(Flow::Continue)
}

/// The legal moves, or a one-line reason why there are none.
fn legal_or_err(s: &Session) -> Result<Vec<Action>, String> {
    if s.state.is_over() {
        return Err("the game is over; `undo` takes moves back".into());
    }
    let legal = s.legal();
    if legal.is_empty() {
        return Err(s.stuck_line());
    }
    Ok(legal)
}

/// How the moves are numbered, for error lines.
fn numbers(n: usize) -> String {
    match n {
        1 => "the only move is 1 (type `moves`)".to_string(),
        _ => format!("moves are numbered 1..{n} (type `moves`)"),
    }
}

fn numbered(labels: &[String], picks: impl Iterator<Item = usize>) -> String {
    picks
        .map(|i| format!("{}. {}", i + 1, labels[i]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Resolve `N` or a label prefix to one legal move.
fn resolve(s: &Session, args: &[&str]) -> Result<Action, String> {
    let legal = legal_or_err(s)?;
    let n = legal.len();
    match args {
        [] => {
            return Err(format!(
                "play needs a move: {}, or the start of a label",
                numbers(n)
            ));
        }
        [word] if looks_numeric(word) => {
            return match word.parse::<usize>() {
                Ok(k) if (1..=n).contains(&k) => Ok(legal[k - 1]),
                _ => Err(format!("no move {word}; {}", numbers(n))),
            };
        }
        _ => {}
    }
    let labels = s.labels(&legal);
    let query = args.join(" ").to_lowercase();
    // compare in lower case, with runs of spaces as one (the words were split)
    let keys: Vec<String> = labels
        .iter()
        .map(|l| {
            l.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        })
        .collect();
    let matching: Vec<usize> = (0..n).filter(|i| keys[*i].starts_with(&query)).collect();
    // Prefer an exact label, then a prefix ending at a word's end (`slot 1`
    // means slot 1, not slot 10), then any prefix.
    let exact: Vec<usize> = matching
        .iter()
        .copied()
        .filter(|i| keys[*i] == query)
        .collect();
    let whole: Vec<usize> = matching
        .iter()
        .copied()
        .filter(|i| !keys[*i][query.len()..].starts_with(|c: char| c.is_alphanumeric()))
        .collect();
    for tier in [&exact, &whole, &matching] {
        if let [i] = tier[..] {
            return Ok(legal[i]);
        }
    }
    match matching[..] {
        [] => Err(format!(
            "no move starts with '{}'; moves: {}",
            args.join(" "),
            numbered(&labels, 0..n)
        )),
        _ => Err(format!(
            "'{}' matches {} moves: {}; type more of the label, or the number",
            args.join(" "),
            matching.len(),
            numbered(&labels, matching.iter().copied())
        )),
    }
}

fn cmd_play(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let action = resolve(s, args)?;
    s.play(action, out)?;
    s.report_position(out);
    Ok(Flow::Continue)
}

/// A whole number of things, for `undo K` and `auto N`.
fn count_arg(cmd: &str, word: &str, what: &str) -> Result<usize, String> {
    match word.parse::<usize>() {
        Ok(k) if k >= 1 => Ok(k),
        _ => Err(format!("{cmd} takes {what}, not '{word}'")),
    }
}

fn cmd_undo(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let k = match args {
        [] => 1,
        [word] => count_arg("undo", word, "a number of moves from 1 up")?,
        _ => {
            return Err(format!(
                "undo takes at most one number, got '{}'",
                args.join(" ")
            ));
        }
    };
    let have = s.history.len();
    if have == 0 {
        return Err("nothing to undo: no move has been made".into());
    }
    if k > have {
        return Err(format!("cannot undo {k}: only {have} to undo (see `log`)"));
    }
    for _ in 0..k {
        if let Some(entry) = s.history.pop() {
            let _ = writeln!(out, "undone: {}", entry.done);
            s.state = entry.before;
        }
    }
    s.report_position(out);
    Ok(Flow::Continue)
}

fn cmd_auto(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let (limit, to_end) = match args {
        [] => (1, false),
        [w] if w.eq_ignore_ascii_case("end") => (AUTO_END_LIMIT, true),
        [word] => (
            count_arg("auto", word, "a number of moves from 1 up, or `end`")?,
            false,
        ),
        _ => {
            return Err(format!(
                "auto takes one number or `end`, got '{}'",
                args.join(" ")
            ));
        }
    };
    legal_or_err(s)?;
    let mut made = 0;
    while made < limit {
        let legal = s.legal();
        if s.state.is_over() || legal.is_empty() {
            break;
        }
        let action = legal[s.rng.random_range(0..legal.len())];
        s.play(action, out)?;
        made += 1;
    }
    if to_end && made == limit && !s.state.is_over() {
        let _ = writeln!(out, "stopped after {limit} moves: the game has not ended");
    }
    s.report_position(out);
    Ok(Flow::Continue)
}

/// `2`, `P2`, `p2` -> seat 2, checked against the number of players.
fn parse_seat(s: &Session, word: &str) -> Result<usize, String> {
    let n = s.state.players();
    let digits = word.strip_prefix(['P', 'p']).unwrap_or(word);
    match digits.parse::<usize>() {
        Ok(p) if p < n => Ok(p),
        _ => Err(format!(
            "no seat '{word}'; seats are 0..{} (or P0..P{}), or all",
            n - 1,
            n - 1
        )),
    }
}

fn cmd_view(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let viewer = match args {
        [] => s.state.chooser().map(Viewer::Seat).unwrap_or(Viewer::All),
        [w] if w.eq_ignore_ascii_case("all") => Viewer::All,
        [word] => Viewer::Seat(parse_seat(s, word)?),
        _ => {
            return Err(format!(
                "view takes one seat or `all`, got '{}'",
                args.join(" ")
            ));
        }
    };
    out.push_str(&s.view(viewer));
    Ok(Flow::Continue)
}

fn cmd_arrange(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let Some((zone, cards)) = args.split_first() else {
        return Err(
            "arrange needs a zone and cards, e.g. `arrange P1.slots red-7 black-13`".into(),
        );
    };
    let mut next = s.state.clone();
    next.arrange(&s.game, zone, cards)?;
    let name = next
        .find_zone(&s.game, zone)
        .map(|inst| next.zone_name(&s.game, inst))
        .unwrap_or_else(|_| zone.to_string());
    let before = std::mem::replace(&mut s.state, next);
    match cards {
        [] => {
            let _ = writeln!(out, "{name} is now empty");
        }
        _ => {
            let _ = writeln!(out, "{name} now holds {} (bottom first)", cards.join(" "));
        }
    }
    let mut text = format!("arrange {name}");
    for c in cards {
        text.push(' ');
        text.push_str(c);
    }
    s.record(before, Done::Arrange(text));
    Ok(Flow::Continue)
}

fn cmd_put(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let [name, value] = args else {
        return Err("put needs a variable and a value, e.g. `put P1.score 10`".into());
    };
    let mut next = s.state.clone();
    next.set_var(&s.game, name, value)?;
    let before = std::mem::replace(&mut s.state, next);
    let _ = writeln!(out, "{name} is now {value}");
    s.record(before, Done::Arrange(format!("put {name} {value}")));
    Ok(Flow::Continue)
}

fn cmd_log(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    no_args("log", args)?;
    if s.history.is_empty() {
        out.push_str("no moves yet\n");
    }
    let width = s.history.len().to_string().len();
    for (i, e) in s.history.iter().enumerate() {
        let _ = writeln!(out, "{:>width$}. {}", i + 1, e.done);
    }
    Ok(Flow::Continue)
}

fn cmd_options(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    no_args("options", args)?;
    let opts = s.game.options();
    if opts.is_empty() {
        out.push_str("this game has no options\n");
        return Ok(Flow::Continue);
    }
    let values = &s.state.core.opts;
    let ranges: Vec<String> = opts
        .iter()
        .map(|o| format!("{}..{}", o.min, o.max))
        .collect();
    let wn = opts.iter().map(|o| o.name.len()).max().unwrap_or(0).max(4);
    let wr = ranges.iter().map(|r| r.len()).max().unwrap_or(0).max(5);
    let _ = writeln!(
        out,
        "{:<wn$}  {:>5}  {:>7}  {:<wr$}  doc",
        "name", "value", "default", "range"
    );
    for (i, o) in opts.iter().enumerate() {
        let v = values.get(i).copied().unwrap_or(o.default);
        let line = format!(
            "{:<wn$}  {v:>5}  {:>7}  {:<wr$}  {}",
            o.name, o.default, ranges[i], o.doc
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    Ok(Flow::Continue)
}

fn usage(c: &Command) -> String {
    match c.args {
        "" => c.name.to_string(),
        a => format!("{} {a}", c.name),
    }
}

fn cmd_help(_s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    match args {
        [] => {
            out.push_str("commands:\n");
            let width = COMMANDS.iter().map(|c| usage(c).len()).max().unwrap_or(0);
            for c in COMMANDS {
                let _ = writeln!(out, "  {:<width$}  {}", usage(c), c.help);
            }
            out.push_str("A bare number N plays move N. Lines starting with # are comments. `help CMD` says more.\n");
        }
        [name] => {
            let Some(c) = find(name) else {
                return Err(format!(
                    "no command '{name}'; commands: {}",
                    command_names()
                ));
            };
            let _ = writeln!(out, "usage: {}", usage(c));
            let _ = writeln!(out, "{}", c.help);
            for line in c.details.lines().filter(|l| !l.trim().is_empty()) {
                let _ = writeln!(out, "{}", line.trim());
            }
            if !c.aliases.is_empty() {
                let _ = writeln!(out, "also: {}", c.aliases.join(", "));
            }
        }
        _ => {
            return Err(format!(
                "help takes at most one command name, got '{}'",
                args.join(" ")
            ));
        }
    }
    Ok(Flow::Continue)
}

fn cmd_quit(_s: &mut Session, args: &[&str], _out: &mut String) -> Result<Flow, String> {
    no_args("quit", args)?;
    Ok(Flow::Quit)
}
