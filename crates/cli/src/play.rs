//! `myrmidon play`: a game in the terminal for two or three people at one keyboard.
//!
//! The board is drawn after every move with the player to move; each line typed is a command
//! (see [`HELP`]) or a move in the game's move text. Works the same when standard input is not a
//! terminal (the commands read are then echoed after the prompt, so that a transcript reads
//! well); end of input ends the session cleanly.

use std::io::{self, BufRead, IsTerminal, Write};

use clap::Args;
use myrmidon_rules::{DynRecord, Outcome, Reason};

use crate::board;
use crate::common::{CliResult, GameArgs};

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,

    /// Never colour the pieces (colours are only used when standard output is a terminal, or
    /// CLICOLOR_FORCE is set, and NO_COLOR is not set to a non-empty value).
    #[arg(long, alias = "no-color")]
    pub no_colour: bool,
}

pub const HELP: &str = "\
Type a move in the game's move text, or one of these commands:
  moves              list the legal moves
  undo               take back the last move (or the draw or resignation just declared)
  fen | position     print the position string (to resume with --position \"...\")
  board              draw the board again
  cells              draw the board with every cell's name
  history            the moves played so far
  draw               end the game as a draw by agreement
  resign             the player to move gives up: with two players the other wins; with
                     three, they drop out (their Queen leaves the board, their seat
                     passes) and the other two play on
  help | h | ?       this text
  quit | exit | q    leave (so does the end of input, Ctrl-D)
Commands may be typed in any letter case.";

/// How the session writes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Colour the pieces (only for a terminal).
    pub colour: bool,
    /// Write each command read after its prompt (when input is not typed at a terminal).
    pub echo: bool,
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
}

impl Session {
    pub fn new(record: Box<dyn DynRecord>, options: Options) -> Self {
        Session { record, options }
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
        match self.record.result() {
            Some(result) if result.outcome == outcome => result.describe(names),
            _ => outcome.describe(names),
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
        // What the undo removed: a move played by a player (with the passes played for absent
        // seats after it), or a declared draw, or a resignation (with the passes after it).
        let kept = self.record.history().len();
        match history[kept..].iter().find(|m| !m.automatic) {
            Some(mv) => writeln!(out, "took back {}", mv.text)?,
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
        for line in record.info_lines() {
            writeln!(out, "{line}")?;
        }
        let names = record.player_names();
        for e in record.eliminations() {
            writeln!(out, "{}", e.describe(names))?;
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

pub fn run(args: &PlayArgs) -> CliResult {
    let record = args.game.open()?;
    let options = Options {
        colour: wants_colour(args.no_colour, io::stdout().is_terminal(), |name| {
            std::env::var_os(name)
        }),
        echo: !io::stdin().is_terminal(),
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    Session::new(record, options).run(&mut stdin.lock(), &mut stdout.lock())?;
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

    #[test]
    fn passes_draw_by_rule_and_info_lines() {
        let text = transcript(&testgame::HEX, None, "pass\npass\npass\nmoves\n");
        assert!(text.contains("passes in a row: 2\n"), "{text}");
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
