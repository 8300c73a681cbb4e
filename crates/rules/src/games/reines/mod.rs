//! Jeu de Reines: two peoples, the Termides (upper case, player 0) and the Myrmides (lower case,
//! player 1), each with an immobile Queen; capturing the enemy Queen wins, and captured Workers
//! come back through the Ponte. See `docs/rules/reines.md`.
//!
//! Players are numbered by people, not by turn order: player 0 is always the Termides and
//! player 1 the Myrmides. Who sits in the a1 corner (and moves first) is the `region` setting.

mod movegen;
mod moves;
mod outcome;
mod position;

#[cfg(test)]
mod tests;

pub use moves::ReinesMove;
pub use position::{Region, ReinesPosition};

use crate::error::{PositionError, SettingError};
use crate::game::{Game, GameInfo, PieceKind, SettingInfo, Settings};
use crate::geometry::Geometry;

/// The registry entry of Jeu de Reines.
pub struct Reines;

const SETTINGS: &[SettingInfo] = &[SettingInfo {
    name: "region",
    values: &["neutral", "animist", "cultist"],
    default: "neutral",
    help: "where the game is played: neutral or animist, the Termides hold the a1 corner and \
           move first; cultist, the Myrmides do",
}];

static INFO: GameInfo = GameInfo {
    id: "reines",
    name: "Jeu de Reines",
    players: &["Termides", "Myrmides"],
    geometry: Geometry::Square { files: 8, ranks: 8 },
    pieces: &[
        PieceKind {
            letter: 'Q',
            name: "Queen",
        },
        PieceKind {
            letter: 'C',
            name: "Counsellor",
        },
        PieceKind {
            letter: 'S',
            name: "Soldier",
        },
        PieceKind {
            letter: 'W',
            name: "Worker",
        },
    ],
    notation: crate::game::PieceNotation::Case,
    settings: SETTINGS,
    reasons: outcome::REASONS,
    summary: "Termides against Myrmides on 8x8: capture the immobile enemy Queen; captured \
              Workers come back through the Ponte",
};

impl Game for Reines {
    type Pos = ReinesPosition;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn start(&self, settings: &Settings) -> Result<ReinesPosition, SettingError> {
        let region = match settings.get(&INFO, "region")? {
            "animist" => Region::Animist,
            "cultist" => Region::Cultist,
            _ => Region::Neutral,
        };
        Ok(ReinesPosition::start(region))
    }

    fn parse_position(&self, text: &str) -> Result<ReinesPosition, PositionError> {
        text.parse()
    }
}
