//! `myrmidon bench`'s time to depth: the strong search (one thread, default options, a new
//! 16 MiB table for each position) to a fixed depth from each of a game's middlegame positions,
//! shipped with its evaluation (`crates/engine/src/eval/<game>.bench`, each file saying how its
//! positions were chosen and the depth they are searched to). Per depth: the nodes and the time over all
//! the positions when that depth was complete, the nodes per second, and the effective
//! branching factor, nodes(d) / nodes(d − 1).

use std::time::Duration;

use myrmidon_engine::{game_data_of, new_searcher, Control, Limits, Options, PlayerSpec};
use myrmidon_rules::DynGame;

use crate::common::{CliError, CliResult};

/// A game's middlegame positions and the depth they are searched to.
#[derive(Debug)]
pub struct Positions {
    pub depth: u32,
    pub positions: Vec<String>,
}

/// Reads a positions file: `#` comments and blank lines, one `depth <N>` line, then one
/// position string a line.
fn parse(text: &str) -> Result<Positions, String> {
    let mut depth = None;
    let mut positions = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.strip_prefix("depth ") {
            Some(n) => depth = Some(n.trim().parse().map_err(|_| format!("bad depth `{n}`"))?),
            None => positions.push(line.to_string()),
        }
    }
    Ok(Positions {
        depth: depth.ok_or("no `depth <N>` line")?,
        positions,
    })
}

/// The middlegame positions of the game `id` (none for a game that has none).
pub fn positions(id: &str) -> CliResult<Option<Positions>> {
    let text = game_data_of(id)
        .map_err(|e| CliError::msg(e.to_string()))?
        .bench_positions;
    if text.trim().is_empty() {
        return Ok(None);
    }
    parse(text)
        .map(Some)
        .map_err(|e| CliError::msg(format!("the bench positions of {id}: {e}")))
}

/// What the search had done over all the positions when one depth was complete.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthTotal {
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
}

/// The effective branching factor between two depths' node counts.
pub fn ebf(nodes: u64, previous: u64) -> f64 {
    nodes as f64 / previous.max(1) as f64
}

/// Searches every position of `game` to `depth`: the totals at each depth from 1. An error if
/// a search ends before `depth` (a forced result: such a position does not belong in the set).
pub fn time_to_depth(
    game: &dyn DynGame,
    positions: &[String],
    depth: u32,
) -> CliResult<Vec<DepthTotal>> {
    let id = game.info().id;
    let spec = PlayerSpec::Search {
        depth: Some(depth),
        algorithm: None,
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut totals: Vec<DepthTotal> = (1..=depth)
        .map(|depth| DepthTotal {
            depth,
            nodes: 0,
            time: Duration::ZERO,
        })
        .collect();
    for position in positions {
        let record = game
            .new_game_at(position)
            .map_err(|e| CliError::msg(format!("the bench position {position} of {id}: {e}")))?;
        let mut search = new_searcher(id, &spec, &Options::default())
            .map_err(|e| CliError::msg(e.to_string()))?;
        let mut reached = 0;
        search
            .search(&*record, &limits, &Control::unlimited(), &mut |r| {
                if r.multipv == 1 && (1..=depth).contains(&r.depth) {
                    let total = &mut totals[r.depth as usize - 1];
                    total.nodes += r.nodes;
                    total.time += r.time;
                    reached = r.depth;
                }
            })
            .map_err(|e| CliError::msg(e.to_string()))?;
        if reached != depth {
            return Err(CliError::msg(format!(
                "the search of the bench position {position} of {id} ended at depth {reached}, \
                 before depth {depth}"
            )));
        }
    }
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use myrmidon_rules::registry;

    #[test]
    fn every_game_has_positions_that_read_back() {
        for game in registry::games() {
            let id = game.info().id;
            let set = positions(id)
                .unwrap()
                .unwrap_or_else(|| panic!("{id}: no bench positions"));
            assert!(set.depth >= 2, "{id}");
            assert!(set.positions.len() >= 4, "{id}");
            for p in &set.positions {
                let record = game
                    .new_game_at(p)
                    .unwrap_or_else(|e| panic!("{id} {p}: {e}"));
                assert!(record.outcome().is_none(), "{id} {p}");
            }
        }
    }

    #[test]
    fn the_file_format() {
        let set = parse("# a comment\n\ndepth 7\nfirst position\n second \n").unwrap();
        assert_eq!(set.depth, 7);
        assert_eq!(set.positions, ["first position", "second"]);
        assert!(parse("one position\n").is_err());
        assert!(parse("depth x\n").is_err());
    }
}
