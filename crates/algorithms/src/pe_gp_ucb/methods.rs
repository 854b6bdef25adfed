//! How each unknown-prior method's settings become the one algorithm of the family, with its
//! prior-selection rule.

use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

use super::algorithm::UnknownPriorUcb;
use super::settings::{
    FullyBayesGpUcb, MleGpUcb, OracleGpUcb, PeGpUcb, RegretBalancing, Rule, Settings,
    UnknownPriorSettings,
};

impl UnknownPriorSettings {
    /// The settings of a rule without the strict `ξ_t`.
    fn with_printed_xi(self) -> Settings {
        Settings {
            shared: self,
            xi_strict: false,
        }
    }
}

/// The algorithm of `rule` and `settings`, awaiting the problem's candidate priors (keeping only
/// prior `keep` for an oracle); `params`, the checked parameters, go to the trace header.
fn build(
    params: &Params,
    (rule, settings): (Rule, Settings),
    keep: Option<usize>,
) -> Result<Box<dyn Algorithm>, AlgorithmError> {
    Ok(Box::new(UnknownPriorUcb::awaiting_priors(
        rule,
        settings,
        keep,
        params.to_list(),
    )?))
}

impl Method for PeGpUcb {
    const NAME: &'static str = "pe-gp-ucb";
    const DESCRIPTION: &'static str = "PE-GP-UCB: joint UCB arg-max over surviving candidate priors and X_t; eliminate a prior whose prediction errors exceed its confidence";
    const REQUIRES: Requirement = Requirement::CandidatePriors;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let settings = Settings {
            shared: self.shared,
            xi_strict: self.xi_strict,
        };
        let rule = Rule::PriorElimination { guard: self.guard };
        build(&params, (rule, settings), None)
    }
}

impl Method for RegretBalancing {
    const NAME: &'static str = "regret-balancing";
    const DESCRIPTION: &'static str = "Regret Balancing over candidate priors (Appendix D, R^p(n) = n): round-robin, eliminate by average reward";
    const REQUIRES: Requirement = Requirement::CandidatePriors;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let settings = Settings {
            shared: self.shared,
            xi_strict: self.xi_strict,
        };
        let rule = Rule::RegretBalancing {
            literal: self.rb_literal_lhs,
        };
        build(&params, (rule, settings), None)
    }
}

impl Method for MleGpUcb {
    const NAME: &'static str = "mle-gp-ucb";
    const DESCRIPTION: &'static str =
        "GP-UCB with the candidate prior of largest marginal likelihood (re-chosen every step)";
    const REQUIRES: Requirement = Requirement::CandidatePriors;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let rule = (Rule::MaximumLikelihood, self.shared.with_printed_xi());
        build(&params, rule, None)
    }
}

impl Method for FullyBayesGpUcb {
    const NAME: &'static str = "fully-bayes-gp-ucb";
    const DESCRIPTION: &'static str = "maximise the posterior-weighted average of every candidate prior's UCB (uniform hyperprior)";
    const REQUIRES: Requirement = Requirement::CandidatePriors;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let rule = (Rule::FullyBayesian, self.shared.with_printed_xi());
        build(&params, rule, None)
    }
}

impl Method for OracleGpUcb {
    const NAME: &'static str = "oracle-gp-ucb";
    const DESCRIPTION: &'static str =
        "TV-GP-UCB with one given prior (the true one: PE-GP-UCB with U = {p*})";
    const REQUIRES: Requirement = Requirement::CandidatePriors;

    /// Elimination, which never removes the one prior.
    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let rule = (
            Rule::PriorElimination { guard: true },
            self.shared.with_printed_xi(),
        );
        build(&params, rule, Some(self.prior))
    }
}
