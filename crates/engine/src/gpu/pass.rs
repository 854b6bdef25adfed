//! A pass over the device: one or more calls' dispatches submitted in order, every result
//! copied into one read-back buffer, mapped once. A lone call is a pass of one; coalescing
//! ([`super::coalesce`]) runs the calls that queued while the device was busy as one pass.

use super::batch::read_reals;
use super::{GpuEngine, kde, kernel_regression, pairs, posterior};
use crate::{EngineError, KernelRegression, Posterior};

/// A call a pass can run.
pub(super) enum Call<'a> {
    Posterior(posterior::Call<'a>),
    /// Boxed: a GP state held by value is large beside the other calls.
    Pairs(Box<pairs::Call<'a>>),
    Kde(kde::Call<'a>),
    Regression(kernel_regression::Call<'a>),
}

/// What a call returns.
pub(super) enum Output {
    Posteriors(Vec<Posterior>),
    Values(Vec<f64>),
    Regression(KernelRegression),
}

impl Call<'_> {
    /// Refuses what the device cannot take, before the call can join (and spoil) a pass.
    pub fn admit(&self, gpu: &GpuEngine) -> Result<(), EngineError> {
        match self {
            Call::Posterior(c) => c.admit(gpu),
            Call::Pairs(c) => c.admit(gpu),
            Call::Kde(c) => c.admit(gpu),
            Call::Regression(c) => c.admit(gpu),
        }
    }

    /// The call with copies of what it borrows, for a pass another thread runs.
    pub fn into_owned(self) -> Call<'static> {
        match self {
            Call::Posterior(c) => Call::Posterior(c.into_owned()),
            Call::Pairs(c) => Call::Pairs(Box::new(c.into_owned())),
            Call::Kde(c) => Call::Kde(c.into_owned()),
            Call::Regression(c) => Call::Regression(c.into_owned()),
        }
    }

    /// Values the call reads back.
    pub fn reals(&self) -> usize {
        match self {
            Call::Posterior(c) => c.reals(),
            Call::Pairs(c) => c.reals(),
            Call::Kde(c) => c.reals(),
            Call::Regression(c) => c.reals(),
        }
    }

    fn record(
        &self,
        gpu: &GpuEngine,
        slots: &mut super::batch::Slots,
        base: usize,
        readback_bytes: u64,
    ) -> Result<bool, EngineError> {
        match self {
            Call::Posterior(c) => c.record(gpu, slots, base, readback_bytes),
            Call::Pairs(c) => c.record(gpu, slots, base, readback_bytes),
            Call::Kde(c) => c.record(gpu, slots, base, readback_bytes),
            Call::Regression(c) => c.record(gpu, slots, base, readback_bytes),
        }
    }

    fn finish(&self, values: &[f64]) -> Output {
        match self {
            Call::Posterior(c) => Output::Posteriors(c.finish(values)),
            Call::Pairs(c) => Output::Values(c.finish(values)),
            Call::Kde(c) => Output::Values(c.finish(values)),
            Call::Regression(c) => Output::Regression(c.finish(values)),
        }
    }
}

/// Runs `calls` (each admitted) in one pass: every call's dispatches exactly as a pass of its
/// own would record them, one read-back for all, so each call's results are those of the call
/// alone, bit for bit.
pub(super) fn run(gpu: &GpuEngine, calls: &[&Call<'_>]) -> Result<Vec<Output>, EngineError> {
    let mut bases = Vec::with_capacity(calls.len());
    let mut total = 0;
    for call in calls {
        bases.push(total);
        total += call.reals();
    }
    let readback_bytes = (total * gpu.ctx.precision.bytes()) as u64;
    let mut slots = gpu.slots();
    let mut submitted = false;
    for (call, &base) in calls.iter().zip(&bases) {
        submitted |= call.record(gpu, &mut slots, base, readback_bytes)?;
    }
    let values = if submitted {
        read_reals(&gpu.ctx, &mut slots, total)?
    } else {
        vec![0.0; total]
    };
    gpu.count_pass(calls.len(), submitted);
    Ok(calls
        .iter()
        .zip(&bases)
        .map(|(call, &base)| call.finish(&values[base..base + call.reals()]))
        .collect())
}

impl Output {
    pub fn posteriors(self) -> Vec<Posterior> {
        match self {
            Output::Posteriors(p) => p,
            _ => unreachable!("a posterior call answers posteriors"),
        }
    }

    pub fn values(self) -> Vec<f64> {
        match self {
            Output::Values(v) => v,
            _ => unreachable!("a pair or KDE call answers values"),
        }
    }

    pub fn regression(self) -> KernelRegression {
        match self {
            Output::Regression(r) => r,
            _ => unreachable!("a regression call answers a regression"),
        }
    }
}
