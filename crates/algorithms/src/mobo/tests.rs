use crate::testing::resolve;
use bosweep_toolkit::optimizer::Method;

use super::QLogNehvi;

/// A problem of one objective is refused before the run, naming the method and the problem.
#[test]
fn one_objective_is_refused() {
    let problem = bosweep_problems::build("branin", &[]).unwrap();
    let mut algorithm = QLogNehvi::default()
        .into_algorithm(resolve(&QLogNehvi::default()))
        .unwrap();
    let err = algorithm.prepare(problem.as_ref()).unwrap_err().to_string();
    assert!(
        err.contains("\"qlognehvi\" is for several objectives")
            && err.contains("\"branin\" has one"),
        "{err}"
    );
}
