//! The checker's first pass: every top-level declaration (game, options,
//! enums, zones, boards, patterns, phases, card kinds, variables, tables,
//! functions, phase parameters) collected into the tables and the
//! namespace, so that the order of declarations does not matter.

use super::{Checker, Sym, default_value};
use crate::diag::code;
use crate::diag::{Diagnostic, Span};
use crate::hir::*;
use crate::syntax::ast::{self, Item};

impl Checker {
    /// First pass: every top-level name, so that order of declaration does
    /// not matter. Declarations are collected in the order their meanings
    /// need: names first (game, options, enums, zones, boards, patterns,
    /// phases), then card kinds (attribute types), variables, tables and
    /// functions, and last the phases' parameter types.
    pub(super) fn declare_all(&mut self, file: &ast::File) {
        let mut game_seen: Option<Span> = None;
        for item in &file.items {
            match item {
                Item::Game(g) => self.declare_game(g, &mut game_seen),
                Item::Option(o) => self.declare_option(o),
                Item::Enum(e) => self.declare_enum(e),
                Item::Zone(z) => self.declare_zone(z),
                Item::Board(b) => self.declare_board(b),
                Item::Pattern(p) => self.declare_pattern(p),
                Item::Phase(p) => self.declare_phase(p),
                _ => {}
            }
        }
        if game_seen.is_none() {
            self.error(
                Diagnostic::error(code::MISSING_DECLARATION, "no `game` declaration")
                    .label(Span::new(0, 0), "the file should start with the game")
                    .help("add `game \"Name\" { players 2..4 }` at the top"),
            );
        }
        // Procedure 0 is `start`; the phases were numbered from 1.
        self.procs.insert(
            0,
            Proc {
                name: "start".into(),
                kind: ProcKind::Start,
                params: Vec::new(),
                locals: 0,
                local_names: Vec::new(),
                local_types: Vec::new(),
                trigger: None,
                body: Vec::new(),
                span: Span::default(),
            },
        );
        // Card kinds come after enums so attribute types resolve.
        for item in &file.items {
            if let Item::Card(k) = item {
                self.declare_kind(k);
            }
        }
        self.declare_vars(file);
        self.declare_tables_and_fns(file);
        self.declare_phase_params(file);
    }

    /// The `game` block (once): name, direction, player count.
    fn declare_game(&mut self, g: &ast::GameDecl, game_seen: &mut Option<Span>) {
        // Label the keyword, not the whole block.
        let word = Span::new(g.span.start as usize, g.span.start as usize + "game".len());
        if let Some(prev) = *game_seen {
            self.error(
                Diagnostic::error(code::DUPLICATE, "the game is declared twice")
                    .label(word, "declared again here")
                    .label(prev, "first declared here")
                    .help("a rules file describes one game: keep one `game` block"),
            );
            return;
        }
        *game_seen = Some(word);
        self.tables.name = g.name.clone();
        self.tables.counterclockwise = g.counterclockwise;
        let (lo, hi) = match g.players {
            Some((lo, hi, span)) => {
                if lo < 1 || hi > 32 || lo > hi {
                    self.error(
                        Diagnostic::error(code::BAD_SIZE, "impossible player count")
                            .label(span, format!("{lo}..{hi} is not a valid range"))
                            .help(if lo > hi && hi >= 1 && lo <= 32 {
                                format!("write the smaller number first: `players {hi}..{lo}`")
                            } else {
                                "write `players MIN..MAX` with 1 <= MIN <= MAX <= 32".to_string()
                            }),
                    );
                    (1, 1)
                } else {
                    (lo, hi)
                }
            }
            None => (2, 2),
        };
        self.tables.min_players = lo as u8;
        self.tables.max_players = hi as u8;
    }

    /// An option: its range and default checked.
    fn declare_option(&mut self, o: &ast::OptionDecl) {
        let id = self.tables.options.len() as u16;
        if self.define(&o.name, Sym::Option(id)) {
            if !o.numbers_read {
                // a number that did not fit was reported by the parser
            } else if o.min > o.max {
                self.error(
                    Diagnostic::error(
                        code::OPTION_RANGE,
                        format!("option `{}` has an empty range", o.name.text),
                    )
                    .label(o.range_span, "the minimum is above the maximum")
                    .help(format!(
                        "write the smaller bound first: `{}..{}`",
                        o.max, o.min
                    )),
                );
            } else if o.default.0 < o.min || o.default.0 > o.max {
                self.error(
                    Diagnostic::error(
                        code::OPTION_RANGE,
                        format!(
                            "the default of option `{}` is out of its range",
                            o.name.text
                        ),
                    )
                    .label(
                        o.default.1,
                        format!("{} is not in {}..{}", o.default.0, o.min, o.max),
                    )
                    .label(o.range_span, "the allowed range")
                    .help(format!(
                        "choose a default inside {}..{}, or widen the range to `{}..{}`",
                        o.min,
                        o.max,
                        o.min.min(o.default.0),
                        o.max.max(o.default.0)
                    )),
                );
            }
            self.tables.options.push(OptionInfo {
                name: o.name.text.clone(),
                default: o.default.0 as i32,
                min: o.min as i32,
                max: o.max as i32,
                doc: o.doc.clone().unwrap_or_default(),
            });
            self.usage.options_read.push(false);
            self.usage.option_spans.push(o.name.span);
        }
    }

    /// An enum: its values, each once.
    fn declare_enum(&mut self, e: &ast::EnumDecl) {
        let id = self.tables.enums.len() as u16;
        if self.define(&e.name, Sym::Enum(id)) {
            let mut values: Vec<String> = Vec::new();
            for v in &e.values {
                if values.contains(&v.text) {
                    self.error(
                        Diagnostic::error(
                            code::DUPLICATE,
                            format!("`{}` appears twice in enum `{}`", v.text, e.name.text),
                        )
                        .label(v.span, "repeated here")
                        .help("list each value once"),
                    );
                    continue;
                }
                self.enum_values
                    .entry(v.text.clone())
                    .or_default()
                    .push((id, values.len() as u16));
                values.push(v.text.clone());
            }
            self.tables.enums.push(EnumInfo {
                name: e.name.text.clone(),
                values,
            });
            self.usage.enums_used.push(false);
            self.usage.enum_spans.push(e.name.span);
        }
    }

    fn declare_zone(&mut self, z: &ast::ZoneDecl) {
        let id = self.tables.zones.len() as u16;
        if self.define(&z.name, Sym::Zone(id)) {
            self.tables.zones.push(ZoneInfo {
                name: z.name.text.clone(),
                per_player: z.per_player,
                board: None,
                shape: z.shape,
                visibility: z.visibility,
            });
            self.usage.zones_used.push(false);
            self.usage.zone_spans.push(z.name.span);
        }
    }

    /// A movement pattern, its steps clamped to the board's reach.
    fn declare_pattern(&mut self, p: &ast::PatternDecl) {
        let id = self.tables.patterns.len() as u16;
        if self.define(&p.name, Sym::Pattern(id)) {
            let moves = p
                .moves
                .iter()
                .map(|(m, x, y)| (*m, (*x).clamp(-64, 64) as i8, (*y).clamp(-64, 64) as i8))
                .collect();
            self.tables.patterns.push(PatternInfo {
                name: p.name.text.clone(),
                moves,
            });
        }
    }

    /// A phase, turn or reaction, numbered from 1 (0 is `start`).
    fn declare_phase(&mut self, p: &ast::PhaseDecl) {
        let id = self.procs.len() as u16 + 1;
        if self.define(&p.name, Sym::Proc(id)) {
            let kind = match p.kind {
                ast::PhaseKind::Phase => ProcKind::Phase,
                ast::PhaseKind::Turn => ProcKind::Turn,
                ast::PhaseKind::Reaction => ProcKind::Reaction,
            };
            self.procs.push(Proc {
                name: p.name.text.clone(),
                kind,
                params: Vec::new(),
                locals: 0,
                local_names: Vec::new(),
                local_types: Vec::new(),
                trigger: None,
                body: Vec::new(),
                span: p.name.span,
            });
        }
    }

    /// Variables, after enums (their types) and kinds.
    fn declare_vars(&mut self, file: &ast::File) {
        for item in &file.items {
            if let Item::Var(v) = item {
                let id = self.tables.vars.len() as u16;
                if self.define(&v.name, Sym::Var(id)) {
                    let ty = self.ty(&v.ty);
                    self.tables.vars.push(VarInfo {
                        name: v.name.text.clone(),
                        ty,
                        per_player: v.per_player,
                        per_card: v.per_card,
                        init: default_value(ty),
                    });
                    self.usage.vars_read.push(false);
                    self.usage.vars_written.push(false);
                    self.usage.var_spans.push(v.name.span);
                }
            }
        }
    }

    fn declare_tables_and_fns(&mut self, file: &ast::File) {
        for item in &file.items {
            match item {
                Item::Table(t) => self.declare_table(t),
                Item::Fn(f) => {
                    let id = self.funcs.len() as u16;
                    if self.define(&f.name, Sym::Func(id)) {
                        let params = f.params.iter().map(|(_, t)| self.ty(t)).collect();
                        let ret = self.ty(&f.ret);
                        self.funcs.push((f.clone(), params, ret));
                    }
                }
                _ => {}
            }
        }
    }

    /// Phase parameter types: a turn takes its player first, a reaction
    /// at most the card that entered.
    fn declare_phase_params(&mut self, file: &ast::File) {
        for item in &file.items {
            if let Item::Phase(p) = item {
                let Some((Sym::Proc(id), span)) = self.names.get(&p.name.text).copied() else {
                    continue;
                };
                if span != p.name.span {
                    continue;
                }
                let params: Vec<Ty> = p.params.iter().map(|(_, t)| self.ty(t)).collect();
                if p.kind == ast::PhaseKind::Turn && params.first() != Some(&Ty::Player) {
                    self.error(
                        Diagnostic::error(
                            code::TYPE_MISMATCH,
                            format!("turn `{}` must take its player first", p.name.text),
                        )
                        .label(p.name.span, "a turn belongs to a player")
                        .help(format!(
                            "declare it as `turn {}(p: player) {{ ... }}`",
                            p.name.text
                        )),
                    );
                }
                if p.kind == ast::PhaseKind::Reaction
                    && !(params.is_empty() || params == [Ty::Card])
                {
                    self.error(
                        Diagnostic::error(code::TYPE_MISMATCH, format!("reaction `{}` takes at most the card that entered", p.name.text))
                            .label(p.name.span, "wrong parameters")
                            .help("declare it as `reaction NAME(c: card) on enter ZONE { ... }` or without parameters"),
                    );
                }
                self.procs[id as usize].params = params;
                // Parameter names, for help lines (check_procs adds the other locals).
                self.procs[id as usize].local_names =
                    p.params.iter().map(|(n, _)| n.text.clone()).collect();
            }
        }
    }

    fn declare_table(&mut self, t: &ast::TableDecl) {
        let id = self.tables.tables.len() as u16;
        if !self.define(&t.name, Sym::Table(id)) {
            return;
        }
        let key = self.ty(&t.key);
        let value = self.ty(&t.value);
        if value != Ty::Int && value != Ty::Pattern && value != Ty::Error {
            self.error(
                Diagnostic::error(code::TYPE_MISMATCH, "tables map to whole numbers or patterns")
                    .label(t.value.span, "write `int` or `pattern` here")
                    .help("a table gives a number for each value of an enum: `table size: Object -> int { ring: 2 }`"),
            );
        }
        let Ty::Enum(e) = key else {
            if key != Ty::Error {
                self.error(
                    Diagnostic::error(code::TYPE_MISMATCH, "a table is indexed by an enum")
                        .label(t.key.span, "not an enum")
                        .help("declare `enum Name { ... }` and use it as the key type"),
                );
            }
            self.tables.tables.push(TableInfo {
                name: t.name.text.clone(),
                key: 0,
                ty: value,
                values: Vec::new(),
            });
            return;
        };
        let names = self.tables.enums[e as usize].values.clone();
        let mut values = vec![None; names.len()];
        for (k, v) in &t.entries {
            match names.iter().position(|n| *n == k.text) {
                Some(i) if values[i].is_some() => self.error(
                    Diagnostic::error(
                        code::DUPLICATE,
                        format!("`{}` appears twice in table `{}`", k.text, t.name.text),
                    )
                    .label(k.span, "repeated here")
                    .help("give each key one value"),
                ),
                Some(i) => values[i] = self.table_value(v, value),
                None => self.unknown(&k.text, k.span, &format!("value of `{}`", t.key.text), &[]),
            }
        }
        let missing: Vec<&str> = names
            .iter()
            .zip(&values)
            .filter(|(_, v)| v.is_none())
            .map(|(n, _)| n.as_str())
            .collect();
        if !missing.is_empty() {
            self.error(
                Diagnostic::error(
                    code::TABLE_INCOMPLETE,
                    format!(
                        "table `{}` has no value for {}",
                        t.name.text,
                        missing.join(", ")
                    ),
                )
                .label(t.name.span, "incomplete table")
                .help("give a value for every value of the enum (0 if it does not matter)"),
            );
        }
        self.tables.tables.push(TableInfo {
            name: t.name.text.clone(),
            key: e,
            ty: value,
            values: values.into_iter().map(|v| v.unwrap_or(0)).collect(),
        });
    }

    fn table_value(&mut self, v: &ast::TableValue, ty: Ty) -> Option<i32> {
        match (v, ty) {
            (ast::TableValue::Int(i), Ty::Int) => Some(*i as i32),
            (ast::TableValue::Name(n), Ty::Pattern) => match self.names.get(&n.text) {
                Some((Sym::Pattern(p), _)) => Some(*p as i32),
                _ => {
                    self.unknown(&n.text, n.span, "pattern", &[]);
                    Some(0)
                }
            },
            (_, Ty::Error) => Some(0),
            _ => {
                let span = match v {
                    ast::TableValue::Name(n) => n.span,
                    ast::TableValue::Int(_) => Span::default(),
                };
                self.error(
                    Diagnostic::error(code::TYPE_MISMATCH, "type mismatch in a table")
                        .label(span, "this value does not fit the table's type")
                        .help(
                            "an `int` table takes numbers, a `pattern` table takes pattern names",
                        ),
                );
                Some(0)
            }
        }
    }
}
