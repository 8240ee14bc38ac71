//! Joining a set of certificates checked alone (docs/CERTIFICATE.md, "Certificates in parts"):
//! every `part` leaf of every file must be the root position of another file of the set, with
//! the same claim.

use std::collections::HashSet;

use crate::check::{Claim, Obligation, Verdict};

/// What the set says of one file that was valid alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Joined {
    /// Its `part` leaves that files of the set prove.
    pub parts_met: usize,
    /// Its `part` leaves that no file of the set proves, in file order: unless this is empty,
    /// the file is not accepted.
    pub unmet: Vec<Obligation>,
    /// Whether it proves a `part` leaf of another file (else it is one of the set's tops).
    pub is_part: bool,
}

/// Joins the verdicts of a set of files checked alone (`None` for a file that was not valid
/// alone, which meets nobody's obligation): one answer per file, in order, `None` where the
/// verdict was `None`.
pub fn join(verdicts: &[Option<Verdict>]) -> Vec<Option<Joined>> {
    let key = |claim: Claim, (x, o): (u64, u64)| (claim == Claim::Win, x, o);
    let roots: HashSet<(bool, u64, u64)> = verdicts
        .iter()
        .flatten()
        .map(|verdict| key(verdict.claim, verdict.root_position))
        .collect();
    let needed: HashSet<(bool, u64, u64)> = verdicts
        .iter()
        .flatten()
        .flat_map(|verdict| {
            verdict
                .parts
                .iter()
                .map(move |part| key(verdict.claim, (part.x, part.o)))
        })
        .collect();
    verdicts
        .iter()
        .map(|verdict| {
            let verdict = verdict.as_ref()?;
            let met = |part: &&Obligation| roots.contains(&key(verdict.claim, (part.x, part.o)));
            Some(Joined {
                parts_met: verdict.parts.iter().filter(met).count(),
                unmet: verdict
                    .parts
                    .iter()
                    .filter(|part| !met(part))
                    .cloned()
                    .collect(),
                is_part: needed.contains(&key(verdict.claim, verdict.root_position)),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::KindCounts;

    fn verdict(claim: Claim, root: (u64, u64), parts: &[(u64, u64)]) -> Verdict {
        Verdict {
            root: String::new(),
            claim,
            nodes: 1,
            kinds: KindCounts::default(),
            root_position: root,
            parts: parts
                .iter()
                .enumerate()
                .map(|(node, &(x, o))| Obligation {
                    node: node as u32 + 1,
                    moves: format!("{node:X}"),
                    x,
                    o,
                })
                .collect(),
        }
    }

    #[test]
    fn a_part_is_met_by_a_file_of_its_position_and_claim_only() {
        let top = verdict(Claim::Win, (0, 0), &[(1, 2), (4, 8)]);
        let first = verdict(Claim::Win, (1, 2), &[]);
        let second_of_the_other_claim = verdict(Claim::Hold, (4, 8), &[]);
        let second = verdict(Claim::Win, (4, 8), &[]);
        let joined = join(&[Some(top.clone()), Some(first.clone()), Some(second)]);
        let met = |parts_met, is_part| {
            Some(Joined {
                parts_met,
                unmet: Vec::new(),
                is_part,
            })
        };
        assert_eq!(joined, vec![met(2, false), met(0, true), met(0, true)]);
        // The second part with the other claim, or invalid alone (None): not met.
        for other in [Some(second_of_the_other_claim), None] {
            let joined = join(&[Some(top.clone()), Some(first.clone()), other.clone()]);
            let unmet = joined[0].clone().unwrap();
            let nodes: Vec<u32> = unmet.unmet.iter().map(|part| part.node).collect();
            assert_eq!((unmet.parts_met, nodes), (1, vec![2]));
            assert_eq!(joined[2].as_ref().map(|j| j.is_part), other.map(|_| false));
        }
    }
}
