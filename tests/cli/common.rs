//! What the command-line test files share: a fresh directory for each test, the `bosweep`
//! binary run in it on the CPU, and exit statuses checked with the binary's stderr in the
//! message, so that a failing test shows what the binary said rather than a bare `Some(2)`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh, empty directory `bosweep-{area}-{pid}-{name}` under the system's temporary
/// directory: the process id keeps concurrent test binaries apart, the area the tests of one
/// name in different files.
pub(crate) fn sandbox(area: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bosweep-{area}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A [`sandbox`] with `config` written to its `sweep.toml`, for the files whose tests all
/// sweep one configuration.
pub(crate) fn sweep_sandbox(area: &str, name: &str, config: &str) -> PathBuf {
    let dir = sandbox(area, name);
    std::fs::write(dir.join("sweep.toml"), config).unwrap();
    dir
}

/// `bosweep --device cpu args…` in `dir`, not yet started: for the tests that set its
/// environment or pipes before running it.
pub(crate) fn command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bosweep"));
    command
        .args(["--device", "cpu"])
        .args(args)
        .current_dir(dir);
    command
}

/// Runs `bosweep --device cpu args…` in `dir` to its end, asserting that it did not panic (a
/// panic is a bug whatever the exit status the test expects).
pub(crate) fn bosweep(dir: &Path, args: &[&str]) -> Output {
    let out = command(dir, args).output().unwrap();
    assert!(
        !stderr(&out).contains("panicked"),
        "bosweep {args:?} panicked: {}",
        stderr(&out)
    );
    out
}

/// What the binary printed on stdout.
pub(crate) fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What the binary printed on stderr.
pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts that the binary exited with `code`, showing its stderr where it did not, and
/// returns that stderr for the test's further checks.
pub(crate) fn exited(out: &Output, code: i32) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "{err}");
    err
}

/// Asserts that the binary exited 0, showing its stderr where it did not, and returns that
/// stderr (notes and warnings a test may check).
pub(crate) fn succeeded(out: &Output) -> String {
    exited(out, 0)
}

/// The arguments of `bosweep run --algo ALGO --problem PROBLEM --budget BUDGET`, then `extra`:
/// the run most command-line tests start, named once.
pub(crate) fn run_args<'a>(
    algo: &'a str,
    problem: &'a str,
    budget: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    [
        &[
            "run",
            "--algo",
            algo,
            "--problem",
            problem,
            "--budget",
            budget,
        ][..],
        extra,
    ]
    .concat()
}

/// Asserts that `text` (a message, a report, a page) contains each of `needles`, showing the
/// needle and the whole text where it does not.
pub(crate) fn assert_contains(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "{needle}: {text}");
    }
}

/// The text of the file at `path`, asserted to contain each of `needles` (see
/// [`assert_contains`]).
pub(crate) fn file_containing(path: impl AsRef<Path>, needles: &[&str]) -> String {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    assert_contains(&text, needles);
    text
}

/// Writes `config` to `dir/file` and runs `bosweep sweep file --out out extra…` on it: a test's
/// own variant of a sweep configuration, swept.
pub(crate) fn sweep_config(
    dir: &Path,
    file: &str,
    config: &str,
    out: &str,
    extra: &[&str],
) -> Output {
    std::fs::write(dir.join(file), config).unwrap();
    bosweep(dir, &[&["sweep", file, "--out", out][..], extra].concat())
}
