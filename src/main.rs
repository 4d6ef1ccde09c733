//! The `grail` command: a thin clap front end over the library. Each
//! subcommand's arguments and work live in its module.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "grail", version, about = "A rules language for card and board games, and the tools to play and test them")]
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
    /// Print the compiled action graph.
    Graph {
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Dot)]
        format: Format,
    },
    /// Check rules files and print every diagnostic.
    Check { files: Vec<PathBuf> },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Dot,
    Ron,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.cmd {
        Cmd::Play(args) => grail::repl::run(args),
        Cmd::Sim(args) => grail::sim::run(args),
        Cmd::Graph { file, format } => match grail::Game::load(&file) {
            Ok(game) => {
                let text = match format {
                    Format::Dot => grail::graph::to_dot(game.graph()),
                    Format::Ron => grail::graph::to_ron(game.graph()),
                };
                print!("{text}");
                0
            }
            Err(d) => {
                eprint!("{}", d.render_auto());
                1
            }
        },
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
