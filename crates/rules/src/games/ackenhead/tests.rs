use super::*;
use crate::game::perft;

fn pos(fen: &str) -> AckenheadPosition {
    AckenheadPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn perft_start_shallow() {
    let mut p = pos(START_FEN);
    let expect = [29, 839, 25621, 773818, 24799607];
    for (d, &n) in expect.iter().enumerate() {
        assert_eq!(perft(&mut p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn perft_reference_table() {
    for line in include_str!("testdata/perft.tsv").lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (fen, depth, nodes): (&str, u32, u64) =
            (cols[0], cols[1].parse().unwrap(), cols[2].parse().unwrap());
        let t = std::time::Instant::now();
        assert_eq!(perft(&mut pos(fen), depth), nodes, "{fen} depth {depth}");
        eprintln!("perft {depth}: {nodes} in {:?}", t.elapsed());
    }
}
