//! What the line editor offers as you type, without the editor: the words
//! of the game in play ([`Words`], taken from the session before each line)
//! and, for a line and a cursor, the completions (command names, move
//! labels, seats, zones, cards, variables, options, fixed words) and the
//! inline hint. Which argument completes to what comes from the command
//! table (`Command::completes`). File names are left to the editor.

use super::commands::{self, Arg, COMMANDS};
use super::session::Session;
use super::step::label_key;

/// The names a line can use in the game in play.
#[derive(Clone, Debug, Default)]
pub struct Words {
    pub labels: Vec<String>,
    pub seats: Vec<String>,
    pub zones: Vec<String>,
    pub cards: Vec<String>,
    pub vars: Vec<String>,
    pub options: Vec<String>,
}

impl Words {
    pub fn of(s: &Session) -> Words {
        let t = &s.game.graph().tables;
        let mut labels = s.labels(&s.legal());
        labels.dedup();
        let mut cards: Vec<String> = t.cards.iter().map(|c| c.name.clone()).collect();
        cards.sort();
        cards.dedup();
        let mut vars = Vec::new();
        for v in t.vars.iter().filter(|v| !v.per_card && !v.per_player) {
            vars.push(v.name.clone());
        }
        for p in 0..s.players {
            for v in t.vars.iter().filter(|v| v.per_player) {
                vars.push(format!("P{p}.{}", v.name));
            }
        }
        Words {
            labels,
            seats: (0..s.players).map(|p| format!("P{p}")).collect(),
            zones: (0..s.state.table().insts())
                .map(|i| s.state.zone_name(&s.game, i))
                .collect(),
            cards,
            vars,
            options: t.options.iter().map(|o| o.name.clone()).collect(),
        }
    }
}

/// What to complete at the cursor.
#[derive(Debug, PartialEq, Eq)]
pub enum Want {
    /// Candidates replacing the text from `start` to the cursor.
    Some {
        start: usize,
        candidates: Vec<String>,
    },
    /// A file name: the editor's file completer does it.
    File,
    Nothing,
}

/// The argument kind at word `index` (1 = first argument) of a command.
fn arg_kind(c: &commands::Command, index: usize) -> Arg {
    match c.completes {
        [] => Arg::Nothing,
        list => list[(index - 1).min(list.len() - 1)],
    }
}

fn starts_with_ci(candidate: &str, prefix: &str) -> bool {
    candidate.len() >= prefix.len()
        && candidate.is_char_boundary(prefix.len())
        && candidate[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// The completions for `line` with the cursor at `pos`.
pub fn complete(words: &Words, line: &str, pos: usize) -> Want {
    let Some(text) = line.get(..pos) else {
        return Want::Nothing;
    };
    let lead = text.len() - text.trim_start().len();
    let typed: Vec<&str> = text.split_whitespace().collect();
    let at_gap = text.is_empty() || text.ends_with(char::is_whitespace);
    let current = if at_gap {
        ""
    } else {
        typed.last().copied().unwrap_or("")
    };
    let start = pos - current.len();
    let index = if at_gap { typed.len() } else { typed.len() - 1 };
    if index == 0 {
        let candidates = COMMANDS
            .iter()
            .filter(|c| starts_with_ci(c.name, current))
            .map(|c| match c.args {
                "" => c.name.to_string(),
                _ => format!("{} ", c.name),
            })
            .collect();
        return Want::Some {
            start: lead.max(start),
            candidates,
        };
    }
    let Some(cmd) = commands::find(typed[0]) else {
        return Want::Nothing;
    };
    let pool: Vec<String> = match arg_kind(cmd, index) {
        Arg::Nothing => return Want::Nothing,
        Arg::File => return Want::File,
        Arg::Label => {
            // a label is several words: complete from the first argument on
            let cmd_end = lead + typed[0].len();
            let rest = &text[cmd_end..];
            let arg_start = cmd_end + (rest.len() - rest.trim_start().len());
            let prefix = label_key(&text[arg_start..]);
            let gap = text[arg_start..].ends_with(' ') && !prefix.is_empty();
            let prefix = if gap { format!("{prefix} ") } else { prefix };
            let candidates = words
                .labels
                .iter()
                .filter(|l| label_key(l).starts_with(&prefix))
                .cloned()
                .collect();
            return Want::Some {
                start: arg_start,
                candidates,
            };
        }
        Arg::Command => COMMANDS.iter().map(|c| c.name.to_string()).collect(),
        Arg::Seat => words.seats.clone(),
        Arg::SeatOrAll => {
            let mut v = words.seats.clone();
            v.push("all".into());
            v
        }
        Arg::Zone => words.zones.clone(),
        Arg::Card => words.cards.clone(),
        Arg::Variable => words.vars.clone(),
        Arg::Option => words.options.clone(),
        Arg::Words(list) => list.iter().map(|w| w.to_string()).collect(),
    };
    let candidates = pool
        .into_iter()
        .filter(|c| starts_with_ci(c, current))
        .collect();
    Want::Some { start, candidates }
}

/// The inline hint for `line` with the cursor at its end: the rest of the
/// one command or label that fits, or the arguments a command takes.
/// Returns (shown, inserted by the right arrow).
pub fn hint(words: &Words, line: &str, pos: usize) -> Option<(String, Option<String>)> {
    if pos < line.len() || line.trim().is_empty() {
        return None;
    }
    let typed: Vec<&str> = line.split_whitespace().collect();
    let at_gap = line.ends_with(char::is_whitespace);
    if typed.len() == 1 && !at_gap {
        let matches: Vec<&commands::Command> = COMMANDS
            .iter()
            .filter(|c| starts_with_ci(c.name, typed[0]))
            .collect();
        let [c] = matches[..] else { return None };
        let rest = &c.name[typed[0].len()..];
        let shown = match c.args {
            "" => rest.to_string(),
            a => format!("{rest} {a}"),
        };
        return (!shown.is_empty()).then(|| (shown, Some(rest.to_string())));
    }
    let cmd = commands::find(typed[0])?;
    if typed.len() == 1 && at_gap && !line.ends_with("  ") {
        if cmd.completes.first() == Some(&Arg::Label) {
            // show the first move, the likeliest wanted
            let first = words.labels.first()?;
            return Some((first.clone(), Some(first.clone())));
        }
        return (!cmd.args.is_empty()).then(|| (cmd.args.to_string(), None));
    }
    match complete(words, line, pos) {
        Want::Some { start, candidates } => {
            let typed_part = &line[start..pos];
            let [one] = &candidates[..] else { return None };
            let rest = one.get(typed_part.len()..)?.to_string();
            (!rest.is_empty()).then(|| (rest.clone(), Some(rest)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> Words {
        Words {
            labels: vec![
                "draw from the pile".into(),
                "take red-5 from the discard pile".into(),
                "take red-5 twice".into(),
            ],
            seats: vec!["P0".into(), "P1".into()],
            zones: vec!["draw".into(), "discard".into(), "P0.slots".into()],
            cards: vec!["red-5".into(), "red-6".into(), "black-1".into()],
            vars: vec!["closer".into(), "P0.score".into()],
            options: vec!["target".into(), "threshold".into()],
        }
    }

    fn cands(line: &str) -> Vec<String> {
        match complete(&words(), line, line.len()) {
            Want::Some { candidates, .. } => candidates,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn commands_then_arguments() {
        assert_eq!(cands("sta"), vec!["state "]);
        assert_eq!(cands("re"), vec!["redo ", "restart ", "reload"]);
        assert_eq!(cands("view "), vec!["P0", "P1", "all"]);
        assert_eq!(cands("bot P1 g"), vec!["greedy"]);
        assert_eq!(cands("set th"), vec!["threshold"]);
        assert_eq!(cands("arrange P0.slots red"), vec!["red-5", "red-6"]);
        assert_eq!(cands("arrange dis"), vec!["discard"]);
        assert_eq!(cands("put P0"), vec!["P0.score"]);
        assert_eq!(cands("help und"), vec!["undo"]);
        assert_eq!(complete(&words(), "save ga", 7), Want::File);
        assert_eq!(complete(&words(), "moves x", 7), Want::Nothing);
    }

    #[test]
    fn labels_complete_as_a_whole() {
        assert_eq!(cands("play d"), vec!["draw from the pile"]);
        assert_eq!(
            cands("play TAKE red-5 "),
            vec!["take red-5 from the discard pile", "take red-5 twice"]
        );
        let Want::Some { start, .. } = complete(&words(), "play take", 9) else {
            panic!()
        };
        assert_eq!(start, 5);
    }

    #[test]
    fn hints() {
        let w = words();
        assert_eq!(
            hint(&w, "expl", 4),
            Some(("ain N".into(), Some("ain".into())))
        );
        assert_eq!(hint(&w, "undo ", 5), Some(("[K]".into(), None)));
        assert_eq!(
            hint(&w, "play dr", 7),
            Some(("aw from the pile".into(), Some("aw from the pile".into())))
        );
        assert_eq!(hint(&w, "re", 2), None);
        assert_eq!(hint(&w, "state", 3), None);
    }
}
