//! The editor support that needs no server: the TextMate grammar knows every
//! keyword of `grammar/rules.pest`, the VS Code extension ships the same
//! grammar, and its JSON files are well formed.

use serde_json::Value;

/// Every word the pest grammar writes as a literal (`"game"`, `"per"`, ...).
fn pest_words() -> Vec<String> {
    let pest = std::fs::read_to_string("grammar/rules.pest").expect("grammar");
    let mut out: Vec<String> = Vec::new();
    for line in pest.lines() {
        let code = line.split("//").next().unwrap_or("");
        for (i, part) in code.split('"').enumerate() {
            let word = i % 2 == 1
                && part.chars().any(|c| c.is_ascii_alphabetic())
                && part.chars().all(|c| c.is_ascii_lowercase() || c == '_');
            if word && !out.iter().any(|w| w == part) {
                out.push(part.to_string());
            }
        }
    }
    out
}

fn matches(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if (k == "match" || k == "begin") && x.is_string() {
                    out.push(x.as_str().unwrap_or("").to_string());
                }
                matches(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| matches(x, out)),
        _ => {}
    }
}

#[test]
fn the_textmate_grammar_has_every_keyword() {
    let text = std::fs::read_to_string("grammar/rules.tmLanguage.json").expect("grammar");
    let json: Value = serde_json::from_str(&text).expect("valid JSON");
    let mut regexes = Vec::new();
    matches(&json, &mut regexes);
    let words = pest_words();
    assert!(words.len() > 80, "only {} words in rules.pest", words.len());
    for w in words {
        let listed = regexes.iter().any(|r| {
            r.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|x| x == w)
        });
        assert!(
            listed,
            "`{w}` of grammar/rules.pest is not in rules.tmLanguage.json"
        );
    }
    // And every reserved word of the lexer too.
    for w in grail::fmt::lex::keywords() {
        assert!(
            text.contains(&format!("|{w}|"))
                || text.contains(&format!("({w}|"))
                || text.contains(&format!("|{w})")),
            "{w}"
        );
    }
}

#[test]
fn the_vscode_extension_ships_the_grammar() {
    let a = std::fs::read_to_string("grammar/rules.tmLanguage.json").expect("grammar");
    let b = std::fs::read_to_string("editors/vscode/syntaxes/rules.tmLanguage.json")
        .expect("the extension's copy");
    assert_eq!(
        a, b,
        "copy grammar/rules.tmLanguage.json to editors/vscode/syntaxes/"
    );
    for f in [
        "editors/vscode/package.json",
        "editors/vscode/language-configuration.json",
    ] {
        let text = std::fs::read_to_string(f).expect(f);
        let _: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
    let js = std::fs::read_to_string("editors/vscode/extension.js").expect("extension.js");
    assert!(js.contains("args: [\"lsp\"]"));
}
