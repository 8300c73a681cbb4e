//! Embeds the front end (`web/` at the root of the repository) into the binary: one
//! `(path, bytes)` entry per file, so that `cargo build --release` alone makes a binary that
//! serves the whole app; and from each game's folder of the rules
//! (`crates/rules/src/games/<folder>/`), its rules pages (`rules.<lang>.md`) and its texts in
//! other languages than English (`<lang>.ftl`).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, base: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, base, out);
        } else if let Ok(rel) = path.strip_prefix(base) {
            let name = rel.to_string_lossy().replace('\\', "/");
            if !name.starts_with('.') && !name.contains("/.") {
                out.push((name, path.canonicalize().expect("a web file's path")));
            }
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = manifest.join("../../web");
    println!("cargo:rerun-if-changed={}", web.display());
    let mut files = Vec::new();
    walk(&web, &web, &mut files);
    for (_, path) in &files {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("web_files.rs");
    let mut f = fs::File::create(out).expect("OUT_DIR is writable");
    writeln!(f, "pub static FILES: &[(&str, &[u8])] = &[").unwrap();
    for (name, path) in &files {
        writeln!(
            f,
            "    ({name:?}, include_bytes!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    writeln!(f, "];").unwrap();

    // From each game's own folder of the rules (crates/rules/src/games/<folder>/): its texts
    // for people in other languages than English, <lang>.ftl, as ("<lang>", text); and its
    // rules pages, rules.<lang>.md, as ("<folder>", "<lang>", text).
    let games = manifest.join("../rules/src/games");
    println!("cargo:rerun-if-changed={}", games.display());
    let mut game_files = Vec::new();
    walk(&games, &games, &mut game_files);
    let mut texts = String::new();
    let mut pages = String::new();
    for (name, path) in &game_files {
        let Some((folder, file)) = name.split_once('/').filter(|(_, f)| !f.contains('/')) else {
            continue;
        };
        let text = format!("include_str!({:?})", path.display().to_string());
        if let Some(lang) = file.strip_suffix(".ftl") {
            texts.push_str(&format!("    ({lang:?}, {text}),\n"));
        } else if let Some(lang) = file
            .strip_prefix("rules.")
            .and_then(|rest| rest.strip_suffix(".md"))
        {
            pages.push_str(&format!("    ({folder:?}, {lang:?}, {text}),\n"));
        } else {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
    }
    writeln!(f, "pub static GAME_TEXTS: &[(&str, &str)] = &[\n{texts}];").unwrap();
    writeln!(f, "pub static RULES: &[(&str, &str, &str)] = &[\n{pages}];").unwrap();
}
