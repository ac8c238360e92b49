"""The issue's checks, as a new user would run them through the CLI (in-process): full
battles with `play`, disputed positions through `check` and `try` with the rulebook's
answer and a rule id, and the Bad Guys' `show`/`log` never naming an unequipped item."""

from __future__ import annotations

import json

import pathlib

import pytest

from sp_helpers import MANUAL_HEADER as HEADER

GOLDEN = pathlib.Path(__file__).parent / "golden"


def new_game(cli, *options: str) -> str:
    opts = [x for o in ("placement=fixed", *options) for x in ("-o", o)]
    out = cli("new", "scott-pilgrim", "--seed", "5", "-p", "good,bad", "--dice", "manual", *opts)
    assert out.exit_code == 0, out.output
    return out.output.split()[0]


def test_bot_battle_through_play_then_verify(cli):
    out = cli("play", "scott-pilgrim", "-p", "good,bad", "--seed", "2", "--bot", "good=smart",
              "--bot", "bad=smart", "-o", "max_rounds=6")
    assert out.exit_code == 0, out.output
    assert "Guys win" in out.output
    assert "Traceback" not in out.output
    assert cli("verify", "--all").exit_code == 0


def test_hot_seat_play_with_typed_commands_help_and_a_typo(cli):
    gid = new_game(cli)
    out = cli("play", gid, stdin="roll [will will guts guts guts]\nhelp\nmatthew moov i5\n"
                                "matthew move i5 h5 pay guts\n1\nquit\n")
    assert out.exit_code == 0, out.output
    assert "kim move b6 c7 d8 e8 f8 pay speed will" in out.output  # help shows multi-die moves
    assert "did you mean 'move'" in out.output
    assert "CHICK-MOVE" not in out.output and "Traceback" not in out.output


@pytest.mark.parametrize("moves,rule", [
    # pushing a character into the wall: no squishing
    (["bad: roll [speed speed speed speed speed]", "bad: end",
      "good: roll [will will speed speed guts]", "good: knives move b7 b8 pay speed",
      "good: scott move b6 b7 b8 pay speed"], "SP-PUSH-SQUISH"),
    # punching while holding an object
    (["bad: roll [speed speed speed speed speed]", "bad: end",
      "good: roll [will will speed speed guts]", "good: scott move c6 pay speed",
      "good: scott grab amp", "good: scott punch amp"], "SP-HELD-AWKWARD"),
    # an Evil Ex who drew an item throws it before anything else
    (["bad: roll [speed will magic magic guts]", "bad: matthew move i4 h4 g4 f4 pay speed will",
      "bad: end"], "SP-HOUSE-EX-THROW-AFTER"),
    # the Pause window: the Bad Guys wait for the Good Guys' answer
    (["bad: roll [speed will magic magic guts]", "bad: matthew move i4 h4 g4 pay speed",
      "bad: chick1 move j6 j5 j6", "bad: chick2 move j2 j3 j2", "bad: chick3 move k5 k4 k5",
      "bad: matthew fireballs ramona", "bad: end"], "ARB-TURN"),
])
def test_disputed_positions_through_check(cli, tmp_path, moves, rule):
    path = tmp_path / "dispute.arb"
    path.write_text(HEADER + "\n".join(moves) + "\n")
    out = cli("check", str(path))
    assert out.exit_code == 1
    assert rule in out.output and f"line {7 + len(moves)}" in out.output


def test_the_golden_wall_and_pause_transcripts_check(cli):
    for name in ("judo-wall-chick", "pause-window"):
        out = cli("check", str(GOLDEN / f"{name}.arb"))
        assert out.exit_code == 0, out.output


def test_try_answers_the_disputes_with_rule_ids(cli):
    gid = new_game(cli, "good_guys=scott", "reaction_window=always")
    for seat, text in (("bad", "roll [speed will magic magic guts]"),
                       ("bad", "matthew move i4 h4 g4 f4 pay speed will")):
        assert cli("do", gid, "--as", seat, *text.split()).exit_code == 0
    out = cli("try", gid, "--as", "bad", "end")
    assert "SP-HOUSE-EX-THROW-AFTER" in out.output
    out = cli("try", gid, "--as", "bad", "matthew", "throw-item", "w")
    assert out.exit_code == 0 and "discarded" in out.output
    out = cli("try", gid, "--as", "bad", "chick1", "move", "j6")
    assert "SP-HOUSE-EX-THROW-AFTER" in out.output or "SP-CHICK-MOVE" in out.output


def test_the_bad_guys_never_see_an_unequipped_item(cli):
    gid = new_game(cli)
    ref = cli("show", gid, "--as", "good").output
    assert "Good Guys' items:" in ref and "hidden" not in ref.split("Good Guys' items:")[1].split("\n")[0]
    from arbiter.core.scott_pilgrim import GAME
    names = [i["name"] for i in GAME.default_content()["items"]]
    ids = [i["id"] for i in GAME.default_content()["items"]]
    held = [n for n in names if n in ref]
    assert len(held) == 4
    bad_show = cli("show", gid, "--as", "bad").output
    bad_log = cli("log", gid, "--as", "bad").output
    assert "4 hidden" in bad_show
    for text in (bad_show, bad_log):
        assert not any(n in text for n in held)
        assert not any(f"({i})" in text or f"item:{i}" in text for i in ids)


def test_why_lists_the_rules_a_judo_throw_into_the_wall_passed(cli):
    gid = new_game(cli)
    for seat, text in (("bad", "roll [speed will magic magic guts]"),
                       ("bad", "matthew move i4 h4 g4 pay speed"),
                       ("bad", "chick1 move j6 i5 i4"), ("bad", "chick2 move k3 k2 j3"),
                       ("bad", "chick3 move j5 k5 k6"), ("bad", "end"),
                       ("good", "roll [speed will guts guts guts]"),
                       ("good", "scott move c4 d4 e4 f4 pay speed will")):
        out = cli("do", gid, "--as", seat, *text.split())
        assert out.exit_code == 0, out.output
    # the rulebook's example: the Chick in Matthew's path hits the wall and poofs, and
    # Matthew ends in the space where she was
    out = cli("try", gid, "--as", "good", "scott", "judo-throw", "matthew", "pay", "guts", "guts")
    assert out.exit_code == 0, out.output
    assert "chick1 poofs" in out.output and "into the wall" in out.output and "to k4" in out.output
    assert cli("do", gid, "--as", "good", "scott", "judo-throw", "matthew", "pay", "guts",
               "guts").exit_code == 0
    log = json.loads(cli("log", gid, "--as", "referee", "--format", "json").output)
    seq = str(next(row["seq"] for row in log
                   if row["type"] == "KnockedBack" and row["event"]["wall"]))
    out = cli("why", gid, seq)
    assert "SP-KNOCKBACK-WALL" in out.output and "judo-throw" in out.output


def test_a_whole_hot_seat_battle_by_menu_numbers(cli):
    """Two people at one keyboard, always taking the first menu line, to the round limit."""
    out = cli("play", "scott-pilgrim", "-p", "erica,matt", "--seed", "4", "-o", "max_rounds=2",
              stdin="1\n" * 60)
    assert out.exit_code == 0, out.output
    assert "Guys win" in out.output and "round limit 2" in out.output
    assert "Traceback" not in out.output
