//! Coalescing concurrent posterior calls (a sweep's runs share one GPU engine): while one
//! thread has the device, the calls other threads make wait in a queue; the next thread to find
//! the device free takes every queued call and runs them in one pass with one read-back
//! ([`posterior::run_each`]). Nothing waits on a timer: a lone caller finds the device free
//! and runs its own call at once, borrowed as it is; only calls that would have waited for the
//! device anyway are copied into the queue. Each call gets exactly its own results, bit for bit
//! those of running it alone, since every GP's dispatches are recorded as a lone call's.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::GpuEngine;
use super::posterior;
use crate::{EngineError, Points, Posterior};
use bosweep_model::GpState;

/// A queued call: its own copy of the GPs and candidates, for whichever thread runs it.
struct Queued {
    id: u64,
    gps: Vec<GpState>,
    candidates: Points,
}

#[derive(Default)]
struct State {
    /// A thread is running calls on the device.
    busy: bool,
    queue: Vec<Queued>,
    /// Results of queued calls run by another thread, until their callers take them.
    done: HashMap<u64, Result<Vec<Posterior>, EngineError>>,
    next_id: u64,
    /// Passes over the device, and the calls they ran ([`Coalescer::passes`]).
    passes: usize,
    calls: usize,
}

/// The queue of posterior calls waiting for the device.
#[derive(Default)]
pub(super) struct Coalescer {
    state: Mutex<State>,
    free: Condvar,
}

impl Coalescer {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// (passes over the device, calls they ran) so far.
    pub(super) fn passes(&self) -> (usize, usize) {
        let state = self.state();
        (state.passes, state.calls)
    }

    /// `gps`' posteriors at `candidates` (inputs already checked), run at once where the device
    /// is free, else queued and run with the other queued calls by the next thread to find it
    /// free.
    pub(super) fn posterior(
        &self,
        gpu: &GpuEngine,
        gps: &[&GpState],
        candidates: &Points,
    ) -> Result<Vec<Posterior>, EngineError> {
        let mut state = self.state();
        if !state.busy && state.queue.is_empty() {
            state.busy = true;
            state.passes += 1;
            state.calls += 1;
            drop(state);
            let pass = Pass {
                coalescer: self,
                ids: Vec::new(),
            };
            let result = posterior::run_each(gpu, &[(gps, candidates)]).map(|mut r| r.remove(0));
            drop(pass);
            return result;
        }
        let id = state.next_id;
        state.next_id += 1;
        state.queue.push(Queued {
            id,
            gps: gps.iter().map(|gp| (*gp).clone()).collect(),
            candidates: candidates.clone(),
        });
        loop {
            if let Some(result) = state.done.remove(&id) {
                return result;
            }
            if !state.busy {
                state = self.run_queue(gpu, state);
                continue;
            }
            state = self.free.wait(state).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Takes every queued call, runs them in one pass with the lock released, stores each
    /// call's result for its caller, and returns the lock.
    fn run_queue<'a>(
        &'a self,
        gpu: &GpuEngine,
        mut state: MutexGuard<'a, State>,
    ) -> MutexGuard<'a, State> {
        let queued = std::mem::take(&mut state.queue);
        state.busy = true;
        state.passes += 1;
        state.calls += queued.len();
        drop(state);
        let pass = Pass {
            coalescer: self,
            ids: queued.iter().map(|q| q.id).collect(),
        };
        let refs: Vec<Vec<&GpState>> = queued.iter().map(|q| q.gps.iter().collect()).collect();
        let calls: Vec<posterior::Call<'_>> = queued
            .iter()
            .zip(&refs)
            .map(|(q, gps)| (gps.as_slice(), &q.candidates))
            .collect();
        let results = posterior::run_each(gpu, &calls);
        {
            let mut state = self.state();
            match results {
                Ok(results) => {
                    for (q, result) in queued.iter().zip(results) {
                        state.done.insert(q.id, Ok(result));
                    }
                }
                // The device failed: every call of the pass gets its error.
                Err(e) => {
                    for q in &queued {
                        state.done.insert(q.id, Err(copy(&e)));
                    }
                }
            }
        }
        drop(pass);
        self.state()
    }
}

/// A pass over the device in progress. Dropping it, at the pass's end or while a panic unwinds
/// through it, frees the device and wakes the waiting callers; a call of the pass left without
/// a result (the pass panicked) gets an error, so that no caller waits forever.
struct Pass<'a> {
    coalescer: &'a Coalescer,
    /// The queued calls it runs.
    ids: Vec<u64>,
}

impl Drop for Pass<'_> {
    fn drop(&mut self) {
        let mut state = self.coalescer.state();
        for id in &self.ids {
            state.done.entry(*id).or_insert_with(|| {
                Err(EngineError::gpu(
                    "the coalesced pass running this call panicked",
                ))
            });
        }
        state.busy = false;
        self.coalescer.free.notify_all();
    }
}

/// The same error again, for each caller of a failed pass.
fn copy(e: &EngineError) -> EngineError {
    match e {
        EngineError::InvalidInput(m) => EngineError::invalid(m.clone()),
        EngineError::Gpu(m) => EngineError::gpu(m.clone()),
    }
}
