//! Random play and take-back in every game: see `myrmidon_fuzz::check_play_any`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| myrmidon_fuzz::check_play_any(data));
