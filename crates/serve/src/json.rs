//! The JSON documents of the API (docs/API.md), built from an engine's analysis.

use score4_board::{GameRecord, Position};
use score4_engine::{Analysis, Game, MoveValue, Record};
use serde::Serialize;

/// One column's entry.
#[derive(Serialize)]
pub struct ColumnValue {
    /// The column, `0`–`F`.
    pub column: String,
    /// `exact`, `wdl` or `unknown`.
    pub kind: &'static str,
    /// The exact score (kind `exact`), for the side to move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// 1 win, 0 draw, -1 loss (kinds `exact` and `wdl`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wdl: Option<i32>,
    /// The proven range of the score.
    pub lower: i32,
    pub upper: i32,
    /// The heuristic estimate (kind `unknown`, when it ran): its own scale, not a score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<i32>,
    /// Solver nodes spent on the move.
    pub nodes: u64,
}

/// An analysis of a position.
#[derive(Serialize)]
pub struct AnalysisDocument {
    /// The position's moves, normalised.
    pub pos: String,
    /// `X` or `O`: who is to move.
    pub mover: String,
    /// One entry per legal column, in column order.
    pub columns: Vec<ColumnValue>,
    /// The best column, and the expected line from it (columns).
    pub best: String,
    pub line: String,
    /// Whether the line is proven (exact scores all along).
    pub proven_line: bool,
    /// Seconds the analysis took.
    pub seconds: f64,
}

/// An error document: `{"error": "..."}`.
#[derive(Serialize)]
pub struct ErrorDocument {
    pub error: String,
}

fn column_text(column: <Position as Game>::Column) -> String {
    column.to_string()
}

/// The document of `analysis` of `game`.
pub fn document(
    game: &GameRecord,
    analysis: &Analysis<<Position as Game>::Column>,
    seconds: f64,
) -> AnalysisDocument {
    let columns = analysis
        .moves
        .iter()
        .map(|entry| {
            let range = entry.value.range();
            let (kind, score, wdl, estimate) = match entry.value {
                MoveValue::Exact(score) => ("exact", Some(score), Some(score.signum()), None),
                MoveValue::Wdl(wdl, _) => ("wdl", None, Some(wdl), None),
                MoveValue::Unknown { estimate, .. } => ("unknown", None, None, estimate),
            };
            ColumnValue {
                column: column_text(entry.column),
                kind,
                score,
                wdl,
                lower: range.lower,
                upper: range.upper,
                estimate,
                nodes: entry.nodes,
            }
        })
        .collect();
    AnalysisDocument {
        pos: game.to_string(),
        mover: game.mover().symbol().to_string(),
        columns,
        best: column_text(analysis.best),
        line: analysis
            .principal_variation
            .iter()
            .map(|&column| column_text(column))
            .collect(),
        proven_line: analysis.proven_variation,
        seconds,
    }
}
