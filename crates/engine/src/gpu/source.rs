//! The full WGSL text of a shader, assembled from the pieces that [`super::shaders`] and
//! [`super::params`] each own, so that neither of the two needs the other's half.

use super::Precision;
use super::params::wgsl_params;
use super::shaders::Shader;

/// The full WGSL text of `shader`: precision prelude, the shader's parameter block, shared
/// kernel profiles where needed, then the body.
pub fn wgsl_source(shader: Shader, precision: Precision) -> String {
    let prelude = match precision {
        Precision::F32 => include_str!("../../../../shaders/prelude_f32.wgsl"),
        Precision::F64 => include_str!("../../../../shaders/prelude_f64.wgsl"),
    };
    let profile = if shader.uses_kernel_profile() {
        include_str!("../../../../shaders/kernel_profile.wgsl")
    } else {
        ""
    };
    let params = wgsl_params(shader);
    format!("{prelude}\n{params}\n{profile}\n{}", shader.body())
}
