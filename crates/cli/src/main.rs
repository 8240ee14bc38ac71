//! `score4`: the command line of the Connect Four 3D solver. Thin: it parses arguments, reads
//! positions and prints; the work is done by the `score4-*` crates.

mod analyze;
mod bench;
mod book;
mod certificate;
#[cfg(feature = "mpi")]
mod cluster;
mod engine_error;
mod input;
mod part_search;
mod play;
mod pons;
mod progress;
mod prove;
mod serve;
mod show;
mod signals;

mod solve;
mod store_command;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::TypedValueParser;
use clap::{Parser, Subcommand};
use score4_board::GameRecord;
use score4_classic::ClassicRecord;
use score4_engine::{Assumption, LeafArea, Mode, Replacement};

/// Solve, analyse and generate positions of Connect Four 3D (Score Four, Sogo).
#[derive(Parser)]
#[command(name = "score4", version, about, long_about = None)]
struct Cli {
    /// The game: 3d (Connect Four 3D, the default) or classic (7×6, Pons's notation with
    /// columns 1-7 and his scores). Every command but gen and bench plot works for both.
    #[arg(long, global = true, value_enum, default_value = "3d")]
    game: GameKind,
    #[command(subcommand)]
    command: Command,
}

/// Which game the command is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum GameKind {
    /// Connect Four 3D: 4×4×4, 16 columns written 0-9A-F.
    #[value(name = "3d")]
    Space,
    /// The classic 7×6 game, columns written 1-7.
    Classic,
}

#[derive(Subcommand)]
enum Command {
    /// Solve positions: does the first player (X) win? (--mode wdl: win, draw or loss; --mode
    /// exact: the score)
    ///
    /// Positions are move strings such as 0FC3484B7, given as arguments, or one per line
    /// (`MOVES [anything]`, the first word is the moves) from --file or standard input.
    ///
    /// By default a solve takes 1 GiB and a worker per physical core, and starts in about a
    /// second; a hard position goes faster with more memory (--memory all). Ctrl-C (or
    /// SIGTERM) stops the position being searched, reports what was proven and the summary,
    /// and exits with 130 (143).
    Solve(SolveArgs),
    /// Benchmark by the report's protocol (docs/RULES.md, "The benchmark protocol") on the
    /// committed sets.
    ///
    /// For each difficulty (stones placed): a fresh table, the clock started before its set-up,
    /// the first --positions positions of bench/positions/dDD.txt solved in order until done or
    /// out of time. Prints a table per difficulty and the frontier; --out DIR writes
    /// bench.json, bench.csv and charts. `score4 bench plot a.json b.json` draws saved runs
    /// on one chart.
    Bench(BenchArgs),
    /// Every legal move's value, the best move and a principal variation.
    ///
    /// Each move is solved for its exact score within the time; what is not finished shows
    /// as win/draw/loss, or as the range proven and a heuristic value (not a score).
    Analyze(AnalyzeArgs),
    /// Play a game in the terminal: a human against score4, score4 against itself, or two
    /// humans.
    ///
    /// On a human's turn, type a column (0-9, A-F), undo, hint, show or quit. Input may be
    /// piped in (one command per line); the game record is printed at the end.
    Play(PlayArgs),
    /// Prove whether the first player wins a position, in a run that survives crashes and
    /// resumes: every position settled goes to a store (an SQLite file) about once a second.
    ///
    /// Running the same command again (after Ctrl-C, a kill, a reboot) resumes from the store:
    /// nothing settled before is searched again. A job searched longer than --checkpoint is
    /// split into its children, so that a kill loses at most that much work per thread.
    /// docs/STORE.md describes the store.
    Prove(ProveArgs),
    /// What a store of `score4 prove` holds: status, export, merge.
    #[command(subcommand)]
    Store(StoreCommand),
    /// Write a certificate of a position's first-wins value (docs/CERTIFICATE.md), which
    /// `score4 verify` checks without trusting the solver.
    Certify(CertifyArgs),
    /// Check certificates with a checker that shares no code with the solver: exit 0 if all
    /// are valid, 1 if any is not (naming the node and why), 2 if a file cannot be read, 3 if
    /// a leaf searched with --search-parts was given up (--part-time) and nothing is invalid.
    Verify(VerifyArgs),
    /// Serve the analysis API over HTTP (docs/API.md): every legal column's value, as JSON or
    /// refined step by step as server-sent events, on one shared engine.
    ///
    /// Ctrl-C (or SIGTERM) stops the server: requests under way are answered, new ones refused.
    Serve(ServeArgs),
    /// Draw a position, say whose move it is, and list threats and openings.
    Show {
        /// The moves that reach the position, e.g. 0FC3484B7.
        moves: String,
    },
    /// Generate positions by random reasonable play (docs/RULES.md, "The benchmark protocol"), one
    /// per line.
    Gen {
        /// Stones on the board in every position.
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=63))]
        stones: u32,
        /// Number of positions.
        #[arg(long, default_value_t = 1000)]
        count: usize,
        /// Seed of the random stream (the same seed gives the same positions everywhere).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Options of `score4 serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// The address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// Size of the shared table of bounds (at least 522 MiB in 3-D); `--tt-size` as in analyze
    /// and play.
    #[arg(long, visible_alias = "tt-size", default_value = "1GiB", value_parser = score4_input::parse_bytes)]
    memory: u64,
    /// Analyses running at once; a request beyond them gets 503 (default: one per physical
    /// core).
    #[arg(long, value_parser = parse_threads)]
    max_analyses: Option<usize>,
    /// The longest time an analysis may ask for (a longer `time` is cut to it).
    #[arg(long, default_value = "30s", value_parser = score4_input::parse_duration)]
    max_time: std::time::Duration,
    #[command(flatten)]
    book: BookArgs,
    /// The store of a proof run (`score4 prove --store`, running or not): the page shows its
    /// status, read afresh at each request (`GET /api/proof`).
    #[arg(long)]
    store: Option<PathBuf>,
}

/// Options of `score4 solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// Move strings of the positions (whitespace inside is ignored).
    positions: Vec<String>,
    /// Read positions from this file, one per line.
    #[arg(long, short, conflicts_with = "positions")]
    file: Option<PathBuf>,
    /// One JSON object per position and line (docs/RULES.md, "The JSON line"), the summary on
    /// standard error.
    #[arg(long)]
    json: bool,
    /// What to find: first-wins (does the first player win? the report's question), wdl (win,
    /// draw or loss for the side to move) or exact (the score for the side to move: a win with
    /// the winner's k-th stone scores 33 - k, in the classic game 22 - k, a loss the negative).
    /// wdl and exact need a 3-D table of at least 522 MiB (twobig; 261 MiB for new and big).
    #[arg(long, default_value = "first-wins", value_parser = mode_parser())]
    mode: Mode,
    /// Worker threads (default: one per physical core; 1 for the classic game). 1 runs the
    /// sequential solver alone; more run the job-level parallel solver, which gives the same
    /// values.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Memory for the table and the parallel solver's tree together (B, KiB, MiB, GiB or TiB),
    /// or `all`: three quarters of the memory available now. Default 1 GiB, which starts in
    /// about a second (the classic game: a 16 MiB table, which stays in the processor's cache).
    /// With several threads the tree gets an eighth.
    #[arg(long, value_parser = parse_memory, conflicts_with = "tt_size")]
    memory: Option<MemoryChoice>,
    /// Size of the transposition table, instead of --memory (with several threads the tree may
    /// take an eighth of this on top, and at least 64 MiB).
    #[arg(long, value_parser = score4_input::parse_bytes)]
    tt_size: Option<u64>,
    /// Replacement scheme of the transposition table: twobig (two entries per bucket, the
    /// report's), new (always overwrite) or big (keep the bigger subtree).
    #[arg(long, default_value = "twobig", value_parser = replacement_parser())]
    replacement: Replacement,
    /// The table's near-leaf area, where positions of 44 stones or more are kept apart, keyed
    /// with their dead stones merged: auto (half the table, less where the rest would be too
    /// small), or a size taken out of the table's (at least 32 KiB). The 3-D game's tables
    /// cannot be without it; off is for the classic game's, which never have one.
    #[arg(long, default_value = "auto", value_parser = parse_leaf_area)]
    leaf_area: LeafArea,
    /// Value the parallel solver assumes for tasks not yet solved: the report's virtual win
    /// (best when the first player wins) or virtual loss.
    #[arg(long, default_value = "win", value_parser = assumption_parser())]
    assume: Assumption,
    /// Cutoff depth (stones beyond the position) the parallel solver starts with; it deepens
    /// by itself whenever workers run out of tasks.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=64))]
    cutoff: u32,
    /// Progress of a long search on standard error: on a terminal a live line, elsewhere (a
    /// log file, a pipe) a plain line every --progress-every.
    #[arg(long, value_enum, default_value = "auto")]
    progress: progress::ProgressMode,
    /// Time between two progress reports in plain and JSON form (the live line is redrawn
    /// four times a second).
    #[arg(long, default_value = "10s", value_parser = score4_input::parse_duration)]
    progress_every: std::time::Duration,
    /// Give up each position still unsolved after this time (30s, 5m, 1h 30m; a bare number is
    /// seconds): its row says "unknown" with what was proven of its score, and the run goes on
    /// with the next (exit code 0: the rows say which are unknown).
    #[arg(long, value_parser = score4_input::parse_duration)]
    time_limit: Option<std::time::Duration>,
    /// Solve every legal move of each position instead of the position itself: one row per
    /// move, the position's moves followed by the move's column, valued for the player who
    /// makes the move (in first-wins mode: whether the first player wins, as always). A move
    /// that ends the game shows its value with no search.
    #[arg(long)]
    each_move: bool,
    /// Empty the table before each position searched (with --each-move, each move's position),
    /// so that its nodes and time do not depend on what the positions before it left there.
    #[arg(long)]
    clear_table: bool,
    /// Solve with the depth-first search alone: no best-first driver over the top of the tree
    /// for positions it does not settle within a million nodes (one thread, first-wins mode;
    /// the answers are the same, the nodes differ: docs/DECISIONS.md).
    #[arg(long)]
    no_best_first: bool,
    /// With several threads in first-wins mode: when the parallel solver's tree has gone this
    /// long (e.g. 20s) without settling a task, one worker leaves it and races it on the
    /// position with the sequential solver and the best-first driver, on the shared table; the
    /// first to settle the position ends the search (docs/PARALLEL.md, "The race"). `0`: from
    /// the start; `never`: no race.
    #[arg(long, default_value = "20s", value_parser = parse_race_after)]
    race_after: RaceAfter,
    #[command(flatten)]
    book: BookArgs,
}

/// `--race-after`: a duration, or `never`.
#[derive(Clone, Copy, Debug)]
struct RaceAfter(Option<std::time::Duration>);

fn parse_race_after(text: &str) -> Result<RaceAfter, String> {
    match text.trim() {
        "never" => Ok(RaceAfter(None)),
        // A race from the start (durations elsewhere must be positive).
        "0" | "0s" => Ok(RaceAfter(Some(std::time::Duration::ZERO))),
        text => score4_input::parse_duration(text)
            .map(|after| RaceAfter(Some(after)))
            .map_err(|error| format!("{error} (or never)")),
    }
}

/// Options of `score4 certify`.
#[derive(clap::Args)]
pub struct CertifyArgs {
    /// The moves that reach the position, e.g. 0FC3484B7A99.
    moves: String,
    /// The certificate file to write (written beside it first, then renamed); with --store, the
    /// directory of the top and its parts.
    #[arg(long, short)]
    output: PathBuf,
    /// A store of `score4 prove` that proved the position: the certificate comes in parts, its
    /// top from the store down to the run's jobs (OUTPUT/top.cert) and one certificate per job
    /// (OUTPUT/part-MOVES.cert, kept if already there, so that a stopped run resumes).
    /// `score4 verify OUTPUT/*.cert` checks and joins them.
    #[arg(long)]
    store: Option<PathBuf>,
    /// With --store, write only the top, and list the parts' commands (to run anywhere).
    #[arg(long, requires = "store")]
    top_only: bool,
    /// Size of the transposition table the search uses to choose moves; with --store and
    /// several threads, the size of each thread's table.
    #[arg(long, default_value = "1GiB", value_parser = score4_input::parse_bytes)]
    memory: u64,
    /// With --store, parts written at once, each by a thread with its own table (default 1).
    #[arg(long, default_value_t = 1, value_parser = parse_threads, requires = "store")]
    threads: usize,
    /// Give up if the certificate would have more nodes than this.
    #[arg(long, default_value_t = 100_000_000)]
    max_nodes: u64,
}

/// Options of `score4 verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Certificate files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Solve every `part` leaf that no file of the set proves with score4's own search, and
    /// accept it when the search finds the claim. Such a leaf rests on score4's search, not on
    /// a certificate, and the report says so (docs/CERTIFICATE.md).
    #[arg(long)]
    search_parts: bool,
    /// With --search-parts: leaves searched at once, each on a thread of its own (default: one
    /// per physical core).
    #[arg(long, value_parser = parse_threads, requires = "search_parts")]
    threads: Option<usize>,
    /// With --search-parts: the size of the table the searches share (B, KiB, MiB, GiB, TiB).
    #[arg(long, default_value = "1GiB", value_parser = score4_input::parse_bytes)]
    memory: u64,
    /// With --search-parts: give up a leaf's search after this long (e.g. 30s). A leaf given
    /// up is neither accepted nor refuted: the file is then undecided (exit status 3).
    #[arg(long, value_parser = score4_input::parse_duration, requires = "search_parts")]
    part_time: Option<std::time::Duration>,
}

/// The opening book of `solve`, `analyze` and `play`.
#[derive(clap::Args)]
pub struct BookArgs {
    /// A store of `score4 prove` as an opening book: a position whose value it decides in the
    /// mode asked is answered from it with no search, and so is every position of the search it
    /// decides (see --book-stones; docs/STORE.md).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Read the book inside the search, at positions of at most this many stones (the position
    /// asked is always looked up). Default: every position the book could hold, except in
    /// solve's wdl and exact modes, where none (a first-wins proof's bounds can cost a score's
    /// later questions more than they save). A lookup costs about half a node.
    #[arg(long, requires = "book")]
    book_stones: Option<i32>,
}

/// Options of `score4 prove`.
#[derive(clap::Args)]
pub struct ProveArgs {
    /// The moves that reach the position, e.g. 0FC3484B7.
    moves: String,
    /// The store: an SQLite file, made if there is none (docs/STORE.md).
    #[arg(long)]
    store: PathBuf,
    /// The question: first-wins (does the first player win?) or wdl (win, draw or loss for the
    /// side to move: first-wins, then if not a win, whether the first player reaches a draw;
    /// it needs a table of bounds, at least 522 MiB).
    #[arg(long, default_value = "first-wins", value_parser = prove_mode_parser())]
    mode: Mode,
    /// Worker threads (default: one per physical core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// The transposition table's size (B, KiB, MiB, GiB or TiB), or `all`: three quarters of
    /// the memory available now. Default 1 GiB.
    #[arg(long, value_parser = parse_memory)]
    memory: Option<MemoryChoice>,
    /// The longest a job is searched before it is split into its children: at most this much
    /// work per thread is lost to a kill.
    #[arg(long, default_value = "60s", value_parser = score4_input::parse_duration)]
    checkpoint: std::time::Duration,
    /// Progress on standard error: plain lines (auto, bar and plain), JSON objects, or none.
    #[arg(long, value_enum, default_value = "auto")]
    progress: progress::ProgressMode,
    /// Time between two progress reports.
    #[arg(long, default_value = "10s", value_parser = score4_input::parse_duration)]
    progress_every: std::time::Duration,
    /// The final report as one JSON object.
    #[arg(long)]
    json: bool,
    /// End the run cleanly after this long (a last commit, exit 0, the value still open if not
    /// proven): for a job's time limit on a cluster, so that the next job resumes.
    #[arg(long, value_parser = score4_input::parse_duration)]
    stop_after: Option<std::time::Duration>,
    /// Which open job a worker takes next: `proof-numbers`, by proof-number search over the
    /// tree of jobs, or `moves`, depth first in the move ordering (docs/STORE.md). Either
    /// resumes a store that the other wrote.
    #[arg(long, value_enum, default_value = "proof-numbers")]
    jobs: JobsArg,
}

/// The values of `prove --jobs` ([`score4_prove::JobOrder`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum JobsArg {
    /// Depth first, in the move ordering.
    Moves,
    /// Proof-number search over the tree of jobs.
    ProofNumbers,
}

/// Subcommands of `score4 store`.
#[derive(Subcommand)]
pub enum StoreCommand {
    /// The roots proven in the store, each root move proven / refuted / open with the nodes
    /// spent under it, the totals and the runs; works while a prove writes to the store.
    Status {
        /// The store.
        file: PathBuf,
        /// One JSON object.
        #[arg(long)]
        json: bool,
        /// How many moves deep to show each root's tree: 1 shows the root's moves; each level
        /// below shows, under a move the proof worked on, the replies it worked on (those with
        /// more than one node recorded under them) and counts the others.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
    },
    /// Every position that the store decides something of, as `MOVES VALUE` lines.
    Export {
        /// The store.
        file: PathBuf,
    },
    /// Adds the positions of stores made elsewhere to one store (made if missing); two values
    /// of one position that contradict each other are an error and nothing is added.
    Merge {
        /// The store to add to.
        destination: PathBuf,
        /// The stores to add.
        #[arg(required = true)]
        sources: Vec<PathBuf>,
    },
}

/// Options of `score4 analyze`.
#[derive(clap::Args)]
pub struct AnalyzeArgs {
    /// The moves that reach the position, e.g. 0FC3484B7 (empty: the empty board).
    moves: String,
    /// Time for the whole analysis (10s, 1m 30s; a bare number is seconds).
    #[arg(long, default_value = "10s", value_parser = score4_input::parse_duration)]
    time: std::time::Duration,
    /// One JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Size of the transposition table of bounds (default 1GiB; 16MiB for the classic game,
    /// whose keys stay exact in any table; in 3-D at least 522 MiB for twobig, 261 MiB for new
    /// and big).
    #[arg(long, value_parser = score4_input::parse_bytes)]
    tt_size: Option<u64>,
    /// Replacement scheme of the transposition table: twobig (two entries per bucket, the
    /// report's), new (always overwrite) or big (keep the bigger subtree).
    #[arg(long, default_value = "twobig", value_parser = replacement_parser())]
    replacement: Replacement,
    #[command(flatten)]
    book: BookArgs,
}

/// Who plays on the human side in `score4 play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Humans {
    /// A human plays X (the first player), score4 plays O.
    X,
    /// A human plays O, score4 plays X.
    O,
    /// score4 plays both sides.
    None,
    /// Two humans; score4 only gives hints.
    Both,
}

/// Options of `score4 play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// The side the human plays.
    #[arg(long, value_enum, default_value = "x")]
    human: Humans,
    /// score4's time per move (2s, 500ms; a bare number is seconds).
    #[arg(long, default_value = "2s", value_parser = score4_input::parse_duration)]
    time: std::time::Duration,
    /// Moves already played before the game starts here (they cannot be undone).
    #[arg(long)]
    start: Option<String>,
    /// Size of the transposition table of bounds, kept for the whole game (default 1GiB; 16MiB
    /// for the classic game).
    #[arg(long, value_parser = score4_input::parse_bytes)]
    tt_size: Option<u64>,
    /// Replacement scheme of the transposition table: twobig (two entries per bucket, the
    /// report's), new (always overwrite) or big (keep the bigger subtree).
    #[arg(long, default_value = "twobig", value_parser = replacement_parser())]
    replacement: Replacement,
    #[command(flatten)]
    book: BookArgs,
}

/// Options of `score4 bench`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    command: Option<BenchCommand>,
    /// Run this one difficulty (default: 28, the report's headline).
    #[arg(long, conflicts_with_all = ["from", "to"])]
    difficulty: Option<u32>,
    /// Sweep from this difficulty ...
    #[arg(long, requires = "to")]
    from: Option<u32>,
    /// ... to this one (either direction), every --step stones.
    #[arg(long, requires = "from")]
    to: Option<u32>,
    /// Stones between two difficulties of a sweep (the committed sets are 20, 22, ..., 48).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    step: u32,
    /// Positions per difficulty (the first ones of each set).
    #[arg(long, default_value_t = 1000, value_parser = parse_positions)]
    positions: usize,
    /// Time limit per difficulty, table set-up included (600s, 10m, 1h 30m; a bare number is
    /// seconds).
    #[arg(long, default_value = "600s", value_parser = score4_input::parse_duration)]
    time_limit: std::time::Duration,
    /// Size of the transposition table (B, KiB, MiB, GiB or TiB), fresh for each difficulty
    /// (default: 1GiB; with --game classic 16MiB, which stays in the processor's cache).
    #[arg(long, value_parser = score4_input::parse_bytes)]
    tt_size: Option<u64>,
    /// Replacement scheme of the transposition table: twobig (two entries per bucket, the
    /// report's), new (always overwrite) or big (keep the bigger subtree).
    #[arg(long, default_value = "twobig", value_parser = replacement_parser())]
    replacement: Replacement,
    /// The table's near-leaf area, where positions of 44 stones or more are kept apart, keyed
    /// with their dead stones merged: auto (half the table, less where the rest would be too
    /// small), or a size taken out of the table's (at least 32 KiB). The 3-D game's tables
    /// cannot be without it; off is for the classic game's, which never have one.
    #[arg(long, default_value = "auto", value_parser = parse_leaf_area)]
    leaf_area: LeafArea,
    /// Run the sequential solver without the best-first driver over the top of the tree
    /// (one thread; the 3-D protocol only, Pons's classic sets are solved in wdl and exact
    /// modes, where the driver does not run; docs/DECISIONS.md).
    #[arg(long)]
    no_best_first: bool,
    /// Worker threads: 1 runs the sequential solver (the protocol's single core); more run
    /// the parallel solver on each position in turn, with a tree of up to an eighth of
    /// --tt-size besides the table (the 3-D protocol only; Pons's classic sets run on one).
    #[arg(long, default_value_t = 1, value_parser = parse_threads)]
    threads: usize,
    /// End the sweep at the first difficulty that runs out of time.
    #[arg(long)]
    stop_at_frontier: bool,
    /// Write bench.json, bench.csv and the charts (time / nodes, PNG and SVG) here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Name of the run in charts (default: version, scheme and table size).
    #[arg(long)]
    label: Option<String>,
    /// Directory of the benchmark sets dDD.txt (by default bench/positions of the current
    /// directory, else of the source tree the binary was built from).
    #[arg(long, default_value = "bench/positions")]
    sets: PathBuf,
    /// With --game classic: directory of Pons's test sets (Test_L3_R1 ... Test_L1_R3; by default
    /// bench/pons of the current directory, else of the source tree the binary was built from).
    #[arg(long, default_value = "bench/pons")]
    pons: PathBuf,
    /// With --game classic: run only this one of Pons's sets (e.g. Test_L2_R2).
    #[arg(long)]
    pons_set: Option<String>,
    /// With --game classic: skip the first N positions of each set (to run a long set in
    /// parts; --positions then counts from there).
    #[arg(long, default_value_t = 0)]
    skip: usize,
    /// With --game classic: run only the weak (win/draw/loss) or the strong (exact) solver.
    #[arg(long, value_parser = ["weak", "strong"])]
    solver: Option<String>,
}

/// Subcommands of `score4 bench`.
#[derive(Subcommand)]
pub enum BenchCommand {
    /// Draw saved runs (bench.json files) on one chart per metric, one line per run.
    Plot {
        /// The runs' JSON files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Directory for time.png/svg and nodes.png/svg.
        #[arg(long, default_value = ".")]
        out: PathBuf,
    },
}

fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(threads @ 1..=1024) => Ok(threads),
        Ok(_) => Err("between 1 and 1024 threads".to_owned()),
        Err(error) => Err(format!("{text:?}: {error}")),
    }
}

fn parse_positions(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("at least one position".to_owned()),
        Ok(count) => Ok(count),
        Err(error) => Err(format!("{text:?}: {error}")),
    }
}

/// The modes, listed in `--help` and in the error for a bad one.
fn mode_parser() -> impl TypedValueParser<Value = Mode> {
    clap::builder::PossibleValuesParser::new(["first-wins", "wdl", "exact"])
        .map(|text| text.parse::<Mode>().expect("a listed mode"))
}

/// The modes `prove` answers.
fn prove_mode_parser() -> impl TypedValueParser<Value = Mode> {
    clap::builder::PossibleValuesParser::new(["first-wins", "wdl"])
        .map(|text| text.parse::<Mode>().expect("a listed mode"))
}

/// What `--memory` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryChoice {
    /// This many bytes.
    Bytes(u64),
    /// Three quarters of the memory available ([`score4_engine::machine_memory`]).
    All,
}

fn parse_memory(text: &str) -> Result<MemoryChoice, String> {
    if text.trim().eq_ignore_ascii_case("all") {
        return Ok(MemoryChoice::All);
    }
    score4_input::parse_bytes(text)
        .map(MemoryChoice::Bytes)
        .map_err(|error| format!("{error} (or all)"))
}

/// A size (`64MiB`), or `auto` / `off` as `LeafArea` reads them.
fn parse_leaf_area(text: &str) -> Result<LeafArea, String> {
    score4_input::parse_bytes(text)
        .map(LeafArea::Bytes)
        .or_else(|error| text.parse().map_err(|_| format!("{error} (or auto, off)")))
}

/// The replacement schemes, listed in `--help` and in the error for a bad one.
fn replacement_parser() -> impl TypedValueParser<Value = Replacement> {
    clap::builder::PossibleValuesParser::new(Replacement::ALL.map(Replacement::name))
        .map(|text| text.parse::<Replacement>().expect("a listed scheme"))
}

/// The parallel solver's assumptions, listed in `--help`.
fn assumption_parser() -> impl TypedValueParser<Value = Assumption> {
    clap::builder::PossibleValuesParser::new(["win", "loss"]).map(|text| match text.as_str() {
        "win" => Assumption::FirstPlayerWins,
        _ => Assumption::SecondPlayerHolds,
    })
}

/// Exit code for bad input (a bad position, file or option).
pub const EXIT_BAD_INPUT: u8 = 2;

/// Signal dispositions score4 wants from the start. Rust starts programs with SIGPIPE ignored,
/// so `println!` to a closed pipe (`score4 gen | head`) panics; like other Unix tools, score4
/// instead ends quietly when its reader has gone. A file-size limit (`ulimit -f`) would kill
/// score4 with SIGXFSZ in the middle of a write; ignored, the write fails and the store's
/// transaction is rolled back with a clear error instead.
#[cfg(unix)]
fn set_signal_dispositions() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIG_DFL: usize = 0;
    const SIG_IGN: usize = 1;
    // SAFETY: sets signals' dispositions, before any other thread exists.
    unsafe {
        signal(signal_hook::consts::SIGPIPE, SIG_DFL);
        signal(signal_hook::consts::SIGXFSZ, SIG_IGN);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    set_signal_dispositions();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return match error.use_stderr() {
                true => ExitCode::from(EXIT_BAD_INPUT),
                false => ExitCode::SUCCESS, // --help, --version
            };
        }
    };
    let game = cli.game;
    match cli.command {
        Command::Solve(args) => match game {
            GameKind::Space => solve::run::<GameRecord>(args),
            GameKind::Classic => solve::run::<ClassicRecord>(args),
        },
        Command::Analyze(args) => match game {
            GameKind::Space => analyze::run::<GameRecord>(args),
            GameKind::Classic => analyze::run::<ClassicRecord>(args),
        },
        Command::Play(args) => match game {
            GameKind::Space => play::run::<GameRecord>(args),
            GameKind::Classic => play::run::<ClassicRecord>(args),
        },
        Command::Prove(args) => match game {
            GameKind::Space => prove::run::<GameRecord>(args),
            GameKind::Classic => prove::run::<ClassicRecord>(args),
        },
        Command::Store(command) => store_command::run(command),
        Command::Serve(args) if game == GameKind::Space => serve::run(args),
        Command::Serve(_) => {
            eprintln!("score4 --game classic serve: the server analyses the 3-D game only");
            ExitCode::from(EXIT_BAD_INPUT)
        }
        Command::Certify(args) if game == GameKind::Space => certificate::run_certify(args),
        Command::Verify(args) if game == GameKind::Space => certificate::run_verify(args),
        Command::Certify(_) | Command::Verify(_) => {
            eprintln!("score4 --game classic: certificates are of the 3-D game only");
            ExitCode::from(EXIT_BAD_INPUT)
        }
        Command::Bench(args) if game == GameKind::Space => bench::run(args),
        Command::Bench(args) if args.command.is_none() => pons::bench(args),
        Command::Show { moves } => match game {
            GameKind::Space => show::run::<GameRecord>(&moves),
            GameKind::Classic => show::run::<ClassicRecord>(&moves),
        },
        Command::Gen {
            stones,
            count,
            seed,
        } => match game {
            GameKind::Space => bench::generate::<GameRecord>(stones, count, seed),
            GameKind::Classic => bench::generate::<ClassicRecord>(stones, count, seed),
        },
        _ => {
            eprintln!(
                "score4 --game classic bench plot: bench plot draws saved runs of the 3-D \
                 protocol (bench.json); run it without --game classic"
            );
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
