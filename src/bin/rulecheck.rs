//! `rulecheck`: grail's soundness checker for rules files. A thin front end
//! over `grail::rulecheck`: parse arguments, check and simulate each file,
//! print the report (or JSON) and the time taken; exit 0 when sound, 1 when
//! not, 2 on bad arguments.
//!
//! ```text
//! rulecheck FILE... [--variant FILE]... [--set OPT=VALUE]... [--vary OPT=V1,V2,...]...
//!           [--players N,M,...] [--games N] [--seed S] [--jobs N] [--agent AGENT]
//!           [--max-decisions N] [--explore BUDGET] [--json] [--html FILE] [--deny warnings|LINT]... [--repro-dir DIR]
//!           [--shard K/N|auto|auto/N [--out PART]] [--list]
//! rulecheck merge PART... [--json] [--deny warnings|LINT]... [--repro-dir DIR]
//! ```

use clap::{Args, Parser, Subcommand};
use grail::agent::AgentKind;
use grail::rulecheck::{
    Budget, Config, Level, Part, Pass, Plan, REGISTRY, Report, Shard, Variant, Vary, merge,
    prepare, sched,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Check rules files: lints, then simulated games (does every game end, can
/// one get stuck, does anything vanish, what never happens, is it balanced).
#[derive(Parser)]
#[command(
    name = "rulecheck",
    version,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    cmd: Option<Cmd>,
    #[command(flatten)]
    check: CheckArgs,
}

#[derive(Subcommand)]
enum Cmd {
    /// Combine the part files of a --shard run into one report.
    Merge(MergeArgs),
}

#[derive(Args)]
struct Output {
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Also write the report as one self-contained HTML page with charts.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Treat `warnings` (all of them) or one lint as an error; repeatable.
    #[arg(long, value_name = "warnings|LINT")]
    deny: Vec<String>,
    /// Folder for reproduction scripts too long to print inline (default:
    /// `rulecheck-repro` in the system's temporary folder).
    #[arg(long, value_name = "DIR")]
    repro_dir: Option<PathBuf>,
}

#[derive(Args)]
struct MergeArgs {
    /// Part files written by `rulecheck ... --shard K/N`.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    #[command(flatten)]
    out: Output,
}

#[derive(Args)]
struct CheckArgs {
    /// Rules files to check.
    #[arg(required_unless_present = "list")]
    files: Vec<PathBuf>,
    /// A variant file (`OPT=VALUE` lines): a column beside the base rules; repeatable.
    #[arg(long, value_name = "FILE")]
    variant: Vec<String>,
    /// Set an option for the whole run; repeatable.
    #[arg(long, value_name = "OPT=VALUE")]
    set: Vec<String>,
    /// A column for each value of an option; repeatable (columns combine).
    #[arg(long, value_name = "OPT=V1,V2,...")]
    vary: Vec<String>,
    /// Player counts, e.g. 2,4,6 (default: every count the game allows, or
    /// the fewest when comparing variants or values).
    #[arg(long, value_delimiter = ',', value_name = "N,M,...", value_parser = grail::cli_numbers::whole::<usize>, allow_negative_numbers = true)]
    players: Option<Vec<usize>>,
    /// Games per column (0: lints only).
    #[arg(long, default_value_t = 1000, value_parser = grail::cli_numbers::whole::<u64>, allow_negative_numbers = true)]
    games: u64,
    /// Seed of the run (game i gets a seed derived from it, as in `grail sim`).
    #[arg(long, default_value_t = 0, value_parser = grail::cli_numbers::whole::<u64>, allow_negative_numbers = true)]
    seed: u64,
    /// Threads (default: all cores).
    #[arg(long, value_parser = grail::cli_numbers::whole::<usize>, allow_negative_numbers = true)]
    jobs: Option<usize>,
    /// Agent in every seat: random, greedy, mc:N, mcts:N, ismcts:N (docs/agents.md).
    #[arg(long, default_value_t = AgentKind::Random)]
    agent: AgentKind,
    /// A game still running after this many decisions does not end.
    #[arg(long, default_value_t = 10_000, value_parser = grail::cli_numbers::whole::<u32>, allow_negative_numbers = true)]
    max_decisions: u32,
    /// Guided exploration after the random games, per file: a time (10s,
    /// 500ms; played on while it still comes nearer an unreached line, up
    /// to 4 times as long), a number of games (2000, deterministic; played
    /// on while it still finds new code, up to 4 times as many) or 0 (off);
    /// a time is at most 86400s (a day).
    #[arg(
        long,
        default_value = "10s",
        value_name = "BUDGET",
        allow_hyphen_values = true
    )]
    explore: String,
    /// Play only the K-th of N slices of the games and write a part file
    /// for `rulecheck merge` (to --out, or stdout). `auto` takes K and N
    /// from a Slurm job array or a Kubernetes Indexed Job (`auto/N` gives
    /// N); see docs/scale.md.
    #[arg(long, value_name = "K/N|auto")]
    shard: Option<String>,
    /// Where --shard writes its part file (default: stdout).
    #[arg(long, value_name = "PART", requires = "shard")]
    out: Option<PathBuf>,
    /// List the lints and exit.
    #[arg(long)]
    list: bool,
    #[command(flatten)]
    output: Output,
}

/// Exit 2 with one line on stderr.
fn bad(message: impl std::fmt::Display) -> ! {
    eprintln!("rulecheck: error: {message}");
    std::process::exit(2);
}

fn config(o: &Output) -> Config {
    let mut config = Config {
        repro_dir: Some(
            o.repro_dir
                .clone()
                .unwrap_or_else(|| std::env::temp_dir().join("rulecheck-repro")),
        ),
        ..Config::default()
    };
    for d in &o.deny {
        if let Err(e) = config.deny(d) {
            bad(e);
        }
    }
    config
}

fn list() {
    for l in REGISTRY {
        let when = match l.pass {
            Pass::Static(_) => "static",
            Pass::Driver => "comments",
            Pass::Simulation => "simulation",
        };
        let level = if l.level == Level::Error {
            "error"
        } else {
            "warning"
        };
        println!("{:<22} {level:<7} {when:<10} {}", l.name, l.description);
    }
}

/// Write the report where `o` says; the exit code it calls for.
fn print(report: &Report, o: &Output, elapsed: Duration) -> i32 {
    if let Some(path) = &o.html
        && let Err(e) = std::fs::write(path, report.to_html())
    {
        eprintln!("rulecheck: error: cannot write `{}`: {e}", path.display());
        std::process::exit(1);
    }
    if o.json {
        print!("{}", report.to_json(Some(elapsed)));
    } else {
        print!(
            "{}",
            report.render(std::io::stdout().is_terminal(), Some(elapsed))
        );
    }
    report.exit_code()
}

fn plan(a: &CheckArgs) -> Plan {
    let variants = a
        .variant
        .iter()
        .map(|p| Variant::load(p).unwrap_or_else(|e| bad(e)))
        .collect();
    let varies = a
        .vary
        .iter()
        .map(|v| Vary::parse(v).unwrap_or_else(|e| bad(e)))
        .collect();
    if a.jobs == Some(0) {
        bad("--jobs must be at least 1");
    }
    if let Some(j) = a.jobs.filter(|j| *j > grail::sim::MAX_JOBS) {
        bad(format!(
            "--jobs may be at most {}, not {j}",
            grail::sim::MAX_JOBS
        ));
    }
    Plan {
        games: a.games,
        seed: a.seed,
        agent: a.agent.name().to_string(),
        max_decisions: a.max_decisions,
        // a table size given twice is one column, not two of the same
        players: a.players.as_ref().map(|ns| {
            let mut once: Vec<usize> = Vec::with_capacity(ns.len());
            for &n in ns {
                if !once.contains(&n) {
                    once.push(n);
                }
            }
            once
        }),
        sets: a.set.clone(),
        variants,
        varies,
        shard: a.shard.as_deref().map(|s| read_shard(s).0),
    }
}

/// `--shard K/N`, or `auto` read from the scheduler's variables, with where
/// it came from.
fn read_shard(arg: &str) -> (Shard, Option<String>) {
    if sched::is_auto(arg) {
        let (s, from) =
            sched::auto_shard(arg, &|name| std::env::var(name).ok()).unwrap_or_else(|e| bad(e));
        (s, Some(from))
    } else {
        (Shard::parse(arg).unwrap_or_else(|e| bad(e)), None)
    }
}

/// A progress bar on stderr (a terminal only), shown once a run has taken a second.
fn progress(total: u64) -> Option<ProgressBar> {
    if total == 0 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games, eta {eta}") {
        bar.set_style(style);
    }
    Some(bar)
}

fn check(a: &CheckArgs) -> ! {
    let config = config(&a.output);
    let plan = plan(a);
    let budget = Budget::parse(&a.explore).unwrap_or_else(|e| bad(e));
    let started = Instant::now();
    let run = prepare(&a.files, &config, &plan).unwrap_or_else(|e| bad(e));
    // the first Ctrl-C stops the games (and the exploration) and keeps
    // what was played; a second one ends the process
    grail::interrupt::install();
    let bar = progress(run.total_games());
    let shown = AtomicBool::new(false);
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
            if !shown.load(Ordering::Relaxed)
                && started.elapsed() > Duration::from_secs(1)
                && !shown.swap(true, Ordering::Relaxed)
            {
                b.set_draw_target(ProgressDrawTarget::stderr());
            }
        }
    };
    let stats = run.simulate(a.jobs, &tick);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let stopped = grail::interrupt::interrupted();
    if stopped {
        let played: u64 = stats.iter().flatten().map(|s| s.games).sum();
        eprintln!(
            "rulecheck: interrupted: {played} of {} games played; the report covers those, without exploration",
            run.total_games()
        );
    }
    if let Some(shard) = plan.shard {
        if stopped {
            // a part merged as if whole would be a silently wrong report
            eprintln!("rulecheck: the shard's part is not written: it would be incomplete");
            std::process::exit(130);
        }
        let part = run.part(&stats).to_ron();
        match &a.out {
            Some(path) => {
                if let Err(e) = std::fs::write(path, part) {
                    eprintln!("rulecheck: error: cannot write `{}`: {e}", path.display());
                    std::process::exit(1);
                }
                let from = a
                    .shard
                    .as_deref()
                    .and_then(|s| read_shard(s).1)
                    .map_or(String::new(), |f| format!(" ({f})"));
                eprintln!(
                    "rulecheck: shard {}/{}{from} written to {} in {:.2} s",
                    shard.k,
                    shard.n,
                    path.display(),
                    started.elapsed().as_secs_f64()
                );
            }
            None => print!("{part}"),
        }
        std::process::exit(0);
    }
    let budget = if stopped { Budget::Off } else { budget };
    let explored = grail::rulecheck::with_jobs(a.jobs, || run.explore(&stats, budget));
    if !stopped && grail::interrupt::interrupted() {
        eprintln!(
            "rulecheck: interrupted: the exploration stopped early; the report covers what it reached"
        );
    }
    let report = run.finish_explored(stats, explored);
    let code = print(&report, &a.output, started.elapsed());
    // an interrupted run is not a verdict
    std::process::exit(if grail::interrupt::interrupted() {
        130
    } else {
        code
    })
}

fn merge_parts(m: &MergeArgs) -> ! {
    let config = config(&m.out);
    let started = Instant::now();
    let mut parts = Vec::new();
    for p in &m.parts {
        let name = p.display().to_string();
        // part files of a thousand columns stay far below this bound
        let text = grail::load::read_at_most(p, 256 << 20)
            .and_then(|b| String::from_utf8(b).map_err(std::io::Error::other))
            .unwrap_or_else(|e| bad(format_args!("cannot read `{name}`: {e}")));
        parts.push((
            name.clone(),
            Part::from_ron(&name, &text).unwrap_or_else(|e| bad(e)),
        ));
    }
    let report = merge(&parts, &config).unwrap_or_else(|e| bad(e));
    std::process::exit(print(&report, &m.out, started.elapsed()))
}

/// Panics in the engine are caught per game and reported with their seed;
/// print the first one as it happens, not one per game.
fn quiet_repeated_panics() {
    static SEEN: AtomicBool = AtomicBool::new(false);
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !SEEN.swap(true, Ordering::Relaxed) {
            default(info);
            eprintln!("rulecheck: every game that panics is reported with its seed");
        }
    }));
}

fn main() {
    grail::closed_pipe::stop_quietly_when_closed();
    quiet_repeated_panics();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            let _ = e.print();
            return;
        }
        Err(e) => {
            let text = e.to_string();
            // The message, up to the usage line: a missing argument is
            // named on the lines after the first ("... not provided:").
            let first = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:"))
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
                .collect::<Vec<_>>()
                .join(" ");
            let first = match first.trim_start_matches("error: ") {
                "" => "bad arguments",
                f => f,
            };
            bad(format_args!("{first} (try `rulecheck --help`)"));
        }
    };
    match &cli.cmd {
        Some(Cmd::Merge(m)) => merge_parts(m),
        None if cli.check.list => list(),
        None => check(&cli.check),
    }
}
