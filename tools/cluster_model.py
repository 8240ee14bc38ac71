#!/usr/bin/env python3
"""A discrete-event model of `score4 prove` on a cluster (docs/CLUSTER.md, "Scaling model").

Usage: python3 tools/cluster_model.py [--seed N] [--hours H] STORE.sqlite...

The job durations are the measured ones: every position of the given stores of real proof runs
is one job, searched for its `seconds` (a split position ran to its checkpoint). The model
draws jobs from them, with replacement, and plays a run of H hours of simulated time on N
worker threads for N in 28, 1,000 and 10,000:

- a worker that ends a job asks rank 0 for the next; rank 0 serves the requests one at a time,
  each taking MANAGER_SECONDS_PER_JOB (its share of the tree's lock and the messages);
- each worker thread of the cluster costs rank 0 one thread that polls for its answer every
  POLL_SECONDS, each poll taking PROBE_SECONDS of rank 0's cores (RANK0_CORES of them): when
  the polls need more than those cores, every service of rank 0 slows down in proportion;
- rank 0 commits the settled positions once a second, each record taking STORE_SECONDS; a
  store that needs more than a second a second falls behind (store-bound);
- a rank does not share its table with the others: every job costs TABLE_OVERHEAD times its
  measured time (the nodes of 2 ranks x 1 thread over 1 process of 2 threads, measured);
- a job's message and its answer keep the worker idle LATENCY_SECONDS (rank 0 polls for the
  answer every POLL_SECONDS: half of that on average, and the messages' own time).

Not modelled: the end of a proof (the last jobs, fewer than the workers), work on jobs the
tree cancels (as on one machine), and the tree's growth from one job at the start (an idle
worker has the longest job split after 0.2 s: about log16(N) x 0.2 s, a second at 10,000).

It prints, for each N, the efficiency (useful worker time over N x wall time), the load of
rank 0's serving, polling and store, and what bounds the run. Standard library only.
"""

import heapq
import random
import sqlite3
import sys

# Measured on the 2-core VM (docs/CLUSTER.md, "Measured inputs"); change them for a cluster.
MANAGER_SECONDS_PER_JOB = 40e-6
POLL_SECONDS = 0.5e-3
PROBE_SECONDS = 0.5e-6
RANK0_CORES = 28
STORE_SECONDS = 3.4e-6
TABLE_OVERHEAD = 1.245
LATENCY_SECONDS = 0.3e-3


def durations(paths):
    """The seconds of every position of the stores: one job each."""
    seconds = []
    for path in paths:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            seconds += [s for (s,) in db.execute("SELECT seconds FROM positions") if s > 0]
    if not seconds:
        sys.exit("no positions with a duration in the stores")
    return seconds


def simulate(workers, jobs, hours, rng):
    """One run of `hours` on `workers` threads: (efficiency, manager load, poll load, store load)."""
    horizon = hours * 3600.0
    # Rank 0's cores spent polling, per second of wall time; beyond its cores it slows down.
    polling = workers / POLL_SECONDS * PROBE_SECONDS
    slowdown = max(1.0, polling / RANK0_CORES)
    service = MANAGER_SECONDS_PER_JOB * slowdown
    manager_free = 0.0
    busy = 0.0
    served = 0
    events = [(0.0, w) for w in range(workers)]  # (time the worker is idle, worker)
    heapq.heapify(events)
    while events:
        idle, worker = heapq.heappop(events)
        if idle >= horizon:
            continue
        start = max(idle, manager_free) + service
        manager_free = start
        served += 1
        duration = rng.choice(jobs) * TABLE_OVERHEAD
        end = start + LATENCY_SECONDS + duration
        # Useful work is the job's measured time, without the overhead of a table per rank.
        busy += (min(end, horizon) - min(start + LATENCY_SECONDS, horizon)) / TABLE_OVERHEAD
        heapq.heappush(events, (end, worker))
    manager_load = served * service / horizon
    store_load = served * STORE_SECONDS / horizon
    return busy / (workers * horizon), manager_load, polling / RANK0_CORES, store_load


def main(argv):
    seed, hours, paths = 1, 2.0, []
    args = iter(argv)
    for arg in args:
        if arg == "--seed":
            seed = int(next(args))
        elif arg == "--hours":
            hours = float(next(args))
        else:
            paths.append(arg)
    if not paths:
        sys.exit(__doc__)
    jobs = durations(paths)
    jobs_sorted = sorted(jobs)
    mean = sum(jobs) / len(jobs)
    print(f"{len(jobs)} jobs from {len(paths)} stores: mean {mean:.3f} s, median "
          f"{jobs_sorted[len(jobs) // 2]:.3g} s, largest {jobs_sorted[-1]:.1f} s")
    # The measured jobs, then the same jobs 100 and 1,000 times shorter: what a proof of
    # smaller jobs (a shorter checkpoint, an easier position) asks of rank 0.
    print("job scale  workers  efficiency  rank-0 serving  rank-0 polling  store  bound by")
    for scale in (1.0, 0.01, 0.001):
        scaled = [seconds * scale for seconds in jobs]
        for workers in (28, 1000, 10000):
            rng = random.Random(seed)
            efficiency, manager, polling, store = simulate(workers, scaled, hours * scale, rng)
            loads = {"rank 0 (serving)": manager, "rank 0 (polling)": polling, "store": store}
            bound = max(loads, key=loads.get)
            bound = bound if loads[bound] >= 0.9 else "the workers (a table per rank)"
            print(f"{scale:9g}  {workers:7d}  {efficiency:10.2f}  {manager:14.2f}  "
                  f"{polling:14.2f}  {store:5.2f}  {bound}")


if __name__ == "__main__":
    main(sys.argv[1:])
