//! `score4 prove` under an MPI launcher (the `mpi` feature; docs/CLUSTER.md): rank 0 runs the
//! proof with the other ranks' threads as its workers, every other rank serves jobs.

use std::process::ExitCode;

use score4_cluster::{serve, Cluster, Manager};
use score4_engine::{physical_cores, Record};

use crate::{MemoryChoice, ProveArgs};

/// Rank 0's side of a cluster run. The manager is dropped first (it tells the worker ranks the
/// run is over), then MPI ends.
pub struct ClusterRun {
    pub manager: Manager,
    pub cluster: Cluster,
}

/// What this process does in `score4 prove`.
pub enum Role {
    /// Not under an MPI launcher, or the only rank: the single-machine run.
    Alone,
    /// Rank 0 of several: the proof, with the other ranks as workers.
    Manager(Box<ClusterRun>),
    /// A worker rank that has served the run (or could not join it): its exit code.
    Done(ExitCode),
}

/// Joins the MPI run, if any, and serves it if this is not rank 0.
pub fn join<R: Record>(command: &str, args: &ProveArgs) -> Role {
    let cluster = match Cluster::from_environment() {
        None => return Role::Alone,
        Some(Ok(cluster)) => cluster,
        Some(Err(error)) => {
            eprintln!("{command}: MPI: {error}");
            return Role::Done(ExitCode::FAILURE);
        }
    };
    if cluster.size() == 1 {
        return Role::Alone;
    }
    let threads = args.threads.unwrap_or_else(physical_cores);
    if cluster.rank() == 0 {
        return match cluster.manager(threads) {
            Ok(manager) => Role::Manager(Box::new(ClusterRun { manager, cluster })),
            Err(error) => {
                eprintln!("{command}: a worker rank cannot work: {error}");
                Role::Done(ExitCode::FAILURE)
            }
        };
    }
    // Signals are rank 0's to act on (it cancels the jobs and ends the run with a last
    // commit); the caller caught them before joining, so a worker rank only notes them.
    let memory = match args.memory {
        Some(MemoryChoice::Bytes(bytes)) => bytes,
        Some(MemoryChoice::All) => score4_engine::machine_memory(),
        None => R::DEFAULT_TABLE_BYTES,
    };
    match serve::<R>(&cluster, threads, memory, args.mode) {
        Ok(_) => Role::Done(ExitCode::SUCCESS),
        Err(error) => {
            eprintln!("{command}: rank {}: {error}", cluster.rank());
            Role::Done(ExitCode::FAILURE)
        }
    }
}
