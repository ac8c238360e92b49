"""Secret seeds and blind dry runs, through the CLI (as a subprocess) and the Engine.

A seat's log never carries the seed while the game is on; the end reveals seed and salt,
which match the commitment made at creation; `verify --as SEAT` then recomputes every draw
and catches a forged reveal or roll; `--entropy` changes the dice and is checked; `try`
never tells a draw the seat has not seen (the four leaks of issue 14)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import msgspec
import pytest

from arbiter.core import registry
from arbiter.core.bots import bot_step
from arbiter.core.engine import Engine
from arbiter.core.match import Match, tokens
from arbiter.events.base import DiceRolled, SeedRevealed, Shuffled

HERE = os.path.dirname(os.path.abspath(__file__))


def arbiter(db: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ARBITER_PLUGINS": "toygame:GAME", "PYTHONPATH": HERE, "COLUMNS": "200",
           "ARBITER_HOME": str(db.parent / "home")}
    return subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()",
                           "--db", str(db), *args], capture_output=True, text=True, timeout=300, env=env)


def jsonl(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def played_to_end(db: Path, *extra: str) -> str:
    gid = arbiter(db, "new", "monster-derby", "-p", "ann,bob", *extra).stdout.strip()
    assert gid
    out = arbiter(db, "play", gid, "--bot", "all")
    assert out.returncode == 0 and "game over" in out.stdout, out.stderr
    return gid


def test_a_seats_log_has_no_seed_while_on_and_seed_and_salt_after(tmp_path):
    db = tmp_path / "s.duckdb"
    gid = arbiter(db, "new", "monster-derby", "-p", "ann,bob").stdout.strip()
    created = jsonl(arbiter(db, "log", gid, "--as", "bob", "--format", "jsonl").stdout)[0]["event"]
    assert created["seed"] is None and created["sealed"] is None
    commitment = created["commitment"]["seed"]
    assert len(commitment) == 64 and created["commitment"]["practice"] is False
    with Engine(str(db)).open(read_only=True) as store:
        real = store.game(gid).seed
    for args in (["log", gid, "--as", "bob", "--format", "jsonl"], ["show", gid, "--as", "ann", "--format", "json"],
                 ["log", gid, "--as", "ann"], ["why", gid, "1", "--as", "bob", "--format", "jsonl"]):
        out = arbiter(db, *args)
        assert out.returncode == 0, out.stderr
        assert str(real) not in out.stdout + out.stderr and '"salt"' not in out.stdout, args
    assert str(real) not in arbiter(db, "new", "duel", "-p", "ann,bob").stderr  # nor on the host's screen

    assert arbiter(db, "play", gid, "--bot", "all").returncode == 0
    log = jsonl(arbiter(db, "log", gid, "--as", "bob", "--format", "jsonl").stdout)
    reveal = log[-1]
    assert reveal["type"] == "SeedRevealed"
    seed, salt = reveal["event"]["seed"], reveal["event"]["salt"]
    assert hashlib.sha256(f"arbiter-seed-v1/{seed}/{salt}".encode()).hexdigest() == commitment
    assert log[0]["event"]["seed"] == reveal["event"]["dice_seed"] == real == seed  # no entropy: the same
    assert arbiter(db, "undo", gid).returncode == 1  # the dice are public now: no going back


def test_verify_as_a_seat_before_and_after_the_end(tmp_path):
    db = tmp_path / "s.duckdb"
    gid = arbiter(db, "new", "monster-derby", "-p", "ann,bob").stdout.strip()
    early = arbiter(db, "verify", gid, "--as", "bob", "--format", "jsonl")
    assert early.returncode == 0
    row = jsonl(early.stdout)[0]
    assert row["verdict"] == "ok" and row["draws"] == 0 and "secret until the game ends" in row["checked"]
    arbiter(db, "play", gid, "--bot", "all")
    late = jsonl(arbiter(db, "verify", gid, "--as", "bob", "--format", "jsonl").stdout)[0]
    assert late["verdict"] == "ok" and late["draws"] > 10 and "every roll and shuffle" in late["checked"]
    assert arbiter(db, "verify", gid, "--as", "carol").returncode == 2
    assert arbiter(db, "verify", "--all", "--as", "bob").returncode == 2


def forged(tmp_path: Path, change: Callable[[Match], None]) -> tuple[Path, str]:
    """A finished game as a dishonest referee might store it: one event changed before the
    chain was computed, so the chain itself is sound."""
    db = tmp_path / "f.duckdb"
    game = registry.get("monster-derby")
    match = Match.new(game, seats=["ann", "bob"])
    rng = random.Random(3)
    while match.outcome() is None:
        bot_step(match, {}, rng)
    change(match)
    eng = Engine(str(db))
    with eng.open() as store:
        gid = eng.store_match(store, match)
    return db, gid


def test_verify_as_a_seat_catches_a_wrong_revealed_seed(tmp_path):
    def other_seed(match: Match) -> None:
        seq, cid, ev = match.items[-1]
        assert isinstance(ev, SeedRevealed)
        match.items[-1] = (seq, cid, msgspec.structs.replace(ev, seed=ev.seed + 1))

    db, gid = forged(tmp_path, other_seed)
    out = arbiter(db, "verify", gid, "--as", "ann")
    assert out.returncode == 1 and "do not match the commitment" in out.stdout


def test_verify_as_a_seat_recomputes_the_dice(tmp_path):
    def loaded_die(match: Match) -> None:
        i, (seq, cid, ev) = next((i, it) for i, it in enumerate(match.items)
                                 if isinstance(it[2], DiceRolled) and it[2].dice == ("move",))
        face = next(f for f in match.game.dice(match.created)["move"] if f != ev.faces[0])
        match.items[i] = (seq, cid, msgspec.structs.replace(ev, faces=(face,)))

    db, gid = forged(tmp_path, loaded_die)
    out = arbiter(db, "verify", gid, "--as", "bob", "--format", "jsonl")
    assert out.returncode == 1
    assert "are not what the revealed seed gives" in jsonl(out.stdout)[0]["verdict"]


def test_entropy_changes_the_dice_and_is_checked(tmp_path):
    game = registry.get("monster-derby")
    plain = Match.new(game, seed=77, seats=["ann", "bob"])
    mixed = Match.new(game, seed=77, seats=["ann", "bob"], entropy={"bob": "my lucky words"})
    assert plain.created.seed == 77 and mixed.created.seed != 77
    def draws(m: Match) -> list[Any]:
        return [getattr(e, "order", None) or e.faces for *_, e in m.items if isinstance(e, (DiceRolled, Shuffled))]

    assert draws(plain) != draws(mixed)

    db = tmp_path / "s.duckdb"
    gid = played_to_end(db, "--entropy", "bob=my lucky words", "--entropy", "ann=42")
    log = jsonl(arbiter(db, "log", gid, "--as", "ann", "--format", "jsonl").stdout)
    bob_commit = hashlib.sha256(b"arbiter-entropy-v1/bob/my lucky words").hexdigest()
    assert log[0]["event"]["commitment"]["entropy"]["bob"] == bob_commit  # bob can check this at once
    reveal = log[-1]["event"]
    assert reveal["entropy"] == {"ann": "42", "bob": "my lucky words"}
    mix = f"arbiter-mix-v1/{reveal['seed']}" + "".join(
        f"/{s}={hashlib.sha256(t.encode()).hexdigest()}" for s, t in sorted(reveal["entropy"].items()))
    assert int.from_bytes(hashlib.sha256(mix.encode()).digest()[:8], "big") >> 1 == reveal["dice_seed"]
    assert arbiter(db, "verify", gid, "--as", "ann").returncode == 0
    assert arbiter(db, "new", "duel", "--entropy", "zed=x").returncode == 2
    assert arbiter(db, "new", "duel", "--entropy", "nothing").returncode == 2


def test_practice_games_are_listed_as_such_and_keep_their_seed(tmp_path):
    db = tmp_path / "s.duckdb"
    practice = arbiter(db, "new", "duel", "--seed", "5", "-p", "ann,bob").stdout.strip()
    secret = arbiter(db, "new", "duel", "-p", "ann,bob").stdout.strip()
    listing = {r["game_id"]: r["seed"] for r in jsonl(arbiter(db, "games", "--format", "jsonl").stdout)}
    assert listing == {practice: "practice", secret: "secret"}
    with Engine(str(db)).open(read_only=True) as store:
        assert store.game(practice).seed == 5
    game = registry.get("duel")
    again = Match.new(game, seed=5, seats=["ann", "bob"])
    assert again.encode(again.created) == Engine(str(db)).load(practice).encode(again.created)
    assert arbiter(db, "verify", practice).returncode == 0 and arbiter(db, "verify", secret).returncode == 0


# -- blind dry runs: the four leaks of issue 14 --------------------------------------------------


def position(kind: str, want: Callable[[Match, str, str], bool], seats: int = 2,
             tries: int = 40) -> tuple[Match, str, str]:
    """A position reached by random legal play where ``want(match, seat, command)`` holds."""
    game = registry.get(kind)
    for seed in range(tries):
        match = Match.new(game, seed=1000 + seed, seats=[f"p{i}" for i in range(1, seats + 1)],
                          options=dict(game.random_play_options))
        rng = random.Random(seed)
        for _ in range(400):
            if match.outcome() is not None:
                break
            for seat in match.to_act().seats:
                for text in match.legal_texts(seat):
                    if want(match, seat, text):
                        return match, seat, text
            bot_step(match, {}, rng)
    raise AssertionError(f"no position found in {kind}")


def tried_then_done(tmp_path: Path, match: Match, seat: str, text: str) -> tuple[str, str, set[str]]:
    """(try's output, do's output, the hidden tokens the real command showed the seat)."""
    db = tmp_path / "s.duckdb"
    eng = Engine(str(db))
    with eng.open() as store:
        gid = eng.store_match(store, match)
    hidden = match.game.projection.hidden_from(match.state, seat)
    tried = arbiter(db, "try", gid, "--as", seat, *text.split())
    assert tried.returncode == 0, tried.stderr
    done = arbiter(db, "do", gid, "--as", seat, *text.split())
    assert done.returncode == 0, done.stderr
    after = Engine(str(db)).load(gid)
    first = match.seq + 1
    shown = [ev for s, _a, ev in after.log(seat) if s >= first]
    revealed = {t for ev in shown for t in tokens(msgspec.to_builtins(ev))} & hidden
    return tried.stdout, done.stdout, revealed


def assert_blind(tmp_path: Path, kind: str, want: Callable[[Match, str, str], bool]) -> None:
    """`try` at a position where the real command shows the seat hidden cards names none."""
    match, seat, text = position(kind, want)
    out, _done, revealed = tried_then_done(tmp_path, match, seat, text)
    assert revealed, f"the real {text!r} shows {seat} cards it had not seen"
    assert not any(card in out for card in revealed), out
    assert "depends on" in out


def test_try_fate_does_not_name_the_fate_cards(tmp_path):
    assert_blind(tmp_path, "villainous", lambda m, s, t: t.startswith("fate "))


def test_try_end_does_not_name_the_card_drawn(tmp_path):
    assert_blind(tmp_path, "villainous", lambda m, s, t: t == "end" and len(m.state.hand[s]) < 4
                 and len(m.state.deck.get(s) or []) > 0)


def test_try_scott_pilgrim_does_not_name_the_item_drawn(tmp_path):
    def draws_item(m: Match, s: str, t: str) -> bool:
        if " move " not in f" {t} " or " pay " not in t or not m.state.deck:
            return False
        _s, _c, events = m.decide(s, t)
        return any(set(m.state.deck) & set(tokens(msgspec.to_builtins(e))) for e in events)

    assert_blind(tmp_path, "scott-pilgrim", draws_item)


def test_try_monster_derby_attack_tells_no_hits_or_damage(tmp_path):
    match, seat, text = position("monster-derby", lambda m, s, t: t.startswith("attack "))
    out, done, _revealed = tried_then_done(tmp_path, match, seat, text)
    assert "hits" in done and "damage" in done
    assert "hits" not in out and "damage" not in out and "rolled" not in out, out
    assert "depends on" in out and "attack dice" in out
