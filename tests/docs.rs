//! Keeps docs/ honest where that is cheap to check: every `FFTX_*` environment variable the
//! library, the tool or the build script reads is in docs/environment.md (and every one named
//! there is still used somewhere), and every function declared in include/fftx.h has its
//! entry in docs/fftx-api.md.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()))
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()) {
        if e.is_dir() {
            rust_files(&e, out);
        } else if e.extension().is_some_and(|x| x == "rs") {
            out.push(e);
        }
    }
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier starting at `s` (letters, digits, underscores).
fn ident(s: &str) -> &str {
    &s[..s.find(|c: char| !is_ident(c)).unwrap_or(s.len())]
}

/// Whether `text` has `word` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// The `FFTX_*` names read with `env::var("...")` / `env::var_os("...")` in `text`.
fn env_reads(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for pat in ["var(\"FFTX_", "var_os(\"FFTX_"] {
        for (i, _) in text.match_indices(pat) {
            let start = i + pat.len() - "FFTX_".len();
            names.insert(ident(&text[start..]).to_string());
        }
    }
    names
}

#[test]
fn every_environment_variable_read_is_documented() {
    let mut files = vec![root().join("build.rs")];
    rust_files(&root().join("src"), &mut files);
    let mut read_by: Vec<(String, PathBuf)> = Vec::new();
    for f in &files {
        for name in env_reads(&read(f)) {
            read_by.push((name, f.clone()));
        }
    }
    // The scan itself works: the variables everyone knows are found.
    for known in ["FFTX_LOG", "FFTX_BACKEND", "FFTX_GPU_MEMORY", "FFTX_SONAME"] {
        assert!(
            read_by.iter().any(|(n, _)| n == known),
            "the scan of src/ and build.rs no longer finds {known}: fix this test"
        );
    }
    let doc = read(&root().join("docs/environment.md"));
    let missing: Vec<String> = read_by
        .iter()
        .filter(|(n, _)| !has_word(&doc, n))
        .map(|(n, f)| {
            format!(
                "{n} (read in {})",
                f.strip_prefix(root()).unwrap().display()
            )
        })
        .collect();
    assert!(
        missing.is_empty(),
        "docs/environment.md does not document: {missing:?}"
    );
}

#[test]
fn every_documented_environment_variable_is_used() {
    let doc = read(&root().join("docs/environment.md"));
    let mut files = vec![root().join("build.rs")];
    for d in ["src", "tests"] {
        rust_files(&root().join(d), &mut files);
    }
    let mut code: String = files.iter().map(|f| read(f)).collect();
    for dir in [".ci", "tools"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                code.push_str(&std::fs::read_to_string(&p).unwrap_or_default());
            }
        }
    }
    let documented: BTreeSet<&str> = doc
        .match_indices("FFTX_")
        .map(|(i, _)| ident(&doc[i..]))
        .filter(|n| n.len() > "FFTX_".len()) // `FFTX_*` in the text
        .collect();
    let stale: Vec<&str> = documented
        .into_iter()
        .filter(|n| !has_word(&code, n))
        .collect();
    assert!(
        stale.is_empty(),
        "docs/environment.md names variables nothing reads any more: {stale:?}"
    );
}

#[test]
fn every_fftx_h_function_is_in_the_api_reference() {
    let header = read(&root().join("include/fftx.h"));
    // Declarations and the macros' calls: an `fftx_` identifier directly followed by `(`.
    let mut functions = BTreeSet::new();
    for (i, _) in header.match_indices("fftx_") {
        if header[..i].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let name = ident(&header[i..]);
        if header[i + name.len()..].starts_with('(') {
            functions.insert(name.to_string());
        }
    }
    for known in [
        "fftx_plan_compose",
        "fftx_execute",
        "fftx_pointwise_real_set",
    ] {
        assert!(
            functions.contains(known),
            "the scan of include/fftx.h no longer finds {known}: fix this test"
        );
    }
    let doc = read(&root().join("docs/fftx-api.md"));
    let missing: Vec<&String> = functions.iter().filter(|f| !has_word(&doc, f)).collect();
    assert!(
        missing.is_empty(),
        "docs/fftx-api.md has no entry for: {missing:?}"
    );
    // The single-precision calls are documented by their double twins (one body in the
    // library): each must have one, and the page must say so.
    let mut single = BTreeSet::new();
    for (i, _) in header.match_indices("fftxf_") {
        let name = ident(&header[i..]);
        if !header[..i].chars().next_back().is_some_and(is_ident)
            && header[i + name.len()..].starts_with('(')
        {
            single.insert(name.to_string());
        }
    }
    assert!(
        single.contains("fftxf_plan_compose"),
        "no fftxf_ calls found in include/fftx.h"
    );
    let orphans: Vec<&String> = single
        .iter()
        .filter(|f| !functions.contains(&f.replacen("fftxf_", "fftx_", 1)))
        .collect();
    assert!(
        orphans.is_empty(),
        "fftxf_ calls without an fftx_ twin: {orphans:?}"
    );
    assert!(
        has_word(&doc, "fftxf_real") && has_word(&doc, "fftxf_plan"),
        "docs/fftx-api.md does not describe the single-precision interface"
    );
}

#[test]
fn the_readme_links_the_docs() {
    let readme = read(&root().join("README.md"));
    for page in [
        "docs/fftx-api.md",
        "docs/environment.md",
        "docs/placement.md",
        "docs/porting.md",
        "docs/measurements.md",
    ] {
        assert!(root().join(page).is_file(), "{page} is missing");
        assert!(readme.contains(page), "README.md does not link {page}");
    }
}
