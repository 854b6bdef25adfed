//! `bosweep reference`: the user's guide's reference pages in docs/reference are what the code
//! generates now, `--check` names each page that differs, and `--out` writes all four.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{exited, stderr, succeeded};

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
    assert!(!stderr(&output).contains("panicked"));
    output
}

fn sandbox(name: &str) -> PathBuf {
    crate::common::sandbox("reference", name)
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
    succeeded(&written);
    for page in PAGES {
        let text = std::fs::read_to_string(dir.join("pages").join(page)).unwrap();
        assert!(text.starts_with("# "), "{page}: {text}");
        assert!(
            text.lines().all(|line| line == line.trim_end()),
            "{page} has trailing whitespace"
        );
    }
    succeeded(&reference(&dir, &["--check", "--out", "pages"]));

    let algorithms = dir.join("pages/algorithms.md");
    let edited = std::fs::read_to_string(&algorithms).unwrap() + "\nEdited by hand.\n";
    std::fs::write(&algorithms, edited).unwrap();
    std::fs::remove_file(dir.join("pages/config.md")).unwrap();
    let checked = reference(&dir, &["--check", "--out", "pages"]);
    exited(&checked, 1);
    assert_eq!(
        stderr(&checked),
        "error: pages/algorithms.md is out of date, pages/config.md is missing; \
         regenerate with: bosweep reference --out pages\n"
    );

    succeeded(&reference(&dir, &["--out", "pages"]));
    succeeded(&reference(&dir, &["--check", "--out", "pages"]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_out_that_cannot_be_created_is_an_error_naming_it() {
    let dir = sandbox("unwritable");
    std::fs::write(dir.join("file"), "").unwrap();
    let output = reference(&dir, &["--out", "file/pages"]);
    exited(&output, 1);
    assert!(
        stderr(&output).starts_with("error: cannot create file/pages: "),
        "{}",
        stderr(&output)
    );
    let output = reference(&dir, &["--out", "file"]);
    exited(&output, 2);
    assert!(stderr(&output).contains("--out file: the path is a file"));
    let _ = std::fs::remove_dir_all(&dir);
}
