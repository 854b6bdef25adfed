//! Sweep configs: parsing, grid expansion and its order, run keys and seeds, per-problem
//! overrides, every rejected config (file, line and key in the message), and the shipped
//! `sweeps/quick.toml`.

use std::collections::HashSet;

use bosweep::algorithms;
use bosweep::problems;
use bosweep::sweep::{
    ConfigError, RunSpec, Setting, SettingValue, SweepConfig, config_hash, run_key, run_seed,
};

use crate::common::assert_contains;

const EXAMPLE: &str = r#"seed = 1          # sweep seed
replicates = 5
budget = 40
init = 10

[[algorithm]]
name = "gp-ucb"
ucb_multiplier = [1.0, 2.0, 4.0]
fit = "mle"

[[algorithm]]
name = "random"

[[problem]]
name = "ackley"
dim = [2, 5]
noise_std = 0.1
budget = 60

[[problem]]
name = "branin"
"#;

fn parse(text: &str) -> SweepConfig {
    SweepConfig::parse(text, "test.toml").unwrap_or_else(|e| panic!("{e}"))
}

fn error(text: &str) -> ConfigError {
    match SweepConfig::parse(text, "test.toml") {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

/// Asserts that `text` is rejected at `line` with a message containing every one of `needles`.
fn assert_rejected(text: &str, line: usize, needles: &[&str]) {
    let e = error(text);
    let message = e.to_string();
    assert_eq!(e.line, Some(line), "{message}");
    assert!(
        message.starts_with(&format!("test.toml line {line}")),
        "{message}"
    );
    for needle in needles {
        assert!(message.contains(needle), "{message:?} lacks {needle:?}");
    }
}

/// A valid config with `extra` inserted among the top-level keys (line 2).
fn with_top(extra: &str) -> String {
    format!(
        "budget = 10\n{extra}\n[[algorithm]]\nname = \"random\"\n\n[[problem]]\nname = \"branin\"\n"
    )
}

/// A valid config whose only algorithm table (header on line 3) has `body` after its name.
fn with_algorithm(body: &str) -> String {
    format!(
        "budget = 10\ninit = 2\n[[algorithm]]\nname = \"gp-ucb\"\n{body}\n[[problem]]\nname = \"branin\"\n"
    )
}

/// A valid config whose only problem table (header on line 5) has `body` after its name.
fn with_problem(name: &str, body: &str) -> String {
    format!(
        "budget = 10\ninit = 2\n[[algorithm]]\nname = \"random\"\n[[problem]]\nname = \"{name}\"\n{body}\n"
    )
}

fn number(v: f64) -> SettingValue {
    SettingValue::Number(v)
}

fn text(s: &str) -> SettingValue {
    SettingValue::Text(s.to_owned())
}

#[test]
fn the_schema_example_expands_in_config_order() {
    let config = parse(EXAMPLE);
    assert_eq!(config.seed(), 1);
    assert_eq!(config.replicates(), 5);
    assert_eq!(config.budget(), 40);
    assert_eq!(config.init(), 10);
    assert_eq!(config.file_name(), "test.toml");
    let algorithms: Vec<String> = config.algorithms().iter().map(Setting::label).collect();
    assert_eq!(
        algorithms,
        [
            "gp-ucb[fit=mle,ucb_multiplier=1]",
            "gp-ucb[fit=mle,ucb_multiplier=2]",
            "gp-ucb[fit=mle,ucb_multiplier=4]",
            "random"
        ]
    );
    let problems: Vec<String> = config
        .problems()
        .iter()
        .map(|p| p.setting.label())
        .collect();
    assert_eq!(
        problems,
        [
            "ackley[dim=2,noise_std=0.1]",
            "ackley[dim=5,noise_std=0.1]",
            "branin"
        ]
    );

    let runs = config.runs();
    assert_eq!(runs.len(), 3 * 4 * 5);
    assert_eq!(config.run_count(), runs.len());
    let mut expected = Vec::new();
    for p in &problems {
        for a in &algorithms {
            for r in 0..5 {
                expected.push((p.clone(), a.clone(), r));
            }
        }
    }
    let got: Vec<(String, String, usize)> = runs
        .iter()
        .map(|r| (r.problem.label(), r.algorithm.label(), r.replicate))
        .collect();
    assert_eq!(got, expected);
    for (i, run) in runs.iter().enumerate() {
        assert_eq!(run.index, i);
    }

    let first = &runs[0];
    assert_eq!(first.algorithm.name, "gp-ucb");
    assert_eq!(
        first.algorithm.params,
        [
            ("fit".to_owned(), text("mle")),
            ("ucb_multiplier".to_owned(), number(1.0))
        ]
    );
    assert_eq!(first.problem.name, "ackley");
    assert_eq!(
        first.problem.params,
        [
            ("dim".to_owned(), number(2.0)),
            ("noise_std".to_owned(), number(0.1))
        ]
    );
    assert_eq!(
        first.key(),
        "gp-ucb[fit=mle,ucb_multiplier=1]|ackley[dim=2,noise_std=0.1]|0"
    );
    assert_eq!(
        runs[6].key(),
        "gp-ucb[fit=mle,ucb_multiplier=2]|ackley[dim=2,noise_std=0.1]|1"
    );
}

#[test]
fn per_problem_budget_and_init_override_the_top_level() {
    let config = parse(EXAMPLE);
    for run in config.runs() {
        let expected = if run.problem.name == "ackley" { 60 } else { 40 };
        assert_eq!(run.budget, expected, "{}", run.key());
        assert_eq!(run.init, 10);
    }
    let config = parse(&with_problem("branin", "budget = 5\ninit = 3"));
    assert_eq!((config.budget(), config.init()), (10, 2));
    let runs = config.runs();
    assert_eq!((runs[0].budget, runs[0].init), (5, 3));
    assert_eq!(
        (config.problems()[0].budget, config.problems()[0].init),
        (5, 3)
    );
}

#[test]
fn defaults_are_seed_0_one_replicate_and_init_10() {
    let config =
        parse("budget = 12\n[[algorithm]]\nname = \"random\"\n[[problem]]\nname = \"branin\"\n");
    assert_eq!(config.seed(), 0);
    assert_eq!(config.replicates(), 1);
    assert_eq!(config.init(), 10);
    let runs = config.runs();
    assert_eq!(runs.len(), 1);
    assert_eq!((runs[0].budget, runs[0].init), (12, 10));
    assert_eq!(runs[0].key(), "random|branin|0");
}

#[test]
fn grids_take_keys_in_sorted_order_first_key_slowest() {
    let config = parse(&with_algorithm(
        "ucb_multiplier = [3, 0.5]\nkernel = [\"se\", \"matern52\"]\nrefine = false",
    ));
    let labels: Vec<String> = config.algorithms().iter().map(Setting::label).collect();
    assert_eq!(
        labels,
        [
            "gp-ucb[kernel=se,refine=false,ucb_multiplier=3]",
            "gp-ucb[kernel=se,refine=false,ucb_multiplier=0.5]",
            "gp-ucb[kernel=matern52,refine=false,ucb_multiplier=3]",
            "gp-ucb[kernel=matern52,refine=false,ucb_multiplier=0.5]",
        ]
    );
    // Booleans become the words the registry's choices use; integers and floats numbers.
    assert_eq!(
        config.algorithms()[0].params[1],
        ("refine".to_owned(), text("false"))
    );
    assert_eq!(
        config.algorithms()[0].params[2],
        ("ucb_multiplier".to_owned(), number(3.0))
    );
    // A grid over a problem parameter multiplies with the algorithm grid.
    let config = parse(
        "budget = 10\ninit = 2\nreplicates = 2\n[[algorithm]]\nname = \"gp-ucb\"\nucb_multiplier = [1, 2]\n\
         [[problem]]\nname = \"levy\"\ndim = [2, 3, 4]\nnoise_std = [0, 0.5]\n",
    );
    assert_eq!(config.problems().len(), 6);
    assert_eq!(config.runs().len(), 6 * 2 * 2);
    assert_eq!(
        config.problems()[1].setting.label(),
        "levy[dim=2,noise_std=0.5]"
    );
}

#[test]
fn seeds_come_from_the_sweep_seed_and_the_run_key() {
    let config = parse(EXAMPLE);
    let runs = config.runs();
    for run in &runs {
        assert_eq!(run.seed, run_seed(1, &run.key()));
        assert_eq!(
            run.key(),
            run_key(&run.algorithm, &run.problem, run.replicate)
        );
    }
    let seeds: HashSet<u64> = runs.iter().map(|r| r.seed).collect();
    assert_eq!(
        seeds.len(),
        runs.len(),
        "seeds repeat across runs or replicates"
    );
    let keys: HashSet<String> = runs.iter().map(RunSpec::key).collect();
    assert_eq!(keys.len(), runs.len());

    // Stable: the same text gives the same runs; a run's seed does not depend on its position.
    assert_eq!(parse(EXAMPLE).runs(), runs);
    let reordered = EXAMPLE
        .replace("[[problem]]\nname = \"branin\"\n", "")
        .replace(
            "[[problem]]\nname = \"ackley\"",
            "[[problem]]\nname = \"branin\"\n[[problem]]\nname = \"ackley\"",
        );
    let moved = parse(&reordered).runs();
    assert_eq!(moved.len(), runs.len());
    assert_ne!(moved[0].key(), runs[0].key());
    for run in &moved {
        let same = runs.iter().find(|r| r.key() == run.key()).unwrap();
        assert_eq!(run.seed, same.seed);
        assert_ne!(run.index, same.index);
    }

    // Another sweep seed changes every run's seed.
    let other = parse(&EXAMPLE.replace("seed = 1 ", "seed = 2 ")).runs();
    assert_eq!(other.len(), runs.len());
    for (a, b) in runs.iter().zip(&other) {
        assert_eq!(a.key(), b.key());
        assert_ne!(a.seed, b.seed);
    }
}

#[test]
fn config_hash_is_fnv1a_of_the_text() {
    assert_eq!(config_hash(""), "cbf29ce484222325");
    assert_eq!(config_hash("a"), "af63dc4c8601ec8c");
    let config = parse(EXAMPLE);
    assert_eq!(config.text(), EXAMPLE);
    assert_eq!(config.hash(), config_hash(EXAMPLE));
    assert_ne!(
        config_hash(EXAMPLE),
        config_hash(&EXAMPLE.replace("seed = 1", "seed = 3"))
    );
}

#[test]
fn an_unreadable_file_is_named() {
    let path = std::env::temp_dir().join("bosweep-no-such-dir/missing.toml");
    let e = SweepConfig::load(&path).unwrap_err();
    assert_eq!(e.line, None);
    let message = e.to_string();
    assert_contains(&message, &["missing.toml", "cannot read"]);
}

#[test]
fn load_reads_and_names_the_file() {
    let dir = std::env::temp_dir().join(format!("bosweep-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.toml");
    std::fs::write(&path, with_top("replicates = 0")).unwrap();
    let message = SweepConfig::load(&path).unwrap_err().to_string();
    assert!(
        message.starts_with(&format!("{} line 2:", path.display())),
        "{message}"
    );
    std::fs::write(&path, EXAMPLE).unwrap();
    assert_eq!(
        SweepConfig::load(&path).unwrap().runs(),
        parse(EXAMPLE).runs()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn toml_syntax_errors_give_line_and_column() {
    let e = error("budget = 10\nreplicates = [1,\n  c = 3\n");
    assert_eq!((e.line, e.column), (Some(3), Some(5)), "{e}");
    assert!(
        e.to_string()
            .starts_with("test.toml line 3, column 5: invalid TOML"),
        "{e}"
    );
    let e = error("budget = 10\nbudget = 11\n");
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.to_string().contains("duplicate key"), "{e}");
}

#[test]
fn top_level_errors_name_key_line_and_allowed_values() {
    assert_rejected(
        &with_top("sed = 3"),
        2,
        &[
            "unknown key \"sed\"",
            "allowed: seed, replicates, budget, init, batch, workers, runtime, algorithm, problem, report",
        ],
    );
    assert_rejected(
        &with_top("replicates = 0"),
        2,
        &["\"replicates\"", "value 0", "≥ 1"],
    );
    assert_rejected(&with_top("seed = -1"), 2, &["\"seed\"", "value -1", "≥ 0"]);
    assert_rejected(
        &with_top("seed = 1.5"),
        2,
        &["\"seed\"", "float 1.5", "integer"],
    );
    assert_rejected(
        &with_top("replicates = \"3\""),
        2,
        &["\"replicates\"", "string \"3\""],
    );
    assert_rejected(&with_top("init = [1, 2]"), 2, &["\"init\"", "a list"]);
    assert_rejected(
        "seed = 1\nbudget = 0\n[[algorithm]]\nname = \"random\"\n[[problem]]\nname = \"branin\"\n",
        2,
        &["\"budget\"", "value 0", "≥ 1"],
    );
    assert_rejected(
        "seed = 1\nbudget = 10\ninit = 11\n[[algorithm]]\nname = \"random\"\n[[problem]]\nname = \"branin\"\n",
        3,
        &["\"init\"", "value 11", "budget of 10"],
    );
    // The default initial design (10) does not fit a smaller budget: the budget's line.
    assert_rejected(
        "seed = 1\nbudget = 5\n[[algorithm]]\nname = \"random\"\n[[problem]]\nname = \"branin\"\n",
        2,
        &["\"init\"", "value 10 (the default)", "budget of 5"],
    );
    assert_rejected(
        "seed = 1\n[[algorithm]]\nname = \"random\"\n[[problem]]\nname = \"branin\"\n",
        1,
        &["missing key \"budget\""],
    );
}

#[test]
fn report_table_takes_a_known_metric_only() {
    for metric in [
        "best-evaluated-regret",
        "recommendation-regret",
        "simple-regret",
        "cumulative-regret",
        "best-value",
    ] {
        let text = with_top(&format!("[report]\nmetric = \"{metric}\""));
        assert_eq!(parse(&text).run_count(), 1, "{text}");
    }
    assert_rejected(
        &with_top("[report]\nmetric = \"median\""),
        3,
        &[
            "[report] metric",
            "unknown metric \"median\"",
            "allowed: best-evaluated-regret, recommendation-regret, cumulative-regret, best-value",
        ],
    );
    assert_rejected(
        &with_top("[report]\nmetric = 2"),
        3,
        &["[report] metric", "expected a string", "integer 2"],
    );
    assert_rejected(
        &with_top("[report]\nmetrc = \"best-value\""),
        3,
        &["[report]", "unknown key \"metrc\"", "allowed: metric"],
    );
    assert_rejected(
        &with_top("report = \"cumulative-regret\""),
        2,
        &["key \"report\"", "[report] table", "string"],
    );
}

#[test]
fn report_archive_is_a_list_of_sets() {
    let text = with_top("[report]\narchive = [\"bbob-baselines\", \"path/to/set\"]");
    assert_eq!(parse(&text).run_count(), 1, "{text}");
    for (value, found) in [
        ("\"bbob-baselines\"", "string"),
        ("[1]", "item 1 is integer 1"),
        ("[\"a\", \"\"]", "item 2 is string \"\""),
    ] {
        assert_rejected(
            &with_top(&format!("[report]\narchive = {value}")),
            3,
            &["[report] archive", "expected a list of archive sets", found],
        );
    }
}

#[test]
fn report_time_is_a_positive_finite_number() {
    for time in ["20", "2.5", "1e3"] {
        let text = with_top(&format!(
            "runtime = \"constant\"\n[report]\nmetric = \"best-value\"\ntime = {time}"
        ));
        assert_eq!(parse(&text).run_count(), 1, "{text}");
    }
    // A time to compare at needs timed runs: refused before any run, not after all of them.
    assert_rejected(
        &with_top("[report]\ntime = 5"),
        3,
        &["[report] time", "the runs of random on branin are untimed"],
    );
    for (time, found) in [
        ("0", "integer 0"),
        ("-1", "integer -1"),
        ("\"x\"", "string \"x\""),
        ("inf", "float inf"),
    ] {
        assert_rejected(
            &with_top(&format!("[report]\ntime = {time}")),
            3,
            &[
                "[report] time",
                "expected a positive finite simulated time",
                found,
            ],
        );
    }
}

#[test]
fn missing_or_empty_algorithm_and_problem_lists() {
    assert_rejected(
        "budget = 10\n[[problem]]\nname = \"branin\"\n",
        1,
        &["no algorithms", "[[algorithm]]"],
    );
    assert_rejected(
        "budget = 10\n[[algorithm]]\nname = \"random\"\n",
        1,
        &["no problems", "[[problem]]"],
    );
    assert_rejected(
        "budget = 10\nalgorithm = []\n[[problem]]\nname = \"branin\"\n",
        2,
        &["no algorithms"],
    );
    assert_rejected(
        "budget = 10\n[algorithm]\nname = \"random\"\n[[problem]]\nname = \"branin\"\n",
        2,
        &["key \"algorithm\"", "[[algorithm]]", "found a table"],
    );
    assert_rejected(
        "budget = 10\nproblem = \"branin\"\n[[algorithm]]\nname = \"random\"\n",
        2,
        &["key \"problem\"", "[[problem]]", "string \"branin\""],
    );
}

#[test]
fn names_must_be_given_and_known() {
    assert_rejected(
        "budget = 10\ninit = 2\n[[algorithm]]\nucb_multiplier = 2\n[[problem]]\nname = \"branin\"\n",
        3,
        &["[[algorithm]]", "\"name\"", "random, gp-ucb, ei"],
    );
    assert_rejected(
        "budget = 10\ninit = 2\n[[algorithm]]\nname = \"gp-ucbb\"\n[[problem]]\nname = \"branin\"\n",
        4,
        &[
            "unknown algorithm \"gp-ucbb\": did you mean \"gp-ucb\"?",
            "`bosweep list` names all",
        ],
    );
    assert_rejected(
        "budget = 10\ninit = 2\n[[algorithm]]\nname = \"gaussian\"\n[[problem]]\nname = \"branin\"\n",
        4,
        &[
            "unknown algorithm \"gaussian\"",
            "known: random, gp-ucb, ei",
        ],
    );
    assert_rejected(
        &with_problem("brannin", ""),
        6,
        &["unknown problem \"brannin\": did you mean \"branin\"?"],
    );
    assert_rejected(
        "budjet = 10\n[[algorithm]]\nname = \"ei\"\n[[problem]]\nname = \"branin\"\n",
        1,
        &["unknown key \"budjet\" (did you mean \"budget\"? allowed: seed,"],
    );
    assert_rejected(
        "budget = 10\n[[algorithm]]\nname = \"random\"\n[[problem]]\ndim = 2\n",
        4,
        &["[[problem]]", "\"name\"", "branin", "hartmann3"],
    );
    assert_rejected(
        "budget = 10\n[[algorithm]]\nname = 3\n[[problem]]\nname = \"branin\"\n",
        3,
        &["\"name\"", "integer 3"],
    );
    assert_rejected(
        "budget = 10\n[[algorithm]]\nname = [\"random\", \"ei\"]\n[[problem]]\nname = \"branin\"\n",
        3,
        &["\"name\"", "a list"],
    );
}

#[test]
fn parameters_are_checked_against_the_registry() {
    assert_rejected(
        &with_algorithm("ucb_multiplier = -1"),
        5,
        &[
            "algorithm \"gp-ucb\"",
            "ucb_multiplier = -1",
            "must be a number in [0, 1000000]",
        ],
    );
    assert_rejected(
        &with_algorithm("fit = \"mlee\""),
        5,
        &[
            "algorithm \"gp-ucb\"",
            "fit",
            "mlee",
            "one of map, map-dsp, map-saas, mle, fixed",
        ],
    );
    assert_rejected(
        &with_algorithm("beta = [1, 2, 4]"),
        5,
        &[
            "algorithm \"gp-ucb\"",
            "unknown parameter \"beta\"",
            "ucb_multiplier",
        ],
    );
    assert_rejected(
        "budget = 10\n[[algorithm]]\nname = \"random\"\ngrid_size = 8\n[[problem]]\nname = \"branin\"\n",
        4,
        &[
            "algorithm \"random\"",
            "unknown parameter \"grid_size\"",
            "allowed: name",
        ],
    );
    assert_rejected(
        &with_problem("branin", "dim = 3"),
        7,
        &[
            "problem \"branin\"",
            "unknown parameter \"dim\"",
            "noise_std",
            "budget",
            "init",
        ],
    );
    assert_rejected(
        &with_problem("ackley", "dim = 0"),
        7,
        &["problem \"ackley\"", "dim = 0", "an integer in 1..=10000"],
    );
    assert_rejected(
        &with_problem("ackley", "dim = 2.5"),
        7,
        &["problem \"ackley\"", "dim = 2.5", "integer"],
    );
    assert_rejected(
        &with_problem("rosenbrock", "dim = [2, 1]"),
        7,
        &[
            "problem \"rosenbrock\"",
            "dim = 1",
            "an integer in 2..=10000",
        ],
    );
    assert_rejected(
        &with_problem("branin", "noise_std = -0.1"),
        7,
        &["problem \"branin\"", "noise_std = -0.1", "≥ 0"],
    );
    // A bad element of a multi-line list: that element's line.
    assert_rejected(
        &with_algorithm("ucb_multiplier = [\n  1,\n  -2,\n]"),
        7,
        &["ucb_multiplier = -2"],
    );
}

#[test]
fn wrong_types_are_rejected() {
    assert_rejected(
        &with_algorithm("ucb_multiplier = \"2\""),
        5,
        &[
            "algorithm \"gp-ucb\"",
            "ucb_multiplier = \"2\"",
            "expected a number",
            "[0, 1000000]",
        ],
    );
    assert_rejected(
        &with_problem("ackley", "dim = \"two\""),
        7,
        &["problem \"ackley\"", "dim = \"two\"", "expected a number"],
    );
    assert_rejected(
        &with_algorithm("top_k = true"),
        5,
        &["top_k = \"true\"", "expected a number"],
    );
    assert_rejected(
        &with_algorithm("refine = 1"),
        5,
        &["refine = 1", "one of true, false"],
    );
    assert_rejected(
        &with_algorithm("ucb_multiplier = []"),
        5,
        &["algorithm \"gp-ucb\"", "ucb_multiplier", "empty list"],
    );
    assert_rejected(
        &with_algorithm("ucb_multiplier = [[1, 2], [3]]"),
        5,
        &["ucb_multiplier", "a list inside a list"],
    );
    assert_rejected(
        &with_algorithm("ucb_multiplier = { value = 2 }"),
        5,
        &["ucb_multiplier", "a table is not allowed"],
    );
    assert_rejected(
        &with_problem("ackley", "dim.value = 2"),
        7,
        &["problem \"ackley\"", "\"dim\"", "a table is not allowed"],
    );
    assert_rejected(
        &with_algorithm("[algorithm.options]\ntop_k = 3"),
        5,
        &[
            "algorithm \"gp-ucb\"",
            "\"options\"",
            "a table is not allowed",
        ],
    );
    assert_rejected(
        &with_algorithm("ucb_multiplier = 1979-05-27"),
        5,
        &["ucb_multiplier", "date-time 1979-05-27"],
    );
    assert_rejected(
        &with_algorithm("ucb_multiplier = nan"),
        5,
        &["ucb_multiplier", "nan", "not a finite number"],
    );
    assert_rejected(
        &with_problem("branin", "budget = 2.5"),
        7,
        &["problem \"branin\"", "\"budget\"", "float 2.5"],
    );
    assert_rejected(
        &with_problem("branin", "init = [1, 2]"),
        7,
        &["problem \"branin\"", "\"init\"", "a list"],
    );
}

#[test]
fn per_problem_budget_errors() {
    assert_rejected(
        &with_problem("branin", "budget = 0"),
        7,
        &["problem \"branin\"", "\"budget\"", "value 0"],
    );
    assert_rejected(
        &with_problem("branin", "init = 11"),
        7,
        &["problem \"branin\"", "init 11", "budget of 10"],
    );
    assert_rejected(
        &with_problem("branin", "noise_std = 0.1\nbudget = 1"),
        8,
        &["problem \"branin\"", "init 2", "budget of 1"],
    );
}

#[test]
fn duplicate_runs_name_both_lines() {
    assert_rejected(
        "budget = 10\n[[algorithm]]\nname = \"random\"\n\n[[algorithm]]\nname = \"random\"\n[[problem]]\nname = \"branin\"\n",
        5,
        &["duplicate runs", "random", "line 5", "line 2"],
    );
    assert_rejected(
        &with_algorithm("ucb_multiplier = [1, 2, 1.0]"),
        5,
        &["ucb_multiplier", "value 1", "listed twice", "lines 5 and 5"],
    );
    // Two entries of the same problem setting are the same runs, whatever their budgets.
    assert_rejected(
        "budget = 10\n[[algorithm]]\nname = \"random\"\n[[problem]]\nname = \"ackley\"\ndim = [2, 3]\n\
         [[problem]]\nname = \"ackley\"\ndim = 3\nbudget = 20\n",
        7,
        &["duplicate runs", "ackley[dim=3]", "line 7", "line 4"],
    );
    // Different settings of one algorithm are different runs.
    let config = parse(
        "budget = 10\ninit = 2\n[[algorithm]]\nname = \"gp-ucb\"\n[[algorithm]]\nname = \"gp-ucb\"\nucb_multiplier = 2\n\
         [[problem]]\nname = \"branin\"\n",
    );
    assert_eq!(config.runs().len(), 2);
}

#[test]
fn too_large_grids_are_refused() {
    let list = |n: usize| {
        (1..=n)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = with_algorithm(&format!(
        "max_iters = [{}]\ntop_k = [{}]",
        list(1001),
        list(1000)
    ));
    assert_rejected(
        &text,
        3,
        &["algorithm \"gp-ucb\"", "more than 1000000 settings"],
    );
}

#[test]
fn quick_sweep_parses_and_every_run_builds() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/sweeps/quick.toml");
    let config = SweepConfig::load(path).unwrap_or_else(|e| panic!("{e}"));
    let runs = config.runs();
    assert_eq!(
        runs.len(),
        4 * 4 * 8,
        "4 algorithm settings × 4 problem settings × 8 replicates"
    );
    assert!(config.replicates() >= 2);
    let algorithms: HashSet<&str> = runs.iter().map(|r| r.algorithm.name.as_str()).collect();
    let problems: HashSet<&str> = runs.iter().map(|r| r.problem.name.as_str()).collect();
    assert!(algorithms.len() >= 3 && problems.len() >= 3);
    for run in &runs {
        assert!(run.init <= run.budget && run.budget <= 40, "{}", run.key());
        algorithms::build(&run.algorithm.name, &run.algorithm.param_values())
            .unwrap_or_else(|e| panic!("{}: {e}", run.key()));
        problems::build(&run.problem.name, &run.problem.param_values())
            .unwrap_or_else(|e| panic!("{}: {e}", run.key()));
    }
}

#[test]
fn algorithms_of_one_problem_and_replicate_share_the_design_seed() {
    let config = SweepConfig::parse(
        "seed = 5\nreplicates = 2\nbudget = 12\n\
         [[algorithm]]\nname = \"random\"\n[[algorithm]]\nname = \"ei\"\n\
         [[problem]]\nname = \"branin\"\n[[problem]]\nname = \"hartmann3\"\n",
        "paired.toml",
    )
    .unwrap();
    let runs = config.runs();
    assert_eq!(runs.len(), 8);
    let mut designs = std::collections::BTreeMap::new();
    for run in &runs {
        let key = (run.problem.label(), run.replicate);
        let seed = *designs.entry(key).or_insert(run.design_seed);
        assert_eq!(seed, run.design_seed, "{}", run.key());
    }
    let mut distinct: Vec<u64> = designs.values().copied().collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        4,
        "each problem and replicate has its own design"
    );
    // The runs' own streams still differ between algorithms.
    assert_ne!(runs[0].seed, runs[2].seed);
}

/// Issue 15: a sweep pairing an algorithm with a problem it cannot run on started, then failed
/// mid-run. It is refused while the config is read, at the algorithm's line, naming the
/// algorithm, the problem and what the algorithm needs.
#[test]
fn incompatible_pairs_are_refused_before_anything_runs() {
    assert_rejected(
        "budget = 10\n\n[[algorithm]]\nname = \"random\"\n\n[[algorithm]]\nname = \"drbo-kde\"\n\n\
         [[problem]]\nname = \"newsvendor\"\n\n[[problem]]\nname = \"hartmann3\"\n",
        6,
        &[
            "algorithm \"drbo-kde\" needs a contextual problem",
            "problem \"hartmann3\" is not one",
            "newsvendor",
        ],
    );
    assert_rejected(
        "budget = 10\n\n[[algorithm]]\nname = \"rahbo-known-var\"\n\n[[problem]]\nname = \"branin\"\n",
        3,
        &[
            "rahbo-known-var",
            "true noise variance",
            "problem \"branin\"",
        ],
    );
    assert_rejected(
        "budget = 10\n\n[[algorithm]]\nname = \"pe-gp-ucb\"\n\n[[problem]]\nname = \"branin\"\n",
        3,
        &["pe-gp-ucb", "finite allowed set", "pe-toy"],
    );
    // The candidate priors come from the problem: PE-GP-UCB runs on either of its problems.
    parse(
        "budget = 10\n\n[[algorithm]]\nname = \"pe-gp-ucb\"\n\n[[problem]]\nname = \"pe-toy\"\n\n\
         [[problem]]\nname = \"intel-temp-synthetic\"\n",
    );
    // Compatible pairs of every family pass.
    parse(
        "budget = 10\n\n[[algorithm]]\nname = \"sbo-kde\"\n\n[[algorithm]]\nname = \"random\"\n\n\
         [[problem]]\nname = \"newsvendor\"\n",
    );
    parse(
        "budget = 10\n\n[[algorithm]]\nname = \"pe-gp-ucb\"\n\n[[algorithm]]\nname = \"gp-ucb\"\n\n\
         [[problem]]\nname = \"pe-toy\"\n",
    );
}

/// Every shipped sweep config still validates (each of its pairs is compatible).
#[test]
fn shipped_sweeps_validate() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/sweeps");
    let mut checked = 0;
    for dir in [
        root.to_string(),
        format!("{root}/papers"),
        format!("{root}/studies"),
    ] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                // intel-temp needs a data file absent here; its sweep is checked where it is.
                if path.to_string_lossy().contains("intel") {
                    continue;
                }
                SweepConfig::load(&path).unwrap_or_else(|e| panic!("{e}"));
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "{checked}");
}

/// Every config shipped under `sweeps/` (the quick sweep, the paper protocols, the examples)
/// is valid: a user running one gets runs, not a config error.
#[test]
fn every_shipped_sweep_config_is_valid() {
    fn configs(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                configs(&path, out);
            } else if path.extension().is_some_and(|e| e == "toml") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    configs(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sweeps"),
        &mut paths,
    );
    assert!(paths.len() > 20, "{paths:?}");
    for path in paths {
        let config = SweepConfig::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(config.run_count() > 0, "{}", path.display());
    }
}

#[test]
fn batch_and_workers_sweep_like_parameters_and_runtime_models_follow_the_problem() {
    let config = parse(
        "budget = 12\ninit = 4\nworkers = 3\nruntime = \"lognormal:sigma=0.5\"\n\
         [[algorithm]]\nname = \"gp-ucb\"\nbatch = [1, 4]\n\
         [[algorithm]]\nname = \"ei\"\n\
         [[problem]]\nname = \"branin\"\n\
         [[problem]]\nname = \"forrester\"\nruntime = \"linear:coordinate=0,slope=9\"\n",
    );
    let runs = config.runs();
    let summary: Vec<(String, String, usize, usize, String)> = runs
        .iter()
        .map(|r| {
            (
                r.algorithm.label(),
                r.problem.label(),
                r.parallel.batch,
                r.parallel.workers,
                r.parallel.runtime.unwrap().to_string(),
            )
        })
        .collect();
    let lognormal = "lognormal:median=1,sigma=0.5".to_owned();
    let linear = "linear:coordinate=0,base=1,slope=9".to_owned();
    // A table's own batch replaces the top-level workers; the other table takes those.
    assert_eq!(
        summary,
        [
            (
                "gp-ucb[batch=1]".into(),
                "branin".into(),
                1,
                1,
                lognormal.clone()
            ),
            (
                "gp-ucb[batch=4]".into(),
                "branin".into(),
                4,
                1,
                lognormal.clone()
            ),
            ("ei".into(), "branin".into(), 1, 3, lognormal),
            (
                "gp-ucb[batch=1]".into(),
                "forrester".into(),
                1,
                1,
                linear.clone()
            ),
            (
                "gp-ucb[batch=4]".into(),
                "forrester".into(),
                4,
                1,
                linear.clone()
            ),
            ("ei".into(), "forrester".into(), 1, 3, linear),
        ]
    );
    // The run keys label and seed runs but are not the algorithm's parameters.
    assert!(runs[1].algorithm.param_values().is_empty());
    assert_ne!(runs[0].seed, runs[1].seed);
    assert_eq!(runs[0].design_seed, runs[1].design_seed);
}

#[test]
fn parallel_settings_are_refused_naming_key_and_line() {
    assert_rejected(
        &with_top("batch = 0"),
        2,
        &["\"batch\"", "value 0", "1..=4096"],
    );
    // The top level's range is an [[algorithm]] table's, whose value it stands in for.
    assert_rejected(
        &with_top("workers = 5000"),
        2,
        &["\"workers\"", "value 5000", "1..=4096"],
    );
    assert_rejected(&with_top("workers = [2, 4]"), 2, &["\"workers\"", "a list"]);
    // A method without a batch version, given a top-level batch: the batch's own line, not the
    // table's.
    assert_rejected(
        "budget = 20\n\nbatch = 4\n[[algorithm]]\nname = \"rahbo\"\n[[problem]]\nname = \"sine-hetero\"\n",
        3,
        &["algorithm \"rahbo\": batch = 4", "no batch version"],
    );
    assert_rejected(
        "budget = 20\n[[algorithm]]\nname = \"rahbo\"\n\nworkers = 2\n[[problem]]\nname = \"sine-hetero\"\n",
        5,
        &["algorithm \"rahbo\": workers = 2"],
    );
    assert_rejected(
        &with_top("runtime = \"gamma\""),
        2,
        &["key \"runtime\"", "unknown model \"gamma\""],
    );
    assert_rejected(
        &with_top("runtime = 3"),
        2,
        &["key \"runtime\"", "expected a runtime model as a string"],
    );
    assert_rejected(
        &with_algorithm("workers = 0"),
        5,
        &["algorithm \"gp-ucb\"", "workers", "0"],
    );
    assert_rejected(
        &with_problem("branin", "runtime = \"linear:coordinate=2\""),
        7,
        &[
            "problem \"branin\"",
            "coordinate 2 does not exist",
            "2 coordinates",
        ],
    );
    assert_rejected(
        &with_problem("branin", "runtime = \"lognormal:sigma=-1\""),
        7,
        &["problem \"branin\"", "sigma = \"-1\" is invalid"],
    );
    // Parallel runs of a method without a batch version, and batches with workers: at the
    // key's own line.
    assert_rejected(
        "budget = 10\ninit = 2\n[[algorithm]]\nname = \"rahbo\"\nbatch = 4\n[[problem]]\nname = \"sine-hetero\"\n",
        5,
        &[
            "algorithm \"rahbo\"",
            "batch = 4: algorithm rahbo proposes one point at a time",
        ],
    );
    assert_rejected(
        "budget = 10\ninit = 2\n[[algorithm]]\nname = \"gp-ucb\"\nworkers = 2\nbatch = 4\n[[problem]]\nname = \"branin\"\n",
        5,
        &["batch = 4 and workers = 2: give one of them"],
    );
}

/// Issue 43: a config with several mistakes reported only the first. Every mistake of its keys
/// and tables is reported, in file order, each at its line; the first is the error's own line.
#[test]
fn every_mistake_of_a_config_is_reported_at_its_line() {
    let text = "seed = 1\n\
                budjet = 30\n\
                replicates = 0\n\
                [[algorithm]]\n\
                name = \"logeii\"\n\
                [[algorithm]]\n\
                name = \"gp-ucb\"\n\
                ucb_multipler = 2\n\
                beta = -1\n\
                [[problem]]\n\
                name = \"branin\"\n\
                noise_std = \"loud\"\n";
    let e = error(text);
    let lines: Vec<Option<usize>> = std::iter::once(e.line)
        .chain(e.more.iter().map(|m| m.line))
        .collect();
    assert_eq!(
        lines,
        [Some(2), Some(3), Some(5), Some(8), Some(9), Some(12)],
        "{e}"
    );
    let message = e.to_string();
    let shown: Vec<&str> = message.lines().collect();
    assert_eq!(shown.len(), 6, "{message}");
    for (line, needle) in shown.iter().zip([
        "test.toml line 2: unknown key \"budjet\" (did you mean \"budget\"?",
        "test.toml line 3: key \"replicates\"",
        "test.toml line 5: algorithm key \"name\": unknown algorithm \"logeii\"",
        "test.toml line 8: algorithm \"gp-ucb\": unknown parameter \"ucb_multipler\" (did you \
         mean \"ucb_multiplier\"? allowed: name, label, kernel",
        "test.toml line 9: algorithm \"gp-ucb\": unknown parameter \"beta\" (allowed: name, \
         label, kernel",
        "test.toml line 12: problem \"branin\": parameter noise_std",
    ]) {
        assert!(
            line.starts_with(needle),
            "{line:?} does not start with {needle:?}"
        );
    }
}
