#!/usr/bin/env bash
# Redraws the pictures the README and the guide show, from a fresh run:
# - docs/report-html.png: the first problem's section of the quick sweep's report.html;
# - docs/quick-branin-regret.png and docs/quick-ranks.png: two of that report's plots;
# - docs/book.png: the guide's first page.
# Both in headless Chromium at a fixed window size. Run from the repository root; BOSWEEP_BIN
# names the executable (default: a release build).
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/pictures
rm -rf "$out" && mkdir -p "$out"
if [ -z "${BOSWEEP_BIN:-}" ]; then
    cargo build --release --locked
    BOSWEEP_BIN=target/release/bosweep
fi
"$BOSWEEP_BIN" --device cpu sweep sweeps/quick.toml --out "$out/quick" 2>/dev/null
cp "$out/quick/plots/branin-best-evaluated-regret.png" docs/quick-branin-regret.png
cp "$out/quick/plots/ranks.png" docs/quick-ranks.png
# Only the section of the first problem: every element of the page's body outside it is removed
# before the screenshot.
python3 - "$out/quick/report.html" "$out/section.html" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
keep = """<script>
const body = document.body, first = document.getElementById('section-5');
let inside = false;
for (const node of [...body.children]) {
  if (node === first) inside = true;
  else if (inside && node.tagName === 'H2') inside = false;
  if (!inside && node.tagName !== 'SCRIPT') node.remove();
}
</script></body>"""
open(sys.argv[2], "w", encoding="utf-8").write(page.replace("</body>", keep))
PY
chromium=${BOSWEEP_CHROMIUM:-chromium}
shoot() {
    "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size="$1" --screenshot="$2" "file://$PWD/$3" 2>/dev/null
}
shoot 1400,1500 docs/report-html.png "$out/section.html"
mdbook=$(command -v mdbook || echo target/tools/bin/mdbook)
"$mdbook" build docs >/dev/null
shoot 1200,760 docs/book.png target/book/introduction.html
