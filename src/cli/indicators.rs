//! `bosweep indicators`: the multi-objective indicators of a set of points, as a run's trace
//! records them (docs/conventions.md, "Several objectives"), for fronts made elsewhere.

use std::path::PathBuf;

use super::{CliError, output, values};
use bosweep::io::{NumericTable, columns};
use bosweep::pareto::{self, Front};
use bosweep::problems::parse_senses;

/// Options of `bosweep indicators`.
#[derive(clap::Args, Debug)]
pub struct IndicatorsArgs {
    /// Points CSV: a header, then one row of objective values per point.
    #[arg(long, value_name = "FILE")]
    points: PathBuf,
    /// The hypervolume's reference point, one value per objective (comma-separated).
    #[arg(long, value_name = "R1,R2,…", allow_hyphen_values = true)]
    reference: Option<String>,
    /// A sample of the true Pareto front (CSV, the same columns), for IGD, IGD+ and the
    /// additive ε-indicator.
    #[arg(long, value_name = "FILE")]
    front: Option<PathBuf>,
    /// Each objective's sense, `min` or `max` (comma-separated; default: every one minimised).
    #[arg(long, value_name = "SENSE,…")]
    senses: Option<String>,
    /// Output CSV file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Writes one row: `points`, `non_dominated`, then `hypervolume` where a reference point is
/// given, and `igd`, `igd_plus` and `epsilon_additive` where a front is.
pub fn run(args: &IndicatorsArgs) -> Result<(), CliError> {
    let table = NumericTable::read(&args.points)?;
    let m = table.cols();
    let signs = senses(args.senses.as_deref(), m, table.file())?;
    let values = minimised(&table, &signs)?;
    let points = Front::new(&values, m)?;
    let kept = pareto::non_dominated(points);
    let mut names = vec!["points", "non_dominated"];
    let mut row = vec![points.len() as f64, kept.len() as f64];
    if let Some(text) = &args.reference {
        let reference = values::parse_list("--reference", text)?;
        if reference.len() != m {
            return Err(CliError::usage(format!(
                "--reference: {} values for the {} of {}",
                reference.len(),
                columns(m),
                table.file()
            )));
        }
        let reference: Vec<f64> = reference.iter().zip(&signs).map(|(r, s)| r * s).collect();
        names.push("hypervolume");
        row.push(pareto::hypervolume(points, &reference)?);
    }
    if let Some(path) = &args.front {
        let front = NumericTable::read(path)?;
        if front.cols() != m {
            return Err(CliError::usage(format!(
                "{} has {} but {} has {}",
                front.file(),
                columns(front.cols()),
                table.file(),
                columns(m)
            )));
        }
        let front_values = minimised(&front, &signs)?;
        let reference_set = Front::new(&front_values, m)?;
        names.extend(["igd", "igd_plus", "epsilon_additive"]);
        row.push(pareto::igd(points, reference_set)?);
        row.push(pareto::igd_plus(points, reference_set)?);
        row.push(pareto::epsilon_additive(points, reference_set)?);
    }
    let cells: Vec<[f64; 1]> = row.iter().map(|v| [*v]).collect();
    let columns: Vec<&[f64]> = cells.iter().map(|c| c.as_slice()).collect();
    output::write_columns(args.out.as_deref(), &names, &columns)
}

/// The sign that turns each objective into minimisation form: 1 for `min`, −1 for `max`.
fn senses(text: Option<&str>, m: usize, file: &str) -> Result<Vec<f64>, CliError> {
    let Some(text) = text else {
        return Ok(vec![1.0; m]);
    };
    let signs: Vec<f64> = parse_senses(text)
        .map_err(|why| CliError::usage(format!("--senses: {why}")))?
        .into_iter()
        .map(|sense| -sense.to_maximization(1.0))
        .collect();
    if signs.len() != m {
        return Err(CliError::usage(format!(
            "--senses: {} senses for the {} of {file}",
            signs.len(),
            columns(m)
        )));
    }
    Ok(signs)
}

/// The rows of `table`, each objective multiplied by its sign.
fn minimised(table: &NumericTable, signs: &[f64]) -> Result<Vec<f64>, CliError> {
    let points = table.points(0..signs.len())?;
    Ok(points
        .iter()
        .flat_map(|row| row.iter().zip(signs).map(|(v, s)| v * s))
        .collect())
}
