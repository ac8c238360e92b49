"""The conformance harness: play a game with bots and hold it to the kernel's contracts.

Like OpenSpiel's ``RandomSimTest``: :func:`simulate` plays a game to the end (random legal
commands, or the game's own bots), calling every check after every command; a game's own
tests pass extra ``checks`` (functions of the :class:`~arbiter.core.match.Match`) for the
invariants of its rules. ``tests/test_conformance.py`` runs these for every registered game.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterable, Mapping, Sequence

import msgspec

from arbiter.core.bots import bot_step
from arbiter.core.game import Bot, Game, Traits
from arbiter.core.match import Match, tokens
from arbiter.events.base import DiceRolled, SeedRevealed, Shuffled
from arbiter.projections.kernel import REFEREE
from arbiter.testing import secrets as sec

MAX_STEPS = 3000
#: A check of one position; it raises AssertionError (plain ``assert``) when it fails.
Check = Callable[[Match], None]


def enc(obj: Any) -> bytes:
    return msgspec.json.encode(obj)


def new_match(game: Game[Any, Any], seed: int, seats: int | None = None,
              options: Mapping[str, Any] | None = None) -> Match:
    """A new game; the seat count runs over the game's whole range as the seed varies. The
    game's ``random_play_options`` (house limits for bots) apply unless ``options`` is given."""
    n = seats if seats is not None else game.min_seats + seed % (game.max_seats - game.min_seats + 1)
    return Match.new(game, seed=seed, seats=[f"s{i}" for i in range(1, n + 1)],
                     options=dict(game.random_play_options if options is None else options))


def smart_bots(game: Game[Any, Any], match: Match) -> dict[str, Bot]:
    """Every seat played by the game's first bot that plays to win (none: random for all)."""
    names = sorted(k for k in game.bots if k != "random")
    return {s: game.bots[names[0]] for s in match.seats} if names else {}


def simulate(game: Game[Any, Any], seed: int, bot_seed: int, *, smart: bool = False,
             checks: Sequence[Check] = (), max_steps: int = MAX_STEPS, every: int = 1,
             match: Match | None = None) -> Match:
    """Play one game with bots, running ``checks`` on the position before each command (every
    ``every`` commands) and on the last one. Returns the match (ended, or cut at
    ``max_steps``)."""
    match = match or new_match(game, seed)
    bots = smart_bots(game, match) if smart else {}
    rng = random.Random(bot_seed)
    steps = 0
    while match.outcome() is None and steps < max_steps:
        if steps % every == 0:
            for check in checks:
                check(match)
        bot_step(match, bots, rng)
        steps += 1
    for check in checks:
        check(match)
    return match


# -- hidden information -----------------------------------------------------------------------

def menu_labels(match: Match, steps: int = 150, seed: int = 1) -> dict[str, str]:
    """text -> ``Game.menu_label`` of every legal command met in ``steps`` random commands
    (each seat's label from its own view): what `play` would show as house in its menus."""
    rng, out = random.Random(seed), {}
    for _ in range(steps):
        if match.outcome() is not None:
            break
        for seat in match.to_act().seats:
            for text in match.legal_texts(seat):
                out[text] = match.game.menu_label(match.view(seat), seat, text)
        bot_step(match, {}, rng)
    return out


def undo_unless_hidden(match: Match, seat: str) -> bool:
    """Undo the last move unless it showed a seat something hidden (the kernel refuses it:
    ARB-UNDO-HIDDEN); whether it was undone. Random play that takes moves back uses it."""
    from arbiter.core.errors import RuleViolation

    try:
        match.apply(seat, "undo")
    except RuleViolation as refused:
        if refused.rule_id != "ARB-UNDO-HIDDEN":
            raise
        return False
    return True


def secrets_of(match: Match, seat: str | None, zones: sec.Zones | None) -> set[str]:
    """Every token ``seat`` may not know now and does not see in its own view, found three
    ways: the zones the rulebook keeps from it (read from the referee's state), what its view
    leaves out of the referee's state, and what the game itself declares hidden."""
    state = sec.plain(match.state)
    view = sec.texts(sec.plain(match.view(seat)))
    out = set(match.game.projection.hidden_from(match.state, seat)) | (sec.texts(_without_frames(state)) - view)
    if zones is not None:
        out |= sec.from_zones(state, seat, zones(state, seat)).tokens
    return out - view


class LeakWatch:
    """A check that no seat (nor a spectator) finds in its view or its log anything it may
    not know: the seed, another seat's hand, a face-down deck, a hidden dial, a secret
    choice's options. The secrets come from the referee's state (see
    :mod:`arbiter.testing.secrets`), so a game that forgets to declare or redact one fails.

    Each position: every party's view against the zones, the game's own hidden tokens and
    the seed; each new event as every party sees it against everything that party may not
    know then. Every ``full_every`` positions the whole log again (a redaction that depends
    on the state may change). Without ``zones`` (a game that names none), a token that one
    seat's view holds and a spectator's does not is that seat's alone, and no other seat's
    view may hold it (teams that share a hand need zones)."""

    def __init__(self, zones: sec.Zones | None = None, full_every: int = 25) -> None:
        self.zones = zones
        self.full_every = full_every
        self.positions = 0
        self.checked = 0  # events already checked as each party saw them
        self.unknown: dict[str | None, set[str]] = {}  # what each party did not know before
        self.public: set[str] = set()  # what a spectator's log has told so far

    def __call__(self, match: Match) -> None:
        if match.outcome() is not None:
            assert match.view(REFEREE) == match.state
            self.checked = len(match.items)
            return
        parties: tuple[str | None, ...] = (*match.seats, None)
        referee = sec.plain(match.state)
        everything = sec.texts(_without_frames(referee), keys=False)
        seed = sec.seed_tokens(match.created)
        views = {p: sec.plain(match.view(p)) for p in parties}
        shown = {p: sec.texts(v) for p, v in views.items()}
        full = self.positions % self.full_every == 0
        self.positions += 1
        after = 0 if full else self.checked
        # what a spectator's log tells in this step is public for the seats (a seat's own
        # choice shows its effect's words to everyone); the spectator is held to before
        told_now = sec.texts([sec.plain(e) for *_x, e in match.log(None, after=self.checked)], keys=False)
        for party in parties:
            view = views[party]
            zoned = (sec.from_zones(referee, party, self.zones(referee, party))
                     if self.zones is not None else sec.Secrets(frozenset()))
            declared = match.game.projection.hidden_from(match.state, party)
            found = sec.leaked(zoned, view) + sorted(declared & shown[party])
            assert not found, f"{party}'s view shows what is hidden from it: {found}"
            if self.zones is None:
                for other in match.seats:
                    if other != party:
                        alone = (shown[other] - shown[None]) & shown[party]
                        assert not alone, f"{party}'s view shows {sorted(alone)}, which only {other} may see"
            events = match.log(party, after=after)
            log = [(seq, sec.plain(e)) for seq, _a, e in events]
            text = enc(log).decode()
            for token in seed:
                assert token not in text, f"the referee's seed or salt {token!r} reaches {party}'s log"
            told = sec.texts([e for seq, e in log if seq > self.checked])
            # what the view leaves out counts as secret unless a spectator's log told it before
            # (the words a game's own machinery repeats in public: effect names, field names)
            public = self.public if party is None else self.public | told_now
            unknown = (zoned.tokens | declared | (everything - public - shown[party])) - shown[party]
            # a new event may tell what it moves in or out of sight (a card revealed from a
            # deck, a face-up quest put back face down): a leak is a token hidden both before
            # the command and after it
            hidden = unknown & self.unknown.get(party, unknown)
            self.unknown[party] = unknown
            assert not told & hidden, f"{party}'s log tells {sorted(told & hidden)}, hidden from it"
            if full:
                old = sec.texts([e for _seq, e in log])
                assert not old & declared, f"{party}'s log shows {sorted(old & declared)}, hidden from it"
            for _seq, _a, e in events:
                if isinstance(e, Shuffled):
                    assert set(e.order) <= {"?"}, f"{party}'s log shows the order of the {e.deck}"
        self.public |= told_now
        self.checked = len(match.items)


def _without_frames(obj: Any) -> Any:
    """``obj`` without the frames of pending choices: a frame is the referee's continuation
    of an effect, made of the game's own effect words (seats never see it); what a choice
    hides from other seats is named by the game's zones, which see the whole state."""
    if isinstance(obj, dict):
        return {k: _without_frames(v) for k, v in obj.items() if k != "frame"}
    if isinstance(obj, (list, tuple)):
        return [_without_frames(v) for v in obj]
    return obj


def check_no_leaks(match: Match, zones: sec.Zones | None = None) -> None:
    """:class:`LeakWatch` on one position, its whole log included."""
    LeakWatch(zones)(match)


def check_previews(match: Match, rng: random.Random, zones: sec.Zones | None = None,
                   samples: int = 3) -> int:
    """A dry run by the seat to act shows no token it may not know, no roll it has not seen,
    no shuffle and no reveal, and nothing after its first hidden draw. Returns how many
    previews were checked."""
    seat = rng.choice(match.to_act().seats)
    legal = match.legal_texts(seat)
    hidden = secrets_of(match, seat, zones)
    seen = {e.n for *_, e in match.log(seat) if isinstance(e, DiceRolled)}
    picked = rng.sample(legal, min(samples, len(legal)))
    for text in picked:
        _s, _c, events = match.decide(seat, text)
        shown, rest = match.blind_preview(events, seat)
        told = {t for e in shown for t in tokens(sec.plain(e))}
        assert not told & hidden, f"{text!r}: the preview names {sorted(told & hidden)}"
        for e in shown:
            assert not isinstance(e, (SeedRevealed, Shuffled)), text
            assert not isinstance(e, DiceRolled) or e.manual or e.n in seen, f"{text!r} tells roll {e.n}"
        blind = next((i for i, e in enumerate(events) if isinstance(e, (Shuffled, SeedRevealed))
                      or (isinstance(e, DiceRolled) and not e.manual and e.n not in seen)), None)
        if blind is not None:
            assert len(shown) <= blind and rest, f"{text!r}: the preview runs past a hidden draw"
    return len(picked)


# -- traits -----------------------------------------------------------------------------------

class Seen(msgspec.Struct):
    """Which traits a played game showed."""

    hidden_information: bool = False
    simultaneous: bool = False
    reactions: bool = False
    dice: bool = False
    shuffles: bool = False

    def as_traits(self) -> Traits:
        return Traits(**msgspec.structs.asdict(self))


class TraitWatch:
    """A check that records what a game does and fails on what its traits deny."""

    def __init__(self, traits: Traits, zones: sec.Zones | None = None) -> None:
        self.traits = traits
        self.zones = zones
        self.seen = Seen()
        self._events = 0

    def __call__(self, match: Match) -> None:
        t, seen = self.traits, self.seen
        kind = match.to_act().kind
        if kind == "simultaneous":
            assert t.simultaneous, f"{match.game.id} asks for simultaneous choices but does not declare them"
            seen.simultaneous = True
        if kind == "reaction":
            assert t.reactions, f"{match.game.id} opens a reaction window but does not declare reactions"
            seen.reactions = True
        for _s, _c, ev in match.items[self._events:]:
            if isinstance(ev, DiceRolled):
                assert t.dice, f"{match.game.id} rolls dice ({ev.dice}) but does not declare dice"
                seen.dice = True
            if isinstance(ev, Shuffled):
                assert t.shuffles, f"{match.game.id} shuffles the {ev.deck} but does not declare shuffles"
                seen.shuffles = True
        self._events = len(match.items)
        if match.outcome() is not None:
            return
        state = sec.plain(match.state) if self.zones is not None else None
        for seat in (*match.seats, None):
            declared = match.game.projection.hidden_from(match.state, seat)
            differs = enc(match.view(seat)) != enc(match.state)
            zoned = state is not None and bool(sec.from_zones(state, seat, self.zones(state, seat)).tokens)
            if declared or differs or zoned:
                assert t.hidden_information, (
                    f"{match.game.id} hides something from {seat} but does not declare hidden information")
                # a game with hidden information names its hidden tokens (its previews and
                # redactions are built on them): finish() asks that it did at least once
                seen.hidden_information = seen.hidden_information or bool(declared)

    def finish(self) -> None:
        """Every trait the game declares was seen (after one or more games)."""
        missing = [name for name, on in msgspec.structs.asdict(self.traits).items()
                   if on and not getattr(self.seen, name)]
        assert not missing, (f"declared but never seen: {', '.join(missing)}"
                             + (" (hidden information: hidden_from never named a token)"
                                if "hidden_information" in missing else ""))
