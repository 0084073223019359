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
    assert tw.contract_name(khrap, "forced helper", "ru") == "Помогу (обязательно)"
    assert tw.strength_line(["heuristic"] * 4, "en").startswith("Played by normal bots")
    assert tw.strength_line(["easy"] * 4, "ru").startswith("Играли боты уровня «лёгкий»")
    # the caveat points at the other tables there are: weaker ones below normal, stronger ones above easy
    assert tw.strength_line(["heuristic"] * 4, "en").endswith("; a weaker table may call differently.")
    assert tw.strength_line(["rule"] * 4, "en").endswith("; a stronger table may call differently.")
    assert tw.strength_line(["easy", "random"] * 2, "ru").endswith("за более сильным столом заявки могут быть другими.")
    assert tw.strength_line(["easy", "strong"] * 2, "en").endswith("; a weaker table may call differently.")


def _held(cid: str, base: float, value: float) -> dict:
    """A paired row of a call stood by ``base`` then ``value`` times a deal, measured as a real change."""
    return {"key": f"held:{cid}", "base": base, "value": value, "difference": value - base,
            "ci": [value - base - 0.001, value - base + 0.001], "significant": True, "deals_needed": None}


def test_a_call_said_in_neither_is_left_out_of_the_calls_said_more() -> None:
    # "Sad" goes 0.001 -> 0.004 a deal: a real change on many deals, but it reads 0.00 -> 0.00, a call said in
    # neither to the precision shown, so it is left out; khrap's 0.981 -> 0.984 reads the same to two decimals
    # and is shown to three; take-five's 0.50 -> 0.70 as it is.
    khrap = load_variant("khrap")
    rows = [_held("take-five", 0.50, 0.70), _held("sad", 0.001, 0.004), _held("khrap", 0.981, 0.984)]
    empty = {"pot": {"settlement": {"mean": None}}, "calls": []}
    lines = tw.table_lines(khrap, khrap, rows, (empty, empty), 2000, ["heuristic"] * 4)
    assert lines[0] == ("Said more often: “Take five” 0.50 → 0.70 a deal, “Khrap” 0.981 → 0.984 a deal.")
    from khrap.sim.verdict import verdict

    said = verdict("Khrap", "Khrap", [{**r, "label": r["key"][5:]} for r in rows], 2000, 4, "normal")
    assert " take-five 0.50 → 0.70, khrap 0.981 → 0.984." in said and "sad" not in said


def test_a_forced_helper_is_named_in_words_and_never_said() -> None:
    # The records' label of a seat a call made help ("forced helper", also when a helicopter forces it) is no
    # call and no name: the report names it in words in each language (the game log's "обязан помогать"), and
    # it is not among the calls said more or less, in the table's words or in the statistician's verdict.
    khrap = load_variant("khrap")
    assert tw.contract_name(khrap, "forced helper", "en") == "Help (forced)"
    assert tw.contract_name(khrap, "forced declarer", "en") == "Khrap (forced)"
    assert tw.contract_name([khrap], "forced helper", "ru") == "Помогу (обязательно)"
    rows = [_held("forced helper", 0.02, 0.30), _held("helicopter", 0.01, 0.20)]
    empty = {"pot": {"settlement": {"mean": None}}, "calls": []}
    lines = tw.table_lines(khrap, khrap, rows, (empty, empty), 2000, ["heuristic"] * 4)
    assert lines[0] == "Said more often: “Helicopter” 0.01 → 0.20 a deal."
    from khrap.sim.verdict import verdict

    said = verdict("Khrap", "Khrap", [{**r, "label": r["key"][5:]} for r in rows], 2000, 4, "normal")
    assert "helicopter 0.01 → 0.20" in said and "forced" not in said


def test_the_first_page_says_a_dominated_new_call_is_never_worth_saying(tmp_path) -> None:
    """A house rule adding frap's blind frap (frap against frap without it): the verdict at the top of the page,
    before any section, and the terminal's first lines warn that it was never said and why."""
    import pytest
    from typer.testing import CliRunner

    from khrap.cli import app

    pytest.importorskip("matplotlib")
    plain = tmp_path / "frap-plain.yaml"
    plain.write_text('extends: frap\nname: {en: "Frap, no blind frap"}\ncalls:\n  blind-frap: {enabled: false}\n',
                     encoding="utf-8")
    page = tmp_path / "report.html"
    res = CliRunner().invoke(app, ["analyze", str(plain), "frap", "--deals", "40", "--evening", "10", "--workers",
                                   "1", "--bots", "normal", "-o", str(page)])
    assert res.exit_code == 0, res.output
    warning = ("Warning: “Blind frap”, which “Frap” adds, was never said by the bots in 40 deals. It wins no more "
               "than “Frap” and costs more when it fails, so a player has no reason to say it.")
    first = page.read_text(encoding="utf-8").split("<h2", 1)[0]
    assert warning in first and 'id="table-verdict"' in first
    assert warning in res.stdout.split("Verdict:", 1)[0]


def test_the_pot_in_chips_under_each_rule_by_its_own_base_stake() -> None:
    # A house rule at a base stake of 2 against khrap's 1: each summary's pot is in its own variant's base stakes
    # (5 under both: 5 chips under khrap, 10 under the house rule), the paired rows in the house rule's (a pot
    # left of 0.4 and 0.35 base stakes of 2 chips: 0.8 and 0.7 chips). The line said "10 chips ... 10 under
    # “Khrap”", khrap's pot counted at the house rule's base stake.
    khrap = load_variant("khrap")
    rule = khrap.model_copy(update={"base_stake": 2, "name": {"en": "Friday khrap"}})
    after = {"key": "pot_after", "base": 0.4, "value": 0.35, "difference": -0.05, "ci": [-0.1, 0.0],
             "significant": False, "deals_needed": 600}
    parent_summary = {"pot": {"settlement": {"mean": 5.0}}, "calls": [], "base_stake": 1}
    rule_summary = {"pot": {"settlement": {"mean": 5.0}}, "calls": [], "base_stake": 2}
    lines = tw.table_lines(khrap, rule, [after], (parent_summary, rule_summary), 200, ["heuristic"] * 4)
    assert lines[0] == ("The pot played for: 10 chips on average under “Friday khrap”, 5 under “Khrap”; left for the "
                        "next deal: 0.7 against 0.8 (no measurable difference at 200 deals).")


def test_the_verdict_says_whose_base_stakes_it_counts_in(tmp_path) -> None:
    """A house rule at a base stake of 2 against khrap's 1 (`khrap analyze khrap friday.yaml`): the verdict's
    amounts are in the house rule's base stakes for both rules ("stakes at risk per deal goes from 0.97 to 1.93 base
    stakes" is 1.9 and 3.9 chips, as the table's lines above say), which it now says; the same stakes say nothing."""
    import pytest
    from typer.testing import CliRunner

    from khrap.cli import app
    from khrap.sim.verdict import stakes_note

    pytest.importorskip("matplotlib")
    friday = tmp_path / "friday.yaml"
    friday.write_text("extends: khrap\nname: {en: Friday khrap, ru: Пятничный храп}\nbase_stake: 2\n", encoding="utf-8")
    for lang, said in (("en", "Its base stakes are “Friday khrap”'s (2 chips), under both rules."),
                       ("ru", "Базовые ставки здесь — ставки правил «Пятничный храп» (фишек в ставке: 2) для обоих "
                              "правил.")):
        res = CliRunner().invoke(app, ["analyze", "khrap", str(friday), "--deals", "20", "--evenings", "0", "--workers",
                                       "1", "--bots", "random", "--lang", lang, "-o", str(tmp_path / "report.html")])
        assert res.exit_code == 0, res.output
        verdict = next(line for line in res.stdout.splitlines() if line.startswith(("Verdict: ", "Вывод: ")))
        assert verdict.endswith(said), res.stdout
    assert stakes_note("Khrap, must overtrump", 1, 1) == ""


def test_a_house_rule_without_a_name_is_told_apart_from_its_parent(tmp_path) -> None:
    """A house rule with no ``name:`` takes its parent's, and the verdict read "Dealt again: 0% of deals under
    “Khrap”, 18% under “Khrap”" (the README's own `analyze khrap H` example): it is named after its file too."""
    import pytest
    from typer.testing import CliRunner

    from khrap.cli import app

    pytest.importorskip("matplotlib")
    house = tmp_path / "friday.yaml"
    house.write_text("extends: khrap\nante: {amount: 2}\n", encoding="utf-8")
    page = tmp_path / "report.html"
    for lang, rule, parent in (("en", "“Khrap (friday)”", "“Khrap”"), ("ru", "«Храп (friday)»", "«Храп»")):
        res = CliRunner().invoke(app, ["analyze", "khrap", str(house), "--deals", "20", "--evening", "10",
                                       "--workers", "1", "--lang", lang, "-o", str(page)])
        assert res.exit_code == 0, res.output
        dealt_again = next(line for line in res.stdout.splitlines() if line.startswith(("Dealt again", "Пересдача")))
        assert rule in dealt_again and parent in dealt_again.replace(rule, ""), dealt_again
        title = {"en": "Balance report: Khrap vs Khrap (friday)", "ru": "Отчёт о равновесии: Храп против Храп (friday)"}
        assert f"<title>{title[lang]}</title>" in page.read_text(encoding="utf-8")


def test_a_forced_status_is_named_by_the_variants_own_call_through_its_terms() -> None:
    # Frap's helper says "whist", and its terms name the helper «вистующий»: its forced helper read «Обязан
    # помогать», khrap's word.  It is named by the call that gives the status by choice, as an overridden call is.
    frap = load_variant("frap")
    assert tw.contract_name(frap, "forced helper", "ru") == "Вист (обязательно)"
    assert tw.contract_name(frap, "forced helper", "en") == "Whist (forced)"
    assert tw.contract_name(frap, "forced declarer", "ru") == "Фрап (обязательно)"
    # a house rule's terms apply to the name as to its sheet's sentences
    house = frap.model_copy(update={"terms": {"ru": {"обязательно": "по обязанности"}}})
    assert tw.contract_name(house, "forced helper", "ru") == "Вист (по обязанности)"
    # a status no call gives by choice: its own word, in the variant's terms
    nobody = frap.model_copy(update={"calls": {c: x for c, x in frap.calls.items() if x.effects.status != "helper"}})
    assert tw.contract_name(nobody, "forced helper", "ru") == "вистующий (обязательно)"
