//! Criterion benchmarks of every engine operation at several sizes, on the CPU backend and, when
//! a hardware adapter exists, the GPU backend (f32). `bosweep bench` reports the same operations as
//! throughput tables; these give statistically robust timings for comparing changes.

use bosweep::acquisition::PosteriorPaths;
use bosweep::compute::{CpuEngine, Engine, GpuEngine, GpuOptions, PairReduction, Points};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise, SmoothingKernel};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn points(rng: &mut ChaCha8Rng, rows: usize, dim: usize) -> Points {
    Points::new((0..rows * dim).map(|_| rng.random::<f64>()).collect(), dim).unwrap()
}

fn gp(rng: &mut ChaCha8Rng, n: usize, d: usize) -> GpState {
    let train = points(rng, n, d);
    let y: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
    let kernel = Kernel::new(KernelKind::Matern52, vec![0.5; d], 1.0).unwrap();
    GpState::fit(train, &y, GpSpec::new(kernel, Noise::Homoscedastic(1e-4))).unwrap()
}

/// The backends to measure: always the CPU, plus a hardware GPU when one opens (a software
/// adapter such as lavapipe measures the CPU again, slowly).
fn engines() -> Vec<(&'static str, Box<dyn Engine>)> {
    let mut engines: Vec<(&'static str, Box<dyn Engine>)> =
        vec![("cpu", Box::new(CpuEngine::new()))];
    if let Ok(gpu) = GpuEngine::new(&GpuOptions {
        hardware_only: true,
        ..Default::default()
    }) {
        engines.push(("gpu", Box::new(gpu)));
    }
    engines
}

fn posterior(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut group = c.benchmark_group("posterior");
    group.sample_size(10);
    for (n, d, m) in [(100, 4, 10_000), (500, 10, 20_000), (1000, 10, 100_000)] {
        let state = gp(&mut rng, n, d);
        let cand = points(&mut rng, m, d);
        group.throughput(Throughput::Elements(m as u64));
        for (name, engine) in engines() {
            group.bench_with_input(
                BenchmarkId::new(name, format!("n{n}_d{d}_m{m}")),
                &cand,
                |b, cand| b.iter(|| engine.posterior(&state, cand).unwrap()),
            );
        }
    }
    group.finish();
}

fn posterior_batch(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut group = c.benchmark_group("posterior_batch");
    group.sample_size(10);
    let states: Vec<GpState> = (0..11).map(|_| gp(&mut rng, 200, 1)).collect();
    let refs: Vec<&GpState> = states.iter().collect();
    let cand = points(&mut rng, 200, 1);
    for (name, engine) in engines() {
        group.bench_function(BenchmarkId::new(name, "P11_n200_m200"), |b| {
            b.iter(|| engine.posterior_batch(&refs, &cand).unwrap())
        });
    }
    group.finish();
}

fn cross_covariance(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut group = c.benchmark_group("cross_covariance");
    group.sample_size(10);
    for (m, n, d) in [(1000, 100, 3), (10_000, 1000, 10), (1000, 256, 256)] {
        let (a, bpts) = (points(&mut rng, m, d), points(&mut rng, n, d));
        let kernel = Kernel::new(KernelKind::SquaredExponential, vec![0.5; d], 1.0).unwrap();
        group.throughput(Throughput::Elements((m * n) as u64));
        for (name, engine) in engines() {
            group.bench_function(BenchmarkId::new(name, format!("m{m}_n{n}_d{d}")), |b| {
                b.iter(|| engine.cross_covariance(&kernel, &a, &bpts).unwrap())
            });
        }
    }
    group.finish();
}

fn pair_reduce(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut group = c.benchmark_group("pair_reduce");
    group.sample_size(10);
    for (n, m, samples) in [(50, 256, 256), (200, 1024, 1024)] {
        let state = gp(&mut rng, n, 3);
        let (dec, ctx) = (points(&mut rng, m, 2), points(&mut rng, samples, 1));
        let infimum = vec![-10.0; m];
        group.throughput(Throughput::Elements((m * samples) as u64));
        for (name, engine) in engines() {
            for (label, reduction) in [
                ("mean", PairReduction::Mean),
                (
                    "tv",
                    PairReduction::WorstCaseTv {
                        delta: 0.2,
                        infimum: &infimum,
                    },
                ),
            ] {
                group.bench_function(
                    BenchmarkId::new(format!("{name}_{label}"), format!("n{n}_m{m}_M{samples}")),
                    |b| {
                        b.iter(|| {
                            engine
                                .pair_reduce(&state, &dec, &ctx, 1.5, reduction)
                                .unwrap()
                        })
                    },
                );
            }
        }
    }
    group.finish();
}

fn density_and_regression(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut group = c.benchmark_group("queries");
    group.sample_size(10);
    for (n, d, m) in [(256, 2, 10_000), (4096, 8, 65_536)] {
        let (data, q) = (points(&mut rng, n, d), points(&mut rng, m, d));
        let y: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
        let h = vec![0.1; d];
        group.throughput(Throughput::Elements(m as u64));
        let size = format!("n{n}_d{d}_m{m}");
        for (name, engine) in engines() {
            group.bench_function(BenchmarkId::new(format!("kde_{name}"), &size), |b| {
                b.iter(|| engine.kde_log_density(&data, &h, None, &q).unwrap())
            });
            group.bench_function(
                BenchmarkId::new(format!("kernel_regression_{name}"), &size),
                |b| {
                    b.iter(|| {
                        engine
                            .kernel_regression(&data, &y, SmoothingKernel::Gaussian, 0.1, &q)
                            .unwrap()
                    })
                },
            );
            group.bench_function(BenchmarkId::new(format!("nearest_{name}"), &size), |b| {
                b.iter(|| engine.nearest(&data, &q).unwrap())
            });
        }
    }
    group.finish();
}

fn top_k(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut group = c.benchmark_group("top_k");
    group.sample_size(10);
    for len in [1 << 12, 1 << 20, 1 << 22] {
        let values: Vec<f64> = (0..len).map(|_| rng.random::<f64>()).collect();
        group.throughput(Throughput::Elements(len as u64));
        for (name, engine) in engines() {
            group.bench_function(BenchmarkId::new(name, format!("len{len}_k64")), |b| {
                b.iter(|| engine.top_k(&values, 64).unwrap())
            });
        }
    }
    group.finish();
}

fn sample_path_maxima(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut group = c.benchmark_group("sample_path_maxima");
    group.sample_size(10);
    let state = gp(&mut rng, 100, 20);
    let paths = PosteriorPaths::draw(&state, 1024, 1, &mut rng).unwrap();
    for m in [1 << 12, 1 << 14, 1 << 16] {
        let cand = points(&mut rng, m, 20);
        group.throughput(Throughput::Elements(m as u64));
        for (name, engine) in engines() {
            group.bench_with_input(
                BenchmarkId::new(name, format!("n100_d20_F1024_m{m}")),
                &cand,
                |b, cand| b.iter(|| paths.maxima(engine.as_ref(), cand, &[]).unwrap()),
            );
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    posterior,
    posterior_batch,
    cross_covariance,
    pair_reduce,
    density_and_regression,
    top_k,
    sample_path_maxima
);
criterion_main!(benches);
