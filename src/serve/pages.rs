//! The pages of `grail serve`, built into the binary: plain HTML, one
//! script and one style sheet, no build step. The pages hold no game data:
//! they fetch their own view with the token in their address.

use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

const INDEX: &str = include_str!("assets/index.html");
const SEAT: &str = include_str!("assets/seat.html");
const DESIGNER: &str = include_str!("assets/designer.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/style.css");

pub fn index() -> Response {
    Html(INDEX).into_response()
}

pub fn seat() -> Response {
    Html(SEAT).into_response()
}

pub fn designer() -> Response {
    Html(DESIGNER).into_response()
}

pub fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
        .into_response()
}

pub fn style() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response()
}
