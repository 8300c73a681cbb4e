//! `myrmidon play`: a game in the terminal for two or three people at one keyboard, or against
//! the computer (`--computer <seat>=<level>` or `<seat>=<player>`, repeatable).
//!
//! The board is drawn after every move with the player to move; each line typed is a command
//! (see [`HELP`]) or a move in the game's move text. Works the same when standard input is not a
//! terminal (the commands read are then echoed after the prompt, so that a transcript reads
//! well); end of input ends the session cleanly.

use std::io::{self, BufRead, IsTerminal, Write};

use std::time::Duration;

use clap::Args;
use myrmidon_engine::{new_searcher, Control, DynSearcher, Limits, PlayerSpec, Report, Score};
use myrmidon_rules::{DynRecord, Outcome, Reason};
use myrmidon_server::i18n::{self, Lang};

use crate::board;
use crate::common::{CliError, CliResult, GameArgs};

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,

    /// Never colour the pieces (colours are only used when standard output is a terminal, or
    /// CLICOLOR_FORCE is set, and NO_COLOR is not set to a non-empty value).
    #[arg(long, alias = "no-color")]
    pub no_colour: bool,

    /// Let the computer play a seat: the seat by its player's name or number from 1, and its
    /// level from 1 (a beginner wins) to 8 (full strength) or a player (`search`, `level:3`,
    /// `alphabeta:depth=4`, `greedy`, `random`); without `=LEVEL` the strongest, `search`.
    /// Repeatable.
    #[arg(long, value_name = "SEAT[=LEVEL|PLAYER]")]
    pub computer: Vec<String>,

    /// Seeds the computer's random choices (its levels below 8 pick among good moves at random):
    /// the same seed and the same moves of the people give the same game. Default: from the
    /// clock.
    #[arg(long)]
    pub seed: Option<u64>,

    /// How long the computer thinks for a move or a hint, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub movetime: u64,
}

/// The player behind `hint`, and a computer seat's player when none is named.
pub const HINT_PLAYER: &str = "search";

pub const HELP: &str = "\
Type a move in the game's move text, or one of these commands:
  moves              list the legal moves
  undo               take back the last move (or the draw or resignation just declared)
  fen | position     print the position string (to resume with --position \"...\")
  board              draw the board again
  cells              draw the board with every cell's name
  history            the moves played so far
  hint               the computer's suggestion for the player to move
  draw               end the game as a draw by agreement
  resign             the player to move gives up: with two players the other wins; with
                     three, they drop out (their Queen leaves the board, their seat
                     passes) and the other two play on
  help | h | ?       this text
  quit | exit | q    leave (so does the end of input, Ctrl-D)
Commands may be typed in any letter case.";

/// How the session writes, and how long the computer thinks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Colour the pieces (only for a terminal).
    pub colour: bool,
    /// Write each command read after its prompt (when input is not typed at a terminal).
    pub echo: bool,
    /// The computer's time per move and per hint (default one second).
    pub movetime: Option<Duration>,
}

/// What a command asks of the loop.
#[derive(Debug, PartialEq, Eq)]
enum Next {
    Continue,
    Quit,
}

pub struct Session {
    record: Box<dyn DynRecord>,
    options: Options,
    /// The computer's player for each seat it plays (by player number).
    computers: Vec<Option<Box<dyn DynSearcher>>>,
}

impl Session {
    pub fn new(record: Box<dyn DynRecord>, options: Options) -> Self {
        let seats = record.player_names().len();
        Session {
            record,
            options,
            computers: (0..seats).map(|_| None).collect(),
        }
    }

    /// Lets the computer play `seat` with this player.
    pub fn computer(mut self, seat: u8, player: Box<dyn DynSearcher>) -> Self {
        if let Some(slot) = self.computers.get_mut(seat as usize) {
            *slot = Some(player);
        }
        self
    }

    fn is_computer(&self, seat: u8) -> bool {
        self.computers
            .get(seat as usize)
            .is_some_and(|c| c.is_some())
    }

    fn limits(&self) -> Limits {
        Limits::movetime(self.options.movetime.unwrap_or(Duration::from_secs(1)))
    }

    /// While the game goes on and the computer has the move, it plays.
    fn computers_play(&mut self, out: &mut dyn Write) -> io::Result<()> {
        while self.record.outcome().is_none() && self.is_computer(self.record.to_move()) {
            let seat = self.record.to_move();
            let limits = self.limits();
            let control = Control::new(&limits, seat);
            let mut last: Option<Report> = None;
            let player = self.computers[seat as usize]
                .as_mut()
                .expect("a computer seat");
            let chosen = player.search(&*self.record, &limits, &control, &mut |r| {
                last = Some(r.clone())
            });
            let mover = self.player_name(seat);
            let text = match chosen {
                Ok(Some(text)) => text,
                // Never expected: a legal move is always found while the game goes on.
                Ok(None) | Err(_) => match self.record.legal_moves().first() {
                    Some(mv) => mv.text.clone(),
                    None => return Ok(()),
                },
            };
            match self.record.play(&text) {
                Ok(mv) => {
                    let how = last
                        .map(|r| format!(" ({})", describe(&r)))
                        .unwrap_or_default();
                    writeln!(out, "{mover} (computer) plays {}{how}", mv.text)?;
                    writeln!(out)?;
                    self.show(out)?;
                }
                Err(e) => {
                    writeln!(out, "the computer's move {text} was refused: {e}")?;
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// The computer's suggestion for the player to move.
    fn hint(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.game_over(out)? {
            return Ok(());
        }
        let spec: PlayerSpec = HINT_PLAYER.parse().expect("the hint player's spec reads");
        let Ok(mut player) = new_searcher(self.record.info().id, &spec, &Default::default()) else {
            return writeln!(out, "no hint: the computer does not play this game");
        };
        let limits = self.limits();
        let control = Control::new(&limits, self.record.to_move());
        let mut last: Option<Report> = None;
        match player.search(&*self.record, &limits, &control, &mut |r| {
            last = Some(r.clone())
        }) {
            Ok(Some(mv)) => {
                let how = last
                    .map(|r| format!(" ({})", describe(&r)))
                    .unwrap_or_default();
                writeln!(out, "hint: {mv}{how}")
            }
            _ => writeln!(out, "no hint: there is no move to play"),
        }
    }

    fn player_name(&self, player: u8) -> &'static str {
        self.record
            .player_names()
            .get(player as usize)
            .copied()
            .unwrap_or("?")
    }

    fn outcome_text(&self, outcome: Outcome) -> String {
        let names = self.record.player_names();
        let number = self.record.info().players_number;
        match self.record.result() {
            Some(result) if result.outcome == outcome => result.describe(names, number),
            _ => outcome.describe(names, number),
        }
    }

    /// Runs the session until `quit` or the end of the input.
    pub fn run(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
        let info = self.record.info();
        writeln!(out, "{} ({})", info.name, info.id)?;
        for line in board::legend(info, self.options.colour) {
            writeln!(out, "{line}")?;
        }
        if self.record.outcome().is_some() {
            writeln!(out, "Type help for the commands, cells for the cell names.")?;
        } else {
            writeln!(
                out,
                "Type help for the commands, moves for the legal moves, cells for the cell names."
            )?;
        }
        writeln!(out)?;
        self.show(out)?;
        self.computers_play(out)?;
        let mut buffer = Vec::new();
        loop {
            let prompt = if self.record.outcome().is_some() {
                if self.can_undo() {
                    "game over (undo or quit)".to_string()
                } else {
                    "game over (quit)".to_string()
                }
            } else {
                self.player_name(self.record.to_move()).to_string()
            };
            write!(out, "{prompt}> ")?;
            out.flush()?;
            buffer.clear();
            if input.read_until(b'\n', &mut buffer)? == 0 {
                writeln!(out)?;
                break;
            }
            let line = String::from_utf8_lossy(&buffer);
            let command = line.trim();
            if self.options.echo {
                writeln!(out, "{command}")?;
            }
            if command.is_empty() {
                continue;
            }
            if self.command(command, out)? == Next::Quit {
                break;
            }
            self.computers_play(out)?;
        }
        out.flush()
    }

    fn command(&mut self, command: &str, out: &mut dyn Write) -> io::Result<Next> {
        match command.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => return Ok(Next::Quit),
            "help" | "h" | "?" => writeln!(out, "{HELP}")?,
            "moves" => self.list_moves(out)?,
            "undo" => self.undo(out)?,
            "fen" | "position" => writeln!(out, "{}", self.record.position_string())?,
            "board" => self.show(out)?,
            "cells" => write!(out, "{}", board::draw_names(self.record.info()))?,
            "history" => self.history(out)?,
            "hint" => self.hint(out)?,
            "draw" => self.declare(out, None)?,
            "resign" => self.resign(out)?,
            _ => self.play(command, out)?,
        }
        Ok(Next::Continue)
    }

    /// Whether `undo` has something to take back: a move or a declared result.
    fn can_undo(&self) -> bool {
        self.record.can_undo()
    }

    /// What is left to do once the game is over.
    fn after_the_end(&self) -> &'static str {
        if self.can_undo() {
            "Type undo to take back, or quit."
        } else {
            "Type quit to leave."
        }
    }

    fn play(&mut self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        if let Some(outcome) = self.record.outcome() {
            // No move can be played: say so, without suggesting moves.
            return writeln!(
                out,
                "the game is over ({}). {}",
                self.outcome_text(outcome),
                self.after_the_end()
            );
        }
        let mover = self.player_name(self.record.to_move());
        match self.record.play(text) {
            Ok(mv) => {
                writeln!(out, "{mover} plays {}", mv.text)?;
                writeln!(out)?;
                self.show(out)
            }
            Err(e) => writeln!(
                out,
                "{e}\n(type moves for the legal moves, help for the commands)"
            ),
        }
    }

    fn list_moves(&self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(outcome) = self.record.outcome() {
            return writeln!(
                out,
                "no moves: the game is over ({})",
                self.outcome_text(outcome)
            );
        }
        let moves = self.record.legal_moves();
        writeln!(out, "{} legal moves:", moves.len())?;
        let mut line = String::new();
        for mv in &moves {
            if !line.is_empty() && line.len() + 1 + mv.text.len() > 78 {
                writeln!(out, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&mv.text);
        }
        if !line.is_empty() {
            writeln!(out, "{line}")?;
        }
        Ok(())
    }

    fn history(&self, out: &mut dyn Write) -> io::Result<()> {
        let moves = self.record.history();
        if moves.is_empty() {
            return writeln!(out, "no move played yet");
        }
        let texts: Vec<String> = moves
            .iter()
            .map(|m| {
                if m.automatic {
                    format!("({})", m.text)
                } else {
                    m.text.clone()
                }
            })
            .collect();
        writeln!(out, "{}", texts.join(" "))?;
        if moves.iter().any(|m| m.automatic) {
            writeln!(
                out,
                "(moves in brackets were played for players out of the game)"
            )?;
        }
        Ok(())
    }

    fn undo(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let history = self.record.history();
        let agreed = self.record.outcome().map(|o| o.reason()) == Some(Reason::AGREEMENT);
        if !self.record.undo() {
            return writeln!(out, "nothing to undo: no move was played");
        }
        // Against the computer, take back its replies too, back to a move of a person (unless
        // every seat is the computer's).
        let people = (0..self.computers.len() as u8).any(|s| !self.is_computer(s));
        while people && self.is_computer(self.record.to_move()) && self.record.can_undo() {
            self.record.undo();
        }
        // What the undo removed: a move played by a player (with the passes played for absent
        // seats after it), or a declared draw, or a resignation (with the passes after it).
        let kept = self.record.history().len();
        let taken: Vec<&str> = history[kept..]
            .iter()
            .filter(|m| !m.automatic)
            .map(|m| m.text.as_str())
            .collect();
        match taken.first() {
            Some(_) => writeln!(out, "took back {}", taken.join(" "))?,
            None if agreed => writeln!(out, "the draw is taken back")?,
            None => writeln!(out, "the resignation is taken back")?,
        }
        writeln!(out)?;
        self.show(out)
    }

    /// Ends the game as a draw by agreement.
    fn declare(&mut self, out: &mut dyn Write, _winner: Option<u8>) -> io::Result<()> {
        if self.game_over(out)? {
            return Ok(());
        }
        self.record.declare(Outcome::Draw {
            reason: Reason::AGREEMENT,
        });
        writeln!(out)?;
        self.show(out)
    }

    /// The player to move resigns: with two players the other wins; with three, the player
    /// drops out and the others play on.
    fn resign(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.game_over(out)? {
            return Ok(());
        }
        let who = self.player_name(self.record.to_move());
        self.record
            .drop_out(self.record.to_move(), Reason::RESIGNATION);
        writeln!(out, "{who} resigns")?;
        writeln!(out)?;
        self.show(out)
    }

    /// Says so if the game is over.
    fn game_over(&self, out: &mut dyn Write) -> io::Result<bool> {
        match self.record.outcome() {
            Some(outcome) => {
                writeln!(
                    out,
                    "the game is already over: {}",
                    self.outcome_text(outcome)
                )?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The board, the extra lines of the game, the last move and whose turn it is (or the result).
    fn show(&self, out: &mut dyn Write) -> io::Result<()> {
        let info = self.record.info();
        let record = &self.record;
        write!(
            out,
            "{}",
            board::draw(
                info,
                &|c| board::by_name(info, record.player_names(), record.piece_at(c)),
                self.options.colour
            )
        )?;
        // (the lines a page shows beside the board, in English: the games' catalogues)
        for line in i18n::info_texts(Lang::En, &**record) {
            writeln!(out, "{line}")?;
        }
        let names = record.player_names();
        for e in record.eliminations() {
            writeln!(out, "{}", e.describe(names, record.info().players_number))?;
        }
        let history = record.history();
        if let Some(last) = history.last() {
            let who = names.get(last.player as usize).copied().unwrap_or("?");
            let how = if last.automatic {
                ", out of the game"
            } else {
                ""
            };
            writeln!(
                out,
                "last move: {} by {who}{how} (ply {})",
                last.text,
                history.len()
            )?;
        }
        match record.outcome() {
            Some(outcome) => {
                writeln!(out, "Game over: {}.", self.outcome_text(outcome))?;
                writeln!(out, "{}", self.after_the_end())?;
            }
            None => writeln!(out, "{} to move.", self.player_name(record.to_move()))?,
        }
        Ok(())
    }
}

/// Whether to colour the pieces: never with `--no-colour` or with `NO_COLOR` set to anything but
/// the empty string (no-color.org); else when `CLICOLOR_FORCE` is set (not empty, not `0`) or
/// standard output is a terminal. `env` reads an environment variable.
pub fn wants_colour(
    no_colour: bool,
    terminal: bool,
    env: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> bool {
    let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
    if no_colour || set("NO_COLOR") {
        false
    } else if set("CLICOLOR_FORCE") && env("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
        true
    } else {
        terminal
    }
}

/// A score for people: pawns from the mover's view, or a forced win or loss.
fn describe(report: &Report) -> String {
    let score = match report.score {
        Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(n) if n > 0 => format!("wins in {n}"),
        Score::Mate(n) => format!("loses in {}", -n),
    };
    format!("{score}, depth {}", report.depth)
}

/// Reads `--computer <seat>[=<level>|=<player>]`: the seat by its player's name (any letter
/// case) or number from 1; a bare number is a level (1 to 8); without either, the strongest
/// ([`HINT_PLAYER`]).
fn computer_seat(
    record: &dyn DynRecord,
    text: &str,
    options: &myrmidon_engine::Options,
) -> CliResult<(u8, Box<dyn DynSearcher>)> {
    let names = record.player_names();
    let usage = || {
        format!(
            "--computer {text:?}: expected <seat>[=<level>] or <seat>[=<player>], the seat one \
             of {} or 1 to {}, the level from 1 (weakest) to 8 (full strength), the player \
             like search, level:3, alphabeta:depth=4, greedy or random",
            names.join(", "),
            names.len()
        )
    };
    let (seat, player) = text.split_once('=').unwrap_or((text, HINT_PLAYER));
    let seat = names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(seat.trim()))
        .or_else(|| {
            seat.trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=names.len()).contains(n))
                .map(|n| n - 1)
        })
        .ok_or_else(|| CliError::msg(format!("{}: no seat {seat:?}", usage())))?;
    let player = player.trim();
    let spec: PlayerSpec = if player.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        // A bare number: a level.
        format!("level:{player}").parse()
    } else {
        player.parse()
    }
    .map_err(|e| CliError::msg(format!("--computer {text:?}: {e}")))?;
    let searcher =
        new_searcher(record.info().id, &spec, options).map_err(|e| CliError::msg(e.to_string()))?;
    Ok((seat as u8, searcher))
}

pub fn run(args: &PlayArgs) -> CliResult {
    let record = args.game.open()?;
    let mut computers = Vec::new();
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    for (i, text) in args.computer.iter().enumerate() {
        // Each seat its own stream of random choices.
        let options = myrmidon_engine::Options {
            seed: seed ^ (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            ..Default::default()
        };
        let (seat, player) = computer_seat(&*record, text, &options)?;
        if computers.iter().any(|(s, _)| *s == seat) {
            return Err(CliError::msg(format!(
                "--computer: seat {} ({}) is given twice",
                seat + 1,
                record.player_names()[seat as usize]
            )));
        }
        computers.push((seat, player));
    }
    let options = Options {
        colour: wants_colour(args.no_colour, io::stdout().is_terminal(), |name| {
            std::env::var_os(name)
        }),
        echo: !io::stdin().is_terminal(),
        movetime: Some(Duration::from_millis(args.movetime)),
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut session = Session::new(record, options);
    for (seat, player) in computers {
        session = session.computer(seat, player);
    }
    session.run(&mut stdin.lock(), &mut stdout.lock())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgame;
    use myrmidon_rules::{DynGame, Settings};

    fn transcript(game: &dyn DynGame, position: Option<&str>, script: &str) -> String {
        let record = match position {
            Some(p) => game.new_game_at(p).unwrap(),
            None => game.new_game(&Settings::new()).unwrap(),
        };
        let mut session = Session::new(
            record,
            Options {
                colour: false,
                echo: true,
                movetime: None,
            },
        );
        let mut out = Vec::new();
        session
            .run(&mut io::Cursor::new(script.as_bytes()), &mut out)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn moves_undo_errors_and_fen() {
        let text = transcript(
            &testgame::SQUARE,
            None,
            "moves\nb2\nfen\nundo\nundo\nzz\nb2\nb2\nhelp\ncells\nhistory\nquit\nb3\n",
        );
        assert!(text.starts_with("Square test game (tictac)\n"), "{text}");
        assert!(text.contains("10 legal moves:\na1 b1 c1 a2 b2 c2 a3 b3 c3 pass\n"));
        assert!(text.contains("Cross> b2\nCross plays b2\n"), "{text}");
        assert!(text.contains("\n2  . S .\n"), "{text}");
        assert!(text.contains("Nought> fen\n.../.1./... 2 0\n"), "{text}");
        assert!(text.contains("took back b2\n"), "{text}");
        assert!(text.contains("nothing to undo"), "{text}");
        assert!(
            text.contains("cannot read move \"zz\": expected a cell name or pass"),
            "{text}"
        );
        assert!(
            text.contains("illegal move b2: the cell is taken"),
            "{text}"
        );
        assert!(text.contains(HELP), "{text}");
        assert!(text.contains("3  a3 b3 c3\n"), "{text}");
        assert!(text.contains("Nought> history\nb2\n"), "{text}");
        // Nothing after quit is read.
        assert!(text.trim_end().ends_with("Nought> quit"), "{text}");
    }

    #[test]
    fn a_win_ends_the_game_and_undo_reopens_it() {
        let text = transcript(
            &testgame::HEX,
            None,
            "a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nmoves\nzz\nundo\nmoves\n",
        );
        assert!(text.contains("Amber plays a3\n"), "{text}");
        assert!(
            text.contains("Game over: Amber wins by three in a row.\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "game over (undo or quit)> b3\nthe game is over (Amber wins by three in a row). \
                 Type undo to take back, or quit.\n"
            ),
            "{text}"
        );
        // Once the game is over, nothing suggests typing a move or listing the moves.
        let after_end = text.split("Game over").nth(1).unwrap();
        let after_end = after_end.split("took back").next().unwrap();
        assert!(!after_end.contains("type moves"), "{after_end}");
        assert!(!after_end.contains("legal moves"), "{after_end}");
        assert!(text.contains("no moves: the game is over (Amber wins by three in a row)"));
        assert!(text.contains("took back a3\n"), "{text}");
        assert!(text.contains("Blue to move"), "{text}");
        // End of input after the last command: a clean end.
        assert!(
            text.ends_with("legal moves:\n") || text.ends_with("> \n"),
            "{text}"
        );
    }

    #[test]
    fn a_finished_position_offers_only_quit() {
        // Amber has three in a row: over before anything was played, so nothing to undo.
        let text = transcript(
            &testgame::HEX,
            Some("111/..../...../..../... 2 0"),
            "b1\nmoves\n",
        );
        assert!(text.contains("Game over: Amber wins by three in a row.\nType quit to leave.\n"));
        assert!(
            text.contains("game over (quit)> b1\nthe game is over (Amber wins by three in a row). Type quit to leave.\n"),
            "{text}"
        );
        assert!(!text.contains("undo"), "nothing to undo: {text}");
        assert!(!text.contains("moves for the legal moves"), "{text}");
        assert!(!text.contains("type moves"), "{text}");
    }

    #[test]
    fn help_lists_the_aliases() {
        for alias in ["q", "exit", "h", "?", "position"] {
            assert!(
                HELP.lines()
                    .any(|l| l.split_whitespace().any(|w| w == alias)),
                "{alias}: {HELP}"
            );
        }
        // And each alias listed does what help says.
        let text = transcript(&testgame::SQUARE, None, "?\nH\nQ\nb2\n");
        assert_eq!(text.matches(HELP).count(), 2, "{text}");
        assert!(!text.contains("plays b2"), "Q quits: {text}");
    }

    #[test]
    fn draw_resign_and_taking_them_back() {
        let text = transcript(
            &testgame::SQUARE,
            None,
            "b2\ndraw\nresign\na1\nundo\nresign\nundo\nfen\n",
        );
        assert!(text.contains("Game over: draw by agreement.\n"), "{text}");
        assert!(
            text.contains("the game is already over: draw by agreement"),
            "{text}"
        );
        assert!(
            text.contains("> a1\nthe game is over (draw by agreement). Type undo to take back"),
            "{text}"
        );
        assert!(text.contains("Nought resigns\n"), "{text}");
        assert!(
            text.contains("Game over: Cross wins by resignation.\n"),
            "{text}"
        );
        // Taking back the resignation keeps the move b2.
        assert!(text.contains("Nought> fen\n.../.1./... 2 0\n"), "{text}");

        let three = transcript(&testgame::HEX, None, "resign\n");
        assert!(three.contains("Amber resigns\n"), "{three}");
        assert!(
            three.contains("Game over: Blue wins by resignation.\n"),
            "{three}"
        );
    }

    /// The lines of facts a terminal shows under the board: the games' messages (the lines a
    /// page shows beside it) written from the English catalogue (their exact words: the
    /// server's tests/i18n.rs), whole, in their order, in every game.
    #[test]
    fn the_lines_of_facts_are_the_pages_in_english() {
        for game in myrmidon_rules::registry::games() {
            let record = game.new_game(&Settings::new()).unwrap();
            let lines = i18n::info_texts(Lang::En, &*record);
            assert!(!lines.is_empty(), "{}", game.info().id);
            let text = transcript(*game, None, "");
            let block = format!("{}\n", lines.join("\n"));
            assert!(text.contains(&block), "{block} in {text}");
        }
    }

    #[test]
    fn passes_draw_by_rule() {
        let text = transcript(&testgame::HEX, None, "pass\npass\npass\nmoves\n");
        assert!(
            text.contains("Game over: draw by every player passing.\n"),
            "{text}"
        );
    }

    #[test]
    fn settings_choose_the_start() {
        let game: &dyn DynGame = &testgame::SQUARE;
        let south = Settings::new().with("region", "south");
        let record = crate::common::open_game(game, None, &south).unwrap();
        assert_eq!(record.to_move(), 1);
        let unknown = Settings::new().with("colour", "red");
        let err = crate::common::open_game(game, None, &unknown)
            .err()
            .unwrap();
        assert!(err.to_string().contains("no setting \"colour\""), "{err}");
        let bad = Settings::new().with("region", "east");
        let err = crate::common::open_game(game, None, &bad).err().unwrap();
        assert!(err.to_string().contains("cannot be \"east\""), "{err}");
        let err = crate::common::open_game(game, Some("nonsense"), &Settings::new())
            .err()
            .unwrap();
        assert!(err.to_string().contains("bad position string"), "{err}");
    }

    #[test]
    fn colour_follows_the_flag_the_terminal_and_the_environment() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        assert!(wants_colour(false, true, env(&[])));
        assert!(!wants_colour(false, false, env(&[])));
        assert!(!wants_colour(true, true, env(&[])));
        // NO_COLOR counts only when it is not empty.
        assert!(!wants_colour(false, true, env(&[("NO_COLOR", "1")])));
        assert!(wants_colour(false, true, env(&[("NO_COLOR", "")])));
        // CLICOLOR_FORCE colours a pipe, but neither NO_COLOR nor --no-colour gives way to it.
        assert!(wants_colour(false, false, env(&[("CLICOLOR_FORCE", "1")])));
        assert!(!wants_colour(false, false, env(&[("CLICOLOR_FORCE", "0")])));
        assert!(!wants_colour(false, false, env(&[("CLICOLOR_FORCE", "")])));
        let both = &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "x")];
        assert!(!wants_colour(false, false, env(both)));
        assert!(!wants_colour(true, false, env(&[("CLICOLOR_FORCE", "1")])));
    }

    #[test]
    fn invalid_utf8_and_blank_lines_are_harmless() {
        let game: &dyn DynGame = &testgame::SQUARE;
        let record = game.new_game(&Settings::new()).unwrap();
        let mut session = Session::new(record, Options::default());
        let mut out = Vec::new();
        let input: &[u8] = b"\n   \n\xff\xfe\nb2";
        session.run(&mut io::Cursor::new(input), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("cannot read move"), "{text}");
        assert!(text.contains("Cross plays b2"), "{text}");
    }
}
