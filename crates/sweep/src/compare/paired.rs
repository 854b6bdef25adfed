//! The statistics of one algorithm on one problem at one budget: the paired values of A and B,
//! the Wilcoxon signed-rank test of the differences B − A ([`signed_rank`]) and the effect
//! sizes — the median difference and the matched-pairs rank-biserial correlation
//! (W+ − W−)/(W+ + W−) (Kerby, "The simple difference formula", Comprehensive Psychology 2014).

use bosweep_core::stats::{SignedRank, signed_rank};

use crate::report::compare::median;

/// The paired statistics of (A, B) values.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PairedStats {
    pub pairs: usize,
    pub median_a: Option<f64>,
    pub median_b: Option<f64>,
    /// Median of B − A over the pairs.
    pub median_difference: Option<f64>,
    /// `None` where every difference is zero (or there is no pair).
    pub test: Option<SignedRank>,
    /// In [−1, 1]: −1 where every non-zero difference is negative (B below A in every pair).
    pub rank_biserial: Option<f64>,
}

/// The statistics of `pairs` of (A, B) values.
pub(crate) fn paired_stats(pairs: &[(f64, f64)]) -> PairedStats {
    let sorted_median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        median(&v)
    };
    let differences: Vec<f64> = pairs.iter().map(|(a, b)| b - a).collect();
    let test = signed_rank(&differences);
    PairedStats {
        pairs: pairs.len(),
        median_a: sorted_median(pairs.iter().map(|p| p.0).collect()),
        median_b: sorted_median(pairs.iter().map(|p| p.1).collect()),
        median_difference: sorted_median(differences),
        rank_biserial: test.as_ref().map(rank_biserial),
        test,
    }
}

/// (W+ − W−)/(W+ + W−), W+ + W− being n(n + 1)/2 over the n non-zero differences.
pub(crate) fn rank_biserial(test: &SignedRank) -> f64 {
    let total = (test.n * (test.n + 1)) as f64 / 2.0;
    (2.0 * test.w_plus - total) / total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_of_one_sign_give_the_extreme_statistics() {
        // B − A = −1, −2, …, −6: W+ = 0, W− = 21, exact p = 2/2⁶.
        let pairs: Vec<(f64, f64)> = (1..=6).map(|i| (10.0, 10.0 - i as f64)).collect();
        let s = paired_stats(&pairs);
        assert_eq!(s.pairs, 6);
        assert_eq!(s.median_difference, Some(-3.5));
        assert_eq!(s.median_a, Some(10.0));
        assert_eq!(s.median_b, Some(6.5));
        let test = s.test.unwrap();
        assert_eq!((test.n, test.w_plus, test.statistic), (6, 0.0, 0.0));
        assert!((test.p_value - 0.03125).abs() < 1e-15);
        assert_eq!(s.rank_biserial, Some(-1.0));
    }

    #[test]
    fn mixed_differences_give_the_simple_difference_formula() {
        // B − A = 1, −2, 3, 4, 0: the zero is dropped, ranks 1..4, W+ = 1 + 3 + 4 = 8, W− = 2.
        let pairs = [(0.0, 1.0), (2.0, 0.0), (0.0, 3.0), (1.0, 5.0), (7.0, 7.0)];
        let s = paired_stats(&pairs);
        let test = s.test.unwrap();
        assert_eq!((test.n, test.w_plus, test.statistic), (4, 8.0, 2.0));
        // Exact: 2 P(W− ≤ 2) = 2 · 3/16 (subsets of {1,2,3,4} summing to ≤ 2: {}, {1}, {2}).
        assert!((test.p_value - 0.375).abs() < 1e-15);
        assert_eq!(s.rank_biserial, Some(0.6));
        assert_eq!(s.median_difference, Some(1.0));
    }

    #[test]
    fn equal_pairs_have_no_test_and_no_pair_has_no_median() {
        let s = paired_stats(&[(1.0, 1.0), (2.0, 2.0)]);
        assert_eq!((s.test, s.rank_biserial), (None, None));
        assert_eq!(s.median_difference, Some(0.0));
        let none = paired_stats(&[]);
        assert_eq!((none.pairs, none.median_difference), (0, None));
    }
}
