//! Statistics every layer uses: summaries of a sample (reports, KDE error studies) and the
//! standard normal's density and distribution (acquisitions, problem laws).

mod describe;
mod normal;

pub use describe::{Describe, describe, mean};
pub use normal::{H_IS_Z, h, log_h, normal_cdf, normal_log_pdf, normal_pdf};
