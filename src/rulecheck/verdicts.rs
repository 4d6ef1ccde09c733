//! From simulation stats to findings: each kind of incident at each place
//! (over all columns) is one finding of its lint, pointing at the rule in
//! question, with how many games it hit and, for the first such game, its
//! seed and a command that opens it in the REPL at the step where it went
//! wrong. Coverage becomes `never-fired` findings (`lints/never_fired.rs`).
//!
//! A reproduction replays the game (the same agents and seeds) to collect
//! the moves, as `play N` lines (N counts from 1 in the REPL's `moves`);
//! `evidence.rs` turns them into the command that shows the game again.

pub use super::evidence::{BaseInput, Evidence, Found, INLINE_MOVES, Input, evidence};
use super::explore::{Explored, Hit};
use super::lints::never_fired::{self, Coverage, Gated};
use super::lints::{
    CARD_LOST, Context, DOES_NOT_END, INVARIANT_BROKEN, Lint, NEVER_FIRED, RULE_FAULT, SOFTLOCK,
};
use super::playout::{Table, replay};
use super::repro;
use super::stats::{At, Incident, Incidents, Kind, Stats};
use crate::diag::{Diagnostic, Span};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Every simulation finding for one file, and notes on code that only
/// the run's fixed options kept from running.
pub fn findings(input: &Input) -> (Vec<Found>, Vec<String>) {
    let (mut out, mut notes) = (Vec::new(), Vec::new());
    let mut by_place: BTreeMap<(Kind, At), Vec<(usize, &Incidents)>> = BTreeMap::new();
    for (c, s) in input.stats.iter().enumerate() {
        for (key, list) in &s.incidents {
            by_place.entry(*key).or_default().push((c, list));
        }
    }
    if let Some(x) = input.explored {
        for h in &x.hits {
            if !by_place.contains_key(&(h.kind, h.at)) {
                out.push(incident_finding(input, h.kind, h.at, &[], Some((h, x))));
            }
        }
    }
    for ((kind, at), hits) in by_place {
        out.push(incident_finding(input, kind, at, &hits, None));
    }
    out.extend(super::balance::findings(
        &input.cx.source.text,
        input.columns,
        input.stats,
    ));
    let games: u64 = input.stats.iter().map(|s| s.games).sum();
    let stopped: u64 = input.stats.iter().map(Stats::errors).sum();
    if stopped > 0 {
        notes.push(format!(
            "never-fired is not checked: {stopped} games stopped early on an error, so what ran is not known"
        ));
    } else if games > 0 {
        let (mut nodes, mut arms) = (vec![0; input.layout.nodes], vec![0; input.layout.arms]);
        for s in input.stats {
            for (a, b) in nodes.iter_mut().zip(&s.nodes) {
                *a += b;
            }
            for (a, b) in arms.iter_mut().zip(&s.arms) {
                *a += b;
            }
        }
        let cols = input.columns.len();
        let cov = Coverage {
            layout: input.layout,
            nodes: &nodes,
            arms: &arms,
            games: if cols > 1 {
                format!("{games} games ({cols} columns)")
            } else {
                format!("{games} games")
            },
            columns: input
                .columns
                .iter()
                .map(|c| (c.options.as_slice(), c.players))
                .collect(),
        };
        let (mut diags, mut gated) = (Vec::new(), Vec::new());
        never_fired::run(input.cx, &cov, &mut diags, &mut gated);
        for g in gated {
            notes.push(gated_note(input, &g));
        }
        if let Some(x) = input.explored {
            diags = super::explore_report::judge(input, x, &cov, diags, &mut notes);
        }
        super::classify::per_column(input, &diags, &mut notes);
        let diags = super::classify::against_base(input, diags, &mut notes);
        for d in diags {
            out.push((&NEVER_FIRED, d, None));
        }
    }
    (out, notes)
}

/// `line 522 never ran: its condition on `duel` fails in every column`.
fn gated_note(input: &Input, g: &Gated) -> String {
    let opts = input.game.options();
    let names: Vec<String> = g
        .options
        .iter()
        .filter_map(|&o| opts.get(o as usize).map(|i| format!("`{}`", i.name)))
        .collect();
    let first = g
        .options
        .first()
        .and_then(|&o| opts.get(o as usize))
        .map_or("OPTION", |i| i.name.as_str());
    let values: Vec<String> = input
        .columns
        .iter()
        .filter_map(|c| c.options.get(*g.options.first()? as usize))
        .map(i32::to_string)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let place = match crate::diag::Parts::of(input.cx.source) {
        Some(p) => p.where_is(g.span.start),
        None => format!("line {}", input.cx.source.line_of(g.span.start)),
    };
    if g.through {
        let set: Vec<String> = g
            .options
            .iter()
            .filter_map(|&o| {
                let name = &opts.get(o as usize)?.name;
                let vals: std::collections::BTreeSet<i32> = input
                    .columns
                    .iter()
                    .filter_map(|c| c.options.get(o as usize).copied())
                    .collect();
                let vals: Vec<String> = vals.iter().map(i32::to_string).collect();
                Some(format!("{name} = {}", vals.join(" or ")))
            })
            .collect();
        return format!(
            "{place} never ran: switched off by the options ({}) through what its conditions read (a card's attribute, a function, a phase's parameter, the cards a zone can hold); check it with --vary {first}=...",
            set.join(", ")
        );
    }
    format!(
        "{place} never ran: it needs a condition on {} that fails with {first} = {} (check it with --vary {first}=...)",
        names.join(" and "),
        values.join(" or "),
    )
}

/// What a finding about incidents of `kind` at `at` says, and where: its
/// lint, headline, span and label. One arm per kind of incident, so it
/// is kept whole (a long match, one case each).
fn headline(input: &Input, kind: Kind, at: At) -> (&'static Lint, String, Span, &'static str) {
    let g = input.game.graph();
    let node_span = |p: u16, n: u32| {
        g.phases
            .get(p as usize)
            .and_then(|ph| ph.spans.get(n as usize).copied())
            .map(|s| first_line(&input.cx.source.text, s))
    };
    let start = g.phases.first().map_or(Span::new(0, 0), |p| p.span);
    match (kind, at) {
        (Kind::DoesNotEnd, At::Node(p, n)) => (
            &DOES_NOT_END,
            "the rules run on without any decision".into(),
            node_span(p, n).unwrap_or(start),
            "still running here when the engine gave up",
        ),
        (Kind::DoesNotEnd, At::Cycle(p, n)) => (
            &DOES_NOT_END,
            format!(
                "games go round in circles: the same position, with the same choice pending, came back {} times with no score change",
                super::cycle::REPEATS
            ),
            node_span(p, n).unwrap_or(start),
            "this choice keeps coming back to the same position",
        ),
        (Kind::DoesNotEnd, _) => (
            &DOES_NOT_END,
            format!(
                "games do not end within {} decisions",
                input.plan.max_decisions
            ),
            start,
            "games that start here did not end",
        ),
        (Kind::Softlock, _) => (
            &SOFTLOCK,
            "softlock: the player who must choose has no legal action".into(),
            match at {
                At::Node(p, n) => node_span(p, n).unwrap_or(start),
                _ => start,
            },
            "stuck here: no option is possible and there is no `otherwise`",
        ),
        (Kind::InvariantBroken, _) => {
            let i = match at {
                At::Invariant(i) => i as usize,
                _ => 0,
            };
            let text = g.tables.invariants.get(i).map_or("", |x| x.0.as_str());
            (
                &INVARIANT_BROKEN,
                format!("invariant \"{text}\" is broken"),
                invariant_span(input.cx, text).unwrap_or(start),
                "this does not hold",
            )
        }
        (Kind::CardLost, _) => (
            &CARD_LOST,
            "a card was lost or duplicated".into(),
            input.cx.hir.usage.deck_spans.first().map_or(start, |d| d.1),
            "the cards made here are not all in exactly one zone",
        ),
        (Kind::RuleFault, At::Game) => (
            &RULE_FAULT,
            "the engine failed (a bug in grail, not in the rules: please report it with the reproduction)".into(),
            start,
            "in a game of these rules",
        ),
        (Kind::RuleFault, _) => (
            &RULE_FAULT,
            "rules fault".into(),
            match at {
                At::Node(p, n) => node_span(p, n).unwrap_or(start),
                _ => start,
            },
            "this failed",
        ),
    }
}

fn incident_finding(
    input: &Input,
    kind: Kind,
    at: At,
    hits: &[(usize, &Incidents)],
    explored: Option<(&Hit, &Explored)>,
) -> Found {
    let (lint, headline, span, label) = headline(input, kind, at);
    let count: u64 = hits.iter().map(|(_, l)| l.count).sum();
    let total: u64 = input.stats.iter().map(|s| s.games).sum();
    if let Some((h, x)) = explored {
        let message = format!(
            "{headline}, in 0 of {total} random games; guided exploration met it in {} of its {} games",
            h.count, x.games
        );
        let f = &h.find;
        let moves = f.picks.iter().map(|p| p + 1).collect();
        let ev = evidence(
            input,
            f.column,
            f.game,
            f.seed,
            moves,
            h.failing_move,
            &h.message,
        );
        return (lint, lint.at(span, message, label), Some(ev));
    }
    let mut message = format!("{headline}, in {count} of {total} games");
    if kind == Kind::DoesNotEnd && count >= super::simulate::HUNG_LIMIT {
        let _ = write!(
            message,
            " (a column stops after {} games that do not end)",
            super::simulate::HUNG_LIMIT
        );
    }
    if input.columns.len() > 1 {
        let per: Vec<String> = hits
            .iter()
            .map(|(c, l)| format!("{}: {}", input.columns[*c].label, l.count))
            .collect();
        let _ = write!(message, " ({})", per.join(", "));
    }
    let (col, first) = hits
        .iter()
        .filter_map(|(c, l)| l.first.first().map(|i| (*c, i)))
        .min_by_key(|(c, i)| (i.game, *c))
        .expect("an incident list keeps its first incident");
    let ev = reproduce(input, col, first);
    let mut d = lint.at(span, message, label);
    if let (Kind::DoesNotEnd, At::Game) = (kind, at) {
        d = blame_exits(input, col, hits, d);
    }
    if let (Kind::DoesNotEnd, At::Cycle(..)) = (kind, at) {
        // a longer budget would not help: the game came back to where it was
        d = d.help("every way on from this choice leads back to it: give the loop a way out (a counter that only grows, a pile that only shrinks), or let one option change the position for good");
    }
    if (kind, at) == (Kind::RuleFault, At::Game) {
        d = d.help("the engine stopped with an internal error; the reproduction replays the moves before it");
    }
    (lint, d, Some(ev))
}

/// A `does-not-end` finding about games that ran out of decisions blames
/// the ways out that were never taken, not `start`: each is a label with
/// how often its condition was tested and the values its sides took.
fn blame_exits(
    input: &Input,
    col: usize,
    hits: &[(usize, &Incidents)],
    mut d: Diagnostic,
) -> Diagnostic {
    let mut nodes = vec![0u64; input.layout.nodes];
    for s in input.stats {
        for (a, b) in nodes.iter_mut().zip(&s.nodes) {
            *a += b;
        }
    }
    let exits = super::exits::exits(input.game, &input.layout.node_base, &nodes);
    let mut never: Vec<_> = exits.iter().filter(|e| e.never).collect();
    // a way out whose guard was never even tested is not the cause
    // when another one was tested and never true (a loop that never
    // ends keeps the game from its `end game`)
    if never.iter().any(|e| e.tested > 0) {
        never.retain(|e| e.tested > 0);
    }
    // the condition tested most often without ever being true first
    never.sort_by_key(|e| std::cmp::Reverse(e.tested));
    if never.is_empty() {
        return d;
    }
    let seen = values_seen(input, col, hits, &never);
    d.labels.clear();
    for (e, seen) in never.iter().zip(seen) {
        let label = match seen {
            Some(v) => format!("{}; {v}", e.label),
            None => e.label.clone(),
        };
        d = d.label(first_line(&input.cx.source.text, e.span), label);
    }
    let why = if never.iter().any(|e| e.label.contains("never false")) {
        "the game can end only past a `while` whose condition was never false"
    } else {
        "the game can end only where a condition was never true"
    };
    d.message = format!("{}; {why}", d.message);
    d
}

/// The values the never-true guards' sides took in the first games of
/// column `col` that did not end (replayed; see `seen.rs`).
fn values_seen(
    input: &Input,
    col: usize,
    hits: &[(usize, &Incidents)],
    never: &[&super::exits::Exit],
) -> Vec<Option<String>> {
    let guards: Vec<(u16, u32)> = never.iter().filter_map(|e| e.guard).collect();
    let games: Vec<u64> = hits
        .iter()
        .filter(|(c, _)| *c == col)
        .flat_map(|(_, l)| l.first.iter().map(|i| i.game))
        .collect();
    let column = &input.columns[col];
    let table = Table {
        game: input.game,
        layout: input.layout,
        players: column.players,
        options: &column.options,
        agent: input.plan.agent_kind(),
        max_decisions: input.plan.max_decisions,
    };
    let mut sides = super::seen::values(&table, input.plan.seed, &games, &guards).into_iter();
    never
        .iter()
        .map(|e| {
            e.guard?;
            super::seen::describe(&sides.next()?)
        })
        .collect()
}

/// A statement's first line, without an opening brace (`choose p`).
fn first_line(text: &str, span: Span) -> Span {
    let Some(inner) = text.get(span.start as usize..span.end as usize) else {
        return span;
    };
    let line = inner.split('\n').next().unwrap_or(inner);
    let kept = line.trim_end().trim_end_matches('{').trim_end();
    if kept.is_empty() {
        span
    } else {
        Span::new(span.start as usize, span.start as usize + kept.len())
    }
}

/// The span of `invariant "text"` in the rules file.
fn invariant_span(cx: &Context, text: &str) -> Option<Span> {
    let src = &cx.source.text;
    let quoted = format!("\"{text}\"");
    let mut from = 0;
    while let Some(i) = src[from..].find("invariant") {
        let at = from + i;
        let rest = src[at + "invariant".len()..].trim_start();
        if rest.starts_with(&quoted) {
            let end = src.len() - rest.len() + quoted.len();
            return Some(Span::new(at, end));
        }
        from = at + 1;
    }
    None
}

/// Replay the game of `inc` and say how to open it at that step.
fn reproduce(input: &Input, col: usize, inc: &Incident) -> Evidence {
    let column = &input.columns[col];
    let table = Table {
        game: input.game,
        layout: input.layout,
        players: column.players,
        options: &column.options,
        agent: input.plan.agent_kind(),
        max_decisions: input.plan.max_decisions,
    };
    let mut picks = replay(&table, input.plan.seed, inc.game);
    picks.truncate(inc.moves as usize);
    let moves = repro::repl_numbers(
        input.game,
        column.players,
        inc.seed,
        &column.options,
        &picks,
    );
    evidence(
        input,
        col,
        inc.game,
        inc.seed,
        moves,
        inc.failing_move,
        &inc.message,
    )
}
