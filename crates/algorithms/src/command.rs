//! An optimiser in any language, run as a child process that speaks a JSON-lines ask/tell
//! protocol on its stdin and stdout (as kurobako's external solvers do), so that a user's
//! algorithm runs beside ours in a sweep with the same initial designs, traces and reports.
//!
//! bosweep writes one JSON object per line to the command's stdin:
//!
//! - `{"op":"start","dim":d,"bounds":[[lo,hi],…],"problem":"branin","budget":n}` once, first
//!   (the command starts when the run first needs it); `budget` is the run's evaluations, its
//!   initial design included, and is absent where the caller sets none (an ask/tell
//!   optimiser driven from a program);
//! - `{"op":"tell","x":[…],"y":v,"t":t}` for every evaluated step, the initial design included,
//!   with `y` in the **maximisation** sense (the negated value on a minimisation problem; the
//!   mean where a point was evaluated several times) and `"context":[…]` where the problem
//!   observes one;
//! - `{"op":"ask","t":t,"seed":s}` when it needs the next point (`s`, from the run's seed, is
//!   the randomness an algorithm should use to be reproducible; on a problem that restricts
//!   the step to a finite set, `"allowed":[[…],…]` lists it; with `batch_capable = true`,
//!   `"pending":[[…],…]` lists the points asked and not yet told, so that the optimiser can
//!   run in batches and on asynchronous workers);
//! - `{"op":"recommend"}` when it needs the point the algorithm would report now.
//!
//! It reads one line back for each `ask` and `recommend`: `{"x":[…]}` (for `ask`, optionally
//! `"repeats":k` evaluations of the point). Nothing is read back for `start` and `tell`. Lines
//! the command prints that do not start with `{` are skipped (stray prints of a library); its
//! stderr goes to bosweep's. A reply that is not such an object, a point of the wrong dimension
//! or outside the bounds, no reply within the timeout, or an exit is an error that ends the run,
//! naming the command and the reason. The command runs in a process group of its own, killed with
//! everything it started when the run ends.
//!
//! The peer libraries' entries (`optuna-tpe`, `nevergrad-cma`, …; see `peers`) are commands of
//! this kind, run by the Python package's `bosweep.adapters`.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, Command as ProcessCommand, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand::RngExt;
use serde_json::{Value, json};

use bosweep_core::params::{ParamValue, Params};
use bosweep_core::process::GroupChild;
use bosweep_engine::Engine;
use bosweep_problems::{Domain, Problem, excerpt};
use bosweep_toolkit::AlgorithmEntry;
use bosweep_toolkit::Requirement;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError, AskContext, Feedback, Proposal, StepLog};

bosweep_core::settings! {
    /// Typed settings of a user's optimiser run as a command (`command`): the shell command
    /// line and how long it may take to answer.
    ///
    /// ```
    /// use bosweep_algorithms::{AlgorithmSettings, Command};
    ///
    /// let settings = Command::new("python3 my_optimiser.py").timeout(60.0);
    /// assert_eq!(settings.name(), "command");
    /// // Optimizer::builder(settings).bounds(&[(0.0, 1.0)]).build()? runs it beside the caller.
    /// ```
    pub struct Command {
        /// Empty by default, which the checks refuse.
        cmd: String = String::new() => (
            "the shell command (sh -c) of the optimiser, speaking the JSON-lines ask/tell protocol"
        ),
        timeout: f64 = 600.0 => (
            "seconds the optimiser may take to answer one ask or recommend",
            1e-3,
            1e6
        ),
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

impl Method for Command {
    const NAME: &'static str = "command";
    const DESCRIPTION: &'static str = "your optimiser: a shell command speaking the JSON-lines ask/tell protocol (see docs/guide/your-own.md); needs cmd";
    const REQUIRES: Requirement = Requirement::Any;

    /// A command to run.
    fn check(&self) -> Result<(), AlgorithmError> {
        if self.cmd.trim().is_empty() {
            return Err(AlgorithmError::Config(
                "algorithm command: parameter cmd = \"\": give the command to run".into(),
            ));
        }
        Ok(())
    }

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(CommandAlgorithm::recorded_as(self, params.to_list()))
    }
}

/// The registry's entry: `[[algorithm]] name = "command"` in a sweep config.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[AlgorithmEntry::of::<Command>()];

/// The running optimiser: its process, its stdin, and its stdout lines arriving on a channel
/// (read on a thread of their own, so that a silent optimiser meets the timeout).
struct Process {
    group: GroupChild,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

/// The user's optimiser behind [`Algorithm`].
pub struct CommandAlgorithm {
    settings: Command,
    process: Option<Process>,
    /// The problem's box and the `start` message, from [`Algorithm::prepare`].
    domain: Option<Domain>,
    start: Option<Value>,
    /// The wall time of each answer to `ask`, as the trace's acquisition seconds.
    log: StepLog,
    /// What the trace header records: the settings' parameters, or those of the registry
    /// entry that built the command (a peer library's `python` and `timeout`).
    parameters: Vec<(String, ParamValue)>,
}

impl CommandAlgorithm {
    /// The optimiser `settings` describe, its trace header recording `parameters`.
    pub(super) fn recorded_as(
        settings: Command,
        parameters: Vec<(String, ParamValue)>,
    ) -> Box<dyn Algorithm> {
        Box::new(Self {
            settings,
            process: None,
            domain: None,
            start: None,
            log: StepLog::default(),
            parameters,
        })
    }

    fn fail(&self, why: impl std::fmt::Display) -> AlgorithmError {
        AlgorithmError::External(format!("optimiser command `{}`: {why}", self.settings.cmd))
    }

    /// Starts the command and sends it `start`, the first time the run talks to it.
    fn process(&mut self) -> Result<&mut Process, AlgorithmError> {
        if self.process.is_none() {
            let start = self
                .start
                .clone()
                .ok_or_else(|| self.fail("used before the run prepared it"))?;
            let process = self.spawn()?;
            self.process = Some(process);
            self.write(&start)?;
        }
        Ok(self.process.as_mut().expect("started just above"))
    }

    fn spawn(&self) -> Result<Process, AlgorithmError> {
        let mut group = GroupChild::spawn(
            ProcessCommand::new("sh")
                .arg("-c")
                .arg(&self.settings.cmd)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit()),
        )
        .map_err(|e| self.fail(format!("could not start: {e}")))?;
        let child = group.child();
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process {
            group,
            stdin,
            lines,
        })
    }

    fn send(&mut self, message: &Value) -> Result<(), AlgorithmError> {
        self.process()?;
        self.write(message)
    }

    /// Writes one line to the started process.
    fn write(&mut self, message: &Value) -> Result<(), AlgorithmError> {
        let line = format!("{message}\n");
        let written = {
            let process = self.process()?;
            process
                .stdin
                .write_all(line.as_bytes())
                .and_then(|_| process.stdin.flush())
        };
        written.map_err(|e| self.exited_or(format!("could not write to it: {e}")))
    }

    /// The next line starting with `{`, parsed.
    fn receive(&mut self, what: &str) -> Result<Value, AlgorithmError> {
        let timeout = Duration::from_secs_f64(self.settings.timeout);
        loop {
            let line = match self.process()?.lines.recv_timeout(timeout) {
                Ok(line) => line,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(self.fail(format!(
                        "no answer to {what} within {timeout:?}; killed with every process it \
                         started"
                    )));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(
                        self.exited_or(format!("closed its output before answering {what}"))
                    );
                }
            };
            let trimmed = line.trim();
            if !trimmed.starts_with('{') {
                continue;
            }
            return serde_json::from_str(trimmed).map_err(|e| {
                self.fail(format!(
                    "answered {what} with \"{}\", not a JSON object ({e})",
                    excerpt(trimmed)
                ))
            });
        }
    }

    /// `why`, or the exit status when the command has exited. A command that closed its output
    /// is usually exiting: its status is awaited for up to a second (or the timeout).
    fn exited_or(&mut self, why: String) -> AlgorithmError {
        let patience = Duration::from_secs_f64(self.settings.timeout).min(Duration::from_secs(1));
        let start = Instant::now();
        let status = loop {
            let status = self
                .process
                .as_mut()
                .and_then(|p| p.group.child().try_wait().ok().flatten());
            if status.is_some() || start.elapsed() >= patience {
                break status;
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        match status {
            Some(status) => self.fail(format!("exited with {status}")),
            None => self.fail(why),
        }
    }

    /// The point in `reply["x"]`: `dim` finite numbers inside the bounds.
    fn point(&self, reply: &Value, what: &str) -> Result<Vec<f64>, AlgorithmError> {
        let domain = self.domain.as_ref().expect("started before asked");
        let x: Option<Vec<f64>> = reply["x"]
            .as_array()
            .and_then(|xs| xs.iter().map(Value::as_f64).collect());
        let x = x.ok_or_else(|| {
            self.fail(format!(
                "answered {what} with {}, which has no \"x\": [numbers]",
                excerpt(&reply.to_string())
            ))
        })?;
        if x.len() != domain.dim() {
            return Err(self.fail(format!(
                "answered {what} with a point of {} coordinates; the problem has {}",
                x.len(),
                domain.dim()
            )));
        }
        if !domain.contains(&x) {
            return Err(self.fail(format!(
                "answered {what} with {x:?}, outside the bounds {:?}–{:?}",
                domain.lower(),
                domain.upper()
            )));
        }
        Ok(x)
    }
}

impl Algorithm for CommandAlgorithm {
    /// Keeps what `start` will say; the command itself starts when the run first talks to it
    /// (checking a sweep's pairs starts nothing). A new run of the same instance starts afresh.
    fn prepare(&mut self, problem: &dyn Problem) -> Result<(), AlgorithmError> {
        self.process = None;
        let domain = problem.domain();
        let bounds: Vec<[f64; 2]> = domain
            .lower()
            .iter()
            .zip(domain.upper())
            .map(|(lo, hi)| [*lo, *hi])
            .collect();
        self.start = Some(json!({
            "op": "start",
            "dim": domain.dim(),
            "bounds": bounds,
            "problem": problem.name(),
        }));
        self.domain = Some(domain.clone());
        Ok(())
    }

    fn plan_budget(&mut self, budget: usize) {
        if let Some(start) = &mut self.start {
            start["budget"] = json!(budget);
        }
    }

    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        let seed: u64 = ctx.rng.random();
        let mut message = json!({"op": "ask", "t": ctx.t, "seed": seed});
        if let Some(allowed) = ctx.allowed {
            message["allowed"] = json!(allowed.iter().collect::<Vec<_>>());
        }
        if self.settings.batch_capable {
            message["pending"] = json!(ctx.pending);
        }
        let asked = Instant::now();
        self.send(&message)?;
        let reply = self.receive("ask")?;
        self.log.cost.acq_seconds += asked.elapsed().as_secs_f64();
        let x = self.point(&reply, "ask")?;
        let repeats = match reply.get("repeats") {
            None => 1,
            Some(k) => k
                .as_u64()
                .filter(|k| (1..=1_000_000).contains(k))
                .ok_or_else(|| {
                    self.fail(format!(
                        "answered ask with repeats = {k} (must be an integer ≥ 1)"
                    ))
                })? as usize,
        };
        Ok(Proposal { x, repeats })
    }

    /// As the optimiser declares (`batch_capable`).
    fn accepts_pending(&self) -> bool {
        self.settings.batch_capable
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        let mut message = json!({"op": "tell", "x": feedback.x, "y": feedback.y, "t": feedback.t});
        if let Some(context) = feedback.context {
            message["context"] = json!(context);
        }
        self.send(&message)
    }

    fn recommend(&mut self, _engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        self.send(&json!({"op": "recommend"}))?;
        let reply = self.receive("recommend")?;
        self.point(&reply, "recommend")
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.parameters.clone()
    }

    /// Its own process's memory is not ours to estimate; bosweep keeps the run's history only.
    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        (budget as u64)
            .saturating_mul(dim as u64 + 1)
            .saturating_mul(8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::resolve;
    use bosweep_core::params::Settings;
    use bosweep_toolkit::{AlgorithmSettings, Optimizer};

    #[test]
    fn defaults_and_values_round_trip() {
        assert_eq!(Command::default().timeout, 600.0);
        let changed = Command::new("./optimise --fast")
            .timeout(2.5)
            .batch_capable(true);
        assert_eq!(Command::read(&resolve(&changed)), changed);
    }

    #[test]
    fn out_of_range_values_are_refused_by_name() {
        let message = |settings: Command| settings.build().err().unwrap().to_string();
        assert!(message(Command::new("true").timeout(0.0)).contains("timeout = 0"));
        assert!(message(Command::default()).contains("parameter cmd"));
    }

    /// A shell optimiser that proposes `x` at every ask and recommends it too.
    #[cfg(unix)]
    #[test]
    fn the_optimizer_runs_a_shell_optimiser() {
        let script = r#"while read -r line; do case "$line" in *'"op":"ask"'*|*'"op":"recommend"'*) echo '{"x":[0.25,-1.5]}';; esac; done"#;
        let mut opt = Optimizer::builder(Command::new(script).timeout(20.0))
            .bounds(&[(0.0, 1.0), (-2.0, 2.0)])
            .seed(2)
            .init(2)
            .minimize()
            .build()
            .unwrap();
        let mut asked = Vec::new();
        for _ in 0..4 {
            for x in opt.ask(1).unwrap() {
                opt.tell(&x, x[0] * x[0] + x[1] * x[1]).unwrap();
                asked.push(x);
            }
        }
        // The initial design's two points, then the command's.
        assert_eq!(asked.len(), 4);
        assert!(asked[..2].iter().all(|x| x != &[0.25, -1.5]));
        assert_eq!(asked[2..], [vec![0.25, -1.5], vec![0.25, -1.5]]);
        assert_eq!(opt.recommend(), Some(&[0.25, -1.5][..]));
    }

    /// A batch-capable shell optimiser that answers each ask with the number of points pending
    /// as its first coordinate: the asks of one batch list the earlier ones.
    #[cfg(unix)]
    #[test]
    fn a_batch_capable_optimiser_sees_the_pending_points() {
        let script = r#"while read -r line; do case "$line" in *'"op":"ask"'*) n=$(printf '%s' "$line" | grep -o '\],\[' | wc -l); case "$line" in *'"pending":[]'*) k=0;; *) k=$((n + 1));; esac; echo "{\"x\":[$k]}";; *'"op":"recommend"'*) echo '{"x":[0]}';; esac; done"#;
        let build = |capable: bool| {
            Optimizer::builder(Command::new(script).timeout(20.0).batch_capable(capable))
                .bounds(&[(0.0, 10.0)])
                .init(1)
                .build()
                .unwrap()
        };
        let mut opt = build(true);
        let design = opt.ask(3).unwrap();
        opt.tell(&design[0], 1.0).unwrap();
        assert_eq!(opt.ask(3).unwrap(), [vec![0.0], vec![1.0], vec![2.0]]);
        // Without the declaration, one point at a time: a batch is refused.
        let mut opt = build(false);
        let design = opt.ask(1).unwrap();
        opt.tell(&design[0], 1.0).unwrap();
        assert!(opt.ask(3).is_err());
        assert_eq!(opt.ask(1).unwrap().len(), 1);
    }
}
