//! What a user sets for the `command` optimiser.

bosweep_core::settings! {
    /// How long an optimiser speaking the protocol may take to answer one message: the
    /// `command` optimiser's and every peer library's.
    #[derive(Copy)]
    pub struct AnswerTimeout {
        timeout: f64 = 600.0 => (
            "seconds the optimiser may take to answer one ask or recommend",
            1e-3,
            1e6
        ),
    }
}

bosweep_core::settings! {
    /// Typed settings of a user's optimiser run as a command (`command`): the shell command
    /// line and how long it may take to answer.
    ///
    /// ```
    /// use bosweep_algorithms::{AlgorithmSettings, Command};
    ///
    /// let settings = Command::new("python3 my_optimiser.py").answer(|a| a.timeout(60.0));
    /// assert_eq!(settings.name(), "command");
    /// // Optimizer::builder(settings).bounds(&[(0.0, 1.0)]).build()? runs it beside the caller.
    /// ```
    pub struct Command {
        /// Empty by default, which the checks refuse.
        cmd: String = String::new() => (
            "the shell command (sh -c) of the optimiser, speaking the JSON-lines ask/tell protocol"
        ),
        /// How long it may take to answer.
        answer: AnswerTimeout = AnswerTimeout::default() => {},
        /// Without it, one point at a time.
        batch_capable: bool = false => (
            "the optimiser handles points asked and not yet told (each ask lists them as \"pending\"), so runs may use batch > 1 or workers > 1"
        ),
    }
}

impl Command {
    /// The optimiser run by the shell command line `cmd`, the rest at the defaults.
    pub fn new(cmd: impl Into<String>) -> Self {
        Self::default().cmd(cmd.into())
    }
}
