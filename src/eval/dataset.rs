//! Test packages (seed 004 section 4.1): folders of `<id>.html` pages with their gold
//! main content `<id>.txt` and optional `meta.jsonl` (one JSON object per line with `id`,
//! `url`, ...).
//!
//! A folder that holds `.html` files is a package; any other folder is a collection whose
//! subfolders holding `.html` files are packages. Pages are the ids with both an `.html`
//! and a `.txt`; `<id>.comments.txt` files (dragnet's comment sections) are not gold.
//! Packages are sorted by name and pages by id (byte order, like Python's `sorted`).

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

/// One test page.
#[derive(Debug, Clone)]
pub struct Page {
    pub id: String,
    pub html: PathBuf,
    pub gold: PathBuf,
    /// From `meta.jsonl`; given to the extractor as the page URL (charset detection uses
    /// its top-level domain).
    pub url: Option<String>,
    pub html_bytes: u64,
}

/// One test package: a folder of pages.
#[derive(Debug, Clone)]
pub struct Package {
    pub name: String,
    pub dir: PathBuf,
    pub pages: Vec<Page>,
}

/// Find the packages under `paths` (packages or folders of packages), keeping at most
/// `limit` pages of each. Errors on unreadable folders, on a path with no package, and on
/// two packages with the same name.
pub fn discover(paths: &[PathBuf], limit: Option<usize>) -> Result<Vec<Package>, String> {
    let mut packages = Vec::new();
    for path in paths {
        let found_before = packages.len();
        if holds_html(path)? {
            packages.push(load_package(path, limit)?);
        } else {
            let mut subdirs: Vec<PathBuf> =
                read_dir(path)?.into_iter().filter(|p| p.is_dir()).collect();
            subdirs.sort();
            for dir in subdirs {
                if holds_html(&dir)? {
                    packages.push(load_package(&dir, limit)?);
                }
            }
        }
        if packages.len() == found_before {
            return Err(format!(
                "{}: no test package (no folder with .html files)",
                path.display()
            ));
        }
    }
    packages.sort_by(|a, b| a.name.cmp(&b.name));
    if let Some(pair) = packages.windows(2).find(|w| w[0].name == w[1].name) {
        return Err(format!(
            "two packages named {:?}: {} and {}",
            pair[0].name,
            pair[0].dir.display(),
            pair[1].dir.display()
        ));
    }
    Ok(packages)
}

fn read_dir(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    entries
        .map(|e| {
            e.map(|e| e.path())
                .map_err(|e| format!("{}: {e}", dir.display()))
        })
        .collect()
}

fn holds_html(dir: &Path) -> Result<bool, String> {
    Ok(read_dir(dir)?
        .iter()
        .any(|p| p.is_file() && p.extension().is_some_and(|e| e == "html")))
}

fn package_name(dir: &Path) -> String {
    let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    canonical.file_name().map_or_else(
        || canonical.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn load_package(dir: &Path, limit: Option<usize>) -> Result<Package, String> {
    let urls = read_meta(&dir.join("meta.jsonl"))?;
    let mut ids: Vec<String> = read_dir(dir)?
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_owned))
        .filter(|id| dir.join(format!("{id}.txt")).is_file())
        .collect();
    ids.sort();
    ids.truncate(limit.unwrap_or(usize::MAX));
    let pages = ids
        .into_iter()
        .map(|id| {
            let html = dir.join(format!("{id}.html"));
            let html_bytes = fs::metadata(&html).map(|m| m.len()).unwrap_or(0);
            Page {
                url: urls.get(&id).cloned(),
                gold: dir.join(format!("{id}.txt")),
                html,
                html_bytes,
                id,
            }
        })
        .collect();
    Ok(Package {
        name: package_name(dir),
        dir: dir.to_path_buf(),
        pages,
    })
}

/// `id → url` from `meta.jsonl`; empty when the file is absent. Lines that are not JSON
/// objects with an `id` are skipped; ids may be strings or numbers.
fn read_meta(path: &Path) -> Result<HashMap<String, String>, String> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut urls = HashMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let id = match &value["id"] {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => continue,
        };
        if let Some(url) = value["url"].as_str() {
            urls.insert(id, url.to_owned());
        }
    }
    Ok(urls)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap_or(Path::new("."))).unwrap_or_default();
        fs::write(path, text).unwrap_or_default();
    }

    #[test]
    fn finds_packages_pages_and_urls() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let root = tmp.path();
        write(&root.join("b/2.html"), "<p>two</p>");
        write(&root.join("b/2.txt"), "two");
        write(&root.join("b/10.html"), "<p>ten</p>");
        write(&root.join("b/10.txt"), "ten");
        write(&root.join("b/10.comments.txt"), "not gold");
        write(&root.join("b/orphan.html"), "no gold");
        write(
            &root.join("b/meta.jsonl"),
            "{\"id\": \"2\", \"url\": \"http://x.de/\"}\nnot json\n{\"id\": 10, \"url\": null}\n",
        );
        write(&root.join("a/x.html"), "x");
        write(&root.join("a/x.txt"), "x");
        write(&root.join("notes/readme.md"), "not a package");

        let packages = discover(&[root.to_path_buf()], None).unwrap_or_default();
        let names: Vec<&str> = packages.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        let b = &packages[1];
        let ids: Vec<&str> = b.pages.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["10", "2"]);
        assert_eq!(b.pages[1].url.as_deref(), Some("http://x.de/"));
        assert_eq!(b.pages[0].url, None);
        assert_eq!(b.pages[1].html_bytes, 10);

        // One package given directly, with a limit.
        let one = discover(&[root.join("b")], Some(1)).unwrap_or_default();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].pages.len(), 1);

        // Errors: no package, duplicate names.
        assert!(discover(&[root.join("notes")], None).is_err());
        assert!(discover(&[root.join("a"), root.join("a")], None).is_err());
        assert!(discover(&[root.join("missing")], None).is_err());
    }
}
