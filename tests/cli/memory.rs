//! Sweeps and runs that cannot fit in memory are refused up front, with the estimate.

use bosweep::algorithms::{self, gp_memory_bytes};
use bosweep::sweep::{MemoryEstimate, SweepConfig, human_bytes};

use crate::common::{bosweep, exited, run_args, sandbox, sweep_config};

/// Estimates at given sizes, in bytes (8 per real). A GP run holds 22 dense n × n matrices at
/// n = budget (two fitted states, four buffers for each of the fit's five starts) and its grid
/// with 4 reals of posterior and acquisition per point.
#[test]
fn gp_estimate_counts_the_dense_matrices_and_the_grid() {
    // Budget 100, dim 2, grid 1000: 22·100² = 220 000 reals + 1000·(2 + 4) = 6 000 reals
    // → 226 000 · 8 = 1 808 000 B.
    assert_eq!(gp_memory_bytes(100, 2, 1000), 1_808_000);
    let gp_ucb = algorithms::build("gp-ucb", &[("grid_size", 1000.0.into())]).unwrap();
    assert_eq!(gp_ucb.memory_bytes(100, 2), 1_808_000);
    // Budget 100, dim 3, the default grid min(2¹²·3, 2²⁰) = 12 288: 220 000 + 12 288·(3 + 4)
    // = 220 000 + 86 016 = 306 016 reals → 2 448 128 B.
    let default_grid = algorithms::build("gp-ucb", &[]).unwrap();
    assert_eq!(default_grid.memory_bytes(100, 3), 2_448_128);
    // Random search keeps the points and values: 100·(2 + 1) = 300 reals → 2 400 B.
    let random = algorithms::build("random", &[]).unwrap();
    assert_eq!(random.memory_bytes(100, 2), 2_400);
    // BOKE has no GP: the data, 100·(2 + 1) = 300 reals, and 1000·2 = 2000 global candidates
    // plus 25 % local ones, 2500·(2 + 4) = 15 000 reals → 15 300 · 8 = 122 400 B.
    let boke = algorithms::build("boke", &[]).unwrap();
    assert_eq!(boke.memory_bytes(100, 2), 122_400);
    // Linear in the budget: 100 000 more points are 100 000·3 reals = 2 400 000 B more.
    assert_eq!(
        boke.memory_bytes(200_000, 2) - boke.memory_bytes(100_000, 2),
        2_400_000
    );
}

#[test]
fn sweep_estimate_takes_the_largest_run_times_the_runs_in_flight() {
    let config = SweepConfig::parse(
        "seed = 1\nreplicates = 3\nbudget = 50\n\
         [[algorithm]]\nname = \"random\"\n[[algorithm]]\nname = \"gp-ucb\"\ngrid_size = 512\n\
         [[problem]]\nname = \"branin\"\n[[problem]]\nname = \"hartmann6\"\nbudget = 200\n",
        "memory.toml",
    )
    .unwrap();
    let runs = config.runs();
    let refs: Vec<_> = runs.iter().collect();
    let estimate = MemoryEstimate::of(&refs, 4, |run| config.memory_bytes(run));
    // The largest run is gp-ucb on hartmann6 (budget 200, dim 6, grid 512): 22·200² = 880 000
    // reals + 512·(6 + 4) = 5 120 reals → 885 120 · 8 = 7 080 960 B; four in flight hold
    // 28 323 840 B.
    assert_eq!(estimate.per_run, 7_080_960);
    assert!(estimate.largest.contains("gp-ucb") && estimate.largest.contains("hartmann6"));
    assert_eq!(estimate.parallel, 4);
    assert_eq!(estimate.total, 28_323_840);
    assert!(estimate.check(estimate.total).is_ok());
    let refused = estimate.check(estimate.total - 1).unwrap_err();
    assert!(
        refused.contains("about") && refused.contains("worker threads (threads)"),
        "{refused}"
    );
    // Never more in flight than there are runs.
    assert_eq!(
        MemoryEstimate::of(&refs[..2], 8, |run| config.memory_bytes(run)).parallel,
        2
    );
}

#[test]
fn human_bytes_uses_binary_units() {
    assert_eq!(human_bytes(512), "512 B");
    assert_eq!(human_bytes(1536), "1.50 KiB");
    assert_eq!(human_bytes(3 << 30), "3.00 GiB");
}

#[test]
fn impossible_runs_and_sweeps_exit_2_before_starting() {
    let dir = sandbox("memory", "impossible");
    let bosweep = |args: &[&str]| bosweep(&dir, args);
    // 22 · (3·10⁵)² reals are about 14 TiB: no machine has them.
    let run = bosweep(&run_args("gp-ucb", "branin", "300000", &[]));
    let stderr = exited(&run, 2);
    assert!(
        stderr.contains("--budget") && stderr.contains("TiB of memory"),
        "{stderr}"
    );

    let huge = "budget = 300000\n[[algorithm]]\nname = \"ei\"\n[[problem]]\nname = \"branin\"\n";
    let sweep = sweep_config(&dir, "huge.toml", huge, "huge-out", &[]);
    let stderr = exited(&sweep, 2);
    assert!(
        stderr.contains("huge.toml") && stderr.contains("TiB of memory"),
        "{stderr}"
    );
    assert!(
        !dir.join("huge-out").exists(),
        "nothing is written for a refused sweep"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
