//! How long one evaluation takes on a run's simulated clock: the runtime models of batch and
//! asynchronous runs, written `name:key=value,…` in configs and on the command line.

use std::fmt;
use std::str::FromStr;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

use bosweep_core::io::format_number;
use bosweep_problems::Domain;

/// The simulated time one evaluation takes, in the units the clock counts (any: seconds,
/// hours, GPU-days). Drawn from the run's runtime stream, so that a run's schedule follows from
/// its seed whatever the machine's speed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum RuntimeModel {
    /// Every evaluation takes `time` (`constant:time=T`; plain `constant` is 1).
    Constant {
        /// The time of one evaluation, > 0.
        time: f64,
    },
    /// `base + slope · u`, `u` the point's coordinate `coordinate` scaled to [0, 1] by the box:
    /// a cost that grows with a fidelity-like coordinate (`linear:coordinate=I,base=B,slope=S`).
    Linear {
        /// The coordinate, counted from 0.
        coordinate: usize,
        /// The time at the coordinate's lower bound, > 0.
        base: f64,
        /// How much longer an evaluation at the upper bound takes, ≥ 0.
        slope: f64,
    },
    /// Real time: each evaluation runs for real on a thread of its own, as many at once as the
    /// run has workers (or batch points), and the clock is wall seconds since the run began
    /// (`wall`). For objectives that take real time (external commands, Python callables);
    /// the order in which values come back, hence the run, then depends on the machine.
    Wall,
    /// Log-normal: `median · exp(σ Z)`, `Z` standard normal (`lognormal:median=M,sigma=S`), the
    /// heavy right tail of real training jobs.
    LogNormal {
        /// The median time, > 0.
        median: f64,
        /// The standard deviation σ of the log time, ≥ 0.
        sigma: f64,
    },
}

/// The model of runs that evaluate in parallel without naming one: every evaluation takes 1.
pub const DEFAULT_RUNTIME: RuntimeModel = RuntimeModel::Constant { time: 1.0 };

/// The longest time one evaluation may be given (`time`, `base`, `slope`, `median`): far beyond
/// any real evaluation in any unit, and small enough that a run's clock, a sum of such times,
/// stays finite.
const MAX_TIME: f64 = 1e12;
/// What a time parameter accepts, in words.
const TIME_ACCEPTED: &str = "a number in (0, 1e12]";
/// The largest σ of the log-normal model: a draw `median · exp(σ Z)` then stays finite for any
/// `Z` a normal sampler gives, where σ = 1e3 overflows at Z ≈ 0.7.
const MAX_SIGMA: f64 = 10.0;

/// The runtime models' names and keys, for messages (and checked against the config keys'
/// documentation).
pub(crate) const SYNTAX: &str = "constant[:time=T], linear:coordinate=I[,base=B][,slope=S], \
                      lognormal[:median=M][,sigma=S] or wall";

impl RuntimeModel {
    /// The time of one evaluation of `x` in `domain`, drawing from `rng` where the model is
    /// random; 0 for [`RuntimeModel::Wall`], whose times are measured, not drawn.
    pub fn draw(&self, x: &[f64], domain: &Domain, rng: &mut ChaCha8Rng) -> f64 {
        match *self {
            Self::Constant { time } => time,
            Self::Wall => 0.0,
            Self::Linear {
                coordinate,
                base,
                slope,
            } => {
                let (lo, hi) = (domain.lower()[coordinate], domain.upper()[coordinate]);
                let u = if hi > lo {
                    ((x[coordinate] - lo) / (hi - lo)).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                base + slope * u
            }
            Self::LogNormal { median, sigma } => {
                let z: f64 = rng.sample(StandardNormal);
                median * (sigma * z).exp()
            }
        }
    }

    /// Checks the model against a problem of `dim` coordinates.
    pub fn check(&self, dim: usize) -> Result<(), String> {
        match *self {
            Self::Linear { coordinate, .. } if coordinate >= dim => Err(format!(
                "runtime \"{self}\": coordinate {coordinate} does not exist (the problem has {dim} coordinates, counted from 0)"
            )),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for RuntimeModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = |v: f64| format_number(v);
        match *self {
            Self::Constant { time } => write!(f, "constant:time={}", n(time)),
            Self::Linear {
                coordinate,
                base,
                slope,
            } => write!(
                f,
                "linear:coordinate={coordinate},base={},slope={}",
                n(base),
                n(slope)
            ),
            Self::Wall => f.write_str("wall"),
            Self::LogNormal { median, sigma } => {
                write!(f, "lognormal:median={},sigma={}", n(median), n(sigma))
            }
        }
    }
}

/// One `key=value` of a model, checked: a finite number in the range `accepted` describes.
fn number(
    model: &str,
    key: &str,
    text: &str,
    ok: fn(f64) -> bool,
    accepted: &str,
) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && ok(v) => Ok(v),
        _ => Err(format!(
            "runtime \"{model}\": {key} = \"{}\" is invalid (must be {accepted})",
            text.trim()
        )),
    }
}

impl FromStr for RuntimeModel {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let (name, rest) = text.trim().split_once(':').unwrap_or((text.trim(), ""));
        let mut pairs = Vec::new();
        for item in rest.split(',').filter(|s| !s.trim().is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(format!(
                    "runtime \"{text}\": \"{}\" is not of the form key=value",
                    item.trim()
                ));
            };
            pairs.push((key.trim(), value));
        }
        let allowed: &[&str] = match name {
            "constant" => &["time"],
            "linear" => &["coordinate", "base", "slope"],
            "lognormal" => &["median", "sigma"],
            "wall" => &[],
            _ => {
                return Err(format!(
                    "runtime \"{text}\": unknown model \"{name}\" (known: {SYNTAX})"
                ));
            }
        };
        if let Some((key, _)) = pairs.iter().find(|(k, _)| !allowed.contains(k)) {
            let takes = if allowed.is_empty() {
                "no keys".to_owned()
            } else {
                allowed.join(", ")
            };
            return Err(format!(
                "runtime \"{text}\": unknown key \"{key}\" (the {name} model takes {takes})"
            ));
        }
        if let Some((key, _)) = pairs
            .iter()
            .enumerate()
            .find(|(i, (key, _))| pairs[..*i].iter().any(|(k, _)| k == key))
            .map(|(_, pair)| pair)
        {
            return Err(format!("runtime \"{text}\": key \"{key}\" is given twice"));
        }
        let time = |v: f64| v > 0.0 && v <= MAX_TIME;
        let slope = |v: f64| (0.0..=MAX_TIME).contains(&v);
        let get = |key: &str, default: f64, ok: fn(f64) -> bool, accepted: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == key)
                .map_or(Ok(default), |(_, v)| number(text, key, v, ok, accepted))
        };
        Ok(match name {
            "constant" => Self::Constant {
                time: get("time", 1.0, time, TIME_ACCEPTED)?,
            },
            "wall" => Self::Wall,
            "linear" => {
                let coordinate = get(
                    "coordinate",
                    f64::NAN,
                    |v| v >= 0.0 && v.fract() == 0.0,
                    "an integer ≥ 0",
                )?;
                if coordinate.is_nan() {
                    return Err(format!(
                        "runtime \"{text}\": the linear model needs coordinate=I, the coordinate (from 0) the time grows with"
                    ));
                }
                Self::Linear {
                    coordinate: coordinate as usize,
                    base: get("base", 1.0, time, TIME_ACCEPTED)?,
                    slope: get("slope", 1.0, slope, "a number in [0, 1e12]")?,
                }
            }
            _ => Self::LogNormal {
                median: get("median", 1.0, time, TIME_ACCEPTED)?,
                sigma: get(
                    "sigma",
                    1.0,
                    |v| (0.0..=MAX_SIGMA).contains(&v),
                    "a number in [0, 10]",
                )?,
            },
        })
    }
}

impl TryFrom<String> for RuntimeModel {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        text.parse()
    }
}

impl From<RuntimeModel> for String {
    fn from(model: RuntimeModel) -> Self {
        model.to_string()
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    fn unit_box(dim: usize) -> Domain {
        Domain::new(vec![0.0; dim], vec![2.0; dim]).unwrap()
    }

    #[test]
    fn models_parse_with_defaults_and_print_back() {
        for (text, model) in [
            ("constant", RuntimeModel::Constant { time: 1.0 }),
            ("constant:time=2.5", RuntimeModel::Constant { time: 2.5 }),
            ("wall", RuntimeModel::Wall),
            (
                "linear:coordinate=1,slope=4",
                RuntimeModel::Linear {
                    coordinate: 1,
                    base: 1.0,
                    slope: 4.0,
                },
            ),
            (
                "lognormal:sigma=0.5",
                RuntimeModel::LogNormal {
                    median: 1.0,
                    sigma: 0.5,
                },
            ),
        ] {
            let parsed: RuntimeModel = text.parse().unwrap();
            assert_eq!(parsed, model, "{text}");
            assert_eq!(parsed.to_string().parse::<RuntimeModel>().unwrap(), model);
        }
    }

    #[test]
    fn bad_models_are_refused_naming_the_key() {
        for (text, words) in [
            ("gamma", "unknown model \"gamma\""),
            (
                "constant:time=0",
                "time = \"0\" is invalid (must be a number in (0, 1e12])",
            ),
            ("constant:time=1e308", "time = \"1e308\" is invalid"),
            ("lognormal:sigma=1e308", "sigma = \"1e308\" is invalid"),
            ("lognormal:median=2e12", "median = \"2e12\" is invalid"),
            (
                "linear:coordinate=0,slope=1e13",
                "slope = \"1e13\" is invalid",
            ),
            ("constant:time=1,time=2", "key \"time\" is given twice"),
            ("lognormal:sigma=-1", "sigma = \"-1\" is invalid"),
            ("lognormal:mean=2", "unknown key \"mean\""),
            ("linear:slope=2", "needs coordinate=I"),
            ("linear:coordinate=1.5", "coordinate = \"1.5\" is invalid"),
            ("constant:time", "\"time\" is not of the form key=value"),
            (
                "wall:time=1",
                "unknown key \"time\" (the wall model takes no keys)",
            ),
        ] {
            let e = text.parse::<RuntimeModel>().unwrap_err();
            assert!(e.contains(words), "{text}: {e}");
        }
        let far = RuntimeModel::Linear {
            coordinate: 3,
            base: 1.0,
            slope: 1.0,
        };
        assert!(
            far.check(3)
                .unwrap_err()
                .contains("coordinate 3 does not exist")
        );
        assert!(far.check(4).is_ok());
    }

    #[test]
    fn linear_times_grow_along_the_coordinate_and_lognormal_has_its_median() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let linear: RuntimeModel = "linear:coordinate=1,base=2,slope=6".parse().unwrap();
        let domain = unit_box(2);
        assert_eq!(linear.draw(&[0.3, 0.0], &domain, &mut rng), 2.0);
        assert_eq!(linear.draw(&[0.3, 1.5], &domain, &mut rng), 6.5);
        assert_eq!(linear.draw(&[0.3, 2.0], &domain, &mut rng), 8.0);

        let lognormal: RuntimeModel = "lognormal:median=3,sigma=0.8".parse().unwrap();
        let mut times: Vec<f64> = (0..4001)
            .map(|_| lognormal.draw(&[0.0], &unit_box(1), &mut rng))
            .collect();
        times.sort_by(f64::total_cmp);
        let median = times[2000];
        // The sample median of 4001 draws is within 4% of 3 with overwhelming probability
        // (its standard error is about 1.6% here).
        assert!((median / 3.0 - 1.0).abs() < 0.04, "{median}");
        let logs: Vec<f64> = times.iter().map(|t| (t / 3.0).ln()).collect();
        let sd = (logs.iter().map(|l| l * l).sum::<f64>() / logs.len() as f64).sqrt();
        assert!((sd - 0.8).abs() < 0.03, "{sd}");
    }
}
