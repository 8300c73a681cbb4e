//! Adding a game touches its folder of the rules (`crates/rules/src/games/<game>/`), its
//! evaluation (`crates/engine/src/eval/<game>.rs`) and one line in each registry; nothing else
//! names it (README, "Adding a game"). This test reads the sources of the repository (Rust,
//! JavaScript, HTML, CSS, TOML and shell files under `crates/`, `web/`, `fuzz/` and `tests/`,
//! comments left out) and fails when a file names a game of the registry, by its id, its name
//! or in a type's name (`reines`, `ReinesEval`, `Jeu de Reines`), outside those places and the
//! files of [`ALLOWED`], each there with its reason.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use myrmidon_rules::registry;

/// Where in a file of [`ALLOWED`] games may be named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    /// Anywhere.
    All,
    /// In its tests only: every line of a file of a `tests/` or `examples/` folder (or named
    /// `tests.rs`), and the `#[cfg(test)]` items of the others.
    Tests,
}

use Scope::{All, Tests};

/// The files (a folder when it ends in `/`) that may name games besides a game's own folder
/// and evaluation, and why. A test that checks one game's behaviour names that game; a list of
/// every game does not belong here: take it from the registry (`registry::games()`, `myrmidon
/// games`, `GET /api/games`).
#[rustfmt::skip]
const ALLOWED: &[(&str, Scope, &str)] = &[
    // The registries, a line per game each.
    ("crates/rules/src/registry.rs", All, "the registry of the games"),
    ("crates/rules/src/games/mod.rs", All, "declares each game's folder"),
    ("crates/engine/src/games.rs", All, "the engine's registry: each game's evaluation"),
    ("crates/engine/src/eval/mod.rs", All, "declares each game's evaluation"),
    // Messages that show an id as an example.
    ("crates/rules/src/pgn/replay.rs", All, "a missing Game tag: an example of one"),
    ("crates/server/src/analysis.rs", All, "a missing game: an example of an id"),
    ("web/index.html", All, "the record box's placeholder: an example of a record"),
    // The fuzz targets: one per game and text, each with its own corpus (tools/fuzz.sh).
    ("fuzz/fuzz_targets/", All, "a target per game and text: each has its own corpus"),
    ("fuzz/Cargo.toml", All, "declares those targets"),
    ("fuzz/src/lib.rs", All, "Jeu de Reines' passes in a row, outside its position string"),
    // Tests of one game's behaviour, in the sources' own test modules.
    ("crates/rules/src/edit.rs", Tests, "each game's royal pieces, kept by a clearing"),
    ("crates/rules/src/actions.rs", Tests, "Ackenhead's promotions as the variants of an action"),
    ("crates/rules/src/observation.rs", Tests, "the planes of particular games' facts"),
    ("crates/engine/src/dynamic.rs", Tests, "searchers and weights of particular games"),
    ("crates/engine/src/eval/weights.rs", Tests, "each evaluation's weights files"),
    ("crates/engine/src/players/level.rs", Tests, "a level's player on a Jeu de Reines game"),
    ("crates/engine/src/players/pvs.rs", Tests, "the search on a Jeu de Reines position"),
    ("crates/engine/src/solve.rs", Tests, "the solver on Ackenhead positions"),
    ("crates/engine/src/tune/", Tests, "the tuner on Ackenhead's and Jeu de Reines' weights"),
    ("crates/engine/src/uci/command.rs", Tests, "a variant named in a command"),
    ("crates/arena/src/spec.rs", Tests, "an engine option naming a variant"),
    ("crates/cli/src/uci/options.rs", Tests, "Jeu de Reines' region as a UCI option"),
    ("crates/server/src/store/group.rs", Tests, "a stored game of some kind"),
    // Tests of particular games' positions, records, engines, matches and pages.
    ("crates/rules/tests/", Tests, "records and second readings of particular games"),
    ("crates/engine/tests/", Tests, "levels, searches, tactics and quiescence in particular games"),
    ("crates/engine/examples/", Tests, "a measurement of the Epaminondas search"),
    ("crates/arena/tests/", Tests, "matches of particular games"),
    ("crates/cli/tests/", Tests, "the command line on particular games"),
    ("crates/server/tests/", Tests, "the API's cases: promotion, phalanxes, three players"),
    ("tests/browser/", Tests, "pages of particular games: their royal pieces, marked cells"),
];

/// The folders read, from the root of the repository.
const ROOTS: &[&str] = &["crates", "web", "fuzz", "tests"];

/// Folders not read: builds, installed packages, fuzzing corpora, test data.
const SKIPPED: &[&str] = &["target", "node_modules", "corpus", "artifacts", "data"];

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What names a game: each id and each name (in lower case), with the game's id.
fn needles() -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    for game in registry::games() {
        let info = game.info();
        out.push((info.id.to_lowercase(), info.id));
        out.push((info.name.to_lowercase(), info.id));
    }
    // The longest first: a line names `antchess3` rather than `antchess`.
    out.sort_by_key(|(needle, _)| std::cmp::Reverse(needle.len()));
    out
}

/// The syntax of comments and literals of a kind of file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lang {
    Rust,
    Script,
    Html,
    Hash,
}

fn lang_of(path: &str) -> Option<Lang> {
    match path.rsplit('.').next()? {
        "rs" => Some(Lang::Rust),
        "js" | "mjs" | "css" => Some(Lang::Script),
        "html" => Some(Lang::Html),
        "toml" | "sh" => Some(Lang::Hash),
        _ => None,
    }
}

/// The text without its comments (each replaced by spaces, the lines kept), and the same
/// with the insides of its string and character literals blanked too (for counting braces).
/// Near enough for this test: HTML has only its comments read, and a script's regular
/// expression is read as code.
fn strip(text: &str, lang: Lang) -> (String, String) {
    let chars: Vec<char> = text.chars().collect();
    let mut code = String::with_capacity(text.len());
    let mut bare = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let starts = |i: usize, s: &str| chars[i..].starts_with(&s.chars().collect::<Vec<_>>());
    let slashes = matches!(lang, Lang::Rust | Lang::Script);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let comment_end = if lang == Lang::Html && starts(i, "<!--") {
            Some(find(&chars, i + 4, "-->").map_or(chars.len(), |j| j + 3))
        } else if (lang == Lang::Hash && c == '#') || (slashes && starts(i, "//")) {
            Some(find(&chars, i, "\n").unwrap_or(chars.len()))
        } else if slashes && starts(i, "/*") {
            Some(find(&chars, i + 2, "*/").map_or(chars.len(), |j| j + 2))
        } else {
            None
        };
        if let Some(end) = comment_end {
            for &c in &chars[i..end] {
                code.push(blank(c));
                bare.push(blank(c));
            }
            i = end;
            continue;
        }
        let word_before = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        let literal_end = match (lang, c) {
            (Lang::Html, _) => None,
            // A raw string: r"…", r#"…"#.
            (Lang::Rust, 'r') if !word_before && matches!(chars.get(i + 1), Some('"' | '#')) => {
                let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
                (chars.get(i + 1 + hashes) == Some(&'"')).then(|| {
                    let close: String = std::iter::once('"')
                        .chain("#".repeat(hashes).chars())
                        .collect();
                    find(&chars, i + 2 + hashes, &close).map_or(chars.len(), |j| j + 1 + hashes)
                })
            }
            (Lang::Rust, '"') => Some(closing(&chars, i, c, false)),
            // A Rust character literal ('x', '\n'), not a lifetime ('a).
            (Lang::Rust, '\'') if chars.get(i + 1) == Some(&'\\') => {
                Some(closing(&chars, i, c, false))
            }
            (Lang::Rust, '\'') if chars.get(i + 2) == Some(&'\'') => Some(i + 3),
            (Lang::Script, '`') => Some(closing(&chars, i, c, false)),
            (Lang::Script, '"' | '\'') => Some(closing(&chars, i, c, true)),
            _ => None,
        };
        if let Some(end) = literal_end {
            let end = end.min(chars.len());
            for (k, &c) in chars[i..end].iter().enumerate() {
                code.push(c);
                bare.push(if k == 0 || k + 1 == end - i {
                    c
                } else {
                    blank(c)
                });
            }
            i = end;
            continue;
        }
        code.push(c);
        bare.push(c);
        i += 1;
    }
    (code, bare)
}

/// The index of `pat` in `chars` from `from` on.
fn find(chars: &[char], from: usize, pat: &str) -> Option<usize> {
    let pat: Vec<char> = pat.chars().collect();
    (from..chars.len()).find(|&i| chars[i..].starts_with(&pat))
}

/// The index after the quote that closes the literal opened at `open` (escapes skipped; at
/// the end of the line if `one_line` and it is not closed there).
fn closing(chars: &[char], open: usize, quote: char, one_line: bool) -> usize {
    let mut i = open + 1;
    while i < chars.len() && chars[i] != quote {
        if one_line && chars[i] == '\n' {
            return i;
        }
        i += if chars[i] == '\\' { 2 } else { 1 };
    }
    i + 1
}

/// Which lines (from 0) of a Rust file's stripped text belong to `#[cfg(test)]` items.
fn test_lines(bare: &str) -> Vec<bool> {
    let lines = bare.lines().count() + 1;
    let mut out = vec![false; lines];
    let bytes = bare.as_bytes();
    let line_of = |at: usize| bare[..at].matches('\n').count();
    let mut from = 0;
    while let Some(at) = bare[from..].find("#[cfg(test)]").map(|k| k + from) {
        // The item ends at its body's closing brace, or at a `;` before any brace.
        let mut depth = 0;
        let mut end = bare.len();
        for (k, &b) in bytes.iter().enumerate().skip(at) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    end = k;
                    break;
                }
                _ => {}
            }
        }
        for line in out.iter_mut().take(line_of(end) + 1).skip(line_of(at)) {
            *line = true;
        }
        from = end.max(at + 1);
    }
    out
}

/// A file all of whose lines are tests.
fn is_test_file(path: &str) -> bool {
    path.split('/')
        .any(|part| matches!(part, "tests" | "examples" | "tests.rs"))
}

/// The files under [`ROOTS`] (relative to `root`, with `/`), sorted, without hidden folders
/// and those of [`SKIPPED`].
fn files(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo: Vec<PathBuf> = ROOTS.iter().map(|dir| root.join(dir)).collect();
    while let Some(dir) = todo.pop() {
        for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || SKIPPED.contains(&name.as_str()) {
                continue;
            }
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else if let Ok(rel) = path.strip_prefix(root) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// A place that names a game: the file, the line (from 1), the game, whether the line is a
/// test, and the line.
#[derive(Debug)]
struct Mention {
    path: String,
    line: usize,
    game: &'static str,
    test: bool,
    text: String,
}

/// Every place in the file `path` (its text `text`) that names a game.
fn mentions(path: &str, text: &str, needles: &[(String, &'static str)]) -> Vec<Mention> {
    let Some(lang) = lang_of(path) else {
        return Vec::new();
    };
    let (code, bare) = strip(text, lang);
    let whole_file_tests = is_test_file(path);
    let tests = if lang == Lang::Rust && !whole_file_tests {
        test_lines(&bare)
    } else {
        Vec::new()
    };
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let lower = line.to_lowercase();
        for (needle, game) in needles {
            if lower.contains(needle.as_str()) {
                out.push(Mention {
                    path: path.to_string(),
                    line: n + 1,
                    game,
                    test: whole_file_tests || tests.get(n).copied().unwrap_or(false),
                    text: line.trim().to_string(),
                });
                break;
            }
        }
    }
    out
}

/// Whether a game may be named there: its own folder or evaluation, or a file of [`ALLOWED`]
/// in the scope it gives.
fn allowed(m: &Mention) -> bool {
    let own = |prefix: &str| {
        m.path
            .strip_prefix(prefix)
            .and_then(|rest| rest.split(['/', '.']).next())
            .is_some_and(|folder| !folder.is_empty() && m.game.starts_with(folder))
    };
    if own("crates/rules/src/games/") || own("crates/engine/src/eval/") {
        return true;
    }
    ALLOWED.iter().any(|&(place, scope, _)| {
        let here = match place.strip_suffix('/') {
            Some(folder) => m.path.starts_with(&format!("{folder}/")),
            None => m.path == place,
        };
        here && (scope == All || m.test)
    })
}

fn all_mentions() -> Vec<Mention> {
    let root = repository();
    let needles = needles();
    let files = files(&root);
    assert!(
        files.iter().any(|f| f == "crates/rules/src/registry.rs"),
        "the sources are not at {}",
        root.display()
    );
    let mut out = Vec::new();
    for path in files {
        if let Ok(text) = fs::read_to_string(root.join(&path)) {
            out.extend(mentions(&path, &text, &needles));
        }
    }
    out
}

#[test]
fn no_other_place_names_a_game() {
    let wrong: Vec<String> = all_mentions()
        .iter()
        .filter(|m| !allowed(m))
        .map(|m| format!("  {}:{}: {}: {}", m.path, m.line, m.game, m.text))
        .collect();
    assert!(
        wrong.is_empty(),
        "these lines name a game outside its folder, its evaluation and the registries:\n{}\n\
         Take the games from the registry (registry::games(), `myrmidon games`, GET \
         /api/games), or, for a test of one game's behaviour, add the file to ALLOWED in {} \
         with the reason.",
        wrong.join("\n"),
        file!()
    );
}

/// The list stays short: every file of it still names a game where it may.
#[test]
fn every_allowed_place_is_needed() {
    let mentions = all_mentions();
    let mut used: BTreeMap<&str, bool> = ALLOWED.iter().map(|&(p, _, _)| (p, false)).collect();
    for m in &mentions {
        for &(place, scope, _) in ALLOWED {
            let here = match place.strip_suffix('/') {
                Some(folder) => m.path.starts_with(&format!("{folder}/")),
                None => m.path == place,
            };
            if here && (scope == All || m.test) {
                used.insert(place, true);
            }
        }
    }
    let unused: Vec<&str> = used
        .into_iter()
        .filter(|&(_, u)| !u)
        .map(|(p, _)| p)
        .collect();
    assert!(
        unused.is_empty(),
        "these places of ALLOWED name no game any more: remove them: {unused:?}"
    );
}

#[test]
fn comments_are_left_out_and_tests_found() {
    let needles = vec![("reines".to_string(), "reines")];
    let rust = "// reines\nlet a = '\"'; /* reines */ let b = \"reines\"; // reines\n\
                fn f<'a>(x: &'a str) {}\n#[cfg(test)]\nmod tests {\n    fn g() { '{'; }\n    \
                const R: &str = \"ReinesEval\";\n}\nconst S: &str = \"reines\";\n";
    let found = mentions("x.rs", rust, &needles);
    let lines: Vec<(usize, bool)> = found.iter().map(|m| (m.line, m.test)).collect();
    assert_eq!(lines, [(2, false), (7, true), (9, false)]);
    let script = "// reines\nconst u = 'http://x'; const g = `reines`;\n/* reines\n */\n";
    let found = mentions("web/x.js", script, &needles);
    assert_eq!(found.iter().map(|m| m.line).collect::<Vec<_>>(), [2]);
    let html = "<!-- reines -->\n<a href=\"/rules/reines\">x</a>\n";
    let found = mentions("web/x.html", html, &needles);
    assert_eq!(found.iter().map(|m| m.line).collect::<Vec<_>>(), [2]);
    let found = mentions("crates/x/tests/t.rs", "\"reines\"\n", &needles);
    assert!(found[0].test);
}
