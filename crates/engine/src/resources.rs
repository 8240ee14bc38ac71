//! What the machine offers — physical cores and free memory — and how a memory budget is
//! split between the table and the parallel solver's tree.

/// Physical cores: one worker each by default (the report found hyper-threads slow its
/// solver down: two searches on one core share its caches and its table bandwidth).
pub fn physical_cores() -> usize {
    num_cpus::get_physical().max(1)
}

/// Memory the system can give without swapping (Linux: `MemAvailable` of /proc/meminfo), if
/// known.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text
        .lines()
        .find(|line| line.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The most a solve should take of this machine (`score4 solve --memory all`): three quarters
/// of the available memory, leaving the rest (at least 1 GiB) to the operating system and
/// other programs; 2 GiB when the available memory is unknown.
pub fn machine_memory() -> u64 {
    const GIB: u64 = 1 << 30;
    match available_memory() {
        Some(available) => (available / 4 * 3)
            .min(available.saturating_sub(GIB))
            .max(GIB / 4),
        None => 2 * GIB,
    }
}

/// How a memory budget is split: `(table, tree)` bytes. The tree of the parallel solver gets
/// an eighth (the report's run held a 13-ply tree under 19 GB next to a 45 GB table; the
/// cutoff here deepens only as far as workers need, so the tree stays far smaller); a single
/// worker needs no tree and the table gets everything.
pub fn split_memory(budget: u64, threads: usize) -> (u64, u64) {
    if threads <= 1 {
        (budget, 0)
    } else {
        let tree = budget / 8;
        (budget - tree, tree)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_worker_gives_the_table_everything_and_more_give_the_tree_an_eighth() {
        assert_eq!(split_memory(1 << 30, 1), (1 << 30, 0));
        assert_eq!(split_memory(8 << 30, 2), (7 << 30, 1 << 30));
        assert!(physical_cores() >= 1);
        assert!(machine_memory() >= 1 << 28);
    }
}
