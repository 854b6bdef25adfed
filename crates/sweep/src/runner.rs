//! Running a sweep's runs in parallel into one directory, resumably.
//!
//! Each run writes its trace to `runs/<name>.partial` and renames it to `runs/<name>` when
//! complete, so a trace file under its final name is always whole: killing the process at any
//! moment loses at most the runs in progress, and re-running the same command skips the
//! completed runs and restarts the others. Runs share one engine (engines are `Sync`; the GPU
//! backend queues calls from many threads behind its mutex).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::events::{EventSink, SweepEvent, SweepOutcome};
use super::manifest::{CONFIG_FILE, Manifest, RUNS_DIR};
use super::plan::RunSpec;
use super::recipe::PreparedRun;
use super::run::{RunConfig, RunError};
use super::stop::StopSignal;
use super::tally::ProgressTally;
use super::trace::{TraceWriter, read_complete};
use bosweep_core::data::{Blame, Failure};
use bosweep_core::io::io_reason;
use bosweep_engine::Engine;
use bosweep_problems as problems;

/// Which runs of the sweep this process executes: those with `index % count == shard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard's number `I`, `0 ≤ I < N`.
    pub(crate) index: usize,
    /// The number of shards `N`.
    pub(crate) count: usize,
}

impl Shard {
    /// Parses `I/N` with `0 ≤ I < N`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("\"{text}\" is not of the form I/N with 0 ≤ I < N");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Self { index, count })
    }

    /// The shard a scheduler assigns through the environment (`var` reads a variable), for a
    /// sweep started without `--shard`: a SLURM job array's task (`SLURM_ARRAY_TASK_ID`, its
    /// `_MIN`, `_STEP` and `_COUNT`: `--array=1-16` and `--array=0-30:2` both give shards
    /// 0..16), or a Kubernetes Indexed Job's pod (`JOB_COMPLETION_INDEX` of
    /// `BOSWEEP_SHARD_COUNT`, which the Job sets to its `completions`: Kubernetes does not pass
    /// that number to the pod). Returns the shard and where it came from, `None` outside both.
    pub fn from_env(
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<(Self, String)>, String> {
        let number = |name: &str| -> Result<Option<usize>, String> {
            var(name)
                .map(|text| {
                    text.trim()
                        .parse::<usize>()
                        .map_err(|_| format!("{name} = \"{text}\" is not a non-negative integer"))
                })
                .transpose()
        };
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let count = number("SLURM_ARRAY_TASK_COUNT")?.ok_or_else(|| {
                format!(
                    "SLURM_ARRAY_TASK_ID = {id} is set but SLURM_ARRAY_TASK_COUNT is not; give \
                     the shard (I/N)"
                )
            })?;
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let index = id
                .checked_sub(min)
                .filter(|offset| offset % step == 0)
                .map(|offset| offset / step);
            return match index {
                Some(index) if index < count => Ok(Some((
                    Self { index, count },
                    format!("SLURM job array: task {id} of {count} (min {min}, step {step})"),
                ))),
                _ => Err(format!(
                    "SLURM_ARRAY_TASK_ID = {id} is not one of the {count} tasks from \
                     SLURM_ARRAY_TASK_MIN = {min} in steps of {step}; give the shard (I/N)"
                )),
            };
        }
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            let count = number("BOSWEEP_SHARD_COUNT")?.ok_or_else(|| {
                format!(
                    "JOB_COMPLETION_INDEX = {index} is set (a Kubernetes Indexed Job) but \
                     BOSWEEP_SHARD_COUNT is not: set it to the Job's completions, or give \
                     the shard (I/N)"
                )
            })?;
            if index >= count {
                return Err(format!(
                    "JOB_COMPLETION_INDEX = {index} is not below BOSWEEP_SHARD_COUNT = {count}"
                ));
            }
            return Ok(Some((
                Self { index, count },
                format!("Kubernetes Indexed Job: completion index {index} of {count}"),
            )));
        }
        Ok(None)
    }

    /// `shard` where given, else [`Shard::from_env`] on this process's environment, the source
    /// sent to `events` as a note: what `bosweep sweep` and `bosweep.sweep` run.
    pub fn given_or_scheduled(
        shard: Option<Self>,
        events: &EventSink,
    ) -> Result<Option<Self>, String> {
        if shard.is_some() {
            return Ok(shard);
        }
        let scheduled = Self::from_env(|name| std::env::var(name).ok())?;
        Ok(scheduled.map(|(shard, source)| {
            events.send(SweepEvent::Note(format!(
                "running shard {}/{} ({source}; the shard setting overrides it)",
                shard.index, shard.count
            )));
            shard
        }))
    }

    /// Whether `spec` is one of this shard's runs.
    pub(crate) fn includes(&self, spec: &RunSpec) -> bool {
        spec.index % self.count == self.index
    }
}

/// Why a sweep could not start or did not complete.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// The directory belongs to another config, or cannot be used.
    #[error("{0}")]
    Directory(String),
    /// A setting of the sweep cannot be honoured (threads, memory).
    #[error("{0}")]
    Usage(String),
    /// The worker threads could not start.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    /// The report could not be written; the runs are on disk. `blame` is the report's: the
    /// archive sets it was asked to put beside the sweep are the user's input.
    #[error("report: {message}")]
    Report {
        /// Why.
        message: String,
        /// Whose fault it is.
        blame: Blame,
    },
    /// Reading or writing `path` failed (`what` says what was being done).
    #[error("cannot {what} {path}: {}", io_reason(source))]
    Io {
        /// What was being done (`write`, `create`), as the message puts it.
        what: String,
        /// The file or folder, as displayed.
        path: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Some runs failed; every other run completed and is on disk.
    #[error("{}", runs_failed(.0))]
    RunsFailed(Vec<(String, String)>),
    /// The caller's [`StopSignal`] stopped the sweep; the runs completed before are on disk.
    #[error(
        "sweep stopped on request: {completed} run(s) completed and saved, the others run on resume"
    )]
    Stopped {
        /// Runs completed by this invocation before the stop.
        completed: usize,
    },
}

fn runs_failed(failures: &[(String, String)]) -> String {
    let mut text = format!(
        "{} run(s) failed (the others completed and are saved):",
        failures.len()
    );
    for (key, err) in failures {
        text.push_str(&format!("\n  {key}: {err}"));
    }
    text
}

impl Failure for SweepError {
    fn blame(&self) -> Blame {
        match self {
            Self::Directory(_) | Self::Usage(_) => Blame::Input,
            Self::Report { blame, .. } => *blame,
            Self::Io { .. } | Self::Threads(_) | Self::RunsFailed(_) | Self::Stopped { .. } => {
                Blame::Running
            }
        }
    }
}

fn io(path: &Path, what: &str) -> impl Fn(std::io::Error) -> SweepError {
    let path = path.display().to_string();
    let what = what.to_owned();
    move |source| SweepError::Io {
        what: what.clone(),
        path: path.clone(),
        source,
    }
}

/// Whether a sweep may resume on a device other than the one its manifest records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MixedDevices {
    /// Refuse the sweep, naming both devices: a directory's traces stay from one device.
    Refuse,
    /// Go on, with a note: the traces then mix devices, whose floating-point results may differ.
    Allow,
}

/// Creates (or checks) `dir` for the sweep of `config_text` on `device` (the engine's
/// [`Engine::identity`]): the config copy and the manifest of all `runs`. A directory holding
/// another config's sweep is refused, and so is one whose runs used another device unless
/// `mixed` allows it. Returns what the user should be told (a resume on another device).
pub fn prepare_directory(
    dir: &Path,
    config_text: &str,
    config_hash: &str,
    runs: &[RunSpec],
    device: &str,
    mixed: MixedDevices,
) -> Result<Vec<String>, SweepError> {
    std::fs::create_dir_all(dir.join(RUNS_DIR)).map_err(io(dir, "create"))?;
    match Manifest::read(dir) {
        Ok(existing) if existing.config_hash != config_hash => {
            return Err(SweepError::Directory(format!(
                "{} holds a sweep of a different config (hash {} ≠ {config_hash}); choose another output directory",
                dir.display(),
                existing.config_hash
            )));
        }
        Ok(existing) => return check_device(dir, existing, device, mixed),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => {
            return Err(SweepError::Directory(format!(
                "{}: unreadable manifest: {e}",
                dir.display()
            )));
        }
    }
    let config_path = dir.join(CONFIG_FILE);
    std::fs::write(&config_path, config_text).map_err(io(&config_path, "write"))?;
    let manifest = Manifest {
        config_hash: config_hash.to_owned(),
        bosweep_version: env!("CARGO_PKG_VERSION").to_owned(),
        device: Some(device.to_owned()),
        runs: runs.to_vec(),
    };
    manifest
        .write(dir)
        .map_err(io(dir, "write the manifest in"))?;
    Ok(Vec::new())
}

/// Resuming `existing` on `device`: the same device, or a manifest from before devices were
/// recorded (which then records this one), goes on quietly; another device is refused unless
/// `mixed` allows it, and then said.
fn check_device(
    dir: &Path,
    mut existing: Manifest,
    device: &str,
    mixed: MixedDevices,
) -> Result<Vec<String>, SweepError> {
    match existing.device.as_deref() {
        Some(recorded) if recorded == device => Ok(Vec::new()),
        Some(recorded) => match mixed {
            MixedDevices::Refuse => Err(SweepError::Directory(format!(
                "{}: this sweep's runs so far used {recorded}, this invocation would use \
                 {device}; resume with the same device (and precision), or allow mixed \
                 devices (allow_mixed_devices) to mix them (the report names the devices of every \
                 run)",
                dir.display()
            ))),
            MixedDevices::Allow => Ok(vec![format!(
                "{}: this sweep's runs so far used {recorded}; the runs completed now use \
                 {device} (allow_mixed_devices)",
                dir.display()
            )]),
        },
        None => {
            existing.device = Some(device.to_owned());
            existing
                .write(dir)
                .map_err(io(dir, "write the manifest in"))?;
            Ok(Vec::new())
        }
    }
}

/// The runs of `selected` whose trace is not complete in `dir`. A trace under its final name
/// that does not hold its whole run ([`read_complete`]: a line cut off, another run's header,
/// too few evaluations) is moved aside as `<name>.invalid`, with a warning, and counts as
/// pending.
fn pending_runs<'r>(dir: &Path, selected: &[&'r RunSpec], events: &EventSink) -> Vec<&'r RunSpec> {
    selected
        .iter()
        .copied()
        .filter(|spec| {
            let path = Manifest::trace_path(dir, spec);
            if !path.exists() {
                return true;
            }
            match read_complete(&path, spec.seed, spec.budget) {
                Ok(_) => false,
                Err(defect) => {
                    let reason = defect.reason();
                    let moved = move_aside(&path);
                    events.send(SweepEvent::Warning(format!(
                        "{} is not a complete trace ({reason}){moved}; running it again",
                        path.display()
                    )));
                    true
                }
            }
        })
        .collect()
}

/// Moves the trace at `path`, not a complete run, aside as `<name>.invalid` (kept for the user to
/// look at, out of every reader's way); returns what happened, for a message.
fn move_aside(path: &Path) -> String {
    let aside = path.with_extension("jsonl.invalid");
    std::fs::rename(path, &aside).map_or_else(
        |e| format!("; cannot move it aside: {e}"),
        |()| format!("; moved to {}", aside.display()),
    )
}

/// Runs the runs of `shard` (all when `None`) that `dir` does not hold yet, at most `threads`
/// at once, on a pool of `threads` threads or as many as there are such runs or cores if fewer
/// (a thread without a run only costs: 10 000 threads for 4 runs took over a minute to start
/// and stop; the cores serve the engine's own parallel loops), sending their
/// progress and failures to `events`. Once `stop` is requested no run starts, the runs in
/// progress end after their current step (their partial traces removed), and the sweep ends
/// with [`SweepError::Stopped`].
pub fn run_sweep(
    dir: &Path,
    runs: &[RunSpec],
    shard: Option<Shard>,
    threads: usize,
    engine: &dyn Engine,
    stop: &StopSignal,
    events: &EventSink,
) -> Result<SweepOutcome, SweepError> {
    let selected: Vec<&RunSpec> = runs
        .iter()
        .filter(|r| shard.is_none_or(|s| s.includes(r)))
        .collect();
    let pending = pending_runs(dir, &selected, events);
    let outcome = SweepOutcome {
        selected: selected.len(),
        skipped: selected.len() - pending.len(),
        completed: 0,
    };
    let pool_threads = threads.min(pending.len().max(rayon::current_num_threads()));
    if pool_threads < threads {
        events.send(SweepEvent::Note(format!(
            "{} run(s) to do: {pool_threads} worker threads, not {threads}",
            pending.len()
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(pool_threads)
        .build()
        .map_err(|e| SweepError::Threads(e.to_string()))?;
    let progress = ProgressTally::start(&pending, pool_threads, events);
    let failures = Mutex::new(Vec::new());
    let completed = AtomicUsize::new(0);
    pool.install(|| {
        pending.par_iter().for_each(|spec| {
            if stop.requested() {
                return;
            }
            let started = progress.run_started();
            match run_one(dir, spec, engine, stop) {
                Ok(evals) => {
                    completed.fetch_add(1, Ordering::Relaxed);
                    progress.run_ended(spec, started, Some(evals));
                }
                Err(RunFailure::Stopped) => {}
                Err(RunFailure::Failed(error)) => {
                    events.send(SweepEvent::RunFailed {
                        run: spec.key(),
                        error: error.clone(),
                    });
                    progress.run_ended(spec, started, None);
                    failures
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push((spec.key(), error));
                }
            }
        })
    });
    if stop.requested() {
        return Err(SweepError::Stopped {
            completed: completed.into_inner(),
        });
    }
    let mut failures = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    if !failures.is_empty() {
        failures.sort();
        return Err(SweepError::RunsFailed(failures));
    }
    Ok(SweepOutcome {
        completed: completed.into_inner(),
        ..outcome
    })
}

/// Why [`run_one`] did not complete its run.
enum RunFailure {
    /// The [`StopSignal`] ended it; its partial trace is removed.
    Stopped,
    /// It failed, for the reason given.
    Failed(String),
}

impl From<String> for RunFailure {
    fn from(reason: String) -> Self {
        Self::Failed(reason)
    }
}

/// One run into `runs/<name>.partial`, renamed when complete. Returns the evaluations spent.
fn run_one(
    dir: &Path,
    spec: &RunSpec,
    engine: &dyn Engine,
    stop: &StopSignal,
) -> Result<usize, RunFailure> {
    let problem = problems::build(&spec.problem.name, &spec.problem.param_values())
        .map_err(|e| e.to_string())?;
    let config = RunConfig {
        budget: spec.budget,
        init: spec.init,
        seed: spec.seed,
        design_seed: spec.design_seed,
        parallel: spec.parallel,
    };
    // The config's checks (memory, peer libraries) were made once for the whole sweep.
    let prepared = PreparedRun::new(
        problem,
        &spec.algorithm.name,
        &spec.algorithm.param_values(),
        config,
    )
    .map_err(|e| e.to_string())?;
    let done = Manifest::trace_path(dir, spec);
    let partial: PathBuf = done.with_extension("jsonl.partial");
    let mut trace = TraceWriter::create(&partial)
        .map_err(|e| format!("cannot write {}: {e}", partial.display()))?;
    let summary = match prepared.run(engine, &mut trace, stop) {
        Ok(summary) => summary,
        Err(RunError::Stopped { .. }) => {
            drop(trace);
            let _ = std::fs::remove_file(&partial);
            return Err(RunFailure::Stopped);
        }
        Err(e) => return Err(e.to_string().into()),
    };
    drop(trace);
    std::fs::rename(&partial, &done)
        .map_err(|e| format!("cannot rename {}: {e}", partial.display()))?;
    Ok(summary.evals)
}

/// Combines shard directories of the same config into `out`: the config, the manifest and every
/// complete trace ([`read_complete`], the rule resume applies). A trace that is not its whole
/// run is not copied, with a warning to `events` naming it and why, so that the merged
/// directory lists its run as missing and a resume runs it again. Returns the number of
/// complete runs in `out`.
pub fn merge(out: &Path, shards: &[PathBuf], events: &EventSink) -> Result<usize, SweepError> {
    let first = shards
        .first()
        .ok_or_else(|| SweepError::Directory("merge needs at least one directory".into()))?;
    let manifest = Manifest::read(first).map_err(|e| {
        SweepError::Directory(format!("{}: no readable manifest: {e}", first.display()))
    })?;
    // The devices the shards recorded, each once: `a + b` where they differ (each trace header
    // still names its own).
    let mut devices: Vec<String> = Vec::new();
    for dir in shards {
        let other = Manifest::read(dir).map_err(|e| {
            SweepError::Directory(format!("{}: no readable manifest: {e}", dir.display()))
        })?;
        let device = other.device.unwrap_or_else(|| "unrecorded".into());
        if !devices.contains(&device) {
            devices.push(device);
        }
        if other.config_hash != manifest.config_hash {
            return Err(SweepError::Directory(format!(
                "{} is a sweep of a different config than {} (hash {} ≠ {}); refusing to merge",
                dir.display(),
                first.display(),
                other.config_hash,
                manifest.config_hash
            )));
        }
    }
    let config_path = first.join(CONFIG_FILE);
    let config_text = std::fs::read_to_string(&config_path).map_err(io(&config_path, "read"))?;
    prepare_directory(
        out,
        &config_text,
        &manifest.config_hash,
        &manifest.runs,
        &devices.join(" + "),
        MixedDevices::Allow,
    )?;
    let mut complete = 0;
    for spec in &manifest.runs {
        let target = Manifest::trace_path(out, spec);
        let defect = |path: &Path| read_complete(path, spec.seed, spec.budget).err();
        if target.exists() {
            match defect(&target) {
                None => {
                    complete += 1;
                    continue;
                }
                Some(defect) => events.send(SweepEvent::Warning(format!(
                    "{defect}{}",
                    move_aside(&target)
                ))),
            }
        }
        let mut sources = shards
            .iter()
            .map(|d| Manifest::trace_path(d, spec))
            .filter(|p| p.exists());
        let whole = sources.find(|source| match defect(source) {
            None => true,
            Some(defect) => {
                events.send(SweepEvent::Warning(format!(
                    "{defect}; not merged (a resume of {} runs it again)",
                    out.display()
                )));
                false
            }
        });
        if let Some(source) = whole {
            let partial = target.with_extension("jsonl.partial");
            std::fs::copy(&source, &partial).map_err(io(&source, "copy"))?;
            std::fs::rename(&partial, &target).map_err(io(&target, "write"))?;
            complete += 1;
        }
    }
    Ok(complete)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(vars: &[(&str, &str)]) -> Result<Option<(Shard, String)>, String> {
        Shard::from_env(|name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        })
    }

    fn shard(vars: &[(&str, &str)]) -> (usize, usize) {
        let (s, _) = from(vars).unwrap().unwrap();
        (s.index, s.count)
    }

    #[test]
    fn schedulers_assign_shards_through_the_environment() {
        assert!(from(&[]).unwrap().is_none());
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "16"),
        ];
        assert_eq!(shard(&slurm), (3, 16));
        // --array=1-16 and --array=0-30:2: the sixth task is shard 5 either way.
        let from_one = [
            ("SLURM_ARRAY_TASK_ID", "6"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "16"),
        ];
        assert_eq!(shard(&from_one), (5, 16));
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "10"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "16"),
        ];
        assert_eq!(shard(&stepped), (5, 16));
        let pod = [("JOB_COMPLETION_INDEX", "2"), ("BOSWEEP_SHARD_COUNT", "4")];
        assert_eq!(shard(&pod), (2, 4));
        let (_, source) = from(&pod).unwrap().unwrap();
        assert_eq!(source, "Kubernetes Indexed Job: completion index 2 of 4");
    }

    #[test]
    fn inconsistent_scheduler_variables_are_named() {
        let err = |vars: &[(&str, &str)]| from(vars).unwrap_err();
        assert!(err(&[("SLURM_ARRAY_TASK_ID", "3")]).contains("SLURM_ARRAY_TASK_COUNT is not"));
        assert!(
            err(&[
                ("SLURM_ARRAY_TASK_ID", "x"),
                ("SLURM_ARRAY_TASK_COUNT", "2")
            ])
            .contains("SLURM_ARRAY_TASK_ID = \"x\" is not a non-negative integer")
        );
        assert!(
            err(&[
                ("SLURM_ARRAY_TASK_ID", "5"),
                ("SLURM_ARRAY_TASK_COUNT", "4")
            ])
            .contains("is not one of the 4 tasks")
        );
        assert!(err(&[("JOB_COMPLETION_INDEX", "1")]).contains("BOSWEEP_SHARD_COUNT is not"));
        assert!(
            err(&[("JOB_COMPLETION_INDEX", "4"), ("BOSWEEP_SHARD_COUNT", "4")])
                .contains("is not below BOSWEEP_SHARD_COUNT = 4")
        );
    }
}
