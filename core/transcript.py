"""Transcripts: a game written by hand, one command per line.

::

    # arbiter transcript 1
    game: monster-derby
    seed: 42                # or: dice: manual
    players: ann, bob, cy
    option: boards=4
    ---
    ann: take-marker
    bob: control giant

``#`` starts a comment anywhere on a line. ``export`` writes this form and ``check`` reads
it; an exported game checks clean and folds to the same final state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arbiter.core import registry
from arbiter.core.errors import ArbiterError, ParseError, RuleViolation, TranscriptError
from arbiter.core.match import Match

MAGIC = "# arbiter transcript 1"


@dataclass
class Transcript:
    kind: str  # the "game:" line: a game kind
    seed: int | None
    dice: str
    players: list[str]
    options: dict[str, str] = field(default_factory=dict)
    content: str | None = None
    lines: list[tuple[int, str | None, str]] = field(default_factory=list)  # (line no, seat, text)


@dataclass
class CheckResult:
    match: Match | None
    ok: bool
    line: int = 0
    text: str = ""
    error: ArbiterError | None = None
    commands: int = 0


def _strip(line: str) -> str:
    return line.split("#", 1)[0].strip()


def plain(text: str) -> str:
    """A transcript without its comments and blank lines: what :func:`export` writes for the
    game it records when the header names every option."""
    lines = text.removeprefix("\ufeff").splitlines()
    kept = [line.strip() for line in lines[:1]] + [_strip(line) for line in lines[1:]]
    return "\n".join(line for line in kept if line) + "\n"


def parse(text: str) -> Transcript:
    """Read a transcript; raise :class:`TranscriptError` naming the line that is wrong."""
    lines = text.removeprefix("\ufeff").splitlines()
    if not lines or lines[0].strip() != MAGIC:
        raise TranscriptError(f"line 1: a transcript starts with {MAGIC!r}")
    header: dict[str, Any] = {"option": []}
    body_at = None
    for no, raw in enumerate(lines[1:], start=2):
        line = _strip(raw)
        if not line:
            continue
        if line == "---":
            body_at = no
            break
        key, sep, value = line.partition(":")
        key, value = key.strip().lower(), value.strip()
        if not sep or key not in ("game", "seed", "dice", "players", "option", "content"):
            raise TranscriptError(
                f"line {no}: expected 'game:', 'seed:', 'dice:', 'players:', 'option:',"
                f" 'content:' or '---', not {raw.strip()!r}"
            )
        if key == "option":
            k, eq, v = value.partition("=")
            if not eq or not k.strip():
                raise TranscriptError(f"line {no}: an option is written 'option: name=value'")
            header["option"].append((k.strip(), v.strip()))
        elif key in header:
            raise TranscriptError(f"line {no}: '{key}:' given twice")
        else:
            header[key] = (no, value)
    if body_at is None:
        raise TranscriptError("the header never ends: put a line '---' before the moves")
    if "game" not in header:
        raise TranscriptError("the header has no 'game:' line")
    seed = None
    if "seed" in header:
        no, value = header["seed"]
        if not value.isdigit():
            raise TranscriptError(f"line {no}: the seed must be a whole number, not {value!r}")
        seed = int(value)
    dice = "seeded"
    if "dice" in header:
        no, dice = header["dice"]
        if dice not in ("seeded", "manual"):
            raise TranscriptError(f"line {no}: 'dice:' is 'seeded' or 'manual', not {dice!r}")
    if dice == "seeded" and seed is None:
        raise TranscriptError("a seeded game needs a 'seed:' line (or 'dice: manual')")
    players = []
    if "players" in header:
        players = [p.strip() for p in header["players"][1].split(",") if p.strip()]
    t = Transcript(kind=header["game"][1], seed=seed, dice=dice, players=players,
                   options=dict(header["option"]),
                   content=header["content"][1] if "content" in header else None)
    for no, raw in enumerate(lines[body_at:], start=body_at + 1):
        line = _strip(raw)
        if not line:
            continue
        seat, sep, command = line.partition(":")
        if not sep or not seat.strip() or " " in seat.strip():
            raise TranscriptError(f"line {no}: a move is written 'player: command', not {raw.strip()!r}")
        t.lines.append((no, seat.strip(), command.strip()))
    return t


def start(t: Transcript, content: dict[str, Any] | None = None) -> Match:
    game = registry.get(t.kind)
    if t.content and t.content != "embedded" and content is None:
        raise TranscriptError(
            f"this transcript was played with its own content ({t.content}); pass it with --content FILE"
        )
    return Match.new(game, seed=t.seed or 0, seats=t.players or game.default_seats(),
                     options=t.options, dice=t.dice, content=content,
                     content_source="embedded" if content is None else "file")


def check(text: str, content: dict[str, Any] | None = None) -> CheckResult:
    """Play a transcript through the rules; stop at the first line that is not legal."""
    t = parse(text)
    match = start(t, content)
    count = 0
    for no, seat, command in t.lines:
        try:
            match.apply(seat, command)
        except (RuleViolation, ParseError) as exc:
            if isinstance(exc, RuleViolation):
                rule = match.game.rules.get(exc.rule_id)
                exc.section = rule.section if rule else ""
            return CheckResult(match, False, no, f"{seat}: {command}", exc, count)
        count += 1
    return CheckResult(match, True, commands=count)


def export(match: Match) -> str:
    """The transcript of a match's effective history (undone moves left out)."""
    c = match.created
    out = [MAGIC, f"game: {c.kind}"]
    if c.dice == "manual":
        out.append("dice: manual")
        out.append(f"seed: {c.seed}")
    else:
        out.append(f"seed: {c.seed}")
    out.append(f"players: {', '.join(c.seats)}")
    for k, v in c.options.items():
        out.append(f"option: {k}={str(v).lower() if isinstance(v, bool) else v}")
    if c.content_source != "embedded":
        out.append(f"content: sha256:{c.content_hash}")
    out.append("---")
    for seat, text in match.effective_commands():
        out.append(f"{seat}: {text}")
    return "\n".join(out) + "\n"
