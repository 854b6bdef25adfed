//! Comparing algorithms over paired runs and over problems: the Wilcoxon signed-rank test,
//! Holm's step-down correction, average ranks and the Nemenyi critical difference (Demšar,
//! "Statistical comparisons of classifiers over multiple data sets", JMLR 2006).

use super::normal::normal_cdf;

/// The outcome of a two-sided Wilcoxon signed-rank test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignedRank {
    /// Non-zero differences (zeros are dropped, Wilcoxon's convention).
    pub n: usize,
    /// The sum of the ranks of |d| over the positive differences (ties get average ranks).
    pub w_plus: f64,
    /// `min(W+, W−)`, `W+ + W−` being the sum of every rank (`n(n + 1)/2` for one stratum).
    pub statistic: f64,
    /// Two-sided. For n ≤ [`EXACT_UP_TO`], exact: the distribution of W+ over the 2ⁿ sign
    /// assignments of the observed ranks (ties keep their average ranks; without ties this is
    /// the classical null distribution), which is SciPy's `wilcoxon` where SciPy is exact
    /// (no ties, or ties with n ≤ 13, its permutation test). Above, the normal approximation
    /// with the tie-corrected variance and no continuity correction (SciPy's default).
    pub p_value: f64,
}

/// The largest number of non-zero differences tested with the exact null distribution.
pub const EXACT_UP_TO: usize = 50;

/// The signed-rank test of `differences` (paired `a − b`); `None` when every difference is
/// zero or one is not finite.
pub fn signed_rank(differences: &[f64]) -> Option<SignedRank> {
    stratified_signed_rank(&[differences])
}

/// The stratified signed-rank test (the sum of the strata's Wilcoxon statistics): each
/// stratum's non-zero differences are ranked by magnitude within the stratum (ties share their
/// average rank), and `W+` sums the ranks of the positive ones over every stratum. Under the
/// null hypothesis every difference is as likely positive as negative, independently, so `W+`
/// is the sum of a random subset of all the ranks: exact for up to [`EXACT_UP_TO`] non-zero
/// differences in all, else normal with the strata's tie-corrected variances added. Ranking
/// within strata makes strata of different scales (problems whose regrets differ by orders of
/// magnitude) weigh by their number of pairs alone. With one stratum it is [`signed_rank`].
/// `None` when every difference is zero or one is not finite.
pub fn stratified_signed_rank<S: AsRef<[f64]>>(strata: &[S]) -> Option<SignedRank> {
    let mut ranks = Vec::new();
    let mut w_plus = 0.0;
    let mut variance = 0.0;
    for stratum in strata {
        let differences = stratum.as_ref();
        if differences.iter().any(|d| !d.is_finite()) {
            return None;
        }
        let nonzero: Vec<f64> = differences.iter().copied().filter(|d| *d != 0.0).collect();
        let magnitudes: Vec<f64> = nonzero.iter().map(|d| d.abs()).collect();
        let stratum_ranks = average_ranks_of(&magnitudes);
        w_plus += nonzero
            .iter()
            .zip(&stratum_ranks)
            .filter(|(d, _)| **d > 0.0)
            .map(|(_, r)| r)
            .sum::<f64>();
        let ties: f64 = tie_groups(&magnitudes)
            .map(|t| {
                let t = t as f64;
                t * t * t - t
            })
            .sum();
        let n = nonzero.len() as f64;
        variance += n * (n + 1.0) * (2.0 * n + 1.0) / 24.0 - ties / 48.0;
        ranks.extend(stratum_ranks);
    }
    let n = ranks.len();
    if n == 0 {
        return None;
    }
    // An empty sum is −0 in Rust; the statistic is a count of ranks.
    w_plus += 0.0;
    let total: f64 = ranks.iter().sum();
    let statistic = w_plus.min(total - w_plus);
    let p_value = if n <= EXACT_UP_TO {
        exact_two_sided(&ranks, w_plus)
    } else {
        let z = (statistic - total / 2.0) / variance.sqrt();
        (2.0 * normal_cdf(-z.abs())).min(1.0)
    };
    Some(SignedRank {
        n,
        w_plus,
        statistic,
        p_value,
    })
}

/// `2 min(P(T ≤ w), P(T ≥ w))`, capped at 1, for `T` the sum of a random subset of `ranks`
/// (each in with probability ½). Ranks are multiples of ½, so the sums are counted in halves.
fn exact_two_sided(ranks: &[f64], w: f64) -> f64 {
    let halves: Vec<usize> = ranks.iter().map(|r| (2.0 * r).round() as usize).collect();
    let top: usize = halves.iter().sum();
    // Counts up to 2⁵⁰ stay exact in f64.
    let mut counts = vec![0f64; top + 1];
    counts[0] = 1.0;
    let mut reach = 0;
    for &h in &halves {
        reach += h;
        for sum in (h..=reach).rev() {
            counts[sum] += counts[sum - h];
        }
    }
    let w = (2.0 * w).round() as usize;
    let total = 2f64.powi(ranks.len() as i32);
    let below: f64 = counts[..=w].iter().sum();
    let above: f64 = counts[w..].iter().sum();
    (2.0 * below.min(above) / total).min(1.0)
}

/// The sizes of the groups of equal values.
fn tie_groups(values: &[f64]) -> impl Iterator<Item = usize> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mut groups = Vec::new();
    let mut start = 0;
    for i in 1..=sorted.len() {
        if i == sorted.len() || sorted[i] != sorted[start] {
            groups.push(i - start);
            start = i;
        }
    }
    groups.into_iter()
}

/// Ranks `1..=n` of `values`, smallest first, ties sharing the average of their ranks.
pub fn average_ranks_of(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    for i in 1..=order.len() {
        if i == order.len() || values[order[i]] != values[order[start]] {
            // Positions start..i (0-based) hold equal values: ranks start+1 ..= i.
            let shared = (start + 1 + i) as f64 / 2.0;
            for &j in &order[start..i] {
                ranks[j] = shared;
            }
            start = i;
        }
    }
    ranks
}

/// Holm's step-down adjustment of `p_values` (one family of tests), in their order: the i-th
/// smallest p is multiplied by `m − i + 1`, then made non-decreasing and capped at 1.
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (i, &j) in order.iter().enumerate() {
        running = running.max(((m - i) as f64 * p_values[j]).min(1.0));
        adjusted[j] = running;
    }
    adjusted
}

/// The fewest pairs whose two-sided exact signed-rank test can reach p < `alpha`: with n pairs
/// the smallest p is 2/2ⁿ (every difference of one sign), so the first n with 2¹⁻ⁿ < α (6 at
/// α = 0.05). With fewer, no difference can be significant, whatever the data.
pub fn signed_rank_pairs_needed(alpha: f64) -> usize {
    (1..=64)
        .find(|&n| 2f64.powi(1 - n as i32) < alpha)
        .unwrap_or(64)
}

/// Average ranks of `k` algorithms over problems: `scores[p][a]` is algorithm `a`'s score on
/// problem `p`, lower better; ranks within a problem are averaged over ties.
pub fn mean_ranks(scores: &[Vec<f64>]) -> Vec<f64> {
    let k = scores.first().map_or(0, Vec::len);
    let mut sums = vec![0.0; k];
    for row in scores {
        for (sum, rank) in sums.iter_mut().zip(average_ranks_of(row)) {
            *sum += rank;
        }
    }
    sums.iter().map(|s| s / scores.len() as f64).collect()
}

/// The Nemenyi test's critical difference at α = 0.05 for `k` algorithms over `problems`
/// problems, `q_α √(k(k+1)/(6N))`: two average ranks further apart differ significantly.
/// `q_α` is the studentized range's 0.95 quantile with infinite degrees of freedom over √2:
/// Demšar's (2006) Table 5a for k from 2 to 10, and the same quantile from SciPy 1.17's
/// `studentized_range.ppf(0.95, k, ∞) / √2` for k from 11 to 25 (it reproduces the table's
/// values to the table's last digit). `None` outside 2 to 25.
pub fn critical_difference(k: usize, problems: usize) -> Option<f64> {
    const Q_05: [f64; 24] = [
        1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164, 3.219, 3.268, 3.313, 3.354,
        3.391, 3.426, 3.458, 3.489, 3.517, 3.544, 3.569, 3.593, 3.616, 3.637, 3.658,
    ];
    let q = *Q_05.get(k.checked_sub(2)?)?;
    if problems == 0 {
        return None;
    }
    Some(q * ((k * (k + 1)) as f64 / (6.0 * problems as f64)).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strata_are_ranked_apart_and_their_statistics_added() {
        // Stratum 1: 1, 2, 3 (ranks 1, 2, 3, all positive); stratum 2: −1, 2 (ranks 1, 2).
        // W+ = 6 + 2 = 8 of 9. T, a random subset sum of {1, 2, 3, 1, 2}, is ≥ 8 exactly when
        // the subset left out sums to ≤ 1: {}, {1}, {1'}, so P(T ≥ 8) = 3/32, p = 6/32.
        let pooled = stratified_signed_rank(&[vec![1.0, 2.0, 3.0], vec![-1.0, 2.0]]).unwrap();
        assert_eq!((pooled.n, pooled.w_plus, pooled.statistic), (5, 8.0, 1.0));
        assert_eq!(pooled.p_value, 0.1875);
        // Scales do not matter across strata: the same signs and orders, the same test.
        let rescaled = stratified_signed_rank(&[vec![1e6, 2e6, 3e6], vec![-1e-6, 2e-6]]).unwrap();
        assert_eq!(rescaled, pooled);
        // One stratum is the signed-rank test; zeros and empty strata are dropped.
        let d = [1.5, -0.3, 2.2, 0.8, -1.1, 3.0, 0.4, 1.9];
        let empty: [f64; 0] = [];
        assert_eq!(
            stratified_signed_rank(&[&d[..], &[0.0], &empty]),
            signed_rank(&d)
        );
        // Two problems of six seeds, every pair in one direction: p = 2/2¹² though each
        // problem alone reaches only 2/2⁶ before any correction.
        let twelve = stratified_signed_rank(&[[1.0; 6], [2.0; 6]]).unwrap();
        assert_eq!(twelve.p_value, 2.0 / 4096.0);
        assert_eq!(stratified_signed_rank(&[[0.0; 3]]), None);
        assert_eq!(stratified_signed_rank(&[vec![1.0, f64::NAN]]), None);
    }

    // Reference values from SciPy 1.17.1 (`scipy.stats.wilcoxon(d)`, default arguments).
    #[test]
    fn signed_rank_matches_scipy() {
        let exact = signed_rank(&[1.5, -0.3, 2.2, 0.8, -1.1, 3.0, 0.4, 1.9]).unwrap();
        assert_eq!((exact.n, exact.w_plus, exact.statistic), (8, 31.0, 5.0));
        assert_eq!(exact.p_value, 0.078125);
        let tied = [
            1.0, -1.0, 2.0, 2.0, 0.0, 3.0, -0.5, 1.0, 4.0, 0.0, 2.0, -3.0,
        ];
        let tied = signed_rank(&tied).unwrap();
        assert_eq!((tied.n, tied.w_plus, tied.statistic), (10, 42.5, 12.5));
        assert_eq!(tied.p_value, 0.13671875);
        let large: Vec<f64> = (0..60)
            .map(|i| ((i * 37 % 23) as f64 - 8.5) / 3.0)
            .collect();
        let large = signed_rank(&large).unwrap();
        assert_eq!(
            (large.n, large.w_plus, large.statistic),
            (60, 1248.0, 582.0)
        );
        assert!(
            (large.p_value - 0.01415289954192942).abs() < 1e-12,
            "{}",
            large.p_value
        );
        // All five one way: the smallest two-sided p at n = 5, 2/32.
        assert_eq!(
            signed_rank(&[-2.0, -1.0, -3.0, -4.0, -5.0])
                .unwrap()
                .p_value,
            0.0625
        );
        assert!(signed_rank(&[0.0, 0.0]).is_none());
        assert!(signed_rank(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn holm_adjusts_step_down() {
        assert_eq!(holm(&[0.01, 0.04, 0.03, 0.2]), vec![0.04, 0.09, 0.09, 0.2]);
        assert_eq!(holm(&[0.6, 0.9]), vec![1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn ranks_average_ties_and_the_critical_difference_follows_demsar() {
        assert_eq!(
            average_ranks_of(&[3.0, 1.0, 3.0, 2.0]),
            vec![3.5, 1.0, 3.5, 2.0]
        );
        let scores = vec![
            vec![0.1, 0.3, 0.2],
            vec![0.5, 0.4, 0.6],
            vec![1.0, 2.0, 2.0],
        ];
        // Ranks per problem: (1, 3, 2), (2, 1, 3), (1, 2.5, 2.5).
        assert_eq!(mean_ranks(&scores), vec![4.0 / 3.0, 6.5 / 3.0, 7.5 / 3.0]);
        // Demšar's example: k = 4 classifiers, N = 14 data sets, CD = 1.25.
        let cd = critical_difference(4, 14).unwrap();
        assert!((cd - 1.2535).abs() < 1e-4, "{cd}");
        assert_eq!(signed_rank_pairs_needed(0.05), 6);
        assert_eq!(signed_rank_pairs_needed(0.01), 8);
        // k = 13 over 144 problems: q = 3.313 (SciPy's studentized range), √(13·14/864).
        let cd = critical_difference(13, 144).unwrap();
        assert!(
            (cd - 3.313 * (182.0f64 / 864.0).sqrt()).abs() < 1e-12,
            "{cd}"
        );
        assert!(critical_difference(1, 5).is_none() && critical_difference(26, 5).is_none());
    }
}
