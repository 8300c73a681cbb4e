//! Move texts of `antchess`: see `myrmidon_fuzz::check_move_text`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use myrmidon_fuzz::{check_game, Check};

fuzz_target!(|data: &[u8]| check_game("antchess", Check::MoveText, data));
