//! Every `rules` example in docs/ parses; declarations are checked for
//! syntax as written, statement fragments inside a phase.

use grail::syntax::parse_file;

const TOP: &[&str] = &[
    "game",
    "option",
    "enum",
    "card",
    "deck",
    "zone",
    "var",
    "phase",
    "turn",
    "reaction",
    "start",
    "winners",
    "evaluate",
    "table",
    "fn",
    "invariant",
    "board",
    "pattern",
    "variant",
];

fn examples(doc: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(usize, String)> = None;
    for (i, line) in doc.lines().enumerate() {
        match &mut cur {
            None if line.trim() == "```rules" => cur = Some((i + 2, String::new())),
            Some(_) if line.trim() == "```" => out.push(cur.take().expect("open block")),
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    out
}

#[test]
fn every_language_example_parses() {
    let doc = std::fs::read_to_string("docs/language.md").expect("docs/language.md");
    let blocks = examples(&doc);
    assert!(
        blocks.len() >= 10,
        "expected the reference to have examples, found {}",
        blocks.len()
    );
    for (line, text) in blocks {
        let first = text.split_whitespace().next().unwrap_or("");
        let source = if TOP.contains(&first) {
            text.clone()
        } else {
            format!("phase doc_example {{\n{text}}}\n")
        };
        let (_, errors) = parse_file(&source);
        assert!(
            errors.is_empty(),
            "docs/language.md example at line {line} does not parse:\n{text}\n{errors:?}"
        );
    }
}

/// The output of `grail graph --format overview` for a rules file, as the
/// command prints it.
fn overview(path: &str, phase: Option<&str>) -> String {
    let game = grail::Game::load(path).expect("compiles");
    let g = game.graph();
    let only = phase.map(|p| vec![grail::graph::phase_named(g, p).expect("a phase")]);
    let line = |s: grail::diag::Span| game.source().line_label(s.start);
    grail::graph::overview(g, only.as_deref(), &line)
}

#[test]
fn the_graph_overview_in_the_language_reference_is_current() {
    let doc = std::fs::read_to_string("docs/language.md").expect("docs/language.md");
    let text = overview("rules/tamoul.rules", None);
    assert!(
        doc.contains(&text),
        "docs/language.md should show this overview of rules/tamoul.rules:\n{text}"
    );
    // One screen: at most 40 lines of at most 100 columns.
    assert!(text.lines().count() <= 40, "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 100), "{text}");
}

#[test]
fn graph_overviews_and_one_phase() {
    for f in ["camelot", "kameloot"] {
        insta::assert_snapshot!(
            format!("overview_{f}"),
            overview(&format!("rules/{f}.rules"), None)
        );
    }
    insta::assert_snapshot!(
        "overview_one_phase",
        overview("rules/tamoul.rules", Some("play"))
    );
    let game = grail::Game::load("rules/tamoul.rules").expect("compiles");
    let g = game.graph();
    let only = [grail::graph::phase_named(g, "refill").expect("refill")];
    let line = |s: grail::diag::Span| game.source().line_label(s.start);
    let dot = grail::graph::to_dot(g, Some(&only), &line);
    // Only refill's cluster, each node with its source line; the phase it
    // leaves is not drawn.
    assert_eq!(dot.matches("subgraph").count(), 1, "{dot}");
    insta::assert_snapshot!("dot_refill", dot);
    let ron = grail::graph::to_ron(g, Some(&only));
    assert!(ron.contains("name: \"refill\""), "{ron}");
}
