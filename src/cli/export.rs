//! `bosweep export-coco`: a sweep's runs on `bbob`, `bbob-constrained` and `bbob-biobj` as COCO
//! data, for `cocopp`.

use std::path::PathBuf;

use super::CliError;
use super::output::output_dir;
use bosweep::sweep::export::export_coco;

/// Options of `bosweep export-coco`.
#[derive(clap::Args, Debug)]
pub struct ExportCocoArgs {
    /// A sweep directory.
    sweep_dir: PathBuf,
    /// Where to write one folder per algorithm setting (`python -m cocopp DIR/ALG`), those of
    /// bbob-constrained and bbob-biobj runs under DIR/bbob-constrained and DIR/bbob-biobj.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

pub fn export_coco_command(args: &ExportCocoArgs) -> Result<(), CliError> {
    let export = export_coco(&args.sweep_dir, output_dir("--out", &args.out)?)?;
    for suite in &export.suites {
        println!(
            "{} runs on {} written as COCO data:",
            suite.runs, suite.suite
        );
        for folder in &suite.algorithms {
            println!("  {}", folder.display());
        }
    }
    Ok(())
}
