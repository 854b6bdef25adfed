fn main() {
    quiet_vulkan_device_select();
    std::process::exit(bosweep::cli::main());
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
