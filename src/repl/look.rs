//! Commands that look at the game without changing it: `state` (and one
//! zone as a table), `view`, `moves`, `log`, `explain` (the rule behind a
//! move, with its lines of the rules file), and the trace printer that
//! `trace on` uses after each move.

use super::args::{Flow, no_args, parse_seat};
use super::session::Session;
use crate::check::hir::{LabelPart, ProcKind};
use crate::graph::Node;
use crate::{Action, Game, Viewer};
use std::fmt::Write as _;

pub fn cmd_state(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    match args {
        // the view says who is to choose, or that the game is over or stuck
        [] => out.push_str(&s.view(Viewer::All)),
        [zone] => match s.shown().find_board(&s.game, zone) {
            Some(b) => out.push_str(&s.shown().board_grid(&s.game, b, Viewer::All, "")),
            None => zone_table(s, zone, out)?,
        },
        _ => {
            return Err(format!(
                "state takes at most one zone, got '{}'",
                args.join(" ")
            ));
        }
    }
    Ok(Flow::Continue)
}

/// One zone, every card from the bottom up, with who knows it.
fn zone_table(s: &Session, zone: &str, out: &mut String) -> Result<(), String> {
    let st = s.shown();
    let inst = st.find_zone(&s.game, zone)?;
    let t = &s.game.graph().tables;
    let info = &t.zones[st.table().inst_zone[inst] as usize];
    let cards = st.table().zone(inst);
    let shape = format!("{:?}", info.shape).to_lowercase();
    let vis = format!("{:?}", info.visibility).to_lowercase();
    let plural = if cards.len() == 1 { "" } else { "s" };
    let end = match cards.len() {
        0 => "",
        _ if info.shape == crate::syntax::ast::Shape::Pile => ", bottom first: the last is the top",
        _ => ", bottom first",
    };
    let _ = writeln!(
        out,
        "{}: {shape}, {vis}, {} card{plural}{end}",
        st.zone_name(&s.game, inst),
        cards.len()
    );
    if cards.is_empty() {
        return Ok(());
    }
    let width = cards
        .iter()
        .map(|c| s.game.card_name(*c as usize).len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(out, "  {:>3}  {:<width$}  known by", "#", "card");
    for (i, c) in cards.iter().enumerate() {
        let known = st.table().known[*c as usize];
        let who: Vec<String> = (0..st.players())
            .filter(|p| (known >> p) & 1 == 1)
            .map(|p| format!("P{p}"))
            .collect();
        let who = match who.len() {
            0 => "nobody".to_string(),
            n if n == st.players() => "everyone".to_string(),
            _ => who.join(" "),
        };
        let name = s.game.card_name(*c as usize);
        let _ = writeln!(out, "  {:>3}  {name:<width$}  {who}", i + 1);
    }
    Ok(())
}

pub fn cmd_view(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let viewer = match args {
        [] => s.state.chooser().map(Viewer::Seat).unwrap_or(Viewer::All),
        [w] if w.eq_ignore_ascii_case("all") => Viewer::All,
        [word] => Viewer::Seat(parse_seat(s.state.players(), word)?),
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

pub fn cmd_moves(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    no_args("moves", args)?;
    if s.state.is_over() {
        out.push_str("no moves: ");
    }
    s.report_position(out);
    Ok(Flow::Continue)
}

pub fn cmd_log(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
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

/// Most lines of an arm `explain` prints.
const EXPLAIN_LINES: usize = 12;

pub fn cmd_explain(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let legal = super::step::legal_or_err(s)?;
    let n = legal.len();
    let k = match args {
        [word] => match word.parse::<usize>() {
            Ok(k) if (1..=n).contains(&k) => k,
            _ => return Err(format!("no move {word}; {}", super::step::numbers(n))),
        },
        _ => {
            return Err(format!(
                "explain takes the number of a move: {}",
                super::step::numbers(n)
            ));
        }
    };
    let action = legal[k - 1];
    let label = s.state.label(&s.game, action);
    let who = s.state.chooser().unwrap_or(0);
    let Some((phase_name, line)) = s.state.origin(&s.game, action) else {
        return Err(format!("the engine cannot say where move {k} comes from"));
    };
    let (kind, lines) = rule_lines(&s.game, &s.state, action).unwrap_or(("phase", (line, line)));
    // lines of the text as loaded; a variant's are shown as lines of the
    // file they are written in (its own or its base's)
    let source = s.game.source();
    let (file, own) = match source.file_line(lines.0) {
        (Some(file), l) => (file, lines.0 - l),
        (None, _) => (source.name.as_str(), 0),
    };
    let _ = writeln!(out, "{k}. {label}");
    let range = match lines {
        (a, b) if a == b => format!("line {}", a - own),
        (a, b) => format!("lines {}-{}", a - own, b - own),
    };
    let _ = writeln!(
        out,
        "offered to P{who} by {kind} `{phase_name}`, {file} {range}:"
    );
    let choose_line = choose_line(&s.game, &s.state).filter(|c| *c < lines.0 && *c > own);
    let text: Vec<&str> = s.game.source().text.lines().collect();
    let (first, last) = lines;
    let shown_last = last.min(first + EXPLAIN_LINES - 1);
    let width = (shown_last - own).to_string().len();
    let print = |no: usize, out: &mut String| {
        let src = text.get(no - 1).copied().unwrap_or("");
        let _ = writeln!(out, "  {:>width$} | {}", no - own, src.trim_end());
    };
    if let Some(c) = choose_line {
        print(c, out);
        if c + 1 < first {
            let _ = writeln!(out, "  {:>width$} | ...", "");
        }
    }
    for no in first..=shown_last {
        print(no, out);
    }
    if shown_last < last {
        let _ = writeln!(
            out,
            "  {:>width$} | ... ({} more lines)",
            "",
            last - shown_last
        );
    }
    Ok(Flow::Continue)
}

/// The line of the pending choice (`choose p {`).
fn choose_line(game: &Game, state: &crate::State) -> Option<usize> {
    let fr = state.frames().last()?;
    let phase = &game.graph().phases[fr.phase as usize];
    let span = phase.spans.get(fr.pc as usize)?;
    Some(game.source().line_of(span.start))
}

/// The kind of the phase offering `action`, and the first and last lines of
/// the arm it takes (for `pass`, the window's first line).
fn rule_lines(
    game: &Game,
    state: &crate::State,
    action: Action,
) -> Option<(&'static str, (usize, usize))> {
    let fr = state.frames().last()?;
    let phase = &game.graph().phases[fr.phase as usize];
    let kind = match phase.kind {
        ProcKind::Start => "start",
        ProcKind::Phase => "phase",
        ProcKind::Turn => "turn",
        ProcKind::Reaction => "reaction",
    };
    let Node::Choose { arms, .. } = phase.nodes.get(fr.pc as usize)? else {
        return None;
    };
    let choose = *phase.spans.get(fr.pc as usize)?;
    let src = game.source();
    if action.arm == Action::PASS {
        let l = src.line_of(choose.start);
        return Some((kind, (l, l)));
    }
    let arm = arms.get(action.arm as usize)?;
    let t = arm.target as usize;
    let ts = *phase.spans.get(t)?;
    let is_jump = |n: usize| matches!(phase.nodes.get(n), Some(Node::Jump(_) | Node::Exit { .. }));
    // Every arm ends with a jump that carries the arm's span; an arm with an
    // empty body is that jump alone.
    let span = if is_jump(t) {
        ts
    } else {
        (t + 1..phase.nodes.len())
            .find(|n| {
                let sp = phase.spans[*n];
                is_jump(*n) && sp.start < ts.start && sp.end >= ts.end && sp.start >= choose.start
            })
            .map(|n| phase.spans[n])?
    };
    let label_line = label_line(game, &arm.label, choose, span);
    let end = src.line_of(span.end.saturating_sub(1).max(span.start));
    Some((kind, (label_line.min(end), end)))
}

/// The line where an arm's label is written: the arm's span starts there,
/// but look for the label's first words to be sure.
fn label_line(
    game: &Game,
    label: &[LabelPart],
    choose: crate::diag::Span,
    arm: crate::diag::Span,
) -> usize {
    let src = game.source();
    let start = src.line_of(arm.start);
    let words = label.iter().find_map(|p| match p {
        LabelPart::Text(t) if !t.trim().is_empty() => Some(t.trim()),
        _ => None,
    });
    let Some(words) = words else { return start };
    let first = src.line_of(choose.start);
    let text: Vec<&str> = src.text.lines().collect();
    (first..=start)
        .rev()
        .find(|l| text.get(l - 1).is_some_and(|t| t.contains(words)))
        .unwrap_or(start)
}
