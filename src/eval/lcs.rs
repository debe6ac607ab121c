//! Length of the longest common subsequence, exact, in linear memory and O(n·m/64) time.
//!
//! Seed 004 (section 4.2) computes the character and word-sequence intersections with an
//! LCS (Hirschberg's algorithm). We get the same number with the bit-parallel recurrence of
//! Allison & Dix (1986) as restated by Hyyrö ("Bit-parallel LCS-length computation
//! revisited", 2004), which is also what rapidfuzz's `LCSseq` (used by `score.py`) runs:
//!
//! ```text
//! V := all ones (one bit per symbol of A)
//! for each symbol b of B:  U := V & PM[b];  V := (V + U) | (V - U)
//! LCS = number of zero bits of V
//! ```
//!
//! where `PM[b]` has bit `i` set when `A[i] == b`, and `V - U == V & !U` because `U ⊆ V`.
//! For `A` longer than 64 symbols the addition carries across 64-bit words. We evaluate
//! the matrix in vertical stripes of 64 symbols of `A`: the stripe's `PM` fits a table of
//! one word per symbol and the only state passed to the next stripe is one carry bit per
//! symbol of `B`. Memory is therefore O(alphabet + |B|/64) words, whatever the lengths.
//! A common prefix and suffix are stripped first (free, and identical texts cost O(n)).
//!
//! [`lcs_len_naive`] is the textbook O(n·m) dynamic program, the slow twin the tests
//! compare against.

use std::collections::HashMap;
use std::hash::Hash;

/// LCS length of two sequences of small dense ids (`0..alphabet`, e.g. interned words).
///
/// Memory is one word per id up to the largest id in the longer sequence, so give dense ids;
/// use [`lcs_len`] for arbitrary symbols.
///
/// ```
/// use warcsift::eval::lcs::lcs_len_ids;
/// assert_eq!(lcs_len_ids(&[1, 2, 3, 4, 1], &[3, 4, 1, 2, 1, 3]), 3);
/// ```
pub fn lcs_len_ids(a: &[u32], b: &[u32]) -> usize {
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
    // Bits for the longer sequence: a short `B` then costs ceil(|A|/64)·|B| steps instead of
    // paying a whole 64-bit word per symbol of a long `B`.
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let size = long.iter().copied().max().map_or(0, |m| m as usize + 1);
    // One extra, always-zero slot for symbols of `short` absent from `long`.
    let mut pm = vec![0u64; size + 1];
    let short: Vec<u32> = short.iter().map(|&s| s.min(size as u32)).collect();
    let mut carries = vec![0u64; short.len().div_ceil(64)];
    let mut common = 0usize;
    for stripe in long.chunks(64) {
        for (i, &s) in stripe.iter().enumerate() {
            pm[s as usize] |= 1u64 << i;
        }
        let mut v = !0u64;
        for (carry_word, rows) in carries.iter_mut().zip(short.chunks(64)) {
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
        let mask = if stripe.len() == 64 {
            !0u64
        } else {
            (1u64 << stripe.len()) - 1
        };
        common += (!v & mask).count_ones() as usize;
        for &s in stripe {
            pm[s as usize] = 0;
        }
    }
    prefix + common + suffix
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
        assert_eq!(lcs_len_ids(&a, &b), lcs_len_naive(&a, &b));
        assert_eq!(lcs_len_ids(&b, &a), lcs_len_naive(&a, &b));
        let same: Vec<u32> = (0..1000).map(|i| i % 3).collect();
        assert_eq!(lcs_len_ids(&same, &same), 1000);
    }

    #[test]
    fn large_ids_and_absent_symbols() {
        assert_eq!(lcs_len_ids(&[5, 900, 5], &[900, 7, 5, 1_000_000]), 2);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn bit_parallel_matches_dynamic_program(
            a in proptest::collection::vec(0u32..6, 0..300),
            b in proptest::collection::vec(0u32..6, 0..300),
        ) {
            prop_assert_eq!(lcs_len_ids(&a, &b), lcs_len_naive(&a, &b));
        }

        #[test]
        fn bit_parallel_matches_on_large_alphabets(
            a in proptest::collection::vec(0u32..200, 0..200),
            b in proptest::collection::vec(0u32..200, 0..700),
        ) {
            prop_assert_eq!(lcs_len_ids(&a, &b), lcs_len_naive(&a, &b));
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
            prop_assert_eq!(lcs_len_ids(&base, &edited), lcs_len_naive(&base, &edited));
        }
    }
}
