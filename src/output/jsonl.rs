//! JSONL encoding: one [`PageRecord`] as one JSON object on one `\n`-terminated line.
//!
//! Keys come in the declaration order of [`PageRecord`]; `title` and `lang` are `null` when
//! unknown. serde_json escapes every control character, so a record is always exactly one
//! line of valid UTF-8, whatever the page text holds. Pages with empty text are encoded like
//! any other: whether to keep them is the pipeline's decision.

use super::{OutputError, PageRecord};

/// Append `page` as one JSON line (with its `\n`) to `out`.
pub fn encode_into(page: &PageRecord, out: &mut Vec<u8>) -> Result<(), OutputError> {
    serde_json::to_writer(&mut *out, page).map_err(|cause| OutputError::Json {
        id: page.id.clone(),
        cause,
    })?;
    out.push(b'\n');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> PageRecord {
        PageRecord {
            id: "<urn:uuid:0>".into(),
            url: "http://example.com/".into(),
            date: "2024-01-01T00:00:00Z".into(),
            title: None,
            lang: Some("en".into()),
            charset: "UTF-8".into(),
            charset_source: "meta".into(),
            text: "line one\nline \"two\"\t\u{2028}\r\u{0}".into(),
            source: "a.warc.gz".into(),
            offset: 42,
            truncated: true,
        }
    }

    #[test]
    fn one_line_in_field_order_that_parses_back() {
        let mut out = Vec::new();
        encode_into(&page(), &mut out).unwrap();
        let line = std::str::from_utf8(&out).unwrap();
        assert!(line.ends_with('\n'));
        assert_eq!(
            line.matches('\n').count(),
            1,
            "text newlines must be escaped"
        );
        let keys = [
            "\"id\"",
            "\"url\"",
            "\"date\"",
            "\"title\"",
            "\"lang\"",
            "\"charset\"",
            "\"charset_source\"",
            "\"text\"",
            "\"source\"",
            "\"offset\"",
            "\"truncated\"",
        ];
        let positions: Vec<usize> = keys.iter().map(|k| line.find(k).unwrap()).collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{line}");
        assert!(line.contains("\"title\":null"));
        let back: PageRecord = serde_json::from_str(line.trim_end()).unwrap();
        assert_eq!(back, page());
    }
}
