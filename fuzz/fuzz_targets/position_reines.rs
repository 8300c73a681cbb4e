//! Position strings of `reines`: see `myrmidon_fuzz::check_position_text`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use myrmidon_rules::games::reines::Reines;

fuzz_target!(|data: &[u8]| myrmidon_fuzz::check_position_text(&Reines, data));
