//! The Markdown a reader meets — README.md, CONTRIBUTING.md, CHANGELOG.md and every page of the
//! mdBook user guide under docs/ (its `book/` output left out) — checked as the reader would use
//! it: every link leads somewhere, and every code block marked runnable runs.
//!
//! # Links
//!
//! Every link and image whose target is not an absolute URL (`http:`, `https:`, `mailto:`) must
//! name an existing file relative to the linking file (a bare `#anchor` names the file itself),
//! and a `#fragment` into a Markdown file must name one of its headings' ids as mdBook 0.5 makes
//! them ([`heading_ids`]), so a renamed heading cannot silently break a link to it. A fragment
//! into any other file (GitHub's `#L10` line anchors) is not checked. No link may leave the
//! repository, and a page under docs/ may not leave docs/: the rendered book holds only docs/,
//! so the link would be broken there. Pages name repository files as code (`sweeps/quick.toml`).
//!
//! # Runnable code blocks
//!
//! A fenced code block whose info string is `sh,runnable` or `console,runnable` is run by
//! [`runnable_shell_blocks_run`]; one whose info string is `python,runnable` is run by pytest
//! (crates/python/tests/test_book.py, same rules). `runnable` beside any other language is an
//! error, so that a block meant to run is never silently skipped.
//!
//! The runnable blocks of one file run in order, in one fresh temporary directory holding
//! symlinks to the repository's `sweeps`, `examples`, `docs`, `archive` and `crates`: a snippet
//! says `bosweep sweep sweeps/quick.toml --out results/quick`, and a later block of the same
//! file finds `results/quick`. Each block is its own `sh -e -c`: a command that fails ends it,
//! and a variable it exports is gone in the next block. `bosweep` on PATH is the executable
//! under test, and BOSWEEP_DEVICE is `cpu` unless the block sets another.
//!
//! An `sh` block is run as written (`#` starts a comment, a line ending in `\` goes on). A
//! `console` block shows a session: its lines starting with `$ ` are the commands (the prompt
//! removed; a command ending in `\` goes on on the next line) and the other lines are their
//! output, shown to the reader and not compared. A block that exits non-zero fails the test,
//! naming its file and the line of its opening fence, and the file's later blocks do not run.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Output, Stdio};

use pulldown_cmark::{CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};

use crate::common::assert_contains;

/// The repository, whose Markdown is checked.
fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The top-level Markdown files read outside the book (on GitHub), checked when present.
const TOP_LEVEL: [&str; 3] = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"];

/// The book's root: pages under it may link only to files under it.
const BOOK: &str = "docs";

/// The repository's entries a runnable block finds in its working directory.
const SANDBOX_LINKS: [&str; 5] = ["sweeps", "examples", "docs", "archive", "crates"];

/// The Markdown files checked, relative to `root`: the top-level ones and every `.md` under
/// docs/, without mdBook's output (docs/book) or any cargo `target` directory.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = TOP_LEVEL
        .iter()
        .map(PathBuf::from)
        .filter(|f| root.join(f).is_file())
        .collect();
    collect_markdown(root, Path::new(BOOK), &mut files);
    files
}

/// Appends the `.md` files under `dir` (relative to `root`) to `files`, in name order.
fn collect_markdown(root: &Path, dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
        return;
    };
    let mut names: Vec<_> = entries.map(|e| e.unwrap().file_name()).collect();
    names.sort();
    for name in names {
        let path = dir.join(&name);
        if root.join(&path).is_dir() {
            if path != Path::new(BOOK).join("book") && name != "target" {
                collect_markdown(root, &path, files);
            }
        } else if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A parser with the options mdBook 0.5 renders with (mdbook-markdown's `new_cmark_parser` at
/// its defaults): smart punctuation turns `--` into `–`, which changes heading ids, and
/// definition-list terms get ids as headings do.
fn parser(markdown: &str) -> Parser<'_> {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_SMART_PUNCTUATION
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_GFM;
    Parser::new_ext(markdown, options)
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

/// mdBook 0.5's `id_from_content` (mdbook-html's utils.rs): a heading's text lowercased, each
/// whitespace character a `-`, and of the rest only alphanumerics, `-` and `_` kept.
fn heading_id(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c),
            c if c.is_whitespace() => Some('-'),
            _ => None,
        })
        .collect()
}

/// mdBook's `unique_id`: `id`, or the first of `id-1`, `id-2`, … not yet in `used`.
fn unique_id(id: String, used: &HashSet<String>) -> String {
    if !used.contains(&id) {
        return id;
    }
    (1..)
        .map(|n| format!("{id}-{n}"))
        .find(|candidate| !used.contains(candidate))
        .unwrap()
}

/// The ids mdBook gives the headings and definition-list terms of a page: from the text they
/// show (inline code included, markup and image alt text not), made unique in page order, and
/// the explicit `{#id}` attributes, which mdBook takes as written.
fn heading_ids(markdown: &str) -> HashSet<String> {
    let mut generated = HashSet::new();
    let mut explicit = HashSet::new();
    let mut heading: Option<String> = None;
    let mut in_image = false;
    for event in parser(markdown) {
        match event {
            Event::Start(Tag::Heading { id: Some(id), .. }) => {
                explicit.insert(id.to_string());
            }
            Event::Start(Tag::Heading { id: None, .. } | Tag::DefinitionListTitle) => {
                heading = Some(String::new());
            }
            Event::End(TagEnd::Heading(_) | TagEnd::DefinitionListTitle) => {
                if let Some(text) = heading.take() {
                    generated.insert(unique_id(heading_id(&text), &generated));
                }
            }
            Event::Start(Tag::Image { .. }) => in_image = true,
            Event::End(TagEnd::Image) => in_image = false,
            Event::Text(text) | Event::Code(text) if !in_image => {
                if let Some(heading) = &mut heading {
                    heading.push_str(&text);
                }
            }
            Event::SoftBreak => {
                if let Some(heading) = &mut heading {
                    heading.push('\n');
                }
            }
            _ => {}
        }
    }
    generated.extend(explicit);
    generated
}

/// A link or image of a Markdown file: its target as written and the line it starts on.
struct Target {
    what: &'static str,
    url: String,
    line: usize,
}

/// Every link and image of `markdown` (an e-mail autolink's target has no `mailto:` and is left
/// out).
fn targets(markdown: &str) -> Vec<Target> {
    parser(markdown)
        .into_offset_iter()
        .filter_map(|(event, range)| {
            let (what, url) = match event {
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    ..
                }) if link_type != LinkType::Email => ("link", dest_url),
                Event::Start(Tag::Image { dest_url, .. }) => ("image", dest_url),
                _ => return None,
            };
            Some(Target {
                what,
                url: url.to_string(),
                line: line_of(markdown, range.start),
            })
        })
        .collect()
}

fn is_absolute_url(url: &str) -> bool {
    ["http:", "https:", "mailto:"]
        .iter()
        .any(|scheme| url.starts_with(scheme))
}

/// `target` (a relative path) from the directory of `file`, both relative to the repository,
/// with `.` and `..` resolved as written; `None` where it climbs out of the repository.
fn resolve(file: &Path, target: &str) -> Option<PathBuf> {
    let mut parts: Vec<Component> = file.parent()?.components().collect();
    for component in Path::new(target).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            _ => parts.push(component),
        }
    }
    Some(parts.iter().collect())
}

/// The problems of the links and images of `file` (relative to `root`; `markdown` its text,
/// which need not be on disk), each as `file:line: link "target": what is wrong`.
fn link_problems(root: &Path, file: &Path, markdown: &str) -> Vec<String> {
    targets(markdown)
        .into_iter()
        .filter_map(|target| {
            let problem = target_problem(root, file, markdown, &target.url)?;
            Some(format!(
                "{}:{}: {} \"{}\": {problem}",
                file.display(),
                target.line,
                target.what,
                target.url
            ))
        })
        .collect()
}

/// What is wrong with the link target `url` of `file` (whose text is `markdown`), if anything.
fn target_problem(root: &Path, file: &Path, markdown: &str, url: &str) -> Option<String> {
    if url.is_empty() || is_absolute_url(url) {
        return None;
    }
    let (path, fragment) = match url.split_once('#') {
        Some((path, fragment)) => (path, Some(fragment)),
        None => (url, None),
    };
    if path.starts_with('/') {
        return Some("an absolute path, which GitHub and the book resolve differently".into());
    }
    let resolved = if path.is_empty() {
        file.to_path_buf()
    } else {
        match resolve(file, path) {
            Some(resolved) => resolved,
            None => return Some("points outside the repository".into()),
        }
    };
    if file.starts_with(BOOK) && !resolved.starts_with(BOOK) {
        return Some(format!(
            "leaves {BOOK}/, and the book holds only {BOOK}/: name a repository file as code \
             (`{}`) instead of linking it",
            resolved.display()
        ));
    }
    let same_file = resolved == file;
    if !same_file && !root.join(&resolved).exists() {
        return Some(format!("{} does not exist", resolved.display()));
    }
    let fragment = fragment.filter(|_| resolved.extension().is_some_and(|e| e == "md"))?;
    let ids = if same_file {
        heading_ids(markdown)
    } else {
        heading_ids(&read(&root.join(&resolved)))
    };
    (!ids.contains(fragment)).then(|| {
        format!(
            "no heading with id \"{fragment}\" in {}",
            resolved.display()
        )
    })
}

#[test]
fn every_internal_link_and_anchor_of_the_markdown_resolves() {
    let root = repository();
    let problems: Vec<String> = markdown_files(root)
        .iter()
        .flat_map(|file| link_problems(root, file, &read(&root.join(file))))
        .collect();
    assert!(
        problems.is_empty(),
        "{} broken links:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The files an mdBook `{{#include FILE}}` of `markdown` names, as written.
fn includes(markdown: &str) -> Vec<&str> {
    markdown
        .split("{{#include ")
        .skip(1)
        .filter_map(|rest| rest.split_once("}}"))
        .map(|(file, _)| file.trim())
        .collect()
}

/// mdBook renders only the pages SUMMARY.md lists, so a page under docs/ that it does not list
/// (nor includes into one that it does) would be missing from the book without any error.
#[test]
fn every_page_under_docs_is_in_the_book() {
    let root = repository();
    let summary = Path::new(BOOK).join("SUMMARY.md");
    let mut reached: HashSet<PathBuf> = targets(&read(&root.join(&summary)))
        .iter()
        .filter_map(|target| resolve(&summary, &target.url))
        .collect();
    let pages: Vec<PathBuf> = markdown_files(root)
        .into_iter()
        .filter(|file| file.starts_with(BOOK) && *file != summary)
        .collect();
    for page in &pages {
        for file in includes(&read(&root.join(page))) {
            reached.extend(resolve(page, file));
        }
    }
    let missing: Vec<String> = pages
        .iter()
        .filter(|page| !reached.contains(*page))
        .map(|page| page.display().to_string())
        .collect();
    assert!(
        missing.is_empty(),
        "pages under {BOOK}/ that {} neither lists nor includes: {}",
        summary.display(),
        missing.join(", ")
    );
}

/// The Rust quick start of the README and of Getting started is `examples/src/bin/ask_tell.rs` (less its
/// `//!` lines), which the test command builds: the program they show compiles and runs as
/// written.
#[test]
fn the_rust_quick_start_is_the_ask_tell_example() {
    let root = repository();
    let example = read(&root.join("examples/src/bin/ask_tell.rs"));
    let program: Vec<&str> = example.lines().filter(|l| !l.starts_with("//!")).collect();
    let program = format!("{}\n", program.join("\n").trim());
    for page in ["README.md", "docs/guide/getting-started.md"] {
        let blocks = fenced_blocks(&read(&root.join(page)));
        assert!(
            blocks
                .iter()
                .any(|block| block.language == "rust" && block.code == program),
            "{page}: no Rust block equals examples/src/bin/ask_tell.rs less its //! lines; copy the \
             example into the page"
        );
    }
}

/// A fenced code block: its language (the info string's first word), whether the info string
/// marks it `runnable`, the line of its opening fence, and its text.
struct Block {
    language: String,
    runnable: bool,
    line: usize,
    code: String,
}

/// The fenced code blocks of `markdown`, in order. An info string is the language first, then
/// words split by commas or spaces (`sh,runnable`).
fn fenced_blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (event, range) in parser(markdown).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let mut words = info.split([',', ' ', '\t']).filter(|w| !w.is_empty());
                open = Some(Block {
                    language: words.next().unwrap_or_default().to_owned(),
                    runnable: words.any(|w| w == "runnable"),
                    line: line_of(markdown, range.start),
                    code: String::new(),
                });
            }
            Event::Text(text) => {
                if let Some(block) = &mut open {
                    block.code.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(open.take()),
            _ => {}
        }
    }
    blocks
}

/// The commands of a `console` block: its `$ ` lines without the prompt, each with the lines
/// that continue it (after a trailing `\`); the other lines are output.
fn console_commands(session: &str) -> String {
    let mut script = String::new();
    let mut continued = false;
    for line in session.lines() {
        let command = if continued {
            Some(line)
        } else {
            line.strip_prefix("$ ")
        };
        if let Some(command) = command {
            script.push_str(command);
            script.push('\n');
        }
        continued = command.is_some_and(|c| c.ends_with('\\'));
    }
    script
}

/// The shell script of a runnable block; an error for a language the shell does not run.
fn shell_script(block: &Block) -> Result<String, String> {
    match block.language.as_str() {
        "sh" => Ok(block.code.clone()),
        "console" => {
            let script = console_commands(&block.code);
            if script.is_empty() {
                Err("console,runnable block without a `$ ` command line".into())
            } else {
                Ok(script)
            }
        }
        other => Err(format!(
            "{other},runnable: only sh, console (run here) and python (run by pytest, \
             crates/python/tests/test_book.py) blocks run"
        )),
    }
}

/// A fresh directory for the blocks of `file`, holding symlinks to the repository's entries
/// that snippets name.
fn sandbox(file: &Path) -> PathBuf {
    let name = file.to_string_lossy().replace(['/', '\\'], "-");
    let dir = std::env::temp_dir().join(format!("bosweep-book-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in SANDBOX_LINKS {
        let target = repository().join(entry);
        if target.exists() {
            std::os::unix::fs::symlink(target, dir.join(entry)).unwrap();
        }
    }
    dir
}

/// Runs `script` with `sh -e -c` in `dir`, the executable under test first on PATH.
fn run_shell(dir: &Path, script: &str) -> Output {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_bosweep")).parent().unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(
        std::iter::once(bin_dir.to_path_buf()).chain(std::env::split_paths(&path)),
    )
    .unwrap();
    Command::new("sh")
        .args(["-e", "-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .env("BOSWEEP_DEVICE", "cpu")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The last lines of a command's output, enough to see why it failed.
fn tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

/// Runs the runnable shell blocks of `file` (`markdown` its text) in order in one sandbox; the
/// first block that fails or cannot run ends it, with a message naming the file and its line.
fn run_shell_blocks(file: &Path, markdown: &str) -> Result<(), String> {
    let blocks: Vec<Block> = fenced_blocks(markdown)
        .into_iter()
        .filter(|block| block.runnable && block.language != "python")
        .collect();
    if blocks.is_empty() {
        return Ok(());
    }
    let dir = sandbox(file);
    for block in &blocks {
        let at = format!("{}:{}", file.display(), block.line);
        let script = shell_script(block).map_err(|e| format!("{at}: {e}"))?;
        let out = run_shell(&dir, &script);
        if !out.status.success() {
            return Err(format!(
                "{at}: {},runnable block failed ({}) in {}\n--- stdout (tail)\n{}\n--- stderr \
                 (tail)\n{}",
                block.language,
                out.status,
                dir.display(),
                tail(&out.stdout),
                tail(&out.stderr)
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[test]
fn runnable_shell_blocks_run() {
    let root = repository();
    let failures: Vec<String> = markdown_files(root)
        .iter()
        .filter_map(|file| run_shell_blocks(file, &read(&root.join(file))).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} files with a failing runnable block:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn heading_ids_are_mdbooks() {
    for (heading, id) in [
        (
            "Parallel evaluation: batches and asynchronous workers",
            "parallel-evaluation-batches-and-asynchronous-workers",
        ),
        ("SBO-KDE and DRBO-KDE", "sbo-kde-and-drbo-kde"),
        ("`bosweep compare`", "bosweep-compare"),
        ("*Reading* a [report](reports.md)", "reading-a-report"),
        ("What's new in 0.2?", "whats-new-in-02"),
        ("`--device` -- where it runs", "--device--where-it-runs"),
        ("Badge ![CI](ci.svg)", "badge"),
        ("snake_case  twice", "snake_case--twice"),
    ] {
        let ids = heading_ids(&format!("## {heading}\n"));
        assert_eq!(ids, HashSet::from([id.to_owned()]), "{heading}");
    }
}

#[test]
fn repeated_headings_get_numbered_ids_and_explicit_ids_are_kept() {
    let page =
        "# Usage\n\n## Usage\n\n## Usage-1\n\n## Options {#opts}\n\nTerm\n: its definition\n";
    let ids = heading_ids(page);
    let expected = ["usage", "usage-1", "usage-1-1", "opts", "term"];
    assert_eq!(ids, expected.map(str::to_owned).into(), "{page}");
}

/// A small repository in a fresh directory: a guide page with headings and a sweep file.
fn synthetic_repository() -> PathBuf {
    let root = std::env::temp_dir().join(format!("bosweep-book-links-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("docs/engine")).unwrap();
    std::fs::create_dir_all(root.join("sweeps")).unwrap();
    std::fs::write(root.join("docs/engine/x.md"), "# X\n\n## Foo bar\n").unwrap();
    std::fs::write(root.join("sweeps/quick.toml"), "").unwrap();
    root
}

#[test]
fn broken_links_are_named_with_their_file_line_and_reason() {
    let root = synthetic_repository();
    let page = "# Sweeps\n\n[ok](../engine/x.md#foo-bar), [here](#sweeps) and \
                [renamed](../engine/x.md#foo);\n[missing](#nowhere) [gone](../engine/y.md)\n\
                [config](../../sweeps/quick.toml) ![out](../../../shared/z.png) \
                [web](https://example.com/a#b) <me@example.com>\n";
    let problems = link_problems(&root, Path::new("docs/guide/sweeps.md"), page);
    let expected = [
        r#"docs/guide/sweeps.md:3: link "../engine/x.md#foo": no heading with id "foo" in docs/engine/x.md"#,
        r##"docs/guide/sweeps.md:4: link "#nowhere": no heading with id "nowhere" in docs/guide/sweeps.md"##,
        r#"docs/guide/sweeps.md:4: link "../engine/y.md": docs/engine/y.md does not exist"#,
        "docs/guide/sweeps.md:5: link \"../../sweeps/quick.toml\": leaves docs/, and the book \
         holds only docs/: name a repository file as code (`sweeps/quick.toml`) instead of \
         linking it",
        r#"docs/guide/sweeps.md:5: image "../../../shared/z.png": points outside the repository"#,
    ];
    assert_eq!(problems, expected);

    let readme = "[the sweep](sweeps/quick.toml), [the engine](docs/engine/x.md#foo-bar)\n";
    assert_eq!(
        link_problems(&root, Path::new("README.md"), readme),
        Vec::<String>::new()
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn runnable_blocks_share_a_directory_and_a_failing_one_is_named_by_file_and_line() {
    let page = "# Synthetic

```sh,runnable
# the executable under test, the repository's sweeps, the CPU device
bosweep --help > help.txt && test -d sweeps && test \"$BOSWEEP_DEVICE\" = cpu
echo 'from the first block' \\
  > note.txt
```

```console,runnable
$ grep -q sweep help.txt
$ cat note.txt
from the first block
```

```python,runnable
raise SystemExit('pytest runs this block, not the shell')
```

```sh,runnable
cat note.txt
exit 3
```
";
    let file = Path::new("docs/synthetic-runnable.md");
    let failure = run_shell_blocks(file, page).unwrap_err();
    assert!(
        failure.starts_with("docs/synthetic-runnable.md:20: sh,runnable block failed"),
        "{failure}"
    );
    assert_contains(&failure, &["--- stdout (tail)\nfrom the first block\n"]);

    let passing = &page[..page.find("```sh,runnable\ncat").unwrap()];
    assert_eq!(run_shell_blocks(file, passing), Ok(()));
}
