//! Tests of the operands and conditions read in place (`operand.rs`, `cond.rs`): the
//! fused shapes, comparisons as bands and filters that skip empty cells
//! give the values and faults of the expression tree.

use crate::engine::{EngineError, Fault, Game, State};

/// A game whose only decision has one arm per guard given.
fn game(fns: &str, arms: &str) -> Game {
    let src = format!(
        "game \"G\" {{ players 2..2 }}\n\
         enum E {{ a, b, c }}\n\
         table t: E -> int {{ a: 1, b: 2, c: 3 }}\n\
         card C {{ v: int }}\n\
         deck cs of C size 3 in pile {{ 1 x {{ v: 1..3 }} }}\n\
         zone pile: shared pile public\n\
         zone out: shared pile public\n\
         {fns}\n\
         start {{ choose seat(0) {{ {arms} }} end game }}\n\
         winners highest 0\n"
    );
    Game::from_source("g", &src).expect("compiles")
}

const FNS: &str = "fn holds(z: zone, k: int) -> bool = count(z) == k and top(z).v >= 1 and top(z).v <= 3\n\
                   fn pick(e: E) -> int = if e == a then t[e] else if e == b then 10 * t[e] else -t[e]\n\
                   fn size(z: zone) -> int = count(z)";

/// The operands and tests read in place give the values their
/// closures gave: counts, tops and their attributes, table reads,
/// else-if chains, `and`/`or`/`not` chains and filters.
#[test]
fn fused_shapes_give_the_tree_values() {
    let g = game(
        FNS,
        "\"one\" when holds(pile, 3) and pick(a) == 1 and pick(b) == 20 and pick(c) == -3 { }\n\
         \"two\" when holds(pile, 2) or not (size(out) == 0) { }\n\
         \"three\" when not holds(pile, 2) and count(c in pile where c.v >= 2 and c.v != 9) == 2 { }\n\
         \"four\" when any(c in pile where c.v == 9 or c.v < 1) { }",
    );
    assert_eq!(legal(&g), ["one", "three"]);
}

/// The legal arms' labels of a game whose only decision has these.
fn legal(g: &Game) -> Vec<String> {
    let s = State::new(g, 2, 1, &g.default_options()).expect("starts");
    s.legal_actions(g)
        .into_iter()
        .map(|a| s.label(g, a))
        .collect()
}

/// Comparisons with a constant, read as bands, at and around their
/// bounds (and past the integers' ends), of attributes, locals and
/// counts; a filter that needs cards skips empty cells and counts as
/// the tree does.
#[test]
fn bands_hold_where_comparisons_hold() {
    let arms = [
        ("lt", "count(c in pile where c.v < 2) == 1", true),
        ("le", "count(c in pile where c.v <= 2) == 2", true),
        ("gt", "count(c in pile where c.v > 2) == 1", true),
        ("ge", "count(c in pile where c.v >= 2) == 2", true),
        ("eq", "count(c in pile where c.v == 2) == 1", true),
        (
            "ne",
            "count(c in pile where c.v != 2 and c.v != 9) == 2",
            true,
        ),
        ("top", "any(c in pile where c.v > 2147483647)", false),
        (
            "low",
            "count(c in pile where c.v >= -2147483647) == 3",
            true,
        ),
        (
            "local",
            "count(k in 1..5 where k != 3 and k < 5) == 3",
            true,
        ),
    ];
    let board = [
        ("full", "count(u in whole where count(u) > 0) == 1", true),
        (
            "ray",
            "count(u in ray(cell(0, 0), 1, 0, 5) where count(u) > 0) == 1",
            true,
        ),
        (
            "cards",
            "any(u in whole where count(u) > 0 and top(u).v >= 1)",
            true,
        ),
        ("empty", "count(u in whole where count(u) == 0) == 3", true),
        (
            "never",
            "any(u in whole where count(u) >= 1 and count(u) < 1)",
            false,
        ),
    ];
    let src = |rows: &[(&str, &str, bool)]| -> String {
        let all: Vec<String> = rows
            .iter()
            .map(|(l, guard, _)| format!("\"{l}\" when {guard} {{ }}"))
            .collect();
        all.join("\n")
    };
    let want = |rows: &[(&str, &str, bool)]| -> Vec<String> {
        rows.iter()
            .filter(|a| a.2)
            .map(|a| a.0.to_string())
            .collect()
    };
    assert_eq!(legal(&game("", &src(&arms))), want(&arms));
    let text = format!(
        "game \"G\" {{ players 2..2 }}\n\
         card C {{ v: int }}\n\
         deck cs of C size 3 in pile {{ 1 x {{ v: 1..3 }} }}\n\
         zone pile: shared pile public\n\
         board b {{\n  grid 4 x 1\n  region whole = a1..d1\n}}\n\
         start {{ move top(pile) to cell(2, 0) choose seat(0) {{ {} }} end game }}\n\
         winners highest 0\n",
        src(&board)
    );
    let g = Game::from_source("b", &text).expect("compiles");
    assert_eq!(legal(&g), want(&board));
}

/// A fused read faults as its closure did: the top of an empty zone is
/// no card, `count` of no zone is no zone.
#[test]
fn fused_shapes_fault_as_the_tree_did() {
    for (guard, want) in [
        ("holds(out, 0)", Fault::NoCard),
        ("size(none) == 0", Fault::NoZone),
        ("count(out) == 0 and top(out).v > 0", Fault::NoCard),
    ] {
        let g = game(FNS, &format!("\"x\" when {guard} {{ }}"));
        match State::new(&g, 2, 1, &g.default_options()) {
            Err(EngineError::Fault { fault, .. }) => assert_eq!(fault, want, "{guard}"),
            Err(other) => panic!("{guard}: expected {want:?}, got {other:?}"),
            Ok(_) => panic!("{guard}: expected {want:?}, got no fault"),
        }
    }
}

/// Small functions read in place (`inline.rs`) give the values and faults
/// of their expansions: arguments that are locals, constants and `none`,
/// a function of a function, a parameter read twice, one never read, and
/// a body that faults on its argument.
#[test]
fn inlined_functions_give_the_expansions_values() {
    let fns = "fn big(k: int) -> bool = k >= 2 and k <= 3\n\
               fn both(k: int, j: int) -> bool = big(k) and not big(j)\n\
               fn unused(k: int, j: int) -> int = k * 2\n\
               fn is_none(c: card) -> bool = c == none\n\
               fn v_of(c: card) -> int = c.v";
    let g = game(
        fns,
        "\"one\" when count(c in pile where big(c.v)) == 2 { }\n\
         \"two\" when count(k in 0..5 where both(k, 1)) == 2 and unused(3, 9) == 6 { }\n\
         \"three\" when is_none(none) and not is_none(top(pile)) { }\n\
         \"four\" when any(k in 1..3 where both(k, k)) { }",
    );
    assert_eq!(legal(&g), ["one", "two", "three"]);
    let g = game(fns, "\"x\" when v_of(none) > 0 { }");
    match State::new(&g, 2, 1, &g.default_options()) {
        Err(EngineError::Fault { fault, .. }) => assert_eq!(fault, Fault::NoCard),
        Err(other) => panic!("expected NoCard, got {other:?}"),
        Ok(_) => panic!("expected NoCard, got no fault"),
    }
}

/// Chains walked into their parent chain (`operand.rs` `parts`): a small
/// function's chain and a negated chain of the other operator
/// (`not (a or b)`) give the tree's values, every comparison negated in
/// place holds where its `not` held, and a negated part faults where the
/// tree faulted (and not past a short-circuit).
#[test]
fn flattened_chains_give_the_tree_values() {
    let fns = "fn both(z: zone) -> bool = count(z) == 3 and top(z).v >= 1\n\
               fn either(z: zone) -> bool = count(z) == 0 or top(z).v == 9";
    let g = game(
        fns,
        "\"a\" when not either(pile) and both(pile) and not (count(out) != 0) { }\n\
         \"b\" when not both(pile) or either(out) { }\n\
         \"c\" when not (either(pile) or not both(pile)) { }\n\
         \"d\" when not (count(pile) < 3) and not (count(pile) > 3) and not (count(pile) <= 2)\n\
              and not (count(pile) >= 4) and not (count(pile) == 2) and not (top(pile).v != top(pile).v) { }\n\
         \"e\" when not (count(pile) == 3) or not (count(pile) >= 3) { }\n\
         \"f\" when not both(pile) { }\n\
         \"g\" when not either(out) or count(pile) == 3 { }",
    );
    assert_eq!(legal(&g), ["a", "b", "c", "d", "g"]);
    for (guard, want) in [
        ("not either(out) and count(pile) == 3", None),
        (
            "not (count(out) == 1 or top(out).v == 1)",
            Some(Fault::NoCard),
        ),
        ("count(pile) == 3 and not either(none)", Some(Fault::NoZone)),
    ] {
        let g = game(fns, &format!("\"x\" when {guard} {{ }}"));
        match (State::new(&g, 2, 1, &g.default_options()), want) {
            (Err(EngineError::Fault { fault, .. }), Some(want)) => {
                assert_eq!(fault, want, "{guard}")
            }
            (Ok(_), None) => {}
            (Err(other), _) => panic!("{guard}: expected {want:?}, got {other:?}"),
            (Ok(_), Some(want)) => panic!("{guard}: expected {want:?}, got no fault"),
        }
    }
}

/// An `if` chain of equalities of one operand with constants, read as a
/// jump table (`compile.rs` `switch`): the first arm of a repeated
/// constant wins, a value outside the constants and a negative one take
/// the `else`, arm values that are not constants are read, and an
/// attribute of no card faults as the chain did (ranges are inclusive).
#[test]
fn switches_take_the_chains_arm() {
    let fns = "fn pick(k: int) -> int = if k == 1 then 10 else if k == 3 then 30 else if k == 1 then 99 else if k == -2 then -20 else 7\n\
               fn read(k: int, j: int) -> int = if k == 0 then j else if k == 2 then j * 2 else j + 100\n\
               fn kind(c: card) -> int = if c.v == 1 then 1 else if c.v == 2 then 4 else 9";
    let g = game(
        fns,
        "\"a\" when count(k in -99..99 where pick(k) == 7) == 196 and sum(pick(k) for k in -2..3) == 41 { }\n\
         \"b\" when count(k in 0..4 where read(k, 5) == 10) == 1 and sum(read(k, 5) for k in 0..4) == 5 + 105 + 10 + 105 + 105 { }\n\
         \"c\" when sum(kind(c) for c in pile) == 14 { }\n\
         \"d\" when any(k in 1..1 where pick(k) == 99) { }",
    );
    assert_eq!(legal(&g), ["a", "b", "c"]);
    let g = game(fns, "\"x\" when kind(none) == 9 { }");
    match State::new(&g, 2, 1, &g.default_options()) {
        Err(EngineError::Fault { fault, .. }) => assert_eq!(fault, Fault::NoCard),
        Err(other) => panic!("expected NoCard, got {other:?}"),
        Ok(_) => panic!("expected NoCard, got no fault"),
    }
}

/// Conditions compiled as jump code (`jump.rs`): an `or` inside an `and`
/// and the reverse, a negated nested chain, an `if` as a condition and in
/// a filter, and the expansion of a `fn` whose argument is no local (its
/// binding a step) give the tree's values; a fault is reported where the
/// tree reached it, and not past a short-circuit or an `if`'s other arm.
#[test]
fn jump_code_gives_the_tree_values() {
    let fns = "fn over(k: int, z: zone) -> bool = count(z) > k or (k > 5 and count(z) == 3)";
    let g = game(
        fns,
        "\"a\" when (count(pile) == 3 or count(out) == 1) and (top(pile).v == 9 or count(out) == 0) { }\n\
         \"b\" when (count(pile) == 2 and top(pile).v > 0) or (count(out) == 0 and not (count(pile) == 3 or top(out).v == 1)) { }\n\
         \"c\" when if count(out) > 0 then top(out).v == 1 else count(pile) == 3 { }\n\
         \"d\" when over(sum(c.v for c in pile), pile) and not over(sum(c.v for c in pile) - 3, out) { }\n\
         \"e\" when count(c in pile where if c.v == 2 then false else (c.v == 1 or c.v == 3) and count(out) == 0) == 2 { }\n\
         \"f\" when not ((count(pile) == 3 and count(out) == 0) or top(out).v == 1) { }\n\
         \"g\" when (count(pile) == 2 and top(out).v == 1) or count(pile) == 3 { }",
    );
    assert_eq!(legal(&g), ["a", "c", "d", "e", "g"]);
    for (guard, want) in [
        (
            "(count(pile) == 3 and count(out) == 0) and (top(out).v == 1 or count(pile) == 3)",
            Fault::NoCard,
        ),
        ("over(top(out).v, pile) or count(pile) == 3", Fault::NoCard),
        (
            "if count(out) == 0 then top(out).v == 1 or count(pile) == 3 else count(pile) == 3",
            Fault::NoCard,
        ),
        (
            "(count(pile) == 0 or over(1, none)) and count(out) == 0",
            Fault::NoZone,
        ),
    ] {
        let g = game(fns, &format!("\"x\" when {guard} {{ }}"));
        match State::new(&g, 2, 1, &g.default_options()) {
            Err(EngineError::Fault { fault, .. }) => assert_eq!(fault, want, "{guard}"),
            Err(other) => panic!("{guard}: expected {want:?}, got {other:?}"),
            Ok(_) => panic!("{guard}: expected {want:?}, got no fault"),
        }
    }
}

/// An `any` with a filter inside a condition: as a lone test, in chains,
/// negated, nested in another's filter and inside jump code, with each
/// shape of filter (one atom, `and`, `or`, jump code), gives the tree's
/// values; a fault inside its filter is reported, and none past a
/// short-circuit.
#[test]
fn any_in_conditions_gives_the_tree_values() {
    let g = game(
        "",
        "\"a\" when any(c in pile where c.v == 2) and not any(c in out where c.v >= 0) { }\n\
         \"b\" when any(c in pile where c.v > 1 and c.v < 3 and c.v != 9) { }\n\
         \"c\" when any(c in pile where c.v == 9 or c.v == 3) { }\n\
         \"d\" when any(c in pile where (c.v == 1 or c.v == 9) and (c.v == 9 or count(out) == 0)) { }\n\
         \"e\" when (count(out) == 1 or any(k in 1..3 where any(c in pile where c.v == k + 2))) and count(pile) == 3 { }\n\
         \"f\" when any(c in pile where c.v > 3) or not any(k in 1..3 where k == 2) { }\n\
         \"h\" when any(c in pile where c.v >= 1 or top(out).v == 1) or top(out).v == 1 { }\n\
         \"i\" when count(out) == 1 and any(c in out where top(out).v == 1) { }",
    );
    assert_eq!(legal(&g), ["a", "b", "c", "d", "e", "h"]);
    for guard in [
        "any(c in pile where top(out).v == c.v) or count(pile) == 3",
        "count(pile) == 3 and not any(c in pile where c.v == 1 and top(out).v == 1)",
    ] {
        let g = game("", &format!("\"x\" when {guard} {{ }}"));
        match State::new(&g, 2, 1, &g.default_options()) {
            Err(EngineError::Fault { fault, .. }) => assert_eq!(fault, Fault::NoCard, "{guard}"),
            Err(other) => panic!("{guard}: expected NoCard, got {other:?}"),
            Ok(_) => panic!("{guard}: expected NoCard, got no fault"),
        }
    }
}

/// An `if` chain whose arms test an `or` of equalities of one operand is
/// read as a jump table (`switch.rs`): several constants to one arm, the
/// first arm of a repeated constant winning, the `else` for the others,
/// in a value and inside a condition, the same values as the same chain
/// with a test that is no jump table's; an attribute of no card faults
/// as the chain did.
#[test]
fn switches_take_the_arm_of_an_or() {
    let fns = "fn arm(k: int) -> int = if k == 1 or k == 4 then 10 else if k == 2 or k == 1 or k == 3 then 20 else if k == 5 then 50 else 7\n\
               fn slow(k: int) -> int = if k == 1 or 4 == k then 10 else if k == 2 or 1 == k or k == 3 then 20 else if 5 == k then 50 else 7\n\
               fn kind(c: card) -> int = if c.v == 1 or c.v == 3 then 1 else if c.v == 9 then 9 else 5";
    let g = game(
        fns,
        "\"a\" when sum(arm(k) for k in -1..6) == 131 and count(k in -1..6 where arm(k) == slow(k)) == 8 { }\n\
         \"b\" when count(k in -1..6 where arm(k) == 7) == 3 and count(k in -1..6 where arm(k) == 20) == 2 { }\n\
         \"c\" when sum(kind(c) for c in pile) == 7 { }\n\
         \"d\" when any(k in -1..6 where arm(k) == 99) { }",
    );
    assert_eq!(legal(&g), ["a", "b", "c"]);
    let g = game(fns, "\"x\" when kind(none) == 5 { }");
    match State::new(&g, 2, 1, &g.default_options()) {
        Err(EngineError::Fault { fault, .. }) => assert_eq!(fault, Fault::NoCard),
        Err(other) => panic!("expected NoCard, got {other:?}"),
        Ok(_) => panic!("expected NoCard, got no fault"),
    }
}
