//! The abstract syntax tree: what a rules file says, before any name is
//! resolved. Every node that can be the subject of a diagnostic carries the
//! [`Span`] of the text it came from.

use crate::diag::Span;

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct File {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub enum Item {
    Game(GameDecl),
    Option(OptionDecl),
    Enum(EnumDecl),
    Card(CardDecl),
    Deck(DeckDecl),
    Zone(ZoneDecl),
    Var(VarDecl),
    Table(TableDecl),
    Fn(FnDecl),
    /// `invariant "text": EXPR`: must hold after every step (rulecheck checks it).
    Invariant(String, Expr, Span),
    Board(BoardDecl),
    Pattern(PatternDecl),
    /// `variant "NAME" extends "BASE"`: this file's declarations replace the base's.
    Variant(String, String, Span),
    Phase(PhaseDecl),
    Start(Block, Span),
    Winners(WinnersDecl),
    /// `evaluate EXPR`: a heuristic value per player `p` for search agents.
    Evaluate(Expr, Span),
}

#[derive(Clone, Debug)]
pub struct GameDecl {
    pub name: String,
    pub span: Span,
    pub players: Option<(i64, i64, Span)>,
    pub counterclockwise: bool,
}

#[derive(Clone, Debug)]
pub struct OptionDecl {
    pub name: Name,
    /// False when the default or a bound did not fit in 32 bits (already
    /// reported): the range is then not checked, to say nothing twice.
    pub numbers_read: bool,
    pub default: (i64, Span),
    pub min: i64,
    pub max: i64,
    pub range_span: Span,
    pub doc: Option<String>,
}

#[derive(Clone, Debug)]
pub struct EnumDecl {
    pub name: Name,
    pub values: Vec<Name>,
}

#[derive(Clone, Debug)]
pub struct CardDecl {
    pub name: Name,
    pub attrs: Vec<(Name, Name)>,
    pub display: Option<(String, Span)>,
}

#[derive(Clone, Debug)]
pub struct DeckDecl {
    pub name: Name,
    pub kind: Name,
    pub size: Option<(i64, Span)>,
    pub home: Name,
    pub entries: Vec<DeckEntry>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct DeckEntry {
    /// How many copies: 1 when no count is written, `None` when the written
    /// count did not fit in 32 bits (already reported).
    pub copies: Option<i64>,
    /// The written count, or the whole entry when none is written.
    pub copies_span: Span,
    pub fields: Vec<(Name, FieldValue)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum FieldValue {
    Int(i64, Span),
    Range(i64, i64, Span),
    Name(Name),
    Str(String, Span),
    List(Vec<FieldValue>, Span),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Shape {
    Pile,
    Row,
    Set,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Visibility {
    Public,
    Owner,
    Hidden,
    Top,
}

#[derive(Clone, Debug)]
pub struct ZoneDecl {
    pub name: Name,
    pub per_player: bool,
    pub shape: Shape,
    pub visibility: Visibility,
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub name: Name,
    pub ty: Name,
    pub per_player: bool,
    pub per_card: bool,
    pub init: Option<Expr>,
}

/// `fn NAME(params) -> TYPE = EXPR`: a named query, expanded where it is used.
#[derive(Clone, Debug)]
pub struct FnDecl {
    pub name: Name,
    pub params: Vec<(Name, Name)>,
    pub ret: Name,
    pub body: Expr,
}

/// A rectangle of cells `a1..c3` (or one cell), as 0-based (x, y) corners.
#[derive(Clone, Debug)]
pub struct CellSpan {
    pub from: (i64, i64),
    pub to: (i64, i64),
    pub span: Span,
}

/// `board NAME { grid W x H  remove ...  merge ...  region NAME = ... }`
#[derive(Clone, Debug)]
pub struct BoardDecl {
    pub name: Name,
    pub size: Option<(i64, i64, Span)>,
    pub removed: Vec<CellSpan>,
    pub merged: Vec<Vec<CellSpan>>,
    pub regions: Vec<(Name, Vec<CellSpan>)>,
}

/// `pattern NAME: slide (0,1) (1,0) step (1,1)`: movement vectors, written
/// facing up (+y is forward).
#[derive(Clone, Debug)]
pub struct PatternDecl {
    pub name: Name,
    /// (mode, dx, dy): mode 0 step, 1 slide, 2 leap.
    pub moves: Vec<(u8, i64, i64)>,
}

/// A table entry's value: a number or a name (a pattern).
#[derive(Clone, Debug)]
pub enum TableValue {
    Int(i64),
    Name(Name),
}

/// `table NAME: Enum -> int { value: number, ... }`
#[derive(Clone, Debug)]
pub struct TableDecl {
    pub name: Name,
    pub key: Name,
    pub value: Name,
    pub entries: Vec<(Name, TableValue)>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseKind {
    Phase,
    Turn,
    Reaction,
}

#[derive(Clone, Debug)]
pub struct PhaseDecl {
    pub kind: PhaseKind,
    pub name: Name,
    pub params: Vec<(Name, Name)>,
    /// For reactions: the zone whose entry opens it.
    pub trigger: Option<Name>,
    pub body: Block,
}

#[derive(Clone, Debug)]
pub struct WinnersDecl {
    pub highest: bool,
    pub key: Expr,
    /// `where COND`: who may win at all (none admitted: nobody wins).
    pub filter: Option<Expr>,
    /// Further keys of `winners highest (a, b, ...)`, compared in order among ties.
    pub tiebreak: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

#[derive(Clone, Debug)]
pub struct MatchArm {
    pub values: Vec<Name>,
    pub body: Block,
}

#[derive(Clone, Debug)]
pub struct Binding {
    pub var: Name,
    pub coll: Expr,
    pub filter: Option<Expr>,
}

#[derive(Clone, Debug)]
pub struct OptionArm {
    pub label: Interp,
    pub binding: Option<Binding>,
    /// The second source of `for q in players, g in Role where ...`: bound
    /// after the first (which it may use); the binding's filter sees both.
    pub also: Option<(Name, Expr)>,
    pub guard: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

/// A label such as `"keep {c} in slot {pos(s) + 1}"`, split into text and expressions.
#[derive(Clone, Debug)]
pub struct Interp {
    pub parts: Vec<InterpPart>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum InterpPart {
    Text(String),
    Expr(Expr),
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Let(Name, Expr),
    Assign(Name, Option<Name>, AssignOp, Expr),
    /// `OWNER.var op value` where the owner is a call or a parenthesised expression.
    AssignAt(Expr, Name, AssignOp, Expr),
    /// `match e { A | B => { ... } _ => { ... } }`: arms of enum value names (`_` for any).
    Match(Expr, Vec<MatchArm>),
    If(Expr, Block, Option<Block>),
    Loop(Block),
    While(Expr, Block),
    For(Binding, Block),
    Choose {
        who: Expr,
        arms: Vec<OptionArm>,
        otherwise: Option<Block>,
    },
    Window {
        var: Name,
        from: Expr,
        filter: Option<Expr>,
        arms: Vec<OptionArm>,
    },
    Move {
        all: bool,
        what: Expr,
        to: Expr,
        bottom: bool,
    },
    Deal(Expr, Expr, Expr),
    Shuffle(Expr),
    Swap(Expr, Expr),
    Peek(Expr, Expr),
    Reveal(Expr),
    EndGame,
    Leave(Name),
    Return,
    Break,
    /// Remember the table (zones, cards, knowledge, variables) so that a
    /// later `rollback` in the same phase can restore it.
    Checkpoint,
    /// Restore the table to the latest checkpoint of this phase.
    Rollback,
    Call(Name, Vec<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Range,
    In,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AggKind {
    Sum,
    Min,
    Max,
    Count,
    Any,
    All,
    /// The first element that passes the filter, or none.
    First,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    None,
    Name(String),
    Field(Box<Expr>, Name),
    Index(Box<Expr>, Box<Expr>),
    Call(Name, Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Aggregate {
        kind: AggKind,
        body: Option<Box<Expr>>,
        binding: Box<Binding>,
    },
}
