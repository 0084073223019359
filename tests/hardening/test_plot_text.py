"""Names in plots: matplotlib's mathtext never reads a name (``$\\frac{$`` broke the report, ``$5 or $6``
was set as math); a name is set exactly as written, and the report escapes it for HTML."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from tests.hardening.common import assert_clean, assert_refused, invoke

pytest.importorskip("matplotlib")

NAMES = ["$\\frac{$", "$5 or $6", "$x^2$", "\\alpha $$ \\", "50% of $", "$\\mathrm{\\undefined}$"]


def test_mathtext_in_names_is_set_as_written(tmp_path: Path) -> None:
    paths = []
    for i, name in enumerate(NAMES[:3]):
        path = tmp_path / f"v{i}.yaml"
        path.write_text(f"extends: khrap\nname: {{en: {json.dumps(name)}}}\n"
                        f"calls: {{khrap: {{name: {{en: {json.dumps(NAMES[3 + i])}}}}}}}\n")
        paths.append(path)
    out = tmp_path / "report.html"
    result = invoke(["analyze", *paths, "--deals", "30", "--workers", "1", "-o", out], "plots")
    assert_clean(result)
    text = out.read_text()
    for name in NAMES[:3]:
        assert html.escape(name, quote=False) in text or name in text


def test_the_plots_under_the_report_style_do_not_parse_math() -> None:
    from khrap.sim import plots

    assert plots.RC["text.parse_math"] is False


def test_a_huge_name_is_refused_before_any_work(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("extends: khrap\nname: {en: " + "x" * 1_000_00 + "}\n")
    assert_refused(invoke(["analyze", path, "--deals", "10", "-o", tmp_path / "r.html"], "plots"), path)
    assert not (tmp_path / "r.html").exists()
