//! From an extraction to the record corpus builders load: metadata, detected language, and
//! the language filter (`--lang`, `--min-lang-score`).
//!
//! Takes an [`Extraction`] and the record's WARC facts; gives a [`PageRecord`], or says the
//! page is filtered out by language (counted as `skipped.lang` in the stats).

use crate::extract::Extraction;
use crate::output::PageRecord;

/// Choices of `extract` about what each record carries and which pages it keeps.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CorpusOptions {
    /// Keep only pages detected in one of these languages (ISO 639-1 / 639-3 codes, lower
    /// case); empty: every language.
    pub langs: Vec<String>,
    /// Keep only pages whose language is detected with at least this confidence (0: no
    /// threshold, and pages without a detected language are kept unless `langs` is set).
    pub min_lang_score: f32,
    /// `text` as Markdown ([`crate::markdown`]).
    pub markdown: bool,
    /// With `markdown`, links as `[text](url)` (`--links`).
    pub links: bool,
}

impl CorpusOptions {
    /// How `text` is written: `None` plain, else Markdown with its links as the options say.
    pub fn markdown(&self) -> Option<crate::markdown::Links> {
        self.markdown.then_some(if self.links {
            crate::markdown::Links::Inline
        } else {
            crate::markdown::Links::TextOnly
        })
    }

    /// The language of a page's `text` as these options wrote it: Markdown marks are few
    /// and language-neutral, so the detector reads the text as it is, less the link targets
    /// of `--links` (URLs are no language). `declared` is the page's `<html lang>`, which
    /// decides only where the detector is unsure ([`crate::lang::detect`]).
    pub fn detect_lang(&self, text: &str, declared: Option<&str>) -> Option<crate::lang::Detected> {
        if self.links {
            crate::lang::detect(&crate::markdown::without_link_targets(text), declared)
        } else {
            crate::lang::detect(text, declared)
        }
    }

    /// Whether a page detected as `lang` with confidence `score` passes the filter.
    pub fn keeps(&self, lang: Option<&str>, score: Option<f32>) -> bool {
        if self.langs.is_empty() && self.min_lang_score <= 0.0 {
            return true;
        }
        let Some(lang) = lang else {
            return false;
        };
        score.unwrap_or(0.0) >= self.min_lang_score
            && (self.langs.is_empty() || self.langs.iter().any(|l| l == lang))
    }

    /// Parse `--lang de,fr` codes: trimmed, lower-cased, empty ones dropped.
    pub fn parse_langs(list: &[String]) -> Vec<String> {
        list.iter()
            .flat_map(|s| s.split(','))
            .map(|s| s.trim().to_ascii_lowercase())
            .filter(|s| !s.is_empty())
            .collect()
    }
}

/// The WARC facts of a record that the extraction does not know.
pub struct RecordFacts {
    pub id: String,
    pub url: String,
    pub date: String,
    pub source: String,
    pub offset: u64,
    pub truncated: bool,
}

/// The record of one extracted page; `None` when the language filter drops it.
pub fn page_record(ex: Extraction, facts: RecordFacts, opts: &CorpusOptions) -> Option<PageRecord> {
    let detected = opts.detect_lang(&ex.page.text, ex.page.lang.as_deref());
    let (lang, lang_score) = match detected {
        Some(d) => (Some(d.code), Some(d.score)),
        None => (None, None),
    };
    if !opts.keeps(lang, lang_score) {
        return None;
    }
    let meta = ex.page.meta;
    let title = meta.title.or_else(|| ex.page.title.clone());
    Some(PageRecord {
        id: facts.id,
        url: facts.url,
        date: facts.date,
        title,
        html_title: ex.page.title,
        author: meta.author,
        date_published: meta.date_published,
        description: meta.description,
        site_name: meta.site_name,
        canonical_url: meta.canonical_url,
        lang: lang.map(str::to_owned),
        lang_score,
        html_lang: ex.page.lang,
        page_type: ex.page.page_type.as_str().to_string(),
        charset: ex.charset.to_string(),
        charset_source: ex.charset_source.to_string(),
        text: ex.page.text,
        source: facts.source,
        offset: facts.offset,
        truncated: facts.truncated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_filter() {
        let all = CorpusOptions::default();
        assert!(all.keeps(None, None));
        let de_fr = CorpusOptions {
            langs: CorpusOptions::parse_langs(&["DE, fr".into()]),
            min_lang_score: 0.0,
            markdown: false,
            links: false,
        };
        assert_eq!(de_fr.langs, ["de", "fr"]);
        assert!(de_fr.keeps(Some("fr"), Some(0.1)));
        assert!(!de_fr.keeps(Some("en"), Some(1.0)));
        assert!(!de_fr.keeps(None, None));
        let sure = CorpusOptions {
            langs: Vec::new(),
            min_lang_score: 0.8,
            markdown: false,
            links: false,
        };
        assert!(sure.keeps(Some("en"), Some(0.8)));
        assert!(!sure.keeps(Some("en"), Some(0.79)));
        assert!(!sure.keeps(None, None));
    }
}
