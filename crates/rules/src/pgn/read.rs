//! Reading records: the text cut into games, tags and movetext tokens ([`GameReader`]).

use super::replay::interpret;
use super::*;

#[derive(Debug)]
pub(super) enum Tok {
    Tag(String, String),
    Word(String),
    Comment(String),
    Open,
    Close,
}

/// A game's tags and movetext, lexed but not yet understood.
#[derive(Default)]
pub(super) struct RawGame {
    pub(super) line: usize,
    pub(super) tags: Vec<(String, String, usize)>,
    pub(super) items: Vec<(Tok, usize)>,
    pub(super) result: (String, usize),
}

/// A lexing error: where it is, and where to look for the next game.
struct LexError {
    error: RecordError,
    /// Go on at the next game after this byte offset (on the error's line), or exactly here
    /// when `exact`.
    resume: usize,
    exact: bool,
}

/// Reads records one game at a time: an iterator of games or errors. After a bad game it goes
/// on with the next one: at once when the bad game could be read to its result, else at the
/// next line that starts with `[` after a blank line.
pub struct GameReader<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> GameReader<'a> {
    pub fn new(text: &'a str) -> Self {
        let pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
        GameReader { text, pos, line: 1 }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.text.as_bytes()[self.pos - 1] == b'\n'
    }

    fn bump(&mut self) {
        if self.peek() == Some(b'\n') {
            self.line += 1;
        }
        self.pos += 1;
    }

    /// Skips whitespace and escape lines (`%` in the first column).
    fn skip_space(&mut self) {
        while let Some(b) = self.peek() {
            if b == b'%' && self.at_line_start() {
                while self.peek().is_some_and(|b| b != b'\n') {
                    self.bump();
                }
            } else if b.is_ascii_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn lex_error(&self, line: usize, at: usize, message: impl Into<String>) -> LexError {
        LexError {
            error: RecordError::new(line, message),
            resume: at,
            exact: false,
        }
    }

    /// The next token (after `skip_space`), which must exist.
    fn token(&mut self) -> Result<(Tok, usize), LexError> {
        let line = self.line;
        let at = self.pos;
        let b = self.peek().unwrap_or(b' ');
        match b {
            b'[' => self.tag(line, at),
            b'{' => {
                self.bump();
                let from = self.pos;
                match self.text[from..].find('}') {
                    Some(k) => {
                        while self.pos < from + k {
                            self.bump();
                        }
                        self.bump();
                        let text = &self.text[from..from + k];
                        Ok((Tok::Comment(text.to_string()), line))
                    }
                    None => Err(self.lex_error(
                        line,
                        at,
                        "a comment opened with { is never closed with }",
                    )),
                }
            }
            b';' => {
                self.bump();
                let from = self.pos;
                while self.peek().is_some_and(|b| b != b'\n') {
                    self.bump();
                }
                Ok((Tok::Comment(self.text[from..self.pos].to_string()), line))
            }
            b'(' => {
                self.bump();
                Ok((Tok::Open, line))
            }
            b')' => {
                self.bump();
                Ok((Tok::Close, line))
            }
            b'}' | b']' => {
                self.bump();
                Err(self.lex_error(
                    line,
                    at,
                    format!("unexpected {}: nothing opened it", b as char),
                ))
            }
            _ => {
                while self
                    .peek()
                    .is_some_and(|b| !b.is_ascii_whitespace() && !b"[]{}();".contains(&b))
                {
                    self.bump();
                }
                // Stops at ASCII bytes only, so the slice is on character boundaries.
                Ok((Tok::Word(self.text[at..self.pos].to_string()), line))
            }
        }
    }

    /// A tag pair `[Name "value"]` on one line.
    fn tag(&mut self, line: usize, at: usize) -> Result<(Tok, usize), LexError> {
        const FORM: &str = "a tag is [Name \"value\"] on one line";
        self.bump();
        self.skip_blanks();
        let from = self.pos;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.bump();
        }
        let name = self.text[from..self.pos].to_string();
        if name.is_empty() {
            return Err(self.lex_error(line, at, format!("a tag without a name: {FORM}")));
        }
        self.skip_blanks();
        if self.peek() != Some(b'"') {
            return Err(self.lex_error(
                line,
                at,
                format!("tag {name}: the value must be in double quotes: {FORM}"),
            ));
        }
        self.bump();
        let mut value = String::new();
        loop {
            let rest = &self.text[self.pos..];
            let Some(c) = rest.chars().next() else {
                return Err(self.lex_error(
                    line,
                    at,
                    format!("tag {name}: the value is not closed with \" before the end"),
                ));
            };
            match c {
                '\n' | '\r' => {
                    return Err(self.lex_error(
                        line,
                        at,
                        format!("tag {name}: the value is not closed with \" on its line"),
                    ))
                }
                '"' => {
                    self.bump();
                    break;
                }
                '\\' if matches!(rest.as_bytes().get(1), Some(b'"' | b'\\')) => {
                    value.push(rest.as_bytes()[1] as char);
                    self.pos += 2;
                }
                c => {
                    // As the writer writes them.
                    value.push(if c.is_control() { ' ' } else { c });
                    self.pos += c.len_utf8();
                }
            }
        }
        self.skip_blanks();
        if self.peek() != Some(b']') {
            return Err(self.lex_error(
                line,
                at,
                format!("tag {name}: expected ] after the value: {FORM}"),
            ));
        }
        self.bump();
        Ok((Tok::Tag(name, value), line))
    }

    /// Spaces and tabs, not line ends.
    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.bump();
        }
    }

    /// Moves to a byte offset (on a character boundary), keeping the line count.
    fn seek(&mut self, to: usize) {
        let bytes = self.text.as_bytes();
        let to = to.min(bytes.len());
        if to >= self.pos {
            self.line += bytes[self.pos..to].iter().filter(|&&b| b == b'\n').count();
        } else {
            self.line -= bytes[to..self.pos].iter().filter(|&&b| b == b'\n').count();
        }
        self.pos = to;
    }

    /// After a lexing error at `from`: on to the next line that starts with `[` after a blank
    /// line, from the line after the one of `from`.
    fn resync(&mut self, from: usize) {
        self.seek(from);
        let mut prev_blank = false;
        loop {
            // To the end of this line, then past it.
            let end = self.text[self.pos..]
                .find('\n')
                .map_or(self.text.len(), |k| self.pos + k);
            self.seek(end);
            if self.peek().is_none() {
                return;
            }
            self.bump();
            let rest = &self.text[self.pos..];
            let l = rest.split('\n').next().unwrap_or("");
            if l.starts_with('[') && prev_blank {
                return;
            }
            prev_blank = l.trim().is_empty();
        }
    }

    /// Lexes one game up to its result; `None` at the end of the text.
    fn raw_game(&mut self) -> Option<Result<RawGame, LexError>> {
        let mut raw = RawGame::default();
        let mut depth = 0usize;
        let mut variation_line = 0;
        let mut last_line = self.line;
        loop {
            self.skip_space();
            if self.peek().is_none() {
                if raw.tags.is_empty() && raw.items.is_empty() && depth == 0 {
                    return None;
                }
                let message = if depth > 0 {
                    format!("the variation opened with ( on line {variation_line} is never closed")
                } else {
                    "the text ends before the game's result (1-0, 0-1, 1/2-1/2, …, or *)"
                        .to_string()
                };
                let line = if depth > 0 { variation_line } else { last_line };
                return Some(Err(LexError {
                    error: RecordError::new(line, message),
                    resume: self.pos,
                    exact: true,
                }));
            }
            let at = self.pos;
            let at_line = self.line;
            if raw.line == 0 {
                raw.line = at_line;
            }
            if self.peek() == Some(b'[') && !raw.items.is_empty() && depth == 0 {
                // A new game's tags: the moves before it had no result.
                return Some(Err(LexError {
                    error: RecordError::new(
                        raw.items[0].1,
                        format!(
                            "the moves from here end without a result (1-0, 0-1, 1/2-1/2, …, \
                             or *) before the tag on line {at_line}"
                        ),
                    ),
                    resume: at,
                    exact: true,
                }));
            }
            let (tok, line) = match self.token() {
                Ok(t) => t,
                Err(e) => return Some(Err(e)),
            };
            last_line = line;
            match tok {
                Tok::Tag(..) if depth > 0 => {
                    return Some(Err(self.lex_error(line, at, "a tag inside a variation")))
                }
                Tok::Tag(name, value) => raw.tags.push((name, value, line)),
                Tok::Open => {
                    if depth == 0 {
                        variation_line = line;
                    }
                    depth += 1;
                }
                Tok::Close if depth == 0 => {
                    return Some(Err(self.lex_error(
                        line,
                        at,
                        "unexpected ): no variation is open",
                    )))
                }
                Tok::Close => depth -= 1,
                _ if depth > 0 => {}
                Tok::Word(w) if is_result_marker(&w) => {
                    raw.result = (w, line);
                    return Some(Ok(raw));
                }
                tok => raw.items.push((tok, line)),
            }
        }
    }
}

/// `*`, or words of digits and `/` joined by `-`: a game termination marker (never a move
/// text, which starts with a letter).
pub(super) fn is_result_marker(w: &str) -> bool {
    w == "*"
        || (w.contains('-')
            && w.split('-')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit() || b == b'/')))
}

/// What a movetext word plays: `None` for a move number (`12.`, `12...`), a numeric
/// annotation glyph (`$1`) or a suffix annotation alone; else the move or `out:` token, move
/// number prefix (`1.e4`) and suffix annotations (`!`, `?`) taken off.
pub(super) fn movetext_token(w: &str) -> Option<&str> {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    let mut rest = w;
    if digits > 0 {
        let after = &w[digits..];
        let dots = after.bytes().take_while(|&b| b == b'.').count();
        if dots > 0 || after.is_empty() {
            rest = &after[dots..];
        }
    }
    let rest = rest.trim_start_matches('.');
    if rest.len() > 1 && rest.starts_with('$') && rest[1..].bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rest = rest.trim_end_matches(['!', '?']);
    (!rest.is_empty()).then_some(rest)
}

impl Iterator for GameReader<'_> {
    type Item = Result<ReadGame, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.raw_game()? {
            Ok(raw) => Some(interpret(raw)),
            Err(e) => {
                if e.exact {
                    self.seek(e.resume);
                } else {
                    self.resync(e.resume);
                }
                Some(Err(e.error))
            }
        }
    }
}

/// Reads every game of a record file; the first bad game's error, with its line.
pub fn read_games(text: &str) -> Result<Vec<ReadGame>, RecordError> {
    GameReader::new(text).collect()
}
