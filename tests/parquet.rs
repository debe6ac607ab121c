//! `--format parquet`: shards read back with pyarrow (the standard reader) hold exactly the
//! JSONL output's records, column by column; `--lang` and `--resume` work as for JSONL.

mod support;

use serde_json::Value;
use std::process::Command;
use support::{read_jsonl, sample, stats, tempdir, warcsift};

/// pyarrow's view of every `.parquet` file in `dir`: one JSON object per row, plus the
/// file's schema, row-group count and compression. `None` (test skipped) without pyarrow.
fn read_with_pyarrow(dir: &std::path::Path) -> Option<Value> {
    let script = r#"
import glob, json, sys
import pyarrow.parquet as pq
out = {"rows": [], "files": []}
for f in sorted(glob.glob(sys.argv[1] + "/*.parquet")):
    pf = pq.ParquetFile(f)
    md = pf.metadata
    out["files"].append({
        "name": f.rsplit("/", 1)[-1],
        "row_groups": md.num_row_groups,
        "compression": sorted({md.row_group(g).column(c).compression
                               for g in range(md.num_row_groups) for c in range(md.num_columns)}),
        "schema": [(fld.name, str(fld.type), fld.nullable) for fld in pf.schema_arrow],
    })
    out["rows"].extend(pf.read().to_pylist())
print(json.dumps(out))
"#;
    let have = Command::new("python3")
        .args(["-c", "import pyarrow"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        eprintln!("python3 with pyarrow not found; skipping the Parquet read-back");
        return None;
    }
    let o = Command::new("python3")
        .args(["-c", script, dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    Some(serde_json::from_slice(&o.stdout).unwrap())
}

fn extract(out: &std::path::Path, extra: &[&str]) {
    let mut args = vec![
        "extract",
        sample().to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "-q",
    ]
    .into_iter()
    .map(str::to_string)
    .collect::<Vec<_>>();
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, _, err) = warcsift(&refs);
    assert!(ok, "{err}");
}

#[test]
fn parquet_reads_back_with_pyarrow_as_the_jsonl_records() {
    let (pq_dir, json_dir) = (tempdir(), tempdir());
    extract(pq_dir.path(), &["--format", "parquet"]);
    extract(json_dir.path(), &["--compress", "none"]);
    assert!(pq_dir.path().join("sample-00000.parquet").exists());
    // No temporary file is left behind once the shard is complete.
    let leftovers: Vec<_> = std::fs::read_dir(pq_dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let jsonl = read_jsonl(json_dir.path());
    assert_eq!(stats(pq_dir.path())["extracted"], jsonl.len() as u64);
    let Some(got) = read_with_pyarrow(pq_dir.path()) else {
        return;
    };
    let file = &got["files"][0];
    assert_eq!(file["row_groups"], 1, "{file}");
    assert_eq!(file["compression"], serde_json::json!(["ZSTD"]), "{file}");
    let names: Vec<&str> = file["schema"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c[0].as_str().unwrap())
        .collect();
    let keys: Vec<&str> = jsonl[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut sorted_names = names.clone();
    sorted_names.sort_unstable();
    let mut sorted_keys = keys.clone();
    sorted_keys.sort_unstable();
    assert_eq!(sorted_names, sorted_keys, "the JSONL schema, as columns");
    for col in file["schema"].as_array().unwrap() {
        let (name, ty) = (col[0].as_str().unwrap(), col[1].as_str().unwrap());
        let want = match name {
            "offset" => "uint64",
            "truncated" => "bool",
            "lang_score" => "float",
            _ => "string",
        };
        assert_eq!(ty, want, "{name}");
    }
    let rows = got["rows"].as_array().unwrap();
    assert_eq!(rows.len(), jsonl.len());
    for (row, line) in rows.iter().zip(&jsonl) {
        for key in &keys {
            let (a, b) = (&row[*key], &line[*key]);
            if *key == "lang_score" {
                // float32 in Parquet, the shortest decimal in JSON.
                let close = match (a.as_f64(), b.as_f64()) {
                    (Some(x), Some(y)) => (x - y).abs() < 1e-6,
                    _ => a == b,
                };
                assert!(close, "{key}: {a} vs {b}");
            } else {
                assert_eq!(a, b, "{key} of {}", line["id"]);
            }
        }
    }
    assert!(
        rows.iter()
            .any(|r| r["lang"] == "en" && r["html_lang"].is_string()),
        "detected and declared languages are both there"
    );
}

#[test]
fn parquet_resumes_and_filters_by_language() {
    let out = tempdir();
    extract(out.path(), &["--format", "parquet", "--lang", "de,fr"]);
    let s = stats(out.path());
    let kept = s["extracted"].as_u64().unwrap();
    let dropped = s["skipped"]["lang"].as_u64().unwrap_or(0);
    assert!(dropped > 0, "{s}");
    let langs = s["langs"].as_object().unwrap();
    assert!(langs.keys().all(|l| l == "de" || l == "fr"), "{s}");
    assert_eq!(langs.values().filter_map(Value::as_u64).sum::<u64>(), kept);
    // A rerun with --resume finds the input done and leaves the shard alone.
    let shard = out.path().join("sample-00000.parquet");
    let before = shard.exists().then(|| std::fs::read(&shard).unwrap());
    extract(
        out.path(),
        &["--format", "parquet", "--lang", "de,fr", "--resume"],
    );
    let after = shard.exists().then(|| std::fs::read(&shard).unwrap());
    assert_eq!(before, after);
    assert_eq!(stats(out.path())["inputs_resumed"], 1);
    if let (Some(got), true) = (read_with_pyarrow(out.path()), kept > 0) {
        let rows = got["rows"].as_array().unwrap();
        assert_eq!(rows.len() as u64, kept);
        assert!(rows.iter().all(|r| r["lang"] == "de" || r["lang"] == "fr"));
    }
}
