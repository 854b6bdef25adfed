//! TuRBO-1 (`turbo`): Bayesian optimisation in one trust region with restarts (Eriksson,
//! Pearce, Gardner, Turner and Poloczek, "Scalable Global Optimization via Local Bayesian
//! Optimization", NeurIPS 2019, Section 2), following the reference implementation
//! (uber-research/TuRBO, `turbo/turbo_1.py`) for its defaults and rules.
//!
//! Each step works in the unit cube (the problem's box mapped to `[0, 1]^d`):
//! - a GP (the GP parameters of `gp-ucb`/`ei`, Matérn-5/2 with ARD lengthscales by default,
//!   hyperparameters refitted at every step, outputs standardised) is fitted to the current
//!   restart's data only;
//! - the region is centred at the restart's best point, side `L · w_i` with `w` the
//!   lengthscales over their mean rescaled to geometric mean 1, clipped to the cube;
//! - `n_candidates` scrambled-Sobol candidates in the region, each coordinate kept at the
//!   centre's value unless perturbed (probability `min(20/d, 1)`, at least one per candidate);
//! - the next point is the arg-max of a sample path of the GP's posterior over the candidates
//!   (Thompson sampling), drawn from their joint posterior (`sampler = exact`, the default and
//!   the reference's way) or by pathwise conditioning, random Fourier features updated by
//!   Matheron's rule and maximised by the engine (`sampler = pathwise`, `sampling.rs`), which
//!   needs no `m × m` matrix and so takes up to 2^20 candidates.
//!
//! How it maps to ask/tell and batches:
//! - a batch's asks on the same told data share one fitted model, one candidate set and (exact
//!   sampler) one factorised joint posterior; each ask draws one more independent path and
//!   takes its arg-max among the candidates not chosen yet, so a batch never holds a point
//!   twice;
//! - the batch size `q` is learnt from the asks: one more than the most points ever pending at
//!   an ask (a synchronous batch's last ask has `q − 1` pending; with `w` asynchronous workers
//!   every ask after the first round has `w − 1`). The region's counters update once per `q`
//!   told points it proposed, on the best of them, as the reference updates once per batch
//!   (one at a time, once per tell); the failure tolerance `⌈max(4/q, d/q)⌉` uses that `q`;
//! - success is the reference's rule: the group's best exceeds the restart's best before the
//!   group by more than `10⁻³ |best|`; after `success_tolerance` consecutive successes `L`
//!   doubles (at most `length_max`), after the failure tolerance's consecutive failures it
//!   halves;
//! - when `L` falls below `length_min` the algorithm restarts: its next asks hand out a fresh
//!   Latin-hypercube design of `restart_design` points over the whole box (0: as many as the
//!   run's initial design, the points told before the first ask, or `2d`, the reference's
//!   recommendation, when there were none), and the GP forgets the earlier restarts' data; points asked before a restart and
//!   told after it count only for the best value. The run's own initial design is the first
//!   restart's design;
//! - sample paths are of the latent function (the reference samples the noisy likelihood;
//!   with the small fitted noise the choice is the same in practice); the standard-normal
//!   draws, the Sobol scramble seeds and the perturbation masks come from the run's random
//!   stream, so a run repeats from its seed;
//! - the recommendation is the best observed point of the whole run (feasible first);
//! - on a problem with black-box constraints it is SCBO (Eriksson and Poloczek, AISTATS 2021,
//!   as BoTorch's tutorial runs it): a GP per constraint fitted beside the objective's, the
//!   region centred at the restart's best feasible point (else its least violating one), one
//!   path of every model per Thompson draw, the best objective path among the candidates whose
//!   constraint paths are all ≤ 0 (else the least total violation), and SCBO's success rule,
//!   feasibility first ([`trust_region::constrained_success`]); the exact sampler only. `scbo`
//!   is the same algorithm with the tutorial's defaults;
//! - problems with a finite allowed set are refused up front ([`Requirement::Continuous`]).
//!
//! The folder has every family's shape: `settings.rs` declares what a user sets, `methods.rs`
//! turns it into the algorithm of `algorithm.rs`, and this module lists the registry's entry.
//! The region (`trust_region.rs`), its candidates (`candidates.rs`), the Thompson draws
//! (`thompson.rs`, `pathwise.rs`) and the step that joins them (`draws.rs`) serve BAxUS
//! (`baxus`) too.

mod algorithm;
mod candidates;
mod draws;
mod methods;
mod pathwise;
mod sampling;
mod settings;
#[cfg(test)]
mod tests;
mod thompson;
mod trust_region;

use bosweep_toolkit::AlgorithmEntry;

pub(crate) use candidates::candidate_count;
pub(crate) use draws::{Draws, draws_memory_bytes};
pub use sampling::ThompsonSampler;
pub(crate) use sampling::{MAX_CANDIDATES, Sampling, check_sampling};
pub use settings::{Scbo, Turbo};
pub(crate) use trust_region::{Change, RegionSchedule, TrustRegion, group_bests};

/// The `turbo` and `scbo` registry entries.
pub(super) const ENTRIES: &[AlgorithmEntry] =
    &[AlgorithmEntry::of::<Turbo>(), AlgorithmEntry::of::<Scbo>()];
