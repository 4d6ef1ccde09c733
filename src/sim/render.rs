//! Printing a [`SimReport`]: the text summary for people and a compact JSON
//! object for machines (written by hand: the report is small and flat).

use super::play::SimConfig;
use super::report::{Incidents, SimReport};
use crate::engine::Game;
use std::fmt::Write;

/// How long a batch took, and on how many threads.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub seconds: f64,
    pub threads: usize,
}

impl Timing {
    pub fn games_per_second(&self, games: u64) -> f64 {
        if self.seconds > 0.0 {
            games as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Non-default options as `name=value`, in declaration order.
fn changed_options(game: &Game, cfg: &SimConfig) -> Vec<String> {
    game.options()
        .iter()
        .zip(&cfg.options)
        .filter(|(o, v)| o.default != **v)
        .map(|(o, v)| format!("{}={v}", o.name))
        .collect()
}

/// `random`, or `greedy,random` when the seats differ.
fn agents_text(r: &SimReport) -> String {
    let first = r.agents.first().map(String::as_str).unwrap_or("random");
    if r.agents.iter().all(|a| a == first) {
        first.to_string()
    } else {
        r.agents.join(",")
    }
}

/// The command that plays game `index` of this batch alone, tracing it.
fn replay_command(game: &Game, cfg: &SimConfig, r: &SimReport, index: u64) -> String {
    let mut cmd = format!(
        "grail sim {} --players {} --seed {} --first {index} --games 1 --trace",
        game.source().name,
        cfg.players,
        cfg.seed
    );
    for o in changed_options(game, cfg) {
        let _ = write!(cmd, " --set {o}");
    }
    if r.agents.iter().any(|a| a != "random") {
        let _ = write!(cmd, " --agent {}", agents_text(r));
    }
    if cfg.max_decisions != SimConfig::DEFAULT_MAX_DECISIONS {
        let _ = write!(cmd, " --max-decisions {}", cfg.max_decisions);
    }
    cmd
}

/// The summary people read.
pub fn text(game: &Game, cfg: &SimConfig, r: &SimReport, t: Timing) -> String {
    let mut s = String::new();
    let opts = changed_options(game, cfg);
    let opts = if opts.is_empty() {
        String::new()
    } else {
        format!(", {}", opts.join(" "))
    };
    let _ = writeln!(
        s,
        "{}: {} players, {} agents, seed {}{opts}",
        r.rules,
        r.players,
        agents_text(r),
        cfg.seed
    );
    let _ = writeln!(s, "games      {} played, {} finished", r.games, r.finished);
    if r.errors() == 0 {
        let _ = writeln!(s, "errors     none");
    } else {
        let _ = writeln!(
            s,
            "errors     {} stuck, {} faults, {} unfinished",
            r.stuck.count, r.faults.count, r.unfinished.count
        );
        for (kind, list) in r.incident_kinds() {
            for i in &list.first {
                let _ = writeln!(
                    s,
                    "  {kind:<10} game {} (seed {}): {}",
                    i.game, i.seed, i.message
                );
            }
            if list.count > list.first.len() as u64 {
                let _ = writeln!(
                    s,
                    "  {kind:<10} ... and {} more",
                    list.count - list.first.len() as u64
                );
            }
        }
        if let Some(i) = r
            .incident_kinds()
            .iter()
            .filter_map(|(_, l)| l.first.first())
            .min_by_key(|i| i.game)
        {
            let _ = writeln!(s, "  replay one: {}", replay_command(game, cfg, r, i.game));
        }
    }
    if r.finished > 0 {
        let _ = writeln!(
            s,
            "turns      {:.1} per game (min {}, max {})",
            r.turns.mean(r.finished),
            r.turns.min,
            r.turns.max
        );
        let _ = writeln!(
            s,
            "decisions  {:.1} per game (min {}, max {})",
            r.decisions.mean(r.finished),
            r.decisions.min,
            r.decisions.max
        );
        let shares: Vec<String> = (0..r.players)
            .map(|p| format!("P{p} {:.1}%", 100.0 * r.win_share(p)))
            .collect();
        let _ = write!(s, "win share  {}", shares.join("  "));
        if r.no_winner > 0 {
            let _ = write!(s, "  (no winner in {} games)", r.no_winner);
        }
        let _ = writeln!(s);
        if r.agent_names.len() > 1 {
            for (a, name) in r.agent_names.iter().enumerate() {
                let (rate, lo, hi) = r.agent_win_rate(a);
                let _ = writeln!(
                    s,
                    "{:<10} {name} wins {:.1}% (95% CI {:.1}-{:.1}%) of {} seats, seats rotated",
                    if a == 0 { "by agent" } else { "" },
                    100.0 * rate,
                    100.0 * lo,
                    100.0 * hi,
                    r.agent_seats[a]
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "speed      {:.0} games/s ({:.2} s on {} threads)",
        t.games_per_second(r.games),
        t.seconds,
        t.threads
    );
    s
}

/// A JSON string literal.
pub fn json_string(v: &str) -> String {
    let mut s = String::with_capacity(v.len() + 2);
    s.push('"');
    for c in v.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// A JSON number (`null` for NaN and infinities, which JSON lacks).
pub fn json_number(v: f64) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "null".into()
    }
}

/// `[a,b,...]` from JSON values.
fn json_array<I: IntoIterator<Item = String>>(items: I) -> String {
    let items: Vec<String> = items.into_iter().collect();
    format!("[{}]", items.join(","))
}

/// `{"k":v,...}` from keys and JSON values.
fn json_object<'a, I: IntoIterator<Item = (&'a str, String)>>(fields: I) -> String {
    let fields: Vec<String> = fields
        .into_iter()
        .map(|(k, v)| format!("{}:{v}", json_string(k)))
        .collect();
    format!("{{{}}}", fields.join(","))
}

fn json_incidents(list: &Incidents) -> String {
    let first = list.first.iter().map(|i| {
        json_object([
            ("game", i.game.to_string()),
            ("seed", i.seed.to_string()),
            ("message", json_string(&i.message)),
        ])
    });
    json_object([
        ("count", list.count.to_string()),
        ("first", json_array(first)),
    ])
}

/// The report as one JSON object (one line).
pub fn json(game: &Game, cfg: &SimConfig, r: &SimReport, t: Timing) -> String {
    let options = game
        .options()
        .iter()
        .zip(&cfg.options)
        .map(|(o, v)| (o.name.as_str(), v.to_string()));
    let tally = |x: &super::report::Tally| {
        let (min, max) = if r.finished == 0 {
            ("null".into(), "null".into())
        } else {
            (x.min.to_string(), x.max.to_string())
        };
        json_object([
            ("sum", x.sum.to_string()),
            ("min", min),
            ("max", max),
            ("mean", json_number(x.mean(r.finished))),
        ])
    };
    let seats = (0..r.players).map(|p| {
        json_object([
            ("seat", p.to_string()),
            (
                "agent",
                json_string(r.agents.get(p).map(String::as_str).unwrap_or("random")),
            ),
            ("win_share", json_number(r.win_share(p))),
            ("games_won", r.games_won(p).to_string()),
            (
                "wins_by_winner_count",
                json_array(r.wins.get(p).into_iter().flatten().map(u64::to_string)),
            ),
        ])
    });
    let by_agent = r.agent_names.iter().enumerate().map(|(a, name)| {
        let (rate, lo, hi) = r.agent_win_rate(a);
        json_object([
            ("agent", json_string(name)),
            ("seats", r.agent_seats[a].to_string()),
            ("win_rate", json_number(rate)),
            ("ci95", json_array([json_number(lo), json_number(hi)])),
        ])
    });
    json_object([
        ("rules", json_string(&r.rules)),
        ("file", json_string(&game.source().name)),
        ("players", r.players.to_string()),
        ("seed", cfg.seed.to_string()),
        ("first_game", cfg.first.to_string()),
        ("options", json_object(options)),
        ("max_decisions", cfg.max_decisions.to_string()),
        ("games", r.games.to_string()),
        ("finished", r.finished.to_string()),
        ("errors", r.errors().to_string()),
        ("stuck", json_incidents(&r.stuck)),
        ("faults", json_incidents(&r.faults)),
        ("unfinished", json_incidents(&r.unfinished)),
        ("turns", tally(&r.turns)),
        ("decisions", tally(&r.decisions)),
        ("seats", json_array(seats)),
        ("by_agent", json_array(by_agent)),
        ("no_winner", r.no_winner.to_string()),
        ("seconds", json_number(t.seconds)),
        ("threads", t.threads.to_string()),
        ("games_per_second", json_number(t.games_per_second(r.games))),
    ]) + "\n"
}

#[cfg(test)]
mod tests {
    use super::{json_number, json_string};

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(
            json_string("a\"b\\c\nd\u{1}é"),
            "\"a\\\"b\\\\c\\nd\\u0001é\""
        );
        assert_eq!(json_number(0.5), "0.5");
        assert_eq!(json_number(f64::NAN), "null");
        assert_eq!(json_number(1e21), "1000000000000000000000");
    }
}
