"""Game End: the third monster across ends it at once; agendas score; tie-breaks; Megacarnage."""

from __future__ import annotations

from arbiter.events.monster_derby import GameEnded

from arbiter.core.monster_derby import GAME

from .helpers import control, events_of, finish_turn, scenario, seat

X = {"red": 5, "green": 3}
Y = {"yellow": 5, "blue": 3}


def racers(**kw):
    # colours follow the order placed: red, yellow, blue, green, orange
    return scenario([("golem", "11a", None), ("giant", "11c", None), ("zombie", "11e", None),
                     ("cyclops", "5c", None), ("troll", "3c", None)],
                    agendas=[X, Y], keep={"ann": X, "bob": Y}, **kw)


def test_the_game_ends_the_moment_the_third_monster_crosses():
    m = racers()
    s = control(m, "golem", 1)
    m.apply(s, "move finish")
    s = control(m, "zombie", 1)
    m.apply(s, "move finish")
    assert m.outcome() is None
    s = control(m, "giant", 1)
    events = m.apply(s, "move finish")
    ended = events_of(events, GameEnded)
    assert ended and m.to_act().kind == "over"
    assert m.state.finishes == ("golem", "zombie", "giant")
    # ann (red 5, green 3): golem (red) finished = 5; bob (yellow 5, blue 3): giant + zombie = 8
    assert ended[0].scores == {"ann": 5, "bob": 8}
    assert m.outcome().winners == ("bob",)
    assert ended[0].agendas["ann"].startswith("agenda-")  # agendas revealed at the end
    assert m.legal("ann") == [] and m.legal("bob") == []


def test_ties_go_to_the_first_place_monster_that_finished_first():
    m = scenario([("golem", "11a", None), ("giant", "11c", None), ("zombie", "3c", None),
                  ("cyclops", "5c", None), ("troll", "11e", None)],
                 agendas=[X, Y], keep={"ann": X, "bob": Y})
    for mid in ("golem", "giant", "troll"):  # red, yellow, then orange (on nobody's agenda)
        s = control(m, mid, 1)
        m.apply(s, "move finish")
    out = m.outcome()
    assert out.scores == {"ann": 5.0, "bob": 5.0}
    assert out.winners == ("ann",)  # ann's first place monster (red) finished first


def test_megacarnage_scores_only_the_finishers():
    m = scenario([("golem", "11a", None), ("troll", "3c", 1)], agendas=[X, Y],
                 keep={"ann": X, "bob": Y}, effects={"troll": ["poison"]})
    s = control(m, "golem", 1)
    m.apply(s, "move finish")
    assert m.outcome() is None  # the troll could still finish
    s = control(m, "troll", 1)  # the poison kills it: no monster can still finish
    out = m.outcome()
    assert out is not None and out.reason.startswith("Megacarnage")
    assert out.scores == {"ann": 5.0, "bob": 0.0} and out.winners == ("ann",)


def test_megacarnage_tie_break_by_the_graves():
    m = scenario([("golem", "9c", 1), ("giant", "3c", 1)], agendas=[{"red": 5}, {"yellow": 5}],
                 keep={"ann": {"red": 5}, "bob": {"yellow": 5}},
                 effects={"golem": ["poison"], "giant": ["poison"]})
    control(m, "golem", 1)
    assert m.state.graves == {"golem": "9c"} and m.outcome() is None
    control(m, "giant", 1)
    out = m.outcome()
    assert out.scores == {"ann": 0.0, "bob": 0.0}
    assert out.winners == ("ann",)  # her red golem's grave is closer to the finish line


def test_race_cards_may_pay_by_finishing_place():
    place = {"red": [8, 5, 3], "green": [4, 2, 0]}
    m = scenario([("golem", "11a", None), ("giant", "11c", None), ("zombie", "3a", None),
                  ("cyclops", "3c", None), ("troll", "11e", None)],
                 agendas=[place, Y], keep={"ann": place, "bob": Y})
    for mid in ("giant", "golem", "troll"):  # yellow 1st, red 2nd, orange 3rd
        s = control(m, mid, 1)
        m.apply(s, "move finish")
    assert m.outcome().scores == {"ann": 5.0, "bob": 5.0}
    assert m.outcome().winners == ("bob",)  # his yellow finished first


def test_same_first_place_monster_compares_the_second_place_monsters_distance():
    A, B = {"red": 5, "green": 3}, {"red": 5, "blue": 3}
    m = scenario([("golem", "11a", None), ("giant", "11c", None), ("zombie", "9e", None),
                  ("cyclops", "5c", None), ("troll", "11e", None)],
                 agendas=[A, B], keep={"ann": A, "bob": B})
    for mid in ("golem", "giant", "troll"):  # red, yellow, orange finish
        s = control(m, mid, 1)
        m.apply(s, "move finish")
    out = m.outcome()
    assert out.scores == {"ann": 5.0, "bob": 5.0}
    # both first place monsters are the red golem; bob's blue zombie (9e) is closer than
    # ann's green cyclops (5c) to the finish line
    assert out.winners == ("bob",)


def _tie_between_card_and_best(tie_break):
    """ann's agenda lists red first, then green; bob's yellow, then blue. Green finishes first
    and yellow second: 5 points each. ann's best placed monster (green) finished first, but
    the colour her card lists first (red, the Golem) is still back on 3c."""
    A, B = {"red": 5, "green": 5}, {"yellow": 5, "blue": 5}
    m = scenario([("golem", "3c", None), ("giant", "11c", None), ("zombie", "3a", None),
                  ("cyclops", "11a", None), ("troll", "11e", None)],
                 agendas=[A, B], keep={"ann": A, "bob": B}, options={"tie_break": tie_break})
    for mid in ("cyclops", "giant", "troll"):  # green, yellow, orange
        s = control(m, mid, 1)
        m.apply(s, "move finish")
    out = m.outcome()
    assert out.scores == {"ann": 5.0, "bob": 5.0}
    return out.winners


def test_tie_break_by_the_colour_the_agenda_card_lists_first_by_default():
    """"the one whose first place monster finished first ... If they have the same second
    place monster, you have a defective copy of the game" (Game End): the first place monster
    is the agenda card's own first colour (rules MD-HOUSE-TIE-BREAK)."""
    assert {o.name: o.default for o in GAME.options}["tie_break"] == "card"
    assert _tie_between_card_and_best("card") == ("bob",)  # his yellow finished; her red did not


def test_tie_break_by_the_best_placed_monster_of_the_agenda_as_an_option():
    assert _tie_between_card_and_best("best") == ("ann",)  # her green finished first


def test_the_same_first_and_second_place_monsters_share_the_win():
    """"If they have the same second place monster, you have a defective copy of the game":
    they share the win (house rule MD-HOUSE-SHARED-WIN)."""
    A = {"red": 5, "green": 3}
    m = scenario([("golem", "11a", None), ("giant", "11c", None), ("zombie", "3a", None),
                  ("cyclops", "5c", None), ("troll", "11e", None)],
                 agendas=[A], keep={"ann": A, "bob": A})
    for mid in ("golem", "giant", "troll"):
        s = control(m, mid, 1)
        m.apply(s, "move finish")
    assert m.outcome().winners == ("ann", "bob")
