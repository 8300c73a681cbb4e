//! The UCI protocol as text, both ways and with no I/O: what `myrmidon engine` reads and
//! writes, and what `myrmidon match` writes to other engines and reads back, come from this one
//! module (`docs/protocol.md` is its specification).
//!
//! * [`Command`]: one line to an engine, read by [`parse`] and written by its `Display`.
//! * [`Go`]: the parameters of a `go`, to and from the search's [`Limits`](crate::Limits).
//! * [`Info`]: an `info` line, to and from a search's [`Report`](crate::Report).
//! * [`UciOption`]: an `option name … type …` declaration, and the check of a value set for it.
//!
//! Every type reads what it writes: `x.to_string().parse() == x`, tested on random values.
//! What is wrong with a line comes back as a message, one line of text, for an
//! `info string error: …` line.

mod command;
mod go;
mod info;
mod option;

pub use command::{parse, Command, Parsed};
pub use go::Go;
pub use info::Info;
pub use option::{OptionKind, OptionValue, UciOption};

/// At most 60 characters of what was received, control characters escaped, to quote it in a
/// message (which must stay one line of text).
pub fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MAX {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Milliseconds as the protocol writes them.
fn millis(d: &std::time::Duration) -> u128 {
    d.as_millis()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_input_is_quoted_short_and_on_one_line() {
        assert_eq!(shorten("a\u{0}b\u{1b}[31m"), "a\\u{0}b\\u{1b}[31m");
        assert_eq!(shorten(&"é".repeat(61)), format!("{}…", "é".repeat(60)));
        assert_eq!(shorten("short"), "short");
    }
}
