"""At the table: typo suggestions, the words of the log, house content shown as house."""

from __future__ import annotations

import pytest
from rich.text import Text

from arbiter.cli.render import renderer
from arbiter.core.errors import ParseError
from arbiter.core.match import Match
from arbiter.core.scott_pilgrim import GAME
from arbiter.events.scott_pilgrim import ChicksFollow, ReactionTaken, TurnBegan
from sp_helpers import battle, to_good_turn


@pytest.mark.parametrize("text,suggestion", [
    ("scott punc matthew", "punch"),
    ("scot punch matthew", "scott"),
    ("scott punch mathew", "matthew"),
    ("equip knives-sai knives", "knives-sais"),
    ("use xp-boost scot", "scott"),
    ("reroll wil", "will"),
    ("scott judo-trow matthew", "judo-throw"),
    ("scott move d4 pay sped", "speed"),
    ("rol", "roll"),
])
def test_typos_get_a_suggestion(text, suggestion):
    m = battle({"scott": "e4", "matthew": "f4"}, objects={})
    to_good_turn(m, "will will guts guts speed")
    with pytest.raises(ParseError) as e:
        m.apply("good", text)
    assert f"did you mean '{suggestion}'?" in str(e.value)


def test_the_log_reads_as_words_not_identifiers():
    m = Match.new(GAME, seed=2, seats=["good", "bad"])
    created = GAME.projection.describe(m.items[0][2])
    assert "{" not in created and "'" not in created and "max_rounds=0" in created
    assert GAME.projection.describe(ChicksFollow(spaces=1, chicks=("chick1",))) \
        == "each Chick on the board follows Matthew 1 space: chick1"
    assert GAME.projection.describe(TurnBegan(team="bad", round=3)) == "round 3: the Bad Guys' turn"
    assert GAME.projection.describe(ReactionTaken(kind="pause")) == "the Good Guys pause it"


def test_the_board_marks_house_content():
    m = Match.new(GAME, seed=11, seats=["good", "bad"], options={"placement": "fixed"})
    good = Text.from_markup(renderer("scott-pilgrim")(m.view("good"), "good")).plain
    assert "House content (not printed in the rulebook)" in good
    assert "Ramona Flowers" in good.split("House content")[1]
    house_items = [i for i in GAME.default_content()["items"] if i["source"] == "house"]
    shown = [i for i in house_items if f"({i['id']}, house)" in good]
    printed = [i for i in GAME.default_content()["items"] if i["source"] == "rulebook"
               and f"({i['id']})" in good]
    assert shown or printed
    assert all(f"({i['id']}, house)" not in good for i in GAME.default_content()["items"]
               if i["source"] == "rulebook")


def test_the_board_names_the_house_options_in_force():
    m = Match.new(GAME, seed=11, seats=["good", "bad"], options={"placement": "fixed", "turn_end": "chosen"})
    good = Text.from_markup(renderer("scott-pilgrim")(m.view("good"), "good")).plain
    opts = " ".join(good.split("house options: ")[1].split())
    assert "turn_end=chosen" in opts and "judo_throw_knockback=5" in opts and "cancelled_xp=true" in opts
    assert "difficulty=" not in opts  # the rulebook's own table is not house
