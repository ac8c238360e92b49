"""Golden playthroughs: one format and one runner for every game.

A golden playthrough is a recorded transcript (``<name>.arb``; ``.txt`` is read too) beside
a record of how it ends (``<name>.json``). :func:`check` replays the transcript through
``check``, requires it to be clean and its export to replay to the same state, and compares every
key of the record with the replayed game:

* ``winners``, ``scores``, ``reason``: the outcome;
* ``events``: how many events the game logged;
* a field of the final state (``round``, ``credits``, ``finishes``...), as plain values;
* a field of each player (``trophies``: ``{seat: players[seat].trophies}``);
* anything else from ``final(match)``, a game's own summary, when given.

A key the runner cannot resolve fails, so nothing in a record goes unchecked. A change that
alters a golden playthrough must be a deliberate rules change: re-record it with
:func:`record` and say why.
"""

from __future__ import annotations

import json
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
    text = path.read_text(encoding="utf-8")
    result = transcript.check(text)
    assert result.ok, f"{path.name} line {result.line}: {result.error}"
    again = transcript.check(transcript.export(result.match))
    assert again.ok and msgspec.json.encode(again.match.state) == msgspec.json.encode(result.match.state), (
        f"{path.name}: its export does not replay to the same state")
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
    """Write ``match`` as a golden playthrough: its transcript and a record of ``keys``."""
    path.with_suffix(".arb").write_text(transcript.export(match), encoding="utf-8")
    extra = final(match) if final is not None else {}
    rec = {k: value_of(match, k, extra) for k in keys}
    path.with_suffix(".json").write_text(json.dumps(rec, indent=1, sort_keys=True), encoding="utf-8")
