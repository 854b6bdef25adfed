//! `logei-pof`: `logei` itself without constraints, a constrained ask/tell run that closes in on
//! the optimum on the boundary, the probability of feasibility alone before any feasible point,
//! and the count of constraint values it is told.

use super::LogEiPof;
use crate::LogEi;
use crate::testing::resolve;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{AlgorithmSettings, Feedback, Optimizer, OptimizerBuilder};

/// A small grid keeps the steps quick; both methods get the same.
fn quick<S: AlgorithmSettings + 'static>(settings: S) -> OptimizerBuilder {
    Optimizer::builder(settings)
        .bounds(&[(0.0, 1.0), (-1.0, 2.0)])
        .seed(5)
        .init(5)
}

/// A value of a point: an objective or a constraint.
type Function = fn(&[f64]) -> f64;

/// Asks and tells `steps` points (the design included), telling `f`'s value and, where
/// `constraint` is given, its one value; returns the points asked.
fn drive(
    builder: OptimizerBuilder,
    steps: usize,
    f: impl Fn(&[f64]) -> f64,
    constraint: Option<Function>,
) -> (Optimizer, Vec<Vec<f64>>) {
    let mut opt = builder.build().unwrap();
    let mut asked = Vec::new();
    for _ in 0..steps {
        let x = opt.ask(1).unwrap().remove(0);
        match constraint {
            Some(c) => opt.tell_constrained(&x, f(&x), &[c(&x)]).unwrap(),
            None => opt.tell(&x, f(&x)).unwrap(),
        }
        asked.push(x);
    }
    (opt, asked)
}

fn branin_like(x: &[f64]) -> f64 {
    (x[1] - 0.8 * x[0] * x[0]).powi(2) + (3.0 * x[0]).sin()
}

/// Without constraints the acquisition is `logei`'s, value for value, on the same model fitted
/// from the same draws: every proposal is `logei`'s, bit for bit.
#[test]
fn without_constraints_it_proposes_what_logei_proposes() {
    let grid = |m: bosweep_toolkit::acquisition::MaximizerSettings| m.grid_size(128);
    let (_, pof) = drive(
        quick(LogEiPof::default().maximizer(grid)),
        9,
        branin_like,
        None,
    );
    let (_, logei) = drive(
        quick(LogEi::default().maximizer(grid)),
        9,
        branin_like,
        None,
    );
    assert_eq!(pof, logei);
}

/// Minimise `f = x₀ + x₁/2` subject to `x₀ + x₁ ≥ 0.9`, whose optimum is the boundary's corner
/// (0, 0.9): the run closes in on it from both sides of the boundary, and recommends the best
/// feasible point told.
#[test]
fn a_constrained_run_closes_in_on_the_boundarys_optimum() {
    let f = |x: &[f64]| x[0] + 0.5 * x[1];
    let c: Function = |x| 0.9 - x[0] - x[1];
    let grid = |m: bosweep_toolkit::acquisition::MaximizerSettings| m.grid_size(128);
    let builder = quick(LogEiPof::default().maximizer(grid)).constraints(1);
    let (opt, asked) = drive(builder, 16, f, Some(c));
    let best = asked
        .iter()
        .filter(|x| c(x) <= 0.0)
        .min_by(|a, b| f(a).total_cmp(&f(b)))
        .unwrap();
    assert_eq!(opt.recommend().unwrap(), best.as_slice());
    assert!(f(best) < 0.45 + 1e-2, "{best:?} of {asked:?}");
}

/// With no feasible point told (`x₁ ≥ 1.9` is a thirtieth of the box), the step maximises the
/// probability of feasibility alone: it proposes a point further into the feasible direction
/// than any told.
#[test]
fn before_a_feasible_point_it_seeks_feasibility() {
    let c = |x: &[f64]| 1.9 - x[1];
    let builder = quick(LogEiPof::default()).constraints(1);
    let mut opt = builder.build().unwrap();
    let mut highest = f64::NEG_INFINITY;
    for _ in 0..5 {
        let x = opt.ask(1).unwrap().remove(0);
        assert!(c(&x) > 0.0, "a design point is feasible: {x:?}");
        highest = highest.max(x[1]);
        opt.tell_constrained(&x, x[0], &[c(&x)]).unwrap();
    }
    let x = opt.ask(1).unwrap().remove(0);
    assert!(x[1] > highest, "{x:?} after a highest x₁ of {highest}");
}

/// A tell with a constraint count other than the problem's is refused, naming both.
#[test]
fn a_wrong_constraint_count_is_refused() {
    let problem = bosweep_problems::build("constrained-gramacy", &[]).unwrap();
    let settings = LogEiPof::default();
    let mut algorithm = settings.clone().into_algorithm(resolve(&settings)).unwrap();
    algorithm.prepare(problem.as_ref()).unwrap();
    assert!(algorithm.handles_constraints());
    let feedback = Feedback {
        x: &[0.5, 0.5],
        y: 1.0,
        repeats: &[1.0],
        context: None,
        t: 1,
        objectives: &[],
        constraints: &[0.1],
    };
    let err = algorithm.tell(&feedback).unwrap_err().to_string();
    assert!(
        err.contains("told 1 constraint values for a problem of 2"),
        "{err}"
    );
}
