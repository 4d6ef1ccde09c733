//! Counting move paths (perft): how many sequences of whole turns of a given
//! depth start from a position. A turn may take several decisions (a move,
//! then a promotion choice); a path steps down one level each time a new
//! turn begins, so the counts match the published tables of games whose
//! turns are single moves. A long count reports as it goes ([`Meter`]) and
//! can be stopped. Also: applying a setup script (`arrange` and `put`
//! lines) to start from a given position.

use super::{Game, State};

/// Leaves counted between two calls of a [`Meter`]'s tick.
pub const TICK: u64 = 1 << 16;

/// What a long count reports to as it goes: `tick(paths so far)` every
/// [`TICK`] leaves, which answers whether to stop (the count is then
/// incomplete).
pub struct Meter<'a> {
    tick: &'a mut dyn FnMut(u64) -> bool,
    counted: u64,
    next: u64,
    pub stopped: bool,
}

impl<'a> Meter<'a> {
    pub fn new(tick: &'a mut dyn FnMut(u64) -> bool) -> Meter<'a> {
        Meter {
            tick,
            counted: 0,
            next: TICK,
            stopped: false,
        }
    }

    /// Count `n` leaves; false once the count is to stop.
    fn add(&mut self, n: u64) -> bool {
        self.counted += n;
        if self.counted >= self.next {
            self.next = self.counted + TICK;
            self.stopped |= (self.tick)(self.counted);
        }
        !self.stopped
    }
}

/// Leaf paths of `depth` turns from `state` (1 when depth is 0). Walks the
/// tree in one copy of the state by make/unmake (no copy per node).
pub fn perft(game: &Game, state: &State, depth: u32) -> u64 {
    let mut never = |_| false;
    perft_metered(game, state, depth, &mut Meter::new(&mut never))
}

/// [`perft`], reporting to `meter` as it goes (a stopped count is short).
pub fn perft_metered(game: &Game, state: &State, depth: u32, meter: &mut Meter) -> u64 {
    let mut s = state.clone();
    let mut bufs = Vec::new();
    walk(game, &mut s, depth, &mut bufs, meter)
}

/// Perft in place: `s` is back as it was on return. `bufs` keeps one list
/// of actions per ply (no allocation once warm).
fn walk(
    game: &Game,
    s: &mut State,
    depth: u32,
    bufs: &mut Vec<Vec<super::Action>>,
    meter: &mut Meter,
) -> u64 {
    if depth == 0 {
        meter.add(1);
        return 1;
    }
    let mut actions = bufs.pop().unwrap_or_default();
    s.legal_actions_into(game, &mut actions);
    let (turns, defer) = (s.turns, s.defer);
    let mut total = 0;
    for &a in &actions {
        if meter.stopped {
            break;
        }
        // At the last ply a decision reached in a new turn is a leaf: it is
        // counted without listing its actions.
        s.defer = depth == 1;
        let Ok(mark) = s.make_unchecked(game, a) else {
            continue;
        };
        total += if s.defer && (s.turns > turns || s.is_over()) {
            meter.add(1);
            1
        } else if s.defer && s.resume(game).is_err() {
            0
        } else if s.turns > turns || s.is_over() {
            if s.is_over() && depth > 1 {
                0
            } else {
                walk(game, s, depth - 1, bufs, meter)
            }
        } else {
            // the same turn goes on (a follow-up decision): same depth
            walk(game, s, depth, bufs, meter)
        };
        s.unmake(mark);
    }
    s.defer = defer;
    bufs.push(actions);
    total
}

/// Perft split by first move: each first-level label with its count,
/// handed to `each` as soon as it is counted (a stopped count ends early,
/// its last part short).
pub fn divide_metered(
    game: &Game,
    state: &State,
    depth: u32,
    meter: &mut Meter,
    each: &mut dyn FnMut(&str, u64),
) {
    let mut s = state.clone();
    let mut bufs = Vec::new();
    for a in state.legal_actions(game) {
        if meter.stopped {
            break;
        }
        let label = state.label(game, a);
        let Ok(mark) = s.make_unchecked(game, a) else {
            continue;
        };
        let new_turn = s.turns > state.turns || s.is_over();
        let n = match (depth <= 1, new_turn) {
            (true, true) => {
                meter.add(1);
                1
            }
            (true, false) => walk(game, &mut s, 1, &mut bufs, meter),
            (false, true) => walk(game, &mut s, depth - 1, &mut bufs, meter),
            (false, false) => walk(game, &mut s, depth, &mut bufs, meter),
        };
        s.unmake(mark);
        each(&label, n);
    }
}

/// Perft split by first move: each first-level label with its count.
pub fn divide(game: &Game, state: &State, depth: u32) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut never = |_| false;
    let mut meter = Meter::new(&mut never);
    divide_metered(game, state, depth, &mut meter, &mut |l, n| {
        out.push((l.to_string(), n))
    });
    out
}

impl State {
    /// Run on from a decision that was reached without being listed.
    fn resume(&mut self, game: &Game) -> Result<(), super::EngineError> {
        self.defer = false;
        if self.waiting.take().is_some() {
            self.run_with(game.graph(), &mut |_, _| {})
                .map_err(|(f, at)| self.fault(game, f, at))?;
        }
        Ok(())
    }

    /// Apply a setup script: lines `arrange ZONE CARD...` and `put VAR VALUE`;
    /// blank lines and `#` comments are skipped. Errors name the line.
    pub fn apply_setup(&mut self, game: &Game, text: &str) -> Result<(), String> {
        let mut next = self.clone();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let r = match words.as_slice() {
                ["arrange", zone, cards @ ..] => {
                    next.arrange(game, zone, cards).map_err(String::from)
                }
                ["put", var, value] => next.set_var(game, var, value).map_err(String::from),
                _ => Err("expected `arrange ZONE CARD...` or `put VARIABLE VALUE`".to_string()),
            };
            r.map_err(|e| format!("line {}: {e}", i + 1))?;
        }
        next.relist(game).map_err(|e| e.to_string())?;
        *self = next;
        Ok(())
    }
}
