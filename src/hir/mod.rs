//! The HIR: a rules file with every name resolved to a typed index. Names
//! survive only in the tables (for display); expressions and statements
//! refer to options, variables, zones, attributes and phases by number.
//!
//! API boundary: `check` produces it, `graph` lowers its statements, and
//! the engine evaluates its expressions ([`Expr`]) and reads its tables.
//! It depends only on `diag` and the AST's operator enums; nothing here
//! resolves or runs anything.

use crate::diag::Span;
use crate::syntax::ast::{AggKind, BinOp, Shape, Visibility};
use serde::{Deserialize, Serialize};

mod walk;

/// The type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ty {
    Int,
    Bool,
    Player,
    Card,
    /// One zone instance (a shared zone, or one player's zone).
    Zone,
    /// The cards of every instance of a per-player zone.
    Cards,
    /// Players, as a collection.
    Players,
    /// An integer range, as a collection.
    Range,
    /// Board cells (zones), as a collection: a ray or a region.
    Cells,
    /// A value of an enumeration.
    Enum(u16),
    /// Every value of an enumeration, as a collection.
    EnumSet(u16),
    /// A movement pattern (an index into `Tables::patterns`).
    Pattern,
    /// The literal `none`: fits a player or a card.
    Nothing,
    /// Already reported as an error: fits anything.
    Error,
}

impl Ty {
    /// The element type when this type is iterated, if it is a collection.
    pub fn element(self) -> Option<Ty> {
        Some(match self {
            Ty::Zone | Ty::Cards => Ty::Card,
            Ty::Players => Ty::Player,
            Ty::Range => Ty::Int,
            Ty::Cells => Ty::Zone,
            Ty::EnumSet(e) => Ty::Enum(e),
            Ty::Error => Ty::Error,
            _ => return None,
        })
    }
    pub fn fits(self, want: Ty) -> bool {
        self == want
            || self == Ty::Error
            || want == Ty::Error
            || (self == Ty::Nothing && matches!(want, Ty::Player | Ty::Card | Ty::Zone))
            || (want == Ty::Nothing && matches!(self, Ty::Player | Ty::Card | Ty::Zone))
    }
}

/// Built-in functions usable in expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Builtin {
    /// `top(zone)`: the top card, or none.
    Top,
    /// `bottom(zone)`: the bottom card, or none.
    Bottom,
    /// `count(zone)`: how many cards a zone holds.
    Size,
    /// `next(p)`: the next player in seating order.
    Next,
    /// `prev(p)`: the previous player in seating order.
    Prev,
    /// `owner(c)`: the player whose zone holds the card, or none.
    Owner,
    /// `pos(c)`: the card's index in its zone (0 is the bottom).
    Pos,
    /// `seat(i)`: the player in seat i.
    Seat,
    /// `random(lo, hi)`: a number drawn from the seeded generator.
    Random,
    /// `order(p)`: all players in seating order starting at p.
    Order,
    /// `knows(p, c)`: whether p knows card c.
    Knows,
    /// `in_zone(c, zone)`: whether card c is in that zone instance.
    InZone,
    /// `zone_of(c)`: the zone instance (or board cell) holding a card.
    ZoneOf,
    /// `cell(x, y)`: the cell of the (first) board at those coordinates, or none.
    Cell,
    /// `x_of(z)`, `y_of(z)`: a cell's coordinates (-1 for other zones).
    XOf,
    YOf,
    /// `shift(z, dx, dy)`: the cell one step away, or none off the board; a
    /// merged group counts as one cell and is passed through along the line.
    Shift,
    /// `ray(z, dx, dy, n)`: up to n cells stepping from z, ending at the first
    /// occupied cell (included) or the edge. A collection of cells.
    Ray,
    /// `would(c, z, cond)`: cond evaluated as if card c were moved to z, whatever
    /// was in z being taken off.
    Would,
    /// `moves(z, pattern, facing, n)`: the cells a pattern reaches from z, its
    /// vectors turned a quarter clockwise `facing` times; slides go up to n
    /// cells and stop at the first occupied one (included).
    Moves,
}

impl Builtin {
    pub const ALL: &'static [(&'static str, Builtin)] = &[
        ("top", Builtin::Top),
        ("bottom", Builtin::Bottom),
        ("count", Builtin::Size),
        ("next", Builtin::Next),
        ("prev", Builtin::Prev),
        ("owner", Builtin::Owner),
        ("pos", Builtin::Pos),
        ("seat", Builtin::Seat),
        ("random", Builtin::Random),
        ("order", Builtin::Order),
        ("knows", Builtin::Knows),
        ("in_zone", Builtin::InZone),
        ("zone_of", Builtin::ZoneOf),
        ("cell", Builtin::Cell),
        ("x_of", Builtin::XOf),
        ("y_of", Builtin::YOf),
        ("shift", Builtin::Shift),
        ("ray", Builtin::Ray),
        ("would", Builtin::Would),
        ("moves", Builtin::Moves),
    ];

    /// Parameter types and result type.
    pub fn signature(self) -> (&'static [Ty], Ty) {
        use Ty::*;
        match self {
            Builtin::Top | Builtin::Bottom => (&[Zone], Card),
            Builtin::Size => (&[Zone], Int),
            Builtin::Next | Builtin::Prev => (&[Player], Player),
            Builtin::Owner => (&[Card], Player),
            Builtin::Pos => (&[Card], Int),
            Builtin::Seat => (&[Int], Player),
            Builtin::Random => (&[Int, Int], Int),
            Builtin::Order => (&[Player], Players),
            Builtin::Knows => (&[Player, Card], Bool),
            Builtin::InZone => (&[Card, Zone], Bool),
            Builtin::ZoneOf => (&[Card], Zone),
            Builtin::Cell => (&[Int, Int], Zone),
            Builtin::XOf | Builtin::YOf => (&[Zone], Int),
            Builtin::Shift => (&[Zone, Int, Int], Zone),
            Builtin::Ray => (&[Zone, Int, Int, Int], Cells),
            Builtin::Would => (&[Card, Zone, Bool], Bool),
            Builtin::Moves => (&[Zone, Pattern, Int, Int], Cells),
        }
    }
}

/// A resolved, typed expression.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Expr {
    Int(i32),
    /// `none`: no player, no card.
    Nothing,
    Opt(u16),
    Global(u16),
    Local(u16),
    PerPlayer(u16, Box<Expr>),
    /// A per-card variable of a card.
    PerCard(u16, Box<Expr>),
    /// A table's value for an enum value.
    Table(u16, Box<Expr>),
    /// A card's attribute.
    Attr(u16, Box<Expr>),
    /// A shared zone, or a per-player zone of the given player.
    Zone(u16, Option<Box<Expr>>),
    /// The cards of every instance of a per-player zone (or every cell of a board).
    ZoneAll(u16),
    /// A board region (board, region), as a collection of cells.
    Region(u16, u16),
    Players,
    EnumAll(u16),
    PlayerCount,
    /// The player who made the latest decision.
    Actor,
    /// The player whose turn it is.
    Current,
    /// The card at an index of a zone.
    Index(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Evaluate each value into its local slot, then the body (a user function's expansion).
    Bind(Vec<(u16, Expr)>, Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Call(Builtin, Vec<Expr>),
    Agg {
        kind: AggKind,
        slot: u16,
        coll: Box<Expr>,
        filter: Option<Box<Expr>>,
        body: Option<Box<Expr>>,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum LabelPart {
    Text(String),
    Expr(Expr, Ty),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Bind {
    pub slot: u16,
    pub coll: Expr,
    pub filter: Option<Expr>,
}

#[derive(Clone, Debug)]
pub struct Arm {
    pub label: Vec<LabelPart>,
    pub bind: Option<Bind>,
    /// The second source of a two-source arm (`for q in players, g in Role`):
    /// its slot and collection, bound for each value of `bind` (whose filter
    /// then sees both).
    pub also: Option<(u16, Expr)>,
    pub guard: Option<Expr>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

/// Where an assignment writes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Place {
    Local(u16),
    Global(u16),
    PerPlayer(u16, Expr),
    PerCard(u16, Expr),
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Assign(Place, crate::syntax::ast::AssignOp, Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    Loop(Vec<Stmt>),
    While(Expr, Vec<Stmt>),
    For(Bind, Vec<Stmt>),
    Choose {
        who: Expr,
        arms: Vec<Arm>,
        otherwise: Option<Vec<Stmt>>,
    },
    Window {
        slot: u16,
        from: Expr,
        filter: Option<Expr>,
        arms: Vec<Arm>,
    },
    Move {
        what: Expr,
        to: Expr,
        bottom: bool,
    },
    MoveAll {
        from: Expr,
        to: Expr,
        bottom: bool,
    },
    Deal(Expr, Expr, Expr),
    Shuffle(Expr),
    Swap(Expr, Expr),
    Peek(Expr, Expr),
    Reveal(Expr),
    EndGame,
    Leave(u16),
    Return,
    Break,
    Checkpoint,
    Rollback,
    Call(u16, Vec<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProcKind {
    Start,
    Phase,
    Turn,
    Reaction,
}

#[derive(Clone, Debug)]
pub struct Proc {
    pub name: String,
    pub kind: ProcKind,
    pub params: Vec<Ty>,
    pub locals: u16,
    pub local_names: Vec<String>,
    /// The type of each local slot (as `local_names`).
    pub local_types: Vec<Ty>,
    pub trigger: Option<u16>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OptionInfo {
    pub name: String,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub doc: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EnumInfo {
    pub name: String,
    pub values: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AttrInfo {
    pub name: String,
    pub ty: Ty,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CardInfo {
    pub name: String,
    pub kind: u16,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ZoneInfo {
    pub name: String,
    pub per_player: bool,
    /// For a board: its index in `Tables::boards`; the zone has one instance per cell.
    pub board: Option<u16>,
    pub shape: Shape,
    pub visibility: Visibility,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VarInfo {
    pub name: String,
    pub ty: Ty,
    pub per_player: bool,
    pub per_card: bool,
    pub init: Expr,
}

impl VarInfo {
    /// How many values the variable holds in a table of `players` seats
    /// and `cards` cards: one a seat, one a card, or one.
    pub fn slots(&self, players: usize, cards: usize) -> usize {
        match (self.per_player, self.per_card) {
            (true, _) => players,
            (_, true) => cards,
            _ => 1,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableInfo {
    pub name: String,
    pub key: u16,
    /// The type of the values: int or pattern.
    pub ty: Ty,
    /// One value per value of the key enum.
    pub values: Vec<i32>,
}

/// A movement pattern: (mode, dx, dy) with mode 0 step, 1 slide, 2 leap.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PatternInfo {
    pub name: String,
    pub moves: Vec<(u8, i8, i8)>,
}

/// A board: a grid with removed and merged cells, and named regions.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BoardInfo {
    pub name: String,
    pub zone: u16,
    pub width: u8,
    pub height: u8,
    /// For each (x, y), `y * width + x`: the cell index, or -1 if removed.
    pub grid: Vec<i16>,
    /// For each cell: its first coordinates and its name (`e2`).
    pub cells: Vec<(i8, i8)>,
    pub cell_names: Vec<String>,
    /// For each cell, every square it covers, row by row: one for a plain
    /// cell, all of a merged group's (the geometry of lines through it).
    pub squares: Vec<Vec<(i8, i8)>>,
    /// Regions: name and, for each cell, whether it belongs.
    pub regions: Vec<(String, Vec<bool>)>,
}

/// Everything the game declares, by index.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Tables {
    pub name: String,
    pub min_players: u8,
    pub max_players: u8,
    pub counterclockwise: bool,
    pub options: Vec<OptionInfo>,
    pub enums: Vec<EnumInfo>,
    pub kinds: Vec<String>,
    pub attrs: Vec<AttrInfo>,
    pub cards: Vec<CardInfo>,
    /// `card * attrs.len() + attr`
    pub card_attrs: Vec<i32>,
    /// Zone each card starts in (its deck's home).
    pub card_home: Vec<u16>,
    pub zones: Vec<ZoneInfo>,
    pub vars: Vec<VarInfo>,
    pub tables: Vec<TableInfo>,
    pub boards: Vec<BoardInfo>,
    pub patterns: Vec<PatternInfo>,
    /// Declared invariants: description and condition (no locals but aggregates').
    pub invariants: Vec<(String, Expr)>,
    /// The winners rule: highest (true) or lowest of the key, with the key's
    /// player bound to local 0.
    pub winners_highest: bool,
    pub winners_key: Option<Expr>,
    /// `winners ... where COND`: only players for whom COND holds (player
    /// bound to local 0) may win; when none does, nobody wins.
    pub winners_filter: Option<Expr>,
    /// Local slots the winners key and condition use (the player is slot 0).
    pub winners_locals: u16,
    /// `winners highest (key, a, b)`: keys compared in order among players
    /// tied on the ones before.
    #[serde(default)]
    pub winners_tiebreak: Vec<Expr>,
    /// `evaluate EXPR`: a heuristic value per player (bound to local 0),
    /// higher is better, for search agents at a rollout's cap.
    #[serde(default)]
    pub evaluate: Option<Expr>,
    /// Local slots the evaluation uses (the player is slot 0).
    #[serde(default)]
    pub evaluate_locals: u16,
}

/// How often each declaration is used, for the lints.
#[derive(Clone, Debug, Default)]
pub struct Usage {
    pub options_read: Vec<bool>,
    pub vars_read: Vec<bool>,
    pub vars_written: Vec<bool>,
    pub zones_used: Vec<bool>,
    pub enums_used: Vec<bool>,
    /// Declaration spans, parallel to the tables, for lint labels.
    pub option_spans: Vec<Span>,
    pub var_spans: Vec<Span>,
    pub zone_spans: Vec<Span>,
    pub enum_spans: Vec<Span>,
    pub kind_spans: Vec<Span>,
    pub deck_spans: Vec<(u16, Span)>,
}

/// A checked rules file.
#[derive(Clone, Debug)]
pub struct Hir {
    pub tables: Tables,
    /// Procedure 0 is `start`.
    pub procs: Vec<Proc>,
    pub usage: Usage,
}
