//! Move texts of `antchess`: see `myrmidon_fuzz::check_move_text`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use myrmidon_rules::games::antchess::AntChess2;

fuzz_target!(|data: &[u8]| myrmidon_fuzz::check_move_text(&AntChess2, data));
