//! What the API sends about people, as types: an account and its ratings, a profile, the
//! rating lists of people and of the computer's levels, seeks and challenges. docs/api.md
//! ("Accounts", "Ratings", "Profiles", "Seeks and challenges") describes each field.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::clock::ClockSpec;
use crate::live::Seat;
use crate::rating::Rating;
use crate::store::{LevelRating, PlayedGame, Ranked, RatingPoint, RatingRow, SeekRow};

/// A Glicko-2 rating as the API shows it: rounded to whole points.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct RatingFigures {
    pub rating: f64,
    pub deviation: f64,
    pub provisional: bool,
}

impl From<&Rating> for RatingFigures {
    fn from(r: &Rating) -> Self {
        RatingFigures {
            rating: r.rating.round(),
            deviation: r.deviation.round(),
            provisional: r.provisional(),
        }
    }
}

/// One of an account's ratings: a game and speed, and (on a profile) its history.
#[derive(Serialize, Clone, Debug)]
pub struct RatingView {
    pub game: String,
    pub speed: String,
    #[serde(flatten)]
    pub figures: RatingFigures,
    /// Rated games played at this game and speed.
    pub games: i64,
    /// On a profile: each rated game's time (ms since the epoch) and the rating after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<Vec<(i64, f64)>>,
}

impl RatingView {
    pub fn of(r: &RatingRow) -> Self {
        RatingView {
            game: r.game.clone(),
            speed: r.speed.clone(),
            figures: (&r.rating).into(),
            games: r.games,
            history: None,
        }
    }

    /// With its history, from the account's points (of every rating).
    pub fn with_history(r: &RatingRow, points: &[RatingPoint]) -> Self {
        let history = points
            .iter()
            .filter(|p| p.game == r.game && p.speed == r.speed)
            .map(|p| (p.at_ms, p.rating.round()))
            .collect();
        RatingView {
            history: Some(history),
            ..RatingView::of(r)
        }
    }
}

/// `GET /api/account`: the logged-in account.
#[derive(Serialize)]
pub struct AccountView {
    pub name: String,
    pub ratings: Vec<RatingView>,
}

/// An account's name: the answer of a sign-up and a log-in.
#[derive(Serialize)]
pub struct NameView {
    pub name: String,
}

/// An answer with nothing to say (`{}`).
#[derive(Serialize)]
pub struct EmptyView {}

/// An account's wins, draws and losses at a game.
#[derive(Serialize, Default, Clone, Copy, Debug, PartialEq)]
pub struct Tally {
    pub win: i64,
    pub draw: i64,
    pub loss: i64,
}

/// `GET /api/users/{name}`: a profile.
#[derive(Serialize)]
pub struct ProfileView {
    pub name: String,
    pub created_ms: i64,
    pub ratings: Vec<RatingView>,
    /// Per game id.
    pub results: BTreeMap<String, Tally>,
    /// Newest first, each seen from the account's seat.
    pub games: Vec<PlayedGameView>,
}

/// A game of a profile, seen from the account's seat, with who sat in the other seats.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct PlayedGameView {
    #[serde(flatten)]
    pub game: PlayedGame,
    /// The other seats, in turn order.
    pub opponents: Vec<OpponentView>,
}

/// Who sat in another seat of a profile's game: an account (`name`), the computer (`level`),
/// or neither (a person without an account, or a seat still open).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct OpponentView {
    pub seat: u8,
    pub name: Option<String>,
    pub level: Option<u8>,
}

impl From<PlayedGame> for PlayedGameView {
    fn from(g: PlayedGame) -> Self {
        let opponents = (0..g.seats.len().max(g.accounts.len()))
            .filter(|&seat| seat != usize::from(g.seat))
            .map(|seat| OpponentView {
                seat: u8::try_from(seat).unwrap_or(u8::MAX),
                name: g.accounts.get(seat).cloned().flatten(),
                level: match g.seats.get(seat).map(|s| Seat::parse_stored(s)) {
                    Some(Ok(Seat::Computer(level))) => Some(level),
                    _ => None,
                },
            })
            .collect();
        PlayedGameView { game: g, opponents }
    }
}

impl ProfileView {
    /// The tallies per game from the store's counts of (game, result, games).
    pub fn tallies(counts: Vec<(String, String, i64)>) -> BTreeMap<String, Tally> {
        let mut results: BTreeMap<String, Tally> = BTreeMap::new();
        for (game, result, n) in counts {
            let tally = results.entry(game).or_default();
            match result.as_str() {
                "win" => tally.win = n,
                "draw" => tally.draw = n,
                "loss" => tally.loss = n,
                other => tracing::warn!("a stored result {other:?} is none of win, draw, loss"),
            }
        }
        results
    }
}

/// A line of `GET /api/ratings/{game}`.
#[derive(Serialize)]
pub struct RankedView {
    pub name: String,
    pub speed: String,
    #[serde(flatten)]
    pub figures: RatingFigures,
    pub games: i64,
}

impl From<&Ranked> for RankedView {
    fn from(r: &Ranked) -> Self {
        RankedView {
            name: r.name.clone(),
            speed: r.rating.speed.clone(),
            figures: (&r.rating.rating).into(),
            games: r.rating.games,
        }
    }
}

/// A line of `GET /api/levels/{game}`: a computer level's rating against people.
#[derive(Serialize)]
pub struct LevelView {
    pub level: u8,
    #[serde(flatten)]
    pub figures: RatingFigures,
    pub games: i64,
}

impl From<&LevelRating> for LevelView {
    fn from(l: &LevelRating) -> Self {
        LevelView {
            level: l.level,
            figures: (&l.rating).into(),
            games: l.games,
        }
    }
}

/// The ratings a seek asks of the other player, both ends included.
#[derive(Serialize)]
pub struct RangeView {
    pub min: i64,
    pub max: i64,
}

/// A seek or a challenge as the API shows it to a viewer.
#[derive(Serialize)]
pub struct SeekView {
    pub id: String,
    pub game: String,
    pub settings: BTreeMap<String, String>,
    pub clock: Option<ClockSpec>,
    pub rated: bool,
    pub range: Option<RangeView>,
    /// The seeker's account name (`null`: anonymous).
    pub name: Option<String>,
    /// The seeker's rating at the seek's game and speed (`null` without a clock or an account).
    pub rating: Option<f64>,
    /// The player challenged.
    pub to: Option<String>,
    /// `open`, `accepted`, `cancelled` or `declined`.
    pub state: String,
    pub game_id: Option<String>,
    pub created_ms: i64,
    pub seat: Option<u8>,
    /// Whether the viewer may accept it.
    pub fits: bool,
}

impl SeekView {
    pub fn new(seek: &SeekRow, rating: Option<f64>, fits: bool) -> Self {
        SeekView {
            id: seek.id.clone(),
            game: seek.kind.clone(),
            settings: seek.settings.iter().cloned().collect(),
            clock: seek.clock,
            rated: seek.rated,
            range: seek.range.map(|(min, max)| RangeView { min, max }),
            name: seek.user.as_ref().map(|u| u.1.clone()),
            rating,
            to: seek.target.as_ref().map(|t| t.1.clone()),
            state: seek.state.clone(),
            game_id: seek.game_id.clone(),
            created_ms: seek.created_ms,
            seat: seek.seat,
            fits,
        }
    }
}

/// `POST /api/seeks`: the seek made, and the token of the seat its seeker will hold.
#[derive(Serialize)]
pub struct SeekMadeView {
    pub id: String,
    pub token: String,
    pub seek: SeekView,
}

/// `GET /api/challenges`: the open challenges an account received and made.
#[derive(Serialize)]
pub struct ChallengesView {
    pub incoming: Vec<SeekView>,
    pub outgoing: Vec<SeekView>,
}

/// A seek accepted: the game made, the seat taken and its token, and the game's state.
#[derive(Serialize)]
pub struct SeekTakenView {
    pub id: String,
    pub seat: u8,
    pub token: String,
    pub state: serde_json::Value,
}
