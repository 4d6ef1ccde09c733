//! `rulecheck FILE... [--json] [--deny warnings|LINT]... [--list]`: grail's
//! soundness checker for rules files. A thin front end over
//! `grail::rulecheck`: parse arguments, check each file, print the report
//! (or JSON) and the time taken, exit 0 when sound, 1 when not, 2 on bad
//! arguments.

use clap::Parser;
use grail::rulecheck::{Config, Level, Pass, REGISTRY, check_paths};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

/// Check rules files for errors and suspicious constructs.
#[derive(Parser)]
#[command(name = "rulecheck", version)]
struct Cli {
    /// Rules files to check.
    #[arg(required_unless_present = "list")]
    files: Vec<PathBuf>,
    /// Print the findings as JSON.
    #[arg(long)]
    json: bool,
    /// Treat `warnings` (all of them) or one lint as an error; repeatable.
    #[arg(long, value_name = "warnings|LINT")]
    deny: Vec<String>,
    /// List the lints and exit.
    #[arg(long)]
    list: bool,
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            let _ = e.print();
            return;
        }
        Err(e) => {
            let text = e.to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("bad arguments")
                .trim_start_matches("error: ");
            eprintln!("rulecheck: error: {first} (try `rulecheck --help`)");
            std::process::exit(2);
        }
    };
    if cli.list {
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
        return;
    }
    let mut config = Config::default();
    for d in &cli.deny {
        if let Err(e) = config.deny(d) {
            eprintln!("rulecheck: error: {e}");
            std::process::exit(2);
        }
    }
    let started = Instant::now();
    let report = check_paths(&cli.files, &config);
    let elapsed = started.elapsed();
    if cli.json {
        print!("{}", report.to_json(Some(elapsed)));
    } else {
        print!(
            "{}",
            report.render(std::io::stdout().is_terminal(), Some(elapsed))
        );
    }
    std::process::exit(report.exit_code());
}
