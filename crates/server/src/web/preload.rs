//! The modules a page's scripts import, announced in its head as `<link rel="modulepreload">`:
//! the browser then asks for the whole graph at once, instead of one level of imports after
//! another (each level a round trip on a phone's network). The graph is read from the files of
//! `web/` themselves, so that no page lists its modules by hand.

use std::collections::{BTreeSet, VecDeque};

/// What starts a module script of a page: `<script type="module" src="/game.js">`.
const MODULE_SCRIPT: &str = "<script type=\"module\" src=\"/";

/// The modules `entry` (a path in `web/`, as `game.js`) imports, directly or through others,
/// nearest first; `read` gives a file's text (`None`: no such file, left out).
pub fn imported_by(entry: &str, read: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let mut seen = BTreeSet::from([entry.to_string()]);
    let mut found = Vec::new();
    let mut queue: VecDeque<(String, String)> = read(entry)
        .map(|text| (entry.to_string(), text))
        .into_iter()
        .collect();
    while let Some((module, text)) = queue.pop_front() {
        for specifier in import_specifiers(&text) {
            let Some(path) = resolve(&module, specifier) else {
                continue;
            };
            if !seen.insert(path.clone()) {
                continue;
            }
            if let Some(imported) = read(&path) {
                found.push(path.clone());
                queue.push_back((path, imported));
            }
        }
    }
    found
}

/// The specifiers of a module's static imports and re-exports: `./x.js` in `import … from
/// './x.js'`, `export … from './x.js'` and `import './x.js'`, the statement written on one
/// line or ending on a line `} from './x.js'`. (A dynamic `import()` waits for its time.)
fn import_specifiers(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|line| {
        let line = line.trim();
        if !(line.starts_with("import ") || line.starts_with("export ") || line.starts_with('}')) {
            return None;
        }
        let rest = match line.strip_prefix("import ") {
            Some(bare) if bare.starts_with(['\'', '"']) => bare,
            _ => line.rsplit_once(" from ")?.1,
        };
        let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
        let inner = &rest[1..];
        Some(&inner[..inner.find(quote)?])
    })
}

/// A relative specifier (`./x.js`, `../x.js`) of the module `module` as a path in `web/`;
/// `None` for another kind of specifier or one that leaves `web/`.
pub(super) fn resolve(module: &str, specifier: &str) -> Option<String> {
    if !(specifier.starts_with("./") || specifier.starts_with("../")) {
        return None;
    }
    let mut parts: Vec<&str> = module.split('/').collect();
    parts.pop();
    for part in specifier.split('/') {
        match part {
            "." => {}
            ".." => {
                parts.pop()?;
            }
            name => parts.push(name),
        }
    }
    Some(parts.join("/"))
}

/// `html` with, before each of its module scripts, a `<link rel="modulepreload">` for every
/// module that script imports and the page does not name earlier (as a script or a preload).
pub fn with_preloads(html: &str, read: &dyn Fn(&str) -> Option<String>) -> String {
    let mut named: BTreeSet<String> = BTreeSet::new();
    let mut out = String::with_capacity(html.len() + 1024);
    let mut rest = html;
    while let Some(at) = rest.find(MODULE_SCRIPT) {
        let after = &rest[at + MODULE_SCRIPT.len()..];
        let Some(end) = after.find('"') else { break };
        let entry = &after[..end];
        out.push_str(&rest[..at]);
        named.insert(entry.to_string());
        for module in imported_by(entry, read) {
            if named.insert(module.clone()) {
                out.push_str(&format!(
                    "<link rel=\"modulepreload\" href=\"/{module}\">\n  "
                ));
            }
        }
        out.push_str(MODULE_SCRIPT);
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::test_files as files;

    #[test]
    fn specifiers_of_every_kind_of_static_import() {
        let text =
            "import { a } from './a.js';\nimport './side.js';\nexport { b } from \"./b.js\";\n\
                    import {\n  c,\n  d,\n} from '../c.js';\nconst s = \"x from './not.js'\";\n\
                    const m = await import('./later.js');\nimport x from 'https://elsewhere/x.js';";
        let found: Vec<&str> = import_specifiers(text).collect();
        assert_eq!(
            found,
            [
                "./a.js",
                "./side.js",
                "./b.js",
                "../c.js",
                "https://elsewhere/x.js"
            ]
        );
    }

    #[test]
    fn specifiers_resolve_in_web() {
        assert_eq!(
            resolve("board/drag.js", "./state.js").unwrap(),
            "board/state.js"
        );
        assert_eq!(
            resolve("board/drag.js", "../pieces.js").unwrap(),
            "pieces.js"
        );
        assert_eq!(
            resolve("game.js", "./board/anim.js").unwrap(),
            "board/anim.js"
        );
        assert_eq!(resolve("game.js", "../../etc/passwd"), None);
        assert_eq!(resolve("game.js", "https://elsewhere/x.js"), None);
    }

    #[test]
    fn a_page_announces_each_module_of_its_scripts_once() {
        let read = files(&[
            ("i18n.js", "export const t = 1;"),
            (
                "game.js",
                "import { t } from './i18n.js';\nimport { b } from './board.js';",
            ),
            (
                "board.js",
                "import { s } from './board/state.js';\nimport { t } from './i18n.js';",
            ),
            (
                "board/state.js",
                "import { t } from '../i18n.js';\nimport { g } from './missing.js';",
            ),
        ]);
        let html = "<head>\n  <script type=\"module\" src=\"/i18n.js\"></script>\n  \
                    <script type=\"module\" src=\"/game.js\"></script>\n</head>";
        assert_eq!(
            with_preloads(html, &read),
            "<head>\n  <script type=\"module\" src=\"/i18n.js\"></script>\n  \
             <link rel=\"modulepreload\" href=\"/board.js\">\n  \
             <link rel=\"modulepreload\" href=\"/board/state.js\">\n  \
             <script type=\"module\" src=\"/game.js\"></script>\n</head>"
        );
    }
}
