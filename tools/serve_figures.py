#!/usr/bin/env python3
"""Figures of `score4 serve` (docs/API.md, "Figures"), measured as a client on loopback.

    python3 tools/serve_figures.py URL latency SET [SET...]   # e.g. bench/positions/d36.txt
    python3 tools/serve_figures.py URL rate POSITION [POSITION...]

latency: for the first --count positions of each set, streams the analysis with --time and
prints the seconds (client side, request sent to event read) to the first value and to the
first analysis in which every column is exact; then the medians.
rate: --clients threads ask GET /api/analyze for the positions in turn for --seconds and print
the requests answered per second, and how many got 503.
Standard library only.
"""

import argparse
import http.client
import json
import statistics
import threading
import time
import urllib.parse


def connect(url):
    parts = urllib.parse.urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)


def stream(url, pos, seconds):
    """(seconds to the first event, seconds to all exact or None, events)."""
    connection = connect(url)
    started = time.monotonic()
    connection.request("GET", f"/api/analyze/stream?pos={pos}&time={seconds}")
    response = connection.getresponse()
    if response.status != 200:
        raise SystemExit(f"{pos}: HTTP {response.status}: {response.read()!r}")
    first = exact = None
    events = 0
    event = None
    while True:
        line = response.fp.readline()
        if not line:
            break
        line = line.decode().rstrip("\r\n")
        if line.startswith("event:"):
            event = line[6:].strip()
            if event == "done":
                break
        elif line.startswith("data:") and event == "analysis":
            now = time.monotonic() - started
            events += 1
            document = json.loads(line[5:])
            if first is None:
                first = now
            if exact is None and all(c["kind"] == "exact" for c in document["columns"]):
                exact = now
    connection.close()
    return first, exact, events


def latency(args):
    for path in args.items:
        positions = []
        with open(path) as lines:
            for line in lines:
                words = line.split()
                if words and not words[0].startswith("#"):
                    positions.append(words[0])
                if len(positions) == args.count:
                    break
        firsts, exacts = [], []
        for pos in positions:
            first, exact, events = stream(args.url, pos, args.time)
            firsts.append(first)
            exacts.append(exact)
            shown = "not within the time" if exact is None else f"{exact:.3f} s"
            print(f"{path} {pos}: first value {first:.3f} s, all exact {shown} ({events} events)")
        solved = sorted(e for e in exacts if e is not None)
        median_exact = (
            f"{statistics.median(solved):.3f} s over the {len(solved)} solved"
            if solved
            else "none"
        )
        print(
            f"{path}: {len(positions)} positions; median first value "
            f"{statistics.median(firsts):.3f} s; all exact within {args.time} s: "
            f"{len(solved)} of {len(positions)}; median time to exact {median_exact}"
        )


def rate(args):
    answered = [0] * args.clients
    refused = [0] * args.clients
    end = time.monotonic() + args.seconds

    def client(k):
        connection = connect(args.url)
        i = k
        while time.monotonic() < end:
            pos = args.items[i % len(args.items)]
            i += 1
            connection.request("GET", f"/api/analyze?pos={pos}&time={args.time}")
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                answered[k] += 1
            elif response.status == 503:
                refused[k] += 1
            else:
                raise SystemExit(f"{pos}: HTTP {response.status}")

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(args.clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    print(
        f"{args.clients} clients, {elapsed:.1f} s: {sum(answered)} answered "
        f"({sum(answered) / elapsed:.1f} per second), {sum(refused)} refused with 503"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("url")
    parser.add_argument("what", choices=["latency", "rate"])
    parser.add_argument("items", nargs="+")
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--time", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    (latency if args.what == "latency" else rate)(args)


if __name__ == "__main__":
    main()
