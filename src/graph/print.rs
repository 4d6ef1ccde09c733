//! Printing the action graph: expressions back to readable text, the whole
//! graph (or some phases) as Graphviz DOT (one cluster per phase, each node
//! with its source line) or as RON. The one-screen overview is `overview.rs`.

use super::{Graph, Node, Phase};
use crate::diag::Span;
use crate::hir::{Builtin, Expr, LabelPart, Place, Tables};
use crate::syntax::ast::{AggKind, AssignOp, BinOp};
use std::fmt::Write;

/// Render an expression with the names it had in the rules file.
pub fn fmt_expr(t: &Tables, locals: &[String], e: &Expr) -> String {
    let f = |x: &Expr| fmt_expr(t, locals, x);
    match e {
        Expr::Int(i) => i.to_string(),
        Expr::Nothing => "none".into(),
        Expr::Opt(o) => t.options[*o as usize].name.clone(),
        Expr::Global(v) => t.vars[*v as usize].name.clone(),
        Expr::Local(l) => locals
            .get(*l as usize)
            .cloned()
            .unwrap_or_else(|| format!("${l}")),
        Expr::PerPlayer(v, p) => format!("{}.{}", f(p), t.vars[*v as usize].name),
        Expr::PerCard(v, c) => format!("{}.{}", f(c), t.vars[*v as usize].name),
        Expr::Table(tb, k) => format!("{}[{}]", t.tables[*tb as usize].name, f(k)),
        Expr::Attr(a, c) => format!("{}.{}", f(c), t.attrs[*a as usize].name),
        Expr::Zone(z, None) | Expr::ZoneAll(z) => t.zones[*z as usize].name.clone(),
        Expr::Zone(z, Some(p)) => format!("{}.{}", f(p), t.zones[*z as usize].name),
        Expr::Players => "players".into(),
        Expr::Region(b, r) => t.boards[*b as usize].regions[*r as usize].0.clone(),
        Expr::EnumAll(e) => t.enums[*e as usize].name.clone(),
        Expr::PlayerCount => "player_count".into(),
        Expr::Actor => "actor".into(),
        Expr::Current => "current".into(),
        Expr::Index(z, i) => format!("{}[{}]", f(z), f(i)),
        Expr::Not(x) => format!("not {}", f(x)),
        Expr::Neg(x) => format!("-{}", f(x)),
        Expr::Bind(binds, body) => {
            let args: Vec<String> = binds.iter().map(|(_, e)| f(e)).collect();
            format!("[{}]{}", args.join(", "), f(body))
        }
        Expr::Cond(c, a, b) => format!("(if {} then {} else {})", f(c), f(a), f(b)),
        Expr::Bin(op, l, r) => format!("({} {} {})", f(l), binop(*op), f(r)),
        Expr::Call(b, args) => {
            let name = Builtin::ALL
                .iter()
                .find(|(_, x)| x == b)
                .map(|(n, _)| *n)
                .unwrap_or("?");
            format!(
                "{name}({})",
                args.iter().map(f).collect::<Vec<_>>().join(", ")
            )
        }
        Expr::Agg {
            kind,
            slot,
            coll,
            filter,
            body,
        } => {
            let v = locals
                .get(*slot as usize)
                .cloned()
                .unwrap_or_else(|| format!("${slot}"));
            let name = match kind {
                AggKind::Sum => "sum",
                AggKind::Min => "min",
                AggKind::Max => "max",
                AggKind::Count => "count",
                AggKind::Any => "any",
                AggKind::All => "all",
                AggKind::First => "first",
            };
            let mut s = format!("{name}(");
            if let Some(b) = body {
                let _ = write!(s, "{} for ", f(b));
            }
            let _ = write!(s, "{v} in {}", f(coll));
            if let Some(w) = filter {
                let _ = write!(s, " where {}", f(w));
            }
            s.push(')');
            s
        }
    }
}

fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::Or => "or",
        BinOp::And => "and",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Range => "..",
        BinOp::In => "in",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Mod => "%",
    }
}

fn fmt_label(t: &Tables, locals: &[String], parts: &[LabelPart]) -> String {
    parts
        .iter()
        .map(|p| match p {
            LabelPart::Text(s) => s.clone(),
            LabelPart::Expr(e, _) => format!("{{{}}}", fmt_expr(t, locals, e)),
        })
        .collect()
}

/// One line describing a node, as `trace` and the DOT output show it.
pub fn describe(g: &Graph, phase: &Phase, node: &Node) -> String {
    let t = &g.tables;
    let l = &phase.local_names[..];
    let f = |e: &Expr| fmt_expr(t, l, e);
    match node {
        Node::Assign(place, op, e) => {
            let target = match place {
                Place::Local(s) => l.get(*s as usize).cloned().unwrap_or_default(),
                Place::Global(v) => t.vars[*v as usize].name.clone(),
                Place::PerPlayer(v, p) | Place::PerCard(v, p) => {
                    format!("{}.{}", f(p), t.vars[*v as usize].name)
                }
            };
            let op = match op {
                AssignOp::Set => "=",
                AssignOp::Add => "+=",
                AssignOp::Sub => "-=",
            };
            format!("{target} {op} {}", f(e))
        }
        Node::Jump(_) => "jump".into(),
        Node::JumpIfNot(c, _) => format!("if {}", f(c)),
        Node::ForStart { coll, .. } => format!("for each in {}", f(coll)),
        Node::ForNext { slot, filter, .. } => {
            let v = l.get(*slot as usize).cloned().unwrap_or_default();
            match filter {
                Some(w) => format!("next {v} where {}", f(w)),
                None => format!("next {v}"),
            }
        }
        Node::Exit { .. } => "break".into(),
        Node::Choose {
            who, arms, pass, ..
        } => {
            let kind = if pass.is_some() { "window" } else { "choose" };
            let labels: Vec<String> = arms.iter().map(|a| fmt_label(t, l, &a.label)).collect();
            format!("{kind} {}: {}", f(who), labels.join(" | "))
        }
        Node::Move { what, to, bottom } => {
            format!(
                "move {} to {}{}",
                f(what),
                f(to),
                if *bottom { " at bottom" } else { "" }
            )
        }
        Node::MoveAll { from, to, .. } => format!("move all {} to {}", f(from), f(to)),
        Node::Deal(n, a, b) => format!("deal {} from {} to {}", f(n), f(a), f(b)),
        Node::Shuffle(z) => format!("shuffle {}", f(z)),
        Node::Swap(a, b) => format!("swap {} with {}", f(a), f(b)),
        Node::Peek(p, c) => format!("peek {} at {}", f(p), f(c)),
        Node::Reveal(c) => format!("reveal {}", f(c)),
        Node::EndGame => "end game".into(),
        Node::Leave(p) => format!("leave {}", g.phases[*p as usize].name),
        Node::Return => "return".into(),
        Node::Checkpoint => "checkpoint".into(),
        Node::Rollback => "rollback".into(),
        Node::Call(p, args) => {
            format!(
                "{}({})",
                g.phases[*p as usize].name,
                args.iter().map(f).collect::<Vec<_>>().join(", ")
            )
        }
    }
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The graph in Graphviz DOT: a cluster per phase, solid edges for control
/// flow, labelled edges for choice arms, dashed edges for calls. Each node
/// shows its index and its line in the rules file (`line` turns a span into
/// it). With `only`, just those phases (by index); a phase they call is a
/// dashed oval.
pub fn to_dot(g: &Graph, only: Option<&[u16]>, line: &dyn Fn(Span) -> String) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", esc(&g.tables.name));
    let _ = writeln!(
        out,
        "  node [shape=box, fontname=\"monospace\", fontsize=10];"
    );
    let shown = |i: usize| only.is_none_or(|o| o.contains(&(i as u16)));
    let mut outside: Vec<u16> = Vec::new();
    for (pi, p) in g.phases.iter().enumerate() {
        if !shown(pi) {
            continue;
        }
        let _ = writeln!(out, "  subgraph cluster_{pi} {{");
        let _ = writeln!(out, "    label=\"{:?} {}\";", p.kind, esc(&p.name));
        for (ni, n) in p.nodes.iter().enumerate() {
            let shape = match n {
                Node::Choose { .. } => ", shape=diamond",
                Node::EndGame | Node::Return | Node::Leave(_) => ", shape=oval",
                _ => "",
            };
            let at = p.spans.get(ni).map_or_else(|| "0".into(), |sp| line(*sp));
            let _ = writeln!(
                out,
                "    p{pi}n{ni} [label=\"{ni} (line {}): {}\"{shape}];",
                esc(&at),
                esc(&describe(g, p, n))
            );
        }
        let _ = writeln!(out, "  }}");
        for callee in dot_edges(&mut out, g, pi, p) {
            if !shown(callee as usize) && !outside.contains(&callee) {
                outside.push(callee);
            }
        }
    }
    for callee in outside {
        let name = &g.phases[callee as usize].name;
        let _ = writeln!(
            out,
            "  p{callee}n0 [label=\"{}\", shape=oval, style=dashed];",
            esc(name)
        );
    }
    out.push_str("}\n");
    out
}

/// The edges leaving the nodes of phase `pi`; returns the phases it calls.
fn dot_edges(out: &mut String, g: &Graph, pi: usize, p: &Phase) -> Vec<u16> {
    let mut calls = Vec::new();
    for (ni, n) in p.nodes.iter().enumerate() {
        let next = ni + 1;
        let edge = |out: &mut String, to: u32, label: &str| {
            let _ = writeln!(
                out,
                "  p{pi}n{ni} -> p{pi}n{to} [label=\"{}\"];",
                esc(label)
            );
        };
        match n {
            Node::Jump(t) => edge(out, *t, ""),
            Node::JumpIfNot(_, t) => {
                edge(out, next as u32, "yes");
                edge(out, *t, "no");
            }
            Node::ForNext { exit, .. } => {
                edge(out, next as u32, "each");
                edge(out, *exit, "done");
            }
            Node::Exit { target, .. } => edge(out, *target, ""),
            Node::Choose {
                arms,
                otherwise,
                pass,
                ..
            } => {
                for a in arms {
                    edge(
                        out,
                        a.target,
                        &fmt_label(&g.tables, &p.local_names, &a.label),
                    );
                }
                if let Some(o) = otherwise {
                    edge(out, *o, "otherwise");
                }
                if let Some(ps) = pass {
                    edge(out, *ps, "pass");
                }
            }
            Node::EndGame | Node::Return | Node::Leave(_) => {}
            Node::Call(callee, _) => {
                edge(out, next as u32, "");
                let _ = writeln!(out, "  p{pi}n{ni} -> p{callee}n0 [style=dashed];");
                calls.push(*callee);
            }
            _ => edge(out, next as u32, ""),
        }
    }
    calls
}

/// The graph as pretty RON; with `only`, just those phases.
pub fn to_ron(g: &Graph, only: Option<&[u16]>) -> String {
    let cfg = ron::ser::PrettyConfig::default();
    let text = match only {
        None => ron::ser::to_string_pretty(g, cfg),
        Some(o) => {
            let phases: Vec<&Phase> = o.iter().map(|&i| &g.phases[i as usize]).collect();
            ron::ser::to_string_pretty(&phases, cfg)
        }
    };
    text.unwrap_or_else(|e| format!("// {e}\n"))
}
