"""Disputed positions reached from the start of a real game (transcripts with physical dice),
then asked the way `arbiter try` asks: would this be legal here, and under which rule?"""

import os

import pytest

from arbiter.core import transcript
from arbiter.core.errors import RuleViolation
from arbiter.events import funkoverse_jaws as E

HERE = os.path.join(os.path.dirname(__file__), "disputes")


def load(name, upto=None):
    with open(os.path.join(HERE, name)) as f:
        lines = f.read().splitlines()
    if upto is not None:
        body = lines.index("---") + 1
        kept = [ln for ln in lines[body:] if ln.split("#")[0].strip()][:upto]
        lines = lines[:body] + kept
    result = transcript.check("\n".join(lines) + "\n")
    assert result.ok, f"line {result.line}: {result.error}"
    return result.match


def would(m, seat, text):
    """Like `arbiter try`: decide without changing anything; the rule id if illegal."""
    try:
        m.decide(seat, text)
    except RuleViolation as exc:
        return exc.rule_id
    return "legal"


def test_the_shark_challenged_while_submerged_is_knocked_out_and_quint_wins():
    m = load("shark-submerged.arb")
    res = [e for *_x, e in m.items if isinstance(e, E.ChallengeResolved)][-1]
    assert res.target == "shark" and res.won and res.result == "knocked-out"
    assert res.challenger_successes == 2 and res.defender_successes == 0
    out = m.outcome()
    assert out is not None and out.winners == ("ann",)


def test_positions_along_the_way():
    from arbiter.core.funkoverse_jaws import rules as R
    from arbiter.core.funkoverse_jaws.board import parse_square

    m = load("shark-submerged.arb", upto=10)  # the Shark swam to g4, diagonal to Quint on f3
    s = m.state
    assert s.chars["shark"].square == "g4" and s.chars["shark"].emerged is False
    # the Orca's post on the corner of f3/g3/f4/g4 blocks the diagonal: not adjacent
    assert not R.adjacent(s, "dark", parse_square("g4"), parse_square("f3"))
    assert would(m, "bob", "challenge quint") == "FJ-SUBMERGED"
    assert would(m, "bob", "move f3") == "FJ-MOVE-6"
    assert would(m, "bob", "move f4") == "legal"
    m3 = load("shark-submerged.arb", upto=18)  # round 2, Quint chosen next to the submerged Shark
    assert m3.state.round == 2 and m3.state.first == "dark"
    assert would(m3, "ann", "challenge shark [star star circle circle circle circle]") == "legal"
    m3.apply("ann", "move g4")  # never diagonally across the post's corner: round by f4
    moved = [e for *_x, e in m3.items if isinstance(e, E.CharacterMoved)][-1]
    assert moved.path == ("f4", "g4") and "not diagonally f3 > g4: FJ-MOVE-3" in moved.route


def test_submerged_shark_may_not_challenge_back_until_it_emerges():
    m = load("shark-submerged.arb", upto=15)  # round 2 begins with bob, who holds the marker now
    m.apply("bob", "choose shark")
    assert would(m, "bob", "challenge quint") == "FJ-SUBMERGED"
    assert would(m, "bob", "jaws quint") == "FJ-SUBMERGED"
    m.apply("bob", "emerge")
    assert would(m, "bob", "challenge quint [star star circle circle]") == "legal"


# -- seeing past a knocked-down rival, ending on an ally, Can Crusher, Hunted -----------------

SIGHT = "sight-past-knocked-down.arb"
BEFORE_CRUSHER = 27  # commands up to Quint being chosen in round 2


def test_seeing_past_a_knocked_down_rival_and_through_an_ally():
    """Quint on a3 looks up column a: the Swimmer (ally, a4: rule 3), the knocked-down Tiger
    Shark (a5: not a standing rival, so rule 2 does not block) and the Shark on a6."""
    m = load(SIGHT, upto=BEFORE_CRUSHER)
    s = m.state
    assert (s.chars["quint"].square, s.chars["swimmer"].square) == ("a3", "a4")
    assert s.chars["tiger-shark"].square == "a5" and not s.chars["tiger-shark"].standing
    assert s.chars["shark"].square == "a6"
    assert would(m, "ann", "can-crusher shark [star star star circle circle circle]") == "legal"
    assert "can-crusher shark" in m.legal_texts("ann")


def test_a_standing_rival_in_the_same_place_blocks_the_view():
    """The same game, but the Swimmer's challenge fails: the Tiger Shark still stands on a5."""
    with open(os.path.join(HERE, SIGHT)) as f:
        text = f.read().replace("challenge tiger-shark [star star star star]", "challenge tiger-shark [star star circle circle]")
    lines = text.splitlines()
    body = lines.index("---") + 1
    kept = [ln for ln in lines[body:] if ln.split("#")[0].strip()][:BEFORE_CRUSHER]
    result = transcript.check("\n".join(lines[:body] + kept) + "\n")
    assert result.ok, result.error
    m = result.match
    assert m.state.chars["tiger-shark"].standing
    assert would(m, "ann", "can-crusher shark [star star star circle circle circle]") == "FJ-SIGHT"
    assert "can-crusher shark" not in m.legal_texts("ann")


def test_ending_a_move_on_an_ally_or_a_knocked_down_rival():
    m = load(SIGHT, upto=BEFORE_CRUSHER)
    assert would(m, "ann", "move a4") == "FJ-MOVE-6"       # the Swimmer's square
    assert would(m, "ann", "move a4 a5") == "FJ-MOVE-6"    # through the ally, onto the Tiger Shark
    assert would(m, "ann", "move a2") == "legal"


def test_can_crusher_extra_die_and_hunted_resolving_the_knock_out():
    m = load(SIGHT)
    decl = [e for *_x, e in m.items if isinstance(e, E.ChallengeDeclared)][-1]
    assert decl.kind == "can-crusher" and decl.dice == 3 and decl.extra == 1  # 2 + Hunted
    res = [e for *_x, e in m.items if isinstance(e, E.ChallengeResolved)][-1]
    assert res.result == "knocked-out" and len(res.challenger_faces) == 3
    shift = [e for *_x, e in m.items if isinstance(e, E.HuntedShift)][-1]
    assert shift.side == "light" and shift.tokens == ("cunning",)
    assert m.state.sides["light"].cooldown["token:cunning"] == 2  # spent on the 3, shifted to 2
    assert m.outcome().winners == ("ann",)


def run_cli(tmp_path, *args):
    import subprocess
    import sys

    env = {**os.environ, "ARBITER_DB": str(tmp_path / "fj.duckdb"), "ARBITER_HOME": str(tmp_path / "home"),
           "COLUMNS": "100", "ARBITER_LOCK_TIMEOUT": "5"}
    return subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()", *args],
                          capture_output=True, text=True, env=env, cwd=str(tmp_path))


def test_disputes_through_check_import_try_and_why(tmp_path):
    with open(os.path.join(HERE, SIGHT)) as f:
        lines = f.read().splitlines()
    body = lines.index("---") + 1
    kept = [ln for ln in lines[body:] if ln.split("#")[0].strip()]
    part = tmp_path / "part.arb"
    part.write_text("\n".join(lines[:body] + kept[:BEFORE_CRUSHER]) + "\n")
    out = run_cli(tmp_path, "check", os.path.join(HERE, SIGHT))
    assert out.returncode == 0 and "winner: ann" in out.stdout
    bad = tmp_path / "bad.arb"
    bad.write_text("\n".join(lines[:body] + kept[:BEFORE_CRUSHER]) + "\nann: move a4    # onto the Swimmer\n")
    out = run_cli(tmp_path, "check", str(bad))
    assert out.returncode == 1 and "FJ-MOVE-6" in out.stdout + out.stderr and "ann: move a4" in out.stdout + out.stderr
    out = run_cli(tmp_path, "import", str(part))
    assert out.returncode == 0, out.stderr
    gid = out.stdout.split()[-1]
    out = run_cli(tmp_path, "try", gid, "--as", "ann", "can-crusher", "shark", "[star", "star", "star", "circle", "circle", "circle]")
    assert out.returncode == 0 and "legal" in out.stdout and "FJ-SIGHT" in out.stdout
    out = run_cli(tmp_path, "try", gid, "--as", "ann", "move", "a4")
    assert out.returncode == 1 and "FJ-MOVE-6" in out.stdout + out.stderr
    out = run_cli(tmp_path, "try", gid, "--as", "ann", "can-crusher", "tiger-shark", "[star", "star", "star", "star", "star]")
    text = " ".join((out.stdout + out.stderr).split())
    assert out.returncode == 0 and "3 dice (2 + 1 for your status cards on Tiger Shark)" in text
    assert "Hunted resolves" in text and "light wins" in text
    with open(os.path.join(HERE, "shark-submerged.arb")) as f:
        body = f.read().rstrip("\n").splitlines()[:-1]  # stop before Quint's challenge
    (tmp_path / "ss.arb").write_text("\n".join(body) + "\n")
    out = run_cli(tmp_path, "import", str(tmp_path / "ss.arb"))
    sid = out.stdout.split()[-1]
    out = run_cli(tmp_path, "try", sid, "--as", "ann", "challenge", "shark", "[star", "crit", "circle", "circle", "star", "star]")
    text = " ".join(out.stdout.split())
    assert out.returncode == 0 and "FJ-UNDERWATER-PREDATOR" in text and "The Shark is knocked out by Quint" in text


def test_a_hot_seat_first_game_through_arbiter_play(tmp_path):
    """The dispute game typed at `arbiter play` by two people sharing the keyboard."""
    with open(os.path.join(HERE, SIGHT)) as f:
        lines = f.read().splitlines()
    body = [ln.split("#")[0].split(":", 1)[1].strip() for ln in lines[lines.index("---") + 1:] if ln.split("#")[0].strip()]
    import subprocess
    import sys

    env = {**os.environ, "ARBITER_DB": str(tmp_path / "fj.duckdb"), "ARBITER_HOME": str(tmp_path / "home"),
           "COLUMNS": "100", "ARBITER_LOCK_TIMEOUT": "5"}
    out = subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()", "play", "funkoverse-jaws",
                          "-p", "ann,bob", "--dice", "manual", "-o", "first-player=light"],
                         input="help\n" + "\n".join(body) + "\n", capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert out.returncode == 0 and "Traceback" not in out.stdout + out.stderr
    assert "game over — winner: ann" in out.stdout
    assert "e.g. challenge tiger-shark" in out.stdout  # help
    assert "3 dice (2 + 1 for your status cards on Tiger Shark)" in " ".join(out.stdout.split())


@pytest.mark.parametrize("mode", ["control", "flags"])  # first game: the hot-seat game above
def test_bot_games_of_each_mode_through_arbiter_simulate(tmp_path, mode):
    out = run_cli(tmp_path, "simulate", "funkoverse-jaws", "-n", "2", "--bot", "smart", "-o", f"mode={mode}")
    assert out.returncode == 0 and "unfinished 0" in out.stdout, out.stdout + out.stderr


@pytest.mark.parametrize("mode", ["control"])  # flags: by hand and through simulate (CI time)
def test_a_hot_seat_scenario_through_arbiter_play_to_the_round_limit(tmp_path, mode):
    """Two people pick menu numbers until the (house) round limit ends a short scenario."""
    import subprocess
    import sys

    env = {**os.environ, "ARBITER_DB": str(tmp_path / "fj.duckdb"), "ARBITER_HOME": str(tmp_path / "home"),
           "COLUMNS": "100", "ARBITER_LOCK_TIMEOUT": "5"}
    picks = "\n".join(["2", "1", "3", "1"] * 120) + "\n"
    out = subprocess.run([sys.executable, "-c", "from arbiter.cli.app import main; main()", "play", "funkoverse-jaws",
                          "-p", "ann,bob", "--seed", "4", "-o", f"mode={mode}", "-o", "round-limit=2"],
                         input=picks, capture_output=True, text=True, env=env, cwd=str(tmp_path))
    text = out.stdout + out.stderr
    assert out.returncode == 0 and "Traceback" not in text
    assert "game over" in text and "house round limit: 2 rounds played" in " ".join(text.split())
