//! The generic services of the command line (perft, divide, speed measurements), written once
//! as `fn<G: Game>` and reached from a game in progress through
//! `myrmidon_rules::registry::with_record`, so that each runs monomorphised at full speed.

use std::hint::black_box;
use std::time::Instant;

use myrmidon_rules::registry::{with_record, RecordVisitor};
use myrmidon_rules::{perft_visiting, DynRecord, Game, Position, Record, UnknownGame};

/// Perft of the game's current position.
pub fn perft(record: &dyn DynRecord, depth: u32) -> Result<u64, UnknownGame> {
    struct Perft(u32);
    impl RecordVisitor for Perft {
        type Output = u64;
        fn visit<G: Game>(self, _: &G, record: &Record<G::Pos>) -> u64 {
            myrmidon_rules::perft(&mut record.position().clone(), self.0)
        }
    }
    with_record(record, Perft(depth))
}

/// Perft split by the first move: each legal move's text and its subtree's leaf count, with
/// `done(text)` called after each (for a progress bar). The sum is `perft(depth)`; at depth 0
/// there is nothing to split.
pub fn divide(
    record: &dyn DynRecord,
    depth: u32,
    done: &dyn Fn(&str),
) -> Result<Vec<(String, u64)>, UnknownGame> {
    struct Divide<'a>(u32, &'a dyn Fn(&str));
    impl RecordVisitor for Divide<'_> {
        type Output = Vec<(String, u64)>;
        fn visit<G: Game>(self, _: &G, record: &Record<G::Pos>) -> Self::Output {
            let Divide(depth, done) = self;
            if depth == 0 {
                return Vec::new();
            }
            let mut pos = record.position().clone();
            let moves = pos.moves();
            let mut out = Vec::with_capacity(moves.len());
            for &mv in moves.iter() {
                let text = pos.move_text(mv);
                let undo = pos.make_move(mv);
                let n = myrmidon_rules::perft(&mut pos, depth - 1);
                pos.unmake_move(mv, undo);
                done(&text);
                out.push((text, n));
            }
            out
        }
    }
    with_record(record, Divide(depth, done))
}

/// The number of legal moves of the current position (for sizing a progress bar).
pub fn count_moves(record: &dyn DynRecord) -> Result<u64, UnknownGame> {
    struct Count;
    impl RecordVisitor for Count {
        type Output = u64;
        fn visit<G: Game>(self, _: &G, record: &Record<G::Pos>) -> u64 {
            record.position().count_legal_moves()
        }
    }
    with_record(record, Count)
}

/// Nodes and time of a measured run.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    pub nodes: u64,
    pub seconds: f64,
}

/// Generates the legal moves of the current position `iterations` times (into the game's stack
/// move list): `nodes` is the number of moves generated in all.
pub fn movegen(record: &dyn DynRecord, iterations: u64) -> Result<Measured, UnknownGame> {
    struct Movegen(u64);
    impl RecordVisitor for Movegen {
        type Output = Measured;
        fn visit<G: Game>(self, _: &G, record: &Record<G::Pos>) -> Measured {
            let pos = record.position();
            let mut nodes = 0u64;
            let t = Instant::now();
            for _ in 0..self.0 {
                let moves = black_box(pos).moves();
                nodes += black_box(moves.len()) as u64;
            }
            Measured {
                nodes,
                seconds: t.elapsed().as_secs_f64(),
            }
        }
    }
    with_record(record, Movegen(iterations))
}

/// What the cheap draw check (`Position::draw_by_rule`) costs a search: a perft that makes every
/// move down to the leaves, timed without and with the check at every node. The depth deepens
/// until one plain run takes `target` seconds (or `depth` if given); then each walk runs three
/// times, alternating, and the fastest of each counts. Returns the depth, the nodes and the two
/// times.
pub fn draw_check_cost(
    record: &dyn DynRecord,
    depth: Option<u32>,
    target: f64,
) -> Result<DrawCheckCost, UnknownGame> {
    struct Cost(Option<u32>, f64);
    impl RecordVisitor for Cost {
        type Output = DrawCheckCost;
        fn visit<G: Game>(self, _: &G, record: &Record<G::Pos>) -> Self::Output {
            let mut pos = record.position().clone();
            let plain = |pos: &mut G::Pos, depth| {
                let t = Instant::now();
                let n = perft_visiting(pos, depth, &mut |p| {
                    black_box(p);
                });
                (n, t.elapsed().as_secs_f64())
            };
            let checked = |pos: &mut G::Pos, depth| {
                let t = Instant::now();
                let n = perft_visiting(pos, depth, &mut |p| {
                    black_box(p.draw_by_rule());
                });
                (n, t.elapsed().as_secs_f64())
            };
            let depth = match self.0 {
                Some(d) => d,
                None => {
                    let mut d = 1;
                    while d < 64 {
                        let (n, s) = plain(&mut pos, d);
                        if s >= self.1 || n == 0 {
                            break;
                        }
                        d += 1;
                    }
                    d
                }
            };
            let mut best = DrawCheckCost {
                depth,
                nodes: 0,
                plain: f64::MAX,
                checked: f64::MAX,
            };
            for _ in 0..3 {
                let (n, s) = plain(&mut pos, depth);
                let (m, c) = checked(&mut pos, depth);
                assert_eq!(n, m, "the draw check does not change the walk");
                best.nodes = n;
                best.plain = best.plain.min(s);
                best.checked = best.checked.min(c);
            }
            best
        }
    }
    with_record(record, Cost(depth, target))
}

/// See [`draw_check_cost`].
#[derive(Clone, Copy, Debug)]
pub struct DrawCheckCost {
    pub depth: u32,
    pub nodes: u64,
    pub plain: f64,
    pub checked: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use myrmidon_rules::{registry, Settings};

    #[test]
    fn a_game_outside_the_registry_is_refused() {
        let game: &dyn myrmidon_rules::DynGame = &crate::testgame::SQUARE;
        let record = game.new_game(&Settings::new()).unwrap();
        let err = perft(record.as_ref(), 1).unwrap_err();
        assert_eq!(err.id, "tictac");
    }

    #[test]
    fn typed_services_agree_with_each_other_for_every_game() {
        for game in registry::games() {
            let mut record = game.new_game(&Settings::new()).unwrap();
            let first = record.legal_moves()[0].text.clone();
            record.play(&first).unwrap();
            let total = perft(record.as_ref(), 2).unwrap();
            let lines = divide(record.as_ref(), 2, &|_| {}).unwrap();
            assert_eq!(lines.len() as u64, count_moves(record.as_ref()).unwrap());
            assert_eq!(lines.iter().map(|l| l.1).sum::<u64>(), total);
            let moves = record.legal_moves().len() as u64;
            assert_eq!(perft(record.as_ref(), 1).unwrap(), moves);
            let cost = draw_check_cost(record.as_ref(), Some(2), 1.0).unwrap();
            assert_eq!(cost.nodes, total, "{}", game.info().id);
            let m = movegen(record.as_ref(), 3).unwrap();
            assert_eq!(m.nodes, 3 * record.legal_moves().len() as u64);
        }
    }
}
