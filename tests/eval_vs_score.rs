//! `warcsift::eval` against the independent reference scorer `../shared/tools/eval/score.py`
//! on real development pages, and the whole `eval` run on a small synthetic dataset.
//!
//! The comparison needs `python3` with `rapidfuzz` and `../shared/devset`; without them it
//! prints SKIP and passes (CI installs rapidfuzz).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use warcsift::eval::{self, EvalArgs, Measure};

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

fn python_with_rapidfuzz() -> bool {
    Command::new("python3")
        .args(["-c", "import rapidfuzz"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A deterministic perturbation of a gold text, varied by page so that every branch of the
/// measures is exercised: extra boilerplate, dropped lines, reordered lines, escaping and
/// case changes, an empty prediction.
fn perturb(i: usize, gold: &str, html: &[u8], url: Option<&str>) -> Option<String> {
    let lines: Vec<&str> = gold.lines().collect();
    match i % 6 {
        // What the `plain` method makes of the page (today: everything).
        0 => warcsift::extract::extract_bytes(html, None, url, "plain")
            .ok()
            .map(|e| e.page.text),
        // Every third line dropped, navigation added.
        1 => Some(format!(
            "Home | News | Contact\n{}\nCopyright 2024 &copy; All rights reserved",
            lines
                .iter()
                .enumerate()
                .filter(|(k, _)| k % 3 != 2)
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n")
        )),
        // Lines rotated and the last half reversed.
        2 => {
            let mut v = lines.clone();
            let n = v.len();
            v.rotate_left(n / 3);
            v[n / 2..].reverse();
            Some(v.join("\n"))
        }
        // Escaped, upper-cased, whitespace mangled.
        3 => Some(
            gold.replace('&', "&amp;")
                .replace('"', "&quot")
                .to_uppercase()
                .replace(' ', " \t\u{a0}"),
        ),
        // Missing prediction file.
        4 => None,
        // The first half only, words truncated.
        _ => Some(
            gold.chars()
                .take(gold.chars().count() / 2)
                .collect::<String>()
                .split(' ')
                .map(|w| w.chars().take(6).collect::<String>())
                .collect::<Vec<_>>()
                .join(" "),
        ),
    }
}

fn urls(package: &Path) -> std::collections::HashMap<String, String> {
    let text = fs::read_to_string(package.join("meta.jsonl")).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| Some((v["id"].as_str()?.to_owned(), v["url"].as_str()?.to_owned())))
        .collect()
}

#[test]
fn agrees_with_score_py_on_devset_pages() {
    let devset = shared().join("devset");
    let score_py = shared().join("tools/eval/score.py");
    if !devset.is_dir() || !score_py.is_file() {
        println!(
            "SKIP: {} or {} not found",
            devset.display(),
            score_py.display()
        );
        return;
    }
    if !python_with_rapidfuzz() {
        println!("SKIP: python3 with rapidfuzz not importable (python3 -m pip install rapidfuzz)");
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (gold_dir, pred_dir) = (tmp.path().join("gold"), tmp.path().join("pred"));
    fs::create_dir_all(&gold_dir).expect("mkdir");
    fs::create_dir_all(&pred_dir).expect("mkdir");

    // 20 pages from each of two packages: the first ids, plus cleaneval's empty-gold pages
    // and dragnet's largest pages.
    let mut picked = Vec::new();
    for (package, extra) in [
        ("cleaneval", &["dev-32", "final-278", "final-626"][..]),
        ("dragnet", &["T55", "T50", "R990"][..]),
    ] {
        let dir = devset.join(package);
        let mut ids: Vec<String> = fs::read_dir(&dir)
            .expect("read package")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|n| n.strip_suffix(".html").map(str::to_owned))
            .collect();
        ids.sort();
        ids.truncate(20 - extra.len());
        ids.extend(extra.iter().map(|s| s.to_string()));
        let urls = urls(&dir);
        for id in ids {
            picked.push((package, dir.clone(), id.clone(), urls.get(&id).cloned()));
        }
    }
    for (i, (package, dir, id, url)) in picked.iter().enumerate() {
        let gold = fs::read(dir.join(format!("{id}.txt"))).expect("gold");
        let html = fs::read(dir.join(format!("{id}.html"))).expect("html");
        let name = format!("{package}-{id}.txt");
        fs::write(gold_dir.join(&name), &gold).expect("write gold");
        let gold = String::from_utf8_lossy(&gold);
        if let Some(pred) = perturb(i, &gold, &html, url.as_deref()) {
            fs::write(pred_dir.join(&name), pred).expect("write pred");
        }
    }

    let out = tmp.path().join("score.json");
    let status = Command::new("python3")
        .arg(&score_py)
        .args([
            "--gold".as_ref(),
            gold_dir.as_os_str(),
            "--pred".as_ref(),
            pred_dir.as_os_str(),
        ])
        .args(["--json".as_ref(), out.as_os_str(), "--quiet".as_ref()])
        .output()
        .expect("run score.py");
    assert!(
        status.status.success(),
        "score.py failed: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    let python: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&out).expect("score.json")).expect("json");

    let rust = eval::score_dirs(&gold_dir, &pred_dir).expect("score_dirs");
    assert_eq!(rust.docs, picked.len());
    assert_eq!(
        python["summary"]["docs"].as_u64(),
        Some(picked.len() as u64)
    );
    assert_eq!(
        python["summary"]["empty_predictions"].as_u64(),
        Some(rust.empty_predictions as u64)
    );

    for m in Measure::ALL {
        let py = &python["summary"]["measures"][m.name()];
        let ours = rust.measures.get(m);
        for (key, value) in [
            ("precision", ours.p),
            ("recall", ours.r),
            ("f1", ours.f1),
            ("f1_median", ours.f1_median),
            ("f1_std", ours.f1_std),
        ] {
            let want = py[key].as_f64().expect("number");
            assert!(
                (want - value).abs() < 0.005,
                "{} {key}: score.py {want} vs warcsift {value}",
                m.name()
            );
        }
    }
    // Both compute exact LCS lengths with the same normalisation, so pages agree too.
    let mut worst = (0.0f64, String::new());
    for (id, scores) in &rust.per_doc {
        for m in Measure::ALL {
            let py = &python["per_doc"][id][m.name()];
            let ours = scores.get(m);
            for (k, v) in [ours.p, ours.r, ours.f1].into_iter().enumerate() {
                let d = (py[k].as_f64().expect("number") - v).abs();
                if d > worst.0 {
                    worst = (d, format!("{id} {} [{k}]", m.name()));
                }
            }
        }
    }
    println!("largest per-page difference: {:e} at {}", worst.0, worst.1);
    assert!(
        worst.0 < 1e-9,
        "per-page scores differ: {:e} at {}",
        worst.0,
        worst.1
    );
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

#[test]
fn eval_run_writes_every_output() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let data = root.join("data");
    for (package, pages) in [
        (
            "news",
            &[
                ("a", "<p>Hello world</p>", "Hello world"),
                ("b", "<p>x</p>", ""),
            ][..],
        ),
        (
            "blogs",
            &[(
                "1",
                "<h1>Title &amp; more</h1><p>Body text here.</p>",
                "Title & more\nBody text here.",
            )][..],
        ),
    ] {
        for (id, html, gold) in pages {
            write(&data.join(package).join(format!("{id}.html")), html);
            write(&data.join(package).join(format!("{id}.txt")), gold);
        }
    }
    // A peer that outputs the gold exactly, one that outputs nothing.
    write(&root.join("perfect/news/a.txt"), "hello   WORLD");
    write(&root.join("perfect/news/b.txt"), "");
    write(
        &root.join("perfect/blogs/1.txt"),
        "Title &amp; more Body text here.",
    );
    fs::create_dir_all(root.join("mute")).expect("mkdir");

    let args = EvalArgs {
        dataset: vec![data.clone()],
        algorithm: "all".into(),
        pred: vec![
            root.join("perfect").display().to_string(),
            format!("silent={}", root.join("mute").display()),
        ],
        dump: Some(root.join("dump")),
        tsv: Some(root.join("pages.tsv")),
        json: Some(root.join("summary.json")),
        markdown: Some(root.join("table.md")),
        svg: Some(root.join("figure.svg")),
        measure: "words_seq".into(),
        limit: None,
        threads: Some(2),
    };
    let config = eval::EvalConfig::from_args(&args).expect("config");
    // `-a all` scores every method but the parse-only `none`, which extracts nothing.
    let methods: Vec<&str> = warcsift::extract::algorithm_names()
        .into_iter()
        .filter(|n| *n != "none")
        .collect();
    assert_eq!(config.systems.len(), methods.len() + 2);
    let report = eval::run_config(&config).expect("run");

    let table = report.table(Measure::WordsSeq);
    println!("{table}");
    // A header, then one row per package (and "all") per system.
    assert_eq!(table.lines().count(), 1 + 3 * (methods.len() + 2));
    assert!(table.starts_with("package") && table.contains("seq_F1"));

    let perfect = report.get("all", "perfect").expect("perfect");
    assert_eq!(perfect.pages, 3);
    assert_eq!(perfect.empty_predictions, 1);
    for m in Measure::ALL {
        assert_eq!(perfect.measures.get(m).f1, 1.0, "{}", m.name());
    }
    let silent = report.get("news", "silent").expect("silent");
    // One page with gold (F1 0) and one with empty gold (F1 1).
    assert_eq!(silent.measures.get(Measure::WordsSeq).f1, 0.5);
    assert_eq!(silent.seconds, None);

    let tsv = fs::read_to_string(root.join("pages.tsv")).expect("tsv");
    let header: Vec<&str> = tsv.lines().next().expect("header").split('\t').collect();
    let want = "package page method chars_p chars_r chars_f1 words_seq_p words_seq_r words_seq_f1 \
                bag_p bag_r bag_f1 set_p set_r set_f1 shingles_p shingles_r shingles_f1 html_bytes ms";
    assert_eq!(header[..20].join(" "), want);
    assert_eq!(tsv.lines().count(), 1 + 3 * (methods.len() + 2));
    // Packages sorted: blogs before news.
    assert!(tsv.lines().nth(1).expect("row").starts_with("blogs\t1\t"));

    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(root.join("summary.json")).expect("json"))
            .expect("parse");
    assert_eq!(
        json["packages"],
        serde_json::json!(["blogs", "news", "all"])
    );
    let cell = &json["summary"]["all"]["perfect"];
    assert_eq!(cell["pages"], 3);
    assert_eq!(cell["measures"]["shingles"]["f1_median"], 1.0);
    assert!(json["summary"]["news"][methods[0]]["pages_per_s"].is_number());

    let svg = fs::read_to_string(root.join("figure.svg")).expect("svg");
    // plotters' SVG backend writes labels as <text> elements, no font needed.
    let texts: Vec<&str> = svg
        .split("<text")
        .skip(1)
        .filter_map(|t| t.split("</text>").next())
        .collect();
    for label in ["blogs", "news", "all", "perfect", "silent"] {
        assert!(
            texts.iter().any(|t| t.contains(label)),
            "no <text> {label} in {svg}"
        );
    }
    let md = fs::read_to_string(root.join("table.md")).expect("markdown");
    assert!(md.contains("| method | blogs | news | all |"));
    for m in &methods {
        assert!(root.join("dump").join(m).join("blogs/1.txt").is_file());
    }
    assert!(!root.join("dump/perfect").exists());

    // Argument errors read as sentences.
    let bad = EvalArgs {
        algorithm: "nosuch".into(),
        ..args.clone()
    };
    assert!(eval::EvalConfig::from_args(&bad)
        .unwrap_err()
        .contains("unknown algorithm"));
    let none = EvalArgs {
        algorithm: "none".into(),
        pred: vec![],
        ..args.clone()
    };
    assert!(eval::EvalConfig::from_args(&none).is_err());
    let clash = EvalArgs {
        pred: vec![format!("{}={}", methods[0], root.join("mute").display())],
        ..args
    };
    assert!(eval::EvalConfig::from_args(&clash)
        .unwrap_err()
        .contains("already used"));
}

/// The whole development set with every method: `cargo test --release --test eval_vs_score
/// -- --ignored --nocapture`. Prints the table and the wall time. `EVAL_ALGORITHM` picks the
/// methods, `EVAL_LIMIT`, `EVAL_DUMP`, `EVAL_TSV`, `EVAL_JSON`, `EVAL_MARKDOWN` and `EVAL_SVG`
/// set the options of the same names.
#[test]
#[ignore]
fn whole_devset_timing() {
    let devset = shared().join("devset");
    if !devset.is_dir() {
        println!("SKIP: {} not found", devset.display());
        return;
    }
    let args = EvalArgs {
        dataset: vec![devset],
        algorithm: std::env::var("EVAL_ALGORITHM").unwrap_or_else(|_| "all".into()),
        pred: vec![],
        dump: std::env::var_os("EVAL_DUMP").map(PathBuf::from),
        tsv: std::env::var_os("EVAL_TSV").map(PathBuf::from),
        json: std::env::var_os("EVAL_JSON").map(PathBuf::from),
        markdown: std::env::var_os("EVAL_MARKDOWN").map(PathBuf::from),
        svg: std::env::var_os("EVAL_SVG").map(PathBuf::from),
        measure: "words_seq".into(),
        limit: std::env::var("EVAL_LIMIT")
            .ok()
            .and_then(|n| n.parse().ok()),
        threads: None,
    };
    let start = std::time::Instant::now();
    let config = eval::EvalConfig::from_args(&args).expect("config");
    let report = eval::run_config(&config).expect("run");
    print!("{}", report.table(Measure::WordsSeq));
    println!("wall time: {:.1} s", start.elapsed().as_secs_f64());
}
