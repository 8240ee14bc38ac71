//! `score4-input`: the readers of what people and files give score4 on the command line and in
//! position files — byte sizes (`1GiB`), durations (`90s`, `1h30m`, `2.5`), and the position
//! word of a line of a position file — as plain functions from text to a value or a message
//! naming what is wrong. They are kept apart so that the fuzz targets (`fuzz/`) and the
//! property tests reach exactly the code the binary runs.
//!
//! It depends on nothing of score4 (move strings are read by each game's `Record`), and nothing
//! of score4's search depends on it.

mod duration;
mod line;
mod size;

pub use duration::parse_duration;
pub use line::position_word;
pub use size::parse_bytes;
