//! Batch simulation: `grail sim RULES --games N ...` plays many games with
//! agents on all cores and prints statistics (text, or `--json`).
//!
//! `play.rs` plays games ([`simulate`] is the library entry point),
//! `report.rs` holds the mergeable statistics, `render.rs` prints them.
//! This file is the command line.

mod config;
pub mod csv;
pub use crate::interrupt;
mod play;
mod render;
mod report;

pub use crate::playout::MAX_JOBS;
pub use config::SimConfig;
pub use play::{
    Seated, Worker, agent_seed, game_seed, play_game, play_game_in, simulate, simulate_each,
    simulate_with,
};
pub use render::Timing;
pub use report::{GameOutcome, GameResult, Incident, Incidents, KEEP_INCIDENTS, SimReport, Tally};

use crate::agent::AgentKind;
use crate::engine::Game;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct SimArgs {
    /// The rules file.
    pub file: PathBuf,
    /// How many games to play.
    #[arg(long, default_value_t = 1000, value_parser = crate::cli_numbers::whole::<u64>, allow_negative_numbers = true)]
    pub games: u64,
    /// Seats at the table (default: the fewest the game allows).
    #[arg(long, value_parser = crate::cli_numbers::whole::<usize>, allow_negative_numbers = true)]
    pub players: Option<usize>,
    /// Seed of the batch; game i gets a seed derived from it and i.
    #[arg(long, default_value_t = 0, value_parser = crate::cli_numbers::whole::<u64>, allow_negative_numbers = true)]
    pub seed: u64,
    /// Set an option: --set name=value (repeatable).
    #[arg(long = "set", value_name = "OPT=VALUE")]
    pub set: Vec<String>,
    /// Agent for each seat, repeated round the table: random, greedy, or a
    /// list such as greedy,random.
    #[arg(long, value_delimiter = ',', default_value = "random")]
    pub agent: Vec<AgentKind>,
    /// Threads (default: all cores).
    #[arg(long, value_parser = crate::cli_numbers::whole::<usize>, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    /// A game still running after this many decisions counts as not ending.
    #[arg(long, default_value_t = SimConfig::DEFAULT_MAX_DECISIONS, value_parser = crate::cli_numbers::whole::<u32>, allow_negative_numbers = true)]
    pub max_decisions: u32,
    /// Number of the first game (play games first..first+games, e.g. to replay one).
    #[arg(long, default_value_t = 0, value_parser = crate::cli_numbers::whole::<u64>, allow_negative_numbers = true)]
    pub first: u64,
    /// Check after every step that every card is in exactly one zone.
    #[arg(long)]
    pub check_conservation: bool,
    /// Print every decision (plays one game at a time).
    #[arg(long)]
    pub trace: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write one CSV record per game to FILE (seed, length, scores, winners).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
}

/// Turn the command line into a configuration, or a one-line error.
pub fn config(game: &Game, args: &SimArgs) -> Result<SimConfig, String> {
    let players = args.players.unwrap_or(game.players().0);
    let mut cfg = SimConfig::new(game, players, args.games);
    cfg.options = game.options_from(&args.set)?;
    cfg.seed = args.seed;
    cfg.first = args.first;
    if args.first.checked_add(args.games).is_none() {
        return Err(format!(
            "--first {} --games {}: game numbers stop at {} (ask for fewer games)",
            args.first,
            args.games,
            u64::MAX
        ));
    }
    cfg.agents = args.agent.clone();
    cfg.jobs = args.jobs;
    cfg.max_decisions = args.max_decisions;
    cfg.check_conservation = args.check_conservation;
    cfg.validate(game)?;
    Ok(cfg)
}

/// `grail sim`: exit code 0 when every game ended cleanly, 1 otherwise.
pub fn run(args: SimArgs) -> u8 {
    let game = match Game::load(&args.file) {
        Ok(g) => g,
        Err(d) => {
            eprint!("{}", d.render_auto());
            return 1;
        }
    };
    let cfg = match config(&game, &args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {}", crate::sanitize::clean(&e.to_string()));
            return 1;
        }
    };
    let start = Instant::now();
    interrupt::install();
    let rows = Mutex::new(Vec::new());
    let (report, threads) = if args.trace {
        (trace(&game, &cfg), 1)
    } else {
        let bar = progress_bar(cfg.games, start);
        let each = |r: &GameResult| {
            if args.csv.is_some()
                && let Ok(mut rows) = rows.lock()
            {
                rows.push((r.index, csv::row(r, cfg.players)));
            }
            if let Some(b) = &bar {
                b.tick(start);
            }
        };
        let report = simulate_each(&game, &cfg, &each, interrupt::flag());
        if let Some(b) = bar {
            b.bar.finish_and_clear();
        }
        (report, cfg.jobs.unwrap_or_else(rayon::current_num_threads))
    };
    if interrupt::interrupted() {
        eprintln!(
            "interrupted: {} of {} games played; the report covers those",
            report.games, cfg.games
        );
    }
    if let Some(path) = &args.csv {
        let rows = rows.into_inner().unwrap_or_default();
        if let Err(e) = std::fs::write(path, csv::table(rows, cfg.players)) {
            let msg = format!("error: cannot write {}: {e}", path.display());
            eprintln!("{}", crate::sanitize::clean(&msg));
            return 1;
        }
    }
    let timing = Timing {
        seconds: start.elapsed().as_secs_f64(),
        threads,
    };
    if args.json {
        print!("{}", render::json(&game, &cfg, &report, timing));
    } else {
        print!("{}", render::text(&game, &cfg, &report, timing));
    }
    u8::from(report.errors() > 0)
}

/// A progress bar on a terminal, drawn once a batch has run about a second.
struct Progress {
    bar: indicatif::ProgressBar,
    shown: std::sync::atomic::AtomicBool,
}

impl Progress {
    /// Count one game; show the bar once the run has lasted a second.
    fn tick(&self, start: Instant) {
        use std::sync::atomic::Ordering;
        self.bar.inc(1);
        if !self.shown.load(Ordering::Relaxed)
            && start.elapsed() >= Duration::from_secs(1)
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
    }
}

fn progress_bar(games: u64, start: Instant) -> Option<Progress> {
    if games < 2 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(games),
        indicatif::ProgressDrawTarget::hidden(),
    );
    let style = indicatif::ProgressStyle::with_template(
        "{bar:40} {human_pos}/{human_len} games, {rate}, eta {eta}",
    )
    .map(|s| {
        s.with_key(
            "rate",
            move |st: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                let _ = write!(w, "{} games/s", rate(st.pos() as f64 / secs));
            },
        )
    });
    if let Ok(style) = style {
        bar.set_style(style);
    }
    Some(Progress {
        bar,
        shown: std::sync::atomic::AtomicBool::new(false),
    })
}

/// A rate for people: `12,345`, `812`, `3.4`, `0.25`.
pub fn rate(r: f64) -> String {
    if !r.is_finite() || r < 0.0 {
        return "-".to_string();
    }
    if r >= 1000.0 {
        let n = r.round() as u64;
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    } else if r >= 100.0 {
        format!("{r:.0}")
    } else if r >= 10.0 {
        format!("{r:.1}")
    } else {
        format!("{r:.2}")
    }
}

/// Play the games one at a time, printing each decision and each ending.
fn trace(game: &Game, cfg: &SimConfig) -> SimReport {
    let mut report = SimReport::empty(game, cfg);
    let mut worker = Worker::default();
    for i in cfg.first..cfg.first.saturating_add(cfg.games) {
        println!("game {i} (seed {})", game_seed(cfg.seed, i));
        let mut watch = |s: &crate::State, a: crate::Action| {
            let who = s
                .chooser()
                .map(|p| format!("P{p}"))
                .unwrap_or_else(|| "?".into());
            println!(
                "  {:>5} turn {:<4} {who}: {}",
                s.decisions() + 1,
                s.turns(),
                s.label(game, a)
            );
        };
        let r = play_game_in(game, cfg, i, &mut worker, &mut watch);
        match &r.outcome {
            GameOutcome::Finished {
                turns,
                decisions,
                winners,
            } => {
                let w: Vec<String> = winners.iter().map(|p| format!("P{p}")).collect();
                let w = if w.is_empty() {
                    "none".to_string()
                } else {
                    w.join(", ")
                };
                println!("  over after {turns} turns, {decisions} decisions; winners: {w}");
            }
            GameOutcome::Stuck(m) => println!("  STUCK: {m}"),
            GameOutcome::Fault(m) => println!("  FAULT: {m}"),
            GameOutcome::Unfinished(m) => println!("  DID NOT END: {m}"),
        }
        report.add(r);
    }
    report
}
