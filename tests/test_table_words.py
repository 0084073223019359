"""Issue 29: the analysis's verdict in the table's words (khrap.sim.table_words)."""

from __future__ import annotations

from khrap.sim import table_words as tw
from khrap.variant.catalog import load_variant


def _without(variant, cid: str):
    """``variant`` with the call ``cid`` switched off: the parent a house rule adding it is compared with."""
    calls = dict(variant.calls)
    calls[cid] = calls[cid].model_copy(update={"enabled": False})
    return variant.model_copy(update={"calls": calls})


def test_a_blind_call_that_only_costs_more_is_dominated() -> None:
    # Frap's blind frap: the same effects as frap, said unseen, and a failure costs 2 pots with one trick
    # and 4 with none (3 with the trump ace), against frap's 1 and 2: nobody should say it.
    frap = load_variant("frap")
    assert tw.dominated_by(frap, "blind-frap") == "frap"
    assert tw.dominated_by(frap, "frap") is None  # the cheaper one is not dominated by the dearer one
    assert [tw.dominated_by(frap, c) for c in ("whist", "cut", "pass")] == [None, None, None]
    khrap = load_variant("khrap")
    assert all(tw.dominated_by(khrap, c) is None for c in khrap.calls)  # each has its own terms


def test_a_call_the_house_rule_adds_and_nobody_says_is_flagged_by_name() -> None:
    frap = load_variant("frap")
    parent = _without(frap, "blind-frap")
    assert tw.added_calls(parent, frap) == ["blind-frap"]
    en = tw.call_warnings(parent, frap, {"frap": 2000}, 2000, "en")
    assert en == ["Warning: “Blind frap”, which “Frap” adds, was never said by the bots in 2000 deals. It wins no "
                  "more than “Frap” and costs more when it fails, so a player has no reason to say it."]
    ru = tw.call_warnings(parent, frap, {"blind-frap": 3}, 2000, "ru")
    assert len(ru) == 1 and "«Фрап втёмную»" in ru[0] and "3 раз за 2000" in ru[0] and "blind-frap" not in ru[0]
    assert tw.call_warnings(parent, frap, {"blind-frap": 20}, 2000, "en") == []  # 1 % of deals: used


def test_contracts_and_strengths_by_their_display_names() -> None:
    khrap = load_variant("khrap")
    assert tw.contract_name(khrap, "take-five", "ru") == "Беру пять"
    assert tw.contract_name(khrap, "khrap (overridden)", "en") == "Khrap (overridden)"
    assert tw.contract_name(khrap, "forced helper", "ru") == "вынужденный помогающий"
    assert tw.strength_line(["heuristic"] * 4, "en").startswith("Played by normal bots")
    assert tw.strength_line(["easy"] * 4, "ru").startswith("Играли боты уровня «лёгкий»")
