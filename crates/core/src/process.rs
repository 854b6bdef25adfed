//! Each evaluation of an external objective runs in its own process group, so that everything
//! it started (a `sh -c` wrapper, a Python script, the script's own children) can be killed
//! together: on timeout, when the evaluation ends, and when bosweep is interrupted
//! ([`kill_live_groups`]). Killing only the direct child left its children running with
//! parent PID 1.

use std::io;
use std::process::{Child, Command};
use std::sync::Mutex;

/// The process groups of the evaluations in flight, for [`kill_live_groups`].
static LIVE_GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// A child process leading its own process group; dropping it kills the whole group and reaps
/// the child.
pub struct GroupChild {
    child: Child,
}

impl GroupChild {
    /// Spawns `command` as the leader of a new process group.
    pub fn spawn(command: &mut Command) -> io::Result<Self> {
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(command, 0);
        let mut live = LIVE_GROUPS.lock().unwrap_or_else(|p| p.into_inner());
        let child = command.spawn()?;
        live.push(child.id());
        Ok(Self { child })
    }

    /// The spawned command, for its pipes and its exit status.
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// Sends SIGKILL to every process of the group: the command and whatever it started.
    pub fn kill_group(&mut self) {
        kill_group(self.child.id());
        #[cfg(not(unix))]
        let _ = self.child.kill();
    }
}

impl Drop for GroupChild {
    fn drop(&mut self) {
        self.kill_group();
        let _ = self.child.wait();
        let id = self.child.id();
        LIVE_GROUPS
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|g| *g != id);
    }
}

#[cfg(unix)]
fn kill_group(leader: u32) {
    if let Ok(pgid) = libc::pid_t::try_from(leader) {
        // SAFETY: kill(2) with a negative pid signals the process group `pgid`; it touches no
        // memory of ours. A group that has already exited gives ESRCH, which is fine.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_leader: u32) {}

/// Kills the process groups of every evaluation in flight: what an interrupted bosweep (Ctrl-C,
/// SIGTERM from a batch scheduler) calls before it exits, since the groups, not being its own,
/// do not receive the terminal's signal.
pub fn kill_live_groups() {
    let live = LIVE_GROUPS.lock().unwrap_or_else(|p| p.into_inner());
    for leader in live.iter() {
        kill_group(*leader);
    }
}
