//! An objective computed by an external command, once per evaluation: the point goes to the
//! command's stdin as a JSON array, one number comes back on its stdout.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use super::{Domain, Observation, Optimum, Problem, ProblemError, Sense, Step};
use crate::params::ParamValue;

/// Runs `sh -c CMD` per evaluation. A non-zero exit, no answer within the timeout, or an answer
/// that is not one finite number is an evaluation error; the run stops there, with every earlier
/// evaluation already in the trace.
#[derive(Debug)]
pub struct ExternalObjective {
    command: String,
    domain: Domain,
    sense: Sense,
    timeout: Duration,
}

impl ExternalObjective {
    pub fn new(
        command: &str,
        domain: Domain,
        sense: Sense,
        timeout: Duration,
    ) -> Result<Self, ProblemError> {
        if command.trim().is_empty() {
            return Err(ProblemError::config(
                "--objective-cmd: the command is empty",
            ));
        }
        if timeout.is_zero() {
            return Err(ProblemError::config(
                "--objective-timeout: value 0 (must be positive)",
            ));
        }
        Ok(Self {
            command: command.to_owned(),
            domain,
            sense,
            timeout,
        })
    }

    /// One run of the command at `x`.
    fn call(&self, x: &[f64]) -> Result<f64, ProblemError> {
        let fail = |msg: String| {
            ProblemError::evaluation(format!(
                "objective command `{}` at {x:?}: {msg}",
                self.command
            ))
        };
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| fail(format!("could not start: {e}")))?;
        let input = serde_json::to_string(x).expect("finite coordinates serialise");
        if let Some(mut stdin) = child.stdin.take() {
            // A command that does not read its input closes the pipe early; that is its business.
            let _ = stdin
                .write_all(input.as_bytes())
                .and_then(|_| stdin.write_all(b"\n"));
        }
        let mut stdout = child.stdout.take().expect("piped");
        let mut stderr = child.stderr.take().expect("piped");
        let reader = std::thread::spawn(move || {
            let (mut out, mut err) = (String::new(), String::new());
            let _ = stdout.read_to_string(&mut out);
            let _ = stderr.read_to_string(&mut err);
            (out, err)
        });
        let start = Instant::now();
        let status = loop {
            match child
                .try_wait()
                .map_err(|e| fail(format!("waiting failed: {e}")))?
            {
                Some(status) => break status,
                None if start.elapsed() > self.timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(fail(format!("no answer within {:?}; killed", self.timeout)));
                }
                None => std::thread::sleep(Duration::from_millis(2)),
            }
        };
        let (out, err) = reader.join().unwrap_or_default();
        if !status.success() {
            let err = err.trim();
            let detail = if err.is_empty() {
                String::new()
            } else {
                format!(": {}", err.lines().last().unwrap_or(err))
            };
            return Err(fail(format!("exited with {status}{detail}")));
        }
        let text = out.trim();
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            Ok(v) => Err(fail(format!("printed {v} (must be a finite number)"))),
            Err(_) => Err(fail(format!(
                "printed {:?}, not a number",
                text.chars().take(80).collect::<String>()
            ))),
        }
    }
}

impl Problem for ExternalObjective {
    fn name(&self) -> &str {
        "external"
    }

    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        self.sense
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        vec![
            ("command".into(), ParamValue::from(self.command.as_str())),
            (
                "timeout_seconds".into(),
                ParamValue::Number(self.timeout.as_secs_f64()),
            ),
        ]
    }

    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        _rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let values = (0..step.repeats())
            .map(|_| self.call(x))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Observation::new(values, None))
    }

    /// Unknown: the command's value may be noisy, and calling it again would cost an evaluation.
    fn objective_of_interest(&self, _x: &[f64], _t: usize) -> Option<f64> {
        None
    }

    fn optimum(&self, _t: usize) -> Option<Optimum> {
        None
    }
}
