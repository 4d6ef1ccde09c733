//! Expressions: precedence climbing with pest's Pratt parser over prefix,
//! infix and postfix operators, and the primaries (literals, names, calls,
//! `if ... then ... else`, aggregates).

use super::Builder;
use crate::syntax::Rule;
use crate::syntax::ast::*;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::OnceLock;

fn pratt() -> &'static PrattParser<Rule> {
    static P: OnceLock<PrattParser<Rule>> = OnceLock::new();
    P.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::op_or, Assoc::Left))
            .op(Op::infix(Rule::op_and, Assoc::Left))
            .op(Op::prefix(Rule::op_not))
            .op(Op::infix(Rule::op_eq, Assoc::Left)
                | Op::infix(Rule::op_ne, Assoc::Left)
                | Op::infix(Rule::op_lt, Assoc::Left)
                | Op::infix(Rule::op_le, Assoc::Left)
                | Op::infix(Rule::op_gt, Assoc::Left)
                | Op::infix(Rule::op_ge, Assoc::Left)
                | Op::infix(Rule::op_in, Assoc::Left))
            .op(Op::infix(Rule::op_range, Assoc::Left))
            .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
            .op(Op::infix(Rule::op_mul, Assoc::Left)
                | Op::infix(Rule::op_div, Assoc::Left)
                | Op::infix(Rule::op_mod, Assoc::Left))
            .op(Op::prefix(Rule::op_neg))
            .op(Op::postfix(Rule::field) | Op::postfix(Rule::index))
    })
}

impl Builder {
    pub fn expr(&mut self, p: Pair<Rule>) -> Expr {
        let pairs = p.into_inner();
        self.expr_pairs(pairs)
    }

    pub(super) fn expr_pairs(&mut self, pairs: Pairs<Rule>) -> Expr {
        // The closures below need `&mut self`; pest's Pratt API takes three
        // closures at once, so route them through a RefCell.
        let me = std::cell::RefCell::new(self);
        pratt()
            .map_primary(|p| me.borrow_mut().primary(p))
            .map_prefix(|op, rhs| {
                let span = me.borrow().span(&op).to(rhs.span);
                let u = if op.as_rule() == Rule::op_not {
                    UnOp::Not
                } else {
                    UnOp::Neg
                };
                Expr {
                    kind: ExprKind::Unary(u, Box::new(rhs)),
                    span,
                }
            })
            .map_postfix(|lhs, op| {
                let mut b = me.borrow_mut();
                let span = lhs.span.to(b.span(&op));
                let kind = match op.as_rule() {
                    Rule::field => {
                        let n = b.name(op.into_inner().next().expect("ident"));
                        ExprKind::Field(Box::new(lhs), n)
                    }
                    _ => {
                        let idx = b.expr(op.into_inner().next().expect("expr"));
                        ExprKind::Index(Box::new(lhs), Box::new(idx))
                    }
                };
                Expr { kind, span }
            })
            .map_infix(|lhs, op, rhs| {
                let span = lhs.span.to(rhs.span);
                let op = match op.as_rule() {
                    Rule::op_or => BinOp::Or,
                    Rule::op_and => BinOp::And,
                    Rule::op_eq => BinOp::Eq,
                    Rule::op_ne => BinOp::Ne,
                    Rule::op_lt => BinOp::Lt,
                    Rule::op_le => BinOp::Le,
                    Rule::op_gt => BinOp::Gt,
                    Rule::op_ge => BinOp::Ge,
                    Rule::op_in => BinOp::In,
                    Rule::op_range => BinOp::Range,
                    Rule::op_add => BinOp::Add,
                    Rule::op_sub => BinOp::Sub,
                    Rule::op_mul => BinOp::Mul,
                    Rule::op_div => BinOp::Div,
                    _ => BinOp::Mod,
                };
                Expr {
                    kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                    span,
                }
            })
            .parse(pairs)
    }

    pub(super) fn primary(&mut self, p: Pair<Rule>) -> Expr {
        let span = self.span(&p);
        let kind = match p.as_rule() {
            Rule::int => ExprKind::Int(self.int(p)),
            Rule::ident => ExprKind::Name(p.as_str().to_string()),
            Rule::literal => match p.as_str() {
                "true" => ExprKind::Bool(true),
                "false" => ExprKind::Bool(false),
                _ => ExprKind::None,
            },
            Rule::expr => return self.expr(p),
            Rule::cond => {
                let mut i = p.into_inner();
                let c = self.expr(i.next().expect("cond"));
                let a = self.expr(i.next().expect("then"));
                let b = self.expr(i.next().expect("else"));
                ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b))
            }
            Rule::call => {
                let mut i = p.into_inner();
                let n = self.name(i.next().expect("name"));
                ExprKind::Call(n, self.args(i.next().expect("args")))
            }
            Rule::aggregate => {
                let mut i = p.into_inner();
                let kind = match i.next().expect("agg_fn").as_str() {
                    "sum" => AggKind::Sum,
                    "min" => AggKind::Min,
                    "max" => AggKind::Max,
                    "count" => AggKind::Count,
                    "any" => AggKind::Any,
                    "first" => AggKind::First,
                    _ => AggKind::All,
                };
                let parts: Vec<Pair<Rule>> = i.collect();
                let (body, rest) = if parts.len() >= 2 && parts[1].as_rule() == Rule::ident {
                    (Some(Box::new(self.expr(parts[0].clone()))), &parts[1..])
                } else {
                    (None, &parts[..])
                };
                let var = self.name(rest[0].clone());
                let coll = self.expr(rest[1].clone());
                let filter = self.filter(rest.get(2).cloned());
                ExprKind::Aggregate {
                    kind,
                    body,
                    binding: Box::new(Binding { var, coll, filter }),
                }
            }
            r => unreachable!("not a primary: {r:?}"),
        };
        Expr { kind, span }
    }
}
