"""Taking a Turn, Ending a Round, the cooldown track, setup and the seats of a side."""

import pytest

from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.funkoverse_jaws import GAME
from arbiter.core.match import Match
from arbiter.events import funkoverse_jaws as E

from fjhelp import acting, events_of, finish_round, last, position, settle


def rid(m, text, seat=None):
    with pytest.raises(RuleViolation) as exc:
        m.apply(seat, text)
    return exc.value.rule_id


def test_setup_flips_the_first_player_and_places_in_starting_areas():
    m = Match.new(GAME, seed=5, seats=["ann", "bob"])
    first = m.state.first
    assert first in ("light", "dark")
    seat = "ann" if first == "light" else "bob"
    assert m.to_act().seats == (seat,)
    assert rid(m, "place quint h4" if first == "light" else "place shark a4", seat) == "FJ-PLACE-START"
    settle(m)
    for c in m.state.chars.values():
        assert c.square in m.state.board.start[c.side]
    assert m.state.phase == "choose" and m.state.turn_side == first
    assert m.state.board.name == "Orca"  # the first game is played on the Orca


def test_two_actions_then_exhaust_and_the_other_player_goes():
    m = acting({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"}, "quint")
    m.apply(None, "move a2")
    m.apply(None, "move a3")
    assert m.state.chars["quint"].exhausted
    m.apply(None, "no-hunt")
    assert m.to_act().seats == ("bob",) and m.state.phase == "choose"
    assert rid(m, "choose quint", "bob") == "FJ-CHOOSE"


def test_an_exhausted_character_cannot_take_another_turn():
    m = acting({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"}, "swimmer")
    m.apply(None, "end")
    m.apply("bob", "choose shark")
    m.apply("bob", "end")
    assert rid(m, "choose swimmer", "ann") == "FJ-CHOOSE"
    m.apply("ann", "choose quint")


def test_rally_uses_both_actions():
    m = acting({"swimmer": "a1", "quint": "b1", "shark": "h8", "tiger-shark": "g8"}, "swimmer", down=("swimmer",))
    assert rid(m, "move a2") == "FJ-KNOCKED-DOWN"
    assert rid(m, "challenge shark") == "FJ-KNOCKED-DOWN"
    m.apply(None, "rally")
    assert m.state.chars["swimmer"].standing and m.state.chars["swimmer"].exhausted
    m2 = acting({"swimmer": "a1", "quint": "b1", "shark": "h8", "tiger-shark": "g8"}, "swimmer")
    assert rid(m2, "rally") == "FJ-RALLY"


def test_assist_stands_up_an_adjacent_knocked_down_ally():
    m = acting({"swimmer": "a1", "quint": "b2", "shark": "h8", "tiger-shark": "g8"}, "swimmer", down=("quint",))
    m.apply(None, "assist quint")
    assert m.state.chars["quint"].standing
    assert last(m, E.StoodUp).how == "assist"
    m2 = acting({"swimmer": "a1", "quint": "b3", "shark": "h8", "tiger-shark": "g8"}, "swimmer", down=("quint",))
    assert rid(m2, "assist quint") == "FJ-ADJACENT"


def test_cooldown_track_shifts_at_round_end_first_player_first():
    m = acting({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"}, "quint", first="light")
    m.apply(None, "end")
    m.apply(None, "no-hunt")
    m.apply("bob", "choose shark")
    m.apply("bob", "swim h5")  # finesse token on the 2
    assert m.state.sides["dark"].cooldown == {"token:finesse": 2}
    assert "finesse" not in m.state.sides["dark"].pool
    finish_round(m)
    shifts = events_of(m, E.CooldownShifted)
    assert [s.side for s in shifts] == ["light", "dark"]  # the First Player shifts first
    assert m.state.sides["dark"].cooldown == {"token:finesse": 1}
    assert m.state.first == "dark"  # the marker passes
    assert not any(c.exhausted for c in m.state.chars.values())  # refresh
    finish_round(m)
    assert [s.side for s in events_of(m, E.CooldownShifted)][-2:] == ["dark", "light"]
    assert m.state.sides["dark"].cooldown == {} and "finesse" in m.state.sides["dark"].pool


def test_knocked_out_character_takes_an_empty_turn_and_returns_at_round_end():
    m = position({"quint": "a1", "swimmer": "b1", "shark": "h8"}, turn="dark")
    assert m.state.chars["tiger-shark"].out
    m.apply("bob", "choose tiger-shark")
    assert m.state.chars["tiger-shark"].exhausted
    assert last(m, E.CharacterChosen).empty
    assert m.to_act().seats == ("ann",)
    finish_round(m)
    assert m.state.phase == "place"
    assert m.to_act().seats == ("bob",)
    m.apply("bob", "place tiger-shark b7")
    assert m.state.chars["tiger-shark"].square == "b7" and not m.state.chars["tiger-shark"].out


def test_one_or_two_players_a_side():
    m = Match.new(GAME, seed=3, seats=["ann", "bob", "cy", "dee"])
    assert m.state.chars["quint"].seat == "ann" and m.state.chars["swimmer"].seat == "cy"
    assert m.state.chars["shark"].seat == "bob" and m.state.chars["tiger-shark"].seat == "dee"
    three = Match.new(GAME, seed=3, seats=["ann", "bob", "cy"])
    assert three.state.chars["tiger-shark"].seat == "bob" and three.state.chars["swimmer"].seat == "cy"
    m4 = position({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"},
                  seats=("ann", "bob", "cy", "dee"))
    m4.apply("ann", "choose swimmer")  # the side's first seat chooses ...
    assert m4.to_act().seats == ("cy",)  # ... and the character's player acts
    with pytest.raises(RuleViolation):
        m4.apply("ann", "move a2")
    m4.apply("cy", "move b2")


def test_dark_side_for_the_first_seat():
    m = Match.new(GAME, seed=3, seats=["ann", "bob"], options={"first-seat-side": "dark"})
    assert m.state.chars["shark"].seat == "ann"


def test_interact_is_not_used_in_the_first_game():
    m = acting({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"}, "quint",
               point_markers={"A": "a2", "B": "b8", "C": "c8", "D": "d8"})
    assert rid(m, "interact A") == "FJ-INTERACT-FIRST-GAME"


def test_bad_text_is_a_parse_error_with_a_hint():
    m = acting({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"}, "quint")
    for text in ("fly away", "move z9", "challenge hooper", "move", "swim", "interact Q", "jaws quint sideways"):
        with pytest.raises(ParseError) as exc:
            m.apply(None, text)
        assert str(exc.value)
    assert rid(m, "choose swimmer") == "FJ-PHASE"


def test_round_limit_ends_the_game_on_points():
    m = position({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"}, mode="control",
                 options={"round-limit": 1}, points={"dark": 2})
    finish_round(m)
    out = m.outcome()
    assert out is not None and out.winners == ("bob",) and "round limit" in out.reason


def test_round_limit_with_level_points_is_a_draw():
    m = position({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"}, mode="flags",
                 options={"round-limit": 1}, points={"dark": 2, "light": 2})
    finish_round(m)
    out = m.outcome()
    assert out is not None and out.winners == () and "points level at 2" in out.reason


def test_round_limit_in_the_first_game_is_a_draw_when_no_rival_was_knocked_out():
    m = position({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"},
                 options={"round-limit": 2})
    finish_round(m)
    settle(m)
    assert m.outcome() is None and m.state.round == 2  # round 1 of 2: play goes on
    finish_round(m)
    out = m.outcome()
    assert out is not None and out.winners == () and "no rival knocked out" in out.reason


def test_the_round_limit_is_a_documented_house_option_off_by_default():
    opt = next(o for o in GAME.options if o.name == "round-limit")
    assert opt.default == 0 and opt.house and opt.rule == "FJ-HOUSE-ROUND-LIMIT"
    rule = GAME.rules.get("FJ-HOUSE-ROUND-LIMIT")
    assert rule.source == "house" and "off by default" in rule.text and "draw" in rule.text
    m = Match.new(GAME, seed=1, seats=["ann", "bob"], options={"mode": "control"})
    assert m.state.options["round-limit"] == 0  # recorded in GameCreated: no limit


def test_with_the_default_options_a_level_scenario_plays_on_past_round_20():
    """"If there is a tie, play more rounds until one player has more points." (Winning a Scenario)"""
    m = position({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"}, mode="flags",
                 points={"dark": 1, "light": 1})
    for _ in range(21):
        finish_round(m)
        settle(m)
    assert m.outcome() is None and m.state.round == 22


def test_command_forms_the_rulebook_forbids_are_refused_with_the_rule_not_as_bad_input():
    m = acting({"quint": "c3", "swimmer": "b1", "shark": "c4", "tiger-shark": "h8"}, "quint",
               options={"harpoon-gun": "both"}, mode="control")
    # "Unless a rule says otherwise, you challenge only one target at a time." (Challenges)
    assert rid(m, "challenge shark tiger-shark") == "FJ-ONE-TARGET"
    # "Submerged ... As a basic action, the Shark may emerge.": a basic move never emerges
    assert rid(m, "move c2 emerge") == "FJ-EMERGE"
    assert rid(m, "farewell-and-adieu c3 emerge") == "FJ-EMERGE"
    # Harpoon Gun: "When this character challenges a rival character, you may ..."
    assert rid(m, "move c2 harpoon") == "FJ-HARPOON"
    # "Basic Moves: ... the character can move up to 2 squares."
    assert rid(m, "move c2 c1 d1") == "FJ-MOVE-RANGE"
    s = acting({"quint": "a1", "swimmer": "b1", "shark": "d4", "tiger-shark": "h8"}, "shark",
               options={"harpoon-gun": "both"}, mode="control")
    assert rid(s, "blood-in-the-water b2 harpoon") == "FJ-HARPOON"
    assert rid(s, "swim d5 d6 d7 d8") == "FJ-MOVE-RANGE"  # "Swim ... Move 3."
