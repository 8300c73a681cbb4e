//! The record format's small pieces: result strings, movetext words, tag names.

use super::read::{is_result_marker, movetext_token};
use super::*;

#[test]
fn points_read_and_write() {
    assert_eq!(points_string(&[1.0, 0.0]), "1-0");
    assert_eq!(points_string(&[0.5, 0.5]), "1/2-1/2");
    assert_eq!(points_string(&[0.5, 0.0, 0.5]), "1/2-0-1/2");
    assert_eq!(
        points_string(&[1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]),
        "1/3-1/3-1/3"
    );
    assert_eq!(parse_result("*", 3), Ok(None));
    assert_eq!(parse_result("0-1", 2), Ok(Some(vec![0.0, 1.0])));
    assert_eq!(parse_result("1/2-0-1/2", 3), Ok(Some(vec![0.5, 0.0, 0.5])));
    for bad in [
        "1-0",
        "2-0-0",
        "1/2-1/2-1/2",
        "a-b-c",
        "1/0-0-1",
        "--",
        "1-0-",
    ] {
        assert!(parse_result(bad, 3).is_err(), "{bad}");
    }
    assert!(parse_result("1-1", 2).unwrap_err().contains("add up to 1"));
}

#[test]
fn movetext_words() {
    assert_eq!(movetext_token("12."), None);
    assert_eq!(movetext_token("12..."), None);
    assert_eq!(movetext_token("12"), None);
    assert_eq!(movetext_token("$14"), None);
    assert_eq!(movetext_token("!?"), None);
    assert_eq!(movetext_token("1.e2e4"), Some("e2e4"));
    assert_eq!(movetext_token("3...d7-d5!?"), Some("d7-d5"));
    assert_eq!(movetext_token("out:2:time"), Some("out:2:time"));
    assert!(is_result_marker("1/2-1/2"));
    assert!(is_result_marker("1-0-0"));
    assert!(is_result_marker("*"));
    assert!(!is_result_marker("e2-e4"));
    assert!(!is_result_marker("1."));
    assert_eq!(setting_tag("region"), "Region");
    assert_eq!(setting_tag("max-plies"), "MaxPlies");
}
