//! `score4-certify`: writes proof certificates (docs/CERTIFICATE.md) of a Connect Four 3D
//! position's first-wins value, for a checker that trusts nothing of the search to verify.
//!
//! The certificate is extracted with the solver: at each node of the claimant (X for a win, O
//! for a hold) one move whose child the solver proves keeps the claim, preferring a child
//! already in the certificate (transpositions are shared by exact position) and a move that
//! finishes the game; at each node of the opponent every legal move. Leaves are what a checker
//! verifies by itself: a move that completes four, a finished game, and the strategies of the
//! search's static rules — for holds O's follow-up and pairs, for wins X's zugzwang, each with a
//! mirror or a spare tempo — given as the pairs and the change, found here by a search of its
//! own ([`pairs`]) rather than read from the rules' code.
//!
//! A long proof's certificate comes in parts ([`certify_top`]): its top, written from the
//! store of a `score4 prove` run down to the run's jobs, and one certificate per job.
//!
//! It depends on the board, the game vocabulary and the solver; never on a front-end, and never
//! on `score4-verify` (which must stay independent of everything here) except in its tests.

pub mod pairs;
mod top;
mod write;

pub use top::{certify_top, Top};
pub use write::{certify, CertifyError, CertifySummary};
