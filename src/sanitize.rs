//! Output sanitising: text that comes from files (labels, card names, save
//! files, rules text) may hold control characters that would retitle or
//! clear the user's terminal, and invisible format characters (bidi
//! overrides such as U+202E, zero-width spaces) that make printed text read
//! otherwise than it is. [`is_hidden`] names them all; everything the REPL,
//! `grail serve` and the diagnostics print goes through [`clean`], which
//! shows them escaped (`\u{1b}`, `\u{202e}`); newlines and tabs are kept,
//! and with colour on, the colour sequences grail itself writes
//! (`ESC [ digits ; ... m`) are kept too. Rules files refuse these
//! characters outright (`load`), so labels and names never hold one.

use std::borrow::Cow;

/// Whether `text[i..]` starts a colour (SGR) sequence: `ESC [ 0-9; m`.
fn sgr_len(text: &[u8], i: usize) -> Option<usize> {
    if text.get(i + 1) != Some(&b'[') {
        return None;
    }
    let mut j = i + 2;
    while let Some(&b) = text.get(j) {
        match b {
            b'0'..=b'9' | b';' => j += 1,
            b'm' => return Some(j + 1 - i),
            _ => return None,
        }
    }
    None
}

/// Whether `c` is shown escaped: a control character other than newline,
/// tab and carriage return (carriage return is escaped by [`clean`] but
/// accepted in files, as a line end), or an invisible format character
/// that changes how the text around it reads: the bidi marks, embeddings,
/// overrides and isolates (U+061C, U+200E, U+200F, U+202A to U+202E,
/// U+2066 to U+2069), zero-width space and the invisible operators (U+200B,
/// U+2060 to U+2064), the soft hyphen U+00AD, U+180E, a byte-order mark
/// inside text (U+FEFF), the line and paragraph separators (U+2028,
/// U+2029) and the tag characters (U+E0000 to U+E007F). Zero-width joiner
/// and non-joiner (U+200C, U+200D) and variation selectors are kept: emoji
/// and many scripts need them.
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
        || matches!(
            c,
            '\u{ad}'
                | '\u{61c}'
                | '\u{180e}'
                | '\u{200b}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{feff}'
                | '\u{e0000}'..='\u{e007f}'
        )
}

/// `text` with every control character but newline and tab, and every
/// [`is_hidden`] character, escaped; with `keep_color`, colour sequences
/// are left as they are.
pub fn clean_with(text: &str, keep_color: bool) -> Cow<'_, str> {
    let bad = |c: char| c == '\r' || is_hidden(c);
    if !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 16);
    let mut skip_to = 0;
    for (i, c) in text.char_indices() {
        if i < skip_to {
            continue;
        }
        if c == '\u{1b}'
            && keep_color
            && let Some(n) = sgr_len(bytes, i)
        {
            out.push_str(&text[i..i + n]);
            skip_to = i + n;
            continue;
        }
        if bad(c) {
            // `escape_default` would leave U+202E and the like as they are
            match c {
                '\r' => out.push_str("\\r"),
                _ => {
                    use std::fmt::Write as _;
                    let _ = write!(out, "\\u{{{:x}}}", c as u32);
                }
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` cut to its first `max` characters, with a note of how many were
/// left out, for echoing a piece of a file or a command in an error (a
/// 100 KB line must not come back whole).
pub fn excerpt(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((at, _)) => {
            let more = text[at..].chars().count();
            Cow::Owned(format!("{}... ({more} more characters)", &text[..at]))
        }
    }
}

/// [`clean_with`] without colour: every control character escaped.
pub fn clean(text: &str) -> Cow<'_, str> {
    clean_with(text, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_keeps_lines_and_colour() {
        assert_eq!(clean("a\nb\tc"), "a\nb\tc");
        assert_eq!(clean("x\u{1b}]0;pwned\u{7}y"), "x\\u{1b}]0;pwned\\u{7}y");
        assert_eq!(clean("\u{1b}[2J"), "\\u{1b}[2J");
        assert_eq!(
            clean_with("\u{1b}[1mbold\u{1b}[0m", true),
            "\u{1b}[1mbold\u{1b}[0m"
        );
        assert_eq!(clean_with("\u{1b}[2J", true), "\\u{1b}[2J");
        assert_eq!(clean("bell\u{7}\r"), "bell\\u{7}\\r");
    }

    #[test]
    fn excerpts_are_cut_with_a_note() {
        assert_eq!(excerpt("short", 5), "short");
        assert_eq!(excerpt("abcdef", 3), "abc... (3 more characters)");
        assert_eq!(
            excerpt("\u{e9}\u{e9}\u{e9}", 1),
            "\u{e9}... (2 more characters)"
        );
    }

    #[test]
    fn escapes_invisible_format_characters() {
        assert_eq!(clean("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(
            clean("a\u{2066}b\u{200b}c\u{feff}"),
            "a\\u{2066}b\\u{200b}c\\u{feff}"
        );
        assert_eq!(clean("x\u{e0041}"), "x\\u{e0041}");
        // joiners and variation selectors stay: emoji need them
        let family = "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}\u{fe0f}";
        assert_eq!(clean(family), family);
        assert_eq!(
            clean("caf\u{e9} \u{5e9}\u{5dc}\u{5d5}\u{5dd}"),
            "caf\u{e9} \u{5e9}\u{5dc}\u{5d5}\u{5dd}"
        );
        assert!(!is_hidden('\u{200d}') && !is_hidden('\n') && !is_hidden('\r'));
        assert!(is_hidden('\u{0}') && is_hidden('\u{202a}') && is_hidden('\u{7f}'));
    }
}
