"""Commands of a battle: one frozen struct a command form, their text and their parsing.

Every struct has ``verb`` (the word that names it: an ability's id for a special ability)
and, where the form takes them, ``choose``: the acting player's choices the rulebook leaves
open, as (kind, thing, value) with kind knock (THING@DIR), land (THING@SPACE), drop
(OBJECT@SPACE) or items (KNOCKED-OUT@MATE).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Union

import msgspec

from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.grammar import closest, command_words
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
     "allow | allow drop amp@c4 | pause | reversal knock matthew@e   (Scott's knockback back)"),
    ("[land T@SPACE] [drop O@SPACE] [knock T@DIR] [items KO@MATE]", "choices (else defaults)",
     "land: a second thing against one wall, chosen by the team whose turn it is;",
     "drop: where a shielding object falls; knock: an unclear knockback's line;",
     "items: who takes a knocked-out Good Guy's equipped items",
     "scott judo-throw matthew land matthew@k5 pay guts guts | allow items scott@knives"),
    ("end [summon CHICK@SPACE ..]", "end the turn; Matthew places poofed Chicks near him",
     "end | end summon chick1@i4"),
)
# the CLI joins the forms with "; ": each starts on its own line, examples indented below
SYNTAX = tuple(f"\n  {f[0]:<34} {f[1]}" + "".join(f"\n      {x}" for x in f[2:]) for f in FORMS)


Choices = tuple[tuple[str, str, str], ...]


class Command(msgspec.Struct, frozen=True, kw_only=True):
    verb: ClassVar[str] = ""


class Place(Command, frozen=True, kw_only=True):
    """Setup: ``place WHO SPACE``, or ``place default`` (who empty)."""
    verb: ClassVar[str] = "place"
    who: str = ""
    target: str = ""


class Roll(Command, frozen=True, kw_only=True):
    verb: ClassVar[str] = "roll"


class Reroll(Command, frozen=True, kw_only=True):
    verb: ClassVar[str] = "reroll"
    face: str


class End(Command, frozen=True, kw_only=True):
    """``end [summon CHICK@SPACE ..]``: Matthew places poofed Chicks as he ends his turn."""
    verb: ClassVar[str] = "end"
    summon: tuple[tuple[str, str], ...] = ()


class Equip(Command, frozen=True, kw_only=True):
    verb: ClassVar[str] = "equip"
    card: str
    who: str


class Use(Command, frozen=True, kw_only=True):
    verb: ClassVar[str] = "use"
    card: str
    who: str


class Allow(Command, frozen=True, kw_only=True):
    verb: ClassVar[str] = "allow"
    choose: Choices = ()


class Pause(Command, frozen=True, kw_only=True):
    verb: ClassVar[str] = "pause"


class Reversal(Command, frozen=True, kw_only=True):
    verb: ClassVar[str] = "reversal"
    choose: Choices = ()


class Move(Command, frozen=True, kw_only=True):
    """``WHO move SPACE .. [throw DIR] [pay ..]`` (throw: the Evil Ex's drawn item, at once)."""
    verb: ClassVar[str] = "move"
    who: str
    path: tuple[str, ...]
    pay: tuple[str, ...] = ()
    direction: str = ""
    choose: Choices = ()


class Strike(Command, frozen=True, kw_only=True):
    """A punch or kick: ``WHO punch|kick TARGET [power] [pay ..]``."""
    who: str
    target: str
    power: bool = False
    extra: int = 0  # refused by the rules: a punch or kick is powered up, not given extra dice
    pay: tuple[str, ...] = ()
    choose: Choices = ()


class Punch(Strike, frozen=True, kw_only=True):
    verb: ClassVar[str] = "punch"


class Kick(Strike, frozen=True, kw_only=True):
    verb: ClassVar[str] = "kick"


class Grab(Command, frozen=True, kw_only=True):
    verb: ClassVar[str] = "grab"
    who: str
    target: str
    pay: tuple[str, ...] = ()
    choose: Choices = ()


class Recover(Command, frozen=True, kw_only=True):
    verb: ClassVar[str] = "recover"
    who: str
    pay: tuple[str, ...] = ()


class Throw(Command, frozen=True, kw_only=True):
    """``WHO throw DIR`` (the held object) or ``WHO throw ITEM DIR``."""
    verb: ClassVar[str] = "throw"
    who: str
    direction: str
    card: str = ""
    pay: tuple[str, ...] = ()  # refused by the rules: throwing costs no dice
    choose: Choices = ()


class ThrowItem(Command, frozen=True, kw_only=True):
    """``WHO throw-item DIR``: the Evil Ex throws the item card he drew."""
    verb: ClassVar[str] = "throw-item"
    who: str
    direction: str
    pay: tuple[str, ...] = ()
    choose: Choices = ()


class Ability(Command, frozen=True, kw_only=True):
    """``WHO ABILITY [TARGET] [via SPACE ..] [extra N] [CHICK:TARGET ..] [pay ..]``."""
    who: str
    ability: str
    target: str = ""
    path: tuple[str, ...] = ()
    power: bool = False  # refused by the rules: only a punch or kick is powered up
    extra: int = 0
    assign: tuple[tuple[str, str], ...] = ()
    pay: tuple[str, ...] = ()
    choose: Choices = ()

    @property
    def verb(self) -> str:  # type: ignore[override]
        return self.ability


Cmd = Union[Place, Roll, Reroll, End, Equip, Use, Allow, Pause, Reversal, Move, Punch, Kick,
            Grab, Recover, Throw, ThrowItem, Ability]
REACTIONS = (Allow, Pause, Reversal)


def choices_of(c: Any) -> Choices:
    """The knock/land/drop/items choices a command carries (none for most forms)."""
    return getattr(c, "choose", ())


def did_you_mean(word: str, known: list[str]) -> str:
    close = closest(word, known)
    return f" (did you mean '{close}'?)" if close else ""


def hint() -> str:
    return ("place, roll, reroll FACE, WHO move|punch|kick|grab|throw|recover|ABILITY ...,"
            " chickN move, matthew throw-item, equip, use, allow, pause, reversal, end"
            " (type help in play for every form with examples)")


CHOICES = ("knock", "land", "drop", "items")


def choices_text(c: Any) -> list[str]:
    out: list[str] = []
    for kind in CHOICES:
        picks = [f"{t}@{v}" for k, t, v in choices_of(c) if k == kind]
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


def command_text(c: Any) -> str:
    """The canonical text of a command: ``parse(command_text(c)) == c``."""
    if isinstance(c, REACTIONS):
        return " ".join([c.verb, *choices_text(c)])
    if isinstance(c, Roll):
        return "roll"
    if isinstance(c, Reroll):
        return f"reroll {c.face}"
    if isinstance(c, Place):
        return f"place {c.who} {c.target}" if c.who else "place default"
    if isinstance(c, End):
        return "end summon " + " ".join(f"{a}@{b}" for a, b in c.summon) if c.summon else "end"
    if isinstance(c, (Equip, Use)):
        return f"{c.verb} {c.card} {c.who}"
    parts = [c.who, c.verb]
    if isinstance(c, Throw):
        if c.card:
            parts.append(c.card)
        parts.append(c.direction)
    elif isinstance(c, ThrowItem):
        parts.append(c.direction)
    elif isinstance(c, Move):
        parts += list(c.path)
        if c.direction:
            parts += ["throw", c.direction]
    elif isinstance(c, (Strike, Grab, Ability)):
        parts.append(c.target)
        if isinstance(c, Ability) and c.path:
            parts += ["via", *c.path]
        if getattr(c, "power", False):
            parts.append("power")
        if getattr(c, "extra", 0):
            parts += ["extra", str(c.extra)]
        if isinstance(c, Ability):
            parts += [f"{a}:{b}" for a, b in c.assign]
    parts += choices_text(c)
    if getattr(c, "pay", ()):
        parts += ["pay", *c.pay]
    return " ".join(p for p in parts if p)


def parse(state: SPState, seat: str, text: str) -> Any:
    """The command written as ``text`` in this battle, or raise ``ParseError`` (or
    ``RuleViolation`` for a form the rulebook forbids)."""
    things = set(state.chars) | set(state.objects)
    items = {i["id"] for i in state.content["items"]}
    return read(text, dict(state.chars), state.content["abilities"], items, things,
                state.content["characters"])


def refused(rule_id: str, message: str) -> Exception:
    """A command form the rulebook forbids: refused as illegal, citing its rule."""
    return RuleViolation(rule_id, message)


def no_choices(head: str, choose: Choices) -> None:
    if choose:
        raise refused("SP-CHOICE", f"'{head}' knocks nothing back and drops nothing: it"
                                         " takes no knock, land, drop or items choices")


def sitting_out(who: str, chars: dict[str, Any], boards: dict[str, Any] | None) -> None:
    """A character of the game who is not in this battle is named: the rulebook's "only
    characters in this battle act" refuses it (SP-NOT-IN-PLAY), not a misspelling."""
    if boards and who in boards and who not in chars:
        raise refused("SP-NOT-IN-PLAY", f"{who} is not in this battle (the Good Guys here: "
                      + ", ".join(c for c in chars if boards.get(c, {}).get("team") == "good") + ")")


def read(text: str, chars: dict[str, Any], abilities: dict[str, Any], items: set[str],
         things: set[str], boards: dict[str, Any] | None = None) -> Any:
    """Read one command. ``chars``: character ids in play; ``things``: targetable ids."""
    words = command_words(text.replace(",", " "), hint(), lower=True)
    head = words[0]
    words, choose = split_choices(words, things)
    if head not in chars and head not in ("allow", "reversal"):
        no_choices(head, choose)
    if head in ("roll", "allow", "pause", "reversal"):
        if len(words) != 1:
            raise ParseError(f"'{head}' takes nothing after it"
                             + (" but knock/land/drop choices" if head != "roll" else ""), hint=hint())
        if head == "roll":
            return Roll()
        if head == "pause":
            return Pause()
        return Allow(choose=choose) if head == "allow" else Reversal(choose=choose)
    if head == "place":
        if words[1:] == ["default"]:
            return Place()
        if len(words) != 3 or not SPACE.match(words[2]):
            raise ParseError("write: place CHARACTER SPACE (e.g. place scott b5), or place default")
        if words[1] not in chars:
            sitting_out(words[1], chars, boards)
            raise ParseError(f"{words[1]!r} is not a character in this battle"
                             + did_you_mean(words[1], list(chars)))
        return Place(who=words[1], target=words[2])
    if head == "reroll":
        if len(words) != 2 or words[1] not in FACES:
            raise ParseError("say which icon to reroll: reroll speed|will|guts|health|magic"
                             + (did_you_mean(words[1], list(FACES)) if len(words) == 2 else ""))
        return Reroll(face=words[1])
    if head == "end":
        if len(words) == 1:
            return End()
        if words[1] != "summon":
            raise ParseError("end takes nothing, or 'summon CHICK@SPACE ...'", hint=hint())
        summon = []
        for w in words[2:]:
            if "@" not in w:
                raise ParseError(f"write each summon as chick1@i4, not {w!r}")
            a, b = w.split("@", 1)
            if a not in chars or not SPACE.match(b):
                raise ParseError(f"no Chick {a!r} or no space {b!r}")
            summon.append((a, b))
        return End(summon=tuple(summon))
    if head in ("equip", "use"):
        if len(words) != 3:
            raise ParseError(f"write: {head} ITEM CHARACTER", hint=hint())
        card, who = words[1], words[2]
        if card not in items:
            raise ParseError(f"there is no item card {card!r}" + did_you_mean(card, sorted(items)))
        if who not in chars:
            sitting_out(who, chars, boards)
            raise ParseError(f"{who!r} is not a character in this battle"
                             + did_you_mean(who, list(chars)))
        return Equip(card=card, who=who) if head == "equip" else Use(card=card, who=who)
    if head not in chars:
        sitting_out(head, chars, boards)
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
                raise ParseError(f"{f!r} is not a die face (speed, will, guts, health, magic) or booster"
                                 + did_you_mean(f, [*FACES, "booster"]))
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
        if not direction:
            no_choices("move", choose)
        return Move(who=who, path=tuple(rest), pay=pay, direction=direction, choose=choose)
    if verb in ("throw", "throw-item"):
        if not rest or rest[-1] not in DIRS:
            raise ParseError("say the direction: n ne e se s sw w nw"
                             + (did_you_mean(rest[-1], list(DIRS)) if rest else ""))
        card = ""
        if verb == "throw" and len(rest) == 2:
            card = rest[0]
            if card not in items:
                raise ParseError(f"there is no item card {card!r}" + did_you_mean(card, sorted(items)))
        elif len(rest) != 1:
            raise ParseError(f"write: {who} {verb} [ITEM] DIR")
        if verb == "throw-item":
            return ThrowItem(who=who, direction=rest[-1], pay=pay, choose=choose)
        return Throw(who=who, card=card, direction=rest[-1], pay=pay, choose=choose)
    if verb == "recover":
        if rest:
            raise refused("SP-RECOVER", f"{who} recovers their own Health: recover takes no target")
        no_choices("recover", choose)
        return Recover(who=who, pay=pay)
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
            sitting_out(w, chars, boards)
            raise ParseError(f"{w!r} is not a target, a space after via, power, extra N or pay"
                             + did_you_mean(w, sorted(things) + ["power", "extra", "via", "pay"]))
        i += 1
    if verb in ("punch", "kick", "grab"):
        if path:
            raise refused("SP-ABILITY-MOVE", f"a {verb} does not move: move first, then {verb}")
        if assign:
            raise refused("SP-CHICK-TARGET", f"a {verb} gives the Chicks nothing to do")
        if verb == "grab":
            if power:
                raise refused("SP-POWER-UP", "only a punch or kick can be powered up")
            if extra:
                raise refused("SP-DICE-COST", "grabbing an object costs one Will die (or booster)")
            return Grab(who=who, target=target, pay=pay, choose=choose)
        kind = Punch if verb == "punch" else Kick
        return kind(who=who, target=target, power=power, extra=extra, pay=pay, choose=choose)
    return Ability(who=who, ability=verb, target=target, path=tuple(path), power=power,
                   extra=extra, assign=tuple(assign), pay=pay, choose=choose)
