//! French and English: the catalogues (web/i18n/*.ftl) have the same keys, every key the
//! pages and the server use is in both, and a request's language (the `lang` cookie, else
//! `Accept-Language`) chooses the language of the pages and of the API's refusals.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::StatusCode;
use fluent_bundle::FluentResource;
use myrmidon_server::i18n::{self, Lang};
use myrmidon_server::{App, Store};
use serde_json::{json, Value};

#[path = "common/http.rs"]
mod http;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The keys of a catalogue: its messages, and `message.attribute` for their attributes.
fn keys(lang: Lang) -> BTreeSet<String> {
    let source = std::fs::read_to_string(root().join(format!("web/i18n/{}.ftl", lang.code())))
        .expect("the catalogue reads");
    let resource = match FluentResource::try_new(source) {
        Ok(resource) => resource,
        Err((_, errors)) => panic!("web/i18n/{}.ftl: {errors:?}", lang.code()),
    };
    let mut keys = BTreeSet::new();
    for entry in resource.entries() {
        if let fluent_syntax::ast::Entry::Message(m) = entry {
            assert!(
                keys.insert(m.id.name.to_string()),
                "{}: {} twice",
                lang.code(),
                m.id.name
            );
            for attr in &m.attributes {
                keys.insert(format!("{}.{}", m.id.name, attr.id.name));
            }
        }
    }
    keys
}

#[test]
fn the_catalogues_have_the_same_keys() {
    let en = keys(Lang::En);
    let fr = keys(Lang::Fr);
    let only_en: Vec<_> = en.difference(&fr).collect();
    let only_fr: Vec<_> = fr.difference(&en).collect();
    assert!(only_en.is_empty(), "in en.ftl, not in fr.ftl: {only_en:?}");
    assert!(only_fr.is_empty(), "in fr.ftl, not in en.ftl: {only_fr:?}");
    assert!(en.len() > 100, "{}", en.len());
}

/// The files under `dir` (recursively) whose names end with one of `exts`.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            files(&path, exts, out);
        } else if exts.iter().any(|e| path.to_string_lossy().ends_with(e)) {
            out.push(path);
        }
    }
}

/// The string literals that follow `opener` in `text` (up to the closing quote): the keys in
/// `t('key'`, `data-i18n="key"`, `msg!("key"`.
fn literals_after(text: &str, opener: &str, quote: char) -> Vec<String> {
    text.match_indices(opener)
        .filter_map(|(at, _)| {
            let rest = &text[at + opener.len()..];
            rest.split_once(quote).map(|(key, _)| key.to_string())
        })
        .collect()
}

/// A `msg!` call of the server's sources.
struct MsgCall {
    file: String,
    key: String,
    /// (argument, its value's source text)
    args: Vec<(String, String)>,
}

/// Every `msg!` call of the server's sources.
fn server_messages() -> Vec<MsgCall> {
    let mut rust = Vec::new();
    files(&root().join("crates/server/src"), &[".rs"], &mut rust);
    let mut calls = Vec::new();
    for path in &rust {
        let text = std::fs::read_to_string(path).unwrap();
        for (at, _) in text.match_indices("msg!(") {
            // (rustfmt puts a long call's key on the next line)
            let rest = text[at + "msg!(".len()..].trim_start();
            if !rest.starts_with('"') {
                continue;
            }
            // the call's text to its closing parenthesis, split at its own commas
            let mut depth = 0;
            let mut parts = vec![String::new()];
            for c in rest.chars() {
                match c {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' if depth == 0 => break,
                    ')' | ']' | '}' => depth -= 1,
                    ',' if depth == 0 => {
                        parts.push(String::new());
                        continue;
                    }
                    _ => {}
                }
                parts.last_mut().unwrap().push(c);
            }
            let key = parts[0].trim().trim_matches('"').to_string();
            let args = parts[1..]
                .iter()
                .filter_map(|p| p.split_once('='))
                .map(|(name, value)| (name.trim().to_string(), value.trim().to_string()))
                .collect();
            calls.push(MsgCall {
                file: path.display().to_string(),
                key,
                args,
            });
        }
    }
    calls
}

#[test]
fn every_key_the_pages_and_the_server_use_is_in_both_catalogues() {
    let en = keys(Lang::En);
    let fr = keys(Lang::Fr);
    let mut used: Vec<(String, String)> = Vec::new();
    let mut sources = Vec::new();
    files(&root().join("web"), &[".js"], &mut sources);
    for path in &sources {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.display().to_string();
        // t('key'…) and t("key"…), but not the end of another name (import { t } …; at(…)).
        for opener in ["(t('", " t('", "{t('", "(t(\"", " t(\"", "{t(\""] {
            let quote = opener.chars().last().unwrap();
            for key in literals_after(&text, opener, quote) {
                used.push((name.clone(), key));
            }
        }
    }
    let mut pages = Vec::new();
    files(&root().join("web"), &[".html"], &mut pages);
    for path in &pages {
        let text = std::fs::read_to_string(path).unwrap();
        for opener in [
            "data-i18n=\"",
            "data-i18n-title=\"",
            "data-i18n-aria-label=\"",
            "data-i18n-placeholder=\"",
        ] {
            for key in literals_after(&text, opener, '"') {
                used.push((path.display().to_string(), key));
            }
        }
    }
    let mut server_keys = 0;
    for MsgCall { file, key, .. } in server_messages() {
        assert!(
            key.starts_with(i18n::SERVER_ONLY),
            "{file}: {key}: the server's messages are named {}…",
            i18n::SERVER_ONLY
        );
        server_keys += 1;
        used.push((file, key));
    }
    assert!(server_keys > 100, "msg!(…) found {server_keys} times");
    assert!(used.len() > 200, "{} keys used", used.len());
    let missing: Vec<_> = used
        .iter()
        .filter(|(_, key)| !en.contains(key) || !fr.contains(key))
        .collect();
    assert!(
        missing.is_empty(),
        "keys missing from a catalogue: {missing:?}"
    );
}

#[test]
fn the_pages_copy_compiles_every_message() {
    for lang in Lang::ALL {
        let all = i18n::compiled(lang, true);
        let pages = i18n::compiled(lang, false);
        assert!(pages.keys().all(|k| !k.starts_with(i18n::SERVER_ONLY)));
        let missing: Vec<_> = keys(lang)
            .into_iter()
            .filter(|k| !all.contains_key(k))
            .collect();
        assert!(
            missing.is_empty(),
            "{}: not compiled: {missing:?}",
            lang.code()
        );
        let text = Value::Object(all.clone()).to_string();
        // Only selections on a variable, only variables and terms: nothing the pages cannot read.
        assert!(!text.contains("{ ? }"), "{}: {text}", lang.code());
        // A plural: an array with a selection on $n.
        assert_eq!(
            all["lobby-moves"][0]["select"],
            json!("n"),
            "{}",
            lang.code()
        );
        assert!(all["lobby-moves"][0]["variants"]["one"].is_string());
        // An attribute: its own key.
        assert!(all["nav-first.title"].is_string());
    }
    // A selection on the players' grammatical number: "Aux Myrmides de jouer".
    assert_eq!(
        i18n::compiled(Lang::Fr, false)["status-to-move"][0]["select"],
        json!("number")
    );
    let to_move = |player: &str, number: &str| {
        let args = [("player", player.into()), ("number", number.into())];
        i18n::format(Lang::Fr, "status-to-move", &args)
    };
    assert_eq!(to_move("Myrmides", "plural"), "Aux Myrmides de jouer");
    assert_eq!(to_move("Blanc", "singular"), "À Blanc de jouer");
}

/// Every game of the registry has its words for people in French, in its own folder
/// (crates/rules/src/games/<folder>/fr.ftl): its name, summary, players, pieces, marked cells
/// and settings.
#[test]
fn every_game_has_its_french_texts_in_its_folder() {
    let fr = i18n::compiled(Lang::Fr, false);
    let en = i18n::compiled(Lang::En, false);
    let mut missing = Vec::new();
    for game in myrmidon_rules::registry::games() {
        let info = game.info();
        let id = info.id;
        let mut want = vec![format!("{id}-name"), format!("{id}-summary")];
        want.extend(info.players.iter().map(|p| i18n::game_key(id, "player", p)));
        want.extend(
            info.pieces
                .iter()
                .map(|p| format!("{id}-piece-{}", p.letter)),
        );
        want.extend(
            info.marked
                .iter()
                .map(|m| i18n::game_key(id, "cell", m.name)),
        );
        for s in info.settings {
            want.push(i18n::game_key(id, "setting", s.name));
            for v in s.values {
                want.push(i18n::game_key(id, "setting", &format!("{} {v}", s.name)));
            }
            if !s.help.is_empty() {
                want.push(i18n::game_key(id, "setting", &format!("{} help", s.name)));
            }
        }
        missing.extend(want.into_iter().filter(|k| !fr.contains_key(k)));
        // English is the games' own words: no catalogue repeats them.
        assert!(!en.contains_key(&format!("{id}-name")), "{id}");
    }
    assert!(missing.is_empty(), "fr: missing game texts: {missing:?}");
    assert_eq!(
        i18n::game_key("reines", "cell", "Ponte of the Termides"),
        "reines-cell-ponte-of-the-termides"
    );
}

/// Every way a game can end has its words in both catalogues (`reason-<id>`), the English
/// ones the rules library's own, so that the pages say an outcome as the server does.
#[test]
fn every_reason_of_an_end_has_its_words() {
    let en = i18n::compiled(Lang::En, false);
    let fr = i18n::compiled(Lang::Fr, false);
    let mut reasons: Vec<myrmidon_rules::Reason> = myrmidon_rules::Reason::COMMON.to_vec();
    for game in myrmidon_rules::registry::games() {
        reasons.extend(game.info().reasons.iter().copied());
    }
    for reason in reasons {
        let key = format!("reason-{}", reason.id);
        assert_eq!(en.get(&key), Some(&json!(reason.text)), "{key}");
        assert!(fr.contains_key(&key), "fr: {key}");
    }
}

/// A sentence's subject as the start of a line: "the Termides win" → "The Termides win".
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Every player of every game says how a sentence takes its name, in English (the rules'
/// `GameInfo::players_number`, sent with the games and with their states) and in French (the
/// `.number` of its French name), and the outcomes read with it: "White wins", "The Termides
/// win", "Les Myrmides gagnent", in English as the rules' own sentences say it.
#[tokio::test]
async fn every_player_s_name_has_its_number_and_the_outcomes_read_with_it() {
    use myrmidon_rules::{Elimination, GrammaticalNumber, Outcome, Reason};
    let fr = i18n::compiled(Lang::Fr, false);
    let numbers = [json!("singular"), json!("plural")];
    let app = app().await;
    let (status, _, body) = call(&app, "GET", "/api/games", &[], None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let listed: Value = serde_json::from_str(&body).unwrap();
    let mut seen = Vec::new();
    for game in myrmidon_rules::registry::games() {
        let info = game.info();
        let id = info.id;
        let english = json!(info.players_number);
        assert!(numbers.contains(&english), "{id}: {english}");
        let entry = listed
            .as_array()
            .and_then(|games| games.iter().find(|g| g["id"] == id))
            .unwrap_or_else(|| panic!("{id} is listed"));
        assert_eq!(entry["players_number"], english, "{id}: GET /api/games");
        let seats = vec!["human"; info.players.len()];
        let new = json!({"game": id, "seats": seats});
        let (status, _, body) = call(&app, "POST", "/api/games", &[], Some(new)).await;
        assert_eq!(status, StatusCode::CREATED, "{id}: {body}");
        let created: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            created["state"]["players_number"], english,
            "{id}: the state"
        );
        seen.push(info.players_number);
        let mut reasons = Reason::COMMON.to_vec();
        reasons.extend(info.reasons.iter().copied());
        let number = english.as_str().unwrap();
        for (seat, name) in info.players.iter().enumerate() {
            let key = format!("{}.number", i18n::game_key(id, "player", name));
            assert!(
                fr.get(&key).is_some_and(|n| numbers.contains(n)),
                "fr: {key} is singular or plural: {:?}",
                fr.get(&key)
            );
            for &reason in &reasons {
                let words = i18n::format(Lang::En, &format!("reason-{}", reason.id), &[]);
                let args = [
                    ("player", (*name).into()),
                    ("number", number.into()),
                    ("reason", words.into()),
                ];
                let win = Outcome::Win {
                    winner: seat as u8,
                    reason,
                };
                assert_eq!(
                    i18n::format(Lang::En, "outcome-win", &args),
                    capitalised(&win.describe(info.players, info.players_number)),
                    "{id}"
                );
                let out = Elimination {
                    player: seat as u8,
                    reason,
                    ply: 0,
                };
                assert_eq!(
                    i18n::format(Lang::En, "outcome-out", &args),
                    out.describe(info.players, info.players_number),
                    "{id}"
                );
            }
        }
    }
    // Both kinds of names are there: colours and peoples.
    assert!(
        seen.contains(&GrammaticalNumber::Singular) && seen.contains(&GrammaticalNumber::Plural)
    );
    assert_eq!(
        json!(
            myrmidon_rules::registry::find("reines")
                .unwrap()
                .info()
                .players_number
        ),
        json!("plural")
    );
    let say = |lang, key, player: &str, number: &str| {
        let args = [
            ("player", player.into()),
            ("number", number.into()),
            (
                "reason",
                i18n::format(lang, "reason-resignation", &[]).into(),
            ),
        ];
        i18n::format(lang, key, &args)
    };
    for (lang, key, player, number, said) in [
        (
            Lang::En,
            "outcome-win",
            "Myrmides",
            "plural",
            "The Myrmides win by resignation",
        ),
        (
            Lang::En,
            "outcome-win",
            "White",
            "singular",
            "White wins by resignation",
        ),
        (
            Lang::En,
            "outcome-out",
            "Red",
            "singular",
            "Red is out by resignation",
        ),
        (
            Lang::Fr,
            "outcome-win",
            "Myrmides",
            "plural",
            "Les Myrmides gagnent par abandon",
        ),
        (
            Lang::Fr,
            "outcome-win",
            "Blancs",
            "plural",
            "Les Blancs gagnent par abandon",
        ),
        (
            Lang::Fr,
            "outcome-win",
            "Blanc",
            "singular",
            "Blanc gagne par abandon",
        ),
        (
            Lang::Fr,
            "outcome-out",
            "Rouges",
            "plural",
            "les Rouges sont hors jeu par abandon",
        ),
    ] {
        assert_eq!(say(lang, key, player, number), said, "{key} {player}");
    }
    // The French names of the players are plural ("les Blancs"), as the catalogue says them.
    assert_eq!(fr["ackenhead-player-white.number"], json!("plural"));
    assert_eq!(fr["reines-player-myrmides.number"], json!("plural"));
}

/// French messages that name a player (`$player`) without choosing their words by the name's
/// grammatical number, because there the name stands alone, not as a subject nor after "de":
/// a label before a colon ("Noirs : l'ordinateur réfléchit…", "coup 3, Noirs : e4"), in
/// parentheses ("À vous de jouer (Noirs)"), or called ("Noirs, acceptez-vous ?").
const FR_NAME_STANDS_ALONE: &[&str] = &[
    "status-thinking",
    "move-label",
    "status-your-turn",
    "draw-offer-for",
    "draw-declined-computer",
    "do-you-accept",
    "an-scores-mover-named",
];

/// Does a compiled message (`i18n::compiled`) select on `$name` at its top level?
fn selects_on(message: &Value, name: &str) -> bool {
    message
        .as_array()
        .is_some_and(|parts| parts.iter().any(|p| p["select"] == name))
}

/// In French a player's name takes its article by its number: "Les Noirs ont perdu", "Pion
/// Bérolina des Noirs" ("de" + "les"), but "Rouge a perdu", "Pion de Rouge". So every French
/// message that names a player selects on `$number` (the names' `.number`, or the server's
/// `players_number`), but those where the name stands alone (FR_NAME_STANDS_ALONE) and a
/// game's own lines, whose names all have the same number (checked here); a list of names is
/// made of items that carry their preposition ("en attente des Rouges et des Verts"); and
/// every call of the pages that names `player:` itself names its `number:` too.
#[test]
fn every_french_sentence_that_names_a_player_takes_the_name_s_number() {
    let fr = i18n::compiled(Lang::Fr, true);
    let games: Vec<_> = myrmidon_rules::registry::games()
        .iter()
        .map(|g| g.info())
        .collect();
    // (the game whose id and a dash start the key; the longest, should one id start another)
    let game_of = |key: &str| {
        games
            .iter()
            .filter(|info| key.starts_with(&format!("{}-", info.id)))
            .max_by_key(|info| info.id.len())
    };
    let mut naming = Vec::new();
    let mut wrong = Vec::new();
    for (key, message) in &fr {
        if !message.to_string().contains("{ $player }") || key.contains('.') {
            continue;
        }
        naming.push(key.clone());
        if selects_on(message, "number") || FR_NAME_STANDS_ALONE.contains(&key.as_str()) {
            continue;
        }
        if let Some(info) = game_of(key) {
            // A game's own line: its French names all of one number, which its words know.
            let numbers: BTreeSet<String> = info
                .players
                .iter()
                .map(|p| {
                    fr[&format!("{}.number", i18n::game_key(info.id, "player", p))].to_string()
                })
                .collect();
            if numbers.len() == 1 {
                continue;
            }
        }
        wrong.push(key.clone());
    }
    assert!(
        wrong.is_empty(),
        "French messages naming a player without a selection on $number: {wrong:?}"
    );
    // The list is of messages that do name a player, and does not stand for the others.
    for key in FR_NAME_STANDS_ALONE {
        assert!(naming.iter().any(|k| k == key), "{key} names no player");
        assert!(!selects_on(&fr[*key], "number"), "{key} selects: not alone");
    }
    for key in [
        "piece-of",
        "clock-label",
        "captured-label",
        "draw-offers",
        "claim-win",
    ] {
        assert!(selects_on(&fr[key], "number"), "{key}");
    }
    assert!(naming.len() > 25, "{naming:?}");
    // A list of names is not put after "de" (its items say "des Noirs" / "de Rouge").
    for (key, message) in &fr {
        let text = message.to_string();
        assert!(
            !text.contains("de { $names }") && !text.contains("des { $names }"),
            "{key}: {text}"
        );
    }
    let say = |key: &str, args: &[(&'static str, &str)]| {
        let args: Vec<_> = args.iter().map(|(k, v)| (*k, (*v).into())).collect();
        i18n::format(Lang::Fr, key, &args)
    };
    let plural = |key: &str, player: &str| {
        say(
            key,
            &[
                ("player", player),
                ("number", "plural"),
                ("piece", "Pion Bérolina"),
                ("pieces", "Léo"),
            ],
        )
    };
    let singular = |key: &str, player: &str| {
        say(
            key,
            &[
                ("player", player),
                ("number", "singular"),
                ("piece", "Fourmi"),
                ("pieces", "Léo"),
            ],
        )
    };
    assert_eq!(plural("piece-of", "Noirs"), "Pion Bérolina des Noirs");
    assert_eq!(singular("piece-of", "Rouge"), "Fourmi de Rouge");
    assert_eq!(plural("clock-label", "Noirs"), "pendule des Noirs");
    assert_eq!(singular("clock-label", "Rouge"), "pendule de Rouge");
    assert_eq!(
        plural("captured-label", "Noirs"),
        "Les Noirs ont perdu : Léo"
    );
    assert_eq!(singular("captured-label", "Blanc"), "Blanc a perdu : Léo");
    assert_eq!(
        plural("draw-offers", "Myrmides"),
        "Les Myrmides proposent la nulle."
    );
    assert_eq!(plural("rules-ex-to-move", "Blancs"), "Trait aux Blancs.");
    assert_eq!(plural("awaited-player", "Verts"), "des Verts");
    assert_eq!(
        say(
            "takeback-waiting",
            &[(
                "names",
                &say(
                    "names-and",
                    &[
                        ("first", &plural("awaited-player", "Rouges")),
                        ("last", &plural("awaited-player", "Verts"))
                    ]
                )
            )]
        ),
        "Reprise demandée : en attente des Rouges et des Verts."
    );
    assert_eq!(
        say("rematch-waiting", &[("names", &say("awaited-answer", &[]))]),
        "Revanche proposée : en attente de la réponse."
    );
    // The pages: a call that names the player names the number (else it spreads playerArgs).
    let mut sources = Vec::new();
    files(&root().join("web"), &[".js"], &mut sources);
    let mut calls = 0;
    for path in &sources {
        let text = std::fs::read_to_string(path).unwrap();
        for (at, _) in text.match_indices("t('") {
            let rest = &text[at + 3..];
            let Some((key, _)) = rest.split_once('\'') else {
                continue;
            };
            if !naming.iter().any(|k| k == key) {
                continue;
            }
            // the call's arguments, to its closing parenthesis
            let mut depth = 0;
            let args: String = rest
                .chars()
                .take_while(|&c| {
                    depth += match c {
                        '(' | '{' | '[' => 1,
                        ')' | '}' | ']' => -1,
                        _ => 0,
                    };
                    depth >= 0
                })
                .collect();
            calls += 1;
            assert!(
                !args.contains("player:") || args.contains("number:"),
                "{}: t('{key}…) names the player, not the number: {args}",
                path.display()
            );
        }
    }
    assert!(calls > 25, "{calls} calls of messages naming a player");
}

#[test]
fn a_request_s_language_is_its_cookie_else_accept_language_else_english() {
    let lang = |cookie: Option<&str>, accept: Option<&str>| {
        let mut headers = axum::http::HeaderMap::new();
        if let Some(c) = cookie {
            headers.insert("cookie", c.parse().unwrap());
        }
        if let Some(a) = accept {
            headers.insert("accept-language", a.parse().unwrap());
        }
        i18n::negotiate(&headers)
    };
    assert_eq!(lang(None, None), Lang::En);
    assert_eq!(lang(None, Some("fr-FR,fr;q=0.9,en;q=0.8")), Lang::Fr);
    assert_eq!(lang(None, Some("de-DE, en;q=0.5, fr;q=0.8")), Lang::Fr);
    assert_eq!(lang(None, Some("de, en;q=0.1")), Lang::En);
    assert_eq!(lang(None, Some("de")), Lang::En);
    assert_eq!(lang(None, Some("fr;q=0, en")), Lang::En);
    assert_eq!(lang(Some("theme=dark; lang=fr"), Some("en")), Lang::Fr);
    assert_eq!(lang(Some("lang=en"), Some("fr")), Lang::En);
    assert_eq!(lang(Some("lang=xx"), Some("fr")), Lang::Fr);
}

async fn app() -> Arc<App> {
    let store = Store::open("sqlite::memory:")
        .await
        .expect("the database opens");
    App::new(store, Duration::from_millis(20), 2)
}

async fn call(
    app: &Arc<App>,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let body = body.map_or_else(Body::empty, |b| Body::from(b.to_string()));
    let (status, headers, bytes) = http::request(app, method, path, headers, body).await;
    (status, headers, String::from_utf8(bytes.to_vec()).unwrap())
}

#[tokio::test]
async fn refusals_come_with_their_key_in_the_request_s_language() {
    let app = app().await;
    let json = |body: &str| serde_json::from_str::<Value>(body).unwrap();
    // No language asked: English, with the key.
    let (status, _, body) = call(&app, "GET", "/api/nothing", &[], None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let v = json(&body);
    assert_eq!(v["key"], "api-no-endpoint");
    assert_eq!(v["error"], "no such API endpoint (see docs/api.md)");
    assert!(v.get("args").is_none(), "{v}");
    // The browser's French.
    let fr = [("accept-language", "fr-FR,fr;q=0.9,en;q=0.8")];
    let (_, headers, body) = call(&app, "GET", "/api/nothing", &fr, None).await;
    let v = json(&body);
    assert_eq!(v["key"], "api-no-endpoint");
    assert_eq!(
        v["error"],
        "cette adresse de l'API n'existe pas (voir docs/api.md)"
    );
    assert!(headers["vary"]
        .to_str()
        .unwrap()
        .contains("Accept-Language"));
    // A refusal with arguments: the same arguments, the message in French.
    let bad_clock = json!({"game": "ackenhead", "seats": ["human", "human"],
        "clock": {"minutes": 500, "increment": 0}});
    let (status, _, body) = call(&app, "POST", "/api/games", &fr, Some(bad_clock.clone())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let v = json(&body);
    assert_eq!(v["key"], "api-clock-too-long");
    assert!(
        v["error"].as_str().unwrap().starts_with("pendule : "),
        "{v}"
    );
    let (_, _, body) = call(
        &app,
        "POST",
        "/api/games",
        &fr,
        Some(json!({"game": "nosuchgame", "seats": []})),
    )
    .await;
    let v = json(&body);
    assert_eq!(v["key"], "api-unknown-game");
    assert!(
        v["error"].as_str().unwrap().starts_with("jeu inconnu : "),
        "{v}"
    );
    assert!(
        v["args"]["detail"].as_str().unwrap().contains("nosuchgame"),
        "{v}"
    );
    // The cookie wins over the browser's language, either way.
    let (_, _, body) = call(
        &app,
        "POST",
        "/api/games",
        &[("accept-language", "en-GB"), ("cookie", "lang=fr")],
        Some(bad_clock.clone()),
    )
    .await;
    assert!(json(&body)["error"]
        .as_str()
        .unwrap()
        .starts_with("pendule"));
    let (_, _, body) = call(
        &app,
        "POST",
        "/api/games",
        &[("accept-language", "fr"), ("cookie", "lang=en")],
        Some(bad_clock),
    )
    .await;
    assert_eq!(
        json(&body)["error"],
        "clock: at most 180 minutes and 180 seconds of increment"
    );
    // What the web framework refuses itself (a path that cannot be read, a method an address
    // does not take) is a keyed refusal too, in the request's language.
    let (status, _, body) = call(&app, "GET", "/api/games/%FF%FE", &fr, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let v = json(&body);
    assert_eq!(v["key"], "api-bad-request", "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("la requête est illisible : "),
        "{v}"
    );
    let (status, headers, body) = call(&app, "DELETE", "/api/games", &[], None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{body}");
    let v = json(&body);
    assert_eq!(v["key"], "api-bad-request", "{v}");
    assert_eq!(
        v["error"], "the request cannot be read: Method Not Allowed",
        "{v}"
    );
    assert!(headers.contains_key("allow"), "{headers:?}");
    // A plural, through a game.
    let (_, _, body) = call(
        &app,
        "POST",
        "/api/games",
        &[],
        Some(json!({"game": "ackenhead", "seats": ["human", "human"]})),
    )
    .await;
    let body_of_created = body;
    let id = json(&body_of_created)["id"].as_str().unwrap().to_string();
    let (status, _, body) = call(&app, "GET", &format!("/api/games/{id}?at=3"), &fr, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let v = json(&body);
    assert_eq!(v["key"], "api-at-beyond");
    assert_eq!(v["args"], json!({"at": 3, "played": 0}));
    assert_eq!(v["error"], "at=3 : la partie ne compte encore que 0 coup");
    // A move after the end: the refusal in French names no English outcome (the state says
    // how the game ended, in the reader's language).
    let token = json(&body_of_created)["tokens"][0]
        .as_str()
        .unwrap()
        .to_string();
    let (status, _, body) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        &[],
        Some(json!({"token": token, "seat": 0})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        &fr,
        Some(json!({"token": token, "move": "e2-e4"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let v = json(&body);
    assert_eq!(v["key"], "api-move-game-over");
    assert_eq!(v["error"], "coup \"e2-e4\" : la partie est finie");
}

#[tokio::test]
async fn pages_are_served_in_the_request_s_language() {
    let app = app().await;
    for path in ["/", "/game/abc", "/rules/ackenhead", "/analysis"] {
        let (status, headers, html) = call(&app, "GET", path, &[], None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(html.contains("<html lang=\"en\">"), "{path}");
        assert!(html.contains("<script id=\"i18n\" type=\"application/json\">{\"lang\":\"en\""));
        assert!(
            headers["vary"].to_str().unwrap().contains("Cookie"),
            "{path}"
        );
        // The switch in every header.
        assert!(html.contains("data-lang=\"fr\""), "{path}");
        let (_, _, html) = call(&app, "GET", path, &[("accept-language", "fr")], None).await;
        assert!(html.contains("<html lang=\"fr\">"), "{path}");
        assert!(
            html.contains("\"home-choose\":\"Choisissez un jeu\""),
            "{path}"
        );
        assert!(
            !html.contains("\"api-no-endpoint\""),
            "{path}: server-only messages"
        );
        let (_, _, html) = call(
            &app,
            "GET",
            path,
            &[("accept-language", "fr"), ("cookie", "lang=en")],
            None,
        )
        .await;
        assert!(html.contains("<html lang=\"en\">"), "{path}");
    }
    // The game page keeps its boot data after the catalogue.
    let (_, _, html) = call(&app, "GET", "/game/abc", &[], None).await;
    assert!(html.contains("<script id=\"boot\""));
    // The compiled catalogues, and the catalogues themselves.
    let (status, _, body) = call(&app, "GET", "/i18n/fr.json", &[], None).await;
    assert_eq!(status, StatusCode::OK);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["lang"], "fr");
    assert_eq!(
        v["messages"]["api-no-endpoint"],
        "cette adresse de l'API n'existe pas (voir docs/api.md)"
    );
    let (status, _, body) = call(&app, "GET", "/i18n/en.ftl", &[], None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("home-choose = Choose a game"));
    let (status, _, _) = call(&app, "GET", "/i18n/de.json", &[], None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// The html of a rules page without its diagrams (the ```board blocks: position strings).
fn prose(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find("<pre><code class=\"language-board") {
        out.push_str(&rest[..at]);
        rest = rest[at..]
            .split_once("</code></pre>")
            .map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out
}

#[tokio::test]
async fn every_rules_page_is_served_in_both_languages_for_people() {
    let app = app().await;
    let json = |body: &str| serde_json::from_str::<Value>(body).unwrap();
    for game in myrmidon_rules::registry::games() {
        let id = game.info().id;
        let path = format!("/api/rules/{id}");
        let mut pages = Vec::new();
        for lang in Lang::ALL {
            let code = lang.code();
            // The browser's language, and `?lang=`, which wins over it.
            let (status, _, by_header) =
                call(&app, "GET", &path, &[("accept-language", code)], None).await;
            assert_eq!(status, StatusCode::OK, "{id} {code}: {by_header}");
            let other = if lang == Lang::En { "fr" } else { "en" };
            let (_, _, by_query) = call(
                &app,
                "GET",
                &format!("{path}?lang={code}"),
                &[("accept-language", other)],
                None,
            )
            .await;
            let (a, b) = (json(&by_header), json(&by_query));
            assert_eq!(a, b, "{id} {code}");
            assert_eq!(a["lang"], code, "{id}");
            assert_eq!(a["game"], id);
            let html = a["html"].as_str().unwrap();
            assert!(html.starts_with("<h1>"), "{id} {code}: {}", &html[..60]);
            assert!(
                html.matches("<code class=\"language-board").count() >= 3,
                "{id} {code}: diagrams"
            );
            assert!(
                html.contains("show: "),
                "{id} {code}: a piece's moves drawn"
            );
            // Written for people: nothing only programs need.
            let text = prose(html);
            for word in [
                "For programs",
                "perft",
                "Perft",
                "MAX_MOVES",
                "Fairy-Stockfish",
                "quiescence",
                "(R)",
                "ruling",
                "hash",
                "src/",
            ] {
                assert!(!text.contains(word), "{id} {code}: \"{word}\" on the page");
            }
            assert!(
                text.len() < 16_000,
                "{id} {code}: {} bytes of text",
                text.len()
            );
            pages.push(text);
        }
        assert_ne!(pages[0], pages[1], "{id}: the French page is another text");
    }
    // No language asked: English.
    let (_, _, body) = call(&app, "GET", "/api/rules/ackenhead", &[], None).await;
    assert_eq!(json(&body)["lang"], "en");
    // The French page uses the original text's words.
    let (_, _, body) = call(&app, "GET", "/api/rules/antchess3?lang=fr", &[], None).await;
    let html = json(&body)["html"].as_str().unwrap().to_string();
    for word in ["démantibule", "Super-Fourmi", "fourmilière"] {
        assert!(html.contains(word), "{word}");
    }
    // A language the app does not have: refused, with its key.
    let (status, _, body) = call(&app, "GET", "/api/rules/reines?lang=de", &[], None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let v = json(&body);
    assert_eq!(v["key"], "api-rules-lang");
    assert!(v["error"].as_str().unwrap().contains("de"), "{v}");
}

/// The lines of facts of chosen positions of every game, in English as a page and a terminal
/// (`myrmidon play`) write them: their exact words.
#[test]
fn the_lines_of_facts_in_english() {
    let cases: &[(&str, Option<&str>, &[&str])] = &[
        (
            "ackenhead",
            Some("4k3/8/8/1pP5/8/8/8/4K3 w - b5c6 7 30"),
            &[
                "move 30, 7 plies without capture or pawn move",
                "en passant possible on c6",
            ],
        ),
        (
            "ackenhead",
            Some("4k3/8/8/8/4p3/8/8/K3C3 b - - 1 1"),
            &["move 1, 1 ply without capture or pawn move", "check"],
        ),
        (
            "epaminondas",
            None,
            &[
                "On the far row: White 0 (rank 12), Black 0 (rank 1)",
                "Pieces: White 28, Black 28",
            ],
        ),
        (
            "antchess3",
            None,
            &[
                "Move 1",
                "Queens: Black g1, Red a7, Green m7 (anthill g7)",
                "Passes in a row: 0 (draw at 3)",
                "Quiet plies: 0 (draw at 150)",
            ],
        ),
        (
            "reines",
            None,
            &[
                "Region: neutral (the Termides hold a1 and move first)",
                "Ponte, Termides (b2): no Worker pending",
                "Ponte, Myrmides (g7): no Worker pending",
                "Unmoved Workers (may step two): Termides d2 c3 b4, Myrmides g5 f6 e7",
                "Quiet plies: 0 of 100; move 1",
            ],
        ),
        (
            "reines",
            Some("7q/6s1/1s6/8/8/4C3/8/Q7 b - -/01 0 2"),
            &[
                "Region: neutral or animist (the Termides hold a1 and move first)",
                "Ponte, Termides (b2): no Worker pending",
                "Ponte, Myrmides (g7): 2 Workers pending (counters 0 1); the first comes back \
                     at the start of their next turn if g7 is free then (occupied now), the \
                     others one a turn after",
                "Unmoved Workers (may step two): Termides none, Myrmides none",
                "Quiet plies: 0 of 100; move 2",
            ],
        ),
        (
            "reines",
            Some("7q/8/8/8/8/8/8/QC6 b - 1/- 0 1"),
            &[
                "Region: neutral or animist (the Termides hold a1 and move first)",
                "Ponte, Termides (b2): 1 Worker pending (counter 1); it comes back right \
                     after this move, at the start of their turn",
                "Ponte, Myrmides (g7): no Worker pending",
                "Unmoved Workers (may step two): Termides none, Myrmides none",
                "Quiet plies: 0 of 100; move 1",
            ],
        ),
    ];
    for &(id, position, expected) in cases {
        let game = myrmidon_rules::registry::find(id).unwrap();
        let record = match position {
            Some(p) => game.new_game_at(p).unwrap(),
            None => game.new_game(&myrmidon_rules::Settings::new()).unwrap(),
        };
        assert_eq!(i18n::info_texts(Lang::En, &*record), expected, "{id}");
    }
}

/// The lines of facts beside the board (`info`) are messages of the games' catalogues
/// (crates/rules/src/games/<folder>/en.ftl and fr.ftl): every line the games of the registry
/// show in games of random moves is in both languages, with every argument it uses, and
/// both languages have the same such messages.
#[test]
fn every_line_of_facts_is_in_both_languages() {
    let en = i18n::compiled(Lang::En, false);
    let fr = i18n::compiled(Lang::Fr, false);
    let mut shown = BTreeSet::new();
    for game in myrmidon_rules::registry::games() {
        let info = game.info();
        for seed in 1..=12u64 {
            let mut record = game
                .new_game(&myrmidon_rules::Settings::new())
                .expect("a new game");
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            for _ in 0..200 {
                let Value::Array(lines) =
                    serde_json::to_value(myrmidon_server::views::info_messages(&*record))
                        .expect("messages serialise")
                else {
                    panic!("{}: the facts are not a list", info.id)
                };
                assert!(!lines.is_empty(), "{}: no facts", info.id);
                for lang in Lang::ALL {
                    let texts = i18n::info_texts(lang, &*record);
                    assert_eq!(texts.len(), lines.len(), "{}", info.id);
                    for (text, line) in texts.iter().zip(&lines) {
                        assert!(
                            !text.contains('{') && !text.contains("-info-") && !text.is_empty(),
                            "{} {}: {line} is {text:?}",
                            info.id,
                            lang.code()
                        );
                    }
                }
                for line in &lines {
                    let key = line["key"].as_str().unwrap().to_string();
                    assert!(key.contains("-info-"), "{key}");
                    for l in std::iter::once(line).chain(
                        line["args"]
                            .as_object()
                            .unwrap()
                            .values()
                            .filter_map(Value::as_array)
                            .flatten(),
                    ) {
                        shown.insert(l["key"].as_str().unwrap().to_string());
                    }
                }
                let moves = record.legal_moves();
                if moves.is_empty() || record.outcome().is_some() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                record
                    .play(&moves[(x % moves.len() as u64) as usize].text)
                    .expect("a legal move");
            }
        }
    }
    let info_keys = |messages: &serde_json::Map<String, Value>| -> BTreeSet<String> {
        messages
            .keys()
            .filter(|k| k.contains("-info-"))
            .cloned()
            .collect()
    };
    let missing: Vec<_> = shown
        .iter()
        .filter(|k| !en.contains_key(*k) || !fr.contains_key(*k))
        .collect();
    assert!(missing.is_empty(), "not in both languages: {missing:?}");
    assert_eq!(info_keys(&en), info_keys(&fr));
    assert!(shown.len() >= 15, "{shown:?}");
}

/// The refusals whose argument (`msg!(key, arg = …)`) is a player of the game, given as
/// `Arg::player`: written in the reader's words with `$number`.
const PLAYER_REFUSALS: &[(&str, &str)] = &[
    ("api-computer-turn", "seat"),
    ("api-seat-open", "seat"),
    ("api-not-your-turn", "seat"),
    ("api-time-ran-out", "seat"),
    ("api-draw-no-offer", "seat"),
    ("api-seat-taken", "name"),
    ("api-seat-not-open", "name"),
    ("api-join-changed", "name"),
    ("api-seat-out", "name"),
    ("api-not-your-seat", "name"),
    ("api-seat-claimed", "name"),
    ("api-claim-early", "name"),
];

/// Refusals with an argument named like a player that is not one: an account's name, a
/// setting's.
const NAMES_NOT_PLAYERS: &[(&str, &str)] =
    &[("api-no-user", "name"), ("api-setting-not-string", "name")];

/// Of the player refusals, those where the name stands alone, in parentheses: "la place 1
/// (Noirs) …", the same words whatever its number.
const PLAYER_IN_PARENTHESES: &[&str] = &[
    "api-computer-turn",
    "api-not-your-turn",
    "api-seat-taken",
    "api-seat-not-open",
    "api-join-changed",
    "api-seat-out",
    "api-not-your-seat",
    "api-seat-claimed",
];

/// Every refusal that names a player of the game (whose seat is open, whose time ran out,
/// who has no offer to accept…) names it as the reader's language does, for every player of
/// every game: the game's French name, agreeing with its number ("la place des Blancs", "les
/// Noirs n'ont plus de temps", never "de les" nor an English name), the English name as
/// English takes it ("White's seat", "the Termides' seat"). The server's sources give these
/// messages a player (`Arg::player`), and every argument named like a player is one of them or
/// is known not to be a player.
#[test]
fn every_refusal_that_names_a_player_names_it_in_the_reader_s_words() {
    use myrmidon_server::i18n::Arg;
    // The sources: each argument whose value is a seat's name is a listed player argument.
    let calls = server_messages();
    assert!(calls.len() > 50, "{} msg! calls", calls.len());
    let mut found = BTreeSet::new();
    for MsgCall { key, args, .. } in &calls {
        for (arg, value) in args {
            // a name (`name`, `name.as_str()`…), or a player read from the game
            let named = value == "name" || value.starts_with("name.");
            let read = ["seat_player(", "acting_seat(", "player_names", "players["]
                .iter()
                .any(|p| value.contains(p));
            if !named && !read {
                continue;
            }
            let pair = (key.as_str(), arg.as_str());
            if NAMES_NOT_PLAYERS.contains(&pair) {
                continue;
            }
            assert!(
                PLAYER_REFUSALS.contains(&pair),
                "msg!({key:?}, {arg} = {value}): a player? add it to PLAYER_REFUSALS"
            );
            found.insert(pair);
        }
    }
    for pair in PLAYER_REFUSALS {
        assert!(found.contains(pair), "{pair:?}: no such msg! call");
    }
    let fr = i18n::compiled(Lang::Fr, true);
    let en = i18n::compiled(Lang::En, true);
    let english_names: BTreeSet<&str> = myrmidon_rules::registry::games()
        .iter()
        .flat_map(|g| g.info().players.iter().copied())
        .collect();
    let mut checked = 0;
    for &(key, arg) in PLAYER_REFUSALS {
        let alone = PLAYER_IN_PARENTHESES.contains(&key);
        for (lang, catalogue) in [(Lang::Fr, &fr), (Lang::En, &en)] {
            let message = catalogue[key].to_string();
            assert!(
                message.contains(&format!("{{ ${arg} }}")),
                "{key}: {message}"
            );
            assert_eq!(
                selects_on(&catalogue[key], "number"),
                !alone,
                "{} {key}: selects on $number unless the name stands alone: {message}",
                lang.code()
            );
        }
        for game in myrmidon_rules::registry::games() {
            let info = game.info();
            for (seat, name) in info.players.iter().enumerate() {
                let mut args = vec![
                    (arg, Arg::player(info, name)),
                    ("move", "\"e4\"".into()),
                    ("seconds", 5.into()),
                    ("action", "accept".into()),
                ];
                if arg != "seat" {
                    args.push(("seat", seat.into()));
                }
                let french_key = i18n::game_key(info.id, "player", name);
                let french = fr[&french_key].as_str().unwrap();
                for lang in Lang::ALL {
                    let text = i18n::format(lang, key, &args);
                    let said = if lang == Lang::Fr { french } else { name };
                    let words: Vec<&str> = text
                        .split(|c: char| !c.is_alphanumeric())
                        .filter(|w| !w.is_empty())
                        .collect();
                    assert!(words.contains(&said), "{key} {}: {text}", info.id);
                    if alone {
                        assert!(text.contains(&format!("({said})")), "{key}: {text}");
                    }
                    if lang == Lang::Fr {
                        // No English name (where the French one differs), no "de les".
                        for english in &english_names {
                            assert!(
                                english == &french || !words.contains(english),
                                "{key} {}: {text}",
                                info.id
                            );
                        }
                        for wrong in ["de les ", "de le ", "à les ", "à le ", "de des "] {
                            assert!(!text.contains(wrong), "{key} {}: {text}", info.id);
                        }
                    } else {
                        assert!(!text.contains("s's "), "{key} {}: {text}", info.id);
                    }
                    assert!(!text.contains("{"), "{key}: {text}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 200, "{checked}");
    // As they read.
    let ackenhead = myrmidon_rules::registry::find("ackenhead").unwrap().info();
    let reines = myrmidon_rules::registry::find("reines").unwrap().info();
    let say = |lang, key, player: Arg| {
        i18n::format(
            lang,
            key,
            &[
                ("seat", player),
                ("move", "\"e4\"".into()),
                ("action", "accept".into()),
            ],
        )
    };
    for (lang, key, player, said) in [
        (
            Lang::Fr,
            "api-seat-open",
            Arg::player(ackenhead, "White"),
            "la place des Blancs est libre : personne ne l'a encore prise",
        ),
        (
            Lang::En,
            "api-seat-open",
            Arg::player(ackenhead, "White"),
            "White's seat is open: nobody has joined it yet",
        ),
        (
            Lang::En,
            "api-seat-open",
            Arg::player(reines, "Termides"),
            "the Termides' seat is open: nobody has joined it yet",
        ),
        (
            Lang::Fr,
            "api-time-ran-out",
            Arg::player(ackenhead, "Black"),
            "coup \"e4\" : les Noirs n'ont plus de temps",
        ),
        (
            Lang::En,
            "api-time-ran-out",
            Arg::player(reines, "Myrmides"),
            "move \"e4\": the Myrmides' time ran out",
        ),
        (
            Lang::Fr,
            "api-draw-no-offer",
            Arg::player(reines, "Myrmides"),
            "nulle : les Myrmides n'ont pas proposé la nulle : rien à accepter",
        ),
        (
            Lang::En,
            "api-draw-no-offer",
            Arg::player(ackenhead, "Black"),
            "draw: Black has no pending offer to accept",
        ),
    ] {
        assert_eq!(say(lang, key, player), said, "{key}");
    }
    // A game's id ("ackenhead", "epaminondas") after "de" would want "d'": not written so.
    for (key, message) in &fr {
        let text = message.to_string();
        for id in ["game", "record"] {
            assert!(!text.contains(&format!("de {{ ${id} }}")), "{key}: {text}");
        }
    }
    // A refusal's JSON keeps the English name, for programs.
    let msg = i18n::Msg {
        key: "api-seat-open",
        args: vec![("seat", Arg::player(ackenhead, "White"))],
    };
    assert_eq!(Value::Object(msg.args_json()), json!({"seat": "White"}));
}

/// A request to a game that a refusal answers: the refusal's JSON.
async fn refusal(
    app: &Arc<App>,
    headers: &[(&str, &str)],
    path: &str,
    body: Value,
    status: StatusCode,
) -> Value {
    let (got, _, text) = call(app, "POST", path, headers, Some(body)).await;
    assert_eq!(got, status, "{path}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// Through the API, in French (the browser's language or the cookie) and in English: a move
/// while the seat to move is open, a draw accepted that nobody offered, a resignation for
/// another's seat, in games whose players are colours (singular in English) or peoples
/// (plural), with two players or three. The French names the players as French does, never by
/// their English names; `args` keeps the English name in every language.
#[tokio::test]
async fn refusals_name_the_players_in_the_request_s_language() {
    let app = app().await;
    let french: &[&[(&str, &str)]] = &[
        &[("accept-language", "fr-FR,fr;q=0.9")],
        &[("accept-language", "en"), ("cookie", "lang=fr")],
    ];
    let english: &[&[(&str, &str)]] = &[&[], &[("accept-language", "fr"), ("cookie", "lang=en")]];
    let no_english = |text: &str| {
        for name in ["White", "Black", "Red", "Green"] {
            assert!(!text.contains(name), "{text}");
        }
    };
    // The first seat open: a move is refused, naming the first player.
    for (game, first, fr_text, en_text) in [
        (
            "ackenhead",
            "White",
            "la place des Blancs est libre : personne ne l'a encore prise",
            "White's seat is open: nobody has joined it yet",
        ),
        (
            "reines",
            "Termides",
            "la place des Termides est libre : personne ne l'a encore prise",
            "the Termides' seat is open: nobody has joined it yet",
        ),
        (
            "antchess3",
            "Black",
            "la place des Noirs est libre : personne ne l'a encore prise",
            "Black's seat is open: nobody has joined it yet",
        ),
    ] {
        let players = myrmidon_rules::registry::find(game)
            .unwrap()
            .info()
            .players
            .len();
        let mut seats = vec!["online"; players];
        seats[0] = "open";
        let new = json!({"game": game, "seats": seats});
        let (status, _, body) = call(&app, "POST", "/api/games", &[], Some(new)).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let created: Value = serde_json::from_str(&body).unwrap();
        let id = created["id"].as_str().unwrap();
        let token = created["tokens"][1].as_str().unwrap();
        let path = format!("/api/games/{id}/moves");
        let body = json!({"token": token, "move": "a1-a2"});
        for (langs, said) in [(french, fr_text), (english, en_text)] {
            for headers in langs {
                let v = refusal(&app, headers, &path, body.clone(), StatusCode::FORBIDDEN).await;
                assert_eq!(v["key"], "api-seat-open", "{v}");
                assert_eq!(v["error"], said, "{game} {headers:?}");
                assert_eq!(v["args"], json!({"seat": first}), "{v}");
            }
        }
        for headers in french {
            let v = refusal(&app, headers, &path, body.clone(), StatusCode::FORBIDDEN).await;
            no_english(v["error"].as_str().unwrap());
        }
    }
    // A draw accepted that the other player never offered; a resignation for their seat.
    for (game, other, fr_draw, en_draw, fr_resign, en_resign) in [
        (
            "ackenhead",
            "Black",
            "nulle : les Noirs n'ont pas proposé la nulle : rien à accepter",
            "draw: Black has no pending offer to accept",
            "ce jeton ne tient pas la place 1 (Noirs)",
            "this token does not hold seat 1 (Black)",
        ),
        (
            "reines",
            "Myrmides",
            "nulle : les Myrmides n'ont pas proposé la nulle : rien à accepter",
            "draw: the Myrmides have no pending offer to accept",
            "ce jeton ne tient pas la place 1 (Myrmides)",
            "this token does not hold seat 1 (Myrmides)",
        ),
    ] {
        let new = json!({"game": game, "seats": ["online", "online"]});
        let (status, _, body) = call(&app, "POST", "/api/games", &[], Some(new)).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let created: Value = serde_json::from_str(&body).unwrap();
        let id = created["id"].as_str().unwrap();
        let token = created["tokens"][0].as_str().unwrap();
        let draw = format!("/api/games/{id}/draw");
        let accept = json!({"token": token, "seat": 0, "action": "accept"});
        let resign = format!("/api/games/{id}/resign");
        let resign_other = json!({"token": token, "seat": 1});
        for (langs, draw_said, resign_said) in
            [(french, fr_draw, fr_resign), (english, en_draw, en_resign)]
        {
            for headers in langs {
                let v = refusal(
                    &app,
                    headers,
                    &draw,
                    accept.clone(),
                    StatusCode::BAD_REQUEST,
                )
                .await;
                assert_eq!(v["key"], "api-draw-no-offer", "{v}");
                assert_eq!(v["error"], draw_said, "{game} {headers:?}");
                assert_eq!(v["args"], json!({"seat": other, "action": "accept"}));
                let v = refusal(
                    &app,
                    headers,
                    &resign,
                    resign_other.clone(),
                    StatusCode::FORBIDDEN,
                )
                .await;
                assert_eq!(v["key"], "api-not-your-seat", "{v}");
                assert_eq!(v["error"], resign_said, "{game} {headers:?}");
                assert_eq!(v["args"], json!({"seat": 1, "name": other}));
            }
        }
        for headers in french {
            let v = refusal(
                &app,
                headers,
                &draw,
                accept.clone(),
                StatusCode::BAD_REQUEST,
            )
            .await;
            no_english(v["error"].as_str().unwrap());
        }
    }
}

/// Refusals with an argument that is a game (`$game`, `$record`) but is not one of the games:
/// the id of a game played (a rematch's), a game id the client sent that is none.
const GAME_ARGS_NOT_GAMES: &[(&str, &str)] = &[("api-rematch-exists", "game")];

/// A refusal that names a game names it as the reader's language does (its `<id>-name` in
/// French, its own name in English), and gives its id in `args`: too many seats for Ackenhead
/// chess, a draw offered in three-player Ant Chess. In the sources, every argument named
/// `game` or `record` is an `Arg::Game` or is listed as not a game.
#[tokio::test]
async fn refusals_name_the_game_in_the_reader_s_words() {
    let calls = server_messages();
    let mut games = 0;
    for MsgCall { file, key, args } in &calls {
        for (arg, value) in args {
            if (arg == "game" || arg == "record")
                && !GAME_ARGS_NOT_GAMES.contains(&(key.as_str(), arg.as_str()))
            {
                assert!(
                    value.contains("Arg::Game("),
                    "{file}: msg!({key:?}, {arg} = {value}): a game? give it as Arg::Game, \
                     else list it in GAME_ARGS_NOT_GAMES"
                );
                games += 1;
            }
        }
    }
    assert!(games >= 6, "{games} game arguments");

    let app = app().await;
    let fr = [("accept-language", "fr-FR,fr;q=0.9")];
    let new = json!({"game": "ackenhead", "seats": ["human", "human", "human"]});
    for (headers, said) in [
        (
            &fr[..],
            "places : 2 joueurs pour Échecs Ackenhead, 3 places ont été données",
        ),
        (
            &[][..],
            "seats: Ackenhead chess has 2 players, 3 seats were given",
        ),
    ] {
        let v = refusal(
            &app,
            headers,
            "/api/games",
            new.clone(),
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(v["key"], "api-seat-count", "{v}");
        assert_eq!(v["error"], said, "{v}");
        assert_eq!(
            v["args"],
            json!({"game": "ackenhead", "players": 2, "given": 3})
        );
    }

    let new = json!({"game": "antchess3", "seats": ["online", "online", "online"]});
    let (status, _, body) = call(&app, "POST", "/api/games", &[], Some(new)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let id = created["id"].as_str().unwrap();
    let offer = json!({"token": created["tokens"][0], "seat": 0, "action": "offer"});
    let path = format!("/api/games/{id}/draw");
    let english_name = myrmidon_rules::registry::find("antchess3")
        .unwrap()
        .info()
        .name;
    for (headers, said) in [
        (
            &fr[..],
            "nulle : seulement dans les parties à deux ; Échecs fourmi (3 joueurs) : 3 joueurs"
                .to_string(),
        ),
        (
            &[][..],
            format!("draw: only in two-player games ({english_name} has 3)"),
        ),
    ] {
        let v = refusal(&app, headers, &path, offer.clone(), StatusCode::BAD_REQUEST).await;
        assert_eq!(v["key"], "api-draw-two-players", "{v}");
        assert_eq!(v["error"], said, "{v}");
        assert_eq!(v["args"], json!({"game": "antchess3", "players": 3}));
    }
}
