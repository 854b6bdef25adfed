// Precision prelude for f64 arithmetic (needs the adapter's SHADER_F64 feature). SPIR-V's
// GLSL.std.450 exp/log are defined for 16- and 32-bit floats only, so both are computed here.
alias real = f64;

// exp(x) = 2^k · exp(r), |r| ≤ ln2/2, with a degree-13 Taylor polynomial for exp(r) (relative
// error below 1e-16 on that interval). Underflows to 0 below -745.
fn r_exp(x: real) -> real {
    if (x < -745.0) {
        return 0.0;
    }
    let k = floor(x * 1.4426950408889634 + 0.5);
    let r = (x - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10;
    var p: real = 1.0;
    for (var i = 13; i >= 1; i--) {
        p = 1.0 + p * r / f64(i);
    }
    return ldexp(p, i32(k));
}

// ln(x) for x in f32's normal range: an f32 estimate refined by two Newton steps on exp(y) = x.
fn r_log(x: real) -> real {
    var y = f64(log(f32(x)));
    y = y + x * r_exp(-y) - 1.0;
    y = y + x * r_exp(-y) - 1.0;
    return y;
}
