//! Interactive use: the rustyline editor with the REPL's helper (completion
//! and inline hints from `complete.rs`, dimmed hints and a coloured prompt),
//! the persistent history file, colour for the output, and the loop that
//! reads a line, runs it and prints what it says. Ctrl-C cancels the line,
//! Ctrl-D quits. Script mode never comes here: it has no history file.

use super::args::Flow;
use super::complete::{self, Want, Words};
use super::session::Session;
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hint, Hinter};
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Config, Context, Editor, Helper};
use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Whether output to a terminal may be coloured: not when `NO_COLOR` is set
/// (and not empty).
pub fn color_allowed() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Where the history lives: `$GRAIL_HISTORY` if set (empty: no history),
/// else `$XDG_DATA_HOME/grail/history`, else `~/.local/share/grail/history`.
pub fn default_history_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("GRAIL_HISTORY") {
        return (!p.is_empty()).then(|| PathBuf::from(p));
    }
    let data = match std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?)
            .join(".local")
            .join("share"),
    };
    Some(data.join("grail").join("history"))
}

const DIM: &str = "\x1b[2m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const CYAN: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

/// Colour what a command printed, line by line, by what the line says.
pub fn paint(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let style = if body.starts_with("error:") {
            Some(RED)
        } else if body.starts_with("stuck") {
            Some(YELLOW)
        } else if body.starts_with("game over") || body.starts_with("scores:") {
            Some(GREEN)
        } else if body.starts_with('P') && body.ends_with("to choose:") {
            Some(BOLD)
        } else if body.starts_with("undone:") || body.starts_with("redone:") {
            Some(DIM)
        } else if body.starts_with("  | ") {
            Some(CYAN)
        } else {
            None
        };
        match style {
            Some(s) => {
                out.push_str(s);
                out.push_str(body);
                out.push_str(RESET);
                out.push_str(&line[body.len()..]);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// An inline hint: what is shown, and what the right arrow inserts.
pub struct LineHint {
    shown: String,
    inserted: Option<String>,
}

impl Hint for LineHint {
    fn display(&self) -> &str {
        &self.shown
    }
    fn completion(&self) -> Option<&str> {
        self.inserted.as_deref()
    }
}

/// The rustyline helper: the game's words, refreshed before each line.
pub struct ReplHelper {
    pub words: Words,
    pub color: bool,
    files: FilenameCompleter,
}

impl Completer for ReplHelper {
    type Candidate = Pair;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        match complete::complete(&self.words, line, pos) {
            Want::File => self.files.complete(line, pos, ctx),
            Want::Nothing => Ok((pos, Vec::new())),
            Want::Some { start, candidates } => Ok((
                start,
                candidates
                    .into_iter()
                    .map(|c| Pair {
                        display: c.trim_end().to_string(),
                        replacement: c,
                    })
                    .collect(),
            )),
        }
    }
}

impl Hinter for ReplHelper {
    type Hint = LineHint;
    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<LineHint> {
        complete::hint(&self.words, line, pos).map(|(shown, inserted)| LineHint { shown, inserted })
    }
}

impl Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        match self.color {
            true => Cow::Owned(format!("{DIM}{hint}{RESET}")),
            false => Cow::Borrowed(hint),
        }
    }
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        _default: bool,
    ) -> Cow<'b, str> {
        match self.color {
            true => Cow::Owned(format!("{BOLD}{prompt}{RESET}")),
            false => Cow::Borrowed(prompt),
        }
    }
    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        false
    }
}

impl Validator for ReplHelper {}
impl Helper for ReplHelper {}

/// Read the history file, if there is one (a missing file is a fresh start).
fn load_history(editor: &mut Editor<ReplHelper, DefaultHistory>, path: &Path) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if path.exists()
        && let Err(e) = editor.load_history(path)
    {
        eprintln!("warning: cannot read the history `{}`: {e}", path.display());
    }
}

/// The interactive loop; returns the exit code.
pub fn interactive(session: &mut Session, history: Option<PathBuf>, intro: &str) -> u8 {
    let color = std::io::IsTerminal::is_terminal(&std::io::stdout()) && color_allowed();
    session.color = color;
    let mut editor = match line_editor(session, color) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: cannot start the line editor: {e}");
            return 1;
        }
    };
    let history = history.filter(|path| usable_history(path));
    if let Some(path) = &history {
        load_history(&mut editor, path);
    }
    let mut stdout = std::io::stdout();
    let show = |text: &str, stdout: &mut std::io::Stdout| {
        let text = super::sanitize::clean_with(text, color);
        let text = if color {
            paint(&text)
        } else {
            text.into_owned()
        };
        let _ = stdout.write_all(text.as_bytes());
        let _ = stdout.flush();
    };
    show(intro, &mut stdout);
    loop {
        if let Some(h) = editor.helper_mut() {
            h.words = Words::of(session);
        }
        match editor.readline(&session.prompt()) {
            Ok(line) => {
                if !line.trim().is_empty()
                    && editor.add_history_entry(line.trim_end()).unwrap_or(false)
                    && let Some(path) = &history
                    && let Err(e) = editor.append_history(path)
                {
                    eprintln!(
                        "warning: cannot write the history `{}`: {e}",
                        path.display()
                    );
                }
                let mut text = String::new();
                // Ctrl-C while a command runs (a long `auto`) stops it and
                // keeps the game; at the prompt the editor reads it as a key
                crate::interrupt::install();
                let flow = session.exec_to_string(&line, &mut text);
                show(&text, &mut stdout);
                if flow == Flow::Quit {
                    return 0;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => return 0,
            Err(e) => {
                eprintln!("error: {e}");
                return 1;
            }
        }
    }
}

/// The line editor with the session's completion and, on a terminal,
/// colour; history is added by hand (only lines that were not blank).
fn line_editor(
    session: &Session,
    color: bool,
) -> rustyline::Result<Editor<ReplHelper, DefaultHistory>> {
    let config = Config::builder()
        .completion_type(rustyline::CompletionType::List)
        .max_history_size(5000)
        .and_then(|b| b.history_ignore_dups(true))
        .map(|b| {
            b.history_ignore_space(true)
                .color_mode(match color {
                    true => rustyline::ColorMode::Enabled,
                    false => rustyline::ColorMode::Disabled,
                })
                .auto_add_history(false)
                .build()
        })?;
    let mut editor = Editor::<ReplHelper, DefaultHistory>::with_config(config)?;
    editor.set_helper(Some(ReplHelper {
        words: Words::of(session),
        color,
        files: FilenameCompleter::new(),
    }));
    Ok(editor)
}

/// Whether `path` can keep the history: a device or a folder is no
/// history file (`/dev/full` never ends); says so when it is not.
fn usable_history(path: &std::path::Path) -> bool {
    let special = path.exists() && !path.metadata().is_ok_and(|m| m.is_file());
    if special {
        eprintln!(
            "error: the history `{}` is not a regular file; no history is kept",
            path.display()
        );
    }
    !special
}

#[cfg(test)]
mod tests {
    use super::paint;

    #[test]
    fn paint_colours_by_line() {
        let out = paint("error: no\nP0 to choose:\n  1. x\n");
        assert_eq!(
            out,
            "\x1b[31merror: no\x1b[0m\n\x1b[1mP0 to choose:\x1b[0m\n  1. x\n"
        );
    }
}
