//! Length of the longest common subsequence, exact, in O(n·m/64) time.
//!
//! Seed 004 (section 4.2) computes the character and word-sequence intersections with an
//! LCS (Hirschberg's algorithm). We get the same number with the bit-parallel recurrence of
//! Allison & Dix (1986) as restated by Hyyrö ("Bit-parallel LCS-length computation
//! revisited", 2004), which is also what rapidfuzz's `LCSseq` (used by `score.py`) runs:
//!
//! ```text
//! V := all ones (one bit per symbol of the pattern P)
//! for each symbol t of the text T:  U := V & PM[t];  V := (V + U) | (V - U)
//! LCS = number of zero bits of V
//! ```
//!
//! where `PM[t]` has bit `i` set when `P[i] == t`, and `V - U == V & !U` because `U ⊆ V`.
//! For patterns longer than 64 symbols the addition carries across 64-bit words.
//!
//! Before the recurrence: a common prefix and suffix are stripped (identical texts cost
//! O(n)), and symbols that occur on one side only are dropped from the other (they can be in
//! no common subsequence; for words this removes most of a noisy prediction). The shorter
//! side becomes the pattern. Two evaluation orders, both exact:
//!
//! * **rows** (the usual one): one text symbol at a time over all words of `V`. The only
//!   dependency between words is the carry bit, so this runs near one word per cycle. A row
//!   starts at the first word where its symbol occurs in the pattern (lower words cannot
//!   change) and stops once past its last occurrence with no carry left. Memory:
//!   `PM` is σ × ⌈m/64⌉ words (σ = distinct pattern symbols), bounded by [`ROWS_MAX_WORDS`].
//! * **stripes** (fallback beyond that bound): 64 pattern symbols at a time over the whole
//!   text, passing one carry bit per text symbol to the next stripe. Memory is
//!   O(σ + n/64): linear whatever the lengths, but each step waits on the previous one.
//!
//! [`lcs_len_naive`] is the textbook O(n·m) dynamic program, the slow twin the tests
//! compare both orders against.

use std::collections::HashMap;
use std::hash::Hash;

/// Largest pattern-match table (in 64-bit words, 32 MiB) for the row order; beyond it the
/// stripe order runs in linear memory.
pub const ROWS_MAX_WORDS: usize = 1 << 22;

/// Evaluation order of the bit-parallel recurrence (forced only by tests and the benchmark).
#[cfg_attr(not(test), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    Auto,
    Rows,
    Stripes,
}

/// LCS length of two sequences of small dense ids (`0..alphabet`, e.g. interned words).
///
/// Dense ids are fastest (tables are indexed by id); sparse ones are interned first, as
/// [`lcs_len`] does for arbitrary symbols.
///
/// ```
/// use warcsift::eval::lcs::lcs_len_ids;
/// assert_eq!(lcs_len_ids(&[1, 2, 3, 4, 1], &[3, 4, 1, 2, 1, 3]), 3);
/// ```
pub fn lcs_len_ids(a: &[u32], b: &[u32]) -> usize {
    lcs_len_ordered(a, b, Order::Auto)
}

fn lcs_len_ordered(a: &[u32], b: &[u32], order: Order) -> usize {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
    if a.is_empty() || b.is_empty() {
        return prefix + suffix;
    }
    // Symbols on both sides get local ids 0..sigma; the rest are dropped.
    let size = a
        .iter()
        .chain(b)
        .copied()
        .max()
        .map_or(0, |m| m as usize + 1);
    if size > 4 * (a.len() + b.len()) + 1024 {
        // Sparse ids: make them dense first rather than allocate tables for every id.
        return prefix + lcs_len(a, b) + suffix;
    }
    let mut seen = vec![0u8; size];
    for &x in a {
        seen[x as usize] |= 1;
    }
    for &x in b {
        seen[x as usize] |= 2;
    }
    let mut local = vec![u32::MAX; size];
    let mut sigma = 0u32;
    for (l, s) in local.iter_mut().zip(&seen) {
        if *s == 3 {
            *l = sigma;
            sigma += 1;
        }
    }
    let keep = |s: &[u32]| -> Vec<u32> {
        s.iter()
            .map(|&x| local[x as usize])
            .filter(|&l| l != u32::MAX)
            .collect()
    };
    let (a, b) = (keep(a), keep(b));
    if a.is_empty() || b.is_empty() {
        return prefix + suffix;
    }
    let (pattern, text) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let sigma = sigma as usize;
    let rows_fit = sigma.saturating_mul(pattern.len().div_ceil(64)) <= ROWS_MAX_WORDS;
    let common = match order {
        Order::Rows => rows(&pattern, &text, sigma),
        Order::Stripes => stripes(&pattern, &text, sigma),
        Order::Auto if rows_fit => rows(&pattern, &text, sigma),
        Order::Auto => stripes(&pattern, &text, sigma),
    };
    prefix + common + suffix
}

/// Zero bits of `v` among the first `len` bits: the LCS length.
fn zeros(v: &[u64], len: usize) -> usize {
    let mut n = 0;
    for (w, &x) in v.iter().enumerate() {
        let bits = (len - w * 64).min(64);
        let mask = if bits == 64 { !0 } else { (1u64 << bits) - 1 };
        n += (!x & mask).count_ones() as usize;
    }
    n
}

/// Row order. Every id of `pattern` and `text` is `< sigma`.
fn rows(pattern: &[u32], text: &[u32], sigma: usize) -> usize {
    let blocks = pattern.len().div_ceil(64);
    let mut pm = vec![0u64; sigma * blocks];
    // First and last word where each symbol occurs in the pattern.
    let mut span = vec![(usize::MAX, 0usize); sigma];
    for (i, &s) in pattern.iter().enumerate() {
        let s = s as usize;
        pm[s * blocks + i / 64] |= 1u64 << (i % 64);
        span[s].0 = span[s].0.min(i / 64);
        span[s].1 = i / 64;
    }
    let mut v = vec![!0u64; blocks];
    for &t in text {
        let t = t as usize;
        let (first, last) = span[t];
        let row = &pm[t * blocks..(t + 1) * blocks];
        let mut carry = false;
        for w in first..blocks {
            if w > last && !carry {
                break;
            }
            let x = v[w];
            let u = x & row[w];
            let (sum, c1) = x.overflowing_add(u);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            carry = c1 | c2;
            v[w] = sum | (x & !u);
        }
    }
    zeros(&v, pattern.len())
}

/// Stripe order, linear memory. Every id of `pattern` and `text` is `< sigma`.
fn stripes(pattern: &[u32], text: &[u32], sigma: usize) -> usize {
    let mut pm = vec![0u64; sigma];
    let mut carries = vec![0u64; text.len().div_ceil(64)];
    let mut v_final = Vec::with_capacity(pattern.len().div_ceil(64));
    for stripe in pattern.chunks(64) {
        for (i, &s) in stripe.iter().enumerate() {
            pm[s as usize] |= 1u64 << i;
        }
        let mut v = !0u64;
        for (carry_word, rows) in carries.iter_mut().zip(text.chunks(64)) {
            let carry_in = *carry_word;
            let mut carry_out = 0u64;
            for (j, &s) in rows.iter().enumerate() {
                let u = v & pm[s as usize];
                let (sum, o1) = v.overflowing_add(u);
                let (sum, o2) = sum.overflowing_add((carry_in >> j) & 1);
                carry_out |= u64::from(o1 | o2) << j;
                v = sum | (v & !u);
            }
            *carry_word = carry_out;
        }
        v_final.push(v);
        for &s in stripe {
            pm[s as usize] = 0;
        }
    }
    zeros(&v_final, pattern.len())
}

/// LCS length of two sequences of any symbols: interns them into dense ids, then
/// [`lcs_len_ids`].
///
/// ```
/// use warcsift::eval::lcs::lcs_len;
/// let (a, b): (Vec<char>, Vec<char>) = ("banana".chars().collect(), "atana".chars().collect());
/// assert_eq!(lcs_len(&a, &b), 4);
/// ```
pub fn lcs_len<T: Eq + Hash>(a: &[T], b: &[T]) -> usize {
    let mut ids: HashMap<&T, u32> = HashMap::new();
    let mut intern = |x| {
        let next = ids.len() as u32;
        *ids.entry(x).or_insert(next)
    };
    let a: Vec<u32> = a.iter().map(&mut intern).collect();
    let b: Vec<u32> = b.iter().map(&mut intern).collect();
    lcs_len_ids(&a, &b)
}

/// The textbook dynamic program, O(n·m) time and O(m) memory: the reference for tests.
///
/// ```
/// use warcsift::eval::lcs::lcs_len_naive;
/// assert_eq!(lcs_len_naive(b"ABCBDAB", b"BDCABA"), 4);
/// ```
pub fn lcs_len_naive<T: Eq>(a: &[T], b: &[T]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diagonal = 0;
        for (j, y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y { diagonal + 1 } else { up.max(row[j]) };
            diagonal = up;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn worked_examples() {
        let cases = [
            ("", "", 0),
            ("abc", "", 0),
            ("", "abc", 0),
            ("abc", "abc", 3),
            ("abc", "def", 0),
            ("ABCBDAB", "BDCABA", 4),
            ("AGGTAB", "GXTXAYB", 4),
            ("banana", "atana", 4),
            ("the quick brown fox", "quick the fox brown", 11),
        ];
        for (a, b, want) in cases {
            assert_eq!(lcs_len(&chars(a), &chars(b)), want, "{a:?} vs {b:?}");
            assert_eq!(
                lcs_len_naive(&chars(a), &chars(b)),
                want,
                "naive {a:?} vs {b:?}"
            );
        }
    }

    #[test]
    fn crosses_word_boundaries() {
        // 200 symbols: four 64-bit stripes, the last one partial, carries across all of them.
        let a: Vec<u32> = (0..200).map(|i| (i * 7 % 13) as u32).collect();
        let b: Vec<u32> = (0..150).map(|i| (i * 5 % 11) as u32).collect();
        let only = std::env::var("LCS_ORDER").unwrap_or_default();
        for order in [Order::Rows, Order::Stripes] {
            if !only.is_empty() && format!("{order:?}") != only {
                continue;
            }
            assert_eq!(lcs_len_ordered(&a, &b, order), lcs_len_naive(&a, &b));
            assert_eq!(lcs_len_ordered(&b, &a, order), lcs_len_naive(&a, &b));
        }
        let same: Vec<u32> = (0..1000).map(|i| i % 3).collect();
        assert_eq!(lcs_len_ids(&same, &same), 1000);
    }

    #[test]
    fn large_ids_and_absent_symbols() {
        assert_eq!(lcs_len_ids(&[5, 900, 5], &[900, 7, 5, 1_000_000]), 2);
        assert_eq!(lcs_len_ids(&[u32::MAX, 1, u32::MAX], &[1, u32::MAX, 3]), 2);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn bit_parallel_matches_dynamic_program(
            a in proptest::collection::vec(0u32..6, 0..300),
            b in proptest::collection::vec(0u32..6, 0..300),
        ) {
            let want = lcs_len_naive(&a, &b);
            prop_assert_eq!(lcs_len_ids(&a, &b), want);
            prop_assert_eq!(lcs_len_ordered(&a, &b, Order::Rows), want);
            prop_assert_eq!(lcs_len_ordered(&a, &b, Order::Stripes), want);
        }

        #[test]
        fn bit_parallel_matches_on_large_alphabets(
            a in proptest::collection::vec(0u32..200, 0..200),
            b in proptest::collection::vec(0u32..200, 0..700),
        ) {
            let want = lcs_len_naive(&a, &b);
            prop_assert_eq!(lcs_len_ordered(&a, &b, Order::Rows), want);
            prop_assert_eq!(lcs_len_ordered(&a, &b, Order::Stripes), want);
        }

        #[test]
        fn shared_text_with_edits(
            base in proptest::collection::vec(0u32..4, 0..400),
            cuts in proptest::collection::vec(0usize..400, 0..20),
        ) {
            let mut edited = base.clone();
            for c in cuts {
                if !edited.is_empty() {
                    let i = c % edited.len();
                    edited[i] = (edited[i] + 1) % 5;
                }
            }
            let want = lcs_len_naive(&base, &edited);
            prop_assert_eq!(lcs_len_ordered(&base, &edited, Order::Rows), want);
            prop_assert_eq!(lcs_len_ordered(&base, &edited, Order::Stripes), want);
        }
    }
}

#[cfg(test)]
mod bench {
    use super::*;

    /// `cargo test --release --lib eval::lcs::bench -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn speed_on_a_long_page() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/devset/cleaneval/final-626.txt"
        );
        let gold: Vec<char> = std::fs::read_to_string(path)
            .unwrap_or_else(|_| "lorem ipsum dolor sit amet ".repeat(6000))
            .to_lowercase()
            .chars()
            .collect();
        let mut pred = Vec::new();
        for (i, &c) in gold.iter().enumerate() {
            if i % 53 != 0 {
                pred.push(c);
            }
            if i % 97 == 0 {
                pred.extend("menu".chars());
            }
        }
        let mut ids = HashMap::new();
        let mut id = |c: &char| {
            let n = ids.len() as u32;
            *ids.entry(*c).or_insert(n)
        };
        let a: Vec<u32> = gold.iter().map(&mut id).collect();
        let b: Vec<u32> = pred.iter().map(&mut id).collect();
        let mut want = None;
        let only = std::env::var("LCS_ORDER").unwrap_or_default();
        for order in [Order::Rows, Order::Stripes] {
            if !only.is_empty() && format!("{order:?}") != only {
                continue;
            }
            let t = std::time::Instant::now();
            let l = lcs_len_ordered(&a, &b, order);
            let s = t.elapsed().as_secs_f64();
            let cells = a.len() as f64 * b.len() as f64 / 64.0;
            println!(
                "{order:?}: lcs {l} of {}x{} in {s:.3} s, {:.2} ns/word",
                a.len(),
                b.len(),
                s * 1e9 / cells
            );
            assert_eq!(*want.get_or_insert(l), l);
        }
    }
}
