//! Move texts of `epaminondas`: see `myrmidon_fuzz::check_move_text`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use myrmidon_rules::games::epaminondas::Epaminondas;

fuzz_target!(|data: &[u8]| myrmidon_fuzz::check_move_text(&Epaminondas, data));
