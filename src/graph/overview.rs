//! `grail graph --format overview`: the shape of a game on one screen. One
//! line per phase (its line in the rules file, its choices, the phases it
//! calls or leaves, whether it ends the game), then the reactions with the zone whose
//! entry opens each and the phases that move cards there.

use super::{Graph, Node, Phase};
use crate::diag::Span;
use crate::hir::{Expr, ProcKind};
use std::fmt::Write;

/// The overview of `g`, or of its phases in `only` (indices) when given.
/// `line` turns a span into its 1-based line in the rules file
/// (`Source::line_label`: for a variant, with the file the line is in).
pub fn overview(g: &Graph, only: Option<&[u16]>, line: &dyn Fn(Span) -> String) -> String {
    let t = &g.tables;
    let shown = |i: usize| only.is_none_or(|o| o.contains(&(i as u16)));
    let reactions = g
        .phases
        .iter()
        .filter(|p| p.kind == ProcKind::Reaction)
        .count();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} - {}..{} players - {} phases, {} reaction{}",
        t.name,
        t.min_players,
        t.max_players,
        g.phases.len() - reactions,
        reactions,
        if reactions == 1 { "" } else { "s" }
    );
    let rows: Vec<(usize, Row)> = g
        .phases
        .iter()
        .enumerate()
        .filter(|(i, _)| shown(*i))
        .map(|(i, p)| (i, row(g, p, line)))
        .collect();
    let width = rows.iter().map(|(_, r)| r.head.len()).max().unwrap_or(0);
    let section = |out: &mut String, title: &str, reaction: bool| {
        let mut first = true;
        for (i, r) in rows.iter().filter(|(i, _)| is_reaction(g, *i) == reaction) {
            if first {
                let _ = writeln!(out, "\n{title}");
                first = false;
            }
            let mut parts = Vec::new();
            if r.options > 0 {
                parts.push(format!(
                    "{} choice{} ({} option{})",
                    r.choices,
                    plural(r.choices),
                    r.options,
                    plural(r.options)
                ));
            }
            if !r.calls.is_empty() {
                parts.push(format!("calls {}", r.calls.join(", ")));
            }
            if !r.leaves.is_empty() {
                parts.push(format!("leaves {}", r.leaves.join(", ")));
            }
            if r.ends {
                parts.push("ends the game".into());
            }
            let row = format!(
                "  {:<width$}  line {:<4} {}",
                r.head,
                r.line,
                parts.join("; ")
            );
            let _ = writeln!(out, "{}", row.trim_end());
            if reaction {
                let _ = writeln!(out, "    {}", trigger(g, *i));
            }
        }
    };
    section(&mut out, "phases", false);
    section(
        &mut out,
        "reactions (opened when a card enters their zone)",
        true,
    );
    out
}

fn is_reaction(g: &Graph, i: usize) -> bool {
    g.phases[i].kind == ProcKind::Reaction
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

struct Row {
    head: String,
    line: String,
    choices: usize,
    options: usize,
    calls: Vec<String>,
    leaves: Vec<String>,
    ends: bool,
}

/// `turn play(p)`, and what the phase's nodes do.
fn row(g: &Graph, p: &Phase, line: &dyn Fn(Span) -> String) -> Row {
    let kind = match p.kind {
        ProcKind::Start => "",
        ProcKind::Phase => "phase ",
        ProcKind::Turn => "turn ",
        ProcKind::Reaction => "reaction ",
    };
    let params = &p.local_names[..usize::from(p.params).min(p.local_names.len())];
    let head = if p.kind == ProcKind::Start || (p.kind == ProcKind::Phase && params.is_empty()) {
        format!("{kind}{}", p.name)
    } else {
        format!("{kind}{}({})", p.name, params.join(", "))
    };
    let mut r = Row {
        head,
        line: line(p.span),
        choices: 0,
        options: 0,
        calls: Vec::new(),
        leaves: Vec::new(),
        ends: false,
    };
    for n in &p.nodes {
        match n {
            Node::Choose { arms, .. } => {
                r.choices += 1;
                r.options += arms.len();
            }
            Node::Call(callee, _) => {
                let name = &g.phases[*callee as usize].name;
                if !r.calls.contains(name) {
                    r.calls.push(name.clone());
                }
            }
            Node::Leave(left) => {
                let name = &g.phases[*left as usize].name;
                if !r.leaves.contains(name) {
                    r.leaves.push(name.clone());
                }
            }
            Node::EndGame if p.kind != ProcKind::Start => r.ends = true,
            _ => {}
        }
    }
    r
}

/// `on enter discard, from play, keep`: the zone of reaction `i` and the
/// phases whose moves or deals put cards in it.
fn trigger(g: &Graph, i: usize) -> String {
    let Some(z) = g.phases[i].trigger else {
        return String::new();
    };
    let mut from: Vec<&str> = Vec::new();
    for p in &g.phases {
        let enters = p.nodes.iter().any(|n| match n {
            Node::Move { to, .. } | Node::MoveAll { to, .. } | Node::Deal(_, _, to) => {
                zone_of(to) == Some(z)
            }
            _ => false,
        });
        if enters && !from.contains(&p.name.as_str()) {
            from.push(&p.name);
        }
    }
    let zone = &g.tables.zones[z as usize].name;
    if from.is_empty() {
        format!("on enter {zone} (nothing moves cards there)")
    } else {
        format!("on enter {zone}, from {}", from.join(", "))
    }
}

/// The zone a move's destination names, when it names one.
fn zone_of(e: &Expr) -> Option<u16> {
    match e {
        Expr::Zone(z, _) | Expr::ZoneAll(z) => Some(*z),
        _ => None,
    }
}
