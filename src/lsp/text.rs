//! Positions: byte offsets of grail's spans against the line and UTF-16
//! column positions of the Language Server Protocol, and `file:` URIs
//! against paths.

use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where each line of a text starts.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// A line ends at `\n`, `\r\n` or a lone `\r`, as the protocol says
    /// (and as `grail check` reads a file).
    pub fn new(text: &str) -> LineIndex {
        let b = text.as_bytes();
        let ends = (0..b.len())
            .filter(|&i| b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')));
        LineIndex {
            starts: std::iter::once(0).chain(ends.map(|i| i + 1)).collect(),
        }
    }

    /// The position of a byte offset (clamped to the text).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let col: usize = text
            .get(start..offset)
            .unwrap_or("")
            .chars()
            .map(char::len_utf16)
            .sum();
        Position::new(line as u32, col as u32)
    }

    pub fn range(&self, text: &str, start: usize, end: usize) -> Range {
        Range::new(self.position(text, start), self.position(text, end))
    }

    /// The byte offset of a position (clamped to its line and the text).
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .map_or(text.len(), |e| e - 1);
        let mut units = 0u32;
        for (i, c) in text[start..end].char_indices() {
            if units >= pos.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        end
    }

    pub fn lines(&self) -> usize {
        self.starts.len()
    }
}

/// The path of a `file:` URI.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str().strip_prefix("file://")?;
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(hex) = std::str::from_utf8(&bytes[i + 1..i + 3])
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok().map(PathBuf::from)
}

/// The `file:` URI of an absolute path.
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let mut s = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_escapes_decode_up_to_the_last_byte() {
        let path = |u: &str| uri_to_path(&Uri::from_str(u).expect("uri"));
        assert_eq!(path("file:///a%20b%41"), Some(PathBuf::from("/a bA")));
        assert_eq!(path("file:///%C3%A9"), Some(PathBuf::from("/é")));
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line_as_newlines_do() {
        let text = "ab\rcd\r\nef\ngh";
        let ix = LineIndex::new(text);
        assert_eq!(ix.lines(), 4);
        assert_eq!(ix.position(text, 3), Position::new(1, 0));
        assert_eq!(ix.position(text, 7), Position::new(2, 0));
        assert_eq!(ix.position(text, 10), Position::new(3, 0));
        assert_eq!(ix.offset(text, Position::new(1, 1)), 4);
        assert_eq!(ix.offset(text, Position::new(0, 9)), 2);
    }
}
