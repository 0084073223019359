"""Issue 16: `khrap rules VARIANT --format pdf -o FILE` (guards khrap/rulebook/pdf.py and the print
styles in templates/style.css): WeasyPrint lays the HTML sheet out on A4, the same pages as the browser
print test (tests/test_rulebook_pdf.py): a whole sheet on two pages (Armenian three).

Skips, saying why, where WeasyPrint is not installed (pip install 'khrap[pdf]'); CI installs it."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from khrap.rulebook.i18n import languages
from khrap.rulebook.sheet import render_rules
from khrap.variant.catalog import builtin_names
from tests.test_rulebook_pdf import THREE_PAGES, browser, parts, print_pdf
from tests.test_rulebook_pdf import pages as chromium_pages

ROOT = Path(__file__).resolve().parents[1]

try:
    from khrap.rulebook.pdf import PdfUnavailable, page_count

    page_count("<p>x</p>")
    MISSING = None
except (ImportError, PdfUnavailable) as err:
    MISSING = str(err)

needs_weasyprint = pytest.mark.skipif(MISSING is not None, reason=f"no WeasyPrint: {MISSING}")


def khrap(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, env=env)


@needs_weasyprint
def test_rules_command_writes_a_pdf(tmp_path: Path) -> None:
    out = tmp_path / "khrap.pdf"
    result = khrap("-m", "khrap.cli", "rules", "khrap", "--format", "pdf", "--lang", "ru", "-o", str(out))
    assert result.returncode == 0, result.stderr
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and b"%%EOF" in data[-1024:]


@needs_weasyprint
@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("name", builtin_names())
def test_pdf_pages_fit(name: str, lang: str) -> None:
    """The sheet WeasyPrint lays out is the one the browser prints: two pages (Armenian three)."""
    html = render_rules(name, "html", lang)
    assert parts(html)[1] is not None
    assert page_count(html) <= (3 if lang in THREE_PAGES else 2)


@needs_weasyprint
@pytest.mark.skipif(browser() is None, reason="no Chromium to compare with")
@pytest.mark.parametrize(("name", "lang"), [("khrap", "ru"), ("khrap-shoot", "en")])
def test_pdf_has_the_browsers_pages(name: str, lang: str) -> None:
    rules, appendix = parts(render_rules(name, "html", lang))
    with tempfile.TemporaryDirectory() as tmp:
        for label, html in (("rules", rules), ("appendix", appendix)):
            assert page_count(html) == chromium_pages(print_pdf(html, Path(tmp), label)), label


def test_without_weasyprint_the_command_says_what_to_install(tmp_path: Path) -> None:
    blocker = tmp_path / "sitecustomize.py"  # makes `import weasyprint` fail in the child process
    blocker.write_text("import sys\nsys.modules['weasyprint'] = None\n", encoding="utf-8")
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    result = khrap("-m", "khrap.cli", "rules", "khrap", "--format", "pdf", "-o", str(tmp_path / "x.pdf"), env=env)
    assert result.returncode == 2
    assert "pip install 'khrap[pdf]'" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "x.pdf").exists()
