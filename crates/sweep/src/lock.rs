//! An exclusive lock on a sweep directory, so that two sweeps (a requeued batch job, a double
//! submit) never write the same traces.
//!
//! The lock is the operating system's advisory file lock on `<dir>/.bosweep.lock`
//! ([`std::fs::File::try_lock`]), which the kernel releases when its holder exits, however it
//! exits: a crashed sweep never leaves a lock that blocks. The file's text names the holder
//! (PID, host, start time, command) for the message a second sweep prints; text left by a
//! holder that died is reported as a lock taken over. A holder that ends on a signal
//! ([`release_held_locks`], from the command line's Ctrl-C and SIGTERM handler) empties its text
//! as a clean exit does, so that the next sweep does not report it as one that died.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use super::runner::SweepError;

/// The lock file's name inside a sweep directory.
pub const LOCK_FILE: &str = ".bosweep.lock";

/// What to do when another process holds the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhenLocked {
    /// Refuse at once, naming the holder.
    Refuse,
    /// Wait until the holder releases it.
    Wait,
}

/// An exclusive hold on a sweep directory, released when dropped.
#[derive(Debug)]
pub struct SweepLock {
    file: File,
    path: PathBuf,
}

/// The lock files this process holds, for [`release_held_locks`].
static HELD: Mutex<Vec<(PathBuf, File)>> = Mutex::new(Vec::new());

/// Empties the holder text of every lock this process holds: what a process that ends on a
/// signal (and so runs no destructor) calls first, so that its exit reads as a clean release.
/// The operating system drops the locks themselves as the process ends.
pub fn release_held_locks() {
    let held = HELD.lock().unwrap_or_else(|p| p.into_inner());
    for (_, file) in held.iter() {
        let _ = file.set_len(0);
    }
}

impl SweepLock {
    /// Locks `dir` (which must exist) for this process. `on_note` receives what the caller
    /// should tell the user: that it waits for a holder, or that it took over the lock of a
    /// sweep that ended without releasing it.
    pub fn acquire(
        dir: &Path,
        when_locked: WhenLocked,
        mut on_note: impl FnMut(String),
    ) -> Result<Self, SweepError> {
        let path = dir.join(LOCK_FILE);
        let io = |what: &str, source: std::io::Error| SweepError::Io {
            what: format!("{what} the lock"),
            path: path.display().to_string(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| io("open", e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let holder = holder_text(&mut file);
                match when_locked {
                    WhenLocked::Refuse => {
                        return Err(SweepError::Directory(format!(
                            "{} is in use by another sweep ({holder}); wait for it to finish, \
                             queue behind it (wait), or choose another output directory",
                            dir.display()
                        )));
                    }
                    WhenLocked::Wait => {
                        on_note(format!(
                            "waiting for the sweep that holds {} ({holder})",
                            dir.display()
                        ));
                        file.lock().map_err(|e| io("wait for", e))?;
                    }
                }
            }
            Err(TryLockError::Error(e)) => return Err(io("take", e)),
        }
        let previous = holder_text(&mut file);
        if !previous.is_empty() {
            on_note(format!(
                "the previous sweep in {} ({previous}) ended without releasing its lock; taking \
                 it over",
                dir.display()
            ));
        }
        let holder = describe_this_process();
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(holder.as_bytes()))
            .and_then(|()| file.flush())
            .map_err(|e| io("write", e))?;
        let registered = file.try_clone().map_err(|e| io("hold", e))?;
        HELD.lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((path.clone(), registered));
        Ok(Self { file, path })
    }

    /// The lock file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for SweepLock {
    /// Empties the holder text (a clean release) and unlocks.
    fn drop(&mut self) {
        HELD.lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|(path, _)| *path != self.path);
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

/// The holder text of the lock file, one line, or empty.
fn holder_text(file: &mut File) -> String {
    let mut text = String::new();
    let _ = file
        .seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_string(&mut text));
    text.trim().lines().next().unwrap_or("").to_owned()
}

/// `pid 1234 on host node7, since 2026-11-25 00:40:00 UTC, running bosweep sweep a.toml`.
fn describe_this_process() -> String {
    let command: Vec<String> = std::env::args().collect();
    format!(
        "pid {} on host {}, since {}, running {}\n",
        std::process::id(),
        host_name(),
        utc_now(),
        command.join(" ")
    )
}

/// Now as `YYYY-MM-DD hh:mm:ss UTC`.
pub(crate) fn utc_now() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_time(since)
}

/// Seconds since the Unix epoch as `YYYY-MM-DD hh:mm:ss UTC` (the proleptic Gregorian calendar,
/// Howard Hinnant's `civil_from_days`).
fn utc_time(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::utc_time;

    #[test]
    fn utc_times_of_known_instants() {
        assert_eq!(utc_time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_time(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_time(1_795_567_509), "2026-11-25 00:45:09 UTC");
    }
}
