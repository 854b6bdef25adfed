//! Where each call runs: a crossover size per family of operations, above which the GPU is
//! faster than the CPU backend. `bosweep calibrate` fits it on the user's machine (a line
//! `t = fixed + per_unit · units` per backend and family, timed on a ladder of sizes: the
//! crossover is where the lines cross) and stores it; without a calibration a conservative
//! default keeps everything but very large calls on the CPU.

use std::path::{Path, PathBuf};

use super::work::{Family, Work};

/// The default crossover, in units ([`Work::units`]): a posterior of 256 training points at
/// 16 384 candidates in 4-D, a KDE of 10⁴ points at 10⁵ queries. On every GPU measured so far
/// calls this large run faster there; most calls of a sweep of small GPs are far smaller.
pub const DEFAULT_CROSSOVER: f64 = 1e9;

/// Which backend runs a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// The rayon CPU backend.
    Cpu,
    /// The GPU.
    Gpu,
}

/// A backend's time for one family of operations: `fixed + per_unit · units` seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostLine {
    /// Seconds of a call of no size: upload, dispatch and read-back on a GPU.
    pub fixed: f64,
    /// Seconds per unit.
    pub per_unit: f64,
}

impl CostLine {
    /// The least-squares line through `(units, seconds)`; `None` with fewer than two distinct
    /// sizes. A negative intercept or slope (timing noise) is clamped at 0.
    pub fn fit(samples: &[(f64, f64)]) -> Option<Self> {
        let n = samples.len() as f64;
        let mean_u = samples.iter().map(|s| s.0).sum::<f64>() / n;
        let mean_t = samples.iter().map(|s| s.1).sum::<f64>() / n;
        let sxx: f64 = samples.iter().map(|s| (s.0 - mean_u).powi(2)).sum();
        if sxx.is_nan() || sxx <= 0.0 {
            return None;
        }
        let sxy: f64 = samples
            .iter()
            .map(|s| (s.0 - mean_u) * (s.1 - mean_t))
            .sum();
        let per_unit = (sxy / sxx).max(0.0);
        Some(Self {
            fixed: (mean_t - per_unit * mean_u).max(0.0),
            per_unit,
        })
    }

    /// The size from which `gpu` is no slower than `cpu`: 0 where the GPU is faster at every
    /// size, `None` (never) where its line stays above.
    pub fn crossover(cpu: Self, gpu: Self) -> Option<f64> {
        if gpu.fixed <= cpu.fixed && gpu.per_unit <= cpu.per_unit {
            return Some(0.0);
        }
        (gpu.per_unit < cpu.per_unit)
            .then(|| (gpu.fixed - cpu.fixed) / (cpu.per_unit - gpu.per_unit))
    }
}

/// Per family, the size from which calls go to the GPU (`None`: never).
#[derive(Clone, Debug, PartialEq)]
pub struct CostModel {
    /// In [`Family::ALL`]'s order.
    pub crossovers: [Option<f64>; 3],
    /// Where it came from: `default` or the calibration file.
    pub source: String,
}

impl Default for CostModel {
    fn default() -> Self {
        Self {
            crossovers: [Some(DEFAULT_CROSSOVER); 3],
            source: "default".into(),
        }
    }
}

impl CostModel {
    /// The crossover of `family`.
    pub fn crossover(&self, family: Family) -> Option<f64> {
        self.crossovers[Family::ALL
            .iter()
            .position(|f| *f == family)
            .expect("listed")]
    }

    /// Where `work` runs.
    pub fn place(&self, work: &Work) -> Placement {
        match self.crossover(work.operation.family()) {
            Some(at) if work.units >= at => Placement::Gpu,
            _ => Placement::Cpu,
        }
    }

    /// The policy as trace headers record it: `auto (posterior ≥ 1e9 units, …; default)`.
    pub fn describe(&self) -> String {
        let each: Vec<String> = Family::ALL
            .iter()
            .map(|&f| match self.crossover(f) {
                Some(at) => format!("{} ≥ {at:.3e} units", f.name()),
                None => format!("{} never", f.name()),
            })
            .collect();
        format!("auto (GPU for {}; {})", each.join(", "), self.source)
    }

    /// The model as its calibration file holds it: one `family crossover` line each (`never`
    /// where the GPU never wins), after a comment line.
    pub fn to_text(&self, comment: &str) -> String {
        let mut text = format!("# {comment}\n");
        for family in Family::ALL {
            match self.crossover(family) {
                Some(at) => text.push_str(&format!("{} {at:e}\n", family.name())),
                None => text.push_str(&format!("{} never\n", family.name())),
            }
        }
        text
    }

    /// The model in `text` (as [`CostModel::to_text`] writes it), its source `path`; the error
    /// names the line.
    pub fn parse(text: &str, path: &Path) -> Result<Self, String> {
        let mut crossovers = [None; 3];
        let mut seen = [false; 3];
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |what: &str| format!("{} line {}: {what}", path.display(), i + 1);
            let (name, value) = line
                .split_once(' ')
                .ok_or_else(|| bad("expected `family crossover`"))?;
            let k = Family::ALL
                .iter()
                .position(|f| f.name() == name)
                .ok_or_else(|| bad(&format!("unknown family {name:?}")))?;
            crossovers[k] = match value.trim() {
                "never" => None,
                v => Some(
                    v.parse::<f64>()
                        .ok()
                        .filter(|x| *x >= 0.0 && x.is_finite())
                        .ok_or_else(|| bad(&format!("{v:?} is not a size")))?,
                ),
            };
            seen[k] = true;
        }
        if let Some(k) = seen.iter().position(|s| !s) {
            return Err(format!(
                "{}: no line for {}",
                path.display(),
                Family::ALL[k].name()
            ));
        }
        Ok(Self {
            crossovers,
            source: format!("calibrated, {}", path.display()),
        })
    }
}

/// Where calibrations are kept: `$BOSWEEP_CACHE_DIR`, else `$XDG_CACHE_HOME/bosweep`, else
/// `$HOME/.cache/bosweep`; `None` where none is set.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("BOSWEEP_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("bosweep")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("bosweep")))
}

/// The calibration file of a GPU and CPU backend pair, named from their identities.
pub fn calibration_file(dir: &Path, gpu: &str, cpu: &str) -> PathBuf {
    let name: String = format!("route-{gpu}-{cpu}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(200)
        .collect();
    dir.join(format!("{name}.txt"))
}

#[cfg(test)]
mod tests {
    use super::super::work::Operation;
    use super::*;

    #[test]
    fn lines_fit_by_least_squares_and_cross_where_the_gpu_catches_up() {
        // CPU: 1 µs + 1 ns per unit; GPU: 1 ms + 0.1 ns per unit. They cross at
        // (1e-3 − 1e-6) / (0.9e-9) = 1.11e6 units.
        let cpu: Vec<(f64, f64)> = [1e3, 1e5, 1e7]
            .iter()
            .map(|&u| (u, 1e-6 + 1e-9 * u))
            .collect();
        let gpu: Vec<(f64, f64)> = [1e3, 1e5, 1e7]
            .iter()
            .map(|&u| (u, 1e-3 + 1e-10 * u))
            .collect();
        let (c, g) = (CostLine::fit(&cpu).unwrap(), CostLine::fit(&gpu).unwrap());
        assert!((c.per_unit - 1e-9).abs() < 1e-18 && (g.fixed - 1e-3).abs() < 1e-12);
        let at = CostLine::crossover(c, g).unwrap();
        assert!((at - 0.999e-3 / 0.9e-9).abs() < 1e-3 * at, "{at}");
        // A GPU slower per unit never wins (where it is faster only on small calls, the
        // call's fixed cost is not worth the move either); one faster everywhere always does.
        assert_eq!(CostLine::crossover(g, c), None);
        let faster = CostLine {
            fixed: 0.5e-6,
            per_unit: 0.5e-9,
        };
        assert_eq!(CostLine::crossover(c, faster), Some(0.0));
        assert_eq!(
            CostLine::crossover(
                c,
                CostLine {
                    fixed: 1.0,
                    per_unit: 2e-9
                }
            ),
            None
        );
        assert!(CostLine::fit(&[(1.0, 1.0), (1.0, 2.0)]).is_none());
    }

    #[test]
    fn a_model_places_by_family_and_reads_back_what_it_writes() {
        let model = CostModel {
            crossovers: [Some(100.0), None, Some(0.0)],
            source: "test".into(),
        };
        let work = |operation, units| Work { operation, units };
        assert_eq!(
            model.place(&work(Operation::PairReduce, 99.0)),
            Placement::Cpu
        );
        assert_eq!(
            model.place(&work(Operation::Posterior, 100.0)),
            Placement::Gpu
        );
        assert_eq!(
            model.place(&work(Operation::KdeDensity, 1e30)),
            Placement::Cpu
        );
        assert_eq!(model.place(&work(Operation::TopK, 1.0)), Placement::Gpu);
        let path = Path::new("route.txt");
        let back = CostModel::parse(&model.to_text("test"), path).unwrap();
        assert_eq!(back.crossovers, model.crossovers);
        let e = CostModel::parse("posterior 1e3\npoint-pairs x\n", path).unwrap_err();
        assert_eq!(e, "route.txt line 2: \"x\" is not a size");
        let e = CostModel::parse("posterior 1e3\n", path).unwrap_err();
        assert_eq!(e, "route.txt: no line for point-pairs");
    }
}
