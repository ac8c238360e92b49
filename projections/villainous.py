"""Star Wars Villainous: the state of a game, folded from its events, and per-seat views.

The state is a frozen struct of plain data (dicts and lists, never changed once made).
``evolve`` applies an event on copies of only the parts it changes, sharing the rest with
the state before; the decider applies each event it emits the same way, so that a
command's later steps see its earlier ones.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from arbiter.events.base import Event, GameCreated, Shuffled
from arbiter.events import villainous as ev
from arbiter.projections.kernel import REFEREE, Base, Decision, Outcome, by_type, describe_seed

#: content by hash: filled by ``initial`` so that deciders can look cards up.
CONTENT: dict[str, dict[str, Any]] = {}


class VState(msgspec.Struct, frozen=True, gc=False):
    # plain data, never in a reference cycle: the cyclic collector need not follow it (a fold
    # makes one an event, and a collection's cost grows with the objects it follows)
    content_hash: str
    options: dict[str, Any]
    seats: list[str]
    order: list[str] = []
    villain: dict[str, str] = {}
    active: str = ""
    round: int = 0
    phase: str = "setup"  # setup, move, act
    credits: dict[str, int] = {}
    ambition: dict[str, int] = {}
    hand: dict[str, list[str]] = {}
    deck: dict[str, Any] = {}  # seat -> list of ids (a count in a seat's view)
    discard: dict[str, list[str]] = {}
    fate_deck: dict[str, Any] = {}
    fate_discard: dict[str, list[str]] = {}
    mover: dict[str, str | None] = {}
    sector: dict[str, dict[str, dict[str, Any]]] = {}  # seat -> card -> {loc, side, ...}
    used: list[int] = []
    bonus: list[str] = []
    hunted: list[str] = []
    pending: list[dict[str, Any]] = []
    window: dict[str, Any] | None = None
    fate: dict[str, Any] | None = None
    targets: dict[str, int] = {}
    rebels: dict[str, int] = {}
    bounties: dict[str, list[str]] = {}
    removed: list[str] = []
    public: list[str] = []
    shown: list[str] = []  # cards in a hand that every seat has seen go there (or revealed)
    known: dict[str, list[str]] = {}
    counter: int = 0
    winners: list[str] = []
    reason: str = ""


# -- evolve: an event copies what it changes and shares the rest with the state before ------
# A state is never changed once made (the decider and the fold both apply events with these
# functions), so each state shares every part an event leaves alone with the state before it
# (an undo frame costs only what its command changed). Each function below applies its event
# on copies of the parts it changes.

_r = msgspec.structs.replace
_PILES = ("hand", "discard", "fate_discard", "deck", "fate_deck")


#: An event's function collects the fields it changes in a plain dict ``d`` (field -> new
#: value) over the state ``s`` it changes, and makes the new state of both at once. A field
#: not changed yet is read from ``s`` (``d[key] if key in d else getattr(s, key)``): shared,
#: so never changed in place.


def _put(s: VState, d: dict[str, Any], key: str, k: str, value: Any) -> None:
    """``d[key][k] = value`` on a copy of ``d[key]``."""
    d[key] = {**(d[key] if key in d else getattr(s, key)), k: value}


def _add(s: VState, d: dict[str, Any], key: str, k: str, card: str) -> None:
    """``card`` on top of ``d[key][k]`` (a hand, a pile), on copies."""
    piles = d[key] if key in d else getattr(s, key)
    d[key] = {**piles, k: piles[k] + [card]}


#: ``public`` as a set, for the ``public`` list it was made of (that very list: a state's lists
#: are never changed once made). A game's public list grows to every card it has, and stays
#: the same list for many events at a time: a card is looked up there at every move.
_PUBLIC: tuple[list[str] | None, frozenset[str]] = (None, frozenset())


def _set_public(public: list[str]) -> tuple[list[str], frozenset[str]]:
    global _PUBLIC
    known = _PUBLIC = (public, frozenset(public))
    return known


def _published(s: VState, d: dict[str, Any], cards: tuple[str, ...]) -> None:
    """Each of ``cards`` (but a hidden one) is public from now on: every seat has seen it."""
    public = d["public"] if "public" in d else s.public
    out = None
    known = _PUBLIC  # one read: another thread may set it meanwhile
    if known[0] is not public:
        known = _set_public(public)
    for c in cards:
        if c and c != "?" and (c not in known[1] if out is None else c not in out):
            if out is None:
                out = public.copy()
            out.append(c)
    if out is not None:
        d["public"] = out


def _taken(s: VState, d: dict[str, Any], card: str, key: str = "", seat: str = "") -> None:
    """Take a card out of where it is (a hand, a pile, a deck, a sector: the cards there
    attached to it or engaged with it no longer are), on copies of what it is taken from.

    A card is in one place at a time: every event that puts a card somewhere takes it from
    where it was first, and a reshuffle gathers a seat's own discard pile (and deck) into
    that deck (``test_fold_sharing`` holds every state of long games to it). So the search
    stops where the card is found, looking first where the event says it comes from
    (``key`` of ``seat``: its hand, its sector...); a card in no place (a Fate card
    revealed, then played) is looked for everywhere, and found nowhere."""
    state = s
    if key == "sector":
        sectors = d["sector"] if "sector" in d else state.sector
        if card in sectors.get(seat, ()):
            _out_of_sector(d, sectors, seat, card)
            return
    elif key:
        piles = d[key] if key in d else getattr(state, key)
        pile = piles.get(seat)
        if isinstance(pile, list) and card in pile:
            d[key] = {**piles, seat: _without(pile, card)}
            return
    for key in _PILES:
        piles = d[key] if key in d else getattr(state, key)
        for seat, pile in piles.items():
            if isinstance(pile, list) and card in pile:
                d[key] = {**piles, seat: _without(pile, card)}
                return
    sectors = d["sector"] if "sector" in d else state.sector
    for seat, cards in sectors.items():
        if card in cards:
            _out_of_sector(d, sectors, seat, card)
            return


def _out_of_sector(d: dict[str, Any], sectors: dict[str, Any], seat: str, card: str) -> None:
    cards = sectors[seat].copy()
    del cards[card]
    # the few cards attached to it or engaged with it (most cards are neither)
    # (every card's entry has its "on" and "engaged": CardPlayed makes it so)
    for c in [c for c, info in cards.items() if (info["on"] or info["engaged"])
              and (info["on"] == card or info["engaged"] == card)]:
        info = cards[c] = cards[c].copy()
        if info.get("on") == card:
            info["on"] = None
        if info.get("engaged") == card:
            info["engaged"] = None
    d["sector"] = {**sectors, seat: cards}


def _from_top(s: VState, d: dict[str, Any], key: str, seat: str, cards: tuple[str, ...]) -> bool:
    """Take ``cards`` off the top of ``seat``'s deck (``key``: deck or fate_deck) when they
    are its top cards, in order (a draw, a reveal), as one copy; False when they are not."""
    piles = d[key] if key in d else getattr(s, key)
    pile = piles.get(seat)
    n = len(cards)
    if not isinstance(pile, list) or len(pile) < n or tuple(pile[:n]) != cards:
        return False
    d[key] = {**piles, seat: pile[n:]}
    return True


def _without(items: list[Any], item: Any) -> list[Any]:
    out = items.copy()
    out.remove(item)
    return out


def _villains_assigned(s: VState, e: ev.VillainsAssigned) -> VState:
    d: dict[str, Any] = {}
    d["villain"] = dict(e.villains)
    d["order"] = list(e.order)
    for key, empty in (("hand", list), ("deck", list), ("discard", list), ("fate_deck", list),
                       ("fate_discard", list), ("known", list), ("bounties", list), ("credits", int),
                       ("ambition", int), ("targets", int), ("rebels", int), ("mover", type(None)),
                       ("sector", dict)):
        m = dict(getattr(s, key))
        for seat in s.seats:
            m[seat] = empty()
        d[key] = m
    return _r(s, **d)


def _shuffled(s: VState, e: Shuffled) -> VState:
    kind, _, seat = e.deck.partition(":")
    if kind == "villain":
        return _r(s, deck={**s.deck, seat: list(e.order)},
                  discard={**s.discard, seat: [c for c in s.discard[seat] if c not in e.order]})
    return _r(s, fate_deck={**s.fate_deck, seat: list(e.order)},
              fate_discard={**s.fate_discard, seat: [c for c in s.fate_discard[seat] if c not in e.order]})


def _cards_drawn(s: VState, e: ev.CardsDrawn) -> VState:
    d: dict[str, Any] = {}
    if len(set(e.cards)) == len(e.cards) and _from_top(s, d, "deck", e.seat, e.cards):
        _put(s, d, "hand", e.seat, s.hand[e.seat] + list(e.cards))
    else:
        for c in e.cards:
            _taken(s, d, c, "deck", e.seat)
            _add(s, d, "hand", e.seat, c)
    shown = s.shown
    for c in e.cards:
        if c in shown:
            shown = _without(shown, c)
    if shown is not s.shown:
        d["shown"] = shown
    return _r(s, **d)


def _credits_changed(s: VState, e: ev.CreditsChanged) -> VState:
    return _r(s, credits={**s.credits, e.seat: max(0, s.credits[e.seat] + e.amount)})


def _ambition_changed(s: VState, e: ev.AmbitionChanged) -> VState:
    return _r(s, ambition={**s.ambition, e.seat: max(0, s.ambition[e.seat] + e.amount)})


def _turn_began(s: VState, e: ev.TurnBegan) -> VState:
    return _r(s, active=e.seat, round=e.round, phase="move", used=[], bonus=[], hunted=[])


def _mover_moved(s: VState, e: ev.MoverMoved) -> VState:
    return _r(s, mover={**s.mover, e.seat: e.to}, phase="act", used=[])


def _action_used(s: VState, e: ev.ActionUsed) -> VState:
    if e.index >= 0:
        return _r(s, used=s.used + [e.index])
    return _r(s, bonus=_without(s.bonus, e.symbol)) if e.symbol in s.bonus else s


def _bonus_action_granted(s: VState, e: ev.BonusActionGranted) -> VState:
    return _r(s, bonus=s.bonus + [e.symbol])


#: where a card an event names comes from, by the event's ``source``: looked at first
_FROM = {"hand": "hand", "discard": "discard", "deck": "deck", "villain-deck": "deck",
         "revealed": "deck", "sector": "sector"}


def _card_played(s: VState, e: ev.CardPlayed) -> VState:
    d: dict[str, Any] = {}
    _taken(s, d, e.card, _FROM.get(e.source, "hand"), e.seat)
    d["counter"] = at = s.counter + 1
    sector = d["sector"] if "sector" in d else s.sector
    d["sector"] = {**sector, e.sector: {**sector[e.sector], e.card: {
        "loc": e.loc, "side": e.side, "on": e.on, "tokens": 0, "targets": 0, "engaged": None,
        "progress": [], "at": at}}}
    _published(s, d, (e.card,))
    return _r(s, **d)


def _card_moved(s: VState, e: ev.CardMoved) -> VState:
    cards = s.sector[e.sector].copy()
    cards[e.card] = {**cards[e.card], "loc": e.to}
    for c in [c for c, info in cards.items() if info["on"] == e.card]:  # what it carries
        cards[c] = {**cards[c], "loc": e.to}
    return _r(s, sector={**s.sector, e.sector: cards})


def _card_discarded(s: VState, e: ev.CardDiscarded) -> VState:
    d: dict[str, Any] = {}
    _taken(s, d, e.card, _FROM.get(e.source, "hand"), e.owner)
    _add(s, d, "discard" if e.pile == "villain" else "fate_discard", e.owner, e.card)
    _published(s, d, (e.card,))
    return _r(s, **d)


def _card_removed_from_game(s: VState, e: ev.CardRemovedFromGame) -> VState:
    d: dict[str, Any] = {}
    _taken(s, d, e.card, _FROM.get(e.source, "hand"), e.owner)
    d["removed"] = s.removed + [e.card]
    _published(s, d, (e.card,))
    return _r(s, **d)


def _card_to_hand(s: VState, e: ev.CardToHand) -> VState:
    d: dict[str, Any] = {}
    _taken(s, d, e.card, _FROM.get(e.source, "hand"), e.seat)
    _add(s, d, "hand", e.seat, e.card)
    if e.source != "deck" or e.card in s.public:  # a card chosen secretly from a deck stays secret
        _published(s, d, (e.card,))
        if e.card not in s.shown:
            d["shown"] = s.shown + [e.card]
    return _r(s, **d)


def _cards_revealed(s: VState, e: ev.CardsRevealed) -> VState:
    d: dict[str, Any] = {}
    _published(s, d, e.cards)
    if e.source == "hand":
        d["shown"] = s.shown + [c for c in e.cards if c not in s.shown]
    return _r(s, **d)


def _cards_looked(s: VState, e: ev.CardsLooked) -> VState:
    known = s.known[e.seat].copy()
    for c in e.cards:
        if c not in known:
            known.append(c)
    return _r(s, known={**s.known, e.seat: known})


def _fate_revealed(s: VState, e: ev.FateRevealed) -> VState:
    d: dict[str, Any] = {}
    if len(set(e.cards)) != len(e.cards) or not _from_top(s, d, "fate_deck", e.target, e.cards):
        for c in e.cards:
            _taken(s, d, c, "fate_deck", e.target)
    fate = s.fate
    if fate and fate["target"] == e.target and fate["by"] == e.by:
        d["fate"] = {**fate, "cards": fate["cards"] + list(e.cards)}
    else:
        d["fate"] = {"by": e.by, "target": e.target, "cards": list(e.cards)}
    _published(s, d, e.cards)
    return _r(s, **d)


def _fate_resolved(s: VState, e: ev.FateResolved) -> VState:
    return _r(s, fate=None)


def _engaged(s: VState, e: ev.Engaged | ev.Disengaged) -> VState:
    on = type(e) is ev.Engaged
    cards = s.sector[e.sector].copy()
    cards[e.ally_vehicle] = {**cards[e.ally_vehicle], "engaged": e.hero_vehicle if on else None}
    cards[e.hero_vehicle] = {**cards[e.hero_vehicle], "engaged": e.ally_vehicle if on else None}
    return _r(s, sector={**s.sector, e.sector: cards})


def _card_info(s: VState, sector: str, card: str, **changes: Any) -> VState:
    """One card's entry in a sector changed (on copies of the sectors, the sector, the entry)."""
    cards = s.sector[sector]
    return _r(s, sector={**s.sector, sector: {**cards, card: {**cards[card], **changes}}})


def _strength_token_placed(s: VState, e: ev.StrengthTokenPlaced) -> VState:
    return _card_info(s, e.sector, e.card, tokens=s.sector[e.sector][e.card]["tokens"] + e.amount)


def _target_placed(s: VState, e: ev.TargetPlaced) -> VState:
    return _card_info(s, e.sector, e.hero, targets=s.sector[e.sector][e.hero]["targets"] + 1)


def _targets_collected(s: VState, e: ev.TargetsCollected) -> VState:
    return _r(s, targets={**s.targets, e.seat: s.targets[e.seat] + e.count})


def _rebel_removed(s: VState, e: ev.RebelRemoved) -> VState:
    return _r(s, rebels={**s.rebels, e.seat: s.rebels[e.seat] + 1})


def _bounty_progressed(s: VState, e: ev.BountyProgressed) -> VState:
    return _card_info(s, e.seat, e.bounty,
                      progress=s.sector[e.seat][e.bounty]["progress"] + [e.requirement])


def _bounty_completed(s: VState, e: ev.BountyCompleted) -> VState:
    d: dict[str, Any] = {}
    _taken(s, d, e.bounty, "sector", e.seat)
    _put(s, d, "bounties", e.seat, s.bounties[e.seat] + [e.bounty])
    return _r(s, **d)


def _hunt_paid(s: VState, e: ev.HuntPaid) -> VState:
    return _r(s, hunted=s.hunted + [e.bounty])


def _choice_opened(s: VState, e: ev.ChoiceOpened) -> VState:
    # the frame as a stored event decodes it (plain lists and dicts, whatever it was built of)
    return _r(s, pending=s.pending + [{"seat": e.seat, "prompt": e.prompt, "options": list(e.options),
                                       "frame": msgspec.to_builtins(e.frame), "secret": e.secret}])


def _choice_made(s: VState, e: ev.ChoiceMade) -> VState:
    return _r(s, pending=s.pending[:-1]) if s.pending else s


def _window_opened(s: VState, e: ev.WindowOpened) -> VState:
    return _r(s, window={"queue": list(e.seats), "trigger": e.trigger, "by": e.by})


def _window_passed(s: VState, e: ev.WindowPassed) -> VState:
    w = s.window
    if w and w["queue"] and w["queue"][0] == e.seat:
        w = {**w, "queue": w["queue"][1:]}
    if w is not None and not w["queue"]:
        w = None
    return s if w is s.window else _r(s, window=w)


def _condition_played(s: VState, e: ev.ConditionPlayed) -> VState:
    d: dict[str, Any] = {}
    _taken(s, d, e.card, "hand", e.seat)
    _add(s, d, "discard", e.seat, e.card)
    _published(s, d, (e.card,))
    if s.window is not None and not s.window["queue"]:
        d["window"] = None
    return _r(s, **d)


def _turn_ended(s: VState, e: ev.TurnEnded) -> VState:
    return _r(s, phase="over-turn")


def _game_won(s: VState, e: ev.GameWon) -> VState:
    return _r(s, winners=list(e.winners), reason=e.reason)


#: how each event changes the state (any other event changes nothing)
_EVOLVE: dict[type, Any] = {
    ev.VillainsAssigned: _villains_assigned, Shuffled: _shuffled, ev.CardsDrawn: _cards_drawn,
    ev.CreditsChanged: _credits_changed, ev.AmbitionChanged: _ambition_changed,
    ev.TurnBegan: _turn_began, ev.MoverMoved: _mover_moved, ev.ActionUsed: _action_used,
    ev.BonusActionGranted: _bonus_action_granted, ev.CardPlayed: _card_played,
    ev.CardMoved: _card_moved, ev.CardDiscarded: _card_discarded,
    ev.CardRemovedFromGame: _card_removed_from_game, ev.CardToHand: _card_to_hand,
    ev.CardsRevealed: _cards_revealed, ev.CardsLooked: _cards_looked,
    ev.FateRevealed: _fate_revealed, ev.FateResolved: _fate_resolved, ev.Engaged: _engaged,
    ev.Disengaged: _engaged, ev.StrengthTokenPlaced: _strength_token_placed,
    ev.TargetPlaced: _target_placed, ev.TargetsCollected: _targets_collected,
    ev.RebelRemoved: _rebel_removed, ev.BountyProgressed: _bounty_progressed,
    ev.BountyCompleted: _bounty_completed, ev.HuntPaid: _hunt_paid,
    ev.ChoiceOpened: _choice_opened, ev.ChoiceMade: _choice_made,
    ev.WindowOpened: _window_opened, ev.WindowPassed: _window_passed,
    ev.ConditionPlayed: _condition_played, ev.TurnEnded: _turn_ended, ev.GameWon: _game_won,
}


class VillainousProjection(Base[VState]):
    events = ev.EVENTS
    sql_views = (
        ("sv_cards_played",
         "SELECT game_id, seq, payload->>'$.seat' AS seat, payload->>'$.sector' AS sector,"
         " payload->>'$.card' AS card, payload->>'$.loc' AS loc, payload->>'$.how' AS how,"
         " payload->>'$.source' AS source, CAST(payload->>'$.cost' AS INTEGER) AS cost,"
         " payload->>'$.cost_kind' AS cost_kind FROM events WHERE type = 'CardPlayed'"),
        ("sv_vanquishes",
         "SELECT game_id, seq, payload->>'$.seat' AS seat, payload->>'$.hero' AS hero,"
         " payload->>'$.loc' AS loc, CAST(payload->>'$.hero_strength' AS INTEGER) AS hero_strength,"
         " CAST(payload->>'$.ally_strength' AS INTEGER) AS ally_strength,"
         " json_array_length(payload->'$.allies') AS allies_used"
         " FROM events WHERE type = 'Vanquished'"),
        ("sv_objectives",
         "SELECT game_id, seq, type, COALESCE(payload->>'$.seat', '') AS seat,"
         " CASE type WHEN 'TargetsCollected' THEN 'targets' WHEN 'RebelRemoved' THEN 'rebels'"
         " ELSE 'bounties' END AS objective,"
         " CASE type WHEN 'TargetsCollected' THEN CAST(payload->>'$.count' AS INTEGER) ELSE 1 END AS progress"
         " FROM events WHERE type IN ('TargetsCollected', 'RebelRemoved', 'BountyCompleted')"),
        ("sv_fate",
         "SELECT game_id, seq, payload->>'$.by' AS by_seat, payload->>'$.target' AS target,"
         " payload->>'$.played' AS played FROM events WHERE type = 'FateResolved'"),
    )

    def prepare(self, created: GameCreated) -> None:
        """Learn the game's content (what ``progress`` and the views read): a game loaded
        from a snapshot is prepared without being set up again."""
        CONTENT[created.content_hash] = created.content

    def initial(self, created: GameCreated) -> VState:
        self.prepare(created)
        return VState(content_hash=created.content_hash, options=dict(created.options),
                      seats=list(created.seats))

    evolve = by_type(_EVOLVE)

    def to_act(self, state: VState) -> Decision:
        if state.winners:
            return Decision("over", ())
        if state.phase == "setup":
            return Decision("over", ())
        if state.pending:
            p = state.pending[-1]
            kind = "turn" if p["seat"] == state.active else "reaction"
            return Decision(kind, (p["seat"],), p["prompt"])
        if state.fate is not None:
            return Decision("turn", (state.active,), "play one of the revealed Fate cards")
        if state.window:
            return Decision("reaction", (state.window["queue"][0],),
                            f"play a Condition ({state.window['by']} "
                            f"{HAPPENINGS.get(state.window['trigger'], words(state.window['trigger']))}) or pass")
        if state.phase == "move":
            return Decision("turn", (state.active,), "move your mover to another location")
        return Decision("turn", (state.active,), "perform an action, or end your turn")

    def outcome(self, state: VState) -> Outcome | None:
        if not state.winners:
            return None
        scores = {s: float(progress(state, s)) for s in state.seats}
        return Outcome(tuple(state.winners), scores, state.reason)

    # -- hidden information ---------------------------------------------------------------

    def hidden_from(self, state: VState, seat: str | None) -> set[str]:
        if seat == REFEREE:
            return set()
        seen = set(state.public)
        if seat in state.known:
            seen |= set(state.known[seat])
        secret: set[str] = set()
        for s in state.seats:
            for key in ("deck", "fate_deck"):
                pile = state.deck.get(s) if key == "deck" else state.fate_deck.get(s)
                if isinstance(pile, list):
                    secret |= set(pile)
            if s != seat:
                secret |= set(state.hand.get(s, []))
        if seat in state.hand:
            secret -= set(state.hand[seat])
        return secret - seen

    def view(self, state: VState, seat: str | None) -> VState:
        if seat == REFEREE:
            return state
        hidden = self.hidden_from(state, seat)
        # another seat's hand: only the cards everyone saw go there (a card drawn from the
        # deck is unknown, even one that was public once and was shuffled back in)
        hand = {s: (list(h) if s == seat else [c if c in state.shown and c not in hidden else "?" for c in h])
                for s, h in state.hand.items()}
        known = {s: (list(k) if s == seat else []) for s, k in state.known.items()}
        pending = []
        for p in state.pending:
            # the frame is the referee's continuation of the effect (what happens after the
            # choice, whoever's card it is): no seat reads it
            p = {**p, "frame": {}}
            if p["secret"] and p["seat"] != seat:
                p["options"] = ["?" for _ in p["options"]]
            pending.append(p)
        return msgspec.structs.replace(
            state, hand=hand, known=known, pending=pending,
            deck={s: len(v) for s, v in state.deck.items()},
            fate_deck={s: len(v) for s, v in state.fate_deck.items()},
        )

    def redact(self, event: Event, seat: str | None, state: VState) -> Event | None:
        if seat == REFEREE:
            return event
        if isinstance(event, ev.CardsDrawn) and event.seat != seat:
            return msgspec.structs.replace(event, cards=tuple("?" for _ in event.cards))
        if isinstance(event, ev.CardToHand) and event.seat != seat and event.card in self.hidden_from(state, seat):
            return msgspec.structs.replace(event, card="?")
        if isinstance(event, ev.CardsLooked) and event.seat != seat:
            return msgspec.structs.replace(event, cards=tuple("?" for _ in event.cards))
        if isinstance(event, ev.ChoiceOpened):
            if event.secret and event.seat != seat:
                return msgspec.structs.replace(event, options=tuple("?" for _ in event.options), frame={})
            return msgspec.structs.replace(event, frame={})  # the referee's continuation
        if isinstance(event, ev.ChoiceMade) and seat != event.seat:
            hidden = self.hidden_from(state, seat)
            if event.choice in hidden:
                return msgspec.structs.replace(event, choice="?")
        return event

    def describe(self, event: Event, state: VState | None = None) -> str:
        """The event in words, each id by its name in this game's own content (``state``)."""
        return describe(event, content_names(state.content_hash if state is not None else None))


def progress(state: Any, seat: str) -> int:
    """How far a seat has come towards its objective (tokens, rebels or bounties)."""
    content = CONTENT.get(state.content_hash, {})
    v = state.villain.get(seat)
    kind = content.get("villains", {}).get(v, {}).get("objective", {}).get("kind", "")
    if kind == "targets":
        return state.targets.get(seat, 0)
    if kind == "rebels":
        return state.rebels.get(seat, 0)
    if kind == "bounties":
        return len(state.bounties.get(seat, []))
    return 0


#: the happenings a Condition answers, as the log says them ("bob may play a Condition:
#: ann plays an Ally"); a kind not listed is said in plain words.
HAPPENINGS = {
    "play_ally": "plays an Ally", "play_item": "plays an Item", "play_effect": "plays an Effect",
    "play_condition": "plays a Condition", "play_vehicle": "plays an Ally Vehicle",
    "play_contact": "plays a Contact", "play_bounty": "plays a Bounty", "play_hero": "has a Hero played",
    "fate_item": "has a Fate Item played", "fate_effect": "has a Fate Effect played",
    "fate_condition": "has a Fate Condition played", "play_hero_vehicle": "has a Hero Vehicle played",
    "vanquish": "vanquishes a Hero", "vanquish_vehicle": "vanquishes a Hero Vehicle",
    "defeat": "defeats a Hero", "move_card": "moves a card", "activate": "activates an ability",
    "collect": "collects Credits", "discard": "discards cards", "hunt": "pays a Hunt",
    "fate": "takes a Fate action", "complete_bounty": "completes a Bounty",
}
#: the action symbols by their names on the Reference Card.
SYMBOLS = {"play": "Play a Credits Card", "ambition": "Ambition", "move": "Move / Maneuver",
           "discard": "Discard Cards", "activate": "Activate an Ability", "vanquish": "Vanquish",
           "fate": "Fate"}


#: event fields that are never a content id (a seat is a player's name; the rest are words)
NOT_NAMED = frozenset({"seat", "sector", "target", "owner", "pile", "why", "source", "how", "side",
                       "symbol", "trigger", "prompt", "choice", "deck", "reason", "kind"})


def words(x: str) -> str:
    """An identifier said in plain words: ``ally_vehicle`` is "ally vehicle"."""
    return str(x).replace("_", " ")


def symbol_name(symbol: str) -> str:
    """``credits:2`` is "Collect Credits (2)"; the others by their Reference Card names."""
    if symbol.startswith("credits:"):
        return f"Collect Credits ({symbol.split(':', 1)[1]})"
    return SYMBOLS.get(symbol, words(symbol))


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


#: content hash -> what :func:`content_names` found in that content
_NAMES: dict[str, dict[str, str]] = {}


def content_names(content_hash: str | None) -> dict[str, str]:
    """Every id of one game's content (its Villains, locations, card definitions) -> its
    name. Only that game's content is asked: another content loaded in the same process
    may give the same id another name. No game (None): only Deep Space is named."""
    if content_hash is None or content_hash not in CONTENT:
        return {"deep-space": "Deep Space"}
    if content_hash not in _NAMES:
        out: dict[str, str] = {"deep-space": "Deep Space"}  # a sector's place for Vehicles, in every content
        for key, villain in CONTENT[content_hash].get("villains", {}).items():
            out.setdefault(key, villain.get("name", key))
            for part in ("locations", "villain_deck", "fate_deck"):
                for item in villain.get(part, []):
                    if "id" in item and "name" in item:
                        out.setdefault(item["id"], item["name"])
        _NAMES[content_hash] = out
    return _NAMES[content_hash]


def name_of(ident: str | None, names: dict[str, str]) -> str:
    """A card (``cb-bounty-droid-2``, one copy of ``cb-bounty-droid``), location or Villain
    by its name; a hidden card ("?") and anything the content does not name stay as they are."""
    if not ident:
        return ident or ""
    if ident in names:
        return names[ident]
    base, dash, copy = ident.rpartition("-")
    return names.get(base, ident) if dash and copy.isdigit() else ident


def describe(e: Event, names: dict[str, str]) -> str:
    """One log line; ``names``: the game's :func:`content_names`."""
    t = type(e).__name__
    if t != "GameCreated" and t != "Shuffled":
        # every id the content names is said by its name (the card, the location, the Villain)
        e = msgspec.structs.replace(e, **{
            k: (tuple(name_of(x, names) for x in v) if isinstance(v, tuple)
                else {s: name_of(x, names) for s, x in v.items()} if isinstance(v, dict) and k == "villains"
                else name_of(v, names) if isinstance(v, str) and k not in NOT_NAMED else v)
            for k, v in msgspec.structs.asdict(e).items()})
    f = msgspec.structs.asdict(e)
    simple = {
        "CardsDrawn": lambda: f"{e.seat} draws {plural(len(e.cards), 'card')}" + (
            "" if all(c == "?" for c in e.cards) else f": {', '.join(e.cards)}"),
        "CreditsChanged": lambda: f"{e.seat} {'gains' if e.amount >= 0 else 'loses'} {plural(abs(e.amount), 'Credit')}"
        + (f" ({e.why})" if e.why else ""),
        "AmbitionChanged": lambda: f"{e.seat} {'gains' if e.amount >= 0 else 'loses'} {abs(e.amount)} Ambition"
        + (f" ({e.why})" if e.why else ""),
        "TurnBegan": lambda: f"round {e.round}: {e.seat}'s turn",
        "MoverMoved": lambda: f"{e.seat} moves the mover to {e.to}",
        "ActionUsed": lambda: f"{e.seat} uses the {symbol_name(e.symbol)} action",
        "CardPlayed": lambda: f"{e.seat} {'places' if e.how == 'placed' else 'plays'} {e.card}"
        + (f" in {e.sector}'s sector" if e.sector != e.seat else "")
        + (f" at {e.loc}" if e.loc and not e.on else "") + (f" on {e.on}" if e.on else ""),
        "CardMoved": lambda: f"{e.card} moves to {e.to} ({e.sector}'s sector)",
        # Discard Cards: "Discard as many cards from your hand as you wish ... onto your
        # Villain discard pile"; the piles are named as the rulebook names them
        "CardDiscarded": lambda: (f"{e.owner} discards {e.card}" if e.source == "hand"
                                  else f"{e.card} goes to {e.owner}'s {e.pile.capitalize()} discard pile"),
        "Vanquished": lambda: f"{e.seat} vanquishes {e.hero} ({e.hero_strength}) at {e.loc} with "
        f"{', '.join(e.allies) or 'a Vehicle'} ({e.ally_strength})",
        "FateRevealed": lambda: f"{e.by} reveals {', '.join(e.cards)} from {e.target}'s Fate deck",
        # Fate: "Choose one of them and play it immediately. Discard the other."
        "FateResolved": lambda: f"{e.by} chooses {e.played} of the revealed Fate cards",
        "GameWon": lambda: f"{' and '.join(e.winners)} {'wins' if len(e.winners) == 1 else 'win'}: {e.reason}",
        "ChoiceOpened": lambda: f"{e.seat} must choose: {e.prompt}",
        "ChoiceMade": lambda: f"{e.seat} chooses " + re.sub(r"[a-z0-9][a-z0-9-]*", lambda m: name_of(m.group(), names),
                                                            e.choice.replace('on:', 'on ').replace('/', ' against ')),
        "VillainsAssigned": lambda: "villains: " + ", ".join(f"{s} plays {v}" for s, v in e.villains.items()),
        "BonusActionGranted": lambda: f"{e.seat} may perform a free {symbol_name(e.symbol)} action",
        "CardRemovedFromGame": lambda: f"{e.card} is removed from the game",
        "CardToHand": lambda: f"{e.card} goes to {e.seat}'s hand (from the {words(e.source).replace('-', ' ')})",
        "CardsRevealed": lambda: f"{e.seat} reveals {', '.join(e.cards)} (from the {words(e.source).replace('-', ' ')})",
        "CardsLooked": lambda: f"{e.seat} looks at {plural(len(e.cards), 'card')} of the {words(e.deck)} deck"
        + ("" if all(c == "?" for c in e.cards) else f": {', '.join(e.cards)}"),
        "Defeated": lambda: f"{e.card} is defeated" + (f" by {e.by}" if e.by else ""),
        "Engaged": lambda: f"{e.ally_vehicle} and {e.hero_vehicle} are engaged ({e.sector}'s Deep Space)",
        "Disengaged": lambda: f"{e.ally_vehicle} disengages from {e.hero_vehicle}",
        "StrengthTokenPlaced": lambda: f"{e.card} gets a {e.amount:+d} Strength token",
        "TargetPlaced": lambda: f"a Target is put on {e.hero}",
        "TargetsCollected": lambda: f"{e.seat} collects {plural(e.count, 'Target')} from {e.hero}",
        "RebelRemoved": lambda: f"{e.seat} permanently removes the Rebel {e.hero}",
        "BountyProgressed": lambda: f"{e.bounty}: Progress requirement {e.requirement + 1} met",
        "BountyCompleted": lambda: f"{e.seat} completes {e.bounty}" + (f" (Reward from {e.contact})" if e.contact else ""),
        # Bounties: "Hunt (X): ... you may pay the cost shown at the start of the card"
        "HuntPaid": lambda: f"{e.seat} hunts with {e.bounty}, paying its Hunt ({e.cost})",
        "WindowOpened": lambda: f"{' or '.join(e.seats)} may play a Condition: {e.by} "
        f"{HAPPENINGS.get(e.trigger, words(e.trigger))}",
        "WindowPassed": lambda: f"{e.seat} passes",
        "ConditionPlayed": lambda: f"{e.seat} plays the Condition {e.card}",
        "TurnEnded": lambda: f"{e.seat} ends the turn",
    }
    if t == "GameCreated":
        opts = ", ".join(f"{k}={v}" for k, v in e.options.items())
        return f"new game: {', '.join(e.seats)}; {describe_seed(e)}; options {opts}; content {e.content_source}"
    if t == "Shuffled":
        kind, _, seat = e.deck.partition(":")
        return f"{seat}'s {kind} deck is shuffled ({len(e.order)} cards)"
    if t in simple:
        return simple[t]()
    return words(t) + ": " + ", ".join(f"{words(k)} {v}" for k, v in f.items() if k != "frame")
