//! `auto`'s learned stage: per block, the signals the rules of [`super::auto`] computed
//! (pruning, container scores, region, link quota, position, neighbours, declared words), and
//! a small gradient-boosted tree ensemble that makes the final keep/drop call over them.
//!
//! The rules stay the backbone: their verdict (`rules_kept`) and everything they measured are
//! features, so the model learns where they go wrong (a heading above the article, a caption
//! below it, a link-rich paragraph of a wiki page, a teaser that looks like prose) rather than
//! re-deriving content extraction from scratch. This is the "hand-tuned scoring and a small
//! learned model, both" of the default-extractor issue; the combination of block features
//! follows the block classifiers of the seeds (BTE's and jusText's block view, LQF's link
//! quota, CETR's density, TKD's title-keyword overlap) rather than any one of them.
//!
//! A model file may add a second stage (`"context"`): trees over each block's first-stage
//! probability, its neighbours' and its siblings' ([`context_features`]), and the block
//! features again, whose probability replaces the first's ([`Stages`]).
//!
//! The call is made per page, not per block: the blocks whose union maximises the page's
//! expected word F1 under the model's probabilities ([`expected_f1_keep`]), since the page
//! is scored by an F1 that no per-block threshold maximises. A model file without
//! `expected_f1` decides per block, by the thresholds of [`Model`].
//!
//! The model ships as data (`auto_model.json`, beside this file), trained by
//! `ops/train_auto.py` with a fixed seed from the block table that
//! `cargo run --release --example auto_blocks` writes. `WARCSIFT_AUTO_MODEL=path` loads
//! another model file instead (the training script uses it for leave-one-package-out
//! validation). A model whose feature list differs from [`FEATURE_NAMES`] is refused with a
//! message and the rules decide alone.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use serde::Deserialize;

use crate::script::{is_cjk, text_width};

use super::auto_blocks::{is_prose, Block, Decision, FULL_STOPS};
use super::auto_lang::{len_bit, spaceless_words, word_key, Stopwords};
use super::auto_words::{
    words_known, Words, R_COMMENT, R_CONTENT, R_HEADER, R_STRONG, R_WEAK, W_ARTICLEBODY, W_CAPTION,
    W_META,
};
use crate::doc::Doc;
use crate::tokenize::Tag;

/// The features, in the order of a row of `features` (and of the model's columns).
pub const FEATURE_NAMES: [&str; NF] = [
    "log_chars",
    "link_density",
    "punct_per_word",
    "log_words",
    "heading",
    "pruned",
    "rules_kept",
    "in_region",
    "score_rel",
    "use_region",
    "region_share",
    "pos_block",
    "pos_chars",
    "tag_p",
    "tag_li",
    "tag_td",
    "tag_div",
    "under_boiler_heading",
    "tag_pre",
    "tag_blockquote",
    "tag_dl",
    "tag_figcaption",
    "page_type",
    "anc_article",
    "anc_content",
    "anc_strong",
    "anc_weak",
    "anc_comment",
    "anc_navtag",
    "anc_header",
    "anc_list",
    "anc_table",
    "anc_form",
    "depth",
    "depth_rel",
    "prev_log_chars",
    "prev_ld",
    "prev_kept",
    "next_log_chars",
    "next_ld",
    "next_kept",
    "ends_punct",
    "cap_words",
    "digit_frac",
    "copyright",
    "avg_word_len",
    "container_prose_share",
    "page_log_chars",
    "page_ld",
    "log_blocks",
    "dist_kept",
    "is_prose",
    "title_overlap",
    "link_segs",
    "upper_frac",
    "prose_before",
    "prose_after",
    "stopword_density",
    "boiler_phrases",
    "own_caption",
    "own_meta",
    "in_grid",
    "before_region",
    "after_region",
];

/// Number of features per block.
pub const NF: usize = 64;

/// The column of `log_words` (`ln(1 + words)`) in a row: expected-F1 decoding weighs each
/// block by its words.
const LOG_WORDS: usize = 3;
const _: () = assert!(matches!(FEATURE_NAMES[LOG_WORDS].as_bytes(), b"log_words"));

/// Column of the `pruned` feature.
const PRUNED: usize = 5;

/// Phrases of page furniture (English), matched in the lower-cased text of a block.
const BOILER_PHRASES: &[&str] = &[
    "posted by",
    "posted on",
    "read more",
    "click here",
    "share this",
    "subscribe",
    "sign up",
    "log in",
    "login",
    "comments",
    "leave a reply",
    "related",
    "advertisement",
    "tags:",
    "filed under",
    "permalink",
    "previous",
    "next",
    "back to top",
    "privacy",
    "terms of",
    "cookie",
    "follow us",
    "all rights",
];

/// [`BOILER_PHRASES`] in the other languages of Common Crawl's twenty commonest (de, fr,
/// es, it, pt, pl, nl, ru, zh, ja, ko, tr, vi, id, cs, fa, ar, sv, hu) and Ukrainian,
/// lower-cased as `str::to_lowercase` makes them. Hand-written: no crate lists page
/// furniture. Each phrase is specific enough not to occur in running prose often (no bare
/// "weiter" or "mehr", Vietnamese "chia sẻ bài viết" rather than "chia sẻ", which prose
/// uses for sharing anything); one phrase shared by languages ("foto:") is listed once,
/// and Swedish "kommentarer" is left to German "kommentare", which it holds. (Two phrases
/// still hold others: German "alle rechte" is in Dutch "alle rechten", Arabic "اقرأ أيضا"
/// in its spelling with tanween, "اقرأ أيضاً"; a text with the longer one counts both.)
const BOILER_PHRASES_INTL: &[&str] = &[
    // de
    "lesen sie auch",
    "ähnliche beiträge",
    "ähnliche artikel",
    "weiterlesen",
    "alle rechte",
    "foto:",
    "kommentare",
    "zum seitenanfang",
    "teilen auf",
    "impressum",
    // fr
    "lire aussi",
    "lire la suite",
    "articles similaires",
    "tous droits",
    "partager sur",
    "commentaires",
    "mentions légales",
    "publié le",
    // es
    "leer más",
    "artículos relacionados",
    "todos los derechos",
    "compartir en",
    "comentarios",
    "publicado por",
    "aviso legal",
    // it
    "leggi anche",
    "leggi tutto",
    "articoli correlati",
    "tutti i diritti",
    "condividi su",
    "commenti",
    "pubblicato da",
    // pt
    "veja também",
    "leia mais",
    "leia também",
    "posts relacionados",
    "todos os direitos",
    "compartilhe",
    "comentários",
    // pl
    "zobacz również",
    "zobacz też",
    "czytaj także",
    "czytaj więcej",
    "podobne wpisy",
    "wszelkie prawa",
    "udostępnij",
    "komentarze",
    // nl
    "lees ook",
    "lees meer",
    "gerelateerde artikelen",
    "alle rechten",
    "delen op",
    "reacties",
    "geplaatst door",
    "geplaatst op",
    // ru
    "читайте также",
    "читать далее",
    "подробнее",
    "похожие статьи",
    "похожие записи",
    "все права",
    "поделиться",
    "комментарии",
    // The rest of Common Crawl's twenty commonest languages. zh (simplified and
    // traditional; counted in characters, so only phrases no sentence is made of)
    "相关文章",
    "相關文章",
    "相关阅读",
    "阅读全文",
    "閱讀全文",
    "上一篇",
    "下一篇",
    "分享到",
    "发表评论",
    "發表評論",
    "责任编辑",
    "免责声明",
    // ja
    "関連記事",
    "続きを読む",
    "前の記事",
    "次の記事",
    "シェアする",
    "コメントを書く",
    "人気記事",
    "プライバシーポリシー",
    // ko
    "관련기사",
    "관련 기사",
    "더보기",
    "이전 글",
    "다음 글",
    "댓글",
    "공유하기",
    "개인정보처리방침",
    // tr
    "ilgili haberler",
    "benzer yazılar",
    "devamını oku",
    "yorum yap",
    "yorumlar",
    "gizlilik politikası",
    // vi
    "bài viết liên quan",
    "tin liên quan",
    "xem thêm",
    "đọc thêm",
    "bình luận",
    "chia sẻ bài viết",
    "chính sách bảo mật",
    // id
    "baca juga",
    "artikel terkait",
    "berita terkait",
    "selengkapnya",
    "bagikan",
    "kebijakan privasi",
    // cs
    "související články",
    "čtěte také",
    "číst dál",
    "číst více",
    "sdílet",
    "komentáře",
    // fa
    "مطالب مرتبط",
    "اخبار مرتبط",
    "ادامه مطلب",
    "بیشتر بخوانید",
    "اشتراک گذاری",
    "ارسال نظر",
    // ar
    "مقالات ذات صلة",
    "اقرأ أيضا",
    "اقرأ أيضاً",
    "اقرأ المزيد",
    "التعليقات",
    "سياسة الخصوصية",
    // sv
    "relaterade artiklar",
    "läs också",
    "läs mer",
    "dela på",
    "integritetspolicy",
    // hu
    "kapcsolódó cikkek",
    "ezt is olvasd",
    "tovább olvasom",
    "megosztás",
    "hozzászólások",
    "adatvédelmi",
    // uk
    "читайте також",
    "схожі статті",
    "коментарі",
    "поділитися",
];

/// Ancestor-or-self flags per element, one bit each (computed top-down once per page).
const A_ARTICLE: u16 = 1;
const A_CONTENT: u16 = 1 << 1;
const A_STRONG: u16 = 1 << 2;
const A_WEAK: u16 = 1 << 3;
const A_COMMENT: u16 = 1 << 4;
const A_NAVTAG: u16 = 1 << 5;
const A_HEADER: u16 = 1 << 6;
const A_LIST: u16 = 1 << 7;
const A_TABLE: u16 = 1 << 8;
const A_FORM: u16 = 1 << 9;

fn ancestor_flags(doc: &Doc, ident_bits: &[u16]) -> Vec<u16> {
    let mut flags = vec![0u16; doc.elements.len()];
    for (i, e) in doc.elements.iter().enumerate().skip(1) {
        let mut f = flags[e.parent as usize];
        match e.tag {
            Tag::Article | Tag::Main => f |= A_ARTICLE,
            Tag::Nav | Tag::Aside | Tag::Footer | Tag::Menu => f |= A_NAVTAG,
            Tag::Header => f |= A_HEADER,
            Tag::Ul | Tag::Ol | Tag::Dl => f |= A_LIST,
            Tag::Table => f |= A_TABLE,
            Tag::Form => f |= A_FORM,
            _ => {}
        }
        let bits = ident_bits[i];
        if bits & W_ARTICLEBODY != 0 {
            f |= A_ARTICLE;
        }
        let r = (bits & 0xff) as u8;
        for (role, a) in [
            (R_CONTENT, A_CONTENT),
            (R_STRONG, A_STRONG),
            (R_WEAK | R_HEADER, A_WEAK),
            (R_COMMENT, A_COMMENT),
        ] {
            if r & role != 0 {
                f |= a;
            }
        }
        flags[i] = f;
    }
    flags
}

fn bit(flags: u16, b: u16) -> f32 {
    f32::from(u8::from(flags & b != 0))
}

fn flag(b: bool) -> f32 {
    f32::from(u8::from(b))
}

/// `ln(1 + x)` of a count, as every feature that takes it computes it. Counts below
/// [`LOG1P_TABLE`] (nearly all block, word and neighbour counts) come from a table filled by
/// that same expression, so the value is the same bit for bit; the rest are computed.
fn log1p(x: u32) -> f32 {
    static TABLE: OnceLock<Vec<f32>> = OnceLock::new();
    let table = TABLE.get_or_init(|| (0..LOG1P_TABLE).map(log1p_direct).collect());
    match table.get(x as usize) {
        Some(&v) => v,
        None => log1p_direct(x),
    }
}

/// Entries of [`log1p`]'s table (16 KiB).
const LOG1P_TABLE: u32 = 4096;

fn log1p_direct(x: u32) -> f32 {
    (x as f32).ln_1p()
}

/// What a word of a script without case adds to `cap_words`' share, and a letter to
/// `upper_frac`'s: the shares of the devset's blocks of five words or more, weighted by
/// words (0.134 and 0.039 over 270,288 blocks of cleaneval, dragnet and `wcxb`), so that
/// Chinese, Arabic or Hindi text reads as unremarkable on both, not as text without a
/// single capital (which, in English, it would be).
const CASELESS_CAP_SHARE: f32 = 0.13;
const CASELESS_UPPER_SHARE: f32 = 0.04;

/// Text statistics of one block.
#[derive(Debug, Default, PartialEq)]
struct TextStats {
    words: u32,
    word_chars: u32,
    cap_words: u32,
    /// Words that begin with a letter of a script without case (Chinese, Japanese, Korean,
    /// Arabic, Hebrew, Thai, Devanagari, ...): neither capitalised nor not.
    caseless_words: u32,
    digits: u32,
    letters: u32,
    upper: u32,
    /// Letters of a script without case.
    caseless: u32,
    ends_punct: bool,
    copyright: bool,
    title_words: u32,
    stopwords: u32,
    /// What `stopwords` is a share of: the words, or for a CJK language the CJK characters.
    stop_base: u32,
    boiler_phrases: u32,
}

/// A page's title words (lower-cased, sorted, deduplicated) with a 64-bit filter of their
/// (length, first byte) pairs: most words of a block are not title words, and the filter
/// rules them out without a search.
struct TitleWords {
    words: Vec<String>,
    filter: u64,
    /// The [`word_key`]s of the words of at most eight bytes, all ASCII, sorted: an ASCII
    /// word of the text that short is looked up by its key, with no string compared.
    short: Vec<u64>,
}

impl TitleWords {
    fn new(title: Option<&str>) -> TitleWords {
        let words = title_words(title);
        let filter = words.iter().fold(0, |f, w| f | Self::bit(w));
        let mut short: Vec<u64> = words
            .iter()
            .filter(|w| w.is_ascii())
            .filter_map(|w| word_key(w.as_bytes()))
            .collect();
        short.sort_unstable();
        TitleWords {
            words,
            filter,
            short,
        }
    }

    /// [`TitleWords::contains`] of a word of letters and digits, lower-cased, of at most
    /// eight bytes, given as its [`word_key`].
    fn contains_key(&self, key: u64) -> bool {
        self.short.binary_search(&key).is_ok()
    }

    fn bit(w: &str) -> u64 {
        Self::bit_of(w.as_bytes().first().copied().unwrap_or(0), w.len())
    }

    /// [`TitleWords::bit`] of a word from its first byte and length.
    fn bit_of(first: u8, len: usize) -> u64 {
        len_bit(first, len)
    }

    fn contains(&self, w: &str) -> bool {
        self.filter & Self::bit(w) != 0
            && self.words.binary_search_by(|t| t.as_str().cmp(w)).is_ok()
    }
}

/// Phrases the copyright flag looks for in the lower-cased text (besides `©`).
/// "All rights reserved" in the languages of [`BOILER_PHRASES_INTL`] too.
const COPYRIGHT_PHRASES: &[&str] = &[
    "copyright",
    "all rights reserved",
    "(c) ",
    "alle rechte vorbehalten",
    "tous droits réservés",
    "todos los derechos reservados",
    "tutti i diritti riservati",
    "todos os direitos reservados",
    "wszelkie prawa zastrzeżone",
    "alle rechten voorbehouden",
    "все права защищены",
    "版权所有",
    "版權所有",
    "無断転載",
    "著作権",
    "무단전재",
    "무단 전재",
    "tüm hakları saklıdır",
    "bản quyền",
    "hak cipta",
    "všechna práva vyhrazena",
    "کلیه حقوق",
    "جميع الحقوق محفوظة",
    "alla rättigheter förbehållna",
    "minden jog fenntartva",
    "усі права захищені",
    "всі права захищені",
];

/// What heads a section of other pages' items: recommendations, what others bought or
/// viewed, similar products (lower-cased; the languages of [`BOILER_PHRASES_INTL`]). A shop
/// puts them under the product, a magazine under the article, as cards that read like the
/// page's own items; their heading is how a reader tells them apart.
const RECOMMEND_PHRASES: &[&str] = &[
    "you may also like",
    "you might also like",
    "you may also be interested",
    "also bought",
    "also viewed",
    "also purchased",
    "frequently bought together",
    "recently viewed",
    "recommended for you",
    "similar products",
    "similar items",
    "more from",
    "more like this",
    "complete the look",
    "people also",
    "könnte dir auch gefallen",
    "könnte ihnen auch gefallen",
    "ähnliche produkte",
    "zuletzt angesehen",
    "vous aimerez aussi",
    "vous aimerez peut-être",
    "produits similaires",
    "también te puede gustar",
    "productos similares",
    "potrebbe interessarti",
    "prodotti simili",
    "você também pode gostar",
    "produtos semelhantes",
    "podobne produkty",
    "похожие товары",
    "схожі товари",
    "猜你喜欢",
    "相关推荐",
    "相关产品",
    "相關產品",
    "おすすめ商品",
    "関連商品",
    "관련 상품",
    "추천 상품",
    "benzer ürünler",
    "sản phẩm tương tự",
    "sản phẩm liên quan",
    "produk terkait",
    "produk serupa",
    "podobné produkty",
    "mohlo by vás zajímat",
    "محصولات مرتبط",
    "محصولات مشابه",
    "منتجات ذات صلة",
    "قد يعجبك أيضا",
    "liknande produkter",
    "du kanske också gillar",
    "hasonló termékek",
];

/// Boilerplate phrases of every language, then the copyright ones: the automaton's
/// patterns in order (a pattern's number is its bit in a `u128`).
const N_BOILER: usize = BOILER_PHRASES.len() + BOILER_PHRASES_INTL.len();
const _: () = assert!(N_BOILER + COPYRIGHT_PHRASES.len() <= PhraseSet::CAPACITY);

/// The phrases found in a text, by pattern number (see [`all_phrases`]).
#[derive(Default)]
struct PhraseSet([u128; 2]);

impl PhraseSet {
    const CAPACITY: usize = 256;

    fn insert(&mut self, pattern: usize) {
        if let Some(w) = self.0.get_mut(pattern / 128) {
            *w |= 1 << (pattern % 128);
        }
    }

    /// Boilerplate phrases found (patterns below [`N_BOILER`]).
    fn boiler(&self) -> u32 {
        let mask = |word: usize| -> u128 {
            let below = N_BOILER.saturating_sub(128 * word).min(128);
            if below == 128 {
                u128::MAX
            } else {
                (1u128 << below) - 1
            }
        };
        (self.0[0] & mask(0)).count_ones() + (self.0[1] & mask(1)).count_ones()
    }

    /// Whether a copyright phrase was found (patterns from [`N_BOILER`] on).
    fn copyright(&self) -> bool {
        self.0[0].count_ones() + self.0[1].count_ones() > self.boiler()
    }
}

/// Whether a heading's text holds one of [`RECOMMEND_PHRASES`] (case-insensitive). Its own
/// automaton, read on headings only: in the one of every block, its first thirty patterns
/// doubled the phrase search's cost.
fn recommends(text: &str) -> bool {
    static AC: OnceLock<AhoCorasick> = OnceLock::new();
    let ac = AC.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(RECOMMEND_PHRASES)
            .expect("sixty short literal phrases always build")
    });
    if text.is_ascii() {
        ac.is_match(text)
    } else {
        ac.is_match(&lower_case(text))
    }
}

/// Calls to action and page labels that, standing alone as a line, are page furniture
/// (beside [`BOILER_PHRASES`] and [`BOILER_PHRASES_INTL`], which [`is_furniture_label`] reads
/// whole too): a card's button, a byline's share link, an ad slot's label, a shop's or a
/// software site's call to action ("Start free trial", "Apply now"), a forum post's tools
/// ("Reply", "Quote"), a wiki section's "[edit]", a fold's toggle. Lower-cased. Only
/// words no article, product or service page uses as a heading of its own text ("Menu" and
/// "Video" are a restaurant's and a lesson's), and "learn more" in the languages of
/// [`BOILER_PHRASES_INTL`] that have a set phrase for it.
const FURNITURE_LABELS: &[&str] = &[
    "learn more",
    "see more",
    "show more",
    "view more",
    "load more",
    "read full article",
    "read the full article",
    "continue reading",
    "click to expand",
    "shop now",
    "buy now",
    "book now",
    "order now",
    "add to cart",
    "add to bag",
    "get started",
    "get a quote",
    "share",
    "tweet",
    "print",
    "email",
    "home",
    "search",
    "close",
    "sponsored",
    "skip to content",
    "skip to main content",
    "sign in",
    "view details",
    "see details",
    "more details",
    "view all",
    "see all",
    "show all",
    "show less",
    "read less",
    "view cart",
    "quick view",
    "compare",
    "add to compare",
    "add to wishlist",
    "add to basket",
    "select options",
    "choose options",
    "write a review",
    "apply now",
    "contact us",
    "free trial",
    "start free trial",
    "try for free",
    "try it free",
    "request a demo",
    "book a demo",
    "get a demo",
    "reply",
    "reply with quote",
    "quote",
    "edit",
    "top",
    "back",
    "expand",
    "collapse",
    "mehr erfahren",
    "en savoir plus",
    "saber más",
    "más información",
    "scopri di più",
    "saiba mais",
    "dowiedz się więcej",
    "meer informatie",
    "узнать больше",
];

/// What a button wears around its label and [`is_furniture_label`] trims: punctuation,
/// arrows and brackets ("Read more »", "Next ›", "Share:", "[edit]").
const LABEL_TRIM: &[char] = &[
    '.', ':', '!', '|', '-', '+', '>', '[', ']', '…', '»', '›', '→', '↑', '–', '—',
];

/// The longest line [`is_furniture_label`] reads, in bytes: a label is a few words.
pub(crate) const LABEL_MAX_BYTES: usize = 48;

/// Whether a line of text is nothing but a label of page furniture: one of
/// [`FURNITURE_LABELS`], [`BOILER_PHRASES`] or [`BOILER_PHRASES_INTL`] whole ("Read more",
/// "Advertisement", "Back to top", "Weiterlesen"), in any case, with the punctuation and
/// arrows buttons wear around it ("Read more »", "Next ›", "Share:"). A phrase inside a
/// longer line is the block features' business, not this.
pub(crate) fn is_furniture_label(text: &str) -> bool {
    /// The labels, their byte lengths (bit n: a label of n bytes) and their first
    /// characters: most short lines are told apart by these before any lower-casing.
    struct Labels {
        set: rustc_hash::FxHashSet<&'static str>,
        lengths: u64,
        firsts: Vec<char>,
    }
    static LABELS: OnceLock<Labels> = OnceLock::new();
    if text.len() > LABEL_MAX_BYTES {
        return false;
    }
    let t = text.trim_matches(|c: char| c.is_whitespace() || LABEL_TRIM.contains(&c));
    let labels = LABELS.get_or_init(|| {
        let all = || {
            FURNITURE_LABELS
                .iter()
                .chain(BOILER_PHRASES)
                .chain(BOILER_PHRASES_INTL)
                .copied()
        };
        let mut firsts: Vec<char> = all().filter_map(|l| l.chars().next()).collect();
        firsts.sort_unstable();
        firsts.dedup();
        Labels {
            set: all().collect(),
            lengths: all().fold(0, |m, l| m | 1u64.checked_shl(l.len() as u32).unwrap_or(0)),
            firsts,
        }
    });
    if t.is_ascii() {
        if labels.lengths & 1u64.checked_shl(t.len() as u32).unwrap_or(0) == 0 {
            return false;
        }
        let mut buf = [0u8; LABEL_MAX_BYTES];
        let Some(lower) = buf.get_mut(..t.len()) else {
            return false;
        };
        lower.copy_from_slice(t.as_bytes());
        lower.make_ascii_lowercase();
        std::str::from_utf8(lower).is_ok_and(|l| labels.set.contains(l))
    } else {
        let starts_a_label = t
            .chars()
            .next()
            .and_then(|c| c.to_lowercase().next())
            .is_some_and(|c| labels.firsts.binary_search(&c).is_ok());
        starts_a_label && labels.set.contains(lower_case(t).as_str())
    }
}

/// `text` lower-cased for the phrase automata: `str::to_lowercase`, but Turkish "İ" as
/// "i" (Unicode lower-cases it to "i" and a combining dot, which no phrase has).
fn lower_case(text: &str) -> String {
    let lower = text.to_lowercase();
    if memchr::memmem::find(lower.as_bytes(), "\u{307}".as_bytes()).is_some() {
        lower.replace("i\u{307}", "i")
    } else {
        lower
    }
}

/// Every phrase in automaton order.
fn all_phrases() -> impl Iterator<Item = &'static &'static str> {
    BOILER_PHRASES
        .iter()
        .chain(BOILER_PHRASES_INTL)
        .chain(COPYRIGHT_PHRASES)
}

/// One automaton over [`BOILER_PHRASES`], [`BOILER_PHRASES_INTL`] then
/// [`COPYRIGHT_PHRASES`]: a single overlapping pass over a block's text (lower-cased, or
/// ASCII-folded, see below) answers every `contains` the twin asks.
///
/// `ascii_folding` gives the same automaton matching ASCII letters in either case: on text
/// where lower-casing changes no non-ASCII character (all ASCII text, and most text of
/// other languages outside capitals), the lower-cased copy differs from the text only in
/// ASCII capitals, so it finds what the plain one finds in that copy, without making it.
fn phrase_matcher(ascii_folding: bool) -> &'static aho_corasick::dfa::DFA {
    // Each built at its first use: a run of English pages never needs the plain one.
    static AC: [OnceLock<aho_corasick::dfa::DFA>; 2] = [OnceLock::new(), OnceLock::new()];
    AC[usize::from(ascii_folding)].get_or_init(|| {
        // A DFA: past a hundred patterns `AhoCorasick`'s own choice is a contiguous NFA,
        // which made this search over every block 2.4 times as costly (callgrind). Its
        // table is a few hundred kilobytes, built once. No prefilter: nearly every letter
        // starts a phrase, so it could skip nothing (and `phrases_in` walks every byte).
        aho_corasick::dfa::DFA::builder()
            .ascii_case_insensitive(ascii_folding)
            .prefilter(false)
            .build(all_phrases())
            .expect("two hundred short literal phrases always build")
    })
}

/// The phrases of `dfa` found in `text`, overlapping ones included: what
/// `AhoCorasick::find_overlapping_iter` reports, by pattern, from a plain walk of the
/// automaton's states, one byte at a time. (The crate's overlapping search keeps its
/// position in a state it can resume from, and so spends about a third more instructions a
/// byte; callgrind, the ASCII lines of `big.warc.gz`'s output.) Every match of a state is
/// taken as the walk enters it, as that search reports them.
fn phrases_in(dfa: &aho_corasick::dfa::DFA, text: &str) -> PhraseSet {
    use aho_corasick::automaton::Automaton;
    use aho_corasick::Anchored;
    let mut seen = PhraseSet::default();
    let Ok(mut sid) = dfa.start_state(Anchored::No) else {
        return seen;
    };
    for &b in text.as_bytes() {
        sid = dfa.next_state(Anchored::No, sid, b);
        // Without a prefilter only match states and the dead one are special, and an
        // unanchored search of standard semantics never dies.
        if dfa.is_special(sid) {
            if dfa.is_dead(sid) {
                break;
            }
            for i in 0..dfa.match_len(sid) {
                seen.insert(dfa.match_pattern(sid, i).as_usize());
            }
        }
    }
    seen
}

/// Per ASCII byte: bit 0 digit, bit 1 letter, bit 2 capital letter (what [`count_ascii`]
/// tells apart), so [`ascii_word`] counts a byte with one lookup and no branch.
const ASCII_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c.is_ascii_digit() {
            1
        } else if c.is_ascii_uppercase() {
            2 | 4
        } else if c.is_ascii_lowercase() {
            2
        } else {
            0
        };
        b += 1;
    }
    t
};

/// [`text_stats`]' counts of one ASCII word, in one pass over it: each byte is classified by
/// [`ASCII_CLASS`], its lower-cased letters and digits become its stopword key as they are
/// read, and they are copied out (into `lw`) only when the title filter lets the word
/// through. [`count_ascii`] is the per-byte definition the tests hold it to.
#[inline(always)]
fn ascii_word(w: &[u8], title: &TitleWords, sw: &Stopwords, t: &mut TextStats, lw: &mut String) {
    t.word_chars += w.len() as u32;
    t.cap_words += u32::from(w.first().is_some_and(u8::is_ascii_uppercase));
    let WordCounts {
        digits,
        letters,
        upper,
        key,
        n,
    } = short_alnum_word(w).unwrap_or_else(|| word_counts(w));
    t.digits += digits;
    t.letters += letters;
    t.upper += upper;
    if n == 0 {
        return;
    }
    let first = (key >> 56) as u8;
    let in_title = title.filter & TitleWords::bit_of(first, n as usize) != 0;
    if n <= 8 {
        // `key` is the whole word's: no copy of it is needed.
        t.stopwords += u32::from(sw.has_key(key));
        t.title_words += u32::from(in_title && title.contains_key(key));
        return;
    }
    let long_stop = sw.may_have_long(first, n as usize);
    if long_stop || in_title {
        lw.clear();
        lw.extend(
            w.iter()
                .filter(|b| b.is_ascii_alphanumeric())
                .map(|b| char::from(b.to_ascii_lowercase())),
        );
        if long_stop && sw.has_long(lw) {
            t.stopwords += 1;
        }
        if in_title && title.contains(lw) {
            t.title_words += 1;
        }
    }
}

/// What [`ascii_word`] needs of a word's bytes: its digits, letters and capitals, its
/// letters and digits (`n`), and the [`word_key`] of the first eight of those, lower-cased.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct WordCounts {
    digits: u32,
    letters: u32,
    upper: u32,
    key: u64,
    n: u32,
}

/// [`WordCounts`] byte by byte, through [`ASCII_CLASS`]: any ASCII word.
fn word_counts(w: &[u8]) -> WordCounts {
    let (mut key, mut n) = (0u64, 0u32);
    let (mut digits, mut letters, mut upper) = (0u32, 0u32, 0u32);
    for &b in w {
        let c = ASCII_CLASS[usize::from(b)];
        digits += u32::from(c & 1);
        letters += u32::from((c >> 1) & 1);
        upper += u32::from(c >> 2);
        if c != 0 {
            if n < 8 {
                // A capital's bit 5 is clear and a digit's or small letter's is set.
                key = (key << 8) | u64::from(b | 0x20);
            }
            n += 1;
        }
    }
    // Left-align the first (up to) 8 bytes: [`word_key`]'s zero-padded big-endian layout.
    if n > 0 {
        key <<= 8 * (8 - n.min(8));
    }
    WordCounts {
        digits,
        letters,
        upper,
        key,
        n,
    }
}

/// [`word_counts`] of the commonest word, one of at most eight ASCII letters and digits,
/// with all eight bytes at once (SWAR: per-byte range tests that cannot carry between
/// bytes, as ASCII bytes are below 0x80; popcounts for the counts; a byte swap for the
/// key). `None` for any other word.
fn short_alnum_word(w: &[u8]) -> Option<WordCounts> {
    use crate::swar::{HIGH, ONES};
    if w.is_empty() || w.len() > 8 {
        return None;
    }
    let x = w.iter().rev().fold(0u64, |x, &b| (x << 8) | u64::from(b));
    // The high bit of each byte in `lo..=hi` (for bytes below 0x80).
    let within = |lo: u64, hi: u64| {
        (x.wrapping_add(ONES * (0x80 - lo)) & !x.wrapping_add(ONES * (0x7f - hi))) & HIGH
    };
    let digit = within(0x30, 0x39);
    let upper = within(0x41, 0x5a);
    let lower = within(0x61, 0x7a);
    let used = HIGH >> (8 * (8 - w.len()));
    if x & HIGH != 0 || (digit | upper | lower) != used {
        return None;
    }
    // Capitals get bit 5 (the high bit shifted down to 0x20): lower case.
    let lowered = x | (upper >> 2);
    // Bytes flagged in a high-bit mask: the flags moved to bit 0 of each byte and summed into
    // the top byte by one multiplication (at most 8, so no carry). A popcount without
    // needing the POPCNT instruction, which the baseline x86-64 target lacks.
    let count = |mask: u64| ((mask >> 7).wrapping_mul(ONES) >> 56) as u32;
    Some(WordCounts {
        digits: count(digit),
        letters: count(upper | lower),
        upper: count(upper),
        key: lowered.swap_bytes(),
        n: w.len() as u32,
    })
}

/// Counts an ASCII byte into `t`'s digits, letters and capitals; whether it is a letter or
/// digit. The obvious definition behind [`ASCII_CLASS`].
#[cfg(test)]
fn count_ascii(b: u8, t: &mut TextStats) -> bool {
    if b.is_ascii_digit() {
        t.digits += 1;
    } else if b.is_ascii_alphabetic() {
        t.letters += 1;
        t.upper += u32::from(b.is_ascii_uppercase());
    } else {
        return false;
    }
    true
}

/// A page's title words, lower-cased, sorted and deduplicated for binary search.
fn title_words(title: Option<&str>) -> Vec<String> {
    let mut words: Vec<String> = title
        .unwrap_or("")
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 2)
        .map(str::to_lowercase)
        .collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// A word (`n` words for a run of Chinese or Japanese) through the Unicode path: its
/// length and capital into `t`, its lower-cased letters and digits into `lw`.
fn unicode_word(w: &str, n: u32, lw: &mut String, t: &mut TextStats) {
    t.word_chars += text_width(w);
    match w.chars().next() {
        Some(c) if c.is_uppercase() => t.cap_words += 1,
        Some(c) if is_caseless(c) => t.caseless_words += n,
        _ => {}
    }
    lw.extend(
        w.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase),
    );
}

/// Digits, letters and capitals of `text`, through the Unicode path; whether it holds a
/// non-ASCII character that lower-casing may change (a capital or a title-case letter).
fn unicode_letters(text: &str, t: &mut TextStats) -> bool {
    let mut changes = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            t.digits += 1;
        } else if c.is_alphabetic() {
            t.letters += 1;
            if c.is_uppercase() {
                t.upper += 1;
                changes |= !c.is_ascii();
            } else if is_titlecase(c) {
                changes = true;
            } else if !c.is_lowercase() {
                t.caseless += 1;
            }
        }
    }
    changes
}

/// A letter of a script without case: neither upper, lower nor title case.
fn is_caseless(c: char) -> bool {
    c.is_alphabetic() && !c.is_uppercase() && !c.is_lowercase() && !is_titlecase(c)
}

/// The title-case letters (general category Lt: `ǅ`, Greek capitals with prosgegrammeni):
/// not upper case, yet lower-casing changes them. A test walks every `char` to check that
/// these and the upper-case letters are all that lower-casing changes outside ASCII.
fn is_titlecase(c: char) -> bool {
    matches!(c,
        '\u{1C5}' | '\u{1C8}' | '\u{1CB}' | '\u{1F2}'
        | '\u{1F88}'..='\u{1F8F}' | '\u{1F98}'..='\u{1F9F}' | '\u{1FA8}'..='\u{1FAF}'
        | '\u{1FBC}' | '\u{1FCC}' | '\u{1FFC}')
}

/// CJK characters of `w` and the single-character stopwords among them.
fn cjk_chars(w: &str, sw: &Stopwords, t: &mut TextStats) {
    for c in w.chars().filter(|&c| is_cjk(c)) {
        t.stop_base += 1;
        t.stopwords += u32::from(sw.has_char(c));
    }
}

/// Whether the text ends like a sentence: a full stop (Latin's or one of `auto_blocks`'
/// [`FULL_STOPS`]: CJK, Devanagari, Urdu, Armenian, Ethiopic, Myanmar, Khmer), a question
/// or exclamation mark (half and full width), a Japanese closing quote or the Arabic
/// question mark.
fn ends_punct(text: &str) -> bool {
    text.trim_end().chars().next_back().is_some_and(|c| {
        matches!(
            c,
            '.' | '!' | '?' | '"' | '”' | ':' | ')' | '！' | '？' | '」' | '؟'
        ) || FULL_STOPS.contains(&c)
    })
}

/// A block's text statistics, with the stopwords of the page's language. ASCII words and
/// texts take byte paths (for ASCII, `char`'s Unicode predicates and case maps are the ASCII
/// ones), and all phrases are found in one automaton pass; `text_stats_slow` is the twin
/// the tests hold it to.
fn text_stats(text: &str, title: &TitleWords, sw: &Stopwords) -> TextStats {
    let mut t = TextStats::default();
    let mut lw = String::new();
    let ascii = text.is_ascii();
    // Whether lower-casing changes a non-ASCII character: then the phrases are looked for in
    // a lower-cased copy.
    let mut changes = false;
    match words_known(text, ascii) {
        Words::Ascii(ws) => ws.for_each(|w| {
            t.words += 1;
            ascii_word(w.as_bytes(), title, sw, &mut t, &mut lw);
        }),
        Words::Unicode(ws) => ws.for_each(|w| {
            if w.is_ascii() {
                t.words += 1;
                ascii_word(w.as_bytes(), title, sw, &mut t, &mut lw);
                return;
            }
            // A run of Chinese or Japanese is many words written without spaces.
            let n = spaceless_words(w).unwrap_or(1);
            t.words += n;
            lw.clear();
            unicode_word(w, n, &mut lw, &mut t);
            // (Whitespace holds no letters or digits: counting word by word counts the text.)
            changes |= unicode_letters(w, &mut t);
            if sw.cjk {
                cjk_chars(w, sw, &mut t);
            }
            if lw.is_empty() {
                return;
            }
            if sw.has(&lw) {
                t.stopwords += 1;
            }
            if title.contains(&lw) {
                t.title_words += 1;
            }
        }),
    }
    if !sw.cjk {
        t.stop_base = t.words;
    }
    t.ends_punct = ends_punct(text);
    let seen = if !changes {
        phrases_in(phrase_matcher(true), text)
    } else {
        phrases_in(phrase_matcher(false), &lower_case(text))
    };
    t.boiler_phrases = seen.boiler();
    t.copyright = seen.copyright() || (!ascii && text.contains('©'));
    t
}

/// The obvious twin of a [`Stopwords`]: the `stop-words` list of a language, normalized,
/// in a hash set, and whether it counts characters. Tests only.
#[cfg(test)]
struct SlowStopwords {
    words: std::collections::HashSet<String>,
    cjk: bool,
}

#[cfg(test)]
impl SlowStopwords {
    fn of(lang: &str) -> SlowStopwords {
        SlowStopwords {
            words: stop_words::lookup(lang)
                .unwrap_or(&[])
                .iter()
                .filter_map(|w| super::auto_lang::normalize(w))
                .collect(),
            cjk: matches!(lang, "zh" | "ja" | "ko"),
        }
    }
}

/// The obvious twin of [`text_stats`]: one `contains` per phrase over the lower-cased
/// text, every word and the whole text through the Unicode path, a hash set for
/// stopwords (each CJK character looked up as a string) and a linear scan of the title.
/// Tests only.
#[cfg(test)]
fn text_stats_slow(text: &str, title: &[String], sw: &SlowStopwords) -> TextStats {
    let mut t = TextStats::default();
    let mut lw = String::new();
    for w in text.split_whitespace() {
        let n = if w.is_ascii() {
            1
        } else {
            spaceless_words(w).unwrap_or(1)
        };
        t.words += n;
        lw.clear();
        unicode_word(w, n, &mut lw, &mut t);
        if lw.is_empty() {
            continue;
        }
        if !sw.cjk && sw.words.contains(&lw) {
            t.stopwords += 1;
        }
        if title.contains(&lw) {
            t.title_words += 1;
        }
    }
    if sw.cjk {
        for c in text.chars().filter(|&c| is_cjk(c)) {
            t.stop_base += 1;
            t.stopwords += u32::from(sw.words.contains(&c.to_string()));
        }
    } else {
        t.stop_base = t.words;
    }
    unicode_letters(text, &mut t);
    t.ends_punct = ends_punct(text);
    let lower = lower_case(text);
    t.boiler_phrases = BOILER_PHRASES
        .iter()
        .chain(BOILER_PHRASES_INTL)
        .filter(|p| lower.contains(*p))
        .count() as u32;
    t.copyright = text.contains('©') || COPYRIGHT_PHRASES.iter().any(|p| lower.contains(p));
    t
}

/// One feature row per block of `d` (see [`FEATURE_NAMES`]).
pub(crate) fn features(doc: &Doc, d: &Decision) -> Vec<[f32; NF]> {
    let blocks = &d.blocks.list;
    let n = blocks.len();
    let flags = ancestor_flags(doc, &d.ident_bits);
    let title = TitleWords::new(doc.title.as_deref());
    // The stopwords of the page's language, detected once here for all its blocks.
    let sw = Stopwords::for_page(doc);
    // The page's type as an ordinal (`PageType::ALL` order): the trees split it into the
    // sets of types they treat alike (a forum's replies, a listing's short items).
    let page_type = crate::page_type::PageType::ALL
        .iter()
        .position(|&t| t == d.page_type)
        .unwrap_or(0) as f32;
    let (mut page_chars, mut page_link) = (0u32, 0u32);
    for s in doc.segments.iter().filter(|s| !s.hidden) {
        page_chars += s.chars;
        page_link += if s.link { s.chars } else { 0 };
    }
    let page_ld = page_link as f32 / page_chars.max(1) as f32;
    let prose_total = d.prose.first().copied().unwrap_or(0).max(1) as f32;
    let (best_depth, best_score) = match d.best {
        Some(b) => (doc.elements[b].depth as f32, d.best_score.max(1e-9)),
        None => (0.0, 1.0),
    };
    // Visible blocks (not pruned, some text): neighbours and positions count these only.
    let visible: Vec<usize> = (0..n)
        .filter(|&k| !blocks[k].bad && blocks[k].chars > 0)
        .collect();
    let mut rank = vec![0usize; n];
    for (r, &k) in visible.iter().enumerate() {
        rank[k] = r;
    }
    // Distance (in visible blocks) to the nearest block the rules kept.
    let mut dist = vec![30u32; n];
    let mut last: Option<usize> = None;
    for (r, &k) in visible.iter().enumerate() {
        if d.keep_block[k] {
            last = Some(r);
        }
        if let Some(l) = last {
            dist[k] = dist[k].min((r - l) as u32);
        }
    }
    last = None;
    for (r, &k) in visible.iter().enumerate().rev() {
        if d.keep_block[k] {
            last = Some(r);
        }
        if let Some(l) = last {
            dist[k] = dist[k].min((l - r) as u32);
        }
    }
    // Prose characters before and after each block.
    let prose_of = |b: &Block| {
        if !b.bad && is_prose(b.chars, b.link_chars) {
            b.chars - b.link_chars
        } else {
            0
        }
    };
    let all_prose: u32 = blocks.iter().map(prose_of).sum();
    // First and last block inside the region.
    let in_reg = |k: usize| !blocks[k].bad && d.in_region[blocks[k].container as usize];
    let region_first = (0..n).find(|&k| in_reg(k));
    let region_last = (0..n).rev().find(|&k| in_reg(k));
    let (log_page_chars, log_visible) = (log1p(page_chars), log1p(visible.len() as u32));
    let mut before = 0u32;
    let mut chars_before = 0u32;
    // The sections a block is in, by the headings above it: per rank (1 for `<h1>`, 7 for
    // a heading-like block of no `<h1>`..`<h6>`), whether the open section of that rank is
    // headed as boilerplate ("Related products", "You may also like", "Comments"). A
    // heading opens a section of its rank and closes those of lower ranks, so a product
    // card's `<h4>` name stays inside the "You may also like" `<h2>`'s section.
    let mut boiler_sections = [false; 8];
    let mut out = Vec::with_capacity(n);
    let mut text = String::new();
    for (k, b) in blocks.iter().enumerate() {
        // Pruned blocks are never kept, whatever the model says (nor trained on): their row
        // only says so, and nothing else of them is computed.
        if b.bad {
            let mut row = [0f32; NF];
            row[PRUNED] = 1.0;
            out.push(row);
            continue;
        }
        text.clear();
        let mut link_segs = 0u32;
        for s in &doc.segments[b.segs.clone()] {
            if s.hidden || b.bad {
                continue;
            }
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(doc.seg_text(s));
            link_segs += u32::from(s.link);
        }
        let ts = text_stats(&text, &title, sw);
        let c = b.container as usize;
        let el = &doc.elements[c];
        if b.heading || el.tag.is_heading() {
            // 1 for `<h1>` .. 6 for `<h6>`, 7 for a block inside a heading or styled as one.
            let rank = usize::from(el.tag.heading_level().unwrap_or(7));
            let says = ts.words <= 12 && recommends(&text);
            if let Some(lower) = boiler_sections.get_mut(rank..) {
                lower.fill(false);
            }
            if let Some(open) = boiler_sections.get_mut(rank) {
                *open = says;
            }
        }
        let f = flags[c];
        let ld = b.link_chars as f32 / b.chars.max(1) as f32;
        let neighbour = |r: Option<usize>| -> (f32, f32, f32) {
            match r.and_then(|r| visible.get(r)) {
                Some(&j) => {
                    let bj = &blocks[j];
                    (
                        log1p(bj.chars),
                        bj.link_chars as f32 / bj.chars.max(1) as f32,
                        flag(d.keep_block[j]),
                    )
                }
                None => (0.0, 0.0, 0.0),
            }
        };
        let is_vis = !b.bad && b.chars > 0;
        let (prev, next) = if is_vis {
            (rank[k].checked_sub(1), Some(rank[k] + 1))
        } else {
            // An invisible block's neighbours: the nearest visible ones around it.
            let after = visible.partition_point(|&j| j < k);
            (after.checked_sub(1), Some(after))
        };
        let (pc, pl, pk) = neighbour(prev);
        let (nc, nl, nk) = neighbour(next);
        let tag = el.tag;
        let is_tag = |t: &[Tag]| flag(t.contains(&tag));
        let in_region = d.in_region[c];
        let p = prose_of(b);
        // The caption and meta words of the block's element or (below the root) its
        // parent.
        let own_bits = d.ident_bits[c]
            | if c > 0 {
                d.ident_bits[el.parent as usize]
            } else {
                0
            };
        let own = |bit: u16| flag(own_bits & bit != 0);
        let row = [
            log1p(b.chars),
            ld,
            b.commas as f32 / ts.words.max(1) as f32,
            log1p(ts.words),
            flag(b.heading),
            flag(b.bad),
            flag(d.keep_block[k]),
            flag(in_region),
            (d.score[c] / best_score).clamp(-1.0, 2.0) as f32,
            flag(d.use_region),
            d.region_share as f32,
            if visible.is_empty() {
                0.0
            } else {
                rank[k] as f32 / visible.len() as f32
            },
            chars_before as f32 / page_chars.max(1) as f32,
            is_tag(&[Tag::P]),
            is_tag(&[Tag::Li]),
            is_tag(&[Tag::Td, Tag::Th]),
            is_tag(&[Tag::Div]),
            flag(boiler_sections.contains(&true)),
            is_tag(&[Tag::Pre]),
            is_tag(&[Tag::Blockquote]),
            is_tag(&[Tag::Dd, Tag::Dt]),
            is_tag(&[Tag::Figcaption]),
            page_type,
            bit(f, A_ARTICLE),
            bit(f, A_CONTENT),
            bit(f, A_STRONG),
            bit(f, A_WEAK),
            bit(f, A_COMMENT),
            bit(f, A_NAVTAG),
            bit(f, A_HEADER),
            bit(f, A_LIST),
            bit(f, A_TABLE),
            bit(f, A_FORM),
            el.depth as f32,
            if in_region {
                el.depth as f32 - best_depth
            } else {
                -1.0
            },
            pc,
            pl,
            pk,
            nc,
            nl,
            nk,
            flag(ts.ends_punct),
            (ts.cap_words as f32 + CASELESS_CAP_SHARE * ts.caseless_words as f32)
                / ts.words.max(1) as f32,
            ts.digits as f32 / (ts.digits + ts.letters).max(1) as f32,
            flag(ts.copyright),
            ts.word_chars as f32 / ts.words.max(1) as f32,
            d.prose[c] as f32 / prose_total,
            log_page_chars,
            page_ld,
            log_visible,
            dist[k] as f32,
            flag(p > 0),
            ts.title_words as f32 / ts.words.max(1) as f32,
            link_segs as f32,
            (ts.upper as f32 + CASELESS_UPPER_SHARE * ts.caseless as f32)
                / ts.letters.max(1) as f32,
            before as f32 / all_prose.max(1) as f32,
            (all_prose - before - p) as f32 / all_prose.max(1) as f32,
            ts.stopwords as f32 / ts.stop_base.max(1) as f32,
            ts.boiler_phrases as f32,
            own(W_CAPTION),
            own(W_META),
            flag(d.in_grid[c]),
            flag(region_first.is_some_and(|f| k < f)),
            flag(region_last.is_some_and(|l| k > l)),
        ];
        before += p;
        if !b.bad {
            chars_before += b.chars;
        }
        out.push(row);
    }
    out
}

/// One regression tree, as parallel arrays: node `i` splits on `feature[i]` at
/// `threshold[i]` (`x <= threshold` goes to `left[i]`, else `right[i]`), or is a leaf
/// (`feature[i] < 0`) worth `value[i]`.
#[derive(Debug, Clone, Deserialize)]
struct Tree {
    feature: Vec<i32>,
    threshold: Vec<f32>,
    left: Vec<u32>,
    right: Vec<u32>,
    value: Vec<f32>,
}

impl Tree {
    /// The walk over the unpacked arrays: the twin of [`Model::eval_packed`], for tests.
    #[cfg(test)]
    fn eval<const W: usize>(&self, x: &[f32; W]) -> f32 {
        let mut i = 0usize;
        // A tree reaches a leaf in fewer than `len` steps.
        for _ in 0..self.feature.len() {
            let f = self.feature[i];
            if f < 0 {
                return self.value[i];
            }
            let next = if x[f as usize] <= self.threshold[i] {
                self.left[i]
            } else {
                self.right[i]
            };
            i = next as usize;
        }
        0.0
    }

    /// The longest path from the root to a leaf, in steps, of a tree that passed
    /// [`Tree::check`].
    fn depth(&self) -> u32 {
        self.walk().1
    }

    /// From the root down every path, for a tree whose children are in range and whose
    /// nodes have one parent each but the root (none), so every node is met at most once:
    /// the nodes met and the longest path, in steps.
    fn walk(&self) -> (usize, u32) {
        let (mut stack, mut met, mut deepest) = (vec![(0usize, 0u32)], 0, 0);
        while let Some((i, d)) = stack.pop() {
            met += 1;
            deepest = deepest.max(d);
            if self.feature[i] >= 0 {
                stack.extend([
                    (self.left[i] as usize, d + 1),
                    (self.right[i] as usize, d + 1),
                ]);
            }
        }
        (met, deepest)
    }

    /// Arrays of one length, features (below `width`) and children in range, and one tree.
    fn check(&self, width: usize) -> Result<(), String> {
        let n = self.feature.len();
        if [
            self.threshold.len(),
            self.left.len(),
            self.right.len(),
            self.value.len(),
        ]
        .iter()
        .any(|&l| l != n)
            || n == 0
        {
            return Err("tree arrays of different lengths".into());
        }
        for i in 0..n {
            if self.feature[i] >= 0 {
                if self.feature[i] as usize >= width {
                    return Err(format!("feature index {} out of range", self.feature[i]));
                }
                if self.left[i] as usize >= n || self.right[i] as usize >= n {
                    return Err("child index out of range".into());
                }
            }
        }
        // A tree: the root (node 0) is no node's child, every other node exactly one's,
        // and all are reached from the root (which rules out cycles apart from it).
        let mut parents = vec![0u32; n];
        for i in (0..n).filter(|&i| self.feature[i] >= 0) {
            parents[self.left[i] as usize] += 1;
            parents[self.right[i] as usize] += 1;
        }
        if parents[0] != 0 || parents[1..].iter().any(|&p| p != 1) {
            return Err("not a tree: a node with no parent or two, or a link to the root".into());
        }
        if self.walk().0 != n {
            return Err("not a tree: a cycle cut off from the root".into());
        }
        Ok(())
    }
}

/// A binary gradient-boosted tree ensemble, `p = sigmoid(baseline + Σ trees)`. With
/// `expected_f1` set (the shipped model), a page's blocks are chosen together by
/// [`expected_f1_keep`]. Without it, the model overrides the rules asymmetrically: a block
/// the rules dropped joins when `p > add_above`, a block they kept goes when
/// `p < drop_below`.
///
/// Under thresholds the rules' verdict acts as a prior: the file's thresholds (0.3 to add,
/// 0.2 to drop) keep a block the rules kept unless the model is fairly sure it is
/// boilerplate. Chosen on
/// held-out `warcsift eval` figures (leave one package out, and 5-fold by page; see
/// `ops/train_auto.py`), where they beat both the earlier confident-ends-only policy (0.8,
/// 0.05) and a plain `p > 0.5` that ignores the rules.
#[derive(Debug, Clone, Deserialize)]
pub struct Model<const W: usize = NF> {
    features: Vec<String>,
    baseline: f32,
    add_above: f32,
    drop_below: f32,
    /// When set, the page's blocks are chosen together, by [`expected_f1_keep`] with this
    /// exponent, instead of one threshold per block.
    #[serde(default)]
    expected_f1: Option<f32>,
    trees: Vec<Tree>,
    /// All trees' nodes in one array (children as absolute indices), built by
    /// [`Model::from_json`]: one cache-friendly walk per tree instead of five arrays. A leaf
    /// is a node that leads to itself whatever the input, so a walk can take a fixed number
    /// of steps without asking whether it has arrived. Node 0 is a leaf no walk reaches.
    #[serde(skip)]
    nodes: Vec<Node>,
    /// What a walk that ends on node `i` adds: a leaf's value (0 for a split node, where no
    /// walk ends).
    #[serde(skip)]
    values: Vec<f32>,
    /// Each tree's root index in `nodes` and the number of steps that reaches a leaf from
    /// it on every path (its depth).
    #[serde(skip)]
    roots: Vec<(u32, u32)>,
}

/// A packed tree node, 8 bytes: `x[feature] <= split` goes to `child`, else to `child + 1`
/// (the two children sit side by side, so a step is a compare and an add, no select). A
/// leaf has `feature` 0, a NaN `split` (no comparison with NaN holds) and `child` one
/// before itself, so every step from it leads back to it.
#[derive(Debug, Clone, Copy)]
struct Node {
    split: f32,
    feature: u16,
    child: u16,
}

impl Node {
    /// Where a walk at this node goes for row `x`.
    // `!(a <= b)` is meant: it is the unpacked walk's test, NaN included (`a > b` is not).
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    #[inline(always)]
    fn next<const W: usize>(self, x: &[f32; W]) -> usize {
        // `feature & (W - 1)` changes nothing (`from_json` checked every feature is < W, a
        // power of two) but lets the compiler drop the bounds check. NaN goes right.
        let goes_right = !(x[usize::from(self.feature) & (W - 1)] <= self.split);
        usize::from(self.child) + usize::from(goes_right)
    }

    /// [`Node::next`] for [`Model::probabilities_all`]'s lanes: the row padded to
    /// [`LANE_ROW`] values, so a feature (below `W` ≤ `LANE_ROW`, checked by `from_json`) read as
    /// a byte indexes it without a mask, and the node index a `u16`, which indexes the
    /// [`NODE_CAP`] nodes without one.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    #[inline(always)]
    fn step(self, x: &[f32; LANE_ROW]) -> u16 {
        let goes_right = !(x[usize::from(self.feature as u8)] <= self.split);
        // No overflow: a child sits below NODE_CAP - 1 (`from_json`).
        self.child + u16::from(goes_right)
    }
}

/// A row's length in [`Model::probabilities_all`]'s lanes: every byte is an index.
const LANE_ROW: usize = 256;

fn sigmoid(raw: f32) -> f32 {
    1.0 / (1.0 + (-raw).exp())
}

/// Rows walked together by [`Model::probabilities_all`]: their walks are independent, so
/// the CPU overlaps their memory loads instead of waiting on one chain of them.
const LANES: usize = 8;

/// Room for the nodes of all trees: every index a `u16` can hold (65,536; the shipped model
/// has 6,748 per stage), so that [`Model::probabilities_all`] indexes its fixed-size node
/// array with a `u16`, which the compiler knows is in bounds.
const NODE_CAP: usize = 1 << 16;
const _: () = assert!(NODE_CAP == u16::MAX as usize + 1 && NF.is_power_of_two());
const _: () = assert!(CW <= LANE_ROW && LANE_ROW == u8::MAX as usize + 1);

impl Model<NF> {
    /// Parse and validate a model file (its first stage; see [`Stages`] for both).
    pub fn from_json(json: &str) -> Result<Model, String> {
        let m: Model = serde_json::from_str(json).map_err(|e| format!("model: {e}"))?;
        m.validated(&FEATURE_NAMES)
    }
}

impl<const W: usize> Model<W> {
    /// The model, checked against the feature names `names` (at most `W` of them, `W` a
    /// power of two) and packed for walking.
    fn validated(self, names: &[&str]) -> Result<Model<W>, String> {
        let mut m = self;
        if !W.is_power_of_two() || W > LANE_ROW || names.len() > W {
            return Err(format!(
                "model rows of {W} cannot hold {} features",
                names.len()
            ));
        }
        if m.features != names {
            return Err(format!(
                "model features differ from this build's ({} vs {})",
                m.features.len(),
                names.len()
            ));
        }
        if let Some(g) = m.expected_f1.filter(|g| !(g.is_finite() && *g > 0.0)) {
            return Err(format!(
                "model: expected_f1 must be a positive exponent, not {g}"
            ));
        }
        // Node 0 is never reached: a leaf's `child` (one before itself) then never wraps.
        m.nodes.push(Node {
            split: f32::NAN,
            feature: 0,
            child: 0,
        });
        m.values.push(0.0);
        for (k, t) in m.trees.iter().enumerate() {
            t.check(names.len()).map_err(|e| format!("tree {k}: {e}"))?;
            let root = m.nodes.len();
            m.roots.push((root as u32, t.depth()));
            // Breadth first from the root, each split's two children given adjacent slots:
            // `slot[i]` is where node `i` of the tree lands (`check` made it a tree, so
            // every node is reached exactly once).
            let mut order = vec![0usize];
            let mut slot = vec![0usize; t.feature.len()];
            slot[0] = root;
            let mut next_free = root + 1;
            let mut q = 0;
            while q < order.len() {
                let i = order[q];
                q += 1;
                if t.feature[i] >= 0 {
                    let (l, r) = (t.left[i] as usize, t.right[i] as usize);
                    (slot[l], slot[r]) = (next_free, next_free + 1);
                    next_free += 2;
                    order.extend([l, r]);
                }
            }
            if next_free > NODE_CAP {
                return Err(format!(
                    "model has more tree nodes than the {NODE_CAP} this build walks"
                ));
            }
            m.nodes.resize(next_free, m.nodes[0]);
            m.values.resize(next_free, 0.0);
            for &i in &order {
                let me = slot[i];
                (m.nodes[me], m.values[me]) = if t.feature[i] < 0 {
                    let leaf = Node {
                        split: f32::NAN,
                        feature: 0,
                        child: (me - 1) as u16,
                    };
                    (leaf, t.value[i])
                } else {
                    let split = Node {
                        split: t.threshold[i],
                        feature: t.feature[i] as u16,
                        child: slot[t.left[i] as usize] as u16,
                    };
                    (split, 0.0)
                };
            }
        }
        // Padded to the capacity (with nodes no walk reaches), so that the walks can index
        // fixed-size arrays with a mask instead of a bounds check.
        m.nodes.resize(NODE_CAP, m.nodes[0]);
        m.values.resize(NODE_CAP, 0.0);
        Ok(m)
    }

    /// One packed tree's value for `x` (the same walk as [`Tree::eval`]): `steps` steps
    /// from `root`, leaves holding still.
    fn eval_packed(&self, (root, steps): (u32, u32), x: &[f32; W]) -> f32 {
        let mut i = root as usize;
        for _ in 0..steps {
            i = self.nodes[i].next(x);
        }
        self.values[i]
    }

    /// The model's probability that a block with features `x` is main content.
    pub fn probability(&self, x: &[f32; W]) -> f32 {
        let sum = self
            .roots
            .iter()
            .map(|&tree| self.eval_packed(tree, x))
            .sum::<f32>();
        sigmoid(self.baseline + sum)
    }

    /// [`Model::probability`]'s obvious twin over the unpacked trees.
    #[cfg(test)]
    fn probability_unpacked(&self, x: &[f32; W]) -> f32 {
        let raw = self.baseline + self.trees.iter().map(|t| t.eval(x)).sum::<f32>();
        sigmoid(raw)
    }

    /// Whether a block with features `x` is kept, given the rules' verdict `rules_kept`: one
    /// row through [`Model::keeps_all`].
    pub fn keeps(&self, x: &[f32; W], rules_kept: bool) -> bool {
        let mut out = Vec::with_capacity(1);
        self.keeps_all(&[x], &[rules_kept], &mut out);
        out[0]
    }

    /// The verdict for probability `p` (see [`Model::threshold`]).
    fn verdict(&self, p: f32, rules_kept: bool) -> bool {
        if rules_kept {
            p >= self.drop_below
        } else {
            p > self.add_above
        }
    }

    /// The threshold verdict for every row: `out[i]` for `rows[i]` with the rules' verdict
    /// `rules[i]`, from [`Model::probabilities_all`]. Each row's walk once
    /// stopped early when the trees still to come could not move its score across its
    /// threshold; callgrind (500 pages of `dev.warc.gz`) counted 208.0 M instructions for
    /// that against 209.1 M for walking every tree, so the exact walk stays alone.
    pub fn keeps_all(&self, rows: &[&[f32; W]], rules: &[bool], out: &mut Vec<bool>) {
        let mut p = Vec::with_capacity(rows.len());
        self.probabilities_all(rows, &mut p);
        out.clear();
        out.extend(p.iter().zip(rules).map(|(&p, &r)| self.verdict(p, r)));
    }

    /// [`Model::probability`] of every row, `LANES` rows walked side by side per tree: their
    /// walks are independent, so the CPU overlaps them.
    pub fn probabilities_all(&self, rows: &[&[f32; W]], out: &mut Vec<f32>) {
        out.clear();
        let (Ok(nodes), Ok(values)) = (
            <&[Node; NODE_CAP]>::try_from(self.nodes.as_slice()),
            <&[f32; NODE_CAP]>::try_from(self.values.as_slice()),
        ) else {
            out.extend(rows.iter().map(|x| self.probability(x)));
            return;
        };
        // The chunk's rows side by side in one block (lanes past the last row keep an earlier
        // chunk's rows or zeros, walked and then ignored): every lane's row then sits at a
        // fixed offset from one base, so the walk keeps its node indices in registers and
        // reads each row without first loading the row's address.
        let mut lane = [[0f32; LANE_ROW]; LANES];
        for chunk in rows.chunks(LANES) {
            let n = chunk.len();
            for (l, &row) in lane.iter_mut().zip(chunk) {
                l[..W].copy_from_slice(row);
            }
            let mut sum = [0f32; LANES];
            for &(root, steps) in &self.roots {
                // (`from_json` placed every node below NODE_CAP.)
                let mut at = [root as u16; LANES];
                // Every lane is on a leaf after `steps` (leaves lead to themselves).
                for _ in 0..steps {
                    for j in 0..LANES {
                        at[j] = nodes[usize::from(at[j])].step(&lane[j]);
                    }
                }
                for j in 0..LANES {
                    sum[j] += values[usize::from(at[j])];
                }
            }
            out.extend(sum[..n].iter().map(|&s| sigmoid(self.baseline + s)));
        }
    }

    /// [`Model::keeps`]'s twin: one row's full sum, then the threshold.
    #[cfg(test)]
    fn keeps_full(&self, x: &[f32; W], rules_kept: bool) -> bool {
        self.verdict(self.probability(x), rules_kept)
    }
}

/// The features of the second stage that are not the first's (`CONTEXT_NAMES`), per
/// visible block in reading order, from the first stage's probabilities `p` of the page's
/// visible blocks, their words `w` and their sibling groups `groups` (`block_groups`):
/// the block's own probability, those of the block before and after it, the means of the
/// three before and of the three after (a missing neighbour counts 0), the page's highest
/// probability and its word-weighted mean, the block's rank by falling probability (ties in
/// reading order) over `n - 1`, and for each of its two groups the mean probability of the
/// group's other blocks (its own when it has none) and `ln(1 + others)`.
///
/// Content comes in runs and in subtrees: a block whose neighbours or siblings the first
/// stage is sure of is likelier content than its own features say, and one alone among
/// boilerplate likelier not. This is Web2Text's point (Vogels et al., 2018: a block's label
/// depends on its neighbours' through pairwise potentials) and CETR's Gaussian smoothing of
/// the tag-ratio histogram (seed 000, §II) applied to the model's own verdicts; here a
/// second tree ensemble learns how to combine them (stacking), where those fix the form.
pub fn context_features(p: &[f32], w: &[f32], groups: &[[u32; 2]]) -> Vec<[f32; NC]> {
    let n = p.len();
    let at = |i: isize| -> f32 {
        if i < 0 || i as usize >= n {
            0.0
        } else {
            p[i as usize]
        }
    };
    let max = p.iter().copied().fold(0.0f32, f32::max);
    let (mut pw, mut ws) = (0.0f64, 0.0f64);
    for (&p, &w) in p.iter().zip(w) {
        pw += f64::from(p) * f64::from(w);
        ws += f64::from(w);
    }
    let mean = (pw / ws.max(1.0)) as f32;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| p[b].total_cmp(&p[a]).then(a.cmp(&b)));
    let mut rank = vec![0f32; n];
    let denom = n.saturating_sub(1).max(1) as f32;
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r as f32 / denom;
    }
    // Per level, each group's sum of probabilities (in reading order) and size.
    let mut sums: [rustc_hash::FxHashMap<u32, (f64, u32)>; 2] = Default::default();
    for (g, &p) in groups.iter().zip(p) {
        for (level, sum) in sums.iter_mut().enumerate() {
            let e = sum.entry(g[level]).or_insert((0.0, 0));
            e.0 += f64::from(p);
            e.1 += 1;
        }
    }
    let sibling = |i: usize, level: usize| -> (f32, f32) {
        let (sum, count) = groups
            .get(i)
            .and_then(|g| sums[level].get(&g[level]).copied())
            .unwrap_or((f64::from(p[i]), 1));
        let others = count.saturating_sub(1);
        let mean = if others == 0 {
            p[i]
        } else {
            ((sum - f64::from(p[i])) / f64::from(others)) as f32
        };
        (mean, (others as f32).ln_1p())
    };
    (0..n)
        .map(|k| {
            let i = k as isize;
            let (m1, c1) = sibling(k, 0);
            let (m2, c2) = sibling(k, 1);
            [
                p[k],
                at(i - 1),
                at(i + 1),
                (at(i - 3) + at(i - 2) + at(i - 1)) / 3.0,
                (at(i + 1) + at(i + 2) + at(i + 3)) / 3.0,
                max,
                mean,
                rank[k],
                m1,
                c1,
                m2,
                c2,
            ]
        })
        .collect()
}

/// Per block of `d`, the parent and the grandparent of its container (the nearest
/// block-level element holding it) in `doc`: blocks that share one are siblings in the
/// page's tree (the title, price and blurb of one item of a grid; the items of the grid).
pub(crate) fn block_groups(doc: &Doc, d: &Decision) -> Vec<[u32; 2]> {
    d.blocks.list.iter().map(|b| block_group(doc, b)).collect()
}

/// One block's entry of [`block_groups`].
fn block_group(doc: &Doc, b: &Block) -> [u32; 2] {
    let parent = |e: u32| doc.elements.get(e as usize).map_or(0, |el| el.parent);
    let g1 = parent(b.container);
    [g1, parent(g1)]
}

/// Names of [`context_features`]' columns, as a second stage's model file lists them.
pub const CONTEXT_NAMES: [&str; NC] = [
    "p",
    "prev_p",
    "next_p",
    "prev3_p",
    "next3_p",
    "page_max_p",
    "page_mean_p",
    "rank_p",
    "siblings_p",
    "siblings",
    "cousins_p",
    "cousins",
];

/// Number of [`context_features`] per block.
pub const NC: usize = 12;

/// Row width of the second stage: its context columns, then the first stage's features
/// when it reads them too (`NC + NF` fit in 128, a power of two for the walk's mask).
const CW: usize = 128;

/// The first-stage probabilities the second stage re-judges; outside them the first
/// stage's stands (a cascade: Viola and Jones, 2001, where a cheap stage settles the easy
/// cases and the costly one sees only the rest). Half of all visible blocks fall outside
/// this band, and the second stage reverses few of them: held out (5-fold by page, the
/// table of 153f1cb) `wcxb` bag F1 0.8807 with the band and without, the first four's
/// `words_seq` 0.9335 against 0.9338; 2.8% fewer instructions per run (callgrind, the
/// 40 MB slice of `big.warc.gz`). `ops/train_auto.py`'s `predict_stages` is the twin.
pub const SECOND_STAGE_BAND: std::ops::RangeInclusive<f32> = 0.05..=0.95;

/// The learned stages of a model file: the first over the block features, and an optional
/// second (`"context"` in the file) over [`context_features`] of the first's
/// probabilities, then, when its feature list goes on, the block features again. The second
/// stage's probabilities feed the expected-F1 choice; a file without `expected_f1` decides
/// by the first stage's thresholds alone.
#[derive(Debug, Clone)]
pub struct Stages {
    first: Model,
    context: Option<Model<CW>>,
}

impl Stages {
    /// Parse and validate a model file with its optional second stage.
    pub fn from_json(json: &str) -> Result<Stages, String> {
        let mut v: serde_json::Value =
            serde_json::from_str(json).map_err(|e| format!("model: {e}"))?;
        let context = v.as_object_mut().and_then(|o| o.remove("context"));
        let first: Model = serde_json::from_value(v).map_err(|e| format!("model: {e}"))?;
        let first = first.validated(&FEATURE_NAMES)?;
        let context = match context {
            None => None,
            Some(c) => {
                let c: Model<CW> =
                    serde_json::from_value(c).map_err(|e| format!("context model: {e}"))?;
                let with_blocks: Vec<&str> = CONTEXT_NAMES
                    .iter()
                    .chain(&FEATURE_NAMES)
                    .copied()
                    .collect();
                let names: &[&str] = if c.features.len() == NC {
                    &CONTEXT_NAMES
                } else {
                    &with_blocks
                };
                Some(
                    c.validated(names)
                        .map_err(|e| format!("context model: {e}"))?,
                )
            }
        };
        Ok(Stages { first, context })
    }

    /// The final probability of every row (`w`: the rows' words, `groups` their sibling
    /// groups): the first stage's, or the second's over the first's where the first is
    /// unsure ([`SECOND_STAGE_BAND`]).
    pub fn probabilities(&self, x: &[&[f32; NF]], w: &[f32], groups: &[[u32; 2]]) -> Vec<f32> {
        let mut p = Vec::with_capacity(x.len());
        self.first.probabilities_all(x, &mut p);
        let Some(c) = &self.context else {
            return p;
        };
        let blocks_too = c.features.len() > NC;
        // Every row's context reads every first-stage probability, sure ones included.
        let ctx = context_features(&p, w, groups);
        let unsure: Vec<usize> = (0..p.len())
            .filter(|&i| SECOND_STAGE_BAND.contains(&p[i]))
            .collect();
        let rows: Vec<[f32; CW]> = unsure
            .iter()
            .map(|&i| {
                let mut row = [0f32; CW];
                row[..NC].copy_from_slice(&ctx[i]);
                if blocks_too {
                    row[NC..NC + NF].copy_from_slice(&x[i][..]);
                }
                row
            })
            .collect();
        let refs: Vec<&[f32; CW]> = rows.iter().collect();
        let mut second = Vec::with_capacity(rows.len());
        c.probabilities_all(&refs, &mut second);
        for (&i, q) in unsure.iter().zip(second) {
            p[i] = q;
        }
        p
    }
}

/// The shipped model (or `WARCSIFT_AUTO_MODEL`'s), loaded once; `None` when it has no trees
/// or cannot be used (then the rules decide).
fn model() -> Option<&'static Stages> {
    static MODEL: OnceLock<Option<Stages>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let loaded = match std::env::var_os("WARCSIFT_AUTO_MODEL") {
                Some(path) => std::fs::read_to_string(&path)
                    .map_err(|e| format!("{}: {e}", path.to_string_lossy()))
                    .and_then(|j| Stages::from_json(&j)),
                None => Stages::from_json(include_str!("auto_model.json")),
            };
            match loaded {
                Ok(m) if !m.first.trees.is_empty() => Some(m),
                Ok(_) => None,
                Err(e) => {
                    eprintln!("warcsift: auto's learned model not used ({e}); rules decide");
                    None
                }
            }
        })
        .as_ref()
}

/// The blocks of `d` the model judges: not pruned, some text.
fn visible_blocks(d: &Decision) -> Vec<usize> {
    (0..d.blocks.list.len())
        .filter(|&k| !d.blocks.list[k].bad && d.blocks.list[k].chars > 0)
        .collect()
}

/// The sibling groups of the blocks `visible` of `d`, for `m`'s second stage (none without
/// one: the first stage reads no groups).
fn visible_groups(m: &Stages, doc: &Doc, d: &Decision, visible: &[usize]) -> Vec<[u32; 2]> {
    if m.context.is_none() {
        return Vec::new();
    }
    visible
        .iter()
        .map(|&k| block_group(doc, &d.blocks.list[k]))
        .collect()
}

/// The rows' words, as [`expected_f1_keep`] and [`context_features`] weigh them: the
/// block's own word count, read back from `log_words`.
fn row_words(x: &[&[f32; NF]]) -> Vec<f32> {
    x.iter().map(|r| r[LOG_WORDS].exp_m1().round()).collect()
}

/// The model's probability per block of `d` (0 for a pruned or empty block), or `None`
/// when no model is available: what `explain` shows beside the verdict.
pub(crate) fn probabilities(doc: &Doc, d: &Decision) -> Option<Vec<f32>> {
    let m = model()?;
    let rows = features(doc, d);
    let visible = visible_blocks(d);
    let x: Vec<&[f32; NF]> = visible.iter().map(|&k| &rows[k]).collect();
    let p = m.probabilities(&x, &row_words(&x), &visible_groups(m, doc, d, &visible));
    let mut out = vec![0.0; rows.len()];
    for (&k, v) in visible.iter().zip(p) {
        out[k] = v;
    }
    Some(out)
}

/// The learned verdict per block of `d` (the rules' where no model is available).
pub(crate) fn keep(doc: &Doc, d: &Decision) -> Vec<bool> {
    let Some(m) = model() else {
        return d.keep_block.clone();
    };
    let rows = features(doc, d);
    let visible = visible_blocks(d);
    let x: Vec<&[f32; NF]> = visible.iter().map(|&k| &rows[k]).collect();
    let mut verdicts = Vec::with_capacity(visible.len());
    if let Some(gamma) = m.first.expected_f1 {
        let w = row_words(&x);
        let p = m.probabilities(&x, &w, &visible_groups(m, doc, d, &visible));
        verdicts = expected_f1_keep(&p, &w, gamma);
    } else {
        let rules: Vec<bool> = visible.iter().map(|&k| d.keep_block[k]).collect();
        m.first.keeps_all(&x, &rules, &mut verdicts);
    }
    let mut keep = vec![false; rows.len()];
    for (&k, v) in visible.iter().zip(verdicts) {
        keep[k] = v;
    }
    if !keep.contains(&true) {
        // Never empty where the rules kept something (short pages, see `auto`'s fallbacks).
        keep.clone_from(&d.keep_block);
    }
    keep
}

/// The blocks whose union maximises the page's expected word F1, given each block's
/// probability `p[i]` of being content and its words `w[i]`: the plug-in rule of Jansche
/// (2005) and Nan et al. (2012, "Optimizing F-measures: a tale of two approaches"). With
/// `q = p^gamma`, the expected matched words of a set S are `Σ_S w q`, the expected gold
/// words `G = Σ_all w q`, and `F(S) ≈ 2 Σ_S w q / (Σ_S w + G)`. Adding a block to S
/// raises F exactly when `2q > F(S)` (F's new value is a mediant of the old and `2q`), so
/// the best S holds every block with `q` above half the best F: a prefix of the blocks by
/// falling `q`, and the one pass over the prefixes finds it. On a page of confident blocks
/// this is a threshold near 0.5; on a page where content is uncertain it keeps more.
pub fn expected_f1_keep(p: &[f32], w: &[f32], gamma: f32) -> Vec<bool> {
    let q: Vec<f64> = p
        .iter()
        .map(|&x| f64::from(x.clamp(0.0, 1.0)).powf(f64::from(gamma)))
        .collect();
    let gold: f64 = q.iter().zip(w).map(|(q, &w)| q * f64::from(w)).sum();
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| q[b].total_cmp(&q[a]));
    let (mut matched, mut kept, mut best, mut cut) = (0.0f64, 0.0f64, 0.0f64, 0usize);
    for (i, &k) in order.iter().enumerate() {
        matched += q[k] * f64::from(w[k]);
        kept += f64::from(w[k]);
        let f = 2.0 * matched / (kept + gold).max(1e-9);
        if f > best {
            (best, cut) = (f, i + 1);
        }
    }
    let mut keep = vec![false; p.len()];
    for &k in &order[..cut] {
        keep[k] = true;
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::auto_lang::{page_language, word_key};

    proptest::proptest! {
        #[test]
        fn text_stats_match_the_slow_twin(
            words in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::string::string_regex("[A-Za-z0-9.,()©]{0,12}").unwrap(),
                    proptest::string::string_regex("(Posted [Bb]y|READ MORE|Next|\\(c\\) |Copyright|All Rights Reserved|Log In|the|The|river|Plan)").unwrap(),
                    proptest::string::string_regex("[ÄÖÜßéİKΣσς\u{212A}\u{0130}日本語 \t]{0,6}").unwrap(),
                    ".{0,8}",
                    proptest::string::string_regex("(der|Die|und|ÄHNLICHE Beiträge|Lesen Sie auch|les|Le|et|Tous Droits Réservés|się|Że|Zobacz również|и|Не|ЧИТАЙТЕ ТАКЖЕ|Все права защищены|yourselves|Ourselves|ǅemal|的|了是|在这里|のは|이다)").unwrap(),
                    proptest::string::string_regex("[a-zäöüéàłśżяжфΣ的了是在のは이日本]{1,12}").unwrap(),
                    proptest::string::string_regex("[กขงจทนมยรลวสอะาิีุู่้ເລກ្ខកမြ]{1,14}|ที่|ภาษาไทย|iPhoneราคา").unwrap(),
                ],
                0..24,
            ),
            seps in proptest::collection::vec(proptest::prop_oneof![" ", "\n", "\u{a0}", "", "\u{3000}", "\u{b}", "\t"], 24),
            title in ".{0,20}|River [Pp]lan (approved|Next)",
            lang in proptest::sample::select(vec!["en", "de", "fr", "pl", "ru", "zh", "ja", "ko", "th"]),
        ) {
            let text: String = words.iter().zip(&seps).flat_map(|(w, s)| [w.as_str(), s]).collect();
            let fast_title = TitleWords::new(Some(&title));
            let slow_title: Vec<String> = title
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| w.chars().count() > 2)
                .map(str::to_lowercase)
                .collect();
            proptest::prop_assert_eq!(
                text_stats(&text, &fast_title, Stopwords::of(lang)),
                text_stats_slow(&text, &slow_title, &SlowStopwords::of(lang))
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn the_phrase_walk_finds_what_the_overlapping_search_finds(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Strategy::prop_map(
                        proptest::sample::select(all_phrases().copied().collect::<Vec<_>>()),
                        str::to_string,
                    ),
                    proptest::string::string_regex("(All Rights|NEXT|Log|in|copy|right|Related|\\(C\\)| )").unwrap(),
                    ".{0,6}",
                ],
                0..12,
            ),
            folding in proptest::bool::ANY,
        ) {
            let text: String = parts.concat();
            let twin = AhoCorasick::builder()
                .ascii_case_insensitive(folding)
                .build(all_phrases())
                .unwrap();
            let mut want = PhraseSet::default();
            for m in twin.find_overlapping_iter(&text) {
                want.insert(m.pattern().as_usize());
            }
            proptest::prop_assert_eq!(phrases_in(phrase_matcher(folding), &text).0, want.0);
        }
    }

    proptest::proptest! {
        #[test]
        fn short_words_take_the_word_at_a_time_path_and_agree(
            w in "[0-9A-Za-z]{1,8}|[ -~]{0,10}|[\x00-\x7f]{0,9}",
        ) {
            let w = w.as_bytes();
            let slow = word_counts(w);
            match short_alnum_word(w) {
                Some(fast) => proptest::prop_assert_eq!(fast, slow),
                None => proptest::prop_assert!(
                    w.is_empty() || w.len() > 8 || !w.iter().all(u8::is_ascii_alphanumeric)
                ),
            }
            if !w.is_empty() && w.len() <= 8 && w.iter().all(u8::is_ascii_alphanumeric) {
                proptest::prop_assert!(short_alnum_word(w).is_some());
            }
            let lower: Vec<u8> = w
                .iter()
                .filter(|b| b.is_ascii_alphanumeric())
                .map(u8::to_ascii_lowercase)
                .collect();
            if (1..=8).contains(&lower.len()) {
                proptest::prop_assert_eq!(Some(slow.key), word_key(&lower));
            }
        }
    }

    #[test]
    fn lower_casing_changes_only_capitals_and_title_case_letters_outside_ascii() {
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
            let mut l = c.to_lowercase();
            let changes = !(l.next() == Some(c) && l.next().is_none());
            if !c.is_ascii() && changes {
                assert!(
                    c.is_alphabetic() && (c.is_uppercase() || is_titlecase(c)),
                    "{:#x}",
                    u32::from(c)
                );
            }
            if is_titlecase(c) {
                assert!(changes && !c.is_uppercase(), "{:#x}", u32::from(c));
            }
        }
        // Texts that must take the copying path do (KELVIN SIGN lower-cases to ASCII `k`),
        // and agree with the twin either way.
        let en = Stopwords::of("en");
        let title = TitleWords::new(None);
        for (text, phrases) in [
            ("Clic\u{212A} here, é", 1),
            ("Click Here — é", 1),
            ("ÄHNLICHE BEITRÄGE", 1),
            ("ähnliche Beiträge", 1),
            ("ǅemal Ähnliche beiträge", 1),
        ] {
            let t = text_stats(text, &title, en);
            assert_eq!(
                t,
                text_stats_slow(text, &[], &SlowStopwords::of("en")),
                "{text}"
            );
            assert_eq!(t.boiler_phrases, phrases, "{text}");
        }
    }

    #[test]
    fn phrases_are_lower_case_and_distinct() {
        let mut all: Vec<&str> = all_phrases().copied().collect();
        for p in &all {
            assert_eq!(p.to_lowercase(), *p);
        }
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), N_BOILER + COPYRIGHT_PHRASES.len());
    }

    #[test]
    fn a_line_that_is_only_a_label_is_furniture() {
        for l in FURNITURE_LABELS {
            assert_eq!(l.to_lowercase(), *l);
            assert!(l.len() <= LABEL_MAX_BYTES, "{l}");
        }
        for t in [
            "Read more »",
            "LEARN MORE",
            "Book Now",
            "Next ›",
            "Share:",
            "Advertisement",
            "  Back to top ↑ ",
            "Weiterlesen …",
            "En savoir plus",
            "Подробнее",
            "阅读全文",
            "[edit]",
            "Start Free Trial",
            "Reply With Quote",
            "View all →",
        ] {
            assert!(is_furniture_label(t), "{t}");
        }
        for t in [
            "Read more about the council's plan",
            "Learn more about our tutors",
            "Menu",
            "Video",
            "Share price",
            "Home insurance",
            "Compare plans and prices",
            "Edit distance",
            "Back pain",
            "[1]",
            "",
            "»",
            "The river plan passed on Tuesday after a long debate in the council.",
        ] {
            assert!(!is_furniture_label(t), "{t}");
        }
    }

    #[test]
    fn recommendation_headings_in_several_languages() {
        for p in RECOMMEND_PHRASES {
            assert_eq!(p.to_lowercase(), *p);
        }
        assert!(recommends("You May Also Like"));
        assert!(recommends("Customers also viewed these products"));
        assert!(recommends("Das könnte dir auch gefallen"));
        assert!(recommends("VOUS AIMEREZ AUSSI"));
        assert!(recommends("Похожие товары"));
        assert!(recommends("猜你喜欢"));
        assert!(recommends("関連商品"));
        assert!(recommends("Benzer Ürünler"));
        assert!(recommends("Sản phẩm tương tự"));
        assert!(!recommends("Specifications"));
        assert!(!recommends("More"));
    }

    #[test]
    fn sentences_end_in_every_script() {
        for t in [
            "The plan passed.",
            "市议会批准了计划。",
            "本当ですか？",
            "すごい！",
            "「行こう」",
            "هل توافق؟",
            "यह योजना पारित हुई।",
            "ይህ ዕቅድ ጸደቀ።",
            "Այս ծրագիրը հաստատվեց։",
            "ဒီအစီအစဉ်ကို အတည်ပြုခဲ့သည်။",
            "ផែនការនេះត្រូវបានអនុម័ត។",
        ] {
            assert!(ends_punct(t), "{t}");
        }
        for t in ["Home", "市议会", "Read more »"] {
            assert!(!ends_punct(t), "{t}");
        }
    }

    #[test]
    fn boilerplate_phrases_fire_in_other_languages() {
        let title = TitleWords::new(None);
        let stats = |text: &str, lang: &str| text_stats(text, &title, Stopwords::of(lang));
        assert_eq!(
            stats("Lesen Sie auch: Ähnliche Beiträge", "de").boiler_phrases,
            2
        );
        assert_eq!(stats("WEITERLESEN »", "de").boiler_phrases, 1);
        assert_eq!(stats("Lire aussi : la réforme", "fr").boiler_phrases, 1);
        assert_eq!(stats("Leer más", "es").boiler_phrases, 1);
        assert_eq!(stats("Zobacz również", "pl").boiler_phrases, 1);
        assert_eq!(
            stats("Читайте также: Похожие статьи", "ru").boiler_phrases,
            2
        );
        assert_eq!(stats("Lees ook", "nl").boiler_phrases, 1);
        assert!(stats("© 2024 Tous droits réservés", "fr").copyright);
        assert!(stats("Все права защищены.", "ru").copyright);
        assert!(stats("2024 Alle Rechte vorbehalten", "de").copyright);
        // The rest of the twenty commonest languages, each a menu line or a footer.
        for (lang, text, phrases) in [
            ("zh", "相关文章 上一篇 下一篇", 3),
            ("zh", "閱讀全文", 1),
            ("ja", "関連記事・続きを読む", 2),
            ("ko", "관련기사 더보기", 2),
            ("tr", "İlgili Haberler", 1),
            ("vi", "Bài viết liên quan", 1),
            ("id", "Baca Juga: Artikel Terkait", 2),
            ("cs", "Související články", 1),
            ("fa", "ادامه مطلب", 1),
            ("ar", "اقرأ أيضا", 1),
            ("sv", "Läs också", 1),
            ("hu", "Kapcsolódó cikkek", 1),
            ("uk", "Читайте також", 1),
        ] {
            assert_eq!(stats(text, lang).boiler_phrases, phrases, "{lang}: {text}");
        }
        for (lang, text) in [
            ("zh", "© 2024 版权所有"),
            ("ja", "無断転載を禁じます"),
            ("ko", "무단전재 및 재배포 금지"),
            ("tr", "Tüm hakları saklıdır."),
            ("cs", "Všechna práva vyhrazena."),
            ("ar", "جميع الحقوق محفوظة"),
            ("sv", "Alla rättigheter förbehållna"),
            ("hu", "Minden jog fenntartva."),
        ] {
            let t = stats(text, lang);
            assert!(t.copyright && t.boiler_phrases == 0, "{lang}: {text}");
        }
        // Prose does not.
        for (lang, text) in [
            ("de", "Der Rat hat den Plan gestern beschlossen."),
            ("zh", "市议会在经过长时间的辩论之后批准了这条河的计划。"),
            ("ja", "市議会は長い議論の末に川の計画を承認した。"),
            (
                "tr",
                "Belediye meclisi uzun bir tartışmanın ardından planı onayladı.",
            ),
            (
                "vi",
                "Hội đồng thành phố đã phê duyệt kế hoạch sau một cuộc tranh luận dài.",
            ),
        ] {
            let p = stats(text, lang);
            assert_eq!(
                (p.boiler_phrases, p.copyright),
                (0, false),
                "{lang}: {text}"
            );
        }
    }

    #[test]
    fn chinese_and_japanese_count_a_word_per_character_three_letters_wide() {
        // Written without spaces, a sentence would be one "word" of 16 characters: as long
        // as a URL, as few words as a button. Counted per character, each three letters
        // wide, its words and their length read like those of a sentence.
        let zh = "市议会星期二批准了这条河的计划。";
        let t = text_stats(zh, &TitleWords::new(None), Stopwords::of("zh"));
        assert_eq!((t.words, t.word_chars), (15, 15 * 3 + 1));
        let ja = "市議会は火曜日に川の計画を承認した。";
        let t = text_stats(ja, &TitleWords::new(None), Stopwords::of("ja"));
        assert_eq!((t.words, t.word_chars), (17, 17 * 3 + 1));
        // Korean spaces its words: counted as written, each syllable two letters wide.
        let ko = "시의회는 화요일에 계획을 승인했다.";
        let t = text_stats(ko, &TitleWords::new(None), Stopwords::of("ko"));
        assert_eq!((t.words, t.word_chars), (4, 15 * 2 + 1));
        // None of them has case: neither their words nor their letters say capital or not.
        let t = text_stats(zh, &TitleWords::new(None), Stopwords::of("zh"));
        assert_eq!(
            (t.cap_words, t.caseless_words, t.upper, t.caseless),
            (0, 15, 0, 15)
        );
        let ar = "وافق مجلس المدينة على الخطة";
        let t = text_stats(ar, &TitleWords::new(None), Stopwords::of("ar"));
        assert_eq!((t.words, t.caseless_words, t.caseless), (5, 5, 23));
        let en = text_stats(
            "The Council met",
            &TitleWords::new(None),
            Stopwords::of("en"),
        );
        assert_eq!((en.cap_words, en.caseless_words, en.caseless), (2, 0, 0));
        // The twin agrees.
        for (text, lang) in [(zh, "zh"), (ja, "ja"), (ko, "ko"), (ar, "ar")] {
            let fast = text_stats(text, &TitleWords::new(None), Stopwords::of(lang));
            let slow = text_stats_slow(text, &[], &SlowStopwords::of(lang));
            assert_eq!(fast, slow, "{lang}");
        }
    }

    /// Stopword density of `text` on a page that holds it as its one paragraph: the page's
    /// detected language and the density.
    fn density_on_a_page(text: &str) -> (&'static str, f32) {
        let doc = Doc::parse(&format!("<html><body><p>{text}</p></body></html>"));
        let lang = page_language(&doc);
        let t = text_stats(text, &TitleWords::new(None), Stopwords::of(lang));
        (lang, t.stopwords as f32 / t.stop_base.max(1) as f32)
    }

    #[test]
    fn prose_has_many_stopwords_in_its_own_language() {
        for (lang, text) in [
            ("de", "Der Gemeinderat hat am Dienstag nach einer langen Debatte den Plan für den Fluss beschlossen, und die Arbeiten sollen noch in diesem Jahr beginnen."),
            ("fr", "Le conseil municipal a approuvé mardi le projet pour la rivière, après un long débat, et les travaux doivent commencer dans les prochains mois."),
            ("pl", "Rada miasta po długiej debacie zatwierdziła we wtorek plan dla rzeki, a prace mają się rozpocząć jeszcze w tym roku, jak tylko będzie to możliwe."),
            ("ru", "Городской совет во вторник после долгих дебатов утвердил план по реке, и работы должны начаться уже в этом году, как только это будет возможно."),
            ("zh", "市议会在经过长时间的辩论之后，于星期二批准了这条河的计划，工程将在今年开始，这是我们的城市的一件大事。"),
        ] {
            let (detected, density) = density_on_a_page(text);
            assert_eq!(detected, lang);
            assert!(density > 0.2, "{lang}: {density}");
            // English stopwords see almost none of it: what the feature was before.
            let en = text_stats(text, &TitleWords::new(None), Stopwords::of("en"));
            assert!(
                (en.stopwords as f32) < density * en.stop_base as f32 / 2.0,
                "{lang}"
            );
        }
        let menu = text_stats(
            "Startseite Impressum Datenschutz Kontakt",
            &TitleWords::new(None),
            Stopwords::of("de"),
        );
        assert_eq!((menu.stopwords, menu.stop_base), (0, 4));
    }

    #[test]
    fn ascii_class_table_agrees_with_count_ascii() {
        for b in 0..=255u8 {
            let mut t = TextStats::default();
            let alnum = count_ascii(b, &mut t);
            let c = ASCII_CLASS[usize::from(b)];
            assert_eq!(
                (c & 1, (c >> 1) & 1, c >> 2, c != 0),
                (t.digits as u8, t.letters as u8, t.upper as u8, alnum),
                "byte {b:#04x}"
            );
            if alnum {
                assert_eq!(b | 0x20, b.to_ascii_lowercase(), "byte {b:#04x}");
            }
        }
    }

    #[test]
    fn log1p_table_is_the_direct_value() {
        for x in (0..LOG1P_TABLE + 10).chain([u32::MAX / 2, u32::MAX]) {
            assert_eq!(log1p(x).to_bits(), log1p_direct(x).to_bits(), "{x}");
        }
        assert_eq!(log1p(0), 0.0);
        assert!((log1p(1) - std::f32::consts::LN_2).abs() < 1e-7);
    }

    #[test]
    fn text_stats_worked_example() {
        let title = TitleWords::new(Some("River plan approved | Daily"));
        let en = Stopwords::of("en");
        let t = text_stats(
            "Posted by Ann. The river plan: read more… © Daily",
            &title,
            en,
        );
        assert_eq!(t.words, 10);
        assert_eq!((t.stopwords, t.title_words, t.boiler_phrases), (3, 3, 2)); // by, the, more
        assert!(t.copyright && !t.ends_punct);
        let slow = text_stats_slow(
            "Posted by Ann. The river plan: read more… © Daily",
            &title.words,
            &SlowStopwords::of("en"),
        );
        assert_eq!(t, slow);
    }

    #[test]
    fn english_function_words_are_stopwords_and_long_ones_too() {
        let en = Stopwords::of("en");
        for w in [
            "the",
            "a",
            "which",
            "about",
            "yourselves",
            "themselves",
            "dont",
        ] {
            assert!(en.has(w), "{w}");
        }
        for w in ["river", "home", "page", "verylongword", "ourselvesx"] {
            assert!(!en.has(w), "{w}");
        }
        let title = TitleWords::new(None);
        let t = text_stats("Themselves, OURSELVES and Don't", &title, en);
        assert_eq!((t.stopwords, t.stop_base), (4, 4));
    }

    #[test]
    fn names_match_the_row_width() {
        assert_eq!(FEATURE_NAMES.len(), NF);
        let mut sorted = FEATURE_NAMES.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), NF, "feature names are unique");
    }

    #[test]
    fn context_features_of_a_worked_example() {
        // Four visible blocks; ops/train_auto.py's `context_features` gives the same rows
        // (with a hidden block between the second and third, which it skips). The first
        // two are siblings (group 7), the first three cousins (group 1).
        let p = [0.9, 0.1, 0.5, 0.5];
        let w = [10.0, 0.0, 30.0, 60.0];
        let groups = [[7, 1], [7, 1], [8, 1], [9, 2]];
        let rows = context_features(&p, &w, &groups);
        let (l1, l2) = (2f32.ln(), 3f32.ln());
        // p, prev, next, mean of 3 before, of 3 after, page max, word-weighted mean
        // (9 + 0 + 15 + 30) / 100, rank by falling p with ties in reading order; then the
        // other siblings' mean p (the block's own without any) and ln(1 + their number),
        // and the same for cousins.
        #[rustfmt::skip]
        let want = [
            [0.9, 0.0, 0.1, 0.0, 1.1 / 3.0, 0.9, 0.54, 0.0, 0.1, l1, 0.3, l2],
            [0.1, 0.9, 0.5, 0.3, 1.0 / 3.0, 0.9, 0.54, 1.0, 0.9, l1, 0.7, l2],
            [0.5, 0.1, 0.5, 1.0 / 3.0, 0.5 / 3.0, 0.9, 0.54, 1.0 / 3.0, 0.5, 0.0, 0.5, l2],
            [0.5, 0.5, 0.0, 0.5, 0.0, 0.9, 0.54, 2.0 / 3.0, 0.5, 0.0, 0.5, 0.0],
        ];
        for (got, want) in rows.iter().zip(want) {
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() < 1e-6, "{got:?} vs {want:?}");
            }
        }
        // One block, and none.
        assert_eq!(
            context_features(&[0.3], &[0.0], &[[1, 0]]),
            vec![[0.3, 0.0, 0.0, 0.0, 0.0, 0.3, 0.0, 0.0, 0.3, 0.0, 0.3, 0.0]]
        );
        assert!(context_features(&[], &[], &[]).is_empty());
    }

    #[test]
    fn a_second_stage_reads_the_first_stages_probabilities() {
        // First stage: one leaf, p = sigmoid(0) = 0.5 for every block. Second stage: p of
        // the next block (column 2) above 0.25 gives +2, else -2: the last block, which
        // has no next, is judged boilerplate, the others content.
        let first = format!(
            r#""features": {:?}, "baseline": 0, "add_above": 0.3, "drop_below": 0.2,
                "expected_f1": 1.0,
                "trees": [{{"feature": [-1], "threshold": [0], "left": [0], "right": [0], "value": [0]}}]"#,
            FEATURE_NAMES
        );
        let second = format!(
            r#"{{"features": {:?}, "baseline": 0, "add_above": 0.3, "drop_below": 0.2,
                "trees": [{{"feature": [2, -1, -1], "threshold": [0.25, 0, 0], "left": [1, 0, 0], "right": [2, 0, 0], "value": [0, -2, 2]}}]}}"#,
            CONTEXT_NAMES
        );
        let m = Stages::from_json(&format!(r#"{{{first}, "context": {second}}}"#)).unwrap();
        let rows = [[0f32; NF]; 3];
        let refs: Vec<&[f32; NF]> = rows.iter().collect();
        let p = m.probabilities(&refs, &[5.0, 5.0, 5.0], &[[1, 0]; 3]);
        let (hi, lo) = (1.0 / (1.0 + (-2f32).exp()), 1.0 / (1.0 + 2f32.exp()));
        assert_eq!(p, vec![hi, hi, lo]);
        // Without the second stage, the first's probabilities.
        let only = Stages::from_json(&format!("{{{first}}}")).unwrap();
        assert_eq!(
            only.probabilities(&refs, &[5.0; 3], &[[1, 0]; 3]),
            vec![0.5; 3]
        );
        // A second stage over the block features too names the context columns first; one
        // whose names are neither list, or whose split reads past them, is refused.
        let both: Vec<&str> = CONTEXT_NAMES
            .iter()
            .chain(&FEATURE_NAMES)
            .copied()
            .collect();
        let with_blocks = second.replace(&format!("{CONTEXT_NAMES:?}"), &format!("{both:?}"));
        assert!(Stages::from_json(&format!(r#"{{{first}, "context": {with_blocks}}}"#)).is_ok());
        let wrong = second.replace(r#""p","#, r#""q","#);
        assert!(
            Stages::from_json(&format!(r#"{{{first}, "context": {wrong}}}"#))
                .unwrap_err()
                .contains("context model")
        );
        let past = second.replace(r#""feature": [2, -1, -1]"#, r#""feature": [12, -1, -1]"#);
        assert!(Stages::from_json(&format!(r#"{{{first}, "context": {past}}}"#)).is_err());
    }

    #[test]
    fn the_second_stage_judges_only_what_the_first_is_unsure_of() {
        // First stage, over feature 0: 0 gives sigmoid(-4) (sure boilerplate), 1 gives 0.5,
        // 2 gives sigmoid(4) (sure content). Second stage: +2 for every row.
        let first = format!(
            r#""features": {:?}, "baseline": 0, "add_above": 0.3, "drop_below": 0.2,
                "expected_f1": 1.0,
                "trees": [{{"feature": [0, -1, -1], "threshold": [0.5, 0, 0], "left": [1, 0, 0], "right": [2, 0, 0], "value": [0, -4, 0]}},
                          {{"feature": [0, -1, -1], "threshold": [1.5, 0, 0], "left": [1, 0, 0], "right": [2, 0, 0], "value": [0, 0, 4]}}]"#,
            FEATURE_NAMES
        );
        let second = format!(
            r#"{{"features": {:?}, "baseline": 2, "add_above": 0.3, "drop_below": 0.2,
                "trees": [{{"feature": [-1], "threshold": [0], "left": [0], "right": [0], "value": [0]}}]}}"#,
            CONTEXT_NAMES
        );
        let m = Stages::from_json(&format!(r#"{{{first}, "context": {second}}}"#)).unwrap();
        let mut rows = [[0f32; NF]; 4];
        for (r, v) in rows.iter_mut().zip([0.0, 1.0, 2.0, 1.0]) {
            r[0] = v;
        }
        let refs: Vec<&[f32; NF]> = rows.iter().collect();
        let p = m.probabilities(&refs, &[5.0; 4], &[[1, 0]; 4]);
        let sure_no = sigmoid(-4.0);
        let sure_yes = sigmoid(4.0);
        assert!(!SECOND_STAGE_BAND.contains(&sure_no) && !SECOND_STAGE_BAND.contains(&sure_yes));
        assert_eq!(p, vec![sure_no, sigmoid(2.0), sure_yes, sigmoid(2.0)]);
    }

    #[test]
    fn the_shipped_model_loads() {
        Stages::from_json(include_str!("auto_model.json")).expect("shipped model is valid");
        Model::from_json(include_str!("auto_model.json")).expect("shipped model is valid");
    }

    #[test]
    fn packed_trees_give_the_unpacked_answer() {
        let m = Model::from_json(include_str!("auto_model.json")).unwrap();
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let mut x = [0f32; NF];
            for v in &mut x {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                // Some NaN too: both walks send it right.
                *v = if rng % 23 == 0 {
                    f32::NAN
                } else {
                    (rng % 1000) as f32 / 100.0 - 1.0
                };
            }
            assert_eq!(m.probability(&x), m.probability_unpacked(&x));
        }
    }

    #[test]
    fn the_shipped_second_stage_walks_like_its_unpacked_trees() {
        let m = Stages::from_json(include_str!("auto_model.json")).unwrap();
        let c = m.context.expect("the shipped model has a second stage");
        assert_eq!(c.features.len(), NC + NF, "it reads the block features too");
        let mut rng = 0x1234_5678_9abc_def1u64;
        let mut rows = Vec::new();
        for _ in 0..1001 {
            let mut x = [0f32; CW];
            for v in &mut x[..NC + NF] {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                *v = (rng % 1000) as f32 / 500.0 - 0.5;
            }
            assert_eq!(c.probability(&x), c.probability_unpacked(&x));
            rows.push(x);
        }
        let refs: Vec<&[f32; CW]> = rows.iter().collect();
        let mut p = Vec::new();
        c.probabilities_all(&refs, &mut p);
        for (x, p) in rows.iter().zip(&p) {
            assert_eq!(*p, c.probability(x));
        }
    }

    #[test]
    fn lanes_give_the_one_row_verdict_and_probability() {
        let m = Model::from_json(include_str!("auto_model.json")).unwrap();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut rows = Vec::new();
        for _ in 0..20_003 {
            let mut x = [0f32; NF];
            for v in &mut x {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                // Mostly 0/1 flags and small shares, as real rows are, some larger counts.
                *v = match rng % 4 {
                    0 => 0.0,
                    1 => 1.0,
                    2 => (rng % 100) as f32 / 100.0,
                    _ => (rng % 1000) as f32 / 100.0,
                };
            }
            rows.push(x);
        }
        let rules: Vec<bool> = (0..rows.len()).map(|i| i % 3 != 0).collect();
        let refs: Vec<&[f32; NF]> = rows.iter().collect();
        let mut all = Vec::new();
        m.keeps_all(&refs, &rules, &mut all);
        assert_eq!(all.len(), rows.len());
        let mut verdicts = [0usize; 2];
        for (i, x) in rows.iter().enumerate() {
            let full = m.keeps_full(x, rules[i]);
            assert_eq!(m.keeps(x, rules[i]), full, "row {i}");
            assert_eq!(all[i], full, "row {i} in lanes");
            verdicts[usize::from(full)] += 1;
        }
        // Both verdicts occur.
        assert!(verdicts[0] > 100 && verdicts[1] > 100, "{verdicts:?}");
        // The lanes' probabilities are the one-row walk's, bit for bit (same summation
        // order), on a count of rows that leaves a partly filled last chunk.
        let mut p = Vec::new();
        m.probabilities_all(&refs, &mut p);
        assert_eq!(p.len(), rows.len());
        for (i, x) in rows.iter().enumerate() {
            assert_eq!(p[i], m.probability(x), "row {i}");
        }
    }

    #[test]
    fn a_tree_is_walked_by_its_thresholds() {
        // x[1] <= 0.5 ? 2.0 : (x[0] <= 3 ? -1 : 4)
        let t = Tree {
            feature: vec![1, -1, 0, -1, -1],
            threshold: vec![0.5, 0.0, 3.0, 0.0, 0.0],
            left: vec![1, 0, 3, 0, 0],
            right: vec![2, 0, 4, 0, 0],
            value: vec![0.0, 2.0, 0.0, -1.0, 4.0],
        };
        t.check(NF).unwrap();
        let mut x = [0f32; NF];
        assert_eq!(t.eval(&x), 2.0);
        x[1] = 1.0;
        assert_eq!(t.eval(&x), -1.0);
        x[0] = 5.0;
        assert_eq!(t.eval(&x), 4.0);
        assert_eq!(t.depth(), 2);
    }

    #[test]
    fn malformed_models_are_refused() {
        assert!(Model::from_json("{}").is_err());
        let cyclic = format!(
            r#"{{"features": {:?}, "baseline": 0, "add_above": 0.8, "drop_below": 0.05,
                "trees": [{{"feature": [0, 0], "threshold": [1, 1], "left": [1, 0], "right": [1, 0], "value": [0, 0]}}]}}"#,
            FEATURE_NAMES
        );
        // Valid indices but a cycle (node 1 is its own child): refused, not walked forever.
        assert!(Model::from_json(&cyclic)
            .unwrap_err()
            .contains("not a tree"));
        // A node with two parents, and a cycle cut off from the root (nodes 1 and 2 are each
        // other's child): refused too.
        let shared = cyclic.replace(r#""left": [1, 0]"#, r#""left": [1, 1]"#);
        let shared = shared.replace(r#""feature": [0, 0]"#, r#""feature": [0, -1]"#);
        assert!(Model::from_json(&shared)
            .unwrap_err()
            .contains("not a tree"));
        let island = format!(
            r#"{{"features": {:?}, "baseline": 0, "add_above": 0.8, "drop_below": 0.05,
                "trees": [{{"feature": [-1, 0, 0, -1, -1], "threshold": [0, 1, 1, 0, 0], "left": [0, 2, 4, 0, 0], "right": [0, 3, 1, 0, 0], "value": [0, 0, 0, 0, 0]}}]}}"#,
            FEATURE_NAMES
        );
        assert!(Model::from_json(&island)
            .unwrap_err()
            .contains("not a tree"));
        let out_of_range = cyclic.replace(r#""left": [1, 0]"#, r#""left": [9, 0]"#);
        assert!(Model::from_json(&out_of_range).is_err());
        // An exponent for expected F1 must be a positive number.
        let leaf = cyclic.replace(
            r#"[{"feature": [0, 0], "threshold": [1, 1], "left": [1, 0], "right": [1, 0], "value": [0, 0]}]"#,
            r#"[{"feature": [-1], "threshold": [0], "left": [0], "right": [0], "value": [0.5]}]"#,
        );
        assert!(Model::from_json(&leaf).is_ok(), "a one-leaf model loads");
        for bad in ["0", "-0.8"] {
            let m = leaf.replace(
                r#""drop_below": 0.05,"#,
                &format!(r#""drop_below": 0.05, "expected_f1": {bad},"#),
            );
            assert!(
                Model::from_json(&m).unwrap_err().contains("expected_f1"),
                "{bad}"
            );
        }
        let good = leaf.replace(
            r#""drop_below": 0.05,"#,
            r#""drop_below": 0.05, "expected_f1": 0.8,"#,
        );
        assert!(Model::from_json(&good).is_ok());
    }

    #[test]
    fn expected_f1_keeps_the_prefix_that_maximises_expected_f1() {
        // q = p (gamma 1): G = 90 + 30 + 20 = 140 expected gold words. Keeping the first
        // block: 2·90 / (100 + 140) = 0.750; the first two: 2·120 / (150 + 140) = 0.828;
        // all three: 2·140 / (350 + 140) = 0.571. The first two it is.
        let keep = expected_f1_keep(&[0.9, 0.6, 0.1], &[100.0, 50.0, 200.0], 1.0);
        assert_eq!(keep, [true, true, false]);
        // Order does not matter, only probability.
        let keep = expected_f1_keep(&[0.1, 0.6, 0.9], &[200.0, 50.0, 100.0], 1.0);
        assert_eq!(keep, [false, true, true]);
        // On a page where nothing is sure, less sure blocks still join: G = 65, one block
        // 2·35 / 165 = 0.424, both 2·65 / 265 = 0.491.
        assert_eq!(
            expected_f1_keep(&[0.35, 0.3], &[100.0, 100.0], 1.0),
            [true, true]
        );
        // gamma < 1 raises the small probabilities (0.1 -> 0.16 at 0.8) and so the gold
        // estimate: a block of many words and little chance stays out either way.
        assert_eq!(
            expected_f1_keep(&[0.9, 0.6, 0.1], &[100.0, 50.0, 200.0], 0.8),
            [true, true, false]
        );
        // Nothing at all: nothing kept; all zero: nothing kept.
        assert!(expected_f1_keep(&[], &[], 0.8).is_empty());
        assert_eq!(
            expected_f1_keep(&[0.0, 0.0], &[5.0, 9.0], 0.8),
            [false, false]
        );
    }
}
