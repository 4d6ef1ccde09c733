//! The batch simulator: Tamoul plays cleanly at every table size with cards
//! conserved after every step; reports are deterministic whatever the
//! threads and merge across shards; stuck, faulty and endless games are
//! counted with their seeds; the agents behave.

use grail::agent::{Agent, AgentKind, GreedyAgent, RandomAgent};
use grail::sim::{
    GameOutcome, KEEP_INCIDENTS, SimConfig, SimReport, Worker, game_seed, play_game, play_game_in,
    simulate,
};
use grail::{Game, State};

fn tamoul() -> Game {
    Game::load(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/tamoul.rules"))
        .unwrap_or_else(|d| panic!("{}", d.render_plain()))
}

fn config(game: &Game, players: usize, games: u64, seed: u64) -> SimConfig {
    let mut cfg = SimConfig::new(game, players, games);
    cfg.seed = seed;
    cfg
}

fn assert_clean(r: &SimReport, games: u64) {
    assert_eq!(r.errors(), 0, "{r:#?}");
    assert_eq!((r.games, r.finished), (games, games));
    let shares: f64 = (0..r.players).map(|p| r.win_share(p)).sum();
    assert!((shares - 1.0).abs() < 1e-9, "win shares sum to {shares}");
}

#[test]
fn tamoul_plays_cleanly_at_every_table_size() {
    let game = tamoul();
    for players in 2..=6 {
        let mut cfg = config(&game, players, 300, 7);
        cfg.check_conservation = true;
        let r = simulate(&game, &cfg);
        assert_clean(&r, 300);
        assert_eq!(r.players, players);
        assert!(r.turns.min > 0 && r.turns.min <= r.turns.max);
        assert!(r.decisions.sum >= r.turns.sum);
        for p in 0..players {
            assert!(
                r.games_won(p) > 0,
                "seat {p} of {players} never won: {r:#?}"
            );
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_report_whatever_the_threads() {
    let game = tamoul();
    let mut cfg = config(&game, 4, 200, 42);
    let all_cores = simulate(&game, &cfg);
    cfg.jobs = Some(1);
    let one = simulate(&game, &cfg);
    cfg.jobs = Some(3);
    let three = simulate(&game, &cfg);
    assert_eq!(all_cores, one);
    assert_eq!(one, three);
    cfg.seed = 43;
    assert_ne!(
        simulate(&game, &cfg),
        one,
        "another seed should play other games"
    );
}

#[test]
fn shards_merge_into_the_whole() {
    let game = tamoul();
    let whole = simulate(&game, &config(&game, 3, 150, 5));
    let mut a = config(&game, 3, 60, 5);
    let mut b = config(&game, 3, 90, 5);
    a.jobs = Some(1);
    b.first = 60;
    let merged = simulate(&game, &b).merge(simulate(&game, &a));
    assert_eq!(merged, whole);
}

#[test]
fn a_game_replays_alone_as_in_its_batch() {
    let game = tamoul();
    let cfg = config(&game, 5, 1, 11);
    let mut buf = Vec::new();
    let mut seen = Vec::new();
    let a = play_game(&game, &cfg, 17, &mut buf, &mut |_, action| {
        seen.push(action)
    });
    let mut again = Vec::new();
    let b = play_game(&game, &cfg, 17, &mut buf, &mut |_, action| {
        again.push(action)
    });
    assert_eq!(a, b);
    assert_eq!(seen, again);
    assert_eq!(a.seed, game_seed(11, 17));
    let GameOutcome::Finished { decisions, .. } = a.outcome else {
        panic!("{a:?}")
    };
    assert_eq!(decisions as usize, seen.len());
}

#[test]
fn a_thread_reusing_one_state_plays_the_games_fresh_states_play() {
    // One worker (state and agents) kept across games, table sizes and agents, as a batch's
    // thread keeps it: every game is the one a fresh state plays.
    let game = tamoul();
    let (mut worker, mut buf) = (Worker::default(), Vec::new());
    let tables = [
        (4, vec![AgentKind::Random]),
        (2, vec![AgentKind::Greedy, AgentKind::Random]),
        (5, vec![AgentKind::Random]),
        (5, vec![AgentKind::Random]),
    ];
    let mut played = 0;
    for (players, agents) in tables {
        let mut cfg = config(&game, players, 1, 9);
        cfg.agents = agents;
        cfg.check_conservation = true;
        for index in 0..25 {
            let (mut seen, mut again) = (Vec::new(), Vec::new());
            let fresh = play_game(&game, &cfg, index, &mut buf, &mut |_, a| seen.push(a));
            let reused = play_game_in(&game, &cfg, index, &mut worker, &mut |_, a| again.push(a));
            assert_eq!(fresh, reused, "{players} players, game {index}");
            assert_eq!(seen, again, "{players} players, game {index}");
            assert!(matches!(fresh.outcome, GameOutcome::Finished { .. }));
            played += seen.len();
        }
    }
    assert!(played > 1000, "{played} decisions");
}

#[test]
fn greedy_agents_play_cleanly_and_beat_random_ones() {
    let game = tamoul();
    let mut cfg = config(&game, 2, 150, 3);
    cfg.agents = vec![AgentKind::Greedy, AgentKind::Random];
    cfg.check_conservation = true;
    let r = simulate(&game, &cfg);
    assert_clean(&r, 150);
    assert_eq!(r.agents, ["greedy", "random"]);
    assert_eq!(r.agent_names, ["greedy", "random"]);
    // Seats rotate between the two agents from game to game.
    assert_eq!(r.agent_seats, [150, 150]);
    let (greedy, random) = (r.agent_win_rate(0).0, r.agent_win_rate(1).0);
    assert!(greedy > random, "greedy {greedy} vs random {random}");
}

#[test]
fn agents_pick_a_legal_action_and_are_deterministic() {
    let game = tamoul();
    let mut state = State::new(&game, 3, 9, &game.default_options()).unwrap();
    // The first decision has one action (draw); the next has several.
    state.apply(&game, state.legal_actions(&game)[0]).unwrap();
    let actions = state.legal_actions(&game);
    assert!(actions.len() > 2, "{actions:?}");
    let mut picks = Vec::new();
    for kind in [AgentKind::Random, AgentKind::Greedy] {
        let mut a = kind.build(1);
        let mut b = kind.build(1);
        for _ in 0..20 {
            let i = a.choose(&game, &state, &actions);
            assert!(i < actions.len());
            assert_eq!(i, b.choose(&game, &state, &actions));
            picks.push(i);
        }
    }
    assert!(
        picks.iter().any(|i| *i != picks[0]),
        "random ties should vary: {picks:?}"
    );
    assert_eq!(RandomAgent::new(5).choose(&game, &state, &actions[..1]), 0);
    assert_eq!(GreedyAgent::new(5).choose(&game, &state, &actions[..1]), 0);
}

#[test]
fn a_reseeded_random_agent_picks_as_a_new_one() {
    let game = tamoul();
    let mut state = State::new(&game, 3, 9, &game.default_options()).unwrap();
    state.apply(&game, state.legal_actions(&game)[0]).unwrap();
    let actions = state.legal_actions(&game);
    let mut used = AgentKind::Random.build(5);
    let before: Vec<usize> = (0..30)
        .map(|_| used.choose(&game, &state, &actions))
        .collect();
    assert!(used.reseed(8));
    let mut fresh = AgentKind::Random.build(8);
    let (a, b): (Vec<usize>, Vec<usize>) = (0..30)
        .map(|_| {
            (
                used.choose(&game, &state, &actions),
                fresh.choose(&game, &state, &actions),
            )
        })
        .unzip();
    assert_eq!(a, b);
    assert_ne!(a, before, "another seed picks otherwise");
    // Agents that do not reseed say so, and a batch builds them afresh.
    assert!(!AgentKind::Greedy.build(1).reseed(2));
}

const SMALL: &str = r#"
game "Small" { players 2..2 }
card C { value: int  name "c{value}" }
deck d of C size 3 in pile { { value: 1..3 } }
zone pile: shared pile hidden
zone hand: per player set owner
var n: int = 0
var score: int per player = 0
start {
  BODY
  end game
}
winners highest p.score
"#;

/// A two-player game whose start is `BODY`, for the error cases.
fn small(body: &str) -> Game {
    Game::from_source("small.rules", &SMALL.replace("BODY", body))
        .unwrap_or_else(|d| panic!("{}", d.render_plain()))
}

#[test]
fn stuck_games_are_counted_with_their_seeds() {
    // About one game in four empties the pile before a choice that needs a card.
    let game = small(
        "if random(0, 3) == 0 { move all pile to seat(0).hand }\n  \
         choose seat(1) { \"take {c}\" for c in pile { move c to seat(1).hand } }",
    );
    let mut cfg = config(&game, 2, 200, 1);
    let r = simulate(&game, &cfg);
    assert!(r.stuck.count > 10 && r.stuck.count < 100, "{r:#?}");
    assert_eq!(r.finished + r.stuck.count, 200);
    assert_eq!((r.faults.count, r.unfinished.count), (0, 0));
    assert_eq!(r.stuck.first.len(), KEEP_INCIDENTS);
    assert!(r.stuck.first.windows(2).all(|w| w[0].game < w[1].game));
    let first = &r.stuck.first[0];
    assert!(
        first.message.contains("P1 has no legal action"),
        "{}",
        first.message
    );
    assert!(first.message.contains("line 11"), "{}", first.message);
    // The incident names the game: replaying it alone is stuck again.
    let again = play_game(&game, &cfg, first.game, &mut Vec::new(), &mut |_, _| {});
    assert_eq!(again.seed, first.seed);
    assert!(matches!(again.outcome, GameOutcome::Stuck(_)));
    // The first few are the lowest-numbered, whatever the threads.
    cfg.jobs = Some(1);
    assert_eq!(simulate(&game, &cfg), r);
}

#[test]
fn faults_and_endless_games_are_counted() {
    let game = small(
        "move all pile to seat(0).hand\n  choose seat(0) { \"go\" { move top(pile) to seat(1).hand } }",
    );
    let r = simulate(&game, &config(&game, 2, 20, 1));
    assert_eq!((r.faults.count, r.finished), (20, 0));
    assert!(
        r.faults.first[0].message.contains("rules fault"),
        "{:?}",
        r.faults.first[0]
    );

    let game = small("loop { choose seat(0) { \"again\" { n += 1 } } }");
    let mut cfg = config(&game, 2, 10, 1);
    cfg.max_decisions = 50;
    let r = simulate(&game, &cfg);
    assert_eq!((r.unfinished.count, r.finished), (10, 0));
    assert!(r.unfinished.first[0].message.contains("50 decisions"));
}

#[test]
fn bad_configurations_are_refused_with_a_reason() {
    let game = tamoul();
    assert!(
        config(&game, 7, 1, 0)
            .validate(&game)
            .unwrap_err()
            .contains("2 to 6 players")
    );
    let mut cfg = config(&game, 4, 1, 0);
    cfg.options.pop();
    assert!(cfg.validate(&game).is_err());
    // Played anyway, it faults at setup instead of panicking.
    assert_eq!(simulate(&game, &cfg).faults.count, 1);
}

fn grail(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grail"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("grail runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8");
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

#[test]
fn the_command_line_prints_text_or_json_and_sets_the_exit_code() {
    let (code, out, _) = grail(&[
        "sim",
        "rules/tamoul.rules",
        "--games",
        "40",
        "--players",
        "3",
        "--seed",
        "2",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with("Tamoul: 3 players, random agents, seed 2\n"),
        "{out}"
    );
    assert!(
        out.contains("games      40 played, 40 finished\nerrors     none\n"),
        "{out}"
    );
    assert!(out.contains("win share  P0 "), "{out}");

    let args = [
        "sim",
        "rules/tamoul.rules",
        "--games",
        "40",
        "--set",
        "target=50",
        "--agent",
        "greedy,random",
    ];
    let (code, json, _) = grail(&[&args[..], &["--json", "--jobs", "1"]].concat());
    assert_eq!(code, 0, "{json}");
    assert!(
        json.starts_with("{\"rules\":\"Tamoul\",") && json.ends_with("}\n"),
        "{json}"
    );
    for part in [
        "\"games\":40,",
        "\"errors\":0,",
        "\"target\":50",
        "\"agent\":\"greedy\"",
        "\"games_per_second\":",
    ] {
        assert!(json.contains(part), "{part} missing from {json}");
    }
    assert_eq!(json.matches('{').count(), json.matches('}').count());

    let (code, out, err) = grail(&["sim", "rules/tamoul.rules", "--set", "targt=5"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "error: unknown option `targt`: did you mean `target`?\n"
    );
    let (code, _, err) = grail(&["sim", "rules/tamoul.rules", "--players", "9"]);
    assert_eq!(code, 1);
    assert_eq!(err, "error: Tamoul is for 2 to 6 players, not 9\n");
}

#[test]
fn the_command_line_reports_errors_with_exit_code_1() {
    let path = std::env::temp_dir().join(format!("grail-sim-stuck-{}.rules", std::process::id()));
    let body = "choose seat(1) { \"take {c}\" for c in seat(0).hand { move c to seat(1).hand } }";
    std::fs::write(&path, SMALL.replace("BODY", body)).unwrap();
    let (code, out, _) = grail(&["sim", path.to_str().unwrap(), "--games", "30"]);
    std::fs::remove_file(&path).ok();
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("errors     30 stuck, 0 faults, 0 unfinished\n"),
        "{out}"
    );
    assert!(out.contains("  stuck      game 0 (seed "), "{out}");
    assert!(out.contains("  stuck      ... and 25 more\n"), "{out}");
    let replay = format!(
        "  replay one: grail sim {} --players 2 --seed 0 --first 0 --games 1 --trace\n",
        path.display()
    );
    assert!(out.contains(&replay), "{out}");
}

/// A variant's replay line names the variant's own path, a command that
/// runs (it named the joined text, `v.rules (after its base b.rules)`).
#[test]
fn a_variants_replay_line_names_its_own_file() {
    let dir = std::env::temp_dir().join(format!("grail-sim-variant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let body = "choose seat(1) { \"take {c}\" for c in seat(0).hand { move c to seat(1).hand } }";
    std::fs::write(dir.join("b.rules"), SMALL.replace("BODY", body)).unwrap();
    let variant = dir.join("v.rules");
    std::fs::write(&variant, "variant \"V\" extends \"b.rules\"\n").unwrap();
    let (code, out, _) = grail(&["sim", variant.to_str().unwrap(), "--games", "3"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 1, "{out}");
    let replay = format!(
        "  replay one: grail sim {} --players 2 --seed 0 --first 0 --games 1 --trace\n",
        variant.display()
    );
    assert!(out.contains(&replay), "{out}");
}

/// A `winners ... where COND` rule that admits nobody ends the game with no
/// winner: `State::winners` is empty, the report counts the game under "no
/// winner" and gives no seat a share of it; a rule that admits some
/// players picks the best of those only.
#[test]
fn a_game_can_end_with_no_winner() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/scripts/fixtures/chips.rules"
    );
    let chips = std::fs::read_to_string(path).unwrap();
    assert!(chips.contains("winners highest p.points\n"));
    let with = |rule: &str| {
        let text = chips.replace("winners highest p.points\n", rule);
        Game::from_source("chips.rules", &text).unwrap_or_else(|d| panic!("{}", d.render_plain()))
    };
    let nobody = with("winners highest p.points where p.points > 100\n");
    let r = simulate(&nobody, &config(&nobody, 2, 20, 3));
    assert_eq!(r.errors(), 0, "{r:#?}");
    assert_eq!((r.finished, r.no_winner), (20, 20));
    assert_eq!((0..2).map(|p| r.win_share(p)).sum::<f64>(), 0.0);
    // seat 1 only: it wins every game, whatever the points
    let second = with("winners highest p.points where p == seat(1)\n");
    let r = simulate(&second, &config(&second, 2, 20, 3));
    assert_eq!((r.finished, r.no_winner, r.games_won(1)), (20, 0, 20));
    let mut s = State::new(&nobody, 2, 5, &nobody.default_options()).unwrap();
    while !s.is_over() {
        let a = s.legal_actions(&nobody)[0];
        s.apply(&nobody, a).unwrap();
    }
    assert!(s.winners(&nobody).is_empty());
}

#[test]
fn csv_has_one_row_per_game_with_its_seed_scores_and_winners() {
    let path = std::env::temp_dir().join(format!("grail-sim-{}.csv", std::process::id()));
    let file = path.to_string_lossy().to_string();
    let (code, _, err) = grail(&[
        "sim",
        "rules/tamoul.rules",
        "--games",
        "30",
        "--players",
        "3",
        "--seed",
        "2",
        "--csv",
        &file,
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&path).expect("the CSV is written");
    let _ = std::fs::remove_file(&path);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("game,seed,outcome,turns,decisions,score_P0,score_P1,score_P2,winners")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 30, "one row per game");
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 9, "{row:?}");
        assert_eq!(row[0], i.to_string(), "rows in game order");
        assert_eq!(row[1], game_seed(2, i as u64).to_string());
        assert_eq!(row[2], "finished");
        let turns: u32 = row[3].parse().expect("turns");
        let decisions: u32 = row[4].parse().expect("decisions");
        assert!(turns > 0 && decisions >= turns / 3, "{row:?}");
        let scores: Vec<i32> = row[5..8]
            .iter()
            .map(|s| s.parse().expect("score"))
            .collect();
        let winners: Vec<usize> = row[8]
            .split(' ')
            .map(|w| w.trim_start_matches('P').parse().expect("a seat"))
            .collect();
        assert!(!winners.is_empty());
        // Tamoul: the lowest score wins, ties share.
        let best = *scores.iter().min().expect("scores");
        let expected: Vec<usize> = (0..3).filter(|p| scores[*p] == best).collect();
        assert_eq!(winners, expected, "{row:?}");
    }
}

#[test]
fn a_stopped_batch_reports_the_games_played_so_far() {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let game = tamoul();
    let mut cfg = config(&game, 3, 200, 4);
    cfg.jobs = Some(1);
    let stop = AtomicBool::new(false);
    let played = AtomicU64::new(0);
    let each = |_: &grail::sim::GameResult| {
        if played.fetch_add(1, Ordering::SeqCst) + 1 == 7 {
            stop.store(true, Ordering::SeqCst);
        }
    };
    let r = grail::sim::simulate_each(&game, &cfg, &each, &stop);
    assert_eq!((r.games, r.finished), (7, 7));
    let shares: f64 = (0..r.players).map(|p| r.win_share(p)).sum();
    assert!((shares - 1.0).abs() < 1e-9, "win shares sum to {shares}");
}

/// Runs one of the crate's binaries with `args`, sends it Ctrl-C (SIGINT)
/// after 1.5 s, and returns its output once it has stopped.
#[cfg(unix)]
fn interrupted(binary: &str, args: &[&str]) -> std::process::Output {
    let child = std::process::Command::new(binary)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    child.wait_with_output().expect("the binary ends")
}

#[cfg(unix)]
#[test]
fn ctrl_c_prints_the_partial_report() {
    let out = interrupted(
        env!("CARGO_BIN_EXE_grail"),
        &[
            "sim",
            "rules/tamoul.rules",
            "--games",
            "100000000",
            "--jobs",
            "1",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("interrupted:"), "{stderr}");
    assert!(stdout.contains("games "), "{stdout}");
    assert!(stdout.contains("finished"), "{stdout}");
}

#[test]
fn rates_read_like_numbers() {
    use grail::sim::rate;
    assert_eq!(rate(12345.6), "12,346");
    assert_eq!(rate(1_234_567.0), "1,234,567");
    assert_eq!(rate(812.4), "812");
    assert_eq!(rate(34.56), "34.6");
    assert_eq!(rate(0.254), "0.25");
    assert_eq!(rate(f64::NAN), "-");
}

/// Ctrl-C during `rulecheck`: the games stop, the report of those played is
/// printed without exploration, and the exit code (130) says it is no
/// verdict.
#[cfg(unix)]
#[test]
fn ctrl_c_in_rulecheck_keeps_the_partial_report() {
    let out = interrupted(
        env!("CARGO_BIN_EXE_rulecheck"),
        &[
            "rules/tamoul.rules",
            "--games",
            "100000000",
            "--jobs",
            "1",
            "--json",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("interrupted:") && stderr.contains("games played"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stdout.contains("\"games\""), "{stdout}");
}
