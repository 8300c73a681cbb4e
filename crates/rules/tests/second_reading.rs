//! Perft on random positions, as counted by the second readings of the rules
//! (`tools/second-reading/`: plain Python implementations written from the rules text alone).

use myrmidon_rules::registry;
use myrmidon_rules::testkit::perft_of;

fn check(id: &str, table: &str) -> usize {
    let game = registry::find(id).unwrap();
    let mut rows = 0;
    for line in table.lines().filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 3, "{id}: bad line {line:?}");
        let depth: u32 = cols[1].parse().unwrap();
        let nodes: u64 = cols[2].parse().unwrap();
        let rec = game
            .new_game_at(cols[0])
            .unwrap_or_else(|e| panic!("{id}: {}: {e}", cols[0]));
        assert_eq!(rec.position_string(), cols[0], "{id}: round trip");
        assert_eq!(
            perft_of(rec.as_ref(), depth),
            nodes,
            "{id}: {} depth {depth}",
            cols[0]
        );
        rows += 1;
    }
    rows
}

#[test]
fn antchess_perft_equals_the_second_reading() {
    assert!(check("antchess", include_str!("data/antchess_second_reading.tsv")) >= 100);
}

#[test]
fn antchess3_perft_equals_the_second_reading() {
    assert!(
        check(
            "antchess3",
            include_str!("data/antchess3_second_reading.tsv")
        ) >= 100
    );
}

#[test]
fn reines_perft_equals_the_second_reading() {
    assert!(check("reines", include_str!("data/reines_second_reading.tsv")) >= 100);
}
