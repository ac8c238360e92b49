"""Every game's golden playthroughs, through the one runner (arbiter.testing.golden)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbiter.core import registry
from arbiter.testing import golden

HERE = Path(__file__).parent
GAMES = [g.id for g in registry.available() if (HERE / g.id.replace("-", "_") / "golden").is_dir()]


def scott_pilgrim_final(match) -> dict:
    """Scott Pilgrim's record keeps characters and objects as rows, and card counts."""
    s = match.state
    return {"chars": {c.id: [c.pos, c.health, c.xp, c.level, c.boosters, c.poofed, c.out]
                      for c in s.chars.values()},
            "objects": {o.id: [o.pos, o.damaged, o.gone] for o in s.objects.values()},
            "hand": len(s.hand), "deck": len(s.deck)}


FINAL = {"scott-pilgrim": scott_pilgrim_final}
CASES = [(g, p) for g in GAMES for p in golden.playthroughs(HERE / g.replace("-", "_") / "golden")]


def test_every_game_keeps_golden_playthroughs():
    assert sorted({g for g, _p in CASES}) == sorted(g.id for g in registry.available() if g.id != "duel")
    for game in GAMES:
        assert sum(1 for g, _p in CASES if g == game) >= 2, game


@pytest.mark.parametrize("game,path", CASES, ids=[f"{g}/{p.stem}" for g, p in CASES])
def test_golden_playthrough_replays_to_its_record(game, path):
    match = golden.check(path, FINAL.get(game))
    assert match.game.id == game


def test_a_record_that_no_longer_matches_fails(tmp_path):
    game, path = CASES[0]
    (tmp_path / path.name).write_text(path.read_text())
    want = json.loads(path.with_suffix(".json").read_text())
    want["events"] = want.get("events", 0) + 1
    (tmp_path / path.with_suffix(".json").name).write_text(json.dumps(want))
    with pytest.raises(AssertionError, match="no longer ends as recorded"):
        golden.check(tmp_path / path.name, FINAL.get(game))


def test_a_record_key_nothing_can_check_fails(tmp_path):
    game, path = CASES[0]
    (tmp_path / path.name).write_text(path.read_text())
    (tmp_path / path.with_suffix(".json").name).write_text(json.dumps({"luck": 7}))
    with pytest.raises(AssertionError, match="'luck' is not an outcome"):
        golden.check(tmp_path / path.name)


def test_record_writes_what_check_reads(tmp_path):
    import random

    from arbiter.core.bots import autoplay
    from arbiter.testing import new_match

    match = new_match(registry.get("funkoverse-jaws"), 5)
    autoplay(match, {}, random.Random(5), max_steps=3000)
    golden.record(match, tmp_path / "g.arb", ["winners", "scores", "reason", "events", "round"])
    assert golden.check(tmp_path / "g.arb").seq == match.seq


def test_the_export_must_be_the_file_but_for_its_comments(tmp_path):
    """A golden file is what export writes: a header naming every option, the moves as stored;
    comments are the reader's own."""
    game, path = next((g, p) for g, p in CASES if g == "villainous")
    lines = path.read_text().splitlines()
    annotated = [lines[0], "# a reader's note"] + [f"{ln}   # why" if ln.startswith("ann:") else ln for ln in lines[1:]]
    (tmp_path / path.name).write_text("\n".join(annotated) + "\n")
    (tmp_path / path.with_suffix(".json").name).write_text(path.with_suffix(".json").read_text())
    golden.check(tmp_path / path.name)
    short = [ln for ln in lines if not ln.startswith("option: hunt_turns=")]
    (tmp_path / path.name).write_text("\n".join(short) + "\n")
    with pytest.raises(AssertionError, match="its export is not the file"):
        golden.check(tmp_path / path.name)


def test_rerecord_plays_a_golden_anew_with_the_same_header_and_keys(tmp_path):
    game, path = next((g, p) for g, p in CASES if g == "funkoverse-jaws")
    copy = tmp_path / path.name
    copy.write_text(path.read_text())
    (tmp_path / path.with_suffix(".json").name).write_text(path.with_suffix(".json").read_text())
    match = golden.rerecord(copy, bot_seed=3)
    header = path.read_text().split("---")[0]
    assert copy.read_text().split("---")[0] == header
    assert json.loads(copy.with_suffix(".json").read_text()).keys() == json.loads(path.with_suffix(".json").read_text()).keys()
    assert golden.check(copy).seq == match.seq
