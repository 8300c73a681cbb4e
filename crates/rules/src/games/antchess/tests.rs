use super::*;
use crate::game::perft;

#[test]
fn start_strings() {
    let p2 = AntChess2.start(&Settings::new()).unwrap();
    assert_eq!(p2.to_string(), "7/8/bA7rA/bA8rA/bWbA7rArW/bLbGbA6rArGrL/bQbBbA7rArBrQ/bLbGbA6rArGrL/bWbA7rArW/bA8rA/bA7rA/8/7 b 0 0 1");
    let p3 = AntChess3.start(&Settings::new()).unwrap();
    assert_eq!(p3.to_string(), "2rArArWrLrQ/4rArGrBrL/bA4rArArGrW/bA6rArArA/bWbA8rA/bLbGbA9/bQbBbA10/bLbGbA9/bWbA8gA/bA6gAgAgA/bA4gAgAgGgW/4gAgGgBgL/2gAgAgWgLgQ b 0 0 1");
}

#[test]
fn perft_shallow() {
    let mut p2 = AntChess2.start(&Settings::new()).unwrap();
    let mut p3 = AntChess3.start(&Settings::new()).unwrap();
    for (d, n) in [(1, 34), (2, 1162), (3, 42052)] {
        assert_eq!(perft(&mut p2, d), n, "2p depth {d}");
    }
    for (d, n) in [(1, 32), (2, 1029), (3, 33248)] {
        assert_eq!(perft(&mut p3, d), n, "3p depth {d}");
    }
}

/// Rows of a reference TSV: (position, depth, nodes).
fn tsv(text: &str) -> Vec<(String, u32, u64)> {
    text.lines()
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

fn check_tsv<G: Game<Pos = AntPos>>(game: &G, text: &str, max_nodes: u64) -> usize {
    let mut run = 0;
    for (pos, depth, nodes) in tsv(text) {
        if nodes > max_nodes {
            continue;
        }
        let mut p = game.parse_position(&pos).unwrap();
        assert_eq!(perft(&mut p, depth), nodes, "{pos} depth {depth}");
        run += 1;
    }
    run
}

#[test]
fn perft_reference_antchess() {
    let n = check_tsv(&AntChess2, include_str!("testdata/antchess.tsv"), 2_000_000);
    assert!(n >= 4);
}

#[test]
fn perft_reference_antchess3() {
    let n = check_tsv(
        &AntChess3,
        include_str!("testdata/antchess3.tsv"),
        2_000_000,
    );
    assert!(n >= 4);
}

/// The deepest rows (about 60 and 38 million nodes).
#[test]
#[ignore]
fn perft_reference_deep() {
    check_tsv(&AntChess2, include_str!("testdata/antchess.tsv"), u64::MAX);
    check_tsv(&AntChess3, include_str!("testdata/antchess3.tsv"), u64::MAX);
}

/// Speed: `cargo test --release -p myrmidon-rules perft_speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn perft_speed() {
    for (name, mut p) in [
        ("antchess", AntChess2.start(&Settings::new()).unwrap()),
        ("antchess3", AntChess3.start(&Settings::new()).unwrap()),
    ] {
        let t = std::time::Instant::now();
        let n = perft(&mut p, 5);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{name} perft(5) = {n} in {s:.2} s: {:.1} Mnps",
            n as f64 / s / 1e6
        );
    }
}
