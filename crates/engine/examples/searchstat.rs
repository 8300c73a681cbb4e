//! Diagnosis: fixed-depth searches of Epaminondas or Jeu de Reines positions with the
//! search's counters (time to depth, branching factor, cutoffs, null moves, reductions,
//! quiescence).
//! `cargo run --release -p myrmidon-engine --example searchstat -- GAME DEPTH [POSITION|moves:...]...`
use std::time::Instant;

use myrmidon_engine::players::{Options, Pvs};
use myrmidon_engine::{Control, EngineGame, Limits, Searcher};
use myrmidon_rules::games::epaminondas::Epaminondas;
use myrmidon_rules::games::reines::Reines;
use myrmidon_rules::{Position, Record, Settings};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args[1].parse().expect("a depth");
    match args[0].as_str() {
        "epaminondas" => run(Epaminondas, depth, &args[2..]),
        "reines" => run(Reines, depth, &args[2..]),
        other => panic!("no statistics for {other}"),
    }
}

fn run<G>(game: G, depth: u32, positions: &[String])
where
    G: EngineGame,
    G::Pos: std::str::FromStr + std::fmt::Display,
    <G::Pos as std::str::FromStr>::Err: std::fmt::Debug,
{
    let mut total = 0u64;
    let mut seconds = 0.0;
    for a in positions {
        let record = if let Some(m) = a.strip_prefix("moves:") {
            let mut r = Record::new(game.start(&Settings::default()).unwrap());
            for t in m.split_whitespace() {
                r.play_text(t).unwrap();
            }
            r
        } else {
            Record::new(a.parse::<G::Pos>().unwrap())
        };
        let mut s = Pvs::<G::Pos, G::Eval>::new(None, G::POLICY, &Options::default());
        let t0 = Instant::now();
        let mut last = 0u64;
        s.search(
            &record,
            &Limits::depth(depth),
            &Control::unlimited(),
            &mut |r| {
                let ebf = if last > 0 {
                    r.nodes as f64 / last as f64
                } else {
                    0.0
                };
                eprintln!(
                    "  d{:2}/{:2} {:>7} nodes {:>10} ({:.1}x) {:>8.3}s {}",
                    r.depth,
                    r.seldepth,
                    format!("{:?}", r.score),
                    r.nodes,
                    ebf,
                    t0.elapsed().as_secs_f64(),
                    r.pv.join(" ")
                );
                last = r.nodes;
            },
        );
        let st = s.stats;
        let last_q = st.qply.iter().rposition(|&x| x > 0).unwrap_or(0);
        println!(
            "  qply {:?} generated/qnode {:.1} searched/qnode {:.2} standpat cuts {}",
            &st.qply[..=last_q],
            st.q_generated as f64 / st.quiescence_nodes.max(1) as f64,
            st.q_searched as f64 / st.quiescence_nodes.max(1) as f64,
            st.q_standpat_cuts
        );
        total += last;
        seconds += t0.elapsed().as_secs_f64();
        println!(
            "{} moves={} nodes={} main={} q={} evasion={} cut={} first={:.2} hashmv={} hashcut={} ttcut={} null={}/{} lmr={}/{} {:.2}s",
            record.position(),
            record.position().moves().len(),
            last,
            st.main_nodes,
            st.quiescence_nodes,
            st.evasion_nodes,
            st.cutoffs,
            st.first_move_cutoffs as f64 / st.cutoffs.max(1) as f64,
            st.hash_moves,
            st.hash_move_cutoffs,
            st.table_cuts,
            st.null_cuts,
            st.null_tries,
            st.re_searches,
            st.reductions,
            t0.elapsed().as_secs_f64()
        );
    }
    println!("total nodes {total} seconds {seconds:.2}");
}
