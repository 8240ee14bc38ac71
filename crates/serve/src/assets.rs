//! The page (docs/API.md, "The page"): its files are built into the binary, so the server needs
//! no file beside it and the page no network. `app.js` is the bundle of `web/src` and three.js,
//! made by `npm run build` in `web/` and committed (docs/API.md says how to remake it).

use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};

const INDEX_HTML: &str = include_str!("../assets/index.html");
const STYLE_CSS: &str = include_str!("../assets/style.css");
const APP_JS: &str = include_str!("../assets/app.js");
const THREE_LICENSE: &str = include_str!("../assets/THREE-LICENSE");

/// Only the server's own files: no inline script, no other origin.
const POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; \
                      script-src 'self'; connect-src 'self'; object-src 'none'; \
                      base-uri 'none'; frame-ancestors 'none'";

fn asset(content_type: &'static str, body: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY));
    response
}

pub async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

pub async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE_CSS)
}

pub async fn app() -> Response {
    asset("text/javascript; charset=utf-8", APP_JS)
}

pub async fn licenses() -> Response {
    asset("text/plain; charset=utf-8", THREE_LICENSE)
}
