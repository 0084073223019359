"""The web table writes a change of chips as the terminal does: "+2" for a gain, "−1" (U+2212) for a loss and
"0" for none, never "+0" (the log writes every payment unsigned, "pays 0").  table.js's `signed` is run by Node
on numbers whose forms are written here by hand."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

TABLE_JS = Path(__file__).resolve().parents[2] / "khrap" / "web" / "static" / "table.js"


def _signed_in_node(numbers: list[int]) -> list[str]:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("Node is not installed")
    found = re.search(r"^function signed\(n\) \{\n.*?^\}\n", TABLE_JS.read_text(encoding="utf-8"), re.M | re.S)
    assert found, "table.js has no function signed(n)"
    script = found.group(0) + f"console.log(JSON.stringify({json.dumps(numbers)}.map(signed)));"
    done = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def test_a_change_of_no_chips_reads_0_and_others_carry_their_sign() -> None:
    assert _signed_in_node([2, 0, -1, 15]) == ["+2", "0", "\u22121", "+15"]
