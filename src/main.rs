//! The `grail` command: a thin clap front end over the library. Each
//! subcommand's arguments and work live in its module.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "grail",
    version,
    about = "A rules language for card and board games, and the tools to play and test them"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Open a game in the REPL (or run a script of REPL commands).
    Play(grail::repl::PlayArgs),
    /// Play many games with agents and print statistics.
    Sim(grail::sim::SimArgs),
    /// Print the compiled action graph (DOT, RON, or a one-screen overview).
    Graph {
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Dot)]
        format: Format,
        /// Show only this phase (or turn, or reaction).
        #[arg(long, value_name = "NAME")]
        phase: Option<String>,
    },
    /// Check rules files and print every diagnostic.
    Check {
        /// Rules files to check (at least one).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Rewrite rules files in the canonical layout (docs/editing.md).
    Fmt(grail::fmt::FmtArgs),
    /// Run the language server on standard input and output (docs/editing.md).
    Lsp,
    /// Serve a playtest table to browsers: one link per seat (docs/serve.md).
    Serve(grail::serve::ServeArgs),
    /// Count the move paths of a given depth (perft), to test move generation.
    Perft {
        file: PathBuf,
        #[arg(long, default_value_t = 3, value_parser = grail::cli_numbers::whole::<u32>, allow_negative_numbers = true)]
        depth: u32,
        /// A setup script of `arrange` and `put` lines applied to the start.
        #[arg(long)]
        setup: Option<PathBuf>,
        #[arg(long = "set", value_name = "OPT=VALUE")]
        set: Vec<String>,
        #[arg(long, default_value_t = 2, value_parser = grail::cli_numbers::whole::<usize>, allow_negative_numbers = true)]
        players: usize,
        #[arg(long, default_value_t = 1, value_parser = grail::cli_numbers::whole::<u64>, allow_negative_numbers = true)]
        seed: u64,
        /// Print the count under each first decision.
        #[arg(long)]
        divide: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Dot,
    Ron,
    /// Phases, the calls between them, reactions and the zones that open them.
    Overview,
}

/// `grail graph`: print the graph of `file`, or of one phase of it.
fn graph(file: &std::path::Path, format: Format, phase: Option<&str>) -> u8 {
    let game = match grail::Game::load(file) {
        Ok(game) => game,
        Err(d) => {
            eprint!("{}", d.render_auto());
            return 1;
        }
    };
    let g = game.graph();
    let only = match phase {
        None => None,
        Some(name) => match grail::graph::phase_named(g, name) {
            Some(i) => Some(vec![i]),
            None => {
                let names: Vec<&str> = g.phases.iter().map(|p| p.name.as_str()).collect();
                let msg = format!(
                    "error: {} has no phase `{}`; its phases are {}",
                    file.display(),
                    grail::sanitize::excerpt(name, 200),
                    names.join(", ")
                );
                eprintln!("{}", grail::sanitize::clean(&msg));
                return 2;
            }
        },
    };
    let only = only.as_deref();
    let line = |s: grail::diag::Span| game.source().line_label(s.start);
    let text = match format {
        Format::Dot => grail::graph::to_dot(g, only, &line),
        Format::Ron => grail::graph::to_ron(g, only),
        Format::Overview => grail::graph::overview(g, only, &line),
    };
    print!("{text}");
    0
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.cmd, Cmd::Lsp | Cmd::Serve(_)) {
        grail::closed_pipe::stop_quietly_when_closed();
    }
    let code = match cli.cmd {
        Cmd::Play(args) => grail::repl::run(args),
        Cmd::Sim(args) => grail::sim::run(args),
        Cmd::Fmt(args) => grail::fmt::run(args),
        Cmd::Lsp => grail::lsp::run(),
        Cmd::Serve(args) => grail::serve::run(args),
        Cmd::Graph {
            file,
            format,
            phase,
        } => graph(&file, format, phase.as_deref()),
        Cmd::Perft {
            file,
            depth,
            setup,
            set,
            players,
            seed,
            divide,
        } => perft(&file, depth, setup.as_deref(), &set, players, seed, divide),
        Cmd::Check { files } => {
            let mut code = 0;
            for f in files {
                match grail::Game::load(&f) {
                    Ok(game) => eprint!("{}", game.warnings().render_auto()),
                    Err(d) => {
                        eprint!("{}", d.render_auto());
                        code = 1;
                    }
                }
            }
            code
        }
    };
    ExitCode::from(code)
}

/// Deeper perft counts would run for ages (they grow exponentially).
const MAX_PERFT_DEPTH: u32 = 32;

fn perft(
    file: &std::path::Path,
    depth: u32,
    setup: Option<&std::path::Path>,
    set: &[String],
    players: usize,
    seed: u64,
    divide: bool,
) -> u8 {
    if divide && depth == 0 {
        eprintln!("error: --divide counts each first move's subtree: give --depth 1 or more");
        return 2;
    }
    if depth > MAX_PERFT_DEPTH {
        eprintln!("error: --depth may be at most {MAX_PERFT_DEPTH}, not {depth}");
        return 2;
    }
    let game = match grail::Game::load(file) {
        Ok(g) => g,
        Err(d) => {
            eprint!("{}", d.render_auto());
            return 1;
        }
    };
    let opts = match game.options_from(set) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {}", grail::sanitize::clean(&e.to_string()));
            return 2;
        }
    };
    let mut state = match grail::State::new(&game, players, seed, &opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {}", grail::sanitize::clean(&e.to_string()));
            return 1;
        }
    };
    if let Some(path) = setup {
        let text = match grail::load::read_small_text(path) {
            Ok(t) => t,
            Err(e) => {
                let msg = format!("error: cannot read {}: {e}", path.display());
                eprintln!("{}", grail::sanitize::clean(&msg));
                return 1;
            }
        };
        if let Err(e) = state.apply_setup(&game, &text) {
            let msg = format!("error: {}: {e}", path.display());
            eprintln!("{}", grail::sanitize::clean(&msg));
            return 1;
        }
    }
    let started = std::time::Instant::now();
    grail::interrupt::install();
    // a long count says how far it has got (after 2 s, then every 10 s),
    // and Ctrl-C stops it with the count so far
    let mut shown = 0u64;
    let mut tick = |n: u64| {
        let secs = started.elapsed().as_secs();
        if secs >= 2 && (shown == 0 || secs >= shown + 10) {
            shown = secs;
            eprintln!("perft: {n} paths so far ({secs} s; Ctrl-C stops with the count so far)");
        }
        grail::interrupt::interrupted()
    };
    let mut meter = grail::engine::perft::Meter::new(&mut tick);
    let nodes = if divide {
        let mut sum = 0;
        let mut each = |label: &str, n: u64| {
            sum += n;
            let cut = if grail::interrupt::interrupted() {
                " (incomplete)"
            } else {
                ""
            };
            println!("{label}: {n}{cut}");
            // each first move as soon as it is counted
            let _ = std::io::Write::flush(&mut std::io::stdout());
        };
        grail::engine::perft::divide_metered(&game, &state, depth, &mut meter, &mut each);
        sum
    } else {
        grail::engine::perft::perft_metered(&game, &state, depth, &mut meter)
    };
    if meter.stopped {
        let secs = started.elapsed().as_secs_f64();
        println!("perft({depth}) stopped by Ctrl-C after {secs:.2} s: at least {nodes} paths");
        return 130;
    }
    let secs = started.elapsed().as_secs_f64();
    println!("perft({depth}) = {nodes}");
    println!(
        "{:.2} s, {:.0} nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    0
}
