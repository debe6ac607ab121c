//! Helpers shared by the integration tests: run the binary, find fixtures, read outputs back
//! with independent readers, serve files over loopback HTTP.
#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_warcsift")
}

/// Run the binary; (success, stdout, stderr).
pub fn warcsift(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(bin())
        .args(args)
        .output()
        .expect("run warcsift");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn sample() -> PathBuf {
    root().join("samples/sample.warc.gz")
}

pub fn expected() -> Value {
    serde_json::from_str(&std::fs::read_to_string(root().join("samples/expected.json")).unwrap())
        .unwrap()
}

/// A file of `../shared/warc/`, or `None` with a message when the shared folder is absent.
pub fn shared_warc(name: &str) -> Option<PathBuf> {
    let p = root().join("../shared/warc").join(name);
    if p.exists() {
        Some(p)
    } else {
        eprintln!(
            "SKIP: {} is absent (the shared folder is not beside the repository)",
            p.display()
        );
        None
    }
}

pub fn stats(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("stats.json")).expect("stats.json"))
        .unwrap()
}

/// All JSONL records of the shards in `dir` (plain, .zst or .gz), in shard order.
pub fn read_jsonl(dir: &Path) -> Vec<Value> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            !n.starts_with('.')
                && (n.ends_with(".jsonl") || n.ends_with(".jsonl.zst") || n.ends_with(".jsonl.gz"))
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let n = f.to_string_lossy();
        let text = if n.ends_with(".zst") {
            zstd::decode_all(&bytes[..]).unwrap()
        } else if n.ends_with(".gz") {
            gunzip_all(&bytes)
        } else {
            bytes
        };
        for line in String::from_utf8(text).expect("JSONL is UTF-8").lines() {
            out.push(serde_json::from_str(line).expect("each line is a JSON object"));
        }
    }
    out
}

pub fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Decompress every gzip member.
pub fn gunzip_all(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// (start, end) byte ranges of the gzip members of a file.
pub fn gzip_members(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut members = Vec::new();
    let mut rest: &[u8] = bytes;
    while !rest.is_empty() {
        let start = bytes.len() - rest.len();
        let mut d = flate2::bufread::GzDecoder::new(&mut rest);
        let mut sink = Vec::new();
        if d.read_to_end(&mut sink).is_err() {
            break;
        }
        drop(d);
        members.push((start, bytes.len() - rest.len()));
    }
    members
}

/// Serve `body` on a loopback port for any GET, for as many requests as come (the thread
/// ends with the test process). Returns "127.0.0.1:PORT".
pub fn serve_file(body: Vec<u8>) -> String {
    serve(move |_| (String::from("200 OK"), body.clone()))
}

/// Answer every request with `status` and a short body.
pub fn serve_status(status: &'static str) -> String {
    serve(move |_| (status.to_string(), b"no such file".to_vec()))
}

fn serve(handler: impl Fn(&str) -> (String, Vec<u8>) + Send + 'static) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(64) {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            let _ = reader.read_line(&mut request_line);
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" || line == "\n" {
                    break;
                }
            }
            let path = request_line
                .split_whitespace()
                .nth(1)
                .unwrap_or("/")
                .to_string();
            let (status, body) = handler(&path);
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Length: {}\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    addr
}

/// Check a WET file with warcio through `tests/support/check_wet.py`. `None` (with a SKIP
/// message) when Python or warcio is missing, except under CI, where that is a failure.
pub fn python_check_wet(path: &Path) -> Option<Value> {
    let script = root().join("tests/support/check_wet.py");
    let o = Command::new("python3").arg(&script).arg(path).output();
    match o {
        Ok(o) if o.status.code() == Some(2) || o.status.code().is_none() => {
            let msg = String::from_utf8_lossy(&o.stderr).into_owned();
            if std::env::var_os("CI").is_some() {
                panic!("warcio is required under CI: {msg}");
            }
            eprintln!("SKIP: WET check with warcio not run: {msg}");
            None
        }
        Ok(o) => {
            let v: Value = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
            assert!(o.status.success(), "check_wet.py found problems: {v}");
            Some(v)
        }
        Err(e) => {
            if std::env::var_os("CI").is_some() {
                panic!("python3 is required under CI: {e}");
            }
            eprintln!("SKIP: python3 not available: {e}");
            None
        }
    }
}

/// How a run measured by [`run_peak_rss`] ended.
#[derive(Debug)]
pub struct Measured {
    /// Exit status 0.
    pub success: bool,
    /// Exit code, `None` when killed by a signal.
    pub code: Option<i32>,
    pub stderr: String,
    /// Peak resident set size of the warcsift process itself, bytes (`ru_maxrss` from
    /// `wait4` on its pid: exact, no sampling, and not mixed with other tests' children).
    pub peak_rss: u64,
    pub elapsed: std::time::Duration,
}

/// What feeds a measured run's stdin, on a thread of its own.
pub type Feed = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + Send>;

/// Runs the binary with `args` (stdout discarded, stderr kept in `dir/stderr-<n>.txt`) and
/// returns its exit status and peak RSS. With `feed`, stdin is a pipe that a thread fills by
/// calling it (a feed that fails because warcsift stopped reading is not an error here:
/// the exit status says what happened); without, stdin is empty.
pub fn run_peak_rss(args: &[&str], feed: Option<Feed>, dir: &Path) -> Measured {
    use std::process::Stdio;
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let stderr_path = dir.join(format!("stderr-{n}.txt"));
    let started = std::time::Instant::now();
    // Reaped below by wait4 (which also gives its rusage), not by Child::wait.
    #[allow(clippy::zombie_processes)]
    let mut child = Command::new(bin())
        .args(args)
        .stdin(if feed.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr_path).expect("stderr file"))
        .spawn()
        .expect("spawn warcsift");
    let writer = feed.map(|feed| {
        let stdin = child.stdin.take().expect("piped stdin");
        std::thread::spawn(move || {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, stdin);
            feed(&mut w).and_then(|()| w.flush())
        })
    });
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: plain syscall on our own child's pid with valid out-pointers.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            break;
        }
        let err = std::io::Error::last_os_error();
        assert_eq!(
            err.kind(),
            std::io::ErrorKind::Interrupted,
            "wait4 on warcsift failed: {err}"
        );
    }
    let elapsed = started.elapsed();
    if let Some(w) = writer {
        // BrokenPipe when warcsift exited early; its status reports that.
        let _ = w.join().expect("stdin writer thread panicked");
    }
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Measured {
        success: code == Some(0),
        code,
        stderr: std::fs::read_to_string(&stderr_path).unwrap_or_default(),
        // ru_maxrss is in KiB on Linux.
        peak_rss: usage.ru_maxrss as u64 * 1024,
        elapsed,
    }
}
