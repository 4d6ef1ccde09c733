//! The command table (name, aliases, arguments, one-line help, details),
//! dispatch, `help`, and the command reference of docs/repl.md, all drawn
//! from the same text. The handlers live by theme: `look.rs` (seeing the
//! game), `step.rs` (moving through it), `house.rs` (options, restarts and
//! files). Handlers write to a string and return a one-line error message on
//! bad input; the session prints it as `error: ...`. The table is public so
//! the line editor can complete and hint command names from it. `Session::exec`
//! is here too, so `session.rs` sits below every handler.

use super::args::{Flow, looks_numeric, no_args};
use super::session::Session;
use super::{expect, hint, house, look, step};
use std::fmt::Write as _;
use std::io;

/// A handler: the session, the words after the command name, the output.
pub type Handler = fn(&mut Session, &[&str], &mut String) -> Result<Flow, String>;

/// What an argument position completes to, for the line editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    Nothing,
    Command,
    Label,
    Seat,
    SeatOrAll,
    Zone,
    Card,
    Variable,
    Option,
    File,
    Words(&'static [&'static str]),
}

/// One REPL command.
pub struct Command {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    /// Argument synopsis, e.g. `[K]`.
    pub args: &'static str,
    /// One line for `help`.
    pub help: &'static str,
    /// More lines for `help NAME` and the docs.
    pub details: &'static str,
    /// What each argument completes to; the last one repeats.
    pub completes: &'static [Arg],
    pub run: Handler,
}

pub static COMMANDS: &[Command] = &[
    Command {
        name: "state",
        aliases: &[],
        args: "[ZONE]",
        help: "show everything on the table (hidden cards too) and who is to move",
        details: "The designer's view: one row per zone with its size and cards (piles show their top six),\n\
                  the variables, the turn and who must choose.\n\
                  `state ZONE` shows one zone as a table, every card from the bottom up, with who knows it:\n\
                  `state draw`, `state P1.slots`.",
        completes: &[Arg::Zone],
        run: look::cmd_state,
    },
    Command {
        name: "view",
        aliases: &[],
        args: "[SEAT | all]",
        help: "show the table as one player knows it (`view 2`, `view P2`) or everything (`view all`)",
        details: "Cards the player does not know are shown as ##, hidden piles only by their size.\n\
                  Without an argument: the view of who is to move.",
        completes: &[Arg::SeatOrAll],
        run: look::cmd_view,
    },
    Command {
        name: "moves",
        aliases: &[],
        args: "",
        help: "list the legal moves, numbered from 1",
        details: "Labels are shown as the player who chooses sees them (cards it does not know are ##).",
        completes: &[],
        run: look::cmd_moves,
    },
    Command {
        name: "play",
        aliases: &[],
        args: "N | LABEL-PREFIX",
        help: "make a move, by number or by the start of its label",
        details: "`play 2` makes move 2 of `moves`; a bare `2` does the same.\n\
                  `play take` makes the one move whose label starts with `take` (case does not matter).\n\
                  The moves that follow are listed afterwards; bots then play their seats.",
        completes: &[Arg::Label],
        run: step::cmd_play,
    },
    Command {
        name: "explain",
        aliases: &[],
        args: "N",
        help: "show the rule that offers move N: its phase and its lines in the rules file",
        details: "Prints who chooses, in which phase, and the lines of the choice's arm in the .rules file.",
        completes: &[Arg::Nothing],
        run: look::cmd_explain,
    },
    Command {
        name: "expect",
        aliases: &[],
        args: "CONDITION",
        help: "check a condition of the rules language against the game now (`expect P1.score == 35`)",
        details: "The condition is written as in the rules file, with the game's names and the players P0, P1...:\n\
                  `expect count(P0.slots) == 5`, `expect P2.called`, `expect top(discard) == red-5` (a card name on one side).\n\
                  Prints `ok: ...`, or `expect failed: ...` with the values seen; a script with a failed expect exits with status 1.",
        completes: &[Arg::Nothing],
        run: expect::cmd_expect,
    },
    Command {
        name: "log",
        aliases: &[],
        args: "",
        help: "list the moves and arrangements so far",
        details: "Undone moves are no longer listed (`redo` brings them back).",
        completes: &[],
        run: look::cmd_log,
    },
    Command {
        name: "undo",
        aliases: &[],
        args: "[K]",
        help: "take back the last K moves or arrangements (default 1)",
        details: "Every move (including those made by `auto` and bots) and every `arrange` or `put` can be taken back,\n\
                  as far as the start. Bots do not move after `undo`: `auto` or `play` goes on.",
        completes: &[],
        run: step::cmd_undo,
    },
    Command {
        name: "redo",
        aliases: &[],
        args: "[K]",
        help: "make again the last K moves taken back by `undo` (default 1)",
        details: "Possible until a new move, arrangement, restart or load: those forget what was undone.",
        completes: &[],
        run: step::cmd_redo,
    },
    Command {
        name: "auto",
        aliases: &[],
        args: "[K | turn | round | end]",
        help: "let agents play K moves (default 1), to the next turn, to the end of the round, or to the end",
        details: "Seats with a bot play as their bot; the others play random moves from a generator seeded\n\
                  from the game seed, so a script always plays the same.\n\
                  `auto turn` plays until the next turn starts (the rules' turn counter changes).\n\
                  `auto round` plays to the end of the round: until the phase that runs the turns (the phase\n\
                  just below the current turn on the call stack, such as a `round` phase that start calls in\n\
                  a loop) returns, and stops there, before the next deal: `state`, `view` and `expect` show\n\
                  that position until another command goes on from the next round, dealt\n\
                  (when start runs the turns itself, there is no round: it plays to the end of the game).\n\
                  Stops early when the game ends or is stuck; `auto end` stops after 100000 moves at most.",
        completes: &[Arg::Words(&["turn", "round", "end"])],
        run: step::cmd_auto,
    },
    Command {
        name: "bot",
        aliases: &["bots"],
        args: "[SEAT AGENT|off]",
        help: "seat an agent: it plays whenever its seat must choose (`bot P1 ismcts:300`); `bot` lists them",
        details: "random: uniformly random legal moves. greedy: one move of lookahead on the winners score.\n\
                  mc:N, mcts:N, ismcts:N: searches of N playouts (or a time, `mcts:50ms`); oracle cheats (docs/agents.md).\n\
                  `bot all random` seats one everywhere; `off` takes the seat back.\n\
                  Bots move whenever their seat must choose after `play`, `auto`, `bot` and `restart`;\n\
                  not after `undo`, `redo`, `arrange`, `put`, `load` or `reload`, which leave the position to you.\n\
                  Each bot is seeded from the game seed and its seat, so scripts stay reproducible.",
        completes: &[
            Arg::SeatOrAll,
            Arg::Words(&["random", "greedy", "ismcts:300", "mcts:300", "off"]),
        ],
        run: step::cmd_bot,
    },
    Command {
        name: "hint",
        aliases: &[],
        args: "[N] [AGENT]",
        help: "the top N moves (3) for the seat to move, by a search that sees only what that seat knows",
        details: "The search is ismcts:400 unless another is named (`hint 5 mcts:2000`). Each move is listed with\n\
                  its number for `play`, the playouts that tried it and its value (estimated chance to win, 0 to 1).\n\
                  Hints are seeded from the game seed, the seat and the move number: a script gives the same hints.",
        completes: &[Arg::Words(&["ismcts:400", "mcts:400", "mc:400"])],
        run: hint::cmd_hint,
    },
    Command {
        name: "trace",
        aliases: &[],
        args: "[on | off]",
        help: "print the steps of the rules each move runs (action-graph nodes, with their lines)",
        details: "After each move, one line per rules line executed: `phase:line`, the text of that line,\n\
                  and in brackets the values it used (`p = P0`) and assigned (`now 5`).\n\
                  Consecutive steps on one line are shown once. `trace` alone says whether it is on.",
        completes: &[Arg::Words(&["on", "off"])],
        run: step::cmd_trace,
    },
    Command {
        name: "arrange",
        aliases: &[],
        args: "ZONE CARD...",
        help: "put the named cards in a zone, bottom first (to set up a position)",
        details: "Zones are named as in `state`: `draw`, `discard`, `P1.slots`. Cards by name: `red-7`.\n\
                  The cards named are taken from wherever they are; the cards they replace take their places.\n\
                  Nobody knows the arranged cards unless the zone shows them. `undo` takes an arrangement back.\n\
                  Example: arrange P1.slots red-7 black-13 red-0 black-2",
        completes: &[Arg::Zone, Arg::Card],
        run: step::cmd_arrange,
    },
    Command {
        name: "put",
        aliases: &[],
        args: "VARIABLE VALUE",
        help: "set a variable to set up a position (`put P1.score 10`, `put leader none`)",
        details: "Variables are named as in `state`: global ones by name, a player's as `P1.score`.\n\
                  Values: numbers, yes/no, seats (P2) or none, enum values, card names. `undo` takes it back.",
        completes: &[Arg::Variable, Arg::Card],
        run: step::cmd_put,
    },
    Command {
        name: "options",
        aliases: &[],
        args: "",
        help: "list the game's options: value, default, range and what they do",
        details: "Options set with `set` or `variant` that are not yet in play are listed below the table.",
        completes: &[],
        run: house::cmd_options,
    },
    Command {
        name: "set",
        aliases: &[],
        args: "OPT VALUE",
        help: "change an option for the next `restart` (options are fixed when a game starts)",
        details: "The game under way keeps its options; `restart` starts a new one with the new value,\n\
                  and `reload` replays the moves so far under it.\n\
                  `set OPT default` goes back to the rules' default. Also: grail play FILE --set OPT=VALUE.",
        completes: &[Arg::Option],
        run: house::cmd_set,
    },
    Command {
        name: "variant",
        aliases: &[],
        args: "FILE",
        help: "play a variant: a variant rules file, or a file of options; then restart",
        details: "A variant in the rules language (`variant \"NAME\" extends \"BASE\"`, or any .rules file)\n\
                  becomes the rules in play, and what `reload` reads; options you set stay set.\n\
                  A file of options has one `OPT=VALUE` per line (# comments allowed), or is a RON map\n\
                  such as {\"rounds\": 3}: those options are set, the others go back to their defaults.\n\
                  Everything is checked before anything changes.",
        completes: &[Arg::File],
        run: house::cmd_variant,
    },
    Command {
        name: "restart",
        aliases: &[],
        args: "[--seed S] [--players N]",
        help: "start a new game with the options set (same seed and players unless given)",
        details: "Forgets the moves of the game under way (save it first to keep it). Bots keep their seats.",
        completes: &[Arg::Words(&["--seed", "--players"])],
        run: house::cmd_restart,
    },
    Command {
        name: "save",
        aliases: &[],
        args: "FILE",
        help: "write the game to a file: rules, digest, players, seed, options and every move (RON)",
        details: "The file is written whole or not at all. `load FILE` replays it.",
        completes: &[Arg::File],
        run: house::cmd_save,
    },
    Command {
        name: "load",
        aliases: &[],
        args: "FILE [--force]",
        help: "replay a saved game (it must have been saved with these rules)",
        details: "A file saved with other rules (another digest) is refused; `load FILE --force` replays it\n\
                  anyway, matching moves by their labels, and says where it diverges.\n\
                  A damaged file is refused with the reason; the game under way is kept.",
        completes: &[Arg::File, Arg::Words(&["--force"])],
        run: house::cmd_load,
    },
    Command {
        name: "reload",
        aliases: &[],
        args: "",
        help: "read the rules file again and replay this game's moves on the new rules",
        details: "Options you changed are kept; the others take the new defaults. Moves are matched by label:\n\
                  where one is no longer possible, the game stops just before it and says why.\n\
                  A rules file with errors prints its diagnostics and the game goes on with the old rules.",
        completes: &[],
        run: house::cmd_reload,
    },
    Command {
        name: "help",
        aliases: &["?"],
        args: "[COMMAND]",
        help: "list the commands, or explain one",
        details: "",
        completes: &[Arg::Command],
        run: cmd_help,
    },
    Command {
        name: "quit",
        aliases: &["exit"],
        args: "",
        help: "leave the REPL (Ctrl-D too); in a script, stop there",
        details: "",
        completes: &[],
        run: cmd_quit,
    },
];

/// Find a command by name or alias (case does not matter).
pub fn find(name: &str) -> Option<&'static Command> {
    let name = name.to_ascii_lowercase();
    COMMANDS
        .iter()
        .find(|c| c.name == name || c.aliases.contains(&name.as_str()))
}

/// `unknown command 'stat'; did you mean `state`? ...`
fn unknown(word: &str, what: &str) -> String {
    let lower = word.to_ascii_lowercase();
    let names = COMMANDS.iter().map(|c| c.name);
    match crate::diag::did_you_mean(&lower, names) {
        Some(s) => format!("{what} '{word}': did you mean `{s}`? (`help` lists the commands)"),
        None => format!("{what} '{word}'; `help` lists the commands"),
    }
}

/// Run the command in `words` (non-empty). A bare number is `play N`.
pub fn dispatch(s: &mut Session, words: &[&str], out: &mut String) -> Result<Flow, String> {
    let Some(first) = words.first() else {
        return Ok(Flow::Continue);
    };
    if looks_numeric(first) {
        s.round_end = None;
        return step::cmd_play(s, words, out);
    }
    match find(first) {
        Some(c) => {
            // the end of a round `auto round` showed stays only for looking at it
            if !matches!(c.name, "state" | "view" | "expect" | "help" | "log") {
                s.round_end = None;
            }
            (c.run)(s, &words[1..], out)
        }
        None => Err(unknown(first, "unknown command")),
    }
}

/// `play N | LABEL-PREFIX`: the name and its synopsis.
pub fn usage(c: &Command) -> String {
    match c.args {
        "" => c.name.to_string(),
        a => format!("{} {a}", c.name),
    }
}

/// The detail lines of a command, trimmed.
fn detail_lines(c: &Command) -> impl Iterator<Item = &'static str> {
    c.details.lines().map(str::trim).filter(|l| !l.is_empty())
}

/// What `help` prints without an argument.
pub fn help_list() -> String {
    let mut out = String::from("commands:\n");
    let width = COMMANDS.iter().map(|c| usage(c).len()).max().unwrap_or(0);
    for c in COMMANDS {
        let _ = writeln!(out, "  {:<width$}  {}", usage(c), c.help);
    }
    out.push_str(
        "A bare number N plays move N. Lines starting with # are comments. `help CMD` says more.\n",
    );
    out
}

/// What `help NAME` prints.
pub fn help_one(c: &Command) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "usage: {}", usage(c));
    let _ = writeln!(out, "{}", c.help);
    for line in detail_lines(c) {
        let _ = writeln!(out, "{line}");
    }
    if !c.aliases.is_empty() {
        let _ = writeln!(out, "also: {}", c.aliases.join(", "));
    }
    out
}

/// The command reference of docs/repl.md, in Markdown: the same text as
/// `help CMD` for every command (a test keeps the page in step).
pub fn reference() -> String {
    let mut out = String::new();
    for c in COMMANDS {
        let _ = writeln!(out, "#### `{}`\n", usage(c));
        let _ = writeln!(out, "{}.", capitalise(c.help));
        let details: Vec<&str> = detail_lines(c).collect();
        if !details.is_empty() {
            out.push('\n');
            for line in details {
                let _ = writeln!(out, "{line}");
            }
        }
        if !c.aliases.is_empty() {
            let _ = writeln!(out, "\nAlso: `{}`.", c.aliases.join("`, `"));
        }
        out.push('\n');
    }
    out
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn cmd_help(_s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    match args {
        [] => out.push_str(&help_list()),
        [name] => match find(name) {
            Some(c) => out.push_str(&help_one(c)),
            None => return Err(unknown(name, "no command")),
        },
        _ => {
            return Err(format!(
                "help takes at most one command name, got '{}'",
                args.join(" ")
            ));
        }
    }
    Ok(Flow::Continue)
}

fn cmd_quit(_s: &mut Session, args: &[&str], _out: &mut String) -> Result<Flow, String> {
    no_args("quit", args)?;
    Ok(Flow::Quit)
}

/// Running a command line: kept with the table, so `session.rs` does not
/// depend on the handlers above it.
impl Session {
    /// Run one command line and write what it prints. Blank lines and
    /// `#` comments do nothing. Never panics on any input.
    pub fn exec(&mut self, line: &str, out: &mut dyn io::Write) -> io::Result<Flow> {
        let mut text = String::new();
        let flow = self.exec_to_string(line, &mut text);
        out.write_all(super::sanitize::clean(&text).as_bytes())?;
        out.flush()?;
        Ok(flow)
    }

    /// Like [`Session::exec`], appending to a string.
    pub fn exec_to_string(&mut self, line: &str, out: &mut String) -> Flow {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Flow::Continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match dispatch(self, &words, out) {
            Ok(flow) => flow,
            Err(message) => {
                let _ = writeln!(out, "error: {message}");
                Flow::Continue
            }
        }
    }
}
