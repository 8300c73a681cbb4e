//! Error types shared by every game. Each names what is wrong, for a person to read.

/// A position string that cannot be read, or describes a position the rules forbid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad position string, {field}: {message}")]
pub struct PositionError {
    /// The field of the string at fault (`"placement"`, `"side to move"`, `"en passant"`, …).
    pub field: &'static str,
    pub message: String,
}

impl PositionError {
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        PositionError {
            field,
            message: message.into(),
        }
    }
}

/// A move text that cannot be read, or names a move that is not legal here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    #[error("cannot read move {:?}: expected {expected}", shortened(.text))]
    Malformed {
        text: String,
        expected: &'static str,
    },
    /// The text is well formed but the move is not legal in this position.
    #[error("illegal move {}: {reason}", shortened(.text))]
    Illegal { text: String, reason: String },
    /// The game is over: no move can be played.
    #[error("the game is over: no move can be played")]
    GameOver,
}

impl MoveError {
    pub fn malformed(text: &str, expected: &'static str) -> Self {
        MoveError::Malformed {
            text: text.to_string(),
            expected,
        }
    }

    pub fn illegal(text: &str, reason: impl Into<String>) -> Self {
        MoveError::Illegal {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

/// At most 40 characters of user text in a message, so that a huge input gives a short one.
pub(crate) fn shortened(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
        None => text.to_string(),
    }
}

/// A game setting that does not exist or has a value it cannot take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    #[error("game {game} has no setting {name:?}")]
    Unknown { game: &'static str, name: String },
    #[error("setting {name} cannot be {value:?}: expected one of {}", .expected.join(", "))]
    BadValue {
        name: &'static str,
        value: String,
        expected: &'static [&'static str],
    },
}

/// A game id the registry does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {id:?}: the games are {}", .known.join(", "))]
pub struct UnknownGame {
    pub id: String,
    pub known: Vec<&'static str>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_move_texts_are_shortened_in_messages() {
        let long = "e2".repeat(5000);
        let msg = MoveError::malformed(&long, "a move").to_string();
        assert!(msg.len() < 150, "{msg}");
        assert!(msg.contains("(10000 characters)"), "{msg}");
        let short = MoveError::illegal("e2e4", "no").to_string();
        assert_eq!(short, "illegal move e2e4: no");
    }
}
