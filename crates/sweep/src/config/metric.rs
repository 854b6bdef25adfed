//! The metric a sweep's report compares the algorithms on, named by a config's `[report]` table
//! and by `bosweep report --metric`.

/// The final metric that picks each problem's best algorithm, the paired tests and the ranks.
///
/// A regret is used on the problems whose runs know it; where the optimum is unknown the best
/// value (in the problem's sense) stands in, whatever the choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Metric {
    /// The final simple regret (the regret of the recommended point): how good the answer is.
    #[default]
    SimpleRegret,
    /// The final cumulative regret: what the whole run cost, the metric of bandit papers
    /// (PE-GP-UCB) and of RAHBO's cumulative mean-variance regret.
    CumulativeRegret,
    /// The best value observed, even where regrets are known.
    BestValue,
}

impl Metric {
    /// Every metric, in the order of [`Metric::as_str`]'s names.
    pub const ALL: [Metric; 3] = [
        Metric::SimpleRegret,
        Metric::CumulativeRegret,
        Metric::BestValue,
    ];

    /// The name in configs and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::SimpleRegret => "simple-regret",
            Metric::CumulativeRegret => "cumulative-regret",
            Metric::BestValue => "best-value",
        }
    }
}

impl std::str::FromStr for Metric {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Metric::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Metric::ALL.iter().map(|m| m.as_str()).collect();
                format!("unknown metric \"{s}\" (allowed: {})", names.join(", "))
            })
    }
}
