"""Disputed positions, as a user settles them: transcripts through `check`, and `try`.

Each transcript uses physical dice (`dice: manual`) so the Seek results are written in it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core import transcript
from events import my_little_scythe as ev

HEADER = """# arbiter transcript 1
game: my-little-scythe
dice: manual
seed: 1
players: ann, bob
---
"""

# ann seeks five gems onto T1 (next to the castle), walks a Seeker there, and carries them in.
FIVE_GEMS_SETUP = (Path(__file__).parent / "golden" / "five-gems.body").read_text()
FIVE_GEMS = HEADER + FIVE_GEMS_SETUP + "ann: move\nann: carry 1 castle 5 gems\nann: rejuvenate pies\nann: stay 2\n"

TIED_FIGHT = HEADER + """ann: move
ann: go 1 T3 P1
ann: stay 2
bob: move
bob: go 1 F3 P4
bob: stay 2
ann: seek-apples [mountains mountains mountains mountains]
ann: place M1
ann: place M1
ann: place M2
ann: place M3
bob: seek-apples [swamp swamp swamp swamp]
bob: place S1
bob: place S1
bob: place S2
bob: place S3
ann: move
ann: go 1 P4           # onto bob's Seeker: a pie fight once moving is done
ann: stay 2            # the fight begins; ann loses 1 friendship
ann: dial 2
bob: dial 2            # a tie goes to the attacker
bob: rejuvenate pies
"""

SAME_ACTION = HEADER + """ann: seek-apples [mountains mountains mountains mountains]
ann: place M1
ann: place M1
ann: place M2
ann: place M3
bob: move
bob: stay 1
bob: stay 2
ann: seek-apples [swamp swamp swamp swamp]
"""


def test_five_gem_delivery_delivers_four_and_the_fifth_stays_on_its_space():
    result = transcript.check(FIVE_GEMS)
    assert result.ok, f"line {result.line}: {result.error}"
    m = result.match
    made = [e for *_, e in m.items if isinstance(e, ev.DeliveryMade)][0]
    assert made.count == 4 and made.extras_left == {"T1": {"gem": 1}}
    assert m.state.board["T1"]["gem"] == 1
    assert "gem-delivery" in m.state.players["ann"].trophies


def test_five_gem_delivery_under_the_exactly_four_option_is_refused():
    text = FIVE_GEMS.replace("players: ann, bob\n", "players: ann, bob\noption: delivery_extras=refuse\n")
    result = transcript.check(text)
    assert not result.ok and result.error.rule_id == "MS-DELIVERY-EXACT"
    assert result.text == "ann: carry 1 castle 5 gems"


def test_tied_pie_fight_goes_to_the_attacker():
    result = transcript.check(TIED_FIGHT)
    assert result.ok, f"line {result.line}: {result.error}"
    m = result.match
    fight = [e for *_, e in m.items if isinstance(e, ev.PieFightRevealed)][0]
    assert fight.attacker_score == fight.defender_score == 2 and fight.winner == "ann"
    assert m.state.players["bob"].seekers == ("base", "base")
    assert m.state.players["ann"].friendship == 2  # attacking cost 1
    assert "pie-fight" not in m.state.players["ann"].trophies  # friendship 2: no trophy


def test_choosing_the_action_used_last_turn_is_reported_with_its_rule():
    result = transcript.check(SAME_ACTION)
    assert not result.ok and result.error.rule_id == "MS-SAME-ACTION"
    assert result.line == SAME_ACTION.splitlines().index("ann: seek-apples [swamp swamp swamp swamp]") + 1


def run(tmp_path, *args):
    env = {**os.environ, "ARBITER_DB": str(tmp_path / "ms.duckdb"), "ARBITER_HOME": str(tmp_path / "home"),
           "COLUMNS": "200", "ARBITER_LOCK_TIMEOUT": "5"}
    return subprocess.run([sys.executable, "-c", "from cli.app import main; main()", *args],
                          capture_output=True, text=True, env=env, cwd=str(tmp_path))


def test_cli_check_import_try_and_show(tmp_path):
    bad = tmp_path / "same.txt"
    bad.write_text(SAME_ACTION)
    out = run(tmp_path, "check", str(bad))
    assert out.returncode == 1 and "MS-SAME-ACTION" in out.stderr
    good = tmp_path / "fight.txt"
    good.write_text(TIED_FIGHT.split("ann: dial 2")[0])  # stop with the dials still to set
    assert run(tmp_path, "check", str(good)).returncode == 0
    imported = run(tmp_path, "import", str(good))
    assert imported.returncode == 0, imported.stderr
    gid = imported.stdout.strip().split()[-1]
    assert run(tmp_path, "do", gid, "--as", "ann", "dial", "3").returncode == 0
    shown = run(tmp_path, "show", gid, "--as", "bob")
    assert shown.returncode == 0 and "dials set: ann" in shown.stdout
    log = run(tmp_path, "log", gid, "--as", "bob", "--format", "jsonl")
    rows = [json.loads(line) for line in log.stdout.splitlines()]
    dials = [r for r in rows if r.get("type") == "DialSet"]
    assert dials and all(json.dumps(r).count('"pies": -1') == 1 for r in dials), dials
    tried = run(tmp_path, "try", gid, "--as", "bob", "dial", "9")
    assert tried.returncode == 1 and "MS-DIAL-RANGE" in tried.stderr
    tried = run(tmp_path, "try", gid, "--as", "bob", "dial", "3")
    assert tried.returncode == 0
