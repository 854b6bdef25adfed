//! `bosweep calibrate`: times the CPU backend and the GPU `--device` picks on a ladder of sizes,
//! fits where each family of calls runs faster, prints the fit and stores it where
//! `--route auto` finds it.

use super::output::create_dir;
use super::{CliError, GlobalArgs};
use bosweep::compute::{
    CpuEngine, DeviceChoice, Engine, LADDERS, Route, cache_dir, calibrate, calibration_file,
    select_engine,
};

/// Options of `bosweep calibrate`.
#[derive(clap::Args, Debug)]
pub struct CalibrateArgs {
    /// The sizes timed: tiny (seconds; tests, software GPUs), quick or standard (up to 512
    /// training points at 65 536 candidates)
    #[arg(long, default_value = "quick", value_name = "tiny|quick|standard")]
    ladder: String,
    /// Timed calls per size and backend (their median counts), after one warm-up call
    #[arg(long, default_value_t = 3)]
    repeats: usize,
}

pub fn run(args: &CalibrateArgs, global: &GlobalArgs) -> Result<(), CliError> {
    let ladder = LADDERS
        .iter()
        .find(|l| l.name == args.ladder)
        .ok_or_else(|| {
            CliError::usage(format!(
                "--ladder: unknown ladder '{}' (expected tiny, quick or standard)",
                args.ladder
            ))
        })?;
    let dir = cache_dir().ok_or_else(|| {
        CliError::usage("no cache directory: set BOSWEEP_CACHE_DIR, XDG_CACHE_HOME or HOME")
    })?;
    let gpu: Box<dyn Engine> = match global.device {
        DeviceChoice::Cpu => {
            return Err(CliError::usage(
                "--device cpu: calibration compares the CPU backend with a GPU; use --device auto or gpu",
            ));
        }
        DeviceChoice::Gpu => select_engine(DeviceChoice::Gpu, global.precision, Some(Route::Gpu))?,
        DeviceChoice::Auto => {
            let engine = select_engine(DeviceChoice::Auto, global.precision, Some(Route::Gpu))?;
            if engine.identity() == CpuEngine::new().identity() {
                return Err(CliError::usage(
                    "--device auto found no hardware GPU: nothing to calibrate (--device gpu takes a software one)",
                ));
            }
            engine
        }
    };
    let cpu = CpuEngine::new();
    say!(
        "calibrating {} against {} on ladder {}",
        gpu.describe(),
        cpu.describe(),
        ladder.name
    );
    let calibration = calibrate(&cpu, gpu.as_ref(), ladder, args.repeats)?;
    println!("family,units,cpu_seconds,gpu_seconds");
    for (family, units, c, g) in &calibration.samples {
        println!("{},{units:e},{c:e},{g:e}", family.name());
    }
    for (family, c, g) in &calibration.lines {
        let at = calibration.model.crossover(*family);
        say!(
            "{}: CPU {:.3e} s + {:.3e} s/unit, GPU {:.3e} s + {:.3e} s/unit; GPU from {}",
            family.name(),
            c.fixed,
            c.per_unit,
            g.fixed,
            g.per_unit,
            at.map_or_else(|| "never".into(), |u| format!("{u:.3e} units"))
        );
    }
    create_dir(&dir)?;
    let path = calibration_file(&dir, &gpu.identity(), &cpu.describe());
    let comment = format!(
        "bosweep calibrate --ladder {}: {} against {}",
        ladder.name,
        gpu.identity(),
        cpu.describe()
    );
    std::fs::write(&path, calibration.model.to_text(&comment))
        .map_err(|e| CliError::runtime(format!("cannot write {}: {e}", path.display())))?;
    say!("stored: {}", path.display());
    Ok(())
}
