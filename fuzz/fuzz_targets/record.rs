//! Any text read as game records: see `myrmidon_fuzz::check_record_text`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| myrmidon_fuzz::check_record_text(data));
