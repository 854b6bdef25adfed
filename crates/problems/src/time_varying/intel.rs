//! The Intel Berkeley lab temperature task (Ziomek et al. 2025, §7): at each ten-minute window
//! of 14 March 2004 pick the hottest sensor; the candidate priors are one zero-mean GP per
//! previous day of March, with kernel `Cov_d(i, i') · (1 − ε_d)^{|t − t'|/2}`.
//!
//! The public data cannot be downloaded at run time, so two sources share one preprocessing
//! ([`parse_lab_data`], then [`IntelTask::from_days`]): a loader for a local copy of the lab's
//! `data.txt` (path in `$BOSWEEP_INTEL_DATA`), and a synthetic stand-in of the same shape,
//! generated deterministically in code, that ships with the project.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use nalgebra::{DMatrix, SymmetricEigen};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

use crate::support::gaussian_repeats;
use crate::{Domain, Observation, Optimum, ParamValue, Params, Problem, ProblemError, Sense, Step};
use bosweep_engine::Points;
use bosweep_model::{CandidatePrior, CandidatePriors, KernelGroup};

/// Days 1–14 March 2004: 13 prior days, then the optimisation day.
pub const DAYS: usize = 14;
/// Days whose temperatures define a candidate prior: all but the last.
pub(crate) const PRIOR_DAYS: usize = DAYS - 1;
/// Ten-minute windows per day; also the horizon T.
pub const WINDOWS: usize = 144;
/// The grid searched for each day's forgetting rate ε_d.
pub const EPSILON_GRID: [f64; 9] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5];
/// Noise std (standardised units) of the marginal likelihood that selects ε_d.
pub const FIT_NOISE_STD: f64 = 0.1;
/// A mote missing more than this share of its windows on any day is dropped.
pub const MAX_MISSING_SHARE: f64 = 0.2;
/// Sensors of the synthetic stand-in.
pub const SYNTHETIC_SENSORS: usize = 50;
/// The environment variable naming the local copy of the lab's `data.txt`.
pub const DATA_ENV: &str = "BOSWEEP_INTEL_DATA";

/// Window-mean temperatures in °C: `days[d]` is `WINDOWS × M`, column i for `sensors[i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct DayTemperatures {
    /// Window means in °C per day: `days[d]` is `WINDOWS × M`.
    pub days: Vec<DMatrix<f64>>,
    /// Mote ids, in column order.
    pub sensors: Vec<u32>,
}

/// The preprocessed task: the standardised objective and one prior per previous day.
#[derive(Debug)]
pub struct IntelTask {
    /// Mote ids of the domain's points `0..M`.
    pub sensors: Vec<u32>,
    /// `f(i, t) = F̃_14[t − 1, i]`, standardised, `WINDOWS × M`.
    pub target: DMatrix<f64>,
    /// The affine map to °C: `F = mean + scale · F̃`.
    pub mean: f64,
    /// °C per standardised unit.
    pub scale: f64,
    /// `Cov_d`, `M × M`, for the 13 prior days.
    pub covariances: Vec<DMatrix<f64>>,
    /// `ε_d` for the 13 prior days.
    pub epsilons: Vec<f64>,
    priors: Arc<CandidatePriors>,
}

/// `ln N(vec(F) ; 0, B_ε ⊗ Cov + R² I)` up to its constant, from the two eigendecompositions
/// (`Ỹ = Q_Bᵀ F Q_A`).
fn kronecker_log_likelihood(
    b: &SymmetricEigen<f64, nalgebra::Dyn>,
    a: &SymmetricEigen<f64, nalgebra::Dyn>,
    centred: &DMatrix<f64>,
    noise_var: f64,
) -> f64 {
    let rotated = b.eigenvectors.transpose() * centred * &a.eigenvectors;
    let mut total = 0.0;
    for (j, lb) in b.eigenvalues.iter().enumerate() {
        for (i, la) in a.eigenvalues.iter().enumerate() {
            let v = (lb.max(0.0) * la.max(0.0)) + noise_var;
            total += v.ln() + rotated[(j, i)].powi(2) / v;
        }
    }
    -0.5 * total
}

/// `B_ε[t, t'] = (1 − ε)^{|t − t'|/2}` over the windows of one day.
pub fn time_covariance(epsilon: f64) -> DMatrix<f64> {
    let rho = (1.0 - epsilon).sqrt();
    DMatrix::from_fn(WINDOWS, WINDOWS, |i, j| rho.powi(i.abs_diff(j) as i32))
}

impl IntelTask {
    /// Steps 4–7 of the preprocessing: standardise with the prior days' pooled mean and
    /// std, `Cov_d = F̃_dcᵀ F̃_dc / 143`, `ε_d` by marginal likelihood over [`EPSILON_GRID`].
    pub fn from_days(data: &DayTemperatures) -> Result<Self, ProblemError> {
        let m = data.sensors.len();
        if data.days.len() != DAYS || m < 2 {
            return Err(ProblemError::config(format!(
                "the Intel task needs {DAYS} days and at least 2 sensors (got {} days, {m} sensors)",
                data.days.len()
            )));
        }
        if let Some(d) = data.days.iter().position(|f| {
            f.nrows() != WINDOWS || f.ncols() != m || f.iter().any(|v| !v.is_finite())
        }) {
            return Err(ProblemError::config(format!(
                "day {} is not a finite {WINDOWS} × {m} table",
                d + 1
            )));
        }
        let pooled: Vec<f64> = data.days[..PRIOR_DAYS]
            .iter()
            .flat_map(|f| f.iter().copied())
            .collect();
        let mean = pooled.iter().sum::<f64>() / pooled.len() as f64;
        let var = pooled.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / pooled.len() as f64;
        let scale = var.sqrt();
        if scale.is_nan() || scale <= 0.0 {
            return Err(ProblemError::config(
                "the prior days' temperatures are constant; they cannot be standardised",
            ));
        }
        let standardised: Vec<DMatrix<f64>> = data
            .days
            .iter()
            .map(|f| f.map(|v| (v - mean) / scale))
            .collect();
        let time_eigen: Vec<_> = EPSILON_GRID
            .iter()
            .map(|&e| SymmetricEigen::new(time_covariance(e)))
            .collect();
        let noise_var = FIT_NOISE_STD * FIT_NOISE_STD;
        let mut covariances = Vec::with_capacity(PRIOR_DAYS);
        let mut epsilons = Vec::with_capacity(PRIOR_DAYS);
        for day in &standardised[..PRIOR_DAYS] {
            let mut centred = day.clone();
            for mut column in centred.column_iter_mut() {
                let mu = column.mean();
                column.add_scalar_mut(-mu);
            }
            let cov = centred.transpose() * &centred / (WINDOWS - 1) as f64;
            let cov = (&cov + cov.transpose()) * 0.5;
            let space = SymmetricEigen::new(cov.clone());
            let (best, _) = time_eigen
                .iter()
                .enumerate()
                .map(|(k, b)| (k, kronecker_log_likelihood(b, &space, &centred, noise_var)))
                .fold((0, f64::NEG_INFINITY), |acc, (k, ll)| {
                    if ll > acc.1 { (k, ll) } else { acc }
                });
            covariances.push(cov);
            epsilons.push(EPSILON_GRID[best]);
        }
        let candidates = Points::new((0..m).map(|i| i as f64).collect(), 1)
            .map_err(|e| ProblemError::config(e.to_string()))?;
        let groups = covariances
            .iter()
            .zip(&epsilons)
            .map(|(cov, &epsilon)| KernelGroup {
                spatial: cov.clone(),
                epsilon,
                stationary: None,
            })
            .collect();
        let priors = (0..PRIOR_DAYS)
            .map(|d| CandidatePrior {
                label: format!("2004-03-{:02}", d + 1),
                mean: vec![0.0; m],
                group: d,
            })
            .collect();
        let priors = Arc::new(
            CandidatePriors::new(candidates, groups, priors, WINDOWS, None)
                .map_err(|e| ProblemError::config(e.to_string()))?,
        );
        Ok(Self {
            sensors: data.sensors.clone(),
            target: standardised[PRIOR_DAYS].clone(),
            mean,
            scale,
            covariances,
            epsilons,
            priors,
        })
    }

    /// The 13 day priors over the sensors, shared by every problem built on this task.
    pub fn candidate_priors(&self) -> Arc<CandidatePriors> {
        self.priors.clone()
    }
}

/// A deterministic stand-in with the lab's shape: 50 sensors on a 40 m × 30 m floor, 14 days (1
/// March 2004 was a Monday) × 144 windows. Temperature = day base + diurnal cycle + three heat
/// sources whose activity follows an AR(1) process with a day-specific persistence (office sources
/// on weekdays in working hours, a sunlit source at weekends), plus a sensor offset and sensor
/// noise. Days therefore differ in spatial covariance and in temporal persistence, as the real
/// priors do.
pub fn synthetic_days() -> DayTemperatures {
    let mut rng = ChaCha8Rng::seed_from_u64(20040314);
    let m = SYNTHETIC_SENSORS;
    let positions: Vec<(f64, f64)> = (0..m)
        .map(|_| (rng.random_range(0.0..40.0), rng.random_range(0.0..30.0)))
        .collect();
    let sources = [(8.0, 8.0), (30.0, 22.0), (20.0, 2.0)];
    let loading = |i: usize, k: usize| {
        let (dx, dy) = (positions[i].0 - sources[k].0, positions[i].1 - sources[k].1);
        (-(dx * dx + dy * dy) / (2.0 * 10.0 * 10.0)).exp()
    };
    let offsets: Vec<f64> = (0..m)
        .map(|_| 0.5 * rng.sample::<f64, _>(StandardNormal))
        .collect();
    let mut normal = move || -> f64 { StandardNormal.sample(&mut rng) };
    let days = (1..=DAYS)
        .map(|day| {
            let weekend = day % 7 == 6 || day % 7 == 0;
            let base = 19.0 + 0.7 * normal();
            let amplitude = 1.5 + 0.3 * normal().abs();
            let persistence = 0.9 + 0.09 * (day as f64 * 1.7).sin().abs();
            let mut activity = [0.0f64; 3];
            let mut sensor_noise = vec![0.0f64; m];
            let mut table = DMatrix::zeros(WINDOWS, m);
            for w in 0..WINDOWS {
                let working = (48..108).contains(&w);
                let strength = [
                    if !weekend && working { 2.0 } else { 0.3 },
                    if !weekend && working { 1.5 } else { 0.3 },
                    if weekend { 2.0 } else { 0.8 },
                ];
                for (k, a) in activity.iter_mut().enumerate() {
                    *a = persistence * *a
                        + (1.0 - persistence * persistence).sqrt() * strength[k] * normal();
                }
                let diurnal =
                    amplitude * (2.0 * std::f64::consts::PI * (w as f64 - 54.0) / 144.0).sin();
                for (i, noise) in sensor_noise.iter_mut().enumerate() {
                    *noise = 0.8 * *noise + 0.6 * 0.15 * normal();
                    let heat: f64 = (0..3).map(|k| loading(i, k) * activity[k].abs()).sum();
                    table[(w, i)] = base + diurnal + heat + offsets[i] + *noise;
                }
            }
            table
        })
        .collect();
    DayTemperatures {
        days,
        sensors: (1..=m as u32).collect(),
    }
}

/// The synthetic task, built once per process.
pub fn synthetic_task() -> Result<Arc<IntelTask>, ProblemError> {
    static TASK: OnceLock<Arc<IntelTask>> = OnceLock::new();
    if let Some(task) = TASK.get() {
        return Ok(task.clone());
    }
    let task = Arc::new(IntelTask::from_days(&synthetic_days())?);
    Ok(TASK.get_or_init(|| task).clone())
}

/// The task of the local file named by [`DATA_ENV`], loaded once per process and path.
pub fn file_task() -> Result<Arc<IntelTask>, ProblemError> {
    static CACHE: Mutex<Option<(PathBuf, Arc<IntelTask>)>> = Mutex::new(None);
    let path = std::env::var_os(DATA_ENV).map(PathBuf::from).ok_or_else(|| {
        ProblemError::config(format!(
            "intel-temp reads the Intel lab's data.txt from a local file: set ${DATA_ENV} to its path \
             (or use intel-temp-synthetic)"
        ))
    })?;
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((cached, task)) = cache.as_ref()
        && *cached == path
    {
        return Ok(task.clone());
    }
    let task = Arc::new(IntelTask::from_days(&load_lab_data(&path)?)?);
    *cache = Some((path, task.clone()));
    Ok(task)
}

/// Reads the lab's `data.txt` (see [`parse_lab_data`]).
pub fn load_lab_data(path: &Path) -> Result<DayTemperatures, ProblemError> {
    let file = std::fs::File::open(path).map_err(|e| {
        ProblemError::config(format!("${DATA_ENV}: cannot open {}: {e}", path.display()))
    })?;
    parse_lab_data(std::io::BufReader::new(file))
        .map_err(|e| ProblemError::config(format!("{}: {e}", path.display())))
}

/// Steps 1–3 of the preprocessing, from the whitespace-separated columns
/// `date time epoch moteid temperature humidity light voltage`: keep 2004-03-01..14, motes
/// 1–54 and temperatures in [5, 50] °C; average each mote over ten-minute windows; fill missing
/// windows linearly in time (nearest value at the edges); drop motes missing more than 20 % of
/// the windows of any day. Lines too short or unparsable (the public file has some) are skipped.
pub fn parse_lab_data(reader: impl BufRead) -> Result<DayTemperatures, String> {
    let mut sums: HashMap<u32, Vec<(f64, u32)>> = HashMap::new();
    for line in reader.lines() {
        let line = line.map_err(|e| format!("read error: {e}"))?;
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 5 {
            continue;
        }
        let Some(day) = fields[0]
            .strip_prefix("2004-03-")
            .and_then(|d| d.parse::<usize>().ok())
            .filter(|d| (1..=DAYS).contains(d))
        else {
            continue;
        };
        let seconds = fields[1]
            .split(':')
            .map(str::parse::<f64>)
            .collect::<Vec<_>>();
        let [Ok(h), Ok(mi), Ok(s)] = seconds[..] else {
            continue;
        };
        let (Ok(mote), Ok(temp)) = (fields[3].parse::<u32>(), fields[4].parse::<f64>()) else {
            continue;
        };
        if !(1..=54).contains(&mote) || !(5.0..=50.0).contains(&temp) {
            continue;
        }
        let window = ((h * 3600.0 + mi * 60.0 + s) / 600.0).floor() as usize;
        if window >= WINDOWS {
            continue;
        }
        let cells = sums
            .entry(mote)
            .or_insert_with(|| vec![(0.0, 0); DAYS * WINDOWS]);
        let cell = &mut cells[(day - 1) * WINDOWS + window];
        cell.0 += temp;
        cell.1 += 1;
    }
    let mut motes: Vec<u32> = sums.keys().copied().collect();
    motes.sort_unstable();
    let mut kept = Vec::new();
    let mut columns = Vec::new();
    for mote in motes {
        let cells = &sums[&mote];
        let mut series = Vec::with_capacity(DAYS);
        for day in 0..DAYS {
            let windows = &cells[day * WINDOWS..(day + 1) * WINDOWS];
            let observed: Vec<Option<f64>> = windows
                .iter()
                .map(|(s, c)| (*c > 0).then(|| s / *c as f64))
                .collect();
            let missing = observed.iter().filter(|v| v.is_none()).count();
            if missing as f64 > MAX_MISSING_SHARE * WINDOWS as f64 {
                break;
            }
            series.push(interpolate(&observed));
        }
        if series.len() == DAYS {
            kept.push(mote);
            columns.push(series);
        }
    }
    if kept.len() < 2 {
        return Err(format!(
            "only {} mote(s) have readings in at least {:.0} % of the windows of every day of 1–14 March 2004",
            kept.len(),
            100.0 * (1.0 - MAX_MISSING_SHARE)
        ));
    }
    let days = (0..DAYS)
        .map(|d| DMatrix::from_fn(WINDOWS, kept.len(), |w, i| columns[i][d][w]))
        .collect();
    Ok(DayTemperatures {
        days,
        sensors: kept,
    })
}

/// Fills gaps linearly between the nearest observed windows and with the nearest value at the
/// edges. `values` has at least one observed entry.
fn interpolate(values: &[Option<f64>]) -> Vec<f64> {
    let known: Vec<(usize, f64)> = values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (i, v)))
        .collect();
    (0..values.len())
        .map(|i| match known.binary_search_by_key(&i, |(k, _)| *k) {
            Ok(k) => known[k].1,
            Err(0) => known[0].1,
            Err(k) if k == known.len() => known[k - 1].1,
            Err(k) => {
                let ((i0, v0), (i1, v1)) = (known[k - 1], known[k]);
                v0 + (v1 - v0) * (i - i0) as f64 / (i1 - i0) as f64
            }
        })
        .collect()
}

/// Pick the hottest sensor at each window of day 14 (maximised, standardised units).
#[derive(Debug)]
pub struct IntelTemp {
    name: &'static str,
    task: Arc<IntelTask>,
    domain: Domain,
    sensors: Points,
    noise_std: f64,
    parameters: Vec<(String, ParamValue)>,
}

impl IntelTemp {
    /// The problem over `task`'s sensors, with the noise level of `params`.
    pub(crate) fn new(task: Arc<IntelTask>, params: &Params) -> Self {
        let m = task.sensors.len();
        Self {
            name: params.name(),
            domain: Domain::cube(0.0, (m - 1) as f64, 1).expect("at least 2 sensors"),
            sensors: task.candidate_priors().candidates().clone(),
            task,
            noise_std: super::NOISE_STD.of(params),
            parameters: params.to_list(),
        }
    }

    fn value(&self, x: &[f64], t: usize) -> Option<f64> {
        let i = x[0].round() as usize;
        (1..=WINDOWS)
            .contains(&t)
            .then(|| self.task.target[(t - 1, i.min(self.task.sensors.len() - 1))])
    }
}

impl Problem for IntelTemp {
    problem_accessors!(self, name: self.name, domain: &self.domain, sense: Sense::Maximize);

    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let f = self.value(x, step.t()).ok_or_else(|| {
            ProblemError::invalid_point(format!(
                "{}: step t = {} is past the day's {WINDOWS} windows (budget at most {WINDOWS})",
                self.name,
                step.t()
            ))
        })?;
        let values = gaussian_repeats(f, self.noise_std, step.repeats(), rng);
        Ok(Observation::new(values, None))
    }

    fn objective_of_interest(&self, x: &[f64], t: usize) -> Option<f64> {
        self.value(x, t)
    }

    /// The hottest sensor's window mean, from the truth rather than from noisy observations.
    fn optimum(&self, t: usize) -> Option<Optimum> {
        if !(1..=WINDOWS).contains(&t) {
            return None;
        }
        let row = self.task.target.row(t - 1);
        let best = (0..row.len()).reduce(|b, i| if row[i] > row[b] { i } else { b })?;
        Some(Optimum {
            value: row[best],
            locations: vec![vec![best as f64]],
        })
    }

    fn candidate_priors(&self) -> Option<Arc<CandidatePriors>> {
        Some(self.task.candidate_priors())
    }

    fn allowed_set(&self, _t: usize) -> Option<&Points> {
        Some(&self.sensors)
    }

    fn time_varying(&self) -> bool {
        true
    }
}
