//! Checks across the module's algorithms: each hypervolume method against inclusion–exclusion
//! and the others, the invariances of the hypervolume, contributions and improvements against
//! differences of hypervolumes, the boxes against the hypervolume and each other, and lattice
//! fronts with exact volumes and every value tied.

use super::*;

/// A small deterministic generator (SplitMix64): uniform values in [0, 1).
struct Uniform(u64);

impl Uniform {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `n` points of `m` objectives near the simplex `Σ x = 1` (some dominated, some beyond
    /// the unit reference point), rounded to `1/grid` so that objectives tie.
    fn points(&mut self, n: usize, m: usize, grid: f64) -> Vec<f64> {
        let mut values = Vec::with_capacity(n * m);
        for _ in 0..n {
            let raw: Vec<f64> = (0..m).map(|_| self.next() + 1e-3).collect();
            let sum: f64 = raw.iter().sum();
            let scale = 0.9 + 0.4 * self.next();
            values.extend(raw.iter().map(|x| (x / sum * scale * grid).round() / grid));
        }
        values
    }
}

fn front(values: &[f64], m: usize) -> Front<'_> {
    Front::new(values, m).unwrap()
}

fn hv(values: &[f64], m: usize, reference: &[f64]) -> f64 {
    hypervolume(front(values, m), reference).unwrap()
}

/// The hypervolume by inclusion–exclusion over every subset of the points inside the
/// reference box: `Σ_S (−1)^{|S|+1} |[max S, r]|`. Exponential, independent of every method.
fn inclusion_exclusion(values: &[f64], m: usize, reference: &[f64]) -> f64 {
    let points: Vec<&[f64]> = values
        .chunks(m)
        .filter(|p| p.iter().zip(reference).all(|(x, r)| x < r))
        .collect();
    let mut total = 0.0;
    for subset in 1u32..1 << points.len() {
        let mut corner = vec![f64::NEG_INFINITY; m];
        for (i, p) in points.iter().enumerate() {
            if subset >> i & 1 == 1 {
                corner.iter_mut().zip(*p).for_each(|(c, x)| *c = c.max(*x));
            }
        }
        let sign = if subset.count_ones() % 2 == 1 {
            1.0
        } else {
            -1.0
        };
        total += sign * box_volume(&corner, reference);
    }
    total
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn the_staircase_of_the_brief() {
    assert_eq!(hv(&[1.0, 3.0, 2.0, 2.0, 3.0, 1.0], 2, &[4.0, 4.0]), 6.0);
}

#[test]
fn three_objectives_by_hand() {
    // One point: its box. The corners of the unit simplex under (2, 2, 2): 3·4 − 3·2 + 1 = 7.
    assert_eq!(hv(&[1.0, 2.0, 3.0], 3, &[2.0, 4.0, 4.0]), 2.0);
    let corners = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    assert_eq!(hv(&corners, 3, &[2.0, 2.0, 2.0]), 7.0);
    // The same in four objectives with a fourth at 0 under 3: 21.
    let lifted: Vec<f64> = corners
        .chunks(3)
        .flat_map(|p| [p[0], p[1], p[2], 0.0])
        .collect();
    assert_eq!(hv(&lifted, 4, &[2.0, 2.0, 2.0, 3.0]), 21.0);
}

#[test]
fn every_method_agrees_with_inclusion_exclusion() {
    let mut rng = Uniform(7);
    for m in 2..=6 {
        for trial in 0..20 {
            let n = 3 + trial % 10;
            // Coarse grids tie many values; a fine one ties few.
            let grid = [4.0, 10.0, 1e6][trial % 3];
            let values = rng.points(n, m, grid);
            let reference = vec![0.95; m];
            let expected = inclusion_exclusion(&values, m, &reference);
            let got = hv(&values, m, &reference);
            assert!(
                close(got, expected),
                "m = {m}, trial {trial}: {got} vs {expected}"
            );
        }
    }
}

#[test]
fn invariant_under_order_copies_and_dominated_points() {
    let mut rng = Uniform(11);
    for m in 2..=5 {
        let values = rng.points(25, m, 1e6);
        let reference = vec![1.0; m];
        let base = hv(&values, m, &reference);
        // Reversed order.
        let reversed: Vec<f64> = values.chunks(m).rev().flatten().copied().collect();
        assert!(close(hv(&reversed, m, &reference), base), "m = {m}: order");
        // Every point twice, and points each dominated by one of them.
        let mut more = values.clone();
        more.extend_from_slice(&values);
        more.extend(values.chunks(m).flat_map(|p| p.iter().map(|x| x + 0.05)));
        assert!(close(hv(&more, m, &reference), base), "m = {m}: copies");
        // Only the non-dominated points.
        let f = front(&values, m);
        let kept: Vec<f64> = non_dominated(f)
            .iter()
            .flat_map(|&i| f.point(i))
            .copied()
            .collect();
        assert!(
            close(hv(&kept, m, &reference), base),
            "m = {m}: non-dominated"
        );
    }
}

#[test]
fn each_method_integrated_along_one_more_objective_agrees_with_the_next() {
    // With a last objective t, the hypervolume is ∫ HV(points with tᵢ ≤ t) dt: the
    // three-objective sweep summed this way must give HV4D⁺'s value, HV4D⁺'s WFG's in five
    // objectives, and WFG's in five its own in six, where each computes otherwise.
    let mut rng = Uniform(3);
    for m in 4..=6 {
        for trial in 0..6 {
            let n = if m == 6 { 20 } else { 40 };
            let values = rng.points(n, m, if trial % 2 == 0 { 8.0 } else { 1e6 });
            let reference: Vec<f64> = (0..m).map(|j| 1.0 + 0.1 * j as f64).collect();
            let top = reference[m - 1];
            let mut rows: Vec<&[f64]> = values.chunks(m).filter(|p| p[m - 1] < top).collect();
            rows.sort_by(|a, b| a[m - 1].total_cmp(&b[m - 1]));
            let mut swept = 0.0;
            for (k, p) in rows.iter().enumerate() {
                let next = rows.get(k + 1).map_or(top, |q| q[m - 1]);
                let below: Vec<f64> = rows[..=k]
                    .iter()
                    .flat_map(|q| &q[..m - 1])
                    .copied()
                    .collect();
                swept += hv(&below, m - 1, &reference[..m - 1]) * (next - p[m - 1]);
            }
            let direct = hv(&values, m, &reference);
            assert!(
                close(direct, swept),
                "m = {m}, trial {trial}: {direct} vs {swept}"
            );
        }
    }
}

#[test]
fn contributions_are_differences_of_hypervolumes() {
    let mut rng = Uniform(5);
    for m in 1..=5 {
        for grid in [5.0, 1e6] {
            let mut values = rng.points(30, m, grid);
            // A copy of the first point: both copies contribute 0.
            values.extend_from_within(..m);
            let reference = vec![1.0; m];
            let f = front(&values, m);
            let contributions = hypervolume_contributions(f, &reference).unwrap();
            let non_dominated = non_dominated(f);
            for (i, c) in contributions.iter().enumerate() {
                let others: Vec<f64> = non_dominated
                    .iter()
                    .filter(|&&j| j != i)
                    .flat_map(|&j| f.point(j))
                    .copied()
                    .collect();
                let expected = if non_dominated.contains(&i) {
                    hv(&values, m, &reference) - hv(&others, m, &reference)
                } else {
                    0.0
                };
                assert!(
                    (c - expected).abs() < 1e-12,
                    "m = {m}, grid {grid}, point {i}: {c} vs {expected}"
                );
            }
            assert_eq!(contributions[0], 0.0);
        }
    }
}

/// The volume two boxes share.
fn shared(a: (&[f64], &[f64]), b: (&[f64], &[f64])) -> f64 {
    (0..a.0.len())
        .map(|k| (a.1[k].min(b.1[k]) - a.0[k].max(b.0[k])).max(0.0))
        .product()
}

#[test]
fn the_boxes_tile_the_space_below_the_reference_point() {
    let mut rng = Uniform(13);
    for m in 1..=5 {
        for grid in [4.0, 1e6] {
            let n = if m <= 3 { 40 } else { 15 };
            let values = rng.points(n, m, grid);
            let reference = vec![1.0; m];
            let p = partition(front(&values, m), &reference).unwrap();
            let volume = hv(&values, m, &reference);
            assert!(close(p.dominated.volume(), volume), "m = {m}, grid {grid}");
            // Clipped at a corner below every point, the cells fill the rest of the box.
            let corner = vec![-0.5; m];
            let clipped: Vec<Vec<f64>> = p
                .non_dominated
                .iter()
                .map(|(l, _)| l.iter().zip(&corner).map(|(a, b)| a.max(*b)).collect())
                .collect();
            let cells: Vec<(&[f64], &[f64])> = clipped
                .iter()
                .map(|l| l.as_slice())
                .zip(p.non_dominated.iter().map(|c| c.1))
                .collect();
            let free: f64 = cells.iter().map(|c| shared(*c, *c)).sum();
            let total = box_volume(&corner, &reference);
            assert!(
                close(free + volume, total),
                "m = {m}, grid {grid}: {free} + {volume}"
            );
            // No two boxes overlap.
            let all: Vec<(&[f64], &[f64])> = p.dominated.iter().chain(cells).collect();
            for (i, a) in all.iter().enumerate() {
                for b in &all[..i] {
                    assert!(shared(*a, *b) < 1e-15, "m = {m}, grid {grid}: overlap");
                }
            }
            assert!(
                p.dominated
                    .iter()
                    .all(|(_, u)| u.iter().zip(&reference).all(|(x, r)| x <= r))
            );
        }
    }
}

#[test]
fn improvements_over_the_cells_are_differences_of_hypervolumes() {
    let mut rng = Uniform(17);
    for m in 2..=4 {
        for grid in [4.0, 1e6] {
            let values = rng.points(25, m, grid);
            let reference = vec![1.0; m];
            let cells = partition(front(&values, m), &reference)
                .unwrap()
                .non_dominated;
            let before = hv(&values, m, &reference);
            for y in rng.points(20, m, grid).chunks(m) {
                let mut with = values.clone();
                with.extend_from_slice(y);
                let expected = hv(&with, m, &reference) - before;
                let got = hypervolume_improvement(&cells, y).unwrap();
                assert!(
                    (got - expected).abs() < 1e-12,
                    "m = {m}: {got} vs {expected}"
                );
            }
        }
    }
}

/// The lattice `{i/k : Σ i = k}` in `m` objectives. Below a reference point `r ≥ 1`, a point
/// `x ≥ 0` is dominated unless `Σ ⌊k xⱼ⌋ < k`, so the non-dominated region in `[0, r]` is
/// `C(k + m − 1, m)` cubes of side `1/k`.
fn lattice(k: usize, m: usize) -> (Vec<f64>, f64) {
    fn compositions(k: usize, m: usize, prefix: &mut Vec<usize>, out: &mut Vec<f64>, n: usize) {
        if prefix.len() == m - 1 {
            let last = k - prefix.iter().sum::<usize>();
            out.extend(prefix.iter().chain([&last]).map(|&i| i as f64 / n as f64));
            return;
        }
        for i in 0..=k - prefix.iter().sum::<usize>() {
            prefix.push(i);
            compositions(k, m, prefix, out, n);
            prefix.pop();
        }
    }
    let mut values = Vec::new();
    compositions(k, m, &mut Vec::new(), &mut values, k);
    let cubes = (1..=m)
        .map(|j| (k + j - 1) as f64 / j as f64)
        .product::<f64>();
    (values, cubes / (k as f64).powi(m as i32))
}

#[test]
fn lattices_have_their_exact_hypervolume() {
    for (k, m) in [(9999, 2), (139, 3), (12, 4), (6, 5), (4, 6)] {
        let (values, free) = lattice(k, m);
        let reference: Vec<f64> = (0..m).map(|j| 1.0 + 0.1 * j as f64).collect();
        let expected = reference.iter().product::<f64>() - free;
        let got = hv(&values, m, &reference);
        assert!(
            close(got, expected),
            "k = {k}, m = {m}: {got} vs {expected}"
        );
    }
}

#[test]
fn lattice_boxes_and_contributions() {
    for (k, m) in [(8, 3), (5, 4)] {
        let (values, _) = lattice(k, m);
        let reference = vec![1.25; m];
        let f = front(&values, m);
        let volume = hv(&values, m, &reference);
        let p = partition(f, &reference).unwrap();
        assert!(close(p.dominated.volume(), volume), "k = {k}, m = {m}");
        // Every lattice point is non-dominated; a corner point (k, 0, …)/k alone dominates
        // the slab beyond the next lattice points.
        let contributions = hypervolume_contributions(f, &reference).unwrap();
        for (i, c) in contributions.iter().enumerate() {
            let others: Vec<f64> = (0..f.len())
                .filter(|&j| j != i)
                .flat_map(|j| f.point(j))
                .copied()
                .collect();
            let expected = volume - hv(&others, m, &reference);
            assert!((c - expected).abs() < 1e-12, "k = {k}, m = {m}, point {i}");
        }
    }
}

#[test]
fn bad_input_names_row_objective_and_value() {
    assert_eq!(Front::new(&[1.0], 0), Err(ParetoError::NoObjectives));
    assert_eq!(
        Front::new(&[1.0, 2.0, 3.0], 2).unwrap_err().to_string(),
        "3 values do not split into rows of 2 objectives"
    );
    assert_eq!(
        Front::new(&[1.0, 2.0, 3.0, f64::NEG_INFINITY], 2)
            .unwrap_err()
            .to_string(),
        "row 1, objective 1: -inf is not finite"
    );
    let f = front(&[1.0, 2.0], 2);
    assert!(hypervolume_contributions(f, &[1.0, 2.0, 3.0]).is_err());
    assert!(partition(f, &[f64::NAN, 2.0]).is_err());
    assert_eq!(
        crate::data::Failure::blame(&ParetoError::NoObjectives),
        crate::data::Blame::Input
    );
}

/// Fronts by peeling: front k holds the points no point outside fronts 0..k dominates.
fn peeled_ranks(values: &[f64], m: usize) -> Vec<usize> {
    let points: Vec<&[f64]> = values.chunks(m).collect();
    let mut rank = vec![usize::MAX; points.len()];
    for k in 0.. {
        let left: Vec<usize> = (0..points.len())
            .filter(|&i| rank[i] == usize::MAX)
            .collect();
        if left.is_empty() {
            break;
        }
        for &i in &left {
            if !left.iter().any(|&j| dominates(points[j], points[i])) {
                rank[i] = k;
            }
        }
    }
    rank
}

#[test]
fn ranks_agree_with_peeling() {
    let mut rng = Uniform(19);
    for m in 1..=5 {
        for grid in [3.0, 6.0, 1e6] {
            let mut values = rng.points(60, m, grid);
            values.extend_from_within(..5 * m);
            let f = front(&values, m);
            let ranks = pareto_ranks(f);
            assert_eq!(ranks, peeled_ranks(&values, m), "m = {m}, grid {grid}");
            let first: Vec<usize> = (0..f.len()).filter(|&i| ranks[i] == 0).collect();
            assert_eq!(non_dominated(f), first, "m = {m}, grid {grid}");
        }
    }
}
