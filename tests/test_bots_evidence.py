"""The search's evidence from the calls: the weight's direction follows the fitted slope, and the fitter
recovers a known density ratio (benchmarks/calibrate.py --bidding-only)."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import yaml

from khrap.bots import SearchBot
from khrap.bots.determinize import seat_view
from khrap.bots.search import evidence
from tests.test_bots_search import _decision

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from calibrate import BIDDING, fit_log_ratio  # noqa: E402


def test_the_fitter_recovers_the_log_ratio_of_two_normals() -> None:
    # x ~ N(1, 1) against x ~ N(0, 1): log ratio = x - 1/2, so slope 1 and margin -1/2.
    rng = random.Random(7)
    rows = [(rng.gauss(1.0, 1.0), 1) for _ in range(4000)] + [(rng.gauss(0.0, 1.0), 0) for _ in range(4000)]
    slope, margin = fit_log_ratio(rows)
    assert abs(slope - 1.0) < 0.1
    assert abs(margin + 0.5) < 0.1
    # the same with the labels swapped: the ratio turns over (a passer's hand is weaker than a sampled one)
    slope, margin = fit_log_ratio([(x, 1 - y) for x, y in rows])
    assert abs(slope + 1.0) < 0.1


def _caller_deals() -> tuple[SearchBot, list]:
    for seed in range(60):
        state = _decision("khrap", 4, seed, True)
        if any(s != 0 and state.call_of[s] is not None and s in state.in_play for s in range(4)):
            break
    else:
        raise AssertionError("no deal with another caller in play")
    bot = SearchBot(state.rules, timed=False)
    view = seat_view(state, 0)
    return bot, [view.sample(random.Random(k)) for k in range(40)]


def test_a_callers_strong_hand_weighs_more_and_the_fitted_slope_sets_the_direction() -> None:
    bot, deals = _caller_deals()
    called = [sum(x for c, x in evidence(bot.est, d, 0) if c) for d in deals]
    strong, weak = deals[called.index(max(called))], deals[called.index(min(called))]
    assert max(called) > min(called)
    bot.est.k = replace(bot.est.k, called_slope=2.0, passed_slope=0.0)
    assert bot.likelihood(strong, 0) > bot.likelihood(weak, 0)
    bot.est.k = replace(bot.est.k, called_slope=-2.0)
    assert bot.likelihood(strong, 0) < bot.likelihood(weak, 0)
    bot.est.k = replace(bot.est.k, called_slope=0.0)
    assert bot.likelihood(strong, 0) == bot.likelihood(weak, 0) == 1.0  # no slope: the calls say nothing


def test_bidding_only_fits_the_four_constants_and_keeps_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "calibration.yaml"
    before = {"sharpen": 1.3, "undecided": 0.8, "contest": 0.01, "alone": 0.5, "caution": 1.5}
    from khrap.bots.calibration import family, fingerprint
    from khrap.variant.catalog import load_variant

    variant = load_variant("frap")
    out.write_text(yaml.safe_dump({"variants": [{"name": "frap", "fingerprint": fingerprint(variant),
                                                 "family": family(variant), "players": 4, "constants": before}]}))
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "calibrate.py"), "frap", "--bidding-only",
                    "--deals", "60", "--out", str(out)], check=True, capture_output=True, timeout=300)
    entry = yaml.safe_load(out.read_text())["variants"][0]
    for name, value in before.items():
        assert entry["constants"][name] == value
    assert entry["fitted_on"]["bidding"]["seats"]["called"] >= 40
    # a frapper or whister holds more tricks than a hand dealt at random for him: the slope is positive
    assert entry["constants"]["called_slope"] > 0.5
    assert set(BIDDING) <= set(entry["constants"])


def test_the_fewest_samples_to_override_come_from_the_variants_calibration() -> None:
    # khrap-shoot's entry trusts 5 effective samples (its few-sample overrides won in duplicate matches),
    # the default is 15 (frap's few-sample overrides lost): docs/solver.md, "why 15".
    from khrap.engine import GameState
    from khrap.variant.catalog import builtin

    assert SearchBot(GameState(builtin("khrap-shoot"), 4).rules).est.k.min_effective == 5.0
    assert SearchBot(GameState(builtin("frap"), 4).rules).est.k.min_effective == 15.0


def test_the_weight_is_the_product_of_each_callers_factor_each_capped() -> None:
    # A deal's weight is exp(sum over the other callers of slope * (x + margin)), each term capped at +-3:
    # computed here by hand from the evidence the bot sees, for two sets of constants.
    bot, deals = _caller_deals()
    bot.est.k = replace(bot.est.k, called_slope=0.7, called_margin=0.2, passed_slope=-0.4, passed_margin=0.1)
    for deal in deals[:10]:
        seen = evidence(bot.est, deal, 0)
        by_hand = sum(0.7 * (x + 0.2) if called else -0.4 * (x + 0.1) for called, x in seen)
        assert abs(bot.likelihood(deal, 0) - math.exp(by_hand)) < 1e-9 * math.exp(by_hand)
    bot.est.k = replace(bot.est.k, called_slope=100.0, passed_slope=0.0)  # every caller's term at its cap
    terms = 0
    for deal in deals[:10]:
        seen = evidence(bot.est, deal, 0)
        capped = sum(max(-3.0, min(3.0, 100.0 * (x + 0.2))) for called, x in seen if called)
        terms += sum(abs(100.0 * (x + 0.2)) > 3.0 for called, x in seen if called)
        assert abs(bot.likelihood(deal, 0) - math.exp(capped)) < 1e-9 * math.exp(capped)
    assert terms > 0  # the cap was met
