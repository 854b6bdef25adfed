//! The bodies of the fuzz targets (`fuzz/fuzz_targets/`, run with `cargo +nightly fuzz run
//! <target>`) and of their regression test (`tests/library/fuzz_regressions.rs`, which replays the
//! inputs kept in `fuzz/regressions/<target>/` on stable Rust in CI). A crate of its own, used only
//! by those two, so that no library a program depends on carries them.
//!
//! Each function takes arbitrary bytes and panics only when an invariant is broken, so that the
//! fuzzer reports exactly the inputs that break a guarantee of the reliability chapter (docs/guide/reliability.md): parsers turn any input
//! into a value or an error naming the file, never a panic; engine operations on arbitrary small
//! inputs return results that agree with a direct evaluation, or an `EngineError`, never a NaN;
//! the readers of a sweep's files (`trace_reader`, `manifest_reader`, `archive_reader`) accept
//! only what every later reader relies on.

mod readers;

pub use readers::{archive_reader, manifest_reader, trace_reader};

use bosweep_core::io::csv::NumericTable;
use bosweep_engine::{CpuEngine, Engine, PairReduction, Points};
use bosweep_model::{GpSpec, GpState, Kernel, KernelKind, Noise, SmoothingKernel};
use bosweep_problems::parse_objective_output;
use bosweep_sweep::SweepConfig;

/// Runs the sweep-config parser on `bytes` (as lossy UTF-8).
pub fn sweep_config(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    match SweepConfig::parse(&text, "fuzz.toml") {
        Ok(config) => {
            assert!(
                config.run_count() > 0,
                "a valid config expands into no runs"
            );
            if config.run_count() <= 4096 {
                let runs = config.runs();
                assert_eq!(runs.len(), config.run_count());
                assert!(
                    runs.iter().all(|r| r.init <= r.budget),
                    "init exceeds budget"
                );
            }
        }
        Err(e) => assert_names_file(&e.to_string(), "fuzz.toml"),
    }
}

/// Runs the CSV reader on `bytes`.
pub fn csv_table(bytes: &[u8]) {
    match NumericTable::parse("fuzz.csv".to_string(), bytes) {
        Ok(table) => {
            assert_eq!(table.columns().len(), table.cols());
            for col in 0..table.cols() {
                let values = table.column(col);
                assert_eq!(values.len(), table.rows());
                assert!(
                    values.iter().all(|v| v.is_finite()),
                    "non-finite cell accepted"
                );
            }
        }
        Err(e) => assert_names_file(&e.to_string(), "fuzz.csv"),
    }
}

fn assert_names_file(message: &str, file: &str) {
    assert!(
        message.contains(file),
        "error message does not name the file: {message}"
    );
}

/// Decodes one engine operation and its small inputs from `bytes` and checks the CPU backend's
/// answer against a direct evaluation.
pub fn engine_ops(bytes: &[u8]) {
    let mut input = Bytes(bytes);
    let engine = CpuEngine::new();
    match input.byte() % 7 {
        0 => cross_covariance(&engine, &mut input),
        1 => posterior(&engine, &mut input),
        2 => kde(&engine, &mut input),
        3 => kernel_regression(&engine, &mut input),
        4 => nearest(&engine, &mut input),
        5 => top_k(&engine, &mut input),
        _ => pair_reduce(&engine, &mut input),
    }
}

/// A reader that never fails: past the end every byte is 0.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    /// A count in `1..=max`.
    fn count(&mut self, max: u8) -> usize {
        usize::from(self.byte() % max) + 1
    }

    /// A real drawn mostly from a small grid (so that ties, duplicates and zeros are common), and
    /// sometimes an extreme or non-finite value.
    fn real(&mut self) -> f64 {
        match self.byte() {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => 1e300,
            4 => -1e300,
            5 => 1e-300,
            6 => f64::MIN_POSITIVE / 4.0,
            b => f64::from(b as i8) / 16.0,
        }
    }

    fn reals(&mut self, len: usize) -> Vec<f64> {
        (0..len).map(|_| self.real()).collect()
    }

    fn points(&mut self, rows: usize, dim: usize) -> Option<Points> {
        Points::new(self.reals(rows * dim), dim).ok()
    }

    fn kernel(&mut self, dim: usize) -> Option<Kernel> {
        let kind = match self.byte() % 5 {
            0 => KernelKind::SquaredExponential,
            1 => KernelKind::Matern12,
            2 => KernelKind::Matern32,
            3 => KernelKind::Matern52,
            _ => KernelKind::RationalQuadratic { alpha: self.real() },
        };
        let lengthscales = self.reals(dim);
        let kernel = Kernel::new(kind, lengthscales, self.real()).ok()?;
        if self.byte().is_multiple_of(4) {
            kernel.with_time_decay(self.real()).ok()
        } else {
            Some(kernel)
        }
    }

    fn smoothing_kernel(&mut self) -> SmoothingKernel {
        match self.byte() % 3 {
            0 => SmoothingKernel::Gaussian,
            1 => SmoothingKernel::Epanechnikov,
            _ => SmoothingKernel::Uniform,
        }
    }
}

fn cross_covariance(engine: &CpuEngine, input: &mut Bytes<'_>) {
    let dim = input.count(3);
    let Some(kernel) = input.kernel(dim) else {
        return;
    };
    let dim = kernel.input_dim();
    let (n, m) = (input.count(5), input.count(5));
    let (Some(a), Some(b)) = (input.points(n, dim), input.points(m, dim)) else {
        return;
    };
    let Ok(k) = engine.cross_covariance(&kernel, &a, &b) else {
        return;
    };
    for i in 0..n {
        for j in 0..m {
            let direct = kernel.eval(a.row(i), b.row(j));
            let got = k[(i, j)];
            assert!(got.is_finite(), "non-finite covariance {got}");
            assert!((0.0..=kernel.diag() * (1.0 + 1e-12)).contains(&got));
            assert!((got - direct).abs() <= 1e-12 * kernel.diag().max(f64::MIN_POSITIVE));
        }
    }
}

fn posterior(engine: &CpuEngine, input: &mut Bytes<'_>) {
    let dim = input.count(2);
    let Some(kernel) = input.kernel(dim) else {
        return;
    };
    let dim = kernel.input_dim();
    let n = input.count(5);
    let Some(train) = input.points(n, dim) else {
        return;
    };
    let targets = input.reals(n);
    let noise = if input.byte().is_multiple_of(2) {
        Noise::Homoscedastic(input.real())
    } else {
        Noise::PerPoint(input.reals(n))
    };
    let (mean, lambda) = (input.real(), input.real());
    let Ok(gp) = GpState::fit(
        train,
        &targets,
        GpSpec::new(kernel, noise.clone()).mean(mean).lambda(lambda),
    ) else {
        return;
    };
    let m = input.count(4);
    let Some(candidates) = input.points(m, dim) else {
        return;
    };
    if let Ok(p) = engine.posterior(&gp, &candidates) {
        assert!(p.mean.iter().all(|v| v.is_finite()), "mean {:?}", p.mean);
        assert!(
            p.variance.iter().all(|v| v.is_finite() && *v >= 0.0),
            "variance {:?}",
            p.variance
        );
    }
}

fn kde(engine: &CpuEngine, input: &mut Bytes<'_>) {
    let dim = input.count(3);
    let (n, m) = (input.count(5), input.count(4));
    let (Some(data), Some(queries)) = (input.points(n, dim), input.points(m, dim)) else {
        return;
    };
    let bandwidths = input.reals(dim);
    let weights = input.byte().is_multiple_of(2).then(|| input.reals(n));
    if let Ok(log_density) =
        engine.kde_log_density(&data, &bandwidths, weights.as_deref(), &queries)
    {
        assert!(
            log_density
                .iter()
                .all(|v| !v.is_nan() && *v != f64::INFINITY),
            "log density {log_density:?}"
        );
    }
}

fn kernel_regression(engine: &CpuEngine, input: &mut Bytes<'_>) {
    let dim = input.count(3);
    let (n, m) = (input.count(5), input.count(4));
    let (Some(data), Some(queries)) = (input.points(n, dim), input.points(m, dim)) else {
        return;
    };
    let targets = input.reals(n);
    let kernel = input.smoothing_kernel();
    let bandwidth = input.real();
    if let Ok(kr) = engine.kernel_regression(&data, &targets, kernel, bandwidth, &queries) {
        let (lo, hi) = targets
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &t| {
                (lo.min(t), hi.max(t))
            });
        // A weighted average of the targets lies within their range, up to rounding.
        let slack = 1e-12 * lo.abs().max(hi.abs());
        for (mean, log_w) in kr.mean.iter().zip(&kr.log_weight_sum) {
            assert!(
                mean.is_finite() && (lo - slack..=hi + slack).contains(mean),
                "mean {mean} outside [{lo}, {hi}]"
            );
            assert!(
                !log_w.is_nan() && *log_w <= (n as f64).ln() + 1e-9,
                "ln W {log_w}"
            );
        }
    }
}

fn nearest(engine: &CpuEngine, input: &mut Bytes<'_>) {
    let dim = input.count(3);
    let (n, m) = (input.count(6), input.count(4));
    let (Some(data), Some(queries)) = (input.points(n, dim), input.points(m, dim)) else {
        return;
    };
    let Ok(indices) = engine.nearest(&data, &queries) else {
        return;
    };
    let sq = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>();
    for (q, &i) in queries.iter().zip(&indices) {
        let best = sq(q, data.row(i));
        assert!(
            data.iter().all(|row| best <= sq(q, row)),
            "{i} is not the nearest"
        );
    }
}

fn top_k(engine: &CpuEngine, input: &mut Bytes<'_>) {
    let len = input.count(12);
    let values = input.reals(len);
    let k = input.count(12);
    match engine.top_k(&values, k) {
        Ok(indices) => {
            assert_eq!(indices.len(), k.min(len));
            assert!(indices.windows(2).all(|w| values[w[0]] >= values[w[1]]));
            let mut unique = indices.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), indices.len(), "repeated index");
            let last = values[*indices.last().expect("k ≥ 1")];
            let outside = (0..len).filter(|i| !indices.contains(i));
            assert!(
                outside.clone().all(|i| values[i] <= last),
                "a larger value left out"
            );
        }
        Err(_) => assert!(
            values.iter().any(|v| v.is_nan()),
            "top-k refused {values:?}"
        ),
    }
}

fn pair_reduce(engine: &CpuEngine, input: &mut Bytes<'_>) {
    let (dx, dc) = (input.count(2), input.count(2));
    let Some(kernel) = input.kernel(dx + dc) else {
        return;
    };
    if kernel.time_decay().is_some() {
        return;
    }
    let n = input.count(4);
    let Some(train) = input.points(n, dx + dc) else {
        return;
    };
    let targets = input.reals(n);
    let Ok(gp) = GpState::fit(
        train,
        &targets,
        GpSpec::new(kernel, Noise::Homoscedastic(1e-2)),
    ) else {
        return;
    };
    let (m, samples) = (input.count(4), input.count(5));
    let (Some(decisions), Some(contexts)) = (input.points(m, dx), input.points(samples, dc)) else {
        return;
    };
    let beta = input.real();
    let infimum = input.reals(m);
    let reduction = match input.byte() % 3 {
        0 => PairReduction::Mean,
        1 => PairReduction::Min,
        _ => PairReduction::WorstCaseTv {
            delta: input.real(),
            infimum: &infimum,
        },
    };
    if let Ok(values) = engine.pair_reduce(&gp, &decisions, &contexts, beta, reduction) {
        assert_eq!(values.len(), m);
        assert!(
            values.iter().all(|v| !v.is_nan()),
            "pair reduction {values:?}"
        );
    }
}

/// Runs the external objective's output parser on `bytes` as a command's stdout: a value is
/// finite and is what the trimmed text says; an error is one bounded line; and the first 8 bytes
/// read as any finite `f64` and printed the way a program would (Rust `{}`, `{:e}`, C's `%.17g`
/// equivalent) parse back exactly.
pub fn objective_output(bytes: &[u8]) {
    check_objective_output(bytes);
    if let Some(head) = bytes.first_chunk::<8>() {
        let v = f64::from_le_bytes(*head);
        if v.is_finite() {
            for printed in [
                format!("{v}\n"),
                format!(" {v:e}\r\n"),
                format!("{v:+.17e}"),
            ] {
                assert_eq!(
                    parse_objective_output(printed.as_bytes()),
                    Ok(v),
                    "{printed:?} does not read back as {v}"
                );
            }
        }
    }
}

fn check_objective_output(bytes: &[u8]) {
    match parse_objective_output(bytes) {
        Ok(v) => {
            assert!(v.is_finite(), "non-finite value {v} accepted");
            let text = std::str::from_utf8(bytes).expect("only UTF-8 text holds a number");
            assert_eq!(
                text.trim().parse::<f64>(),
                Ok(v),
                "value differs from the text"
            );
        }
        Err(message) => {
            assert!(
                !message.is_empty() && message.len() <= 400,
                "error message of {} bytes",
                message.len()
            );
            assert!(!message.contains('\n'), "multi-line error: {message:?}");
        }
    }
}
