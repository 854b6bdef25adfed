//! The metric a sweep's report compares the algorithms on, named by a config's `[report]` table
//! and by `bosweep report --metric`.

/// The final metric that picks each problem's best algorithm, the paired tests and the ranks.
///
/// A regret is used on the problems whose runs know it; where the optimum is unknown the best
/// value (in the problem's sense) stands in, whatever the choice. Without a choice each problem
/// takes its own default ([`Metric::default_for`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// The final regret of the recommended point (the trace's `simple_regret`): how good the
    /// answer a user would deploy is, the "inference" measure. Also named `simple-regret`.
    SimpleRegret,
    /// The final regret of the best point evaluated, on its noise-free objective of interest:
    /// COCO's measure (the "optimization" measure), on which runtimes are always counted.
    BestEvaluatedRegret,
    /// The final cumulative regret: what the whole run cost, the metric of bandit papers
    /// (PE-GP-UCB) and of RAHBO's cumulative mean-variance regret.
    CumulativeRegret,
    /// The best value observed, even where regrets are known.
    BestValue,
}

/// The name `simple-regret` of [`Metric::SimpleRegret`] had before both regrets were reported,
/// still accepted.
const SIMPLE_REGRET_ALIAS: &str = "simple-regret";

impl Metric {
    /// Every metric, in the order of [`Metric::as_str`]'s names.
    pub const ALL: [Metric; 4] = [
        Metric::BestEvaluatedRegret,
        Metric::SimpleRegret,
        Metric::CumulativeRegret,
        Metric::BestValue,
    ];

    /// The name in configs and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::SimpleRegret => "recommendation-regret",
            Metric::BestEvaluatedRegret => "best-evaluated-regret",
            Metric::CumulativeRegret => "cumulative-regret",
            Metric::BestValue => "best-value",
        }
    }

    /// A problem's metric where none is chosen (docs/conventions.md, "Regret"): COCO's best
    /// evaluated regret where its runs observe their objective of interest itself (`noise_free`:
    /// BBOB and the classic test functions without noise), as peers report them; the
    /// recommendation's regret on noisy, contextual and time-varying problems, whose papers
    /// define regret on it.
    pub fn default_for(noise_free: bool) -> Metric {
        if noise_free {
            Metric::BestEvaluatedRegret
        } else {
            Metric::SimpleRegret
        }
    }
}

impl std::str::FromStr for Metric {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if s == SIMPLE_REGRET_ALIAS {
            return Ok(Metric::SimpleRegret);
        }
        Metric::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Metric::ALL.iter().map(|m| m.as_str()).collect();
                format!(
                    "unknown metric \"{s}\" (allowed: {}, or {SIMPLE_REGRET_ALIAS} for {})",
                    names.join(", "),
                    Metric::SimpleRegret.as_str()
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_the_old_name_stays_accepted() {
        for metric in Metric::ALL {
            assert_eq!(metric.as_str().parse::<Metric>(), Ok(metric));
        }
        assert_eq!("simple-regret".parse::<Metric>(), Ok(Metric::SimpleRegret));
        assert!(
            "regret"
                .parse::<Metric>()
                .unwrap_err()
                .contains("allowed: best-evaluated-regret, recommendation-regret")
        );
        assert_eq!(Metric::default_for(true), Metric::BestEvaluatedRegret);
        assert_eq!(Metric::default_for(false), Metric::SimpleRegret);
    }
}
