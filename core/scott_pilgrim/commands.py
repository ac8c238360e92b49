"""Commands of a battle, their text and their parsing."""

from __future__ import annotations

import difflib
import re
from typing import Any

import msgspec

from arbiter.core.errors import ParseError
from arbiter.core.scott_pilgrim.board import DIRS
from arbiter.projections.scott_pilgrim import SPState

FACES = ("speed", "will", "guts", "health", "magic")
TEAM_VERBS = ("place", "roll", "reroll", "end", "equip", "use", "allow", "pause", "reversal")
BASIC_VERBS = ("move", "punch", "kick", "grab", "recover", "throw", "throw-item")
SPACE = re.compile(r"^[a-z]\d{1,2}$")

FORMS = (
    ("place WHO SPACE | place default", "setup: Good Guys, then Matthew, then his Chicks",
     "place scott b5 | place matthew j4 | place chick1 j5 | place default"),
    ("roll | reroll FACE", "roll; once a turn, reroll all unspent dice showing one FACE",
     "roll | reroll will"),
    ("WHO move SPACE ... [pay DIE ..]", "one adjacent space a step (diagonals too); pushes what is there",
     "scott move c5 d6 e7 pay speed | ramona move c4 c3 pay booster",
     "kim move b6 c7 d8 e8 f8 pay speed will   (dice add up: Speed 3, others 2, booster 2, bonuses)"),
    ("WHO punch|kick TARGET [power]", "1 damage to an adjacent thing; power: 2 dice, +1 damage, 1 XP",
     "ramona punch matthew power | scott kick chick1 pay booster"),
    ("WHO grab OBJECT | WHO throw DIR", "grab an adjacent object; throw it along n ne e se s sw w nw",
     "knives grab speaker-1 | knives throw ne"),
    ("WHO throw ITEM DIR", "throw an item card that can be thrown", "knives throw knives-sais e"),
    ("WHO recover [pay health|magic]", "recover 2 Health (never above the start)", "matthew recover pay magic"),
    ("WHO ABILITY [TARGET] [via SPACE ..] [extra N] [pay DIE ..]", "a special ability or combo",
     "scott judo-throw matthew pay guts guts | scott shadow-kick matthew via d4 e4",
     "matthew fireballs scott chick1:ramona chick2:kim   (CHICK:TARGET: what each Chick hits)"),
    ("chickN move SPACE ...", "after Matthew moves N spaces, each Chick moves exactly N, first",
     "chick1 move i5 h5 | chick2 move j2 j3   (back and forth is fine)"),
    ("matthew throw-item DIR", "the Evil Ex throws the item he drew (1 damage)",
     "matthew throw-item w   (or at once, mid-move: matthew move g4 f4 e4 throw w)"),
    ("equip ITEM WHO | use ITEM WHO", "the Good Guys' items",
     "equip knives-sais knives | use xp-boost scott"),
    ("allow [drop OBJ@SPACE] | pause | reversal", "the Good Guys answer a Bad Guy's ability",
     "allow | allow drop amp@c4 | pause"),
    ("[land T@SPACE] [drop O@SPACE] [knock T@DIR] [items KO@MATE]", "choices (else defaults)",
     "land: a second thing against one wall; drop: where a shielding object falls; knock: an",
     "unclear knockback's line; items: who takes a knocked-out Good Guy's equipped items",
     "scott judo-throw matthew land matthew@k5 pay guts guts | allow items scott@knives"),
    ("end [summon CHICK@SPACE ..]", "end the turn; Matthew places poofed Chicks near him",
     "end | end summon chick1@i4"),
)
# the CLI joins the forms with "; ": each starts on its own line, examples indented below
SYNTAX = tuple(f"\n  {f[0]:<34} {f[1]}" + "".join(f"\n      {x}" for x in f[2:]) for f in FORMS)


class Cmd(msgspec.Struct, frozen=True, kw_only=True):
    verb: str
    who: str = ""
    target: str = ""
    path: tuple[str, ...] = ()
    direction: str = ""
    power: bool = False
    extra: int = 0
    pay: tuple[str, ...] = ()
    card: str = ""
    assign: tuple[tuple[str, str], ...] = ()
    face: str = ""
    # the acting player's choices the rulebook leaves open: (kind, thing, value) with kind
    # knock (THING@DIR), land (THING@SPACE) or drop (OBJECT@SPACE)
    choose: tuple[tuple[str, str, str], ...] = ()


def did_you_mean(word: str, known: list[str]) -> str:
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def hint() -> str:
    return ("place, roll, reroll FACE, WHO move|punch|kick|grab|throw|recover|ABILITY ...,"
            " chickN move, matthew throw-item, equip, use, allow, pause, reversal, end"
            " (type help in play for every form with examples)")


CHOICES = ("knock", "land", "drop", "items")


def choices_text(c: Cmd) -> list[str]:
    out: list[str] = []
    for kind in CHOICES:
        picks = [f"{t}@{v}" for k, t, v in c.choose if k == kind]
        if picks:
            out += [kind, *picks]
    return out


def split_choices(words: list[str], things: set[str]) -> tuple[list[str], tuple[tuple[str, str, str], ...]]:
    """Take ``knock THING@DIR ..``, ``land THING@SPACE ..`` and ``drop OBJECT@SPACE ..`` out
    of a command's words."""
    rest: list[str] = []
    chosen: list[tuple[str, str, str]] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w == "pay":
            rest += words[i:]
            break
        if w not in CHOICES:
            rest.append(w)
            i += 1
            continue
        kind = w
        i += 1
        n = 0
        while i < len(words) and "@" in words[i]:
            thing, value = words[i].split("@", 1)
            if thing not in things:
                raise ParseError(f"{kind} {words[i]}: there is no {thing!r} in this battle")
            if kind == "knock" and value not in DIRS:
                raise ParseError(f"knock {words[i]}: the direction is one of n ne e se s sw w nw")
            if kind == "items" and value not in things:
                raise ParseError(f"items {words[i]}: name the teammate who takes {thing}'s equipped items")
            if kind in ("land", "drop") and not SPACE.match(value):
                raise ParseError(f"{kind} {words[i]}: {value!r} is not a space (e.g. {thing}@k5)")
            if any(k == kind and t == thing for k, t, _ in chosen):
                raise ParseError(f"{kind}: {thing} is named twice")
            chosen.append((kind, thing, value))
            i += 1
            n += 1
        if not n:
            example = {"knock": "matthew@e", "land": "chick1@k5", "drop": "amp@c4",
                       "items": "scott@knives"}[kind]
            raise ParseError(f"'{kind}' needs {example.split('@')[0].upper()}@... after it (e.g. {kind} {example})")
    return rest, tuple(chosen)


def command_text(c: Cmd) -> str:
    if c.verb in ("allow", "pause", "reversal"):
        return " ".join([c.verb, *choices_text(c)])
    if c.verb == "roll":
        return c.verb
    if c.verb == "reroll":
        return f"reroll {c.face}"
    if c.verb == "place":
        return f"place {c.who} {c.target}" if c.who else "place default"
    if c.verb == "end":
        if c.assign:
            return "end summon " + " ".join(f"{a}@{b}" for a, b in c.assign)
        return "end"
    if c.verb in ("equip", "use"):
        return f"{c.verb} {c.card} {c.who}"
    parts = [c.who, c.verb]
    if c.verb == "throw":
        if c.card:
            parts.append(c.card)
        parts.append(c.direction)
    elif c.verb == "throw-item":
        parts.append(c.direction)
    elif c.verb in ("move",):
        parts += list(c.path)
        if c.direction:
            parts += ["throw", c.direction]
    else:
        if c.target:
            parts.append(c.target)
        if c.path:
            parts += ["via", *c.path]
        if c.power:
            parts.append("power")
        if c.extra:
            parts += ["extra", str(c.extra)]
        parts += [f"{a}:{b}" for a, b in c.assign]
    parts += choices_text(c)
    if c.pay:
        parts += ["pay", *c.pay]
    return " ".join(parts)


def parse(state: SPState, seat: str, text: str) -> Cmd:
    """The command written as ``text`` in this battle, or raise ``ParseError``."""
    things = set(state.chars) | set(state.objects)
    items = {i["id"] for i in state.content["items"]}
    return read(text, dict(state.chars), state.content["abilities"], items, things,
                state.content["characters"])


def read(text: str, chars: dict[str, Any], abilities: dict[str, Any], items: set[str],
         things: set[str], boards: dict[str, Any] | None = None) -> Cmd:
    """Read one command. ``chars``: character ids in play; ``things``: targetable ids."""
    words = text.lower().replace(",", " ").split()
    if not words:
        raise ParseError("empty command", hint=hint())
    head = words[0]
    words, choose = split_choices(words, things)
    if choose and head not in chars and head not in ("allow", "reversal"):
        raise ParseError(f"'{head}' takes no knock, land or drop choices", hint=hint())
    if head in ("roll", "allow", "pause", "reversal"):
        if len(words) != 1:
            raise ParseError(f"'{head}' takes nothing after it"
                             + (" but knock/land/drop choices" if head != "roll" else ""), hint=hint())
        return Cmd(verb=head, choose=choose)
    if head == "place":
        if words[1:] == ["default"]:
            return Cmd(verb="place")
        if len(words) != 3 or words[1] not in chars or not SPACE.match(words[2]):
            raise ParseError("write: place CHARACTER SPACE (e.g. place scott b5), or place default")
        return Cmd(verb="place", who=words[1], target=words[2])
    if head == "reroll":
        if len(words) != 2 or words[1] not in FACES:
            raise ParseError("say which icon to reroll: reroll speed|will|guts|health|magic")
        return Cmd(verb="reroll", face=words[1])
    if head == "end":
        if len(words) == 1:
            return Cmd(verb="end")
        if words[1] != "summon":
            raise ParseError("end takes nothing, or 'summon CHICK@SPACE ...'", hint=hint())
        assign = []
        for w in words[2:]:
            if "@" not in w:
                raise ParseError(f"write each summon as chick1@i4, not {w!r}")
            a, b = w.split("@", 1)
            if a not in chars or not SPACE.match(b):
                raise ParseError(f"no Chick {a!r} or no space {b!r}")
            assign.append((a, b))
        return Cmd(verb="end", assign=tuple(assign))
    if head in ("equip", "use"):
        if len(words) != 3:
            raise ParseError(f"write: {head} ITEM CHARACTER", hint=hint())
        card, who = words[1], words[2]
        if card not in items:
            raise ParseError(f"there is no item card {card!r}")
        if who not in chars:
            raise ParseError(f"{who!r} is not a character in this battle")
        return Cmd(verb=head, card=card, who=who)
    if head not in chars:
        known = ["place", "roll", "reroll", "end", "equip", "use", "allow", "pause", "reversal", *chars]
        raise ParseError(f"{head!r} is neither a command nor a character in this battle"
                         + did_you_mean(head, known), hint=hint())
    who = head
    if len(words) < 2:
        raise ParseError(f"what does {who} do?", hint=hint())
    verb = words[1]
    rest = words[2:]
    pay: tuple[str, ...] = ()
    if "pay" in rest:
        i = rest.index("pay")
        pay = tuple(rest[i + 1:])
        rest = rest[:i]
        if not pay:
            raise ParseError("'pay' needs the dice faces (or booster) after it")
        for f in pay:
            if f not in FACES and f != "booster":
                raise ParseError(f"{f!r} is not a die face (speed, will, guts, health, magic) or booster")
    if verb == "move":
        direction = ""
        if "throw" in rest:
            i = rest.index("throw")
            if i + 2 != len(rest) or rest[i + 1] not in DIRS:
                raise ParseError("end the Evil Ex's move with 'throw DIR' (n ne e se s sw w nw):"
                                 " matthew move g4 f4 e4 throw w")
            direction = rest[i + 1]
            rest = rest[:i]
        if not rest or not all(SPACE.match(w) for w in rest):
            raise ParseError("write the spaces of the move in order: scott move c5 d5 e5")
        if choose and not direction:
            raise ParseError("a move knocks nothing back: it takes no knock, land or drop choices")
        return Cmd(verb="move", who=who, path=tuple(rest), pay=pay, direction=direction,
                   choose=choose)
    if verb in ("throw", "throw-item"):
        if not rest or rest[-1] not in DIRS:
            raise ParseError("say the direction: n ne e se s sw w nw")
        card = ""
        if verb == "throw" and len(rest) == 2:
            card = rest[0]
            if card not in items:
                raise ParseError(f"there is no item card {card!r}")
        elif len(rest) != 1:
            raise ParseError(f"write: {who} {verb} [ITEM] DIR")
        return Cmd(verb=verb, who=who, card=card, direction=rest[-1], pay=pay, choose=choose)
    if verb == "recover":
        if rest:
            raise ParseError("recover takes no target")
        if choose:
            raise ParseError("recover takes no knock, land or drop choices")
        return Cmd(verb="recover", who=who, pay=pay)
    if verb not in ("punch", "kick", "grab") and verb not in abilities:
        own = []
        if boards and who in boards:
            b = boards[who]
            own = list(b.get("starter", [])) + list(b.get("advanced", [])) + list(b.get("combos", []))
        raise ParseError(f"{verb!r} is not an action or one of {who}'s abilities"
                         + did_you_mean(verb, ["move", "punch", "kick", "grab", "recover", "throw",
                                               "throw-item", *own]),
                         hint="actions: move, punch, kick, grab, recover, throw"
                              + (f"; {who}'s board: " + ", ".join(own) if own else ""))
    target, path, power, extra, assign = "", [], False, 0, []
    i = 0
    while i < len(rest):
        w = rest[i]
        if w == "power":
            power = True
        elif w == "extra":
            if i + 1 >= len(rest) or not rest[i + 1].isdigit():
                raise ParseError("'extra' takes a number of extra dice")
            extra = int(rest[i + 1])
            i += 1
        elif w == "via":
            i += 1
            while i < len(rest) and SPACE.match(rest[i]):
                path.append(rest[i])
                i += 1
            if not path:
                raise ParseError("'via' needs the spaces to move through")
            continue
        elif ":" in w:
            a, b = w.split(":", 1)
            if a not in chars or b not in things:
                raise ParseError(f"{w!r}: write CHICK:TARGET with names in this battle")
            assign.append((a, b))
        elif w in things:
            if target:
                raise ParseError(f"two targets given ({target}, {w})")
            target = w
        else:
            raise ParseError(f"{w!r} is not a target, a space after via, power, extra N or pay")
        i += 1
    return Cmd(verb=verb, who=who, target=target, path=tuple(path), power=power,
               extra=extra, assign=tuple(assign), pay=pay, choose=choose)
