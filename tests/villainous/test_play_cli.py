"""Playing through the CLI as a user would: help, the renderer at 100 columns, the menu."""

from arbiter.core.errors import ParseError
from arbiter.core.villainous import GAME
from arbiter.core.villainous.commands import FORMS
from villainous.helpers import new


def test_help_has_an_example_for_every_command_form_and_every_example_parses():
    m = new(3)
    verbs = {form.split()[0] for form, _, _ in FORMS}
    assert verbs == {"move", "collect", "play", "activate", "activate-ambition", "maneuver", "discard",
                     "vanquish", "fate", "fate-play", "hunt", "end", "choose", "condition", "pass"}
    for form, example, what in FORMS:
        assert example.split()[0] in form.replace("|", " ").split() and what
        try:
            GAME.parse(m.state, "ann", example)
        except ParseError as exc:  # pragma: no cover - the message says which
            raise AssertionError(f"help example {example!r} does not parse: {exc}") from None
    text = "commands: " + "; ".join(GAME.syntax)
    assert all(len(line) <= 100 for line in text.splitlines())
    assert text.count("e.g. ") == len(FORMS)


def test_renderer_fits_100_columns_and_shows_only_the_viewers_hand():
    import random
    import re

    from arbiter.cli.render.villainous import render
    from arbiter.core.bots import autoplay

    m = new(3, seed=4)
    bots = {s: GAME.bots["smart"] for s in m.seats}
    for _ in range(25):
        autoplay(m, bots, random.Random(4), max_steps=12)
        for seat in m.seats:
            out = render(m.view(seat), seat)
            plain = re.sub(r"\[/?[a-z ]+\]", "", out)
            assert all(len(line) <= 100 for line in plain.splitlines()), seat
            assert f"Your hand ({seat}):" in out
            others = [s for s in m.seats if s != seat]
            assert not any(f"Your hand ({o})" in out for o in others)
            hand_part = out.split("Your hand")[1]
            for o in others:
                for c in m.state.hand[o]:
                    if c not in m.state.public and c not in m.state.hand[seat]:
                        assert c not in hand_part and c not in out


def test_a_typo_gets_a_hint_for_that_command_with_an_example():
    import pytest

    m = new(2)
    with pytest.raises(ParseError) as e:
        m.apply("ann", "vanquish")
    assert "e.g. vanquish" in e.value.hint and "collect" not in e.value.hint
    with pytest.raises(ParseError) as e:
        m.apply("ann", "move nowhere")
    assert e.value.hint == "locations: coruscant, black-stall-station, the-box, bora-vio"
    with pytest.raises(ParseError) as e:
        m.apply("ann", "jump")
    assert "fate-play" in e.value.hint and "help" in e.value.hint


def test_the_round_limit_outcome_is_explained_in_the_rule_index_and_the_log():
    rule = GAME.rules.get("SV-HOUSE-ROUND-LIMIT")
    assert rule.source == "house" and "round_limit=0" in rule.text and "fraction" in rule.text
    opt = next(o for o in GAME.options if o.name == "round_limit")
    assert opt.default == 0 and opt.house and "furthest" in opt.doc  # off unless passed
    m = new(2, round_limit=1)
    m.apply("ann", "move coruscant")
    m.apply("ann", "end")
    m.apply("bob", "move bilzen")
    m.apply("bob", "end")
    out = m.outcome()
    assert out is not None and out.winners == ("ann", "bob") and "round limit reached" in out.reason


def test_the_board_names_what_a_card_is_attached_or_engaged_to_and_its_strength_tokens():
    """Hero Vehicles and Engagement, Items, Strength Tokens: the board says what a Vehicle is
    engaged with and what an Item is attached to by name, and a token as "+1 / -1"."""
    import re

    from arbiter.cli.render.villainous import render
    from arbiter.events import villainous as ev
    from villainous.helpers import fold, put, token

    m = put(new(2), "ann", "cb-xanadu-blood-1", "deep-space")
    m = put(m, "ann", "cbf-republic-gunship-1", "deep-space")
    m = fold(m, ev.Engaged(sector="ann", ally_vehicle="cb-xanadu-blood-1", hero_vehicle="cbf-republic-gunship-1"))
    m = put(m, "ann", "cb-hired-gun-1", "coruscant")
    m = put(m, "ann", "cb-twin-blasters-1", "coruscant", on="cb-hired-gun-1")
    m = token(m, "ann", "cb-hired-gun-1", -1)
    out = " ".join(re.sub(r"\[/?[a-z ]+\]", "", render(m.view("ann"), "ann")).split())
    assert "engaged with Republic Gunship <cbf-republic-gunship-1>" in out
    assert "engaged with Xanadu Blood <cb-xanadu-blood-1>" in out
    assert "on Hired Gun <cb-hired-gun-1>" in out
    assert "Strength 3, -1 Strength token" in out  # 2, +2 from Twin Blasters, -1
