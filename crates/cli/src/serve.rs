//! `score4 serve`: the analysis board and its HTTP API (docs/API.md) of `score4-serve` on a
//! tokio runtime, with an optional book and a proof run's store, stopped cleanly by Ctrl-C or
//! SIGTERM.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use score4_board::GameRecord;
use score4_engine::{physical_cores, Replacement};
use score4_serve::{router, ServeConfig, ServeState};

use crate::analyze::analysis_engine;
use crate::prove::store_error_code;
use crate::signals::{exit_code, StopSignals};
use crate::store_command::status_report;
use crate::ServeArgs;

/// Runs `score4 serve`.
pub fn run(args: ServeArgs) -> ExitCode {
    let command = "score4 serve";
    let engine = match analysis_engine::<GameRecord>(
        "serve",
        Some(args.memory),
        Replacement::TwoBig,
        &args.book,
    ) {
        Ok(engine) => engine,
        Err(code) => return code,
    };
    let config = ServeConfig {
        max_analyses: args.max_analyses.unwrap_or_else(physical_cores),
        max_time: args.max_time,
        default_time: Duration::from_secs(1).min(args.max_time),
    };
    let mut state = ServeState::new(engine, config);
    if let Some(store) = args.store {
        // Read once now, so that a wrong path is an error at the start, not on the page.
        if let Err(error) = status_report(&store, 1) {
            eprintln!("{command}: --store: {error}");
            return store_error_code(&error);
        }
        state = state.with_proof_status(Box::new(move || {
            let report = status_report(&store, 1).map_err(|error| error.to_string())?;
            serde_json::to_value(report).map_err(|error| error.to_string())
        }));
    }
    let (stop_sender, mut stop_receiver) = tokio::sync::watch::channel(false);
    let state = Arc::new(state.with_shutdown(stop_receiver.clone()));
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("{command}: cannot start the server's runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let signals = StopSignals::catch(command, move || {
        let _ = stop_sender.send(true);
    });
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|error| format!("cannot listen on {}: {error}", args.addr))?;
        let address = listener
            .local_addr()
            .map_err(|error| format!("cannot read the address: {error}"))?;
        println!("{command}: listening on http://{address}");
        let _ = std::io::stdout().flush();
        axum::serve(listener, router(state))
            .with_graceful_shutdown(async move {
                let _ = stop_receiver.wait_for(|stop| *stop).await;
            })
            .await
            .map_err(|error| format!("the server failed: {error}"))
    });
    if let Err(error) = served {
        eprintln!("{command}: {error}");
        return ExitCode::FAILURE;
    }
    match signals.received() {
        Some(signal) => exit_code(signal),
        None => ExitCode::SUCCESS,
    }
}
