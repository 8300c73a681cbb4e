//! Error types shared by every game. Each names what is wrong, for a person to read.

use std::fmt;

/// A position string that cannot be read, or describes a position the rules forbid.
#[derive(Clone, Debug, PartialEq, Eq)]
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

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad position string, {}: {}", self.field, self.message)
    }
}

impl std::error::Error for PositionError {}

/// A move text that cannot be read, or names a move that is not legal here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    Malformed {
        text: String,
        expected: &'static str,
    },
    /// The text is well formed but the move is not legal in this position.
    Illegal { text: String, reason: String },
    /// The game is over: no move can be played.
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
fn shortened(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
        None => text.to_string(),
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed { text, expected } => {
                write!(
                    f,
                    "cannot read move {:?}: expected {expected}",
                    shortened(text)
                )
            }
            MoveError::Illegal { text, reason } => {
                write!(f, "illegal move {}: {reason}", shortened(text))
            }
            MoveError::GameOver => write!(f, "the game is over: no move can be played"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A game setting that does not exist or has a value it cannot take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingError {
    Unknown {
        game: &'static str,
        name: String,
    },
    BadValue {
        name: &'static str,
        value: String,
        expected: &'static [&'static str],
    },
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::Unknown { game, name } => {
                write!(f, "game {game} has no setting {name:?}")
            }
            SettingError::BadValue {
                name,
                value,
                expected,
            } => write!(
                f,
                "setting {name} cannot be {value:?}: expected one of {}",
                expected.join(", ")
            ),
        }
    }
}

impl std::error::Error for SettingError {}

/// A game id the registry does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame {
    pub id: String,
    pub known: Vec<&'static str>,
}

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game {:?}: the games are {}",
            self.id,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}

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
