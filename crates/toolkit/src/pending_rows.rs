//! What a batch may still propose from a finite allowed set: every row but the pending ones,
//! so that no method that takes pending points proposes one of them twice.

use crate::algorithm::AlgorithmError;
use bosweep_engine::Points;

/// Rules out the rows of the allowed set `set` equal to a pending point (their `values` become
/// `−∞`), so that the argmax never proposes a pending point again; fails when every row is
/// pending.
pub fn rule_out_pending_rows(
    values: &mut [f64],
    set: &Points,
    pending: &[Vec<f64>],
) -> Result<(), AlgorithmError> {
    let mut free = 0;
    for (value, row) in values.iter_mut().zip(set.iter()) {
        if pending.iter().any(|p| p.as_slice() == row) {
            *value = f64::NEG_INFINITY;
        } else {
            free += 1;
        }
    }
    if free == 0 {
        return Err(AlgorithmError::Config(format!(
            "every one of the {} points of the allowed set is pending (asked and not told): a \
             batch cannot propose a point twice; tell some values, or ask for fewer points",
            set.rows()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_rows_of_an_allowed_set_are_ruled_out() {
        let set = Points::from_rows(&[[0.0], [0.5], [1.0]]).unwrap();
        let mut values = vec![1.0, 2.0, 3.0];
        rule_out_pending_rows(&mut values, &set, &[vec![1.0]]).unwrap();
        assert_eq!(values, [1.0, 2.0, f64::NEG_INFINITY]);
        let all = [vec![0.0], vec![0.5], vec![1.0]];
        let err = rule_out_pending_rows(&mut values, &set, &all).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("every one of the 3 points of the allowed set is pending"),
            "{err}"
        );
    }
}
