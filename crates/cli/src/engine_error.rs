//! Why an engine could not be made, said in the command line's terms: which option, the
//! smallest value of it that works, and what else would.

use std::process::ExitCode;

use score4_engine::{format_minimum, EngineError, Memory, Setting, Settings, TableError};

use crate::EXIT_BAD_INPUT;
use score4_engine::format_bytes;

/// The option a setting comes from.
pub fn option_of(setting: Setting) -> &'static str {
    match setting {
        Setting::MemoryBudget => "--memory",
        Setting::TableSize => "--tt-size",
        Setting::LeafArea => "--leaf-area",
    }
}

/// What the engine was for, which decides how a message names its mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// `solve`, whose mode is an option.
    Solve,
    /// `analyze` and `play`, which always keep bounds (the exact mode's table).
    Analysis,
}

/// Prints why the engine for `settings` could not be made, after `command`, and gives the exit
/// code: [`EXIT_BAD_INPUT`] for an impossible option, 1 when the system refused the memory.
pub fn explain_engine_error(
    command: &str,
    error: &EngineError,
    settings: &Settings,
    purpose: Purpose,
) -> ExitCode {
    eprintln!("{command}: {}", engine_error_text(error, settings, purpose));
    if error.is_bad_input() {
        ExitCode::from(EXIT_BAD_INPUT)
    } else {
        ExitCode::FAILURE
    }
}

/// The message for [`explain_engine_error`].
pub fn engine_error_text(error: &EngineError, settings: &Settings, purpose: Purpose) -> String {
    let EngineError::Table {
        setting,
        mode,
        threads,
        error,
        smallest,
    } = error;
    let option = option_of(*setting);
    let for_what = match purpose {
        Purpose::Solve => format!("--mode {mode}"),
        Purpose::Analysis => "analysis".to_owned(),
    };
    let (asked, table) = match settings.memory {
        Memory::Budget(bytes) | Memory::Table(bytes) => (bytes, settings.memory.split(*threads).0),
    };
    match error {
        TableError::TooSmall { minimum, .. } => {
            let share = match (settings.memory, *threads) {
                (Memory::Budget(_), threads @ 2..) => format!(
                    " (with {threads} threads the parallel solver's tree takes an eighth, \
                     leaving the table {})",
                    format_bytes(table)
                ),
                _ => String::new(),
            };
            let entries = match mode.format() {
                score4_engine::Format::Binary => "one-word entries",
                score4_engine::Format::Bounds => "two-word entries of bounds",
            };
            let mut text = format!(
                "{option} {} is too small for {for_what}{share}: its {entries} need a table \
                 of at least {} with --replacement {} to keep every key exact",
                format_bytes(asked),
                format_minimum(*minimum),
                settings.replacement,
            );
            let mut remedies = smallest.iter().map(|&(replacement, bytes)| {
                let mib = bytes >> 20;
                if replacement == settings.replacement {
                    format!("{option} {mib}MiB or more")
                } else {
                    format!("--replacement {replacement} with {option} {mib}MiB or more")
                }
            });
            if let Some(first) = remedies.next() {
                text += &format!("; use {first}");
                let others: Vec<String> = remedies.collect();
                if !others.is_empty() {
                    text += &format!(", or {}", others.join(", or "));
                }
            }
            if *mode != score4_engine::Mode::FirstWins && purpose == Purpose::Solve {
                text += " (--mode first-wins needs far less)";
            }
            text
        }
        TableError::OutOfMemory { .. } => format!(
            "{error} ({option} {}): ask for less with --memory or --tt-size",
            format_bytes(asked)
        ),
        TableError::LeafAreaTooSmall {
            leaf_minimum,
            main_minimum,
            ..
        } => format!(
            "{option}: {error} ({for_what}): use --leaf-area {}MiB or more in a table of at \
             least {} in all, or --leaf-area auto",
            leaf_minimum.div_ceil(1 << 20),
            format_minimum(leaf_minimum + main_minimum),
        ),
        _ => format!("{option}: {error} ({for_what})"),
    }
}

/// Says once per process, on standard error, that a table of `bytes` is on normal pages: the
/// kernel has transparent huge pages off (or refused the advice), so the table runs with more
/// TLB misses (docs/PERFORMANCE.md, "Huge pages"). Nothing to say for a table of a few pages.
pub fn note_page_size(command: &str, table: &score4_engine::TranspositionTable) {
    static SAID: std::sync::Once = std::sync::Once::new();
    let bytes = table.bytes();
    if table.huge_pages() || bytes < 64 << 20 {
        return;
    }
    SAID.call_once(|| {
        eprintln!(
            "{command}: note: the table ({}) is on normal pages, not huge pages (transparent \
             huge pages are off: /sys/kernel/mm/transparent_hugepage/enabled); it works, a \
             little slower",
            format_bytes(bytes)
        )
    });
}
