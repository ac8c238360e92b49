"""The monsters the rulebook names behave as its text says (Terrain Effects, Example, Ability Summary)."""

from __future__ import annotations

from arbiter.core.monster_derby import GAME
from arbiter.events.monster_derby import Attacked, ControlEnded, MonsterMoved

from .helpers import control, events_of, mon, scenario

CARDS = {m["id"]: m for m in GAME.default_content()["monsters"]}
ROCKS = [".RR......"] * 5  # the test board starts at column 3: rock on columns 4 and 5


def test_the_giant_rolls_6_dice_and_walks_rock_as_path():
    assert CARDS["giant"]["attack"] == 6 and CARDS["giant"]["natives"] == ["rock"]
    m = scenario([("giant", "3c", None), ("golem", "1a", None), ("hare", "1e", None)], rows=ROCKS)
    s = control(m, "giant", 2)
    m.apply(s, "move 4c 5c")  # two rock spaces for 2 points
    assert mon(m, "giant").space == "5c"
    # anybody attacking the Giant in the rocks rolls one fewer die
    m2 = scenario([("hare", "3c", None), ("giant", "4c", None)], rows=ROCKS)
    s2 = control(m2, "hare", 1)
    assert events_of(m2.apply(s2, "attack giant [1 blank]"), Attacked)[0].dice == 1


def test_the_giant_in_non_native_terrain_rolls_5():
    rows = ["B........"] * 5  # 3c is brush
    m = scenario([("giant", "3c", None), ("golem", "4c", None)], rows=rows)
    s = control(m, "giant", 1)
    assert events_of(m.apply(s, "attack golem [0 0 0 0 0 blank]"), Attacked)[0].dice == 5


def test_the_cyclops_is_native_everywhere_with_8_hit_points():
    assert CARDS["cyclops"]["hp"] == 8 and CARDS["cyclops"]["natives"] == ["all"]
    rows = ["RBWD....."] * 5  # columns 3-6
    m = scenario([("cyclops", "2c", None), ("golem", "1a", None)], rows=rows)
    s = control(m, "cyclops", 4)
    m.apply(s, "move 3c 4c 5c 6c")  # rock, brush, water, desert at 1 point each
    assert mon(m, "cyclops").space == "6c"


def test_the_griffin_and_the_gargoyle_fly_and_the_griffin_has_7_hit_points():
    assert CARDS["griffin"]["hp"] == 7
    assert CARDS["griffin"]["ability"] == CARDS["gargoyle"]["ability"] == "flies"
    m = scenario([("griffin", "3c", None), ("golem", "4c", None), ("giant", "5c", None)])
    s = control(m, "griffin", 3)
    events = m.apply(s, "fly 6c")  # over the Golem and the Giant
    assert events_of(events, MonsterMoved)[0].kind == "fly" and mon(m, "griffin").space == "6c"


def test_the_golems_wacky_defense_stuns():
    assert CARDS["golem"]["wacky_defense"] == "stun"
    m = scenario([("giant", "3c", None), ("golem", "4c", None)])
    s = control(m, "giant", 3)
    events = m.apply(s, "attack golem [0 0 0 0 0 0 shield]")
    assert "stunned" in events_of(events, ControlEnded)[0].reason


def test_the_hare_doubles_its_movement_die_and_the_siren_calls():
    assert CARDS["hare"]["ability"] == "double_move" and CARDS["siren"]["ability"] == "call"
    m = scenario([("siren", "3c", None), ("golem", "6c", None)])
    s = control(m, "siren", 1)
    assert "call golem 4c" in m.legal_texts(s)


def test_the_house_monsters_are_varied():
    abilities = [c["ability"] for c in CARDS.values()]
    assert len(set(abilities)) >= 14
    assert max(abilities.count(a) for a in set(abilities)) <= 4
    assert len({(c["ability"], c["wacky_attack"], c["wacky_defense"]) for c in CARDS.values()}) == len(CARDS)
