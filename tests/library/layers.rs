//! The layering the README's Layout section states. Between crates, each `crates/*/Cargo.toml`
//! depends only on the crates below it in [`CRATES`] (Cargo already forbids cycles; this keeps the
//! order the README documents). Inside the crates that hold several top-level modules, each
//! module imports only the modules below it (issue 16 found `model` and `compute` importing each
//! other, and `problems` reaching up into `report`).

use std::path::{Path, PathBuf};

/// The workspace's library crates (directories under `crates/`), lowest first.
const CRATES: &[&str] = &[
    "core",
    "model",
    "engine",
    "problems",
    "algorithms",
    "sweep",
    "python",
];

/// Top-level modules of one crate, lowest first; `*` stands for every module not named (the
/// crate's own, declared in its `lib.rs`).
const MODULE_LAYERS: &[(&str, &[&str])] = &[
    (
        "core",
        &["data", "stats", "optim", "io", "params", "registry"],
    ),
    ("algorithms", &["surrogate", "acquisition", "*"]),
    ("sweep", &["*", "fuzz", "report", "export", "benchmark"]),
];

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The source with comment lines and `#[cfg(test)]` modules removed (unit tests may use
/// anything).
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

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The `bosweep-*` crates a manifest's `[dependencies]` table names.
fn internal_dependencies(manifest: &str) -> Vec<String> {
    let Some(start) = manifest.find("[dependencies]") else {
        return Vec::new();
    };
    manifest[start + "[dependencies]".len()..]
        .lines()
        .take_while(|l| !l.starts_with('['))
        .filter_map(|l| l.trim().strip_prefix("bosweep-"))
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_ascii_lowercase())
                .collect()
        })
        .collect()
}

#[test]
fn every_crate_depends_only_on_the_crates_below_it() {
    let mut on_disk: Vec<String> = std::fs::read_dir(workspace().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = CRATES.iter().map(|c| c.to_string()).collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "CRATES must name every directory of crates/"
    );

    let mut violations = Vec::new();
    for (level, name) in CRATES.iter().enumerate() {
        let manifest =
            std::fs::read_to_string(workspace().join("crates").join(name).join("Cargo.toml"))
                .unwrap();
        for dependency in internal_dependencies(&manifest) {
            let target = CRATES
                .iter()
                .position(|c| *c == dependency)
                .unwrap_or_else(|| panic!("crates/{name} depends on unknown bosweep-{dependency}"));
            if target >= level {
                violations.push(format!("bosweep-{name} depends on bosweep-{dependency}"));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "upward dependencies: {violations:#?}"
    );
}

#[test]
fn every_module_imports_only_the_modules_below_it() {
    let mut violations = Vec::new();
    for (krate, layers) in MODULE_LAYERS {
        let src = workspace().join("crates").join(krate).join("src");
        let level_of = |module: &str| {
            layers
                .iter()
                .position(|m| *m == module)
                .or_else(|| layers.iter().position(|m| *m == "*"))
        };
        let mut paths = Vec::new();
        files(&src, &mut paths);
        let mut seen = std::collections::BTreeSet::new();
        for path in &paths {
            let relative = path.strip_prefix(&src).unwrap();
            let first = relative.components().next().unwrap().as_os_str();
            let module = first.to_str().unwrap().trim_end_matches(".rs");
            // A root that only declares modules belongs to no layer; otherwise it is `*`.
            if module == "lib" && !layers.contains(&"*") {
                continue;
            }
            let level = level_of(module).unwrap_or_else(|| {
                panic!(
                    "crates/{krate}/src/{module} is not in MODULE_LAYERS (add it where it belongs)"
                )
            });
            seen.insert(module.to_string());
            let code = code_of(&std::fs::read_to_string(path).unwrap());
            for (i, _) in code.match_indices("crate::") {
                let name: String = code[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                let named = layers.iter().position(|m| *m == name);
                if named.is_some_and(|target| target > level) {
                    violations.push(format!(
                        "crates/{krate}/src/{} imports crate::{name}",
                        relative.display()
                    ));
                }
            }
        }
        // Every module named exists, so the list cannot silently go stale.
        for layer in layers.iter().filter(|l| **l != "*") {
            assert!(
                seen.contains(*layer),
                "MODULE_LAYERS names {layer}, which crates/{krate}/src lacks"
            );
        }
    }
    assert!(violations.is_empty(), "upward imports: {violations:#?}");
}
