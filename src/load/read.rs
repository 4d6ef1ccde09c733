//! Reading a rules file: bytes to text (invalid UTF-8 is a diagnostic with
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

/// How many variants may extend each other (a variant of a variant ...).
pub const MAX_VARIANT_DEPTH: usize = 8;

/// Read a rules file as text: invalid UTF-8 is reported with its line and
/// byte offset, and a leading byte-order mark is dropped.
fn read_text(path: &Path) -> Result<String, Result<std::io::Error, Diagnostics>> {
    let bytes = std::fs::read(path).map_err(Ok)?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(match text.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_string(),
            None => text,
        }),
        Err(e) => {
            let bytes = e.as_bytes();
            let at = e.utf8_error().valid_up_to();
            let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
            let col = at
                - bytes[..at]
                    .iter()
                    .rposition(|b| *b == b'\n')
                    .map_or(0, |i| i + 1)
                + 1;
            let name = path.display().to_string();
            let mut d = Diagnostics::new(Source::new(name.clone(), ""));
            d.push(
                Diagnostic::error(
                    code::UNREADABLE,
                    format!(
                        "`{name}` is not UTF-8 text: byte {at} (line {line}, column {col}) is 0x{:02x}",
                        bytes[at]
                    ),
                )
                .help("rules files are UTF-8 text; save the file as UTF-8 in your editor"),
            );
            Err(Err(d))
        }
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
        let at = text.find("variant").unwrap_or(0);
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
    let base_text = read_text(&base_path).map_err(|e| match e {
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
        let Some(base) = std::fs::read_to_string(&at)
            .ok()
            .and_then(|t| variant_base(&t))
        else {
            return false;
        };
        at = at.parent().unwrap_or(Path::new(".")).join(base);
    }
    false
}

/// The base named by a `variant "NAME" extends "BASE"` line, if any.
pub fn variant_base(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim_start)
        .find(|l| l.starts_with("variant ") && l.contains(" extends "))
        .and_then(|l| l.rsplit('"').nth(1).map(str::to_string))
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
