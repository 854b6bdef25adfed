//! An objective computed by a command, once per evaluation: the point goes to the command's
//! stdin as a JSON array, one number comes back on its stdout. The problem `command` of a sweep
//! config and `bosweep run --objective-cmd` both build it.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use super::entry::Entry;
use super::{
    Constraints, Domain, Objectives, Observation, Optimum, Problem, ProblemError, Sense, Step,
};
use bosweep_core::params::{ChoiceParam, IntegerParam, ParamValue, Params, RealParam, TextParam};
use bosweep_core::process::GroupChild;

/// Runs `sh -c CMD` per evaluation, in a process group of its own that is killed, with every
/// process the command started, when the evaluation ends or times out. A non-zero exit, no
/// answer within the timeout, or an answer that is not one finite number is an evaluation
/// error; the run stops there, with every earlier evaluation already in the trace.
#[derive(Debug)]
pub struct CommandObjective {
    command: String,
    domain: Domain,
    sense: Sense,
    timeout: Duration,
    /// Repeated evaluations of one point (RAHBO's k) run this many at a time.
    parallel: usize,
    /// What the command declares when it prints several objectives' values; `None` for one.
    objectives: Option<Objectives>,
    /// The constraints whose values it prints beside the objectives; `None` for none.
    constraints: Option<Constraints>,
}

impl CommandObjective {
    /// `parallel` ≥ 1 commands may run at once for the repeats of one point. Errors name the
    /// settings as the problem's parameters (`cmd`, `timeout`).
    pub fn new(
        command: &str,
        domain: Domain,
        sense: Sense,
        timeout: Duration,
        parallel: usize,
    ) -> Result<Self, ProblemError> {
        if command.trim().is_empty() {
            return Err(ProblemError::config("cmd: the command is empty"));
        }
        if timeout.is_zero() {
            return Err(ProblemError::config("timeout: value 0 (must be positive)"));
        }
        Ok(Self {
            command: command.to_owned(),
            domain,
            sense,
            timeout,
            parallel: parallel.max(1),
            objectives: None,
            constraints: None,
        })
    }

    /// The command prints the values of `constraints` too, as
    /// `{"objectives": [...], "constraints": [...]}` (feasible where every one is ≤ 0).
    pub fn with_constraints(mut self, constraints: Constraints) -> Self {
        self.constraints = Some(constraints);
        self
    }

    /// The command prints the values of several `objectives` (a JSON list, or an object whose
    /// `objectives` is one); its `sense` becomes the first objective's.
    pub fn with_objectives(mut self, objectives: Objectives) -> Self {
        self.sense = objectives.senses()[0];
        self.objectives = Some(objectives);
        self
    }

    /// One run of the command at `x`: its one value, or its objectives' values, and its
    /// constraint values (none for an unconstrained command).
    fn call(&self, x: &[f64]) -> Result<(Vec<f64>, Vec<f64>), ProblemError> {
        let fail = |msg: String| {
            ProblemError::evaluation(format!(
                "objective command `{}` at {x:?}: {msg}",
                self.command
            ))
        };
        let mut group = GroupChild::spawn(
            Command::new("sh")
                .arg("-c")
                .arg(&self.command)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
        .map_err(|e| fail(format!("could not start: {e}")))?;
        let child = group.child();
        let input = serde_json::to_string(x).expect("finite coordinates serialise");
        if let Some(mut stdin) = child.stdin.take() {
            // A command that does not read its input closes the pipe early; that is its business.
            let _ = stdin
                .write_all(input.as_bytes())
                .and_then(|_| stdin.write_all(b"\n"));
        }
        // stdout and stderr are drained concurrently, so that a command filling one pipe while
        // the other is read cannot block itself into a timeout.
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        let start = Instant::now();
        let status = loop {
            match group
                .child()
                .try_wait()
                .map_err(|e| fail(format!("waiting failed: {e}")))?
            {
                Some(status) => break status,
                None if start.elapsed() > self.timeout => {
                    // Dropping the group kills the command and everything it started.
                    drop(group);
                    return Err(fail(format!(
                        "no answer within {:?}; killed with every process it started",
                        self.timeout
                    )));
                }
                None => std::thread::sleep(Duration::from_millis(2)),
            }
        };
        // The evaluation is over: what the command left running in the background goes with
        // it, which also closes the pipes such a process held.
        group.kill_group();
        // A process that left the group (setsid) may still hold the pipes open; waiting for
        // their end is bounded by what is left of the timeout.
        let collect = |pipe: mpsc::Receiver<Vec<u8>>| {
            pipe.recv_timeout(self.timeout.saturating_sub(start.elapsed()))
                .map_err(|_| {
                    fail(format!(
                        "exited, but its output stayed open for more than {:?} (a background \
                         process holding stdout or stderr?)",
                        self.timeout
                    ))
                })
        };
        let (out, err) = (collect(stdout)?, collect(stderr)?);
        if !status.success() {
            let err = String::from_utf8_lossy(&err);
            let err = err.trim();
            let detail = if err.is_empty() {
                String::new()
            } else {
                let last = err.lines().last().unwrap_or(err);
                format!(": {}", last.chars().take(200).collect::<String>())
            };
            return Err(fail(format!("exited with {status}{detail}")));
        }
        let m = self.objectives.as_ref().map_or(1, Objectives::count);
        match &self.constraints {
            Some(c) => parse_constrained_output(&out, m, c.count()).map_err(fail),
            None if m == 1 => parse_objective_output(&out)
                .map(|v| (vec![v], Vec::new()))
                .map_err(fail),
            None => parse_objectives_output(&out, m)
                .map(|v| (v, Vec::new()))
                .map_err(fail),
        }
    }
}

/// The most bytes read from an external command's stdout or stderr; one number needs far fewer.
const OUTPUT_LIMIT: usize = 64 * 1024;

/// Reads up to [`OUTPUT_LIMIT`] + 1 bytes of `pipe` on its own thread and sends them when the
/// pipe closes (or the limit is reached: the command then gets a broken pipe, as it deserves).
fn drain(pipe: Option<impl Read + Send + 'static>) -> mpsc::Receiver<Vec<u8>> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(pipe) = pipe {
            let _ = pipe.take(OUTPUT_LIMIT as u64 + 1).read_to_end(&mut bytes);
        }
        let _ = send.send(bytes);
    });
    receive
}

/// The value an external objective printed: its whole stdout, surrounding whitespace aside, must
/// be one finite number in Rust's (and C's `strtod`'s) decimal or exponent notation. The error
/// says what was printed, shortened and escaped to one line, so that it can go into a message.
pub fn parse_objective_output(stdout: &[u8]) -> Result<f64, String> {
    if stdout.len() > OUTPUT_LIMIT {
        return Err(format!(
            "printed more than {OUTPUT_LIMIT} bytes (expected one number)"
        ));
    }
    let text = String::from_utf8_lossy(stdout);
    let text = text.trim();
    if text.is_empty() {
        return Err("printed nothing (expected one finite number)".into());
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(v) => Err(format!("printed {v} (must be a finite number)")),
        Err(_) => Err(format!("printed \"{}\", not a number", excerpt(text))),
    }
}

/// Senses written `min` or `max`, separated by commas (`min,max`); the error quotes the word that
/// is neither.
pub fn parse_senses(text: &str) -> Result<Vec<Sense>, String> {
    text.split(',')
        .map(|word| match word.trim() {
            "min" => Ok(Sense::Minimize),
            "max" => Ok(Sense::Maximize),
            other => Err(format!("\"{other}\" is neither min nor max")),
        })
        .collect()
}

/// The header's parameters of a command printing several objectives' values (none for one, so
/// that single-objective headers stay as they were).
pub(super) fn objectives_parameters(objectives: &Objectives) -> Vec<(String, ParamValue)> {
    let senses: Vec<&str> = objectives.senses().iter().map(|s| sense_word(*s)).collect();
    let mut out = vec![
        (
            "objectives".into(),
            ParamValue::Number(objectives.count() as f64),
        ),
        ("senses".into(), ParamValue::from(senses.join(",").as_str())),
    ];
    if let Some(r) = objectives.reference_point() {
        let text: Vec<String> = r.iter().map(|v| v.to_string()).collect();
        out.push((
            "reference_point".into(),
            ParamValue::from(text.join(",").as_str()),
        ));
    }
    out
}

/// The values of `m` objectives an external objective printed: its whole stdout must be one
/// JSON list of `m` finite numbers, or an object whose `objectives` is such a list (so that a
/// command can print constraints or notes beside them). The error says what was printed, as
/// [`parse_objective_output`]'s does.
pub fn parse_objectives_output(stdout: &[u8], m: usize) -> Result<Vec<f64>, String> {
    if stdout.len() > OUTPUT_LIMIT {
        return Err(format!(
            "printed more than {OUTPUT_LIMIT} bytes (expected a list of {m} numbers)"
        ));
    }
    let text = String::from_utf8_lossy(stdout);
    let text = text.trim();
    let expected = || {
        format!(
            "printed \"{}\", not a JSON list of {m} numbers nor {{\"objectives\": [...]}}",
            excerpt(text)
        )
    };
    let parsed: serde_json::Value = serde_json::from_str(text).map_err(|_| expected())?;
    let list = match &parsed {
        serde_json::Value::Array(list) => list,
        serde_json::Value::Object(map) => match map.get("objectives") {
            Some(serde_json::Value::Array(list)) => list,
            _ => return Err(expected()),
        },
        _ => return Err(expected()),
    };
    if list.len() != m {
        return Err(format!(
            "printed {} objective value(s) in \"{}\" (expected {m})",
            list.len(),
            excerpt(text)
        ));
    }
    list.iter()
        .enumerate()
        .map(|(i, v)| match v.as_f64() {
            Some(v) if v.is_finite() => Ok(v),
            _ => Err(format!(
                "objective {} printed as {}, not a finite number",
                i + 1,
                excerpt(&v.to_string())
            )),
        })
        .collect()
}

/// The values an external objective with `k` ≥ 1 constraints printed: its whole stdout must be
/// one JSON object whose `objectives` is a list of `m` finite numbers and whose `constraints` is
/// a list of `k` (feasible where every one is ≤ 0). The error says what was printed, as
/// [`parse_objective_output`]'s does.
pub fn parse_constrained_output(
    stdout: &[u8],
    m: usize,
    k: usize,
) -> Result<(Vec<f64>, Vec<f64>), String> {
    if stdout.len() > OUTPUT_LIMIT {
        return Err(format!(
            "printed more than {OUTPUT_LIMIT} bytes (expected {{\"objectives\": [...], \"constraints\": [...]}})"
        ));
    }
    let text = String::from_utf8_lossy(stdout);
    let text = text.trim();
    let expected = || {
        format!(
            "printed \"{}\", not {{\"objectives\": [{m} number(s)], \"constraints\": [{k} number(s)]}}",
            excerpt(text)
        )
    };
    let parsed: serde_json::Value = serde_json::from_str(text).map_err(|_| expected())?;
    let list = |key: &str, count: usize| -> Result<Vec<f64>, String> {
        let Some(serde_json::Value::Array(list)) = parsed.get(key) else {
            return Err(expected());
        };
        if list.len() != count {
            return Err(format!(
                "printed {} {key} value(s) in \"{}\" (expected {count})",
                list.len(),
                excerpt(text)
            ));
        }
        list.iter()
            .enumerate()
            .map(|(i, v)| match v.as_f64() {
                Some(v) if v.is_finite() => Ok(v),
                _ => Err(format!(
                    "{key} entry {} printed as {}, not a finite number",
                    i + 1,
                    excerpt(&v.to_string())
                )),
            })
            .collect()
    };
    Ok((list("objectives", m)?, list("constraints", k)?))
}

/// `text` escaped to one line and cut to at most about 120 bytes: control characters escape to
/// several bytes each (found by fuzzing: 80 of them made a 470-byte message). For messages about
/// what a user's command printed (the command optimiser quotes its answers with it too).
pub fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        let escaped: String = c.escape_debug().collect();
        if out.len() + escaped.len() > 120 {
            out.push('…');
            break;
        }
        out.push_str(&escaped);
    }
    out
}

/// Parses bounds written `lo:hi,lo:hi,…` (one pair per dimension); the message names the
/// entry that does not parse, without saying where the text came from.
pub fn parse_bounds(text: &str) -> Result<Domain, String> {
    let mut lower = Vec::new();
    let mut upper = Vec::new();
    for (i, part) in text.split(',').enumerate() {
        let bad = || format!("entry {} \"{part}\" is not of the form lo:hi", i + 1);
        let (lo, hi) = part.split_once(':').ok_or_else(bad)?;
        lower.push(lo.trim().parse::<f64>().map_err(|_| bad())?);
        upper.push(hi.trim().parse::<f64>().map_err(|_| bad())?);
    }
    Domain::new(lower, upper).map_err(|e| e.to_string())
}

/// The `bounds` and `sense` entries of the parameters of an objective the user brings with its
/// own box and sense (a command, a registered callable), as trace headers record them.
pub(super) fn box_parameters(domain: &Domain, sense: Sense) -> [(String, ParamValue); 2] {
    [
        ("bounds".into(), ParamValue::Text(bounds_text(domain))),
        ("sense".into(), ParamValue::from(sense_word(sense))),
    ]
}

/// `domain` as the `bounds` parameter writes it (the inverse of [`parse_bounds`]).
fn bounds_text(domain: &Domain) -> String {
    let pairs: Vec<String> = domain
        .lower()
        .iter()
        .zip(domain.upper())
        .map(|(lo, hi)| format!("{lo}:{hi}"))
        .collect();
    pairs.join(",")
}

/// `sense` as the `sense` parameter writes it.
fn sense_word(sense: Sense) -> &'static str {
    match sense {
        Sense::Minimize => "min",
        Sense::Maximize => "max",
    }
}

const CMD: TextParam = TextParam::new(
    "cmd",
    "",
    "the shell command (sh -c) evaluating one point: a JSON array on stdin, one number on stdout",
);
pub(super) const BOUNDS: TextParam = TextParam::new(
    "bounds",
    "",
    "the box, lo:hi per dimension separated by commas (0:1,-5:5)",
);
pub(super) const SENSE: ChoiceParam<Sense> = ChoiceParam::new(
    "sense",
    &["min", "max"],
    &[Sense::Minimize, Sense::Maximize],
    "min",
    "whether the objective's value is minimised or maximised",
);
/// `timeout`: seconds one evaluation of a command objective may take, the `command` problem's
/// and `bosweep run --objective-timeout`'s.
pub const COMMAND_TIMEOUT: RealParam = RealParam::new(
    "timeout",
    60.0,
    1e-3,
    1e6,
    "seconds one evaluation may take before the command (and every process it started) is killed",
);
const PARALLEL: IntegerParam = IntegerParam::new(
    "parallel",
    1,
    1,
    1024,
    "evaluations of one point (its repeats) run at once",
);

pub(super) const OBJECTIVES: IntegerParam = IntegerParam::new(
    "objectives",
    1,
    1,
    64,
    "the number m of objectives whose values it gives (a command prints a JSON list, or {\"objectives\": [...]}; a callable returns a sequence)",
);
pub(super) const SENSES: TextParam = TextParam::new(
    "senses",
    "",
    "with m ≥ 2 objectives: each one's sense, min or max, separated by commas (default: every one in sense)",
);
pub(super) const REFERENCE_POINT: TextParam = TextParam::new(
    "reference_point",
    "",
    "with m ≥ 2 objectives: the hypervolume's reference point, one value per objective separated by commas",
);

pub(super) const CONSTRAINTS: IntegerParam = IntegerParam::new(
    "constraints",
    0,
    0,
    64,
    "the number k of black-box constraints whose values it gives beside the objectives, feasible where ≤ 0 (a command then prints {\"objectives\": [...], \"constraints\": [...]})",
);

/// The registry's entry: `[[problem]] name = "command"` in a sweep config.
pub(super) const ENTRIES: &[Entry] = &[Entry {
    name: "command",
    description: "your black box: a shell command run once per evaluation (point as JSON on \
                  stdin, one number on stdout); needs cmd and bounds",
    parameters: &[
        CMD.spec(),
        BOUNDS.spec(),
        SENSE.spec(),
        COMMAND_TIMEOUT.spec(),
        PARALLEL.spec(),
        OBJECTIVES.spec(),
        SENSES.spec(),
        REFERENCE_POINT.spec(),
        CONSTRAINTS.spec(),
    ],
    build: build_command,
}];

fn build_command(params: &Params) -> Result<Box<dyn Problem>, ProblemError> {
    let name = |param: &str, value: &str, why: String| {
        ProblemError::config(format!(
            "problem command: parameter {param} = \"{value}\": {why}"
        ))
    };
    let cmd = CMD.of(params);
    if cmd.trim().is_empty() {
        return Err(name("cmd", cmd, "give the command to run".into()));
    }
    let bounds = BOUNDS.of(params);
    let domain = parse_bounds(bounds).map_err(|why| name("bounds", bounds, why))?;
    let sense = SENSE.of(params);
    let objective = CommandObjective::new(
        cmd,
        domain,
        sense,
        Duration::from_secs_f64(COMMAND_TIMEOUT.of(params)),
        PARALLEL.of(params),
    )?;
    let objective = match objectives_of(params, sense).map_err(|(p, v, why)| name(p, v, why))? {
        Some(objectives) => objective.with_objectives(objectives),
        None => objective,
    };
    Ok(match CONSTRAINTS.of(params) {
        0 => Box::new(objective),
        k => Box::new(objective.with_constraints(Constraints::new(k)?)),
    })
}

/// The objectives the parameters `objectives`, `senses` and `reference_point` of a user's own
/// objective (a command, a callable) declare (see [`declared_objectives`]).
pub(super) fn objectives_of(
    params: &Params,
    sense: Sense,
) -> Result<Option<Objectives>, (&'static str, &str, String)> {
    declared_objectives(
        OBJECTIVES.of(params),
        sense,
        SENSES.of(params),
        REFERENCE_POINT.of(params),
    )
}

/// The objectives of a user's objective (a command, a callable) printing `m` values: `None` for
/// one, where `senses` and `reference` must be empty; for m ≥ 2, `senses` (comma-separated
/// `min` or `max`; empty: every one `sense`) and, unless empty, the `reference` point. An error
/// names the parameter, its value and why.
pub fn declared_objectives<'a>(
    m: usize,
    sense: Sense,
    senses: &'a str,
    reference: &'a str,
) -> Result<Option<Objectives>, (&'static str, &'a str, String)> {
    if m == 1 {
        for (param, value) in [("senses", senses), ("reference_point", reference)] {
            if !value.is_empty() {
                return Err((param, value, "needs objectives ≥ 2".into()));
            }
        }
        return Ok(None);
    }
    let senses_list = if senses.trim().is_empty() {
        vec![sense; m]
    } else {
        parse_senses(senses).map_err(|why| ("senses", senses, why))?
    };
    if senses_list.len() != m {
        return Err((
            "senses",
            senses,
            format!("{} senses for {m} objectives", senses_list.len()),
        ));
    }
    let mut objectives =
        Objectives::new(senses_list).map_err(|e| ("objectives", senses, e.to_string()))?;
    if !reference.trim().is_empty() {
        let point = reference
            .split(',')
            .map(|v| v.trim().parse::<f64>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| {
                (
                    "reference_point",
                    reference,
                    "not a list of numbers".to_owned(),
                )
            })?;
        objectives = objectives
            .with_reference_point(point)
            .map_err(|e| ("reference_point", reference, e.to_string()))?;
    }
    Ok(Some(objectives))
}

impl Problem for CommandObjective {
    problem_accessors!(
        self,
        name: "command",
        domain: &self.domain,
        sense: self.sense,
        parameters: {
            let [bounds, sense] = box_parameters(&self.domain, self.sense);
            vec![
                ("cmd".into(), ParamValue::from(self.command.as_str())),
                bounds,
                sense,
                (
                    "timeout".into(),
                    ParamValue::Number(self.timeout.as_secs_f64()),
                ),
                ("parallel".into(), ParamValue::Number(self.parallel as f64)),
            ]
            .into_iter()
            .chain(self.objectives.as_ref().map(objectives_parameters).into_iter().flatten())
            .chain(self.constraints.as_ref().map(|c| {
                ("constraints".to_owned(), ParamValue::Number(c.count() as f64))
            }))
            .collect()
        },
    );

    /// The repeats of one point, `parallel` commands at a time; values in repeat order, and the
    /// first failure (in that order) stops the run.
    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        _rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let mut values = Vec::with_capacity(step.repeats());
        let mut left = step.repeats();
        while left > 0 {
            let batch = left.min(self.parallel);
            let results: Vec<_> = if batch == 1 {
                vec![self.call(x)]
            } else {
                std::thread::scope(|scope| {
                    let calls: Vec<_> = (0..batch).map(|_| scope.spawn(|| self.call(x))).collect();
                    calls
                        .into_iter()
                        .map(|call| call.join().expect("a command evaluation panicked"))
                        .collect()
                })
            };
            for result in results {
                let (result, constraints) = result?;
                if self.objectives.is_some() {
                    return Ok(
                        Observation::of_objectives(result, None).with_constraints(constraints)
                    );
                }
                if self.constraints.is_some() {
                    // A constrained point is evaluated once: its constraints are those values'.
                    return Ok(Observation::new(result, None).with_constraints(constraints));
                }
                values.extend(result);
            }
            left -= batch;
        }
        Ok(Observation::new(values, None))
    }

    fn objectives(&self) -> Option<&Objectives> {
        self.objectives.as_ref()
    }

    fn constraints(&self) -> Option<&Constraints> {
        self.constraints.as_ref()
    }

    /// Unknown: the command's value may be noisy, and calling it again would cost an evaluation.
    fn objective_of_interest(&self, _x: &[f64], _t: usize) -> Option<f64> {
        None
    }

    fn optimum(&self, _t: usize) -> Option<Optimum> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A constrained command prints `{"objectives": [...], "constraints": [...]}`; anything
    /// else is an error saying what was printed and what was expected.
    #[test]
    fn constrained_output_is_an_object_of_two_lists() {
        let parse = |text: &str, m, k| parse_constrained_output(text.as_bytes(), m, k);
        assert_eq!(
            parse(
                r#" {"objectives": [1.5, -2], "constraints": [0.25], "note": "x"} "#,
                2,
                1
            ),
            Ok((vec![1.5, -2.0], vec![0.25]))
        );
        let wrong = [
            (
                "[1, 2]",
                "not {\"objectives\": [2 number(s)], \"constraints\": [1 number(s)]}",
            ),
            (r#"{"objectives": [1, 2]}"#, "not {\"objectives\""),
            (
                r#"{"objectives": [1, 2], "constraints": [0, 1]}"#,
                "printed 2 constraints value(s)",
            ),
            (
                r#"{"objectives": [1, 2], "constraints": ["a"]}"#,
                "constraints entry 1 printed as \\\"a\\\", not a finite number",
            ),
            (
                r#"{"objectives": [1], "constraints": [0]}"#,
                "printed 1 objectives value(s)",
            ),
        ];
        for (text, expected) in wrong {
            let err = parse(text, 2, 1).unwrap_err();
            assert!(err.contains(expected), "{text}: {err}");
        }
    }
}
