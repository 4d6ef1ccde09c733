//! The language server's transport: JSON-RPC messages framed by
//! `Content-Length` headers on standard input and output, read with bounded
//! memory. A header line is at most [`MAX_HEADER_LINE`] bytes and a message
//! at most [`MAX_MESSAGE`] bytes; a larger message is read past without being
//! kept, and one whose body is not a JSON-RPC message is skipped, each with a
//! line on standard error. A broken header (the stream can no longer be
//! followed) ends the server with a line saying what was wrong.

use lsp_server::{Connection, Message};
use std::io::{BufRead, Read, Write};

/// The longest header line (`Content-Length: ...`) read.
pub const MAX_HEADER_LINE: usize = 1024;

/// The largest message read: four times the largest rules file, room for
/// a document's text escaped in JSON.
pub const MAX_MESSAGE: u64 = 4 * crate::load::MAX_RULES_FILE;

/// What one frame of the input held.
#[derive(Debug)]
pub enum Frame {
    Message(Message),
    /// A frame read past: why it was not a message.
    Skipped(String),
}

/// The next frame, `None` at the end of the input; an error when the
/// input cannot be followed (a broken header, or the end inside a message).
pub fn read_frame(inp: &mut impl BufRead) -> Result<Option<Frame>, String> {
    let mut size: Option<u64> = None;
    let mut first = true;
    loop {
        let mut line = Vec::new();
        let n = inp
            .by_ref()
            .take(MAX_HEADER_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        if n == 0 && first {
            return Ok(None);
        }
        if n == 0 {
            return Err("the input ended inside a message's header".to_string());
        }
        first = false;
        if line.len() > MAX_HEADER_LINE {
            return Err(format!(
                "a header line is longer than {MAX_HEADER_LINE} bytes"
            ));
        }
        let Some(line) = line.strip_suffix(b"\r\n") else {
            return Err(format!(
                "malformed header {}: each header line ends in \\r\\n",
                shown(&line)
            ));
        };
        if line.is_empty() {
            break;
        }
        let text = String::from_utf8_lossy(line);
        let Some((name, value)) = text.split_once(':') else {
            return Err(format!(
                "malformed header {}: expected `Name: value`",
                shown(line)
            ));
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let v = value.trim();
            size = Some(v.parse::<u64>().map_err(|_| {
                format!(
                    "Content-Length {} is not a whole number of bytes",
                    shown(v.as_bytes())
                )
            })?);
        }
    }
    let size = size.ok_or("a message has no Content-Length header")?;
    if size > MAX_MESSAGE {
        let read = std::io::copy(&mut inp.by_ref().take(size), &mut std::io::sink())
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        if read < size {
            return Err(format!(
                "the input ended inside a message ({read} of {size} bytes)"
            ));
        }
        return Ok(Some(Frame::Skipped(format!(
            "a message of {size} bytes is larger than the limit of {} MiB",
            MAX_MESSAGE >> 20
        ))));
    }
    let mut body = Vec::new();
    let read = inp
        .by_ref()
        .take(size)
        .read_to_end(&mut body)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    if (read as u64) < size {
        return Err(format!(
            "the input ended inside a message ({read} of {size} bytes)"
        ));
    }
    Ok(Some(match serde_json::from_slice::<Message>(&body) {
        Ok(m) => Frame::Message(m),
        Err(e) => Frame::Skipped(format!("a message is not JSON-RPC ({e})")),
    }))
}

/// A header's bytes for a message: cut after 80 characters, every control
/// character escaped.
fn shown(b: &[u8]) -> String {
    let t = String::from_utf8_lossy(b);
    let t = crate::sanitize::excerpt(&t, 80);
    let t = crate::sanitize::clean(&t)
        .replace('\r', "\\r")
        .replace('\n', "\\n")
        .replace('\t', "\\t");
    format!("`{t}`")
}

/// The threads that move messages between standard input and output and a
/// connection.
pub struct Io {
    writer: std::thread::JoinHandle<()>,
    /// Why the input could not be followed, set before the reader lets go
    /// of its end of the connection (so the message loop sees it ended).
    broken: std::sync::Arc<std::sync::Mutex<Option<String>>>,
}

/// A connection over standard input and output.
pub fn stdio() -> (Connection, Io) {
    let (server, client) = Connection::memory();
    let Connection { sender, receiver } = client;
    let writer = std::thread::spawn(move || {
        let out = std::io::stdout();
        let mut out = out.lock();
        for m in receiver {
            if m.write(&mut out).and_then(|()| out.flush()).is_err() {
                break;
            }
        }
    });
    let broken = std::sync::Arc::new(std::sync::Mutex::new(None));
    let why = broken.clone();
    std::thread::spawn(move || {
        let inp = std::io::stdin();
        let mut inp = inp.lock();
        let end = loop {
            match read_frame(&mut inp) {
                Ok(None) => break None,
                Err(e) => break Some(e),
                Ok(Some(Frame::Skipped(why))) => eprintln!("grail lsp: skipped: {why}"),
                Ok(Some(Frame::Message(m))) => {
                    let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                    if sender.send(m).is_err() || exit {
                        break None;
                    }
                }
            }
        };
        if let Ok(mut w) = why.lock() {
            *w = end;
        }
        drop(sender);
    });
    (server, Io { writer, broken })
}

impl Io {
    /// Waits until every message sent has been written; `Err` says why the
    /// input could not be followed, when it could not.
    pub fn finish(self, conn: Connection) -> Result<(), String> {
        drop(conn);
        let _ = self.writer.join();
        match self.broken.lock().map(|mut w| w.take()) {
            Ok(Some(why)) => Err(why),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Result<Option<Frame>, String> {
        read_frame(&mut std::io::Cursor::new(bytes))
    }

    #[test]
    fn framing_errors_are_said_never_panicked() {
        let ok = b"Content-Length: 30\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}";
        assert!(matches!(read(ok), Ok(Some(Frame::Message(_)))));
        assert!(matches!(read(b""), Ok(None)));
        let huge = b"Content-Length: 18446744073709551615\r\n\r\n{}";
        assert!(read(huge).unwrap_err().contains("ended inside a message"));
        let past = format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE + 1);
        assert!(read(past.as_bytes()).is_err());
        assert!(
            read(b"Content-Length: x\r\n\r\n")
                .unwrap_err()
                .contains("whole number")
        );
        assert!(read(b"Garbage\n").unwrap_err().contains("malformed header"));
        assert!(read(b"\r\n{}").unwrap_err().contains("no Content-Length"));
        assert!(
            read(b"Content-Length: 5\r\n")
                .unwrap_err()
                .contains("ended inside a message's header")
        );
        let long = vec![b'a'; 100_000];
        assert!(read(&long).unwrap_err().contains("longer than"));
        let skipped = read(b"Content-Length: 9\r\n\r\n{not json").unwrap();
        assert!(matches!(skipped, Some(Frame::Skipped(_))));
    }

    #[test]
    fn a_message_at_the_limit_is_read_and_past_it_skipped() {
        let pad = |n: u64| {
            let head = "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":\"";
            let fill = n as usize - head.len() - 2;
            format!("Content-Length: {n}\r\n\r\n{head}{}\"}}", "a".repeat(fill))
        };
        let at = pad(MAX_MESSAGE);
        assert!(matches!(read(at.as_bytes()), Ok(Some(Frame::Message(_)))));
        let over = pad(MAX_MESSAGE + 1);
        match read(over.as_bytes()) {
            Ok(Some(Frame::Skipped(why))) => assert!(why.contains("larger than"), "{why}"),
            other => panic!("{other:?}"),
        }
    }
}
