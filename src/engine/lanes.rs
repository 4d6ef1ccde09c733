//! Lanes precomputed per board: for every cell and every step (dx, dy)
//! with both within [`REACH`] (the null step excepted), the cells a line
//! from that cell crosses, in order, as the coordinate walk of
//! `geometry.rs` finds them (to the edge or a removed square, a merged cell
//! crossed along the line counting once, ending on coming back into the
//! start). A merged cell has one lane per square whose step leaves it.
//! Built once at load (`Program`) and shared with every table through its
//! [`Layout`](super::table::Layout), so `ray(...)`, `moves(...)` and the
//! steps of a ray read a slice instead of stepping through coordinates and
//! the grid. What depends on the position (a slide stops after the first
//! occupied cell, at most `n` cells) is applied while walking.
//!
//! Also per cell, in flat arrays shared the same way: its coordinates and
//! its neighbour for every step within [`REACH`] (null step included), as
//! the offset from the cell's instance to the neighbour's (the same for
//! any player count: both lie in the board's zone). A table finds a
//! cell's row in them through [`CellRows`], so `shift` with a step in
//! reach and `x_of`/`y_of` are one load each after the row, and `ray`
//! and `moves` find the cell's board and index there too.
//!
//! Memory is bounded: a board whose lanes would hold more than
//! [`MAX_ENTRIES`] cells (2 bytes each: 512 KiB) gets no table and walks
//! its coordinates as before. For scale: a full 8 x 8 grid needs 2,672
//! cells, a full 26 x 26 grid 109,148; the largest board the language
//! allows (26 x 99) would need 809,458 and walks. Building stops as soon
//! as the bound is passed, so a huge board costs no more than the bound.

use crate::hir::BoardInfo;

/// Steps with lanes: both coordinates within `-REACH..=REACH`.
pub(super) const REACH: i32 = 2;
const SIDE: usize = (2 * REACH + 1) as usize;
const DIRS: usize = SIDE * SIDE;
/// Most cells the lanes of one board may hold.
pub(super) const MAX_ENTRIES: usize = 1 << 18;

/// The lanes of every board of a game (`None` for a board past the bound).
#[derive(Default)]
pub struct Lanes {
    boards: Vec<Option<BoardLanes>>,
    /// Each board's first row in `xy` and `steps` (cells follow in order).
    first_row: Vec<u32>,
    /// Per row (cell): its coordinates (the first square of a merged cell).
    xy: Vec<(i8, i8)>,
    /// Per row: its board and its index among the board's cells.
    cell: Vec<(u32, u32)>,
    /// Per row and step index: the neighbour's instance minus the cell's,
    /// or [`NO_STEP`] (off the board, a removed square).
    steps: Vec<i16>,
}

/// No neighbour along a step.
const NO_STEP: i16 = i16::MIN;
/// Not a board cell: the row of an instance outside every board.
const NO_ROW: u32 = u32::MAX;

/// Per zone instance of a table, its row in the [`Lanes`] per-cell arrays
/// ([`NO_ROW`] if not a board cell). Empty in a table read back from a
/// file (which walks its boards instead). Derived from the layout, so no
/// part of its identity.
#[derive(Clone, Debug, Default)]
pub struct CellRows(Vec<u32>, Vec<(i8, i8)>);

/// Not a board cell: the coordinates of an instance outside every board.
const NO_XY: (i8, i8) = (i8::MIN, i8::MIN);

impl PartialEq for CellRows {
    fn eq(&self, _: &CellRows) -> bool {
        true
    }
}
impl Eq for CellRows {}

impl CellRows {
    /// The rows of the instances `inst_zone` (each one's declared zone),
    /// with `board_of[zone]` and `zone_base[zone]`; none if `lanes` has no
    /// rows for these boards.
    pub(super) fn of(
        lanes: &Lanes,
        inst_zone: &[u16],
        zone_base: &[u16],
        board_of: impl Fn(usize) -> Option<usize>,
        boards: usize,
    ) -> CellRows {
        if lanes.first_row.len() != boards {
            return CellRows::default();
        }
        let rows: Vec<u32> = inst_zone
            .iter()
            .enumerate()
            .map(|(i, &z)| {
                board_of(z as usize).map_or(NO_ROW, |b| {
                    lanes.first_row[b] + (i - zone_base[z as usize] as usize) as u32
                })
            })
            .collect();
        let xy = rows
            .iter()
            .map(|&r| lanes.xy.get(r as usize).copied().unwrap_or(NO_XY))
            .collect();
        CellRows(rows, xy)
    }

    /// The coordinates of an instance of this table (the lanes' per-cell
    /// coordinates, read by instance in one load): `Some(None)` if it is
    /// no cell or no instance, `None` if this table has no rows (then the
    /// caller walks).
    #[inline(always)]
    pub(super) fn xy(&self, inst: i32) -> Option<Option<(i32, i32)>> {
        match self.1.get(inst as usize) {
            Some(&xy) if xy == NO_XY => Some(None),
            Some(&(x, y)) => Some(Some((i32::from(x), i32::from(y)))),
            None if self.1.is_empty() => None,
            None => Some(None),
        }
    }

    /// `Some(row)` for an instance of this table (`NO_ROW` if not a cell),
    /// `Some(NO_ROW)` for a number that is no instance, `None` if this
    /// table has no rows (then the caller walks).
    #[inline]
    pub(super) fn get(&self, inst: i32) -> Option<u32> {
        match self.0.get(inst as usize) {
            Some(&r) => Some(r),
            None if self.0.is_empty() => None,
            None => Some(NO_ROW),
        }
    }
}

/// One board's lanes: those of (cell `k`, step index `s`) are lanes
/// `heads[k * DIRS + s]..heads[k * DIRS + s + 1]`; lane `j` is
/// `cells[starts[j]..starts[j + 1]]` (board-local cell indices).
struct BoardLanes {
    heads: Vec<u32>,
    starts: Vec<u32>,
    cells: Vec<u16>,
}

/// Derived from the boards, so no part of a layout's identity: two
/// layouts of one game are equal whether or not they carry lanes (a
/// table read back from a file has none and walks instead).
impl PartialEq for Lanes {
    fn eq(&self, _: &Lanes) -> bool {
        true
    }
}
impl Eq for Lanes {}

impl std::fmt::Debug for Lanes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cells: usize = self.boards.iter().flatten().map(|b| b.cells.len()).sum();
        f.debug_struct("Lanes").field("cells", &cells).finish()
    }
}

/// The index of a step in the tables, if it has lanes.
#[inline]
fn step_index(d: (i32, i32)) -> Option<usize> {
    if d == (0, 0) || d.0.abs() > REACH || d.1.abs() > REACH {
        return None;
    }
    Some(((d.1 + REACH) as usize) * SIDE + (d.0 + REACH) as usize)
}

/// The lanes of one (cell, step): each a slice of board-local cells.
pub(super) struct Of<'a> {
    starts: &'a [u32],
    cells: &'a [u16],
}

impl<'a> Of<'a> {
    /// How many lanes (a merged cell has one per leaving square).
    #[inline]
    pub(super) fn count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Lane `j`'s cells, in order.
    #[inline]
    pub(super) fn lane(&self, j: usize) -> &'a [u16] {
        &self.cells[self.starts[j] as usize..self.starts[j + 1] as usize]
    }
}

impl Lanes {
    /// The lanes of every board, each within [`MAX_ENTRIES`].
    pub(crate) fn of(boards: &[BoardInfo]) -> Lanes {
        let mut first_row = Vec::with_capacity(boards.len());
        let (mut xy, mut steps, mut cell) = (Vec::new(), Vec::new(), Vec::new());
        for (i, b) in boards.iter().enumerate() {
            first_row.push(xy.len() as u32);
            xy.extend_from_slice(&b.cells);
            cell.extend((0..b.cells.len()).map(|k| (i as u32, k as u32)));
            let tables: Vec<Vec<i16>> = (0..DIRS)
                .map(|s| {
                    let d = ((s % SIDE) as i32 - REACH, (s / SIDE) as i32 - REACH);
                    step_table(b, d.0, d.1)
                })
                .collect();
            for k in 0..b.cells.len() {
                steps.extend(tables.iter().map(|t| match t[k] {
                    n if n >= 0 => n - k as i16,
                    _ => NO_STEP,
                }));
            }
        }
        Lanes {
            boards: boards.iter().map(|b| build(b, MAX_ENTRIES)).collect(),
            first_row,
            xy,
            cell,
            steps,
        }
    }

    /// The board and cell index of the cell in `row`, if it is one (what
    /// `geometry::cell_of` finds through the zone).
    #[inline]
    pub(super) fn cell(&self, row: u32) -> Option<(usize, usize)> {
        let &(b, k) = self.cell.get(row as usize)?;
        Some((b as usize, k as usize))
    }

    /// The index of a step within reach (null step included), if it is.
    #[inline]
    pub(super) fn step_of(dx: i32, dy: i32) -> Option<usize> {
        if dx.abs() > REACH || dy.abs() > REACH {
            return None;
        }
        Some(((dy + REACH) as usize) * SIDE + (dx + REACH) as usize)
    }

    /// One step `s` ([`Lanes::step_of`]) from the cell `inst` in `row`:
    /// the neighbour's instance, or -1.
    #[inline]
    pub(super) fn step(&self, row: u32, inst: i32, s: usize) -> i32 {
        if row == NO_ROW {
            return -1;
        }
        match self.steps.get(row as usize * DIRS + s) {
            Some(&d) if d != NO_STEP => inst + i32::from(d),
            _ => -1,
        }
    }

    /// The lanes of cell `k` of board `b` along `d`, if tabled.
    #[inline]
    pub(super) fn get(&self, b: usize, k: usize, d: (i32, i32)) -> Option<Of<'_>> {
        let t = self.boards.get(b)?.as_ref()?;
        let i = k * DIRS + step_index(d)?;
        let (h0, h1) = (t.heads[i] as usize, t.heads[i + 1] as usize);
        Some(Of {
            starts: &t.starts[h0..=h1],
            cells: &t.cells,
        })
    }
}

/// A board's lanes, or `None` if they would hold more than `limit` cells.
fn build(board: &BoardInfo, limit: usize) -> Option<BoardLanes> {
    let (w, h) = (board.width as i32, board.height as i32);
    let at = |x: i32, y: i32| -> i32 {
        if x < 0 || y < 0 || x >= w || y >= h {
            -1
        } else {
            i32::from(board.grid[(y * w + x) as usize]).max(-1)
        }
    };
    let n = board.cells.len();
    let mut heads = Vec::with_capacity(n * DIRS + 1);
    let mut starts = vec![0u32];
    let mut cells: Vec<u16> = Vec::new();
    heads.push(0);
    for k in 0..n {
        let from = k as i32;
        for s in 0..DIRS {
            let d = ((s % SIDE) as i32 - REACH, (s / SIDE) as i32 - REACH);
            if d != (0, 0) {
                for sq in &board.squares[k] {
                    let (mut x, mut y) = (sq.0 as i32, sq.1 as i32);
                    if at(x + d.0, y + d.1) == from {
                        continue; // a step that stays inside the cell
                    }
                    let mut last = from;
                    loop {
                        x += d.0;
                        y += d.1;
                        let next = at(x, y);
                        if next < 0 || next == from {
                            break;
                        }
                        if next == last {
                            continue;
                        }
                        last = next;
                        if cells.len() == limit {
                            return None;
                        }
                        cells.push(next as u16);
                    }
                    starts.push(cells.len() as u32);
                }
            }
            heads.push((starts.len() - 1) as u32);
        }
    }
    Some(BoardLanes {
        heads,
        starts,
        cells,
    })
}

/// The neighbour table of a board for one step (dx, dy): for each cell,
/// the board-local index of `shift(cell, dx, dy)`, or -1 (off the board,
/// a removed square). Built once at load; `shift` with a step in the
/// table is then one load. Same answers as `geometry::ray_nth(.., 0)`.
fn step_table(board: &BoardInfo, dx: i32, dy: i32) -> Vec<i16> {
    let (w, h) = (board.width as i32, board.height as i32);
    let at = |x: i32, y: i32| -> i32 {
        if x < 0 || y < 0 || x >= w || y >= h {
            -1
        } else {
            i32::from(board.grid[(y * w + x) as usize]).max(-1)
        }
    };
    let d = (dx.clamp(-128, 128), dy.clamp(-128, 128));
    (0..board.cells.len())
        .map(|k| {
            if d == (0, 0) {
                return k as i16;
            }
            let leaves = |sq: &&(i8, i8)| at(sq.0 as i32 + d.0, sq.1 as i32 + d.1) != k as i32;
            let Some(sq) = board.squares[k].iter().find(leaves) else {
                return -1;
            };
            let next = at(sq.0 as i32 + d.0, sq.1 as i32 + d.1);
            if next < 0 { -1 } else { next as i16 }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::geometry::{each_move, each_ray_cell, ray_nth};
    use crate::engine::table::Core;

    const BOARD: &str = "game \"Grid\" { players 2..2 }\n\
        enum Kind { a, b }\n\
        card Piece { kind: Kind }\n\
        deck men of Piece size 6 in box { 3 x { kind: [a, b] } }\n\
        zone box: shared set public\n\
        pattern star: slide (0,1) (1,0) (0,-1) (-1,0) (1,1) (1,-1) (-1,-1) (-1,1)\n\
        pattern odd: step (0,1) (2,1) leap (-2,2) (1,-2) slide (2,0)\n\
        board b {\n  grid 6 x 5\n  remove a1..b2, f5..f5\n  merge c3..d4\n  region whole = a1..f5\n}\n\
        start { choose seat(0) { \"stop\" { } } end game }\n\
        winners highest 0\n";

    /// The cells a walk gives and whether it ran to its end, with `f`
    /// stopping after `stop` cells.
    fn cells(
        stop: usize,
        walk: impl FnOnce(&mut dyn FnMut(i32) -> bool) -> bool,
    ) -> (Vec<i32>, bool) {
        let mut out = Vec::new();
        let ran = walk(&mut |v| {
            out.push(v);
            out.len() < stop
        });
        (out, ran)
    }

    /// The occupied cells of a walk's cells (and whether it ran to its end).
    fn occupied_of(c: &Core, (all, ran): (Vec<i32>, bool)) -> (Vec<i32>, bool) {
        let kept = all.into_iter().filter(|v| c.zone_len(*v as usize) > 0);
        (kept.collect(), ran)
    }

    /// Rays, ray steps and patterns give the same cells through the lanes
    /// as through the coordinate walk, for every cell, every step within
    /// reach and past it, every facing, and a walk stopped early, on a
    /// board with removed corners and a merged centre; a walk of the
    /// occupied cells only gives the full walk's occupied cells.
    #[test]
    fn lanes_match_the_walk() {
        let game = crate::Game::from_source("grid.rules", BOARD).expect("compiles");
        let mut state = crate::State::new(&game, 2, 1, &game.default_options()).expect("starts");
        let g = game.graph();
        // pieces on a few cells (the merged centre among them), so that
        // slides stop after them
        let board = &g.tables.boards[0];
        let base = state.core.zone_base[board.zone as usize] as i32;
        let n = board.cells.len() as i32;
        let merged = board
            .squares
            .iter()
            .position(|sq| sq.len() > 1)
            .expect("a merged cell");
        for (card, k) in [0, 5, merged as i32, n - 1].into_iter().enumerate() {
            state.core.put(g, card as u16, (base + k) as u16, false);
        }
        let tabled = &state.core;
        assert!(tabled.lanes.boards[0].is_some(), "a small board has lanes");
        // the same table without lanes walks its coordinates
        let mut walked = tabled.clone();
        walked.drop_lanes();
        assert!(walked.lanes.boards.is_empty());
        let mut checked = 0;
        // coordinates by instance, and none off the board, as walked
        for inst in [-1, 0, base - 1, base + n, 1 << 20] {
            let xy = crate::engine::geometry::cell_xy(g, tabled, inst);
            assert_eq!(xy, crate::engine::geometry::cell_xy(g, &walked, inst));
        }
        for inst in base..base + board.cells.len() as i32 {
            let xy = crate::engine::geometry::cell_xy(g, tabled, inst);
            assert!(xy.is_some());
            assert_eq!(xy, crate::engine::geometry::cell_xy(g, &walked, inst));
            for dy in -3..=3 {
                for dx in -3..=3 {
                    for (n, stop) in [(0, 99), (1, 99), (2, 99), (9, 99), (9, 1)] {
                        let ray = |c: &Core| {
                            cells(stop, |f| {
                                each_ray_cell::<false>(g, c, inst, dx, dy, n, &mut |v| f(v))
                            })
                        };
                        assert_eq!(ray(tabled), ray(&walked), "ray {inst} ({dx}, {dy}) {n}");
                        // the occupied cells only: the same walk, empty cells left out
                        for c in [tabled, &walked].into_iter().filter(|_| stop == 99) {
                            let occupied = cells(99, |f| {
                                each_ray_cell::<true>(g, c, inst, dx, dy, n, &mut |v| f(v))
                            });
                            assert_eq!(occupied, occupied_of(c, ray(c)), "ray {inst} {n}");
                        }
                    }
                    for i in 0..6 {
                        let (a, b) = (
                            ray_nth(g, tabled, inst, dx, dy, i),
                            ray_nth(g, &walked, inst, dx, dy, i),
                        );
                        assert_eq!(a, b, "step {i} of ray {inst} ({dx}, {dy})");
                        checked += usize::from(a >= 0);
                    }
                }
            }
            for p in 0..g.tables.patterns.len() as u16 {
                for facing in 0..4 {
                    for (n, stop) in [(1u8, 99), (3, 99), (8, 99), (8, 2)] {
                        let mv = |c: &Core| {
                            cells(stop, |f| {
                                each_move::<false>(g, c, inst as u16, p, facing, n, &mut |v| f(v))
                            })
                        };
                        let a = mv(tabled);
                        assert_eq!(a, mv(&walked), "pattern {p} from {inst} facing {facing}");
                        for c in [tabled, &walked].into_iter().filter(|_| stop == 99) {
                            let occupied = cells(99, |f| {
                                each_move::<true>(g, c, inst as u16, p, facing, n, &mut |v| f(v))
                            });
                            assert_eq!(occupied, occupied_of(c, mv(c)), "pattern {p} {n}");
                        }
                        checked += a.0.len();
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// The bound: a board whose lanes hold exactly `limit` cells gets
    /// them, one over (`limit - 1`) gets none; the real bound leaves the
    /// largest board the language allows without lanes.
    #[test]
    fn lanes_are_bounded() {
        let game = crate::Game::from_source("grid.rules", BOARD).expect("compiles");
        let board = &game.graph().tables.boards[0];
        let exact = build(board, usize::MAX).expect("unbounded").cells.len();
        assert!(exact > 0);
        assert_eq!(
            build(board, exact).expect("at the limit").cells.len(),
            exact
        );
        assert!(build(board, exact - 1).is_none(), "one past the limit");
        let big = "game \"Big\" { players 2..2 }\n\
            board b {\n  grid 26 x 99\n  region whole = a1..z99\n}\n\
            start { choose seat(0) { \"stop\" { } } end game }\n\
            winners highest 0\n";
        let game = crate::Game::from_source("big.rules", big).expect("compiles");
        let board = &game.graph().tables.boards[0];
        let huge = build(board, usize::MAX).expect("unbounded").cells.len();
        assert!(huge > MAX_ENTRIES, "{huge}");
        assert!(build(board, MAX_ENTRIES).is_none(), "a huge board walks");
    }
}
