//! What the API sends, as types: the games the server plays (`GET /api/games`), a position with
//! its moves (a game's state, the explorer's answer), a game's state with its seats, offers and
//! clock. Built from the rules library's types; the handlers and the game logic never write
//! these fields by hand. docs/api.md describes each field.

use std::collections::BTreeMap;

use myrmidon_rules::geometry::Geometry;
use myrmidon_rules::{
    registry, Cell, DynRecord, GameInfo, GrammaticalNumber, MarkedCell, PieceKind, PieceView,
    Player, SettingInfo,
};
// A position and its moves as every board is drawn from them: made by the rules library, as
// the browser's module makes them too.
pub use myrmidon_rules::view::{
    board_of, captured, info_messages, EliminationView, InfoMessage, LegalMove, OutcomeView,
    PlayedView, PositionView,
};
use serde::Serialize;

use crate::i18n::{Lang, Msg};
use crate::live::LEVELS;

pub mod accounts;

/// A game the server plays: an entry of `GET /api/games`.
#[derive(Serialize)]
pub struct GameSummary {
    pub id: &'static str,
    pub name: &'static str,
    pub summary: &'static str,
    pub players: &'static [&'static str],
    /// How English takes the players' names: "White wins", "the Termides win".
    pub players_number: GrammaticalNumber,
    pub pieces: &'static [PieceKind],
    pub settings: &'static [SettingInfo],
    pub board: BoardView,
    /// The kind of piece beside each player's name.
    pub emblems: &'static [char],
    /// The piece that stands for the game in a list of games.
    pub icon: PieceView,
    pub levels: u8,
    /// How the pieces are drawn: the board draws what it receives.
    pub drawings: Drawings,
}

impl GameSummary {
    pub fn of(info: &'static GameInfo) -> GameSummary {
        GameSummary {
            id: info.id,
            name: info.name,
            summary: info.summary,
            players: info.players,
            players_number: info.players_number,
            pieces: info.pieces,
            settings: info.settings,
            board: BoardView::of(info),
            emblems: info.emblems,
            icon: info.icon,
            levels: LEVELS,
            drawings: Drawings::of(info),
        }
    }

    /// Every game of the registry, made once (they change only with the binary).
    pub fn all() -> &'static [GameSummary] {
        static ALL: std::sync::OnceLock<Vec<GameSummary>> = std::sync::OnceLock::new();
        ALL.get_or_init(|| {
            registry::games()
                .iter()
                .map(|g| GameSummary::of(g.info()))
                .collect()
        })
    }
}

/// How a game's pieces are drawn ([`GameInfo::drawings`], the game folder's `pieces.json`):
/// each player's colours in turn order, and each kind's drawing, SVG markup in a 100x100 box
/// whose `{name}` placeholders stand for the owner's colour of that name.
#[derive(Serialize, serde::Deserialize, Default, Debug)]
pub struct Drawings {
    pub colours: Vec<BTreeMap<String, String>>,
    #[serde(deserialize_with = "joined")]
    pub pieces: BTreeMap<char, String>,
}

/// A drawing as the file writes it, one SVG element a line, made one string.
fn joined<'de, D: serde::Deserializer<'de>>(d: D) -> Result<BTreeMap<char, String>, D::Error> {
    let lines: BTreeMap<char, Vec<String>> = serde::Deserialize::deserialize(d)?;
    Ok(lines.into_iter().map(|(k, v)| (k, v.concat())).collect())
}

impl Drawings {
    /// The drawings of a game; none for a game without them (a test's own game), whose
    /// boards draw each piece as its letter in a disc.
    pub fn of(info: &GameInfo) -> Drawings {
        Self::read(info.drawings).unwrap_or_default()
    }

    fn read(text: &str) -> Option<Drawings> {
        serde_json::from_str(text).ok()
    }
}

/// A board's shape: its cells' names and the rows as drawn from the first player's side.
#[derive(Serialize)]
pub struct BoardView {
    /// `square` or `hex`.
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranks: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub radius: Option<u8>,
    pub cells: Vec<String>,
    pub rows: Vec<RowView>,
    /// Cells with a role in the rules (the anthill, the Ponte squares).
    pub special: &'static [MarkedCell],
}

/// A row of a board as drawn: its indent in half cells and its cells from left to right.
#[derive(Serialize)]
pub struct RowView {
    pub indent: usize,
    pub cells: Vec<Cell>,
}

impl BoardView {
    pub fn of(info: &'static GameInfo) -> BoardView {
        let geometry = info.geometry;
        let (kind, files, ranks, radius) = match geometry {
            Geometry::Square { files, ranks } => ("square", Some(files), Some(ranks), None),
            Geometry::Hex { radius } => ("hex", None, None, Some(radius)),
        };
        BoardView {
            kind,
            files,
            ranks,
            radius,
            cells: (0..geometry.cell_count())
                .map(|c| geometry.cell_name(c as Cell))
                .collect(),
            rows: geometry
                .rows()
                .into_iter()
                .map(|(indent, cells)| RowView { indent, cells })
                .collect(),
            special: info.marked,
        }
    }
}

/// A game's state as the API gives it: the position, the seats and what the game has of its own.
#[derive(Serialize)]
pub struct GameStateView {
    pub id: String,
    #[serde(flatten)]
    pub position: PositionView,
    /// Each seat's kind (`human`, `computer:3`, `online`, `open`).
    pub seats: Vec<String>,
    pub settings: BTreeMap<String, String>,
    /// For each seat, the kinds of its pieces on the board at the start and not now.
    pub captured: Vec<Vec<String>>,
    /// The position's facts in words.
    /// The position's facts, as messages the page writes in its language.
    pub info: Vec<InfoMessage>,
    pub eliminated: Vec<EliminationView>,
    pub thinking: bool,
    pub version: u64,
    /// Offers, seats and clock: a game's live state (not in a state of an earlier ply).
    #[serde(flatten)]
    pub live: Option<LiveView>,
    /// The ply shown, for a state of an earlier ply (`?at=N`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<usize>,
}

impl GameStateView {
    pub fn of(
        id: &str,
        seats: &[String],
        settings: &[(String, String)],
        record: &dyn DynRecord,
        version: u64,
        thinking: bool,
    ) -> GameStateView {
        let players = record.player_names();
        GameStateView {
            id: id.to_string(),
            position: PositionView::of(record),
            seats: seats.to_vec(),
            settings: settings.iter().cloned().collect(),
            captured: captured(record),
            info: info_messages(record),
            eliminated: record
                .eliminations()
                .iter()
                .map(|e| EliminationView::of(e, players, record.info().players_number))
                .collect(),
            thinking,
            version,
            live: None,
            at: None,
        }
    }
}

/// What a game in play has beside its position (docs/api.md, "A game's state").
#[derive(Serialize)]
pub struct LiveView {
    pub draw_offer: Option<Player>,
    pub draw_declined: Option<Player>,
    pub takeback_offer: Option<Player>,
    pub takeback_agreed: Vec<Player>,
    pub takeback_declined: Option<Player>,
    pub rematch_offers: Vec<Player>,
    pub rematch: Option<String>,
    pub open_seats: Vec<Player>,
    pub public: bool,
    pub clock: Option<ClockView>,
    /// A rated game; the account holding each seat (its name, null for none); once rated,
    /// each seat's rating before and after it.
    pub rated: bool,
    pub accounts: Vec<Option<String>>,
    pub rating_change: Option<crate::rating::RatingChange>,
}

/// A clock as of a moment: each seat's time left then, and the seat whose time runs.
#[derive(Serialize)]
pub struct ClockView {
    pub initial_ms: u64,
    pub increment_ms: u64,
    pub remaining_ms: Vec<i64>,
    pub running: Option<Player>,
    pub as_of_ms: i64,
}

/// An engine score as the analysis board shows it: `{"cp": 35}` or `{"mate": -3}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreView {
    Cp(i32),
    Mate(i32),
}

impl ScoreView {
    /// The score as the engine gives it (from the view of the player to move).
    pub fn of(score: myrmidon_engine::Score) -> ScoreView {
        match score {
            myrmidon_engine::Score::Cp(cp) => ScoreView::Cp(cp),
            myrmidon_engine::Score::Mate(n) => ScoreView::Mate(n),
        }
    }

    /// The score from seat 0's view, in two-player games (`None` with three players).
    pub fn first(score: myrmidon_engine::Score, record: &dyn DynRecord) -> Option<ScoreView> {
        if record.player_names().len() != 2 {
            return None;
        }
        Some(match ScoreView::of(score) {
            ScoreView::Cp(cp) if record.to_move() != 0 => ScoreView::Cp(-cp),
            ScoreView::Mate(n) if record.to_move() != 0 => ScoreView::Mate(-n),
            same => same,
        })
    }
}

/// A message of the analysis board's socket (`GET /api/analysis`): docs/api.md.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AnalysisMessage {
    /// A line of the search as it deepens.
    Info {
        id: Option<u64>,
        depth: u32,
        seldepth: u32,
        multipv: u32,
        score: ScoreView,
        first: Option<ScoreView>,
        nodes: u64,
        nps: u64,
        time_ms: u64,
        pv: Vec<String>,
    },
    /// The analysis ended: its best move (none when stopped before it started), and the
    /// outcome when the position is over.
    Done {
        id: Option<u64>,
        best: Option<String>,
        outcome: Option<String>,
    },
    /// The evaluation of one position of a game (the graph).
    Eval {
        id: Option<u64>,
        ply: usize,
        score: Option<ScoreView>,
        first: Option<ScoreView>,
        #[serde(skip_serializing_if = "Option::is_none")]
        outcome: Option<String>,
    },
    /// Every position of the game was evaluated (or the request was stopped).
    EvalsDone { id: Option<u64> },
    /// A request refused or failed.
    Error { id: Option<u64>, error: String },
}

/// A new game: the `201` of `POST /api/games` and of an accepted rematch.
#[derive(Serialize)]
pub struct CreatedView {
    pub id: String,
    /// Each seat's token, `null` for a computer's or an open seat.
    pub tokens: Vec<Option<String>>,
    pub state: serde_json::Value,
}

/// A seat taken: the answer of `POST /api/games/{id}/join`.
#[derive(Serialize)]
pub struct JoinedView {
    pub token: String,
    pub state: serde_json::Value,
}

/// A game with open seats: an entry of `GET /api/lobby`.
#[derive(Serialize)]
pub struct LobbyEntry {
    pub id: String,
    pub game: &'static str,
    pub name: &'static str,
    pub players: &'static [&'static str],
    pub seats: Vec<String>,
    pub open_seats: Vec<u8>,
    pub settings: BTreeMap<String, String>,
    pub clock: Option<crate::clock::ClockSpec>,
    pub moves: usize,
    pub created_ms: i64,
}

/// A game's rules page as HTML, in a language: the answer of `GET /api/rules/{game}`.
#[derive(Serialize)]
pub struct RulesView {
    pub game: &'static str,
    pub name: &'static str,
    pub lang: &'static str,
    pub html: String,
}

/// A refusal: `{"error": "…", "key": "api-…", "args": {…}}`, with the status that says its
/// kind: the message in the request's language, its key in the catalogues (web/i18n/) and the
/// values it was made with (left out when there are none).
#[derive(Serialize)]
pub struct ErrorView {
    pub error: String,
    pub key: &'static str,
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub args: serde_json::Map<String, serde_json::Value>,
}

impl ErrorView {
    pub fn of(msg: &Msg, lang: Lang) -> ErrorView {
        ErrorView {
            error: msg.format(lang),
            key: msg.key,
            args: msg.args_json(),
        }
    }
}

/// What the game page carries inside its HTML: the games and, when it can be read, the
/// game's state.
#[derive(Serialize)]
pub struct GamePageBoot<'a> {
    pub games: &'a serde_json::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<serde_json::Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game's `pieces.json` reads, draws every kind of piece the game has (its emblems
    /// and icon among them), gives colours to every player, and each colour a drawing names is
    /// in every player's colours.
    #[test]
    fn every_game_draws_every_piece_in_every_colour() {
        for game in registry::games() {
            let info = game.info();
            let drawings = Drawings::read(info.drawings)
                .unwrap_or_else(|| panic!("{}: pieces.json does not read", info.id));
            assert!(
                drawings.colours.len() >= info.players.len(),
                "{}: {} colour sets for {} players",
                info.id,
                drawings.colours.len(),
                info.players.len()
            );
            let kinds = info.pieces.iter().map(|p| p.letter);
            for kind in kinds
                .chain(info.emblems.iter().copied())
                .chain([info.icon.kind])
            {
                let drawing = drawings.pieces.get(&kind);
                let drawing =
                    drawing.unwrap_or_else(|| panic!("{}: no drawing of {kind}", info.id));
                assert!(
                    drawing.starts_with('<') && drawing.ends_with('>'),
                    "{}: {kind}",
                    info.id
                );
                for name in drawing
                    .split('{')
                    .skip(1)
                    .map(|s| s.split('}').next().unwrap_or(""))
                {
                    for (seat, colours) in drawings.colours.iter().enumerate() {
                        assert!(
                            colours.contains_key(name),
                            "{}: {kind} names the colour {name}, which seat {seat} lacks",
                            info.id
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_drawing_is_its_lines_joined() {
        let text = r##"{"colours": [{"fill": "#fff"}], "pieces": {"K": ["<a/>", "<b fill=\"{fill}\"/>"]}}"##;
        let drawings = Drawings::read(text).expect("reads");
        assert_eq!(drawings.pieces[&'K'], r#"<a/><b fill="{fill}"/>"#);
        assert_eq!(drawings.colours[0]["fill"], "#fff");
        assert!(Drawings::read("").is_none());
    }
}

/// A message of a game's WebSocket to one seat's holder: the seats they may claim against now
/// (docs/api.md, "A player who left").
#[derive(Serialize)]
pub struct ClaimableView<'a> {
    pub claimable: &'a [u8],
}

/// `/offline.json`: what the service worker keeps for the app to open with no network.
#[derive(Serialize)]
pub struct OfflineView {
    /// Every language's code.
    pub languages: Vec<&'static str>,
    /// The language this browser's pages are in (until one says otherwise).
    pub lang: &'static str,
    /// The pages, each kept in every language.
    pub pages: Vec<String>,
    /// The files, kept as they are.
    pub files: Vec<String>,
}
