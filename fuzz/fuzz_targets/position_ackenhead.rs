//! Position strings of `ackenhead`: see `myrmidon_fuzz::check_position_text`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use myrmidon_rules::games::ackenhead::Ackenhead;

fuzz_target!(|data: &[u8]| myrmidon_fuzz::check_position_text(&Ackenhead, data));
