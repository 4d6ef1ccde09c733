//! Builds the AST from pest's parse tree: one function per grammar rule.

use super::ast::*;
use super::{Rule, RulesParser};
use crate::diag::{Diagnostic, Span};
use pest::Parser;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::OnceLock;

pub(crate) struct Builder {
    pub errors: Vec<Diagnostic>,
    /// Offset added to every span (for labels parsed out of a string).
    offset: usize,
}

fn pratt() -> &'static PrattParser<Rule> {
    static P: OnceLock<PrattParser<Rule>> = OnceLock::new();
    P.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::op_or, Assoc::Left))
            .op(Op::infix(Rule::op_and, Assoc::Left))
            .op(Op::prefix(Rule::op_not))
            .op(Op::infix(Rule::op_eq, Assoc::Left)
                | Op::infix(Rule::op_ne, Assoc::Left)
                | Op::infix(Rule::op_lt, Assoc::Left)
                | Op::infix(Rule::op_le, Assoc::Left)
                | Op::infix(Rule::op_gt, Assoc::Left)
                | Op::infix(Rule::op_ge, Assoc::Left)
                | Op::infix(Rule::op_in, Assoc::Left))
            .op(Op::infix(Rule::op_range, Assoc::Left))
            .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
            .op(Op::infix(Rule::op_mul, Assoc::Left)
                | Op::infix(Rule::op_div, Assoc::Left)
                | Op::infix(Rule::op_mod, Assoc::Left))
            .op(Op::prefix(Rule::op_neg))
            .op(Op::postfix(Rule::field) | Op::postfix(Rule::index))
    })
}

impl Builder {
    pub fn new() -> Builder {
        Builder {
            errors: Vec::new(),
            offset: 0,
        }
    }

    pub fn set_offset(&mut self, offset: usize) {
        self.offset = offset;
    }

    fn span(&self, p: &Pair<Rule>) -> Span {
        let s = p.as_span();
        Span::new(s.start() + self.offset, s.end() + self.offset)
    }

    fn name(&self, p: Pair<Rule>) -> Name {
        Name {
            text: p.as_str().to_string(),
            span: self.span(&p),
        }
    }

    fn int(&mut self, p: Pair<Rule>) -> i64 {
        match p.as_str().parse::<i64>() {
            Ok(v) if v.abs() <= i32::MAX as i64 => v,
            _ => {
                let span = self.span(&p);
                self.errors.push(
                    Diagnostic::error("E0004", "number too large")
                        .label(span, "this does not fit in 32 bits")
                        .help("numbers in rules files range from -2147483647 to 2147483647"),
                );
                0
            }
        }
    }

    fn string(&self, p: Pair<Rule>) -> String {
        p.into_inner()
            .next()
            .map(|i| i.as_str().to_string())
            .unwrap_or_default()
    }

    pub fn file(&mut self, p: Pair<Rule>) -> File {
        let mut file = File::default();
        for item in p.into_inner() {
            if item.as_rule() == Rule::EOI {
                continue;
            }
            file.items.push(self.item(item));
        }
        file
    }

    fn item(&mut self, p: Pair<Rule>) -> Item {
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
            r => unreachable!("not an item: {r:?}"),
        }
    }

    fn game_decl(&mut self, p: Pair<Rule>) -> GameDecl {
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

    fn option_decl(&mut self, p: Pair<Rule>) -> OptionDecl {
        let mut i = p.into_inner();
        let name = self.name(i.next().expect("name"));
        let d = i.next().expect("default");
        let default = (self.int(d.clone()), self.span(&d));
        let lo = i.next().expect("min");
        let hi = i.next().expect("max");
        let range_span = self.span(&lo).to(self.span(&hi));
        let min = self.int(lo);
        let max = self.int(hi);
        let doc = i.next().map(|s| self.string(s));
        OptionDecl {
            name,
            default,
            min,
            max,
            range_span,
            doc,
        }
    }

    fn enum_decl(&mut self, p: Pair<Rule>) -> EnumDecl {
        let mut i = p.into_inner();
        let name = self.name(i.next().expect("name"));
        let values = i.map(|v| self.name(v)).collect();
        EnumDecl { name, values }
    }

    fn card_decl(&mut self, p: Pair<Rule>) -> CardDecl {
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

    fn deck_decl(&mut self, p: Pair<Rule>) -> DeckDecl {
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

    fn deck_entry(&mut self, p: Pair<Rule>) -> DeckEntry {
        let span = self.span(&p);
        let mut copies = 1;
        let mut fields = Vec::new();
        for part in p.into_inner() {
            match part.as_rule() {
                Rule::int => copies = self.int(part),
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
            fields,
            span,
        }
    }

    fn field_value(&mut self, p: Pair<Rule>) -> FieldValue {
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

    fn zone_decl(&mut self, p: Pair<Rule>) -> ZoneDecl {
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

    fn var_decl(&mut self, p: Pair<Rule>) -> VarDecl {
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

    fn board_decl(&mut self, p: Pair<Rule>) -> BoardDecl {
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

    fn cell_list(&mut self, p: Pair<Rule>) -> Vec<CellSpan> {
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

    fn table_decl(&mut self, p: Pair<Rule>) -> TableDecl {
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

    fn phase_decl(&mut self, p: Pair<Rule>, kind: PhaseKind) -> PhaseDecl {
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

    fn params(&mut self, p: Pair<Rule>) -> Vec<(Name, Name)> {
        p.into_inner()
            .map(|param| {
                let mut i = param.into_inner();
                let n = self.name(i.next().expect("param"));
                let t = self.name(i.next().expect("type"));
                (n, t)
            })
            .collect()
    }

    fn winners_decl(&mut self, p: Pair<Rule>) -> WinnersDecl {
        let span = self.span(&p);
        let mut i = p.into_inner();
        let highest = i.next().expect("extreme").as_str() == "highest";
        let key = self.expr(i.next().expect("expr"));
        // `where COND`: the filter rule holds one expression
        let filter = i
            .next()
            .and_then(|f| f.into_inner().next())
            .map(|e| self.expr(e));
        WinnersDecl {
            highest,
            key,
            filter,
            span,
        }
    }

    fn block(&mut self, p: Pair<Rule>) -> Block {
        let span = self.span(&p);
        let stmts = p.into_inner().map(|s| self.stmt(s)).collect();
        Block { stmts, span }
    }

    fn filter(&mut self, p: Option<Pair<Rule>>) -> Option<Expr> {
        p.map(|f| self.expr(f.into_inner().next().expect("expr")))
    }

    fn binding(&mut self, p: Pair<Rule>) -> Binding {
        let mut i = p.into_inner();
        let var = self.name(i.next().expect("var"));
        let coll = self.expr(i.next().expect("coll"));
        let filter = self.filter(i.next());
        Binding { var, coll, filter }
    }

    fn stmt(&mut self, p: Pair<Rule>) -> Stmt {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut i = p.into_inner();
        let kind = match rule {
            Rule::let_stmt => {
                let n = self.name(i.next().expect("name"));
                StmtKind::Let(n, self.expr(i.next().expect("expr")))
            }
            Rule::assign_stmt => {
                let mut place = i.next().expect("place").into_inner();
                let base = self.name(place.next().expect("base"));
                let field = place.next().map(|f| self.name(f));
                let op = match i.next().expect("op").as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Set,
                };
                StmtKind::Assign(base, field, op, self.expr(i.next().expect("expr")))
            }
            Rule::if_stmt => {
                let cond = self.expr(i.next().expect("cond"));
                let then = self.block(i.next().expect("then"));
                let els = i.next().map(|e| {
                    if e.as_rule() == Rule::if_stmt {
                        let s = self.stmt(e);
                        Block {
                            span: s.span,
                            stmts: vec![s],
                        }
                    } else {
                        self.block(e)
                    }
                });
                StmtKind::If(cond, then, els)
            }
            Rule::loop_stmt => StmtKind::Loop(self.block(i.next().expect("block"))),
            Rule::while_stmt => {
                let cond = self.expr(i.next().expect("cond"));
                StmtKind::While(cond, self.block(i.next().expect("block")))
            }
            Rule::for_stmt => {
                let var = self.name(i.next().expect("var"));
                let coll = self.expr(i.next().expect("coll"));
                let mut filter = None;
                let mut body = Block::default();
                for part in i {
                    if part.as_rule() == Rule::filter {
                        filter = self.filter(Some(part));
                    } else {
                        body = self.block(part);
                    }
                }
                StmtKind::For(Binding { var, coll, filter }, body)
            }
            Rule::choose_stmt => {
                let who = self.expr(i.next().expect("who"));
                let mut arms = Vec::new();
                let mut otherwise = None;
                for part in i {
                    match part.as_rule() {
                        Rule::option_arm => arms.push(self.option_arm(part)),
                        _ => otherwise = Some(self.block(part.into_inner().next().expect("b"))),
                    }
                }
                StmtKind::Choose {
                    who,
                    arms,
                    otherwise,
                }
            }
            Rule::window_stmt => {
                let var = self.name(i.next().expect("var"));
                let from = self.expr(i.next().expect("from"));
                let mut filter = None;
                let mut arms = Vec::new();
                for part in i {
                    match part.as_rule() {
                        Rule::filter => filter = self.filter(Some(part)),
                        _ => arms.push(self.option_arm(part)),
                    }
                }
                StmtKind::Window {
                    var,
                    from,
                    filter,
                    arms,
                }
            }
            Rule::move_stmt => {
                let first = i.next().expect("what");
                let (all, what) = if first.as_rule() == Rule::move_all {
                    (true, self.expr(first.into_inner().next().expect("zone")))
                } else {
                    (false, self.expr(first))
                };
                let to = self.expr(i.next().expect("to"));
                let bottom = i.next().is_some_and(|a| a.as_str().ends_with("bottom"));
                StmtKind::Move {
                    all,
                    what,
                    to,
                    bottom,
                }
            }
            Rule::deal_stmt => {
                let n = self.expr(i.next().expect("n"));
                let from = self.expr(i.next().expect("from"));
                StmtKind::Deal(n, from, self.expr(i.next().expect("to")))
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.expr(i.next().expect("zone"))),
            Rule::swap_stmt => {
                let a = self.expr(i.next().expect("a"));
                StmtKind::Swap(a, self.expr(i.next().expect("b")))
            }
            Rule::peek_stmt => {
                let who = self.expr(i.next().expect("who"));
                StmtKind::Peek(who, self.expr(i.next().expect("card")))
            }
            Rule::reveal_stmt => StmtKind::Reveal(self.expr(i.next().expect("card"))),
            Rule::end_stmt => StmtKind::EndGame,
            Rule::leave_stmt => StmtKind::Leave(self.name(i.next().expect("phase"))),
            Rule::return_stmt => StmtKind::Return,
            Rule::checkpoint_stmt => StmtKind::Checkpoint,
            Rule::rollback_stmt => StmtKind::Rollback,
            Rule::break_stmt => StmtKind::Break,
            Rule::call_stmt => {
                let n = self.name(i.next().expect("name"));
                StmtKind::Call(n, self.args(i.next().expect("args")))
            }
            r => unreachable!("not a statement: {r:?}"),
        };
        Stmt { kind, span }
    }

    fn args(&mut self, p: Pair<Rule>) -> Vec<Expr> {
        p.into_inner().map(|a| self.expr(a)).collect()
    }

    fn option_arm(&mut self, p: Pair<Rule>) -> OptionArm {
        let span = self.span(&p);
        let mut i = p.into_inner();
        let label = self.interp(i.next().expect("label"));
        let mut arm = OptionArm {
            label,
            binding: None,
            guard: None,
            body: Block::default(),
            span,
        };
        for part in i {
            match part.as_rule() {
                Rule::binding => arm.binding = Some(self.binding(part)),
                Rule::guard => arm.guard = Some(self.expr(part.into_inner().next().expect("e"))),
                _ => arm.body = self.block(part),
            }
        }
        arm
    }

    /// Split a label into text and `{expr}` parts, parsing each expression.
    fn interp(&mut self, p: Pair<Rule>) -> Interp {
        let span = self.span(&p);
        let inner = p.into_inner().next().expect("string_inner");
        let base = inner.as_span().start() + self.offset;
        let text = inner.as_str();
        let mut parts = Vec::new();
        let mut rest = 0;
        while let Some(open) = text[rest..].find('{') {
            let open = rest + open;
            if open > rest {
                parts.push(InterpPart::Text(text[rest..open].to_string()));
            }
            let Some(close) = text[open..].find('}') else {
                self.errors.push(
                    Diagnostic::error("E0003", "unclosed `{` in a label")
                        .label(Span::new(base + open, base + open + 1), "opened here")
                        .help("close the expression with `}`"),
                );
                return Interp { parts, span };
            };
            let close = open + close;
            let src = &text[open + 1..close];
            match RulesParser::parse(Rule::expr_only, src) {
                Ok(mut pairs) => {
                    let saved = self.offset;
                    self.offset = base + open + 1;
                    let e = pairs
                        .next()
                        .expect("expr_only")
                        .into_inner()
                        .next()
                        .expect("expr");
                    parts.push(InterpPart::Expr(self.expr(e)));
                    self.offset = saved;
                }
                Err(_) => self.errors.push(
                    Diagnostic::error(
                        "E0003",
                        "this label holds an expression that does not parse",
                    )
                    .label(
                        Span::new(base + open, base + close + 1),
                        "not an expression",
                    )
                    .help("inside `{ }` write an expression such as `{c}` or `{pos(c) + 1}`"),
                ),
            }
            rest = close + 1;
        }
        if rest < text.len() {
            parts.push(InterpPart::Text(text[rest..].to_string()));
        }
        Interp { parts, span }
    }

    pub fn expr(&mut self, p: Pair<Rule>) -> Expr {
        let pairs = p.into_inner();
        self.expr_pairs(pairs)
    }

    fn expr_pairs(&mut self, pairs: Pairs<Rule>) -> Expr {
        // The closures below need `&mut self`; pest's Pratt API takes three
        // closures at once, so route them through a RefCell.
        let me = std::cell::RefCell::new(self);
        pratt()
            .map_primary(|p| me.borrow_mut().primary(p))
            .map_prefix(|op, rhs| {
                let span = me.borrow().span(&op).to(rhs.span);
                let u = if op.as_rule() == Rule::op_not {
                    UnOp::Not
                } else {
                    UnOp::Neg
                };
                Expr {
                    kind: ExprKind::Unary(u, Box::new(rhs)),
                    span,
                }
            })
            .map_postfix(|lhs, op| {
                let mut b = me.borrow_mut();
                let span = lhs.span.to(b.span(&op));
                let kind = match op.as_rule() {
                    Rule::field => {
                        let n = b.name(op.into_inner().next().expect("ident"));
                        ExprKind::Field(Box::new(lhs), n)
                    }
                    _ => {
                        let idx = b.expr(op.into_inner().next().expect("expr"));
                        ExprKind::Index(Box::new(lhs), Box::new(idx))
                    }
                };
                Expr { kind, span }
            })
            .map_infix(|lhs, op, rhs| {
                let span = lhs.span.to(rhs.span);
                let op = match op.as_rule() {
                    Rule::op_or => BinOp::Or,
                    Rule::op_and => BinOp::And,
                    Rule::op_eq => BinOp::Eq,
                    Rule::op_ne => BinOp::Ne,
                    Rule::op_lt => BinOp::Lt,
                    Rule::op_le => BinOp::Le,
                    Rule::op_gt => BinOp::Gt,
                    Rule::op_ge => BinOp::Ge,
                    Rule::op_in => BinOp::In,
                    Rule::op_range => BinOp::Range,
                    Rule::op_add => BinOp::Add,
                    Rule::op_sub => BinOp::Sub,
                    Rule::op_mul => BinOp::Mul,
                    Rule::op_div => BinOp::Div,
                    _ => BinOp::Mod,
                };
                Expr {
                    kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                    span,
                }
            })
            .parse(pairs)
    }

    fn primary(&mut self, p: Pair<Rule>) -> Expr {
        let span = self.span(&p);
        let kind = match p.as_rule() {
            Rule::int => ExprKind::Int(self.int(p)),
            Rule::ident => ExprKind::Name(p.as_str().to_string()),
            Rule::literal => match p.as_str() {
                "true" => ExprKind::Bool(true),
                "false" => ExprKind::Bool(false),
                _ => ExprKind::None,
            },
            Rule::expr => return self.expr(p),
            Rule::cond => {
                let mut i = p.into_inner();
                let c = self.expr(i.next().expect("cond"));
                let a = self.expr(i.next().expect("then"));
                let b = self.expr(i.next().expect("else"));
                ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b))
            }
            Rule::call => {
                let mut i = p.into_inner();
                let n = self.name(i.next().expect("name"));
                ExprKind::Call(n, self.args(i.next().expect("args")))
            }
            Rule::aggregate => {
                let mut i = p.into_inner();
                let kind = match i.next().expect("agg_fn").as_str() {
                    "sum" => AggKind::Sum,
                    "min" => AggKind::Min,
                    "max" => AggKind::Max,
                    "count" => AggKind::Count,
                    "any" => AggKind::Any,
                    "first" => AggKind::First,
                    _ => AggKind::All,
                };
                let parts: Vec<Pair<Rule>> = i.collect();
                let (body, rest) = if parts.len() >= 2 && parts[1].as_rule() == Rule::ident {
                    (Some(Box::new(self.expr(parts[0].clone()))), &parts[1..])
                } else {
                    (None, &parts[..])
                };
                let var = self.name(rest[0].clone());
                let coll = self.expr(rest[1].clone());
                let filter = self.filter(rest.get(2).cloned());
                ExprKind::Aggregate {
                    kind,
                    body,
                    binding: Box::new(Binding { var, coll, filter }),
                }
            }
            r => unreachable!("not a primary: {r:?}"),
        };
        Expr { kind, span }
    }
}

/// `c3` -> (2, 2): the letter is the column (x), the number the row (y), both from 0.
pub fn cell_coords(name: &str) -> (i64, i64) {
    let x = name.as_bytes()[0] as i64 - b'a' as i64;
    let y = name[1..].parse::<i64>().unwrap_or(0) - 1;
    (x, y)
}

/// Parse a whole file (errors are returned raw; `errors.rs` turns them into diagnostics).
pub(crate) fn parse_raw(text: &str) -> Result<Pairs<'_, Rule>, pest::error::Error<Rule>> {
    RulesParser::parse(Rule::file, text)
}
