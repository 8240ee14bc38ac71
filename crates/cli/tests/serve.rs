//! `score4 serve` as a real process on 127.0.0.1, spoken to over real TCP connections: the
//! analysis agrees with `score4 analyze`, bad requests get their JSON errors and statuses, the
//! stream refines and ends, a client that goes away frees its slot, Ctrl-C ends the server.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A 32-stone position every column of which `analyze` solves exactly within a second.
const EASY: &str = "A0F831EC4B738BA7F5BB8805623C0740";
/// A 24-stone position whose analysis takes far longer than the tests wait.
const HARD: &str = "AF68D6C793B885C852BDD5AA";

struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("score4"))
            .args(["serve", "--addr", "127.0.0.1:0", "--memory", "600MiB"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        let address = line
            .trim()
            .rsplit_once("http://")
            .expect("the server prints its address")
            .1
            .to_owned();
        Server { child, address }
    }

    /// A client of this server, for another thread.
    fn client(address: String) -> Client {
        Client { address }
    }

    fn get(&self, path: &str) -> (u16, String) {
        get_from(&self.address, path)
    }

    fn stream(&self, path: &str) -> BufReader<TcpStream> {
        stream_from(&self.address, path)
    }

    fn json(&self, path: &str) -> (u16, serde_json::Value) {
        let (status, body) = self.get(path);
        (status, serde_json::from_str(&body).expect("a JSON body"))
    }

    /// `GET path`: the response's head, lower-cased.
    fn headers(&self, path: &str) -> String {
        let response = response_from(&self.address, path);
        response.split_once("\r\n\r\n").unwrap().0.to_lowercase()
    }
}

/// A client of a server another thread owns.
struct Client {
    address: String,
}

impl Client {
    fn get(&self, path: &str) -> (u16, String) {
        get_from(&self.address, path)
    }

    fn stream(&self, path: &str) -> BufReader<TcpStream> {
        stream_from(&self.address, path)
    }
}

/// `GET path`: the whole response, head and body.
fn response_from(address: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    String::from_utf8_lossy(&response).into_owned()
}

/// `GET path`: the status and the body.
fn get_from(address: &str, path: &str) -> (u16, String) {
    let response = response_from(address, path);
    let status = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

/// `GET path` as HTTP/1.0 (no chunked framing), its response to be read line by line.
fn stream_from(address: &str, path: &str) -> BufReader<TcpStream> {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: x\r\n\r\n").unwrap();
    BufReader::new(stream)
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn an_analysis_is_the_one_score4_analyze_gives() {
    let server = Server::start(&[]);
    let (status, served) = server.json(&format!("/api/analyze?pos={EASY}&time=2"));
    assert_eq!(status, 200, "{served}");
    let said = common::stdout_of_success(common::score4().args([
        "analyze",
        EASY,
        "--time",
        "2s",
        "--json",
        "--tt-size",
        "600MiB",
    ]));
    let analyzed: serde_json::Value = serde_json::from_str(&said).unwrap();
    let columns = served["columns"].as_array().unwrap();
    let moves = analyzed["moves"].as_array().unwrap();
    assert_eq!(columns.len(), moves.len());
    for (column, entry) in columns.iter().zip(moves) {
        assert_eq!(column["column"], entry["column"]);
        assert_eq!(column["kind"], "exact", "{served}");
        assert_eq!(column["score"], entry["score"], "{served}");
    }
    assert_eq!(served["best"], analyzed["best"]);
    assert_eq!(served["mover"], "X");
    // The empty board is `pos=` or `pos=-`, and has 16 columns.
    let (status, empty) = server.json("/api/analyze?pos=-&time=0.1");
    assert_eq!(status, 200);
    assert_eq!(empty["columns"].as_array().unwrap().len(), 16);
}

#[test]
fn bad_requests_get_json_errors_with_their_status() {
    let server = Server::start(&["--max-analyses", "1"]);
    for (path, status, words) in [
        ("/api/analyze?pos=0FZ", 400, "not a column"),
        ("/api/analyze?pos=00000", 400, "full"),
        ("/api/analyze?pos=0415263", 400, "the game is over"),
        ("/api/analyze?pos=0&time=-1", 400, "at least 0.001"),
        ("/api/analyze?pos=0&time=soon", 400, "at least 0.001"),
        ("/api/analyze?pos=0&time=10e-40", 400, "at least 0.001"),
        ("/api/analyze?pos=0&colour=red", 400, "unknown parameter"),
    ] {
        let (got, body) = server.json(path);
        assert_eq!(got, status, "{path}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(error.contains(words), "{path}: {error}");
    }
    let long = format!("/api/analyze?pos={}", "0".repeat(300));
    let (got, body) = server.json(&long);
    assert_eq!(got, 413, "{body}");
    // One slot: while a long analysis holds it, another request gets 503.
    let busy = {
        let address = server.address.clone();
        std::thread::spawn(move || {
            let mut stream = TcpStream::connect(&address).unwrap();
            write!(
                stream,
                "GET /api/analyze?pos={HARD}&time=3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            .unwrap();
            let mut response = String::new();
            stream.read_to_string(&mut response).unwrap();
            response
        })
    };
    std::thread::sleep(Duration::from_millis(500));
    let (got, body) = server.json(&format!("/api/analyze?pos={EASY}"));
    assert_eq!(got, 503, "{body}");
    assert!(body["error"].as_str().unwrap().contains("busy"));
    assert!(busy.join().unwrap().starts_with("HTTP/1.1 200"));
    let (got, _) = server.json(&format!("/api/analyze?pos={EASY}&time=0.2"));
    assert_eq!(got, 200, "the slot is free again");
}

/// The `data:` lines of `analysis` events read from a stream until `done` or `limit` events.
fn read_events(reader: &mut impl BufRead, limit: usize) -> (Vec<serde_json::Value>, bool) {
    let (mut events, mut event) = (Vec::new(), String::new());
    let mut line = String::new();
    while events.len() < limit {
        line.clear();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        if let Some(name) = line.strip_prefix("event: ") {
            event = name.trim().to_owned();
            if event == "done" {
                return (events, true);
            }
        } else if let Some(data) = line.strip_prefix("data: ") {
            if event == "analysis" {
                events.push(serde_json::from_str(data.trim()).unwrap());
            }
        }
    }
    (events, false)
}

#[test]
fn the_stream_refines_and_a_client_that_leaves_frees_its_slot() {
    let server = Server::start(&["--max-analyses", "1"]);
    let mut reader = server.stream(&format!("/api/analyze/stream?pos={HARD}&time=1.5"));
    let (events, done) = read_events(&mut reader, 100);
    assert!(done, "no done event");
    assert!(events.len() >= 3, "{} events", events.len());
    let seconds: Vec<f64> = events
        .iter()
        .map(|e| e["seconds"].as_f64().unwrap())
        .collect();
    assert!(seconds.windows(2).all(|w| w[0] <= w[1]), "{seconds:?}");
    let legal = events[0]["columns"].as_array().unwrap().len();
    assert!(legal > 0);
    assert!(events
        .iter()
        .all(|e| e["columns"].as_array().unwrap().len() == legal));
    drop(reader);

    // A client that asks for 30 s and leaves in the middle of a step of 3.2 s frees its slot
    // at once: its analysis stops, it does not run the step out. (The slot of the stream above
    // is freed just after its last event.)
    std::thread::sleep(Duration::from_millis(300));
    let mut reader = server.stream(&format!("/api/analyze/stream?pos={HARD}&time=30"));
    let (events, _) = read_events(&mut reader, 6);
    assert_eq!(events.len(), 6);
    drop(reader);
    let left = Instant::now();
    loop {
        let (status, _) = server.get(&format!("/api/analyze?pos={EASY}&time=0.1"));
        if status == 200 {
            break;
        }
        assert_eq!(status, 503);
        assert!(
            left.elapsed() < Duration::from_millis(1500),
            "the slot stayed taken"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_page_and_its_files_are_served_from_the_binary() {
    let server = Server::start(&[]);
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(
        page.contains("<script type=\"module\" src=\"/app.js\">"),
        "{page}"
    );
    let headers = server.headers("/");
    assert!(headers.contains("content-type: text/html"), "{headers}");
    assert!(
        headers.contains("content-security-policy: default-src 'self'"),
        "{headers}"
    );
    let (status, script) = server.get("/app.js");
    assert_eq!(status, 200);
    assert!(script.len() > 100_000, "the bundle with three.js");
    assert!(
        script.contains("SPDX-License-Identifier: MIT"),
        "three.js's licence kept"
    );
    assert!(server
        .headers("/app.js")
        .contains("content-type: text/javascript"));
    let (status, licence) = server.get("/licenses.txt");
    assert_eq!(status, 200);
    assert!(licence.contains("MIT License"));
    assert_eq!(server.get("/style.css").0, 200);
    let (status, body) = server.json("/no/such/page");
    assert_eq!(status, 404);
    assert!(body["error"].as_str().unwrap().contains("no such"));
    // Without --store there is no proof run to show.
    let (status, body) = server.json("/api/proof");
    assert_eq!(status, 404);
    assert!(body["error"].as_str().unwrap().contains("--store"));
}

#[test]
fn a_proof_runs_store_is_shown_and_a_bad_one_refused_at_the_start() {
    let directory = tempfile::tempdir().unwrap();
    let store = directory.path().join("A.sqlite");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proofs/0FC3484B7A.sqlite"),
        &store,
    )
    .unwrap();
    let server = Server::start(&["--store", store.to_str().unwrap()]);
    let (status, proof) = server.json("/api/proof");
    assert_eq!(status, 200, "{proof}");
    let root = &proof["roots"][0];
    assert_eq!(root["position"], "0FC3484B7A");
    assert_eq!(root["value"], 1, "reply A is a first-player win");
    let nine = root["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["column"] == "9")
        .unwrap();
    assert_eq!(nine["status"], "proven");
    assert!(proof["nodes"].as_u64().unwrap() > 1_000_000_000);

    for (option, file) in [("--store", "no-such.sqlite"), ("--book", "no-such.sqlite")] {
        let missing = directory.path().join(file);
        let output = common::score4()
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--memory",
                "600MiB",
                option,
            ])
            .arg(&missing)
            .output()
            .unwrap();
        assert!(!output.status.success(), "{option} of a missing file");
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(
            said.contains(option) && said.contains("no-such.sqlite"),
            "{said}"
        );
    }
}

/// The server's resident memory (kB), from /proc.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[test]
fn many_clients_at_once_get_answers_or_503_and_memory_stays_bounded() {
    let server = Server::start(&["--max-analyses", "2"]);
    let address = server.address.clone();
    const CLIENTS: usize = 48;
    const REQUESTS: usize = 12;
    let clients: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let address = address.clone();
            std::thread::spawn(move || {
                let server = Server::client(address);
                let mut seen = Vec::new();
                for request in 0..REQUESTS {
                    let kind = (client + request) % 4;
                    let status = match kind {
                        0 => server.get("/").0,
                        1 => server.get("/api/health").0,
                        2 => server.get(&format!("/api/analyze?pos={EASY}&time=0.05")).0,
                        _ => {
                            let mut reader =
                                server.stream(&format!("/api/analyze/stream?pos={HARD}&time=0.2"));
                            let mut head = String::new();
                            reader.read_line(&mut head).unwrap();
                            let status: u16 = head[9..12].parse().unwrap();
                            if status == 200 {
                                assert!(read_events(&mut reader, 100).1, "the stream ends");
                            }
                            status
                        }
                    };
                    seen.push((kind, status));
                }
                seen
            })
        })
        .collect();
    let mut answered = [0usize; 4];
    let mut refused = [0usize; 4];
    for client in clients {
        for (kind, status) in client.join().unwrap() {
            match status {
                200 => answered[kind] += 1,
                503 if kind >= 2 => refused[kind] += 1,
                other => panic!("request kind {kind} got status {other}"),
            }
        }
    }
    eprintln!("answered {answered:?}, refused {refused:?} (page, health, analysis, stream)");
    assert_eq!(
        answered[0] + answered[1],
        CLIENTS * REQUESTS / 2,
        "pages never wait"
    );
    assert!(
        answered[2] > 0 && answered[3] > 0,
        "{answered:?} {refused:?}"
    );
    // The table (600 MiB) and the rest: nothing grows with the clients.
    let resident = resident_kib(server.child.id());
    eprintln!("{resident} kB resident");
    assert!(
        resident < (600 + 200) * 1024,
        "{resident} kB resident after {} requests",
        CLIENTS * REQUESTS
    );
    assert_eq!(server.get("/api/health"), (200, "ok".to_owned()));
}

#[test]
fn ctrl_c_stops_the_server_with_exit_130_answering_what_is_under_way() {
    let mut server = Server::start(&[]);
    assert_eq!(server.get("/api/health"), (200, "ok".to_owned()));
    // A stream of 30 s and a plain analysis of 30 s are under way when the signal comes.
    let mut reader = server.stream(&format!("/api/analyze/stream?pos={HARD}&time=30"));
    let (events, _) = read_events(&mut reader, 2);
    assert_eq!(events.len(), 2);
    let plain = {
        let address = server.address.clone();
        std::thread::spawn(move || get_from(&address, &format!("/api/analyze?pos={HARD}&time=30")))
    };
    std::thread::sleep(Duration::from_millis(500));
    let sent = Command::new("kill")
        .args(["-INT", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed() < Duration::from_secs(3), "still serving");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(130));
    // Both were answered with what they had: the stream's last step and its end, the plain
    // request's analysis.
    let (_, done) = read_events(&mut reader, 100);
    assert!(done, "the stream ends with done");
    let (code, body) = plain.join().unwrap();
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("\"columns\""), "{body}");
}
