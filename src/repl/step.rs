//! Commands that move through the game: `play` (by number or label prefix),
//! `undo` and `redo`, `auto` (K moves, a turn, a round, to the end), `bot`
//! (agents on seats), `trace`, and the position set-ups `arrange` and `put`.

use super::args::{AUTO_END_LIMIT, Flow, count_arg, looks_numeric, parse_seat};
use super::session::{Bot, Done, Session, bot_seed};
use crate::Action;
use crate::agent::AgentKind;
use crate::check::hir::ProcKind;
use std::fmt::Write as _;

/// The legal moves, or a one-line reason why there are none.
pub fn legal_or_err(s: &Session) -> Result<Vec<Action>, String> {
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
pub fn numbers(n: usize) -> String {
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

/// Lower case, runs of spaces as one: how labels and typed prefixes compare.
pub fn label_key(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
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
    let keys: Vec<String> = labels.iter().map(|l| label_key(l)).collect();
    let mut query = args.join(" ").to_lowercase();
    let mut matching: Vec<usize> = (0..n).filter(|i| keys[*i].starts_with(&query)).collect();
    // `play tile-3` for the label `play tile-3`: the word `play` was taken
    // as the command, so try the label with it
    if matching.is_empty() {
        let with = format!("play {query}");
        let again: Vec<usize> = (0..n).filter(|i| keys[*i].starts_with(&with)).collect();
        if !again.is_empty() {
            (query, matching) = (with, again);
        }
    }
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
        // moves with the very same label are the same move to the player
        // (two copies of a card): take the first
        if let [i, ..] = tier[..]
            && tier.iter().all(|j| labels[*j] == labels[i])
        {
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

pub fn cmd_play(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let action = resolve(s, args)?;
    s.play(action, out)?;
    s.run_bots(out)?;
    s.report_position(out);
    Ok(Flow::Continue)
}

/// `undo K` / `redo K`: the count, at most what there is.
fn steps_arg(cmd: &str, args: &[&str], have: usize, none: &str) -> Result<usize, String> {
    let k = match args {
        [] => 1,
        [word] => count_arg(cmd, word, "a number of moves from 1 up")?,
        _ => {
            return Err(format!(
                "{cmd} takes at most one number, got '{}'",
                args.join(" ")
            ));
        }
    };
    if have == 0 {
        return Err(none.to_string());
    }
    if k > have {
        let see = if cmd == "undo" {
            "see `log`"
        } else {
            "undone so far"
        };
        return Err(format!("cannot {cmd} {k}: only {have} to {cmd} ({see})"));
    }
    Ok(k)
}

pub fn cmd_undo(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let none = "nothing to undo: no move has been made";
    let k = steps_arg("undo", args, s.history.len(), none)?;
    let (mut moves, mut arranged) = (0, 0);
    for _ in 0..k {
        if let Some(done) = s.undo_one()? {
            match done {
                Done::Move { .. } => moves += 1,
                Done::Arrange(_) => arranged += 1,
            }
            let _ = writeln!(out, "undone: {done}");
        }
    }
    let plural = |n: usize, one: &str, many: &str| match n {
        1 => format!("1 {one}"),
        _ => format!("{n} {many}"),
    };
    let _ = writeln!(
        out,
        "took back {} and {}",
        plural(moves, "move", "moves"),
        plural(arranged, "arrangement", "arrangements")
    );
    s.report_position(out);
    Ok(Flow::Continue)
}

pub fn cmd_redo(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let none = "nothing to redo: `redo` follows `undo`, before any new move";
    let k = steps_arg("redo", args, s.redo.len(), none)?;
    for _ in 0..k {
        if let Some(done) = s.redo_one()? {
            let _ = writeln!(out, "redone: {done}");
        }
    }
    s.report_position(out);
    Ok(Flow::Continue)
}

/// Where `auto` stops.
enum Until {
    Moves(usize),
    Turn(u32),
    /// This phase (the round) returns.
    Round(u16),
    End,
}

/// The round: the phase that runs the turns (the caller of the innermost
/// `turn`, or of the phase choosing now), unless that is `start` itself
/// (see `help auto`).
fn round_phase(s: &Session) -> Option<u16> {
    let frames = s.state.frames();
    let phases = &s.game.graph().phases;
    let turn = frames
        .iter()
        .rposition(|f| phases[f.phase as usize].kind == ProcKind::Turn)
        .unwrap_or(frames.len().saturating_sub(1));
    let round = turn.checked_sub(1)?;
    round.checked_sub(1)?;
    Some(frames.get(round)?.phase)
}

pub fn cmd_auto(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let until = match args {
        [] => Until::Moves(1),
        [w] if w.eq_ignore_ascii_case("end") => Until::End,
        [w] if w.eq_ignore_ascii_case("turn") => Until::Turn(s.state.turns()),
        [w] if w.eq_ignore_ascii_case("round") => match round_phase(s) {
            Some(p) => Until::Round(p),
            None => Until::End,
        },
        [word] => {
            let what = "a number of moves from 1 up, or turn, round or end";
            // a number past the limit, even one past 64 bits, names the limit
            let positive =
                word.bytes().all(|b| b.is_ascii_digit()) && word.bytes().any(|b| b != b'0');
            match count_arg("auto", word, what) {
                Ok(k) if k <= AUTO_END_LIMIT => Until::Moves(k),
                Err(e) if !positive => return Err(e),
                _ => {
                    return Err(format!(
                        "auto plays at most {AUTO_END_LIMIT} moves at once, not '{word}' (`auto end` plays to the end)"
                    ));
                }
            }
        }
        _ => {
            return Err(format!(
                "auto takes one number, or turn, round or end, got '{}'",
                args.join(" ")
            ));
        }
    };
    legal_or_err(s)?;
    let limit = match until {
        Until::Moves(k) => k,
        _ => AUTO_END_LIMIT,
    };
    let mut made = 0;
    while made < limit {
        let legal = s.legal();
        if s.state.is_over() || legal.is_empty() {
            break;
        }
        let action = s.agent_move(&legal);
        // checked after the choice: a search cut short by Ctrl-C is not played
        if crate::interrupt::interrupted() {
            let _ = writeln!(
                out,
                "interrupted after {made} move(s): the game is kept as it stands (`undo` takes moves back)"
            );
            break;
        }
        let round = match until {
            Until::Round(p) => Some(p),
            _ => None,
        };
        let end = s.play_with(action, out, round)?;
        made += 1;
        let done = match until {
            Until::Turn(t) => s.state.turns() != t,
            Until::Round(_) => end.is_some() || s.state.is_over(),
            _ => false,
        };
        if done {
            if let Some(end) = end.filter(|_| !s.state.is_over()) {
                // the next round has been dealt already: show where this one ended
                s.round_end = Some(end);
                let _ = writeln!(
                    out,
                    "end of the round: `state`, `view` and `expect` show it, before the next deal; the next command goes on"
                );
                return Ok(Flow::Continue);
            }
            break;
        }
    }
    if made == AUTO_END_LIMIT && !matches!(until, Until::Moves(_)) && !s.state.is_over() {
        let _ = writeln!(out, "stopped after {made} moves: the game has not ended");
    }
    s.run_bots(out)?;
    s.report_position(out);
    Ok(Flow::Continue)
}

pub fn cmd_bot(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let (who, kind) = match args {
        [] => {
            for (p, b) in s.bots.iter().enumerate() {
                let what = b.as_ref().map_or("you".to_string(), |b| b.kind.name());
                let _ = writeln!(out, "P{p}: {what}");
            }
            return Ok(Flow::Continue);
        }
        [who, kind] => (*who, kind.to_ascii_lowercase()),
        _ => {
            return Err(format!(
                "bot takes a seat (or all) and an agent (random, greedy, ismcts:300, ...) or off, got '{}'",
                args.join(" ")
            ));
        }
    };
    let seats: Vec<usize> = if who.eq_ignore_ascii_case("all") {
        (0..s.players).collect()
    } else {
        vec![parse_seat(s.state.players(), who)?]
    };
    let kind: Option<AgentKind> = match kind.as_str() {
        "off" | "none" | "human" => None,
        k => Some(
            k.parse()
                .map_err(|e| format!("{e}; or off to take the seat back"))?,
        ),
    };
    for p in &seats {
        s.bots[*p] = kind.map(|k| Bot {
            kind: k,
            agent: k.build(bot_seed(s.seed, *p)),
        });
    }
    let names: Vec<String> = seats.iter().map(|p| format!("P{p}")).collect();
    let names = super::session::join_and(&names);
    match kind {
        Some(k) => {
            let _ = writeln!(out, "{names}: {k} bot");
        }
        None => {
            let _ = writeln!(out, "{names}: played by you");
        }
    }
    if s.bot_to_move().is_some() && !s.legal().is_empty() {
        s.run_bots(out)?;
        s.report_position(out);
    }
    Ok(Flow::Continue)
}

pub fn cmd_trace(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    match args {
        [] => {}
        [w] if w.eq_ignore_ascii_case("on") => s.trace = true,
        [w] if w.eq_ignore_ascii_case("off") => s.trace = false,
        _ => {
            return Err(format!("trace takes on or off, not '{}'", args.join(" ")));
        }
    }
    let _ = writeln!(out, "trace is {}", if s.trace { "on" } else { "off" });
    Ok(Flow::Continue)
}

pub fn cmd_arrange(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
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
    let held: Vec<String> = next
        .find_zone(&s.game, zone)
        .map(|inst| {
            next.table()
                .zone(inst)
                .iter()
                .map(|c| s.game.card_name(*c as usize).to_string())
                .collect()
        })
        .unwrap_or_default();
    let before = std::mem::replace(&mut s.state, next);
    match cards {
        [] if held.is_empty() => {
            let _ = writeln!(out, "{name} is now empty");
        }
        // a deck's home zone keeps beneath the named cards those it held
        _ if held.len() > cards.len() => {
            let under = held.len() - cards.len();
            let what = match cards {
                [] => "nothing named".to_string(),
                _ => format!("{} (bottom first)", cards.join(" ")),
            };
            let _ = writeln!(
                out,
                "{name} now holds {what} on top of the {under} cards it held that were not named (a deck's home zone keeps them)"
            );
        }
        _ => {
            let _ = writeln!(out, "{name} now holds {} (bottom first)", cards.join(" "));
        }
    }
    arrange_warnings(s, out);
    let mut text = format!("arrange {name}");
    for c in cards {
        text.push(' ');
        text.push_str(c);
    }
    s.record(before, Done::Arrange(text));
    Ok(Flow::Continue)
}

/// After a set-up: say when it broke a declared invariant, or left the
/// player to choose without any option.
fn arrange_warnings(s: &Session, out: &mut String) {
    if let Some(text) = s.state.broken_invariant(&s.game) {
        let _ = writeln!(out, "warning: this breaks the invariant \"{text}\"");
    }
    if let crate::Status::Stuck = s.state.status(&s.game) {
        let who = s
            .state
            .chooser()
            .map_or("nobody".to_string(), |p| format!("P{p}"));
        let _ = writeln!(
            out,
            "warning: {who} must choose but has no option now (`undo` takes this back)"
        );
    }
}

pub fn cmd_put(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let [name, value] = args else {
        return Err("put needs a variable and a value, e.g. `put P1.score 10`".into());
    };
    let mut next = s.state.clone();
    next.set_var(&s.game, name, value)?;
    let before = std::mem::replace(&mut s.state, next);
    let _ = writeln!(out, "{name} is now {value}");
    arrange_warnings(s, out);
    s.record(before, Done::Arrange(format!("put {name} {value}")));
    Ok(Flow::Continue)
}
