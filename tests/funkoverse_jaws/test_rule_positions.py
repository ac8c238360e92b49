"""Rule by rule beyond the earlier passes: for each rule id no other test named, the position
where players would argue, played through the public Match; each test names its rule id and
quotes the rulebook sentence (or the house reading) that decides it."""

from __future__ import annotations

import pytest

from arbiter.core.errors import ArbiterError, RuleViolation
from arbiter.core.funkoverse_jaws import GAME
from arbiter.core.match import Match
from arbiter.events import funkoverse_jaws as E
from fjhelp import acting, events_of, finish_round, last, position


def refused(m, text, seat=None):
    with pytest.raises(RuleViolation) as e:
        m.apply(seat, text)
    return e.value.rule_id


ALL = {"quint": "a1", "swimmer": "h1", "shark": "h8", "tiger-shark": "a8"}


def test_fj_resolve_a_tie_goes_to_the_defender_and_a_star_is_nothing_to_a_defender():
    """FJ-RESOLVE: "The character with the most successes wins. If there is a tie, the
    defender wins"; the challenger counts stars, the defender circles."""
    m = acting({**ALL, "tiger-shark": "b1"}, "quint", dice="manual")
    m.apply(None, "challenge tiger-shark [star circle circle star]")  # 1 against 1: a tie
    assert m.state.chars["tiger-shark"].standing
    m.apply(None, "challenge tiger-shark [star circle star star]")  # 1 against 0
    assert not m.state.chars["tiger-shark"].standing


def test_fj_resolve_a_double_exclamation_is_three_for_either_side():
    m = acting({**ALL, "tiger-shark": "b1"}, "quint", dice="manual")
    m.apply(None, "challenge tiger-shark [crit star crit circle]")  # 4 against 4: a tie
    assert m.state.chars["tiger-shark"].standing


def test_fj_actions_two_actions_then_the_turn_is_over():
    """FJ-ACTIONS: "Do up to two actions with your chosen character": after the second the
    character is exhausted and a third is refused."""
    m = acting(ALL, "swimmer")
    m.apply(None, "move h2")
    assert m.state.actions_left == 1
    m.apply(None, "move h3")
    assert m.state.chars["swimmer"].exhausted and m.state.active is None
    with pytest.raises(RuleViolation):
        m.apply("ann", "move h4")
    assert m.state.chars["swimmer"].square == "h3"


def test_fj_assist_stands_up_a_knocked_down_ally_not_a_standing_one():
    """FJ-ASSIST: "Stand up an adjacent ally that has been knocked down"."""
    m = acting({**ALL, "swimmer": "b1"}, "quint")
    assert refused(m, "assist swimmer") == "FJ-ASSIST"
    m = acting({**ALL, "swimmer": "b1"}, "quint", down=("swimmer",))
    m.apply(None, "assist swimmer")
    assert m.state.chars["swimmer"].standing


def test_fj_move_4_through_an_ally_or_a_knocked_down_rival_but_not_a_standing_one():
    """FJ-MOVE-4: "Things may move through squares occupied by allies"; FJ-MOVE-5: never
    through a standing rival's (a knocked-down rival's square may be passed)."""
    m = acting({**ALL, "swimmer": "a2"}, "quint")
    m.apply(None, "move a2 a3")
    assert m.state.chars["quint"].square == "a3"
    m = acting({**ALL, "tiger-shark": "a2"}, "quint", down=("tiger-shark",))
    m.apply(None, "move a2 a3")
    assert m.state.chars["quint"].square == "a3"
    m = acting({**ALL, "tiger-shark": "a2"}, "quint")
    assert refused(m, "move a2 a3") == "FJ-MOVE-5"


def test_fj_target_off_map_a_knocked_out_rival_is_not_a_target():
    """FJ-TARGET-OFF-MAP: "If there is no possible target, you cannot do a challenge"."""
    m = acting({"quint": "a1", "swimmer": "h1", "shark": "h8"}, "quint")  # Tiger Shark is out
    assert refused(m, "challenge tiger-shark") == "FJ-TARGET-OFF-MAP"


def test_fj_place_who_only_your_own_waiting_characters():
    """FJ-PLACE-WHO: characters waiting to be placed are placed by their own side."""
    m = Match.new(GAME, seed=1, seats=["ann", "bob"])
    seat = m.to_act().seats[0]
    side = next(s for s, v in m.state.sides.items() if seat in v.seats)
    rival = "shark" if side == "light" else "quint"
    start = m.state.board.start[side][0]
    assert refused(m, f"place {rival} {start}", seat) == "FJ-PLACE-WHO"


def test_fj_item_parity_a_lone_harpoon_gun_needs_the_option():
    """FJ-ITEM-PARITY: "Both players must have an item" before items are used."""
    with pytest.raises(ArbiterError):
        Match.new(GAME, seed=1, seats=["ann", "bob"], options={"harpoon-gun": "quint"})
    m = Match.new(GAME, seed=1, seats=["ann", "bob"],
                  options={"harpoon-gun": "quint", "item-parity": False})
    assert m.created.options["harpoon-gun"] == "quint"


def test_fj_mode_a_knock_out_does_not_end_a_scenario():
    """FJ-MODE: the first game ends at the first knock-out; a scenario plays for points."""
    for mode, over in (("first-game", True), ("control", False)):
        m = acting({**ALL, "tiger-shark": "b1"}, "quint", mode=mode, dice="manual",
                   down=("tiger-shark",))
        m.apply(None, "challenge tiger-shark [star star star star]")
        assert m.state.chars["tiger-shark"].square is None
        assert (m.outcome() is not None) is over


def test_fj_house_maps_auto_pairs_orca_with_the_first_game():
    """FJ-HOUSE-MAPS: auto picks the Orca for the first game, South Beach for scenarios."""
    a = Match.new(GAME, seed=1, seats=["ann", "bob"])
    b = Match.new(GAME, seed=1, seats=["ann", "bob"], options={"mode": "control"})
    assert a.state.board.name != b.state.board.name
    assert "orca" in a.state.board.name.lower() and "beach" in b.state.board.name.lower()


@pytest.mark.parametrize("map_id,mode", [("orca", "first-game"), ("south-beach", "control")])
def test_fj_house_maps_are_point_symmetric(map_id, mode):
    """FJ-HOUSE-MAPS: the Orca and South Beach are house content, each laid out
    point-symmetric about the centre so that neither side's starting area is favoured:
    turning the map half round maps every filled square, wall, post, point marker and control
    area onto one of its own, and the light side's starting area and flag onto the dark
    side's. Played through a game on the map in the scenario it serves: a step is open, and a
    square seen, exactly where the turned step and square are."""
    from arbiter.core.funkoverse_jaws import rules as R
    from arbiter.core.funkoverse_jaws.board import all_squares, geometry, parse_square

    layout = GAME.default_content()["maps"][map_id]
    assert layout["source"] == "house"
    cols, rows = layout["columns"], layout["rows"]

    def turn(name):
        return "abcdefgh"[cols - 1 - "abcdefgh".index(name[0])] + str(rows + 1 - int(name[1:]))

    def same(squares):
        return sorted(turn(x) for x in squares) == sorted(squares)

    assert same(layout["filled"]) and same(layout["point_markers"].values())
    walls = {frozenset(w) for w in layout["walls"]}
    assert {frozenset(map(turn, w)) for w in walls} == walls
    assert sorted((cols - x, rows - y) for x, y in layout["posts"]) == sorted(map(tuple, layout["posts"]))
    areas = {frozenset(a) for a in layout["control_areas"].values()}
    assert {frozenset(map(turn, a)) for a in areas} == areas
    assert sorted(map(turn, layout["start"]["light"])) == sorted(layout["start"]["dark"])
    assert turn(layout["flags"]["light"]) == layout["flags"]["dark"]

    m = Match.new(GAME, seed=1, seats=["ann", "bob"], options={"map": map_id, "mode": mode})
    s = m.state
    assert s.board.name == layout["name"]
    if mode != "first-game":  # the scenario's point markers stand where the map sets them
        assert sorted(map(turn, s.point_markers.values())) == sorted(s.point_markers.values())
    g = geometry(s.board)
    squares = [parse_square(x) for x in all_squares(s.board)]
    half = {sq: parse_square(turn(x)) for sq, x in zip(squares, all_squares(s.board))}
    for a in squares:
        for b in squares:
            if max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1:
                assert g.step_open(a, b) == g.step_open(half[a], half[b]), (a, b)
            assert R.sees(s, "light", a, b) == R.sees(s, "dark", half[a], half[b]), (a, b)


def test_fj_house_die_faces():
    """FJ-HOUSE-DIE: 3 star, 2 circle, 1 double exclamation."""
    faces = sorted(GAME.default_content()["dice"]["funkoverse"])
    assert faces == sorted(["star"] * 3 + ["circle"] * 2 + ["crit"])


def test_fj_house_dots_follow_the_ability_types():
    """FJ-HOUSE-DOTS: Quint's dots might and cunning; the Shark's finesse and might."""
    ch = GAME.default_content()["characters"]
    assert sorted(ch["quint"]["dots"]) == ["cunning", "might"]
    assert sorted(ch["shark"]["dots"]) == ["finesse", "might"]


def test_fj_house_seats_one_and_three_share_a_side():
    """FJ-HOUSE-SEATS: seats 1 and 3 play one side, 2 and 4 the other."""
    m = Match.new(GAME, seed=1, seats=["a", "b", "c", "d"])
    assert m.state.sides["light"].seats == ("a", "c") and m.state.sides["dark"].seats == ("b", "d")


def test_fj_house_first_player_records_the_tables_flip():
    """FJ-HOUSE-FIRST-PLAYER: first-player=dark records the flip made at the table."""
    for side in ("light", "dark"):
        m = Match.new(GAME, seed=1, seats=["ann", "bob"], options={"first-player": side})
        assert m.state.first == side


def test_fj_can_crusher_one_extra_die_per_status_card_of_yours():
    """FJ-CAN-CRUSHER: "Roll 1 extra die for each of your status cards on the target"."""
    m = acting({**ALL, "tiger-shark": "c1"}, "quint", mode="control", statuses={"tiger-shark": ["hunted"]})
    m.apply(None, "can-crusher tiger-shark")
    assert last(m, E.ChallengeDeclared).extra == 1 and last(m, E.ChallengeDeclared).dice == 3


def test_fj_house_harpoon_order_can_crusher_counts_the_barrel_it_just_gave():
    """FJ-HOUSE-HARPOON-ORDER: the Harpoon Gun's Barrel is given before the dice."""
    m = acting({**ALL, "tiger-shark": "c1"}, "quint", mode="control",
               options={"harpoon-gun": "both"})
    m.apply(None, "can-crusher tiger-shark harpoon")
    assert last(m, E.ChallengeDeclared).extra == 1


def test_fj_house_farewell_must_end_adjacent_and_may_move_none():
    """FJ-HOUSE-FAREWELL: the move ends adjacent to the Hunted rival; 0 squares allowed."""
    m = acting({**ALL, "tiger-shark": "a5"}, "quint", statuses={"tiger-shark": ["hunted"]})
    assert refused(m, "farewell-and-adieu a3") == "FJ-HUNTED-TARGET"
    m.apply(None, "farewell-and-adieu a4")
    assert m.state.chars["quint"].square == "a4"
    m = acting({**ALL, "tiger-shark": "a2"}, "quint", statuses={"tiger-shark": ["hunted"]})
    m.apply(None, "farewell-and-adieu a1")  # already adjacent: no move
    assert m.state.chars["quint"].square == "a1" and last(m, E.ChallengeDeclared)


def test_fj_house_nearer_a_diagonal_step_counts_one():
    """FJ-HOUSE-NEARER: nearer in squares as for movement; a diagonal step is nearer."""
    m = acting({**ALL, "tiger-shark": "e5"}, "quint", statuses={"tiger-shark": ["hunted"]})
    m.apply(None, "farewell-and-adieu d4")  # diagonally, four squares of movement
    assert m.state.chars["quint"].square == "d4"


def test_fj_house_place_full_a_returning_character_goes_to_the_nearest_empty_square():
    """FJ-HOUSE-PLACE-FULL: with the starting area full, the nearest empty square."""
    m = position({"quint": "f2", "tiger-shark": "g2", "shark": "g3"}, mode="control")
    for _ in range(6):
        if m.state.phase == "place" or m.outcome() is not None:
            break
        finish_round(m)
    assert m.state.phase == "place" and "swimmer" in m.state.pending_place
    seat = m.to_act().seats[0]
    offered = [t for t in m.legal_texts(seat) if t.startswith("place swimmer")]
    assert offered and all(t.split()[-1] not in ("f2", "g2", "g3") for t in offered)
    m.apply(seat, offered[0])
    assert m.state.chars["swimmer"].square == offered[0].split()[-1]
