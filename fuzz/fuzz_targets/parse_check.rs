//! Parse and check arbitrary bytes as a rules file: a game or diagnostics,
//! never a panic. Diagnostics are rendered too (spans must stay inside the
//! text). Bytes that are not UTF-8 are replaced, as `grail check` reports
//! them only after reading.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // A variant line would read its base from the disk: the fuzzer stays
    // off the file system.
    if grail::load::variant_base(&text).is_some() {
        return;
    }
    match grail::Game::from_source("fuzz.rules", &text) {
        Ok(game) => {
            let _ = game.warnings().render_plain();
            let (lo, _) = game.players();
            let _ = grail::State::new(&game, lo, 0, &game.default_options());
        }
        Err(d) => {
            let _ = d.render_plain();
        }
    }
});
