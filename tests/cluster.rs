//! A crawl as a batch job: manifests, task slices, per-task files, `merge-stats`, and the
//! acceptance test on a real single-node Slurm cluster started on loopback by the test itself
//! (`slurm_job_array_with_cancel_and_resume`).
//!
//! The Slurm test installs nothing: `.ci/run` installs Debian's `slurm-wlm` and `munge`. When
//! the machine cannot run Slurm it prints `SLURM UNAVAILABLE: <reason>` and passes, except
//! under `CI` with `WARCSIFT_REQUIRE_SLURM=1`, where it fails.

mod support;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::*;

/// Split the sample's gzip members into `parts` WARC files laid out as in Common Crawl
/// (`crawl-data/<crawl>/segments/<segment>/warc/<file>`) under `root`; returns the manifest
/// lines, relative to `root`. The first part (three pages) is listed fifth, so that with four
/// tasks it is task 0's second input: the Slurm test cancels task 0 in the middle of it.
fn make_crawl(root: &Path, parts: usize) -> Vec<String> {
    let gz = std::fs::read(sample()).unwrap();
    let members = gzip_members(&gz);
    let per = members.len().div_ceil(parts);
    let mut lines: Vec<String> = members
        .chunks(per)
        .enumerate()
        .map(|(i, chunk)| {
            // Two segments, and the same file name in both: stems must still differ.
            let line = format!(
                "crawl-data/CC-TEST-2024-10/segments/17000000{}.{}/warc/CC-TEST-0000{}.warc.gz",
                i % 2,
                i % 2,
                i / 2
            );
            let path = root.join(&line);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &gz[chunk[0].0..chunk[chunk.len() - 1].1]).unwrap();
            line
        })
        .collect();
    let first = lines.remove(0);
    lines.insert(4.min(lines.len()), first);
    lines
}

/// Write `lines` as a gzip manifest (the way Common Crawl ships warc.paths.gz).
fn write_manifest(path: &Path, lines: &[String]) {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    writeln!(e, "# test crawl").unwrap();
    for l in lines {
        writeln!(e, "{l}").unwrap();
    }
    std::fs::write(path, e.finish().unwrap()).unwrap();
}

/// Options shared by every run of a test, so outputs compare byte for byte.
const RUN_OPTS: [&str; 6] = ["-a", "plain", "--compress", "none", "--shard-size", "500"];

/// Final shard files, name → bytes.
fn final_shards(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n.ends_with(".jsonl") && !n.starts_with("errors"))
        .map(|n| {
            let bytes = std::fs::read(dir.join(&n)).unwrap();
            (n, bytes)
        })
        .collect()
}

/// (id, text) of every page, asserting that no id appears twice.
fn pages(dir: &Path) -> BTreeSet<(String, String)> {
    let mut ids = BTreeSet::new();
    let mut out = BTreeSet::new();
    for v in read_jsonl(dir) {
        let id = v["id"].as_str().unwrap().to_string();
        assert!(ids.insert(id.clone()), "page {id} written twice");
        out.insert((id, v["text"].as_str().unwrap().to_string()));
    }
    out
}

fn json(path: &Path) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap()
}

/// A crawl of 6 files, its manifest, and the output of one process over all of it.
struct Crawl {
    dir: tempfile::TempDir,
    lines: Vec<String>,
    manifest: PathBuf,
    reference: PathBuf,
}

impl Crawl {
    fn new() -> Crawl {
        let dir = tempdir();
        let data = dir.path().join("data");
        let lines = make_crawl(&data, 6);
        let manifest = dir.path().join("warc.paths.gz");
        write_manifest(&manifest, &lines);
        let reference = dir.path().join("reference");
        let crawl = Crawl {
            dir,
            lines,
            manifest,
            reference,
        };
        let (ok, err) = crawl.extract(&crawl.reference, &["-q"], &[]);
        assert!(ok, "{err}");
        assert_eq!(pages(&crawl.reference).len(), 14);
        crawl
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// Run `extract` over the crawl, with the scheduler variables of this process (a test run
    /// inside a job array) removed and `env` set instead.
    fn extract(&self, out: &Path, extra: &[&str], env: &[(&str, &str)]) -> (bool, String) {
        let mut cmd = Command::new(bin());
        cmd.args(["extract", "--manifest"])
            .arg(&self.manifest)
            .arg("--prefix")
            .arg(self.data())
            .arg("-o")
            .arg(out)
            .args(RUN_OPTS)
            .args(extra);
        for k in [
            "SLURM_ARRAY_TASK_ID",
            "SLURM_ARRAY_TASK_MIN",
            "SLURM_ARRAY_TASK_MAX",
            "SLURM_ARRAY_TASK_COUNT",
            "SLURM_ARRAY_TASK_STEP",
            "JOB_COMPLETION_INDEX",
            "AWS_BATCH_JOB_ARRAY_INDEX",
        ] {
            cmd.env_remove(k);
        }
        cmd.envs(env.iter().copied());
        let o = cmd.output().unwrap();
        (
            o.status.success(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }

    /// The union of `out` equals the single-process run: same pages, same shards.
    fn assert_same_as_reference(&self, out: &Path) {
        assert_eq!(pages(out), pages(&self.reference), "pages differ");
        assert_eq!(
            final_shards(out),
            final_shards(&self.reference),
            "shards differ"
        );
    }
}

#[test]
fn task_slices_together_equal_one_run() {
    let crawl = Crawl::new();
    let out = crawl.dir.path().join("tasks");
    for i in 0..4 {
        let (ok, err) = crawl.extract(
            &out,
            &["--task-index", &i.to_string(), "--task-count", "4"],
            &[],
        );
        assert!(ok, "task {i}: {err}");
        assert!(err.contains(&format!("task {i} of 4")), "{err}");
    }
    crawl.assert_same_as_reference(&out);
    // Per-task summaries, no shared one; task I took inputs I and I+4.
    assert!(!out.join("stats.json").exists());
    for (i, n) in [(0, 2), (1, 2), (2, 1), (3, 1)] {
        let s = json(&out.join(format!("stats-task-000{i}.json")));
        assert_eq!(s["inputs"], n, "task {i}");
        assert!(out.join(format!("errors-task-000{i}.jsonl")).exists());
    }
    // merge-stats adds the markers up to the single run's counts.
    let (ok, stdout, err) = warcsift(&[
        "merge-stats",
        out.to_str().unwrap(),
        "--manifest",
        crawl.manifest.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        stdout.contains("every input of the manifest is done"),
        "{stdout}"
    );
    let merged = json(&out.join("stats-merged.json"));
    let single = json(&crawl.reference.join("stats.json"));
    for k in [
        "inputs",
        "records_read",
        "extracted",
        "skipped",
        "shards",
        "bytes_out",
    ] {
        assert_eq!(merged["stats"][k], single[k], "{k}");
    }
    assert_eq!(merged["inputs_missing"], 0);
    assert_eq!(merged["done"].as_array().unwrap().len(), 6);
}

#[test]
fn scheduler_environments_choose_the_task() {
    let crawl = Crawl::new();
    let out = crawl.dir.path().join("env");
    // Slurm: ids 1..4, this is id 3 → index 2 of 4.
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "3"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "4"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    let (ok, err) = crawl.extract(&out, &[], &slurm);
    assert!(ok, "{err}");
    assert_eq!(json(&out.join("stats-task-0002.json"))["inputs"], 1);
    // Explicit flags win.
    let (ok, err) = crawl.extract(&out, &["--task-index", "0", "--task-count", "2"], &slurm);
    assert!(ok, "{err}");
    assert_eq!(json(&out.join("stats-task-0000.json"))["inputs"], 3);
    // Kubernetes and AWS Batch give only the index.
    let (ok, err) = crawl.extract(&out, &[], &[("JOB_COMPLETION_INDEX", "1")]);
    assert!(!ok);
    assert!(
        err.contains("JOB_COMPLETION_INDEX is set") && err.contains("--task-count"),
        "{err}"
    );
    let (ok, err) = crawl.extract(
        &out,
        &["--task-count", "6"],
        &[("AWS_BATCH_JOB_ARRAY_INDEX", "5")],
    );
    assert!(ok, "{err}");
    assert_eq!(json(&out.join("stats-task-0005.json"))["inputs"], 1);
    // Inconsistent values are sentences.
    let (ok, err) = crawl.extract(&out, &["--task-index", "4", "--task-count", "4"], &[]);
    assert!(!ok);
    assert!(
        err.contains("the task index 4 is not below the task count 4"),
        "{err}"
    );
    let (ok, err) = crawl.extract(&out, &["--task-index", "0", "--task-count", "0"], &[]);
    assert!(!ok && err.contains("the task count is 0"), "{err}");
}

#[test]
fn manifest_lines_never_write_outside_the_output_folder() {
    let dir = tempdir();
    let data = dir.path().join("data");
    let weird = [
        "sp ace/ü?x=1&y#z.warc.gz",
        "a/..hidden.warc.gz",
        "/abs/leading-slash.warc.gz",
        "CON.warc.gz",
    ];
    let gz = std::fs::read(sample()).unwrap();
    let mut lines = Vec::new();
    for w in weird {
        let p = data.join(w.trim_start_matches('/'));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, &gz).unwrap();
        lines.push(w.to_string());
    }
    let manifest = dir.path().join("paths.txt");
    std::fs::write(&manifest, lines.join("\n")).unwrap();
    let out = dir.path().join("out");
    let (ok, _, err) = warcsift(&[
        "extract",
        "--manifest",
        manifest.to_str().unwrap(),
        "--prefix",
        data.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(ok, "{err}");
    // Everything written is directly in out/ or in its two fixed subfolders.
    let mut written = Vec::new();
    for entry in walk(dir.path()) {
        let rel = entry.strip_prefix(dir.path()).unwrap();
        if rel.starts_with("data") || rel == Path::new("paths.txt") {
            continue;
        }
        written.push(rel.to_path_buf());
    }
    for rel in &written {
        let parts: Vec<_> = rel.components().collect();
        assert!(
            parts.len() == 2
                || (parts.len() == 3
                    && (rel.starts_with("out/_done") || rel.starts_with("out/_errors"))),
            "{} written outside the output folder's layout",
            rel.display()
        );
        assert!(rel.starts_with("out"), "{}", rel.display());
    }
    assert_eq!(
        std::fs::read_dir(out.join("_done")).unwrap().count(),
        weird.len()
    );
    // A line climbing out with `..` is refused before anything runs.
    std::fs::write(&manifest, "ok.warc.gz\n../../etc/passwd\n").unwrap();
    let (ok, _, err) = warcsift(&[
        "extract",
        "--manifest",
        manifest.to_str().unwrap(),
        "-o",
        dir.path().join("out2").to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        err.contains("line 2 of the manifest") && err.contains("`..`"),
        "{err}"
    );
    assert!(!dir.path().join("out2").exists());
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn merge_stats_lists_the_inputs_not_done() {
    let crawl = Crawl::new();
    let out = crawl.dir.path().join("half");
    let (ok, err) = crawl.extract(&out, &["--task-index", "1", "--task-count", "2"], &[]);
    assert!(ok, "{err}");
    let (ok, stdout, err) = warcsift(&[
        "merge-stats",
        out.to_str().unwrap(),
        "--manifest",
        crawl.manifest.to_str().unwrap(),
    ]);
    assert!(!ok, "missing inputs make the exit status non-zero");
    assert!(
        err.contains("3 of the manifest's 6 inputs are not done yet"),
        "{err}"
    );
    assert!(
        stdout.contains("3 inputs of the manifest are missing"),
        "{stdout}"
    );
    let merged = json(&out.join("stats-merged.json"));
    let missing: Vec<&str> = merged["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let want: Vec<&str> = crawl.lines.iter().step_by(2).map(String::as_str).collect();
    assert_eq!(missing, want, "task 0's inputs: 0, 2, 4");
    assert_eq!(merged["inputs_done"], 3);
}

// ------------------------------------------------------------------ the Slurm acceptance test

/// Say that Slurm cannot run here: a plain line (written past the test harness's capture, so
/// it shows in CI logs), or a failure when CI requires Slurm.
fn unavailable(reason: &str) {
    let required = std::env::var_os("CI").is_some()
        && std::env::var("WARCSIFT_REQUIRE_SLURM").as_deref() == Ok("1");
    if required {
        panic!("SLURM UNAVAILABLE: {reason} (CI with WARCSIFT_REQUIRE_SLURM=1 requires it)");
    }
    let _ = writeln!(std::io::stderr(), "SLURM UNAVAILABLE: {reason}");
}

/// A single-node Slurm cluster on loopback, with its own munged; stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
    conf: PathBuf,
    daemons: Vec<(&'static str, Child)>,
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .chain(["/usr/sbin".into(), "/sbin".into()])
            .map(|d| d.join(program))
            .find(|p| p.is_file())
    })
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Cluster {
    fn start() -> Result<Cluster, String> {
        use std::os::unix::fs::PermissionsExt;
        let mut bins = BTreeMap::new();
        for b in [
            "sbatch",
            "squeue",
            "scontrol",
            "scancel",
            "sinfo",
            "slurmctld",
            "slurmd",
            "munged",
        ] {
            let path = which(b).ok_or_else(|| {
                format!("`{b}` is not installed (Debian: apt-get install slurm-wlm munge)")
            })?;
            bins.insert(b, path);
        }
        let dir = tempdir();
        let d = dir.path();
        // munged insists: socket folder (and its parents) searchable by all, key readable by
        // its owner only.
        let perm =
            |p: &Path, mode| std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode));
        for sub in ["key", "run", "state", "spool", "log"] {
            std::fs::create_dir(d.join(sub)).map_err(|e| e.to_string())?;
        }
        perm(d, 0o755).map_err(|e| e.to_string())?;
        perm(&d.join("run"), 0o755).map_err(|e| e.to_string())?;
        perm(&d.join("key"), 0o700).map_err(|e| e.to_string())?;
        let mut key = vec![0u8; 1024];
        std::fs::File::open("/dev/urandom")
            .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut key))
            .map_err(|e| format!("cannot read /dev/urandom for a munge key: {e}"))?;
        let key_path = d.join("key/munge.key");
        std::fs::write(&key_path, key).map_err(|e| e.to_string())?;
        perm(&key_path, 0o400).map_err(|e| e.to_string())?;
        let socket = d.join("run/munge.sock");
        let cpus = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(2);
        let conf = d.join("slurm.conf");
        let (ctl_port, slurmd_port) = (free_port(), free_port());
        let p = |s: &str| d.join(s).display().to_string();
        std::fs::write(
            &conf,
            format!(
                "ClusterName=warcsifttest\n\
                 SlurmctldHost=localhost\n\
                 SlurmctldPort={ctl_port}\n\
                 SlurmdPort={slurmd_port}\n\
                 AuthType=auth/munge\n\
                 CredType=cred/munge\n\
                 AuthInfo=socket={socket}\n\
                 MpiDefault=none\n\
                 ProctrackType=proctrack/linuxproc\n\
                 TaskPlugin=task/none\n\
                 SelectType=select/cons_tres\n\
                 SelectTypeParameters=CR_CPU\n\
                 ReturnToService=2\n\
                 SlurmUser=root\n\
                 SlurmdUser=root\n\
                 StateSaveLocation={state}\n\
                 SlurmdSpoolDir={spool}\n\
                 SlurmctldPidFile={run}/slurmctld.pid\n\
                 SlurmdPidFile={run}/slurmd.pid\n\
                 SlurmctldLogFile={log}/slurmctld.log\n\
                 SlurmdLogFile={log}/slurmd.log\n\
                 JobAcctGatherType=jobacct_gather/none\n\
                 AccountingStorageType=accounting_storage/none\n\
                 JobCompType=jobcomp/none\n\
                 SchedulerType=sched/builtin\n\
                 InactiveLimit=0\n\
                 MinJobAge=600\n\
                 KillWait=5\n\
                 Waittime=0\n\
                 NodeName=localhost NodeAddr=127.0.0.1 CPUs={cpus} RealMemory=1000 State=UNKNOWN\n\
                 PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP\n",
                socket = socket.display(),
                state = p("state"),
                spool = p("spool"),
                run = p("run"),
                log = p("log"),
            ),
        )
        .map_err(|e| e.to_string())?;
        let mut cluster = Cluster {
            dir,
            conf,
            daemons: Vec::new(),
        };
        let d = cluster.dir.path().to_path_buf();
        let log = |name: &str| {
            std::fs::File::create(d.join("log").join(name))
                .map(Stdio::from)
                .unwrap_or_else(|_| Stdio::null())
        };
        let munged = Command::new(&bins["munged"])
            .arg("-F")
            .arg(format!("--key-file={}", key_path.display()))
            .arg(format!("--socket={}", socket.display()))
            .arg(format!("--pid-file={}", d.join("run/munged.pid").display()))
            .arg(format!("--log-file={}", d.join("log/munged.log").display()))
            .arg(format!(
                "--seed-file={}",
                d.join("run/munged.seed").display()
            ))
            .stdout(log("munged.out"))
            .stderr(log("munged.err"))
            .spawn()
            .map_err(|e| format!("cannot start munged: {e}"))?;
        cluster.daemons.push(("munged", munged));
        cluster.wait_for(Duration::from_secs(10), "munged's socket", |_| {
            socket.exists()
        })?;
        let ctld = Command::new(&bins["slurmctld"])
            .args(["-D", "-i", "-f"])
            .arg(&cluster.conf)
            .env("SLURM_CONF", &cluster.conf)
            .stdout(log("slurmctld.out"))
            .stderr(log("slurmctld.err"))
            .spawn()
            .map_err(|e| format!("cannot start slurmctld: {e}"))?;
        cluster.daemons.push(("slurmctld", ctld));
        cluster.wait_for(Duration::from_secs(30), "slurmctld to answer", |c| {
            c.slurm("scontrol", &["ping"])
                .is_ok_and(|out| out.contains("UP"))
        })?;
        let slurmd = Command::new(&bins["slurmd"])
            .args(["-D", "-N", "localhost", "-f"])
            .arg(&cluster.conf)
            .env("SLURM_CONF", &cluster.conf)
            .stdout(log("slurmd.out"))
            .stderr(log("slurmd.err"))
            .spawn()
            .map_err(|e| format!("cannot start slurmd: {e}"))?;
        cluster.daemons.push(("slurmd", slurmd));
        cluster.wait_for(Duration::from_secs(60), "the node to be idle", |c| {
            c.slurm("sinfo", &["-h", "-o", "%t"])
                .is_ok_and(|out| out.trim() == "idle")
        })?;
        Ok(cluster)
    }

    /// Poll `ready` every 200 ms until `limit`; on timeout, the reason with the daemons' logs.
    fn wait_for(
        &mut self,
        limit: Duration,
        what: &str,
        ready: impl Fn(&Cluster) -> bool,
    ) -> Result<(), String> {
        let started = Instant::now();
        while started.elapsed() < limit {
            if ready(self) {
                return Ok(());
            }
            for (name, child) in &mut self.daemons {
                if let Ok(Some(status)) = child.try_wait() {
                    return Err(format!(
                        "{name} exited ({status}) while waiting for {what}{}",
                        self_logs(self.dir.path())
                    ));
                }
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        Err(format!(
            "timed out after {limit:?} waiting for {what}{}",
            self_logs(self.dir.path())
        ))
    }

    /// Run a Slurm client against this cluster; `Err` with its stderr when it fails.
    fn slurm(&self, program: &str, args: &[&str]) -> Result<String, String> {
        let o = Command::new(program)
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .output()
            .map_err(|e| format!("{program}: {e}"))?;
        if o.status.success() {
            Ok(String::from_utf8_lossy(&o.stdout).into_owned())
        } else {
            Err(format!(
                "{program} {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&o.stderr).trim()
            ))
        }
    }

    /// Submit the job array script; returns the array's job id.
    fn submit(&self, tasks: usize, env: &[(&str, String)], log_dir: &Path) -> String {
        let script = root().join("ops/slurm/warcsift-array.sbatch");
        let mut cmd = Command::new("sbatch");
        cmd.env("SLURM_CONF", &self.conf)
            .arg("--parsable")
            .arg(format!("--array=0-{}", tasks - 1))
            // The script asks for a real node's resources; this one is small.
            .args(["--cpus-per-task=1", "--mem=100M", "--time=30"])
            .arg(format!("--output={}/slurm-%A_%a.out", log_dir.display()))
            .arg(format!("--chdir={}", log_dir.display()))
            .arg(&script);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let o = cmd.output().expect("run sbatch");
        assert!(
            o.status.success(),
            "sbatch failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let id = String::from_utf8_lossy(&o.stdout).trim().to_string();
        id.split(';').next().unwrap_or("").to_string()
    }

    /// States of an array's tasks (task id → state), from `scontrol`.
    fn task_states(&self, job: &str) -> BTreeMap<u32, String> {
        let mut states = BTreeMap::new();
        let Ok(out) = self.slurm("scontrol", &["-o", "show", "job", job]) else {
            return states;
        };
        for line in out.lines() {
            let field = |name: &str| {
                line.split_whitespace()
                    .find_map(|f| f.strip_prefix(name))
                    .map(str::to_string)
            };
            if let (Some(task), Some(state)) = (field("ArrayTaskId="), field("JobState=")) {
                if let Ok(t) = task.parse() {
                    states.insert(t, state);
                }
            }
        }
        states
    }

    /// Wait until no task of `job` is pending or running; returns the final states.
    fn wait_job(
        &self,
        job: &str,
        tasks: usize,
        limit: Duration,
        logs: &Path,
    ) -> BTreeMap<u32, String> {
        let started = Instant::now();
        loop {
            let states = self.task_states(job);
            let finished = states.len() == tasks
                && states.values().all(|s| {
                    !matches!(
                        s.as_str(),
                        "PENDING"
                            | "RUNNING"
                            | "CONFIGURING"
                            | "COMPLETING"
                            | "SUSPENDED"
                            | "REQUEUED"
                    )
                });
            if finished {
                return states;
            }
            assert!(
                started.elapsed() < limit,
                "job {job} did not finish in {limit:?}: {states:?}{}{}",
                job_logs(logs),
                self_logs(self.dir.path())
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Cancel whatever is left, give the steps a moment, then stop the daemons we started.
        let _ = self.slurm("scancel", &["--user=root"]);
        std::thread::sleep(Duration::from_millis(500));
        for (_, child) in self.daemons.iter_mut().rev() {
            let _ = Command::new("kill").arg(child.id().to_string()).status();
        }
        for (_, child) in self.daemons.iter_mut().rev() {
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The tail of each daemon log, for failure messages.
fn self_logs(dir: &Path) -> String {
    let mut s = String::new();
    if let Ok(rd) = std::fs::read_dir(dir.join("log")) {
        for e in rd.flatten() {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(15).collect();
            if !tail.is_empty() {
                s.push_str(&format!("\n--- {}:\n", e.path().display()));
                for l in tail.into_iter().rev() {
                    s.push_str(l);
                    s.push('\n');
                }
            }
        }
    }
    s
}

/// The jobs' own output files, for failure messages.
fn job_logs(dir: &Path) -> String {
    let mut s = String::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            if e.file_name().to_string_lossy().starts_with("slurm-") {
                s.push_str(&format!(
                    "\n--- {}:\n{}",
                    e.path().display(),
                    std::fs::read_to_string(e.path()).unwrap_or_default()
                ));
            }
        }
    }
    s
}

#[test]
fn slurm_job_array_with_cancel_and_resume() {
    let cluster = match Cluster::start() {
        Ok(c) => c,
        Err(reason) => return unavailable(&reason),
    };
    let crawl = Crawl::new();
    let logs = crawl.dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    let env = |out: &Path, delay: Option<&str>| {
        let mut v = vec![
            ("WARCSIFT", bin().to_string()),
            ("MANIFEST", crawl.manifest.display().to_string()),
            ("PREFIX", crawl.data().display().to_string()),
            ("OUT", out.display().to_string()),
            ("WARCSIFT_ARGS", RUN_OPTS.join(" ")),
        ];
        if let Some(ms) = delay {
            v.push(("WARCSIFT_TEST_DELAY_MS", ms.to_string()));
        }
        v
    };

    // 1. A job array of 4 tasks over the 6 files: the union equals one process's output.
    let out = crawl.dir.path().join("slurm-out");
    let job = cluster.submit(4, &env(&out, None), &logs);
    let states = cluster.wait_job(&job, 4, Duration::from_secs(240), &logs);
    assert!(
        states.values().all(|s| s == "COMPLETED"),
        "{states:?}{}",
        job_logs(&logs)
    );
    crawl.assert_same_as_reference(&out);
    for i in 0..4 {
        assert!(out.join(format!("stats-task-000{i}.json")).exists());
    }
    let log = std::fs::read_to_string(logs.join(format!("slurm-{job}_1.out"))).unwrap();
    assert!(log.contains("task 1 of 4"), "{log}");

    // 2. Task 0 (inputs 0 and 4) is cancelled once its second input has a complete shard but
    //    no marker yet; the others finish. Then the whole array is submitted again, and
    //    resumes: the cancelled input's shards are removed and redone, nothing twice.
    let out = crawl.dir.path().join("slurm-cancel");
    let job = cluster.submit(4, &env(&out, Some("400")), &logs);
    let first = warcsift::manifest::stem(&crawl.lines[0]);
    let second = warcsift::manifest::stem(&crawl.lines[4]);
    let started = Instant::now();
    loop {
        let marked_first = out.join(format!("_done/{first}.json")).exists();
        let partial_second = std::fs::read_dir(&out).is_ok_and(|rd| {
            rd.flatten().any(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.starts_with(&format!("{second}-0000"))
            })
        });
        if marked_first && partial_second {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "task 0 never reached its second input: {:?}{}",
            cluster.task_states(&job),
            job_logs(&logs)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    cluster
        .slurm("scancel", &[&format!("{job}_0")])
        .expect("scancel");
    let states = cluster.wait_job(&job, 4, Duration::from_secs(240), &logs);
    assert!(
        states[&0].starts_with("CANCELLED"),
        "task 0: {states:?}{}",
        job_logs(&logs)
    );
    for t in [1, 2, 3] {
        assert_eq!(states[&t], "COMPLETED", "task {t}: {states:?}");
    }
    assert!(!out.join(format!("_done/{second}.json")).exists());
    assert!(out.join(format!("_done/{first}.json")).exists());
    let left_behind: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(&second))
        .collect();
    assert!(
        !left_behind.is_empty(),
        "the cancelled input left partial output"
    );
    let _ = writeln!(
        std::io::stderr(),
        "slurm: task 0 cancelled part way, leaving {left_behind:?}; resubmitting with --resume"
    );
    let (ok, _, _) = warcsift(&[
        "merge-stats",
        out.to_str().unwrap(),
        "--manifest",
        crawl.manifest.to_str().unwrap(),
    ]);
    assert!(!ok, "merge-stats sees the missing input");

    let job = cluster.submit(4, &env(&out, None), &logs);
    let states = cluster.wait_job(&job, 4, Duration::from_secs(240), &logs);
    assert!(
        states.values().all(|s| s == "COMPLETED"),
        "{states:?}{}",
        job_logs(&logs)
    );
    crawl.assert_same_as_reference(&out);
    let resumed = json(&out.join("stats-task-0000.json"));
    assert_eq!(resumed["inputs"], 2);
    assert_eq!(resumed["inputs_resumed"], 1, "{resumed}");
    let (ok, stdout, err) = warcsift(&[
        "merge-stats",
        out.to_str().unwrap(),
        "--manifest",
        crawl.manifest.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}{err}");
    assert!(
        stdout.contains("every input of the manifest is done"),
        "{stdout}"
    );
    let _ = writeln!(
        std::io::stderr(),
        "slurm: job arrays ran on a single-node cluster; outputs equal the single-process run"
    );
}
