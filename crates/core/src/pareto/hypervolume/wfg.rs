//! Five objectives and more: WFG (While, Bradstreet & Barone 2012, "A fast way of calculating
//! exact hypervolumes", IEEE Transactions on Evolutionary Computation 16(1)).

use super::super::box_volume;

/// The volume `points` (rows of `reference.len() ≥ 5` objectives, each strictly better than
/// `reference`) dominate.
pub(super) fn volume(points: &[f64], reference: &[f64]) -> f64 {
    let mut scratch = vec![Scratch::default(); reference.len()];
    let mut rows = points.to_vec();
    let top = &mut scratch[0];
    keep_non_dominated(&mut rows, reference.len(), top);
    wfg(&mut rows, reference, &mut scratch)
}

/// The volume `p` alone dominates beside `others` (rows of the same width): its box less the
/// hypervolume of its limit set, the points `max(p, q)` for every `q` in `others`.
pub(super) fn exclusive(p: &[f64], others: &[f64], reference: &[f64]) -> f64 {
    let d = reference.len();
    let mut scratch = Scratch::default();
    let mut limit = Vec::with_capacity(others.len());
    limit_set(p, others, d, &mut limit);
    keep_non_dominated(&mut limit, d, &mut scratch);
    box_volume(p, reference) - super::volume(&mut limit, reference)
}

/// The buffers of one level of the recursion, kept between calls to spare allocations.
#[derive(Clone, Default)]
struct Scratch {
    limit: Vec<f64>,
    order: Vec<usize>,
    sums: Vec<f64>,
    sorted: Vec<f64>,
}

/// WFG on `points`: the hypervolume as the sum of each point's exclusive volume with respect to
/// the points after it,
///
/// `HV(p₁, …, pₙ) = Σₖ [ |[pₖ, r]| − HV(limit(pₖ; pₖ₊₁, …, pₙ)) ]`,
///
/// where the limit set of `pₖ` holds `max(pₖ, q)` for every later `q` (the part of `q`'s box
/// inside `pₖ`'s), without its dominated points. With the points sorted by the last objective
/// in decreasing order every limit point shares `pₖ`'s last objective, so the bracket is the
/// height `r_d − pₖ_d` times the same difference one dimension down: the recursion drops an
/// objective at each level and ends in HV4D⁺.
fn wfg(points: &mut [f64], reference: &[f64], scratch: &mut [Scratch]) -> f64 {
    let d = reference.len();
    let n = points.len() / d;
    if n <= 2 || d <= 4 {
        return small(points, reference);
    }
    let (here, deeper) = scratch.split_first_mut().expect("one buffer per objective");
    sort_by_last_decreasing(points, d, here);
    let (below, top) = (&reference[..d - 1], reference[d - 1]);
    let mut total = 0.0;
    for k in 0..n {
        let p = &points[k * d..(k + 1) * d];
        let mut limit = std::mem::take(&mut here.limit);
        limit_set(&p[..d - 1], &points[(k + 1) * d..], d, &mut limit);
        if d - 1 > 4 {
            keep_non_dominated(&mut limit, d - 1, here);
        }
        let exclusive = box_volume(&p[..d - 1], below) - wfg(&mut limit, below, deeper);
        here.limit = limit;
        total += (top - p[d - 1]) * exclusive;
    }
    total
}

/// The hypervolume where WFG's recursion ends: two points by inclusion–exclusion, one point or
/// four objectives or fewer by [`super::volume`].
fn small(points: &mut [f64], reference: &[f64]) -> f64 {
    let d = reference.len();
    if points.len() == 2 * d {
        let (a, b) = points.split_at(d);
        let shared: f64 = (a.iter().zip(b).zip(reference))
            .map(|((x, y), r)| r - x.max(*y))
            .product();
        return box_volume(a, reference) + box_volume(b, reference) - shared;
    }
    super::volume(points, reference)
}

/// Reorders the rows of `points` by their last objective, largest first.
fn sort_by_last_decreasing(points: &mut [f64], d: usize, here: &mut Scratch) {
    let n = points.len() / d;
    here.order.clear();
    here.order.extend(0..n);
    here.order
        .sort_unstable_by(|&a, &b| points[b * d + d - 1].total_cmp(&points[a * d + d - 1]));
    gather(points, d, &here.order, &mut here.sorted);
}

/// Writes into `limit` the limit set of `p` (its first `p.len()` objectives): `max(p, q)` for
/// every row `q` of `others` (width `d`).
fn limit_set(p: &[f64], others: &[f64], d: usize, limit: &mut Vec<f64>) {
    limit.clear();
    for q in others.chunks_exact(d) {
        limit.extend(p.iter().zip(q).map(|(a, b)| a.max(*b)));
    }
}

/// Keeps the rows of `rows` (width `d`) that no other row weakly dominates, one of each group
/// of equal rows. In increasing order of the sum of their objectives a row can only be weakly
/// dominated by one before it, so one pass against the rows kept so far suffices. (Rounding
/// may tie the sums of a row and one it dominates; the dominated row may then stay, which costs
/// time but changes no volume.)
fn keep_non_dominated(rows: &mut Vec<f64>, d: usize, scratch: &mut Scratch) {
    let n = rows.len() / d;
    scratch.sums.clear();
    scratch
        .sums
        .extend(rows.chunks_exact(d).map(|r| r.iter().sum::<f64>()));
    scratch.order.clear();
    scratch.order.extend(0..n);
    let sums = &scratch.sums;
    scratch
        .order
        .sort_unstable_by(|&a, &b| sums[a].total_cmp(&sums[b]));
    scratch.sorted.clear();
    for &i in &scratch.order {
        let row = &rows[i * d..(i + 1) * d];
        let covered =
            (scratch.sorted.chunks_exact(d)).any(|kept| kept.iter().zip(row).all(|(a, b)| a <= b));
        if !covered {
            scratch.sorted.extend_from_slice(row);
        }
    }
    std::mem::swap(rows, &mut scratch.sorted);
}

/// Writes the rows of `points` (width `d`) in `order`, through `buffer`.
fn gather(points: &mut [f64], d: usize, order: &[usize], buffer: &mut Vec<f64>) {
    buffer.clear();
    for &i in order {
        buffer.extend_from_slice(&points[i * d..(i + 1) * d]);
    }
    points.copy_from_slice(buffer);
}
