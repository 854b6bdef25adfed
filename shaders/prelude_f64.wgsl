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

// cos(x) for |x| below about 1e6 (SPIR-V has no f64 cos either): x = k·π/2 + r, |r| ≤ π/4, by
// Cody–Waite with π/2 in three parts (fdlibm's; the first has 33 bits, so k·part is exact),
// then cos r or sin r by its Taylor polynomial (degrees 16 and 17, truncation below 1e-17 on
// that interval), chosen and signed by k mod 4.
fn r_cos(x: real) -> real {
    let k = floor(x * 0.63661977236758134 + 0.5);
    let r = ((x - k * 1.57079632673412561417e+00) - k * 6.07710050630396597660e-11)
        - k * 2.02226624871116645580e-21;
    let r2 = r * r;
    var c: real = 1.0;
    var s: real = 1.0;
    for (var i = 8; i >= 1; i--) {
        c = 1.0 - c * r2 / f64((2 * i - 1) * (2 * i));
        s = 1.0 - s * r2 / f64((2 * i) * (2 * i + 1));
    }
    s = r * s;
    let q = i32(k) & 3;
    if (q == 0) {
        return c;
    }
    if (q == 1) {
        return -s;
    }
    if (q == 2) {
        return -c;
    }
    return s;
}
