//! [`Store`]: one SQLite file of solved positions and runs.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension};

use crate::error::StoreError;
use crate::record::{Bounds, Record, Run, Summary};
use crate::schema::{key_bytes, key_of, CREATE, SCHEMA_VERSION};

/// A store of solved positions, open for reading or (by one process at a time) for writing.
///
/// Writers hold an advisory lock (`flock`) on the file for as long as the store is open, so
/// that a second writer is refused at once instead of interleaving its work; readers take no
/// lock and, in WAL mode, see the last committed state while a writer goes on.
pub struct Store {
    // Declared first so that it is closed before the lock is released.
    connection: Connection,
    path: PathBuf,
    /// The writer's lock, held until the store is dropped.
    _lock: Option<File>,
}

/// Wraps a SQLite error with the file and what was being done; a file that is not a database
/// becomes [`StoreError::NotAStore`].
fn sqlite<'a>(
    path: &'a Path,
    action: &'static str,
) -> impl FnOnce(rusqlite::Error) -> StoreError + 'a {
    move |source| match source.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => StoreError::NotAStore {
            path: path.to_owned(),
            reason: "the file is not an SQLite database".to_owned(),
        },
        Some(ErrorCode::DatabaseCorrupt) => StoreError::Damaged {
            path: path.to_owned(),
            reason: source.to_string(),
        },
        _ => StoreError::Sqlite {
            path: path.to_owned(),
            action,
            source,
        },
    }
}

/// Seconds since the Unix epoch.
fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |elapsed| elapsed.as_secs_f64())
}

impl Store {
    /// Opens the store at `path` for writing, creating it (for `game`) if there is no file
    /// there. Refuses a file that is not a store, a store of another version or game, and a
    /// store another process writes to.
    pub fn open_for_writing(path: &Path, game: &str) -> Result<Store, StoreError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let connection = Connection::open_with_flags(path, flags)
            .map_err(sqlite(path, "cannot open or create the store"))?;
        let lock = File::options()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|source| StoreError::Io {
                path: path.to_owned(),
                action: "cannot open the store for its lock",
                source,
            })?;
        // A writer killed a moment ago may still be releasing its lock: try for a second.
        let mut attempts = 0;
        loop {
            match lock.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) if attempts < 20 => {
                    attempts += 1;
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(StoreError::Busy {
                        path: path.to_owned(),
                    })
                }
                Err(std::fs::TryLockError::Error(source)) => {
                    return Err(StoreError::Io {
                        path: path.to_owned(),
                        action: "cannot lock the store",
                        source,
                    })
                }
            }
        }
        let mut store = Store {
            connection,
            path: path.to_owned(),
            _lock: Some(lock),
        };
        store.configure()?;
        if store.tables()?.is_empty() {
            store.create(game)?;
        }
        store.check(Some(game))?;
        Ok(store)
    }

    /// Opens the store at `path` for reading (it must exist); works while a writer runs.
    pub fn open_for_reading(path: &Path) -> Result<Store, StoreError> {
        if !path.is_file() {
            return Err(StoreError::Io {
                path: path.to_owned(),
                action: "cannot open the store",
                source: std::io::Error::from(std::io::ErrorKind::NotFound),
            });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let connection = Connection::open_with_flags(path, flags)
            .map_err(sqlite(path, "cannot open the store"))?;
        let store = Store {
            connection,
            path: path.to_owned(),
            _lock: None,
        };
        store
            .connection
            .busy_timeout(std::time::Duration::from_secs(10))
            .map_err(sqlite(path, "cannot configure the store"))?;
        if store.tables()?.is_empty() {
            return Err(StoreError::NotAStore {
                path: path.to_owned(),
                reason: "an empty database".to_owned(),
            });
        }
        store.check(None)?;
        Ok(store)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// WAL, so that readers work beside the writer and a kill loses at most the transaction
    /// under way; `synchronous = NORMAL`, which in WAL mode survives any crash of the process
    /// (a power cut may lose the last transactions, never the file's consistency).
    fn configure(&mut self) -> Result<(), StoreError> {
        let path = self.path.clone();
        let failed = sqlite(&path, "cannot configure the store");
        self.connection
            .busy_timeout(std::time::Duration::from_secs(10))
            .and_then(|_| {
                self.connection
                    .query_row("PRAGMA journal_mode = WAL", [], |row| {
                        row.get::<_, String>(0)
                    })
            })
            .and_then(|_| self.connection.pragma_update(None, "synchronous", "NORMAL"))
            .map_err(failed)
    }

    /// The names of the tables in the file (none in a new one).
    fn tables(&self) -> Result<Vec<String>, StoreError> {
        let read = || -> rusqlite::Result<Vec<String>> {
            let mut statement = self
                .connection
                .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")?;
            let names = statement.query_map([], |row| row.get(0))?;
            names.collect()
        };
        read().map_err(sqlite(&self.path, "cannot read the store's tables"))
    }

    /// Makes the tables of a new store for `game`.
    fn create(&mut self, game: &str) -> Result<(), StoreError> {
        let path = self.path.clone();
        let transaction = self
            .connection
            .transaction()
            .map_err(sqlite(&path, "cannot create the store"))?;
        transaction
            .execute_batch(CREATE)
            .and_then(|_| {
                transaction.execute(
                    "INSERT INTO meta (name, value) VALUES ('schema_version', ?1), ('game', ?2)",
                    params![SCHEMA_VERSION.to_string(), game],
                )
            })
            .and_then(|_| transaction.commit())
            .map_err(sqlite(&path, "cannot create the store"))
    }

    /// Checks that the file is a store of this version (and of `game`, if given).
    fn check(&self, game: Option<&str>) -> Result<(), StoreError> {
        let tables = self.tables()?;
        for table in ["meta", "positions", "runs"] {
            if !tables.iter().any(|name| name == table) {
                return Err(StoreError::NotAStore {
                    path: self.path.clone(),
                    reason: format!("an SQLite database without score4's table {table:?}"),
                });
            }
        }
        let meta = |name: &str| -> Result<String, StoreError> {
            self.connection
                .query_row("SELECT value FROM meta WHERE name = ?1", [name], |row| {
                    row.get(0)
                })
                .optional()
                .map_err(sqlite(&self.path, "cannot read the store's version"))?
                .ok_or_else(|| StoreError::NotAStore {
                    path: self.path.clone(),
                    reason: format!("no {name} in its meta table"),
                })
        };
        let version = meta("schema_version")?;
        let found = version.parse().map_err(|_| StoreError::NotAStore {
            path: self.path.clone(),
            reason: format!("schema version {version:?} is not a number"),
        })?;
        if found != SCHEMA_VERSION {
            return Err(StoreError::OtherVersion {
                path: self.path.clone(),
                found,
                expected: SCHEMA_VERSION,
            });
        }
        let stored_game = meta("game")?;
        if let Some(game) = game {
            if stored_game != game {
                return Err(StoreError::OtherGame {
                    path: self.path.clone(),
                    found: stored_game,
                    expected: game.to_owned(),
                });
            }
        }
        Ok(())
    }

    /// The game the store is of.
    pub fn game(&self) -> Result<String, StoreError> {
        self.connection
            .query_row("SELECT value FROM meta WHERE name = 'game'", [], |row| {
                row.get(0)
            })
            .map_err(sqlite(&self.path, "cannot read the store's game"))
    }

    /// `PRAGMA integrity_check`: `Ok` if SQLite finds the file sound.
    pub fn check_integrity(&self) -> Result<(), StoreError> {
        let answer: String = self
            .connection
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .map_err(sqlite(&self.path, "cannot check the store"))?;
        match answer.as_str() {
            "ok" => Ok(()),
            _ => Err(StoreError::Damaged {
                path: self.path.clone(),
                reason: answer,
            }),
        }
    }

    /// Every position's bounds and its own nodes, by key: what a run resumes from.
    pub fn load(&self) -> Result<HashMap<u128, (Bounds, u64)>, StoreError> {
        let mut positions = HashMap::new();
        self.for_each(|record| {
            positions.insert(record.key, (record.bounds, record.nodes));
        })?;
        Ok(positions)
    }

    /// Calls `each` for every stored position, in key order.
    pub fn for_each(&self, mut each: impl FnMut(Record)) -> Result<(), StoreError> {
        let mut read = || -> rusqlite::Result<Result<(), StoreError>> {
            let mut statement = self.connection.prepare(
                "SELECT key, stones, moves, lower, upper, nodes, seconds FROM positions \
                 ORDER BY key",
            )?;
            let mut rows = statement.query([])?;
            while let Some(row) = rows.next()? {
                match record_of(row)? {
                    Some(record) => each(record),
                    None => {
                        return Ok(Err(StoreError::Damaged {
                            path: self.path.clone(),
                            reason: "a key that is not 10 bytes".to_owned(),
                        }))
                    }
                }
            }
            Ok(Ok(()))
        };
        read().map_err(sqlite(&self.path, "cannot read the positions"))?
    }

    /// The stored position of `key`, if any.
    pub fn get(&self, key: u128) -> Result<Option<Record>, StoreError> {
        let Some(bytes) = key_bytes(key) else {
            return Ok(None);
        };
        let row = self
            .connection
            .query_row(
                "SELECT key, stones, moves, lower, upper, nodes, seconds FROM positions \
                 WHERE key = ?1",
                [&bytes[..]],
                record_of,
            )
            .optional()
            .map_err(sqlite(&self.path, "cannot read a position"))?;
        Ok(row.flatten())
    }

    /// Writes `records` in one transaction: a position already stored keeps what both prove
    /// (its bounds met, its nodes and seconds added up); bounds that contradict the stored
    /// ones are an error and nothing is written. Contract: keys have at most 80 bits.
    pub fn write(&mut self, records: &[Record]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let failed = |action| sqlite(&path, action);
        let transaction = self
            .connection
            .transaction()
            .map_err(failed("cannot begin a write"))?;
        {
            let mut find = transaction
                .prepare_cached(
                    "SELECT key, stones, moves, lower, upper, nodes, seconds FROM positions \
                     WHERE key = ?1",
                )
                .map_err(failed("cannot prepare a write"))?;
            let mut put = transaction
                .prepare_cached(
                    "INSERT OR REPLACE INTO positions \
                     (key, stones, moves, lower, upper, nodes, seconds) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )
                .map_err(failed("cannot prepare a write"))?;
            for record in records {
                let bytes = key_bytes(record.key).expect("keys of at most 80 bits");
                let stored = find
                    .query_row([&bytes[..]], record_of)
                    .optional()
                    .map_err(failed("cannot read a position"))?
                    .flatten();
                let merged = match stored {
                    None => record.clone(),
                    Some(stored) => {
                        let bounds = stored.bounds.meet(record.bounds).ok_or_else(|| {
                            StoreError::Contradiction {
                                path: path.clone(),
                                moves: stored.moves.clone(),
                                first: stored.bounds.to_string(),
                                second: record.bounds.to_string(),
                            }
                        })?;
                        Record {
                            bounds,
                            nodes: stored.nodes + record.nodes,
                            seconds: stored.seconds + record.seconds,
                            ..stored
                        }
                    }
                };
                put.execute(params![
                    &bytes[..],
                    merged.stones,
                    merged.moves,
                    stored_bound(merged.bounds.lower, Bounds::UNKNOWN.lower),
                    stored_bound(merged.bounds.upper, Bounds::UNKNOWN.upper),
                    merged.nodes as i64,
                    merged.seconds,
                ])
                .map_err(failed("cannot write a position"))?;
            }
        }
        transaction.commit().map_err(failed("cannot commit"))
    }

    /// Records the start of a run; its id, for [`Self::update_run`].
    pub fn begin_run(&mut self, run: &Run) -> Result<i64, StoreError> {
        let started = now();
        self.connection
            .execute(
                "INSERT INTO runs (root, mode, started, stopped, host, threads, memory, version, \
                 nodes, outcome) VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6, ?7, 0, 'running')",
                params![
                    run.root,
                    run.mode,
                    started,
                    run.host,
                    run.threads,
                    run.memory,
                    run.version
                ],
            )
            .map_err(sqlite(&self.path, "cannot record the run"))?;
        Ok(self.connection.last_insert_rowid())
    }

    /// Records a run's nodes so far and, at its end, how it ended.
    pub fn update_run(&mut self, id: i64, nodes: u64, outcome: &str) -> Result<(), StoreError> {
        self.connection
            .execute(
                "UPDATE runs SET stopped = ?1, nodes = ?2, outcome = ?3 WHERE id = ?4",
                params![now(), nodes as i64, outcome, id],
            )
            .map(|_| ())
            .map_err(sqlite(&self.path, "cannot record the run"))
    }

    /// Every run, first first.
    pub fn runs(&self) -> Result<Vec<Run>, StoreError> {
        let read = || -> rusqlite::Result<Vec<Run>> {
            let mut statement = self.connection.prepare(
                "SELECT id, root, mode, started, stopped, host, threads, memory, version, nodes, \
                 outcome FROM runs ORDER BY id",
            )?;
            let runs = statement.query_map([], |row| {
                Ok(Run {
                    id: row.get(0)?,
                    root: row.get(1)?,
                    mode: row.get(2)?,
                    started: row.get(3)?,
                    stopped: row.get(4)?,
                    host: row.get(5)?,
                    threads: row.get(6)?,
                    memory: row.get(7)?,
                    version: row.get(8)?,
                    nodes: row.get::<_, i64>(9)? as u64,
                    outcome: row.get(10)?,
                })
            })?;
            runs.collect()
        };
        read().map_err(sqlite(&self.path, "cannot read the runs"))
    }

    /// Nodes recorded on the positions whose stored move string starts with `prefix` (a
    /// position reached by several move orders counts under the one stored).
    pub fn nodes_under(&self, prefix: &str) -> Result<u64, StoreError> {
        self.connection
            .query_row(
                "SELECT coalesce(sum(nodes), 0) FROM positions WHERE substr(moves, 1, ?1) = ?2",
                params![prefix.len() as i64, prefix],
                |row| row.get::<_, i64>(0),
            )
            .map(|nodes| nodes as u64)
            .map_err(sqlite(&self.path, "cannot count the nodes"))
    }

    /// Counts over all positions.
    pub fn summary(&self) -> Result<Summary, StoreError> {
        self.connection
            .query_row(
                "SELECT count(*), coalesce(sum(lower IS NOT NULL OR upper IS NOT NULL), 0), \
                 coalesce(sum(nodes), 0), coalesce(sum(seconds), 0) FROM positions",
                [],
                |row| {
                    Ok(Summary {
                        positions: row.get::<_, i64>(0)? as u64,
                        settled: row.get::<_, i64>(1)? as u64,
                        nodes: row.get::<_, i64>(2)? as u64,
                        seconds: row.get(3)?,
                    })
                },
            )
            .map_err(sqlite(&self.path, "cannot count the positions"))
    }

    /// Adds every position of the store at `source` to this one ([`Self::write`]'s rules: a
    /// contradiction is an error and nothing of `source` is written). The positions added.
    pub fn merge_from(&mut self, source: &Store) -> Result<u64, StoreError> {
        let (game, theirs) = (self.game()?, source.game()?);
        if game != theirs {
            return Err(StoreError::OtherGame {
                path: source.path.clone(),
                found: theirs,
                expected: game,
            });
        }
        let mut records = Vec::new();
        source.for_each(|record| records.push(record))?;
        self.write(&records)?;
        Ok(records.len() as u64)
    }
}

/// A bound as stored: `NULL` when unbounded.
fn stored_bound(bound: i32, unbounded: i32) -> Option<i32> {
    (bound != unbounded).then_some(bound)
}

/// A row of `positions` (selected in the table's column order); `None` if its key is not one.
fn record_of(row: &rusqlite::Row<'_>) -> rusqlite::Result<Option<Record>> {
    let bytes: Vec<u8> = row.get(0)?;
    let Some(key) = key_of(&bytes) else {
        return Ok(None);
    };
    let lower: Option<i32> = row.get(3)?;
    let upper: Option<i32> = row.get(4)?;
    Ok(Some(Record {
        key,
        stones: row.get(1)?,
        moves: row.get(2)?,
        bounds: Bounds {
            lower: lower.unwrap_or(Bounds::UNKNOWN.lower),
            upper: upper.unwrap_or(Bounds::UNKNOWN.upper),
        },
        nodes: row.get::<_, i64>(5)? as u64,
        seconds: row.get(6)?,
    }))
}
