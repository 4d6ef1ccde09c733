//! Output sanitising: text that comes from files (labels, card names, save
//! files, rules text) may hold control characters that would retitle or
//! clear the user's terminal. Everything the REPL prints goes through
//! [`clean`]: control characters are shown escaped (`\u{1b}`), newlines and
//! tabs are kept, and with colour on, the colour sequences grail itself
//! writes (`ESC [ digits ; ... m`) are kept too.

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

/// `text` with every control character but newline and tab escaped; with
/// `keep_color`, colour sequences are left as they are.
pub fn clean_with(text: &str, keep_color: bool) -> Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
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
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
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
}
