//! `hint [N] [AGENT]`: what a good player would do here. A search agent
//! (IS-MCTS by default, so it sees only what the seat to move knows) thinks
//! about the position and the top N moves are listed with their number for
//! `play`, how often the search tried them and their value (the chance of
//! winning it estimates, 0 to 1). The search is seeded from the game seed,
//! the seat and the move number, so a script's hints are reproducible.

use super::args::Flow;
use super::session::{Session, bot_seed};
use crate::agent::{AGENTS, AgentKind};
use std::fmt::Write as _;

/// The agent `hint` asks when none is named.
pub const HINT_AGENT: &str = "ismcts:400";

pub fn cmd_hint(s: &mut Session, args: &[&str], out: &mut String) -> Result<Flow, String> {
    let legal = super::step::legal_or_err(s)?;
    let mut top = 3usize;
    let mut kind: AgentKind = HINT_AGENT.parse()?;
    for a in args {
        if let Ok(n) = a.parse::<usize>() {
            if !(1..=100).contains(&n) {
                return Err(format!("hint shows 1 to 100 moves, not {n}"));
            }
            top = n;
        } else {
            kind = a.parse().map_err(|_| {
                format!("hint takes a number of moves and a search agent, not '{a}': the agents are {AGENTS}")
            })?;
        }
    }
    let Some(seat) = s.state.chooser() else {
        return Err("nobody is to move".into());
    };
    let seed =
        bot_seed(s.seed, seat) ^ u64::from(s.state.decisions()).wrapping_mul(0x2545_f491_4f6c_dd1d);
    let mut agent = kind.build(seed);
    let Some(stats) = agent.analyse(&s.game, &s.state, &legal) else {
        return Err(format!(
            "{kind} does not search; hint takes mc:N, mcts:N or ismcts:N"
        ));
    };
    let labels = s.labels(&legal);
    let tried: u32 = stats.iter().map(|m| m.visits).sum();
    let _ = writeln!(
        out,
        "P{seat} to move; {kind} tried {tried} playouts over {} of {} moves:",
        stats.len(),
        legal.len()
    );
    if crate::interrupt::interrupted() {
        let _ = writeln!(
            out,
            "(interrupted: the search stopped early, so these figures are rough)"
        );
    }
    let width = legal.len().to_string().len();
    for m in stats.iter().take(top) {
        let _ = writeln!(
            out,
            "  {:>width$}. {:<40} visits {:>5}  value {:.2}",
            m.action + 1,
            labels[m.action],
            m.visits,
            m.value
        );
    }
    Ok(Flow::Continue)
}
