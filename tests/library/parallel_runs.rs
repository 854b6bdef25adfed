//! Runs in synchronous batches and on asynchronous workers: the event order of the simulated
//! clock against hand-computed schedules, what the algorithm sees pending, reproducibility at
//! any thread count, and the settings a run refuses.

use std::sync::{Arc, Mutex};

use serde_json::Value;

use bosweep::algorithms::{self, Algorithm, AlgorithmError, AskContext, Feedback, Proposal};
use bosweep::compute::{CpuEngine, Engine};
use bosweep::params::ParamValue;
use bosweep::problems::{self, Problem};
use bosweep::sweep::{Parallel, RunConfig, RunError, TraceWriter, run};

use crate::common::{fast_acquisition, without_timings};

/// Proposes a fixed list of points in turn and records what was pending at each ask.
struct Scripted {
    points: Vec<f64>,
    asked: usize,
    pending_seen: Arc<Mutex<Vec<Vec<f64>>>>,
}

impl Scripted {
    fn new(points: &[f64]) -> (Self, Arc<Mutex<Vec<Vec<f64>>>>) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let algorithm = Self {
            points: points.to_vec(),
            asked: 0,
            pending_seen: seen.clone(),
        };
        (algorithm, seen)
    }
}

impl Algorithm for Scripted {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        let pending = ctx.pending.iter().map(|x| x[0]).collect();
        self.pending_seen.lock().unwrap().push(pending);
        let x = self.points[self.asked];
        self.asked += 1;
        Ok(Proposal {
            x: vec![x],
            repeats: 1,
        })
    }

    fn accepts_pending(&self) -> bool {
        true
    }

    fn tell(&mut self, _feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        Ok(())
    }

    fn recommend(&mut self, _engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        Ok(vec![self.points[0]])
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        Vec::new()
    }
}

/// The run's trace lines (header first), or its error.
fn traced(
    problem: &dyn Problem,
    algorithm: &mut dyn Algorithm,
    name: &str,
    config: &RunConfig,
) -> Result<Vec<Value>, RunError> {
    let shared = SharedBuffer(Arc::new(Mutex::new(Vec::new())));
    let mut trace = TraceWriter::to_writer(Box::new(shared.clone()));
    run(
        problem,
        algorithm,
        name,
        &CpuEngine::new(),
        config,
        &mut trace,
    )?;
    drop(trace);
    let text = String::from_utf8(shared.0.lock().unwrap().clone()).unwrap();
    Ok(text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect())
}

#[derive(Clone)]
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for SharedBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn config(budget: usize, init: usize, parallel: Parallel) -> RunConfig {
    RunConfig {
        budget,
        init,
        seed: 7,
        design_seed: 7,
        parallel,
    }
}

/// `(x, worker, start, finish)` of every step, in trace order.
fn schedule(lines: &[Value]) -> Vec<(f64, u64, f64, f64)> {
    lines[1..]
        .iter()
        .map(|s| {
            (
                s["x"][0].as_f64().unwrap(),
                s["worker"].as_u64().unwrap(),
                s["start"].as_f64().unwrap(),
                s["finish"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// The trace of the scripted points A = 0.5, B = 0, C = 0.25, D = 1, E = 0 on Forrester with
/// `batch` and `workers`, and what was pending at each ask. Forrester's box is [0, 1], so
/// `linear:coordinate=0,base=1,slope=4` makes an evaluation at x take 1 + 4x.
fn scripted_schedule(batch: usize, workers: usize) -> (Vec<Value>, Vec<Vec<f64>>) {
    let problem = problems::build("forrester", &[]).unwrap();
    let (mut algorithm, seen) = Scripted::new(&[0.5, 0.0, 0.25, 1.0, 0.0]);
    let parallel = Parallel {
        batch,
        workers,
        runtime: Some("linear:coordinate=0,base=1,slope=4".parse().unwrap()),
    };
    let lines = traced(
        problem.as_ref(),
        &mut algorithm,
        "scripted",
        &config(5, 0, parallel),
    )
    .unwrap();
    let seen = seen.lock().unwrap().clone();
    (lines, seen)
}

#[test]
fn two_workers_follow_the_hand_computed_event_order() {
    // Times 1 + 4x: A = 0.5 takes 3, B = 0 takes 1, C = 0.25 takes 2, D = 1 takes 5, E = 0
    // takes 1. At 0 A starts on worker 1, B on worker 2; B ends at 1 and C starts on worker 2
    // (ends 3); A and C both end at 3: A first (asked first), D starts on worker 1 (ends 8);
    // then C, and E starts on worker 2 (ends 4); E ends at 4, D at 8.
    let (lines, seen) = scripted_schedule(1, 2);
    assert_eq!(
        schedule(&lines),
        [
            (0.0, 2, 0.0, 1.0),
            (0.5, 1, 0.0, 3.0),
            (0.25, 2, 1.0, 3.0),
            (0.0, 2, 3.0, 4.0),
            (1.0, 1, 3.0, 8.0),
        ]
    );
    // Each ask saw the evaluations under way, in the order they were asked.
    assert_eq!(seen, [vec![], vec![0.5], vec![0.5], vec![0.25], vec![1.0]]);
    let iters: Vec<u64> = lines[1..]
        .iter()
        .map(|s| s["iter"].as_u64().unwrap())
        .collect();
    assert_eq!(
        iters,
        [1, 2, 3, 4, 5],
        "steps are numbered in the order told"
    );
    assert_eq!(lines[0]["header"]["workers"], 2);
    assert_eq!(
        lines[0]["header"]["runtime"],
        "linear:coordinate=0,base=1,slope=4"
    );
    assert!(lines[1].get("batch").is_none(), "workers run no batches");
}

#[test]
fn synchronous_batches_wait_for_their_slowest_point() {
    // Batches of 2: {0.5, 0} start at 0 and end at 3 and 1, so the next batch {0.25, 1} starts
    // at 3 (ends 5 and 8), and the last point, alone, at 8. Each batch's later point sees the
    // earlier one pending; a new batch sees nothing pending.
    let (lines, seen) = scripted_schedule(2, 1);
    assert_eq!(
        schedule(&lines),
        [
            (0.5, 1, 0.0, 3.0),
            (0.0, 2, 0.0, 1.0),
            (0.25, 1, 3.0, 5.0),
            (1.0, 2, 3.0, 8.0),
            (0.0, 1, 8.0, 9.0),
        ]
    );
    let batches: Vec<u64> = lines[1..]
        .iter()
        .map(|s| s["batch"].as_u64().unwrap())
        .collect();
    assert_eq!(batches, [1, 1, 2, 2, 3]);
    assert_eq!(seen, [vec![], vec![0.5], vec![], vec![0.25], vec![]]);
}

#[test]
fn the_design_is_asked_in_batches_of_its_own_and_the_same_for_every_batch_size() {
    // A batch holds design points or the algorithm's, never both: with 5 design points and
    // batches of 4, the second batch is the last design point alone.
    let problem = problems::build("branin", &[]).unwrap();
    let params = fast_acquisition();
    let mut designs = Vec::new();
    for batch in [1, 4] {
        let mut algorithm = algorithms::build("gp-ucb", &params).unwrap();
        let parallel = Parallel {
            batch,
            ..Parallel::default()
        };
        let lines = traced(
            problem.as_ref(),
            algorithm.as_mut(),
            "gp-ucb",
            &config(13, 5, parallel),
        )
        .unwrap();
        if batch == 4 {
            let batches: Vec<u64> = lines[1..]
                .iter()
                .map(|s| s["batch"].as_u64().unwrap())
                .collect();
            assert_eq!(batches, [1, 1, 1, 1, 2, 3, 3, 3, 3, 4, 4, 4, 4]);
            let finish: Vec<f64> = lines[1..]
                .iter()
                .map(|s| s["finish"].as_f64().unwrap())
                .collect();
            assert_eq!(finish, [1., 1., 1., 1., 2., 3., 3., 3., 3., 4., 4., 4., 4.]);
        }
        let design: Vec<Value> = lines[1..6].iter().map(|s| s["x"].clone()).collect();
        designs.push(design);
    }
    assert_eq!(designs[0], designs[1]);
}

#[test]
fn a_runtime_model_times_a_sequential_run_without_changing_its_decisions() {
    // The runtimes draw from their own stream: the trace is the untimed one plus start/finish.
    let problem = problems::build("branin", &[]).unwrap();
    let params = fast_acquisition();
    let trace = |runtime| {
        let mut algorithm = algorithms::build("ei", &params).unwrap();
        let parallel = Parallel {
            runtime,
            ..Parallel::default()
        };
        traced(
            problem.as_ref(),
            algorithm.as_mut(),
            "ei",
            &config(8, 4, parallel),
        )
        .unwrap()
    };
    let untimed = without_timings(&trace(None));
    let timed = without_timings(&trace(Some("lognormal:sigma=0.7".parse().unwrap())));
    let mut clock = 0.0;
    for (plain, step) in untimed[1..].iter().zip(&timed[1..]) {
        let mut stripped = step.clone();
        let object = stripped.as_object_mut().unwrap();
        let start = object.remove("start").unwrap().as_f64().unwrap();
        let finish = object.remove("finish").unwrap().as_f64().unwrap();
        assert_eq!(&stripped, plain);
        assert_eq!(
            start, clock,
            "one at a time, each starts when the last ends"
        );
        assert!(finish > start);
        clock = finish;
        assert!(step.get("worker").is_none());
    }
    assert!(untimed[1].get("start").is_none());
}

#[test]
fn parallel_runs_repeat_exactly_at_any_thread_count() {
    let problem = problems::build("branin", &[]).unwrap();
    let params = fast_acquisition();
    let run_with = |threads: usize, algo: &str, parallel: Parallel| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        // The steps, without the header (which names the thread count).
        pool.install(|| {
            let mut algorithm = algorithms::build(algo, &params).unwrap();
            let lines = traced(
                problem.as_ref(),
                algorithm.as_mut(),
                algo,
                &config(14, 4, parallel),
            )
            .unwrap();
            without_timings(&lines[1..])
        })
    };
    let batches = Parallel {
        batch: 4,
        ..Parallel::default()
    };
    let workers = Parallel {
        workers: 3,
        runtime: Some("lognormal:sigma=1".parse().unwrap()),
        ..Parallel::default()
    };
    for (algo, parallel) in [("gp-ucb", batches), ("ei", workers)] {
        let one = run_with(1, algo, parallel);
        assert_eq!(one, run_with(2, algo, parallel), "{algo}");
        assert_eq!(one, run_with(3, algo, parallel), "{algo}");
        let xs: Vec<&Value> = one.iter().map(|s| &s["x"]).collect();
        for (i, x) in xs.iter().enumerate() {
            assert!(!xs[..i].contains(x), "{algo}: step {} repeats {x}", i + 1);
        }
    }
}

#[test]
fn parallel_settings_a_run_cannot_honour_are_refused_naming_the_key() {
    let problem = problems::build("sine-hetero", &[]).unwrap();
    let refused = |algo: &str, parallel: Parallel| {
        let mut algorithm = algorithms::build(algo, &[]).unwrap();
        match traced(
            problem.as_ref(),
            algorithm.as_mut(),
            algo,
            &config(6, 2, parallel),
        ) {
            Err(RunError::Config(message)) => message,
            other => panic!("{algo}: {other:?}"),
        }
    };
    let message = refused(
        "rahbo",
        Parallel {
            batch: 4,
            ..Parallel::default()
        },
    );
    assert!(
        message.contains("batch = 4: algorithm rahbo proposes one point at a time"),
        "{message}"
    );
    let message = refused(
        "rahbo",
        Parallel {
            workers: 2,
            ..Parallel::default()
        },
    );
    assert!(message.starts_with("workers = 2: "), "{message}");
    let message = refused(
        "gp-ucb",
        Parallel {
            batch: 2,
            workers: 2,
            runtime: None,
        },
    );
    assert!(message.contains("give one of them"), "{message}");
    let message = refused(
        "gp-ucb",
        Parallel {
            batch: 0,
            ..Parallel::default()
        },
    );
    assert_eq!(message, "batch: value 0 (must be at least 1)");
    let message = refused(
        "gp-ucb",
        Parallel {
            runtime: Some("linear:coordinate=1".parse().unwrap()),
            ..Parallel::default()
        },
    );
    assert!(message.contains("coordinate 1 does not exist"), "{message}");
}
