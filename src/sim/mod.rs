//! Batch simulation: `grail sim RULES --games N ...` plays many games with
//! agents on all cores and prints statistics (text, or `--json`).
//!
//! `play.rs` plays games ([`simulate`] is the library entry point),
//! `report.rs` holds the mergeable statistics, `render.rs` prints them.
//! This file is the command line.

mod play;
mod render;
mod report;

pub use play::{MAX_JOBS, SimConfig, agent_seed, game_seed, play_game, simulate, simulate_with};
pub use render::{Timing, json_number, json_string};
pub use report::{GameOutcome, GameResult, Incident, Incidents, KEEP_INCIDENTS, SimReport, Tally};

use crate::agent::AgentKind;
use crate::engine::Game;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct SimArgs {
    /// The rules file.
    pub file: PathBuf,
    /// How many games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Seats at the table (default: the fewest the game allows).
    #[arg(long)]
    pub players: Option<usize>,
    /// Seed of the batch; game i gets a seed derived from it and i.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Set an option: --set name=value (repeatable).
    #[arg(long = "set", value_name = "OPT=VALUE")]
    pub set: Vec<String>,
    /// Agent for each seat, repeated round the table: random, greedy, or a
    /// list such as greedy,random.
    #[arg(long, value_delimiter = ',', default_value = "random")]
    pub agent: Vec<AgentKind>,
    /// Threads (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// A game still running after this many decisions counts as not ending.
    #[arg(long, default_value_t = SimConfig::DEFAULT_MAX_DECISIONS)]
    pub max_decisions: u32,
    /// Number of the first game (play games first..first+games, e.g. to replay one).
    #[arg(long, default_value_t = 0)]
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
}

/// Turn the command line into a configuration, or a one-line error.
pub fn config(game: &Game, args: &SimArgs) -> Result<SimConfig, String> {
    let players = args.players.unwrap_or(game.players().0);
    let mut cfg = SimConfig::new(game, players, args.games);
    for s in &args.set {
        let Some((name, value)) = s.split_once('=') else {
            return Err(format!("--set takes OPT=VALUE, not `{s}`"));
        };
        game.set_option(&mut cfg.options, name.trim(), value.trim())?;
    }
    cfg.seed = args.seed;
    cfg.first = args.first;
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
            eprintln!("error: {e}");
            return 1;
        }
    };
    let start = Instant::now();
    let (report, threads) = if args.trace {
        (trace(&game, &cfg), 1)
    } else {
        let bar = progress_bar(cfg.games);
        let tick = || {
            if let Some(b) = &bar {
                b.inc(1);
            }
        };
        let report = simulate_with(&game, &cfg, &tick);
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        (report, cfg.jobs.unwrap_or_else(rayon::current_num_threads))
    };
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

/// A progress bar on a terminal, for batches long enough to want one.
fn progress_bar(games: u64) -> Option<indicatif::ProgressBar> {
    if games < 2000 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(games);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
    {
        bar.set_style(style);
    }
    Some(bar)
}

/// Play the games one at a time, printing each decision and each ending.
fn trace(game: &Game, cfg: &SimConfig) -> SimReport {
    let mut report = SimReport::empty(game, cfg);
    let mut buf = Vec::new();
    for i in cfg.first..cfg.first.saturating_add(cfg.games) {
        println!("game {i} (seed {})", game_seed(cfg.seed, i));
        let mut watch = |s: &crate::State, a: crate::Action| {
            let who = s
                .chooser()
                .map(|p| format!("P{p}"))
                .unwrap_or_else(|| "?".into());
            println!(
                "  {:>5} turn {:<4} {who}: {}",
                s.decisions + 1,
                s.turns,
                s.label(game, a)
            );
        };
        let r = play_game(game, cfg, i, &mut buf, &mut watch);
        match &r.outcome {
            GameOutcome::Finished {
                turns,
                decisions,
                winners,
            } => {
                let w: Vec<String> = winners.iter().map(|p| format!("P{p}")).collect();
                println!(
                    "  over after {turns} turns, {decisions} decisions; winners: {}",
                    w.join(", ")
                );
            }
            GameOutcome::Stuck(m) => println!("  STUCK: {m}"),
            GameOutcome::Fault(m) => println!("  FAULT: {m}"),
            GameOutcome::Unfinished(m) => println!("  DID NOT END: {m}"),
        }
        report.add(r);
    }
    report
}
