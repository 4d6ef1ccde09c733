//! Boards: the grid, removed cells, merged cells (a group that counts as one
//! square) and named regions. A board is a zone with one instance per cell,
//! so pieces are cards and every card rule (conservation, knowledge) holds.
//! Each cell keeps the squares it covers: the engine walks lines through a
//! merged cell from every one of them (`engine::eval`, board geometry).

use super::{Checker, Sym};
use crate::diag::Diagnostic;
use crate::diag::code;
use crate::hir::*;
use crate::syntax::ast::{self, CellSpan, Shape, Visibility};

impl Checker {
    pub(super) fn declare_board(&mut self, b: &ast::BoardDecl) {
        let zone = self.tables.zones.len() as u16;
        let id = self.tables.boards.len() as u16;
        if !self.define(&b.name, Sym::Zone(zone)) {
            return;
        }
        let (w, h) = self.board_size(b);
        let (grid, cells, names) = self.board_cells(b, w, h);
        let mut squares = vec![Vec::new(); cells.len()];
        for y in 0..h {
            for x in 0..w {
                if grid[y * w + x] >= 0 {
                    squares[grid[y * w + x] as usize].push((x as i8, y as i8));
                }
            }
        }
        let mut regions = Vec::new();
        for (rname, spans) in &b.regions {
            let r = regions.len() as u16;
            if self.define(rname, Sym::Region(id, r)) {
                let mut member = vec![false; cells.len()];
                for s in spans {
                    for (x, y) in self.cells_of(s, w, h) {
                        if grid[y * w + x] >= 0 {
                            member[grid[y * w + x] as usize] = true;
                        }
                    }
                }
                regions.push((rname.text.clone(), member));
            }
        }
        self.tables.zones.push(ZoneInfo {
            name: b.name.text.clone(),
            per_player: false,
            board: Some(id),
            shape: Shape::Set,
            visibility: Visibility::Public,
        });
        self.usage.zones_used.push(false);
        self.usage.zone_spans.push(b.name.span);
        self.tables.boards.push(BoardInfo {
            name: b.name.text.clone(),
            zone,
            width: w as u8,
            height: h as u8,
            grid,
            cells,
            cell_names: names,
            squares,
            regions,
        });
    }

    /// The grid's columns and rows (1 x 1 after an error, which is reported).
    fn board_size(&mut self, b: &ast::BoardDecl) -> (usize, usize) {
        match b.size {
            Some((w, h, _)) if (1..=26).contains(&w) && (1..=99).contains(&h) => {
                (w as usize, h as usize)
            }
            Some((_, _, span)) => {
                self.error(
                    Diagnostic::error(code::BAD_SIZE, "impossible board size")
                        .label(span, "a board is 1 to 26 columns by 1 to 99 rows")
                        .help("write for example `grid 8 x 8`"),
                );
                (1, 1)
            }
            None => {
                self.error(
                    Diagnostic::error(
                        code::MISSING_DECLARATION,
                        format!("board `{}` has no size", b.name.text),
                    )
                    .label(b.name.span, "how many columns and rows?")
                    .help("add `grid W x H` inside the board"),
                );
                (1, 1)
            }
        }
    }

    /// The cells left after removals and merges, in reading order: the grid
    /// (square -> cell, -1 removed), each cell's first square, its name.
    #[allow(clippy::type_complexity)]
    fn board_cells(
        &mut self,
        b: &ast::BoardDecl,
        w: usize,
        h: usize,
    ) -> (Vec<i16>, Vec<(i8, i8)>, Vec<String>) {
        let mut owner = vec![0i32; w * h]; // 0 = plain cell, -1 removed, k>0 merged group k
        for s in &b.removed {
            for (x, y) in self.cells_of(s, w, h) {
                owner[y * w + x] = -1;
            }
        }
        for (g, group) in b.merged.iter().enumerate() {
            for s in group {
                for (x, y) in self.cells_of(s, w, h) {
                    owner[y * w + x] = g as i32 + 1;
                }
            }
        }
        let mut grid = vec![-1i16; w * h];
        let mut cells = Vec::new();
        let mut names = Vec::new();
        let mut group_cell = vec![-1i16; b.merged.len() + 1];
        for y in 0..h {
            for x in 0..w {
                let o = owner[y * w + x];
                if o < 0 {
                    continue;
                }
                if o > 0 && group_cell[o as usize] >= 0 {
                    grid[y * w + x] = group_cell[o as usize];
                    continue;
                }
                let idx = cells.len() as i16;
                grid[y * w + x] = idx;
                if o > 0 {
                    group_cell[o as usize] = idx;
                }
                cells.push((x as i8, y as i8));
                names.push(format!("{}{}", (b'a' + x as u8) as char, y + 1));
            }
        }
        (grid, cells, names)
    }

    /// The (x, y) cells of a rectangle, reporting any that fall off the grid.
    fn cells_of(&mut self, s: &CellSpan, w: usize, h: usize) -> Vec<(usize, usize)> {
        let (x0, x1) = (s.from.0.min(s.to.0), s.from.0.max(s.to.0));
        let (y0, y1) = (s.from.1.min(s.to.1), s.from.1.max(s.to.1));
        if x0 < 0 || y0 < 0 || x1 >= w as i64 || y1 >= h as i64 {
            self.error(
                Diagnostic::error(code::BAD_SIZE, "cells outside the board")
                    .label(s.span, format!("the board is {w} x {h}"))
                    .help("columns are letters from `a`, rows numbers from 1: `a1..c3` is a rectangle"),
            );
            return Vec::new();
        }
        let mut out = Vec::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                out.push((x as usize, y as usize));
            }
        }
        out
    }
}
