//! Every problem `bosweep` can build, by kebab-case name, with its declared parameters.
//!
//! Each family of problems exports its own `ENTRIES` slice; [`FAMILIES`] lists them in listing
//! order, so that adding a paper's problems touches one line here.

use super::entry::{Entry, NOISE_STD, noisy};
use super::functions::{
    Ackley, Branin, Deceptive, Forrester, GoldsteinPrice, Griewank, H1, H1Form, Hartmann3,
    Hartmann6, Hartmann6Embedded, Levy, Michalewicz, Rosenbrock, SixHumpCamel, Sphere,
    StyblinskiTang,
};
use super::lasso::{Bench, LassoBench};
use super::rover::Rover;
use super::{Problem, ProblemError};
use bosweep_core::params::{ChoiceParam, FlagParam, IntegerParam, ParamSpec, ParamValue};
use bosweep_core::registry::Registry;

/// Every family of problems, in listing order.
const FAMILIES: &[&[Entry]] = &[
    TEST_FUNCTIONS,
    super::multi_objective::ENTRIES,
    super::constrained::ENTRIES,
    super::bbob::ENTRIES,
    super::boke::ENTRIES,
    super::rahbo::ENTRIES,
    super::contextual::ENTRIES,
    super::time_varying::ENTRIES,
    super::command::ENTRIES,
    super::callable::ENTRIES,
];

static REGISTRY: Registry<Entry> = Registry::new("problem", FAMILIES);

/// The user's own objectives and their keys that say how to reach one (its box, sense, timeout,
/// evaluations at once) rather than which it is: a report's default label of such a problem
/// leaves them out (`command[cmd=./obj.sh]`, not `command[bounds=0:1, -5:5,cmd=./obj.sh,…]`).
pub const SETUP_KEYS: &[(&str, &[&str])] = &[
    (
        "command",
        &[
            "bounds",
            "sense",
            "timeout",
            "parallel",
            "senses",
            "reference_point",
        ],
    ),
    ("callable", &["bounds", "sense"]),
];

/// All problems, in listing order.
pub fn registry() -> impl Iterator<Item = &'static Entry> + Clone {
    REGISTRY.entries()
}

/// The entry called `name`, or an error listing the known names.
pub fn find(name: &str) -> Result<&'static Entry, ProblemError> {
    REGISTRY.find(name).map_err(ProblemError::config)
}

/// Builds problem `name` with the parameters `given` (see [`Entry::build`]).
pub fn build(name: &str, given: &[(&str, ParamValue)]) -> Result<Box<dyn Problem>, ProblemError> {
    find(name)?.build(given)
}

/// The largest `dim` accepted: far beyond what BO reaches, small enough that a typo cannot ask
/// for gigabytes.
const MAX_DIM: usize = 10_000;

/// The dimension `d` of a scalable function; read as [`DIM`] whatever the entry's default.
const DIM: IntegerParam = IntegerParam::new("dim", 2, 1, MAX_DIM, "dimension d");

/// Rosenbrock's `d ≥ 2`.
const ROSENBROCK_DIM: IntegerParam = IntegerParam::new("dim", 2, 2, MAX_DIM, "dimension d");

/// The dimension `D` Hartmann-6 is embedded in: 100 by default, as SAASBO's and BAxUS's studies.
const EMBEDDING_DIM: IntegerParam = IntegerParam::new(
    "dim",
    100,
    6,
    MAX_DIM,
    "dimension D (the first six are active)",
);

const NOISE_ONLY: &[ParamSpec] = &[NOISE_STD.spec()];
const DIM_AND_NOISE: &[ParamSpec] = &[DIM.spec(), NOISE_STD.spec()];

const H1_FORM: ChoiceParam<H1Form> = ChoiceParam::new(
    "form",
    &["paper", "deap"],
    &[H1Form::Paper, H1Form::Deap],
    "paper",
    "denominator: paper √(r²+1) (as UHE-BO prints it) or deap √(r²)+1 (as DEAP has it)",
);

const LASSO_BENCH: ChoiceParam<Bench> = ChoiceParam::new(
    "bench",
    &["simple", "medium", "high", "hard"],
    &[Bench::Simple, Bench::Medium, Bench::High, Bench::Hard],
    "simple",
    "LassoBench's synthetic benchmark: simple (d = 60, 3 features in the model), medium (100, 5), high (300, 15), hard (1000, 50)",
);

const LASSO_NOISY_DATA: FlagParam = FlagParam::new(
    "noisy_data",
    false,
    "LassoBench's noise=True: data with signal-to-noise ratio 3 instead of 10",
);

const LASSO_SEED: IntegerParam = IntegerParam::new(
    "data_seed",
    42,
    0,
    u32::MAX as usize,
    "the seed LassoBench draws the data and folds from (its default 42)",
);

/// The classic test functions, observed with optional homoscedastic noise.
static TEST_FUNCTIONS: &[Entry] = &[
    Entry {
        name: "forrester",
        description: "Forrester (6x−2)² sin(12x−4) on [0, 1]; min −6.020740 at x = 0.757249",
        parameters: NOISE_ONLY,
        build: |p| Ok(noisy(Forrester::new(), p)),
    },
    Entry {
        name: "branin",
        description: "Branin–Hoo on [−5, 10] × [0, 15]; min 0.397887 at (−π, 12.275), (π, 2.275), (3π, 2.475)",
        parameters: NOISE_ONLY,
        build: |p| Ok(noisy(Branin::new(), p)),
    },
    Entry {
        name: "goldstein-price",
        description: "Goldstein–Price on [−2, 2]²; min 3 at (0, −1)",
        parameters: NOISE_ONLY,
        build: |p| Ok(noisy(GoldsteinPrice::new(), p)),
    },
    Entry {
        name: "six-hump-camel",
        description: "six-hump camel on [−3, 3] × [−2, 2]; min −1.031628 at ±(0.0898, −0.7126)",
        parameters: NOISE_ONLY,
        build: |p| Ok(noisy(SixHumpCamel::new(), p)),
    },
    Entry {
        name: "hartmann3",
        description: "Hartmann-3 on [0, 1]³; min −3.862780 at (0.114589, 0.555649, 0.852547)",
        parameters: NOISE_ONLY,
        build: |p| Ok(noisy(Hartmann3::new(), p)),
    },
    Entry {
        name: "hartmann6",
        description: "Hartmann-6 on [0, 1]⁶; min −3.322368 at (0.201690, 0.150011, 0.476874, 0.275332, 0.311652, 0.657301)",
        parameters: NOISE_ONLY,
        build: |p| Ok(noisy(Hartmann6::new(), p)),
    },
    Entry {
        name: "hartmann6-embedded",
        description: "Hartmann-6 in the first six coordinates of [0, 1]^D, the rest inert; min −3.322368",
        parameters: &[EMBEDDING_DIM.spec(), NOISE_STD.spec()],
        build: |p| Ok(noisy(Hartmann6Embedded::new(EMBEDDING_DIM.of(p))?, p)),
    },
    Entry {
        name: "ackley",
        description: "Ackley (a = 20, b = 0.2, c = 2π) on [−32.768, 32.768]^d; min 0 at the origin",
        parameters: DIM_AND_NOISE,
        build: |p| Ok(noisy(Ackley::new(DIM.of(p))?, p)),
    },
    Entry {
        name: "levy",
        description: "Levy on [−10, 10]^d; min 0 at (1, …, 1)",
        parameters: DIM_AND_NOISE,
        build: |p| Ok(noisy(Levy::new(DIM.of(p))?, p)),
    },
    Entry {
        name: "rosenbrock",
        description: "Rosenbrock on [−5, 10]^d, d ≥ 2; min 0 at (1, …, 1)",
        parameters: &[ROSENBROCK_DIM.spec(), NOISE_STD.spec()],
        build: |p| Ok(noisy(Rosenbrock::new(DIM.of(p))?, p)),
    },
    Entry {
        name: "griewank",
        description: "Griewank Σx²/4000 − Π cos(x_i/√i) + 1 on [−600, 600]^d; min 0 at the origin",
        parameters: DIM_AND_NOISE,
        build: |p| Ok(noisy(Griewank::new(DIM.of(p))?, p)),
    },
    Entry {
        name: "sphere",
        description: "sphere Σx² on [−5.12, 5.12]^d; min 0 at the origin",
        parameters: DIM_AND_NOISE,
        build: |p| Ok(noisy(Sphere::new(DIM.of(p))?, p)),
    },
    Entry {
        name: "styblinski-tang",
        description: "Styblinski–Tang on [−5, 5]^d; min −39.166166·d at x_i = −2.903534",
        parameters: DIM_AND_NOISE,
        build: |p| Ok(noisy(StyblinskiTang::new(DIM.of(p))?, p)),
    },
    Entry {
        name: "michalewicz",
        description: "Michalewicz (m = 10) on [0, π]^d; min −1.801303 (d = 2), −4.687658 (5), −9.660152 (10), computed for any d",
        parameters: DIM_AND_NOISE,
        build: |p| Ok(noisy(Michalewicz::new(DIM.of(p))?, p)),
    },
    Entry {
        name: "deceptive",
        description: "Deceptive (scipy's continuous form, minimised) on [0, 1]^d; min −1 at x_i = i/(d+1), corners −0.64",
        parameters: DIM_AND_NOISE,
        build: |p| Ok(noisy(Deceptive::new(DIM.of(p))?, p)),
    },
    Entry {
        name: "h1",
        description: "h1 of UHE-BO (maximised) on [−100, 100]²; max ≈ 2 at (8.6998, 6.7665)",
        parameters: &[H1_FORM.spec(), NOISE_STD.spec()],
        build: |p| Ok(noisy(H1::new(H1_FORM.of(p)), p)),
    },
    Entry {
        name: "rover",
        description: "60-D rover trajectory of Wang et al. 2018 (large domain, maximised) on [−0.1, 1.1]⁶⁰; max unknown, below 5; the reference's N(0, 1e-4) parameter jitter left out",
        parameters: NOISE_ONLY,
        build: |p| Ok(noisy(Rover::new(), p)),
    },
    Entry {
        name: "lassobench",
        description: "LassoBench's synthetic benchmarks (Šehić et al. 2022): one weighted-Lasso penalty per feature on [−1, 1]^d, d = 60 to 1000; 5-fold CV error over the oracle's, min unknown (near 1 is good); the Lasso solved exactly",
        parameters: &[
            LASSO_BENCH.spec(),
            LASSO_NOISY_DATA.spec(),
            LASSO_SEED.spec(),
            NOISE_STD.spec(),
        ],
        build: |p| {
            let seed = u32::try_from(LASSO_SEED.of(p)).expect("declared below 2^32");
            Ok(noisy(
                LassoBench::new(LASSO_BENCH.of(p), LASSO_NOISY_DATA.of(p), seed)?,
                p,
            ))
        },
    },
];
