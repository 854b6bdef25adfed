//! The `bosweep` command line.

mod cli;

fn main() {
    quiet_vulkan_device_select();
    kill_evaluations_on_interrupt();
    std::process::exit(cli::main());
}

/// External objectives run in process groups of their own, which the terminal's Ctrl-C and a
/// scheduler's SIGTERM to bosweep do not reach: on either, kill them before exiting with the
/// conventional 128 + signal status (130), so that no evaluation outlives bosweep; and release
/// the sweep locks held, as a clean exit does (no destructor runs on this exit).
fn kill_evaluations_on_interrupt() {
    let installed = ctrlc::set_handler(|| {
        bosweep::process::kill_live_groups();
        bosweep::sweep::release_held_locks();
        std::process::exit(130);
    });
    if let Err(e) = installed {
        eprintln!(
            "warning: cannot handle Ctrl-C ({e}); an interrupted run may leave its external objective running"
        );
    }
}

/// Mesa's implicit Vulkan layer `VK_LAYER_MESA_device_select` connects to the Wayland display to
/// find the desktop's default GPU, and without a login session (SSH, CI, a batch job) libwayland
/// prints `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` two to four times
/// per command, on success too. bosweep ranks the adapters itself, so the layer has nothing to
/// add: it is switched off through its documented `NODEVICE_SELECT=1`, unless the user set that
/// variable.
fn quiet_vulkan_device_select() {
    if std::env::var_os("NODEVICE_SELECT").is_none() {
        // SAFETY: the first statement of `main`, before any thread exists.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
}
