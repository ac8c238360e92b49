"""play's menu marks the house abilities and items an entry uses (games.md: house content is
labelled house where a player sees it), as Villainous and Funkoverse do."""

from arbiter.core.match import Match
from arbiter.testing import menu_labels
from arbiter.core.scott_pilgrim import GAME


def test_house_abilities_and_items_are_labelled_house():
    shown = menu_labels(Match.new(GAME, seed=3, seats=["ann", "bob"]))
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
    shown = menu_labels(Match.new(GAME, seed=3, seats=["ann", "bob"], content=content))
    assert [label for text, label in shown.items() if label != text] == []
