//! Arbitrary bytes → `charset::decode` with an arbitrary declared charset label and URL, and
//! `charset::prescan_meta`. Layout: byte 0 = label length, byte 1 = URL length, then the
//! label, the URL (both lossily UTF-8) and the payload.
//!
//! Checks: no panic; a payload decoded as UTF-8 (no BOM) without errors comes back as
//! itself after the mojibake repair (`mojibake::repair` of the payload: unchanged unless it
//! shows mojibake); the repair never lengthens a text;
//! the detector guesses the same on the shortened input `decode` feeds it as on the whole
//! sample (with and without the URL's TLD hint).
#![no_main]

use libfuzzer_sys::fuzz_target;
use warcsift::charset::{self, CharsetSource};
use warcsift::mojibake;

fuzz_target!(|data: &[u8]| {
    let [label_len, url_len, rest @ ..] = data else {
        return;
    };
    let (label, rest) = rest.split_at(usize::from(*label_len).min(rest.len()));
    let (url, body) = rest.split_at(usize::from(*url_len).min(rest.len()));
    let label = String::from_utf8_lossy(label);
    let url = String::from_utf8_lossy(url);
    let _ = charset::prescan_meta(body);
    assert!(charset::detector_input_agrees(body, Some(url.as_ref())));
    assert!(charset::detector_input_agrees(body, None));
    for (l, u) in [
        (Some(label.as_ref()), Some(url.as_ref())),
        (None, Some(url.as_ref())),
        (Some(label.as_ref()), None),
        (None, None),
    ] {
        let d = charset::decode(body, l, u);
        if d.encoding.name() == "UTF-8" && !d.had_errors && d.source != CharsetSource::Bom {
            let raw = std::str::from_utf8(body).expect("decoded as UTF-8 without errors");
            assert_eq!(d.text, mojibake::repair(raw));
        }
        assert!(mojibake::repair(&d.text).len() <= d.text.len());
    }
});
