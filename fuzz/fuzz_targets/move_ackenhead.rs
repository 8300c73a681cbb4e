//! Move texts of `ackenhead`: see `myrmidon_fuzz::check_move_text`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use myrmidon_rules::games::ackenhead::Ackenhead;

fuzz_target!(|data: &[u8]| myrmidon_fuzz::check_move_text(&Ackenhead, data));
