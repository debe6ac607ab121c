//! Whole-member gzip decompression with libdeflate: the fast path of [`crate::input`]'s gzip
//! reader, behind a safe interface.
//!
//! libdeflate decodes a whole gzip member from one buffer into another in one call, without
//! the streaming state machine of zlib, and is the fastest DEFLATE decoder we measured:
//! `cargo bench --bench stages -- stages/inflate` reads 945 MB/s through the input module
//! against 624 MB/s for flate2's streaming decoder (zlib-rs) on the same members (a scratch
//! program, not kept, took 0.264 s against 0.363 s on all of `big.warc.gz` in memory).
//! Common Crawl writes one
//! member per record, tens of KiB each, so nearly every member fits this path; the input
//! module falls back to the streaming decoder (flate2 with zlib-rs) for a member that does
//! not fit its buffers, and for any member libdeflate refuses, so that errors are still
//! reported and resynchronised the streaming way.

use std::ptr::NonNull;

use libdeflate_sys as sys;

/// Why [`Inflater::gzip_member`] produced nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The member does not decompress into the room given.
    NoRoom,
    /// Not a complete, valid gzip member: corrupt, truncated, or longer than the input
    /// given, or its CRC-32 or size does not match.
    Bad,
}

/// One libdeflate decompressor, reused for every member of an input.
pub(crate) struct Inflater {
    raw: NonNull<sys::libdeflate_decompressor>,
}

// SAFETY: a libdeflate decompressor is a heap block with no thread affinity (no thread-local
// state, no locks); libdeflate allows using it from any thread as long as two calls never
// run on it at once, which `&mut self` on every use guarantees.
unsafe impl Send for Inflater {}

impl Inflater {
    /// A new decompressor, or `None` if libdeflate could not allocate one.
    pub(crate) fn new() -> Option<Inflater> {
        // SAFETY: no arguments; the result is checked for NULL (allocation failure).
        let raw = unsafe { sys::libdeflate_alloc_decompressor() };
        NonNull::new(raw).map(|raw| Inflater { raw })
    }

    /// Decompresses the gzip member at the start of `input` into the start of `out`, checking
    /// its CRC-32 and size. Returns (compressed bytes the member took, bytes written to
    /// `out`); bytes after the member in `input` are not looked at.
    pub(crate) fn gzip_member(
        &mut self,
        input: &[u8],
        out: &mut [u8],
    ) -> Result<(usize, usize), Refused> {
        let (mut used, mut made) = (0usize, 0usize);
        // SAFETY: `self.raw` came from `libdeflate_alloc_decompressor` and is freed only in
        // `drop`; `&mut self` makes this the only call on it. `input` is readable for
        // `input.len()` bytes and libdeflate reads nothing outside them (its bit reader
        // counts an "overread" of virtual zero bytes instead of dereferencing past
        // `in + in_nbytes`). `out` is writable for `out.len()` bytes and libdeflate writes
        // nothing outside them (it returns INSUFFICIENT_SPACE instead). `used` and `made`
        // are valid for writes. Every byte of `out` is initialised already, so no
        // uninitialised memory is exposed whatever libdeflate wrote.
        let result = unsafe {
            sys::libdeflate_gzip_decompress_ex(
                self.raw.as_ptr(),
                input.as_ptr().cast(),
                input.len(),
                out.as_mut_ptr().cast(),
                out.len(),
                &mut used,
                &mut made,
            )
        };
        match result {
            // Clamped for the callers' slicing: libdeflate never reports more than it was
            // given.
            sys::libdeflate_result_LIBDEFLATE_SUCCESS => {
                Ok((used.min(input.len()), made.min(out.len())))
            }
            sys::libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE => Err(Refused::NoRoom),
            _ => Err(Refused::Bad),
        }
    }
}

impl Drop for Inflater {
    fn drop(&mut self) {
        // SAFETY: `self.raw` came from `libdeflate_alloc_decompressor`, is not used after
        // this, and is freed only here, once.
        unsafe { sys::libdeflate_free_decompressor(self.raw.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use flate2::Compression;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn text(n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| b"WARC/1.0 <p>hello, world</p>\r\n"[i % 30] ^ ((i / 997) as u8 & 1))
            .collect()
    }

    #[test]
    fn members_one_after_another() {
        let (a, b) = (text(70_000), text(3));
        let mut input = gzip(&a);
        let first = input.len();
        input.extend(gzip(&b));
        input.extend(gzip(b""));
        let mut inf = Inflater::new().unwrap();
        let mut out = vec![0u8; 100_000];
        let (used, made) = inf.gzip_member(&input, &mut out).unwrap();
        assert_eq!((used, &out[..made]), (first, &a[..]));
        let rest = &input[used..];
        let (used, made) = inf.gzip_member(rest, &mut out).unwrap();
        assert_eq!(&out[..made], &b[..]);
        assert_eq!(inf.gzip_member(&rest[used..], &mut out), Ok((20, 0)));
    }

    #[test]
    fn refusals() {
        let a = text(50_000);
        let member = gzip(&a);
        let mut inf = Inflater::new().unwrap();
        let mut out = vec![0u8; 60_000];
        // Too little room, then a member cut short, a flipped byte, a broken CRC, not gzip.
        assert_eq!(
            inf.gzip_member(&member, &mut out[..49_999]),
            Err(Refused::NoRoom)
        );
        assert_eq!(
            inf.gzip_member(&member[..member.len() - 1], &mut out),
            Err(Refused::Bad)
        );
        for at in [3, member.len() / 2, member.len() - 6] {
            let mut bad = member.clone();
            bad[at] ^= 0x5a;
            assert_eq!(inf.gzip_member(&bad, &mut out), Err(Refused::Bad), "{at}");
        }
        assert_eq!(
            inf.gzip_member(b"WARC/1.0\r\n", &mut out),
            Err(Refused::Bad)
        );
        assert_eq!(inf.gzip_member(b"", &mut out), Err(Refused::Bad));
        // Still usable after refusals.
        assert_eq!(
            inf.gzip_member(&member, &mut out),
            Ok((member.len(), a.len()))
        );
        assert_eq!(&out[..a.len()], &a[..]);
    }
}
