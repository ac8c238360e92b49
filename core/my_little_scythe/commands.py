"""My Little Scythe commands: small frozen structs, their canonical text and the parser."""

from __future__ import annotations

from typing import Any

import msgspec

from arbiter.core.errors import ParseError
from arbiter.core.grammar import command_words
from arbiter.core.my_little_scythe.board import CASTLE, board_of


class ChooseAction(msgspec.Struct, frozen=True):
    action: str  # a mat action id (move, seek-apples, bake, power-up, pie-cannon, ...)
    pile: str = ""  # power-up: move | make
    source: str = ""  # the Seeker space to pay from first


class Go(msgspec.Struct, frozen=True):
    seeker: int
    path: tuple[str, ...]


class Carry(msgspec.Struct, frozen=True):
    seeker: int
    path: tuple[str, ...]
    apples: int = 0
    gems: int = 0
    reveal: bool = False  # reveal the personality card to deliver fewer (a house card)


class Stay(msgspec.Struct, frozen=True):
    seeker: int


class Dial(msgspec.Struct, frozen=True):
    pies: int
    spells: tuple[str, ...] = ()


class Rejuvenate(msgspec.Struct, frozen=True):
    choice: str  # spell | pies


class Place(msgspec.Struct, frozen=True):
    space: str


class Keep(msgspec.Struct, frozen=True):
    tile: str


class Explore(msgspec.Struct, frozen=True):
    space: str


class LeaveQuests(msgspec.Struct, frozen=True):
    """Leave the quest tokens under your Seekers on the map ("I can grab the token")."""


class QuestOption(msgspec.Struct, frozen=True):
    option: int
    source: str = ""  # pay from this Seeker space first
    on: str = ""  # put gained apples/gems on this Seeker space
    to: str = ""  # the other player's Seeker space that receives a payment


class NoThanks(msgspec.Struct, frozen=True):
    pass


class ClaimTrophy(msgspec.Struct, frozen=True):
    trophy: str  # a trophy id, or "none" to pass (keeping the personality card secret)
    more: tuple[str, ...] = ()  # further trophies (a grand-finale final turn only)
    reveal: bool = False  # reveal the personality card for it


SYNTAX = (
    "move (one action a turn, never the one you took last turn)",
    "seek-apples | seek-gems (e.g. `seek-gems`, then `place R2` for each token found)",
    "bake | cast [from SPACE] (Make/Craft: e.g. `bake`, `cast from T2` pays from that Seeker first)",
    "power-up move|make [from SPACE] (e.g. `power-up move`, then `keep pu-move-03`)",
    "a Make tile's action [from SPACE] (e.g. `pie-cannon`, once the tile covers Power Up)",
    "go SEEKER SPACE [SPACE] (e.g. `go 1 T3 T2`: up to 2 spaces, not carrying)",
    "carry SEEKER SPACE N apples|gems (e.g. `carry 2 T1 3 gems`: 1 space with what is there)",
    "carry SEEKER castle N apples|gems [reveal] (deliver, e.g. `carry 1 castle 4 gems`;"
    " `reveal` plays your personality card)",
    "stay SEEKER (e.g. `stay 2`)",
    "dial N [with SPELL ...] (pie fight, secret: e.g. `dial 3`, `dial 0 with spell-07`)",
    "rejuvenate spell|pies (back at base camp: e.g. `rejuvenate pies`)",
    "explore SPACE | leave quests (a quest token under a Seeker after moving: draw its quest, e.g."
    " `explore T2`, or leave the tokens on the map)",
    "quest 1|2 [from SPACE] [on SPACE] [to SPACE] | no thanks (e.g. `quest 1 on T2`, `quest 2 to M4`)",
    "trophy NAME [reveal] | trophy none (e.g. `trophy pies-8`, `trophy spells-3 reveal`;"
    " a grand-finale final turn may name several: `trophy pies-8 spells-3`)",
    "spaces: T1-T5 M1-M5 S1-S5 F1-F5 R1-R5 D1-D5, portals P1-P6, castle",
)
HINT = ("move | seek-apples | seek-gems | bake | cast | power-up move|make; go N SPACE..; carry N SPACE"
        " [K apples|gems]; stay N; dial N [with SPELL]; rejuvenate spell|pies; place SPACE; keep TILE;"
        " explore SPACE | leave quests; quest 1|2 | no thanks; trophy NAME|none  (type `help` for examples)")


def command_text(c: Any) -> str:
    if isinstance(c, ChooseAction):
        words = [c.action] + ([c.pile] if c.pile else []) + (["from", c.source] if c.source else [])
        return " ".join(words)
    if isinstance(c, Go):
        return f"go {c.seeker} {' '.join(c.path)}"
    if isinstance(c, Carry):
        extra = ([f"{c.apples} apple{'s' if c.apples != 1 else ''}"] if c.apples else []) + (
            [f"{c.gems} gem{'s' if c.gems != 1 else ''}"] if c.gems else [])
        return " ".join([f"carry {c.seeker}", *c.path, *extra] + (["reveal"] if c.reveal else []))
    if isinstance(c, Stay):
        return f"stay {c.seeker}"
    if isinstance(c, Dial):
        return f"dial {c.pies}" + (f" with {' '.join(c.spells)}" if c.spells else "")
    if isinstance(c, Rejuvenate):
        return f"rejuvenate {c.choice}"
    if isinstance(c, Place):
        return f"place {c.space}"
    if isinstance(c, Keep):
        return f"keep {c.tile}"
    if isinstance(c, Explore):
        return f"explore {c.space}"
    if isinstance(c, QuestOption):
        words = [f"quest {c.option}"]
        for k, v in (("from", c.source), ("on", c.on), ("to", c.to)):
            if v:
                words += [k, v]
        return " ".join(words)
    if isinstance(c, NoThanks):
        return "no thanks"
    if isinstance(c, LeaveQuests):
        return "leave quests"
    if isinstance(c, ClaimTrophy):
        return " ".join(["trophy", c.trophy, *c.more] + (["reveal"] if c.reveal else []))
    raise TypeError(f"not a My Little Scythe command: {c!r}")


def _int(word: str, what: str) -> int:
    if not word.isdigit():
        raise ParseError(f"{what} must be a whole number, not {word!r}", hint=HINT)
    return int(word)


def _seeker(word: str) -> int:
    if word not in ("1", "2"):
        raise ParseError(f"Seekers are numbered 1 and 2, not {word!r}", hint=HINT)
    return int(word)


def _space(content: dict[str, Any], word: str) -> str:
    board = board_of(content)
    if word.lower() in ("castle", "castle-everfree", "everfree"):
        return CASTLE
    got = board.lookup.get(word.lower())
    if got is None:
        raise ParseError(f"no space {word!r} on the map of Pomme",
                         hint="spaces are T1-T5, M1-M5, S1-S5, F1-F5, R1-R5, D1-D5, P1-P6 and castle")
    return got


def action_ids(content: dict[str, Any]) -> set[str]:
    ids = {a["id"] for a in content["mat"]}
    ids.update(t["action"]["id"] for t in content["power_ups"] if "action" in t)
    return ids


def parse(content: dict[str, Any], text: str) -> Any:  # noqa: C901 - one verb a branch
    words = command_words(text, HINT)
    low = [w.lower() for w in words]
    verb = low[0]
    if verb in ("make", "craft") and len(low) > 1:  # "make bake" / "craft cast": the section name
        words, low, verb = words[1:], low[1:], low[1]
    if verb in action_ids(content):
        rest = low[1:]
        pile = ""
        if verb == "power-up":
            # a section the rulebook forbids ("Seek cannot be powered up") parses, so that the
            # rules refuse it with MS-POWERUP-SECTION; only a word naming no section is bad input
            if not rest or rest[0] not in ("move", "make", "craft", "seek"):
                raise ParseError("power up which section: `power-up move` or `power-up make`", hint=HINT)
            pile = {"craft": "make"}.get(rest[0], rest[0])
            rest = rest[1:]
        source = ""
        if rest:
            if rest[0] != "from" or len(rest) != 2:
                raise ParseError(f"after {verb!r} only `from SPACE` may follow", hint=HINT)
            source = _space(content, rest[1])
        return ChooseAction(verb, pile, source)
    if verb == "go":
        if len(low) < 3:
            raise ParseError("go needs a Seeker and at least one space: `go 1 T3`", hint=HINT)
        return Go(_seeker(low[1]), tuple(_space(content, w) for w in low[2:]))
    if verb == "carry":
        if len(low) < 3:
            raise ParseError("carry needs a Seeker and a space: `carry 1 T2 2 apples`", hint=HINT)
        seeker = _seeker(low[1])
        reveal = low[-1] == "reveal"
        if reveal:
            low = low[:-1]
        path: list[str] = []
        i = 2
        while i < len(low) and not low[i].isdigit():
            if i + 1 < len(low) and low[i + 1] in ("apple", "apples", "gem", "gems"):
                raise ParseError(f"write the count in digits, not {low[i]!r}: `carry 1 T2 2 apples`", hint=HINT)
            path.append(_space(content, low[i]))
            i += 1
        apples = gems = 0
        while i < len(low):
            if i + 1 >= len(low):
                raise ParseError("give counts as `N apples` or `N gems`", hint=HINT)
            n = _int(low[i], "a count")
            kind = low[i + 1]
            if kind in ("apple", "apples"):
                apples += n
            elif kind in ("gem", "gems"):
                gems += n
            else:
                raise ParseError(f"Seekers carry apples and gems, not {kind!r}", hint=HINT)
            i += 2
        if not path:
            raise ParseError("carry needs a destination space", hint=HINT)
        return Carry(seeker, tuple(path), apples, gems, reveal)
    if verb == "stay" and len(low) == 2:
        return Stay(_seeker(low[1]))
    if verb == "dial":
        if len(low) < 2:
            raise ParseError("dial needs a number of pies: `dial 3`", hint=HINT)
        # a number off the dial (-1, 9) parses, so that the rules refuse it with MS-DIAL-RANGE
        neg = low[1].startswith("-") and low[1][1:].isdigit()
        pies = -int(low[1][1:]) if neg else _int(low[1], "the dial")
        spells: tuple[str, ...] = ()
        if len(low) > 2:
            if low[2] != "with" or len(low) < 4:
                raise ParseError("clip spells with `dial N with spell-01 spell-02`", hint=HINT)
            known = {s["id"] for s in content["spells"]}
            for w in low[3:]:
                if w not in known:
                    # the hint names no card: which spells exist and who holds them is not every seat's to know
                    raise ParseError(f"no magic spell called {w!r}",
                                     hint="clip spells you hold, by the names your board shows them under")
            spells = tuple(low[3:])
        return Dial(pies, spells)
    if verb in ("rejuvenate", "rejuv") and len(low) == 2:
        choice = {"spell": "spell", "spells": "spell", "pies": "pies", "pie": "pies"}.get(low[1])
        if choice is None:
            raise ParseError("rejuvenate with `spell` or `pies`", hint=HINT)
        return Rejuvenate(choice)
    if verb == "place" and len(low) == 2:
        return Place(_space(content, low[1]))
    if verb == "keep" and len(low) == 2:
        known = {t["id"] for t in content["power_ups"]}
        if low[1] not in known:
            raise ParseError(f"no power-up tile called {low[1]!r}", hint="tiles are pu-move-NN and pu-make-NN")
        return Keep(low[1])
    if verb == "explore" and len(low) == 2:
        return Explore(_space(content, low[1]))
    if verb == "quest" and len(low) >= 2:
        # any option number parses: the rules refuse one the card does not have (MS-QUEST-OPTION)
        if not low[1].isdigit():
            raise ParseError("a quest has options 1 and 2 (or say `no thanks`)", hint=HINT)
        kw: dict[str, str] = {}
        rest = low[2:]
        if len(rest) % 2:
            raise ParseError("quest modifiers are `from SPACE`, `on SPACE`, `to SPACE`", hint=HINT)
        for k, v in zip(rest[::2], rest[1::2]):
            field = {"from": "source", "on": "on", "to": "to"}.get(k)
            if field is None or field in kw:
                raise ParseError(f"unexpected {k!r} in a quest choice", hint=HINT)
            kw[field] = _space(content, v)
        return QuestOption(int(low[1]), **kw)
    if low in (["leave", "quests"], ["leave", "quest"], ["no", "quest"], ["no", "quests"], ["skip", "quests"]):
        return LeaveQuests()
    if low in (["no", "thanks"], ["no-thanks"], ["nothanks"]):
        return NoThanks()
    if verb == "trophy":
        known = {t["id"] for t in content["trophies"]}
        names = low[1:]
        reveal = bool(names) and names[-1] == "reveal"
        if reveal:
            names = names[:-1]
        if not names:
            raise ParseError("name the trophy: `trophy pies-8` (or `trophy none` to pass)",
                             hint="trophies: " + ", ".join(sorted(known)))
        if names == ["none"]:
            if reveal:
                raise ParseError("`trophy none` passes and keeps your card secret; it reveals nothing", hint=HINT)
            return ClaimTrophy("none")
        for w in names:
            if w not in known:
                raise ParseError(f"no trophy called {w!r}", hint="trophies: " + ", ".join(sorted(known)))
        # a trophy named twice parses: the rules refuse it ("Each trophy can only be earned once")
        return ClaimTrophy(names[0], tuple(names[1:]), reveal)
    raise ParseError(f"not a My Little Scythe command: {text!r}", hint=HINT)
