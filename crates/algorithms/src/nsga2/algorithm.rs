//! NSGA-II (`nsga2`) behind the ask/tell interface (see the module documentation).

use std::collections::VecDeque;
use std::time::Instant;

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, json};

use super::settings::Nsga2;
use super::survival::{Standing, survivors};
use super::variation::{polynomial_mutation, sbx};
use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::Engine;
use bosweep_problems::Domain;
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepLog,
};

/// A told point: its coordinates (the problem's), its minimised objectives and its total
/// constraint violation (0 where feasible or unconstrained).
#[derive(Clone, Debug)]
struct Member {
    x: Vec<f64>,
    values: Vec<f64>,
    violation: f64,
}

/// NSGA-II behind the ask/tell interface.
#[derive(Debug)]
pub(super) struct Nsga2Algorithm {
    params: Params,
    settings: Nsga2,
    history: History,
    /// The parents of the last generation bred.
    parents: Vec<Member>,
    /// Points told since that generation was bred.
    told: Vec<Member>,
    /// Offspring bred and not yet handed out, in the unit cube.
    offspring: VecDeque<Vec<f64>>,
    generations: usize,
    log: StepLog,
}

impl Nsga2Algorithm {
    pub(super) fn new(params: Params, settings: Nsga2) -> Self {
        Self {
            params,
            settings,
            history: History::default(),
            parents: Vec::new(),
            told: Vec::new(),
            offspring: VecDeque::new(),
            generations: 0,
            log: StepLog::default(),
        }
    }

    /// The next generation: the survivors of the last parents and everything told since become
    /// the parents, and `population` offspring are bred from them as pymoo's mating does it:
    /// tournaments, crossover and mutation, an offspring equal to a parent or to an earlier
    /// offspring dropped and bred again (pymoo's duplicate elimination), for at most
    /// [`MATING_ROUNDS`] rounds.
    fn breed(&mut self, domain: &Domain, rng: &mut ChaCha8Rng) -> Result<(), AlgorithmError> {
        let mut pool = std::mem::take(&mut self.parents);
        pool.append(&mut self.told);
        let m = pool.first().map_or(1, |p| p.values.len());
        let values: Vec<f64> = pool.iter().flat_map(|p| p.values.iter().copied()).collect();
        let violations: Vec<f64> = pool.iter().map(|p| p.violation).collect();
        let kept = survivors(&values, &violations, m, self.settings.population)
            .map_err(|e| AlgorithmError::Config(format!("nsga2: the told values: {e}")))?;
        self.parents = kept.iter().map(|&(i, _)| pool[i].clone()).collect();
        let standing: Vec<Standing> = kept.iter().map(|&(_, s)| s).collect();
        let units: Vec<Vec<f64>> = self.parents.iter().map(|p| domain.to_unit(&p.x)).collect();
        let dim = domain.dim();
        let mutation_prob = match self.settings.mutation_prob {
            0.0 => (1.0 / dim as f64).min(0.5),
            p => p,
        };
        let wanted = self.settings.population;
        let mut bred: Vec<Vec<f64>> = Vec::with_capacity(wanted);
        for round in 1..=MATING_ROUNDS {
            let matings = (wanted - bred.len()).div_ceil(2);
            let winners = self.tournaments(&standing, 2 * matings, rng);
            for pair in winners.chunks(2) {
                let (p1, p2) = (&units[pair[0]], &units[pair[1]]);
                let (mut c1, mut c2) = if rng.random::<f64>() < self.settings.crossover_prob {
                    sbx(p1, p2, self.settings.crossover_eta, rng)
                } else {
                    (p1.clone(), p2.clone())
                };
                for child in [&mut c1, &mut c2] {
                    polynomial_mutation(child, self.settings.mutation_eta, mutation_prob, rng);
                }
                for child in [c1, c2] {
                    let duplicate = units.contains(&child) || bred.contains(&child);
                    // The last round keeps what it breeds, so that a generation is always whole
                    // (pymoo would stop the run instead).
                    if bred.len() < wanted && (!duplicate || round == MATING_ROUNDS) {
                        bred.push(child);
                    }
                }
            }
            if bred.len() == wanted {
                break;
            }
        }
        self.offspring.extend(bred);
        self.generations += 1;
        Ok(())
    }

    /// The winners of `count` binary tournaments among the parents, whose entrants are read off
    /// consecutive random permutations of the parents, so that every parent enters about as
    /// often (pymoo's `TournamentSelection`).
    fn tournaments(&self, standing: &[Standing], count: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
        let n = self.parents.len();
        let mut entrants = Vec::with_capacity(2 * count + n);
        while entrants.len() < 2 * count {
            let mut permutation: Vec<usize> = (0..n).collect();
            permutation.shuffle(rng);
            entrants.extend(permutation);
        }
        entrants
            .chunks(2)
            .take(count)
            .map(|pair| {
                let (a, b) = (pair[0], pair[1]);
                let (va, vb) = (&self.parents[a].values, &self.parents[b].values);
                match standing[a].beats(va, &standing[b], vb) {
                    Some(true) => a,
                    Some(false) => b,
                    None if rng.random::<f64>() < 0.5 => a,
                    None => b,
                }
            })
            .collect()
    }

    /// The trace's `extra`: generations bred and the parents' first-front size.
    fn record(&mut self) {
        let mut extra = Map::new();
        extra.insert("generation".into(), json!(self.generations));
        extra.insert("parents".into(), json!(self.parents.len()));
        self.log.extra = extra;
    }
}

/// Rounds of mating that may replace duplicate offspring in one generation (pymoo's
/// `n_max_iterations`).
const MATING_ROUNDS: usize = 100;

/// Breeding is the acquisition's seconds; nothing is a model's.
impl Algorithm for Nsga2Algorithm {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        let start = Instant::now();
        if self.offspring.is_empty() {
            if self.parents.is_empty() && self.told.is_empty() {
                return Err(AlgorithmError::Config(
                    "nsga2 needs told points to breed from (an initial design of at least one point)"
                        .into(),
                ));
            }
            self.breed(ctx.domain, ctx.rng)?;
        }
        let unit = self.offspring.pop_front().expect("a generation was bred");
        self.record();
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        Ok(Proposal {
            x: ctx.domain.from_unit(&unit),
            repeats: 1,
        })
    }

    /// Offspring are bred a generation at a time: a batch takes the next ones.
    fn accepts_pending(&self) -> bool {
        true
    }

    fn handles_several_objectives(&self) -> bool {
        true
    }

    /// Deb's constraint domination, as pymoo applies it: feasible points survive first, then
    /// the least violating; a tournament with an infeasible entrant goes to the smaller
    /// violation.
    fn handles_constraints(&self) -> bool {
        true
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        self.history
            .push_constrained(feedback.x, feedback.y, feedback.constraints);
        let values = if feedback.objectives.is_empty() {
            vec![-feedback.y]
        } else {
            feedback.objectives.iter().map(|v| -v).collect()
        };
        self.told.push(Member {
            x: feedback.x.to_vec(),
            values,
            violation: bosweep_problems::violation(feedback.constraints),
        });
        Ok(())
    }

    fn recommend(&mut self, _engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        Ok(self.history.best_x())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }

    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        (budget as u64 * (dim as u64 + 8) + self.settings.population as u64 * dim as u64) * 16
    }
}
