//! The messages between the manager (rank 0) and the worker ranks, as byte strings with an MPI
//! tag each. Integers are little-endian.
//!
//! | tag | from | bytes |
//! | --- | --- | --- |
//! | [`HELLO`] | worker | empty when the rank is ready, else UTF-8 text: why it cannot work |
//! | [`JOB`] | manager | slot `u32`, job `u64`, threshold `i32` (`i32::MIN`: first-wins), checkpoint ms `u64`, moves (UTF-8) |
//! | [`CANCEL`] | manager | slot `u32`, job `u64` |
//! | [`FINISH`] | manager | empty: the run is over |
//! | [`ANSWER`] + slot | worker | job `u64`, value `i8` (-1 stopped, 0 no, 1 yes), nodes `u64` |

use std::time::Duration;

/// A worker rank is ready, or says why not.
pub const HELLO: i32 = 1;
/// A job for a slot (a thread) of a worker rank.
pub const JOB: i32 = 2;
/// The slot's job is no longer needed.
pub const CANCEL: i32 = 3;
/// The run is over: the worker rank ends.
pub const FINISH: i32 = 4;
/// The answer of a slot: tag `ANSWER + slot`, so each waiting manager thread probes its own.
pub const ANSWER: i32 = 100;

/// A job, as [`JOB`] carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobMessage {
    pub slot: u32,
    pub job: u64,
    pub threshold: Option<i32>,
    pub checkpoint: Duration,
    pub moves: String,
}

impl JobMessage {
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(24 + self.moves.len());
        bytes.extend(self.slot.to_le_bytes());
        bytes.extend(self.job.to_le_bytes());
        bytes.extend(self.threshold.unwrap_or(i32::MIN).to_le_bytes());
        bytes.extend((self.checkpoint.as_millis() as u64).to_le_bytes());
        bytes.extend(self.moves.as_bytes());
        bytes
    }

    pub fn decode(bytes: &[u8]) -> Option<JobMessage> {
        let threshold = i32::from_le_bytes(bytes.get(12..16)?.try_into().ok()?);
        Some(JobMessage {
            slot: u32::from_le_bytes(bytes.get(0..4)?.try_into().ok()?),
            job: u64::from_le_bytes(bytes.get(4..12)?.try_into().ok()?),
            threshold: (threshold != i32::MIN).then_some(threshold),
            checkpoint: Duration::from_millis(u64::from_le_bytes(
                bytes.get(16..24)?.try_into().ok()?,
            )),
            moves: String::from_utf8(bytes.get(24..)?.to_vec()).ok()?,
        })
    }
}

/// A cancellation, as [`CANCEL`] carries it: the slot and its job.
pub fn encode_cancel(slot: u32, job: u64) -> Vec<u8> {
    let mut bytes = slot.to_le_bytes().to_vec();
    bytes.extend(job.to_le_bytes());
    bytes
}

pub fn decode_cancel(bytes: &[u8]) -> Option<(u32, u64)> {
    Some((
        u32::from_le_bytes(bytes.get(0..4)?.try_into().ok()?),
        u64::from_le_bytes(bytes.get(4..12)?.try_into().ok()?),
    ))
}

/// An answer, as [`ANSWER`] carries it: the job, whether the threshold is reached (`None`:
/// stopped first), and the nodes searched.
pub fn encode_answer(job: u64, reaches: Option<bool>, nodes: u64) -> Vec<u8> {
    let mut bytes = job.to_le_bytes().to_vec();
    bytes.push(match reaches {
        None => -1i8,
        Some(false) => 0,
        Some(true) => 1,
    } as u8);
    bytes.extend(nodes.to_le_bytes());
    bytes
}

pub fn decode_answer(bytes: &[u8]) -> Option<(u64, Option<bool>, u64)> {
    let reaches = match *bytes.get(8)? as i8 {
        -1 => None,
        0 => Some(false),
        1 => Some(true),
        _ => return None,
    };
    Some((
        u64::from_le_bytes(bytes.get(0..8)?.try_into().ok()?),
        reaches,
        u64::from_le_bytes(bytes.get(9..17)?.try_into().ok()?),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back_what_was_written() {
        let job = JobMessage {
            slot: 3,
            job: 1 << 40,
            threshold: Some(-2),
            checkpoint: Duration::from_millis(60_000),
            moves: "0FC3484B7A".to_owned(),
        };
        assert_eq!(JobMessage::decode(&job.encode()), Some(job.clone()));
        let first_wins = JobMessage {
            threshold: None,
            ..job
        };
        assert_eq!(JobMessage::decode(&first_wins.encode()), Some(first_wins));
        assert_eq!(decode_cancel(&encode_cancel(7, 9)), Some((7, 9)));
        for reaches in [None, Some(false), Some(true)] {
            assert_eq!(
                decode_answer(&encode_answer(5, reaches, 123)),
                Some((5, reaches, 123))
            );
        }
        assert_eq!(decode_answer(&[1, 2, 3]), None);
        assert_eq!(JobMessage::decode(&[0; 10]), None);
    }
}
