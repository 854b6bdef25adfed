//! Coalescing concurrent calls (a sweep's runs share one GPU engine): while one thread has the
//! device, the calls other threads make wait in a queue; the next thread to find the device
//! free takes the queued calls and runs them as one pass with one read-back ([`pass::run`]).
//! A thread that finds the device free and the queue empty runs its own call at once, borrowed
//! as it is; only calls that would have waited for the device anyway are copied into the queue.
//! Each call gets exactly its own results, bit for bit those of running it alone, since every
//! call's dispatches are recorded as a lone call's.
//!
//! The gathering window ([`super::GpuOptions::coalesce_window`], zero by default) lets a thread
//! that finds the device free hold it a little while for other runs' calls, when the previous
//! pass ran several calls: up to that many join, or the window ends. A run alone on the device
//! has passes of one call, so it never waits.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::GpuEngine;
use super::pass::{self, Call, Output};
use crate::EngineError;

/// A queued call, with its own copy of what it reads, for whichever thread runs it.
struct Queued {
    id: u64,
    call: Call<'static>,
}

#[derive(Default)]
struct State {
    /// A thread holds the device (running a pass, or gathering one).
    busy: bool,
    queue: Vec<Queued>,
    /// Results of queued calls run by another thread, until their callers take them.
    done: HashMap<u64, Result<Output, EngineError>>,
    next_id: u64,
    /// Calls the previous pass ran: how many a gathering thread waits for.
    last_pass: usize,
}

/// The queue of calls waiting for the device.
pub(super) struct Coalescer {
    state: Mutex<State>,
    /// The device became free.
    free: Condvar,
    /// A call joined the queue.
    arrived: Condvar,
    window: Duration,
}

impl Coalescer {
    pub(super) fn new(window: Duration) -> Self {
        Self {
            state: Mutex::default(),
            free: Condvar::new(),
            arrived: Condvar::new(),
            window,
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `call`'s result (its input admitted), run at once where the device is free, else queued
    /// and run with the other queued calls by the next thread to find it free.
    pub(super) fn run(&self, gpu: &GpuEngine, call: Call<'_>) -> Result<Output, EngineError> {
        let max_reals = gpu.max_readback_reals();
        let mut state = self.state();
        let id = state.next_id;
        state.next_id += 1;
        if !state.busy && state.queue.is_empty() {
            state.busy = true;
            state = self.gather(state);
            let room = max_reals.saturating_sub(call.reals());
            let queued = take(&mut state.queue, room, false);
            state.last_pass = queued.len() + 1;
            drop(state);
            let mut calls = vec![(id, &call)];
            calls.extend(queued.iter().map(|q| (q.id, &q.call)));
            self.run_pass(gpu, &calls);
            state = self.state();
        } else {
            state.queue.push(Queued {
                id,
                call: call.into_owned(),
            });
            self.arrived.notify_all();
        }
        loop {
            if let Some(result) = state.done.remove(&id) {
                return result;
            }
            if !state.busy {
                state.busy = true;
                let queued = take(&mut state.queue, max_reals, true);
                state.last_pass = queued.len();
                drop(state);
                let calls: Vec<_> = queued.iter().map(|q| (q.id, &q.call)).collect();
                self.run_pass(gpu, &calls);
                state = self.state();
                continue;
            }
            state = self.free.wait(state).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Holds the device (already marked busy) for up to the window while other calls queue,
    /// until as many have as the previous pass ran; at once without a window, or when the
    /// previous pass was a lone call.
    fn gather<'a>(&'a self, mut state: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        if self.window.is_zero() || state.last_pass <= 1 {
            return state;
        }
        let deadline = Instant::now() + self.window;
        while state.queue.len() + 1 < state.last_pass {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            state = self
                .arrived
                .wait_timeout(state, deadline - now)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
        state
    }

    /// Runs `calls` in one pass with the lock released and stores each one's result for its
    /// caller under its id.
    fn run_pass(&self, gpu: &GpuEngine, calls: &[(u64, &Call<'_>)]) {
        let pass = Pass {
            coalescer: self,
            ids: calls.iter().map(|(id, _)| *id).collect(),
        };
        let refs: Vec<&Call<'_>> = calls.iter().map(|(_, call)| *call).collect();
        let results = pass::run(gpu, &refs);
        let mut state = self.state();
        match results {
            Ok(outputs) => {
                for ((id, _), output) in calls.iter().zip(outputs) {
                    state.done.insert(*id, Ok(output));
                }
            }
            // The device failed: every call of the pass gets its error.
            Err(e) => {
                for (id, _) in calls {
                    state.done.insert(*id, Err(copy(&e)));
                }
            }
        }
        drop(state);
        drop(pass);
    }
}

/// The queued calls, oldest first, whose read-backs fit in `room` values (the first one
/// whatever its size where `at_least_one`), leaving the rest for the next pass.
fn take(queue: &mut Vec<Queued>, mut room: usize, at_least_one: bool) -> Vec<Queued> {
    let mut count = 0;
    for q in queue.iter() {
        let reals = q.call.reals();
        if reals > room && (count > 0 || !at_least_one) {
            break;
        }
        room = room.saturating_sub(reals);
        count += 1;
    }
    queue.drain(..count).collect()
}

/// A pass over the device in progress. Dropping it, at the pass's end or while a panic unwinds
/// through it, frees the device and wakes the waiting callers; a call of the pass left without
/// a result (the pass panicked) gets an error, so that no caller waits forever.
struct Pass<'a> {
    coalescer: &'a Coalescer,
    /// The calls it runs.
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
