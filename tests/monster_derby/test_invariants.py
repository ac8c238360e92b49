"""Whole bot games checked, event by event, against what the rulebook implies everywhere:
no two monsters on one space, never backwards, hit points within the track, a monster
controlled at most once a round, the round ends only when every living monster was
controlled and the Starting Player Marker claimed, and the game ends the moment the third
monster finishes (or, Megacarnage, when no monster is left to finish)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arbiter.core.bots import autoplay
from arbiter.core.match import Match
from arbiter.core.monster_derby import GAME
from arbiter.core.monster_derby.board import FINISH, ahead, along, parse_space
from arbiter.events.monster_derby import (
    Attacked, ControlEnded, GameEnded, MarkerTaken, MonsterControlled, MonsterDied, MonsterFinished,
    MonsterMoved, Recovered, RoundBegan, RoundEnded, TurnBegan,
)

RED_ZONE = 4  # "If a monster's hit points go to 4 or less" (Damage)


class Checker:
    """Folds each command's events one at a time and checks every state met on the way."""

    def __init__(self, m: Match) -> None:
        self.m = m
        self.proj = GAME.projection
        self.attacked_this_control = False
        self.forced = False
        self.checked = 0

    def apply(self, seat: str, text: str) -> None:
        before = self.m.state
        events = self.m.apply(seat, text)
        state = before
        for ev in events:
            self.event(state, ev)
            state = self.proj.evolve(state, ev)
            self.state(state)
            self.checked += 1
        assert self.m.state == state
        for m in state.monsters.values():  # a Damaged to 0 is followed by its MonsterDied
            assert (m.status == "dead") == (m.hp == 0), (m.id, m.status, m.hp)

    def state(self, st: Any) -> None:
        spaces = [m.space for m in st.monsters.values() if m.status == "racing"]
        assert len(spaces) == len(set(spaces)), f"two monsters on one space: {sorted(spaces)}"
        for m in st.monsters.values():
            assert 0 <= m.hp <= m.max_hp, (m.id, m.hp, m.max_hp)
        assert len(st.finishes) == len(set(st.finishes)) <= 3
        if st.phase == "over":
            assert st.control is None or len(st.finishes) == 3

    def event(self, st: Any, ev: Any) -> None:
        if not type(ev).__module__.endswith("monster_derby"):
            return  # the kernel's: dice rolled, the seed revealed at the end
        assert st.phase != "over", f"{type(ev).__name__} after the game ended"
        if isinstance(ev, MonsterMoved) and ev.kind in ("walk", "fly"):
            frm = parse_space(ev.frm)
            assert frm is not None
            if ev.to == FINISH:
                pass
            elif ev.kind == "walk":
                to = parse_space(ev.to)
                assert to in ahead(frm), f"walked {ev.frm} -> {ev.to}: not one of the three spaces ahead"
            else:
                to = parse_space(ev.to)
                assert to is not None and along(to) > along(frm), f"flew backwards {ev.frm} -> {ev.to}"
            assert st.control is not None and st.control.monster == ev.monster
            assert ev.cost <= st.control.points, "spent more movement points than it had"
        if isinstance(ev, MonsterControlled):
            m = st.monsters[ev.monster]
            assert m.status == "racing" and not m.turned, f"{ev.monster} controlled twice in round {st.round}"
            assert st.die > 0, "controlled before rolling the movement die"
            self.attacked_this_control = False
            # "If the monster's hit points are below 5, the monster must take the Recover
            # action this round instead of attacking" (Control a Monster)
            hp = m.hp - (1 if "poison" in m.effects else 0)
            self.forced = 0 < hp <= RED_ZONE  # at 0 the poison kills it before anything else
            assert ev.can_attack == (not self.forced and hp > 0)
            if self.forced:
                assert ev.can_move == (min(m.max_hp, hp + 1) > RED_ZONE)
        if isinstance(ev, Attacked) and ev.kind == "attack":
            assert not self.forced, f"{ev.attacker} attacked in the red zone"
            assert st.control is not None and st.control.monster == ev.attacker
            self.attacked_this_control = True
        if isinstance(ev, Recovered) and not ev.forced:
            assert not self.attacked_this_control, "recovered and attacked in one turn"
            m = st.monsters[ev.monster]
            assert ev.hp == min(m.max_hp, m.hp + 1)
        if isinstance(ev, MarkerTaken):
            assert st.marker == "available", "the marker was taken twice in one round"
            assert st.die > 0, "took the marker before rolling the movement die"
        if isinstance(ev, RoundEnded):
            left = [m.id for m in st.racing() if not m.turned]
            assert not left and st.marker == "claimed", f"round ended with {left} uncontrolled, marker {st.marker}"
        if isinstance(ev, RoundBegan):
            assert ev.starter == st.marker_taker, "the marker's taker starts the next round"
        if isinstance(ev, TurnBegan):
            assert st.control is None
        if isinstance(ev, MonsterFinished):
            assert ev.place == len(st.finishes) + 1
        if isinstance(ev, GameEnded):
            if len(st.finishes) >= 3:
                assert ev.reason == "the third monster crossed the finish line"
            else:
                assert ev.reason.startswith("Megacarnage") and not st.racing()
        if isinstance(ev, ControlEnded):
            assert st.control is not None and st.control.monster == ev.monster


def check_game_ending(m: Match) -> None:
    """The game ends *immediately* when the third monster crosses: its GameEnded follows
    that MonsterFinished with nothing of the game in between."""
    evs = [ev for _s, _c, ev in m.items if type(ev).__module__.endswith("monster_derby")]
    ends = [i for i, ev in enumerate(evs) if isinstance(ev, GameEnded)]
    assert len(ends) == 1 and ends[0] == len(evs) - 1
    third = [i for i, ev in enumerate(evs) if isinstance(ev, MonsterFinished) and ev.place == 3]
    if third:
        assert ends[0] == third[0] + 1, [type(e).__name__ for e in evs[third[0]:]]


GAMES = [(bot, seats, seed) for bot in ("random", "agenda") for seats, seed in ((2, 1), (3, 2), (4, 3), (8, 4))]


@pytest.mark.parametrize("bot, seats, seed", GAMES)
def test_bot_games_keep_the_rulebooks_invariants(bot, seats, seed):
    names = [f"p{i + 1}" for i in range(seats)]
    m = Match.new(GAME, seed=seed, seats=names)
    chk = Checker(m)
    bots = {s: GAME.bots[bot] for s in names} if bot != "random" else {}
    autoplay(m, bots, random.Random(seed), max_steps=6000, apply=chk.apply)
    assert m.outcome() is not None, (bot, seats, seed)
    check_game_ending(m)
    assert chk.checked > 100


def test_every_monster_turn_in_a_game_is_a_full_round_of_controls():
    """Each round, every monster racing at its start is controlled exactly once (unless it
    died or finished first) and the marker is taken exactly once."""
    m = Match.new(GAME, seed=5, seats=["ann", "bob", "cat"])
    autoplay(m, {s: GAME.bots["agenda"] for s in m.seats}, random.Random(5), max_steps=6000)
    controlled: list[str] = []
    markers = 0
    gone: set[str] = set()
    rounds = 0
    for _s, _c, ev in m.items:
        if isinstance(ev, MonsterControlled):
            controlled.append(ev.monster)
        elif isinstance(ev, MarkerTaken):
            markers += 1
        elif isinstance(ev, (MonsterDied, MonsterFinished)):
            gone.add(ev.monster)
        elif isinstance(ev, RoundEnded):
            rounds += 1
            assert markers == 1
            assert len(controlled) == len(set(controlled))
            racing = {mid for mid, mon in m.state.monsters.items()} - gone
            assert racing <= set(controlled), racing - set(controlled)
            controlled, markers = [], 0
    assert rounds >= 3


def test_end_is_offered_only_once_every_movement_point_is_spent():
    """"A monster must spend all of its movement points going forward" (Control a Monster):
    while a step forward can still be paid for, the menu offers no `end` (at 0 points a
    Brushwalker's free step into brush is offered, not owed: MD-HOUSE-FREE-STEP)."""
    from arbiter.core.bots import bot_step

    ends = 0
    for seed in range(3):
        m = Match.new(GAME, seed=seed, seats=["ann", "bob", "cy"])
        rng = random.Random(seed)
        while m.outcome() is None:
            s = m.to_act().seats[0]
            legal = m.legal_texts(s)
            if "end" in legal:
                ends += 1
                steps = [t for t in legal if t.startswith(("move", "fly"))]
                c = m.state.control
                assert not steps or (c.points == 0 and m.state.monsters[c.monster].ability == "brushwalker"), steps
            bot_step(m, {}, rng)
    assert ends > 20
