//! A page's scripts sent as one: every module its `<script type="module">` elements name, and
//! every module those import, put in one script (`/bundle/<page>.js`) that runs them in the
//! order the browser would. A page then makes one request for its scripts where it made one
//! a module (a game page: seventeen), and the browser has one script to compile. The files of
//! `web/` stay as they are, modules of their own (type-checked, served, kept offline), and the
//! bundle is made from them when first asked for.
//!
//! Each module becomes a function run once, in the order of a module graph's evaluation (each
//! module after the modules it imports, in the order of its imports; the page's scripts in
//! turn): what it imports read from the modules run before it, what it exports returned. This
//! holds for the modules `web/` is made of, and [`bundle`] refuses the others (the page then
//! loads its modules one by one, as before): an import of a default or of a name the other
//! module does not export, `export default`, `export *`, an exported `let` or `var` (its later
//! values would not be seen), a cycle of imports, a dynamic `import()` or `import.meta` (they
//! would be read from the bundle's address).

use std::collections::{BTreeMap, BTreeSet};

use super::preload::resolve;

/// What starts a module script of a page: `<script type="module" src="/game.js">`.
const MODULE_SCRIPT: &str = "<script type=\"module\" src=\"/";
/// Where the bundle of the page `<page>.html` is served: `/bundle/<page>.js`.
pub const PREFIX: &str = "bundle/";

/// The modules the module scripts of a page name, in their order (paths in `web/`).
pub fn page_scripts(html: &str) -> Vec<String> {
    html.split(MODULE_SCRIPT)
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(src, _)| src.to_string()))
        .collect()
}

/// `html` with its module scripts replaced by the one script `src`, where the first stood (a
/// line holding only a module script goes whole).
pub fn with_bundle(html: &str, src: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut placed = false;
    for line in html.split_inclusive('\n') {
        let Some(at) = line.find(MODULE_SCRIPT) else {
            out.push_str(line);
            continue;
        };
        let end = line[at..]
            .find("</script>")
            .map_or(line.len(), |e| at + e + "</script>".len());
        if !placed {
            out.push_str(&line[..at]);
            out.push_str(&format!("<script type=\"module\" src=\"{src}\"></script>"));
            out.push_str(&line[end..]);
            placed = true;
        } else if line[..at].trim().is_empty() && line[end..].trim().is_empty() {
            continue;
        } else {
            out.push_str(&line[..at]);
            out.push_str(&line[end..]);
        }
    }
    out
}

/// How a module's import names what it takes.
#[derive(Debug, PartialEq)]
enum Binding {
    /// `import './x.js'`: nothing, the module run.
    Bare,
    /// `import { a, b as c } from './x.js'`: (exported, local).
    Named(Vec<(String, String)>),
    /// `import * as ns from './x.js'`.
    Namespace(String),
}

/// What a module exports under a name.
#[derive(Debug, PartialEq)]
enum Export {
    /// A binding of its own.
    Local(String),
    /// `export { a } from './x.js'`: a name of another module (its path, the name there).
    From(String, String),
}

/// A module of `web/` read for the bundle.
#[derive(Debug)]
struct Module {
    /// Its imports (and re-exports' modules, as `Bare`), in their order: (path, binding).
    imports: Vec<(String, Binding)>,
    /// What it exports: (name, what).
    exports: Vec<(String, Export)>,
    /// Its text with its import statements and export lists left out (their lines kept,
    /// empty) and the `export` of its declarations.
    body: String,
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// The identifier `text` starts with, and what follows it.
fn ident(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start();
    let end = text.find(|c: char| !is_ident_char(c)).unwrap_or(text.len());
    let name = &text[..end];
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()))
        .then_some((name, &text[end..]))
}

/// `a, b as c` (the inside of `{ … }`) as (name, alias) pairs.
fn specifier_list(list: &str) -> Result<Vec<(String, String)>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            let mut words = item.split_whitespace();
            match (words.next(), words.next(), words.next(), words.next()) {
                (Some(name), None, None, None) => Ok((name.to_string(), name.to_string())),
                (Some(name), Some("as"), Some(alias), None) => {
                    Ok((name.to_string(), alias.to_string()))
                }
                _ => Err(format!("`{item}`: not an import or export specifier")),
            }
            .and_then(|(a, b)| {
                if ident(&a).is_some_and(|(_, r)| r.is_empty())
                    && ident(&b).is_some_and(|(_, r)| r.is_empty())
                {
                    Ok((a, b))
                } else {
                    Err(format!("`{item}`: not an import or export specifier"))
                }
            })
        })
        .collect()
}

/// `text` with its `/* … */` and `// …` comments left out (not minding strings: for looking
/// for what must not be in the code, where a comment too many left in only refuses more).
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let block = rest.find("/*");
        let line = rest.find("//");
        match (block, line) {
            (Some(b), l) if l.is_none_or(|l| b < l) => {
                out.push_str(&rest[..b]);
                match rest[b..].find("*/") {
                    Some(e) => rest = &rest[b + e + 2..],
                    None => break,
                }
            }
            (_, Some(l)) => {
                out.push_str(&rest[..l]);
                match rest[l..].find('\n') {
                    Some(e) => rest = &rest[l + e..],
                    None => break,
                }
            }
            _ => {
                out.push_str(rest);
                break;
            }
        }
    }
    out
}

/// Reads a module (`path` in `web/`, its text `text`).
fn parse(path: &str, text: &str) -> Result<Module, String> {
    let code = without_comments(text);
    if code.contains("import(") || code.contains("import (") || code.contains("import.meta") {
        return Err(format!(
            "{path}: a dynamic import() or import.meta, read from the bundle's address"
        ));
    }
    // (an `await` outside functions: in a statement that starts a line, as a module's own are
    // written; one further in is not seen)
    if code
        .lines()
        .any(|l| !l.starts_with([' ', '\t', '}', ')']) && l.contains("await "))
    {
        return Err(format!("{path}: an await at the top level"));
    }
    let mut module = Module {
        imports: Vec::new(),
        exports: Vec::new(),
        body: String::with_capacity(text.len()),
    };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let is_import = line.starts_with("import ")
            || line.starts_with("import{")
            || line.starts_with("import'")
            || line.starts_with("import\"");
        let is_list = line.starts_with("export {") || line.starts_with("export{");
        if !(is_import || is_list) {
            if let Some(rest) = line.strip_prefix("export ") {
                let (name, _) = declared(path, rest)?;
                module
                    .exports
                    .push((name.to_string(), Export::Local(name.to_string())));
                module.body.push_str(rest);
            } else if line.starts_with("export") && ident(line).is_some_and(|(w, _)| w == "export")
            {
                return Err(format!("{path}: `{}`: not understood", line.trim_end()));
            } else {
                module.body.push_str(line);
            }
            i += 1;
            continue;
        }
        // the statement, over as many lines as it takes: up to its module's quoted name (an
        // import) or the end of its list (an export list), then `from '…'` if there is one
        let start = i;
        let mut statement = String::new();
        loop {
            let Some(line) = lines.get(i) else {
                return Err(format!("{path}: line {}: a statement not ended", start + 1));
            };
            statement.push_str(line);
            i += 1;
            let done = if is_import {
                statement.contains(['\'', '"'])
            } else {
                statement.contains('}')
            };
            if done {
                break;
            }
        }
        for _ in start..i {
            module.body.push('\n');
        }
        let statement = statement.trim();
        let statement = statement.strip_suffix(';').unwrap_or(statement).trim_end();
        let (clause, from) = match statement.rsplit_once("from") {
            Some((clause, spec))
                if spec.trim_start().starts_with(['\'', '"'])
                    && clause.ends_with(|c: char| c.is_whitespace() || c == '}') =>
            {
                (clause.trim(), Some(spec.trim()))
            }
            _ => (statement, None),
        };
        let quoted = |spec: &str| -> Result<String, String> {
            let quote = spec.chars().next().unwrap_or(' ');
            let inner = spec
                .strip_prefix(quote)
                .and_then(|s| s.strip_suffix(quote))
                .filter(|s| !s.contains(quote) && (quote == '\'' || quote == '"'))
                .ok_or_else(|| format!("{path}: `{statement}`: not understood"))?;
            resolve(path, inner)
                .ok_or_else(|| format!("{path}: `{statement}`: not a module of web/"))
        };
        if is_import {
            let clause = clause.strip_prefix("import").unwrap_or(clause).trim();
            match from {
                None => module.imports.push((quoted(clause)?, Binding::Bare)),
                Some(spec) => {
                    let spec = quoted(spec)?;
                    let binding = if let Some(list) =
                        clause.strip_prefix('{').and_then(|c| c.strip_suffix('}'))
                    {
                        Binding::Named(specifier_list(list)?)
                    } else if let Some(name) = clause
                        .strip_prefix('*')
                        .map(str::trim_start)
                        .and_then(|c| c.strip_prefix("as "))
                        .and_then(ident)
                        .filter(|(_, r)| r.trim().is_empty())
                    {
                        Binding::Namespace(name.0.to_string())
                    } else {
                        return Err(format!(
                            "{path}: `{statement}`: only `import {{ … }}` and `import * as` are \
                             bundled"
                        ));
                    };
                    module.imports.push((spec, binding));
                }
            }
        } else {
            let list = clause
                .strip_prefix("export")
                .map(str::trim)
                .and_then(|c| c.strip_prefix('{'))
                .and_then(|c| c.strip_suffix('}'))
                .ok_or_else(|| format!("{path}: `{statement}`: not understood"))?;
            let names = specifier_list(list)?;
            match from {
                None => module.exports.extend(
                    names
                        .into_iter()
                        .map(|(local, name)| (name, Export::Local(local))),
                ),
                Some(spec) => {
                    let spec = quoted(spec)?;
                    module.imports.push((spec.clone(), Binding::Bare));
                    module.exports.extend(
                        names
                            .into_iter()
                            .map(|(there, name)| (name, Export::From(spec.clone(), there))),
                    );
                }
            }
        }
    }
    Ok(module)
}

/// The name an exported declaration (`rest`: what follows `export `) declares.
fn declared<'a>(path: &str, rest: &'a str) -> Result<(&'a str, &'a str), String> {
    let refused = || format!("{path}: `export {}`: not bundled", rest.trim_end());
    let (word, after) = ident(rest).ok_or_else(refused)?;
    let (word, after) = if word == "async" {
        ident(after).ok_or_else(refused)?
    } else {
        (word, after)
    };
    match word {
        "function" => {
            let after = after.trim_start();
            ident(after.strip_prefix('*').unwrap_or(after)).ok_or_else(refused)
        }
        "class" => ident(after).ok_or_else(refused),
        "const" => {
            let (name, after) = ident(after).ok_or_else(refused)?;
            // one binding, a name: `export const a = …` (not `{ a } = …`)
            if after.trim_start().starts_with('=') {
                Ok((name, after))
            } else {
                Err(refused())
            }
        }
        _ => Err(refused()),
    }
}

/// A path as a JavaScript string (the paths of `web/` need no escape; others are refused).
fn js_string(path: &str) -> Result<String, String> {
    if path
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c))
    {
        Ok(format!("\"{path}\""))
    } else {
        Err(format!("{path}: a name the bundle does not take"))
    }
}

/// The one script that runs the modules `entries` (paths in `web/`) and every module they
/// import, as the browser would run them as module scripts one after the other; `read` gives a
/// file's text. An error says why these modules are not bundled.
pub fn bundle(entries: &[String], read: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    struct Walk<'a> {
        read: &'a dyn Fn(&str) -> Option<String>,
        modules: BTreeMap<String, Module>,
        done: BTreeSet<String>,
        open: Vec<String>,
        out: String,
    }
    impl Walk<'_> {
        fn visit(&mut self, path: &str) -> Result<(), String> {
            if self.done.contains(path) {
                return Ok(());
            }
            if self.open.iter().any(|p| p == path) {
                return Err(format!(
                    "a cycle of imports: {} -> {path}",
                    self.open.join(" -> ")
                ));
            }
            let text = (self.read)(path).ok_or_else(|| format!("{path}: no such module"))?;
            let module = parse(path, &text)?;
            self.open.push(path.to_string());
            for (dep, _) in &module.imports {
                self.visit(dep)?;
            }
            self.open.pop();
            self.emit(path, &module)?;
            self.done.insert(path.to_string());
            self.modules.insert(path.to_string(), module);
            Ok(())
        }

        /// Whether `name` is exported by the module at `path` (run already).
        fn exports(&self, path: &str, name: &str) -> bool {
            self.modules
                .get(path)
                .is_some_and(|m| m.exports.iter().any(|(n, _)| n == name))
        }

        fn emit(&mut self, path: &str, module: &Module) -> Result<(), String> {
            let key = js_string(path)?;
            let mut head = String::new();
            for (dep, binding) in &module.imports {
                let dep_key = js_string(dep)?;
                match binding {
                    Binding::Bare => {}
                    Binding::Namespace(name) => {
                        head.push_str(&format!("const {name} = __modules[{dep_key}]; "))
                    }
                    Binding::Named(names) => {
                        let mut parts = Vec::new();
                        for (there, here) in names {
                            if !self.exports(dep, there) {
                                return Err(format!("{path}: {dep} does not export {there}"));
                            }
                            parts.push(if there == here {
                                here.clone()
                            } else {
                                format!("{there}: {here}")
                            });
                        }
                        head.push_str(&format!(
                            "const {{ {} }} = __modules[{dep_key}]; ",
                            parts.join(", ")
                        ));
                    }
                }
            }
            let mut exported = Vec::new();
            for (name, what) in &module.exports {
                exported.push(match what {
                    Export::Local(local) if local == name => name.clone(),
                    Export::Local(local) => format!("{name}: {local}"),
                    Export::From(dep, there) => {
                        if !self.exports(dep, there) {
                            return Err(format!("{path}: {dep} does not export {there}"));
                        }
                        format!("{name}: __modules[{}].{there}", js_string(dep)?)
                    }
                });
            }
            self.out.push_str(&format!(
                "// /{path}\n__modules[{key}] = (() => {{ {head}\n{}\nreturn {{ {} }};\n}})();\n",
                module.body.trim_end(),
                exported.join(", ")
            ));
            Ok(())
        }
    }
    let mut walk = Walk {
        read,
        modules: BTreeMap::new(),
        done: BTreeSet::new(),
        open: Vec::new(),
        out: format!(
            "// The modules {} and theirs, as one script (made by the server from web/).\n\
             const __modules = {{}};\n",
            entries
                .iter()
                .map(|e| format!("/{e}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    for entry in entries {
        walk.visit(entry)?;
    }
    Ok(walk.out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::test_files as files;

    #[test]
    fn a_page_script_tags_become_one() {
        let html =
            "<head>\n  <script type=\"module\" src=\"/theme.js\"></script>\n  <title>x</title>\n  \
                    <script type=\"module\" src=\"/i18n.js\"></script>\n  \
                    <script type=\"module\" src=\"/game.js\"></script>\n</head>";
        assert_eq!(page_scripts(html), ["theme.js", "i18n.js", "game.js"]);
        assert_eq!(
            with_bundle(html, "/bundle/game.js"),
            "<head>\n  <script type=\"module\" src=\"/bundle/game.js\"></script>\n  \
             <title>x</title>\n</head>"
        );
    }

    #[test]
    fn modules_run_after_what_they_import_once_each() {
        let read = files(&[
            ("i18n.js", "// @ts-check\nexport const t = (k) => k;\nexport function has() {}\n"),
            (
                "game.js",
                "import { t } from './i18n.js';\nimport { createBoard, layout as lay } from './board.js';\n\
                 createBoard(t('x'), lay);\n",
            ),
            (
                "board.js",
                "import {\n  s,\n} from './board/state.js';\nimport * as i from './i18n.js';\n\
                 export { layout } from './board/state.js';\nexport async function createBoard() { return s; }\n",
            ),
            (
                "board/state.js",
                "import { t } from '../i18n.js';\nimport '../side.js';\nconst s = t('s');\nconst layout = 2;\nexport { s, layout as layout };\n",
            ),
            ("side.js", "export class Side {}\n"),
        ]);
        let text = bundle(&["i18n.js".into(), "game.js".into()], &read).unwrap();
        let order: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("__modules[\""))
            .filter_map(|l| l.split_once('"').map(|(path, _)| path))
            .collect();
        assert_eq!(
            order,
            [
                "i18n.js",
                "side.js",
                "board/state.js",
                "board.js",
                "game.js"
            ]
        );
        assert!(text.contains(
            "__modules[\"board/state.js\"] = (() => { const { t } = __modules[\"i18n.js\"]; \n"
        ));
        assert!(text.contains("return { t, has };"));
        assert!(text.contains("return { s, layout };"));
        assert!(text.contains("const i = __modules[\"i18n.js\"];"));
        assert!(
            text.contains("return { layout: __modules[\"board/state.js\"].layout, createBoard };")
        );
        assert!(text.contains("const { createBoard, layout: lay } = __modules[\"board.js\"];"));
        assert!(text.contains("\nasync function createBoard() { return s; }\n"));
        assert!(!text.contains("import "), "{text}");
    }

    #[test]
    fn what_cannot_be_bundled_is_refused() {
        for (text, why) in [
            ("export default 1;\n", "export default"),
            ("export * from './a.js';\n", "export *"),
            ("export let a = 1;\n", "export let"),
            ("export const { a } = b;\n", "export const {"),
            ("import a from './a.js';\n", "import {"),
            ("const m = import('./a.js');\n", "dynamic"),
            ("const u = import.meta.url;\n", "import.meta"),
            ("import { nope } from './a.js';\n", "does not export nope"),
            ("import { a } from './b.js';\n", "cycle"),
            (
                "import { a } from 'https://x/a.js';\n",
                "not a module of web/",
            ),
            ("const a = await fetch('/x');\n", "await at the top level"),
        ] {
            let read = move |path: &str| match path {
                "main.js" => Some(text.to_string()),
                "a.js" => Some("export const a = 1;\n".to_string()),
                "b.js" => Some("import { a } from './main.js';\nexport { a };\n".to_string()),
                _ => None,
            };
            let err = bundle(&["main.js".into()], &read).expect_err(text);
            assert!(err.contains(why), "{text}: {err}");
        }
        // a type's import in a comment is no import
        let read = |_: &str| {
            Some("/** @type {import('./a.js').A} */\nconst x = /** @type {import('./a.js').A} */ (1);\n".to_string())
        };
        assert!(bundle(&["main.js".into()], &read).is_ok());
    }
}
