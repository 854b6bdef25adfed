//! `bosweep reference`: the user's guide's reference pages in docs/reference are what the code
//! generates now, `--check` names each page that differs, and `--out` writes all four.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PAGES: [&str; 4] = ["cli.md", "algorithms.md", "problems.md", "config.md"];

/// Runs `bosweep reference` with `args` in `dir`, with environment variables the pages must not
/// depend on set to values of their own.
fn reference(dir: &Path, args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_bosweep"))
        .arg("reference")
        .args(args)
        .current_dir(dir)
        .env("BOSWEEP_DEVICE", "cpu")
        .env("BOSWEEP_PRECISION", "f64")
        .env("BOSWEEP_INTEL_DATA", "/nonexistent/data.txt")
        .env("COLUMNS", "40")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
    output
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn sandbox(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bosweep-reference-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_reference_pages_in_docs_are_up_to_date() {
    let output = reference(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["--check", "--out", "docs/reference"],
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "the reference pages are stale: {}(from the repository root: cargo run -- reference --out docs/reference)",
        stderr(&output)
    );
}

#[test]
fn out_writes_every_page_and_check_names_each_that_differs() {
    let dir = sandbox("check");
    let written = reference(&dir, &["--out", "pages"]);
    assert_eq!(written.status.code(), Some(0), "{}", stderr(&written));
    for page in PAGES {
        let text = std::fs::read_to_string(dir.join("pages").join(page)).unwrap();
        assert!(text.starts_with("# "), "{page}: {text}");
        assert!(
            text.lines().all(|line| line == line.trim_end()),
            "{page} has trailing whitespace"
        );
    }
    assert_eq!(
        reference(&dir, &["--check", "--out", "pages"])
            .status
            .code(),
        Some(0)
    );

    let algorithms = dir.join("pages/algorithms.md");
    let edited = std::fs::read_to_string(&algorithms).unwrap() + "\nEdited by hand.\n";
    std::fs::write(&algorithms, edited).unwrap();
    std::fs::remove_file(dir.join("pages/config.md")).unwrap();
    let checked = reference(&dir, &["--check", "--out", "pages"]);
    assert_eq!(checked.status.code(), Some(1), "{}", stderr(&checked));
    assert_eq!(
        stderr(&checked),
        "error: pages/algorithms.md is out of date, pages/config.md is missing; \
         regenerate with: bosweep reference --out pages\n"
    );

    assert_eq!(reference(&dir, &["--out", "pages"]).status.code(), Some(0));
    assert_eq!(
        reference(&dir, &["--check", "--out", "pages"])
            .status
            .code(),
        Some(0)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_out_that_cannot_be_created_is_an_error_naming_it() {
    let dir = sandbox("unwritable");
    std::fs::write(dir.join("file"), "").unwrap();
    let output = reference(&dir, &["--out", "file/pages"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).starts_with("error: cannot create file/pages: "),
        "{}",
        stderr(&output)
    );
    let output = reference(&dir, &["--out", "file"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("--out file: the path is a file"));
    let _ = std::fs::remove_dir_all(&dir);
}
