//! What the problem implementations share: the [`crate::Problem`] accessors most of them answer
//! from what they store, and the Gaussian noise they add to each repeat.
//!
//! Each problem keeps its own fields (a name, a box, a parameter list, sometimes behind the
//! function it wraps), so the accessors differ only in the expressions they return; a macro
//! writes the four methods from those expressions rather than each problem spelling them out.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// Writes [`crate::Problem`]'s `name`, `domain`, `sense` and `parameters` inside an
/// `impl Problem` block, each returning the expression given for it. Without a `parameters`
/// expression, `parameters` returns a clone of the implementor's `parameters` field (the full
/// list, defaults included, built once with the problem).
///
/// The first argument is the receiver `self`, passed in so that the expressions written at the
/// call site may name it (macro hygiene keeps a `self` the macro wrote apart from theirs):
/// `problem_accessors!(self, name: self.name, domain: &self.domain, sense: Sense::Maximize);`.
macro_rules! problem_accessors {
    (
        $this:ident,
        name: $name:expr,
        domain: $domain:expr,
        sense: $sense:expr,
        parameters: $parameters:expr $(,)?
    ) => {
        fn name(&$this) -> &str {
            $name
        }

        fn domain(&$this) -> &$crate::Domain {
            $domain
        }

        fn sense(&$this) -> $crate::Sense {
            $sense
        }

        fn parameters(&$this) -> Vec<(String, $crate::ParamValue)> {
            $parameters
        }
    };
    ($this:ident, name: $name:expr, domain: $domain:expr, sense: $sense:expr $(,)?) => {
        problem_accessors!(
            $this,
            name: $name,
            domain: $domain,
            sense: $sense,
            parameters: $this.parameters.clone(),
        );
    };
}

/// `repeats` observations `f + noise_std·ε`, one standard normal `ε` drawn from `rng` per
/// repeat, in order; drawn even where `noise_std` is zero, for problems whose random stream
/// always advances by one draw per repeat.
pub(crate) fn gaussian_repeats(
    f: f64,
    noise_std: f64,
    repeats: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<f64> {
    (0..repeats)
        .map(|_| f + noise_std * rng.sample::<f64, _>(StandardNormal))
        .collect()
}

/// As [`gaussian_repeats`] where `noise_std > 0`; otherwise `repeats` copies of `f`, drawing
/// nothing, so that a noise-free problem leaves the random stream it shares with the algorithm
/// untouched.
pub(crate) fn noisy_repeats(
    f: f64,
    noise_std: f64,
    repeats: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<f64> {
    if noise_std > 0.0 {
        gaussian_repeats(f, noise_std, repeats, rng)
    } else {
        vec![f; repeats]
    }
}
