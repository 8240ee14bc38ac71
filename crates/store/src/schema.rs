//! The store's tables (docs/STORE.md explains each column).

/// The schema this build reads and writes. A store of another version is refused.
pub const SCHEMA_VERSION: i64 = 1;

/// The tables of a new store.
pub(crate) const CREATE: &str = "
CREATE TABLE meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE positions (
    key     BLOB PRIMARY KEY,
    stones  INTEGER NOT NULL,
    moves   TEXT NOT NULL,
    lower   INTEGER,
    upper   INTEGER,
    nodes   INTEGER NOT NULL,
    seconds REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE runs (
    id      INTEGER PRIMARY KEY,
    root    TEXT NOT NULL,
    mode    TEXT NOT NULL,
    started REAL NOT NULL,
    stopped REAL NOT NULL,
    host    TEXT NOT NULL,
    threads INTEGER NOT NULL,
    memory  INTEGER NOT NULL,
    version TEXT NOT NULL,
    nodes   INTEGER NOT NULL,
    outcome TEXT NOT NULL
);
";

/// Bytes of a stored key: 80 bits, big-endian.
pub(crate) const KEY_BYTES: usize = 10;

/// The stored form of `key`, or `None` if it has more than 80 bits.
pub(crate) fn key_bytes(key: u128) -> Option<[u8; KEY_BYTES]> {
    if key >> (8 * KEY_BYTES) != 0 {
        return None;
    }
    let all = key.to_be_bytes();
    let mut bytes = [0; KEY_BYTES];
    bytes.copy_from_slice(&all[16 - KEY_BYTES..]);
    Some(bytes)
}

/// The key of a stored form, or `None` if it is not one.
pub(crate) fn key_of(bytes: &[u8]) -> Option<u128> {
    if bytes.len() != KEY_BYTES {
        return None;
    }
    let mut all = [0; 16];
    all[16 - KEY_BYTES..].copy_from_slice(bytes);
    Some(u128::from_be_bytes(all))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_80_bits_go_and_come_back_and_wider_ones_are_refused() {
        for key in [0, 1, (1 << 80) - 1, 0x1234_5678_9ABC_DEF0_1234] {
            assert_eq!(key_of(&key_bytes(key).unwrap()), Some(key));
        }
        assert_eq!(key_bytes(1 << 80), None);
        assert_eq!(key_of(&[0; 9]), None);
    }
}
