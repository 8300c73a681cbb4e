//! Embeds the front end (`web/` at the root of the repository) into the binary: one
//! `(path, bytes)` entry per file, so that `cargo build --release` alone makes a binary that
//! serves the whole app; the rules texts (`docs/rules/*.md`) for the rules pages; and the
//! games' texts in other languages (`crates/rules/src/games/<folder>/<lang>.ftl`).

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

    // The rules texts, for the rules pages: docs/rules/<name>.md.
    let docs = manifest.join("../../docs/rules");
    println!("cargo:rerun-if-changed={}", docs.display());
    let mut rules = Vec::new();
    walk(&docs, &docs, &mut rules);
    writeln!(f, "pub static RULES: &[(&str, &str)] = &[").unwrap();
    for (name, path) in &rules {
        println!("cargo:rerun-if-changed={}", path.display());
        if let Some(stem) = name.strip_suffix(".md") {
            writeln!(
                f,
                "    ({stem:?}, include_str!({:?})),",
                path.display().to_string()
            )
            .unwrap();
        }
    }
    writeln!(f, "];").unwrap();

    // Each game's texts for people in other languages than English, from its own folder of the
    // rules: crates/rules/src/games/<folder>/<lang>.ftl, as ("<lang>", text).
    let games = manifest.join("../rules/src/games");
    println!("cargo:rerun-if-changed={}", games.display());
    let mut texts = Vec::new();
    walk(&games, &games, &mut texts);
    writeln!(f, "pub static GAME_TEXTS: &[(&str, &str)] = &[").unwrap();
    for (name, path) in &texts {
        let Some((_folder, file)) = name.split_once('/') else {
            continue;
        };
        if let Some(lang) = file.strip_suffix(".ftl").filter(|l| !l.contains('/')) {
            println!("cargo:rerun-if-changed={}", path.display());
            writeln!(
                f,
                "    ({lang:?}, include_str!({:?})),",
                path.display().to_string()
            )
            .unwrap();
        }
    }
    writeln!(f, "];").unwrap();
}
