//! `rulecheck merge` on arbitrary part files: the input is split at 0xFF
//! bytes (never in UTF-8) into up to 8 part files; each is read as
//! `rulecheck merge` reads it and, when all read, they are merged and the
//! report rendered (text and JSON). A clear error or a report, never a
//! panic or a huge allocation.
#![no_main]

use grail::rulecheck::{Config, Part, merge};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut parts = Vec::new();
    for (i, chunk) in data.split(|&b| b == 0xFF).take(8).enumerate() {
        let name = format!("p{i}.part");
        let text = String::from_utf8_lossy(chunk);
        match Part::from_ron(&name, &text) {
            Ok(p) => parts.push((name, p)),
            Err(_) => return,
        }
    }
    if let Ok(report) = merge(&parts, &Config::default()) {
        let _ = report.render_plain();
        let _ = report.to_json(None);
    }
});
