//! What a user sets for a peer library: the interpreter and the timeout, and NGOpt's budget.

use crate::command::AnswerTimeout;

bosweep_core::settings! {
    /// What every peer takes: the interpreter that runs its adapter, and how long it may take
    /// to answer.
    pub struct PeerSettings {
        python: String = String::new() => (
            "the Python interpreter with the bosweep package and the library installed (default: $BOSWEEP_PYTHON, else python3)"
        ),
        /// How long it may take to answer.
        answer: AnswerTimeout = AnswerTimeout::default() => {},
    }
}

bosweep_core::settings! {
    /// NGOpt's settings: a peer's, and the budget it plans for.
    pub struct NgOptSettings {
        /// The interpreter and the timeout.
        peer: PeerSettings = PeerSettings::default() => {},
        budget: usize = 0 => (
            "the evaluations NGOpt plans for (it picks its method from them); 0: the run's budget",
            0,
            1_000_000
        ),
    }
}
