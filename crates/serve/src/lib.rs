//! `score4-serve`: the HTTP server of `score4 serve` (docs/API.md): the analysis board's page
//! (its files built in) and the API behind it. Every analysis runs on one
//! shared engine and its table, at most a bounded number at once (a request beyond that is
//! refused with 503 at once rather than queued), each within a capped time; the streaming form
//! refines the values step by step and stops when the client goes away.
//!
//! It depends on the engine facade and the 3-D board for reading positions; never on the
//! command line, and the search never depends on it.

mod api;
mod assets;
mod json;

pub use api::{parse_query, router, AnalysisQuery, ApiError, ProofStatus, ServeConfig, ServeState};
