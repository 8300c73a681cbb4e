//! The WebAssembly interface, for `web/engine-worker.js`: the page writes a request's UTF-8
//! bytes into the buffer `mm_input(len)` gives, calls `mm_call(len)`, and reads the answer's
//! `mm_call` bytes at `mm_output()`. It provides two functions in the import module
//! `myrmidon`: `now_ms() -> f64` (`performance.now()`: the engine's clock) and
//! `report(ptr, len)` (a search line's bytes in the module's memory, valid during the call).
//!
//! `unsafe` is allowed here, and only here: exports keep their names (`no_mangle`) and imports
//! are foreign functions. The pointers handed out are of buffers this module owns; nothing is
//! read through a pointer the page gives.
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::time::Duration;

use crate::Session;

#[link(wasm_import_module = "myrmidon")]
extern "C" {
    fn now_ms() -> f64;
    fn report(ptr: *const u8, len: usize);
}

#[derive(Default)]
struct State {
    session: Session,
    input: Vec<u8>,
    output: Vec<u8>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

fn clock() -> Duration {
    // SAFETY: the import takes nothing and returns a number (`performance.now()`).
    let ms = unsafe { now_ms() };
    Duration::from_secs_f64(ms.max(0.0) / 1000.0)
}

/// A buffer of `len` bytes for the next request; its address.
#[no_mangle]
pub extern "C" fn mm_input(len: usize) -> *mut u8 {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.input.clear();
        s.input.resize(len, 0);
        s.input.as_mut_ptr()
    })
}

/// Answers the request of the first `len` bytes of the input buffer; the answer's length
/// (its bytes at `mm_output()`).
#[no_mangle]
pub extern "C" fn mm_call(len: usize) -> usize {
    myrmidon_engine::set_clock(clock);
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        let State {
            session,
            input,
            output,
        } = &mut *s;
        let request = String::from_utf8_lossy(&input[..len.min(input.len())]).into_owned();
        let answer = session.call(&request, &mut |line: &str| {
            // SAFETY: the pointer and length are of `line`, alive for the call; the page
            // copies the bytes before it returns.
            unsafe { report(line.as_ptr(), line.len()) }
        });
        *output = answer.into_bytes();
        output.len()
    })
}

/// The address of the last answer.
#[no_mangle]
pub extern "C" fn mm_output() -> *const u8 {
    STATE.with(|s| s.borrow().output.as_ptr())
}
