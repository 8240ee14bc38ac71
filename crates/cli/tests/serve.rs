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

    /// `GET path`: the status and the body.
    fn get(&self, path: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.address
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response[9..12].parse().unwrap();
        let body = response.split_once("\r\n\r\n").unwrap().1.to_owned();
        (status, body)
    }

    /// `GET path` as HTTP/1.0 (no chunked framing), its response to be read line by line.
    fn stream(&self, path: &str) -> BufReader<TcpStream> {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        write!(stream, "GET {path} HTTP/1.0\r\nHost: x\r\n\r\n").unwrap();
        BufReader::new(stream)
    }

    fn json(&self, path: &str) -> (u16, serde_json::Value) {
        let (status, body) = self.get(path);
        (status, serde_json::from_str(&body).expect("a JSON body"))
    }
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
        ("/api/analyze?pos=0&time=-1", 400, "positive number"),
        ("/api/analyze?pos=0&time=soon", 400, "positive number"),
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

    // A client that asks for 30 s and leaves after the first event frees its slot soon. (The
    // slot of the stream above is freed just after its last event.)
    std::thread::sleep(Duration::from_millis(300));
    let mut reader = server.stream(&format!("/api/analyze/stream?pos={HARD}&time=30"));
    let (events, _) = read_events(&mut reader, 1);
    assert_eq!(events.len(), 1);
    drop(reader);
    let left = Instant::now();
    loop {
        let (status, _) = server.get(&format!("/api/analyze?pos={EASY}&time=0.1"));
        if status == 200 {
            break;
        }
        assert_eq!(status, 503);
        assert!(
            left.elapsed() < Duration::from_secs(10),
            "the slot stayed taken"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn ctrl_c_stops_the_server_with_exit_130() {
    let mut server = Server::start(&[]);
    assert_eq!(server.get("/api/health"), (200, "ok".to_owned()));
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
        assert!(started.elapsed() < Duration::from_secs(5), "still serving");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(130));
}
