use super::*;
use crate::game::perft;

const PERFT: &str = include_str!("testdata/perft.tsv");

fn rows() -> Vec<(String, u32, u64)> {
    PERFT
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_table() {
    for (fen, depth, nodes) in rows() {
        let mut p = EpaminondasPosition::parse(&fen).unwrap();
        assert_eq!(perft(&mut p, depth), nodes, "{fen} depth {depth}");
    }
}

#[test]
#[ignore]
fn perft_speed() {
    let mut p = EpaminondasPosition::start();
    let t = std::time::Instant::now();
    let n = perft(&mut p, 4);
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft(4) = {n} in {s:.3} s = {:.0} Mnps",
        n as f64 / s / 1e6
    );
    assert_eq!(n, 245_799_684);
}
