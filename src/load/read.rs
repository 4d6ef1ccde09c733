//! Reading a rules file: bytes to text (at most [`MAX_RULES_FILE`] bytes;
//! lone carriage returns read as newlines, other control characters and
//! invisible format characters refused; invalid UTF-8 is a diagnostic with
//! its line and column, a byte-order mark is dropped), and a variant
//! (`variant "NAME" extends "BASE"`) joined after its bases, with
//! `Source::base_len` marking the seam. Circles and chains deeper than
//! [`MAX_VARIANT_DEPTH`] are refused with a diagnostic.

use crate::diag::code;
use crate::diag::{Diagnostic, Diagnostics, Source};
use std::path::{Path, PathBuf};

/// Read a rules file. A variant (`variant "NAME" extends "BASE"`) is read
/// after its base (found relative to the variant), so that its declarations
/// replace the base's; diagnostics then show the combined text.
pub fn read_rules(path: &Path) -> Result<Source, Diagnostics> {
    let name = path.display().to_string();
    match read_text(path) {
        Ok(text) => with_base(path, text, 0),
        Err(Err(d)) => Err(d),
        Err(Ok(e)) => {
            let mut d = Diagnostics::new(Source::new(name.clone(), ""));
            d.push(
                Diagnostic::error(code::UNREADABLE, format!("cannot read `{name}`: {e}"))
                    .help("check the path; rules files live in rules/ and examples/"),
            );
            Err(d)
        }
    }
}

/// A variant's base must be a regular file: a base named `/dev/stdin`, a
/// pipe or a terminal would read what feeds grail (a script, an editor's
/// messages) or wait for ever, and a device such as `/dev/zero` never ends.
pub fn regular_file(path: &Path) -> std::io::Result<()> {
    let meta = std::fs::metadata(path)?;
    if meta.is_file() {
        Ok(())
    } else if meta.is_dir() {
        Err(std::io::Error::other("it is a folder, not a file"))
    } else {
        Err(std::io::Error::other(
            "it is not a regular file (a device, a pipe or a socket)",
        ))
    }
}

/// The text of a variant's base, for the tools that read it themselves (the
/// language server): a regular file of at most [`MAX_RULES_FILE`] bytes.
pub fn read_base_text(path: &Path) -> std::io::Result<String> {
    regular_file(path)?;
    read_small_text(path)
}

/// How many variants may extend each other (a variant of a variant ...).
pub const MAX_VARIANT_DEPTH: usize = 8;

/// [`read_at_most`] [`MAX_RULES_FILE`] bytes as UTF-8 text (for the tools
/// that only glance at a rules or options file; [`read_rules`] reads it for
/// real, with diagnostics).
pub fn read_small_text(path: &Path) -> std::io::Result<String> {
    let bytes = read_at_most(path, MAX_RULES_FILE)?;
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// The largest rules file read (the four games together are under 100 KB);
/// more is refused, so that `grail check /dev/zero` cannot take all memory.
pub const MAX_RULES_FILE: u64 = 16 << 20;

/// Read at most `max` bytes of a file; a longer one (or an endless one such
/// as `/dev/zero`) is an error saying so, after reading `max + 1` bytes.
pub fn read_at_most(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(max + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::other(format!(
            "the file is larger than {} MiB",
            max >> 20
        )));
    }
    Ok(bytes)
}

/// Read a rules file as text: invalid UTF-8 is reported with its line and
/// byte offset, and a leading byte-order mark is dropped; see [`plain_text`]
/// for line endings and control characters.
fn read_text(path: &Path) -> Result<String, Result<std::io::Error, Diagnostics>> {
    let bytes = read_at_most(path, MAX_RULES_FILE).map_err(Ok)?;
    match String::from_utf8(bytes) {
        Ok(text) => {
            let text = match text.strip_prefix('\u{feff}') {
                Some(rest) => rest.to_string(),
                None => text,
            };
            plain_text(path, text).map_err(Err)
        }
        Err(e) => {
            let bytes = e.as_bytes();
            let at = e.utf8_error().valid_up_to();
            let what = |line, col| {
                format!(
                    "is not UTF-8 text: byte {at} (line {line}, column {col}) is 0x{:02x}",
                    bytes[at]
                )
            };
            Err(Err(refuse_at(
                path,
                bytes,
                at,
                what,
                "rules files are UTF-8 text; save the file as UTF-8 in your editor",
            )))
        }
    }
}

/// The `UNREADABLE` diagnostic for a file refused at byte `at` of `bytes`:
/// `what(line, column)` follows the file's name (both 1-based; the column
/// counts characters).
fn refuse_at(
    path: &Path,
    bytes: &[u8],
    at: usize,
    what: impl FnOnce(usize, usize) -> String,
    help: &str,
) -> Diagnostics {
    let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
    let start = bytes[..at]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    // `bytes[..at]` is UTF-8 (the refusals find the first bad place)
    let col = String::from_utf8_lossy(&bytes[start..at]).chars().count() + 1;
    let name = path.display().to_string();
    let what = what(line, col);
    let mut d = Diagnostics::new(Source::new(name.clone(), ""));
    d.push(Diagnostic::error(code::UNREADABLE, format!("`{name}` {what}")).help(help));
    d
}

/// The first character of `text` that no tool may print as it is (a
/// control character other than tab, newline and carriage return, or an
/// invisible format character such as U+202E: [`crate::sanitize::is_hidden`]),
/// as a diagnostic with its place; `grail fmt` refuses such a file too.
pub fn hidden_character(path: &Path, text: &str) -> Option<Diagnostics> {
    let (at, c) = text
        .char_indices()
        .find(|&(_, c)| crate::sanitize::is_hidden(c))?;
    let kind = match c.is_control() {
        true => "a control character",
        false => "an invisible format character",
    };
    let what = |line, col| {
        format!(
            "holds {kind}, U+{:04X}, at line {line}, column {col} (byte {at})",
            c as u32
        )
    };
    Some(refuse_at(
        path,
        text.as_bytes(),
        at,
        what,
        match c.is_control() {
            true => {
                "rules files are plain text: delete the character (a label cannot show it either)"
            }
            false => {
                "delete the character: invisible, it can make a line read otherwise than it runs"
            }
        },
    ))
}

/// Old Mac line endings (a carriage return alone) read as newlines, byte
/// for byte, so places in diagnostics stay right: how every reader of a
/// rules file (the loader, `grail fmt`) sees its lines.
pub fn lone_cr_to_lf(src: &str) -> std::borrow::Cow<'_, str> {
    let b = src.as_bytes();
    let lone = |i: usize| b[i] == b'\r' && b.get(i + 1) != Some(&b'\n');
    if !(0..b.len()).any(lone) {
        return std::borrow::Cow::Borrowed(src);
    }
    // only ASCII characters are replaced, by ASCII: still UTF-8
    let fixed: String = src
        .char_indices()
        .map(|(i, c)| if c == '\r' && lone(i) { '\n' } else { c })
        .collect();
    std::borrow::Cow::Owned(fixed)
}

/// Old Mac line endings become newlines ([`lone_cr_to_lf`]); any other control
/// character but tab, newline and carriage return, and any invisible
/// format character, is refused with its place ([`hidden_character`]: it
/// would be printed in diagnostics and labels, where it could retitle or
/// clear a terminal, or make a line read otherwise than it runs).
fn plain_text(path: &Path, text: String) -> Result<String, Diagnostics> {
    let text = match lone_cr_to_lf(&text) {
        std::borrow::Cow::Owned(fixed) => fixed,
        std::borrow::Cow::Borrowed(_) => text,
    };
    match hidden_character(path, &text) {
        Some(d) => Err(d),
        None => Ok(text),
    }
}

pub(super) fn with_base(path: &Path, text: String, depth: usize) -> Result<Source, Diagnostics> {
    let name = path.display().to_string();
    let Some(base) = variant_base(&text) else {
        return Ok(Source::new(name, text));
    };
    let base_path = path.parent().unwrap_or(Path::new(".")).join(&base);
    let fail = |msg: String| {
        let mut d = Diagnostics::new(Source::new(name.clone(), text.clone()));
        // the line `variant_base` read (not the word in a comment above it)
        let at = variant_line(&text).map_or(0, |(at, _)| at);
        d.push(
            Diagnostic::error(code::VARIANT_BASE, msg)
                .label(crate::diag::Span::new(at, at + 7), "this variant")
                .help("a variant names its base file relative to itself: `variant \"Level 2\" extends \"../game.rules\"`"),
        );
        d
    };
    if depth >= MAX_VARIANT_DEPTH {
        let circle = variant_circle(path);
        return Err(fail(if circle {
            "variants extend each other in a circle".into()
        } else {
            format!(
                "variants extend each other more than {MAX_VARIANT_DEPTH} deep (a variant of a variant ...)"
            )
        }));
    }
    let base_text = regular_file(&base_path)
        .map_err(Ok)
        .and_then(|()| read_text(&base_path))
        .map_err(|e| match e {
            Ok(e) => fail(format!(
                "cannot read the base `{}`: {e}",
                base_path.display()
            )),
            Err(d) => d,
        })?;
    let base_source = with_base(&base_path, base_text, depth + 1)?;
    let combined = format!("{}\n{}", base_source.text, text);
    let mut source = Source::new(
        format!("{name} (after its base {})", base_path.display()),
        combined,
    );
    source.base_len = base_source.text.len() as u32 + 1;
    source.inner_seams = base_source.seams().collect();
    Ok(source)
}

/// Whether following the bases from `path` comes back to a file already seen.
fn variant_circle(path: &Path) -> bool {
    let mut seen = Vec::new();
    let mut at = path.to_path_buf();
    for _ in 0..=2 * MAX_VARIANT_DEPTH {
        let key = std::fs::canonicalize(&at).unwrap_or(at.clone());
        if seen.contains(&key) {
            return true;
        }
        seen.push(key);
        let Some(base) = read_small_text(&at).ok().and_then(|t| variant_base(&t)) else {
            return false;
        };
        at = at.parent().unwrap_or(Path::new(".")).join(base);
    }
    false
}

/// The base named by a `variant "NAME" extends "BASE"` line, if any.
pub fn variant_base(text: &str) -> Option<String> {
    variant_line(text).and_then(|(_, l)| l.rsplit('"').nth(1).map(str::to_string))
}

/// The `variant "NAME" extends "BASE"` line: the offset of its first
/// character that is not blank, and the line from there.
fn variant_line(text: &str) -> Option<(usize, &str)> {
    let mut start = 0;
    for l in text.split_inclusive('\n') {
        let t = l.trim_start();
        if t.starts_with("variant ") && t.contains(" extends ") {
            return Some((start + l.len() - t.len(), t));
        }
        start += l.len();
    }
    None
}

/// Every `.rules` file in `dir` and its subfolders, sorted by path
/// component by component (symlinked folders are not followed). For tools
/// and tests that run over a collection of games; an unreadable folder is
/// an error.
pub fn rules_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d)? {
            let e = e?;
            let p = e.path();
            // the entry's own type: a symlinked folder is not followed, so
            // a link loop cannot make this walk run forever
            if e.file_type()?.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rules") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of exactly `max` bytes is read, one of `max + 1` refused; a
    /// rules file past [`MAX_RULES_FILE`] is a diagnostic naming the limit.
    #[test]
    fn read_at_most_at_and_past_the_limit() {
        let dir = std::env::temp_dir().join(format!("grail-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("big.rules");
        std::fs::write(&file, vec![b'#'; 1000]).unwrap();
        assert_eq!(read_at_most(&file, 1000).unwrap().len(), 1000);
        let err = read_at_most(&file, 999).unwrap_err();
        assert!(err.to_string().contains("larger than"), "{err}");
        let mut text = vec![b' '; MAX_RULES_FILE as usize];
        std::fs::write(&file, &text).unwrap();
        assert!(read_text(&file).is_ok());
        text.push(b' ');
        std::fs::write(&file, &text).unwrap();
        let Err(Ok(e)) = read_text(&file) else {
            panic!("a file past the limit is refused")
        };
        assert!(e.to_string().contains("larger than 16 MiB"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Lone carriage returns become newlines; other control characters are
    /// refused with their place.
    #[test]
    fn line_endings_and_control_characters() {
        let p = Path::new("x.rules");
        assert_eq!(plain_text(p, "a\rb\r\nc".into()).unwrap(), "a\nb\r\nc");
        let d = plain_text(p, "ab\ncd\u{1b}e".into()).unwrap_err();
        let msg = &d.items[0].message;
        assert!(msg.contains("U+001B, at line 2, column 3"), "{msg}");
    }
}
