//! `grail serve`: a playtest table in the browser (docs/serve.md). A local
//! web server (axum on tokio) holds the games; each seat's page gets only
//! the view rendered for that seat, through a link with its own secret
//! token, and the designer's link adds the REPL's powers.
//!
//! Layers: `token.rs` (secret tokens) and `pages.rs` (the built-in pages,
//! from `assets/`) are leaves; `table.rs` is one game (a REPL session, the
//! tokens, the bots, the version pages watch); `bots.rs` drives seated
//! agents with a visible delay; `routes.rs` is the HTTP surface;
//! `conn.rs` bounds the connections (how many, how long idle); this file
//! holds the arguments, the [`Server`] (the tables) and the entry point.

mod bots;
pub mod conn;
mod pages;
pub mod routes;
pub mod table;
mod token;

pub use routes::router;
pub use table::Table;

use crate::Game;
use crate::repl::{Session, options_from};
use clap::Args;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The most tables one server holds (each holds a game and its history).
pub const MAX_TABLES: usize = 64;

/// `grail serve` arguments.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// The rules file.
    pub file: PathBuf,
    /// Number of players (default: the fewest the game allows).
    #[arg(long, short = 'p', value_parser = crate::cli_numbers::whole::<usize>, allow_negative_numbers = true)]
    pub players: Option<usize>,
    /// Seed for every shuffle (default: random, printed).
    #[arg(long, value_parser = crate::cli_numbers::whole::<u64>, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Set an option, NAME=VALUE; repeat for several.
    #[arg(long = "set", value_name = "OPT=VALUE")]
    pub set: Vec<String>,
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 7878, value_parser = crate::cli_numbers::whole::<u16>, allow_negative_numbers = true)]
    pub port: u16,
    /// The address to listen on: 0.0.0.0 for the whole network, 127.0.0.1
    /// for this machine only.
    #[arg(long, default_value = "0.0.0.0")]
    pub bind: String,
    /// How long a bot waits before it moves, in milliseconds.
    #[arg(long, default_value_t = 800, value_parser = crate::cli_numbers::whole::<u64>, allow_negative_numbers = true)]
    pub bot_delay: u64,
}

/// The tables of one server, all playing one rules file.
pub struct Server {
    pub game: Game,
    pub rules_path: PathBuf,
    pub bot_delay: Duration,
    tables: Mutex<Vec<Arc<Table>>>,
}

impl Server {
    pub fn new(game: Game, rules_path: impl Into<PathBuf>, bot_delay: Duration) -> Server {
        Server {
            game,
            rules_path: rules_path.into(),
            bot_delay,
            tables: Mutex::new(Vec::new()),
        }
    }

    /// Open a new table; the error is one line.
    pub fn open(&self, players: usize, seed: u64, opts: &[i32]) -> Result<Arc<Table>, String> {
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        if tables.len() >= MAX_TABLES {
            return Err(format!(
                "this server holds at most {MAX_TABLES} tables: restart it for more"
            ));
        }
        let session =
            Session::new(&self.game, players, seed, opts)?.with_rules_path(&self.rules_path);
        let table = Arc::new(Table::new((tables.len() + 1).to_string(), session));
        tables.push(table.clone());
        Ok(table)
    }

    /// The table with this id.
    pub fn table(&self, id: &str) -> Option<Arc<Table>> {
        let tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        tables.iter().find(|t| t.id == id).cloned()
    }
}

/// A seed from the clock, as `grail play` draws one.
pub fn random_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (t.as_nanos() as u64) % 1_000_000
}

/// The address other machines on the network reach this one by, if any:
/// the local end of a UDP socket "connected" outwards (nothing is sent).
fn lan_address() -> Option<std::net::IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified()).then_some(ip)
}

/// `grail serve`: returns the exit code.
pub fn run(args: ServeArgs) -> u8 {
    let (server, table, players, seed) = match open_table(&args) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the server: {e}");
            return 1;
        }
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind((args.bind.as_str(), args.port)).await {
            Ok(l) => l,
            Err(e) => {
                // a port in use, or an address that is not this machine's
                let hint = match e.kind() {
                    std::io::ErrorKind::AddrInUse | std::io::ErrorKind::PermissionDenied => {
                        "try another --port"
                    }
                    _ => "check --bind: 0.0.0.0 or 127.0.0.1, or an address of this machine",
                };
                eprintln!(
                    "error: cannot listen on {}:{}: {e} ({hint})",
                    args.bind, args.port
                );
                return 1;
            }
        };
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(args.port);
        print_links(&server, &table, &args.bind, port, players, seed);
        let app = router(Arc::new(server)).into_make_service_with_connect_info::<conn::Busy>();
        let listener = conn::Bounded::new(listener, conn::max_connections(), conn::IDLE);
        match axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
        {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: the server stopped: {e}");
                1
            }
        }
    })
}

/// Loads the rules, reads the options and opens the table; on an error,
/// says it and gives the exit code.
fn open_table(args: &ServeArgs) -> Result<(Server, Arc<Table>, usize, u64), u8> {
    let game = match Game::load(&args.file) {
        Ok(g) => g,
        Err(d) => {
            eprint!("{}", d.render_auto());
            return Err(1);
        }
    };
    let opts = options_from(&game, &args.set).map_err(|e| {
        eprintln!("error: {e}");
        2
    })?;
    let players = args.players.unwrap_or(game.players().0);
    let seed = args.seed.unwrap_or_else(random_seed);
    let server = Server::new(game, &args.file, Duration::from_millis(args.bot_delay));
    let table = server.open(players, seed, &opts).map_err(|e| {
        eprintln!("error: {e}");
        2
    })?;
    Ok((server, table, players, seed))
}

/// Prints each seat's link and the designer's; a closed standard output
/// (`| head`) must not stop the server.
fn print_links(server: &Server, table: &Table, bind: &str, port: u16, players: usize, seed: u64) {
    let host = match bind {
        "0.0.0.0" | "::" => lan_address()
            .map(|ip| ip.to_string())
            .unwrap_or_else(|| "localhost".into()),
        other => other.to_string(),
    };
    let base = format!("http://{host}:{port}");
    let (seats, designer) = table.links();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{}: {players} players, seed {seed}. Send each player their own link:",
        server.game.name()
    );
    for (p, link) in seats.iter().enumerate() {
        let _ = writeln!(out, "  P{p}:       {base}{link}");
    }
    let _ = writeln!(
        out,
        "  designer: {base}{designer}   (keep this one to yourself)"
    );
    let _ = writeln!(out, "Ctrl-C stops the server.");
    let _ = out.flush();
}
