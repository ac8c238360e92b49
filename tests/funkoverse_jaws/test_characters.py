"""Quint, The Shark and the basic characters exactly as printed, with their status cards."""

import pytest

from arbiter.core.errors import BadOption, RuleViolation
from arbiter.core.funkoverse_jaws import GAME
from arbiter.core.match import Match
from arbiter.events import funkoverse_jaws as E

from fjhelp import acting, events_of, finish_round, last, position


def rid(m, text, seat=None):
    with pytest.raises(RuleViolation) as exc:
        m.apply(seat, text)
    return exc.value.rule_id


def test_cards_as_printed():
    chars = GAME.default_content()["characters"]
    q, s = chars["quint"], chars["shark"]
    assert q["defense"] == 2 and s["defense"] == 4
    assert chars["swimmer"]["defense"] == 2 and chars["tiger-shark"]["defense"] == 2
    assert {k: (v["cost"], v["type"], v["challenge"]) for k, v in q["abilities"].items()} == {
        "farewell-and-adieu": (4, "might", True), "can-crusher": (3, "cunning", True),
        "compare-scars": (3, "might", True)}
    assert {k: (v["cost"], v["type"], v["challenge"]) for k, v in s["abilities"].items()} == {
        "swim": (2, "finesse", False), "blood-in-the-water": (3, "might", False), "jaws": (3, "might", True)}
    assert s["dots"] == ["finesse", "might"]


def test_ability_token_pool_from_the_dots():
    m = Match.new(GAME, seed=1, seats=["ann", "bob"])
    assert sorted(m.state.sides["light"].pool) == ["cunning", "might"]
    assert sorted(m.state.sides["dark"].pool) == ["finesse", "might"]


# -- the Shark ---------------------------------------------------------------------------------

def test_submerged_shark_may_not_challenge_assist_or_interact_but_may_emerge():
    m = acting({"shark": "c4", "quint": "c3", "swimmer": "a1", "tiger-shark": "h8"}, "shark", mode="control",
               point_markers={"A": "c5", "B": "b8", "C": "c8", "D": "d8"})
    assert m.state.chars["shark"].emerged is False  # begins Submerged
    assert rid(m, "challenge quint") == "FJ-SUBMERGED"
    assert rid(m, "jaws quint") == "FJ-SUBMERGED"
    assert rid(m, "interact A") == "FJ-SUBMERGED"
    m.apply(None, "emerge")
    assert m.state.chars["shark"].emerged is True
    assert rid(m, "emerge") == "FJ-EMERGE"
    m.apply(None, "interact A")
    assert m.state.sides["dark"].points == 1


def test_the_shark_challenged_while_submerged_is_knocked_out_not_down():
    """Underwater Predator: if the Shark would be knocked down, knock it out instead."""
    m = acting({"quint": "c3", "shark": "c4", "swimmer": "a1", "tiger-shark": "h8"}, "quint", dice="manual",
               mode="control")
    assert m.state.chars["shark"].emerged is False
    m.apply(None, "challenge shark [star star star star star star]")
    res = last(m, E.ChallengeResolved)
    assert res.won and res.result == "knocked-out" and len(res.defender_faces) == 4
    assert m.state.chars["shark"].out and m.state.chars["shark"].square is None
    assert m.state.sides["light"].points == 1


def test_in_the_first_game_one_challenge_the_standing_shark_loses_ends_the_game():
    """Why the light side wins most random first games (HOUSE.md, "Balance"): "If the Shark
    would be knocked down, knock it out instead", and the first game is won by the first
    knock-out, so one lost challenge of the standing Shark ends it, where a standing Tiger
    Shark losing once is only knocked down."""
    m = acting({"quint": "c3", "shark": "c4", "swimmer": "a1", "tiger-shark": "h8"}, "quint", dice="manual")
    m.apply(None, "challenge shark [star star star star star circle]")
    assert last(m, E.ChallengeResolved).result == "knocked-out"
    out = m.outcome()
    assert out is not None and out.winners == ("ann",) and "first-game victory" in out.reason
    m = acting({"quint": "c3", "tiger-shark": "c4", "swimmer": "a1", "shark": "h8"}, "quint", dice="manual")
    m.apply(None, "challenge tiger-shark [star star star circle]")
    assert last(m, E.ChallengeResolved).result == "knocked-down" and m.outcome() is None


def test_jaws_rolls_five_and_may_place_the_target():
    m = acting({"shark": "c4", "quint": "c5", "swimmer": "a1", "tiger-shark": "h8"}, "shark", emerged=True,
               dice="manual")
    m.apply(None, "jaws quint [star star star star star circle circle]")
    assert last(m, E.ChallengeDeclared).dice == 5
    assert m.state.chars["quint"].standing is False
    assert m.state.phase == "jaws"
    assert rid(m, "put h1") == "FJ-JAWS-PLACE"
    m.apply(None, "put d3")
    q = m.state.chars["quint"]
    assert q.square == "d3" and not q.standing  # placed, still knocked down
    assert m.state.chars["shark"].emerged is True  # placing is not moving the Shark
    assert m.state.sides["dark"].cooldown["token:might"] == 3


def test_moving_submerges_an_emerged_shark_and_swim_may_emerge():
    m = acting({"shark": "d4", "quint": "a1", "swimmer": "b1", "tiger-shark": "h8"}, "shark", emerged=True)
    m.apply(None, "move d5")
    assert m.state.chars["shark"].emerged is False
    m.apply(None, "swim d8 emerge")
    assert m.state.chars["shark"].square == "d8" and m.state.chars["shark"].emerged is True
    assert m.state.sides["dark"].cooldown["token:finesse"] == 2
    m2 = acting({"shark": "d4", "quint": "a1", "swimmer": "b1", "tiger-shark": "h8"}, "shark")
    m2.apply(None, "swim g7")
    assert m2.state.chars["shark"].emerged is False
    assert rid(m2, "swim g4") == "FJ-TOKEN"  # the finesse token is on the cooldown track


def test_blood_in_the_water_places_the_shark_next_to_a_rival():
    m = acting({"shark": "d4", "quint": "d1", "swimmer": "a8", "tiger-shark": "h8"}, "shark")
    assert rid(m, "blood-in-the-water h5") == "FJ-BLOOD"
    m.apply(None, "blood-in-the-water d2 emerge")
    s = m.state.chars["shark"]
    assert s.square == "d2" and s.emerged is True
    # a knocked-down rival may be anywhere on the map
    m2 = acting({"shark": "h8", "quint": "a1", "swimmer": "b1", "tiger-shark": "g8"}, "shark", down=("quint",))
    m2.apply(None, "blood-in-the-water a2")
    assert m2.state.chars["shark"].square == "a2"


# -- Quint ---------------------------------------------------------------------------------

def test_can_crusher_rolls_an_extra_die_per_status_card_of_yours():
    m = acting({"quint": "a1", "tiger-shark": "c3", "swimmer": "h1", "shark": "h8"}, "quint",
               options={"harpoon-gun": "both"}, statuses={"tiger-shark": ["hunted"]})
    m.apply(None, "can-crusher tiger-shark harpoon")  # the Barrel goes on before the dice
    assert last(m, E.ChallengeDeclared).dice == 4
    assert set(m.state.chars["tiger-shark"].statuses) == {"hunted", "barrel-light"}
    assert m.state.sides["light"].cooldown["item:quint:harpoon-gun"] == 1
    m0 = acting({"quint": "a1", "tiger-shark": "c3", "swimmer": "h1", "shark": "h8"}, "quint")
    m0.apply(None, "can-crusher tiger-shark")
    assert last(m0, E.ChallengeDeclared).dice == 2


def test_compare_scars_while_knocked_down():
    m = acting({"quint": "c3", "shark": "c4", "swimmer": "a1", "tiger-shark": "h8"}, "quint", down=("quint",))
    assert rid(m, "move c2") == "FJ-KNOCKED-DOWN"
    m.apply(None, "compare-scars shark")
    assert m.state.chars["quint"].standing
    assert last(m, E.StoodUp).how == "compare-scars"
    assert m.state.actions_left == 1  # one action, not a rally
    assert m.state.sides["light"].cooldown["token:might"] == 3


def test_hunted_resolving_a_knock_out_shifts_quints_tokens():
    """Hunted: when Quint knocks this character out, cunning and might tokens shift down 1."""
    m = acting({"quint": "c3", "tiger-shark": "c4", "swimmer": "a1", "shark": "h8"}, "quint", dice="manual",
               mode="control", statuses={"tiger-shark": ["hunted"]})
    m.apply(None, "compare-scars tiger-shark [star star circle star]")
    assert m.state.chars["tiger-shark"].standing is False
    m.apply(None, "can-crusher tiger-shark [star star star circle star]")
    assert last(m, E.ChallengeResolved).result == "knocked-out"
    shift = last(m, E.HuntedShift)
    assert shift.tokens == ("cunning", "might")
    cd = m.state.sides["light"].cooldown
    assert cd["token:might"] == 2 and cd["token:cunning"] == 2
    assert "hunted" in m.state.chars["tiger-shark"].statuses  # a knocked-out character keeps its cards


def test_hunted_shift_returns_a_token_on_the_1_to_the_pool():
    m = acting({"quint": "c3", "tiger-shark": "c4", "swimmer": "a1", "shark": "h8"}, "quint", dice="manual",
               mode="control", statuses={"tiger-shark": ["hunted"]}, down=("tiger-shark",),
               tokens_on_track={"light": {"might": 1}})
    m.apply(None, "challenge tiger-shark [star star circle star]")
    assert "might" in m.state.sides["light"].pool and "token:might" not in m.state.sides["light"].cooldown


def test_veteran_hunter_gives_or_moves_hunted_when_quint_is_exhausted():
    m = acting({"quint": "a1", "swimmer": "b1", "shark": "h8", "tiger-shark": "g8"}, "quint")
    m.apply(None, "end")
    assert m.state.phase == "veteran"
    assert rid(m, "hunt swimmer") == "FJ-VETERAN"
    m.apply(None, "hunt shark")
    assert m.state.chars["shark"].statuses == ("hunted",)
    m.apply("bob", "choose shark")
    m.apply("bob", "end")
    m.apply("ann", "choose swimmer")
    m.apply("ann", "end")
    m.apply("bob", "choose tiger-shark")
    m.apply("bob", "end")
    # next round: light... the First Player marker passed to dark
    assert m.state.first == "dark"
    m.apply("bob", "choose shark")
    m.apply("bob", "end")
    m.apply("ann", "choose quint")
    m.apply("ann", "end")
    m.apply("ann", "hunt tiger-shark")  # moved, never duplicated
    assert "hunted" not in m.state.chars["shark"].statuses
    assert m.state.chars["tiger-shark"].statuses == ("hunted",)


def test_farewell_and_adieu_moves_toward_the_hunted_rival_then_challenges():
    m = acting({"quint": "a1", "shark": "e5", "swimmer": "h1", "tiger-shark": "h8"}, "quint",
               statuses={"shark": ["hunted"]})
    assert rid(m, "farewell-and-adieu a4") == "FJ-TOWARD"   # not nearer the Shark
    assert rid(m, "farewell-and-adieu c3") == "FJ-HUNTED-TARGET"  # would not be adjacent
    m.apply(None, "farewell-and-adieu d4")
    assert m.state.chars["quint"].square == "d4"
    assert last(m, E.ChallengeDeclared).kind == "farewell-and-adieu"
    assert last(m, E.TokenSpent).slot == 4 and last(m, E.TokenSpent).token == "might"
    m2 = acting({"quint": "a1", "shark": "e5", "swimmer": "h1", "tiger-shark": "h8"}, "quint")
    assert rid(m2, "farewell-and-adieu d4") == "FJ-HUNTED-TARGET"  # nobody is Hunted


def test_basic_characters_have_no_abilities():
    m = acting({"swimmer": "a1", "quint": "b1", "shark": "h8", "tiger-shark": "g8"}, "swimmer")
    assert rid(m, "can-crusher shark") == "FJ-BASIC-NO-ABILITIES"
    m2 = acting({"shark": "a1", "quint": "b1", "swimmer": "h8", "tiger-shark": "g8"}, "shark")
    assert rid(m2, "can-crusher quint") == "FJ-UNKNOWN-ABILITY"


# -- the Harpoon Gun ------------------------------------------------------------------------

def test_harpoon_gun_needs_both_sides_to_have_an_item():
    with pytest.raises(BadOption):
        Match.new(GAME, seed=1, seats=["ann", "bob"], options={"harpoon-gun": "quint"})
    m = Match.new(GAME, seed=1, seats=["ann", "bob"], options={"harpoon-gun": "quint", "item-parity": False})
    assert m.state.chars["quint"].item == "harpoon-gun" and m.state.chars["shark"].item is None
    both = Match.new(GAME, seed=1, seats=["ann", "bob"], options={"harpoon-gun": "both"})
    assert both.state.chars["shark"].item == "harpoon-gun" and both.state.chars["swimmer"].item is None


def test_harpoon_gun_gives_a_barrel_and_cools_down():
    m = acting({"shark": "c4", "swimmer": "c5", "quint": "a1", "tiger-shark": "h8"}, "shark", emerged=True,
               options={"harpoon-gun": "both"})
    assert rid(m, "use harpoon-gun") == "FJ-ITEM-TRAIT"
    m.apply(None, "challenge swimmer harpoon")
    assert "barrel-dark" in m.state.chars["swimmer"].statuses
    assert m.state.sides["dark"].cooldown["item:shark:harpoon-gun"] == 1
    assert rid(m, "challenge swimmer harpoon") == "FJ-HARPOON"
    m3 = acting({"swimmer": "c4", "shark": "c5", "quint": "a1", "tiger-shark": "h8"}, "swimmer",
                options={"harpoon-gun": "both"})
    assert rid(m3, "challenge shark harpoon") == "FJ-HARPOON"  # basic characters hold no items


def test_harpoon_gun_returns_to_its_holder_when_it_shifts_off_the_1():
    m = acting({"shark": "c4", "swimmer": "c5", "quint": "a1", "tiger-shark": "h8"}, "shark", emerged=True,
               options={"harpoon-gun": "both"}, mode="control")
    m.apply(None, "challenge swimmer harpoon")
    assert m.state.sides["dark"].cooldown.get("item:shark:harpoon-gun") == 1
    finish_round(m)
    assert "item:shark:harpoon-gun" not in m.state.sides["dark"].cooldown
    back = [e for e in events_of(m, E.CooldownShifted) if e.side == "dark"][-1]
    assert "item:shark:harpoon-gun" in back.returned


def test_veteran_hunter_works_while_quint_is_knocked_out():
    """Traits work when the character is knocked out: Quint's empty turn still hunts."""
    m = position({"swimmer": "a1", "shark": "h8", "tiger-shark": "g8"}, turn="light")
    assert m.state.chars["quint"].out
    m.apply("ann", "choose quint")
    assert m.state.phase == "veteran"
    m.apply("ann", "hunt tiger-shark")
    assert "hunted" in m.state.chars["tiger-shark"].statuses


PRINTED = {  # "Characters": name, cost, type, challenge action (star), and the numbers in the text
    ("quint", "farewell-and-adieu"): ("Farewell and Adieu", 4, "might", True, {"move": 4, "dice": 2}),
    ("quint", "can-crusher"): ("Can Crusher", 3, "cunning", True, {"range": 3, "dice": 2}),
    ("quint", "compare-scars"): ("Compare Scars", 3, "might", True, {"dice": 2}),
    ("shark", "swim"): ("Swim", 2, "finesse", False, {"move": 3}),
    ("shark", "blood-in-the-water"): ("Blood in the Water", 3, "might", False, {"range": 3}),
    ("shark", "jaws"): ("Jaws!", 3, "might", True, {"dice": 5}),
}


def test_every_ability_is_exactly_as_printed():
    chars = GAME.default_content()["characters"]
    assert {(c, a) for c, spec in chars.items() for a in spec.get("abilities", {})} == set(PRINTED)
    for (cid, aid), (name, cost, kind, challenge, numbers) in PRINTED.items():
        spec = chars[cid]["abilities"][aid]
        assert (spec["name"], spec["cost"], spec["type"], spec["challenge"]) == (name, cost, kind, challenge), aid
        for key, value in numbers.items():
            assert spec[key] == value, (aid, key)
    assert (chars["quint"]["defense"], chars["shark"]["defense"]) == (2, 4)
    assert chars["swimmer"]["defense"] == chars["tiger-shark"]["defense"] == 2
    assert chars["swimmer"]["basic"] and chars["tiger-shark"]["basic"] and not chars["swimmer"]["abilities"]


def test_each_ability_spends_its_token_on_the_printed_cost():
    """Doing an Ability 2: the token of the ability's type goes on the number in its icon."""
    m = acting({"quint": "c3", "shark": "c4", "swimmer": "a1", "tiger-shark": "h8"}, "quint", dice="manual")
    m.apply(None, "can-crusher shark [star star circle circle circle circle]")
    assert last(m, E.TokenSpent).token == "cunning" and last(m, E.TokenSpent).slot == 3
    m.apply(None, "compare-scars shark [star star circle circle circle circle]")
    assert last(m, E.TokenSpent).token == "might" and last(m, E.TokenSpent).slot == 3
    s = acting({"shark": "e5", "quint": "b4", "swimmer": "b1", "tiger-shark": "h8"}, "shark")
    s.apply(None, "swim e7")
    assert (last(s, E.TokenSpent).token, last(s, E.TokenSpent).slot) == ("finesse", 2)
    s.apply(None, "blood-in-the-water c4 emerge")  # Quint is within 3 of e7
    assert (last(s, E.TokenSpent).token, last(s, E.TokenSpent).slot) == ("might", 3)
    f = acting({"quint": "a1", "shark": "e1", "swimmer": "h8", "tiger-shark": "h7"}, "quint",
               statuses={"shark": ["hunted"]})
    f.apply(None, "farewell-and-adieu d1")
    assert (last(f, E.TokenSpent).token, last(f, E.TokenSpent).slot) == ("might", 4)
    j = acting({"shark": "c4", "quint": "c3", "swimmer": "h1", "tiger-shark": "h8"}, "shark", emerged=True)
    j.apply(None, "jaws quint")
    assert (last(j, E.TokenSpent).token, last(j, E.TokenSpent).slot) == ("might", 3)


def test_the_shark_keeps_its_card_side_through_a_knock_out_and_its_return():
    """House reading (HOUSE.md): the card flips only when the Shark emerges or submerges."""
    m = acting({"quint": "c3", "shark": "c4", "swimmer": "a1", "tiger-shark": "h8"}, "quint",
               emerged=True, dice="manual", mode="control")
    m.apply(None, "challenge shark [star crit circle circle star star]")  # 4-2: knocked out
    assert m.state.chars["shark"].out and m.state.chars["shark"].emerged is True
    finish_round(m)
    seat = m.to_act().seats[0]
    m.apply(seat, next(t for t in m.legal_texts(seat) if t.startswith("place shark")))
    assert m.state.chars["shark"].square and m.state.chars["shark"].emerged is True


# -- whether placing counts as moving (house reading FJ-HOUSE-PLACING) -----------------------

def test_placing_is_not_moving_by_default_blood_in_the_water_keeps_emerged_and_barrel():
    """Glossary: "Placing something is different from moving something and ignores the rules
    for moving." So Emerged ("If the Shark does an action that moves it, the Shark submerges")
    and Barrel ("Discard this card after this character ... does a move") do not apply."""
    opt = next(o for o in GAME.options if o.name == "placing-is-moving")
    assert opt.default is False and opt.house and opt.rule == "FJ-HOUSE-PLACING"
    assert GAME.rules.get("FJ-HOUSE-PLACING").source == "house"
    m = acting({"shark": "d4", "quint": "d1", "swimmer": "a8", "tiger-shark": "h8"}, "shark", emerged=True,
               statuses={"shark": ["barrel-light"]})
    assert m.state.options["placing-is-moving"] is False
    m.apply(None, "blood-in-the-water d2")
    s = m.state.chars["shark"]
    assert s.square == "d2" and s.emerged is True and "barrel-light" in s.statuses


def test_placing_is_moving_reading_submerges_the_shark_and_discards_its_barrel():
    m = acting({"shark": "d4", "quint": "d1", "swimmer": "a8", "tiger-shark": "h8"}, "shark", emerged=True,
               statuses={"shark": ["barrel-light"]}, options={"placing-is-moving": True})
    m.apply(None, "blood-in-the-water d2")
    s = m.state.chars["shark"]
    assert s.square == "d2" and s.emerged is False and "barrel-light" not in s.statuses
    # "The Shark may emerge.": after the placement it may come up again
    m2 = acting({"shark": "d4", "quint": "d1", "swimmer": "a8", "tiger-shark": "h8"}, "shark", emerged=True,
                options={"placing-is-moving": True})
    assert "blood-in-the-water d2 emerge" in m2.legal_texts("bob")
    m2.apply(None, "blood-in-the-water d2 emerge")
    assert m2.state.chars["shark"].emerged is True


def test_a_target_placed_by_jaws_does_not_do_a_move_under_either_reading():
    for reading in (False, True):
        m = acting({"shark": "c4", "quint": "c5", "swimmer": "a1", "tiger-shark": "h8"}, "shark", emerged=True,
                   statuses={"quint": ["barrel-dark"]}, options={"placing-is-moving": reading}, dice="manual")
        m.apply(None, "jaws quint [circle circle circle circle circle star star]")  # lost: nothing happens
        m.apply(None, "put b4")
        q = m.state.chars["quint"]
        assert q.square == "b4" and "barrel-dark" in q.statuses
