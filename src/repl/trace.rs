//! `trace`: the rules lines a move ran, with the values they bound and
//! assigned (`q.tokens += 1  (q = P2, now 3)`), drawn from the action-graph
//! nodes the engine executes and a look at the state before each one. Also
//! how a value of any type reads (`show`). A leaf below the session (it
//! needs only the game).

use crate::check::hir::{Expr, Place, Ty};
use crate::graph::Node;
use crate::{Game, State};
use std::fmt::Write as _;

/// Most trace lines printed for one move.
const TRACE_LINES: usize = 200;
/// Most values shown on one trace line.
const LINE_VALUES: usize = 6;

/// A value as the designer reads it: a number, `true`, `P2`, a card or enum name.
pub fn show(game: &Game, st: &State, ty: Ty, v: i32) -> String {
    match ty {
        Ty::Bool => (if v != 0 { "true" } else { "false" }).to_string(),
        _ if v < 0 && !matches!(ty, Ty::Int) => "none".to_string(),
        Ty::Player => format!("P{v}"),
        Ty::Card if (v as usize) < game.card_count() => game.card_name(v as usize).to_string(),
        Ty::Zone if (v as usize) < st.table().insts() => st.zone_name(game, v as usize),
        Ty::Enum(e) => game.graph().tables.enums[e as usize]
            .values
            .get(v as usize)
            .cloned()
            .unwrap_or_else(|| v.to_string()),
        _ => v.to_string(),
    }
}

/// `name = value` pairs seen on a line.
type Values = Vec<(String, String)>;

/// One executed node and the values it showed: `name = value`, and `now V`
/// for what an assignment left.
#[derive(Default)]
struct Step {
    phase: u16,
    node: u32,
    values: Vec<(String, String)>,
}

/// Records a move as it runs: fed by [`State::apply_looking`].
pub struct Recorder<'g> {
    game: &'g Game,
    steps: Vec<Step>,
}

impl<'g> Recorder<'g> {
    pub fn new(game: &'g Game) -> Self {
        Recorder {
            game,
            steps: Vec::new(),
        }
    }

    /// The state just before node `node` of `phase` runs: finish the
    /// previous step (what it assigned or bound is visible now) and note the
    /// locals this node reads.
    pub fn look(&mut self, st: &State, phase: u16, node: u32) {
        let g = self.game.graph();
        if let Some(prev) = self.steps.last_mut() {
            let p = &g.phases[prev.phase as usize];
            match p.nodes.get(prev.node as usize) {
                Some(Node::Assign(place, _, _)) => {
                    let (e, ty) = place_expr(self.game, p.local_types.as_slice(), place);
                    if let Ok(v) = st.eval_in_frame(self.game, &e) {
                        prev.values.push(("now".into(), show(self.game, st, ty, v)));
                    }
                }
                Some(Node::ForNext { slot, exit, .. }) if node != *exit => {
                    let e = Expr::Local(*slot);
                    if let Ok(v) = st.eval_in_frame(self.game, &e) {
                        let ty = p
                            .local_types
                            .get(*slot as usize)
                            .copied()
                            .unwrap_or(Ty::Int);
                        let name = p
                            .local_names
                            .get(*slot as usize)
                            .cloned()
                            .unwrap_or_default();
                        prev.values.push((name, show(self.game, st, ty, v)));
                    }
                }
                _ => {}
            }
        }
        let p = &g.phases[phase as usize];
        let mut slots = Vec::new();
        if let Some(n) = p.nodes.get(node as usize) {
            node_locals(n, &mut slots);
        }
        let mut values = Vec::new();
        for s in slots {
            let name = p.local_names.get(s as usize).cloned().unwrap_or_default();
            // hidden loop slots and function parameters are not the designer's names
            if name.is_empty()
                || name.contains(['(', '.'])
                || values.iter().any(|(n, _)| *n == name)
            {
                continue;
            }
            let ty = p.local_types.get(s as usize).copied().unwrap_or(Ty::Int);
            if let Ok(v) = st.eval_in_frame(self.game, &Expr::Local(s)) {
                values.push((name, show(self.game, st, ty, v)));
            }
        }
        self.steps.push(Step {
            phase,
            node,
            values,
        });
    }

    /// The rules lines the move ran: `phase:line`, the line's text and the
    /// values seen there; consecutive nodes on one line are shown once.
    pub fn write(&self, out: &mut String) {
        let g = self.game.graph();
        let text: Vec<&str> = self.game.source().text.lines().collect();
        let mut lines: Vec<(u16, usize, u32, Values)> = Vec::new();
        for s in &self.steps {
            let line = self.game.line_of(s.phase, s.node);
            match lines.last_mut() {
                Some((ph, l, _, vals)) if *ph == s.phase && *l == line => {
                    for (n, v) in &s.values {
                        // the latest value of a name wins (a loop variable rebinds)
                        match vals.iter_mut().find(|(m, _)| m == n) {
                            Some(slot) => slot.1 = v.clone(),
                            None => vals.push((n.clone(), v.clone())),
                        }
                    }
                }
                _ => lines.push((s.phase, line, s.node, s.values.clone())),
            }
        }
        let hidden = lines.len().saturating_sub(TRACE_LINES);
        for (phase, line, node, mut vals) in lines.into_iter().take(TRACE_LINES) {
            let p = &g.phases[phase as usize];
            let name = &p.name;
            let src = match p.nodes.get(node as usize) {
                Some(Node::Return) => "(returns)",
                _ => text.get(line.wrapping_sub(1)).map_or("", |t| t.trim()),
            };
            let src: String = if src.chars().count() > 72 {
                src.chars().take(69).chain("...".chars()).collect()
            } else {
                src.to_string()
            };
            // a variant's line is named in the file it is written in
            let _ = match self.game.source().file_line(line) {
                (Some(file), l) => write!(out, "  | {name} {file}:{l}  {src}"),
                (None, l) => write!(out, "  | {name}:{l}  {src}"),
            };
            // `now` last, after the names
            vals.sort_by_key(|(n, _)| n == "now");
            if vals.len() > LINE_VALUES {
                vals.drain(LINE_VALUES - 1..vals.len() - 1);
            }
            if !vals.is_empty() {
                let shown: Vec<String> = vals
                    .iter()
                    .map(|(n, v)| match n.as_str() {
                        "now" => format!("now {v}"),
                        _ => format!("{n} = {v}"),
                    })
                    .collect();
                let _ = write!(out, "  ({})", shown.join(", "));
            }
            out.push('\n');
        }
        if hidden > 0 {
            let _ = writeln!(out, "  | ... {hidden} more lines");
        }
    }
}

/// An assignment's place read back as an expression, with its type.
fn place_expr(game: &Game, local_types: &[Ty], place: &Place) -> (Expr, Ty) {
    let vars = &game.graph().tables.vars;
    let var_ty = |v: u16| vars.get(v as usize).map_or(Ty::Int, |i| i.ty);
    match place {
        Place::Local(s) => (
            Expr::Local(*s),
            local_types.get(*s as usize).copied().unwrap_or(Ty::Int),
        ),
        Place::Global(v) => (Expr::Global(*v), var_ty(*v)),
        Place::PerPlayer(v, p) => (Expr::PerPlayer(*v, Box::new(p.clone())), var_ty(*v)),
        Place::PerCard(v, c) => (Expr::PerCard(*v, Box::new(c.clone())), var_ty(*v)),
    }
}

/// The locals a node reads (before it runs), in order of first use.
fn node_locals(n: &Node, out: &mut Vec<u16>) {
    let mut e = |x: &Expr| expr_locals(x, out);
    match n {
        Node::Assign(place, _, x) => {
            match place {
                Place::PerPlayer(_, p) | Place::PerCard(_, p) => e(p),
                Place::Local(_) | Place::Global(_) => {}
            }
            e(x);
        }
        Node::JumpIfNot(c, _) => e(c),
        Node::ForStart { coll, .. } => e(coll),
        // not the arms: their labels read what each option binds
        Node::Choose { who, .. } => e(who),
        Node::Move { what, to, .. } => {
            e(what);
            e(to);
        }
        Node::MoveAll { from, to, .. } => {
            e(from);
            e(to);
        }
        Node::Deal(a, b, c) => {
            e(a);
            e(b);
            e(c);
        }
        Node::Shuffle(a) | Node::Reveal(a) => e(a),
        Node::Swap(a, b) | Node::Peek(a, b) => {
            e(a);
            e(b);
        }
        Node::Call(_, args) => args.iter().for_each(e),
        _ => {}
    }
}

/// The locals an expression reads, not counting those it binds itself
/// (an aggregate's variable, a function's parameters).
fn expr_locals(x: &Expr, out: &mut Vec<u16>) {
    x.free_locals(&mut Vec::new(), out);
}
