//! The routes of docs/API.md and what they share.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use score4_board::{GameRecord, Position};
use score4_engine::{Engine, Monitor, MoveValue, Outcome};
use tokio::sync::{mpsc, watch, OwnedSemaphorePermit, Semaphore};

use crate::assets;
use crate::json::{document, ErrorDocument};

/// The longest query string accepted: a position has at most 64 moves.
const MAX_QUERY_BYTES: usize = 256;

/// The first step of a streamed analysis; each next one doubles, up to the time asked.
const FIRST_STEP: Duration = Duration::from_millis(50);

/// What the server allows.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Analyses running at once; a request beyond them gets 503.
    pub max_analyses: usize,
    /// The longest time an analysis may be given (a longer `time` is cut to it).
    pub max_time: Duration,
    /// The time of an analysis that names none.
    pub default_time: Duration,
}

/// The server's shared state: one engine (one table of bounds) for every analysis.
pub struct ServeState {
    engine: Engine<Position>,
    slots: Arc<Semaphore>,
    config: ServeConfig,
    proof: Option<ProofStatus>,
    /// Becomes true when the server is asked to stop: analyses under way end then.
    shutdown: Option<watch::Receiver<bool>>,
}

/// Reads a proof run's status (a JSON document) or says why it cannot.
pub type ProofStatus = Box<dyn Fn() -> Result<serde_json::Value, String> + Send + Sync>;

impl ServeState {
    /// The state over `engine` (a table of bounds: exact or wdl mode).
    pub fn new(engine: Engine<Position>, config: ServeConfig) -> ServeState {
        ServeState {
            engine,
            slots: Arc::new(Semaphore::new(config.max_analyses.max(1))),
            config,
            proof: None,
            shutdown: None,
        }
    }

    /// Ends every analysis under way when `shutdown` becomes true (the server stopping): each
    /// answers with what it has found, a stream with its last step and `done`.
    pub fn with_shutdown(mut self, shutdown: watch::Receiver<bool>) -> ServeState {
        self.shutdown = Some(shutdown);
        self
    }

    /// Serves `/api/proof` from `status` (a proof run's store, read at each request).
    pub fn with_proof_status(mut self, status: ProofStatus) -> ServeState {
        self.proof = Some(status);
        self
    }
}

/// The API's routes.
pub fn router(state: Arc<ServeState>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/index.html", get(assets::index))
        .route("/style.css", get(assets::style))
        .route("/app.js", get(assets::app))
        .route("/licenses.txt", get(assets::licenses))
        .route("/api/health", get(|| async { "ok" }))
        .route("/api/analyze", get(analyze))
        .route("/api/analyze/stream", get(analyze_stream))
        .route("/api/proof", get(proof))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page or route") })
        .with_state(state)
}

/// What an analysis request asks for: a position whose game goes on, and the time to spend.
#[derive(Debug)]
pub struct AnalysisQuery {
    pub game: GameRecord,
    pub time: Duration,
}

/// A refused request: its status and what was wrong, sent as `{"error": ...}`.
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(ErrorDocument { error: self.1 })).into_response()
    }
}

fn error(status: StatusCode, message: impl Into<String>) -> ApiError {
    ApiError(status, message.into())
}

/// Reads `pos` (moves `0`–`F`; empty or `-` for the empty board) and `time` (seconds, default
/// and cap from the config) from the query.
///
/// Anything is read to a query or an error (400 or 413), never a panic: `fuzz/` tries it.
pub fn parse_query(query: &str, config: &ServeConfig) -> Result<AnalysisQuery, ApiError> {
    if query.len() > MAX_QUERY_BYTES {
        return Err(error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the query has {} bytes; at most {MAX_QUERY_BYTES}",
                query.len()
            ),
        ));
    }
    let (mut pos, mut time) = (None, None);
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        match pair.split_once('=') {
            Some(("pos", value)) => pos = Some(value),
            Some(("time", value)) => time = Some(value),
            _ => {
                return Err(error(
                    StatusCode::BAD_REQUEST,
                    format!("unknown parameter {pair:?}: pos and time are read"),
                ))
            }
        }
    }
    let moves = match pos {
        None | Some("") | Some("-") => "",
        Some(moves) => moves,
    };
    let game: GameRecord = moves
        .parse()
        .map_err(|why| error(StatusCode::BAD_REQUEST, format!("pos {moves:?}: {why}")))?;
    if game.outcome() != Outcome::Ongoing {
        return Err(error(
            StatusCode::BAD_REQUEST,
            format!("pos {moves:?}: the game is over"),
        ));
    }
    let time = match time {
        None => config.default_time,
        Some(text) => match text.parse::<f64>() {
            // At least a millisecond: a smaller positive number would round to no time at all.
            Ok(seconds) if seconds >= 0.001 && seconds.is_finite() => {
                Duration::from_secs_f64(seconds.min(config.max_time.as_secs_f64()))
            }
            _ => {
                return Err(error(
                    StatusCode::BAD_REQUEST,
                    format!("time {text:?}: a number of seconds, at least 0.001"),
                ))
            }
        },
    };
    Ok(AnalysisQuery {
        game,
        time: time.min(config.max_time),
    })
}

/// How long a request waits for a slot before its 503: long enough for the analysis of a page
/// that moved on (its old request cancelled a moment before) to stop and free its slot, short
/// enough that nothing queues. The server stops an analysis within a few milliseconds of its
/// connection closing, but headless Chromium on two busy cores closed an aborted stream's
/// connection 150 to 350 ms after the page's next request; 250 ms gave the page 503s.
const SLOT_GRACE: Duration = Duration::from_secs(1);

/// A slot for one analysis, or 503.
async fn take_slot(state: &ServeState) -> Result<OwnedSemaphorePermit, ApiError> {
    let slot = tokio::time::timeout(SLOT_GRACE, Arc::clone(&state.slots).acquire_owned()).await;
    match slot {
        Ok(Ok(permit)) => Ok(permit),
        _ => Err(error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "busy: {} analyses are running; try again",
                state.config.max_analyses
            ),
        )),
    }
}

/// A request read and given a slot, or why not.
async fn admit(
    state: &ServeState,
    query: Option<String>,
) -> Result<(AnalysisQuery, OwnedSemaphorePermit), ApiError> {
    let request = parse_query(query.as_deref().unwrap_or_default(), &state.config)?;
    Ok((request, take_slot(state).await?))
}

/// Resolves when the server starts stopping; never without a shutdown signal.
async fn shutting_down(shutdown: Option<watch::Receiver<bool>>) {
    if let Some(mut shutdown) = shutdown {
        if shutdown.wait_for(|stopping| *stopping).await.is_ok() {
            return;
        }
    }
    std::future::pending::<()>().await
}

/// Raises its monitor's stop flag when dropped.
struct CancelOnDrop(Arc<Monitor>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// `GET /api/analyze?pos=&time=`: every legal column's value after the whole time.
async fn analyze(State(state): State<Arc<ServeState>>, RawQuery(query): RawQuery) -> Response {
    let (request, permit) = match admit(&state, query).await {
        Ok(admitted) => admitted,
        Err(refused) => return refused.into_response(),
    };
    // Dropped with this future when the client goes away: the analysis stops then.
    let cancel = CancelOnDrop(Arc::new(Monitor::default()));
    let monitor = Arc::clone(&cancel.0);
    let on_shutdown = {
        let (shutdown, stop) = (state.shutdown.clone(), Arc::clone(&monitor));
        tokio::spawn(async move {
            shutting_down(shutdown).await;
            stop.stop();
        })
    };
    let done = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let started = Instant::now();
        let analysis =
            state
                .engine
                .analyze_watched(request.game.position(), request.time, &monitor);
        document(&request.game, &analysis, started.elapsed().as_secs_f64())
    })
    .await;
    drop(cancel);
    on_shutdown.abort();
    match done {
        Ok(document) => Json(document).into_response(),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the analysis failed").into_response(),
    }
}

/// `GET /api/analyze/stream?pos=&time=`: server-sent events, an `analysis` event after each
/// step (50 ms, then doubling, up to the time), then `done`. A client that goes away stops the
/// analysis at once (within a few thousand nodes) and frees its slot.
async fn analyze_stream(
    State(state): State<Arc<ServeState>>,
    RawQuery(query): RawQuery,
) -> Response {
    let (request, permit) = match admit(&state, query).await {
        Ok(admitted) => admitted,
        Err(refused) => return refused.into_response(),
    };
    let (sender, receiver) = mpsc::channel::<Result<Event, Infallible>>(4);
    // The client going away drops the receiver: the step under way stops at once.
    let monitor = Arc::new(Monitor::default());
    let (watcher, stop) = (sender.clone(), Arc::clone(&monitor));
    let shutdown = state.shutdown.clone();
    tokio::spawn(async move {
        tokio::select! {
            _ = watcher.closed() => {}
            _ = shutting_down(shutdown) => {}
        }
        stop.stop();
    });
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let started = Instant::now();
        let mut step = FIRST_STEP.min(request.time);
        loop {
            if sender.is_closed() {
                return;
            }
            let analysis = state
                .engine
                .analyze_watched(request.game.position(), step, &monitor);
            // Stopped: the client went away (nothing to send), or the server is stopping (the
            // step's findings, then done).
            let stopped = monitor.is_stopped();
            if stopped && sender.is_closed() {
                return;
            }
            let document = document(&request.game, &analysis, started.elapsed().as_secs_f64());
            let event = Event::default()
                .event("analysis")
                .json_data(&document)
                .unwrap_or_default();
            if sender.blocking_send(Ok(event)).is_err() {
                return;
            }
            let exact = analysis
                .moves
                .iter()
                .all(|entry| matches!(entry.value, MoveValue::Exact(_)));
            let left = request.time.saturating_sub(started.elapsed());
            if exact || left.is_zero() || stopped {
                let _ = sender.blocking_send(Ok(Event::default().event("done").data("")));
                return;
            }
            step = (step * 2).min(left);
        }
    });
    let events = futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|event| (event, receiver))
    });
    Sse::new(events).into_response()
}

/// `GET /api/proof`: the status of the proof run in the server's `--store`, read afresh (a run
/// may be writing it), or 404 without one.
async fn proof(State(state): State<Arc<ServeState>>) -> Response {
    if state.proof.is_none() {
        return error(
            StatusCode::NOT_FOUND,
            "no proof run: the server was started without --store",
        )
        .into_response();
    }
    let read =
        tokio::task::spawn_blocking(move || state.proof.as_ref().map(|status| status())).await;
    match read {
        Ok(Some(Ok(status))) => Json(status).into_response(),
        Ok(Some(Err(why))) => error(StatusCode::INTERNAL_SERVER_ERROR, why).into_response(),
        _ => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "reading the store failed",
        )
        .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> ServeConfig {
        ServeConfig {
            max_analyses: 1,
            max_time: Duration::from_secs(30),
            default_time: Duration::from_secs(1),
        }
    }

    #[test]
    fn queries_are_read_or_refused_with_their_status() {
        let query = parse_query("pos=0fc3&time=2.5", &config()).unwrap();
        assert_eq!(query.game.to_string(), "0FC3");
        assert_eq!(query.time, Duration::from_millis(2500));
        assert_eq!(
            parse_query("time=99", &config()).unwrap().time,
            Duration::from_secs(30)
        );
        assert_eq!(
            parse_query("", &config()).unwrap().time,
            Duration::from_secs(1)
        );
        for (query, status) in [
            ("pos=0G", 400),
            ("time=0", 400),
            ("time=inf", 400),
            ("time=NaN", 400),
            ("time=10e-40", 400),
            ("colour=red", 400),
            ("pos", 400),
        ] {
            let refused = parse_query(query, &config()).unwrap_err();
            assert_eq!(refused.0.as_u16(), status, "{query}: {}", refused.1);
        }
        let long = "pos=".to_owned() + &"0".repeat(300);
        assert_eq!(parse_query(&long, &config()).unwrap_err().0.as_u16(), 413);
    }

    proptest::proptest! {
        /// Any query is read or refused with 400 or 413, never a panic; what is read is a game
        /// that goes on and a time within the cap.
        #[test]
        fn any_query_is_read_or_refused(
            query in "(pos=[0-9a-fA-F -]{0,70}|time=[0-9.e+-]{0,12}|[a-z=&%]{0,12})(&(pos|time)=[0-9A-Fa-z.]{0,20}){0,3}|\\PC{0,300}"
        ) {
            match parse_query(&query, &config()) {
                Ok(read) => {
                    proptest::prop_assert!(read.time > Duration::ZERO);
                    proptest::prop_assert!(read.time <= Duration::from_secs(30));
                    proptest::prop_assert_eq!(read.game.outcome(), Outcome::Ongoing);
                }
                Err(ApiError(status, message)) => {
                    proptest::prop_assert!(matches!(status.as_u16(), 400 | 413));
                    proptest::prop_assert!(!message.is_empty());
                }
            }
        }
    }
}
