// Precision prelude for f32 arithmetic: `real` is f32 and the math helpers are the builtins.
alias real = f32;

fn r_exp(x: real) -> real {
    return exp(x);
}

fn r_log(x: real) -> real {
    return log(x);
}

// cos(x) with x first reduced to [-π, π]: Vulkan bounds the builtin's error there (2^-11
// absolute) and nowhere else, and random-feature phases ωᵀx + b leave that range.
fn r_cos(x: real) -> real {
    return cos(x - 6.2831855 * round(x * 0.15915494));
}
