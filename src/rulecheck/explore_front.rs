//! Pareto fronts of guided exploration (`explore.rs`): for a target whose
//! distance is a conjunction (`a and b and c`, the leaves of its nested
//! `and`s, [`Target::parts`](super::explore_dist::Target::parts)), the
//! games kept as the vector of the conjuncts' distances, not only their
//! sum. A game that meets one conjunct but is farther on another is lost
//! to the sum (`best` in `explore.rs` keeps only the nearest in total);
//! on the front it stays, as long as no kept game is at least as near on
//! every conjunct. Aimed mutations start from a front member now and then,
//! favouring those with the most conjuncts met.
//!
//! The same front, smaller, is kept within one explored game (the points
//! where its guard ran), then offered to the search's front at the merge,
//! in job order, so the fronts depend only on the seed.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// At most this many games on a target's front.
pub(super) const CAP: usize = 12;
/// At most this many points of one game's front, per target.
pub(super) const LOCAL: usize = 8;

/// One point of a front: each conjunct's distance, the find (its index
/// among the exploration's finds; 0 within a game) and after how many of
/// its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Point {
    pub(super) parts: Vec<u32>,
    pub(super) id: u32,
    pub(super) moves: u32,
}

impl Point {
    /// How many conjuncts it meets.
    fn zeros(&self) -> usize {
        met(&self.parts)
    }

    fn sum(&self) -> u64 {
        self.parts.iter().map(|d| u64::from(*d)).sum()
    }

    /// Its rank: the most conjuncts met first, then the nearest in total.
    fn rank(&self) -> (std::cmp::Reverse<usize>, u64) {
        (std::cmp::Reverse(self.zeros()), self.sum())
    }
}

/// How many of `parts`' conjuncts are met (0 away).
pub(super) fn met(parts: &[u32]) -> usize {
    parts.iter().filter(|d| **d == 0).count()
}

/// The most conjuncts a point of `front` meets (0 for an empty front).
pub(super) fn most_met(front: &[Point]) -> usize {
    front.iter().map(|p| met(&p.parts)).max().unwrap_or(0)
}

/// Whether `a` is at least as near as `b` on every conjunct.
fn covers(a: &[u32], b: &[u32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x <= y)
}

/// Offer a point to `front` (at most `cap` points); whether it was kept.
/// It is kept if no point covers it (an equal one only in fewer moves),
/// and the points it covers leave; past the cap, the point of lowest rank
/// leaves (the newest of equals), which may be the one offered.
pub(super) fn offer(
    front: &mut Vec<Point>,
    parts: &[u32],
    id: u32,
    moves: u32,
    cap: usize,
) -> bool {
    if front
        .iter()
        .any(|q| covers(&q.parts, parts) && (q.parts != parts || q.moves <= moves))
    {
        return false;
    }
    front.retain(|q| !covers(parts, &q.parts));
    front.push(Point {
        parts: parts.to_vec(),
        id,
        moves,
    });
    if front.len() > cap {
        // the last of the lowest rank (max_by_key keeps the last maximum)
        let worst = (0..front.len())
            .max_by_key(|&i| front[i].rank())
            .unwrap_or(0);
        front.remove(worst);
        return worst != front.len();
    }
    true
}

/// A member to start an aimed mutation from: the better ranked of two
/// drawn at random (so the members meeting the most conjuncts are drawn
/// most); `None` for an empty front.
pub(super) fn pick(front: &[Point], rng: &mut ChaCha8Rng) -> Option<(u32, u32)> {
    if front.is_empty() {
        return None;
    }
    let a = &front[rng.random_range(0..front.len())];
    let b = &front[rng.random_range(0..front.len())];
    let p = if b.rank() < a.rank() { b } else { a };
    Some((p.id, p.moves))
}

#[cfg(test)]
mod tests {
    use super::{Point, offer, pick};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn parts(f: &[Point]) -> Vec<Vec<u32>> {
        f.iter().map(|p| p.parts.clone()).collect()
    }

    #[test]
    fn a_point_is_kept_unless_another_is_as_near_on_every_conjunct() {
        let mut f = Vec::new();
        assert!(offer(&mut f, &[3, 5], 0, 10, 4));
        // worse on one conjunct, better on the other: both kept
        assert!(offer(&mut f, &[0, 9], 1, 10, 4));
        assert_eq!(parts(&f), vec![vec![3, 5], vec![0, 9]]);
        // covered by the first
        assert!(!offer(&mut f, &[3, 6], 2, 10, 4));
        // equal: only in fewer moves
        assert!(!offer(&mut f, &[3, 5], 3, 10, 4));
        assert!(offer(&mut f, &[3, 5], 4, 8, 4));
        assert_eq!(f.iter().map(|p| p.id).collect::<Vec<_>>(), vec![1, 4]);
        // covering both: the only one left
        assert!(offer(&mut f, &[0, 5], 5, 50, 4));
        assert_eq!(parts(&f), vec![vec![0, 5]]);
    }

    #[test]
    fn past_the_cap_the_point_meeting_fewest_conjuncts_leaves() {
        let mut f = Vec::new();
        assert!(offer(&mut f, &[0, 9, 9], 0, 1, 2));
        assert!(offer(&mut f, &[9, 0, 0], 1, 1, 2));
        // a third: it meets none, so it is the one that leaves
        assert!(!offer(&mut f, &[1, 1, 1], 2, 1, 2));
        assert_eq!(f.iter().map(|p| p.id).collect::<Vec<_>>(), vec![0, 1]);
        // one meeting two: the first (meeting one) leaves
        assert!(offer(&mut f, &[0, 0, 9], 3, 1, 2));
        assert_eq!(f.iter().map(|p| p.id).collect::<Vec<_>>(), vec![1, 3]);
    }

    #[test]
    fn a_pick_favours_the_members_meeting_most_conjuncts() {
        let mut f = Vec::new();
        offer(&mut f, &[0, 0, 5], 7, 30, 8);
        offer(&mut f, &[1, 1, 1], 8, 40, 8);
        offer(&mut f, &[2, 0, 2], 9, 50, 8);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen = [0u32; 3];
        for _ in 0..900 {
            let (id, moves) = pick(&f, &mut rng).unwrap();
            assert_eq!(moves, 30 + 10 * (id - 7));
            seen[(id - 7) as usize] += 1;
        }
        // drawn 5, 1 and 3 times in 9 (better of two among 3)
        assert!(seen[0] > seen[2] && seen[2] > seen[1], "{seen:?}");
        assert_eq!(pick(&[], &mut rng), None);
    }
}
