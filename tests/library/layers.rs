//! The module layering the README's Layout section states: each top-level module of `src/`
//! imports only modules above it in [`LAYERS`], so there are no import cycles (issue 16 found
//! `model` and `compute` importing each other, and `problems` reaching up into `report`).

use std::path::Path;

/// Top-level modules, lowest first.
const LAYERS: &[&str] = &[
    "data",
    "stats",
    "optim",
    "io",
    "params",
    "model",
    "compute",
    "surrogate",
    "acquisition",
    "problems",
    "algorithms",
    "sweep",
    "fuzz",
    "report",
    "benchmark",
    "cli",
];

/// The source with comments, string contents of doc lines and `#[cfg(test)]` modules removed
/// (unit tests may use anything).
fn code_of(source: &str) -> String {
    let without_tests = match source.find("#[cfg(test)]\nmod tests") {
        Some(i) => &source[..i],
        None => source,
    };
    without_tests
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_module_imports_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    files(&src, &mut paths);
    let mut violations = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for path in &paths {
        let relative = path.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap().as_os_str();
        let module = first.to_str().unwrap().trim_end_matches(".rs");
        if module == "lib" || module == "main" {
            continue;
        }
        let level = LAYERS
            .iter()
            .position(|m| *m == module)
            .unwrap_or_else(|| panic!("src/{module} is not in LAYERS (add it where it belongs)"));
        seen.insert(module.to_string());
        let code = code_of(&std::fs::read_to_string(path).unwrap());
        for (i, _) in code.match_indices("crate::") {
            let name: String = code[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            let Some(target) = LAYERS.iter().position(|m| *m == name) else {
                continue;
            };
            if target > level {
                violations.push(format!("{} imports crate::{name}", relative.display()));
            }
        }
    }
    assert!(violations.is_empty(), "upward imports: {violations:#?}");
    // Every layer named exists, so the list cannot silently go stale.
    for layer in LAYERS {
        assert!(
            seen.contains(*layer),
            "LAYERS names {layer}, which src/ lacks"
        );
    }
}
