"""The code passes ruff (configured in pyproject.toml); CI runs this with the test extra, which brings ruff."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_is_clean() -> None:
    if shutil.which("ruff") is None and subprocess.run([sys.executable, "-m", "ruff", "--version"],
                                                       capture_output=True).returncode != 0:
        message = "ruff is not installed (pip install -e '.[test]')"
        pytest.fail(message) if os.environ.get("KHRAP_CI") else pytest.skip(message)  # CI: KHRAP_CI=1
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "khrap", "tests", "benchmarks"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
