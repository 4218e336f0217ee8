//! The HTTP side: the routes, the checks every request passes (its names, its size), and each
//! answer as JSON, or as the refusal's status with its message.

use super::api::{Event, Export, NewGame, Request};
use super::error::ApiError;
use super::guard::Own;
use super::session::{Handle, Msg, Sessions};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Request as HttpRequest, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

/// The largest request body read: a long `.otg` game is a few kilobytes.
pub const MAX_BODY: usize = 256 * 1024;
/// How often an idle event stream is written to, so that a page gone is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(2);

#[derive(Clone)]
pub struct App {
    pub sessions: Arc<Sessions>,
    pub own: Own,
    /// The page, rendered once.
    pub page: Arc<String>,
}

pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/sessions", post(create))
        .route("/api/sessions/{id}", post(act))
        .route("/api/sessions/{id}/events", get(events))
        .route("/api/sessions/{id}/export/{what}", get(export))
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status()).unwrap_or(StatusCode::BAD_REQUEST);
        let body = serde_json::json!({ "error": self.to_string() }).to_string();
        (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
    }
}

fn json(value: &impl Serialize) -> Response {
    match serde_json::to_string(value) {
        Ok(body) => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(e) => ApiError::Engine(e.to_string()).into_response(),
    }
}

/// Refuses what does not name this server, before any handler runs.
async fn guard(State(app): State<App>, request: HttpRequest, next: Next) -> Response {
    let text = |headers: &HeaderMap, name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
            .map(str::to_string)
    };
    let host = text(request.headers(), header::HOST);
    let origin = text(request.headers(), header::ORIGIN);
    if let Err(e) = app.own.check(host.as_deref(), origin.as_deref()) {
        log::warn!("refused {} {}: {e}", request.method(), request.uri().path());
        return e.into_response();
    }
    let mut response = next.run(request).await;
    // The page loads nothing from elsewhere, and says so to the browser.
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
             connect-src 'self'; form-action 'none'; frame-ancestors 'none'",
        ),
    );
    response
}

async fn page(State(app): State<App>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        app.page.as_str().to_string(),
    )
        .into_response()
}

async fn not_found() -> Response {
    ApiError::NoRoute.into_response()
}

async fn wrong_method(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    ApiError::Method {
        method: method.to_string(),
        path: uri.path().to_string(),
    }
    .into_response()
}

/// The body as a typed request, or why it is not one.
fn read<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let body = body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge(MAX_BODY),
        _ => ApiError::Malformed(e.body_text()),
    })?;
    serde_json::from_slice(&body).map_err(|e| ApiError::Malformed(e.to_string()))
}

/// A new session: its id and its first view.
async fn create(State(app): State<App>, body: Result<Bytes, BytesRejection>) -> Response {
    let new: NewGame = match read(body) {
        Ok(new) => new,
        Err(e) => return e.into_response(),
    };
    let sessions = app.sessions.clone();
    match tokio::task::spawn_blocking(move || sessions.open(&new)).await {
        Ok(Ok((id, view))) => json(&serde_json::json!({ "id": id, "view": view })),
        Ok(Err(e)) => e.into_response(),
        Err(_) => ApiError::Gone.into_response(),
    }
}

async fn act(
    State(app): State<App>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let answer = async {
        let request: Request = read(body)?;
        let session = app.sessions.get(&id)?;
        session.ask(|reply| Msg::Do(request, reply)).await
    };
    match answer.await {
        Ok(view) => json(&view),
        Err(e) => e.into_response(),
    }
}

async fn export(State(app): State<App>, Path((id, what)): Path<(String, String)>) -> Response {
    let answer = async {
        let kind: Export = serde_json::from_value(serde_json::Value::String(what.clone()))
            .map_err(|_| {
                ApiError::Malformed(format!("no export '{what}': record, otg or report"))
            })?;
        let session = app.sessions.get(&id)?;
        let text = session.ask(|reply| Msg::Export(kind, reply)).await?;
        Ok::<_, ApiError>((kind, text))
    };
    match answer.await {
        Ok((Export::Report, html)) => {
            ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
        }
        Ok((kind, text)) => {
            let name = match kind {
                Export::Otg => "game.otg",
                _ => "game.txt",
            };
            (
                [
                    (
                        header::CONTENT_TYPE,
                        "text/plain; charset=utf-8".to_string(),
                    ),
                    (
                        header::CONTENT_DISPOSITION,
                        format!("attachment; filename=\"{name}\""),
                    ),
                ],
                text,
            )
                .into_response()
        }
        Err(e) => e.into_response(),
    }
}

/// Tells the session its page has gone when the stream is dropped.
struct Listening(Arc<Handle>);

impl Drop for Listening {
    fn drop(&mut self) {
        self.0.detach();
    }
}

async fn events(State(app): State<App>, Path(id): Path<String>) -> Response {
    let session = match app.sessions.get(&id) {
        Ok(session) => session,
        Err(e) => return e.into_response(),
    };
    let Some(inbox) = session.take_events() else {
        return ApiError::Streamed(id).into_response();
    };
    let stream = futures_util::stream::unfold(
        (inbox, Listening(session)),
        |(mut inbox, listening)| async move {
            let event = inbox.recv().await?;
            Some((Ok::<_, Infallible>(sse(&event)), (inbox, listening)))
        },
    );
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response()
}

fn sse(event: &Event) -> SseEvent {
    let data = match event {
        Event::State(view) => serde_json::to_string(view),
        Event::Info(line) => serde_json::to_string(line),
    };
    SseEvent::default()
        .event(event.name())
        .data(data.unwrap_or_default())
}
