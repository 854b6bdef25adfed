//! The registry's entries of the multi-objective test functions, each observed through
//! [`NoisyObjectives`] with an optional `noise_std`.

use super::bbob_biobj::{BBOB_BOUND, COCO_BOUND, FUNCTIONS, LAST_FIXED_INSTANCE};
use super::{
    BbobBiobj, BraninCurrin, CarSideImpact, Dtlz1, Dtlz2, Dtlz3, Dtlz4, Dtlz5, Dtlz7,
    MultiObjectiveFunction, NoisyObjectives, VehicleSafety, Zdt1, Zdt2, Zdt3,
};
use crate::entry::{Entry, NOISE_STD, named};
use crate::{Problem, ProblemError};
use bosweep_core::params::{IntegerParam, ParamSpec, Params, RealParam};

/// ZDT's dimension: 30, as Zitzler, Deb & Thiele (2000) run ZDT1–3.
const ZDT_DIM: IntegerParam = IntegerParam::new("dim", 30, 2, 10_000, "dimension d");

/// The number of objectives m of a DTLZ function.
const DTLZ_OBJECTIVES: IntegerParam =
    IntegerParam::new("objectives", 3, 2, 64, "number of objectives m");

/// A DTLZ function's dimension, defaulting to Deb et al.'s `m − 1 + k` at m = 3: k = 5 for
/// DTLZ1, 10 for DTLZ2–5, 20 for DTLZ7.
const fn dtlz_dim(default: usize) -> IntegerParam {
    IntegerParam::new(
        "dim",
        default,
        2,
        10_000,
        "dimension d (more than objectives − 1)",
    )
}

const DTLZ1_DIM: IntegerParam = dtlz_dim(7);
const DTLZ2_DIM: IntegerParam = dtlz_dim(12);
const DTLZ7_DIM: IntegerParam = dtlz_dim(22);

/// bbob-biobj's function, instance and dimension, named as bbob's are.
const BIOBJ_FUNCTION: IntegerParam = IntegerParam::new(
    "function",
    1,
    1,
    FUNCTIONS,
    "bbob-biobj function number f1–f55 (bosweep list bbob-biobj names its two bbob functions)",
);
const BIOBJ_INSTANCE: IntegerParam = IntegerParam::new(
    "instance",
    1,
    1,
    LAST_FIXED_INSTANCE,
    "COCO instance number (COCO's table pairs two bbob instances for each of 1–15)",
);
const BIOBJ_DIM: IntegerParam = IntegerParam::new(
    "dim",
    2,
    2,
    crate::bbob::MAX_DIM,
    "dimension d (COCO's: 2, 3, 5, 10, 20, 40)",
);
/// bbob-biobj's box half-width: COCO's 100, down to bbob's 5.
const BIOBJ_BOUND: RealParam = RealParam::new(
    "bound",
    COCO_BOUND,
    BBOB_BOUND,
    COCO_BOUND,
    "half-width b of the search box [-b, b]^d: COCO's 100, or down to bbob's 5, which holds both optima",
);

const NOISE_ONLY: &[ParamSpec] = &[NOISE_STD.spec()];
const ZDT: &[ParamSpec] = &[ZDT_DIM.spec(), NOISE_STD.spec()];
const BIOBJ: &[ParamSpec] = &[
    BIOBJ_FUNCTION.spec(),
    BIOBJ_INSTANCE.spec(),
    BIOBJ_DIM.spec(),
    BIOBJ_BOUND.spec(),
    NOISE_STD.spec(),
];
const DTLZ1_PARAMS: &[ParamSpec] = &[DTLZ1_DIM.spec(), DTLZ_OBJECTIVES.spec(), NOISE_STD.spec()];
const DTLZ2_PARAMS: &[ParamSpec] = &[DTLZ2_DIM.spec(), DTLZ_OBJECTIVES.spec(), NOISE_STD.spec()];
const DTLZ7_PARAMS: &[ParamSpec] = &[DTLZ7_DIM.spec(), DTLZ_OBJECTIVES.spec(), NOISE_STD.spec()];

/// `function` observed with the `noise_std` of `params`; a function that cannot be built at
/// these parameters is an error naming the problem.
fn observed(
    function: Result<impl MultiObjectiveFunction, ProblemError>,
    params: &Params,
) -> Result<Box<dyn Problem>, ProblemError> {
    Ok(Box::new(
        NoisyObjectives::new(function.map_err(named(params))?, params).map_err(named(params))?,
    ))
}

/// `(dim, objectives)` of a DTLZ entry, its dimension read as `dim`.
fn dtlz(params: &Params, dim: IntegerParam) -> (usize, usize) {
    (dim.of(params), DTLZ_OBJECTIVES.of(params))
}

/// The multi-objective test functions, in listing order.
pub(crate) const ENTRIES: &[Entry] = &[
    Entry {
        name: "branin-currin",
        description: "BraninCurrin (Belakaria et al. 2019), 2 objectives minimised on [0, 1]²; reference point (18, 6), max hypervolume 59.360119 (BoTorch's)",
        parameters: NOISE_ONLY,
        build: |p| observed(Ok(BraninCurrin::new()), p),
    },
    Entry {
        name: "zdt1",
        description: "ZDT1 (Zitzler, Deb & Thiele 2000), 2 objectives minimised on [0, 1]^d; convex front f2 = 1 − √f1; reference point (11, 11)",
        parameters: ZDT,
        build: |p| observed(Zdt1::new(ZDT_DIM.of(p)), p),
    },
    Entry {
        name: "zdt2",
        description: "ZDT2, 2 objectives minimised on [0, 1]^d; concave front f2 = 1 − f1²; reference point (11, 11)",
        parameters: ZDT,
        build: |p| observed(Zdt2::new(ZDT_DIM.of(p)), p),
    },
    Entry {
        name: "zdt3",
        description: "ZDT3, 2 objectives minimised on [0, 1]^d; disconnected front; reference point (11, 11)",
        parameters: ZDT,
        build: |p| observed(Zdt3::new(ZDT_DIM.of(p)), p),
    },
    Entry {
        name: "dtlz1",
        description: "DTLZ1 (Deb et al. 2002), m objectives minimised on [0, 1]^d; linear front Σf = ½; reference point (400, …)",
        parameters: DTLZ1_PARAMS,
        build: |p| {
            let (d, m) = dtlz(p, DTLZ1_DIM);
            observed(Dtlz1::new(d, m), p)
        },
    },
    Entry {
        name: "dtlz2",
        description: "DTLZ2, m objectives minimised on [0, 1]^d; spherical front Σf² = 1; reference point (1.1, …)",
        parameters: DTLZ2_PARAMS,
        build: |p| {
            let (d, m) = dtlz(p, DTLZ2_DIM);
            observed(Dtlz2::new(d, m), p)
        },
    },
    Entry {
        name: "dtlz3",
        description: "DTLZ3, m objectives minimised on [0, 1]^d; DTLZ2's front behind a rugged g",
        parameters: DTLZ2_PARAMS,
        build: |p| {
            let (d, m) = dtlz(p, DTLZ2_DIM);
            observed(Dtlz3::new(d, m), p)
        },
    },
    Entry {
        name: "dtlz4",
        description: "DTLZ4 (α = 100), m objectives minimised on [0, 1]^d; DTLZ2's front, points biased to its edges",
        parameters: DTLZ2_PARAMS,
        build: |p| {
            let (d, m) = dtlz(p, DTLZ2_DIM);
            observed(Dtlz4::new(d, m), p)
        },
    },
    Entry {
        name: "dtlz5",
        description: "DTLZ5, m objectives minimised on [0, 1]^d; a degenerate curve on DTLZ2's sphere",
        parameters: DTLZ2_PARAMS,
        build: |p| {
            let (d, m) = dtlz(p, DTLZ2_DIM);
            observed(Dtlz5::new(d, m), p)
        },
    },
    Entry {
        name: "dtlz7",
        description: "DTLZ7, m objectives minimised on [0, 1]^d; 2^(m−1) disconnected front regions",
        parameters: DTLZ7_PARAMS,
        build: |p| {
            let (d, m) = dtlz(p, DTLZ7_DIM);
            observed(Dtlz7::new(d, m), p)
        },
    },
    Entry {
        name: "vehicle-safety",
        description: "VehicleSafety (Tanabe & Ishibuchi 2020, RE3-5-4), 3 objectives minimised on [1, 3]⁵; max hypervolume 246.816071 (BoTorch's)",
        parameters: NOISE_ONLY,
        build: |p| observed(Ok(VehicleSafety::new()), p),
    },
    Entry {
        name: "car-side-impact",
        description: "CarSideImpact (Tanabe & Ishibuchi 2020, RE4-7-1), 4 objectives minimised on a 7-D box; max hypervolume 484.726543 (BoTorch's)",
        parameters: NOISE_ONLY,
        build: |p| observed(Ok(CarSideImpact::new()), p),
    },
    Entry {
        name: "bbob-biobj",
        description: "COCO's 55 bi-objective bbob-biobj functions (Brockhoff et al. 2022; pairs of bbob f1, f2, f6, f8, f13, f14, f15, f17, f20, f21) with COCO's instances 1–15 (matches cocoex to 1e-10) on [−100, 100]^d, both minimised; reference point the nadir, max hypervolume COCO's best known (instances 1–10)",
        parameters: BIOBJ,
        build: |p| {
            let (f, i, d) = (BIOBJ_FUNCTION.of(p), BIOBJ_INSTANCE.of(p), BIOBJ_DIM.of(p));
            let problem = BbobBiobj::new(f, i, d).and_then(|b| b.within(BIOBJ_BOUND.of(p)));
            observed(problem, p)
        },
    },
];
