//! `grail serve`'s routes, driven in process with `tower::ServiceExt::oneshot`:
//! no seat ever receives a card hidden from it (every response body is
//! searched for the names of the cards it cannot see), moves out of turn,
//! illegal or stale are refused with a clear message, undo works, bad
//! tokens are refused, saves load in the REPL, bots play, tables are apart.

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use grail::serve::{Server, Table, router};
use grail::{Game, Viewer};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;
use tokio_stream::StreamExt;
use tower::ServiceExt;

const TAMOUL: &str = "rules/tamoul.rules";

fn server(delay_ms: u64) -> Arc<Server> {
    let game = Game::load(TAMOUL).expect("tamoul loads");
    Arc::new(Server::new(game, TAMOUL, Duration::from_millis(delay_ms)))
}

fn open(s: &Server, players: usize, seed: u64) -> Arc<Table> {
    let opts = s.game.default_options();
    s.open(players, seed, &opts).expect("a table opens")
}

/// One request; the status and the body as text.
async fn call(
    app: &Router,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, String) {
    let req = Request::builder().method(method).uri(path);
    let req = match body {
        Some(b) => req
            .header("content-type", "application/json")
            .body(Body::from(b.to_string())),
        None => req.body(Body::empty()),
    }
    .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 24)
        .await
        .unwrap();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

async fn get_json(app: &Router, path: &str) -> Value {
    let (status, body) = call(app, Method::GET, path, None).await;
    assert_eq!(status, StatusCode::OK, "{path}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// Words of a text, as card names are written in views and labels.
fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The names of the cards the designer sees that `seat` does not see
/// anywhere (a name shown to the seat elsewhere is not a secret).
fn hidden_from(table: &Table, seat: usize) -> BTreeSet<String> {
    let inner = table.lock();
    let s = &inner.session;
    let all = words(&s.view(Viewer::All));
    let mine = words(&s.view(Viewer::Seat(seat)));
    (0..s.game.card_count())
        .map(|c| s.game.card_name(c).to_string())
        .filter(|n| all.contains(n) && !mine.contains(n))
        .collect()
}

fn assert_no_secret(body: &str, secrets: &BTreeSet<String>, what: &str) {
    let seen = words(body);
    let leaked: Vec<&String> = secrets.iter().filter(|n| seen.contains(*n)).collect();
    assert!(leaked.is_empty(), "{what} leaks {leaked:?}: {body}");
}

/// Play the opening of Tamoul through the seat links, checking every body
/// each seat receives (page, view, events, refusals, its own moves).
#[tokio::test]
async fn no_seat_sees_another_seats_hidden_cards() {
    for seed in [3, 11, 42] {
        let srv = server(0);
        let table = open(&srv, 3, seed);
        let app = router(srv.clone());
        let (seats, _) = table.links();
        let mut checked = 0;
        for step in 0..14 {
            let chooser = table.lock().session.state.chooser();
            for (p, link) in seats.iter().enumerate() {
                let secrets = hidden_from(&table, p);
                if step == 0 {
                    // at the deal each seat knows two of its four cards at most
                    assert!(
                        !secrets.is_empty(),
                        "seed {seed}: P{p} should not see everything"
                    );
                }
                for path in [link.clone(), format!("{link}/view")] {
                    let (status, body) = call(&app, Method::GET, &path, None).await;
                    assert_eq!(status, StatusCode::OK);
                    assert_no_secret(&body, &secrets, &path);
                    checked += 1;
                }
                if Some(p) != chooser {
                    let (status, body) = call(
                        &app,
                        Method::POST,
                        &format!("{link}/play"),
                        Some(json!({"move": 1})),
                    )
                    .await;
                    assert_eq!(status, StatusCode::CONFLICT, "{body}");
                    assert_no_secret(&body, &secrets, "a refusal");
                }
            }
            let Some(p) = chooser else { break };
            let secrets = hidden_from(&table, p);
            let view = get_json(&app, &format!("{}/view", seats[p])).await;
            let n = view["moves"].as_array().unwrap().len();
            assert!(n > 0);
            let pick = 1 + (step * 7 + seed as usize) % n;
            let (status, body) = call(
                &app,
                Method::POST,
                &format!("{}/play", seats[p]),
                Some(json!({"move": pick, "version": view["version"]})),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_no_secret(&body, &secrets, "a move's answer");
        }
        assert!(checked > 50);
    }
}

#[tokio::test]
async fn moves_out_of_turn_illegal_or_stale_are_refused_clearly() {
    let srv = server(0);
    let table = open(&srv, 2, 3);
    let app = router(srv.clone());
    let (seats, _) = table.links();
    let (status, body) = call(
        &app,
        Method::POST,
        &format!("{}/play", seats[1]),
        Some(json!({"move": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        body.contains("it is P0's turn to choose, not yours (you are P1)"),
        "{body}"
    );
    for bad in [0, 99, -3] {
        let (status, body) = call(
            &app,
            Method::POST,
            &format!("{}/play", seats[0]),
            Some(json!({"move": bad})),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(
            body.contains(&format!("no move {bad}: your moves are numbered 1..1")),
            "{body}"
        );
    }
    let (status, body) = call(
        &app,
        Method::POST,
        &format!("{}/play", seats[0]),
        Some(json!({"move": 1, "version": 7})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(body.contains("the table changed"), "{body}");
    let (status, body) = call(
        &app,
        Method::POST,
        &format!("{}/play", seats[0]),
        Some(json!({"go": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("send the move as JSON"), "{body}");
    // nothing above changed the game
    assert_eq!(table.lock().session.history.len(), 0);
    assert_eq!(table.lock().version, 0);
}

#[tokio::test]
async fn the_designer_undoes_a_move() {
    let srv = server(0);
    let table = open(&srv, 2, 3);
    let app = router(srv.clone());
    let (seats, designer) = table.links();
    let before = get_json(&app, &format!("{}/view", seats[0])).await;
    let (status, _) = call(
        &app,
        Method::POST,
        &format!("{}/play", seats[0]),
        Some(json!({"move": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let moved = get_json(&app, &format!("{designer}/view")).await;
    assert_eq!(moved["log"], json!(["P0: draw from the pile"]));
    let (status, body) = call(
        &app,
        Method::POST,
        &format!("{designer}/cmd"),
        Some(json!({"line": "undo"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("undone: P0: draw from the pile"), "{body}");
    let after = get_json(&app, &format!("{}/view", seats[0])).await;
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["log"], json!([]));
    assert!(after["version"].as_u64() > before["version"].as_u64());
}

/// A POST whose body is `text` as it is; the status and the body.
async fn post_raw(app: &Router, path: &str, text: String) -> (StatusCode, String) {
    let req = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header("content-type", "application/json")
        .body(Body::from(text))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 24)
        .await
        .unwrap();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

/// JSON of exactly `size` bytes: `json` padded with spaces.
fn padded(json: &str, size: usize) -> String {
    let mut text = json.to_string();
    text.insert_str(1, &" ".repeat(size - json.len()));
    assert_eq!(text.len(), size);
    text
}

#[tokio::test]
async fn a_body_past_the_limit_is_said_to_be_too_large() {
    use grail::serve::routes::MAX_BODY;
    let srv = server(0);
    let table = open(&srv, 2, 3);
    let app = router(srv.clone());
    let (seats, designer) = table.links();
    let cmd = format!("{designer}/cmd");
    let (status, body) = post_raw(&app, &cmd, padded(r#"{"line": "moves"}"#, MAX_BODY)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    for path in [cmd, format!("{}/play", seats[0])] {
        let (status, body) = post_raw(&app, &path, padded(r#"{"move": 1}"#, MAX_BODY + 1)).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
        assert!(
            body.contains("the request is too large: a body holds at most 65536 bytes"),
            "{body}"
        );
    }
    let play = format!("{}/play", seats[0]);
    let (status, body) = post_raw(&app, &play, padded(r#"{"move": 1}"#, MAX_BODY)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // three megabytes, as probe 24 sent
    let (status, body) = post_raw(&app, &play, "x".repeat(3 << 20)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    assert_eq!(table.lock().session.history.len(), 1);
}

#[tokio::test]
async fn bad_tokens_are_refused() {
    let srv = server(0);
    let one = open(&srv, 2, 3);
    let two = open(&srv, 2, 4);
    let app = router(srv.clone());
    let (seats, designer) = one.links();
    let seat_token = seats[0].rsplit('/').next().unwrap().to_string();
    let designer_token = designer.rsplit('/').next().unwrap().to_string();
    let wrong = [
        "/t/1/s/0123456789abcdef0123456789abcdef/view".to_string(),
        format!("/t/1/d/{seat_token}/view"),
        format!("/t/1/s/{designer_token}/view"),
        format!("/t/2/s/{seat_token}/view"),
        format!("/t/9/s/{seat_token}/view"),
        format!("/t/1/s/{}/view", &seat_token[..31]),
        format!("/t/1/d/{seat_token}/save"),
        "/t/1/s//view".to_string(),
    ];
    for path in &wrong {
        let (status, body) = call(&app, Method::GET, path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(body.contains("no such table or link"), "{path}: {body}");
    }
    let (status, _) = call(
        &app,
        Method::POST,
        &format!("/t/1/d/{seat_token}/cmd"),
        Some(json!({"line": "undo"})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // the front page lists no table
    let (status, body) = call(&app, Method::GET, "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!body.contains(&seat_token) && !body.contains("/t/"));
    assert_ne!(two.links().1, designer);
}

#[tokio::test]
async fn a_saved_table_loads_in_the_repl_and_file_commands_stay_off() {
    let srv = server(0);
    let table = open(&srv, 2, 5);
    let app = router(srv.clone());
    let (seats, designer) = table.links();
    for _ in 0..2 {
        let p = table.lock().session.state.chooser().unwrap();
        let (status, _) = call(
            &app,
            Method::POST,
            &format!("{}/play", seats[p]),
            Some(json!({"move": 1})),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, ron) = call(&app, Method::GET, &format!("{designer}/save"), None).await;
    assert_eq!(status, StatusCode::OK);
    let saved = grail::repl::saved::SavedGame::parse(&ron).expect("a saved game");
    assert_eq!(saved.steps.len(), 2);
    let path = std::env::temp_dir().join(format!("grail-serve-save-{}.ron", std::process::id()));
    std::fs::write(&path, &ron).unwrap();
    let game = Game::load(TAMOUL).unwrap();
    let mut repl = grail::repl::Session::new(&game, 2, 1, &game.default_options()).unwrap();
    let mut out = String::new();
    repl.exec_to_string(&format!("load {}", path.display()), &mut out);
    std::fs::remove_file(&path).ok();
    assert!(!out.contains("error"), "{out}");
    assert_eq!(
        repl.view(Viewer::All),
        table.lock().session.view(Viewer::All)
    );
    for line in ["save /tmp/x.ron", "load x", "reload", "variant x", "quit"] {
        let (_, body) = call(
            &app,
            Method::POST,
            &format!("{designer}/cmd"),
            Some(json!({"line": line})),
        )
        .await;
        assert!(
            body.contains("is not available from the browser"),
            "{line}: {body}"
        );
    }
}

#[tokio::test]
async fn a_seated_bot_plays_after_a_delay_and_refuses_the_person() {
    let srv = server(5);
    let table = open(&srv, 2, 3);
    let app = router(srv.clone());
    let (seats, designer) = table.links();
    let (_, body) = call(
        &app,
        Method::POST,
        &format!("{designer}/cmd"),
        Some(json!({"line": "bot P1 mcts:20"})),
    )
    .await;
    assert!(body.contains("P1 is played by mcts:20"), "{body}");
    let (_, body) = call(
        &app,
        Method::POST,
        &format!("{designer}/cmd"),
        Some(json!({"line": "bot P7 random"})),
    )
    .await;
    assert!(body.contains("no seat `P7`"), "{body}");
    // P0 plays until it is P1's turn; then the bot must move on its own
    for _ in 0..6 {
        if table.lock().session.state.chooser() != Some(0) {
            break;
        }
        let (status, body) = call(
            &app,
            Method::POST,
            &format!("{}/play", seats[0]),
            Some(json!({"move": 1})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let mut moved = false;
    for _ in 0..400 {
        let log = get_json(&app, &format!("{designer}/view")).await["log"].clone();
        if log
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().starts_with("P1: "))
        {
            moved = true;
            break;
        }
        if table.lock().session.state.chooser() == Some(1) {
            let view = get_json(&app, &format!("{}/view", seats[1])).await;
            assert_eq!(view["bot"], json!("mcts:20"));
            assert_eq!(view["moves"], json!([]));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(moved, "the bot never moved");
}

#[tokio::test]
async fn pages_hear_of_changes_and_tables_are_apart() {
    let srv = server(0);
    let one = open(&srv, 2, 3);
    let two = open(&srv, 2, 3);
    let app = router(srv.clone());
    let (seats1, _) = one.links();
    let (seats2, _) = two.links();
    let req = Request::get(format!("{}/events", seats1[1]))
        .body(Body::empty())
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let mut events = resp.into_body().into_data_stream();
    let first = events.next().await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&first).contains("data: 0"));
    let (status, _) = call(
        &app,
        Method::POST,
        &format!("{}/play", seats2[0]),
        Some(json!({"move": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(one.lock().version, 0, "a move at table 2 changed table 1");
    let (status, _) = call(
        &app,
        Method::POST,
        &format!("{}/play", seats1[0]),
        Some(json!({"move": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let next = tokio::time::timeout(Duration::from_secs(5), events.next())
        .await
        .expect("an event within 5 s")
        .unwrap()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&next).contains("data: 1"),
        "{next:?}"
    );
}

/// The `grail serve` binary itself: it prints one working link per seat
/// and a designer link, refuses bad arguments, and knows every flag
/// docs/serve.md names.
#[test]
fn the_binary_prints_working_links_and_the_docs_name_its_flags() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};
    let grail = env!("CARGO_BIN_EXE_grail");
    let mut child = Command::new(grail)
        .args(["serve", TAMOUL, "--players", "3", "--seed", "4"])
        .args(["--port", "0", "--bind", "127.0.0.1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut links = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(url) = line.split_whitespace().find(|w| w.starts_with("http://")) {
            links.push(url.to_string());
        }
        if line.starts_with("Ctrl-C") {
            break;
        }
    }
    let get = |url: &str| {
        let rest = url.strip_prefix("http://").unwrap();
        let (host, path) = rest.split_once('/').unwrap();
        let mut stream = std::net::TcpStream::connect(host).unwrap();
        write!(
            stream,
            "GET /{path}/view HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    };
    let answers: Vec<String> = links.iter().map(|l| get(l)).collect();
    child.kill().ok();
    child.wait().ok();
    assert_eq!(links.len(), 4, "three seats and the designer: {links:?}");
    for (p, answer) in answers[..3].iter().enumerate() {
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.contains(&format!("view of P{p}")), "{answer}");
    }
    assert!(answers[3].contains("view of everything"));

    let run = |args: &[&str]| Command::new(grail).args(args).output().unwrap();
    let missing = run(&["serve", "no/such/file.rules"]);
    assert_eq!(missing.status.code(), Some(1));
    let crowded = run(&["serve", TAMOUL, "--players", "9"]);
    assert_eq!(crowded.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&crowded.stderr).contains("error: Tamoul is for 2 to 6 players")
    );
    let bad_set = run(&["serve", TAMOUL, "--set", "target"]);
    assert_eq!(bad_set.status.code(), Some(2));

    let help = String::from_utf8(run(&["serve", "--help"]).stdout).unwrap();
    let doc = std::fs::read_to_string("docs/serve.md").unwrap();
    let flags: Vec<&str> = doc
        .lines()
        .filter(|l| l.starts_with("| `--"))
        .filter_map(|l| l[3..].split(['`', ' ']).next())
        .collect();
    assert!(flags.len() >= 6, "{flags:?}");
    for flag in flags {
        assert!(
            help.contains(flag),
            "docs/serve.md names {flag}, `grail serve --help` does not"
        );
    }
}

/// One HTTP/1.1 GET over a fresh connection: the answer's status line and
/// body, or "" when the server closed the connection without one.
async fn get_over_tcp(port: u16, path: &str) -> String {
    let req = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    over_tcp(port, req).await
}

/// A request as written over a fresh connection; the whole answer.
async fn over_tcp(port: u16, req: String) -> String {
    let read = tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(req.as_bytes()).unwrap();
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    });
    read.await.unwrap()
}

/// Connections are bounded (here 4 and one idle second; `grail serve`
/// keeps 256 and closes a connection after 60 idle seconds): at the limit
/// a request is answered, one past it is refused with 503 and the reason,
/// and silent connections are closed, which frees their places.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_are_bounded_in_number_and_idle_time() {
    use grail::serve::conn::Bounded;
    use std::io::Read;
    let srv = server(0);
    let table = open(&srv, 2, 3);
    let (seats, designer) = table.links();
    let view = format!("{}/view", seats[0]);
    let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = tcp.local_addr().unwrap().port();
    let listener = Bounded::new(tcp, 4, Duration::from_secs(1));
    let app = router(srv).into_make_service_with_connect_info::<grail::serve::conn::Busy>();
    tokio::spawn(async move { axum::serve(listener, app).await });
    let connect = || std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    // three silent connections, and a fourth that asks: answered
    let mut silent: Vec<std::net::TcpStream> = (0..3).map(|_| connect()).collect();
    let answer = get_over_tcp(port, &view).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // four silent connections: a fifth is refused, saying why
    silent.push(connect());
    tokio::time::sleep(Duration::from_millis(100)).await;
    let answer = get_over_tcp(port, &view).await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(
        answer.contains("the server has 4 connections open, its most: try again in a moment"),
        "{answer}"
    );
    // after a second with no traffic the silent ones are closed
    let closed = tokio::task::spawn_blocking(move || {
        silent.into_iter().all(|mut s| {
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut b = [0u8; 16];
            matches!(s.read(&mut b), Ok(0)) || matches!(s.read(&mut b), Err(e) if e.kind() != std::io::ErrorKind::WouldBlock && e.kind() != std::io::ErrorKind::TimedOut)
        })
    });
    assert!(closed.await.unwrap(), "a silent connection is still open");
    let answer = get_over_tcp(port, &view).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // a command that thinks for longer than the idle time is answered
    let hint = r#"{"line": "hint mcts:1500ms"}"#;
    let answer = over_tcp(
        port,
        format!(
            "POST {designer}/cmd HTTP/1.1\r\nHost: x\r\nConnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{hint}",
            hint.len()
        ),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}
