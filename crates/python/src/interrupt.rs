//! Long calls that Ctrl-C interrupts. A perft or a search runs on a thread of its own while
//! the calling thread, without Python's lock, waits for it and looks at Python's signals every
//! 50 ms; on a signal (Ctrl-C raises `KeyboardInterrupt`) the work is told to stop, and the
//! exception is raised once it has.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use pyo3::prelude::*;

use crate::MyrmidonError;

/// How often the waiting thread looks at Python's signals.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own and returns its result; if a Python signal handler
/// raises meanwhile, calls `stop`, waits for `work` to return, and raises that exception.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    stop: impl Fn() + Sync,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        scope.spawn(move || {
            // The receiver may be gone only once the caller has returned: nothing to tell.
            let _ = tx.send(work());
        });
        let mut rx = rx;
        loop {
            let (back, waited) = py.allow_threads(move || wait(rx, SIGNAL_CHECK));
            rx = back;
            match waited {
                Ok(value) => return Ok(value),
                Err(RecvTimeoutError::Disconnected) => {
                    // The work panicked; leaving the scope re-raises it as Python's PanicException.
                    return Err(MyrmidonError::new_err("the computation failed"));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Err(signal) = py.check_signals() {
                stop();
                let (_, _) = py.allow_threads(move || {
                    let r = rx.recv();
                    (rx, r)
                });
                return Err(signal);
            }
        }
    })
}

/// Waits up to `timeout` for the value, handing the receiver back (a `Receiver` may move
/// between threads but not be shared).
fn wait<T>(rx: Receiver<T>, timeout: Duration) -> (Receiver<T>, Result<T, RecvTimeoutError>) {
    let r = rx.recv_timeout(timeout);
    (rx, r)
}
