//! Word-at-a-time ("SWAR") helpers: eight bytes of a slice as one `u64`, tested per byte
//! with masks. The byte tests themselves live beside their one caller each
//! (`doc::single_spaced_words`, `output::jsonl::needs_escape`,
//! `extract::auto_model::short_alnum_word`), each with a bytewise twin in its tests.

/// 0x01 in every byte.
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;

/// The high bit of every byte: where the masks put their per-byte answers.
pub(crate) const HIGH: u64 = 0x8080_8080_8080_8080;

/// `chunk`, eight bytes, as one word, first byte lowest (a chunk of another length, which
/// callers never pass, reads as zero).
#[inline]
pub(crate) fn load(chunk: &[u8]) -> u64 {
    u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]))
}
