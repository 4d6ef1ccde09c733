//! The HTTP routes of `grail serve`, over the [`Server`]'s tables.
//!
//! ```text
//! GET  /                           a page that says to ask the host for a link
//! GET  /assets/app.js, style.css   the pages' script and style
//! GET  /t/{table}/s/{token}        a seat's page; /view its JSON, /events its
//! POST /t/{table}/s/{token}/play   updates (server-sent events); play {"move": N}
//! GET  /t/{table}/d/{token}        the designer's page, /view, /events, /save
//! POST /t/{table}/d/{token}/cmd    a REPL command {"line": "undo"}; /new a table
//! ```
//!
//! A wrong table or token is a 404 that says nothing about which part was
//! wrong. A body past [`MAX_BODY`] bytes is a 413 that names the limit. Every response carries headers that keep the page from being
//! cached, framed, or its address (which holds the token) sent elsewhere.

use super::Server;
use super::bots;
use super::pages;
use super::table::{Refused, Table};
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, middleware};
use serde::Deserialize;
use serde_json::json;
use std::convert::Infallible;
use std::sync::Arc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::WatchStream;

type Shared = Arc<Server>;

/// The most bytes a request's body may hold: a command is at most 2000
/// characters, which JSON's escapes make at most 24,000 bytes.
pub const MAX_BODY: usize = 65_536;

/// The whole application, for `axum::serve` and for tests.
pub fn router(server: Shared) -> Router {
    Router::new()
        .route("/", get(|| async { pages::index() }))
        .route("/assets/app.js", get(|| async { pages::script() }))
        .route("/assets/style.css", get(|| async { pages::style() }))
        .route("/t/{table}/s/{token}", get(seat_page))
        .route("/t/{table}/s/{token}/view", get(seat_view))
        .route("/t/{table}/s/{token}/events", get(seat_events))
        .route("/t/{table}/s/{token}/play", post(seat_play))
        .route("/t/{table}/d/{token}", get(designer_page))
        .route("/t/{table}/d/{token}/view", get(designer_view))
        .route("/t/{table}/d/{token}/events", get(designer_events))
        .route("/t/{table}/d/{token}/cmd", post(designer_cmd))
        .route("/t/{table}/d/{token}/save", get(designer_save))
        .route("/t/{table}/d/{token}/new", post(designer_new))
        .fallback(|| async { not_found() })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn(super::conn::mark_busy))
        .layer(middleware::map_response(secure))
        .with_state(server)
}

/// Headers on every response.
async fn secure(mut r: Response) -> Response {
    let h = r.headers_mut();
    let mut set = |k: header::HeaderName, v: &'static str| {
        h.insert(k, HeaderValue::from_static(v));
    };
    set(header::CACHE_CONTROL, "no-store");
    set(header::REFERRER_POLICY, "no-referrer");
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::X_FRAME_OPTIONS, "DENY");
    set(
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    );
    r
}

fn not_found() -> Response {
    error(404, "no such table or link: ask the host for yours")
}

/// A body that was refused: too large (413, with the limit), or not the
/// JSON asked for (400, with `how` to write it).
fn bad_body(rejection: &JsonRejection, how: &str) -> Response {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return error(
            413,
            &format!("the request is too large: a body holds at most {MAX_BODY} bytes"),
        );
    }
    error(400, how)
}

fn error(status: u16, message: &str) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    (code, Json(json!({ "error": message }))).into_response()
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        error(self.status, &self.message)
    }
}

/// The table and seat a seat link names.
fn seat(server: &Server, table: &str, token: &str) -> Option<(Arc<Table>, usize)> {
    let t = server.table(table)?;
    let seat = t.seat_of(token)?;
    Some((t, seat))
}

/// The table a designer link names.
fn designer(server: &Server, table: &str, token: &str) -> Option<Arc<Table>> {
    server.table(table).filter(|t| t.is_designer(token))
}

async fn seat_page(State(s): State<Shared>, Path((t, k)): Path<(String, String)>) -> Response {
    match seat(&s, &t, &k) {
        Some(_) => pages::seat(),
        None => not_found(),
    }
}

async fn seat_view(State(s): State<Shared>, Path((t, k)): Path<(String, String)>) -> Response {
    match seat(&s, &t, &k) {
        Some((table, p)) => Json(table.seat_json(p)).into_response(),
        None => not_found(),
    }
}

async fn seat_events(State(s): State<Shared>, Path((t, k)): Path<(String, String)>) -> Response {
    match seat(&s, &t, &k) {
        Some((table, _)) => events(&table),
        None => not_found(),
    }
}

#[derive(Deserialize)]
struct PlayRequest {
    #[serde(rename = "move")]
    n: i64,
    version: Option<u64>,
}

async fn seat_play(
    State(s): State<Shared>,
    Path((t, k)): Path<(String, String)>,
    body: Result<Json<PlayRequest>, JsonRejection>,
) -> Response {
    let (table, p) = match seat(&s, &t, &k) {
        Some(x) => x,
        None => return not_found(),
    };
    let req = match body {
        Ok(Json(req)) => req,
        Err(e) => {
            return bad_body(
                &e,
                "send the move as JSON: {\"move\": N}, N from 1 (and the page's \"version\")",
            );
        }
    };
    match table.play_seat(p, req.n, req.version) {
        Ok(out) => {
            bots::kick(table, s.bot_delay);
            Json(json!({ "ok": out })).into_response()
        }
        Err(r) => r.into_response(),
    }
}

async fn designer_page(State(s): State<Shared>, Path((t, k)): Path<(String, String)>) -> Response {
    match designer(&s, &t, &k) {
        Some(_) => pages::designer(),
        None => not_found(),
    }
}

async fn designer_view(State(s): State<Shared>, Path((t, k)): Path<(String, String)>) -> Response {
    match designer(&s, &t, &k) {
        Some(table) => Json(table.designer_json()).into_response(),
        None => not_found(),
    }
}

async fn designer_events(
    State(s): State<Shared>,
    Path((t, k)): Path<(String, String)>,
) -> Response {
    match designer(&s, &t, &k) {
        Some(table) => events(&table),
        None => not_found(),
    }
}

#[derive(Deserialize)]
struct CommandRequest {
    line: String,
}

async fn designer_cmd(
    State(s): State<Shared>,
    Path((t, k)): Path<(String, String)>,
    body: Result<Json<CommandRequest>, JsonRejection>,
) -> Response {
    let table = match designer(&s, &t, &k) {
        Some(x) => x,
        None => return not_found(),
    };
    let req = match body {
        Ok(Json(req)) => req,
        Err(e) => return bad_body(&e, "send the command as JSON: {\"line\": \"undo\"}"),
    };
    // commands may search (`hint`, `auto end`): off the async threads
    let worker = table.clone();
    let out = tokio::task::spawn_blocking(move || worker.designer_command(&req.line)).await;
    match out {
        Ok(out) => {
            bots::kick(table, s.bot_delay);
            Json(json!({ "output": out })).into_response()
        }
        Err(_) => error(500, "the command failed"),
    }
}

async fn designer_save(State(s): State<Shared>, Path((t, k)): Path<(String, String)>) -> Response {
    match designer(&s, &t, &k) {
        Some(table) => {
            let name = format!("attachment; filename=\"table-{}.ron\"", table.id);
            (
                [
                    (
                        header::CONTENT_TYPE,
                        "text/plain; charset=utf-8".to_string(),
                    ),
                    (header::CONTENT_DISPOSITION, name),
                ],
                table.saved(),
            )
                .into_response()
        }
        None => not_found(),
    }
}

async fn designer_new(State(s): State<Shared>, Path((t, k)): Path<(String, String)>) -> Response {
    let table = match designer(&s, &t, &k) {
        Some(x) => x,
        None => return not_found(),
    };
    let (players, opts) = {
        let inner = table.lock();
        let session = &inner.session;
        (session.players, session.next_options(&session.game).0)
    };
    match s.open(players, super::random_seed(), &opts) {
        Ok(fresh) => {
            let (seats, designer) = fresh.links();
            Json(json!({ "table": fresh.id, "designer": designer, "seats": seats })).into_response()
        }
        Err(e) => error(409, &e),
    }
}

/// A stream of the table's versions: a page fetches its view on each.
fn events(table: &Table) -> Response {
    let stream = WatchStream::new(table.changed.subscribe())
        .map(|v| Ok::<_, Infallible>(Event::default().event("change").data(v.to_string())));
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}
