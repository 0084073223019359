"""Fit the heuristic's constants per variant from logged outcomes; write khrap/bots/calibration.yaml.

    python benchmarks/calibrate.py [VARIANT ...] [--deals 1500] [--session 5] [--seed 900000]
                                   [--rounds 2] [--against heuristic,rule] [--tune-deals 900]
                                   [--out khrap/bots/calibration.yaml] [--table FILE.md]
                                   [--bidding-only | --pot-share-only]

Rerun it after a rule change (or for a house rule: pass its file).  For each
variant it plays sessions of ``--session`` deals (the pot carried over, as in
benchmarks/strength.py) with the heuristic at half the seats and, by turns,
itself or another bot (``--against``, default ``heuristic,rule``: the
constants must hold at the tables the bot is measured at, not only against
itself) at the others, and logs every call the heuristic made that put it in
play: the hand's trick chances as the value model
sees them *before* calibration (``sharpen`` 1), the obligation of the status,
and whether the seat met it in the play.  It then fits, by maximum likelihood
over those calls (each call's success = at least its obligation's tricks of
independent chances ``p ** sharpen``):

- ``sharpen``: how much the per-card chances are bent (a certain winner
  stays certain, a long shot shrinks most);
- ``undecided``: the share of a seat's cards counted against us while it may
  still play (undecided, or out but able to come back), from a small grid
  (the chances are recomputed from the logged positions);

and derives ``contest``, the helper's bonus per chip of pot, from the same
self-play: how often a declarer who was left alone would have faced nobody
(the alone share of the deals with a declarer) over the number of players
(each seat's share of a pot it keeps from leaving the table).
Last, two decision constants are tuned by duplicate matches
(benchmarks/strength.py's protocol, the same decks for every trial) against
the rule and the random bot: ``caution``, a margin on the declaring calls'
sharpening (1, 1.5 or 2: a declarer meets tables that join more readily
than its own model of them), and ``alone``, the trust in being left alone
(as fitted, or none); ``--tune-deals`` deals per opponent and trial (0: no
tuning).  ``--rounds`` repeats the play with the new constants (the calls made depend
on them).  Deals a lone declarer was credited (no play) give no outcome.

``--pot-share-only`` fits and writes only ``pot_share``, the search bot's
worth per chip left in the pot at a deal's end (the part of a pot left that
the rest of its session pays back out, over the players; docs/solver.md, "The
pot"); a full run keeps it as the file has it.

``--bidding-only`` fits and writes only the search bot's evidence from the
calls (``called_slope``, ``called_margin``, ``passed_slope``, ``passed_margin``):
in heuristic self-play, at every third decision with a choice, the evidence
(``khrap.bots.search.evidence``) of the other seats' calls from their real hands
against a deal the deciding seat's view samples for them, and a logistic
regression of the two (docs/solver.md).  The evidence is measured with the
heuristic's constants, so run it after a full run, not before (a full run
keeps these four, ``min_effective``, the gates (``call_gate``, ``play_gate``, ``discard_gate``), the stops
(``exchange_stop``, ``call_stop``) and the race's start (``race_from``, ``pace_from``) as the file has them).

The file maps each variant's fingerprint (and its family: deck, hand size and
stages, for house rules that extend it) to its constants and the calibration
table: per call, how many were made, the predicted chance of success with the
fitted constants, and the actual rate.  ``--table`` writes that table as
markdown.  No bot source names a variant: the data file does.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from khrap import words as w
from khrap.bots import choose_for, make_bot
from khrap.bots.calibration import DEFAULTS, PATH, Constants, constants_for, family, fingerprint
from khrap.bots.determinize import seat_view
from khrap.bots.heuristic import HeuristicBot, info_from_observation
from khrap.bots.search import evidence
from khrap.engine import GameState, Rules
from khrap.variant.catalog import load_variant

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strength import seed_value  # noqa: E402  (benchmarks/strength.py: the duplicate protocol)

BUILT_INS = ("khrap", "khrap-52", "khrap-shoot", "student-snore", "frap", "snore")
SHARPEN_GRID = [round(0.5 + 0.1 * i, 2) for i in range(26)]  # 0.5 .. 3.0
UNDECIDED_GRID = (0.4, 0.6, 0.8, 1.0)


@dataclass
class Logged:
    """One call that put a seat in play, and what came of it."""

    call: str
    need: int
    info: object  # the seat's Info at the call
    action: object
    made: bool | None = None  # None: no play (credited alone, or redealt)
    alone_guess: float | None = None  # a declarer's estimate that nobody joins him (where somebody may)


def success(probs: list[float], need: int, sharpen: float, bot: HeuristicBot) -> float:
    dist = bot.est.distribution([p ** sharpen if 0 < p < 1 else p for p in probs])
    return min(1 - 1e-6, max(1e-6, sum(dist[need:])))


def play(rules: Rules, constants: Constants, deals: int, session: int, seed: int,
         against: tuple[str, ...] = ("heuristic",), cautious: bool = True) -> tuple[list[Logged], dict]:
    """Sessions with the heuristic (these constants) at half the seats, the other half by turns of
    the kinds ``against`` (``heuristic``: the same bot, self-play); the heuristic's calls logged, and
    counts of declarers left alone.  ``cautious``: the heuristic's older bidding (the full fit's), else
    the normal bot's."""
    n = rules.players
    own = HeuristicBot(rules, constants, cautious=cautious)
    others = {kind: own if kind == "heuristic" else make_bot(kind, rules) for kind in against}
    logged: list[Logged] = []
    counts = {"declared": 0, "alone": 0, "guessed": 0.0, "guessed_alone": 0, "sessions": []}
    for s in range(seed, seed + max(1, deals // session)):
        other = others[against[s % len(against)]]
        bots = [own if (seat + s // len(against)) % 2 == 0 else other for seat in range(n)]
        stacks, pot, dealer = [100] * n, 0, s % n
        flows: list[tuple[int, int]] = []  # per deal: chips paid out of the pot, the pot left at its end
        counts["sessions"].append(flows)
        for d in range(session):
            state = GameState(rules, n, dealer=dealer, stacks=stacks, pot=pot, seed=s * 1000 + d)
            state.start_deal()
            mine: dict[int, Logged] = {}
            dealt = len(state.decks_dealt)
            step = 0
            while state.pending is not None:
                if len(state.decks_dealt) != dealt:  # a redeal: the calls so far came to nothing
                    dealt, mine = len(state.decks_dealt), {}
                seat = state.to_act
                rng = random.Random(f"calibrate:{s}:{d}:{step}")
                action = choose_for(bots[seat], state, rng)
                call = rules.calls.get(action.word)
                if call is not None and call.effects.status in w.ACTIVE and bots[seat] is own:
                    obs = state.observation(seat)
                    info = info_from_observation(obs, rules)
                    mine[seat] = Logged(action.word, rules.variant.statuses[call.effects.status].tricks, info, action)
                    if call.effects.status == w.DECLARER:
                        legal = state.legal_actions()
                        seats = bots[seat].est.joiners(call, info, [a.word for a in legal])
                        if seats:  # somebody may still join: the bot's estimate that nobody does, unscaled
                            guess = (1 - bots[seat]._join_chance(info)) ** len(seats)
                            mine[seat].alone_guess = guess
                state.apply(action)
                step += 1
            played = any(state.tricks)
            alone = sum(1 for st in state.statuses if st in w.ACTIVE) == 1
            if any(st == w.DECLARER for st in state.statuses):
                counts["declared"] += 1
                counts["alone"] += alone
            for seat, row in mine.items():
                if row.alone_guess is not None and state.statuses[seat] == w.DECLARER:
                    counts["guessed"] += row.alone_guess
                    counts["guessed_alone"] += alone
                if played and not alone and state.statuses[seat] in w.ACTIVE:
                    row.made = state.tricks[seat] >= rules.variant.statuses[state.statuses[seat]].tricks
                    logged.append(row)
            flows.append((sum(e.fields["chips"] for e in state.log if e.kind in ("paid_out", "took_pot")),
                          state.pot))
            stacks, pot = list(state.stacks), state.pot
            nxt = getattr(state, "next_dealer", None)
            dealer = nxt if nxt is not None else (state.dealer + 1) % n
            if getattr(state, "session_over", False) or min(stacks) <= 0:
                break
    return logged, counts


def raw_chances(rules: Rules, rows: list[Logged], undecided: float) -> tuple[HeuristicBot, list[list[float]]]:
    bot = HeuristicBot(rules, Constants(sharpen=1.0, undecided=undecided, contest=0.0))
    return bot, [bot.call_chances(r.info, r.action)[0] for r in rows]


def fit(rules: Rules, rows: list[Logged]) -> tuple[dict[str, float], float, float]:
    """({status: sharpen}, undecided, mean log-loss) of the best fit; a status's sharpening is fitted
    on its own calls (declaring and helping calls are judged against different tables)."""
    rows = [r for r in rows if r.need > 0]
    best: tuple[dict[str, float], float, float] = ({}, DEFAULTS.undecided, float("inf"))
    if not rows:
        return best
    status = [rules.calls[r.call].effects.status for r in rows]
    for u in UNDECIDED_GRID:
        bot, probs = raw_chances(rules, rows, u)
        fitted, total = {}, 0.0
        for st in sorted(set(status)):
            group = [(r, ps) for r, ps, s in zip(rows, probs, status, strict=True) if s == st]
            losses = []
            for g in SHARPEN_GRID:
                loss = 0.0
                for r, ps in group:
                    p = success(ps, r.need, g, bot)
                    loss -= math.log(p if r.made else 1 - p)
                losses.append((loss, g))
            loss, g = min(losses)
            fitted[st], total = g, total + loss
        if total / len(rows) < best[2]:
            best = (fitted, u, total / len(rows))
    return best


def table(rules: Rules, rows: list[Logged], k: Constants) -> list[dict]:
    """Per call: count, predicted success (these constants, without the tuned margin), actual success."""
    k = replace(k, caution=1.0)
    bot, probs = raw_chances(rules, rows, k.undecided)
    out: dict[str, list[float]] = {}
    for r, ps in zip(rows, probs, strict=True):
        if r.need <= 0:
            continue
        acc = out.setdefault(r.call, [0, 0.0, 0])
        acc[0] += 1
        acc[1] += success(ps, r.need, k.exponent(rules.calls[r.call].effects.status), bot)
        acc[2] += bool(r.made)
    return [{"call": c, "n": int(a[0]), "predicted": round(a[1] / a[0], 3), "actual": round(a[2] / a[0], 3)}
            for c, a in sorted(out.items(), key=lambda kv: -kv[1][0])]


def pot_share(sessions: list[list[tuple[int, int]]], players: int) -> float:
    """A seat's share of a chip left in the pot at a deal's end: the part of it paid back out to the table
    in the deals left of its session, over the number of players (each seat's part of what returns).

    A deal pays out ``out`` chips of the ``out + left`` it held, so each chip in it leaves with chance
    ``out / (out + left)`` (chips in the pot are alike); a chip left at a deal's end comes back with one
    minus the chance it stays through every later deal of the session, and a pot still on the table when
    the session ends is nobody's.  The mean over the chips left (weighted by the pot)."""
    weighted = chips = 0.0
    for flows in sessions:
        for d, (_, left) in enumerate(flows):
            if left <= 0:
                continue
            stays = 1.0
            for out, after in flows[d + 1:]:
                stays *= 1 - out / (out + after) if out + after else 1.0
            weighted += left * (1 - stays)
            chips += left
    return round(weighted / chips / players, 4) if chips else 0.0


CAUTION_GRID = (1.0, 1.5, 2.0)


def tune(rules: Rules, k: Constants, deals: int, session: int, seed: int, log=print) -> Constants:
    """The declaring margin (``caution``) and the trust in being left alone (``alone``, as fitted or 0)
    whose worse result in duplicate matches against the rule and the random bot is best (the same decks
    for each trial)."""
    if deals <= 0:
        return k
    seeds = range(seed, seed + max(1, deals // (6 * session)))
    best, best_score = k, None
    for caution in CAUTION_GRID:
        for alone in sorted({k.alone, 0.0}, reverse=True):
            trial = replace(k, caution=caution, alone=alone)
            bot = HeuristicBot(rules, trial, cautious=True)
            rule, rand = (sum(seed_value(rules, bot, make_bot(kind, rules), s, session) for s in seeds) / len(seeds)
                          for kind in ("rule", "random"))
            score = min(rule, rand)  # it must beat both
            log(f"  caution {caution}, alone {alone}: {rule:+.3f} vs rule, {rand:+.3f} vs random "
                "(chips per seat per deal)")
            if best_score is None or score > best_score:
                best, best_score = trial, score
    return best


def calibrate(name: str, players: int, deals: int, session: int, seed: int, rounds: int,
              log=print, against: tuple[str, ...] = ("heuristic", "rule"), tune_deals: int = 0) -> dict:
    variant = load_variant(name)
    rules = Rules(variant, players)
    k = constants_for(variant)
    rows: list[Logged] = []
    before: list[dict] = []
    for i in range(rounds):
        start = time.perf_counter()
        rows, counts = play(rules, k, deals, session, seed, against)
        if i == 0:
            before = table(rules, rows, k)
        by_status, u, loss = fit(rules, rows)
        alone = counts["alone"] / counts["declared"] if counts["declared"] else 0.0
        # the estimate of being left alone, scaled to what happened (relative to the unscaled guess)
        scale = min(1.5, counts["guessed_alone"] / counts["guessed"]) if counts["guessed"] > 1 else k.alone
        g = by_status.get(w.HELPER, by_status.get(w.DECLARER, k.sharpen))  # the play's: the helpers' tables
        k = Constants(sharpen=g, undecided=u, contest=round(alone / players, 4), alone=round(scale, 3),
                      declarer=by_status.get(w.DECLARER, 0.0), helper=by_status.get(w.HELPER, 0.0),
                      pot_share=k.pot_share,  # kept as it is: fitted only by --pot-share-only
                      **{f: getattr(k, f) for f in (*BIDDING, "min_effective", "call_gate", "play_gate",
                                                     "discard_gate", "exchange_stop", "call_stop", "race_from",
                                                     "pace_from")})  # kept: not
    # fitted here
        fitted_share = pot_share(counts["sessions"], players)
        log(f"{name}: round {i + 1}: {len(rows)} calls, sharpen {by_status}, undecided {u}, log-loss {loss:.4f}, "
            f"alone {alone:.3f}, pot share (not applied) {fitted_share}, "
            f"alone guessed {counts['guessed']:.1f} vs {counts['guessed_alone']}, "
            f"{time.perf_counter() - start:.0f} s")
    k = tune(rules, k, tune_deals, session, seed + 50000, log)
    log(f"{name}: tuned: caution {k.caution}, alone {k.alone}")
    return {"name": name, "fingerprint": fingerprint(variant), "family": family(variant), "players": players,
            "fitted_on": {"deals": deals, "session": session, "seed": seed, "rounds": rounds, "calls": len(rows),
                          "against": list(against), "tune_deals": tune_deals},
            "constants": k.data(), "before": before, "table": table(rules, rows, k)}


def refit_pot_share(name: str, entries: dict, players: int, deals: int, session: int, seed: int,
                    against: tuple[str, ...]) -> dict:
    """A variant's entry with only ``pot_share`` fitted again, from sessions played with its constants."""
    variant = load_variant(name)
    rules = Rules(variant, players)
    entry = dict(entries.get(fingerprint(variant)) or {"name": name, "fingerprint": fingerprint(variant),
                                                       "family": family(variant), "players": players})
    k = Constants.from_data(entry.get("constants", {})) if entry.get("constants") else constants_for(variant)
    _, counts = play(rules, k, deals, session, seed, against)
    entry["constants"] = replace(k, pot_share=pot_share(counts["sessions"], players)).data()
    entry.setdefault("fitted_on", {})["pot_share"] = {"deals": deals, "session": session, "seed": seed,
                                                      "against": list(against)}
    return entry


def refit_contest(name: str, entries: dict, players: int, deals: int, session: int, seed: int,
                  against: tuple[str, ...], rounds: int, log=print) -> dict:
    """A variant's entry with only ``contest`` derived again, by its definition (the share of the deals with a
    declarer in which he was left alone, over the players), from sessions the *normal* bidding plays (the
    full fit plays the older, cautious one, whose declarers are seldom alone).  The share depends on the
    constant (a helper's bonus makes the others join), so ``rounds`` times, each from the last."""
    variant = load_variant(name)
    rules = Rules(variant, players)
    entry = dict(entries.get(fingerprint(variant)) or {"name": name, "fingerprint": fingerprint(variant),
                                                       "family": family(variant), "players": players})
    k = Constants.from_data(entry.get("constants", {})) if entry.get("constants") else constants_for(variant)
    for i in range(rounds):
        _, counts = play(rules, k, deals, session, seed, against, cautious=False)
        alone = counts["alone"] / counts["declared"] if counts["declared"] else 0.0
        log(f"{name}: round {i + 1}: contest {k.contest}: declarers alone {alone:.3f} of {counts['declared']}")
        k = replace(k, contest=round(alone / players, 4))
    entry["constants"] = k.data()
    entry.setdefault("fitted_on", {})["contest"] = {"deals": deals, "session": session, "seed": seed,
                                                    "against": list(against), "rounds": rounds, "bidding": "normal"}
    return entry


BIDDING = ("called_slope", "called_margin", "passed_slope", "passed_margin")


def bidding_pairs(rules: Rules, k: Constants, deals: int, session: int, seed: int,
                  every: int = 3) -> dict[bool, list[tuple[float, int]]]:
    """Heuristic self-play (sessions, the pot carried over); at every ``every``-th decision with a choice,
    the evidence (``search.evidence``) of the other seats' calls twice: from their real hands (label 1) and
    from a deal the deciding seat's view samples for them (label 0), per kind (in play or passed)."""
    n = rules.players
    bot = HeuristicBot(rules, k, cautious=True)
    pairs: dict[bool, list[tuple[float, int]]] = {True: [], False: []}
    step = 0
    for s in range(seed, seed + max(1, deals // session)):
        stacks, pot, dealer = [100] * n, 0, s % n
        for d in range(session):
            state = GameState(rules, n, dealer=dealer, stacks=stacks, pot=pot, seed=s * 1000 + d)
            state.start_deal()
            while state.pending is not None:
                seat = state.to_act
                rng = random.Random(f"bidding:{s}:{d}:{step}")
                step += 1
                if step % every == 0 and state.looked[seat] and len(state.legal_actions()) > 1:
                    real = evidence(bot.est, state, seat)
                    sampled = evidence(bot.est, seat_view(state, seat).sample(rng), seat)
                    if [c for c, _ in real] == [c for c, _ in sampled]:
                        for (called, x), (_, y) in zip(real, sampled, strict=True):
                            pairs[called] += [(x, 1), (y, 0)]
                state.apply(choose_for(bot, state, rng))
            stacks, pot = list(state.stacks), state.pot
            nxt = getattr(state, "next_dealer", None)
            dealer = nxt if nxt is not None else (state.dealer + 1) % n
            if getattr(state, "session_over", False) or min(stacks) <= 0:
                break
    return pairs


def fit_log_ratio(rows: list[tuple[float, int]]) -> tuple[float, float]:
    """``(slope, margin)`` of the logistic regression of the label on x (Newton's method): with as many
    label-1 rows as label-0 rows, ``slope * (x + margin)`` is the log ratio of the two densities of x."""
    a = c = 0.0
    for _ in range(60):
        ga = gc = haa = hac = hcc = 0.0
        for x, y in rows:
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, a + c * x))))
            ga, gc = ga + y - p, gc + (y - p) * x
            wt = p * (1 - p)
            haa, hac, hcc = haa + wt, hac + wt * x, hcc + wt * x * x
        det = haa * hcc - hac * hac
        if det <= 1e-12:
            break
        da, dc = (hcc * ga - hac * gc) / det, (haa * gc - hac * ga) / det
        a, c = a + da, c + dc
        if abs(da) + abs(dc) < 1e-10:
            break
    return round(c, 3), round(a / c, 3) if abs(c) > 1e-9 else 0.0


def refit_bidding(name: str, entries: dict, players: int, deals: int, session: int, seed: int) -> dict:
    """A variant's entry with only the search's evidence from the calls (``BIDDING``) fitted again."""
    variant = load_variant(name)
    rules = Rules(variant, players)
    entry = dict(entries.get(fingerprint(variant)) or {"name": name, "fingerprint": fingerprint(variant),
                                                       "family": family(variant), "players": players})
    k = Constants.from_data(entry.get("constants", {})) if entry.get("constants") else constants_for(variant)
    pairs = bidding_pairs(rules, k, deals, session, seed)
    fitted = {}
    for called, prefix in ((True, "called"), (False, "passed")):
        if len(pairs[called]) >= 40:  # too few seats of a kind: the defaults stand
            fitted[f"{prefix}_slope"], fitted[f"{prefix}_margin"] = fit_log_ratio(pairs[called])
    entry["constants"] = replace(k, **fitted).data()
    entry.setdefault("fitted_on", {})["bidding"] = {"deals": deals, "session": session, "seed": seed,
                                                    "seats": {"called": len(pairs[True]) // 2,
                                                              "passed": len(pairs[False]) // 2}}
    return entry


def markdown(entries: list[dict]) -> str:
    lines = ["| variant | call | calls | predicted before | predicted after | actual |",
             "| --- | --- | ---: | ---: | ---: | ---: |"]
    for e in entries:
        was = {r["call"]: r for r in e.get("before", [])}
        for r in e.get("table", []):
            old = was.get(r["call"], {}).get("predicted")
            lines.append(f"| {e['name']} | {r['call']} | {r['n']} | {'' if old is None else f'{old:.2f}'} | "
                         f"{r['predicted']:.2f} | {r['actual']:.2f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", help="built-in names or variant files (default: every built-in)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=1500)
    parser.add_argument("--session", type=int, default=5)
    parser.add_argument("--seed", type=int, default=900000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--tune-deals", type=int, default=900,
                        help="deals per trial of the declaring margin (duplicate, vs rule and vs random)")
    parser.add_argument("--against", default="heuristic,rule",
                        help="who sits at the other half of the seats, by turns (heuristic: self-play)")
    parser.add_argument("--out", default=str(PATH))
    parser.add_argument("--pot-share-only", action="store_true",
                        help="fit and write only pot_share (the other constants as the file has them); "
                             "measured worse than 1/n in frap: docs/solver.md")
    parser.add_argument("--bidding-only", action="store_true",
                        help="fit and write only the search's evidence from the calls (called_*, passed_*); "
                             "the other constants as the file has them")
    parser.add_argument("--contest-only", action="store_true",
                        help="derive and write only contest, from the normal bidding's sessions (--rounds times); "
                             "the other constants as the file has them")
    parser.add_argument("--table", default=None, help="write the calibration table (markdown) here")
    args = parser.parse_args(argv)
    out = Path(args.out)
    old = (yaml.safe_load(out.read_text(encoding="utf-8")) or {}) if out.exists() else {}
    entries = {e["fingerprint"]: e for e in old.get("variants", [])}
    done = []
    for name in args.variants or BUILT_INS:
        if args.bidding_only:
            entry = refit_bidding(name, entries, args.players, args.deals, args.session, args.seed)
            print(f"{name}: " + ", ".join(f"{f} {entry['constants'][f]}" for f in BIDDING), file=sys.stderr, flush=True)
            entries[entry["fingerprint"]] = entry
            done.append(entry)
            continue
        if args.contest_only:
            entry = refit_contest(name, entries, args.players, args.deals, args.session, args.seed,
                                  tuple(args.against.split(",")), args.rounds,
                                  log=lambda text: print(text, file=sys.stderr, flush=True))
            print(f"{name}: contest {entry['constants']['contest']}", file=sys.stderr, flush=True)
            entries[entry["fingerprint"]] = entry
            done.append(entry)
            continue
        if args.pot_share_only:
            entry = refit_pot_share(name, entries, args.players, args.deals, args.session, args.seed,
                                    tuple(args.against.split(",")))
            print(f"{name}: pot share {entry['constants']['pot_share']}", file=sys.stderr, flush=True)
            entries[entry["fingerprint"]] = entry
            done.append(entry)
            continue
        entry = calibrate(name, args.players, args.deals, args.session, args.seed, args.rounds,
                          log=lambda text: print(text, file=sys.stderr, flush=True),
                          against=tuple(args.against.split(",")), tune_deals=args.tune_deals)
        entries[entry["fingerprint"]] = entry
        done.append(entry)
    head = ("# Written by benchmarks/calibrate.py (rerun it after a rule change): the heuristic's constants\n"
            "# per variant, found by fingerprint, else by family (a house rule gets its parent's).\n")
    out.write_text(head + yaml.safe_dump({"variants": list(entries.values())}, sort_keys=False, allow_unicode=True),
                   encoding="utf-8")
    if args.table:
        Path(args.table).write_text(markdown(done), encoding="utf-8")
    print(markdown(done))


if __name__ == "__main__":
    sys.exit(main())
