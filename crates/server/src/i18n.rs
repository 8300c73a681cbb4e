//! French and English: the catalogues (`web/i18n/<lang>.ftl`, Fluent syntax, embedded with the
//! rest of `web/`), the language of a request (a `lang` cookie, else `Accept-Language`, else
//! English), messages made of a key and arguments ([`Msg`]) formatted in the request's language,
//! and the catalogues compiled for the pages (`GET /i18n/<lang>.json`, and inside every page).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use axum::body::Body;
use axum::extract::{Path, Request};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast;
use myrmidon_rules::{GameInfo, GrammaticalNumber};
use serde::Serialize;
use serde_json::{json, Map, Value};

/// A language of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Fr,
}

impl Lang {
    /// Every language, English (the fallback) first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fr];

    /// The language's code: `en`, `fr`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// The language of a code (`fr`, `fr-CA`, `FR`…), if the app has it.
    pub fn parse(code: &str) -> Option<Lang> {
        let primary = code.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == primary)
    }
}

/// The language of a request: the `lang` cookie if it names a language of the app, else the
/// first language of `Accept-Language` (by its weight) the app has, else English.
pub fn negotiate(headers: &HeaderMap) -> Lang {
    cookie_lang(headers)
        .or_else(|| accept_language(headers))
        .unwrap_or(Lang::En)
}

fn cookie_lang(headers: &HeaderMap) -> Option<Lang> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.split_once('='))
        .find(|(name, _)| name.trim() == "lang")
        .and_then(|(_, value)| Lang::parse(value))
}

fn accept_language(headers: &HeaderMap) -> Option<Lang> {
    let mut best: Option<(f32, usize, Lang)> = None;
    let ranges = headers
        .get_all(header::ACCEPT_LANGUAGE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','));
    for (i, range) in ranges.enumerate() {
        let mut parts = range.split(';');
        let tag = parts.next().unwrap_or("").trim();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        let Some(lang) = Lang::parse(tag) else {
            continue;
        };
        // The highest weight wins; of equal weights, the first named.
        if q > 0.0 && best.is_none_or(|(bq, _, _)| q > bq) {
            best = Some((q, i, lang));
        }
    }
    best.map(|(_, _, lang)| lang)
}

/// A value given to a message: text, a number (numbers choose plural forms), a game or a player
/// of a game.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Str(String),
    Num(f64),
    /// A player of a game, by its English name (`GameInfo::players`): the message reads the
    /// name in its language (the game's `<id>-player-<name>`, else the English name) and, as
    /// `$number`, how a sentence takes it (the French name's `.number`, the English
    /// `GameInfo::players_number`): "la place des Noirs", "the Termides' time ran out". Its
    /// JSON (`args` of a refusal) is the English name.
    Player {
        game: &'static str,
        name: &'static str,
        number: GrammaticalNumber,
    },
    /// A game, by its id: the message reads the game's name in its language (the game's
    /// `<id>-name`, else `GameInfo::name`). Its JSON is the id.
    Game(&'static str),
}

impl Arg {
    /// The player `name` of the game `info`.
    pub fn player(info: &GameInfo, name: &'static str) -> Arg {
        Arg::Player {
            game: info.id,
            name,
            number: info.players_number,
        }
    }
}

impl Serialize for Arg {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Arg::Str(text) => s.serialize_str(text),
            Arg::Player { name, .. } => s.serialize_str(name),
            Arg::Game(id) => s.serialize_str(id),
            Arg::Num(n) if n.fract() == 0.0 && n.abs() < 9e15 => s.serialize_i64(*n as i64),
            Arg::Num(n) => s.serialize_f64(*n),
        }
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Str(s)
    }
}
impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Str(s.clone())
    }
}
impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Str(s.to_string())
    }
}
macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Num(n as f64)
            }
        }
    )*};
}
number_arg!(u8, u16, u32, u64, usize, i32, i64, f64);

/// A message for people: a key of the catalogues and its arguments, formatted in the
/// language of whoever reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Msg {
    pub key: &'static str,
    pub args: Vec<(&'static str, Arg)>,
}

impl Msg {
    /// The message in `lang` (English, then the key, when the catalogue lacks it).
    pub fn format(&self, lang: Lang) -> String {
        format(lang, self.key, &self.args)
    }

    /// The arguments as a JSON object.
    pub fn args_json(&self) -> Map<String, Value> {
        self.args
            .iter()
            .map(|(name, value)| {
                (
                    name.to_string(),
                    serde_json::to_value(value).unwrap_or(Value::Null),
                )
            })
            .collect()
    }
}

/// The English text of a message (logs, and what a client that sends no language reads).
impl std::fmt::Display for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.format(Lang::En))
    }
}

/// `msg!("api-no-game", id = id)`: a [`Msg`] with its key and named arguments.
macro_rules! msg {
    ($key:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::i18n::Msg {
            key: $key,
            args: vec![$((stringify!($name), $crate::i18n::Arg::from($value))),*],
        }
    };
}

/// The catalogue's text (Fluent syntax) of a language.
pub fn source(lang: Lang) -> &'static str {
    let path = match lang {
        Lang::En => "i18n/en.ftl",
        Lang::Fr => "i18n/fr.ftl",
    };
    crate::web::file(path)
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .unwrap_or("")
}

/// The catalogue of a language, parsed (a catalogue with errors is a bug: the tests read them).
pub fn resource(lang: Lang) -> FluentResource {
    parse(source(lang).to_string(), lang)
}

fn parse(text: String, lang: Lang) -> FluentResource {
    FluentResource::try_new(text).unwrap_or_else(|(resource, errors)| {
        tracing::error!("i18n ({}): {errors:?}", lang.code());
        resource
    })
}

/// The games' texts in a language, from their folders (`<id>-name`, `<id>-summary`,
/// `<id>-player-<name>`, `<id>-piece-<letter>`, `<id>-cell-<name>`, `<id>-setting-…`), none
/// of them in English, whose texts are the games' own (`GameInfo`); and in both languages the
/// lines of facts beside the board (`<game>-info-<name>`, `Position::info_messages`).
pub fn game_resources(lang: Lang) -> Vec<FluentResource> {
    crate::web::game_texts(lang.code())
        .map(|text| parse(text.to_string(), lang))
        .collect()
}

/// The key of a game's text: `<id>-<what>-<name>`, the name in lower case with `-` for what is
/// not a letter or digit (`reines`, `cell`, `Ponte of the Termides` →
/// `reines-cell-ponte-of-the-termides`). web/common.js makes the same keys.
pub fn game_key(id: &str, what: &str, name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() {
        format!("{id}-{what}")
    } else {
        format!("{id}-{what}-{slug}")
    }
}

fn bundle(lang: Lang) -> &'static FluentBundle<FluentResource> {
    static BUNDLES: OnceLock<[FluentBundle<FluentResource>; 2]> = OnceLock::new();
    let bundles = BUNDLES.get_or_init(|| {
        Lang::ALL.map(|lang| {
            let id = lang.code().parse().expect("a language code");
            let mut bundle = FluentBundle::new_concurrent(vec![id]);
            // No Unicode isolation marks around arguments: the messages go into JSON and logs.
            bundle.set_use_isolating(false);
            bundle.add_resource_overriding(resource(lang));
            for game in game_resources(lang) {
                bundle.add_resource_overriding(game);
            }
            bundle
        })
    });
    &bundles[lang as usize]
}

/// A message of the catalogue formatted in `lang`; English when `lang` lacks it, the key when
/// both do. A player ([`Arg::Player`]) gives the message its name in `lang` and `$number`.
pub fn format(lang: Lang, key: &str, args: &[(&'static str, Arg)]) -> String {
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        match value {
            Arg::Str(s) => fluent_args.set(*name, FluentValue::from(s.as_str())),
            Arg::Num(n) => fluent_args.set(*name, FluentValue::from(*n)),
            Arg::Player {
                game,
                name: player,
                number,
            } => {
                let (text, number) = player_words(lang, game, player, *number);
                fluent_args.set(*name, FluentValue::from(text));
                fluent_args.set("number", FluentValue::from(number));
            }
            Arg::Game(id) => fluent_args.set(*name, FluentValue::from(game_name(lang, id))),
        }
    }
    for lang in [lang, Lang::En] {
        let bundle = bundle(lang);
        if let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) {
            let mut errors = Vec::new();
            let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
            if !errors.is_empty() {
                tracing::warn!("i18n: {key} in {}: {errors:?}", lang.code());
            }
            return text.into_owned();
        }
    }
    key.to_string()
}

/// A game's name in `lang` (the game's `<id>-name`), else its own (`GameInfo::name`, English).
fn game_name(lang: Lang, id: &str) -> String {
    let bundle = bundle(lang);
    let Some(pattern) = bundle
        .get_message(&format!("{id}-name"))
        .and_then(|m| m.value())
    else {
        return myrmidon_rules::registry::find(id)
            .map_or_else(|_| id.to_string(), |g| g.info().name.to_string());
    };
    let mut errors = Vec::new();
    let text = bundle
        .format_pattern(pattern, None, &mut errors)
        .into_owned();
    if !errors.is_empty() {
        tracing::warn!("i18n: {id}-name in {}: {errors:?}", lang.code());
    }
    text
}

/// A player's name in `lang` (the game's `<id>-player-<name>`) and how a sentence takes it
/// (its `.number`: `singular`, `plural`); the English name and `english` (the game's
/// `players_number`) when `lang` has no name for it.
fn player_words(
    lang: Lang,
    game: &str,
    name: &str,
    english: GrammaticalNumber,
) -> (String, String) {
    let english_number = || match english {
        GrammaticalNumber::Singular => "singular",
        GrammaticalNumber::Plural => "plural",
    };
    let bundle = bundle(lang);
    let Some(message) = bundle.get_message(&game_key(game, "player", name)) else {
        return (name.to_string(), english_number().to_string());
    };
    let mut errors = Vec::new();
    let mut text = |pattern| {
        bundle
            .format_pattern(pattern, None, &mut errors)
            .into_owned()
    };
    let words = message.value().map_or_else(|| name.to_string(), &mut text);
    let number = message
        .get_attribute("number")
        .map_or_else(|| english_number().to_string(), |a| text(a.value()));
    if !errors.is_empty() {
        tracing::warn!("i18n: {game} player {name} in {}: {errors:?}", lang.code());
    }
    (words, number)
}

/// The lines of facts beside the board of a position (`Position::info_messages`, the games'
/// catalogues), written in `lang`: a terminal's (`myrmidon play`) in English, as a page writes
/// them. A player is named by the game's name for them (its English one in `GameInfo`); lines
/// inside a line are written one after another, separated by commas.
pub fn info_texts(lang: Lang, record: &dyn myrmidon_rules::DynRecord) -> Vec<String> {
    let info = record.info();
    let names = record.player_names();
    myrmidon_rules::view::info_messages(record)
        .iter()
        .map(|m| info_text(lang, info, names, m))
        .collect()
}

fn info_text(
    lang: Lang,
    info: &GameInfo,
    names: &[&str],
    message: &myrmidon_rules::view::InfoMessage,
) -> String {
    use myrmidon_rules::view::InfoValue;
    let args: Vec<(&'static str, Arg)> = message
        .args
        .iter()
        .map(|(name, value)| {
            let arg = match value {
                InfoValue::Number(n) => Arg::from(*n),
                InfoValue::Text(text) => Arg::from(text.as_str()),
                InfoValue::Player { player } => {
                    let name = names.get(*player as usize).copied().unwrap_or("?");
                    Arg::from(player_words(lang, info.id, name, info.players_number).0)
                }
                InfoValue::Messages(lines) => Arg::from(
                    lines
                        .iter()
                        .map(|l| info_text(lang, info, names, l))
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            };
            (*name, arg)
        })
        .collect();
    format(lang, message.key, &args)
}

/// Keys of messages only the server formats (its refusals): left out of the pages' copy.
pub const SERVER_ONLY: &str = "api-";

/// A language's catalogue, with the games' texts in it, for a page's script (web/i18n.js):
/// `{key: message}`, each message a pattern string with `{ $name }` placeables, or, where the
/// pattern selects (a plural), an array of strings and `{"select": name, "variants": {key:
/// message}, "default": key}`. An attribute `.title` of `msg` is the key `msg.title`. Terms
/// (`-name`) are written out where they are used.
pub fn compiled(lang: Lang, with_server_messages: bool) -> Map<String, Value> {
    let mut resources = vec![resource(lang)];
    resources.extend(game_resources(lang));
    let terms: BTreeMap<&str, &ast::Pattern<&str>> = resources
        .iter()
        .flat_map(|r| r.entries())
        .filter_map(|e| match e {
            ast::Entry::Term(t) => Some((t.id.name, &t.value)),
            _ => None,
        })
        .collect();
    let mut out = Map::new();
    for entry in resources.iter().flat_map(|r| r.entries()) {
        let ast::Entry::Message(m) = entry else {
            continue;
        };
        if !with_server_messages && m.id.name.starts_with(SERVER_ONLY) {
            continue;
        }
        if let Some(value) = &m.value {
            out.insert(m.id.name.to_string(), pattern_json(value, &terms));
        }
        for attr in &m.attributes {
            out.insert(
                format!("{}.{}", m.id.name, attr.id.name),
                pattern_json(&attr.value, &terms),
            );
        }
    }
    out
}

type Terms<'a> = BTreeMap<&'a str, &'a ast::Pattern<&'a str>>;

/// A pattern as a string, or as an array when it holds a selection.
fn pattern_json(pattern: &ast::Pattern<&str>, terms: &Terms) -> Value {
    let mut parts: Vec<Value> = Vec::new();
    let mut text = String::new();
    pattern_parts(pattern, terms, &mut text, &mut parts);
    if parts.is_empty() {
        return Value::String(text);
    }
    if !text.is_empty() {
        parts.push(Value::String(text));
    }
    Value::Array(parts)
}

fn pattern_parts(
    pattern: &ast::Pattern<&str>,
    terms: &Terms,
    text: &mut String,
    parts: &mut Vec<Value>,
) {
    for element in &pattern.elements {
        match element {
            ast::PatternElement::TextElement { value } => text.push_str(value),
            ast::PatternElement::Placeable { expression } => {
                expression_parts(expression, terms, text, parts)
            }
        }
    }
}

fn expression_parts(
    expression: &ast::Expression<&str>,
    terms: &Terms,
    text: &mut String,
    parts: &mut Vec<Value>,
) {
    match expression {
        ast::Expression::Inline(inline) => inline_parts(inline, terms, text, parts),
        ast::Expression::Select { selector, variants } => {
            let ast::InlineExpression::VariableReference { id } = selector else {
                // Only selections on a variable are compiled (the catalogue test says so).
                text.push_str("{ ? }");
                return;
            };
            let mut map = Map::new();
            let mut default = String::new();
            for variant in variants {
                let key = match &variant.key {
                    ast::VariantKey::Identifier { name } => name.to_string(),
                    ast::VariantKey::NumberLiteral { value } => value.to_string(),
                };
                if variant.default {
                    default = key.clone();
                }
                map.insert(key, pattern_json(&variant.value, terms));
            }
            if !text.is_empty() {
                parts.push(Value::String(std::mem::take(text)));
            }
            parts.push(json!({"select": id.name, "variants": map, "default": default}));
        }
    }
}

fn inline_parts(
    inline: &ast::InlineExpression<&str>,
    terms: &Terms,
    text: &mut String,
    parts: &mut Vec<Value>,
) {
    match inline {
        ast::InlineExpression::StringLiteral { value }
        | ast::InlineExpression::NumberLiteral { value } => text.push_str(value),
        ast::InlineExpression::VariableReference { id } => {
            text.push_str(&format!("{{ ${} }}", id.name))
        }
        ast::InlineExpression::TermReference { id, .. } => match terms.get(id.name) {
            Some(pattern) => pattern_parts(pattern, terms, text, parts),
            None => text.push_str(id.name),
        },
        ast::InlineExpression::Placeable { expression } => {
            expression_parts(expression, terms, text, parts)
        }
        ast::InlineExpression::MessageReference { id, .. }
        | ast::InlineExpression::FunctionReference { id, .. } => text.push_str(id.name),
    }
}

/// What a page carries for its script: `{"lang": "fr", "messages": {…}}` (the server's own
/// refusals left out: they come formatted in the API's answers).
pub fn page_data(lang: Lang) -> &'static str {
    static DATA: OnceLock<[String; 2]> = OnceLock::new();
    let data = DATA.get_or_init(|| {
        Lang::ALL.map(|lang| {
            serde_json::to_string(&json!({"lang": lang.code(), "messages": compiled(lang, false)}))
                .expect("a catalogue serialises")
                .replace('<', "\\u003c")
        })
    });
    &data[lang as usize]
}

/// `GET /i18n/{file}`: `en.json`, `fr.json` (every message, compiled as for the pages), or a
/// file of `web/i18n/` (the catalogues themselves).
pub async fn catalogue(Path(file): Path<String>, headers: HeaderMap) -> Response {
    if let Some(lang) = file.strip_suffix(".json").and_then(Lang::parse) {
        if file == format!("{}.json", lang.code()) {
            let body = json!({"lang": lang.code(), "messages": compiled(lang, true)});
            return ([(header::CACHE_CONTROL, "no-cache")], axum::Json(body)).into_response();
        }
    }
    crate::web::asset(Path(format!("i18n/{file}")), headers).await
}

/// A refusal's message, kept with its answer so that [`localise`] can write it in the
/// request's language.
#[derive(Clone, Debug)]
pub struct Refused(pub Msg);

/// The middleware: an answer made from a [`Msg`] (a refusal of the API) is written in the
/// request's language; the answer says that it depends on the cookie and `Accept-Language`. A
/// refusal of the API that the web framework wrote itself, as plain text (a path or a query
/// that cannot be read, a method the address does not take), becomes one like the others:
/// `api-bad-request`, its text the detail.
pub async fn localise(request: Request, next: Next) -> Response {
    let lang = negotiate(request.headers());
    let api = request.uri().path().starts_with("/api/");
    let mut response = next.run(request).await;
    let msg = match response.extensions_mut().remove::<Refused>() {
        Some(Refused(msg)) => msg,
        None if api && response.status().is_client_error() && !is_json(&response) => {
            let status = response.status();
            let body = std::mem::take(response.body_mut());
            let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
            let text = String::from_utf8_lossy(&text).trim().to_string();
            let detail = if text.is_empty() {
                status.canonical_reason().unwrap_or_default().to_string()
            } else {
                text
            };
            let mut rewritten =
                crate::api::ApiError(status, msg!("api-bad-request", detail = detail))
                    .into_response();
            // (what the framework said of the request, an `Allow` header for one)
            for (name, value) in response.headers() {
                if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
                    rewritten.headers_mut().append(name, value.clone());
                }
            }
            response = rewritten;
            let Some(Refused(msg)) = response.extensions_mut().remove::<Refused>() else {
                return response;
            };
            msg
        }
        None => return response,
    };
    response.headers_mut().append(
        header::VARY,
        HeaderValue::from_static("Accept-Language, Cookie"),
    );
    if lang == Lang::En {
        return response;
    }
    let body = crate::views::ErrorView::of(&msg, lang);
    let bytes = serde_json::to_vec(&body).expect("an error serialises");
    response.headers_mut().remove(header::CONTENT_LENGTH);
    *response.body_mut() = Body::from(bytes);
    response
}

/// Whether an answer is JSON.
fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}
