//! The analysis board in a real browser: `score4 serve` on 127.0.0.1 with a proof run's store,
//! and `web/tests/board.mjs` driving Debian's Chromium headless through playwright-core (it
//! clicks, types, follows a link, plays a game to its end; screenshots in target/browser/).
//!
//! Needs Node.js, `npm ci` in `web/` and `/usr/bin/chromium` (or `CHROMIUM`): `.ci/run`
//! installs them and runs this test with `--features browser`.
#![cfg(feature = "browser")]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

#[test]
fn the_board_works_in_a_real_browser() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let web = root.join("web");
    assert!(
        web.join("node_modules/playwright-core").is_dir(),
        "web/node_modules/playwright-core is missing: run `npm ci` in web/"
    );
    let shots = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root.join("target"), PathBuf::from)
        .join("browser");
    let directory = tempfile::tempdir().unwrap();
    let store = directory.path().join("0FC3484B7A.sqlite");
    std::fs::copy(root.join("proofs/0FC3484B7A.sqlite"), &store).unwrap();

    let mut server = Command::new(assert_cmd::cargo::cargo_bin("score4"))
        .args(["serve", "--addr", "127.0.0.1:0", "--memory", "600MiB"])
        .arg("--store")
        .arg(&store)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .rsplit_once(' ')
        .expect("the server prints its address")
        .1
        .to_owned();

    let test = Command::new("node")
        .current_dir(&web)
        .arg("tests/board.mjs")
        .arg(&url)
        .arg(&shots)
        .status();
    // Stop the server as a person would, before any assertion can leave it running.
    let _ = Command::new("kill")
        .args(["-INT", &server.id().to_string()])
        .status();
    let stopped = server.wait().unwrap();
    let test = test.expect("node runs (Node.js is needed)");
    assert!(
        test.success(),
        "the browser test failed; screenshots in {}",
        shots.display()
    );
    assert_eq!(stopped.code(), Some(130), "serve after Ctrl-C");
}
