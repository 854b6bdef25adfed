//! The registry's entries of the constrained test problems, their objectives observed with
//! optional homoscedastic noise and their constraints noise-free.

use super::bbob_constrained::FUNCTIONS;
use super::{
    BallConstraint, BbobConstrained, Bnh, C2Dtlz2, Constr, Constrained, ConstrainedGramacy,
    ConstrainedHartmann, ConstrainedObjectives, ConstraintFunctions, DiscBrake, KeaneBump, Osy,
    PressureVessel, SpeedReducer, Srn, TensionCompressionSpring, WeldedBeam, WeldedBeamMo,
};
use crate::entry::{Entry, NOISE_STD, named};
use crate::multi_objective::MultiObjectiveFunction;
use crate::{Problem, ProblemError};
use bosweep_core::params::{IntegerParam, ParamSpec, Params};

/// Keane's bump's dimension d ≥ 2: 2 by default, as BoTorch's tutorials run it.
const KEANE_DIM: IntegerParam = IntegerParam::new(
    "dim",
    2,
    2,
    10_000,
    "dimension d (BoTorch states optima for 2, 10, 15, 20, 30, 40, 50)",
);

/// C2-DTLZ2's dimension: 12 as DTLZ2's entry (k = 11 distance variables at m = 2).
const C2DTLZ2_DIM: IntegerParam = IntegerParam::new(
    "dim",
    12,
    2,
    10_000,
    "dimension d (more than objectives − 1)",
);

/// C2-DTLZ2's objectives: 2 by default, the number BoTorch's radius and maximal hypervolume
/// are for.
const C2DTLZ2_OBJECTIVES: IntegerParam = IntegerParam::new(
    "objectives",
    2,
    2,
    64,
    "number of objectives m (maximal hypervolume known for m = 2)",
);

/// bbob-constrained's function, instance and dimension, named and defaulted as bbob's are.
const BBOB_FUNCTION: IntegerParam = IntegerParam::new(
    "function",
    1,
    1,
    FUNCTIONS,
    "bbob-constrained function number f1–f54 (bosweep list bbob-constrained names its objective and constraints)",
);
const BBOB_INSTANCE: IntegerParam = IntegerParam::new(
    "instance",
    1,
    1,
    1_000_000,
    "COCO instance number (COCO's suite has 1–15; seeds x_opt, the objective and the constraints)",
);
const BBOB_DIM: IntegerParam = IntegerParam::new(
    "dim",
    2,
    2,
    crate::bbob::MAX_DIM,
    "dimension d (COCO's: 2, 3, 5, 10, 20, 40)",
);

const NOISE_ONLY: &[ParamSpec] = &[NOISE_STD.spec()];
const BBOB: &[ParamSpec] = &[
    BBOB_FUNCTION.spec(),
    BBOB_INSTANCE.spec(),
    BBOB_DIM.spec(),
    NOISE_STD.spec(),
];
const KEANE: &[ParamSpec] = &[KEANE_DIM.spec(), NOISE_STD.spec()];
const C2DTLZ2: &[ParamSpec] = &[
    C2DTLZ2_DIM.spec(),
    C2DTLZ2_OBJECTIVES.spec(),
    NOISE_STD.spec(),
];

/// `function` observed with the `noise_std` of `params`; a function that cannot be built at
/// these parameters is an error naming the problem.
fn observed(
    function: Result<impl MultiObjectiveFunction + ConstraintFunctions, ProblemError>,
    params: &Params,
) -> Result<Box<dyn Problem>, ProblemError> {
    Ok(Box::new(
        ConstrainedObjectives::new(function.map_err(named(params))?, params)
            .map_err(named(params))?,
    ))
}

/// The constrained test problems, in listing order.
pub(crate) static ENTRIES: &[Entry] = &[
    Entry {
        name: "constrained-gramacy",
        description: "Gramacy et al. (2016): min x1 + x2 on [0, 1]² s.t. 2 constraints; min 0.5998 at (0.1954, 0.4044)",
        parameters: NOISE_ONLY,
        build: |p| Ok(Box::new(Constrained::new(ConstrainedGramacy::new(), p)?)),
    },
    Entry {
        name: "constrained-hartmann",
        description: "Hartmann-6 (Letham et al. 2019, BoTorch's ConstrainedHartmann) on [0, 1]⁶ s.t. ‖x‖₂ − 1 ≤ 0; min −3.32237 (Hartmann-6's, feasible)",
        parameters: NOISE_ONLY,
        build: |p| {
            let f = ConstrainedHartmann::new(BallConstraint::Norm);
            Ok(Box::new(Constrained::new(f, p)?))
        },
    },
    Entry {
        name: "constrained-hartmann-smooth",
        description: "Hartmann-6 (BoTorch's ConstrainedHartmannSmooth) on [0, 1]⁶ s.t. ‖x‖₂² − 1 ≤ 0; min −3.32237 (Hartmann-6's, feasible)",
        parameters: NOISE_ONLY,
        build: |p| {
            let f = ConstrainedHartmann::new(BallConstraint::SquaredNorm);
            Ok(Box::new(Constrained::new(f, p)?))
        },
    },
    Entry {
        name: "pressure-vessel",
        description: "Pressure vessel (Coello Coello 2002), cost minimised on a 4-D box, thicknesses in sixteenths, s.t. 4 constraints; min 6059.7143 (BoTorch: 6059.946341, a value found)",
        parameters: NOISE_ONLY,
        build: |p| Ok(Box::new(Constrained::new(PressureVessel::new(), p)?)),
    },
    Entry {
        name: "welded-beam",
        description: "Welded beam (Coello Coello 2002; BoTorch's WeldedBeamSO, paper's buckling load), cost minimised on a 4-D box s.t. 6 constraints; min 1.724852 (BoTorch: 1.728226, a value found)",
        parameters: NOISE_ONLY,
        build: |p| Ok(Box::new(Constrained::new(WeldedBeam::new(), p)?)),
    },
    Entry {
        name: "tension-compression-string",
        description: "Tension/compression spring (Arora 1989; BoTorch's TensionCompressionString), weight minimised on a 3-D box s.t. 4 constraints; min 0.0126652 (BoTorch: 0.012681, a value found)",
        parameters: NOISE_ONLY,
        build: |p| {
            let f = TensionCompressionSpring::new();
            Ok(Box::new(Constrained::new(f, p)?))
        },
    },
    Entry {
        name: "speed-reducer",
        description: "Speed reducer (Lemonge et al. 2010), weight minimised on a 7-D box s.t. 11 constraints; min 2996.3482",
        parameters: NOISE_ONLY,
        build: |p| Ok(Box::new(Constrained::new(SpeedReducer::new(), p)?)),
    },
    Entry {
        name: "keane-bump",
        description: "Keane's bump (Keane 1994), negated and minimised as BoTorch's on [0, 10]^d s.t. 2 constraints; min −0.36498 at d = 2, BoTorch's approximations (Mishra 2007) at d = 10–50",
        parameters: KEANE,
        build: |p| {
            let f = KeaneBump::new(KEANE_DIM.of(p)).map_err(named(p))?;
            Ok(Box::new(Constrained::new(f, p)?))
        },
    },
    Entry {
        name: "bbob-constrained",
        description: "COCO's 54 bbob-constrained functions (Dufossé, Atamna, Hansen et al.; 9 bbob objectives × 1, 2, 6, 6+⌊d/2⌋, 6+d, 6+3d active linear constraints, T_osz/T_asy-perturbed, and half as many inactive) with COCO's instances (matches cocoex to 1e-10) on [−5, 5]^d; min the objective at COCO's x_opt, on the active constraints' boundary",
        parameters: BBOB,
        build: |p| {
            let (f, i, d) = (BBOB_FUNCTION.of(p), BBOB_INSTANCE.of(p), BBOB_DIM.of(p));
            let function = BbobConstrained::new(f, i, d).map_err(named(p))?;
            Ok(Box::new(Constrained::new(function, p)?))
        },
    },
    Entry {
        name: "bnh",
        description: "BNH (Binh & Korn 1997), 2 objectives minimised on [0, 5] × [0, 3] s.t. 2 constraints; reference point (150, 55), the front's nadir + 10 % (BoTorch's is a placeholder)",
        parameters: NOISE_ONLY,
        build: |p| observed(Ok(Bnh::new()), p),
    },
    Entry {
        name: "srn",
        description: "SRN (Srinivas & Deb 1994; the paper's, BoTorch's slips fixed), 2 objectives minimised on [−20, 20]² s.t. 2 constraints; reference point (250, 25), the front's nadir + 10 % (BoTorch's is a placeholder)",
        parameters: NOISE_ONLY,
        build: |p| observed(Ok(Srn::new()), p),
    },
    Entry {
        name: "constr",
        description: "CONSTR (Deb 2001), 2 objectives minimised on [0.1, 10] × [0, 5] (BoTorch's box) s.t. 2 constraints; reference point (10, 10)",
        parameters: NOISE_ONLY,
        build: |p| observed(Ok(Constr::new()), p),
    },
    Entry {
        name: "osy",
        description: "OSY (Osyczka & Kundu 1995), 2 objectives minimised on a 6-D box s.t. 6 constraints; reference point (−75, 75)",
        parameters: NOISE_ONLY,
        build: |p| observed(Ok(Osy::new()), p),
    },
    Entry {
        name: "c2dtlz2",
        description: "C2-DTLZ2 (Jain & Deb 2014, the paper's caps: r = 0.2, 0.4, 0.5 for m = 2, 3, more; BoTorch's are wider), m objectives minimised on [0, 1]^d s.t. 1 constraint; reference point (1.1, …), max hypervolume 0.382334 at m = 2 (exact)",
        parameters: C2DTLZ2,
        build: |p| {
            let (d, m) = (C2DTLZ2_DIM.of(p), C2DTLZ2_OBJECTIVES.of(p));
            observed(C2Dtlz2::new(d, m), p)
        },
    },
    Entry {
        name: "disc-brake",
        description: "Disc brake (Ray & Liew 2002; RE suite), 2 objectives minimised on a 4-D box s.t. 4 constraints; reference point (5.7771, 3.9651)",
        parameters: NOISE_ONLY,
        build: |p| observed(Ok(DiscBrake::new()), p),
    },
    Entry {
        name: "welded-beam-mo",
        description: "Welded beam (Deb & Sundar 2006, pymoo's; BoTorch's WeldedBeam, constraints' sign fixed), cost and deflection minimised on a 4-D box s.t. 4 constraints; reference point (40, 0.015)",
        parameters: NOISE_ONLY,
        build: |p| observed(Ok(WeldedBeamMo::new()), p),
    },
];
