//! What the integration tests of the `score4` binary share. Each test file is a crate of its
//! own and uses some of it.
#![allow(dead_code)]

use assert_cmd::Command;

/// The `score4` binary of this build.
pub fn score4() -> Command {
    Command::cargo_bin("score4").expect("the score4 binary is built")
}

/// One JSON object per line of `stdout`.
pub fn json_lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

/// Runs `command`, checks that it succeeds (else shows its standard error), and returns its
/// standard output.
pub fn stdout_of_success(command: &mut Command) -> String {
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}
