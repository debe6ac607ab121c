//! Info Discoverer: informative content blocks by intra-site redundancy (Lin & Ho, KDD 2002,
//! "Discovering informative content blocks from Web documents"), as summarised in seed
//! `000_64bffcaad3915f21.txt`, section B.
//!
//! The paper partitions every page of a site into content blocks, describes each block by its
//! features (the page's meaningful terms, stop words removed), and computes for every feature
//! its entropy over the feature–document matrix of the site's pages,
//! `H(F_j) = −Σ_i w_ij · log_N w_ij` with the weights `w_ij` of feature `j` normalised over the
//! `N` pages. A block's entropy `H(CB)` is the mean entropy of its features: close to 1 means
//! its terms appear evenly on every page of the site (template: navigation, header, footer,
//! disclaimers), low means they are particular to this page (the informative content). A
//! block is redundant when `H(CB) > threshold`.
//!
//! **Streaming adaptation.** The paper works on a whole site at once; warcsift sees one page
//! at a time, so the statistics are accumulated per host in input order:
//!
//! - **Weights are binary** (a feature is present in a page or not). For binary weights the
//!   normalised distribution over pages is uniform over the `df` pages that contain the
//!   feature, and the entropy reduces exactly to `H(F) = ln df / ln N`: only the document
//!   frequency of each feature and the page count `N` of the host are needed. The page being
//!   decided is counted in both (the paper's matrix includes it).
//! - **Bounded state.** Per host, `df` is kept in a count-min sketch (`depth × width` saturating
//!   `u16` counters, conservative update, one increment per distinct feature and page), so a
//!   host costs a fixed `2·depth·width` bytes however many terms its pages have. Sketch
//!   collisions can only overestimate `df`, i.e. err towards "redundant". Every `window` pages
//!   the counters and `N` are halved, which keeps the counters from saturating, keeps the
//!   sketch's load (and so its error) bounded, and lets the statistics follow a site whose
//!   template changes. At most `max_hosts` hosts are tracked; the least recently seen host is
//!   evicted (its slot's memory reused). [`InfoDiscoverer::state_bytes`] and
//!   [`InfoDiscoverer::max_state_bytes`] report the size.
//! - **Deterministic.** Decisions depend only on the pages seen so far and their order: hashing
//!   is FNV-1a, eviction follows a use counter, and no hash-map iteration order enters any
//!   decision.
//! - **Content blocks** are the page's blocks as [`Doc`] numbers them: text between two
//!   block-level tags (`table`, `td`, `div`, `p`, `li`, `h1`, …). This refines the paper's
//!   `<TABLE>` partition to the containers modern pages use. A block without features (only
//!   punctuation, digits or stop words) follows the previous block that had features.
//! - **Features** are UAX #29 words (so CJK text yields one feature per ideograph), lower-cased,
//!   of at least two characters unless non-ASCII, minus an English stop-word list.
//!
//! **First pages of a host.** With fewer than `min_pages` pages of a host seen (the current one
//! included), or when the page has no URL/host, entropies mean nothing, and a single-page rule
//! decides instead: a block is kept when it has at least `min_words` words and a link density
//! (link characters / characters) of at most `max_link_density`; a short link-free block
//! between two kept blocks (a sub-heading, a dateline) is kept too.
//!
//! **Threshold.** `H(CB) > 0.6` is redundant. The paper leaves the threshold open (higher
//! means more recall, less precision); on the development set's news portals (cleanportaleval,
//! 71 pages of 4 hosts, bag-of-words F1) 0.6 scored 0.846, 0.7 0.830, 0.9 0.788, and the
//! single-page rule alone 0.819.
//!
//! **Stateful.** This method remembers the pages it has seen: the pipeline must call `select`
//! with the pages in input order (one instance, in order) for the output to be reproducible.
//! [`InfoDiscoverer::is_stateful`] says so. `explain` does not record the page.

use super::{Explanation, Method};
use crate::doc::Doc;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, PoisonError};
use unicode_segmentation::UnicodeSegmentation;

/// Bounds of the per-host state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateLimits {
    /// Hosts tracked at once (least recently seen evicted beyond).
    pub max_hosts: usize,
    /// Counters per sketch row.
    pub width: usize,
    /// Sketch rows (independent hashes).
    pub depth: usize,
    /// Pages after which a host's counters and page count are halved.
    pub window: u32,
}

impl Default for StateLimits {
    fn default() -> Self {
        // 4 × 4096 u16 counters = 32 KiB per host; 256 hosts = 8 MiB. A 64-page window keeps
        // the sketch's load below ~64 × (distinct terms per page) / 4096 counters per row.
        StateLimits {
            max_hosts: 256,
            width: 4096,
            depth: 4,
            window: 64,
        }
    }
}

/// The single-page rule for a host's first pages.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fallback {
    /// Words a block needs to be kept on its own.
    pub min_words: u32,
    /// Largest link density (link characters / characters) of a kept block.
    pub max_link_density: f64,
}

impl Default for Fallback {
    fn default() -> Self {
        Fallback {
            min_words: 8,
            max_link_density: 0.33,
        }
    }
}

/// Info Discoverer with per-host state.
pub struct InfoDiscoverer {
    /// A block is redundant (dropped) when its entropy `H(CB)` exceeds this.
    pub threshold: f64,
    /// Pages of a host (the current one included) needed before entropies decide.
    pub min_pages: u32,
    /// Rule for a host's first pages and for pages without a host.
    pub fallback: Fallback,
    limits: StateLimits,
    state: Mutex<State>,
}

impl Default for InfoDiscoverer {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for InfoDiscoverer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InfoDiscoverer")
            .field("threshold", &self.threshold)
            .field("min_pages", &self.min_pages)
            .field("fallback", &self.fallback)
            .field("limits", &self.limits)
            .field("hosts", &self.hosts())
            .finish()
    }
}

impl InfoDiscoverer {
    /// Remembers pages across calls: `select` must see pages in input order.
    pub const STATEFUL: bool = true;

    /// Threshold 0.6, entropies from the 3rd page of a host on, default state bounds.
    pub fn new() -> Self {
        Self::with_limits(StateLimits::default())
    }

    pub fn with_limits(limits: StateLimits) -> Self {
        let limits = StateLimits {
            max_hosts: limits.max_hosts.max(1),
            width: limits.width.max(1),
            depth: limits.depth.max(1),
            window: limits.window.max(2),
        };
        InfoDiscoverer {
            threshold: 0.6,
            min_pages: 3,
            fallback: Fallback::default(),
            limits,
            state: Mutex::new(State::default()),
        }
    }

    /// Whether this method keeps state across pages (it does): the pipeline must present
    /// pages in input order to one instance.
    pub fn is_stateful(&self) -> bool {
        Self::STATEFUL
    }

    pub fn limits(&self) -> StateLimits {
        self.limits
    }

    /// Hosts currently tracked.
    pub fn hosts(&self) -> usize {
        self.lock().slots.len()
    }

    /// Pages counted for `host` (after halvings), if it is tracked.
    pub fn pages_seen(&self, host: &str) -> Option<u32> {
        let st = self.lock();
        st.index.get(host).map(|&i| st.slots[i].pages)
    }

    /// Approximate heap bytes held by the state now.
    pub fn state_bytes(&self) -> usize {
        let st = self.lock();
        let per_entry =
            std::mem::size_of::<(String, usize)>() + std::mem::size_of::<(u64, usize)>();
        st.slots
            .iter()
            .map(|s| s.counts.capacity() * 2 + s.host.capacity() + per_entry)
            .sum::<usize>()
            + st.slots.capacity() * std::mem::size_of::<HostStats>()
    }

    /// Upper bound of [`Self::state_bytes`] under the configured limits.
    pub fn max_state_bytes(&self) -> usize {
        let l = self.limits;
        let per_entry =
            std::mem::size_of::<(String, usize)>() + std::mem::size_of::<(u64, usize)>();
        // Slot vector growth may over-allocate up to 2× its length.
        l.max_hosts
            * (l.width * l.depth * 2
                + MAX_HOST_BYTES
                + per_entry
                + 2 * std::mem::size_of::<HostStats>())
    }

    /// Forget every host.
    pub fn reset(&self) {
        *self.lock() = State::default();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Block statistics and decisions for `doc`; `record` adds the page to its host's state.
    fn analyse(&self, doc: &Doc, record: bool) -> Analysis {
        let nblocks = doc
            .segments
            .iter()
            .map(|s| s.block as usize + 1)
            .max()
            .unwrap_or(0);
        let mut blocks = vec![BlockStat::default(); nblocks];
        // (block, feature hash) for every feature occurrence, in document order.
        let mut occ: Vec<(u32, u64)> = Vec::new();
        let mut buf = String::new();
        for s in doc.segments.iter().filter(|s| !s.hidden) {
            let b = &mut blocks[s.block as usize];
            b.chars += s.chars;
            if s.link {
                b.link_chars += s.chars;
            }
            for w in doc.seg_text(s).unicode_words() {
                b.words += 1;
                buf.clear();
                buf.extend(w.chars().flat_map(char::to_lowercase));
                if is_feature(&buf) {
                    occ.push((s.block, fnv1a(buf.as_bytes())));
                }
            }
        }
        let host = doc.url.as_deref().and_then(host_of);
        let mut pages = 0u32;
        if let Some(host) = &host {
            let mut distinct: Vec<u64> = occ.iter().map(|o| o.1).collect();
            distinct.sort_unstable();
            distinct.dedup();
            let mut st = self.lock();
            let l = self.limits;
            let slot = if record {
                Some(st.slot(host, l))
            } else {
                st.index.get(host.as_str()).copied()
            };
            let hs = slot.map(|i| &mut st.slots[i]);
            match hs {
                Some(hs) if record => {
                    if hs.pages >= l.window {
                        hs.halve();
                    }
                    for &f in &distinct {
                        hs.add(f, l);
                    }
                    hs.pages = hs.pages.saturating_add(1);
                    pages = hs.pages;
                }
                Some(hs) => pages = hs.pages.saturating_add(1),
                None => pages = 1,
            }
            if pages >= self.min_pages.max(2) {
                let hs = slot.map(|i| &st.slots[i]);
                let ln_n = f64::from(pages).ln();
                for &(b, f) in &occ {
                    let est = hs.map_or(0, |h| h.estimate(f, l));
                    let df = if record { est } else { est.saturating_add(1) };
                    let df = df.clamp(1, pages);
                    let blk = &mut blocks[b as usize];
                    blk.feat_sum += f64::from(df).ln() / ln_n;
                    blk.feats += 1;
                }
            }
        }
        let entropy_mode = host.is_some() && pages >= self.min_pages.max(2);
        let keep = if entropy_mode {
            let mut keep = vec![false; nblocks];
            let mut last = false;
            for (k, b) in keep.iter_mut().zip(&blocks) {
                if b.feats > 0 {
                    last = b.entropy() <= self.threshold;
                }
                *k = last;
            }
            keep
        } else {
            self.fallback_keep(&blocks)
        };
        Analysis {
            blocks,
            keep,
            entropy_mode,
            pages,
        }
    }

    /// The single-page rule: long, link-poor blocks, and link-free blocks between two of them.
    fn fallback_keep(&self, blocks: &[BlockStat]) -> Vec<bool> {
        let fb = self.fallback;
        let mut keep: Vec<bool> = blocks
            .iter()
            .map(|b| b.words >= fb.min_words && b.link_density() <= fb.max_link_density)
            .collect();
        // Blocks with text, in order; fill link-free gaps between two kept ones.
        let text: Vec<usize> = (0..blocks.len()).filter(|&i| blocks[i].chars > 0).collect();
        let base = keep.clone();
        for w in text.windows(3) {
            let (p, i, n) = (w[0], w[1], w[2]);
            if !base[i] && base[p] && base[n] && blocks[i].link_chars == 0 {
                keep[i] = true;
            }
        }
        keep
    }
}

/// Longest host name kept (DNS limit).
const MAX_HOST_BYTES: usize = 253;

#[derive(Debug, Clone, Copy, Default)]
struct BlockStat {
    chars: u32,
    link_chars: u32,
    words: u32,
    /// Sum of the entropies of the block's feature occurrences.
    feat_sum: f64,
    feats: u32,
}

impl BlockStat {
    fn entropy(&self) -> f64 {
        if self.feats == 0 {
            f64::NAN
        } else {
            self.feat_sum / f64::from(self.feats)
        }
    }

    fn link_density(&self) -> f64 {
        if self.chars == 0 {
            0.0
        } else {
            f64::from(self.link_chars) / f64::from(self.chars)
        }
    }
}

struct Analysis {
    blocks: Vec<BlockStat>,
    keep: Vec<bool>,
    entropy_mode: bool,
    pages: u32,
}

#[derive(Default)]
struct State {
    slots: Vec<HostStats>,
    /// Host → slot (looked up only, never iterated).
    index: HashMap<String, usize>,
    /// Last use → slot, oldest first.
    lru: BTreeMap<u64, usize>,
    tick: u64,
}

struct HostStats {
    host: String,
    pages: u32,
    last_used: u64,
    /// `depth` rows of `width` counters.
    counts: Vec<u16>,
}

impl State {
    /// The slot of `host`, created (or taken from the least recently seen host) if needed.
    fn slot(&mut self, host: &str, l: StateLimits) -> usize {
        self.tick += 1;
        let tick = self.tick;
        if let Some(&i) = self.index.get(host) {
            let old = self.slots[i].last_used;
            self.lru.remove(&old);
            self.slots[i].last_used = tick;
            self.lru.insert(tick, i);
            return i;
        }
        let i = if self.slots.len() < l.max_hosts {
            self.slots.push(HostStats {
                host: String::new(),
                pages: 0,
                last_used: tick,
                counts: vec![0; l.width * l.depth],
            });
            self.slots.len() - 1
        } else {
            let Some((old_tick, i)) = self.lru.pop_first() else {
                // Unreachable with max_hosts ≥ 1; degrade to sharing slot 0.
                return 0;
            };
            let _ = old_tick;
            let s = &mut self.slots[i];
            self.index.remove(s.host.as_str());
            s.counts.fill(0);
            s.pages = 0;
            i
        };
        let s = &mut self.slots[i];
        s.host.clear();
        s.host.push_str(host);
        s.last_used = tick;
        self.index.insert(host.to_owned(), i);
        self.lru.insert(tick, i);
        i
    }
}

impl HostStats {
    fn cell(f: u64, row: usize, width: usize) -> usize {
        let h1 = f & 0xffff_ffff;
        let h2 = (f >> 32) | 1;
        let h = h1.wrapping_add((row as u64).wrapping_mul(h2));
        row * width + (h % width as u64) as usize
    }

    fn estimate(&self, f: u64, l: StateLimits) -> u32 {
        (0..l.depth)
            .map(|r| {
                self.counts
                    .get(Self::cell(f, r, l.width))
                    .copied()
                    .unwrap_or(0)
            })
            .min()
            .map_or(0, u32::from)
    }

    /// Conservative update: raise only the counters below the new estimate.
    fn add(&mut self, f: u64, l: StateLimits) {
        let new = self
            .estimate(f, l)
            .saturating_add(1)
            .min(u32::from(u16::MAX)) as u16;
        for r in 0..l.depth {
            if let Some(c) = self.counts.get_mut(Self::cell(f, r, l.width)) {
                *c = (*c).max(new);
            }
        }
    }

    fn halve(&mut self) {
        for c in &mut self.counts {
            *c /= 2;
        }
        self.pages /= 2;
    }
}

/// The host of an absolute URL, lower-cased, without userinfo, port and a leading `www.`.
pub fn host_of(url: &str) -> Option<String> {
    let url = url.trim();
    let rest = match url.find("://") {
        Some(i) => &url[i + 3..],
        None => url.strip_prefix("//")?,
    };
    let end = rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len());
    let auth = &rest[..end];
    let auth = auth.rsplit('@').next().unwrap_or(auth);
    let host = if auth.starts_with('[') {
        auth.split_inclusive(']').next().unwrap_or(auth)
    } else {
        auth.split(':').next().unwrap_or(auth)
    };
    let host = host.trim_end_matches('.').to_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    if host.is_empty() {
        return None;
    }
    let mut host = host.to_owned();
    while host.len() > MAX_HOST_BYTES {
        host.pop();
    }
    Some(host)
}

/// A lower-cased word that is a feature: two characters or more (or non-ASCII, so single CJK
/// ideographs count), not a stop word.
fn is_feature(w: &str) -> bool {
    let mut chars = w.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let long = chars.next().is_some();
    (long || (!first.is_ascii() && first.is_alphanumeric()))
        && STOP_WORDS.binary_search(&w).is_err()
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// English stop words (sorted, for binary search).
#[rustfmt::skip]
const STOP_WORDS: &[&str] = &[
    "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
    "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both",
    "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "few",
    "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers",
    "herself", "him", "himself", "his", "how", "if", "in", "into", "is", "it", "it's", "its",
    "itself", "just", "me", "more", "most", "my", "myself", "no", "nor", "not", "now", "of",
    "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over",
    "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their",
    "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those",
    "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when",
    "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your",
    "yours", "yourself", "yourselves",
];

/// The method of this file, as `--algorithm` lists it.
pub fn methods() -> Vec<Box<dyn Method>> {
    vec![Box::new(InfoDiscoverer::new())]
}

impl Method for InfoDiscoverer {
    fn stateful(&self) -> bool {
        Self::STATEFUL
    }

    fn name(&self) -> &'static str {
        "info-discoverer"
    }

    fn describe(&self) -> &'static str {
        "Info Discoverer: per-host entropy of block terms, H(CB) > 0.6 is template; stateful, first 2 pages of a host use a link-density rule (seed 000 §B; Lin & Ho 2002)"
    }

    fn select(&self, doc: &Doc) -> Vec<bool> {
        let a = self.analyse(doc, true);
        doc.segments
            .iter()
            .map(|s| !s.hidden && a.keep.get(s.block as usize).copied().unwrap_or(false))
            .collect()
    }

    /// Per block: words, link density and `H(CB)` (NaN without features or before
    /// `min_pages`); what `select` would decide for this page, without recording it.
    fn explain(&self, doc: &Doc) -> Option<Explanation> {
        let a = self.analyse(doc, false);
        let words = a.blocks.iter().map(|b| f64::from(b.words)).collect();
        let ld = a.blocks.iter().map(BlockStat::link_density).collect();
        let h = a
            .blocks
            .iter()
            .map(|b| {
                if a.entropy_mode {
                    b.entropy()
                } else {
                    f64::NAN
                }
            })
            .collect();
        let (plot, thresholds) = if a.entropy_mode {
            (
                vec![2],
                vec![(
                    format!("H(CB) threshold {} (N = {} pages)", self.threshold, a.pages),
                    self.threshold,
                )],
            )
        } else {
            (
                vec![1],
                vec![(
                    format!(
                        "fallback: link density ≤ {} and ≥ {} words",
                        self.fallback.max_link_density, self.fallback.min_words
                    ),
                    self.fallback.max_link_density,
                )],
            )
        };
        Some(Explanation {
            unit: "block",
            columns: vec![
                ("words".into(), words),
                ("link density".into(), ld),
                ("H(CB)".into(), h),
            ],
            plot,
            thresholds,
            kept: a.keep,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARTICLES: [&str; 6] = [
        "The river authority approved a new flood barrier after months of public hearings. \
         Engineers expect construction to begin next spring and finish within two years.",
        "Local bakers celebrated a record harvest of heritage wheat varieties this autumn. \
         Several families reopened stone mills that had been closed for generations.",
        "A chess prodigy aged eleven defeated three grandmasters during the weekend tournament. \
         Her coach credited daily puzzles and endgame studies for the remarkable result.",
        "Volunteers restored an abandoned railway station into a community library and cafe. \
         Donated books arrived from neighbouring villages by bicycle caravan.",
        "Astronomers observed a faint comet passing close to Jupiter's orbit last Tuesday. \
         Amateur telescopes captured its greenish tail above northern horizons.",
        "The orchestra premiered a symphony composed entirely by hospital nurses. \
         Proceeds from ticket sales will fund music therapy for patients.",
    ];

    fn page(i: usize) -> String {
        let a = ARTICLES[i % ARTICLES.len()];
        format!(
            "<html><body>\
             <div class=header><h1>Daily Gazette Online Edition</h1></div>\
             <ul class=nav><li><a href=/>Homepage</a></li><li><a href=/world>World news</a></li>\
             <li><a href=/sport>Sports coverage</a></li><li><a href=/tech>Technology desk</a></li></ul>\
             <div class=article><h2>Story number {i}</h2><p>{a}</p><p>{a}</p></div>\
             <div class=footer>Copyright Daily Gazette Limited. Registered publisher, privacy statement \
             and subscription terms apply across every regional edition.</div>\
             </body></html>"
        )
    }

    fn run(m: &InfoDiscoverer, html: &str, url: &str) -> String {
        crate::extract::extract_page(html, Some(url), m).text
    }

    #[test]
    fn stop_words_are_sorted() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn hosts_are_normalised() {
        assert_eq!(
            host_of("https://user@WWW.Example.com:8080/a?b").as_deref(),
            Some("example.com")
        );
        assert_eq!(host_of("http://[::1]:80/").as_deref(), Some("[::1]"));
        assert_eq!(host_of("/relative/path"), None);
        assert_eq!(host_of("http:///x"), None);
    }

    #[test]
    fn template_dropped_from_kth_page_articles_kept() {
        let m = InfoDiscoverer::new();
        for (i, article) in ARTICLES.iter().enumerate() {
            let text = run(
                &m,
                &page(i),
                &format!("https://www.gazette.example/story/{i}"),
            );
            let first_sentence = article.split('.').next().unwrap();
            assert!(text.contains(first_sentence), "page {i}: {text}");
            if (i as u32) + 1 < m.min_pages {
                // Fallback: the long footer passes the single-page rule, the nav does not.
                assert!(text.contains("Copyright Daily Gazette"), "page {i}: {text}");
                assert!(!text.contains("Technology desk"), "page {i}: {text}");
            } else {
                assert!(!text.contains("Copyright"), "page {i}: {text}");
                assert!(!text.contains("Technology desk"), "page {i}: {text}");
                assert!(!text.contains("Online Edition"), "page {i}: {text}");
            }
        }
        assert_eq!(m.pages_seen("gazette.example"), Some(6));
    }

    #[test]
    fn other_host_does_not_share_state() {
        let m = InfoDiscoverer::new();
        for i in 0..4 {
            run(&m, &page(i), &format!("http://gazette.example/{i}"));
        }
        // Same template on another host: first page, so the fallback keeps the footer.
        let text = run(&m, &page(4), "http://mirror.example/4");
        assert!(text.contains("Copyright Daily Gazette"), "{text}");
        assert_eq!(m.pages_seen("mirror.example"), Some(1));
        // No URL: fallback, nothing recorded.
        let text = run(&m, &page(5), "not a url");
        assert!(text.contains("Copyright Daily Gazette"), "{text}");
        assert_eq!(m.hosts(), 2);
    }

    #[test]
    fn deterministic_for_an_input_order() {
        let out = |m: &InfoDiscoverer| -> Vec<String> {
            (0..12)
                .map(|i| run(m, &page(i), &format!("http://h{}.example/{i}", i % 3)))
                .collect()
        };
        assert_eq!(out(&InfoDiscoverer::new()), out(&InfoDiscoverer::new()));
    }

    #[test]
    fn explain_does_not_record() {
        let m = InfoDiscoverer::new();
        for i in 0..3 {
            run(&m, &page(i), &format!("http://gazette.example/{i}"));
        }
        let mut doc = Doc::parse(&page(3));
        doc.url = Some("http://gazette.example/3".into());
        let ex = m.explain(&doc).unwrap();
        assert_eq!(m.pages_seen("gazette.example"), Some(3));
        assert_eq!(ex.kept, m.analyse(&doc, true).keep);
        assert_eq!(ex.columns[2].1.len(), ex.kept.len());
        assert!(ex.thresholds[0].0.contains("H(CB)"));
    }

    #[test]
    fn state_stays_bounded() {
        let m = InfoDiscoverer::new();
        let html = page(0);
        let mut doc = Doc::parse(&html);
        for i in 0..10_000 {
            doc.url = Some(format!("https://site{i}.example/page"));
            m.select(&doc);
            assert!(m.hosts() <= m.limits().max_hosts);
        }
        assert_eq!(m.hosts(), m.limits().max_hosts);
        assert!(
            m.state_bytes() <= m.max_state_bytes(),
            "{}",
            m.state_bytes()
        );
        assert!(m.max_state_bytes() < 16 << 20);
        // The most recent hosts survive, the oldest were evicted.
        assert_eq!(m.pages_seen("site9999.example"), Some(1));
        assert_eq!(m.pages_seen("site0.example"), None);
        // Many pages of one host: the window halves the counts, the template still goes.
        let m = InfoDiscoverer::with_limits(StateLimits {
            window: 8,
            ..StateLimits::default()
        });
        for i in 0..40 {
            let text = run(&m, &page(i), "http://one.example/x");
            if i >= 2 {
                assert!(!text.contains("Copyright"), "page {i}: {text}");
                assert!(text.contains(&ARTICLES[i % 6][..40]), "page {i}: {text}");
            }
        }
        assert!(m.pages_seen("one.example").unwrap() <= 8);
    }

    #[test]
    fn no_panic_on_odd_input() {
        let m = InfoDiscoverer::with_limits(StateLimits {
            max_hosts: 0,
            width: 0,
            depth: 0,
            window: 0,
        });
        for (html, url) in [
            ("", "http://a.example/"),
            ("<p>x</p>", "http://a.example/"),
            ("<p>日本語のテキスト</p>", "http://b.example/"),
            ("<p>the of and</p><p>| |</p>", "http://a.example/"),
        ] {
            for _ in 0..4 {
                run(&m, html, url);
            }
        }
        assert_eq!(m.hosts(), 1);
    }
}
