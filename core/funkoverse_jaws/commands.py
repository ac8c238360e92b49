"""The commands of Funkoverse Jaws 100: one typed Struct per command form, their text and
their parsing (with suggestions for typos in verbs and names)."""

from __future__ import annotations

from typing import ClassVar, Union

import msgspec

from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.grammar import closest, command_words, takes
from arbiter.core.funkoverse_jaws.board import is_square_name, square_name
from arbiter.projections.funkoverse_jaws import FJState


class Command(msgspec.Struct, frozen=True):
    """A command; ``verb`` is the first word of its text."""

    verb: ClassVar[str] = ""


# -- setup, turns and the decisions between actions ------------------------------------------

class Place(Command, frozen=True):
    """Setup 11 / Cooldown: put a character on an empty square of its starting area."""

    verb: ClassVar[str] = "place"
    char: str
    square: str


class Choose(Command, frozen=True):
    """Taking a Turn 1: choose a character without an exhausted marker."""

    verb: ClassVar[str] = "choose"
    char: str


class End(Command, frozen=True):
    """Taking a Turn 4: exhaust the character (unused actions are lost)."""

    verb: ClassVar[str] = "end"


class Put(Command, frozen=True):
    """Jaws!: place the target in a square adjacent to the Shark."""

    verb: ClassVar[str] = "put"
    square: str


class Leave(Command, frozen=True):
    """Jaws!: leave the target where it is."""

    verb: ClassVar[str] = "leave"


class Hunt(Command, frozen=True):
    """Veteran Hunter: give or move the Hunted card to a rival character."""

    verb: ClassVar[str] = "hunt"
    rival: str


class NoHunt(Command, frozen=True):
    """Veteran Hunter: keep the Hunted card where it is."""

    verb: ClassVar[str] = "no-hunt"


class Return(Command, frozen=True):
    """Flags: return a character from the rival flag to the starting area."""

    verb: ClassVar[str] = "return"
    char: str


class Done(Command, frozen=True):
    """Flags: return no more characters."""

    verb: ClassVar[str] = "done"


# -- basic actions -------------------------------------------------------------------------

class Move(Command, frozen=True):
    """Basic action Move: to one square (any legal route), or along the squares named."""

    verb: ClassVar[str] = "move"
    squares: tuple[str, ...]


class Challenge(Command, frozen=True):
    """Basic Challenge: 2 dice against an adjacent rival."""

    verb: ClassVar[str] = "challenge"
    target: str
    harpoon: bool = False


class Assist(Command, frozen=True):
    """Assist: stand up an adjacent knocked-down ally."""

    verb: ClassVar[str] = "assist"
    ally: str


class Rally(Command, frozen=True):
    """Rally: a knocked-down character stands up using both actions."""

    verb: ClassVar[str] = "rally"


class Emerge(Command, frozen=True):
    """Submerged: as a basic action, the Shark may emerge."""

    verb: ClassVar[str] = "emerge"


class InteractPoint(Command, frozen=True):
    """Interact with a point marker on or adjacent to the character."""

    verb: ClassVar[str] = "interact"
    letter: str


class InteractMark(Command, frozen=True):
    """Control: place a control marker in the control area the character is in."""

    verb: ClassVar[str] = "interact"
    square: str


class InteractFlip(Command, frozen=True):
    """Control: flip a control marker the character is on or adjacent to."""

    verb: ClassVar[str] = "interact"
    area: str


class UseItem(Command, frozen=True):
    """Doing the Use-Item Action (only items with a number icon need it)."""

    verb: ClassVar[str] = "use"
    item: str


# -- abilities -----------------------------------------------------------------------------

class Swim(Command, frozen=True):
    """The Shark's Swim: move 3; the Shark may emerge."""

    verb: ClassVar[str] = "swim"
    squares: tuple[str, ...]
    emerge: bool = False


class BloodInTheWater(Command, frozen=True):
    """The Shark's Blood in the Water: place it next to a rival; it may emerge."""

    verb: ClassVar[str] = "blood-in-the-water"
    square: str
    emerge: bool = False


class Jaws(Command, frozen=True):
    """The Shark's Jaws!: challenge 5, then you may place the target."""

    verb: ClassVar[str] = "jaws"
    target: str
    harpoon: bool = False


class FarewellAndAdieu(Command, frozen=True):
    """Quint's Farewell and Adieu: move toward the Hunted rival to ``square``, challenge 2."""

    verb: ClassVar[str] = "farewell-and-adieu"
    square: str
    harpoon: bool = False


class CanCrusher(Command, frozen=True):
    """Quint's Can Crusher: range 3, challenge 2 (+1 per status card of yours)."""

    verb: ClassVar[str] = "can-crusher"
    target: str
    harpoon: bool = False


class CompareScars(Command, frozen=True):
    """Quint's Compare Scars: stand up, challenge 2."""

    verb: ClassVar[str] = "compare-scars"
    target: str
    harpoon: bool = False


FJCommand = Union[Place, Choose, End, Put, Leave, Hunt, NoHunt, Return, Done, Move, Challenge, Assist,
                  Rally, Emerge, InteractPoint, InteractMark, InteractFlip, UseItem, Swim,
                  BloodInTheWater, Jaws, FarewellAndAdieu, CanCrusher, CompareScars]

#: Commands that challenge (the Harpoon Gun may go with them).
CHALLENGES = (Challenge, Jaws, FarewellAndAdieu, CanCrusher, CompareScars)
#: Ability commands, by the ability's id in content.json.
ABILITIES = {c.verb: c for c in (Swim, BloodInTheWater, Jaws, FarewellAndAdieu, CanCrusher, CompareScars)}

ALIASES = {"tiger": "tiger-shark", "tigershark": "tiger-shark", "the-shark": "shark",
           "farewell": "farewell-and-adieu", "blood": "blood-in-the-water",
           "crusher": "can-crusher", "scars": "compare-scars", "jaws!": "jaws"}

# `help` in `arbiter play`: every command form with an example (what it is for in brackets).
HELP = (
    ("place CHARACTER SQUARE", "place quint b2   (setup; back from cooldown)"),
    ("choose CHARACTER", "choose swimmer   (take a turn with it)"),
    ("move SQUARE", "move c3   (up to 2; the route is shown)"),
    ("move SQUARE SQUARE ...", "move b2 c3   (each square entered)"),
    ("challenge RIVAL [harpoon]", "challenge tiger-shark   (2 dice)"),
    ("assist ALLY", "assist swimmer   (stand up an adjacent ally)"),
    ("rally", "rally   (stand up, using both actions)"),
    ("emerge", "emerge   (the Shark, a basic action)"),
    ("interact A|B|C|D", "interact A   (an adjacent point marker)"),
    ("interact mark SQUARE", "interact mark e4   (Control: place)"),
    ("interact flip AREA", "interact flip 2   (Control: flip)"),
    ("swim SQUARE [SQUARE ...] [emerge]", "swim g4 emerge   (move 3, may emerge)"),
    ("blood-in-the-water SQUARE [emerge]", "blood c4   (place the Shark by a rival)"),
    ("jaws RIVAL [harpoon]", "jaws quint   (challenge 5, then put/leave)"),
    ("farewell-and-adieu SQUARE [harpoon]", "farewell d5   (toward Hunted, challenge 2)"),
    ("can-crusher RIVAL [harpoon]", "crusher shark   (range 3, challenge 2+)"),
    ("compare-scars RIVAL [harpoon]", "scars shark   (stand up, challenge 2)"),
    ("end", "end   (exhaust: unused actions are lost)"),
    ("put SQUARE | leave", "put e6   (after Jaws!: place the target)"),
    ("hunt RIVAL | no-hunt", "hunt shark   (Veteran Hunter)"),
    ("return CHARACTER | done", "return quint   (Flags: home for 2 points)"),
    ("COMMAND [FACES]", "challenge quint [star star circle circle]: you first"),
)

VERBS = ("place", "choose", "move", "challenge", "assist", "rally", "emerge", "interact", "swim",
         "blood-in-the-water", "jaws", "farewell-and-adieu", "can-crusher", "compare-scars", "use",
         "end", "put", "leave", "hunt", "no-hunt", "return", "done")

SYNTAX = tuple(f"\n  {form:<35} e.g. {example}" for form, example in HELP)

BARE = {End.verb: End, Leave.verb: Leave, NoHunt.verb: NoHunt, Done.verb: Done, Rally.verb: Rally,
        Emerge.verb: Emerge}


def did_you_mean(word: str, known: list[str] | tuple[str, ...]) -> str:
    """'did you mean 'challenge'? ' for a close misspelling, else ''."""
    close = closest(word, known)
    return f"did you mean {close!r}? " if close else ""


def command_text(command: Command) -> str:
    """The canonical text of ``command``: ``parse(state, seat, command_text(c)) == c``."""
    c = command
    if isinstance(c, Place):
        words = [c.char, c.square]
    elif isinstance(c, (Choose, Return)):
        words = [c.char]
    elif isinstance(c, Hunt):
        words = [c.rival]
    elif isinstance(c, Assist):
        words = [c.ally]
    elif isinstance(c, Put):
        words = [c.square]
    elif isinstance(c, Move):
        words = list(c.squares)
    elif isinstance(c, Swim):
        words = list(c.squares) + (["emerge"] if c.emerge else [])
    elif isinstance(c, BloodInTheWater):
        words = [c.square] + (["emerge"] if c.emerge else [])
    elif isinstance(c, FarewellAndAdieu):
        words = [c.square] + (["harpoon"] if c.harpoon else [])
    elif isinstance(c, (Challenge, Jaws, CanCrusher, CompareScars)):
        words = [c.target] + (["harpoon"] if c.harpoon else [])
    elif isinstance(c, InteractPoint):
        words = [c.letter]
    elif isinstance(c, InteractMark):
        words = ["mark", c.square]
    elif isinstance(c, InteractFlip):
        words = ["flip", c.area]
    elif isinstance(c, UseItem):
        words = [c.item]
    else:
        words = []
    return " ".join([c.verb, *words])


def char_name(state: FJState, word: str) -> str:
    cid = ALIASES.get(word, word)
    if cid not in state.chars:
        raise ParseError(f"no character {word!r} in this game",
                         hint="characters: " + ", ".join(state.chars))
    return cid


def square(state: FJState, word: str) -> str:
    if not is_square_name(state.board, word):
        raise ParseError(f"{word!r} is not a square of the {state.board.name} map",
                         hint=f"squares run a1 to {square_name((state.board.columns - 1, state.board.rows - 1))}")
    return word


def parse(state: FJState, seat: str, text: str) -> Command:
    """The command written as ``text``; a form the rulebook forbids is a ``RuleViolation``
    citing the rule, anything else that is not a command a ``ParseError`` with a hint."""
    words = command_words(text, "commands: " + ", ".join(VERBS) + " (help lists them with examples)", lower=True)
    verb = ALIASES.get(words[0], words[0])
    rest = words[1:]

    def arity(lo: int, hi: int | None = None) -> None:
        forms = [f"{form} (e.g. {ex.split('  ')[0].strip()})" for form, ex in HELP if form.split()[0] == verb]
        takes(verb, rest, lo, hi, hint="; ".join(forms))

    def flag(word: str, allowed: str) -> bool:
        """An optional last word: True when it is ``allowed``."""
        if word == allowed:
            return True
        if word == "harpoon":  # the Harpoon Gun works only "when this character challenges"
            raise RuleViolation("FJ-HARPOON", f"{verb} is not a challenge: the Harpoon Gun is used only"
                                              " when its holder challenges a rival")
        if word == "emerge":  # only the Shark's Swim and Blood in the Water say "may emerge"
            raise RuleViolation("FJ-EMERGE", f"{verb} does not let the Shark emerge: emerge is a basic"
                                             " action of its own, and Swim and Blood in the Water may end with it")
        raise ParseError(f"unexpected {word!r} after {verb}", hint=f"only {allowed!r} may follow")

    if verb in BARE:
        arity(0)
        return BARE[verb]()
    if verb == "place":
        arity(2)
        return Place(char_name(state, rest[0]), square(state, rest[1]))
    if verb == "choose":
        arity(1)
        return Choose(char_name(state, rest[0]))
    if verb == "assist":
        arity(1)
        return Assist(char_name(state, rest[0]))
    if verb == "hunt":
        arity(1)
        return Hunt(char_name(state, rest[0]))
    if verb == "return":
        arity(1)
        return Return(char_name(state, rest[0]))
    if verb == "put":
        arity(1)
        return Put(square(state, rest[0]))
    if verb == "move":
        if "emerge" in rest:
            raise RuleViolation("FJ-EMERGE", "a basic move cannot emerge: emerge is a basic action of its own;"
                                             " swim SQUARE emerge and blood-in-the-water SQUARE emerge may end with it")
        if "harpoon" in rest:
            flag("harpoon", "")
        arity(1, 99)
        return Move(tuple(square(state, w) for w in rest))
    if verb in ("challenge", "jaws", "can-crusher", "compare-scars"):
        arity(1, 99)
        if len(rest) > 1 and ALIASES.get(rest[1], rest[1]) in state.chars:
            raise RuleViolation("FJ-ONE-TARGET", f"{verb} challenges one target: \"Unless a rule says otherwise,"
                                                 " you challenge only one target at a time\"")
        arity(1, 2)
        harpoon = len(rest) == 2 and flag(rest[1], "harpoon")
        kind = {"challenge": Challenge, "jaws": Jaws, "can-crusher": CanCrusher, "compare-scars": CompareScars}[verb]
        return kind(char_name(state, rest[0]), harpoon)
    if verb == "swim":
        arity(1, 99)
        if "harpoon" in rest:
            flag("harpoon", "emerge")
        emerge = rest[-1] == "emerge"
        squares = rest[:-1] if emerge else rest
        if not squares:
            raise ParseError("swim needs a square", hint="swim SQUARE [SQUARE ...] [emerge]")
        return Swim(tuple(square(state, w) for w in squares), emerge)
    if verb == "blood-in-the-water":
        arity(1, 2)
        return BloodInTheWater(square(state, rest[0]), len(rest) == 2 and flag(rest[1], "emerge"))
    if verb == "farewell-and-adieu":
        arity(1, 2)
        return FarewellAndAdieu(square(state, rest[0]), len(rest) == 2 and flag(rest[1], "harpoon"))
    if verb == "interact":
        if len(rest) == 1 and rest[0].upper() in "ABCD" and len(rest[0]) == 1:
            return InteractPoint(rest[0].upper())
        if len(rest) == 2 and rest[0] == "mark":
            return InteractMark(square(state, rest[1]))
        if len(rest) == 2 and rest[0] == "flip":
            if rest[1] not in state.board.control_areas:
                raise ParseError(f"no control area {rest[1]!r}", hint="areas: " + ", ".join(state.board.control_areas))
            return InteractFlip(rest[1])
        raise ParseError("interact with a point marker or a control area", hint="interact A; interact mark c4; interact flip 2")
    if verb == "use":
        arity(1)
        if rest[0] not in ("harpoon-gun", "harpoon"):
            raise ParseError(f"no item {rest[0]!r} in this game", hint="items: harpoon-gun")
        return UseItem("harpoon-gun")
    if words[0].isdigit():
        raise ParseError(f"{words[0]} is not a number on the menu", hint="pick a number shown, or type a command (help)")
    close = closest(words[0], VERBS + tuple(ALIASES))
    raise ParseError(f"not a Funkoverse command: {text!r}",
                     hint=(f"did you mean {ALIASES.get(close, close)!r}? " if close else "")
                     + "commands: " + ", ".join(VERBS) + " (help lists them with examples)")
