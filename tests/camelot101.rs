//! Camelot 101 and its levels: every level variant under
//! `rules/camelot101/` loads without a diagnostic and plays random games
//! to their end (a turn limit stands in for the clock) with no panic, no
//! stuck game and no rules fault, at every table size; a few games per
//! level also check card conservation and the declared invariants after
//! every decision. Release builds play 1,000 games per level, debug builds
//! a handful (CI runs `cargo test --release`).

use grail::sim::{SimConfig, play_game, simulate};
use grail::{Game, State};

const LEVELS: &[(&str, &str)] = &[
    ("level1", "Level 1"),
    ("level1.1", "Level 1.1"),
    ("level1.2", "Level 1.2"),
    ("level1.3", "Level 1.3"),
    ("level2", "Level 2"),
    ("level3", "Level 3"),
    ("level3.1", "Level 3.1"),
    ("level4", "Level 4"),
];

/// Games per level, and the turn limit they play to.
const GAMES: u64 = if cfg!(debug_assertions) { 12 } else { 1000 };
const TURNS: &str = "80";

fn load(file: &str) -> Game {
    let path = format!("{}/rules/{file}", env!("CARGO_MANIFEST_DIR"));
    Game::load(&path).unwrap_or_else(|d| panic!("{path}:\n{}", d.render_plain()))
}

fn level(stem: &str) -> Game {
    load(&format!("camelot101/{stem}.rules"))
}

fn config(game: &Game, players: usize, games: u64, seed: u64) -> SimConfig {
    let mut cfg = SimConfig::new(game, players, games);
    cfg.seed = seed;
    game.set_option(&mut cfg.options, "max_turns", TURNS)
        .expect("every level has a clock");
    cfg
}

#[test]
fn the_base_and_every_level_load_cleanly() {
    let base = load("camelot101.rules");
    assert_eq!(base.name(), "Camelot 101");
    assert_eq!(base.players(), (2, 4));
    assert!(
        base.warnings().items.is_empty(),
        "{}",
        base.warnings().render_plain()
    );
    // 130 pieces and spares, 108 playing cards, 26 Camelot cards.
    assert_eq!(base.card_count(), 264);
    for (stem, name) in LEVELS {
        let game = level(stem);
        assert_eq!(game.name(), format!("Camelot 101 ({name})"));
        assert!(
            game.warnings().items.is_empty(),
            "{stem}: {}",
            game.warnings().render_plain()
        );
        assert_eq!(game.card_count(), 264, "{stem}");
    }
}

#[test]
fn levels_change_what_the_text_says() {
    let value = |game: &Game, name: &str| {
        let i = game
            .options()
            .iter()
            .position(|o| o.name == name)
            .unwrap_or_else(|| panic!("no option {name}"));
        game.default_options()[i]
    };
    // (level, hand, Camelot cards, Giant, guardhouses, bury, joust)
    let table = [
        ("level1", 5, 0, 0, 0, 0, 0),
        ("level1.1", 5, 0, 1, 0, 0, 0),
        ("level1.2", 5, 0, 1, 0, 0, 0),
        ("level1.3", 5, 0, 1, 1, 0, 0),
        ("level2", 4, 1, 1, 1, 0, 0),
        ("level3", 3, 2, 1, 1, 1, 0),
        ("level3.1", 3, 2, 1, 1, 1, 1),
        ("level4", 3, 2, 1, 1, 1, 1),
    ];
    for (stem, hand, legends, giant, guard, bury, joust) in table {
        let g = level(stem);
        let got = (
            value(&g, "hand_size"),
            value(&g, "legends"),
            value(&g, "use_giant"),
            value(&g, "guardhouses"),
            value(&g, "bury"),
            value(&g, "joust"),
        );
        assert_eq!(got, (hand, legends, giant, guard, bury, joust), "{stem}");
    }
    assert_eq!(value(&level("level1.1"), "guard_neutral"), 1);
    assert_eq!(value(&level("level1.2"), "guard_neutral"), 0);
    assert_eq!(value(&level("level2"), "forced_check"), 1);
    assert_eq!(value(&level("level4"), "pandora"), 1);
}

#[test]
fn every_level_plays_its_games_to_the_end() {
    for (i, (stem, _)) in LEVELS.iter().enumerate() {
        let game = level(stem);
        // Each level at every table size: a third of the games each.
        for players in 2..=4 {
            let games = GAMES / 3 + u64::from(players == 2) * (GAMES % 3);
            let cfg = config(&game, players, games, 101 + i as u64);
            let r = simulate(&game, &cfg);
            assert_eq!(r.errors(), 0, "{stem} with {players} players: {r:#?}");
            assert_eq!(r.finished, games, "{stem} with {players} players");
            assert!(r.turns.max <= 81, "{stem}: the clock stops the game");
        }
    }
}

#[test]
fn cards_are_conserved_and_invariants_hold() {
    for (i, (stem, _)) in LEVELS.iter().enumerate() {
        let game = level(stem);
        let mut cfg = config(&game, 2 + i % 3, 2, 7 + i as u64);
        cfg.check_conservation = true;
        let mut buf = Vec::new();
        for index in 0..cfg.games {
            let mut broken = None;
            let r = play_game(&game, &cfg, index, &mut buf, &mut |state: &State, _| {
                if broken.is_none() {
                    broken = state.broken_invariant(&game);
                }
            });
            assert!(broken.is_none(), "{stem} game {index}: {broken:?}");
            assert!(
                matches!(r.outcome, grail::sim::GameOutcome::Finished { .. }),
                "{stem} game {index}: {:?}",
                r.outcome
            );
        }
    }
}

/// The shortcut that spares most moves the hypothetical `would(...)` test
/// (a king not in check, a piece that uncovers no line to it and cannot
/// attack it from where it lands) gives exactly the moves the plain test
/// gives: two copies of the game, one with the shortcut cut out, offer the
/// same moves at every decision of random games, with checks that must be
/// answered (level 1) and checks that need not (level 1.2).
#[test]
fn the_check_shortcut_agrees_with_the_plain_test() {
    let path = format!("{}/rules/camelot101.rules", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let from = text.find("fn clear_of(").expect("clear_of");
    let to = from + text[from..].find("\n#").expect("end of clear_of");
    let plain_text = format!(
        "{}fn clear_of(x: card, t: zone, k: card) -> bool =\n  \
         not on_board(k) or (x != k and answer_check == 0 and attacked(zone_of(k), k.suit))\n{}",
        &text[..from],
        &text[to + 1..]
    );
    let fast = load("camelot101.rules");
    let plain = Game::from_source("plain.rules", &plain_text)
        .unwrap_or_else(|d| panic!("{}", d.render_plain()));
    let (games, decisions) = if cfg!(debug_assertions) {
        (4, 150)
    } else {
        (24, 3000)
    };
    for seed in 1..=games {
        let players = 2 + seed as usize % 3;
        let answer = if seed % 2 == 0 { "1" } else { "0" };
        let forced = if seed % 4 == 3 { "1" } else { "0" };
        let mut opts = fast.default_options();
        fast.set_option(&mut opts, "answer_check", answer).unwrap();
        fast.set_option(&mut opts, "guard_neutral", answer).unwrap();
        fast.set_option(&mut opts, "forced_check", forced).unwrap();
        let mut a = State::new(&fast, players, seed, &opts).unwrap();
        let mut b = State::new(&plain, players, seed, &opts).unwrap();
        let (mut la, mut lb) = (Vec::new(), Vec::new());
        let mut rng = seed;
        for step in 0..decisions {
            if a.is_over() {
                break;
            }
            a.legal_actions_into(&fast, &mut la);
            b.legal_actions_into(&plain, &mut lb);
            let names = |s: &State, g: &Game, l: &[grail::Action]| -> Vec<String> {
                l.iter().map(|x| s.label(g, *x)).collect()
            };
            assert_eq!(
                names(&a, &fast, &la),
                names(&b, &plain, &lb),
                "answer_check={answer} forced_check={forced}, {players} players, seed {seed}, decision {step}"
            );
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pick = la[(rng >> 33) as usize % la.len()];
            a.apply_unchecked(&fast, pick).unwrap();
            b.apply_unchecked(&plain, pick).unwrap();
        }
    }
}

/// Not a test: `cargo test --release --test camelot101 -- --ignored --nocapture`
/// prints games per second for the base game with four players.
#[test]
#[ignore]
fn speed() {
    let game = load("camelot101.rules");
    let mut cfg = SimConfig::new(&game, 4, 200);
    cfg.jobs = Some(1);
    let t = std::time::Instant::now();
    let r = simulate(&game, &cfg);
    let s = t.elapsed().as_secs_f64();
    assert_eq!(r.errors(), 0);
    println!(
        "{} games in {s:.2} s on one thread: {:.1} games/s, {:.0} turns/s",
        r.games,
        r.games as f64 / s,
        r.turns.sum as f64 / s
    );
}
