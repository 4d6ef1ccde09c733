//! The nearest games of guided exploration (`explore.rs`): for each
//! branch target in each column, the game that came nearest its guard (or
//! its proxy, outside the guard), whether a new game does better, when a
//! target's distance last fell, and which near target the search focuses
//! on.

use super::explore_dist::Target;
use std::collections::BTreeMap;

/// A target whose nearest game (guard or proxy) is at most this far, and
/// not yet reached, is near: it gets a share of the aimed mutations.
pub const NEAR: u32 = 4;

/// A target's key (`Target::key`) in one column: each column (a player
/// count, an option set) keeps its own nearest games, as the same card or
/// square means another position there.
pub(super) type Key = (u16, u32, bool, u16, u16);

/// Target `t`'s key in `column`.
pub(super) fn key(t: &Target, column: usize) -> Key {
    let (p, n, w, a) = t.key();
    (p, n, w, a, column as u16)
}

/// Target `key`'s nearest distance, at its guard or outside it.
pub(super) fn nearness(best: &Nearest, proxy: &Nearest, key: &Key) -> u32 {
    let g = best.get(key).map_or(u32::MAX, |b| b.0);
    let p = proxy.get(key).map_or(u32::MAX, |b| b.0);
    g.min(p)
}
/// By target key: the nearest distance, the find and its moves.
pub(super) type Nearest = BTreeMap<Key, (u32, u32, u32)>;
/// By target key: the games played when its distance last fell.
pub(super) type Gained = BTreeMap<Key, u64>;

/// Whether a game that came `d` near a target after `moves` moves does
/// better than the nearest so far: nearer, or as near in fewer moves (a
/// line from which more of the game is left to play on), as Go-Explore
/// keeps the shortest way to each cell it has found.
fn closer(d: u32, moves: u32, best: &(u32, u32, u32)) -> bool {
    d < best.0 || (d == best.0 && d != u32::MAX && moves < best.2)
}

/// Keep find `id` as the nearest to `key` if it came nearer than any
/// before (`d` measured: a game whose guard never ran, `u32::MAX`, is no
/// line toward it); whether it was kept.
pub(super) fn improve(best: &mut Nearest, key: Key, d: u32, id: u32, moves: u32) -> bool {
    if d == u32::MAX || best.get(&key).is_some_and(|b| !closer(d, moves, b)) {
        return false;
    }
    best.insert(key, (d, id, moves));
    true
}

/// Of the targets whose nearest game in a column (at the guard or outside
/// it) came within [`NEAR`], the one whose distance fell last (`gained`:
/// the game after which it did), the nearest of those as recent, and its
/// column: the search's effort follows where it is getting somewhere, not a
/// target that came near once and has stayed there (a proxy met while its
/// guard stays far); none where no target is that near.
pub(super) fn focus(
    best: &Nearest,
    proxy: &Nearest,
    gained: &Gained,
    targets: &[Target],
    columns: usize,
) -> Option<(usize, usize)> {
    (0..targets.len())
        .flat_map(|k| (0..columns).map(move |c| (k, c)))
        .map(|(k, c)| (nearness(best, proxy, &key(&targets[k], c)), k, c))
        .filter(|&(d, _, _)| d <= NEAR)
        .map(|(d, k, c)| {
            let last = gained.get(&key(&targets[k], c)).copied().unwrap_or(0);
            (std::cmp::Reverse(last), d, k, c)
        })
        .min()
        .map(|(_, _, k, c)| (k, c))
}

/// Whether `d` is nearer than the nearest kept for `key` (a strict fall of
/// the distance, not the same distance in fewer moves).
pub(super) fn falls(best: &Nearest, key: &Key, d: u32) -> bool {
    d != u32::MAX && best.get(key).is_none_or(|b| d < b.0)
}

#[cfg(test)]
mod tests {
    use super::{Nearest, falls, improve};

    #[test]
    fn a_guard_that_never_ran_is_no_nearest_game() {
        let mut best = Nearest::new();
        let key = (1, 2, true, 0, 0);
        // the guard did not run in this game: nothing kept, nothing new
        assert!(!improve(&mut best, key, u32::MAX, 0, 0));
        assert!(best.is_empty());
        // measured: kept, then only a nearer game or as near in fewer moves
        assert!(improve(&mut best, key, 5, 1, 40));
        assert!(!improve(&mut best, key, u32::MAX, 2, 0));
        assert!(!improve(&mut best, key, 6, 3, 10));
        assert!(!improve(&mut best, key, 5, 4, 40));
        assert!(improve(&mut best, key, 5, 5, 30));
        assert!(improve(&mut best, key, 2, 6, 90));
        assert_eq!(best.get(&key), Some(&(2, 6, 90)));
    }

    #[test]
    fn only_a_strictly_nearer_game_is_a_fall() {
        let mut best = Nearest::new();
        let key = (1, 2, true, 0, 1);
        assert!(falls(&best, &key, 7), "the first measure is a fall");
        assert!(
            !falls(&best, &key, u32::MAX),
            "a guard that never ran is not"
        );
        improve(&mut best, key, 7, 0, 50);
        assert!(
            !falls(&best, &key, 7),
            "as near in fewer moves is kept, not a fall"
        );
        assert!(falls(&best, &key, 6));
        // another column's nearest game is its own
        assert!(falls(&best, &(1, 2, true, 0, 2), 9));
    }
}
