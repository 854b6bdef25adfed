//! Reference archive sets: made from a finished sweep, read back with errors that name the file
//! and line, put beside another sweep in its report, compared against, and the sets bosweep
//! ships checked against the configs that made them.

use std::path::Path;
use std::process::Command;

use bosweep::report::archive::{
    ARCHIVE_FILE, ARCHIVE_RUNS_FILE, ArchiveError, ArchivedSet, NewSet, create_archive, open_set,
    shipped_sets,
};
use bosweep::report::{ReportError, ReportOptions, write_report, write_report_with};
use bosweep::sweep::compare::{CompareError, CompareOptions, compare_sweeps};
use bosweep::sweep::{RunSpec, SweepConfig};

use super::report::{
    CONFIG, S, build_sweep, read_csv, setting, spec, temp_dir, write_manifest, write_trace,
};

use crate::common::{assert_contains, file_containing};

fn new_set(name: &str) -> NewSet {
    NewSet {
        name: name.into(),
        version: 1,
        description: "The report tests' synthetic sweep.".into(),
        commit: "0000000".into(),
        command: "bosweep sweep config.toml".into(),
    }
}

/// The report tests' synthetic sweep with its missing run written, and its shorter branin run
/// of the budget of the others: every run has a trace, and every branin run one design and
/// budget.
fn finished_sweep(dir: &Path) -> Vec<bosweep::sweep::RunSpec> {
    let mut runs = build_sweep(dir);
    let k = |v: f64| Some(v);
    let steps: [S; 4] = [
        (1, k(1.0), k(1.0), 1.4, 0.0, 0.0),
        (2, k(0.5), k(1.5), 0.9, 0.0, 0.0),
        (3, k(0.2), k(1.7), 0.6, 1.0, 0.5),
        (4, k(0.02), k(1.72), 0.42, 1.0, 0.5),
    ];
    write_trace(dir, &runs[5], "minimize", &steps);
    runs[2].budget = 4;
    write_manifest(dir, runs.clone());
    let steps: [S; 4] = [
        (1, k(1.0), k(1.0), 1.4, 0.0, 0.0),
        (2, k(0.5), k(1.5), 0.9, 0.0, 0.0),
        (3, k(0.1), k(2.0), 0.5, 0.1, 0.2),
        (4, k(0.1), k(2.1), 0.5, 0.1, 0.2),
    ];
    write_trace(dir, &runs[2], "minimize", &steps);
    runs
}

/// The rows of `summary.csv` in `dir` as (problem, algorithm) → row.
fn summary(dir: &Path) -> Vec<Vec<String>> {
    read_csv(&dir.join("summary.csv")).1
}

#[test]
fn an_unfinished_sweep_is_refused_and_a_finished_one_reads_back_whole() {
    let sweep = temp_dir("archive-unfinished");
    build_sweep(&sweep);
    let out = temp_dir("archive-unfinished-set");
    let refused = create_archive(&sweep, &out.join("set"), &new_set("synthetic")).unwrap_err();
    assert!(
        matches!(
            refused,
            ArchiveError::Incomplete {
                missing: 1,
                total: 10,
                ..
            }
        ),
        "{refused}"
    );

    finished_sweep(&sweep);
    let meta = create_archive(&sweep, &out.join("set"), &new_set("synthetic")).unwrap();
    assert_eq!(
        (meta.runs, meta.version, meta.device.as_str()),
        (10, 1, "unrecorded")
    );
    let set = ArchivedSet::read(&out.join("set")).unwrap();
    assert_eq!(set.runs(), 10);
    assert_eq!(set.config, CONFIG);
    assert_eq!(set.problems(), ["branin", "ext[dim=2]"]);
    assert_eq!(set.algorithms(), ["random", "gp-ucb[ucb_multiplier=2]"]);
    // A set is written once, into a new directory.
    let again = create_archive(&sweep, &out.join("set"), &new_set("synthetic")).unwrap_err();
    assert!(matches!(again, ArchiveError::Exists { .. }), "{again}");
    let named = create_archive(&sweep, &out.join("other"), &new_set("Not A Name")).unwrap_err();
    assert!(named.to_string().contains("\"Not A Name\""), "{named}");
}

/// Beside a sweep that ran only gp-ucb, the set's runs give the same rows as in their own
/// report, and its random search normalises the scores of the sweep's own runs.
#[test]
fn a_report_beside_an_archive_names_the_set_and_reproduces_its_numbers() {
    let full = temp_dir("archive-full");
    let full_runs = finished_sweep(&full);
    write_report(&full).unwrap();
    let sets = temp_dir("archive-sets");
    let set_dir = sets.join("synthetic");
    create_archive(&full, &set_dir, &new_set("synthetic")).unwrap();

    // The sweep: gp-ucb only, the same runs (and designs) as the set's.
    let mine = temp_dir("archive-mine");
    std::fs::write(mine.join("config.toml"), CONFIG).unwrap();
    let ucb = setting(
        "gp-ucb",
        &[("ucb_multiplier", bosweep::sweep::SettingValue::Number(2.0))],
    );
    let branin = setting("branin", &[]);
    let runs: Vec<_> = (0..3)
        .map(|r| RunSpec {
            seed: full_runs[3 + r].seed,
            ..spec(r, &ucb, &branin, r)
        })
        .collect();
    write_manifest(&mine, runs.clone());
    for (run, source) in runs.iter().zip(&full_runs[3..6]) {
        let from = bosweep::sweep::Manifest::trace_path(&full, source);
        std::fs::copy(from, bosweep::sweep::Manifest::trace_path(&mine, run)).unwrap();
    }
    let options = ReportOptions {
        archives: vec![set_dir.display().to_string()],
        ..ReportOptions::default()
    };
    let written = write_report_with(&mine, &options).unwrap();
    assert_eq!((written.total_runs, written.completed_runs), (3, 3));

    let rows = summary(&mine);
    let labels: Vec<&str> = rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(
        labels,
        [
            "gp-ucb[ucb_multiplier=2]",
            "random [synthetic]",
            "gp-ucb[ucb_multiplier=2] [synthetic]"
        ],
        "only the sweep's problem (branin) is taken from the set"
    );
    let theirs = summary(&full);
    let row_of = |rows: &[Vec<String>], algorithm: &str| {
        rows.iter()
            .find(|r| r[0] == "branin" && r[1] == algorithm)
            .unwrap()
            .clone()
    };
    // Every column but the label and the rank (the set's algorithm is ranked among three).
    let same = |a: &[String], b: &[String]| {
        assert_eq!(a[2..12], b[2..12], "\n{a:?}\n{b:?}");
        assert_eq!(a[13], b[13], "score\n{a:?}\n{b:?}");
    };
    same(
        &row_of(&rows, "random [synthetic]"),
        &row_of(&theirs, "random"),
    );
    same(
        &row_of(&rows, "gp-ucb[ucb_multiplier=2] [synthetic]"),
        &row_of(&theirs, "gp-ucb[ucb_multiplier=2]"),
    );
    // The sweep's own gp-ucb runs are the set's: the same numbers, its score against the
    // set's random search.
    same(
        &row_of(&rows, "gp-ucb[ucb_multiplier=2]"),
        &row_of(&theirs, "gp-ucb[ucb_multiplier=2]"),
    );
    let (_, scores) = read_csv(&mine.join("scores.csv"));
    assert!(
        scores.iter().all(|r| r[4] == "random [synthetic]"),
        "{scores:?}"
    );

    file_containing(
        mine.join("report.md"),
        &[
            "## Archived results beside this sweep",
            "| `synthetic` | 1 | `0000000` | `unrecorded` |",
            "| 6 | 1 | 6 of 6 |",
        ],
    );
    let html = std::fs::read_to_string(mine.join("report.html")).unwrap();
    assert!(html.contains("Archived results beside this sweep"));

    // At a simulated time the archive has no values: refused, and the config's sets are read.
    let timed = ReportOptions {
        time: Some(1.0),
        ..options.clone()
    };
    let refused = write_report_with(&mine, &timed).unwrap_err();
    assert!(matches!(refused, ReportError::Archive(_)), "{refused}");
    assert!(refused.to_string().contains("simulated time"), "{refused}");
    std::fs::write(
        mine.join("config.toml"),
        format!(
            "{CONFIG}\n[report]\narchive = [\"{}\"]\n",
            set_dir.display()
        ),
    )
    .unwrap();
    write_report(&mine).unwrap();
    assert_eq!(summary(&mine).len(), 3);
}

#[test]
fn compare_against_an_archive_is_compare_against_its_sweep() {
    let full = temp_dir("archive-compare-a");
    finished_sweep(&full);
    let set_dir = temp_dir("archive-compare-set").join("set");
    create_archive(&full, &set_dir, &new_set("synthetic")).unwrap();
    let b = temp_dir("archive-compare-b");
    finished_sweep(&b);

    let options = CompareOptions::default();
    let from_sweep = compare_sweeps(&full, &b, &options).unwrap();
    let from_set = compare_sweeps(&set_dir, &b, &options).unwrap();
    assert_eq!(from_sweep.rows, from_set.rows);
    assert_eq!(from_sweep.pairs, 10);
    assert_eq!(from_set.a_archive.as_ref().unwrap().name, "synthetic");
    assert!(from_sweep.a_archive.is_none());

    // Its runs keep their values at the quarters of the budget only.
    let between = CompareOptions {
        budgets: vec![0.3],
        ..CompareOptions::default()
    };
    let refused = compare_sweeps(&set_dir, &b, &between).unwrap_err();
    assert!(
        matches!(refused, CompareError::ArchiveBudget { fraction, .. } if fraction == 0.3),
        "{refused}"
    );
    assert!(compare_sweeps(&full, &b, &between).is_ok());
}

#[test]
fn a_broken_set_names_the_file_and_line() {
    let full = temp_dir("archive-broken");
    finished_sweep(&full);
    let set_dir = temp_dir("archive-broken-set").join("set");
    create_archive(&full, &set_dir, &new_set("synthetic")).unwrap();
    let runs_path = set_dir.join(ARCHIVE_RUNS_FILE);
    let text = std::fs::read_to_string(&runs_path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();

    lines[1] = lines[1].replacen("\"simple_regret\":[", "\"simple_regret\":[1.0,", 1);
    std::fs::write(&runs_path, lines.join("\n")).unwrap();
    let e = ArchivedSet::read(&set_dir).err().unwrap().to_string();
    assert_contains(&e, &["runs.jsonl line 2: kept.simple_regret"]);

    lines[1] = "{\"run\": 3}".into();
    std::fs::write(&runs_path, lines.join("\n")).unwrap();
    let e = ArchivedSet::read(&set_dir).err().unwrap().to_string();
    assert_contains(&e, &["runs.jsonl line 2:"]);

    lines[1] = text.lines().nth(1).unwrap().to_owned();
    lines.truncate(9);
    std::fs::write(&runs_path, lines.join("\n")).unwrap();
    let e = ArchivedSet::read(&set_dir).err().unwrap().to_string();
    assert_contains(&e, &["archive.toml: runs: 10 but runs.jsonl holds 9 runs"]);

    let missing = open_set("no-such-set").err().unwrap().to_string();
    assert_contains(&missing, &["bbob-baselines"]);
    assert!(set_dir.join(ARCHIVE_FILE).is_file());
}

/// Every shipped set holds the runs its own config plans (the same seeds and designs), so a
/// sweep of that config pairs with it, and the config in `sweeps/studies` or `sweeps/papers`
/// still plans them.
#[test]
fn shipped_sets_hold_the_runs_their_configs_plan() {
    let names = shipped_sets();
    assert_eq!(
        names,
        [
            "bbob-baselines",
            "baselines-rahbo",
            "baselines-sbo-kde",
            "baselines-pe-gp-ucb",
            "uhe-bo",
            "boke-reduced"
        ]
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in names {
        let set = open_set(name).unwrap();
        assert_eq!(set.meta.name, name);
        assert_eq!(set.runs(), set.meta.runs);
        let planned = SweepConfig::parse(&set.config, "config.toml")
            .unwrap()
            .runs();
        let study = ["sweeps/studies", "sweeps/papers"]
            .iter()
            .map(|dir| root.join(dir).join(format!("{name}.toml")))
            .find(|path| path.is_file())
            .unwrap_or_else(|| panic!("{name}: no config in sweeps/studies or sweeps/papers"));
        let study = SweepConfig::load(&study).unwrap().runs();
        assert_eq!(planned, study, "{name}: the study config plans other runs");
        let archived = ArchivedSet::read(&root.join("archive").join(name)).unwrap();
        assert_eq!(archived.runs(), planned.len(), "{name}");
    }
}

#[test]
fn the_command_line_lists_shows_and_uses_the_shipped_sets() {
    let bosweep = env!("CARGO_BIN_EXE_bosweep");
    let list = Command::new(bosweep)
        .args(["archive", "list"])
        .output()
        .unwrap();
    assert!(list.status.success());
    let text = String::from_utf8(list.stdout).unwrap();
    assert!(
        text.contains("bbob-baselines") && text.contains("1872 runs"),
        "{text}"
    );
    let show = Command::new(bosweep)
        .args(["archive", "show", "baselines-rahbo"])
        .output()
        .unwrap();
    let text = String::from_utf8(show.stdout).unwrap();
    assert!(
        text.contains("commit 77915a7") && text.contains("algorithms (8): rahbo"),
        "{text}"
    );

    let dir = temp_dir("archive-cli");
    build_sweep(&dir);
    let unknown = Command::new(bosweep)
        .args(["report", dir.to_str().unwrap(), "--archive", "no-such-set"])
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    let message = String::from_utf8(unknown.stderr).unwrap();
    assert!(
        message.contains("no-such-set") && message.contains("baselines-rahbo"),
        "{message}"
    );
    // The synthetic sweep's problems are none of the set's.
    let disjoint = Command::new(bosweep)
        .args([
            "report",
            dir.to_str().unwrap(),
            "--archive",
            "baselines-rahbo",
        ])
        .output()
        .unwrap();
    assert_eq!(disjoint.status.code(), Some(2));
    let message = String::from_utf8(disjoint.stderr).unwrap();
    assert_contains(&message, &["ran none of this sweep's problems"]);
}
