//! The rotating garden-sprinkler computer model (Siebertz, van Bebber & Hochkirchen 2010) as the R
//! package CompModels implements it, as used by Zhu et al. (2025, BOKE, §5.2). Every quirk of the
//! package (rev/s friction in the loop, the `w²u²cα²cβ² < 1` early exit, speed one update behind ω)
//! is kept on purpose so that values match the package.

use crate::functions::TestFunction;
use crate::{Domain, Optimum, ProblemError, Sense};

const RHO_WATER: f64 = 1000.0;
const G: f64 = 10.0;
const TOLERANCE: f64 = 0.005;
const MAX_ITERATIONS: usize = 10_000;
const MIN_ANGULAR_SPEED: f64 = 0.0062;
const AIR_VISCOSITY: f64 = 1.82e-5;
const AIR_DENSITY: f64 = 1.25;
const TIME_STEP: f64 = 0.005;

/// The three outputs of one simulation, in the order the package's code returns them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprinklerOutputs {
    /// Water consumption (L/min).
    pub consumption: f64,
    /// Spray range: flight distance of a droplet (m).
    pub range: f64,
    /// Rotation speed (rev/s).
    pub speed: f64,
}

/// Simulates the sprinkler at `x = (α°, β°, A m², d_h m, M_d N·m, M_s N·m·s, p bar, D mm)`.
pub fn simulate(x: &[f64]) -> SprinklerOutputs {
    let [alpha, beta, area, head, m_dyn, m_speed, pressure_bar, pipe] =
        [x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]];
    let r = head / 2.0;
    let pressure = 1e5 * pressure_bar;
    let p_tilde = 1e-4 * pressure;
    let (ca, sa) = (alpha.to_radians().cos(), alpha.to_radians().sin());
    let cb = beta.to_radians().cos();
    let pipe_loss =
        10f64.powf(5.0704 - 0.579413 * pipe + 0.0196432 * pipe * pipe) * 60000f64.powi(2);

    // Stage 1: rotation equilibrium by fixed-point iteration on the angular speed ω.
    let torque0 = 2.0 * RHO_WATER * area * r * 2.0 * G * p_tilde * ca * cb;
    let mut omega = 2.0 * std::f64::consts::PI * 0.1 * (torque0 - m_dyn).abs() / (m_speed + 5e-4);
    let mut friction = m_dyn + omega * m_speed;
    let mut p_friction = (friction * omega).abs() / (area * (2.0 * pressure / RHO_WATER).sqrt());
    let mut p_pipe = 0.1 * pressure;
    let mut flow = (pressure / (pipe_loss + RHO_WATER / (8.0 * area * area))).sqrt();
    let mut w = flow / (2.0 * area);
    let mut w_rel = w;
    let torque = RHO_WATER * flow * r * w * cb * ca;
    let mut speed = 0.0;
    if torque > m_dyn {
        let mut torque = torque;
        let mut residual = torque0;
        let mut iterations = 0;
        while residual.abs() > TOLERANCE * torque.abs() {
            speed = omega / (2.0 * std::f64::consts::PI);
            friction = m_dyn + speed * m_speed;
            let u = omega * r;
            let p_effective = pressure - p_friction - p_pipe;
            if p_effective < 0.01 * pressure {
                w = 0.0;
                break;
            }
            w = (2.0 * p_effective / RHO_WATER).sqrt();
            let geometry = ca * ca * cb * cb;
            if w * w * u * u * geometry < 1.0 {
                break;
            }
            w_rel = u * ca * cb + (w * w + u * u * (geometry - 1.0)).sqrt();
            let v_tangential = w_rel * cb * ca - omega * r;
            torque = 2.0 * RHO_WATER * w_rel * area * r * v_tangential;
            residual = torque - friction;
            let e = (residual / torque).abs().min(0.5 * p_effective / pressure);
            let sign = if residual > 0.0 {
                1.0
            } else if residual < 0.0 {
                -1.0
            } else {
                0.0
            };
            omega *= (1.0 + 0.1 * e).powf(sign);
            flow = 2.0 * w_rel * area;
            p_friction = (friction * omega).abs() / flow;
            p_pipe = pipe_loss * flow * flow;
            iterations += 1;
            if iterations > MAX_ITERATIONS {
                break;
            }
            if omega < MIN_ANGULAR_SPEED {
                speed = 0.0;
                break;
            }
        }
    }

    SprinklerOutputs {
        consumption: 2.0 * w_rel * area * 60000.0,
        range: flight_distance(w, ca, sa, area),
        speed,
    }
}

/// Stage 2: a droplet launched at speed `w` and elevation `(cos, sin) = (ca, sa)` from 1 mm,
/// integrated by explicit Euler with quadratic-plus-viscous drag until it lands.
fn flight_distance(w: f64, ca: f64, sa: f64, area: f64) -> f64 {
    let droplet = (4.0 * area / std::f64::consts::PI).sqrt();
    let nu = AIR_VISCOSITY / AIR_DENSITY;
    let mass = std::f64::consts::PI / 6.0 * droplet.powi(3) * RHO_WATER;
    let (mut x, mut z) = (0.0, 1e-3);
    let (mut vx, mut vz) = (w * ca, w * sa);
    let (mut c, mut s, mut v) = (ca, sa, w);
    while z > 0.0 {
        if v < 0.01 {
            break;
        }
        let reynolds = v * droplet / nu;
        let drag_coefficient = (24.0 / reynolds) * (1.0 + 0.11 * reynolds.sqrt()).powi(2);
        let force = AIR_DENSITY / 2.0
            * v
            * v
            * (std::f64::consts::PI / 4.0)
            * droplet
            * droplet
            * drag_coefficient;
        let a = force / mass;
        x += vx * TIME_STEP;
        z += vz * TIME_STEP;
        vx -= a * c * TIME_STEP;
        vz -= (G + a * s) * TIME_STEP;
        v = (vx * vx + vz * vz).sqrt();
        c = vx / v;
        s = vz / v;
    }
    x
}

/// Which output of [`simulate`] is the objective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprinklerOutput {
    /// The true spray range (the package's second output), maximised: the paper's objective.
    Range,
    /// The rotation speed (the third output, which the package's documentation calls the
    /// range), maximised: in case the paper optimised the mislabelled column.
    Speed,
    /// Water consumption, minimised.
    Consumption,
}

/// The 8-D sprinkler as a test function over the package's input box.
#[derive(Debug)]
pub struct Sprinkler {
    domain: Domain,
    output: SprinklerOutput,
}

impl Sprinkler {
    /// Lower bounds of `(α, β, A, d_h, M_d, M_s, p, D)`, in °, °, m², m, N·m, N·m·s, bar, mm.
    pub const LOWER: [f64; 8] = [0.0, 0.0, 2e-6, 0.1, 0.01, 0.01, 1.0, 5.0];
    /// Upper bounds, in the order and units of [`Sprinkler::LOWER`].
    pub const UPPER: [f64; 8] = [90.0, 90.0, 4e-6, 0.2, 0.02, 0.02, 2.0, 10.0];

    /// The sprinkler over its input box, reporting `output`; its sense follows the output (range
    /// and speed maximised, consumption minimised).
    pub fn new(output: SprinklerOutput) -> Result<Self, ProblemError> {
        Ok(Self {
            domain: Domain::new(Self::LOWER.to_vec(), Self::UPPER.to_vec())?,
            output,
        })
    }
}

impl TestFunction for Sprinkler {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        match self.output {
            SprinklerOutput::Range | SprinklerOutput::Speed => Sense::Maximize,
            SprinklerOutput::Consumption => Sense::Minimize,
        }
    }

    fn value(&self, x: &[f64]) -> f64 {
        let out = simulate(x);
        match self.output {
            SprinklerOutput::Range => out.range,
            SprinklerOutput::Speed => out.speed,
            SprinklerOutput::Consumption => out.consumption,
        }
    }

    /// Numerical estimates: the range optimum is a plateau where the head stalls (β near 90°) and
    /// all pressure drives the jet.
    fn optimum(&self) -> Option<Optimum> {
        let value = match self.output {
            SprinklerOutput::Range => 8.33576,
            SprinklerOutput::Speed => 19.8307,
            SprinklerOutput::Consumption => 3.3073,
        };
        // Estimates known to about 5 digits: the value only, no location that attains it exactly.
        Some(Optimum {
            value,
            locations: Vec::new(),
        })
    }
}
