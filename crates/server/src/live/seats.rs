//! Seats and their tokens: what each seat of a game is, the secrets that hold them, and who
//! may act for a seat.

use sha2::{Digest, Sha256};

use super::{Live, Refusal, LEVELS};
use crate::i18n::Arg;

/// What a seat is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at this screen (every seat "human": one shared token).
    Human,
    /// A person elsewhere, with a token of their own (an invitation link, or a seat joined).
    Online,
    /// Waiting for someone to join (no token yet).
    Open,
    Computer(u8),
}

/// A seat as the API names it, in its one spelling (`computer:5`).
impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Online => f.write_str("online"),
            Seat::Open => f.write_str("open"),
            Seat::Computer(level) => write!(f, "computer:{level}"),
        }
    }
}

impl Seat {
    /// A seat as a client names it for a new game, in its one canonical spelling (as it is
    /// stored and shown): the level of `computer:<level>` is one digit from 1 to [`LEVELS`]
    /// (`computer:5`; not `+5`, `05` or ` 5`).
    pub fn parse(text: &str) -> Result<Seat, String> {
        if let Some(level) = text.strip_prefix("computer:") {
            if let [digit @ b'1'..=b'9'] = level.as_bytes() {
                let level = digit - b'0';
                if level <= LEVELS {
                    return Ok(Seat::Computer(level));
                }
            }
            return Err(format!(
                "seat {text:?}: the computer's level must be one digit from 1 to {LEVELS}, as \
                 \"computer:5\""
            ));
        }
        Seat::parse_stored(text)
    }

    /// A seat as a stored game has it: as [`Seat::parse`], but a level in any spelling the
    /// server once accepted (`computer:+5`, `computer:05`), so that games stored then load.
    pub fn parse_stored(text: &str) -> Result<Seat, String> {
        match text {
            "human" => return Ok(Seat::Human),
            "online" => return Ok(Seat::Online),
            "open" => return Ok(Seat::Open),
            _ => {}
        }
        if let Some(level) = text.strip_prefix("computer:") {
            if let Ok(level) = level.parse::<u8>() {
                if (1..=LEVELS).contains(&level) {
                    return Ok(Seat::Computer(level));
                }
            }
            return Err(format!(
                "seat {text:?}: the computer's level must be a number from 1 to {LEVELS}"
            ));
        }
        Err(format!(
            "seat {text:?}: expected \"human\", \"online\", \"open\" or \"computer:<level>\" \
             (level 1 to {LEVELS})"
        ))
    }
}

/// How a client is named in the store: the SHA-256 (hex) of its address.
pub fn client_key(ip: std::net::IpAddr) -> String {
    hash_token(&format!("client {ip}"))
}

/// A fresh secret: 128 random bits in hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A fresh game id: 10 letters and digits.
pub fn new_id() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut bytes = [0u8; 10];
    getrandom::fill(&mut bytes).expect("the system's random source");
    bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

pub fn hash_token(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Equal strings, in a time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The hashes of a new game's tokens, as stored (`None` for a seat without one).
pub(super) fn hashes(tokens: &[Option<String>]) -> Vec<Option<String>> {
    tokens
        .iter()
        .map(|t| t.as_deref().map(hash_token))
        .collect()
}

/// Reads the seats of a new game and makes their tokens: one per human seat, or one shared
/// token when every seat is human (one screen).
pub(super) fn seat_tokens(
    players: usize,
    kind: &'static str,
    seats: &[String],
) -> Result<Vec<Option<String>>, Refusal> {
    if seats.len() != players {
        return Err(Refusal::Bad(msg!(
            "api-seat-count",
            game = Arg::Game(kind),
            players = players,
            given = seats.len()
        )));
    }
    let parsed: Vec<Seat> = seats
        .iter()
        .map(|s| Seat::parse(s))
        .collect::<Result<_, _>>()
        .map_err(|e| Refusal::Bad(msg!("api-seat-kind", detail = e)))?;
    let humans = parsed.iter().filter(|s| **s == Seat::Human).count();
    let shared = (humans == parsed.len()).then(new_token);
    let tokens = parsed
        .iter()
        .map(|s| match s {
            Seat::Human => Some(shared.clone().unwrap_or_else(new_token)),
            Seat::Online => Some(new_token()),
            Seat::Open | Seat::Computer(_) => None,
        })
        .collect();
    Ok(tokens)
}

impl Live {
    /// Whether `token` holds `seat`.
    pub fn holds(&self, token: Option<&str>, seat: u8) -> bool {
        let Some(token) = token else { return false };
        match self.row.token_hashes.get(seat as usize) {
            Some(Some(hash)) => same(&hash_token(token), hash),
            _ => false,
        }
    }

    /// The player of `seat` (Termides, Black, …) as a message's argument (written in the
    /// reader's language), or the refusal of a seat the game does not have.
    pub(super) fn seat_player(&self, seat: u8) -> Result<Arg, Refusal> {
        let players = self.record.player_names();
        let name = players.get(seat as usize).copied();
        name.map(|name| Arg::player(self.record.info(), name))
            .ok_or_else(|| {
                Refusal::Bad(msg!(
                    "api-seat-range",
                    seat = seat,
                    last = players.len() - 1
                ))
            })
    }

    /// Checks that `token` may act (`what`: resign, draw) for `seat` of a game going on, and
    /// gives the seat's player (as [`Live::seat_player`]).
    pub(super) fn acting_seat(
        &self,
        seat: u8,
        token: Option<&str>,
        what: &str,
    ) -> Result<Arg, Refusal> {
        let name = self.seat_player(seat)?;
        if self.record.result().is_some() {
            return Err(Refusal::Bad(msg!("api-game-over-for", what = what)));
        }
        if !self.holds(token, seat) {
            return Err(Refusal::Forbidden(msg!(
                "api-not-your-seat",
                seat = seat,
                name = name.clone()
            )));
        }
        Ok(name)
    }

    /// The seats `token` holds, for a request (`what`) that needs one at least.
    pub(super) fn seats_held(&self, token: Option<&str>, what: &str) -> Result<Vec<u8>, Refusal> {
        let mine: Vec<u8> = (0..self.seats.len() as u8)
            .filter(|&s| self.holds(token, s))
            .collect();
        if mine.is_empty() {
            return Err(Refusal::Forbidden(msg!("api-no-seat", what = what)));
        }
        Ok(mine)
    }

    /// The seats of people who may be on other devices, as a bit mask: every online seat, and
    /// the person's seats of a game that has an online or open seat (its creator's, `human`
    /// in games made before creators took an online seat). On one screen and against the
    /// computer, none.
    pub(super) fn people_elsewhere(&self) -> u8 {
        let online = self
            .seats
            .iter()
            .any(|s| matches!(s, Seat::Online | Seat::Open));
        (0..self.seats.len() as u8)
            .filter(|&s| match self.seats[s as usize] {
                Seat::Online => true,
                Seat::Human => online,
                Seat::Open | Seat::Computer(_) => false,
            })
            .fold(0, |m, s| m | 1 << s)
    }

    /// The seats nobody holds yet.
    pub fn open_seats(&self) -> Vec<u8> {
        (0..self.seats.len() as u8)
            .filter(|&s| self.seats[s as usize] == Seat::Open)
            .collect()
    }
}
