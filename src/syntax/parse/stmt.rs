//! Statements inside blocks: `let`, assignment, `if`, loops, `for`, `choose`
//! and `window` with their option arms, effects (`move`, `deal`, ...), calls.

use super::Builder;
use crate::syntax::Rule;
use crate::syntax::ast::*;
use pest::iterators::{Pair, Pairs};

impl Builder {
    pub(super) fn block(&mut self, p: Pair<Rule>) -> Block {
        let span = self.span(&p);
        let stmts = p.into_inner().map(|s| self.stmt(s)).collect();
        Block { stmts, span }
    }

    pub(super) fn filter(&mut self, p: Option<Pair<Rule>>) -> Option<Expr> {
        p.map(|f| self.expr(f.into_inner().next().expect("expr")))
    }

    /// One arm per statement kind; the statements with several parts are
    /// read by the helpers below.
    pub(super) fn stmt(&mut self, p: Pair<Rule>) -> Stmt {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut i = p.into_inner();
        let kind = match rule {
            Rule::let_stmt => {
                let n = self.name(i.next().expect("name"));
                StmtKind::Let(n, self.expr(i.next().expect("expr")))
            }
            Rule::assign_stmt => {
                let mut place = i.next().expect("place").into_inner();
                let base = self.name(place.next().expect("base"));
                let field = place.next().map(|f| self.name(f));
                let op = assign_op(i.next().expect("op"));
                StmtKind::Assign(base, field, op, self.expr(i.next().expect("expr")))
            }
            Rule::assign_at_stmt => self.assign_at(i),
            Rule::match_stmt => self.match_stmt(i),
            Rule::if_stmt => self.if_stmt(i),
            Rule::loop_stmt => StmtKind::Loop(self.block(i.next().expect("block"))),
            Rule::while_stmt => {
                let cond = self.expr(i.next().expect("cond"));
                StmtKind::While(cond, self.block(i.next().expect("block")))
            }
            Rule::for_stmt => self.for_stmt(i),
            Rule::choose_stmt => self.choose_stmt(i),
            Rule::window_stmt => self.window_stmt(i),
            Rule::move_stmt => self.move_stmt(i),
            Rule::deal_stmt => {
                let n = self.expr(i.next().expect("n"));
                let from = self.expr(i.next().expect("from"));
                StmtKind::Deal(n, from, self.expr(i.next().expect("to")))
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.expr(i.next().expect("zone"))),
            Rule::swap_stmt => {
                let a = self.expr(i.next().expect("a"));
                StmtKind::Swap(a, self.expr(i.next().expect("b")))
            }
            Rule::peek_stmt => {
                let who = self.expr(i.next().expect("who"));
                StmtKind::Peek(who, self.expr(i.next().expect("card")))
            }
            Rule::reveal_stmt => StmtKind::Reveal(self.expr(i.next().expect("card"))),
            Rule::end_stmt => StmtKind::EndGame,
            Rule::leave_stmt => StmtKind::Leave(self.name(i.next().expect("phase"))),
            Rule::return_stmt => StmtKind::Return,
            Rule::checkpoint_stmt => StmtKind::Checkpoint,
            Rule::rollback_stmt => StmtKind::Rollback,
            Rule::break_stmt => StmtKind::Break,
            Rule::call_stmt => {
                let n = self.name(i.next().expect("name"));
                StmtKind::Call(n, self.args(i.next().expect("args")))
            }
            r => unreachable!("not a statement: {r:?}"),
        };
        Stmt { kind, span }
    }

    /// `OWNER.FIELD op= EXPR`, where the owner is a call or an expression.
    fn assign_at(&mut self, mut i: Pairs<Rule>) -> StmtKind {
        let owner = i.next().expect("owner").into_inner().next().expect("e");
        let owner = if owner.as_rule() == Rule::call {
            self.primary(owner)
        } else {
            self.expr(owner)
        };
        let field = self.name(i.next().expect("field"));
        let op = assign_op(i.next().expect("op"));
        StmtKind::AssignAt(owner, field, op, self.expr(i.next().expect("expr")))
    }

    /// `match EXPR { V | W { ... } ... }`.
    fn match_stmt(&mut self, mut i: Pairs<Rule>) -> StmtKind {
        let scrutinee = self.expr(i.next().expect("expr"));
        let arms = i
            .map(|arm| {
                let mut values = Vec::new();
                let mut body = Block::default();
                for part in arm.into_inner() {
                    if part.as_rule() == Rule::block {
                        body = self.block(part);
                    } else {
                        values.push(self.name(part));
                    }
                }
                MatchArm { values, body }
            })
            .collect();
        StmtKind::Match(scrutinee, arms)
    }

    /// `if COND { ... } [else if ... | else { ... }]`: an `else if` is a
    /// block of one statement.
    fn if_stmt(&mut self, mut i: Pairs<Rule>) -> StmtKind {
        let cond = self.expr(i.next().expect("cond"));
        let then = self.block(i.next().expect("then"));
        let els = i.next().map(|e| {
            if e.as_rule() == Rule::if_stmt {
                let s = self.stmt(e);
                Block {
                    span: s.span,
                    stmts: vec![s],
                }
            } else {
                self.block(e)
            }
        });
        StmtKind::If(cond, then, els)
    }

    /// `for X in COLL [where COND] { ... }`.
    fn for_stmt(&mut self, mut i: Pairs<Rule>) -> StmtKind {
        let var = self.name(i.next().expect("var"));
        let coll = self.expr(i.next().expect("coll"));
        let mut filter = None;
        let mut body = Block::default();
        for part in i {
            if part.as_rule() == Rule::filter {
                filter = self.filter(Some(part));
            } else {
                body = self.block(part);
            }
        }
        StmtKind::For(Binding { var, coll, filter }, body)
    }

    /// `choose WHO { arms... [otherwise { ... }] }`.
    fn choose_stmt(&mut self, mut i: Pairs<Rule>) -> StmtKind {
        let who = self.expr(i.next().expect("who"));
        let mut arms = Vec::new();
        let mut otherwise = None;
        for part in i {
            match part.as_rule() {
                Rule::option_arm => arms.push(self.option_arm(part)),
                _ => otherwise = Some(self.block(part.into_inner().next().expect("b"))),
            }
        }
        StmtKind::Choose {
            who,
            arms,
            otherwise,
        }
    }

    /// `window X in FROM [where COND] { arms... }`.
    fn window_stmt(&mut self, mut i: Pairs<Rule>) -> StmtKind {
        let var = self.name(i.next().expect("var"));
        let from = self.expr(i.next().expect("from"));
        let mut filter = None;
        let mut arms = Vec::new();
        for part in i {
            match part.as_rule() {
                Rule::filter => filter = self.filter(Some(part)),
                _ => arms.push(self.option_arm(part)),
            }
        }
        StmtKind::Window {
            var,
            from,
            filter,
            arms,
        }
    }

    /// `move [all] WHAT to TO [to the bottom]`.
    fn move_stmt(&mut self, mut i: Pairs<Rule>) -> StmtKind {
        let first = i.next().expect("what");
        let (all, what) = if first.as_rule() == Rule::move_all {
            (true, self.expr(first.into_inner().next().expect("zone")))
        } else {
            (false, self.expr(first))
        };
        let to = self.expr(i.next().expect("to"));
        let bottom = i.next().is_some_and(|a| a.as_str().ends_with("bottom"));
        StmtKind::Move {
            all,
            what,
            to,
            bottom,
        }
    }

    pub(super) fn args(&mut self, p: Pair<Rule>) -> Vec<Expr> {
        p.into_inner().map(|a| self.expr(a)).collect()
    }

    pub(super) fn option_arm(&mut self, p: Pair<Rule>) -> OptionArm {
        let span = self.span(&p);
        let mut i = p.into_inner();
        let label = self.interp(i.next().expect("label"));
        let mut arm = OptionArm {
            label,
            binding: None,
            also: None,
            guard: None,
            body: Block::default(),
            span,
        };
        for part in i {
            match part.as_rule() {
                Rule::binding => {
                    let mut i = part.into_inner();
                    let var = self.name(i.next().expect("var"));
                    let coll = self.expr(i.next().expect("coll"));
                    let mut next = i.next();
                    if let Some(also) = next.clone().filter(|n| n.as_rule() == Rule::binding_also) {
                        let mut j = also.into_inner();
                        let v = self.name(j.next().expect("var"));
                        arm.also = Some((v, self.expr(j.next().expect("coll"))));
                        next = i.next();
                    }
                    let filter = self.filter(next);
                    arm.binding = Some(Binding { var, coll, filter });
                }
                Rule::guard => arm.guard = Some(self.expr(part.into_inner().next().expect("e"))),
                _ => arm.body = self.block(part),
            }
        }
        arm
    }
}

/// `=`, `+=` or `-=`.
fn assign_op(p: Pair<Rule>) -> AssignOp {
    match p.as_str() {
        "+=" => AssignOp::Add,
        "-=" => AssignOp::Sub,
        _ => AssignOp::Set,
    }
}
