//! `if` chains read as jump tables: an `if` / `else if` chain whose every
//! test is an equality of one operand (a local, or an attribute of the
//! card in a local) with a constant, or an `or` of such equalities,
//! goes straight to its arm through a
//! table indexed by the operand's value, instead of trying the tests in
//! order. Built by `compile::cond` from its compiled arms.

use super::compile::{Cx, Val};
use super::cond::Test;
use super::operand::Arg;

/// The operand of an [`Test::eq_keys`] test: it cannot change during an
/// evaluation and draws nothing, and an attribute of no card faults with
/// the same fault at each read (the first stays) and reads 0.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    /// A local.
    Local(usize),
    /// An attribute of the card in a local: (attributes per card,
    /// attribute, local).
    Attr(usize, usize, usize),
}

impl Key {
    #[inline(always)]
    pub fn read(self, cx: &mut Cx<'_>) -> i32 {
        match self {
            Key::Local(s) => cx.locals[s],
            Key::Attr(na, a, s) => {
                let k = cx.locals[s];
                super::operand::attr(cx, k, na, a)
            }
        }
    }
}

/// Most constants a jump table of an `if` chain spans.
const SWITCH_SPAN: i64 = 64;

/// The arms of an `if` chain (test and value) and its last `else`.
pub(crate) type Arms = (Vec<(Test, Arg)>, Arg);

/// An `if` chain whose every test is an equality of one operand (a local,
/// or an attribute of the card in a local) with a constant, or an `or`
/// chain of such equalities (`Test::eq_keys`), read as a jump table from
/// the operand's value to the arm: the first arm one of whose constants
/// it is (the one the chain would take), else the last `else`. The
/// operand is read once; the chain read it at each test with the same
/// value and, for an attribute of no card, the same fault (the first
/// stays) and 0. The arms back when the chain is not of this shape or its
/// constants span too much.
pub(crate) fn switch(arms: Vec<(Test, Arg)>, other: Arg) -> Result<Val, Arms> {
    if arms.len() >= usize::from(u8::MAX) {
        return Err((arms, other));
    }
    let mut keys: Vec<Vec<i32>> = Vec::with_capacity(arms.len());
    let mut key = None;
    for (t, _) in &arms {
        match t.eq_keys(SWITCH_SPAN as u32) {
            Some((k, ks)) if key.is_none_or(|first| first == k) => {
                key = Some(k);
                keys.push(ks)
            }
            _ => return Err((arms, other)),
        }
    }
    let lo = keys.iter().flatten().copied().min().unwrap_or(0);
    let hi = keys.iter().flatten().copied().max().unwrap_or(0);
    if i64::from(hi) - i64::from(lo) >= SWITCH_SPAN {
        return Err((arms, other));
    }
    let Some(key) = key else {
        return Err((arms, other)); // no arm: nothing to jump to
    };
    // the arm of each constant, the first one winning; the `else` past them
    let n = arms.len();
    let mut arm_of = vec![n as u8; (hi - lo) as usize + 1];
    for (i, ks) in keys.iter().enumerate().rev() {
        for k in ks {
            arm_of[(k - lo) as usize] = i as u8;
        }
    }
    let mut values: Vec<Arg> = arms.into_iter().map(|(_, a)| a).collect();
    values.push(other);
    let arm = move |cx: &mut Cx<'_>| {
        let i = key.read(cx).wrapping_sub(lo) as u32 as usize;
        arm_of.get(i).map_or(n, |a| *a as usize)
    };
    let konsts: Option<Box<[i32]>> = values
        .iter()
        .map(|v| match v {
            Arg::K(k) => Some(*k),
            _ => None,
        })
        .collect();
    match konsts {
        Some(ks) => Ok(Box::new(move |cx| ks[arm(cx)])),
        None => {
            let values = values.into_boxed_slice();
            Ok(Box::new(move |cx| values[arm(cx)].get(cx)))
        }
    }
}
