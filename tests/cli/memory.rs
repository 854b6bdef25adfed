//! Sweeps and runs that cannot fit in memory are refused up front, with the estimate.

use std::process::Command;

use bosweep::algorithms::{self, gp_memory_bytes};
use bosweep::sweep::{MemoryEstimate, SweepConfig, human_bytes};

#[test]
fn gp_estimate_counts_the_dense_matrices_and_the_grid() {
    // 22·100² reals for the matrices (two states, four buffers for each of five fit starts),
    // 1000·(2 + 4) for the grid and its posterior.
    assert_eq!(gp_memory_bytes(100, 2, 1000), (220_000 + 6_000) * 8);
    let gp_ucb = algorithms::build("gp-ucb", &[("grid_size", 1000.0.into())]).unwrap();
    assert_eq!(gp_ucb.memory_bytes(100, 2), gp_memory_bytes(100, 2, 1000));
    let random = algorithms::build("random", &[]).unwrap();
    assert_eq!(random.memory_bytes(100, 2), 100 * 3 * 8);
    // BOKE has no GP: its estimate grows linearly in the budget (1000·d + 25 % candidates).
    let boke = algorithms::build("boke", &[]).unwrap();
    assert_eq!(boke.memory_bytes(100, 2), (100 * 3 + 2500 * 6) * 8);
    assert_eq!(
        boke.memory_bytes(200_000, 2) - boke.memory_bytes(100_000, 2),
        100_000 * 3 * 8
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
    assert_eq!(estimate.per_run, gp_memory_bytes(200, 6, 512));
    assert!(estimate.largest.contains("gp-ucb") && estimate.largest.contains("hartmann6"));
    assert_eq!(estimate.parallel, 4);
    assert_eq!(estimate.total, 4 * estimate.per_run);
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
    let dir = std::env::temp_dir().join(format!("bosweep-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bosweep = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_bosweep"))
            .args(["--device", "cpu"])
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    // 22 · (3·10⁵)² reals are about 14 TiB: no machine has them.
    let run = bosweep(&[
        "run",
        "--algo",
        "gp-ucb",
        "--problem",
        "branin",
        "--budget",
        "300000",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--budget") && stderr.contains("TiB of memory"),
        "{stderr}"
    );

    std::fs::write(
        dir.join("huge.toml"),
        "budget = 300000\n[[algorithm]]\nname = \"ei\"\n[[problem]]\nname = \"branin\"\n",
    )
    .unwrap();
    let sweep = bosweep(&["sweep", "huge.toml", "--out", "huge-out"]);
    let stderr = String::from_utf8_lossy(&sweep.stderr);
    assert_eq!(sweep.status.code(), Some(2), "{stderr}");
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
