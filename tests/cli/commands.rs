//! The `bosweep` binary end to end: results against values computed by hand, and every kind of
//! bad input answered with exit code 2 and a message that points at the cause.

use std::path::PathBuf;
use std::process::Command;

use bosweep::compute::GpuEngine;

use crate::common::run_args;

/// A scratch directory for one test, removed afterwards. The binary runs inside it, so messages
/// name files exactly as the test wrote them (`train.csv`).
struct Sandbox {
    dir: PathBuf,
}

/// What one run of the binary did.
#[derive(Debug)]
struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Sandbox {
    fn new(test: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("bosweep-cli-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self { dir }
    }

    fn write(&self, name: &str, contents: &str) -> &Self {
        std::fs::write(self.dir.join(name), contents).unwrap();
        self
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn run(&self, args: &[&str]) -> Outcome {
        self.run_with_env(args, &[])
    }

    fn run_with_env(&self, args: &[&str], env: &[(&str, &str)]) -> Outcome {
        let output = Command::new(env!("CARGO_BIN_EXE_bosweep"))
            .args(args)
            .current_dir(&self.dir)
            .env_remove("BOSWEEP_DEVICE")
            .env_remove("BOSWEEP_PRECISION")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        let outcome = Outcome {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        };
        assert!(
            !outcome.stderr.contains("panicked") && !outcome.stderr.contains("RUST_BACKTRACE"),
            "bosweep {args:?} panicked: {}",
            outcome.stderr
        );
        outcome
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Outcome {
    fn success(self) -> Self {
        assert_eq!(self.code, 0, "expected success, stderr: {}", self.stderr);
        self
    }

    /// Asserts exit code `code` and that stderr contains each of `needles`.
    fn fails(&self, code: i32, needles: &[&str]) {
        assert_eq!(self.code, code, "stderr: {}", self.stderr);
        for needle in needles {
            assert!(
                self.stderr.contains(needle),
                "stderr lacks {needle:?}: {}",
                self.stderr
            );
        }
    }
}

/// The rows of a CSV output after checking its header.
fn parse_csv(text: &str, header: &str) -> Vec<Vec<f64>> {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(header), "output: {text}");
    lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect()
}

fn assert_close(got: f64, want: f64, tol: f64) {
    assert!(
        (got - want).abs() <= tol,
        "got {got}, want {want} (tolerance {tol})"
    );
}

/// The GP of the hand-computed tests: one training point (0.3, 1.7), SE kernel.
const TRAIN: &str = "x,y\n0.3,1.7\n";
const CANDIDATES: &str = "x\n0.3\n0.55\n2.0\n";
const LENGTHSCALE: f64 = 0.25;
const SIGNAL_VAR: f64 = 1.3;
const NOISE_VAR: f64 = 0.01;
const MEAN: f64 = 0.4;

/// With one training point: `μ = m + k (y − m) / (s² + σ²)`, `σ² = s² − k² / (s² + σ²)`.
fn hand_posterior() -> Vec<(f64, f64)> {
    [0.3, 0.55, 2.0]
        .iter()
        .map(|x: &f64| {
            let k = SIGNAL_VAR * (-0.5 * ((x - 0.3) / LENGTHSCALE).powi(2)).exp();
            let c = SIGNAL_VAR + NOISE_VAR;
            (MEAN + k * (1.7 - MEAN) / c, (SIGNAL_VAR - k * k / c).sqrt())
        })
        .collect()
}

fn predict_args(device: &str) -> Vec<String> {
    let args = format!(
        "--device {device} gp predict --train train.csv --candidates cand.csv --kernel se \
         --fit fixed --lengthscale {LENGTHSCALE} --signal-var {SIGNAL_VAR} --noise-var {NOISE_VAR} \
         --mean {MEAN}"
    );
    args.split_whitespace().map(str::to_string).collect()
}

fn run_predict(sandbox: &Sandbox, device: &str) -> Vec<Vec<f64>> {
    let args = predict_args(device);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    parse_csv(&sandbox.run(&args).success().stdout, "mean,std")
}

#[test]
fn gp_predict_matches_hand_computation_on_cpu() {
    let sandbox = Sandbox::new("gp-cpu");
    sandbox
        .write("train.csv", TRAIN)
        .write("cand.csv", CANDIDATES);
    let rows = run_predict(&sandbox, "cpu");
    assert_eq!(rows.len(), 3);
    for (row, (mean, std)) in rows.iter().zip(hand_posterior()) {
        assert_close(row[0], mean, 1e-12);
        assert_close(row[1], std, 1e-12);
    }
}

/// Whether a GPU adapter exists; without one the test is skipped, unless
/// `BOSWEEP_REQUIRE_GPU=1` (as in CI) makes that a failure.
fn gpu_available() -> bool {
    if GpuEngine::new(&Default::default()).is_ok() {
        return true;
    }
    assert_ne!(
        std::env::var("BOSWEEP_REQUIRE_GPU").as_deref(),
        Ok("1"),
        "BOSWEEP_REQUIRE_GPU=1 but no GPU adapter is available"
    );
    eprintln!("skipping: no GPU adapter");
    false
}

#[test]
fn gp_predict_on_gpu_is_close_to_hand_computation() {
    if !gpu_available() {
        return;
    }
    let sandbox = Sandbox::new("gp-gpu");
    sandbox
        .write("train.csv", TRAIN)
        .write("cand.csv", CANDIDATES);
    let rows = run_predict(&sandbox, "gpu");
    for (row, (mean, std)) in rows.iter().zip(hand_posterior()) {
        assert_close(row[0], mean, 1e-4);
        assert_close(row[1], std, 1e-4);
    }
}

/// `bosweep calibrate` on the GPU stores a model; a routed run (`--route auto`) names it in its
/// trace header and counts each step's calls by backend.
#[test]
fn calibrate_stores_the_model_a_routed_run_uses_and_counts() {
    let sandbox = Sandbox::new("calibrate");
    let cache = sandbox.path("cache");
    let env = [("BOSWEEP_CACHE_DIR", cache.to_str().unwrap())];
    sandbox
        .run_with_env(&["--device", "cpu", "calibrate"], &env)
        .fails(2, &["--device cpu", "compares the CPU backend with a GPU"]);
    sandbox
        .run_with_env(&["--device", "gpu", "calibrate", "--ladder", "huge"], &env)
        .fails(2, &["--ladder: unknown ladder 'huge'"]);
    if !gpu_available() {
        return;
    }
    let calibrated = sandbox
        .run_with_env(
            &[
                "--device",
                "gpu",
                "calibrate",
                "--ladder",
                "tiny",
                "--repeats",
                "1",
            ],
            &env,
        )
        .success();
    let rows: Vec<&str> = calibrated.stdout.lines().collect();
    assert_eq!(rows[0], "family,units,cpu_seconds,gpu_seconds");
    assert_eq!(rows.len(), 1 + 9, "{}", calibrated.stdout);
    let stored: Vec<PathBuf> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(stored.len(), 1);
    let text = std::fs::read_to_string(&stored[0]).unwrap();
    for family in ["posterior ", "point-pairs ", "selection "] {
        assert!(text.contains(family), "{text}");
    }

    let trace = sandbox
        .run_with_env(
            &[
                "--device",
                "gpu",
                "--route",
                "auto",
                "run",
                "--algo",
                "ei",
                "--problem",
                "forrester",
                "--budget",
                "5",
                "--init",
                "3",
            ],
            &env,
        )
        .success()
        .stdout;
    let lines: Vec<serde_json::Value> = trace
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let device = lines[0]["header"]["device"].as_str().unwrap();
    assert!(
        device.contains("route auto")
            && device.contains("calibrated, ")
            && device.contains("cache"),
        "{device}"
    );
    let calls = |step: &serde_json::Value| {
        let c = &step["extra"]["engine_calls"];
        c["cpu"].as_u64().unwrap() + c["gpu"].as_u64().unwrap()
    };
    assert_eq!(
        calls(&lines[1]),
        0,
        "the initial design asks nothing of the engine"
    );
    assert!(
        calls(&lines[4]) > 0,
        "EI's steps call the engine: {}",
        lines[4]
    );
}

#[test]
fn gp_predict_writes_out_file_and_broadcasts_one_lengthscale() {
    let sandbox = Sandbox::new("gp-out");
    sandbox
        .write("train.csv", "a,b,y\n0,0,1\n1,0.5,-1\n")
        .write("cand.csv", "a,b\n0.2,0.1\n");
    let common = [
        "--device",
        "cpu",
        "gp",
        "predict",
        "--train",
        "train.csv",
        "--candidates",
        "cand.csv",
        "--kernel",
        "matern52",
        "--signal-var",
        "1",
        "--noise-var",
        "1e-4",
        "--fit",
        "fixed",
    ];
    let broadcast = sandbox
        .run(&[&common[..], &["--lengthscale", "0.4"]].concat())
        .success();
    let explicit = sandbox
        .run(
            &[
                &common[..],
                &["--lengthscale", "0.4,0.4", "--out", "pred.csv"],
            ]
            .concat(),
        )
        .success();
    assert!(explicit.stdout.is_empty());
    let written = std::fs::read_to_string(sandbox.path("pred.csv")).unwrap();
    assert_eq!(written, broadcast.stdout);
    assert_eq!(parse_csv(&written, "mean,std").len(), 1);
}

/// `p̂(q) = (1/n) Σ_i φ((q − c_i)/h) / h` for 1-D data.
fn gaussian_kde(data: &[f64], weights: &[f64], h: f64, q: f64) -> f64 {
    let phi = |z: f64| (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let total: f64 = weights.iter().sum();
    data.iter()
        .zip(weights)
        .map(|(c, w)| w * phi((q - c) / h) / h)
        .sum::<f64>()
        / total
}

/// `bosweep kde` on the CPU with the sandbox's `data.csv` and `q.csv`.
const KDE: [&str; 7] = [
    "--device",
    "cpu",
    "kde",
    "--data",
    "data.csv",
    "--queries",
    "q.csv",
];

#[test]
fn kde_matches_hand_computed_gaussian_density() {
    let sandbox = Sandbox::new("kde");
    sandbox
        .write("data.csv", "x\n0\n1\n")
        .write("q.csv", "x\n0.5\n2\n")
        .write("w.csv", "w\n3\n1\n");
    for (extra, weights) in [
        (&[][..], [1.0, 1.0]),
        (&["--weights", "w.csv"][..], [3.0, 1.0]),
    ] {
        let args = [&KDE[..], &["--bandwidth", "0.5"], extra].concat();
        let rows = parse_csv(&sandbox.run(&args).success().stdout, "density");
        for (row, q) in rows.iter().zip([0.5, 2.0]) {
            let want = gaussian_kde(&[0.0, 1.0], &weights, 0.5, q);
            assert_close(row[0], want, 1e-12 * want);
        }
    }
}

#[test]
fn kde_bandwidth_rules_differ_and_scott_is_the_default() {
    let sandbox = Sandbox::new("kde-rules");
    sandbox
        .write("data.csv", "x\n0\n0.4\n1\n1.3\n2.5\n")
        .write("q.csv", "x\n0.7\n");
    let density = |extra: &[&str]| sandbox.run(&[&KDE[..], extra].concat()).success().stdout;
    let scott = density(&["--bandwidth", "scott"]);
    assert_ne!(scott, density(&["--bandwidth", "silverman"]));
    assert_eq!(scott, density(&[]));
}

#[test]
fn devices_exits_zero_and_names_the_auto_backend() {
    let out = Sandbox::new("devices").run(&["devices"]).success();
    assert!(
        out.stdout.contains("--device auto uses: "),
        "{}",
        out.stdout
    );
}

#[test]
fn help_and_version_exit_zero_and_missing_command_exits_two() {
    let sandbox = Sandbox::new("help");
    assert!(sandbox.run(&["--help"]).success().stdout.contains("gp"));
    assert!(
        sandbox
            .run(&["gp", "predict", "--help"])
            .success()
            .stdout
            .contains("--lengthscale")
    );
    sandbox.run(&["--version"]).success();
    sandbox.run(&[]).fails(2, &[]);
}

/// Runs `gp predict` on the CPU with `train` and `cand` as the two files and `flags` replacing
/// the defaults of the same name.
fn predict_with(test: &str, train: &str, cand: &str, flags: &[&str]) -> Outcome {
    let sandbox = Sandbox::new(test);
    sandbox.write("train.csv", train).write("cand.csv", cand);
    let mut args = vec!["gp", "predict"];
    for (flag, default) in [
        ("--device", "cpu"),
        ("--train", "train.csv"),
        ("--candidates", "cand.csv"),
        ("--kernel", "se"),
        ("--lengthscale", "0.5"),
        ("--signal-var", "1"),
        ("--noise-var", "0.01"),
        ("--fit", "fixed"),
    ] {
        if !flags.contains(&flag) {
            args.extend([flag, default]);
        }
    }
    args.extend(flags);
    sandbox.run(&args)
}

const TRAIN_2D: &str = "x1,x2,y\n0.1,0.2,1\n0.5,0.5,2\n0.9,0.1,0.5\n";
const CAND_2D: &str = "x1,x2\n0.3,0.3\n";

#[test]
fn nan_cell_names_file_line_column_and_value() {
    predict_with("nan", "x1,x2,y\n0.1,0.2,1\n0.5,NaN,2\n", CAND_2D, &[]).fails(
        2,
        &[r#"train.csv line 3, column "x2": "NaN" is NaN (values must be finite)"#],
    );
}

#[test]
fn infinite_cell_is_rejected() {
    predict_with("inf", TRAIN_2D, "x1,x2\n0.3,0.3\n-inf,1\n", &[])
        .fails(2, &[r#"cand.csv line 3, column "x1": "-inf" is infinite"#]);
}

#[test]
fn non_numeric_cell_is_rejected() {
    predict_with("abc", "x1,x2,y\n0.1,0.2,1\n\n0.5,abc,2\n", CAND_2D, &[]).fails(
        2,
        &[r#"train.csv line 4, column "x2": "abc" is not a number"#],
    );
}

#[test]
fn wrong_column_count_in_a_row_is_rejected() {
    predict_with("ragged", "x1,x2,y\n0.1,0.2,1\n0.5,0.5\n", CAND_2D, &[])
        .fails(2, &["train.csv line 3 has 2 columns, expected 3"]);
}

#[test]
fn empty_file_is_rejected() {
    predict_with("empty", TRAIN_2D, "", &[]).fails(2, &["cand.csv: empty file"]);
}

#[test]
fn header_only_file_is_rejected() {
    predict_with("header-only", "x1,x2,y\n", CAND_2D, &[]).fails(2, &["train.csv: no data rows"]);
}

#[test]
fn missing_header_is_rejected() {
    predict_with("no-header", "0.1,0.2,1\n0.5,0.5,2\n", CAND_2D, &[])
        .fails(2, &["train.csv line 1", "header"]);
}

#[test]
fn missing_file_is_bad_input() {
    predict_with("missing", TRAIN_2D, CAND_2D, &["--train", "missing.csv"])
        .fails(2, &["cannot read missing.csv: No such file or directory"]);
}

#[test]
fn zero_lengthscale_is_rejected() {
    predict_with("zero-ls", TRAIN_2D, CAND_2D, &["--lengthscale", "0.2,0"]).fails(
        2,
        &["--lengthscale: value 2 is 0 (must be positive and finite)"],
    );
}

#[test]
fn negative_noise_variance_is_rejected() {
    predict_with("neg-noise", TRAIN_2D, CAND_2D, &["--noise-var", "-0.5"])
        .fails(2, &["--noise-var: value is -0.5"]);
}

#[test]
fn lengthscale_count_must_match_the_input_columns() {
    predict_with(
        "ls-count",
        TRAIN_2D,
        CAND_2D,
        &["--lengthscale", "0.1,0.2,0.3"],
    )
    .fails(
        2,
        &["--lengthscale: 3 values", "2 input columns of train.csv"],
    );
}

#[test]
fn unknown_kernel_is_rejected() {
    predict_with("kernel", TRAIN_2D, CAND_2D, &["--kernel", "gauss"])
        .fails(2, &["--kernel: unknown kernel 'gauss'", "matern52"]);
}

#[test]
fn candidate_columns_must_match_the_training_inputs() {
    predict_with("cand-cols", TRAIN_2D, "x1,x2,x3\n1,2,3\n", &[])
        .fails(2, &["cand.csv has 3 columns", "expected 2", "train.csv"]);
}

#[test]
fn unknown_device_is_a_usage_error() {
    predict_with("device", TRAIN_2D, CAND_2D, &["--device", "tpu"])
        .fails(2, &["--device", "'tpu'"]);
    Sandbox::new("device-env")
        .run_with_env(&["devices"], &[("BOSWEEP_DEVICE", "tpu")])
        .fails(2, &["'tpu'"]);
}

#[test]
fn unknown_precision_is_a_usage_error() {
    predict_with("precision", TRAIN_2D, CAND_2D, &["--precision", "f16"])
        .fails(2, &["--precision", "'f16'"]);
}

#[test]
fn out_into_a_missing_directory_is_a_runtime_failure() {
    predict_with(
        "out-dir",
        TRAIN_2D,
        CAND_2D,
        &["--out", "no/such/dir/pred.csv"],
    )
    .fails(1, &["cannot write no/such/dir/pred.csv"]);
}

fn kde_with(test: &str, flags: &[&str]) -> Outcome {
    let sandbox = Sandbox::new(test);
    sandbox
        .write("data.csv", "x\n0\n1\n2\n")
        .write("q.csv", "x\n0.5\n")
        .write("w.csv", "w\n1\n-2\n1\n");
    sandbox.run(&[&KDE[..], flags].concat())
}

#[test]
fn unknown_bandwidth_rule_is_rejected() {
    kde_with("bw-rule", &["--bandwidth", "sturges"])
        .fails(2, &["--bandwidth: unknown rule 'sturges'"]);
}

#[test]
fn non_positive_bandwidth_is_rejected() {
    kde_with("bw-zero", &["--bandwidth", "0"]).fails(2, &["--bandwidth: value is 0"]);
    kde_with("bw-neg", &["--bandwidth", "-1"]).fails(2, &["--bandwidth: value is -1"]);
}

#[test]
fn negative_weight_names_its_line() {
    kde_with("weights", &["--weights", "w.csv"])
        .fails(2, &[r#"w.csv line 3, column "w": -2 is negative"#]);
}

#[test]
fn paths_are_reported_as_given() {
    let sandbox = Sandbox::new("paths");
    let missing = sandbox.path("absent.csv");
    let data = missing.to_str().unwrap();
    let out = sandbox.run(&[
        "--device",
        "cpu",
        "kde",
        "--data",
        data,
        "--queries",
        "q.csv",
    ]);
    out.fails(
        2,
        &[&format!("cannot read {data}: No such file or directory")],
    );
}

/// `--fit mle` and `--fit map` fit the hyperparameters, print them, and predict a smooth
/// function from noisy samples better than the (deliberately poor) starting values do.
#[test]
fn gp_predict_fits_hyperparameters_and_reports_them() {
    // y = sin(3x) on 40 points of [0, 2] with deterministic ±0.01 "noise".
    let mut train = String::from("x,y\n");
    for i in 0..40 {
        let x = 2.0 * i as f64 / 39.0;
        let noise = if i % 2 == 0 { 0.01 } else { -0.01 };
        train.push_str(&format!("{x},{}\n", (3.0 * x).sin() + noise));
    }
    let cand = "x\n0.33\n1.01\n1.77\n";
    let truth: Vec<f64> = [0.33f64, 1.01, 1.77]
        .iter()
        .map(|x| (3.0 * x).sin())
        .collect();
    let error = |out: &Outcome| {
        parse_csv(&out.stdout, "mean,std")
            .iter()
            .zip(&truth)
            .map(|(row, t)| (row[0] - t).abs())
            .fold(0.0, f64::max)
    };
    let flags = ["--lengthscale", "20", "--noise-var", "0.5"];
    let fixed = predict_with("fit-fixed", &train, cand, &flags).success();
    for mode in ["mle", "map"] {
        let fitted = predict_with(
            &format!("fit-{mode}"),
            &train,
            cand,
            &[&flags[..], &["--fit", mode]].concat(),
        )
        .success();
        assert!(
            fitted
                .stderr
                .contains(&format!("fitted ({mode}): lengthscale = [")),
            "{}",
            fitted.stderr
        );
        assert!(error(&fitted) < 0.02, "{mode}: error {}", error(&fitted));
    }
    assert!(
        error(&fixed) > 0.1,
        "the starting values alone should predict poorly: {}",
        error(&fixed)
    );
    predict_with("fit-bad", &train, cand, &["--fit", "mcmc"]).fails(
        2,
        &[
            "--fit",
            "unknown fit mode \"mcmc\" (expected one of map, map-dsp, map-saas, mle, fixed)",
        ],
    );
    // Case and near misses are refused too, never taken for another mode.
    predict_with("fit-case", &train, cand, &["--fit", "MLE"])
        .fails(2, &["unknown fit mode \"MLE\""]);
}

#[test]
fn duplicate_inputs_without_noise_get_jitter_a_warning_and_finite_output() {
    let out = predict_with(
        "duplicates",
        "x,y\n0.1,1\n0.1,2\n0.5,0\n",
        "x\n0.1\n0.3\n",
        &["--noise-var", "0"],
    )
    .success();
    assert!(out.stderr.contains("jitter"), "{}", out.stderr);
    let rows = parse_csv(&out.stdout, "mean,std");
    assert_eq!(rows.len(), 2);
    for row in rows {
        assert!(
            row[0].is_finite() && row[1].is_finite() && row[1] >= 0.0,
            "{row:?}"
        );
    }
}

/// Extreme but valid hyperparameters give the limits, not NaN: the smallest lengthscale leaves
/// the candidate uncorrelated with the data (prior mean 0, prior std √s²) and the largest makes
/// every point the same (one mean, tiny std), for every kernel; beyond [1e-150, 1e150] a
/// lengthscale is refused by name (`1/ℓ` overflows near 1e-308).
#[test]
fn extreme_lengthscales_give_the_limits_for_every_kernel() {
    for kernel in ["se", "matern12", "matern32", "matern52", "rq"] {
        let tiny = predict_with(
            &format!("tiny-ls-{kernel}"),
            TRAIN_2D,
            CAND_2D,
            &[
                "--kernel",
                kernel,
                "--lengthscale",
                "1e-150",
                "--signal-var",
                "4",
            ],
        )
        .success();
        let rows = parse_csv(&tiny.stdout, "mean,std");
        // The rational-quadratic's polynomial tail leaves about (d/ℓ)^-2α ≈ 1e-299, not 0.
        let [mean, std] = rows[0][..] else {
            panic!("{rows:?}")
        };
        assert!(mean.abs() < 1e-290 && std == 2.0, "{kernel}: {rows:?}");

        let huge = predict_with(
            &format!("huge-ls-{kernel}"),
            TRAIN_2D,
            "x1,x2\n0.3,0.3\n0.9,0.9\n",
            &["--kernel", kernel, "--lengthscale", "1e150"],
        )
        .success();
        let rows = parse_csv(&huge.stdout, "mean,std");
        assert_eq!(rows[0], rows[1], "{kernel}");
        assert!(
            rows[0][0].is_finite() && (0.0..0.1).contains(&rows[0][1]),
            "{kernel}: {rows:?}"
        );
    }
    for value in ["1e-300", "1e300"] {
        predict_with("ls-range", TRAIN_2D, CAND_2D, &["--lengthscale", value]).fails(
            2,
            &[&format!("lengthscale 0 is {value}"), "[1e-150, 1e150]"],
        );
    }
}

/// A coordinate that overflows once divided by its lengthscale is refused by name (both
/// backends scale before differencing, so it would give ∞ − ∞ = NaN; found by fuzzing).
#[test]
fn overflowing_scaled_coordinates_are_refused() {
    predict_with(
        "scaled-overflow",
        TRAIN_2D,
        "x1,x2\n0.3,1e200\n",
        &["--lengthscale", "1e-150"],
    )
    .fails(
        2,
        &[
            "candidates: coordinate 1 of point 0 is 1e200",
            "lengthscale 1e-150",
        ],
    );
    // A coordinate whose square overflows, at an ordinary lengthscale.
    predict_with(
        "square-overflow",
        TRAIN_2D,
        "x1,x2\n1e160,0.3\n",
        &["--lengthscale", "2"],
    )
    .fails(
        2,
        &[
            "candidates: coordinate 0 of point 0 is 1e160",
            "must stay below 1e150",
        ],
    );
    predict_with(
        "square-limit",
        TRAIN_2D,
        "x1,x2\n1e150,0.3\n",
        &["--lengthscale", "1"],
    )
    .success();
}

/// Huge signal or noise variances are finite arithmetic, not errors: the posterior std scales
/// with √s², and a noise variance that swamps the data leaves the prior.
#[test]
fn huge_variances_stay_finite() {
    let out = predict_with("huge-signal", TRAIN_2D, CAND_2D, &["--signal-var", "1e300"]).success();
    let rows = parse_csv(&out.stdout, "mean,std");
    assert!(
        rows[0][0].is_finite() && rows[0][1] > 1e149 && rows[0][1].is_finite(),
        "{rows:?}"
    );
    let out = predict_with("huge-noise", TRAIN_2D, CAND_2D, &["--noise-var", "1e300"]).success();
    let rows = parse_csv(&out.stdout, "mean,std");
    assert!(
        rows[0][0].abs() < 1e-290 && (rows[0][1] - 1.0).abs() < 1e-12,
        "{rows:?}"
    );
}

#[test]
fn constant_targets_refuse_maximum_likelihood_but_not_map() {
    let train = "x,y\n0.1,3\n0.4,3\n0.8,3\n";
    predict_with("constant-mle", train, "x\n0.5\n", &["--fit", "mle"])
        .fails(2, &["all 3 targets are equal", "MAP"]);
    let out = predict_with("constant-map", train, "x\n0.5\n", &["--fit", "map"]).success();
    let rows = parse_csv(&out.stdout, "mean,std");
    assert_close(rows[0][0], 3.0, 1e-6);
}

#[test]
fn kde_error_writes_table_2_rows_and_names_bad_input() {
    let sandbox = Sandbox::new("kde-error");
    let table = |samples: &str| {
        let args = [
            "--device",
            "cpu",
            "kde-error",
            "--law",
            "normal",
            "--samples",
            samples,
            "--runs",
            "4",
            "--seed",
            "3",
        ];
        parse_csv(
            &sandbox.run(&args).success().stdout,
            "samples,runs,l1_mean,l1_se",
        )
    };
    let rows = table("10,50");
    assert_eq!(rows.len(), 2);
    for (row, n) in rows.iter().zip([10.0, 50.0]) {
        assert_eq!(row[..2], [n, 4.0]);
        assert!(row[2] > 0.0 && row[2] < 2.0 && row[3] > 0.0, "{row:?}");
    }
    // The same seed gives the same table; a row does not depend on the other sizes.
    assert_eq!(table("10,50"), rows);
    assert_eq!(table("50")[0], rows[1]);

    sandbox
        .run(&["kde-error", "--law", "cauchy"])
        .fails(2, &["--law", "cauchy", "normal or mixture"]);
    sandbox
        .run(&["kde-error", "--law", "mixture", "--samples", "10,1"])
        .fails(2, &["--samples", "'1'", "at least 2"]);
    sandbox
        .run(&["kde-error", "--law", "mixture", "--runs", "1"])
        .fails(2, &["--runs 1", "at least 2 runs"]);
    sandbox
        .run(&["kde-error", "--law", "mixture", "--bandwidth", "wide"])
        .fails(2, &["--bandwidth", "wide"]);
}

/// Issue 15: without a login session (no XDG_RUNTIME_DIR) every command on `--device auto`
/// printed `error: XDG_RUNTIME_DIR is invalid or not set` from Mesa's device-selection layer,
/// on success too. Nothing a user did wrong may print "error".
#[test]
fn commands_without_a_login_session_print_no_error() {
    let sandbox = Sandbox::new("no-session");
    for args in [
        &["devices"][..],
        &run_args("random", "branin", "3", &["--init", "2"])[..],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_bosweep"))
            .args(args)
            .current_dir(&sandbox.dir)
            .env_remove("XDG_RUNTIME_DIR")
            .env_remove("NODEVICE_SELECT")
            .env_remove("BOSWEEP_DEVICE")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(
            !stderr.to_lowercase().contains("error"),
            "{args:?}: {stderr}"
        );
    }
}

/// Issue 15: `gp predict --fit mle` needs no starting values, and prints the log marginal
/// likelihood of the targets in their own units: here checked against the Gaussian density of
/// y under the printed hyperparameters, computed by hand.
#[test]
fn gp_predict_fits_without_starting_values_and_reports_the_likelihood_of_y() {
    // Five targets of scale 1000, so that standardised and original units differ by ln 1000 per
    // point.
    let xs = [0.0, 0.3, 0.55, 0.8, 1.0];
    let ys: Vec<f64> = xs
        .iter()
        .map(|x: &f64| 1000.0 * (4.0 * x).sin() + 50.0 * x)
        .collect();
    let mut train = String::from("x,y\n");
    for (x, y) in xs.iter().zip(&ys) {
        train.push_str(&format!("{x},{y}\n"));
    }
    let sandbox = Sandbox::new("fit-defaults");
    sandbox
        .write("train.csv", &train)
        .write("cand.csv", "x\n0.4\n");
    let predict = |flags: &[&str]| {
        let common = [
            "gp",
            "predict",
            "--device",
            "cpu",
            "--train",
            "train.csv",
            "--candidates",
            "cand.csv",
            "--kernel",
            "se",
        ];
        sandbox.run(&[&common[..], flags].concat())
    };
    let out = predict(&["--fit", "mle"]).success();
    let line = out
        .stderr
        .lines()
        .find(|l| l.starts_with("fitted (mle)"))
        .unwrap();
    let field = |name: &str| -> f64 {
        let start = line.find(&format!("{name} = ")).unwrap() + name.len() + 3;
        let rest = &line[start..];
        let end = rest.find([',', ']']).unwrap_or(rest.len());
        rest[..end].trim_start_matches('[').parse().unwrap()
    };
    let (l, s2, noise, mean) = (
        field("lengthscale"),
        field("signal_var"),
        field("noise_var"),
        field("mean"),
    );
    let printed = field("log marginal likelihood");
    // ln N(y; m, K + σ²I) with K = s² exp(−(x − x')²/(2ℓ²)).
    let n = xs.len();
    let k = nalgebra::DMatrix::from_fn(n, n, |i, j| {
        s2 * (-(xs[i] - xs[j]).powi(2) / (2.0 * l * l)).exp() + if i == j { noise } else { 0.0 }
    });
    let chol = k.cholesky().unwrap();
    let r = nalgebra::DVector::from_iterator(n, ys.iter().map(|y| y - mean));
    let quad = r.dot(&chol.solve(&r));
    let log_det: f64 = 2.0 * chol.l().diagonal().iter().map(|d| d.ln()).sum::<f64>();
    let want = -0.5 * quad - 0.5 * log_det - 0.5 * n as f64 * (2.0 * std::f64::consts::PI).ln();
    assert!(
        (printed - want).abs() < 1e-6 * want.abs().max(1.0),
        "{printed} vs {want}: {line}"
    );
    // Fixed hyperparameters still need every value, and say which is missing.
    predict(&["--fit", "fixed", "--signal-var", "1", "--noise-var", "0.1"])
        .fails(2, &["--lengthscale is required with --fit fixed"]);
    // MAP is the default fit, as for the algorithms and the Python package.
    let default = predict(&[]).success();
    assert!(
        default.stderr.starts_with("fitted (map): lengthscale = ["),
        "{}",
        default.stderr
    );
}
