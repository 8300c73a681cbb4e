//! Known values. Unless a test says otherwise, the expected numbers were produced by
//! fastchess's own code (commit 74deac23 of github.com/Disservin/fastchess): its
//! `elo_wdl.cpp`, `elo_pentanomial.cpp` and `sprt.cpp` compiled outside this repository
//! with a small driver that builds `Stats` from the counts and prints `diff()`, `error()`,
//! `nEloDiff()`, `nEloError()`, the protected `score_`/`variance_`/`variance_per_*_` (via a
//! subclass), LOS by its own formula at full precision, and `getLLR`, all with `%.17g`.
//! "fastchess, tight" means the same `sprt.cpp` with its solver tolerances tightened
//! (ITP θ tolerance 1e-11 instead of 1e-3 / 1e-7, normalised fixed point to 1e-11 in up to
//! 1000 rounds instead of 1e-4 in 10), which gives the exact maximum-likelihood LLR that
//! our solvers compute. Cutechess numbers come the same way from its `elo.cpp` (commit
//! 5e84232b of github.com/cutechess/cutechess).
// The numbers are copied as printed (17 significant digits), not rounded to what an f64
// holds.
#![allow(clippy::excessive_precision)]
use super::*;

/// |actual − expected| ≤ rel·|expected| (or ≤ rel when expected is 0).
fn close(actual: f64, expected: f64, rel: f64) -> bool {
    let scale = expected.abs().max(if expected == 0.0 { 1.0 } else { 0.0 });
    (actual - expected).abs() <= rel * scale
}

#[track_caller]
fn assert_close(what: &str, actual: f64, expected: f64, rel: f64) {
    assert!(
        close(actual, expected, rel),
        "{what}: got {actual:.17}, expected {expected:.17} (relative tolerance {rel})"
    );
}

/// One row of known Elo statistics.
struct Known {
    score: f64,
    variance: f64,
    elo: f64,
    margin: f64,
    nelo: f64,
    nelo_margin: f64,
    los: f64,
}

#[track_caller]
fn check(e: &EloEstimate, k: &Known) {
    assert_close("score", e.score, k.score, 1e-12);
    assert_close("variance", e.variance, k.variance, 1e-12);
    assert_close("elo", e.elo, k.elo, 1e-9);
    assert_close("margin", e.margin, k.margin, 1e-9);
    assert_close("nelo", e.nelo, k.nelo, 1e-9);
    assert_close("nelo margin", e.nelo_margin, k.nelo_margin, 1e-9);
    // fastchess's 1 − erf(…) loses the far tail to cancellation: compare absolutely.
    assert!(
        (e.los - k.los).abs() < 1e-12,
        "los: got {}, expected {}",
        e.los,
        k.los
    );
}

#[test]
fn the_normal_cdf_matches_the_c_library() {
    // (x, erfc(x)) printed by glibc's std::erfc with %.17g; Φ(−x√2) = erfc(x) / 2.
    let known = [
        (-6.0, 2.0),
        (-3.5, 1.9999992569016276),
        (-1.0, 1.842700792949715),
        (-0.3, 1.3286267594591274),
        (0.0, 1.0),
        (0.001, 0.99887162120903072),
        (0.2, 0.77729741078952153),
        (0.5, 0.47950012218695348),
        (1.0, 0.15729920705028513),
        (1.5, 0.033894853524689274),
        (2.0, 0.0046777349810472654),
        (2.9, 4.1097878099458858e-05),
        (3.1, 1.1648657367199589e-05),
        (4.0, 1.541725790028002e-08),
        (5.5, 7.3578479179743983e-15),
        (10.0, 2.0884875837625449e-45),
    ];
    for (x, expected) in known {
        assert_close(
            &format!("Φ({x})"),
            normal_cdf(-x * std::f64::consts::SQRT_2),
            expected / 2.0,
            1e-13,
        );
    }
    assert_eq!(normal_cdf(0.0), 0.5);
    assert_close("Φ(1.96)", normal_cdf(Z95), 0.975, 1e-15);
    assert_close("Φ(−1.96)", normal_cdf(-Z95), 0.025, 1e-13);
    assert_eq!(normal_cdf(f64::INFINITY), 1.0);
    assert_eq!(normal_cdf(f64::NEG_INFINITY), 0.0);
}

#[test]
fn score_and_elo_convert_both_ways() {
    assert_eq!(score_to_elo(0.5), 0.0);
    assert!(score_to_elo(0.5).is_sign_positive());
    assert_eq!(score_to_elo(1.0), f64::INFINITY);
    assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    assert_eq!(score_to_elo(1.2), f64::INFINITY);
    // 3/4 of the points is 400·log10(3) Elo.
    assert_close("elo(0.75)", score_to_elo(0.75), 400.0 * 3f64.log10(), 1e-15);
    for elo in [-800.0, -35.5, 0.0, 5.0, 120.0] {
        assert_close("round trip", score_to_elo(elo_to_score(elo)), elo, 1e-9);
    }
}

#[test]
fn trinomial_elo_matches_fastchess() {
    // +76 =123 −89: fastchess's own test "EloWDL 1" (its Stats(76, 89, 123) is W, L, D).
    check(
        &Trinomial::new(76, 123, 89).elo().unwrap(),
        &Known {
            score: 0.47743055555555558,
            variance: 0.1427197868441358,
            elo: -15.693520705432237,
            margin: 30.45800071698045,
            nelo: -20.756449777395378,
            nelo_margin: 40.126025557578572,
            los: 0.15532643492749831,
        },
    );
    // +136 =111 −96: fastchess's "EloWDL 2".
    check(
        &Trinomial::new(136, 111, 96).elo().unwrap(),
        &Known {
            score: 0.55830903790087461,
            variance: 0.1656962660116108,
            elo: 40.702458186527075,
            margin: 30.42721794360099,
            nelo: 49.768415381022194,
            nelo_margin: 36.76845059495362,
            los: 0.99601023573349723,
        },
    );
    // +34 =0 −356: fastchess's "EloWDL 3"; LOS 0 there (1 − erf rounds), ours about 5e-184.
    check(
        &Trinomial::new(34, 0, 356).elo().unwrap(),
        &Known {
            score: 0.087179487179487175,
            variance: 0.079579224194608805,
            elo: -407.98843237224798,
            margin: 63.164514735819154,
            nelo: -508.43532503968595,
            nelo_margin: 34.481812485442134,
            los: 0.0,
        },
    );
    // +1200 =2100 −1100: our own input.
    let e = Trinomial::new(1200, 2100, 1100).elo().unwrap();
    check(
        &e,
        &Known {
            score: 0.51136363636363635,
            variance: 0.13055268595041322,
            elo: 7.8976232783028717,
            margin: 7.4235138143434138,
            nelo: 10.926944079266043,
            nelo_margin: 10.26587687205512,
            los: 0.98151861820266795,
        },
    );
    assert_eq!(e.samples, 4400);
    assert_close(
        "variance per game",
        e.variance_of_mean,
        2.9671064988730276e-05,
        1e-12,
    );
}

#[test]
fn trinomial_margin_is_cutechess_up_to_its_quantile_approximation() {
    // cutechess's Elo::errorMargin for the same W/D/L; it approximates Φ⁻¹(0.975) by
    // 1.9572…, so its margins are ≈ 0.144 % narrower than ours (and fastchess's).
    for (w, d, l, cutechess) in [
        (76, 123, 89, 30.414232246430103),
        (136, 111, 96, 30.383486345623719),
        (34, 0, 356, 63.067975241055336),
        (1200, 2100, 1100, 7.4128975958050685),
    ] {
        let ours = Trinomial::new(w, d, l).elo().unwrap().margin;
        let ratio = ours / cutechess;
        assert!(
            (1.0012..1.0016).contains(&ratio),
            "+{w} ={d} -{l}: ratio {ratio}"
        );
    }
}

#[test]
fn cutechess_los_and_lines() {
    // cutechess's Elo::LOS (in %), from wins and losses only.
    for (w, d, l, percent) in [
        (76, 123, 89, 15.575740177885484),
        (136, 111, 96, 99.568189161984023),
        (1200, 2100, 1100, 98.147189071794045),
        (7, 2, 1, 98.305257323765545),
    ] {
        assert_close(
            "cutechess LOS",
            Trinomial::new(w, d, l).los() * 100.0,
            percent,
            1e-12,
        );
    }
    assert_eq!(Trinomial::new(0, 5, 0).los(), 0.5);
    // cutechess prints "Elo difference: 7.9 +/- 7.4, LOS: 98.1 %, DrawRatio: 47.7 %".
    assert_eq!(
        Trinomial::new(1200, 2100, 1100).elo_line().unwrap(),
        "Elo difference: 7.9 +/- 7.4, LOS: 98.1 %, DrawRatio: 47.7 %"
    );
    // cutechess prints "-15.7 +/- 30.4": its margin 30.414 against our 30.458.
    assert_eq!(
        Trinomial::new(76, 123, 89).elo_line().unwrap(),
        "Elo difference: -15.7 +/- 30.5, LOS: 15.6 %, DrawRatio: 42.7 %"
    );
    // cutechess: "Elo difference: inf +/- -nan, LOS: 99.9 %, DrawRatio: 0.0 %".
    assert_eq!(
        Trinomial::new(10, 0, 0).elo_line().unwrap(),
        "Elo difference: inf +/- inf, LOS: 99.9 %, DrawRatio: 0.0 %"
    );
    // cutechess: "Elo difference: -0.0 +/- 0.0, LOS: -nan %, DrawRatio: 100.0 %".
    assert_eq!(
        Trinomial::new(0, 5, 0).elo_line().unwrap(),
        "Elo difference: 0.0 +/- 0.0, LOS: 50.0 %, DrawRatio: 100.0 %"
    );
    assert_eq!(Trinomial::default().elo_line(), None);
    // enginematch.cpp: "Score of %s vs %s: %d - %d - %d  [%.3f] %d" (W, L, D).
    assert_eq!(
        score_line("greedy", "random", &Trinomial::new(76, 123, 89)),
        "Score of greedy vs random: 76 - 89 - 123  [0.477] 288"
    );
    assert_eq!(
        score_line("a", "b", &Trinomial::default()),
        "Score of a vs b: 0 - 0 - 0  [-] 0"
    );
}

#[test]
fn pentanomial_elo_and_variance_match_fastchess() {
    // fastchess's "EloPentanomial 1": Stats(LL 34, LD 54, WL 31, DD 32, WD 64, WW 75).
    let e = Pentanomial([34, 54, 63, 64, 75]).elo().unwrap();
    check(
        &e,
        &Known {
            score: 0.57931034482758625,
            variance: 0.11310642092746731,
            elo: 55.579780420445879,
            margin: 27.653429506393451,
            nelo: 57.935599938124312,
            nelo_margin: 28.275376243408669,
            los: 0.99997039300843127,
        },
    );
    assert_eq!(e.samples, 290);
    assert_close(
        "variance per pair",
        e.variance_of_mean,
        0.00039002214112919764,
        1e-12,
    );
    // "EloPentanomial 2": Stats(332, 433, 457, 41, 333, 334).
    let e = Pentanomial([332, 433, 498, 333, 334]).elo().unwrap();
    check(
        &e,
        &Known {
            score: 0.48756476683937827,
            variance: 0.11092049450991971,
            elo: -8.64266726796901,
            margin: 10.33419442439302,
            nelo: -9.1729142700471353,
            nelo_margin: 10.960458877511137,
            los: 0.050470066982530093,
        },
    );
    assert_close(
        "variance per pair",
        e.variance_of_mean,
        5.7471758813429903e-05,
        1e-12,
    );
    // "EloPentanomial 3": Stats(7895, 8757, 5485, 200, 568, 9999).
    check(
        &Pentanomial([7895, 8757, 5685, 568, 9999]).elo().unwrap(),
        &Known {
            score: 0.46975291757840998,
            variance: 0.15275374091964236,
            elo: -21.043520578172789,
            margin: 2.9452808685278171,
            nelo: -19.012834278883982,
            nelo_margin: 2.6545019165024684,
            los: 0.0,
        },
    );
    // Our own input, with a low variance (most pairs level).
    let e = Pentanomial([40, 420, 900, 470, 50]).elo().unwrap();
    check(
        &e,
        &Known {
            score: 0.50930851063829785,
            variance: 0.041469202693526483,
            elo: 6.4689631238249419,
            margin: 6.399352183205635,
            nelo: 11.229919863014217,
            nelo_margin: 11.105253249309314,
            los: 0.97625849769710227,
        },
    );
    assert_close(
        "variance per pair",
        e.variance_of_mean,
        2.205808653910983e-05,
        1e-12,
    );
}

#[test]
fn pairs_are_counted_by_their_points() {
    let mut p = Pentanomial::default();
    p.add_pair(Wdl::Loss, Wdl::Loss);
    p.add_pair(Wdl::Loss, Wdl::Draw);
    p.add_pair(Wdl::Draw, Wdl::Loss);
    p.add_pair(Wdl::Win, Wdl::Loss);
    p.add_pair(Wdl::Draw, Wdl::Draw);
    p.add_pair(Wdl::Loss, Wdl::Win);
    p.add_pair(Wdl::Draw, Wdl::Win);
    p.add_pair(Wdl::Win, Wdl::Win);
    assert_eq!(p.counts(), [1, 2, 3, 1, 1]);
    assert_eq!(p.pairs(), 8);
    assert_eq!(p.games(), 16);
    assert_eq!(p.points(), 0.5 + 0.5 + 1.0 + 1.0 + 1.0 + 1.5 + 2.0);
    assert_eq!(p.score(), Some(7.5 / 16.0));
    assert_eq!(p.draw_ratio(), Some(3.0 / 8.0));
    assert_eq!(p.reversed().counts(), [1, 1, 3, 2, 1]);
    let mut t = Trinomial::default();
    for r in [Wdl::Win, Wdl::Draw, Wdl::Draw, Wdl::Loss, Wdl::Win] {
        t.add(r);
    }
    assert_eq!(t, Trinomial::new(2, 2, 1));
    assert_eq!(t.reversed(), Trinomial::new(1, 2, 2));
    assert_eq!(t.points(), 3.0);
    assert_eq!(Wdl::from_points(0.5), Some(Wdl::Draw));
    assert_eq!(Wdl::from_points(1.0 / 3.0), None);
    assert_eq!(Wdl::Win.reversed().points(), 0.0);
    // The pair estimate is the same pairs seen from the other side, mirrored.
    let a = Pentanomial([34, 54, 63, 64, 75]).elo().unwrap();
    let b = Pentanomial([34, 54, 63, 64, 75]).reversed().elo().unwrap();
    assert_close("mirrored elo", b.elo, -a.elo, 1e-12);
    assert_close("mirrored margin", b.margin, a.margin, 1e-12);
}

#[test]
fn edge_cases_give_no_nan() {
    assert_eq!(Trinomial::default().elo(), None);
    assert_eq!(Trinomial::default().score(), None);
    assert_eq!(Pentanomial::default().elo(), None);
    assert_eq!(Pentanomial::default().draw_ratio(), None);

    let all_wins = Trinomial::new(10, 0, 0).elo().unwrap();
    assert_eq!(all_wins.elo, f64::INFINITY);
    assert_eq!(all_wins.margin, f64::INFINITY);
    assert_eq!(all_wins.nelo, f64::INFINITY);
    assert_eq!(all_wins.nelo_margin, f64::INFINITY);
    assert_eq!(all_wins.los, 1.0);

    let all_losses = Pentanomial([6, 0, 0, 0, 0]).elo().unwrap();
    assert_eq!(all_losses.elo, f64::NEG_INFINITY);
    assert_eq!(all_losses.margin, f64::INFINITY);
    assert_eq!(all_losses.los, 0.0);

    let all_draws = Trinomial::new(0, 5, 0).elo().unwrap();
    assert_eq!((all_draws.elo, all_draws.margin), (0.0, 0.0));
    assert_eq!(
        (all_draws.nelo, all_draws.nelo_margin),
        (0.0, f64::INFINITY)
    );
    assert_eq!(all_draws.los, 0.5);

    // +7 =2 −1: the score's interval reaches past 1 (fastchess and cutechess: nan); the
    // Elo itself and nElo are fastchess's (240.82…, 314.27… ± 215.34…).
    let few = Trinomial::new(7, 2, 1).elo().unwrap();
    assert_close("elo", few.elo, 240.82399653118495, 1e-9);
    assert_eq!(few.elo_high, f64::INFINITY);
    assert!(few.elo_low.is_finite() && few.elo_low < few.elo);
    assert_eq!(few.margin, f64::INFINITY);
    assert_close("nelo", few.nelo, 314.26731163524636, 1e-9);
    assert_close("nelo margin", few.nelo_margin, 215.33884995273505, 1e-9);
    assert_close("los", few.los, 0.99788438355012099, 1e-12);

    for t in [
        Trinomial::new(1, 0, 0),
        Trinomial::new(0, 1, 0),
        Trinomial::new(0, 0, 1),
        Trinomial::new(1, 0, 1),
        Trinomial::new(u64::from(u32::MAX), 1, 0),
    ] {
        let e = t.elo().unwrap();
        for v in [
            e.score,
            e.variance,
            e.elo,
            e.margin,
            e.nelo,
            e.nelo_margin,
            e.los,
        ] {
            assert!(!v.is_nan(), "{t:?}: {e:?}");
        }
    }
}

fn sprt(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: SprtModel) -> Sprt {
    Sprt::new(elo0, elo1, alpha, beta, model).unwrap()
}

#[test]
fn sprt_bounds() {
    // fastchess SPRT::getLowerBound/getUpperBound for alpha = beta = 0.05: ±ln 19.
    let s = sprt(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized);
    assert_close("lower", s.lower_bound(), -2.9444389791664403, 1e-15);
    assert_close("upper", s.upper_bound(), 2.9444389791664403, 1e-15);
    // alpha 0.1, beta 0.05: ln(0.05/0.9) and ln(0.95/0.1).
    let s = sprt(-1.75, 0.25, 0.1, 0.05, SprtModel::Logistic);
    assert_close("lower", s.lower_bound(), -2.8903717578961645, 1e-15);
    assert_close("upper", s.upper_bound(), 2.2512917986064949, 1e-15);
    // cutechess's own test: alpha = beta = 0.01 gives ±4.6 (to 0.01).
    let s = sprt(0.0, 10.0, 0.01, 0.01, SprtModel::Logistic);
    assert!((s.lower_bound() + 4.6).abs() < 0.01 && (s.upper_bound() - 4.6).abs() < 0.01);
}

#[test]
fn sprt_llr_matches_fastchess() {
    use SprtModel::{Logistic, Normalized};
    let t = Trinomial::new(1200, 2100, 1100);
    let p = Pentanomial([40, 420, 900, 470, 50]);
    // (test, sample, fastchess as released, fastchess tight): normalised LLRs agree with
    // fastchess as released to ~1e-9, logistic ones only to ~1e-4 (its θ tolerance 1e-3).
    let cases: [(Sprt, SprtSample, f64, f64); 8] = [
        (
            sprt(0.0, 5.0, 0.05, 0.05, Normalized),
            (&t).into(),
            1.5349406545436237,
            1.5349406482012959,
        ),
        (
            sprt(0.0, 5.0, 0.05, 0.05, Logistic),
            (&t).into(),
            1.8818278632922032,
            1.8818488988362685,
        ),
        (
            sprt(-1.75, 0.25, 0.1, 0.05, Normalized),
            (&t).into(),
            0.85085406819956844,
            0.85085406762183158,
        ),
        (
            sprt(-1.75, 0.25, 0.1, 0.05, Logistic),
            (&t).into(),
            1.2057198837661534,
            1.2057165966718348,
        ),
        (
            sprt(0.0, 5.0, 0.05, 0.05, Normalized),
            (&p).into(),
            1.3581478568125129,
            1.3581478568126959,
        ),
        (
            sprt(0.0, 5.0, 0.05, 0.05, Logistic),
            (&p).into(),
            1.860652686066973,
            1.8606530295067363,
        ),
        (
            sprt(-1.75, 0.25, 0.1, 0.05, Normalized),
            (&p).into(),
            0.74553465735287117,
            0.74553465627418058,
        ),
        (
            sprt(-1.75, 0.25, 0.1, 0.05, Logistic),
            (&p).into(),
            1.3518977417270657,
            1.3518970730717785,
        ),
    ];
    for (s, sample, released, tight) in cases {
        let llr = s.llr(sample);
        let what = format!("{s:?} on {sample:?}");
        assert_close(&what, llr, tight, 1e-9);
        let rel = match s.model() {
            Normalized => 1e-6,
            Logistic => 1e-4,
        };
        assert_close(&what, llr, released, rel);
        assert_eq!(s.status(llr), SprtStatus::Continue);
    }
}

#[test]
fn sprt_llr_matches_fastchess_own_tests() {
    use SprtModel::{Logistic, Normalized};
    // fastchess's sprt_test.cpp: its Stats(w, l, d) and Stats(ll, ld, wl, dd, wd, ww), its
    // expected values to two decimals within 1 %.
    let trinomials: [(Sprt, Trinomial, f64); 5] = [
        (
            sprt(0.0, 2.0, 0.05, 0.05, Normalized),
            Trinomial::new(36433, 68692, 36027),
            0.92,
        ),
        (
            sprt(-1.75, 0.25, 0.05, 0.05, Normalized),
            Trinomial::new(10871, 20431, 10650),
            2.30,
        ),
        (
            sprt(0.0, 10.0, 0.05, 0.05, Normalized),
            Trinomial::new(4250, 0, 0),
            120.56,
        ),
        (
            sprt(0.5, 2.5, 0.05, 0.05, Logistic),
            Trinomial::new(21404, 40708, 21184),
            -1.57,
        ),
        (
            sprt(0.0, 2.0, 0.05, 0.05, Logistic),
            Trinomial::new(57433, 106593, 57030),
            -2.59,
        ),
    ];
    let pentanomials: [(Sprt, Pentanomial, f64); 5] = [
        (
            sprt(0.0, 2.0, 0.05, 0.05, Normalized),
            Pentanomial([365, 16618, 36229, 16974, 390]),
            2.25,
        ),
        (
            sprt(-1.75, 0.25, 0.05, 0.05, Normalized),
            Pentanomial([127, 4883, 10712, 5150, 104]),
            3.01,
        ),
        (
            sprt(0.0, 5.0, 0.05, 0.05, Normalized),
            Pentanomial([0, 0, 0, 0, 5550]),
            111.82,
        ),
        (
            sprt(0.5, 2.5, 0.05, 0.05, Logistic),
            Pentanomial([223, 9863, 21279, 10037, 246]),
            -3.07,
        ),
        (
            sprt(0.0, 2.0, 0.05, 0.05, Logistic),
            Pentanomial([871, 26175, 55983, 26678, 821]),
            -4.98,
        ),
    ];
    for (s, t, expected) in trinomials {
        assert_close(&format!("{s:?} on {t:?}"), s.llr(&t), expected, 0.01);
    }
    for (s, p, expected) in pentanomials {
        assert_close(&format!("{s:?} on {p:?}"), s.llr(&p), expected, 0.01);
    }
    // Full-precision values from fastchess for the extreme ones above (tight solvers; the
    // released ones differ by < 1e-12 for the normalised model, < 1e-7 for the logistic).
    let wins = Trinomial::new(4250, 0, 0);
    let ww = Pentanomial([0, 0, 0, 0, 5550]);
    assert_close(
        "4250 wins",
        sprt(0.0, 10.0, 0.05, 0.05, Normalized).llr(&wins),
        120.54826774120434,
        1e-9,
    );
    assert_close(
        "5550 WW",
        sprt(0.0, 5.0, 0.05, 0.05, Normalized).llr(&ww),
        111.79755508671272,
        1e-9,
    );
    assert_close(
        "4250 wins",
        sprt(0.0, 10.0, 0.05, 0.05, Logistic).llr(&wins),
        120.56467937017858,
        1e-9,
    );
    assert_close(
        "5550 WW",
        sprt(0.0, 5.0, 0.05, 0.05, Logistic).llr(&ww),
        79.296251147116607,
        1e-9,
    );
    let losses = Trinomial::new(0, 0, 3000);
    assert_close(
        "3000 losses",
        sprt(0.0, 5.0, 0.05, 0.05, Normalized).llr(&losses),
        -43.482599303004072,
        1e-9,
    );
    assert_close(
        "3000 losses",
        sprt(0.0, 5.0, 0.05, 0.05, Logistic).llr(&losses),
        -43.484118070568826,
        1e-9,
    );
}

/// The half-points of a pair, cycled: the pattern scores [1, 2, 5, 4, 1] pairs per 13.
const PATTERN: [usize; 13] = [2, 3, 1, 2, 4, 3, 2, 3, 1, 3, 2, 0, 2];

#[test]
fn sprt_on_a_fixed_sequence_of_pairs_stops_where_fastchess_does() {
    // fastchess (as released), run on the cumulative counts after every pair of this
    // sequence under normalised elo0=0 elo1=5 alpha=beta=0.05: LLR at a few pairs, and the
    // first pair at which it leaves (-2.944, 2.944): pair 1048, for H1. Where the tight
    // build finished, its value too (at 13 pairs its ITP never reaches 1e-11). The
    // released values are within 1e-6 of ours but for pair 1 (1.2e-6: one pair, four
    // regularised classes, and 10 rounds of the fixed point were not enough).
    let s = sprt(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized);
    let known: [(usize, f64, Option<f64>); 7] = [
        (1, -0.00021520198392630067, Some(-0.00021520172327170079)),
        (2, 0.019939822269703304, Some(0.019939822269503773)),
        (13, 0.035880970498760836, None),
        (100, 0.30839624119042192, Some(0.30839624119035292)),
        (500, 1.4191377044643174, Some(1.4191377044642199)),
        (1047, 2.9274423939654941, Some(2.9274423939652521)),
        (1048, 2.9461034620690927, Some(2.9461034620687663)),
    ];
    let mut p = Pentanomial::default();
    let mut stopped = None;
    for n in 1..=1100usize {
        p.0[PATTERN[(n - 1) % PATTERN.len()]] += 1;
        let llr = s.llr(&p);
        if let Some(&(_, released, tight)) = known.iter().find(|&&(k, _, _)| k == n) {
            assert_close(&format!("pair {n}, released"), llr, released, 2e-6);
            if let Some(tight) = tight {
                assert_close(&format!("pair {n}, tight"), llr, tight, 1e-9);
            }
        }
        if stopped.is_none() && s.status(llr) != SprtStatus::Continue {
            stopped = Some((n, s.status(llr)));
        }
    }
    assert_eq!(stopped, Some((1048, SprtStatus::AcceptH1)));
    // 84 whole patterns and the first 8 pairs of the next.
    assert_eq!(p.counts(), [84, 169, 423, 339, 85]);
}

#[test]
fn sprt_status_transitions() {
    let s = sprt(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized);
    let (lo, hi) = (s.lower_bound(), s.upper_bound());
    assert_eq!(s.status(0.0), SprtStatus::Continue);
    assert_eq!(s.status(hi - 1e-9), SprtStatus::Continue);
    assert_eq!(s.status(hi), SprtStatus::AcceptH1);
    assert_eq!(s.status(lo + 1e-9), SprtStatus::Continue);
    assert_eq!(s.status(lo), SprtStatus::AcceptH0);
    assert_eq!(s.status(f64::NAN), SprtStatus::Continue);
    assert_eq!(SprtStatus::AcceptH1.hypothesis(), Some("H1"));
    assert_eq!(SprtStatus::AcceptH0.hypothesis(), Some("H0"));
    assert_eq!(SprtStatus::Continue.hypothesis(), None);
    // Blocks of 39 pairs scoring [2, 10, 18, 8, 1], played k times: the LLR is linear in k
    // (fastchess: -0.10110454238115113 per block), and H0 is first accepted at k = 30
    // (fastchess: -2.9320317290533828 at 29, -3.0331362714345342 at 30).
    let block = [2u64, 10, 18, 8, 1];
    let mut first_h0 = None;
    for k in 1..=40u64 {
        let llr = s.llr(&Pentanomial(block.map(|c| c * k)));
        assert_close(
            &format!("block {k}"),
            llr,
            -0.10110454238115113 * k as f64,
            1e-6,
        );
        if first_h0.is_none() && s.status(llr) == SprtStatus::AcceptH0 {
            first_h0 = Some(k);
        }
        assert_ne!(s.status(llr), SprtStatus::AcceptH1);
    }
    assert_eq!(first_h0, Some(30));
}

#[test]
fn sprt_llr_is_finite_on_extreme_samples() {
    let samples_t = [
        Trinomial::new(0, 0, 0),
        Trinomial::new(3, 0, 0),
        Trinomial::new(0, 3000, 0),
        Trinomial::new(100, 0, 1),
        Trinomial::new(1_000_000, 0, 0),
        Trinomial::new(0, 0, 1_000_000),
        Trinomial::new(1, 1_000_000, 1),
    ];
    let samples_p = [
        Pentanomial([0; 5]),
        Pentanomial([7000, 0, 0, 0, 0]),
        Pentanomial([0, 0, 9000, 0, 0]),
        Pentanomial([1, 0, 0, 0, 1]),
        Pentanomial([0, 0, 0, 0, 1_000_000]),
    ];
    for model in [SprtModel::Normalized, SprtModel::Logistic] {
        for (e0, e1) in [
            (0.0, 5.0),
            (-1000.0, 1000.0),
            (999.0, 1000.0),
            (-1000.0, -999.0),
        ] {
            let s = sprt(e0, e1, 0.05, 0.05, model);
            let mut llrs: Vec<f64> = samples_t.iter().map(|t| s.llr(t)).collect();
            llrs.extend(samples_p.iter().map(|p| s.llr(p)));
            for llr in &llrs {
                assert!(llr.is_finite(), "{s:?}: {llrs:?}");
            }
            assert_eq!(llrs[0], 0.0);
            assert_eq!(llrs[samples_t.len()], 0.0);
        }
    }
    // fastchess, tight, normalised elo0=0 elo1=5: all losses in pairs; as released it
    // stops its fixed point after 10 rounds at -143.968.
    assert_close(
        "7000 LL",
        sprt(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).llr(&Pentanomial([7000, 0, 0, 0, 0])),
        -143.90479933664002,
        1e-6,
    );
}

#[test]
fn sprt_settings_are_checked_and_parsed() {
    let s: Sprt = "elo0=0 elo1=5 alpha=0.05 beta=0.1 model=logistic"
        .parse()
        .unwrap();
    assert_eq!(
        (s.elo0(), s.elo1(), s.alpha(), s.beta(), s.model()),
        (0.0, 5.0, 0.05, 0.1, SprtModel::Logistic)
    );
    let s = Sprt::from_words(["elo1=2.5", "elo0=-1"]).unwrap();
    assert_eq!(
        (s.elo0(), s.elo1(), s.alpha(), s.beta()),
        (-1.0, 2.5, 0.05, 0.05)
    );
    assert_eq!(s.model(), SprtModel::Normalized);
    for (words, message) in [
        ("elo0=5 elo1=0", "elo0 must be less than elo1"),
        (
            "elo0=0 elo1=5 alpha=0",
            "alpha must lie strictly between 0 and 1",
        ),
        (
            "elo0=0 elo1=5 beta=1",
            "beta must lie strictly between 0 and 1",
        ),
        (
            "elo0=0 elo1=5 alpha=0.6 beta=0.5",
            "alpha + beta must be less than 1",
        ),
        ("elo0=0 elo1=5 model=bayesian", "unknown model 'bayesian'"),
        ("elo0=0 elo1=5 gamma=1", "unknown key 'gamma'"),
        ("elo0=0 elo1=5 elo0=1", "'elo0' given twice"),
        ("elo0=0 elo1=five", "'five' is not a number"),
        ("elo0=0", "elo1 is missing"),
        ("elo1=5", "elo0 is missing"),
        ("elo0=0 elo1=5 fast", "'fast' is not a key=value word"),
        ("elo0=0 elo1=5000", "elo1 must lie between -1000 and 1000"),
        ("elo0=nan elo1=5", "elo0 must lie between -1000 and 1000"),
    ] {
        let err = words.parse::<Sprt>().unwrap_err().to_string();
        assert!(
            err.starts_with("sprt: ") && err.contains(message),
            "{words}: {err}"
        );
    }
}

#[test]
fn cutechess_sprt_line() {
    let s = sprt(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized);
    // tournament.cpp: "SPRT: llr %.3g (%.1f%), lbound %.3g, ubound %.3g" + verdict.
    assert_eq!(
        s.cutechess_line(1.5349406482012959),
        "SPRT: llr 1.53 (52.1%), lbound -2.94, ubound 2.94"
    );
    assert_eq!(
        s.cutechess_line(2.9461034620690927),
        "SPRT: llr 2.95 (100.1%), lbound -2.94, ubound 2.94 - H1 was accepted"
    );
    assert_eq!(
        s.cutechess_line(-120.4),
        "SPRT: llr -120 (-4089.1%), lbound -2.94, ubound 2.94 - H0 was accepted"
    );
    // cutechess's own test: alpha = beta = 0.01 bounds print as ±4.6.
    let s = sprt(0.0, 10.0, 0.01, 0.01, SprtModel::Normalized);
    assert_eq!(
        s.cutechess_line(0.0),
        "SPRT: llr 0 (0.0%), lbound -4.6, ubound 4.6"
    );
    for (x, g) in [
        (0.000123456, "0.000123"),
        (0.0000123456, "1.23e-05"),
        (999.4, "999"),
        (999.6, "1e+03"),
        (1234.0, "1.23e+03"),
        (-0.5, "-0.5"),
        (2.0, "2"),
    ] {
        assert_eq!(format_g3(x), g, "{x}");
    }
}

#[test]
fn three_player_score() {
    // Points of one engine over 6 three-player games.
    let s = Score::from_points([1.0, 0.0, 0.5, 1.0 / 3.0, 0.0, 1.0]).unwrap();
    assert_eq!(s.games(), 6);
    assert_close("total", s.total(), 2.8333333333333333, 1e-15);
    let mean = 2.8333333333333333 / 6.0;
    assert_close("mean", s.mean().unwrap(), mean, 1e-15);
    // Population variance by hand: Σx² / n − mean².
    let sq = (1.0 + 0.0 + 0.25 + 1.0 / 9.0 + 0.0 + 1.0) / 6.0;
    let var = sq - mean * mean;
    assert_close("variance", s.variance().unwrap(), var, 1e-12);
    let margin = Z95 * (var / 6.0).sqrt();
    assert_close("margin", s.margin().unwrap(), margin, 1e-12);
    let (lo, hi) = s.interval().unwrap();
    assert_close("low", lo, mean - margin, 1e-12);
    assert_close("high", hi, (mean + margin).min(1.0), 1e-12);

    // A two-player W/D/L gives the same mean and standard error as the Elo estimate.
    let t = Trinomial::new(76, 123, 89);
    let points = std::iter::repeat_n(1.0, 76)
        .chain(std::iter::repeat_n(0.5, 123))
        .chain(std::iter::repeat_n(0.0, 89));
    let s = Score::from_points(points).unwrap();
    let e = t.elo().unwrap();
    assert_close("mean", s.mean().unwrap(), e.score, 1e-12);
    assert_close("se", s.standard_error().unwrap(), e.standard_error, 1e-9);

    // Always winning: interval clipped to [1, 1].
    let s = Score::from_points([1.0; 4]).unwrap();
    assert_eq!(s.interval(), Some((1.0, 1.0)));
    assert_eq!(Score::new().mean(), None);
    assert_eq!(Score::new().interval(), None);
    let mut s = Score::new();
    assert!(s.add(f64::NAN).is_err());
    assert!(s.add(1.5).is_err());
    assert!(s.add(-0.1).is_err());
    assert_eq!(s.games(), 0);
}
