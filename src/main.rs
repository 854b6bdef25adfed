fn main() {
    std::process::exit(bosweep::cli::main());
}
