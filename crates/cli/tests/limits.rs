//! Memory limits, with real limits on real processes: a table larger than the machine, than
//! the address-space limit (`ulimit -v`) or than the control group's limit is refused before
//! anything is allocated, naming the limit and what could be used, with exit code 2.

mod common;

use std::process::{Command, Output};

/// `score4 ARGS` run by `sh` after `setup` (shell commands).
fn score4_after(setup: &str, args: &str) -> Output {
    let binary = assert_cmd::cargo::cargo_bin("score4");
    Command::new("sh")
        .arg("-c")
        .arg(format!("{setup}; exec {} {args}", binary.display()))
        .output()
        .unwrap()
}

fn refused(output: &Output, limit: &str) -> String {
    let said = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains(limit), "{said}");
    assert!(said.contains("could be used"), "{said}");
    said
}

#[test]
fn a_table_larger_than_the_machine_is_refused_by_every_command() {
    let directory = tempfile::tempdir().unwrap();
    let store = directory.path().join("s.sqlite");
    let store = store.to_str().unwrap();
    for args in [
        "solve 0FC3484B7 --memory 64TiB".to_owned(),
        "analyze 0FC3 --tt-size 64TiB".to_owned(),
        "serve --memory 64TiB".to_owned(),
        format!("prove 0FC3484B7 --store {store} --memory 64TiB"),
        "bench --difficulty 40 --positions 5 --tt-size 64TiB".to_owned(),
    ] {
        let output = score4_after("true", &args);
        let said = refused(&output, "more than this machine's memory allows");
        assert!(said.contains(" TiB is more than"), "{args}: {said}");
    }
}

#[test]
fn a_table_larger_than_the_address_space_limit_is_refused() {
    let output = score4_after("ulimit -v 3000000", "solve 0FC3484B7 --memory 4GiB");
    refused(&output, "the address-space limit (ulimit -v)");
    // Within the limit, the same command runs.
    let output = score4_after(
        "ulimit -v 3000000",
        "solve 33876243E775270CBD9ACEFDB39E41E4085B81D564AF --memory 1GiB --threads 1",
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A control group with a memory limit of 1 GiB, if this machine lets one be made: its
/// directory and the file to join it by.
fn limited_group() -> Option<(std::path::PathBuf, &'static str)> {
    let name = format!("score4-test-{}", std::process::id());
    let v1 = std::path::Path::new("/sys/fs/cgroup/memory");
    if v1.is_dir() {
        let group = v1.join(&name);
        std::fs::create_dir(&group).ok()?;
        std::fs::write(
            group.join("memory.limit_in_bytes"),
            (1u64 << 30).to_string(),
        )
        .ok()?;
        return Some((group, "cgroup.procs"));
    }
    let group = std::path::Path::new("/sys/fs/cgroup").join(&name);
    std::fs::create_dir(&group).ok()?;
    if std::fs::write(group.join("memory.max"), (1u64 << 30).to_string()).is_err() {
        let _ = std::fs::remove_dir(&group);
        return None;
    }
    Some((group, "cgroup.procs"))
}

#[test]
fn a_table_larger_than_the_control_groups_limit_is_refused() {
    let Some((group, procs)) = limited_group() else {
        eprintln!("no control group with a memory limit can be made here (not root, or no memory controller): not tested");
        return;
    };
    let output = score4_after(
        &format!("echo $$ > {}", group.join(procs).display()),
        "solve 0FC3484B7 --memory 2GiB",
    );
    let _ = std::fs::remove_dir(&group);
    refused(&output, "the control group's memory limit");
}
