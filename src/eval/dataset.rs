//! Test packages (seed 004 section 4.1): folders of `<id>.html` pages (or `<id>.html.gz`,
//! as WCXB ships them) with their gold main content `<id>.txt` and optional `meta.jsonl`
//! (one JSON object per line with `id`, `url`, and for WCXB `page_type`, ...).
//!
//! A folder that holds `.html` or `.html.gz` files is a package; any other folder is a
//! collection whose subfolders holding such files are packages. Pages are the ids with both an `.html`
//! and a `.txt`; `<id>.comments.txt` files (dragnet's comment sections) are not gold.
//! Packages are sorted by name and pages by id (byte order, like Python's `sorted`).

use std::collections::HashMap;
use std::fs;
use std::io::Read;
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
    /// Size of the page's HTML (for `.html.gz`, the uncompressed size its gzip trailer gives).
    pub html_bytes: u64,
    /// The human page-type label from `meta.jsonl` (WCXB: article, forum, product, ...).
    pub page_type: Option<String>,
}

impl Page {
    /// The page's HTML bytes, gunzipped when stored as `<id>.html.gz`.
    pub fn read_html(&self) -> Result<Vec<u8>, String> {
        let raw = fs::read(&self.html).map_err(|e| format!("{}: {e}", self.html.display()))?;
        if !is_gz(&self.html) {
            return Ok(raw);
        }
        let mut out = Vec::with_capacity(raw.len() * 6);
        flate2::read::MultiGzDecoder::new(raw.as_slice())
            .read_to_end(&mut out)
            .map_err(|e| format!("{}: {e}", self.html.display()))?;
        Ok(out)
    }
}

/// The HTML's size: the file's, or for gzip the trailer's ISIZE (size mod 2^32, exact for
/// any web page).
fn stored_size(path: &Path) -> u64 {
    let len = fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    if !is_gz(path) || len < 18 {
        return len;
    }
    let isize = (|| {
        use std::io::{Seek, SeekFrom};
        let mut f = fs::File::open(path).ok()?;
        f.seek(SeekFrom::End(-4)).ok()?;
        let mut b = [0u8; 4];
        f.read_exact(&mut b).ok()?;
        Some(u64::from(u32::from_le_bytes(b)))
    })();
    isize.unwrap_or(len)
}

fn is_gz(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "gz")
}

/// The page id of `<id>.html` or `<id>.html.gz`, or `None` for other files.
fn html_id(path: &Path) -> Option<&str> {
    let name = path.file_name()?.to_str()?;
    name.strip_suffix(".html")
        .or_else(|| name.strip_suffix(".html.gz"))
        .filter(|id| !id.is_empty())
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
                "{}: no test package (no folder with .html or .html.gz files)",
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
        .any(|p| p.is_file() && html_id(p).is_some()))
}

fn package_name(dir: &Path) -> String {
    let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    canonical.file_name().map_or_else(
        || canonical.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn load_package(dir: &Path, limit: Option<usize>) -> Result<Package, String> {
    let meta = read_meta(&dir.join("meta.jsonl"))?;
    // id -> html path; a plain `.html` wins over a `.html.gz` of the same id.
    let mut found: HashMap<String, PathBuf> = HashMap::new();
    for path in read_dir(dir)? {
        let Some(id) = html_id(&path).map(str::to_owned) else {
            continue;
        };
        if !dir.join(format!("{id}.txt")).is_file() {
            continue;
        }
        match found.get(&id) {
            Some(have) if !is_gz(have) => {}
            _ => {
                found.insert(id, path);
            }
        }
    }
    let mut ids: Vec<String> = found.keys().cloned().collect();
    ids.sort();
    ids.truncate(limit.unwrap_or(usize::MAX));
    let pages = ids
        .into_iter()
        .map(|id| {
            let html = found.remove(&id).unwrap_or_default();
            let html_bytes = stored_size(&html);
            let m = meta.get(&id);
            Page {
                url: m.and_then(|m| m.url.clone()),
                page_type: m.and_then(|m| m.page_type.clone()),
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

/// What `meta.jsonl` says of one page.
#[derive(Debug, Clone, Default)]
struct Meta {
    url: Option<String>,
    page_type: Option<String>,
}

/// `id → meta` from `meta.jsonl`; empty when the file is absent. Lines that are not JSON
/// objects with an `id` are skipped; ids may be strings or numbers.
fn read_meta(path: &Path) -> Result<HashMap<String, Meta>, String> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut metas = HashMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let id = match &value["id"] {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => continue,
        };
        let text = |key: &str| value[key].as_str().map(str::to_owned);
        metas.insert(
            id,
            Meta {
                url: text("url"),
                page_type: text("page_type"),
            },
        );
    }
    Ok(metas)
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

        // Gzipped pages (WCXB's layout) are pages too, read back gunzipped; a plain
        // `.html` of the same id wins.
        let gz = |text: &str| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut e, text.as_bytes()).unwrap_or_default();
            e.finish().unwrap_or_default()
        };
        fs::create_dir_all(root.join("c")).unwrap_or_default();
        fs::write(root.join("c/0001.html.gz"), gz("<p>zipped</p>")).unwrap_or_default();
        write(&root.join("c/0001.txt"), "zipped");
        write(&root.join("c/0002.html"), "<p>plain</p>");
        fs::write(root.join("c/0002.html.gz"), gz("<p>other</p>")).unwrap_or_default();
        write(&root.join("c/0002.txt"), "plain");
        write(
            &root.join("c/meta.jsonl"),
            "{\"id\": \"0001\", \"page_type\": \"forum\"}\n",
        );
        let c = discover(&[root.join("c")], None).unwrap_or_default();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].pages.len(), 2);
        assert_eq!(
            c[0].pages[0].read_html().unwrap_or_default(),
            b"<p>zipped</p>"
        );
        assert_eq!(c[0].pages[0].page_type.as_deref(), Some("forum"));
        assert_eq!(c[0].pages[0].html_bytes, 13);
        assert_eq!(
            c[0].pages[1].read_html().unwrap_or_default(),
            b"<p>plain</p>"
        );
        assert_eq!(c[0].pages[1].page_type, None);

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
