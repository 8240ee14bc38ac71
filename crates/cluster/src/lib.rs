//! `score4-cluster`: a proof run of `score4 prove` on many machines, over MPI (the `mpi`
//! feature, through rsmpi; without it this crate is empty, so the default build needs no MPI).
//!
//! Rank 0 is the **manager**: it keeps the job tree and the store exactly as a single-machine
//! run does (`score4_prove::prove_with`), with one worker per thread of every other rank. Each
//! such worker is a `RemoteSearcher` that sends its job to its rank as a message and waits for
//! the answer, forwarding a cancellation if the tree stops needing the job. Every other rank is
//! a **worker rank** (`serve`): `--threads` threads searching jobs with the sequential solver
//! on one table of the rank, the rank's main thread receiving jobs and cancellations.
//!
//! The protocol (docs/CLUSTER.md, "Messages") is a few byte strings per job: jobs go out as the
//! moves that reach the position, answers come back as a value and a node count. Nothing of
//! the search crosses ranks but that, so ranks do not share a table.
//!
//! It depends on the game vocabulary, the solver and the proof runs; never on the command line
//! or the store (rank 0's caller owns the store), and the search never depends on it.

#[cfg(feature = "mpi")]
mod messages;
#[cfg(feature = "mpi")]
mod rank;

#[cfg(feature = "mpi")]
pub use rank::{serve, Cluster, Manager, RemoteSearcher, WorkerReport};
