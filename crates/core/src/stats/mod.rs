//! Statistics every layer uses: summaries of a sample (reports, KDE error studies), the
//! standard normal's density and distribution (acquisitions, problem laws), and the paired
//! tests and ranks that compare algorithms (reports), and BoTorch's smooth maxima and ReLU
//! (log-space acquisitions and the engine's hypervolume improvement).

mod compare;
mod describe;
mod normal;
mod smooth;

pub use compare::{
    EXACT_UP_TO, SignedRank, average_ranks_of, critical_difference, holm, mean_ranks, signed_rank,
    signed_rank_pairs_needed, stratified_signed_rank,
};
pub use describe::{Describe, describe, mean};
pub use normal::{
    H_IS_Z, h, log_h, normal_cdf, normal_log_cdf, normal_log_pdf, normal_pdf, normal_quantile,
};
pub use smooth::{
    fatmax, fatmax_first_slope, fatmin_pair, fatmin_pair_first_slope, log_fatmoid,
    log_fatmoid_slope, log_fatplus, log_fatplus_slope, log_mean_exp, log_mean_exp_weights,
};
