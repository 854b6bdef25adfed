//! `bosweep compare A B`: two sweeps of `random` whose traces B are A's with known differences
//! added to the simple regret, so that every statistic is known: the signed-rank test, Holm's
//! correction, the effect sizes and the verdicts; pairing refused where the designs differ; the
//! exit status of `--fail-if-worse`; and "cannot conclude" with few pairs.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{assert_contains, bosweep, file_containing, stderr, stdout, succeeded};

fn sandbox(name: &str) -> PathBuf {
    crate::common::sandbox("compare", name)
}

/// A sweep of `random` (labelled `mine`, and `other` where `two_methods`) on `problems` with
/// `replicates` replicates and `seed`, into `dir/out`.
fn sweep(
    dir: &Path,
    out: &str,
    seed: u64,
    replicates: usize,
    problems: &[&str],
    two_methods: bool,
) {
    let mut config = format!(
        "seed = {seed}\nreplicates = {replicates}\nbudget = 8\ninit = 2\n\n\
         [[algorithm]]\nname = \"random\"\nlabel = \"mine\"\n"
    );
    if two_methods {
        config.push_str("\n[[algorithm]]\nname = \"gp-ucb\"\ngrid_size = 64\nlabel = \"other\"\n");
    }
    for p in problems {
        config.push_str(&format!("\n[[problem]]\nname = \"{p}\"\n"));
    }
    let file = format!("{out}.toml");
    std::fs::write(dir.join(&file), config).unwrap();
    let result = bosweep(dir, &["sweep", &file, "--out", out, "--no-report"]);
    succeeded(&result);
}

/// Copies the sweep `dir/from` to `dir/to`, adding `shift(problem, replicate)` to every step's
/// simple and instant regret (where known): every paired difference B − A of either final
/// regret (the recommendation's, or the best evaluated point's) is then that shift.
fn shifted_copy(dir: &Path, from: &str, to: &str, shift: impl Fn(&str, usize) -> f64) {
    let (from, to) = (dir.join(from), dir.join(to));
    std::fs::create_dir_all(to.join("runs")).unwrap();
    for file in ["manifest.json", "config.toml"] {
        std::fs::copy(from.join(file), to.join(file)).unwrap();
    }
    for entry in std::fs::read_dir(from.join("runs")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let replicate: usize = name
            .trim_end_matches(".jsonl")
            .rsplit("-r")
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        let problem = serde_json::from_str::<Value>(header).unwrap()["header"]["problem"]
            .as_str()
            .unwrap()
            .to_owned();
        let d = shift(&problem, replicate);
        let mut out = format!("{header}\n");
        for line in lines {
            let mut step: Value = serde_json::from_str(line).unwrap();
            for regret in ["simple_regret", "instant_regret"] {
                if let Some(r) = step[regret].as_f64() {
                    step[regret] = (r + d).into();
                }
            }
            out.push_str(&format!("{step}\n"));
        }
        std::fs::write(to.join("runs").join(name), out).unwrap();
    }
}

/// `compare.csv`'s rows as column → value maps.
fn rows(csv: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            header
                .iter()
                .zip(l.split(','))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn number(row: &std::collections::HashMap<String, String>, column: &str) -> f64 {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column}: {:?}", row[column]))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn compare_known_differences_give_the_signed_rank_statistics_after_holm() {
    let dir = sandbox("known");
    sweep(&dir, "a", 3, 6, &["branin", "forrester"], false);
    // branin: B − A = −1, …, −6 (B lower in every pair); forrester: 0.1, −0.2, 0.3, …, 0.6.
    shifted_copy(&dir, "a", "b", |problem, r| {
        let k = (r + 1) as f64;
        match problem {
            "branin" => -k,
            _ if r == 1 => -0.2,
            _ => 0.1 * k,
        }
    });
    let result = bosweep(&dir, &["compare", "a", "b"]);
    succeeded(&result);
    assert!(
        stdout(&result).contains("12 paired runs"),
        "{}",
        stdout(&result)
    );
    let out = dir.join("b/compare-vs-a");
    for file in ["compare.md", "compare.html", "compare.csv"] {
        assert!(out.join(file).is_file(), "{file}");
    }
    let all = rows(&out.join("compare.csv"));
    // Two problems × the default budgets 25 %, 50 %, 75 %, 100 %.
    assert_eq!(all.len(), 8);
    let at = |problem: &str, fraction: &str| {
        all.iter()
            .find(|r| r["problem"] == problem && r["budget_fraction"] == fraction)
            .unwrap_or_else(|| panic!("{problem} at {fraction}"))
    };
    for fraction in ["0.25", "0.5", "0.75", "1"] {
        let branin = at("branin", fraction);
        assert_eq!(branin["algorithm"], "mine");
        assert_eq!(branin["pairs"], "6");
        assert_eq!(number(branin, "w_plus"), 0.0);
        assert_eq!(number(branin, "w_minus"), 21.0);
        // Exact two-sided: 2/2⁶.
        assert!(close(number(branin, "p_value"), 0.03125));
        assert!(close(number(branin, "median_difference"), -3.5));
        assert_eq!(number(branin, "rank_biserial"), -1.0);
        let forrester = at("forrester", fraction);
        // Ranks 1..6 by |d|; only the 0.2 is negative: W+ = 19, W− = 2, p = 2 · 3/64.
        assert_eq!(number(forrester, "w_plus"), 19.0);
        assert_eq!(number(forrester, "w_minus"), 2.0);
        assert!(close(number(forrester, "p_value"), 0.09375));
        assert!(close(number(forrester, "median_difference"), 0.35));
        assert!(close(number(forrester, "rank_biserial"), 17.0 / 21.0));
        // Holm over mine's two problems: 2 · 0.03125, then max(0.0625, 0.09375). Six pairs can
        // never pass Holm's first threshold 0.05/2 (2/2⁶ > 0.025), seven can: no verdict yet.
        assert!(close(number(branin, "p_holm"), 0.0625));
        assert!(close(number(forrester, "p_holm"), 0.09375));
        for row in [branin, forrester] {
            assert_eq!(
                row["verdict"],
                "cannot conclude: 6 pairs (at least 7 needed for p < 0.05)"
            );
        }
    }
    // The evaluations each fraction stands for, of the budget of 8.
    assert_eq!(at("branin", "0.25")["evals"], "2");
    assert_eq!(at("branin", "1")["evals"], "8");

    // Pooled over the two problems, as improvements A − B ranked within each problem: branin's
    // six are positive (21), forrester's only the 0.2 (rank 2): W+ = 23 of 42, and 1 699 of
    // the 2¹² sign assignments of ranks {1..6, 1..6} reach 23 or more: p = 2 · 1699/4096.
    let pooled = rows(&out.join("compare-pooled.csv"));
    assert_eq!(pooled.len(), 4);
    for row in &pooled {
        assert_eq!(row["algorithm"], "mine");
        assert_eq!(
            (row["problems"].as_str(), row["pairs"].as_str()),
            ("2", "12")
        );
        assert_eq!(
            (
                row["problems_better"].as_str(),
                row["problems_worse"].as_str()
            ),
            ("1", "1")
        );
        assert_eq!(number(row, "w_plus"), 23.0);
        assert_eq!(number(row, "w_minus"), 19.0);
        assert!(close(number(row, "p_value"), 2.0 * 1699.0 / 4096.0));
        assert_eq!(row["verdict"], "not distinguishable");
    }
}

/// Three problems of three seeds each: no problem alone can conclude (fewer than 6 pairs), all
/// of them together can, and `--fail-if-worse` gates on whichever the user names.
#[test]
fn compare_pools_the_problems_for_an_overall_verdict_and_gate() {
    let dir = sandbox("pooled");
    sweep(
        &dir,
        "a",
        3,
        3,
        &["branin", "forrester", "hartmann3"],
        false,
    );
    // Worse by amounts of three different scales.
    shifted_copy(&dir, "a", "worse", |problem, r| {
        let scale = match problem {
            "branin" => 1.0,
            "forrester" => 1e-3,
            _ => 1e3,
        };
        scale * (r + 1) as f64
    });
    let per_problem = bosweep(&dir, &["compare", "a", "worse", "--fail-if-worse"]);
    succeeded(&per_problem);
    let text = stdout(&per_problem);
    assert!(
        // Three problems Holm-corrected: 2/2ⁿ < 0.05/3 from seven pairs on.
        text.contains("mine on branin: cannot conclude: 3 pairs (at least 7 needed for p < 0.05)"),
        "{text}"
    );
    // Nine pairs, every one worse: each problem's ranks 1, 2, 3 all on A's side (W− = 3 · 6),
    // p = 2/2⁹.
    assert_contains(
        &text,
        &["mine over 3 problems (9 pairs): B worse (p Holm 0.003906)"],
    );
    for gate in ["pooled", "either"] {
        let gated = bosweep(
            &dir,
            &["compare", "a", "worse", &format!("--fail-if-worse={gate}")],
        );
        assert_eq!(gated.status.code(), Some(1), "{gate}: {}", stderr(&gated));
        assert!(
            stderr(&gated).contains("mine over 3 problems (p Holm 0.004)"),
            "{}",
            stderr(&gated)
        );
    }
    file_containing(
        dir.join("worse/compare-vs-a/compare.md"),
        &[
            "## Over all problems",
            "| mine | 100% | 3 | 9 | 0 | 3 | 0 | 18 | 0.003906 | 0.003906 | **B worse** |",
        ],
    );
}

#[test]
fn compare_fail_if_worse_exits_1_only_when_b_is_significantly_worse() {
    let dir = sandbox("worse");
    sweep(&dir, "a", 3, 6, &["branin"], false);
    shifted_copy(&dir, "a", "worse", |_, r| (r + 1) as f64);
    shifted_copy(&dir, "a", "better", |_, r| -((r + 1) as f64));

    let worse = bosweep(&dir, &["compare", "a", "worse", "--fail-if-worse"]);
    assert_eq!(worse.status.code(), Some(1), "{}", stderr(&worse));
    assert!(
        stderr(&worse).contains("significantly worse") && stderr(&worse).contains("mine on branin"),
        "{}",
        stderr(&worse)
    );
    assert!(
        stdout(&worse).contains("mine on branin: B worse"),
        "{}",
        stdout(&worse)
    );
    // The files are written all the same, into --out where given.
    let worse_out = bosweep(
        &dir,
        &["compare", "a", "worse", "--out", "out", "--budgets", "0.5"],
    );
    assert_eq!(worse_out.status.code(), Some(0), "without --fail-if-worse");
    let written = rows(&dir.join("out/compare.csv"));
    let fractions: Vec<&str> = written
        .iter()
        .map(|r| r["budget_fraction"].as_str())
        .collect();
    assert_eq!(fractions, ["0.5", "1"], "1 is always compared");
    assert_eq!(written[1]["verdict"], "B worse");

    let better = bosweep(&dir, &["compare", "a", "better", "--fail-if-worse"]);
    succeeded(&better);
    assert!(
        stdout(&better).contains("mine on branin: B better"),
        "{}",
        stdout(&better)
    );
}

#[test]
fn compare_refuses_runs_whose_initial_designs_differ() {
    let dir = sandbox("designs");
    sweep(&dir, "a", 3, 2, &["branin"], false);
    sweep(&dir, "b", 4, 2, &["branin"], false);
    let result = bosweep(&dir, &["compare", "a", "b"]);
    assert_eq!(result.status.code(), Some(2));
    let message = stderr(&result);
    assert!(
        message.contains("cannot pair mine on branin, replicate 0, of a and b")
            && message.contains("initial designs differ"),
        "{message}"
    );
    assert!(!dir.join("b/compare-vs-a").exists(), "nothing written");
}

#[test]
fn compare_with_few_pairs_says_it_cannot_conclude() {
    // Two methods, one problem, a single seed.
    let dir = sandbox("few");
    sweep(&dir, "a", 3, 1, &["branin"], true);
    shifted_copy(&dir, "a", "b", |_, _| 1.0);
    let result = bosweep(&dir, &["compare", "a", "b", "--fail-if-worse"]);
    succeeded(&result);
    let text = stdout(&result);
    for algorithm in ["mine", "other"] {
        assert_contains(
            &text,
            &[&format!(
                "{algorithm} on branin: cannot conclude: 1 pair (at least 6 needed for p < 0.05)"
            )],
        );
    }
    let written = rows(&dir.join("b/compare-vs-a/compare.csv"));
    assert_eq!(written.len(), 8, "2 algorithms × 4 budgets");
    assert!(
        written
            .iter()
            .all(|r| close(number(r, "median_difference"), 1.0))
    );
}

#[test]
fn compare_pairs_the_rest_and_names_the_runs_missing_on_one_side() {
    let dir = sandbox("missing");
    sweep(&dir, "a", 3, 3, &["branin"], false);
    shifted_copy(&dir, "a", "b", |_, _| 0.0);
    let gone = std::fs::read_dir(dir.join("b/runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("-r2.jsonl"))
        .unwrap();
    std::fs::remove_file(gone).unwrap();
    let result = bosweep(&dir, &["compare", "a", "b"]);
    succeeded(&result);
    let text = stdout(&result);
    assert_contains(&text, &["2 paired runs"]);
    assert!(
        text.contains(
            "1 run without a partner, left out (1 not completed in B; listed in compare.md)"
        ),
        "{text}"
    );
    // Every pair equal.
    assert_contains(&text, &["mine on branin: cannot conclude: 2 pairs"]);
    file_containing(
        dir.join("b/compare-vs-a/compare.md"),
        &["## Runs without a partner"],
    );
}
