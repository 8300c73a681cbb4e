//! Writing one game: its tags (the caller's and the game's own) and its movetext.

use super::*;

/// The tag that carries a setting: its name in upper camel case (`region` → `Region`,
/// `max-plies` → `MaxPlies`).
pub fn setting_tag(name: &str) -> String {
    name.split(['-', '_', ' '])
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect::<String>(),
                None => String::new(),
            }
        })
        .collect()
}

/// The tags the writer writes itself for a game: Seven Tag Roster, seats, the game's tags.
pub(super) fn reserved_tags(info: &GameInfo, seats: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "Event",
        "Site",
        "Date",
        "Round",
        "Result",
        "Game",
        "SetUp",
        "FEN",
        "Termination",
        "TimeControl",
        "Time",
        "PlyCount",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(seats.iter().map(|s| s.to_string()));
    v.extend(info.settings.iter().map(|s| setting_tag(s.name)));
    v
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

pub(super) fn or_unknown<'a>(value: &'a str, unknown: &'a str) -> &'a str {
    if value.trim().is_empty() {
        unknown
    } else {
        value
    }
}

/// A comment as written and read: whitespace runs become one space, `}` (which would end it)
/// becomes `)`; `None` if nothing is left.
pub fn clean_comment(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| w.replace('}', ")"))
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The move number of the start position's first turn: its `move-number` fact when it has one
/// (as the position strings of chess-like games count), else 1. At most
/// [`MAX_MOVE_NUMBER`](crate::MAX_MOVE_NUMBER), as a position string holds it.
pub fn first_move_number(record: &dyn DynRecord) -> u64 {
    let start = registry::find(record.info().id)
        .ok()
        .and_then(|g| g.new_game_at(&record.start_string()).ok());
    start
        .and_then(|r| {
            r.facts().into_iter().find_map(|f| match f.value {
                FactValue::Number(n) if f.name == "move-number" && f.player.is_none() => {
                    u64::try_from(n).ok()
                }
                _ => None,
            })
        })
        .filter(|&n| (1..=MAX_TURN).contains(&n))
        .unwrap_or(1)
}

/// The last move number: past it the turns keep it, as the positions' counters do
/// ([`crate::counters`]).
const MAX_TURN: u64 = crate::MAX_MOVE_NUMBER as u64;

/// Counts the turns of the history: a new turn begins with each move of player 0 but the
/// first step; at [`MAX_TURN`] the count stays.
pub(super) struct Numbering {
    turn: u64,
    first: bool,
    written_this_turn: bool,
}

impl Numbering {
    pub(super) fn new(first: u64) -> Self {
        Numbering {
            turn: first,
            first: true,
            written_this_turn: false,
        }
    }

    /// Sees a move of the history; for a written move, returns the number to write before it
    /// (`7.` before player 0's move, `7...` before the first written move of a turn by another
    /// player), if any.
    pub(super) fn see(&mut self, player: Player, written: bool) -> Option<String> {
        if player == 0 && !self.first {
            self.turn = (self.turn + 1).min(MAX_TURN);
            self.written_this_turn = false;
        }
        self.first = false;
        if !written {
            return None;
        }
        let label = if player == 0 {
            Some(format!("{}.", self.turn))
        } else if !self.written_this_turn {
            Some(format!("{}...", self.turn))
        } else {
            None
        };
        self.written_this_turn = true;
        label
    }

    /// The label of the next move, by `player`, without counting it.
    pub(super) fn label(&self, player: Player) -> String {
        if player == 0 && !self.first {
            format!("{}.", (self.turn + 1).min(MAX_TURN))
        } else if player == 0 {
            format!("{}.", self.turn)
        } else {
            format!("{}...", self.turn)
        }
    }
}

/// Writes one game: tags, a blank line, the movetext wrapped at [`LINE_WIDTH`] columns ending
/// with the result, and a blank line, so that records written one after the other make a file.
///
/// `comments[i]` is the comment of the `i`-th written move (the moves of `record.history()`
/// that are not `automatic`, in order); missing entries are none. See `docs/records.md`.
pub fn write_game(record: &dyn DynRecord, header: &Header, comments: &[Option<String>]) -> String {
    let info = record.info();
    let names = record.player_names();
    let players = names.len();
    let steps = record.steps();
    let mut out = String::new();

    push_tag(&mut out, "Event", or_unknown(&header.event, "?"));
    push_tag(&mut out, "Site", or_unknown(&header.site, "?"));
    push_tag(&mut out, "Date", or_unknown(&header.date, "????.??.??"));
    push_tag(&mut out, "Round", or_unknown(&header.round, "?"));
    for (i, seat) in names.iter().enumerate() {
        let name = header.players.get(i).map(String::as_str).unwrap_or("");
        push_tag(&mut out, seat, or_unknown(name, "?"));
    }
    let result = record.result();
    let (result_text, termination) = result_tags(result.as_ref(), players);
    push_tag(&mut out, "Result", &result_text);
    push_tag(&mut out, "Game", info.id);
    let remembered = record.settings();
    let mut settings = Settings::new();
    for s in info.settings {
        let value = remembered.get(info, s.name).unwrap_or(s.default);
        settings = settings.with(s.name, value);
        push_tag(&mut out, &setting_tag(s.name), value);
    }
    let start = record.start_string();
    let standard = registry::find(info.id)
        .ok()
        .and_then(|g| g.new_game(&settings).ok())
        .map(|r| r.start_string());
    if standard.as_deref() != Some(start.as_str()) {
        push_tag(&mut out, "SetUp", "1");
        push_tag(&mut out, "FEN", &start);
    }
    if let Some(t) = termination {
        push_tag(&mut out, "Termination", t);
    }
    if let Some(tc) = &header.time_control {
        push_tag(&mut out, "TimeControl", tc);
    }
    if let Some(t) = &header.time {
        push_tag(&mut out, "Time", t);
    }
    let plies = steps
        .iter()
        .filter(|s| matches!(s, Step::Move(m) if !m.automatic))
        .count();
    push_tag(&mut out, "PlyCount", &plies.to_string());
    let mut written: Vec<String> = reserved_tags(info, names);
    for (name, value) in &header.extra {
        let name: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if name.is_empty() || written.contains(&name) {
            continue;
        }
        push_tag(&mut out, &name, value);
        written.push(name);
    }
    out.push('\n');

    // The movetext, as units that are never split across lines: a number with its move, a
    // token, a comment (a comment longer than a line, word by word).
    let mut units: Vec<String> = Vec::new();
    let push_comment = |units: &mut Vec<String>, c: &str| {
        if let Some(c) = clean_comment(c) {
            if c.chars().count() + 2 <= LINE_WIDTH {
                units.push(format!("{{{c}}}"));
                return;
            }
            let words: Vec<&str> = c.split(' ').collect();
            let last = words.len() - 1;
            for (i, w) in words.iter().enumerate() {
                let mut u = String::new();
                if i == 0 {
                    u.push('{');
                }
                u.push_str(w);
                if i == last {
                    u.push('}');
                }
                units.push(u);
            }
        }
    };
    if let Some(c) = &header.comment {
        push_comment(&mut units, c);
    }
    let mut numbering = Numbering::new(first_move_number(record));
    let mut index = 0;
    for step in &steps {
        match step {
            Step::Move(m) => {
                let label = numbering.see(m.player, !m.automatic);
                if m.automatic {
                    continue;
                }
                units.push(match label {
                    Some(l) => format!("{l} {}", m.text),
                    None => m.text.clone(),
                });
                if let Some(Some(c)) = comments.get(index) {
                    push_comment(&mut units, c);
                }
                index += 1;
            }
            Step::Dropout { player, reason } => {
                units.push(format!("out:{}:{}", *player as usize + 1, reason.id));
            }
            Step::Declared(_) => {}
        }
    }
    units.push(result_text);

    let mut line = String::new();
    let mut width = 0;
    for u in units {
        let w = u.chars().count();
        if width > 0 && width + 1 + w > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
            width = 0;
        }
        if width > 0 {
            line.push(' ');
            width += 1;
        }
        line.push_str(&u);
        width += w;
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}
