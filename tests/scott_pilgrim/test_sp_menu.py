"""The numbered menu: ending the turn is its last entry, and a straight move is offered at
its full length (when it closes in on an opponent) or where it stops next to something to
strike, grab or push; any other stop may still be typed."""

from __future__ import annotations

from sp_helpers import battle, to_good_turn


def test_end_is_the_last_menu_entry_not_the_first():
    m = battle({"scott": "e4", "matthew": "h4", "chick1": "k1", "chick2": "k2", "chick3": "k3"}, objects={})
    to_good_turn(m, "speed speed speed speed speed")
    texts = m.legal_texts("good")
    assert texts[-1] == "end" and texts[0] != "end"


def test_a_move_stops_short_in_the_menu_only_next_to_something_but_may_be_typed():
    m = battle({"scott": "e4", "matthew": "h4", "chick1": "k1", "chick2": "k2", "chick3": "k3"}, objects={})
    to_good_turn(m, "speed speed speed speed speed")
    moves = [t for t in m.legal_texts("good") if t.startswith("scott move")]
    # east along row 4, g4 is next to Matthew on h4; f4 (an item space) and, west, d4 and
    # c4 are next to nothing (and west leads away from Matthew: not offered at all)
    assert "scott move f4 g4 pay speed" in moves
    assert not any(t.startswith(("scott move f4 pay", "scott move d4 pay", "scott move d4 c4 pay")) for t in moves)
    m.apply("good", "scott move d4 c4")
    assert m.state.chars["scott"].pos == "c4"


def test_attacks_on_the_other_team_come_before_moves_and_hitting_objects():
    """Scott between Matthew (e4->f4) and a chair: punching Matthew is offered first, a move
    that ends next to an opponent before one that goes away, hitting the chair after both."""
    m = battle({"scott": "e4", "matthew": "f4", "chick1": "k1", "chick2": "k2", "chick3": "k3"},
               objects={"chair-1": "d4"})
    to_good_turn(m, "speed speed speed guts guts")
    texts = m.legal_texts("good")
    first = lambda pred: next(i for i, t in enumerate(texts) if pred(t))  # noqa: E731
    assert "chair" not in texts[0]
    on_matthew = first(lambda t: t.startswith(("scott punch matthew", "scott kick matthew")))
    on_chair = first(lambda t: t.startswith(("scott punch chair-1", "scott kick chair-1")))
    a_move = first(lambda t: " move " in t)
    assert on_matthew < a_move < on_chair < texts.index("end")
