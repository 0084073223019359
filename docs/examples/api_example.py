"""A tour of the khrap Python API (docs/api.md): load a variant, start a game, read legal actions and
a seat's observation, apply actions, clone, serialize and restore.  Run it: python docs/examples/api_example.py
"""

import json
import tempfile
from pathlib import Path

from khrap.bots import decision_rng, make_bot
from khrap.session import IllegalAction, Session, load_variant

# 1. Load a variant by built-in name (a path to a house-rules .yaml file works the same way).
variant = load_variant("khrap")
print(variant.name["en"], "-", variant.description["en"])

# 2. Start a game: players, a seed; here also a fixed first deck (top card first, as in scenario files),
#    so that the cards below are known.  Without `decks` the seed shuffles.
DECK = "AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D 9H"
game = Session("khrap", players=4, seed=7, decks=[DECK])
game.start_deal()  # ante, shuffle, deal, turn the trump: the game waits for the first decision
print(game)

# 3. Whose turn, what is legal, what that seat may see.
seat = game.to_act
print("seat", seat, "may:", game.legal_words())
seen = game.observation(seat)
print("seat", seat, "sees hand", seen["hand"], "trump", seen["trump"], "pot", seen["pot"])
assert seen["hand"] == ["AS", "KH", "6D", "7C"] and seen["trump"] == "H"
assert game.observation(3)["hand"] == ["7S", "8S", "9S", "TS"]  # every hand is seen as soon as it is dealt...
assert "AS" not in str(game.observation(3))  # ...but only by its own seat
# (...unless the seat may still make a blind call: then it is None until he looks, or plays blind)

# 4. Apply actions as text; an illegal one raises IllegalAction with the rule's reason.
try:
    game.apply("help")
except IllegalAction as err:
    print("refused:", err)
for text in ("khrap", "help", "pass", "pass", "pass", "pass"):  # bidding, then the "Fives?" offers
    game.apply(text)
game.apply("exchange 6d 7c", seat=1)  # cards in any case; recorded as "exchange 6D 7C"
game.apply("exchange 8C", seat=2)
print("now:", game.phase, "seat", game.to_act, "may:", game.legal_words())

# 5. Clone: try a line of play without touching the game.
trial = game.clone()
trial.apply("play AS")
assert game.legal_words() != trial.legal_words() and len(game.actions) + 1 == len(trial.actions)

# 6. Serialize and restore: a record is plain JSON; restoring replays it and checks the result.
text = json.dumps(game.to_record())
restored = Session.from_record(json.loads(text))
assert restored.observation(1) == game.observation(1) and restored.stacks == game.stacks

# 7. Finish the deal with bots: they get one seat's observation and the legal actions, never the state.
bot = make_bot("rule", game.rules)
while not game.deal_over:
    s = game.to_act
    game.apply(bot.choose(game.observation(s), game.legal_actions(), decision_rng(game.seed, len(game.actions))))
print("after deal 1:", game.stacks, "pot", game.pot)
assert sum(game.stacks) + game.pot == 400  # chips are conserved

# 8. Save atomically and load again; the next deal continues from the same stacks.
with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "session.json"
    game.save(path)
    again = Session.load(path)
assert again.stacks == game.stacks and again.deals_completed == 1
again.start_deal()
print("deal 2:", again)
