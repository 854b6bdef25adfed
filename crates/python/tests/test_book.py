"""The `python,runnable` code blocks of README.md, CONTRIBUTING.md, CHANGELOG.md and the user
guide under docs/ run, so that the Python the docs show keeps working. The convention is
tests/cli/book.rs's (which runs the `sh,runnable` and `console,runnable` blocks): per Markdown
file, its blocks run in order in one namespace (`__name__ == "__main__"`), in a fresh directory
holding symlinks to the repository's sweeps, examples, docs, archive and crates; the bosweep
executable (BOSWEEP_BIN, as in test_bosweep.py) is first on PATH and BOSWEEP_DEVICE is cpu.

A failing block names its file and the line of its opening fence, and its traceback shows the
Markdown file's own line numbers."""

import os
import re
import traceback
from pathlib import Path

import pytest

from test_bosweep import BIN, ROOT

TOP_LEVEL = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
BOOK = ROOT / "docs"
SANDBOX_LINKS = ["sweeps", "examples", "docs", "archive", "crates"]

# An opening fence: up to any indentation (a block may sit in a list item), three or more
# backticks or tildes, the info string.
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`]*?)\s*$")


def markdown_files():
    """The Markdown files checked: the top-level ones and every .md under docs/ except mdBook's
    output (docs/book) and any cargo target directory."""
    files = [ROOT / name for name in TOP_LEVEL if (ROOT / name).is_file()]
    for path in sorted(BOOK.rglob("*.md")):
        inside = path.relative_to(BOOK).parts
        if inside[0] != "book" and "target" not in inside[:-1]:
            files.append(path)
    return files


def is_runnable_python(info):
    """`python,runnable`: the language first, then words split by commas or spaces."""
    words = [w for w in re.split(r"[,\s]+", info) if w]
    return words[:1] == ["python"] and "runnable" in words


def runnable_python_blocks(text):
    """(line of the opening fence, code) of each fenced `python,runnable` block of `text`."""
    blocks, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        i += 1
        if not opening:
            continue
        indent, fence = len(opening["indent"]), opening["fence"]
        closing = re.compile(rf"^\s*{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        start = i
        while i < len(lines) and not closing.match(lines[i]):
            i += 1
        if is_runnable_python(opening["info"]):
            code = "\n".join(line[indent:] if not line[:indent].strip() else line.lstrip()
                             for line in lines[start:i])
            blocks.append((start, code))
        i += 1
    return blocks


def files_with_blocks():
    """One pytest parameter per file with runnable Python blocks, its id the file's path."""
    params = []
    for path in markdown_files():
        blocks = runnable_python_blocks(path.read_text())
        if blocks:
            relative = path.relative_to(ROOT).as_posix()
            params.append(pytest.param(relative, blocks, id=relative))
    return params or [pytest.param(None, [], id="none", marks=pytest.mark.skip(
        reason="no runnable python blocks"))]


def run_blocks(relative, blocks, directory, monkeypatch):
    """Runs `blocks` (of the file `relative`) in order in one namespace, in `directory`."""
    for name in SANDBOX_LINKS:
        if (ROOT / name).exists():
            (directory / name).symlink_to(ROOT / name)
    monkeypatch.chdir(directory)
    monkeypatch.setenv("PATH", os.pathsep.join([str(Path(BIN).parent), os.environ["PATH"]]))
    monkeypatch.setenv("BOSWEEP_DEVICE", "cpu")
    namespace = {"__name__": "__main__"}
    for fence_line, code in blocks:
        # Blank lines before the code, so that tracebacks give the Markdown file's line numbers.
        source = "\n" * fence_line + code
        try:
            exec(compile(source, relative, "exec"), namespace)
        except Exception:
            pytest.fail(f"{relative}:{fence_line}: python,runnable block failed\n"
                        f"{traceback.format_exc()}", pytrace=False)


@pytest.mark.parametrize("relative,blocks", files_with_blocks())
def test_runnable_python_blocks_run(relative, blocks, tmp_path, monkeypatch):
    run_blocks(relative, blocks, tmp_path, monkeypatch)


SYNTHETIC = """# Synthetic

```python,runnable
import os, shutil
assert os.path.isdir("sweeps") and os.environ["BOSWEEP_DEVICE"] == "cpu"
assert shutil.which("bosweep")
shared = __name__
```

```python
raise AssertionError("not runnable")
```

1. In a list:

   ~~~python runnable
   if shared == "__main__":
       shared = "seen"
   ~~~

```python,runnable
assert shared == "seen"
raise ValueError("the second runnable block")
```
"""


def test_blocks_share_a_namespace_and_a_failing_one_names_its_file_and_line(
        tmp_path, monkeypatch):
    blocks = runnable_python_blocks(SYNTHETIC)
    assert [line for line, _ in blocks] == [3, 16, 21]
    with pytest.raises(pytest.fail.Exception,
                       match=r"(?s)^docs/synthetic\.md:21: python,runnable block failed\n.*"
                             r'File "docs/synthetic\.md", line 23.*ValueError'):
        run_blocks("docs/synthetic.md", blocks, tmp_path, monkeypatch)
