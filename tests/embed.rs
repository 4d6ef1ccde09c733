//! `examples/embed.rs`, the embedding example of docs/embedding.md, plays
//! a game to its winners (its code is included here and run in-process;
//! `cargo test` also builds it as an example).

#[allow(dead_code)]
#[path = "../examples/embed.rs"]
mod embed;

#[test]
fn the_embedding_example_plays_a_game_to_its_winners() {
    for (rules, players) in [("rules/tamoul.rules", 3), ("rules/camelot.rules", 4)] {
        let text = embed::play(rules, Some(players), 7).unwrap_or_else(|e| panic!("{rules}: {e}"));
        let last = text.lines().last().unwrap_or("");
        assert!(
            last.contains(" over after ") && last.contains("winners: P"),
            "{rules}: {text}"
        );
        assert!(
            text.lines().count() > 1,
            "the first moves are shown: {text}"
        );
    }
}

#[test]
fn a_broken_rules_file_is_refused_with_its_diagnostics() {
    let e = embed::play("tests/no/such.rules", None, 1).expect_err("no such file");
    assert!(e.contains("cannot read"), "{e}");
}
