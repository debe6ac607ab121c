//! `--records FILE`: extract chosen records straight from a crawl by their index entries.
//!
//! Takes a CSV or TSV file whose header line names the columns `warc_filename`,
//! `warc_record_offset` and `warc_record_length` (as Common Crawl's columnar index and the CDX
//! API's `filename`, `offset`, `length` give them; those names are accepted too, in any case
//! and column order; other columns are ignored). Gives one [`Group`] per WARC file, in the
//! order files first appear, with its records' byte ranges in the order listed.
//!
//! The pipeline reads each group as one input ([`crate::input::InputSpec::Records`]): every
//! record is fetched with one HTTP `Range` request (a URL, or a relative name under an
//! http(s) `--prefix`) or a seek (a local file, or under a directory `--prefix`), the ranges
//! are read one after another as if they were one file, and a page's `offset` is the record's
//! offset in the WARC file, as in the index. Output names, retries, `--resume` and task
//! slices work per WARC file as for a manifest's lines.

use std::path::Path;

/// The records to read from one WARC file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// `warc_filename` as written (resolved against `--prefix` like a manifest line).
    pub filename: String,
    /// (offset, length) of each record, in the order listed.
    pub ranges: Vec<(u64, u64)>,
}

/// Column names accepted for each field, lower-case.
const FILENAME: [&str; 2] = ["warc_filename", "filename"];
const OFFSET: [&str; 2] = ["warc_record_offset", "offset"];
const LENGTH: [&str; 2] = ["warc_record_length", "length"];

/// Splits one CSV or TSV line into fields: tabs when `tsv`, else commas with `"…"` quoting
/// (`""` inside quotes is a quote).
fn split_line(line: &str, tsv: bool) -> Vec<String> {
    if tsv {
        return line.split('\t').map(|f| f.trim().to_string()).collect();
    }
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field).trim().to_string()),
            (c, _) => field.push(c),
        }
    }
    fields.push(field.trim().to_string());
    fields
}

/// Parses the text of a records file; `Err` says which line is wrong and why.
pub fn parse(text: &str) -> Result<Vec<Group>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((_, header)) = lines.next() else {
        return Err("it is empty".into());
    };
    let tsv = header.contains('\t');
    let names: Vec<String> = split_line(header, tsv)
        .into_iter()
        .map(|n| n.to_ascii_lowercase())
        .collect();
    let column = |wanted: &[&str; 2]| {
        names
            .iter()
            .position(|n| wanted.contains(&n.as_str()))
            .ok_or_else(|| {
                format!(
                    "its header line names no {} column (it names: {})",
                    wanted[0],
                    names.join(", ")
                )
            })
    };
    let (f, o, l) = (column(&FILENAME)?, column(&OFFSET)?, column(&LENGTH)?);
    let mut groups: Vec<Group> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (number, line) in lines {
        let fields = split_line(line, tsv);
        let get = |i: usize| fields.get(i).map(String::as_str).unwrap_or("");
        let number_of = |i: usize, what: &str| {
            get(i).parse::<u64>().map_err(|_| {
                format!(
                    "line {}: the {what} {:?} is not a non-negative integer",
                    number + 1,
                    get(i)
                )
            })
        };
        let filename = get(f);
        if filename.is_empty() {
            return Err(format!("line {}: no warc_filename", number + 1));
        }
        let range = (number_of(o, "offset")?, number_of(l, "length")?);
        if range.1 == 0 {
            return Err(format!("line {}: the length is 0", number + 1));
        }
        match index.get(filename) {
            Some(&k) => groups[k].ranges.push(range),
            None => {
                index.insert(filename.to_string(), groups.len());
                groups.push(Group {
                    filename: filename.to_string(),
                    ranges: vec![range],
                });
            }
        }
    }
    if groups.is_empty() {
        return Err("it lists no record (only its header line)".into());
    }
    Ok(groups)
}

/// Reads and parses a records file.
pub fn load(path: &Path) -> Result<Vec<Group>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the records file {}: {e}", path.display()))?;
    parse(&text).map_err(|why| format!("the records file {}: {why}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_and_tsv_grouped_by_file() {
        let csv = "url,warc_filename,warc_record_offset,warc_record_length\n\
                   http://a/,\"crawl/a.warc.gz\",100,50\n\
                   \"http://b/?x=1,2\",crawl/b.warc.gz,7,3\n\
                   http://c/,crawl/a.warc.gz,10,5\n";
        let groups = parse(csv).unwrap();
        assert_eq!(
            groups,
            vec![
                Group {
                    filename: "crawl/a.warc.gz".into(),
                    ranges: vec![(100, 50), (10, 5)]
                },
                Group {
                    filename: "crawl/b.warc.gz".into(),
                    ranges: vec![(7, 3)]
                },
            ]
        );
        let tsv = "Length\tOffset\tFilename\n5\t0\tx.warc\n";
        assert_eq!(parse(tsv).unwrap()[0].ranges, vec![(0, 5)]);
    }

    #[test]
    fn refusals_say_why() {
        assert_eq!(parse("").unwrap_err(), "it is empty");
        assert!(parse("a,b,c\n")
            .unwrap_err()
            .contains("no warc_filename column"));
        assert!(
            parse("warc_filename,warc_record_offset,warc_record_length\nx,-1,5\n")
                .unwrap_err()
                .starts_with("line 2: the offset \"-1\"")
        );
        assert!(parse("filename,offset,length\n")
            .unwrap_err()
            .contains("no record"));
    }
}
