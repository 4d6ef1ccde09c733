//! The words of the language as the syntax errors know them: which start a
//! statement, which are operators or start an expression, what designers
//! write instead of a statement, and how each construct is written (the
//! help line of a syntax error). Unit tests keep the lists in step with
//! `grammar/rules.pest`.

/// How each construct is written, by its first word: the help line of a
/// syntax error on a line that starts with that word.
pub(crate) const FORMS: &[(&str, &str)] = &[
    ("game", "`game \"Name\" { players 2..4 seating clockwise }`"),
    (
        "option",
        "`option NAME = DEFAULT in MIN..MAX \"what it changes\"`",
    ),
    ("enum", "`enum NAME { first, second, third }`"),
    ("table", "`table NAME: ENUM -> int { first: 1, second: 2 }`"),
    ("fn", "`fn NAME(x: TYPE) -> TYPE = EXPRESSION`"),
    ("variant", "`variant \"NAME\" extends \"BASE\"`"),
    (
        "invariant",
        "`invariant \"what must always hold\": CONDITION`",
    ),
    (
        "board",
        "`board NAME { grid 8 x 8 }`, with `remove`, `merge` or `region NAME =` and cells such as `a1..a8`",
    ),
    (
        "pattern",
        "`pattern NAME: step (0, 1) (1, 0)`, the modes being `step`, `slide` and `leap`",
    ),
    (
        "card",
        "`card NAME { attribute: TYPE  name \"{attribute}\" }`",
    ),
    (
        "deck",
        "`deck NAME of KIND size N in ZONE { 2 x { attribute: 1..9 } }`",
    ),
    (
        "zone",
        "`zone NAME: shared|per player pile|row|set public|owner|hidden|top`",
    ),
    (
        "var",
        "`var NAME: TYPE per player = VALUE` (`per player` and `= VALUE` are optional)",
    ),
    (
        "phase",
        "`phase NAME(p: player) { ... }` (the parameters are optional)",
    ),
    ("turn", "`turn NAME(p: player) { ... }`"),
    ("reaction", "`reaction NAME(c: card) on enter ZONE { ... }`"),
    ("start", "`start { ... }`"),
    (
        "winners",
        "`winners highest EXPRESSION` or `winners lowest EXPRESSION`",
    ),
    (
        "evaluate",
        "`evaluate EXPRESSION` (a number for each player `p`)",
    ),
    ("let", "`let NAME = EXPRESSION`"),
    ("if", "`if CONDITION { ... } else { ... }`"),
    (
        "else",
        "`if CONDITION { ... } else { ... }` or `else if CONDITION { ... }`",
    ),
    ("loop", "`loop { ... }`"),
    ("while", "`while CONDITION { ... }`"),
    (
        "for",
        "`for x in COLLECTION where CONDITION { ... }` (`where` is optional)",
    ),
    (
        "choose",
        "`choose PLAYER { \"label\" { ... } otherwise { ... } }`",
    ),
    (
        "window",
        "`window q from PLAYER where CONDITION { \"label\" { ... } }`",
    ),
    (
        "move",
        "`move CARD to ZONE`, `move CARD to ZONE at bottom` or `move all ZONE to ZONE`",
    ),
    ("deal", "`deal COUNT from ZONE to ZONE`"),
    ("shuffle", "`shuffle ZONE`"),
    ("swap", "`swap CARD with CARD`"),
    ("peek", "`peek PLAYER at CARD`"),
    ("reveal", "`reveal CARD`"),
    ("end", "`end game`"),
    ("leave", "`leave PHASE`"),
    ("return", "`return`, alone: it leaves the current phase"),
    ("break", "`break`, alone: it leaves the innermost loop"),
    ("checkpoint", "`checkpoint`, alone"),
    ("rollback", "`rollback`, alone"),
    ("match", "`match VALUE { A | B => { ... } _ => { ... } }`"),
    (
        "otherwise",
        "`otherwise { ... }`, the last thing in a `choose`",
    ),
    (
        "\"",
        "`\"label\" for x in COLLECTION when CONDITION { ... }` (`for` and `when` are optional)",
    ),
];

/// Words of card-game prose that designers write for a statement, and what
/// to write instead.
pub(crate) const SYNONYMS: &[(&str, &str)] = &[
    (
        "draw",
        "to draw, write `move top(PILE) to ZONE` or `deal COUNT from PILE to ZONE`",
    ),
    ("put", "to put a card somewhere, write `move CARD to ZONE`"),
    ("place", "to place a card, write `move CARD to ZONE`"),
    ("take", "to take a card, write `move CARD to ZONE`"),
    ("discard", "to discard, write `move CARD to DISCARD_PILE`"),
    (
        "give",
        "to give cards, write `deal COUNT from ZONE to ZONE` or `move CARD to ZONE`",
    ),
    ("look", "to look at a card, write `peek PLAYER at CARD`"),
    ("show", "to show a card to everyone, write `reveal CARD`"),
    ("flip", "to turn a card face up, write `reveal CARD`"),
    (
        "exchange",
        "to exchange two cards, write `swap CARD with CARD`",
    ),
    (
        "stop",
        "to stop the game, write `end game`; to leave a loop, `break`",
    ),
];

/// Words that start a statement.
pub(crate) const STMT_WORDS: &[&str] = &[
    "let",
    "if",
    "loop",
    "while",
    "for",
    "choose",
    "window",
    "move",
    "deal",
    "shuffle",
    "swap",
    "peek",
    "reveal",
    "end",
    "leave",
    "return",
    "break",
    "checkpoint",
    "rollback",
    "match",
];

/// Words that cannot name anything: the grammar's `keyword` rule. The
/// declaration words are not among them (`zone deck: ...` is fine).
pub(crate) const RESERVED: &[&str] = &[
    "let",
    "if",
    "else",
    "loop",
    "while",
    "for",
    "in",
    "where",
    "when",
    "choose",
    "window",
    "otherwise",
    "move",
    "all",
    "to",
    "deal",
    "from",
    "shuffle",
    "swap",
    "with",
    "peek",
    "at",
    "reveal",
    "end",
    "leave",
    "return",
    "break",
    "checkpoint",
    "rollback",
    "then",
    "and",
    "or",
    "not",
    "true",
    "false",
    "none",
];

pub(crate) const OPERATORS: &[&str] = &[
    "or", "and", "in", "==", "!=", "<=", ">=", "<", ">", "..", "+", "-", "*", "/", "%",
];
pub(crate) const EXPR_STARTS: &[&str] = &[
    "(", "not", "true", "false", "none", "sum", "min", "max", "count", "any", "all", "first",
];

#[cfg(test)]
mod tests {
    use super::super::ITEM_WORDS;
    use super::{FORMS, RESERVED, STMT_WORDS};

    const GRAMMAR: &str = include_str!("../../../grammar/rules.pest");

    /// The first literal word of each alternative of a `name = _{ a | b }` rule.
    fn first_words(rule: &str) -> Vec<(String, Option<String>)> {
        let body = GRAMMAR
            .split(&format!("\n{rule} = _{{"))
            .nth(1)
            .and_then(|r| r.split('}').next())
            .expect("rule in the grammar");
        body.split('|')
            .map(str::trim)
            .map(|alt| {
                let def = GRAMMAR
                    .lines()
                    .find(|l| l.starts_with(alt) && l[alt.len()..].trim_start().starts_with('='))
                    .expect("alternative defined");
                let rhs = def.split_once('=').map_or("", |x| x.1).trim_start();
                let rhs = rhs.trim_start_matches(['{', ' ', '@', '$', '_']);
                let word = rhs
                    .strip_prefix('"')
                    .and_then(|r| r.split('"').next())
                    .map(str::to_string);
                (alt.to_string(), word)
            })
            .collect()
    }

    /// The reserved words are exactly the grammar's `keyword` rule.
    #[test]
    fn reserved_words_follow_the_grammar() {
        let body = GRAMMAR
            .split("\nkeyword = @{")
            .nth(1)
            .and_then(|r| r.split("~ !ident_char").next())
            .expect("keyword rule");
        let words: Vec<&str> = body.split('"').skip(1).step_by(2).collect();
        assert_eq!(words, RESERVED, "keep RESERVED in step with `keyword`");
    }

    /// Recovery cuts files at declaration keywords: it must know them all.
    #[test]
    fn item_words_follow_the_grammar() {
        for (rule, word) in first_words("item") {
            let word = word.unwrap_or_else(|| panic!("`{rule}` does not start with a keyword"));
            assert!(
                ITEM_WORDS.contains(&word.as_str()),
                "add `{word}` ({rule}) to ITEM_WORDS"
            );
        }
    }

    /// "expected a statement" groups the statement keywords: keep them listed.
    #[test]
    fn stmt_words_follow_the_grammar() {
        for (rule, word) in first_words("stmt") {
            if let Some(word) = word {
                assert!(
                    STMT_WORDS.contains(&word.as_str()),
                    "add `{word}` ({rule}) to STMT_WORDS"
                );
            }
        }
    }

    /// Every declaration and statement keyword has its form for help lines.
    #[test]
    fn every_keyword_has_a_form() {
        for w in ITEM_WORDS.iter().chain(STMT_WORDS) {
            assert!(
                FORMS.iter().any(|(f, _)| f == w),
                "add the form of `{w}` to FORMS"
            );
        }
    }
}
