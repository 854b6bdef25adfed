//! What the functions' unit tests share: a two-objective hypervolume to check published maxima
//! against, and the dominance checks every sampled front must pass.

/// Whether `a` dominates `b` (all objectives minimised): no worse in each, better in one.
pub(crate) fn dominates(a: &[f64], b: &[f64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y) && a.iter().zip(b).any(|(x, y)| x < y)
}

/// Panics naming the pair if one of `points` dominates another.
pub(crate) fn assert_mutually_nondominated(points: &[Vec<f64>]) {
    for (i, a) in points.iter().enumerate() {
        for b in &points[..i] {
            assert!(!dominates(a, b), "{a:?} dominates {b:?}");
            assert!(!dominates(b, a), "{b:?} dominates {a:?}");
        }
    }
}

/// The area that `points` dominate below `reference`, for two minimised objectives: in order of
/// increasing f1, each point that improves on the best f2 so far adds the slab between the two,
/// reaching from its f1 to the reference's.
pub(crate) fn hypervolume_2d(points: &[Vec<f64>], reference: &[f64]) -> f64 {
    let mut inside: Vec<&Vec<f64>> = points
        .iter()
        .filter(|p| p[0] < reference[0] && p[1] < reference[1])
        .collect();
    inside.sort_by(|a, b| a[0].total_cmp(&b[0]));
    let mut best = reference[1];
    let mut area = 0.0;
    for p in inside {
        if p[1] < best {
            area += (reference[0] - p[0]) * (best - p[1]);
            best = p[1];
        }
    }
    area
}

/// Checks `max_hypervolume` against the hypervolume of `front`, a dense sample of the true front
/// of a two-objective function: to `1e-3` relative, and, more tellingly, the reference box less
/// the hypervolume (the area between the front and the axes where the front is positive, which
/// a staircase of samples overestimates by about the spacing) to `1e-3` of its size.
pub(crate) fn assert_hypervolume_converges(front: &[Vec<f64>], reference: &[f64], max: f64) {
    let sampled = hypervolume_2d(front, reference);
    assert!(
        (sampled - max).abs() <= 1e-3 * max,
        "sampled {sampled} vs {max}"
    );
    let box_area = reference[0] * reference[1];
    let (sampled_gap, gap) = (box_area - sampled, box_area - max);
    assert!(
        (sampled_gap - gap).abs() <= 1e-3 * gap.abs(),
        "area below the front: sampled {sampled_gap} vs {gap}"
    );
}

#[test]
fn the_hypervolume_of_two_points_is_their_union() {
    let points = vec![
        vec![1.0, 3.0],
        vec![2.0, 1.0],
        vec![3.0, 3.5],
        vec![5.0, 0.0],
    ];
    // (4−1)(4−3) + (4−2)(3−1) = 3 + 4; (3, 3.5) is dominated, (5, 0) outside the box.
    assert_eq!(hypervolume_2d(&points, &[4.0, 4.0]), 7.0);
}
