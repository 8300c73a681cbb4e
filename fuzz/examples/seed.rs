//! Writes seed corpora for every fuzz target from random legal games (always the same ones):
//! position strings into `<dir>/position_<game>/`, move inputs into `<dir>/move_<game>/` and
//! play inputs into `<dir>/play/`, in the byte layouts `src/lib.rs` describes, and game records
//! of every game (some with players leaving, some ended off the board) into `<dir>/record/`.
//! Files are named by a hash of their content, so running it twice adds nothing.
//!
//! `cargo run --release --example seed -- [dir]` in `fuzz/` (default dir: `corpus`).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use myrmidon_fuzz::reach;
use myrmidon_rules::game::{Game, Position, Settings};
use myrmidon_rules::pgn;
use myrmidon_rules::registry::{self, with_game, GameVisitor};
use myrmidon_rules::Reason;

/// Games per id and the longest of them, in plies.
const GAMES: usize = 12;
const MAX_PLIES: usize = 120;

/// A small xorshift generator, fixed seed: the corpus is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn byte(&mut self) -> u8 {
        (self.next() >> 24) as u8
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn write(dir: &Path, content: &[u8]) -> usize {
    let mut h = DefaultHasher::new();
    content.hash(&mut h);
    let path = dir.join(format!("seed-{:016x}", h.finish()));
    if path.exists() {
        return 0;
    }
    std::fs::write(&path, content).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    1
}

fn subdir(root: &Path, name: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

struct Seed<'a> {
    root: &'a Path,
    index: u8,
    rng: Rng,
}

impl GameVisitor for Seed<'_> {
    /// Files written: positions, moves, plays.
    type Output = [usize; 3];

    fn visit<G: Game>(mut self, game: &G) -> [usize; 3] {
        let id = game.info().id;
        let positions = subdir(self.root, &format!("position_{id}"));
        let moves_dir = subdir(self.root, &format!("move_{id}"));
        let plays = subdir(self.root, "play");
        let mut written = [0; 3];
        let mut moves = Vec::new();
        for _ in 0..GAMES {
            // One byte per setting, as `myrmidon_fuzz::start` reads them.
            let settings: Vec<u8> = game
                .info()
                .settings
                .iter()
                .map(|_| self.rng.byte())
                .collect();
            let plies = self.rng.below(MAX_PLIES + 1);
            let choices: Vec<u8> = (0..plies).map(|_| self.rng.byte()).collect();

            // Every tenth position of the game, and the last.
            let mut prefix = settings.clone();
            prefix.push(0);
            for (n, &c) in choices.iter().enumerate() {
                if n % 10 == 0 || n + 1 == choices.len() {
                    let (pos, _) = reach(game, &prefix);
                    written[0] += write(&positions, pos.to_string().as_bytes());
                    // A legal move of that position, and a text that is not one.
                    moves.clear();
                    pos.legal_moves(&mut moves);
                    if !moves.is_empty() {
                        let mv = moves[self.rng.below(moves.len())];
                        let mut input = prefix.clone();
                        input.extend_from_slice(pos.move_text(mv).as_bytes());
                        written[1] += write(&moves_dir, &input);
                        input.truncate(prefix.len());
                        let mut other = pos.move_text(mv);
                        other.pop();
                        input.extend_from_slice(other.as_bytes());
                        written[1] += write(&moves_dir, &input);
                    }
                }
                prefix[settings.len()] += 1;
                prefix.push(c);
            }

            // The same moves for `play`, with a few take-backs among them.
            let mut play = vec![self.index];
            play.extend_from_slice(&settings);
            for &c in &choices {
                play.push(c.min(0xEF));
                if self.rng.below(8) == 0 {
                    play.push(0xF0 | self.rng.byte() & 0x0F);
                }
            }
            play.truncate(256);
            written[2] += write(&plays, &play);
        }
        written
    }
}

fn main() {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "corpus".to_string()),
    );
    for (index, game) in registry::games().iter().enumerate() {
        let id = game.info().id;
        let seed = Seed {
            root: &root,
            index: index as u8,
            rng: Rng(0x9E37_79B9_7F4A_7C15 ^ (index as u64 + 1)),
        };
        let [p, m, g] = with_game(id, seed).expect("an id of the registry");
        println!("{id}: {p} position, {m} move and {g} play seeds written (new files only)");
    }
    let records = subdir(&root, "record");
    let mut rng = Rng(0x5EED_0F4E_C04D_5A17);
    let mut written = 0;
    for game in registry::games() {
        for i in 0..GAMES {
            let mut record = game.new_game(&Settings::new()).expect("default settings");
            let players = record.player_names().len();
            let plies = rng.below(MAX_PLIES + 1);
            for ply in 0..plies {
                let moves = record.legal_moves();
                if moves.is_empty() || record.result().is_some() {
                    break;
                }
                if players > 2 && ply == plies / 2 && i % 2 == 1 {
                    let token = format!("out:{}:time", rng.below(players) + 1);
                    pgn::play_token(&mut *record, &token).expect("a player leaves");
                    continue;
                }
                let text = moves[rng.below(moves.len())].text.clone();
                record.play(&text).expect("a legal move");
            }
            if i % 3 == 2 && record.result().is_none() {
                record.drop_out(0, Reason::RESIGNATION);
            }
            let header = pgn::Header {
                players: (0..players).map(|p| format!("player {p}")).collect(),
                ..pgn::Header::default()
            };
            let comments: Vec<Option<String>> = (0..plies)
                .map(|k| (k % 4 == 0).then(|| format!("+0.{k}/8 0.1s")))
                .collect();
            let text = pgn::write_game(&*record, &header, &comments);
            written += write(&records, text.as_bytes());
        }
    }
    println!("{written} record seeds written (new files only)");
}
