//! The capture search stays bounded where captures chain: Epaminondas positions from real games
//! on which one ply of the main search once cost up to 736 000 nodes of quiescence, 35 plies
//! deep (a group that captures can capture again, and so can the opponent's). The bound is the
//! game's search policy (`EngineGame::POLICY`), which the search receives when it is built. A
//! fixed-depth search's node count is deterministic: it is asserted, not a time.

use myrmidon_engine::eval::EpaminondasEval;
use myrmidon_engine::players::{Options, Pvs, SearchPolicy};
use myrmidon_engine::{new_searcher, Control, EngineGame, Limits, PlayerSpec, Searcher};
use myrmidon_rules::games::epaminondas::{Epaminondas, EpaminondasPosition};
use myrmidon_rules::{registry, Position, Record};

/// The nodes of a fixed-depth search by this policy at each depth from 1.
fn nodes_by_depth(
    record: &Record<EpaminondasPosition>,
    policy: SearchPolicy,
    depth: u32,
) -> Vec<u64> {
    let mut search =
        Pvs::<EpaminondasPosition, EpaminondasEval>::new(None, policy, &Options::default());
    let mut nodes = Vec::new();
    let mv = search.search(
        record,
        &Limits::depth(depth),
        &Control::unlimited(),
        &mut |r| nodes.push(r.nodes),
    );
    assert!(record.position().moves().contains(&mv.unwrap()));
    assert_eq!(nodes.len(), depth as usize, "one report per depth");
    nodes
}

/// The nodes at each depth from 1 of the player built for the game's id (`search`, one thread)
/// from this position.
fn nodes_of_the_game_player(pos: &EpaminondasPosition, depth: u32) -> Vec<u64> {
    let spec: PlayerSpec = "search".parse().unwrap();
    let mut player = new_searcher("epaminondas", &spec, &Options::default()).unwrap();
    let record = registry::find("epaminondas")
        .unwrap()
        .new_game_at(&pos.to_string())
        .unwrap();
    let mut nodes = Vec::new();
    let mv = player
        .search(
            &*record,
            &Limits::depth(depth),
            &Control::unlimited(),
            &mut |r| nodes.push(r.nodes),
        )
        .unwrap();
    assert!(mv.is_some());
    nodes
}

fn after(moves: &str) -> Record<EpaminondasPosition> {
    let mut record = Record::new(EpaminondasPosition::start());
    for text in moves.split_whitespace() {
        record.play_text(text).unwrap();
    }
    record
}

/// (position, nodes at most at depths 1 and 3); the search took 736 000 and more than 10
/// million, and 423 000 and 20 million.
#[test]
fn epaminondas_capture_chains_stay_bounded() {
    let cases = [
        // The position of the report (issue 33): 736 000 nodes at depth 1, depth 3 not done in 3 s.
        (
            after(
                "a1-d4 c12-f9 b1-e4 b12-e9 c1-f4 d12-g9 a2-b3 e9-f8 n2-c2 d10-h10 m1-k3 k12-h9 \
                 l1-j3 l12-i9 f4-e5 n11-j11 l2-b2 n12-k12 k1-i3 h12-h8",
            ),
            [30_000, 3_000_000],
        ),
        // From a game against another engine: 423 000 nodes at depth 1, 20 million at depth 3.
        (
            Record::new(
                "B2BBBBBBBBBB1/BB2BBBB1BBB2/4BBB1B5/4BB8/4BB8/11W2/11WW1/11WW1/4W7W1/1WWWW9/\
                 1WWW2WWWWW3/W2WWWWWWWW3 w"
                    .parse()
                    .unwrap(),
            ),
            [20_000, 800_000],
        ),
    ];
    for (record, [one, three]) in cases {
        let nodes = nodes_by_depth(&record, Epaminondas::POLICY, 3);
        let pos = record.position();
        assert!(nodes[0] <= one, "{pos}: depth 1 took {} nodes", nodes[0]);
        assert!(nodes[2] <= three, "{pos}: depth 3 took {} nodes", nodes[2]);
        // The player built for the game's id searches by the game's policy, node for node.
        let fresh = Record::new(pos.clone());
        assert_eq!(
            nodes_of_the_game_player(pos, 3),
            nodes_by_depth(&fresh, Epaminondas::POLICY, 3),
            "{pos}"
        );
        // And the bound is the policy's: without it, the same search to depth 2 takes more
        // nodes.
        let unbounded = SearchPolicy {
            quiescence_plies: usize::MAX,
            ..Epaminondas::POLICY
        };
        let more = nodes_by_depth(&record, unbounded, 2)[1];
        assert!(
            more > nodes[1],
            "{pos}: {more} nodes unbounded, {} bounded",
            nodes[1]
        );
    }
}
