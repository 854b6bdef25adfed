// Precision prelude for f32 arithmetic: `real` is f32 and the math helpers are the builtins.
alias real = f32;

fn r_exp(x: real) -> real {
    return exp(x);
}

fn r_log(x: real) -> real {
    return log(x);
}
