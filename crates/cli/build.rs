//! Records the commit the binary is built from (`SCORE4_COMMIT`), for the runs a store keeps.

fn main() {
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map(|commit| commit.trim().to_owned());
    if let Some(commit) = commit {
        println!("cargo:rustc-env=SCORE4_COMMIT=commit {commit}");
    }
    println!("cargo:rerun-if-changed=../../.git/HEAD");
    println!("cargo:rerun-if-changed=../../.git/refs/heads");
}
