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
