//! The redirect-origin parser and the matcher built from what it accepts: no input may panic,
//! an accepted origin is stable under re-parsing, and a compiled rule never loops onto itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vitrine_shared::redirects::{Matcher, parse_destination, parse_origin, parse_rule};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (from, to) = text.split_once('\n').unwrap_or((text, "/destino"));
    if let Ok(origin) = parse_origin(from) {
        assert_eq!(parse_origin(&origin).as_deref(), Ok(origin.as_str()));
    }
    let _ = parse_destination(to);
    if let Ok(rule) = parse_rule(from, to) {
        let m = Matcher::new([(rule.from.as_str(), rule.to.as_str())]);
        let _ = m.lookup(from, Some("a=1"));
        let _ = m.lookup(to, None);
    }
});
