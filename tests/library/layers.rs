//! The layering CONTRIBUTING.md's Layout section states. Between crates, each `crates/*/Cargo.toml`
//! depends only on the crates below it in [`CRATES`] (Cargo already forbids cycles; this keeps the
//! order CONTRIBUTING.md documents). Inside the crates that hold several top-level modules, each
//! module imports only the modules below it (issue 16 found `model` and `compute` importing each
//! other, and `problems` reaching up into `report`). In every crate, no modules import each other
//! in a circle, whether top-level modules or siblings inside a directory module (issue 27 found
//! six, among them each registry listing its families while the families imported its entry
//! type).

use std::path::{Path, PathBuf};

/// The workspace's library crates (directories under `crates/`), lowest first.
const CRATES: &[&str] = &[
    "core",
    "model",
    "engine",
    "problems",
    "toolkit",
    "algorithms",
    "sweep",
    "fuzz",
    "python",
];

/// Top-level modules of one crate, lowest first; `*` stands for every module not named (the
/// crate's own, declared in its `lib.rs`).
const MODULE_LAYERS: &[(&str, &[&str])] = &[
    (
        "core",
        &[
            "data", "stats", "pareto", "optim", "io", "params", "process", "registry",
        ],
    ),
    ("toolkit", &["surrogate", "acquisition", "algorithm", "*"]),
    ("sweep", &["*", "report", "export", "compare"]),
];

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The source with comment lines and `#[cfg(test)]` modules removed (unit tests may use
/// anything, so a `tests.rs` file has no code here).
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

/// The crates whose modules [`no_module_circles`] checks: every library under `crates/` and the
/// root crate (`src/`).
fn crate_sources() -> Vec<(String, PathBuf)> {
    let mut sources: Vec<(String, PathBuf)> = CRATES
        .iter()
        .map(|c| {
            (
                c.to_string(),
                workspace().join("crates").join(c).join("src"),
            )
        })
        .collect();
    sources.push(("bosweep".to_string(), workspace().join("src")));
    sources
}

/// The module path of a source file relative to its crate's `src/`: `gpu/batch.rs` is
/// `[gpu, batch]`, `gpu/mod.rs` is `[gpu]`, `lib.rs` and `main.rs` are the root `[]`.
fn module_path_of(relative: &Path) -> Vec<String> {
    let mut path: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_str().unwrap().to_string())
        .collect();
    if path.len() == 1 && (path[0] == "lib" || path[0] == "main") || path.last().unwrap() == "mod" {
        path.pop();
    }
    path
}

/// The module paths a file's code names through `crate::…` and `super::…`, resolved to absolute
/// paths (without the leading `crate`), one per leaf of each `use` tree. Only lower-case segments
/// are kept: an item name (`Entry`, `ENTRIES`) ends the path, as does anything not an identifier.
fn referenced_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0 || !(is_ident(bytes[i - 1]) || bytes[i - 1] == b':');
        let rest = &code[i..];
        let base = if !starts_word {
            None
        } else if rest.starts_with("crate::") {
            i += "crate::".len();
            Some(Vec::new())
        } else if rest.starts_with("super::") {
            let mut base = module.to_vec();
            while code[i..].starts_with("super::") {
                base.pop();
                i += "super::".len();
            }
            Some(base)
        } else {
            None
        };
        match base {
            Some(base) => i = use_tree(code, i, base, &mut found),
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    found
}

/// Parses one `use` tree (or plain path) at `at`, pushing each leaf's module path onto `found`,
/// and returns where the tree ends.
fn use_tree(
    code: &str,
    mut at: usize,
    mut path: Vec<String>,
    found: &mut Vec<Vec<String>>,
) -> usize {
    let bytes = code.as_bytes();
    loop {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if at < bytes.len() && bytes[at] == b'{' {
            at += 1;
            loop {
                while at < bytes.len() && (bytes[at].is_ascii_whitespace() || bytes[at] == b',') {
                    at += 1;
                }
                if at >= bytes.len() || bytes[at] == b'}' {
                    return at + 1;
                }
                let before = at;
                at = use_tree(code, at, path.clone(), found);
                if at == before {
                    at += code[at..].chars().next().map_or(1, char::len_utf8);
                }
            }
        }
        let segment: String = code[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let module_like = !segment.is_empty()
            && segment
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            && segment != "self";
        if module_like {
            path.push(segment.clone());
        }
        at += segment.len();
        if !module_like || !code[at..].starts_with("::") {
            found.push(path);
            return at;
        }
        at += 2;
    }
}

/// Each file's module path and the (absolute) module paths its code references.
fn module_references(src: &Path) -> Vec<(Vec<String>, Vec<Vec<String>>)> {
    let mut paths = Vec::new();
    files(src, &mut paths);
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let module = module_path_of(path.strip_prefix(src).unwrap());
            let code = if path.file_name().is_some_and(|name| name == "tests.rs") {
                String::new()
            } else {
                code_of(&std::fs::read_to_string(path).unwrap())
            };
            let references = referenced_paths(&code, &module);
            (module, references)
        })
        .collect()
}

/// The edges between sibling modules: a file in `a/b/…` referring to `a/c/…` makes `a/b → a/c`
/// (the first segment where the two paths part). References to a module's own ancestors or
/// descendants are no edge: a parent declares and re-exports its children.
fn sibling_edges(
    references: &[(Vec<String>, Vec<Vec<String>>)],
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for (module, targets) in references {
        for target in targets {
            let common = module
                .iter()
                .zip(target)
                .take_while(|(a, b)| a == b)
                .count();
            if common < module.len() && common < target.len() {
                edges
                    .entry(module[..=common].join("/"))
                    .or_default()
                    .insert(target[..=common].join("/"));
            }
        }
    }
    edges
}

/// Every elementary circle found by a depth-first search from each node, each written
/// `a → b → a` and reported once (starting at its smallest node).
fn circles(
    edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> std::collections::BTreeSet<String> {
    fn visit(
        node: &str,
        edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
        found: &mut std::collections::BTreeSet<String>,
    ) {
        if let Some(start) = stack.iter().position(|n| n == node) {
            let mut circle = stack[start..].to_vec();
            let smallest = (0..circle.len()).min_by_key(|&i| &circle[i]).unwrap();
            circle.rotate_left(smallest);
            circle.push(circle[0].clone());
            found.insert(circle.join(" → "));
            return;
        }
        if done.contains(node) {
            return;
        }
        stack.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            visit(next, edges, stack, done, found);
        }
        stack.pop();
        done.insert(node.to_string());
    }
    let mut found = std::collections::BTreeSet::new();
    let mut done = std::collections::BTreeSet::new();
    for node in edges.keys() {
        visit(node, edges, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

#[test]
fn no_module_circles() {
    let mut found = Vec::new();
    for (krate, src) in crate_sources() {
        let edges = sibling_edges(&module_references(&src));
        found.extend(circles(&edges).into_iter().map(|c| format!("{krate}: {c}")));
    }
    assert!(
        found.is_empty(),
        "import circles between modules: {found:#?}"
    );
}

/// The checker itself: grouped `use` trees and `super::` resolve to sibling edges, and a circle
/// is named the way the failure prints it.
#[test]
fn a_circle_between_siblings_is_named() {
    let module = |path: &[&str]| path.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let batch = module(&["gpu", "batch"]);
    let params = module(&["gpu", "params"]);
    let references = vec![
        (
            batch.clone(),
            referenced_paths("use super::{params::{Params, X}, Precision};", &batch),
        ),
        (
            params.clone(),
            referenced_paths("fn f() -> crate::gpu::batch::Batch { todo!() }", &params),
        ),
    ];
    assert_eq!(
        circles(&sibling_edges(&references))
            .into_iter()
            .collect::<Vec<_>>(),
        ["gpu/batch → gpu/params → gpu/batch"]
    );
}
