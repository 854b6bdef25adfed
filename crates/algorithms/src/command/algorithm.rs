//! [`CommandAlgorithm`]: the child process behind [`Algorithm`], the protocol's messages and
//! the checks of its replies.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, Command as ProcessCommand, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand::RngExt;
use serde_json::{Value, json};

use bosweep_core::params::ParamValue;
use bosweep_core::process::GroupChild;
use bosweep_engine::Engine;
use bosweep_problems::{Domain, Problem, excerpt};
use bosweep_toolkit::{Algorithm, AlgorithmError, AskContext, Feedback, Proposal, StepLog};

use super::settings::Command;

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
    /// What the optimiser takes beyond one unconstrained objective.
    takes: Takes,
}

/// What an optimiser command takes beyond one unconstrained objective: a user's command takes
/// everything the protocol carries; a peer library's adapter what its method does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Takes {
    /// A problem's several objectives (`start`'s `objectives`, `tell`'s values).
    pub several_objectives: bool,
    /// A problem's black-box constraints (`start`'s `constraints`, `tell`'s values).
    pub constraints: bool,
}

impl CommandAlgorithm {
    /// The optimiser `settings` describe, its trace header recording `parameters`; it is
    /// given a problem's several objectives and constraints where `takes` says it takes them.
    pub(crate) fn recorded_as(
        settings: Command,
        parameters: Vec<(String, ParamValue)>,
        takes: Takes,
    ) -> Box<dyn Algorithm> {
        Box::new(Self {
            settings,
            process: None,
            domain: None,
            start: None,
            log: StepLog::default(),
            parameters,
            takes,
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
        let timeout = Duration::from_secs_f64(self.settings.answer.timeout);
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
        let patience =
            Duration::from_secs_f64(self.settings.answer.timeout).min(Duration::from_secs(1));
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
        let mut start = json!({
            "op": "start",
            "dim": domain.dim(),
            "bounds": bounds,
            "problem": problem.name(),
        });
        if let Some(objectives) = problem.objectives().filter(|o| o.count() > 1) {
            start["objectives"] = json!(objectives.count());
            if let Some(reference) = objectives.reference_point() {
                start["reference_point"] = json!(objectives.to_maximization(reference));
            }
        }
        if let Some(constraints) = problem.constraints() {
            start["constraints"] = json!(constraints.count());
        }
        self.start = Some(start);
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

    fn handles_several_objectives(&self) -> bool {
        self.takes.several_objectives
    }

    fn handles_constraints(&self) -> bool {
        self.takes.constraints
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        let mut message = json!({"op": "tell", "x": feedback.x, "y": feedback.y, "t": feedback.t});
        if let Some(context) = feedback.context {
            message["context"] = json!(context);
        }
        if !feedback.objectives.is_empty() {
            message["objectives"] = json!(feedback.objectives);
        }
        if !feedback.constraints.is_empty() {
            message["constraints"] = json!(feedback.constraints);
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
