//! The edge's request-head parsers: the Host normaliser and the path cleaner. No input may
//! panic; an accepted host is a fixed point of normalising; an accepted path has no dot
//! segment, however its dots were encoded.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vitrine_edge::{host, request::clean_path};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (raw_host, path) = text.split_once('\n').unwrap_or((text, "/"));
    let _ = host::is_ip_literal(raw_host);
    if let Ok(name) = host::normalize(raw_host) {
        assert_eq!(host::normalize(&name).as_deref(), Ok(name.as_str()));
        let _ = host::classify(&name, "localhost");
        let _ = host::www_twin(&name);
    }
    if let Ok(clean) = clean_path(path) {
        assert!(!clean.split('/').any(|s| s == ".." || s == "."));
    }
});
