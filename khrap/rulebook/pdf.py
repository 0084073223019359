"""Rule sheets as PDF: the HTML sheet laid out on A4 by WeasyPrint.

Why WeasyPrint: it is made for exactly this, turning HTML and print CSS (``@page``,
columns, page breaks) into paged PDF, so the PDF is the same page as the one a browser
prints, from the same template and style sheet; it installs from PyPI (``pip install
'khrap[pdf]'``) with no browser to download; it is BSD-licensed and actively maintained.
It needs the Pango text library from the system (Debian: ``libpango-1.0-0
libpangoft2-1.0-0``).  The alternatives were worse fits: xhtml2pdf has no CSS columns,
wkhtmltopdf is unmaintained and a separate binary, Playwright downloads a browser from
outside the package registries, and ReportLab would mean laying the sheet out again by
hand.
"""

from __future__ import annotations

from typing import Any

INSTALL_HINT = (
    "PDF output needs WeasyPrint: pip install 'khrap[pdf]' "
    "(it uses the Pango library; on Debian: apt-get install libpango-1.0-0 libpangoft2-1.0-0)"
)


class PdfUnavailable(RuntimeError):
    """WeasyPrint (or the system library it needs) is not installed."""


def _html_class() -> Any:
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as err:  # OSError: WeasyPrint is there but Pango is not
        raise PdfUnavailable(f"{INSTALL_HINT} ({err})") from err
    return HTML


def html_to_pdf(html: str) -> bytes:
    """A self-contained HTML page (a rule sheet) as PDF bytes, laid out with its print styles."""
    return _html_class()(string=html).write_pdf()


def page_count(html: str) -> int:
    """How many A4 pages the page takes as PDF."""
    return len(_html_class()(string=html).render().pages)


def render_pdf(ref: Any, lang: str = "en", *, example: bool = True) -> bytes:
    """The rule sheet of a variant (a name, a path or a Variant) as PDF bytes."""
    from khrap.rulebook.sheet import render_rules

    return html_to_pdf(render_rules(ref, "html", lang, example=example))
