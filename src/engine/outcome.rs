//! How a game ends: the winners under the `winners` rule (with its
//! `where` filter and tie-break keys), the scores, the declared invariants
//! and the conservation of cards. A fault in any key is reported when the
//! game ends ([`State::try_winners`]), never hidden.

use super::error::Conservation;
use super::{EngineError, Game, State, eval};

/// Most seats a table has (a player is a `u8`).
pub(super) const SEATS: usize = 256;

/// Keep, in order, the first `k` players of `out` that `f` admits; their
/// number.
fn keep(out: &mut [u8; SEATS], k: usize, f: impl Fn(usize) -> bool) -> usize {
    let mut j = 0;
    for i in 0..k {
        if f(usize::from(out[i])) {
            out[j] = out[i];
            j += 1;
        }
    }
    j
}

impl State {
    /// Who won, once the game is over: every player with the best score
    /// under the `winners` rule (ties share), among the players its `where`
    /// condition admits. Empty when nobody wins (no player admitted). A
    /// finished game's keys cannot fault (a fault is reported when the game
    /// ends, see [`State::try_winners`]), so this shows none.
    pub fn winners(&self, game: &Game) -> Vec<usize> {
        self.try_winners(game).unwrap_or_default()
    }

    /// Like [`State::winners`], or the fault evaluating the `winners` key,
    /// its `where` filter or a tie-break key.
    pub fn try_winners(&self, game: &Game) -> Result<Vec<usize>, EngineError> {
        let mut out = [0u8; SEATS];
        let k = self.winners_in(game, &mut out)?;
        Ok(out[..k].iter().map(|p| usize::from(*p)).collect())
    }

    /// The winners into `out` (their number returned), on the stack: the
    /// end of a game checks its keys without allocating.
    pub(super) fn winners_in(
        &self,
        game: &Game,
        out: &mut [u8; SEATS],
    ) -> Result<usize, EngineError> {
        let t = &game.graph().tables;
        let n = self.players().min(SEATS);
        if !self.over || t.winners_key.is_none() {
            return Ok(0);
        }
        let mut scores = [0i32; SEATS];
        if let Some(key) = &t.winners_key {
            for (p, s) in scores.iter_mut().enumerate().take(n) {
                *s = self.winners_expr(game, key, p)?;
            }
        }
        let mut k = 0;
        for p in 0..n {
            let ok = match &t.winners_filter {
                None => true,
                Some(cond) => self.winners_expr(game, cond, p)? != 0,
            };
            if ok {
                out[k] = p as u8;
                k += 1;
            }
        }
        let keys = out[..k].iter().map(|p| scores[usize::from(*p)]);
        let best = if t.winners_highest {
            keys.max()
        } else {
            keys.min()
        };
        let Some(best) = best else {
            return Ok(0);
        };
        let tied = keep(out, k, |p| scores[p] == best);
        self.break_ties(game, out, tied)
    }

    /// Narrow the `k` tied winners in `out` by the further keys of
    /// `winners highest (a, b)`.
    fn break_ties(
        &self,
        game: &Game,
        out: &mut [u8; SEATS],
        mut k: usize,
    ) -> Result<usize, EngineError> {
        let g = game.graph();
        for key in &g.tables.winners_tiebreak {
            if k < 2 {
                break;
            }
            let mut values = [0i32; SEATS];
            for i in 0..k {
                values[usize::from(out[i])] = self.winners_expr(game, key, usize::from(out[i]))?;
            }
            let tied = out[..k].iter().map(|p| values[usize::from(*p)]);
            let best = if g.tables.winners_highest {
                tied.max()
            } else {
                tied.min()
            };
            let best = best.expect("two or more tied");
            k = keep(out, k, |p| values[p] == best);
        }
        Ok(k)
    }

    /// An expression of the `winners` rule for player `p` (bound to its
    /// first local); a fault is located at the `winners` line.
    fn winners_expr(
        &self,
        game: &Game,
        e: &crate::hir::Expr,
        p: usize,
    ) -> Result<i32, EngineError> {
        let g = game.graph();
        // on the stack when small: the end of a game allocates nothing
        let n = usize::from(g.tables.winners_locals).max(16);
        let (mut small, mut big) = ([0i32; 64], Vec::new());
        let locals: &mut [i32] = if n <= small.len() {
            &mut small[..n]
        } else {
            big.resize(n, 0);
            &mut big
        };
        locals[0] = p as i32;
        eval::Ev {
            g,
            c: &self.core,
            locals,
            rng: None,
        }
        .eval(e)
        .map_err(|fault| {
            let text = &game.source().text;
            // the last: a variant's own `winners` replaces its base's
            let at = text.rfind("\nwinners ").map_or(0, |i| i + 1);
            let (file, line) = game.source().place(at as u32);
            EngineError::Fault {
                fault,
                phase: "winners".into(),
                node: 0,
                file: file.map(std::path::PathBuf::from),
                line,
            }
        })
    }

    /// The `winners` key for each player. A finished game's key cannot
    /// fault (a fault is reported when the game ends); during a game a key
    /// that faults shows as 0 here: [`State::try_scores`] gives the fault.
    pub fn scores(&self, game: &Game) -> Vec<i32> {
        let mut out = Vec::new();
        self.scores_into(game, &mut out);
        out
    }

    /// [`State::scores`] into a reused buffer (no allocation once it is
    /// big enough: a batch reads the scores after every decision).
    pub fn scores_into(&self, game: &Game, out: &mut Vec<i32>) {
        out.clear();
        let Some(key) = &game.graph().tables.winners_key else {
            return;
        };
        for p in 0..self.players() {
            match self.winners_expr(game, key, p) {
                Ok(v) => out.push(v),
                Err(_) => {
                    out.clear();
                    out.resize(self.players(), 0);
                    return;
                }
            }
        }
    }

    /// The `winners` key for each player, or the fault evaluating it.
    pub fn try_scores(&self, game: &Game) -> Result<Vec<i32>, EngineError> {
        let Some(key) = &game.graph().tables.winners_key else {
            return Ok(Vec::new());
        };
        (0..self.players())
            .map(|p| self.winners_expr(game, key, p))
            .collect()
    }

    /// The description of the first declared invariant that does not hold now.
    pub fn broken_invariant(&self, game: &Game) -> Option<String> {
        let g = game.graph();
        for (text, e) in &g.tables.invariants {
            let mut locals = [0i32; 16];
            let ok = eval::Ev {
                g,
                c: &self.core,
                locals: &mut locals,
                rng: None,
            }
            .eval(e);
            if ok != Ok(1) {
                return Some(text.clone());
            }
        }
        None
    }

    /// Every card is in exactly one zone, and the index agrees.
    pub fn check_conservation(&self, game: &Game) -> Result<(), EngineError> {
        let n = game.card_count();
        // One bit per card: on the stack for up to 4,096 cards (this runs
        // after every decision of a checked game), else on the heap.
        let mut small = [0u64; 64];
        let mut large = Vec::new();
        let seen: &mut [u64] = if n <= small.len() * 64 {
            &mut small
        } else {
            large.resize(n.div_ceil(64), 0);
            &mut large
        };
        // The cards of every instance in order, walked once; `z` follows
        // the instance starts.
        let (starts, cards) = self.core.placement().split_at(self.core.insts() + 1);
        let mut z = 0;
        for (i, c) in cards.iter().enumerate() {
            while starts[z + 1] as usize <= i {
                z += 1;
            }
            let c = *c as usize;
            let (word, bit) = (c / 64, 1u64 << (c % 64));
            if c >= n || seen[word] & bit != 0 {
                return Err(EngineError::Conservation(Conservation::Twice(c)));
            }
            seen[word] |= bit;
            if self.core.card_zone(c) as usize != z {
                return Err(EngineError::Conservation(Conservation::WrongZone(c)));
            }
        }
        // A card not seen is a zero bit: skip the full words.
        let missing = seen[..n.div_ceil(64)]
            .iter()
            .enumerate()
            .find_map(|(w, &bits)| {
                let c = w * 64 + (!bits).trailing_zeros() as usize;
                (bits != !0 && c < n).then_some(c)
            });
        match missing {
            Some(c) => Err(EngineError::Conservation(Conservation::Vanished {
                card: c,
                name: game.card_name(c).to_string(),
            })),
            None => Ok(()),
        }
    }
}
