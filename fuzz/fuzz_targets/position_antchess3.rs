//! Position strings of `antchess3`: see `myrmidon_fuzz::check_position_text`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use myrmidon_rules::games::antchess::AntChess3;

fuzz_target!(|data: &[u8]| myrmidon_fuzz::check_position_text(&AntChess3, data));
