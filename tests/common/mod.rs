//! Fixtures shared by the engine's test files.

use grail::Game;

/// A two-player game of three cards whose `start` body is `BODY`.
const SMALL: &str = r#"
game "Small" { players 2..2 }
card C { value: int  name "c{value}" }
deck d of C size 3 in pile { { value: 1..3 } }
zone pile: shared pile hidden
zone hand: per player set owner
var n: int = 0
start {
  BODY
  end game
}
winners highest p.score
var score: int per player = 0
"#;

/// The small game with `body` as its `start`.
pub fn small(body: &str) -> Game {
    Game::from_source("small.rules", &SMALL.replace("BODY", body))
        .unwrap_or_else(|d| panic!("{}", d.render_plain()))
}
