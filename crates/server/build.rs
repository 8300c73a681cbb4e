//! Embeds the front end (`web/` at the root of the repository) into the binary: one
//! `(path, bytes)` entry per file, so that `cargo build --release` alone makes a binary that
//! serves the whole app; from each game's folder of the rules
//! (`crates/rules/src/games/<folder>/`), its rules pages (`rules.<lang>.md`) and its texts in
//! other languages than English and its lines of facts in every language (`<lang>.ftl`); and the browser's engine, `/engine.wasm`:
//! crates/wasm built for `wasm32-unknown-unknown` by a cargo of its own into `target/wasm`
//! (the target is installed with rustup when missing); and each file that compresses well
//! gzip-compressed too.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// Stops the build with a message that says what to do.
fn fail(text: &str) -> ! {
    eprintln!("error: {text}");
    panic!("{text}");
}

/// Builds crates/wasm for the browser (profile `wasm` of the workspace) and returns the path of
/// the module. Every build of the server makes sure it is up to date; cargo rebuilds only what
/// changed.
fn engine_wasm(root: &Path) -> PathBuf {
    for part in [
        "crates/wasm",
        "crates/engine/src",
        "crates/rules/src",
        "Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(part).display());
    }
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_DIR");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let installed = Command::new(&rustc)
        .args(["--print", "target-libdir", "--target", WASM_TARGET])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .is_some_and(|dir| dir.join("libcore.rlib").exists() || has_core(&dir));
    if !installed {
        let added = Command::new("rustup")
            .args(["target", "add", WASM_TARGET])
            .status()
            .is_ok_and(|s| s.success());
        if !added {
            fail(&format!(
                "the browser's engine (crates/wasm) needs the Rust target {WASM_TARGET}, which is \
                 not installed and could not be: run `rustup target add {WASM_TARGET}` (with \
                 rustup), or install your distribution's Rust standard library for {WASM_TARGET}"
            ));
        }
    }
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("wasm");
    let mut build = Command::new(&cargo);
    build
        .current_dir(root)
        .args([
            "build",
            "--quiet",
            "-p",
            "myrmidon-wasm",
            "--profile",
            "wasm",
        ])
        .args(["--target", WASM_TARGET, "--target-dir"])
        .arg(&target_dir);
    // What the outer cargo set for its own build (clippy's wrapper, flags for the host) is not
    // for this one.
    for var in [
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTC_WRAPPER",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_PRIMARY_PACKAGE",
    ] {
        build.env_remove(var);
    }
    match build.status() {
        Ok(s) if s.success() => {}
        Ok(s) => fail(&format!(
            "building the browser's engine (crates/wasm) failed: {s}"
        )),
        Err(e) => fail(&format!("could not run {cargo} to build crates/wasm: {e}")),
    }
    let module = target_dir.join(WASM_TARGET).join("wasm/myrmidon_wasm.wasm");
    if !module.exists() {
        fail(&format!("{} was not made", module.display()));
    }
    module
}

/// A standard library for the target in this folder (its file names carry a hash).
fn has_core(dir: &Path) -> bool {
    fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|e| e.file_name().to_string_lossy().starts_with("libcore-"))
    })
}

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

/// Whether a file of `web/` is of a kind that gzip shrinks (text, and the WebAssembly module).
fn compressible(name: &str) -> bool {
    let ext = name.rsplit('.').next().unwrap_or("");
    [
        "js", "mjs", "css", "svg", "json", "md", "txt", "ftl", "wasm",
    ]
    .contains(&ext)
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
    let module = engine_wasm(&manifest.join("../.."));
    files.push(("engine.wasm".into(), module));
    for (name, path) in &files {
        writeln!(
            f,
            "    ({name:?}, include_bytes!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    writeln!(f, "];").unwrap();
    // Each file that compresses well (the scripts, the style sheet, the drawings, the module)
    // gzip-compressed once here, for the browsers that accept it: a phone's first load carries
    // a third of the bytes.
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    writeln!(f, "pub static GZIPPED: &[(&str, &[u8])] = &[").unwrap();
    for (name, path) in &files {
        if !compressible(name) {
            continue;
        }
        let bytes = fs::read(path).expect("a web file reads");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&bytes).expect("compressing in memory");
        let gz = gz.finish().expect("compressing in memory");
        if gz.len() * 10 > bytes.len() * 9 {
            continue;
        }
        let gz_path = out_dir.join(format!("{}.gz", name.replace('/', "__")));
        fs::write(&gz_path, gz).expect("OUT_DIR is writable");
        writeln!(
            f,
            "    ({name:?}, include_bytes!({:?})),",
            gz_path.display().to_string()
        )
        .unwrap();
    }
    writeln!(f, "];").unwrap();

    // From each game's own folder of the rules (crates/rules/src/games/<folder>/): its texts
    // for people (in English only its lines of facts), <lang>.ftl, as ("<lang>", text); and its
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
