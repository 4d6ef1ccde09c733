//! House rules and files: `options`, `set` (for the next start), `variant`
//! (a file of options, then a restart), `restart`, `save`, `load` and
//! `reload` (the rules file read again, the game replayed onto it).

use super::args::{Flow, no_args};
use super::sanitize::excerpt;
use super::saved::{self, Replayed, SavedGame};
use super::session::Session;
use crate::Game;
use std::fmt::Write as _;
use std::path::Path;

pub fn cmd_options(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    no_args("options", args)?;
    let opts = s.game.options();
    if opts.is_empty() {
        out.push_str("this game has no options\n");
        return Ok(Flow::Continue);
    }
    let values = &s.state.table().opts;
    let ranges: Vec<String> = opts
        .iter()
        .map(|o| format!("{}..{}", o.min, o.max))
        .collect();
    let wn = opts.iter().map(|o| o.name.len()).max().unwrap_or(0).max(4);
    let wr = ranges.iter().map(|r| r.len()).max().unwrap_or(0).max(5);
    let _ = writeln!(
        out,
        "{:<wn$}  {:>5}  {:>7}  {:<wr$}  doc",
        "name", "value", "default", "range"
    );
    for (i, o) in opts.iter().enumerate() {
        let v = values.get(i).copied().unwrap_or(o.default);
        let line = format!(
            "{:<wn$}  {v:>5}  {:>7}  {:<wr$}  {}",
            o.name, o.default, ranges[i], o.doc
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let pending = pending(s);
    if !pending.is_empty() {
        let _ = writeln!(out, "at the next `restart`: {}", pending.join(", "));
    }
    Ok(Flow::Continue)
}

/// Options whose value at the next start differs from the game under way.
fn pending(s: &Session) -> Vec<String> {
    let (next, _) = s.next_options(&s.game);
    s.game
        .options()
        .iter()
        .zip(next.iter().zip(&s.state.table().opts))
        .filter(|(_, (n, now))| n != now)
        .map(|(o, (n, _))| format!("{}={n}", o.name))
        .collect()
}

/// Remember `name=value` for the next start (forget it when it is the default).
fn choose(s: &mut Session, name: &str, value: i32) {
    s.chosen.retain(|(n, _)| n != name);
    let default = s.game.options().iter().find(|o| o.name == name);
    if default.is_some_and(|o| o.default != value) {
        s.chosen.push((name.to_string(), value));
    }
}

pub fn cmd_set(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let [name, value] = args else {
        return Err("set takes an option and a value: set OPT VALUE (`options` lists them)".into());
    };
    let (mut next, _) = s.next_options(&s.game);
    let value = match value.eq_ignore_ascii_case("default") {
        true => match s.game.options().iter().find(|o| o.name == *name) {
            Some(o) => o.default.to_string(),
            None => value.to_string(),
        },
        false => value.to_string(),
    };
    s.game.set_option(&mut next, name, &value)?;
    let i = s.game.option_index(name).unwrap_or(0);
    let v = next[i];
    choose(s, name, v);
    let now = s.state.table().opts.get(i).copied().unwrap_or(v);
    if now == v {
        let _ = writeln!(out, "{name} = {v}, as in the game under way");
    } else {
        let _ = writeln!(
            out,
            "{name} = {v} from the next `restart` or `reload`; the game under way keeps {now} until then"
        );
    }
    Ok(Flow::Continue)
}

/// The longest piece of a variant file echoed in an error.
const MAX_ECHO: usize = 200;

/// `OPT=VALUE` lines, or a RON map, checked against the game's options.
fn read_variant(game: &Game, path: &str, text: &str) -> Result<Vec<(String, i32)>, String> {
    let pairs: Vec<(usize, String, String)> = if text.trim_start().starts_with('{') {
        let map: std::collections::BTreeMap<String, i32> = ron::from_str(text).map_err(|e| {
            let msg = e.to_string().replace('\n', " ");
            format!(
                "variant `{path}` is not a RON map of options ({})",
                excerpt(&msg, MAX_ECHO)
            )
        })?;
        if let Some(k) = map.keys().find(|k| k.len() > MAX_ECHO) {
            return Err(format!(
                "variant `{path}`: '{}' is too long for an option's name",
                excerpt(k, MAX_ECHO)
            ));
        }
        map.into_iter()
            .map(|(k, v)| (0, k, v.to_string()))
            .collect()
    } else {
        let mut pairs = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (name, value) = crate::engine::split_setting(line).map_err(|_| {
                format!(
                    "variant `{path}` line {}: write OPT=VALUE, not '{}'",
                    i + 1,
                    excerpt(line, MAX_ECHO)
                )
            })?;
            if line.len() > MAX_ECHO {
                return Err(format!(
                    "variant `{path}` line {}: '{}' is too long for OPT=VALUE",
                    i + 1,
                    excerpt(line, MAX_ECHO)
                ));
            }
            pairs.push((i + 1, name.to_string(), value.to_string()));
        }
        pairs
    };
    let mut opts = game.default_options();
    let mut out = Vec::new();
    for (line, name, value) in pairs {
        game.set_option(&mut opts, &name, &value)
            .map_err(|e| match line {
                0 => format!("variant `{path}`: {e}"),
                l => format!("variant `{path}` line {l}: {e}"),
            })?;
        let i = game.option_index(&name).unwrap_or(0);
        out.retain(|(n, _): &(String, i32)| *n != name);
        out.push((name, opts[i]));
    }
    Ok(out)
}

/// A rules file (a `variant "NAME" extends "BASE"`, or a whole game)
/// rather than a list of options.
fn is_rules_file(path: &str, text: &str) -> bool {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    path.ends_with(".rules")
        || first.is_some_and(|l| l.starts_with("variant ") || l.starts_with("game "))
}

pub fn cmd_variant(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let [path] = args else {
        return Err(
            "variant takes one file: a variant in the rules language, or OPT=VALUE lines".into(),
        );
    };
    let text = super::saved::read_capped(path, "variant ")?;
    if is_rules_file(path, &text) {
        return rules_variant(s, path, out);
    }
    let settings = read_variant(&s.game, path, &text)?;
    let fresh = Session::new(&s.game, s.players, s.seed, &{
        let mut opts = s.game.default_options();
        for (name, v) in &settings {
            let _ = s.game.set_option(&mut opts, name, &v.to_string());
        }
        opts
    })?;
    let list: Vec<String> = settings.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let list = match list.is_empty() {
        true => "no option set".to_string(),
        false => list.join(", "),
    };
    let _ = writeln!(
        out,
        "variant {path}: {list} (the other options at their defaults)"
    );
    start(s, fresh, out)
}

/// Play a variant written in the rules language: it becomes the rules in
/// play (and what `reload` reads); options set by hand stay set.
fn rules_variant(s: &mut Session, path: &str, out: &mut String) -> Result<Flow, String> {
    let game = match Game::load(path) {
        Ok(g) => g,
        Err(d) => {
            out.push_str(&render(s, &d));
            let n = d.error_count();
            let plural = if n == 1 { "" } else { "s" };
            return Err(format!(
                "{path} has {n} error{plural}: the game goes on with the rules in play"
            ));
        }
    };
    let (opts, skipped) = s.next_options(&game);
    let fresh = Session::new(&game, s.players, s.seed, &opts)?;
    if !game.warnings().items.is_empty() {
        out.push_str(&render(s, game.warnings()));
    }
    for e in &skipped {
        let _ = writeln!(out, "an option you set does not apply: {e}");
    }
    let _ = writeln!(
        out,
        "variant {path}: now playing {} (`reload` reads this file)",
        game.name()
    );
    let chosen = s.chosen.clone();
    s.rules_path = Some(path.into());
    let flow = start(s, fresh, out);
    s.chosen = chosen;
    s.chosen.retain(|(n, _)| game.option_index(n).is_some());
    flow
}

/// Adopt a new start, say so, let bots move and list the moves.
fn start(s: &mut Session, fresh: Session, out: &mut String) -> Result<Flow, String> {
    s.adopt(fresh);
    let mut opts: Vec<String> = s.chosen.iter().map(|(n, v)| format!("{n}={v}")).collect();
    if opts.is_empty() {
        opts.push("default options".into());
    }
    let _ = writeln!(
        out,
        "new game: {}, {} players, seed {}, {}",
        s.game.name(),
        s.players,
        s.seed,
        opts.join(", ")
    );
    s.run_bots(out)?;
    s.report_position(out);
    Ok(Flow::Continue)
}

pub fn cmd_restart(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let (mut seed, mut players) = (s.seed, s.players);
    let mut rest = args;
    while let [flag, tail @ ..] = rest {
        let flag = flag.to_ascii_lowercase();
        let (flag, value, tail) = match flag.split_once('=') {
            Some((f, v)) => (f.to_string(), v.to_string(), tail),
            None => match tail {
                [v, t @ ..] => (flag, v.to_string(), t),
                [] if !matches!(
                    flag.as_str(),
                    "--seed" | "seed" | "--players" | "players" | "-p"
                ) =>
                {
                    return Err(format!(
                        "restart: unknown flag `{flag}`; restart takes --seed S and --players N"
                    ));
                }
                [] => return Err(format!("restart: `{flag}` needs a value")),
            },
        };
        match flag.as_str() {
            "--seed" | "seed" => {
                seed = value.parse().map_err(|_| {
                    format!("restart: the seed is a whole number from 0, not '{value}'")
                })?;
            }
            "--players" | "players" | "-p" => {
                players = value.parse().map_err(|_| {
                    format!("restart: the number of players is a whole number, not '{value}'")
                })?;
            }
            _ => {
                return Err(format!(
                    "restart takes --seed S and --players N, not '{flag}'"
                ));
            }
        }
        rest = tail;
    }
    let (opts, _) = s.next_options(&s.game);
    let fresh = Session::new(&s.game, players, seed, &opts)?;
    start(s, fresh, out)
}

pub fn cmd_save(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let [path] = args else {
        return Err("save takes one file name, e.g. `save game.ron`".into());
    };
    let saved = SavedGame::of(s);
    saved::write_atomically(Path::new(path), &saved.to_ron())?;
    let n = saved.steps.len();
    let plural = if n == 1 { "" } else { "s" };
    let _ = writeln!(out, "saved {n} step{plural} to {path}");
    Ok(Flow::Continue)
}

pub fn cmd_load(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let (path, force) = match args {
        [path] => (*path, false),
        [path, f] | [f, path] if *f == "--force" => (*path, true),
        _ => return Err("load takes one file name (and --force), e.g. `load game.ron`".into()),
    };
    let text = super::saved::read_capped(path, "")?;
    let saved = SavedGame::parse(&text).map_err(|e| format!("`{path}` is {e}"))?;
    let same = saved.digest == s.game.digest();
    if !same && !force {
        return Err(format!(
            "`{path}` was saved with other rules ({}, digest {:016x}; these are {:016x}); `load {path} --force` replays it anyway",
            saved.rules,
            saved.digest,
            s.game.digest()
        ));
    }
    let (opts, bad) = saved.options_for(&s.game);
    if let (Some(e), false) = (bad.first(), force) {
        return Err(format!("`{path}` is damaged: {e}"));
    }
    let r = saved::replay(&s.game, saved.players, saved.seed, &opts, &saved.steps)
        .map_err(|e| format!("cannot load `{path}`: {e}"))?;
    if let (Some(why), false) = (&r.diverged, force) {
        return Err(format!(
            "`{path}` is damaged: {why}; the game under way is kept"
        ));
    }
    for e in &bad {
        let _ = writeln!(out, "skipped an option: {e}");
    }
    let _ = writeln!(
        out,
        "loaded {path}: {}, {} players, seed {}",
        saved.game, saved.players, saved.seed
    );
    adopt_replay(s, r, saved.steps.len(), out);
    Ok(Flow::Continue)
}

/// Take a replayed game and say how far it went.
fn adopt_replay(s: &mut Session, r: Replayed, wanted: usize, out: &mut String) {
    match &r.diverged {
        None => {
            let plural = if wanted == 1 { "" } else { "s" };
            let _ = writeln!(out, "replayed {wanted} step{plural}");
        }
        Some(why) => {
            let _ = writeln!(
                out,
                "the game diverges at {why}; kept the {} step{} before it",
                r.done,
                if r.done == 1 { "" } else { "s" }
            );
        }
    }
    s.adopt(r.session);
    s.report_position(out);
}

pub fn cmd_reload(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    no_args("reload", args)?;
    let Some(path) = s.rules_path.clone() else {
        return Err("this session has no rules file to reload".into());
    };
    let game = match Game::load(&path) {
        Ok(g) => g,
        Err(d) => {
            out.push_str(&render(s, &d));
            let n = d.error_count();
            return Err(format!(
                "{} has {n} error{}: the game goes on with the rules loaded before",
                path.display(),
                if n == 1 { "" } else { "s" }
            ));
        }
    };
    let (opts, skipped) = s.next_options(&game);
    let steps = saved::steps_of(s);
    let r = saved::replay(&game, s.players, s.seed, &opts, &steps).map_err(|e| {
        format!(
            "cannot replay on the new rules: {e}; the game goes on with the rules loaded before"
        )
    })?;
    let changed = game.digest() != s.game.digest();
    let what = match changed {
        true => "the rules changed",
        false => "no change",
    };
    let _ = writeln!(out, "reloaded {} ({what})", path.display());
    if changed && !game.warnings().items.is_empty() {
        out.push_str(&render(s, game.warnings()));
    }
    for e in &skipped {
        let _ = writeln!(out, "an option you set no longer applies: {e}");
    }
    report_option_changes(s, &game, &opts, out);
    let chosen = s.chosen.clone();
    adopt_replay(s, r, steps.len(), out);
    s.chosen = chosen;
    s.chosen.retain(|(n, _)| game.option_index(n).is_some());
    Ok(Flow::Continue)
}

fn render(s: &Session, d: &crate::diag::Diagnostics) -> String {
    match s.color {
        true => d.render_auto(),
        false => d.render_plain(),
    }
}

/// Options added, removed, or whose default or value changed.
fn report_option_changes(s: &Session, game: &Game, opts: &[i32], out: &mut String) {
    let old = s.game.options();
    for (i, o) in game.options().iter().enumerate() {
        let now = opts[i];
        match old.iter().position(|p| p.name == o.name) {
            None => {
                let _ = writeln!(out, "new option {} = {now}", o.name);
            }
            Some(j) => {
                let before = s
                    .state
                    .table()
                    .opts
                    .get(j)
                    .copied()
                    .unwrap_or(old[j].default);
                if old[j].default != o.default {
                    let _ = writeln!(
                        out,
                        "option {}: default {} -> {}",
                        o.name, old[j].default, o.default
                    );
                }
                if before != now {
                    let _ = writeln!(out, "option {}: {before} -> {now} in this game", o.name);
                }
            }
        }
    }
    for o in old {
        if game.option_index(&o.name).is_none() {
            let _ = writeln!(out, "option {} is gone", o.name);
        }
    }
}
