//! `bosweep devices`: the GPU adapters wgpu can see and the backend each `--device` resolves to,
//! so that a user can tell why a run is (or is not) on the GPU.

use std::io::{self, Write};

use super::{CliError, GlobalArgs, output};
use bosweep::compute::{AdapterSummary, DeviceChoice, list_adapters, select_engine};

pub fn run(global: &GlobalArgs) -> Result<(), CliError> {
    let adapters = list_adapters();
    let auto = select_engine(DeviceChoice::Auto, global.precision, global.route)?.describe();
    output::to_stdout(|w| {
        if adapters.is_empty() {
            writeln!(
                w,
                "No GPU adapters found; --device auto uses the CPU backend."
            )?;
        } else {
            writeln!(
                w,
                "GPU adapters, best first (* = the one --device auto uses):"
            )?;
            for adapter in &adapters {
                write_adapter(w, adapter)?;
            }
        }
        writeln!(w, "--device auto uses: {auto}")
    })?;
    // An explicit `--device` is reported too, after the list; `--device gpu` without a GPU
    // fails here as it would in any other command.
    let name = match global.device {
        DeviceChoice::Auto => return Ok(()),
        DeviceChoice::Cpu => "cpu",
        DeviceChoice::Gpu => "gpu",
    };
    let chosen = global.engine()?.describe();
    output::to_stdout(|w| writeln!(w, "--device {name} uses: {chosen}"))
}

fn write_adapter(w: &mut dyn Write, a: &AdapterSummary) -> io::Result<()> {
    let mark = if a.auto_choice { '*' } else { ' ' };
    writeln!(w, "{mark} {}", a.name)?;
    writeln!(
        w,
        "    backend {}, type {}, f64 shaders {}, driver {}",
        a.backend,
        a.device_type,
        if a.shader_f64 { "yes" } else { "no" },
        if a.driver.is_empty() {
            "unknown"
        } else {
            &a.driver
        }
    )?;
    writeln!(
        w,
        "    max storage binding {}, max buffer {}, workgroup storage {}, {} invocations per \
         workgroup",
        size(a.max_storage_binding),
        size(a.max_buffer),
        size(u64::from(a.max_workgroup_storage)),
        a.max_invocations
    )
}

/// A byte count in the largest binary unit that divides it exactly (`128 MiB`, `48 KiB`), so
/// limits stay exact yet readable.
fn size(bytes: u64) -> String {
    const UNITS: [(&str, u64); 4] = [
        ("TiB", 1 << 40),
        ("GiB", 1 << 30),
        ("MiB", 1 << 20),
        ("KiB", 1 << 10),
    ];
    match UNITS
        .iter()
        .find(|(_, unit)| bytes >= *unit && bytes.is_multiple_of(*unit))
    {
        Some((name, unit)) => format!("{} {name}", bytes / unit),
        None => format!("{bytes} B"),
    }
}
