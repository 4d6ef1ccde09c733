//! The state measures of guided exploration (`explore.rs`): the cards in
//! each zone and each number variable, watched for new extremes, and the
//! one-move look-ahead that pushes one of them up or down.

use crate::engine::{Action, Game, Probe, State};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// At most this many state measures are watched.
const MAX_FEATURES: usize = 64;

/// The state measures that steer the search: the cards in each zone (per
/// player, and summed over players) and each number variable.
pub fn features(game: &Game, players: usize) -> Vec<(String, Probe)> {
    let mut texts = Vec::new();
    let t = &game.graph().tables;
    for z in &t.zones {
        if z.board.is_some() {
            continue;
        }
        if z.per_player {
            let each: Vec<String> = (0..players)
                .map(|p| format!("count(P{p}.{})", z.name))
                .collect();
            texts.push(each.join(" + "));
            texts.extend(each);
        } else {
            texts.push(format!("count({})", z.name));
        }
    }
    for v in &t.vars {
        if v.per_card || v.ty != crate::check::hir::Ty::Int {
            continue;
        }
        if v.per_player {
            texts.extend((0..players).map(|p| format!("P{p}.{}", v.name)));
        } else {
            texts.push(v.name.clone());
        }
    }
    texts
        .into_iter()
        .filter_map(|t| game.probe(&t, players).ok().map(|p| (t, p)))
        .take(MAX_FEATURES)
        .collect()
}

/// At most this many options are looked ahead at one decision.
const LOOK: usize = 16;

/// The option among `buf` that moves measure `f` furthest (`low`: down),
/// one move ahead; ties are broken at random. `next` is a scratch state,
/// copied into without allocating for each option.
pub fn look_ahead(
    game: &Game,
    state: &State,
    buf: &[Action],
    probe: &Probe,
    low: bool,
    rng: &mut ChaCha8Rng,
    next: &mut State,
) -> Option<usize> {
    let mut best: Option<(i32, usize)> = None;
    let mut ties = 0u32;
    for (i, a) in buf.iter().enumerate().take(LOOK) {
        next.clone_from(state);
        if next.apply(game, *a).is_err() {
            continue;
        }
        let Ok(v) = next.eval_probe(game, probe) else {
            continue;
        };
        let v = if low { v } else { v.saturating_neg() };
        match best {
            Some((b, _)) if v > b => {}
            Some((b, _)) if v == b => {
                ties += 1;
                if rng.random_range(0..=ties) == 0 {
                    best = Some((v, i));
                }
            }
            _ => {
                best = Some((v, i));
                ties = 0;
            }
        }
    }
    best.map(|(_, i)| i)
}
