//! Declarations: `game`, `option`, `enum`, `card`, `deck`, `zone`, `var`,
//! `board`, `table`, phases, turns, reactions, `start`, `winners`, parameters.

use super::{Builder, cell_coords};
use crate::syntax::Rule;
use crate::syntax::ast::*;
use pest::iterators::Pair;

impl Builder {
    pub(super) fn item(&mut self, p: Pair<Rule>) -> Item {
        match p.as_rule() {
            Rule::game_decl => Item::Game(self.game_decl(p)),
            Rule::option_decl => Item::Option(self.option_decl(p)),
            Rule::enum_decl => Item::Enum(self.enum_decl(p)),
            Rule::card_decl => Item::Card(self.card_decl(p)),
            Rule::deck_decl => Item::Deck(self.deck_decl(p)),
            Rule::zone_decl => Item::Zone(self.zone_decl(p)),
            Rule::var_decl => Item::Var(self.var_decl(p)),
            Rule::table_decl => Item::Table(self.table_decl(p)),
            Rule::board_decl => Item::Board(self.board_decl(p)),
            Rule::variant_decl => {
                let span = self.span(&p);
                let mut i = p.into_inner();
                let name = self.string(i.next().expect("name"));
                let base = self.string(i.next().expect("base"));
                Item::Variant(name, base, span)
            }
            Rule::pattern_decl => {
                let mut i = p.into_inner();
                let name = self.name(i.next().expect("name"));
                let mut moves = Vec::new();
                for part in i {
                    let mut q = part.into_inner();
                    let mode = match q.next().expect("mode").as_str() {
                        "step" => 0,
                        "slide" => 1,
                        _ => 2,
                    };
                    for v in q {
                        let mut xy = v.into_inner();
                        let x = self.int(xy.next().expect("x"));
                        let y = self.int(xy.next().expect("y"));
                        moves.push((mode, x, y));
                    }
                }
                Item::Pattern(PatternDecl { name, moves })
            }
            Rule::invariant_decl => {
                let span = self.span(&p);
                let mut i = p.into_inner();
                let text = self.string(i.next().expect("text"));
                Item::Invariant(text, self.expr(i.next().expect("expr")), span)
            }
            Rule::fn_decl => {
                let mut i = p.into_inner();
                let name = self.name(i.next().expect("name"));
                let params = self.params(i.next().expect("params"));
                let ret = self.name(i.next().expect("type"));
                let body = self.expr(i.next().expect("body"));
                Item::Fn(FnDecl {
                    name,
                    params,
                    ret,
                    body,
                })
            }
            Rule::phase_decl => Item::Phase(self.phase_decl(p, PhaseKind::Phase)),
            Rule::turn_decl => Item::Phase(self.phase_decl(p, PhaseKind::Turn)),
            Rule::reaction_decl => Item::Phase(self.phase_decl(p, PhaseKind::Reaction)),
            Rule::start_decl => {
                let span = self.span(&p);
                let block = self.block(p.into_inner().next().expect("block"));
                Item::Start(block, span)
            }
            Rule::winners_decl => Item::Winners(self.winners_decl(p)),
            Rule::evaluate_decl => {
                let span = self.span(&p);
                let e = p.into_inner().next().expect("expr");
                Item::Evaluate(self.expr(e), span)
            }
            r => unreachable!("not an item: {r:?}"),
        }
    }

    pub(super) fn game_decl(&mut self, p: Pair<Rule>) -> GameDecl {
        let span = self.span(&p);
        let mut inner = p.into_inner();
        let name = self.string(inner.next().expect("name"));
        let mut decl = GameDecl {
            name,
            span,
            players: None,
            counterclockwise: false,
        };
        for prop in inner {
            match prop.as_rule() {
                Rule::players_prop => {
                    let span = self.span(&prop);
                    let mut i = prop.into_inner();
                    let lo = self.int(i.next().expect("lo"));
                    let hi = self.int(i.next().expect("hi"));
                    decl.players = Some((lo, hi, span));
                }
                Rule::seating_prop => {
                    let dir = prop.into_inner().next().expect("direction");
                    decl.counterclockwise = dir.as_str() == "counterclockwise";
                }
                _ => {}
            }
        }
        decl
    }

    pub(super) fn option_decl(&mut self, p: Pair<Rule>) -> OptionDecl {
        let mut i = p.into_inner();
        let name = self.name(i.next().expect("name"));
        let d = i.next().expect("default");
        let default_span = self.span(&d);
        let default = self.int_read(d);
        let lo = i.next().expect("min");
        let hi = i.next().expect("max");
        let range_span = self.span(&lo).to(self.span(&hi));
        let min = self.int_read(lo);
        let max = self.int_read(hi);
        let doc = i.next().map(|s| self.string(s));
        OptionDecl {
            name,
            numbers_read: default.is_some() && min.is_some() && max.is_some(),
            default: (default.unwrap_or(0), default_span),
            min: min.unwrap_or(0),
            max: max.unwrap_or(0),
            range_span,
            doc,
        }
    }

    pub(super) fn enum_decl(&mut self, p: Pair<Rule>) -> EnumDecl {
        let mut i = p.into_inner();
        let name = self.name(i.next().expect("name"));
        let values = i.map(|v| self.name(v)).collect();
        EnumDecl { name, values }
    }

    pub(super) fn card_decl(&mut self, p: Pair<Rule>) -> CardDecl {
        let mut i = p.into_inner();
        let name = self.name(i.next().expect("name"));
        let mut decl = CardDecl {
            name,
            attrs: Vec::new(),
            display: None,
        };
        for part in i {
            match part.as_rule() {
                Rule::attr_decl => {
                    let mut a = part.into_inner();
                    let n = self.name(a.next().expect("attr"));
                    let t = self.name(a.next().expect("type"));
                    decl.attrs.push((n, t));
                }
                Rule::name_decl => {
                    let s = part.into_inner().next().expect("string");
                    let span = self.span(&s);
                    decl.display = Some((self.string(s), span));
                }
                _ => {}
            }
        }
        decl
    }

    pub(super) fn deck_decl(&mut self, p: Pair<Rule>) -> DeckDecl {
        let span = self.span(&p);
        let mut i = p.into_inner();
        let name = self.name(i.next().expect("name"));
        let kind = self.name(i.next().expect("kind"));
        let mut size = None;
        let mut next = i.next().expect("home");
        if next.as_rule() == Rule::deck_size {
            let n = next.into_inner().next().expect("int");
            let s = self.span(&n);
            size = Some((self.int(n), s));
            next = i.next().expect("home");
        }
        let home = self.name(next);
        let entries = i.map(|e| self.deck_entry(e)).collect();
        DeckDecl {
            name,
            kind,
            size,
            home,
            entries,
            span,
        }
    }

    pub(super) fn deck_entry(&mut self, p: Pair<Rule>) -> DeckEntry {
        let span = self.span(&p);
        let mut copies = Some(1);
        let mut copies_span = span;
        let mut fields = Vec::new();
        for part in p.into_inner() {
            match part.as_rule() {
                Rule::int => {
                    copies_span = self.span(&part);
                    copies = self.int_read(part);
                }
                Rule::field_init => {
                    let mut f = part.into_inner();
                    let n = self.name(f.next().expect("field"));
                    let v = self.field_value(f.next().expect("value"));
                    fields.push((n, v));
                }
                _ => {}
            }
        }
        DeckEntry {
            copies,
            copies_span,
            fields,
            span,
        }
    }

    pub(super) fn field_value(&mut self, p: Pair<Rule>) -> FieldValue {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::int => FieldValue::Int(self.int(p), span),
            Rule::ident => FieldValue::Name(self.name(p)),
            Rule::string => FieldValue::Str(self.string(p), span),
            Rule::int_range => {
                let mut i = p.into_inner();
                let lo = self.int(i.next().expect("lo"));
                let hi = self.int(i.next().expect("hi"));
                FieldValue::Range(lo, hi, span)
            }
            Rule::value_list => {
                FieldValue::List(p.into_inner().map(|v| self.field_value(v)).collect(), span)
            }
            r => unreachable!("not a field value: {r:?}"),
        }
    }

    pub(super) fn zone_decl(&mut self, p: Pair<Rule>) -> ZoneDecl {
        let mut i = p.into_inner();
        let name = self.name(i.next().expect("name"));
        let per_player = i.next().expect("owner").as_str() != "shared";
        let shape = match i.next().expect("shape").as_str() {
            "pile" => Shape::Pile,
            "row" => Shape::Row,
            _ => Shape::Set,
        };
        let visibility = match i.next().expect("visibility").as_str() {
            "public" => Visibility::Public,
            "owner" => Visibility::Owner,
            "hidden" => Visibility::Hidden,
            _ => Visibility::Top,
        };
        ZoneDecl {
            name,
            per_player,
            shape,
            visibility,
        }
    }

    pub(super) fn var_decl(&mut self, p: Pair<Rule>) -> VarDecl {
        let mut i = p.into_inner();
        let name = self.name(i.next().expect("name"));
        let ty = self.name(i.next().expect("type"));
        let mut decl = VarDecl {
            name,
            ty,
            per_player: false,
            per_card: false,
            init: None,
        };
        for part in i {
            match part.as_rule() {
                Rule::per_player => decl.per_player = true,
                Rule::per_card => decl.per_card = true,
                _ => decl.init = Some(self.expr(part)),
            }
        }
        decl
    }

    pub(super) fn board_decl(&mut self, p: Pair<Rule>) -> BoardDecl {
        let mut i = p.into_inner();
        let name = self.name(i.next().expect("name"));
        let mut b = BoardDecl {
            name,
            size: None,
            removed: Vec::new(),
            merged: Vec::new(),
            regions: Vec::new(),
        };
        for prop in i {
            let span = self.span(&prop);
            match prop.as_rule() {
                Rule::grid_prop => {
                    let mut g = prop.into_inner();
                    let w = self.int(g.next().expect("w"));
                    let h = self.int(g.next().expect("h"));
                    b.size = Some((w, h, span));
                }
                Rule::remove_prop => {
                    let cells = self.cell_list(prop.into_inner().next().expect("cells"));
                    b.removed.extend(cells);
                }
                Rule::merge_prop => {
                    let cells = self.cell_list(prop.into_inner().next().expect("cells"));
                    b.merged.push(cells);
                }
                _ => {
                    let mut r = prop.into_inner();
                    let n = self.name(r.next().expect("name"));
                    let cells = self.cell_list(r.next().expect("cells"));
                    b.regions.push((n, cells));
                }
            }
        }
        b
    }

    pub(super) fn cell_list(&mut self, p: Pair<Rule>) -> Vec<CellSpan> {
        p.into_inner()
            .map(|s| {
                let span = self.span(&s);
                let mut i = s.into_inner();
                let from = cell_coords(i.next().expect("cell").as_str());
                let to = i.next().map(|c| cell_coords(c.as_str())).unwrap_or(from);
                CellSpan { from, to, span }
            })
            .collect()
    }

    pub(super) fn table_decl(&mut self, p: Pair<Rule>) -> TableDecl {
        let span = self.span(&p);
        let mut i = p.into_inner();
        let name = self.name(i.next().expect("name"));
        let key = self.name(i.next().expect("key"));
        let value = self.name(i.next().expect("value"));
        let entries = i
            .map(|e| {
                let mut e = e.into_inner();
                let k = self.name(e.next().expect("key"));
                let v = e.next().expect("value");
                let v = if v.as_rule() == Rule::int {
                    TableValue::Int(self.int(v))
                } else {
                    TableValue::Name(self.name(v))
                };
                (k, v)
            })
            .collect();
        TableDecl {
            name,
            key,
            value,
            entries,
            span,
        }
    }

    pub(super) fn phase_decl(&mut self, p: Pair<Rule>, kind: PhaseKind) -> PhaseDecl {
        let mut i = p.into_inner();
        let name = self.name(i.next().expect("name"));
        let mut decl = PhaseDecl {
            kind,
            name,
            params: Vec::new(),
            trigger: None,
            body: Block::default(),
        };
        for part in i {
            match part.as_rule() {
                Rule::params => decl.params = self.params(part),
                Rule::ident => decl.trigger = Some(self.name(part)),
                Rule::block => decl.body = self.block(part),
                _ => {}
            }
        }
        decl
    }

    pub(super) fn params(&mut self, p: Pair<Rule>) -> Vec<(Name, Name)> {
        p.into_inner()
            .map(|param| {
                let mut i = param.into_inner();
                let n = self.name(i.next().expect("param"));
                let t = self.name(i.next().expect("type"));
                (n, t)
            })
            .collect()
    }

    pub(super) fn winners_decl(&mut self, p: Pair<Rule>) -> WinnersDecl {
        let span = self.span(&p);
        let mut i = p.into_inner();
        let highest = i.next().expect("extreme").as_str() == "highest";
        let k = i.next().expect("expr");
        let (key, tiebreak) = if k.as_rule() == Rule::winners_keys {
            let mut keys = k.into_inner().map(|e| self.expr(e));
            let first = keys.next().expect("a key");
            (first, keys.collect())
        } else {
            (self.expr(k), Vec::new())
        };
        // `where COND`: the filter rule holds one expression
        let filter = i
            .next()
            .and_then(|f| f.into_inner().next())
            .map(|e| self.expr(e));
        WinnersDecl {
            highest,
            key,
            tiebreak,
            filter,
            span,
        }
    }
}
