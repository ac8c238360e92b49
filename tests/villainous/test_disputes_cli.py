"""Issue 6, "How it will be checked": the disputed positions run through `arbiter check` and
`arbiter try` as a user would (a card file that makes the position come about in a real
game, a transcript of that game, then the disputed command), each expecting the
rulebook's answer and a rule id; and a custom card file with a deliberate error, then
fixed, loaded and played to the end."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.core import transcript
from arbiter.core.match import Match
from arbiter.core.villainous import GAME
from arbiter.core.villainous.board import Table

RUN = CliRunner()


def cli(db: Path, *args: str) -> Any:
    return RUN.invoke(app, ["--db", str(db), *args], env={"COLUMNS": "200"})


def house_card(card_id: str) -> dict[str, Any]:
    for v in GAME.default_content()["villains"].values():
        for deck in ("villain_deck", "fate_deck"):
            for c in v[deck]:
                if c["id"] == card_id:
                    return copy.deepcopy(c)
    raise KeyError(card_id)


def fill(content: dict[str, Any], villain: str, deck: str, card_id: str, **changes: Any) -> None:
    """A deck made of one card (as copies of up to 9 of the same card under four ids)."""
    base = {**house_card(card_id), **changes}
    split = (9, 9, 9, 3) if deck == "villain_deck" else (9, 6)
    content["villains"][villain][deck] = [
        {**base, "id": f"{base['id']}-{x}", "name": f"{base['name']} {x.upper()}", "copies": n}
        for x, n in zip("abcd", split)]


def scenario(tmp_path: Path, content: dict[str, Any], steps: list[tuple[str, Any]],
             **options: Any) -> tuple[Path, Path, Match]:
    """Play ``steps`` (seat, command or callable giving it) on a new game with ``content``;
    write the card file and the transcript; return their paths and the match."""
    m = Match.new(GAME, seed=1, seats=["ann", "bob"], content=content,
                  options={"condition_windows": "always", **options})
    for seat, cmd in steps:
        m.apply(seat, cmd(m) if callable(cmd) else cmd)
    cpath, tpath = tmp_path / "cards.json", tmp_path / "game.arb"
    cpath.write_text(json.dumps(content))
    tpath.write_text(transcript.export(m))
    return cpath, tpath, m


def first(seat: str, typ: str):
    return lambda m: next(c for c in m.state.hand[seat] if Table(m.state).ctype(c) == typ)


def imported(tmp_path: Path, cpath: Path, tpath: Path) -> str:
    db = tmp_path / "s.duckdb"
    assert cli(db, "check", "--content", str(cpath), str(tpath)).exit_code == 0
    out = cli(db, "import", "--content", str(cpath), str(tpath))
    assert out.exit_code == 0, out.output
    return out.output.strip().splitlines()[-1].strip()


def disputed(tmp_path: Path, cpath: Path, tpath: Path, line: str, rule: str | None) -> str:
    """The transcript with ``line`` added: `check` accepts it (rule None) or names the rule."""
    bad = tmp_path / "disputed.arb"
    bad.write_text(tpath.read_text() + line + "\n")
    out = cli(tmp_path / "c.duckdb", "check", "--content", str(cpath), str(bad))
    if rule is None:
        assert out.exit_code == 0, out.output
    else:
        assert out.exit_code == 1 and rule in out.output, out.output
    return out.output


def tried(tmp_path: Path, gid: str, seat: str, command: str) -> Any:
    return cli(tmp_path / "s.duckdb", "try", gid, "--as", seat, *command.split())


def allies_and_clone_troopers(ally_strength: int, hero: str = "cbf-clone-trooper", **hero_changes: Any) -> dict[str, Any]:
    c = copy.deepcopy(GAME.default_content())
    fill(c, "cad-bane", "villain_deck", "cb-hired-gun", strength=ally_strength, abilities=[], text="No ability.")
    fill(c, "cad-bane", "fate_deck", hero, **hero_changes)
    return c


def hero_on_coruscant(content: dict[str, Any], tmp_path: Path):
    """Cad Bane (ann) plays an Ally at Coruscant; Seventh Sister (bob) plays a Hero there."""
    steps = [("ann", "move bora-vio"), ("ann", "collect"),
             ("ann", lambda m: f"play {first('ann', 'ally')(m)} at coruscant"), ("bob", "pass"),
             ("ann", "end"), ("bob", "move bilzen"), ("bob", "fate ann"),
             ("bob", lambda m: f"fate-play {m.state.fate['cards'][0]} at coruscant"), ("bob", "end"),
             ("ann", "move black-stall-station")]
    return scenario(tmp_path, content, steps)


def test_vanquish_with_exactly_equal_strength(tmp_path):
    """Vanquish: the Allies' total Strength must be greater than OR EQUAL to the Hero's."""
    cpath, tpath, m = hero_on_coruscant(allies_and_clone_troopers(2), tmp_path)
    ally = next(iter(c for c in m.state.sector["ann"] if Table(m.state).ctype(c) == "ally"))
    hero = next(iter(c for c in m.state.sector["ann"] if Table(m.state).ctype(c) == "hero"))
    gid = imported(tmp_path, cpath, tpath)
    out = tried(tmp_path, gid, "ann", f"vanquish {hero} with {ally}")
    assert out.exit_code == 0 and out.output.startswith("legal") and "vanquishes" in out.output
    hero_name = Table(m.state).card(hero)["name"]  # the log names cards, not ids
    assert "(2) at Coruscant with" in out.output and f"{hero_name} goes to ann's Fate discard" in out.output
    disputed(tmp_path, cpath, tpath, f"ann: vanquish {hero} with {ally}", None)
    # one Strength short: refused, citing the rule
    cpath, tpath, m = hero_on_coruscant(allies_and_clone_troopers(1), tmp_path)
    disputed(tmp_path, cpath, tpath, f"ann: vanquish {hero} with {ally}", "SV-VANQUISH-STRENGTH")


# SV-HOUSE-ZERO-BOTH: against a 0-Strength Hero the 'always discarded' rule wins.
def test_a_zero_strength_ally_takes_part_and_is_always_discarded(tmp_path):
    """Strength Reduced to 0: a 0-Strength Ally may take part in a Vanquish and is always
    discarded (here against a 0-Strength Hero, whose vanquishers otherwise stay)."""
    content = allies_and_clone_troopers(0, strength=0)
    cpath, tpath, m = hero_on_coruscant(content, tmp_path)
    ally = next(c for c in m.state.sector["ann"] if Table(m.state).ctype(c) == "ally")
    hero = next(c for c in m.state.sector["ann"] if Table(m.state).ctype(c) == "hero")
    gid = imported(tmp_path, cpath, tpath)
    out = tried(tmp_path, gid, "ann", f"vanquish {hero} with {ally}")
    assert out.exit_code == 0 and f"{Table(m.state).card(ally)['name']} goes to ann's Villain discard" in out.output
    # against a Hero of Strength 2 a lone 0-Strength Ally is not enough
    cpath, tpath, m = hero_on_coruscant(allies_and_clone_troopers(0), tmp_path)
    disputed(tmp_path, cpath, tpath, f"ann: vanquish {hero} with {ally}", "SV-VANQUISH-STRENGTH")


def test_a_hero_vehicle_played_when_an_ally_vehicle_is_present_is_engaged(tmp_path):
    """Fate / Hero Vehicles and Engagement: it must be played engaged against the Ally Vehicle."""
    c = copy.deepcopy(GAME.default_content())
    fill(c, "cad-bane", "villain_deck", "cb-xanadu-blood")
    fill(c, "cad-bane", "fate_deck", "cbf-republic-gunship")
    steps = [("ann", "move bora-vio"), ("ann", "collect"),
             ("ann", lambda m: f"play {first('ann', 'ally_vehicle')(m)}"), ("ann", "end"),
             ("bob", "move bilzen"), ("bob", "fate ann")]
    cpath, tpath, m = scenario(tmp_path, c, steps)
    hv = m.state.fate["cards"][0]
    av = next(iter(m.state.sector["ann"]))
    gid = imported(tmp_path, cpath, tpath)
    out = tried(tmp_path, gid, "bob", f"fate-play {hv}")
    named = Table(m.state).card
    assert out.exit_code == 0 and f"{named(av)['name']} and {named(hv)['name']} are engaged" in out.output
    assert "at Deep Space" in out.output
    out = tried(tmp_path, gid, "bob", f"fate-play {hv} at coruscant")
    assert out.exit_code == 1 and "SV-VEHICLE-DEEP-SPACE" in out.output


def test_drawing_after_discarding_mid_turn_waits_for_the_end(tmp_path):
    """Discard Cards: you do not draw at once; only at the end of your turn."""
    steps = [("ann", "move coruscant"), ("ann", lambda m: "discard " + " ".join(m.state.hand["ann"][:2]))]
    cpath, tpath, m = scenario(tmp_path, copy.deepcopy(GAME.default_content()), steps)
    assert len(m.state.hand["ann"]) == 2
    gid = imported(tmp_path, cpath, tpath)
    out = tried(tmp_path, gid, "ann", "end")
    assert out.exit_code == 0 and "ann draws 2 cards" in out.output
    out = cli(tmp_path / "s.duckdb", "try", gid, "--as", "ann", "draw")
    assert out.exit_code == 2 and "not a Villainous command" in out.output


def test_a_condition_played_on_an_opponents_turn(tmp_path):
    """Conditions: played only during an opponent's turn, when the condition is met."""
    c = copy.deepcopy(GAME.default_content())
    fill(c, "cad-bane", "villain_deck", "cb-hired-gun")
    fill(c, "seventh-sister", "villain_deck", "ss-ruthless-pursuit")
    steps = [("ann", "move bora-vio"), ("ann", "collect"),
             ("ann", lambda m: f"play {first('ann', 'ally')(m)} at coruscant")]
    cpath, tpath, m = scenario(tmp_path, c, steps)
    cond = m.state.hand["bob"][0]
    gid = imported(tmp_path, cpath, tpath)
    out = tried(tmp_path, gid, "bob", f"condition {cond}")
    assert out.exit_code == 0 and f"bob plays the Condition {Table(m.state).card(cond)['name']}" in out.output and "gains 1 Ambition" in out.output
    # on his own turn it cannot be played
    steps += [("bob", "pass"), ("ann", "end"), ("bob", "move bilzen")]
    cpath, tpath, m = scenario(tmp_path, c, steps)
    disputed(tmp_path, cpath, tpath, f"bob: condition {cond}", "SV-CONDITION-TIMING")


def test_hand_limit_with_two_unengaged_hero_vehicles_is_two(tmp_path):
    """Heroes Controlling Deep Space: two unengaged Hero Vehicles lower the limit to 2."""
    c = copy.deepcopy(GAME.default_content())
    fill(c, "cad-bane", "fate_deck", "cbf-republic-gunship")
    fate = [("bob", "fate ann"), ("bob", lambda m: f"fate-play {m.state.fate['cards'][0]}")]
    steps = [("ann", "move the-box"), ("ann", "end"), ("bob", "move bilzen"), *fate, ("bob", "end"),
             ("ann", "move bora-vio"), ("ann", "end"), ("bob", "move malachor"), *fate, ("bob", "end"),
             ("ann", "move coruscant"), ("ann", lambda m: "discard " + " ".join(m.state.hand["ann"][:3]))]
    cpath, tpath, m = scenario(tmp_path, c, steps)
    assert len(m.state.hand["ann"]) == 1 and Table(m.state).hand_limit("ann") == 2
    gid = imported(tmp_path, cpath, tpath)
    out = tried(tmp_path, gid, "ann", "end")
    assert out.exit_code == 0 and "ann draws 1 card" in out.output
    shown = cli(tmp_path / "s.duckdb", "show", gid, "--as", "ann")
    assert "(limit 2)" in shown.output


def test_a_custom_card_file_with_an_error_then_fixed_is_loaded_and_played(tmp_path):
    content = copy.deepcopy(GAME.default_content())
    content["villains"]["boba-fett"]["villain_deck"][0]["limit"] = 0  # a Contact without a limit
    bad = tmp_path / "mine.json"
    bad.write_text(json.dumps(content))
    db = tmp_path / "s.duckdb"
    out = cli(db, "new", "villainous", "--content", str(bad), "--players", "ann,bob,cy", "--seed", "2")
    assert out.exit_code == 2 and "bf-jabba-the-hutt" in out.output and "limit" in out.output
    content["villains"]["boba-fett"]["villain_deck"][0]["limit"] = 2
    bad.write_text(json.dumps(content))
    out = cli(db, "new", "villainous", "--content", str(bad), "--players", "ann,bob,cy", "--seed", "2",
              "--option", "round_limit=2")
    assert out.exit_code == 0, out.output
    gid = out.output.strip().splitlines()[0].strip()
    hot = RUN.invoke(app, ["--db", str(db), "play", gid], input="help\n1\nend\n", env={"COLUMNS": "100"})
    assert hot.exit_code == 0 and "e.g. move coruscant" in hot.output and "Your hand (ann)" in hot.output
    assert "ann ends the turn" in hot.output or "ends the turn" in hot.output
    out = cli(db, "play", gid, "--bot", "all=smart", "--bot-seed", "2")
    assert out.exit_code == 0 and "Winner" in out.output
    assert cli(db, "verify", gid).exit_code == 0


def test_try_lists_the_rules_a_vanquish_passed(tmp_path):
    cpath, tpath, m = hero_on_coruscant(allies_and_clone_troopers(2), tmp_path)
    ally = next(c for c in m.state.sector["ann"] if Table(m.state).ctype(c) == "ally")
    hero = next(c for c in m.state.sector["ann"] if Table(m.state).ctype(c) == "hero")
    gid = imported(tmp_path, cpath, tpath)
    out = tried(tmp_path, gid, "ann", f"vanquish {hero} with {ally}")
    for rule in ("SV-MOVE-FIRST", "SV-VANQUISH-SAME-LOCATION", "SV-VANQUISH-STRENGTH", "SV-BLOCKED"):
        assert rule in out.output
