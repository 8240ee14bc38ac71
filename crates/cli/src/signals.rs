//! Clean stops: SIGINT (Ctrl-C) and SIGTERM stop the search running now through the engine's
//! stop handle, so that a run reports what it proved and prints its summary instead of dying
//! silently. A second signal ends the process at once, as if score4 had not caught the first.

use std::sync::atomic::{AtomicI32, Ordering::SeqCst};
use std::sync::Arc;

use signal_hook::consts::{SIGINT, SIGTERM};

/// The signals a run stops for, once caught.
pub struct StopSignals {
    /// The first signal received, 0 while none was.
    received: Arc<AtomicI32>,
}

impl StopSignals {
    /// Catches SIGINT and SIGTERM from now on: the first calls `stop`, a second one ends the
    /// process. If they cannot be caught, says so and leaves them as they are.
    pub fn catch(command: &str, stop: impl Fn() + Send + 'static) -> StopSignals {
        StopSignals::catch_with_signal(command, move |_| stop())
    }

    /// [`Self::catch`], `stop` told which signal came.
    pub fn catch_with_signal(command: &str, stop: impl Fn(i32) + Send + 'static) -> StopSignals {
        let received = Arc::new(AtomicI32::new(0));
        let seen = Arc::clone(&received);
        match signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) {
            Ok(mut signals) => {
                std::thread::spawn(move || {
                    for signal in signals.forever() {
                        if seen.compare_exchange(0, signal, SeqCst, SeqCst).is_ok() {
                            stop(signal);
                        } else {
                            let _ = signal_hook::low_level::emulate_default_handler(signal);
                        }
                    }
                });
            }
            Err(error) => eprintln!(
                "{command}: cannot catch SIGINT and SIGTERM ({error}): a stop will print nothing"
            ),
        }
        StopSignals { received }
    }

    /// The signal received first, if any.
    pub fn received(&self) -> Option<i32> {
        match self.received.load(SeqCst) {
            0 => None,
            signal => Some(signal),
        }
    }
}

/// How a signal is named in messages.
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

/// The exit code of a run stopped by `signal`: 128 + its number, as shells report a process
/// the signal killed.
pub fn exit_code(signal: i32) -> std::process::ExitCode {
    std::process::ExitCode::from(128u8.saturating_add(signal as u8))
}
