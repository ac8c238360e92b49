"""Monster Derby's state: the track, the monsters on it, the agendas, whose turn it is."""

from __future__ import annotations

from typing import Any

import msgspec

from arbiter.events.base import Event, GameCreated
from arbiter.events.monster_derby import (
    EVENTS, AbilityCopied, AgendaKept, CursePending, AgendasDealt, Attacked, ControlEnded, Damaged, EffectGained,
    EffectSpent, GameEnded, MarkerTaken, MonsterControlled, MonsterDied, MonsterFinished,
    MonsterMoved, MonsterPlaced, MovementRolled, Recovered, RoundBegan, RoundEnded,
    StartingPlayerChosen, TrackLaid, TurnBegan,
)
from arbiter.projections.kernel import Base, Decision, Outcome, by_type

r = msgspec.structs.replace

# the rulebook's words for abilities, wacky effects and effect clips (Ability Summary)
LABEL = {"none": "none", "flies": "Flies", "double_move": "2x move", "attack_360": "360 Attack",
         "attack_again": "Attack Again", "attack_dice_hp": "Attack Dice = Hit Points", "blast": "Blast",
         "brushwalker": "Brushwalker", "call": "Call", "charge": "Charge", "copy": "Copy (house)",
         "counter_strike": "Counter-Strike", "minus_one": "-1 Damage", "plus_one": "+1 Damage",
         "half_damage": "1/2 Damage", "rage": "Rage", "poison": "Poison", "webs": "Webs",
         "curse": "Curse (back 3)", "stun": "Stun", "dodge": "Dodge"}


def label(word: str) -> str:
    """An ability or effect in the rulebook's words (an unknown one, from a user's content
    file, with its underscores read as spaces)."""
    return LABEL.get(word, word.replace("_", " "))


class Monster(msgspec.Struct, frozen=True):
    """A monster card in its coloured stand, with its hit point clip and coloured clips."""

    id: str
    name: str
    colour: str
    hp: int
    max_hp: int
    attack: int
    natives: tuple[str, ...]
    ability: str
    wacky_attack: str
    wacky_defense: str
    space: str
    status: str = "racing"  # racing | finished | dead
    turned: bool = False  # rotated 90 degrees: controlled this round
    effects: dict[str, int] = {}  # coloured clips: effect -> last round it lasts (0: until used)
    copied: str = ""  # the Doppelganger's copied ability, for the rest of its turn


class Control(msgspec.Struct, frozen=True):
    """The monster being controlled right now and what it has done this turn."""

    monster: str
    points: int
    die: int
    can_move: bool
    can_attack: bool
    moved: bool = False
    walked: bool = False
    flown: bool = False
    stopover: bool = False  # a flyer landed short on its way and must attack before flying on
    attacks: int = 0
    recovered: bool = False
    extra_attack: bool = False  # Attack Again still available
    called: bool = False
    copied: bool = False
    stunned: bool = False


class MDState(msgspec.Struct, frozen=True):
    seats: tuple[str, ...]
    options: dict[str, Any]
    deck: tuple[str, ...]  # every monster id in the game's content (for parsing names)
    # where the public components come from ("house", "rulebook+house"), so that a player sees
    # which monsters and boards the rulebook does not give; agendas are secret and all alike
    sources: dict[str, str] = {}
    agendas_source: str = ""
    lanes: int = 5
    columns: int = 0
    rows: tuple[str, ...] = ()
    layout: tuple[str, ...] = ()
    monsters: dict[str, Monster] = {}
    order: tuple[str, ...] = ()  # monsters in starting-block order
    dealt: dict[str, tuple[str, ...]] = {}  # secret: agenda cards dealt to each seat
    dealt_points: dict[str, tuple[dict[str, tuple[int, ...]], ...]] = {}  # secret: what those cards pay
    terrain: dict[str, str] = {}  # terrain letter -> terrain name
    kept: dict[str, str] = {}  # secret: the agenda each seat kept
    kept_points: dict[str, dict[str, tuple[int, ...]]] = {}  # secret: colour -> points of the kept agenda
    phase: str = "setup"  # setup | agendas | play | over
    round: int = 0
    starter: str = ""
    current: str = ""
    marker: str = "held"  # held (by the starter) | available | claimed
    marker_taker: str = ""
    die: int = 0  # this turn's movement die (0: not rolled yet)
    control: Control | None = None
    curse: CursePending | None = None  # a curse waiting for the controlling player's path back
    finishes: tuple[str, ...] = ()
    graves: dict[str, str] = {}
    reason: str = ""
    scores: dict[str, int] = {}
    winners: tuple[str, ...] = ()
    attacks: int = 0
    # the last monster turn that ended: (seat, monster, reason), until someone chooses anew;
    # a command for it afterwards is refused by the rule that ended it, not as out of turn
    ended: tuple[str, ...] = ()

    def racing(self) -> list[Monster]:
        return [self.monsters[m] for m in self.order if self.monsters[m].status == "racing"]


def _monster(state: MDState, mid: str, **changes: Any) -> MDState:
    return r(state, monsters={**state.monsters, mid: r(state.monsters[mid], **changes)})


def _track_laid(state: MDState, event: TrackLaid) -> MDState:
    return r(state, layout=event.layout, rows=event.rows, lanes=len(event.rows),
             columns=len(event.rows[0]) if event.rows else 0)


def _monster_placed(state: MDState, event: MonsterPlaced) -> MDState:
    m = Monster(id=event.monster, name=event.name, colour=event.colour, hp=event.hp,
                max_hp=event.hp, attack=event.attack, natives=event.natives,
                ability=event.ability, wacky_attack=event.wacky_attack,
                wacky_defense=event.wacky_defense, space=event.space)
    order = state.order if event.monster in state.order else state.order + (event.monster,)
    return r(state, monsters={**state.monsters, event.monster: m}, order=order)


def _agendas_dealt(state: MDState, event: AgendasDealt) -> MDState:
    return r(state, dealt={**state.dealt, event.seat: event.cards}, phase="agendas",
             dealt_points={**state.dealt_points, event.seat: event.points})


def _agenda_kept(state: MDState, event: AgendaKept) -> MDState:
    return r(state, kept={**state.kept, event.seat: event.agenda},
             kept_points={**state.kept_points, event.seat: dict(event.points)})


def _starting_player_chosen(state: MDState, event: StartingPlayerChosen) -> MDState:
    return r(state, starter=event.seat, marker_taker=event.seat)


def _round_began(state: MDState, event: RoundBegan) -> MDState:
    monsters = {k: r(m, turned=False,
                     effects={e: u for e, u in m.effects.items() if u == 0 or u >= event.round})
                for k, m in state.monsters.items()}
    return r(state, phase="play", round=event.round, starter=event.starter,
             current=event.starter, marker="available", marker_taker="",
             monsters=monsters, die=0, control=None)


def _turn_began(state: MDState, event: TurnBegan) -> MDState:
    return r(state, current=event.seat, die=0, control=None)


def _movement_rolled(state: MDState, event: MovementRolled) -> MDState:
    return r(state, die=event.value)


def _marker_taken(state: MDState, event: MarkerTaken) -> MDState:
    return r(state, marker="claimed", marker_taker=event.seat, ended=())


def _monster_controlled(state: MDState, event: MonsterControlled) -> MDState:
    c = Control(monster=event.monster, points=event.points, die=state.die,
                can_move=event.can_move, can_attack=event.can_attack)
    return r(_monster(state, event.monster, turned=True), control=c, ended=())


def _curse_pending(state: MDState, event: CursePending) -> MDState:
    return r(state, curse=event)


def _monster_moved(state: MDState, event: MonsterMoved) -> MDState:
    s = _monster(state, event.monster, space=event.to)
    if event.kind == "curse":
        s = r(s, curse=None)
    c = state.control
    if c is not None and c.monster == event.monster and event.kind in ("walk", "fly"):
        fly = event.kind == "fly"
        c = r(c, points=c.points - event.cost, moved=True, walked=c.walked or not fly,
              flown=c.flown or (fly and not event.stop), stopover=fly and event.stop)
        s = r(s, control=c)
    elif c is not None and event.kind == "call":
        s = r(s, control=r(c, called=True))
    return s


def _monster_finished(state: MDState, event: MonsterFinished) -> MDState:
    return r(_monster(state, event.monster, status="finished", space="finish"),
             finishes=state.finishes + (event.monster,))


def _recovered(state: MDState, event: Recovered) -> MDState:
    s = _monster(state, event.monster, hp=event.hp)
    c = state.control
    if c is not None and c.monster == event.monster:
        s = r(s, control=r(c, recovered=True))
    return s


def _attacked(state: MDState, event: Attacked) -> MDState:
    s = r(state, attacks=state.attacks + 1)
    c = state.control
    if c is not None and c.monster == event.attacker and event.kind == "attack":
        s = r(s, control=r(c, attacks=c.attacks + 1, stopover=False))
    return s


def _damaged(state: MDState, event: Damaged) -> MDState:
    return _monster(state, event.monster, hp=event.hp)


def _monster_died(state: MDState, event: MonsterDied) -> MDState:
    s = _monster(state, event.monster, status="dead", hp=0)
    return r(s, graves={**state.graves, event.monster: event.space})


def _effect_gained(state: MDState, event: EffectGained) -> MDState:
    c = state.control
    if event.effect == "attack_again" and c is not None and c.monster == event.monster:
        return r(state, control=r(c, extra_attack=True))
    if event.effect == "stun" and c is not None and c.monster == event.monster:
        state = r(state, control=r(c, stunned=True))
    m = state.monsters[event.monster]
    return _monster(state, event.monster, effects={**m.effects, event.effect: event.until_round})


def _effect_spent(state: MDState, event: EffectSpent) -> MDState:
    m = state.monsters[event.monster]
    return _monster(state, event.monster,
                    effects={e: u for e, u in m.effects.items() if e != event.effect})


def _ability_copied(state: MDState, event: AbilityCopied) -> MDState:
    s = _monster(state, event.monster, copied=event.ability)
    c = state.control
    if c is not None and c.monster == event.monster:
        s = r(s, control=r(c, points=c.points + event.points, copied=True))
    return s


def _control_ended(state: MDState, event: ControlEnded) -> MDState:
    monsters = {k: (r(m, effects={e: u for e, u in m.effects.items() if e != "stun"}, copied="")
                    if "stun" in m.effects or m.copied else m) for k, m in state.monsters.items()}
    return r(state, control=None, monsters=monsters,
             ended=(state.current, event.monster, event.reason))


def _round_ended(state: MDState, event: RoundEnded) -> MDState:
    return r(state, control=None, die=0)


def _game_ended(state: MDState, event: GameEnded) -> MDState:
    return r(state, phase="over", reason=event.reason, scores=dict(event.scores),
             winners=event.winners, control=None,
             kept={**state.kept, **event.agendas})


#: how each of the game's events changes the state (any other event changes nothing)
_EVOLVE: dict[type, Any] = {
    TrackLaid: _track_laid,
    MonsterPlaced: _monster_placed,
    AgendasDealt: _agendas_dealt,
    AgendaKept: _agenda_kept,
    StartingPlayerChosen: _starting_player_chosen,
    RoundBegan: _round_began,
    TurnBegan: _turn_began,
    MovementRolled: _movement_rolled,
    MarkerTaken: _marker_taken,
    MonsterControlled: _monster_controlled,
    CursePending: _curse_pending,
    MonsterMoved: _monster_moved,
    MonsterFinished: _monster_finished,
    Recovered: _recovered,
    Attacked: _attacked,
    Damaged: _damaged,
    MonsterDied: _monster_died,
    EffectGained: _effect_gained,
    EffectSpent: _effect_spent,
    AbilityCopied: _ability_copied,
    ControlEnded: _control_ended,
    RoundEnded: _round_ended,
    GameEnded: _game_ended,
}


class MonsterDerbyProjection(Base[MDState]):
    events = EVENTS
    sql_views = (
        ("md_attacks",
         "SELECT game_id, seq, payload->>'$.attacker' AS attacker, payload->>'$.defender' AS defender,"
         " CAST(payload->>'$.dice' AS INTEGER) AS dice, CAST(payload->>'$.hits' AS INTEGER) AS hits,"
         " CAST(payload->>'$.damage' AS INTEGER) AS damage, payload->>'$.wacky' AS wacky,"
         " payload->>'$.kind' AS kind"
         " FROM events WHERE type = 'Attacked'"),
        ("md_finishes",
         "SELECT game_id, payload->>'$.monster' AS monster,"
         " CAST(payload->>'$.place' AS INTEGER) AS \"order\", seq"
         " FROM events WHERE type = 'MonsterFinished'"),
    )

    def initial(self, created: GameCreated) -> MDState:
        content = created.content
        return MDState(seats=created.seats, options=dict(created.options),
                       deck=tuple(m["id"] for m in content.get("monsters", [])),
                       sources={**{m["id"]: str(m.get("source", "")) for m in content.get("monsters", [])},
                                "boards": str((content.get("start_board") or {}).get("source", ""))},
                       agendas_source=str(next(iter(content.get("agendas", [])), {}).get("source", "")),
                       lanes=int(content.get("lanes", 5)),
                       terrain=dict(content.get("terrain", {})),
                       dealt={}, kept={}, kept_points={}, dealt_points={})

    evolve = by_type(_EVOLVE)

    def to_act(self, state: MDState) -> Decision:
        if state.phase == "agendas":
            waiting = tuple(s for s in state.seats if s not in state.kept)
            return Decision("simultaneous", waiting, "keep one of your three agenda cards (secretly)")
        if state.phase == "play":
            if state.curse is not None:
                cursed = state.monsters[state.curse.monster].name
                return Decision("turn", (state.current,), f"walk the cursed {cursed} back 3 spaces")
            if state.control is not None:
                name = state.monsters[state.control.monster].name
                return Decision("turn", (state.current,), f"move the {name} you control")
            if state.die == 0:
                return Decision("turn", (state.current,), "roll the movement die")
            return Decision("turn", (state.current,),
                            f"take the marker or control a monster (rolled {state.die})")
        return Decision("over", ())

    def outcome(self, state: MDState) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(winners=state.winners, scores={k: float(v) for k, v in state.scores.items()},
                       reason=state.reason)

    def view(self, state: MDState, seat: str | None) -> MDState:
        if state.phase == "over":
            return state
        return r(state,
                 dealt={s: (c if s == seat else tuple("?" for _ in c)) for s, c in state.dealt.items()},
                 kept={s: (k if s == seat else "?") for s, k in state.kept.items()},
                 dealt_points={s: (p if s == seat else ()) for s, p in state.dealt_points.items()},
                 kept_points={s: (p if s == seat else {}) for s, p in state.kept_points.items()})

    def redact(self, event: Event, seat: str | None, state: MDState) -> Event | None:
        if state.phase == "over":
            return event
        if isinstance(event, AgendasDealt) and event.seat != seat:
            return r(event, cards=tuple("?" for _ in event.cards), points=())
        if isinstance(event, AgendaKept) and event.seat != seat:
            return r(event, agenda="?", discarded=tuple("?" for _ in event.discarded), points={})
        return event

    def hidden_from(self, state: MDState, seat: str | None) -> set[str]:
        if state.phase == "over":
            return set()
        return {c for s, cards in state.dealt.items() if s != seat for c in cards}

    def describe(self, event: Event, state: MDState | None = None) -> str:
        return describe(event)


def movement_points(n: int) -> str:
    """"1 movement point", "3 movement points"."""
    return f"{n} movement point{'' if n == 1 else 's'}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... (a race's places)."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def describe(event: Event) -> str:
    """One readable log line."""
    e: Any = event
    if isinstance(event, TrackLaid):
        return f"track laid: start board + {', '.join(e.layout)} ({len(e.rows[0])} columns)"
    if isinstance(event, MonsterPlaced):
        return f"the {e.name} ({e.colour}, {e.hp} HP, {e.attack} dice) is placed on {e.space}"
    if isinstance(event, AgendasDealt):
        return f"{e.seat} is dealt 3 agenda cards"
    if isinstance(event, AgendaKept):
        return f"{e.seat} keeps an agenda ({e.agenda})"
    if isinstance(event, StartingPlayerChosen):
        return f"{e.seat} is the starting player"
    if isinstance(event, RoundBegan):
        return f"round {e.round} begins; {e.starter} puts the Starting Player Marker out"
    if isinstance(event, TurnBegan):
        return f"{e.seat}'s turn"
    if isinstance(event, MovementRolled):
        return f"{e.seat} rolls {e.value} on the movement die"
    if isinstance(event, MarkerTaken):
        return f"{e.seat} takes the Starting Player Marker"
    if isinstance(event, MonsterControlled):
        extra = "" if e.can_move else " (too wounded to move)"
        return f"{e.seat} controls the {e.monster}: {movement_points(e.points)}{extra}"
    if isinstance(event, MonsterMoved):
        verb = {"walk": "walks", "fly": "flies", "curse": "is cursed back", "call": "is called"}.get(e.kind, "moves")
        stop = "; it lands on the way to attack" if getattr(e, "stop", False) else ""
        # a Call places the monster and a free curse moves it back: neither spends points
        cost = "" if e.kind in ("call", "curse") and not e.cost else f" (cost {e.cost})"
        return f"the {e.monster} {verb} {e.frm} -> {e.to}{cost}{stop}"
    if isinstance(event, MonsterFinished):
        return f"the {e.monster} crosses the finish line in {ordinal(e.place)} place"
    if isinstance(event, Recovered):
        # "up one number on the track (unless it is at the top already)": the line holds for a
        # monster at the top as well ("he won't recover a hit point because he is at maximum")
        return f"the {e.monster} {'must take' if e.forced else 'takes'} the Recover action: {e.hp} HP"
    if isinstance(event, Attacked):
        # a counter-strike is never counter-struck (MD-HOUSE-COUNTER): its shield says so
        unanswered = " - no counter to a counter-strike" if e.kind == "counter" and e.wacky_defense == "counter_strike" else ""
        w = [f"wacky attack {label(e.wacky_attack)}" if e.wacky_attack else "",
             f"wacky defense {label(e.wacky_defense)}{unanswered}" if e.wacky_defense else ""]
        w = [x for x in w if x]
        face = {"both": "both symbols", "blank": "a blank"}.get(e.wacky, f"the {e.wacky}")
        return (f"the {e.attacker} {'counter-strikes' if e.kind == 'counter' else 'attacks'} the {e.defender}:"
                f" {e.dice} {'die' if e.dice == 1 else 'dice'}, {e.hits} {'hit' if e.hits == 1 else 'hits'},"
                f" the wacky die shows {face}{' (' + ', '.join(w) + ')' if w else ''}, {e.damage} damage")
    if isinstance(event, Damaged):
        return f"the {e.monster} takes {e.amount} damage ({e.cause}); {e.hp} HP left"
    if isinstance(event, MonsterDied):
        return f"the {e.monster} dies; its grave stays on {e.space}"
    if isinstance(event, EffectGained):
        return f"the {e.monster} gains {label(e.effect)}"
    if isinstance(event, EffectSpent):
        return f"the {e.monster} loses {label(e.effect)}"
    if isinstance(event, AbilityCopied):
        return f"the {e.monster} copies the {e.source}'s ability ({label(e.ability)})" + (
            f": +{movement_points(e.points)}" if e.points else "")
    if isinstance(event, CursePending):
        return f"the {e.by} curses the {e.monster}: it must go back 3 spaces (the player chooses the way)"
    if isinstance(event, ControlEnded):
        return f"the {e.monster} is turned{' (' + e.reason + ')' if e.reason else ''}"
    if isinstance(event, RoundEnded):
        return f"round {e.round} ends; every monster rotates back"
    if isinstance(event, GameEnded):
        scores = ", ".join(f"{s} {n:g}" for s, n in e.scores.items()) or "none"
        return f"game over ({e.reason}): {' and '.join(e.winners) or 'nobody'} {'win' if len(e.winners) != 1 else 'wins'}; scores: {scores}"
    from arbiter.projections.kernel import describe_event
    return describe_event(event)
