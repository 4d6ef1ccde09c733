//! Board geometry: which cell lies at (x, y), a cell's coordinates, steps
//! and rays along a direction (merged cells crossed along the line), and
//! the cells a movement pattern reaches. Used by expression evaluation
//! (`shift`, `ray`, `moves`, `cell`, `x_of`, `y_of`).

use super::table::Core;
use crate::check::hir::BoardInfo;
use crate::graph::Graph;

/// The board and cell index of a zone instance, if it is a board cell.
pub fn cell_of(g: &Graph, c: &Core, inst: i32) -> Option<(usize, usize)> {
    if inst < 0 || inst as usize >= c.inst_zone.len() {
        return None;
    }
    let z = c.inst_zone[inst as usize] as usize;
    let b = g.tables.zones[z].board? as usize;
    Some((b, inst as usize - c.zone_base[z] as usize))
}

pub(super) fn at_xy(b: &crate::check::hir::BoardInfo, c: &Core, x: i32, y: i32) -> i32 {
    if x < 0 || y < 0 || x >= b.width as i32 || y >= b.height as i32 {
        return -1;
    }
    match b.grid[(y * b.width as i32 + x) as usize] {
        k if k >= 0 => c.zone_base[b.zone as usize] as i32 + k as i32,
        _ => -1,
    }
}

/// [`cell_of`] read from the lanes' per-cell array when the table has
/// its rows (a table read back from a file walks through the zone).
#[inline]
pub(super) fn board_cell(g: &Graph, c: &Core, inst: i32) -> Option<(usize, usize)> {
    match c.cell_rows.get(inst) {
        Some(row) => c.lanes.cell(row),
        None => cell_of(g, c, inst),
    }
}

/// The coordinates of a cell (the first of a merged group).
/// Read from the lanes' per-cell array when the table has its rows.
#[inline(always)]
pub fn cell_xy(g: &Graph, c: &Core, inst: i32) -> Option<(i32, i32)> {
    match c.cell_rows.xy(inst) {
        Some(xy) => xy,
        None => cell_xy_walked(g, c, inst),
    }
}

/// [`cell_xy`] in a table without rows: through the zone and the board.
#[cold]
fn cell_xy_walked(g: &Graph, c: &Core, inst: i32) -> Option<(i32, i32)> {
    let (b, k) = cell_of(g, c, inst)?;
    let (x, y) = g.tables.boards[b].cells[k];
    Some((x as i32, y as i32))
}

/// Most cells a board can have (26 columns by 99 rows): the size of the
/// bit set that keeps a pattern's targets distinct without allocating.
const MAX_CELLS: usize = 26 * 99;

/// Walks one lane: up to `n` cells along `d` from square `sq` of the cell
/// `from`, a merged cell crossed along the line counting once (a line keeps
/// its path through it). The lane ends at the edge or a removed square, on
/// coming back into `from`, and (`slide`) after the first occupied cell. A
/// null step stays on `from`. `f` gets each cell (with `OCC`, each
/// occupied cell only: an empty one is crossed without calling it) and
/// returns false to stop the whole walk; so does this function then.
fn walk_lane<const OCC: bool>(
    board: &BoardInfo,
    c: &Core,
    from: i32,
    sq: (i8, i8),
    d: (i32, i32),
    (n, slide): (usize, bool),
    f: &mut impl FnMut(i32) -> bool,
) -> bool {
    let (mut x, mut y) = (sq.0 as i32, sq.1 as i32);
    let (mut last, mut i) = (from, 0);
    while i < n {
        let next = if d == (0, 0) {
            from
        } else {
            x += d.0;
            y += d.1;
            let next = at_xy(board, c, x, y);
            if next < 0 || next == from {
                return true;
            }
            if next == last {
                continue;
            }
            next
        };
        last = next;
        i += 1;
        let empty = c.zone_len(next as usize) == 0;
        let give = !OCC || !empty;
        if give && !f(next) {
            return false;
        }
        if slide && !empty {
            return true;
        }
    }
    true
}

/// The lanes leaving cell `k` (instance `inst`) along `d`: its square for a
/// plain cell; for a merged cell, every square of it whose step along `d`
/// leaves the cell, one per line through it (so a merged cell's neighbours
/// are its squares' neighbours, less itself). Returns false if a walk stopped.
/// Read from the board's precomputed lanes (`lanes.rs`) when the step has
/// them, else walked through coordinates. With `OCC`, `f` gets only the
/// occupied cells (see [`walk_lane`]).
fn each_lane<const OCC: bool>(
    (b, board): (usize, &BoardInfo),
    c: &Core,
    inst: i32,
    k: usize,
    d: (i32, i32),
    reach: (usize, bool),
    f: &mut impl FnMut(i32) -> bool,
) -> bool {
    if let Some(lanes) = c.lanes.get(b, k, d) {
        let base = c.zone_base[board.zone as usize] as i32;
        let (n, slide) = reach;
        for j in 0..lanes.count() {
            for &cell in lanes.lane(j).iter().take(n) {
                let next = base + i32::from(cell);
                let empty = c.zone_len(next as usize) == 0;
                let give = !OCC || !empty;
                if give && !f(next) {
                    return false;
                }
                if slide && !empty {
                    break;
                }
            }
        }
        return true;
    }
    let squares = &board.squares[k];
    if d == (0, 0) {
        return walk_lane::<OCC>(board, c, inst, squares[0], d, reach, f);
    }
    for &sq in squares {
        if at_xy(board, c, sq.0 as i32 + d.0, sq.1 as i32 + d.1) != inst
            && !walk_lane::<OCC>(board, c, inst, sq, d, reach, f)
        {
            return false;
        }
    }
    true
}

/// Every cell of `ray(inst, dx, dy, n)`: along each lane, up to `n` cells,
/// stopping after the first occupied one. Returns false if `f` stopped.
/// With `OCC`, `f` gets only the occupied cells (the walk is the same).
pub fn each_ray_cell<const OCC: bool>(
    g: &Graph,
    c: &Core,
    inst: i32,
    dx: i32,
    dy: i32,
    n: usize,
    f: &mut impl FnMut(i32) -> bool,
) -> bool {
    let Some((b, k)) = board_cell(g, c, inst) else {
        return true;
    };
    each_lane::<OCC>((b, &g.tables.boards[b]), c, inst, k, (dx, dy), (n, true), f)
}

/// Every distinct cell a movement pattern reaches from `start` (turned by
/// `facing`; a slide goes at most `n` cells), in the pattern's order, each
/// once: a cell two vectors or two lanes reach (a merged cell next to the
/// start, a neighbour of a merged start) is given the first time only.
/// Returns false if `f` stopped. With `OCC`, `f` gets only the occupied
/// targets (an empty one is passed over, not marked).
pub fn each_move<const OCC: bool>(
    g: &Graph,
    c: &Core,
    start: u16,
    pattern: u16,
    facing: u8,
    n: u8,
    f: &mut impl FnMut(i32) -> bool,
) -> bool {
    let Some((b, k)) = board_cell(g, c, start as i32) else {
        return true;
    };
    let Some(p) = g.tables.patterns.get(pattern as usize) else {
        return true;
    };
    let board = &g.tables.boards[b];
    // the bit set sized to the board: a small one is cleared in a few words
    if board.cells.len() <= SMALL_CELLS {
        walk_moves::<{ SMALL_CELLS / 64 }, OCC>(c, (b, board), (start, k), (p, facing, n), f)
    } else {
        walk_moves::<{ MAX_CELLS.div_ceil(64) }, OCC>(c, (b, board), (start, k), (p, facing, n), f)
    }
}

/// Most cells of a board whose pattern targets are kept distinct in a
/// bit set of `SMALL_CELLS / 64` words.
const SMALL_CELLS: usize = 256;

/// [`each_move`] from cell `k` (instance `start`) of board `b`, its
/// targets kept distinct in a bit set of `W` words (at least the board's
/// cell count in bits).
fn walk_moves<const W: usize, const OCC: bool>(
    c: &Core,
    (b, board): (usize, &BoardInfo),
    (start, k): (u16, usize),
    (p, facing, n): (&crate::hir::PatternInfo, u8, u8),
    f: &mut impl FnMut(i32) -> bool,
) -> bool {
    let base = c.zone_base[board.zone as usize] as i32;
    let mut seen = [0u64; W];
    let mut fresh = |cell: i32| {
        let i = (cell - base) as usize;
        let (w, bit) = (i / 64, 1u64 << (i % 64));
        if seen[w] & bit != 0 {
            return true;
        }
        seen[w] |= bit;
        f(cell)
    };
    for m in &p.moves {
        let (dx, dy) = turn(m.1, m.2, facing);
        let reach = if m.0 == 1 {
            (n as usize, true)
        } else {
            (1, false)
        };
        let d = (dx.clamp(-64, 64), dy.clamp(-64, 64));
        if !each_lane::<OCC>((b, board), c, start as i32, k, d, reach, &mut fresh) {
            return false;
        }
    }
    true
}

/// The `i`-th cell (from 0) stepping from a cell along (dx, dy), or -1 past
/// the edge: along its first lane (for a merged cell, the line leaving its
/// first square that leaves it; `ray` gives every lane). A merged group
/// counts as one cell and is crossed along the line.
pub fn ray_nth(g: &Graph, c: &Core, inst: i32, dx: i32, dy: i32, i: usize) -> i32 {
    let Some((b, k)) = board_cell(g, c, inst) else {
        return -1;
    };
    if dx == 0 && dy == 0 {
        return inst;
    }
    let board = &g.tables.boards[b];
    let d = (dx.clamp(-128, 128), dy.clamp(-128, 128));
    if let Some(lanes) = c.lanes.get(b, k, d) {
        // the first lane: the line leaving the cell's first leaving square
        let base = c.zone_base[board.zone as usize] as i32;
        return match (lanes.count() > 0).then(|| lanes.lane(0).get(i)) {
            Some(Some(&cell)) => base + i32::from(cell),
            _ => -1,
        };
    }
    let first = board.squares[k]
        .iter()
        .find(|sq| at_xy(board, c, sq.0 as i32 + d.0, sq.1 as i32 + d.1) != inst);
    let Some(&sq) = first else {
        return -1;
    };
    let (mut out, mut j) = (-1, 0);
    walk_lane::<false>(board, c, inst, sq, d, (i + 1, false), &mut |cell| {
        if j == i {
            out = cell;
            return false;
        }
        j += 1;
        true
    });
    out
}

/// One step from a cell.
pub fn shift(g: &Graph, c: &Core, inst: i32, dx: i32, dy: i32) -> i32 {
    ray_nth(g, c, inst, dx, dy, 0)
}

/// A vector turned a quarter clockwise `facing` times ((0, 1) forward becomes (1, 0)).
fn turn(dx: i8, dy: i8, facing: u8) -> (i32, i32) {
    let (mut x, mut y) = (dx as i32, dy as i32);
    for _ in 0..facing {
        (x, y) = (y, -x);
    }
    (x, y)
}

/// The index of a step with a neighbour table (both coordinates within
/// the lanes' reach, the null step included), if it has one.
pub(super) fn step_index(dx: i32, dy: i32) -> Option<usize> {
    super::lanes::Lanes::step_of(dx, dy)
}

/// `shift(inst, dx, dy)` where `s` is `step_index(dx, dy)`: one load from
/// the lanes' neighbour array when the table has its rows (else the walk).
#[inline]
pub(super) fn shift_at(g: &Graph, c: &Core, inst: i32, s: usize, (dx, dy): (i32, i32)) -> i32 {
    match c.cell_rows.get(inst) {
        Some(row) => c.lanes.step(row, inst, s),
        None => shift(g, c, inst, dx, dy),
    }
}

/// `shift(inst, dx, dy)` through the neighbour array when the step is in
/// it (else the walk).
#[inline]
pub(super) fn shift_with(g: &Graph, c: &Core, inst: i32, dx: i32, dy: i32) -> i32 {
    match step_index(dx, dy) {
        Some(s) => shift_at(g, c, inst, s, (dx, dy)),
        None => shift(g, c, inst, dx, dy),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The neighbour tables give what the walk gives, for every cell and
    /// every step within their reach, on a board with removed corners and
    /// a merged centre (the shapes where a step is not plain arithmetic).
    #[test]
    fn tables_match_the_walk() {
        let text = "game \"Grid\" { players 2..2 }\n\
            board b {\n  grid 6 x 5\n  remove a1..b2, f5..f5\n  merge c3..d4\n  region whole = a1..f5\n}\n\
            start { choose seat(0) { \"stop\" { } } end game }\n\
            winners highest 0\n";
        let game = crate::Game::from_source("grid.rules", text).expect("compiles");
        let state = crate::State::new(&game, 2, 1, &game.default_options()).expect("starts");
        let g = game.graph();
        let c = &state.core;
        let board = &g.tables.boards[0];
        let base = c.zone_base[board.zone as usize] as i32;
        let mut checked = 0;
        for k in 0..board.cells.len() as i32 {
            for dy in -3..=3 {
                for dx in -3..=3 {
                    let walk = shift(g, c, base + k, dx, dy);
                    assert_eq!(shift_with(g, c, base + k, dx, dy), walk);
                    let xy = cell_xy(g, c, base + k);
                    let (b, k) = cell_of(g, c, base + k).expect("a cell");
                    let (x, y) = g.tables.boards[b].cells[k];
                    assert_eq!(xy, Some((i32::from(x), i32::from(y))));
                    checked += 1;
                }
            }
        }
        assert!(checked > 0);
        // not a cell: none either way
        assert_eq!(shift_with(g, c, -1, 1, 0), -1);
        assert_eq!(shift_with(g, c, 1 << 20, 1, 0), -1);
        assert_eq!(cell_xy(g, c, -1), None);
    }
}
