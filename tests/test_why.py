"""`arbiter why` lists the rules a command engaged: the ones its decision rests on, not every
check that ran on the way and found nothing to do (a stage of the game long over, a choice
the command never named)."""

from __future__ import annotations

import collections
import json

import pytest
from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.core import registry
from arbiter.core.engine import Engine
from arbiter.core.explain import explain
from arbiter.projections.kernel import REFEREE
from arbiter.testing.harness import simulate

GAMES = ("monster-derby", "scott-pilgrim", "my-little-scythe", "villainous", "funkoverse-jaws")
#: the rules that say whose decision, or which decision, is open now: every command engages
#: them (the kernel's turn, Funkoverse's open decision, Scott Pilgrim's team turn)
TURN_RULES = {"ARB-TURN", "FJ-PHASE", "SP-TEAM-TURN"}


@pytest.fixture
def cli(tmp_path, monkeypatch):
    db = str(tmp_path / "why.duckdb")
    monkeypatch.setenv("ARBITER_DB", db)
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path / "home"))
    runner = CliRunner()

    def run(*args: str):
        out = runner.invoke(app, list(args))
        assert out.exit_code == 0, out.output
        return out.output
    run.db = db  # type: ignore[attr-defined]
    return run


def rules_listed(cli, gid: str, seq: int) -> set[str]:
    rows = json.loads(cli("why", gid, str(seq), "--format", "json"))
    return {r["detail"].split()[0] for r in rows if r["kind"] == "rule"}


def test_why_lists_the_agenda_rule_for_a_keep_and_not_for_a_roll(cli):
    gid = cli("new", "monster-derby", "--seed", "5", "-p", "ann,bob", "-o", "boards=1").split()[0]
    eng = Engine(cli.db)
    keeps = {}
    for seat in ("ann", "bob"):
        text = eng.load(gid).legal_texts(seat)[0]
        assert text.startswith("keep")
        cli("do", gid, "--as", seat, text)
        keeps[seat] = eng.load(gid).seq
    m = eng.load(gid)
    roller = m.to_act().seats[0]
    assert "roll" in m.legal_texts(roller)
    cli("do", gid, "--as", roller, "roll")
    rolled = eng.load(gid).seq
    assert "MD-AGENDA-KEEP" in rules_listed(cli, gid, keeps["ann"])
    assert "MD-AGENDA-KEEP" in rules_listed(cli, gid, keeps["bob"])
    on_roll = rules_listed(cli, gid, rolled)
    assert "MD-ROLL-FIRST" in on_roll and "MD-AGENDA-KEEP" not in on_roll
    # the same check still refuses, cited, while the agendas are being chosen
    fresh = cli("new", "monster-derby", "--seed", "5", "-p", "ann,bob", "-o", "boards=1").split()[0]
    refused = CliRunner().invoke(app, ["do", fresh, "--as", "ann", "roll"])
    assert refused.exit_code == 1 and "MD-AGENDA-KEEP" in refused.output


@pytest.mark.parametrize("kind", GAMES)
def test_no_check_that_every_command_passes_is_listed(kind):
    """The signature of a check that runs on each command whatever it is: `why` lists it
    for (nearly) every kind of command a game was played with. Only the turn rules may be."""
    game = registry.get(kind)
    listed: dict[str, set[str]] = collections.defaultdict(set)
    verbs: set[str] = set()
    for seed in (1, 2):
        m = simulate(game, seed, seed, smart=seed == 1, max_steps=150)
        firsts: dict[str, int] = {}
        for seq, cid, _ev in m.items:
            firsts.setdefault(cid, seq)
        for seq in firsts.values():
            why = explain(m, seq, REFEREE)
            if why.setup:
                continue
            verb = why.words.split()[0]
            verbs.add(verb)
            for rule in why.rules:
                listed[rule.id].add(verb)
    assert len(verbs) >= 5, verbs
    everywhere = {r for r, vs in listed.items() if len(vs) >= 0.8 * len(verbs)}
    assert everywhere - TURN_RULES == set(), {r: sorted(verbs - listed[r]) for r in everywhere}

