"""play's menu marks the house abilities and items an entry uses (games.md: house content is
labelled house where a player sees it), as Villainous and Funkoverse do."""

import random

from arbiter.core.bots import bot_step
from arbiter.core.match import Match
from arbiter.core.scott_pilgrim import GAME


def labels(m: Match, steps: int = 150, seed: int = 1) -> dict[str, str]:
    rng, out = random.Random(seed), {}
    for _ in range(steps):
        if m.outcome() is not None:
            break
        for seat in m.to_act().seats:
            for text in m.legal_texts(seat):
                out[text] = GAME.menu_label(m.view(seat), seat, text)
        bot_step(m, {}, rng)
    return out


def test_house_abilities_and_items_are_labelled_house():
    shown = labels(Match.new(GAME, seed=3, seats=["ann", "bob"]))
    assert shown["stephen mic-swing"] == "stephen mic-swing  (Mic Swing, house)"
    assert shown["use bus-pass scott"] == "use bus-pass scott  (Bus Pass, house)"
    assert shown["scott throw snow-shovel n"] == "scott throw snow-shovel n  (Snow Shovel, house)"
    assert shown["knives sai-toss matthew"] == "knives sai-toss matthew  (Sai Toss, house)"
    assert shown["roll"] == "roll" and shown["end"] == "end"
    moves = [text for text in shown if " move " in text]
    assert moves and all(shown[text] == text for text in moves)


def test_rulebook_content_is_not_marked_house():
    content = GAME.default_content()
    for a in content["abilities"].values():
        a["source"] = "rulebook"
    for i in content["items"]:
        i["source"] = "rulebook"
    shown = labels(Match.new(GAME, seed=3, seats=["ann", "bob"], content=content))
    assert [label for text, label in shown.items() if label != text] == []
