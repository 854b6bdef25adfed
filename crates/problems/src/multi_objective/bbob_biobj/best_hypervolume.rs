//! COCO's best-known hypervolumes of the bbob-biobj problems, in COCO's normalised objective
//! space, read from the table `best_hypervolumes.txt` (extracted from COCO's
//! `suite_biobj_best_values_hyp.c` by `benches/peers/bbob_biobj_best_hypervolumes.py`).
//!
//! COCO normalises each objective so that the ideal point is `(0, 0)` and the nadir point
//! `(1, 1)`, and measures the hypervolume from the nadir; the values are the hypervolumes of the
//! best fronts that COCO's collected algorithm data had reached (2016–2017). COCO publishes them
//! for instances 1–10 in its six dimensions only: its instances 11–15 carry the placeholder 1.0
//! (the whole normalised box, which no front reaches), so the table leaves them out.

/// The dimensions of the table's six columns, COCO's dimensions of the suite.
const DIMENSIONS: [usize; 6] = [2, 3, 5, 10, 20, 40];

const TABLE: &str = include_str!("best_hypervolumes.txt");

/// COCO's best-known normalised hypervolume of bbob-biobj function `function`, instance
/// `instance`, dimension `dim`, where COCO publishes one; `None` otherwise.
pub(super) fn best_normalised_hypervolume(
    function: usize,
    instance: usize,
    dim: usize,
) -> Option<f64> {
    let column = DIMENSIONS.iter().position(|&d| d == dim)?;
    TABLE
        .lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| {
            let mut fields = line.split_ascii_whitespace();
            let key = (fields.next()?.parse().ok()?, fields.next()?.parse().ok()?);
            (key == (function, instance)).then(|| fields.nth(column)?.parse().ok())?
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every problem of instances 1–10 in COCO's dimensions has a value in (0, 1), and nothing
    /// else has one.
    #[test]
    fn the_table_covers_instances_1_to_10_in_coco_s_dimensions() {
        for function in 1..=super::super::suite::FUNCTIONS {
            for instance in 1..=10 {
                for dim in DIMENSIONS {
                    let v = best_normalised_hypervolume(function, instance, dim)
                        .unwrap_or_else(|| panic!("f{function} i{instance} d{dim}: no value"));
                    assert!(v > 0.0 && v < 1.0, "f{function} i{instance} d{dim}: {v}");
                }
            }
            assert_eq!(best_normalised_hypervolume(function, 11, 2), None);
            assert_eq!(best_normalised_hypervolume(function, 1, 4), None);
        }
        assert_eq!(best_normalised_hypervolume(56, 1, 2), None);
    }

    /// Spot values copied from COCO's `suite_biobj_best_values_hyp.c`.
    #[test]
    fn values_are_coco_s() {
        assert_eq!(
            best_normalised_hypervolume(1, 1, 2),
            Some(0.833332923849452)
        );
        assert_eq!(
            best_normalised_hypervolume(1, 1, 40),
            Some(0.833314650345829)
        );
        assert_eq!(
            best_normalised_hypervolume(2, 10, 2),
            Some(0.947432430910857)
        );
        assert_eq!(
            best_normalised_hypervolume(55, 10, 40),
            Some(0.320849661893284)
        );
    }
}
