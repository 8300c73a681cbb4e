//! Position strings of `ackenhead`: see `myrmidon_fuzz::check_position_text`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use myrmidon_fuzz::{check_game, Check};

fuzz_target!(|data: &[u8]| check_game("ackenhead", Check::PositionText, data));
