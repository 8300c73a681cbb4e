use super::*;
use crate::game::{perft, Game};

const PERFT: &str = include_str!("testdata/perft.tsv");

fn perft_rows() -> Vec<(String, u32, u64)> {
    PERFT
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (
                cols[0].to_string(),
                cols[1].parse().unwrap(),
                cols[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_table() {
    for (text, depth, nodes) in perft_rows() {
        let mut pos = Reines.parse_position(&text).unwrap();
        assert_eq!(pos.to_string(), text);
        let t = std::time::Instant::now();
        let n = perft(&mut pos, depth);
        eprintln!("{text} {depth} {n} {:?}", t.elapsed());
        assert_eq!(n, nodes, "perft({depth}) of {text}");
    }
}
