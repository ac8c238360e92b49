"""Golden playthroughs: one format and one runner for every game.

A golden playthrough is a recorded transcript (``<name>.arb``; ``.txt`` is read too) beside
a record of how it ends (``<name>.json``). :func:`check` replays the transcript through
``check``, requires it to be clean and its export to be the file (comments aside, byte for
byte: the header names every option, as :func:`record` writes it), and compares every
key of the record with the replayed game:

* ``winners``, ``scores``, ``reason``: the outcome;
* ``events``: how many events the game logged;
* a field of the final state (``round``, ``credits``, ``finishes``...), as plain values;
* a field of each player (``trophies``: ``{seat: players[seat].trophies}``);
* anything else from ``final(match)``, a game's own summary, when given.

A key the runner cannot resolve fails, so nothing in a record goes unchecked. A change that
alters a golden playthrough must be a deliberate rules change: play it anew with
:func:`rerecord` (or write a new one with :func:`record`) and say why. A new option changes
every export's header: re-record, or add the option's line to the headers by hand.
"""

from __future__ import annotations

import difflib
import json
import random
from pathlib import Path
from typing import Any, Callable

import msgspec

from arbiter.core import transcript
from arbiter.core.match import Match

Final = Callable[[Match], dict[str, Any]]
SUFFIXES = (".arb", ".txt")


def playthroughs(folder: Path) -> list[Path]:
    """The golden transcripts in ``folder`` (each with a ``.json`` record beside it)."""
    return sorted(p for p in folder.glob("*") if p.suffix in SUFFIXES and p.with_suffix(".json").exists())


def replay(path: Path) -> Match:
    """Check the transcript at ``path`` and require its export to be the file itself, byte for
    byte, but for the file's comments (so the header must name every option)."""
    text = path.read_text(encoding="utf-8")
    result = transcript.check(text)
    assert result.ok, f"{path.name} line {result.line}: {result.error}"
    exported = transcript.export(result.match)
    assert exported == transcript.plain(text), (
        f"{path.name}: its export is not the file (comments aside; a new option? add its line to"
        " the header, or play it anew with rerecord):\n"
        + "\n".join(difflib.unified_diff(transcript.plain(text).splitlines(), exported.splitlines(),
                                         "file", "export", lineterm="", n=1)))
    return result.match


def value_of(match: Match, key: str, final: dict[str, Any]) -> Any:
    """What the replayed game says for a record's ``key`` (KeyError: it cannot say)."""
    out = match.outcome()
    if key in ("winners", "scores", "reason"):
        assert out is not None, "the golden game does not end"
        return {"winners": list(out.winners), "scores": out.scores, "reason": out.reason}[key]
    if key == "events":
        return len(match.items)
    if key in final:
        return final[key]
    state = match.state
    if hasattr(state, key):
        return msgspec.to_builtins(getattr(state, key))
    players = getattr(state, "players", None)
    if isinstance(players, dict) and players and all(hasattr(p, key) for p in players.values()):
        return {s: msgspec.to_builtins(getattr(p, key)) for s, p in players.items()}
    raise KeyError(key)


def check(path: Path, final: Final | None = None) -> Match:
    """Replay the golden playthrough at ``path`` and compare it with its record."""
    match = replay(path)
    want = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    extra = final(match) if final is not None else {}
    got = {}
    for key in want:
        try:
            got[key] = value_of(match, key, extra)
        except KeyError:
            raise AssertionError(f"{path.name}: the record's {key!r} is not an outcome, a state or"
                                 " player field, nor in the game's final summary") from None
    assert json.loads(json.dumps(got)) == want, f"{path.name} no longer ends as recorded"
    return match


def record(match: Match, path: Path, keys: list[str], final: Final | None = None) -> None:
    """Write ``match`` as a golden playthrough: its transcript (``.arb``, or the ``.txt``
    ``path`` names) and a record of ``keys``."""
    path = path if path.suffix in SUFFIXES else path.with_suffix(".arb")
    path.write_text(transcript.export(match), encoding="utf-8")
    extra = final(match) if final is not None else {}
    rec = {k: value_of(match, k, extra) for k in keys}
    path.with_suffix(".json").write_text(json.dumps(rec, indent=1, sort_keys=True), encoding="utf-8")


def rerecord(path: Path, *, bot: str | None = None, bot_seed: int = 0, max_steps: int = 5000,
             final: Final | None = None) -> Match:
    """Play the golden playthrough at ``path`` anew, after a deliberate rules change: the kind,
    seed, seats and options of its header, every seat played by ``bot`` (default: the game's
    own) from ``bot_seed``; then write it and a record of the same keys as before. Seeded
    games only (a manual-dice game's faces were a person's: edit that file by hand)."""
    from arbiter.core.bots import autoplay, bot_names, get_bot

    old = transcript.parse(path.read_text(encoding="utf-8"))
    assert old.dice == "seeded", f"{path.name} is a manual-dice game: edit it by hand"
    match = transcript.start(old)
    chosen = get_bot(match.game, bot or next((b for b in bot_names(match.game) if b != "random"), "random"))
    autoplay(match, {s: chosen for s in match.seats}, random.Random(bot_seed), max_steps)
    keys = list(json.loads(path.with_suffix(".json").read_text(encoding="utf-8")))
    record(match, path, keys, final)
    return match
