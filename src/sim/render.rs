//! Printing a [`SimReport`]: the text summary for people and a compact JSON
//! object for machines (serde).

use super::config::SimConfig;
use super::report::{Incidents, SimReport, Tally};
use crate::engine::Game;
use serde::Serialize;
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
    game.changed_settings(&cfg.options)
}

/// `random`, or `greedy,random` when the seats differ: the list as given
/// (a list longer than the table rotates through every agent in it, so
/// the replay command must name them all).
fn agents_text(r: &SimReport) -> String {
    let list = if r.lineup.is_empty() {
        &r.agents
    } else {
        &r.lineup
    };
    let first = list.first().map(String::as_str).unwrap_or("random");
    if list.iter().all(|a| a == first) {
        first.to_string()
    } else {
        list.join(",")
    }
}

/// The command that plays game `index` of this batch alone, tracing it.
fn replay_command(game: &Game, cfg: &SimConfig, r: &SimReport, index: u64) -> String {
    let mut cmd = format!(
        "grail sim {} --players {} --seed {} --first {index} --games 1 --trace",
        game.source().path(),
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
    errors_text(game, cfg, r, &mut s);
    if r.finished > 0 {
        outcomes_text(r, &mut s);
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

/// The `errors` lines: none, or the count of each kind, the first few
/// incidents, and a command replaying the earliest.
fn errors_text(game: &Game, cfg: &SimConfig, r: &SimReport, s: &mut String) {
    if r.errors() == 0 {
        let _ = writeln!(s, "errors     none");
        return;
    }
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

/// Turns, decisions, each seat's win share and, with several agents, each
/// agent's win rate over the finished games.
fn outcomes_text(r: &SimReport, s: &mut String) {
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

/// `{"sum":N,"min":N|null,"max":N|null,"mean":F}` of a tally over the
/// finished games (min and max are null when none finished).
#[derive(Serialize)]
struct TallyJson {
    sum: u64,
    min: Option<u32>,
    max: Option<u32>,
    mean: f64,
}

impl TallyJson {
    fn of(x: &Tally, finished: u64) -> TallyJson {
        TallyJson {
            sum: x.sum,
            min: (finished > 0).then_some(x.min),
            max: (finished > 0).then_some(x.max),
            mean: x.mean(finished),
        }
    }
}

#[derive(Serialize)]
struct SeatJson<'a> {
    seat: usize,
    agent: &'a str,
    win_share: f64,
    games_won: u64,
    wins_by_winner_count: &'a [u64],
}

#[derive(Serialize)]
struct AgentJson<'a> {
    agent: &'a str,
    seats: u64,
    win_rate: f64,
    ci95: [f64; 2],
}

/// The game's options as a JSON object in declaration order.
struct OptionsJson<'a>(Vec<(&'a str, i32)>);

impl Serialize for OptionsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// The shape of `grail sim --json` (docs/sim.md): field order is output order.
#[derive(Serialize)]
struct ReportJson<'a> {
    rules: &'a str,
    file: &'a str,
    players: usize,
    seed: u64,
    first_game: u64,
    options: OptionsJson<'a>,
    max_decisions: u32,
    games: u64,
    finished: u64,
    errors: u64,
    stuck: &'a Incidents,
    faults: &'a Incidents,
    unfinished: &'a Incidents,
    turns: TallyJson,
    decisions: TallyJson,
    seats: Vec<SeatJson<'a>>,
    by_agent: Vec<AgentJson<'a>>,
    no_winner: u64,
    seconds: f64,
    threads: usize,
    games_per_second: f64,
}

/// The report as one JSON object (one line). Numbers that are not finite
/// are `null`; incidents carry the moves that replay them.
pub fn json(game: &Game, cfg: &SimConfig, r: &SimReport, t: Timing) -> String {
    let options = game
        .options()
        .iter()
        .zip(&cfg.options)
        .map(|(o, v)| (o.name.as_str(), *v))
        .collect();
    let seats = (0..r.players)
        .map(|p| SeatJson {
            seat: p,
            agent: r.agents.get(p).map(String::as_str).unwrap_or("random"),
            win_share: r.win_share(p),
            games_won: r.games_won(p),
            wins_by_winner_count: r.wins.get(p).map(Vec::as_slice).unwrap_or(&[]),
        })
        .collect();
    let by_agent = r
        .agent_names
        .iter()
        .enumerate()
        .map(|(a, name)| {
            let (rate, lo, hi) = r.agent_win_rate(a);
            AgentJson {
                agent: name,
                seats: r.agent_seats[a],
                win_rate: rate,
                ci95: [lo, hi],
            }
        })
        .collect();
    let report = ReportJson {
        rules: &r.rules,
        file: game.source().path(),
        players: r.players,
        seed: cfg.seed,
        first_game: cfg.first,
        options: OptionsJson(options),
        max_decisions: cfg.max_decisions,
        games: r.games,
        finished: r.finished,
        errors: r.errors(),
        stuck: &r.stuck,
        faults: &r.faults,
        unfinished: &r.unfinished,
        turns: TallyJson::of(&r.turns, r.finished),
        decisions: TallyJson::of(&r.decisions, r.finished),
        seats,
        by_agent,
        no_winner: r.no_winner,
        seconds: t.seconds,
        threads: t.threads,
        games_per_second: t.games_per_second(r.games),
    };
    // Serialising plain structs of numbers and strings cannot fail.
    serde_json::to_string(&report).unwrap_or_default() + "\n"
}
