"""The Game of Star Wars Villainous: Scum and Villainy: its options, content checks and
setup; the rules are in :mod:`.rules` (card abilities in :mod:`.effects`), the commands in
:mod:`.commands`, what may be done now in :mod:`.legal`, the sectors in :mod:`.board`."""

from __future__ import annotations

from typing import Any

from arbiter.core.dice import Rng
from arbiter.core.errors import BadOption
from arbiter.core.game import Game, Option, Traits
from arbiter.core.villainous import bots
from arbiter.core.villainous import commands as C
from arbiter.core.villainous.board import PROJECTION, Table, def_id, instances
from arbiter.core.villainous.content import check_content
from arbiter.core.villainous.legal import legal_commands
from arbiter.core.villainous.rules import decide
from arbiter.events import villainous as ev
from arbiter.events.base import Event, GameCreated
from arbiter.projections.villainous import VState, progress


class Villainous(Game[VState, Any]):
    id = "villainous"
    traits = Traits(hidden_information=True, reactions=True, shuffles=True)
    short = "sv"
    title = "Star Wars Villainous: Scum and Villainy"
    # 2: a Find (or a Swap) that reaches the deck reshuffles the deck alone, not the discard pile with it
    # 3: a card's defeat may not take the Hero Vehicle engaged with the Vehicle the mover is on;
    #    a card removed is not said to be defeated; a Fate Condition is discarded as soon as it is met,
    #    on another player's turn too
    rules_version = "3"
    projection = PROJECTION
    min_seats = 2
    max_seats = 3
    options = (
        Option(name="villains", default="", rule="SV-HOUSE-VILLAINS",
               doc="comma-separated villain per seat, in seat order (cad-bane, seventh-sister, "
                   "boba-fett); empty: Cad Bane, Seventh Sister, Boba Fett in seat order"),
        Option(name="first_player", default="", rule="SV-FIRST-PLAYER", house=False,
               doc="the seat that goes first (the last player to have used the Force, or the "
                   "oldest); empty: the first seat listed. Play then goes on in seat order (both "
                   "house: SV-HOUSE-TURN-ORDER)"),
        Option(name="round_limit", default=0, minimum=0, maximum=200, rule="SV-HOUSE-ROUND-LIMIT",
               house=True,
               doc="house, off by default (0: no limit, as in the rulebook, which plays until an "
                   "Objective is achieved). When this many rounds have been played and nobody has "
                   "achieved their Objective, the game ends and the Villain who has come furthest "
                   "towards it (as a fraction) wins; a tie is shared"),
        Option(name="hunts_per_turn", default=0, minimum=0, maximum=9, rule="SV-HOUSE-HUNT-ONCE",
               house=True,
               doc="house, off by default (0: no limit, as in the rulebook: 'at any time during "
                   "your turn and on any turn'). N: each Bounty's Hunt may be paid at most N "
                   "times a turn"),
        Option(name="card_defeat_is_vanquish", default=True, rule="SV-HOUSE-DEFEAT-IS-VANQUISH",
               doc="house reading: a Hero the Villain defeats with a card counts as vanquished for "
                   "Conditions, Bounties and Fate Conditions (true, the default: 'You may defeat a "
                   "card either through the Vanquish action or by playing a specific card'); "
                   "false: only the Vanquish action vanquishes"),
        Option(name="hunt_turns", default="own", choices=("own", "any"), rule="SV-HOUSE-HUNT-TURNS",
               doc="house reading of when a Bounty's Hunt may be paid ('at any time during your "
                   "turn and on any turn'): own (the default: at any time during your own turns, "
                   "every one of them), any (also on an opponent's turn, whenever you have the "
                   "floor there: when asked about a Condition)"),
        Option(name="condition_windows", default="always", choices=("holders", "always", "never"),
               rule="SV-HOUSE-CONDITION-WINDOW",
               doc="when opponents are asked about Conditions: always (after every trigger, every "
                   "opponent whose Villain deck has a Condition for it, held or not, so no one "
                   "learns who holds one), holders (only a seat holding one: quicker, but it "
                   "reveals that they do), never"),
        Option(name="sectors", default=3, choices=(3,), rule="SV-HOUSE-SECTORS", house=True,
               doc="the box holds 3 Sectors (the component list's '5 Sectors' is a misprint)"),
    )
    syntax = C.SYNTAX
    bots = {"smart": bots.smart}

    def check_content(self, content: dict[str, Any]) -> None:
        check_content(content)

    def setup(self, created: GameCreated, rng: Rng) -> list[Event]:
        """Setup: each player takes a Villain, shuffles both decks, draws 4; the 1st player
        starts with 0 Credits, the 2nd with 1, the 3rd and 4th with 2 (SV-FIRST-PLAYER); play
        goes on in seat order from the first player (SV-HOUSE-TURN-ORDER)."""
        content = created.content
        names = list(content["villains"])
        chosen = [v.strip() for v in str(created.options.get("villains", "")).split(",") if v.strip()]
        if not chosen:
            chosen = names[: len(created.seats)]
        for v in chosen:  # a name mistyped is the first thing to say, whatever the count
            if v not in content["villains"]:
                raise BadOption(f"unknown villain {v!r} (villains: {', '.join(names)})")
        if len(chosen) != len(created.seats):
            raise BadOption(f"option villains names {len(chosen)} villain(s) for {len(created.seats)} players:"
                            f" name one a player, separated by commas (villains: {', '.join(names)})")
        if len(set(chosen)) != len(chosen):
            raise BadOption("each player takes a different Villain")
        seats = tuple(created.seats)
        first = str(created.options.get("first_player", "") or seats[0])
        if first not in seats:
            raise BadOption(f"option first_player: no player {first!r} (players: {', '.join(seats)})")
        k = seats.index(first)
        villains = dict(zip(seats, chosen))
        seats = seats[k:] + seats[:k]
        out: list[Event] = [ev.VillainsAssigned(villains=villains, order=seats)]
        start = list(content.get("starting_credits", [0, 1, 2, 2]))
        for i, seat in enumerate(seats):
            vill = content["villains"][villains[seat]]
            vd = [x for c in vill["villain_deck"] for x in instances(c)]
            fd = [x for c in vill["fate_deck"] for x in instances(c)]
            sv = rng.shuffle(f"villain:{seat}", vd)
            sf = rng.shuffle(f"fate:{seat}", fd)
            out += [sv, sf, ev.CardsDrawn(seat=seat, cards=tuple(sv.order[: int(content.get("hand_size", 4))]))]
            credits = start[min(i, len(start) - 1)]
            if credits:
                out.append(ev.CreditsChanged(seat=seat, amount=credits, why="starting Credits"))
        out.append(ev.TurnBegan(seat=seats[0], round=1))
        out.append(ev.AmbitionChanged(seat=seats[0], amount=1, why="start of turn"))
        return out

    def parse(self, state: VState, seat: str, text: str) -> Any:
        return C.parse(state, seat, text)

    def command_text(self, command: Any) -> str:
        return C.text(command)

    def decide(self, state: VState, seat: str, command: Any, rng: Rng) -> list[Event]:
        return decide(state, seat, command, rng)

    def legal_commands(self, state: VState, seat: str) -> list[Any]:
        return legal_commands(state, seat)

    def command_is_secret(self, state: VState, seat: str, text: str) -> bool | None:
        """Only an answer to a card's choice may name a card taken in secret (a Find into
        the hand); every other command is said aloud at the table (Card Actions)."""
        return None if text.split()[:1] == ["choose"] else False

    def menu_label(self, state: VState, seat: str, text: str) -> str:
        """The cards a menu entry names, by name, each house card labelled house: "play
        cb-embo-1 at coruscant  (Embo, house)"."""
        t = Table(state)
        named = []
        for word in text.replace("on:", " ").replace("/", " ").split():  # choose on:ALLY, AV/HV
            if def_id(word) in t.cards and word not in named:
                named.append(word)
        if not named:
            return text
        notes = [t.card(c)["name"] + (", house" if t.card(c).get("source") == "house" else "") for c in named]
        return f"{text}  ({'; '.join(notes)})"

    def summary(self, state: VState) -> dict[str, Any]:
        return {"rounds": state.round, **{f"{s}:{state.villain.get(s)}": progress(state, s) for s in state.seats}}


GAME = Villainous()
