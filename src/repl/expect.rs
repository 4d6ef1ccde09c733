//! `expect EXPR`: a playtest that checks itself. The expression is written
//! in the rules language and resolved against the game's own declarations
//! plus the players `P0`, `P1`...; a card name (`red-5`) may stand on one
//! side of `==` or `!=`. A failed expect prints `expect failed: ...` with the
//! values it saw and is counted, so that a script exits non-zero. A
//! condition that draws at random (`random(1, 6) == 3`) is refused: the
//! game stays untouched.

use super::args::Flow;
use super::session::Session;
use super::trace::show;
use crate::check::hir::Ty;
use crate::{Game, Probe};
use std::fmt::Write as _;

const COMPARISONS: &[&str] = &["==", "!=", "<=", ">=", "<", ">"];

/// The one top-level comparison of `text` (outside brackets and quotes),
/// when there is exactly one and no top-level `and`/`or`: (left, op, right).
fn split_comparison(text: &str) -> Option<(&str, &'static str, &str)> {
    let b = text.as_bytes();
    let mut depth = 0i32;
    let mut found = None;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if depth == 0 => {
                // bytes, not `&text[i..]`: `i` may fall inside a character
                let rest = &b[i..];
                let word_start = i == 0 || !b[i - 1].is_ascii_alphanumeric();
                if word_start && (rest.starts_with(b"and ") || rest.starts_with(b"or ")) {
                    return None;
                }
                if let Some(op) = COMPARISONS
                    .iter()
                    .find(|op| rest.starts_with(op.as_bytes()))
                {
                    if found.is_some() {
                        return None;
                    }
                    found = Some((i, *op));
                    i += op.len();
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let (at, op) = found?;
    Some((text[..at].trim(), op, text[at + op.len()..].trim()))
}

/// One side of a comparison: a card name, or an expression.
enum Side {
    Name(String),
    Expr(Probe),
}

fn is_card_name(game: &Game, word: &str) -> bool {
    (0..game.card_count()).any(|c| game.card_name(c) == word)
}

fn side(s: &Session, text: &str) -> Result<Side, String> {
    if is_card_name(&s.game, text) {
        // a card name that is not also a name of the rules (an enum value...)
        if s.game.probe(text, s.players).is_err() {
            return Ok(Side::Name(text.to_string()));
        }
    }
    probe(s, text).map(Side::Expr)
}

/// `text` as an expression of the rules. One that draws at random is
/// refused: a check must not take a number from the game's random stream
/// (that would change the game), and a number not drawn means nothing.
fn probe(s: &Session, text: &str) -> Result<Probe, String> {
    let p = s.game.probe(text, s.players)?;
    if p.expr().draws() {
        return Err(format!(
            "expect cannot draw at random (`{text}`): a draw would change the game; \
             check what the rules drew instead (a variable, a card)"
        ));
    }
    Ok(p)
}

/// Value (as compared) and its rendering.
fn value(s: &Session, side: &Side) -> Result<(Option<i32>, String), String> {
    match side {
        Side::Name(n) => Ok((None, n.clone())),
        Side::Expr(p) => {
            let v = s.shown().eval_probe(&s.game, p)?;
            Ok((Some(v), show(&s.game, s.shown(), p.ty, v)))
        }
    }
}

fn compare(op: &str, a: i32, b: i32) -> bool {
    match op {
        "==" => a == b,
        "!=" => a != b,
        "<" => a < b,
        "<=" => a <= b,
        ">" => a > b,
        _ => a >= b,
    }
}

/// `expect CONDITION`. A condition that cannot be read or evaluated is an
/// error, and counts as a failed expect too.
pub fn cmd_expect(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let r = expect(s, args, out);
    if r.is_err() {
        s.expect_failures += 1;
    }
    r
}

fn expect(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let text = args.join(" ");
    if text.is_empty() {
        return Err("expect takes a condition, for example `expect P1.score == 35`".into());
    }
    let (ok, detail) = match split_comparison(&text) {
        Some((l, op, r)) => {
            let (mut ls, mut rs) = (side(s, l)?, side(s, r)?);
            // against a card, a card name is the card even where the rules
            // also name an enum value so (`top(draw) == horn`)
            let is_card = |x: &Side| matches!(x, Side::Expr(p) if matches!(p.ty, Ty::Card));
            let other_card = |x: &Side, text: &str| {
                matches!(x, Side::Expr(p) if !matches!(p.ty, Ty::Card))
                    && is_card_name(&s.game, text)
            };
            if is_card(&ls) && other_card(&rs, r) {
                rs = Side::Name(r.to_string());
            } else if is_card(&rs) && other_card(&ls, l) {
                ls = Side::Name(l.to_string());
            }
            let ((lv, lt), (rv, rt)) = (value(s, &ls)?, value(s, &rs)?);
            let both_cards = matches!((&ls, &rs), (Side::Expr(a), Side::Expr(b))
                if matches!(a.ty, Ty::Card) && matches!(b.ty, Ty::Card));
            let ok = match (lv, rv) {
                // two cards are equal when they look the same (two red-5s are)
                _ if both_cards && op == "==" => lt == rt,
                _ if both_cards && op == "!=" => lt != rt,
                (Some(a), Some(b)) => compare(op, a, b),
                _ if op == "==" => lt == rt,
                _ if op == "!=" => lt != rt,
                _ => {
                    return Err(format!(
                        "a card name can only be compared with == or != (`{op}`)"
                    ));
                }
            };
            let mut shown = Vec::new();
            if lt != l {
                shown.push(format!("{l} is {lt}"));
            }
            if rt != r {
                shown.push(format!("{r} is {rt}"));
            }
            (ok, shown.join(", "))
        }
        None => {
            let p = probe(s, &text)?;
            if !matches!(p.ty, Ty::Bool) {
                return Err(format!(
                    "expect needs a condition (true or false); `{text}` is not one"
                ));
            }
            let v = s.shown().eval_probe(&s.game, &p)?;
            (v != 0, "it is false".to_string())
        }
    };
    if ok {
        let _ = writeln!(out, "ok: {text}");
    } else {
        s.expect_failures += 1;
        match detail.is_empty() {
            true => {
                let _ = writeln!(out, "expect failed: {text}");
            }
            false => {
                let _ = writeln!(out, "expect failed: {text} ({detail})");
            }
        }
    }
    Ok(Flow::Continue)
}
