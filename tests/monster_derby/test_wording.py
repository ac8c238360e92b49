"""What a player reads names no internal identifiers (issue 9): a played race's `log` and
`show` carry no snake_case words (``counter_strike``, ``minus_one``) and no Python dict or
list reprs (a dict of scores); option settings (``tie_break=card``) are what a user types."""

from __future__ import annotations

import re

from arbiter.events.monster_derby import (
    AbilityCopied, Attacked, ControlEnded, EffectGained, GameEnded, MonsterControlled, MonsterFinished, MonsterMoved,
    Recovered,
)
from arbiter.projections.monster_derby import describe

from .test_cli import run

SNAKE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b(?!=)")
REPR = re.compile(r"[{\[]'|'[}\]]|': |\(\)|\bdict\(")


def player_text_problems(text: str) -> list[str]:
    """The lines of ``text`` with an identifier or a repr, the option list of the creation
    line aside (``name=value`` is how an option is typed)."""
    bad = []
    for line in text.splitlines():
        words = re.sub(r"\b[a-z0-9_]+=\S+", "", line)
        if SNAKE.search(words) or REPR.search(words):
            bad.append(line)
    return bad


def test_attacks_effects_and_the_end_read_as_the_rulebooks_words():
    line = describe(Attacked(attacker="golem", defender="cyclops", dice=3, hits=2, wacky="both",
                             wacky_attack="stun", wacky_defense="counter_strike", damage=2))
    assert line == ("the golem attacks the cyclops: 3 dice, 2 hits, the wacky die shows both symbols"
                    " (wacky attack Stun, wacky defense Counter-Strike), 2 damage")
    assert "minus_one" not in describe(Attacked(attacker="a", defender="b", dice=1, hits=1, wacky="shield",
                                                wacky_attack="", wacky_defense="minus_one", damage=0))
    assert describe(EffectGained(monster="hare", effect="attack_again", until_round=2)) == "the hare gains Attack Again"
    ended = describe(GameEnded(reason="the third monster crossed the finish line", finishes=("a", "b", "c"),
                               agendas={}, scores={"ann": 16, "bob": 5}, winners=("ann",)))
    assert ended.endswith("ann wins; scores: ann 16, bob 5") and "{" not in ended


def test_a_roll_of_1_gives_1_movement_point_not_points():
    """Control a Monster: "it gets as many movement points as the result on the movement die";
    a 1 on the die reads as one point in the log."""
    assert describe(MonsterControlled(seat="bob", monster="giant", points=1, can_move=True, can_attack=True)) \
        == "bob controls the giant: 1 movement point"
    assert describe(MonsterControlled(seat="bob", monster="giant", points=3, can_move=True, can_attack=True)) \
        == "bob controls the giant: 3 movement points"
    assert describe(AbilityCopied(monster="doppelganger", source="hare", ability="double_move", points=1)) \
        .endswith("(2x move): +1 movement point")


def test_places_turns_calls_and_curses_read_plainly():
    """Game End's "first place monster" is said as a place ("in 1st place"); End Monster
    Turn's reason follows in brackets, not after a second colon; a Call "place[s]" a monster
    and a curse moves it back without spending points, so neither line quotes a cost."""
    assert describe(MonsterFinished(monster="yeti", place=1)) == "the yeti crosses the finish line in 1st place"
    assert describe(MonsterFinished(monster="hare", place=3)).endswith("in 3rd place")
    assert describe(ControlEnded(monster="banshee", reason="stunned: it loses the rest of its turn")) \
        == "the banshee is turned (stunned: it loses the rest of its turn)"
    assert describe(ControlEnded(monster="giant")) == "the giant is turned"
    assert describe(MonsterMoved(monster="centaur", frm="5a", to="6b", cost=0, kind="call")) \
        == "the centaur is called 5a -> 6b"
    assert describe(MonsterMoved(monster="golem", frm="6c", to="4e", cost=0, kind="curse")) \
        == "the golem is cursed back 6c -> 4e"
    assert describe(MonsterMoved(monster="golem", frm="6c", to="4e", cost=3, kind="curse")).endswith("(cost 3)")
    assert describe(MonsterMoved(monster="giant", frm="3c", to="4c", cost=1)) == "the giant walks 3c -> 4c (cost 1)"


def test_a_counter_strikes_shield_says_it_is_not_answered():
    """MD-HOUSE-COUNTER: a counter-strike is never counter-struck, so the line that shows the
    defender's Counter-Strike on the wacky die says it does not happen."""
    line = describe(Attacked(attacker="cyclops", defender="hydra", dice=4, hits=1, wacky="shield",
                             wacky_attack="", wacky_defense="counter_strike", damage=1, kind="counter"))
    assert "(wacky defense Counter-Strike - no counter to a counter-strike)" in line
    first = describe(Attacked(attacker="hydra", defender="cyclops", dice=3, hits=1, wacky="shield",
                              wacky_attack="", wacky_defense="counter_strike", damage=1))
    assert "(wacky defense Counter-Strike)" in first


def test_recovering_at_the_top_of_the_track_is_not_said_to_gain():
    """Recover: "Move the monster's hit point marker up one number on the track (unless it is
    at the top already)"; the Example's Gargoyle "won't recover a hit point because he is at
    maximum": the log names the action and the hit points, not a climb "to" them."""
    from .helpers import control, events_of, scenario

    m = scenario([("gargoyle", "3c", None), ("golem", "1a", None)])
    s = control(m, "gargoyle", 1)
    at_top = events_of(m.apply(s, "recover"), Recovered)[0]
    assert describe(at_top) == "the gargoyle takes the Recover action: 9 HP"
    assert "recovers to" not in describe(at_top)
    assert describe(Recovered(monster="spider", hp=5, forced=True)) == "the spider must take the Recover action: 5 HP"


def test_a_played_race_log_and_show_name_no_identifiers(tmp_path):
    sim = run(tmp_path, "simulate", "monster-derby", "--games", "1", "--bot", "agenda", "--seed", "5",
              "-o", "boards=2")
    assert sim.returncode == 0, sim.stderr
    gid = sim.stdout.split("last ")[1].split()[0]
    log = run(tmp_path, "log", gid)
    show = run(tmp_path, "show", gid)
    assert log.returncode == 0 and show.returncode == 0, log.stderr + show.stderr
    assert "Attacked" in log.stdout and "GameEnded" in log.stdout
    assert player_text_problems(log.stdout + show.stdout) == []
    # the scanner does catch what it looks for
    assert player_text_problems("wacky counter_strike; scores {'ann': 16}") != []
