"""What a seat may read of a game's moves, and why a move was (or would be) legal.

Both doors, the command line and the service, answer `why`, `try`, an undo's words and a
secret choice through these functions, so that no door decides any of it on its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import msgspec

from arbiter.core.errors import ArbiterError, ManualDiceError, ParseError, RuleViolation, stop_trace, trace_rules
from arbiter.core.rules import Rule
from arbiter.events.base import Event, Undone
from arbiter.projections.fold import SETUP
from arbiter.projections.kernel import REFEREE, describe_kernel

if TYPE_CHECKING:
    from arbiter.core.match import Match

#: How a command whose words a seat may not read is named to that seat.
SECRET_CHOICE = "(a secret choice)"


# ----------------------------------------------------------------------------- words


def describe(match: Match, ev: Any, viewer: str | None = None) -> str:
    """One event in words; an undo names the move it took back (the move's words only when
    ``viewer`` may know them)."""
    if isinstance(ev, Undone):
        return f"undid {undone_move(match, ev.first_seq, viewer)}"
    return describe_kernel(ev) or match.game.projection.describe(ev, match.state)


def command_events(match: Match, cid: str, first_seq: int = 1) -> list[Event]:
    return [ev for _s, c, ev in match.items[first_seq - 1:] if c == cid]


def words_are_secret(match: Match, seat: str | None, text: str, events: Sequence[Event],
                     viewer: str | None, state: Any = None) -> bool:
    """Whether ``viewer`` may not read the words of ``seat``'s command ``text``: the game
    says so, or (when it leaves it to the kernel) some of the command's events are redacted
    for ``viewer``. ``state`` is the position the command was decided in (default: now).
    The referee, the mover, and everyone once the game is over read every command."""
    if viewer == REFEREE or (viewer is not None and viewer == seat) or match.outcome() is not None:
        return False
    said = match.game.command_is_secret(match.state if state is None else state, seat or "", text)
    if said is not None:
        return said
    # a shuffle's order is hidden from everyone, and says nothing of the words: the game's
    # own redaction decides
    projection = match.game.projection
    return any(projection.redact(ev, viewer, match.state) != ev for ev in events)


def move_words(match: Match, first_seq: int, viewer: str | None, state: Any = None) -> str:
    """The words of the command whose first event is seq ``first_seq`` as ``viewer`` may
    read them ("bid 2", or a secret choice); that command alone is read."""
    found = match.command_at(first_seq)
    if found is None:
        return ""
    _cid, seat, text, events = found
    if words_are_secret(match, seat, text, events, viewer, state):
        return SECRET_CHOICE
    return text


def undone_move(match: Match, first_seq: int, viewer: str | None) -> str:
    """"bob's move `bid 2`" for the command whose first event is ``first_seq``."""
    found = match.command_at(first_seq) if first_seq >= 1 else None
    if found is None or not found[2]:
        return f"the move at seq {first_seq}"
    _cid, seat, text, events = found  # that command alone, not the whole history
    whose = f"{seat}'s move" if seat else "the move"
    if words_are_secret(match, seat, text, events, viewer):
        return f"{whose} {SECRET_CHOICE}"
    return f"{whose} `{text}`"


def whose_turn(match: Match) -> str:
    """Whose decision the game waits on, or how it ended, in words ("bob chooses in secret")."""
    return turn_words(match.game.projection, match.state)


def turn_words(projection: Any, state: Any) -> str:
    """:func:`whose_turn` of a game's ``state`` (a position a replay folded)."""
    out = projection.outcome(state)
    if out is not None:
        winners = ", ".join(out.winners) or "nobody"
        return f"game over — winner: {winners}" + (f" ({out.reason})" if out.reason else "")
    who = projection.to_act(state)
    secret = "chooses in secret" if len(who.seats) == 1 else "choose in secret"
    what = {"turn": "to act", "reaction": "may react", "simultaneous": secret}.get(who.kind, who.kind)
    return f"{', '.join(who.seats)} {what}" + (f": {who.prompt}" if who.prompt else "")


def readable_words(match: Match, seat: str | None, text: str, events: Sequence[Event],
                   viewer: str | None, state: Any = None) -> str:
    """The words of ``seat``'s command ``text`` as ``viewer`` may read them (see
    :func:`words_are_secret`); the referee's setup is said as it is."""
    if seat is None and text == SETUP:
        return text
    return SECRET_CHOICE if words_are_secret(match, seat, text, events, viewer, state) else text


def waits_on(at: int, inside: tuple[str | None, str, int, int] | None, then: str) -> str:
    """What the position after seq ``at`` waits on, in words: what `show --at` and each
    step of `replay` say under the board. ``then``: whose decision it is once the command
    ``at`` falls in is done (:func:`whose_turn`). ``inside``: that command's seat, words (as
    the onlooker may read them: :func:`readable_words`), first and last seq, when ``at`` is
    not its last event; None when ``at`` ends a command, and ``then`` is all there is to
    say. Nobody acts inside a command or the setup: the game's own idea of whose turn it is
    does not hold there."""
    if inside is None:
        return then
    who, words, first, last = inside
    if who is None and words == SETUP:
        return (f"setting up: seq {at} is inside the referee's setup (seq {first}–{last}); it waits"
                f" on the rest of the setup, and then: {then}")
    said = words if words == SECRET_CHOICE else repr(words)
    return (f"mid-command: seq {at} is inside {who}'s {said} (seq {first}–{last}); it waits on"
            f" the rest of that command's events, and then: {then}")


# ----------------------------------------------------------------------------- refusals


def cite(match: Match, exc: RuleViolation) -> RuleViolation:
    """A refusal with its rulebook section filled from the game's rule index."""
    rule = match.game.rules.get(exc.rule_id)
    if rule is not None and not exc.section:
        exc.section = rule.section
    return exc


def with_hint(exc: ParseError, match: Match, seat: str | None, text: str) -> ParseError:
    """A command that did not parse, with the nearest legal commands and words as a hint
    (not for a seat that must be named, nor when the game already suggested something)."""
    from arbiter.core.suggest import suggestions

    acting = match.to_act().seats
    if seat is not None and seat not in match.seats:
        return exc  # not a seat of the game: naming another seat's legal commands would show its hand
    if isinstance(exc, ManualDiceError) or "did you mean" in str(exc).lower() or (seat is None and len(acting) > 1):
        return exc
    seats = [seat] if seat in match.seats else list(acting)
    hint = suggestions(text, [t for s in seats for t in match.legal_texts(s)], match.game.syntax)
    if hint:
        exc.hint = f"{exc.hint}; {hint}" if exc.hint else hint
    return exc


def needs_faces(match: Match, exc: ArbiterError) -> bool:
    """Whether a refusal only asks for the faces of physical dice (a manual-dice game): the
    player rolls and the same command is tried again with them (:func:`with_faces`)."""
    return isinstance(exc, ManualDiceError) and match.created.dice == "manual"


def with_faces(text: str, faces: str) -> str:
    """``text`` with the faces as rolled (``attack giant`` + ``4 2`` -> ``attack giant [4 2]``);
    faces already in the text are replaced."""
    return f"{text.split('[')[0].strip()} [{faces.strip().strip('[]').strip()}]"


# ----------------------------------------------------------------------------- try


class Trial(msgspec.Struct):
    """A dry run: a command that would be legal, and what it would do as ``viewer`` may see
    it, up to the first draw ``viewer`` has not seen (``rest`` says what follows from it)."""

    at: int
    actor: str
    text: str
    viewer: str
    rules: list[str]
    events: list[Any]
    rest: str


def try_command(match: Match, seat: str | None, text: str, live: Match | None = None) -> Trial:
    """Would ``text`` be legal for ``seat`` at ``match``'s position (``live``: the game as it
    stands, when ``match`` is an earlier point of it)? Raises the refusal, cited."""
    live = live or match
    trail, token = trace_rules()
    try:
        actor, _cmd, events = match.decide(None if seat == REFEREE else seat, text)
    except RuleViolation as exc:
        raise cite(match, exc) from None
    finally:
        stop_trace(token)
    viewer = REFEREE if live.outcome() is not None else (seat or actor)
    shown, hidden = match.blind_preview(events, viewer, live)
    return Trial(at=match.seq, actor=actor, text=" ".join(text.split()), viewer=viewer, rules=list(trail),
                 events=shown, rest=f"what happens next depends on {hidden}" if hidden else "")


# ----------------------------------------------------------------------------- why


class Explanation(msgspec.Struct):
    """Which command wrote event ``seq``, the rules it passed, and its events as ``viewer``
    may see them. ``refused``: today's rules refuse it (the rules changed since)."""

    seq: int
    command_id: str
    actor: str | None
    words: str
    first: int
    last: int
    setup: bool
    refused: str
    rules: list[Rule]
    events: list[tuple[int, Any]]


def command_span(match: Match, seq: int) -> tuple[int, int]:
    """The first and last seq of the command that wrote event ``seq``."""
    cid = match.items[seq - 1][1]
    first = last = seq
    while first > 1 and match.items[first - 2][1] == cid:
        first -= 1
    while last < len(match.items) and match.items[last][1] == cid:
        last += 1
    return first, last


def at_seq(match: Match, seq: int) -> Match:
    """The game as it was after ``seq`` (``match`` itself at its head)."""
    from arbiter.core.match import Match as M

    if seq >= match.seq:
        return match
    prefix = M(match.game, match.items[:seq], match.actors)
    prefix.texts = match.texts
    prefix.game_id = match.game_id
    return prefix


def explain(match: Match, seq: int, viewer: str | None) -> Explanation:
    """Why event ``seq`` is in the log: the command that wrote it, decided again on the
    position before it with the rules traced (DESIGN.md, `why`)."""
    if not 1 <= seq <= match.seq:
        raise ArbiterError(f"{match.game_id} has no event {seq} (its log ends at {match.seq})")
    first, last = command_span(match, seq)
    cid = match.items[seq - 1][1]
    actor, text = match.texts.get(cid, (match.actors.get(first), SETUP))
    if text == SETUP:
        return Explanation(seq=seq, command_id=cid, actor=None, words="(setup)", first=first, last=last,
                           setup=True, refused="", rules=[], events=[])
    before = at_seq(match, first - 1)
    trail, token = trace_rules()
    refused = ""
    try:
        before.decide(actor, text)
    except ArbiterError as exc:
        refused = str(exc)
    finally:
        stop_trace(token)
    shown = [(s, ev) for s, _a, ev in match.log(viewer) if first <= s <= last]
    secret = words_are_secret(match, actor, text, command_events(match, cid, first), viewer, before.state)
    passed = [r for r in (match.game.rules.get(i) for i in ["ARB-TURN"] + trail) if r]
    return Explanation(seq=seq, command_id=cid, actor=actor, words=SECRET_CHOICE if secret else text,
                       first=first, last=last, setup=False, refused=refused, rules=passed, events=shown)
