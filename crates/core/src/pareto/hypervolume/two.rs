//! Two objectives: a sweep in order of the first objective.

/// The area `points` (pairs, each strictly better than `reference`) dominate: in order of the
/// first objective, each point that lowers the best second objective so far adds the strip
/// between it and the reference point's first objective. `O(n log n)`.
pub(super) fn volume(points: &mut [f64], reference: &[f64]) -> f64 {
    let (rows, _) = points.as_chunks_mut::<2>();
    rows.sort_unstable_by(|a, b| a[0].total_cmp(&b[0]));
    let mut best = reference[1];
    let mut area = 0.0;
    for [x, y] in rows.iter() {
        if *y < best {
            area += (reference[0] - x) * (best - y);
            best = *y;
        }
    }
    area
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staircase_of_three_points() {
        // Three unit columns of heights 3, 2 and 1 under (4, 4): 6.
        let mut points = [3.0, 1.0, 1.0, 3.0, 2.0, 2.0];
        assert_eq!(volume(&mut points, &[4.0, 4.0]), 6.0);
    }

    #[test]
    fn ties_in_the_first_objective() {
        // (1, 3) is dominated by (1, 2), whichever comes first after sorting.
        let mut points = [1.0, 3.0, 1.0, 2.0, 2.0, 1.0];
        assert_eq!(volume(&mut points, &[3.0, 3.0]), 2.0 + 1.0);
    }
}
