"""Every scenario file under tests/scenarios/ runs through `khrap run`'s code and meets its `expect:`.

Expected values in these files are worked out by hand from RULES.md; the
comments in each file show the arithmetic.
"""

from pathlib import Path

import pytest

from khrap.scenario import ScenarioStop, check_expect, load_scenario, run
from khrap.variant.loader import ANYWHERE, trusting

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_scenario(path: Path) -> None:
    with trusting(ANYWHERE):  # the project's own files: some scenarios name a house rule in docs/
        scenario = load_scenario(path)
    assert scenario.expect, f"{path} has no expect: section, so it checks nothing"
    try:
        state, error = run(scenario), None
    except ScenarioStop as err:
        state, error = None, str(err)
    problems = check_expect(scenario, state, error)
    assert not problems, "\n".join(problems)
