//! The two roles of a cluster run: rank 0's [`Manager`] with a [`RemoteSearcher`] per worker
//! thread of the other ranks, and the worker ranks' [`serve`].

use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Threading;
use score4_game::{Game, Record};
use score4_prove::{JobAnswer, JobRequest, JobSearcher, LocalSearcher};
use score4_solver::{Mode, Monitor, TableConfig, TranspositionTable};

use crate::messages::{
    decode_answer, decode_cancel, encode_answer, encode_cancel, JobMessage, ANSWER, CANCEL, FINISH,
    HELLO, JOB,
};

/// Environment variables by which MPI launchers tell a process it is one rank of many:
/// MPICH's Hydra and Slurm's PMI (`PMI_RANK`, `PMI_SIZE`), Open MPI (`OMPI_COMM_WORLD_SIZE`),
/// PMIx (`PMIX_RANK`).
const LAUNCHER_VARIABLES: [&str; 4] = ["PMI_RANK", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK"];

/// How often a manager thread waiting for an answer looks for it (and for a cancellation).
const POLL: Duration = Duration::from_micros(500);

/// How long a manager thread waits for the answer to a cancelled job before it gives the job
/// up (its rank may be gone): the run can then end with a last commit.
const CANCELLED_ANSWER_WAIT: Duration = Duration::from_secs(10);

/// This process's place in an MPI run.
pub struct Cluster {
    /// Ends MPI when dropped.
    _universe: Universe,
    rank: i32,
    size: i32,
}

impl Cluster {
    /// Joins the MPI run this process was launched in, if an MPI launcher started it (one of
    /// `PMI_RANK`, `PMI_SIZE`, `OMPI_COMM_WORLD_SIZE`, `PMIX_RANK` is set); `None` for a process
    /// started otherwise, which runs alone without touching MPI. MPI must give every thread the right to call it
    /// (`MPI_THREAD_MULTIPLE`), as MPICH and Open MPI do.
    pub fn from_environment() -> Option<Result<Cluster, String>> {
        if !LAUNCHER_VARIABLES
            .iter()
            .any(|name| std::env::var_os(name).is_some())
        {
            return None;
        }
        Some(match mpi::initialize_with_threading(Threading::Multiple) {
            Some((universe, Threading::Multiple)) => {
                let world = universe.world();
                Ok(Cluster {
                    rank: world.rank(),
                    size: world.size(),
                    _universe: universe,
                })
            }
            Some((_, level)) => Err(format!(
                "the MPI library allows threads only at the level {level:?}; score4 needs \
                 MPI_THREAD_MULTIPLE"
            )),
            None => Err("MPI was initialised already".to_owned()),
        })
    }

    /// This process's rank: 0 is the manager.
    pub fn rank(&self) -> i32 {
        self.rank
    }

    /// The number of ranks.
    pub fn size(&self) -> i32 {
        self.size
    }

    /// Rank 0's side: waits until every worker rank says it is ready (each runs
    /// `threads_per_rank` threads). If one cannot work, the others are told to finish and the
    /// error says which and why.
    pub fn manager(&self, threads_per_rank: usize) -> Result<Manager, String> {
        let world = SimpleCommunicator::world();
        let mut failures = Vec::new();
        for rank in 1..self.size {
            let (said, _) = world
                .process_at_rank(rank)
                .receive_vec_with_tag::<u8>(HELLO);
            if !said.is_empty() {
                failures.push(format!("rank {rank}: {}", String::from_utf8_lossy(&said)));
            }
        }
        let manager = Manager {
            size: self.size,
            threads: threads_per_rank.max(1),
            next_job: AtomicU64::new(0),
        };
        if failures.is_empty() {
            Ok(manager)
        } else {
            // Dropping the manager tells every rank to finish (those that failed have ended).
            Err(failures.join("; "))
        }
    }
}

/// Rank 0's view of the worker ranks: one worker per thread of each. Dropping it tells every
/// worker rank that the run is over.
pub struct Manager {
    size: i32,
    threads: usize,
    next_job: AtomicU64,
}

impl Manager {
    /// Workers of the run: every thread of every rank but 0.
    pub fn workers(&self) -> usize {
        (self.size.max(1) as usize - 1) * self.threads
    }

    /// The searcher of worker `worker` (0..[`Self::workers`]): a thread of rank
    /// `1 + worker / threads`. Made on the thread that uses it.
    pub fn searcher(&self, worker: usize) -> RemoteSearcher<'_> {
        RemoteSearcher {
            manager: self,
            rank: 1 + (worker / self.threads) as i32,
            slot: (worker % self.threads) as u32,
            world: SimpleCommunicator::world(),
        }
    }
}

impl Drop for Manager {
    fn drop(&mut self) {
        let world = SimpleCommunicator::world();
        for rank in 1..self.size {
            world
                .process_at_rank(rank)
                .send_with_tag(&[0u8; 0][..], FINISH);
        }
    }
}

/// A worker of rank 0's proof run whose jobs are searched by one thread (a *slot*) of another
/// rank.
pub struct RemoteSearcher<'m> {
    manager: &'m Manager,
    rank: i32,
    slot: u32,
    world: SimpleCommunicator,
}

impl<G: Game> JobSearcher<G> for RemoteSearcher<'_> {
    fn search(&mut self, request: &JobRequest<'_, G>, monitor: &Monitor) -> JobAnswer {
        let job = self.manager.next_job.fetch_add(1, SeqCst);
        let message = JobMessage {
            slot: self.slot,
            job,
            threshold: request.threshold,
            checkpoint: request.checkpoint,
            moves: request.moves.to_owned(),
        };
        let process = self.world.process_at_rank(self.rank);
        process.send_with_tag(&message.encode()[..], JOB);
        let mut cancelled: Option<Instant> = None;
        loop {
            if let Some(found) = process.immediate_matched_probe_with_tag(ANSWER + self.slot as i32)
            {
                let (bytes, _) = found.matched_receive_vec::<u8>();
                if let Some((answered, reaches, nodes)) = decode_answer(&bytes) {
                    if answered == job {
                        return JobAnswer { reaches, nodes };
                    }
                }
                continue;
            }
            match cancelled {
                None if monitor.is_stopped() => {
                    process.send_with_tag(&encode_cancel(self.slot, job)[..], CANCEL);
                    cancelled = Some(Instant::now());
                }
                Some(since) if since.elapsed() > CANCELLED_ANSWER_WAIT => {
                    return JobAnswer {
                        reaches: None,
                        nodes: 0,
                    };
                }
                _ => {}
            }
            std::thread::sleep(POLL);
        }
    }
}

/// What a worker rank did.
#[derive(Clone, Copy, Debug, Default)]
pub struct WorkerReport {
    /// Jobs searched, and nodes.
    pub jobs: u64,
    pub nodes: u64,
}

/// A worker rank: makes its table, tells rank 0 it is ready (or why it cannot work), then
/// searches the jobs rank 0 sends on `threads` threads sharing the table, until rank 0 says
/// the run is over. The positions are rebuilt from their moves as records of `R`; the table is
/// `table_bytes` in the format of `mode`, as a single-machine run's.
pub fn serve<R: Record>(
    cluster: &Cluster,
    threads: usize,
    table_bytes: u64,
    mode: Mode,
) -> Result<WorkerReport, String> {
    let threads = threads.max(1);
    let table = TableConfig::new(table_bytes, <R::Position as Game>::KEY_WIDTH)
        .format(mode.format())
        .threads(threads);
    debug_assert_ne!(cluster.rank, 0, "rank 0 is the manager");
    let world = SimpleCommunicator::world();
    let manager = world.process_at_rank(0);
    let table = match TranspositionTable::new(&table) {
        Ok(table) => table,
        Err(error) => {
            let why = format!("the transposition table: {error}");
            manager.send_with_tag(why.as_bytes(), HELLO);
            return Err(why);
        }
    };
    manager.send_with_tag(&[0u8; 0][..], HELLO);
    let monitors: Vec<Monitor> = (0..threads).map(|_| Monitor::default()).collect();
    // Per slot: the job it searches (u64::MAX: none) and the last job cancelled, so that a
    // cancellation is never lost whichever of the two threads acts first.
    let current: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(u64::MAX)).collect();
    let cancelled: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(u64::MAX)).collect();
    let jobs = AtomicU64::new(0);
    let nodes = AtomicU64::new(0);
    std::thread::scope(|scope| {
        let mut slots = Vec::new();
        for slot in 0..threads {
            let (sender, receiver) = mpsc::channel::<JobMessage>();
            slots.push(sender);
            let (table, monitor) = (&table, &monitors[slot]);
            let (current, cancelled) = (&current[slot], &cancelled[slot]);
            let (jobs, nodes) = (&jobs, &nodes);
            scope.spawn(move || {
                let world = SimpleCommunicator::world();
                let mut searcher = LocalSearcher::new(table);
                for job in receiver {
                    current.store(job.job, SeqCst);
                    monitor.resume();
                    if cancelled.load(SeqCst) == job.job {
                        monitor.stop();
                    }
                    let answer = match job.moves.parse::<R>() {
                        Ok(record) => searcher.search(
                            &JobRequest {
                                position: record.position(),
                                moves: &job.moves,
                                threshold: job.threshold,
                                checkpoint: job.checkpoint,
                            },
                            monitor,
                        ),
                        Err(error) => {
                            eprintln!("score4 prove: job {:?}: {error}", job.moves);
                            JobAnswer {
                                reaches: None,
                                nodes: 0,
                            }
                        }
                    };
                    current.store(u64::MAX, SeqCst);
                    jobs.fetch_add(1, SeqCst);
                    nodes.fetch_add(answer.nodes, SeqCst);
                    let bytes = encode_answer(job.job, answer.reaches, answer.nodes);
                    world
                        .process_at_rank(0)
                        .send_with_tag(&bytes[..], ANSWER + slot as i32);
                }
            });
        }
        loop {
            let (bytes, status) = manager.receive_vec::<u8>();
            match status.tag() {
                JOB => match JobMessage::decode(&bytes) {
                    Some(job) if (job.slot as usize) < threads => {
                        let _ = slots[job.slot as usize].send(job);
                    }
                    _ => eprintln!(
                        "score4 prove: a malformed job message ({} bytes)",
                        bytes.len()
                    ),
                },
                CANCEL => {
                    if let Some((slot, job)) = decode_cancel(&bytes) {
                        if let Some(slot) = Some(slot as usize).filter(|&s| s < threads) {
                            cancelled[slot].store(job, SeqCst);
                            if current[slot].load(SeqCst) == job {
                                monitors[slot].stop();
                            }
                        }
                    }
                }
                FINISH => break,
                other => eprintln!("score4 prove: an unknown message (tag {other})"),
            }
        }
        for monitor in &monitors {
            monitor.stop();
        }
        drop(slots);
    });
    Ok(WorkerReport {
        jobs: jobs.into_inner(),
        nodes: nodes.into_inner(),
    })
}
