//! The result of a batch: what happened in each game ([`GameResult`]) and
//! the statistics over many ([`SimReport`]). A report holds only sums,
//! counts, extremes and the lowest-numbered incidents, so reports of shards
//! merge exactly, and the same games give the same report in any order.

use super::config::SimConfig;
use crate::engine::Game;
pub use crate::playout::{Incident, Incidents};

/// How many incidents of each kind a report keeps (the lowest game numbers).
pub const KEEP_INCIDENTS: usize = 5;

/// How one game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameOutcome {
    Finished {
        turns: u32,
        decisions: u32,
        winners: Vec<usize>,
    },
    /// Not over, and no legal action (a softlock in the rules).
    Stuck(String),
    /// The engine refused to go on (a fault in the rules, a runaway, lost cards).
    Fault(String),
    /// Still running at the decision limit.
    Unfinished(String),
}

/// One game of a batch: its number, its engine seed and its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub index: u64,
    pub seed: u64,
    pub outcome: GameOutcome,
    /// Seat `p` was played by the agent `p + rotation` of the list.
    pub rotation: usize,
    /// Each seat's first `winners` key at the end (empty unless finished).
    pub scores: Vec<i32>,
    /// Decisions taken when the game stopped, and whether the last of them
    /// is the one that failed (for replaying an incident).
    pub moves: u32,
    pub failing_move: bool,
}

/// Sum, least and greatest of a count over finished games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    pub sum: u64,
    pub min: u32,
    pub max: u32,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            sum: 0,
            min: u32::MAX,
            max: 0,
        }
    }
}

impl Tally {
    fn add(&mut self, v: u32) {
        self.sum += u64::from(v);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }
    fn merge(&mut self, o: Tally) {
        self.sum += o.sum;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }
    /// The mean over `n` values (0 when there are none).
    pub fn mean(&self, n: u64) -> f64 {
        if n == 0 {
            0.0
        } else {
            self.sum as f64 / n as f64
        }
    }
}

/// Statistics over a batch of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimReport {
    /// The game's name, the number of seats, and the agent in each seat.
    pub rules: String,
    pub players: usize,
    pub agents: Vec<String>,
    /// Games played, and those that reached their end.
    pub games: u64,
    pub finished: u64,
    pub stuck: Incidents,
    pub faults: Incidents,
    pub unfinished: Incidents,
    /// Turns and decisions of the finished games.
    pub turns: Tally,
    pub decisions: Tally,
    /// `wins[p][k - 1]`: finished games that seat `p` won together with
    /// `k - 1` others (`k` winners in all).
    pub wins: Vec<Vec<u64>>,
    /// Finished games without a winner (no player the `winners` rule admits).
    pub no_winner: u64,
    /// The list of agents as given (seat `p` of a game rotated by `r` is
    /// played by `lineup[(p + r) % len]`), and the distinct names in it.
    pub lineup: Vec<String>,
    pub agent_names: Vec<String>,
    /// Per distinct agent: seats it played in finished games, and its win
    /// points there (a game won by `k` players counts `1/k`), in
    /// 1/`TIE_UNITS` units so that reports merge exactly.
    pub agent_seats: Vec<u64>,
    pub agent_points: Vec<u64>,
}

/// Win points are counted in units of 1/720 (exact for ties of up to 6).
pub const TIE_UNITS: u64 = 720;

impl SimReport {
    /// A report of no games.
    pub fn empty(game: &Game, cfg: &SimConfig) -> SimReport {
        SimReport {
            rules: game.name().to_string(),
            players: cfg.players,
            agents: (0..cfg.players).map(|p| cfg.agent(p).to_string()).collect(),
            games: 0,
            finished: 0,
            stuck: Incidents::default(),
            faults: Incidents::default(),
            unfinished: Incidents::default(),
            turns: Tally::default(),
            decisions: Tally::default(),
            wins: vec![vec![0; cfg.players]; cfg.players],
            no_winner: 0,
            lineup: if cfg.agents.is_empty() {
                vec!["random".to_string()]
            } else {
                cfg.agents.iter().map(|a| a.to_string()).collect()
            },
            agent_names: Vec::new(),
            agent_seats: Vec::new(),
            agent_points: Vec::new(),
        }
        .with_agent_names()
    }

    fn with_agent_names(mut self) -> SimReport {
        for a in &self.lineup {
            if !self.agent_names.contains(a) {
                self.agent_names.push(a.clone());
            }
        }
        self.agent_seats = vec![0; self.agent_names.len()];
        self.agent_points = vec![0; self.agent_names.len()];
        self
    }

    /// Count one game in.
    pub fn add(&mut self, r: GameResult) {
        self.games += 1;
        let incident = |message| Incident {
            game: r.index,
            seed: r.seed,
            moves: r.moves,
            failing_move: r.failing_move,
            message,
        };
        match r.outcome {
            GameOutcome::Finished {
                turns,
                decisions,
                winners,
            } => {
                self.finished += 1;
                self.turns.add(turns);
                self.decisions.add(decisions);
                if winners.is_empty() {
                    self.no_winner += 1;
                }
                for &p in &winners {
                    self.grow(p + 1, winners.len());
                    self.wins[p][winners.len() - 1] += 1;
                }
                for p in 0..self.players {
                    let name = &self.lineup[(p + r.rotation) % self.lineup.len()];
                    if let Some(a) = self.agent_names.iter().position(|n| n == name) {
                        self.agent_seats[a] += 1;
                        if winners.contains(&p) {
                            self.agent_points[a] += TIE_UNITS / winners.len().max(1) as u64;
                        }
                    }
                }
            }
            GameOutcome::Stuck(m) => self.stuck.add(incident(m), KEEP_INCIDENTS),
            GameOutcome::Fault(m) => self.faults.add(incident(m), KEEP_INCIDENTS),
            GameOutcome::Unfinished(m) => self.unfinished.add(incident(m), KEEP_INCIDENTS),
        }
    }

    /// Make room for `seats` seats and ties of `k` winners.
    fn grow(&mut self, seats: usize, k: usize) {
        if self.wins.len() < seats {
            self.wins.resize(seats, Vec::new());
        }
        for w in &mut self.wins {
            if w.len() < k {
                w.resize(k, 0);
            }
        }
    }

    /// The report of both batches (of disjoint games).
    pub fn merge(mut self, o: SimReport) -> SimReport {
        self.games += o.games;
        self.finished += o.finished;
        self.stuck.merge(&o.stuck, KEEP_INCIDENTS);
        self.faults.merge(&o.faults, KEEP_INCIDENTS);
        self.unfinished.merge(&o.unfinished, KEEP_INCIDENTS);
        self.turns.merge(o.turns);
        self.decisions.merge(o.decisions);
        let k = o.wins.iter().map(Vec::len).max().unwrap_or(0);
        self.grow(o.wins.len(), k);
        for (mine, theirs) in self.wins.iter_mut().zip(&o.wins) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self.no_winner += o.no_winner;
        for (a, name) in o.agent_names.iter().enumerate() {
            if let Some(i) = self.agent_names.iter().position(|n| n == name) {
                self.agent_seats[i] += o.agent_seats[a];
                self.agent_points[i] += o.agent_points[a];
            }
        }
        self
    }

    /// Agent `a`'s (of `agent_names`) win rate over the seats it played in
    /// finished games, with a 95% Wilson interval: (rate, low, high).
    pub fn agent_win_rate(&self, a: usize) -> (f64, f64, f64) {
        let n = self.agent_seats.get(a).copied().unwrap_or(0) as f64;
        if n == 0.0 {
            return (0.0, 0.0, 0.0);
        }
        let p = self.agent_points[a] as f64 / TIE_UNITS as f64 / n;
        let z = 1.96f64;
        let denom = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denom;
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
        (p, (centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// Games that went wrong in any way.
    pub fn errors(&self) -> u64 {
        self.stuck.count + self.faults.count + self.unfinished.count
    }

    /// Finished games won by seat `p`, a game won by `k` players counting `1/k`.
    pub fn win_points(&self, p: usize) -> f64 {
        let w = self.wins.get(p).map(Vec::as_slice).unwrap_or(&[]);
        w.iter()
            .enumerate()
            .map(|(k, n)| *n as f64 / (k + 1) as f64)
            .sum()
    }

    /// Seat `p`'s share of the finished games' wins (0 to 1).
    pub fn win_share(&self, p: usize) -> f64 {
        if self.finished == 0 {
            0.0
        } else {
            self.win_points(p) / self.finished as f64
        }
    }

    /// Finished games that seat `p` won, alone or shared.
    pub fn games_won(&self, p: usize) -> u64 {
        self.wins.get(p).map(|w| w.iter().sum()).unwrap_or(0)
    }

    /// The incident lists with their names, in report order.
    pub fn incident_kinds(&self) -> [(&'static str, &Incidents); 3] {
        [
            ("stuck", &self.stuck),
            ("faults", &self.faults),
            ("unfinished", &self.unfinished),
        ]
    }
}
