"""My Little Scythe: the state of a game and how each fact changes it."""

from __future__ import annotations

import bisect
from typing import Any

import msgspec

from arbiter.events.base import DiceRolled, Event, GameCreated, Shuffled
from arbiter.events import my_little_scythe as ev
from arbiter.projections.kernel import REFEREE, Base, Decision, Outcome, by_type

BASE = "base"  # a Seeker at its base camp (not a space)
HIDDEN = "?"


class Player(msgspec.Struct, frozen=True, gc=False):
    # gc=False: plain data, as the state that holds it
    camp: int
    seekers: tuple[str, str] = (BASE, BASE)
    friendship: int = 3
    pies: int = 3
    spells: tuple[str, ...] = ()
    personality: str = ""
    personality_revealed: bool = False
    trophies: tuple[str, ...] = ()
    tiles: dict[str, str] = {}  # section (move | make) -> power-up tile id
    last_action: str | None = None  # where the action token sits
    quests: tuple[str, ...] = ()  # completed quest cards kept beside the mat
    rejuvenated: bool = False  # already rejuvenated this turn


class Fight(msgspec.Struct, frozen=True):
    attacker: str
    defender: str
    space: str
    pies: dict[str, int] = {}
    spells: dict[str, tuple[str, ...]] = {}


class Delivery(msgspec.Struct, frozen=True):
    kind: str
    count: int
    need: int


class MSState(msgspec.Struct, frozen=True, gc=False):
    # plain data, never in a reference cycle: the cyclic collector need not follow it (a fold
    # makes one an event, and a collection's cost grows with the objects it follows)
    content: dict[str, Any]
    options: dict[str, Any]
    seats: tuple[str, ...]
    players: dict[str, Player]
    board: dict[str, dict[str, int]]  # space -> {apple, gem, quest: n} (non-zero only)
    supply: dict[str, int]
    order: tuple[str, ...] = ()
    quest_deck: tuple[str, ...] = ()
    spell_deck: tuple[str, ...] = ()
    spell_discard: tuple[str, ...] = ()
    piles: dict[str, tuple[str, ...]] = {}
    active: str | None = None
    turn: int = 0
    final: bool = False  # this turn is a grand-finale final turn
    action: str | None = None
    moving: tuple[int, ...] = ()
    delivery: Delivery | None = None
    delivered: tuple[str, ...] = ()  # kinds delivered this turn (for the delivery trophies)
    fight: Fight | None = None
    pending_fights: tuple[str, ...] = ()  # spaces where a fight follows once moving is done
    rejuv: tuple[str, ...] = ()  # seats owing their rejuvenation choice
    seek: tuple[tuple[str, str], ...] = ()  # (kind, region) still to place
    look: tuple[str, ...] = ()
    look_pile: str = ""
    quest_spaces: tuple[str, ...] = ()
    quest_card: str | None = None
    trophy_choices: tuple[str, ...] = ()
    trophy_seat: str = ""  # who chooses (the active seat, or a defender revealing a card)
    trophy_reveal: tuple[str, ...] = ()  # choices that need the personality card revealed
    trophy_optional: bool = False  # `trophy none` allowed (every choice needs the card)
    declined: tuple[str, ...] = ()  # trophies passed on this turn (card kept secret)
    trophies_this_turn: int = 0
    quests_checked: bool = False
    finale: bool = False
    finale_left: tuple[str, ...] = ()
    ended: bool = False
    winners: tuple[str, ...] = ()
    end_reason: str = ""


def _add(board: dict[str, dict[str, int]], space: str, kind: str, n: int) -> dict[str, dict[str, int]]:
    """``n`` more of ``kind`` on ``space`` (none left: the kind, then the space, goes).

    The spaces, and each space's kinds, are kept in sorted order (the state's bytes follow
    it). Every board is made here from an empty one, so a board is always in order: a count
    changed or a key dropped keeps it so, and only a key added needs a sort."""
    here = board.get(space)
    count = (here.get(kind, 0) if here else 0) + n
    if here is None:
        new = {kind: count} if count else None
    else:
        new = dict(here)
        if not count:
            new.pop(kind, None)
        elif kind in new:
            new[kind] = count
        else:
            new = _inserted(new, kind, count)
    if new:
        if space in board:
            return {**board, space: new}
        return _inserted(board, space, new)
    if space in board:
        out = dict(board)
        del out[space]
        return out
    return board


def _inserted(d: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """``d`` (in sorted order, without ``key``) with ``key`` added in its sorted place."""
    items = list(d.items())
    items.insert(bisect.bisect_left(list(d), key), (key, value))
    return dict(items)


def _sup(supply: dict[str, int], kind: str, n: int) -> dict[str, int]:
    return {**supply, kind: supply.get(kind, 0) + n}


def stock(state: MSState, space: str, kind: str) -> int:
    return state.board.get(space, {}).get(kind, 0)


r = msgspec.structs.replace


def _player(state: MSState, seat: str, **kw: Any) -> dict[str, Player]:
    """The players with ``seat``'s changed."""
    return {**state.players, seat: r(state.players[seat], **kw)}


def _shuffled(state: MSState, e: Shuffled) -> MSState:
    if e.deck == "quests":
        return r(state, quest_deck=e.order)
    if e.deck == "spells":
        return r(state, spell_deck=e.order)
    if e.deck.startswith("power-ups-"):
        return r(state, piles={**state.piles, e.deck[len("power-ups-"):]: e.order})
    return state


def _dice_rolled(state: MSState, e: DiceRolled) -> MSState:
    if e.purpose == "seek":
        return r(state, seek=tuple(zip(e.dice, e.faces)))
    return state


def _setup_tile_placed(state: MSState, e: ev.SetupTilePlaced) -> MSState:
    board, supply = state.board, state.supply
    for space, kinds in e.placed.items():
        for k, n in kinds.items():
            board = _add(board, space, k, n)
            supply = _sup(supply, k, -n)
    return r(state, board=board, supply=supply)


def _personality_dealt(state: MSState, e: ev.PersonalityDealt) -> MSState:
    return r(state, players=_player(state, e.seat, personality=e.card))


def _personality_revealed(state: MSState, e: ev.PersonalityRevealed) -> MSState:
    return r(state, players=_player(state, e.seat, personality_revealed=True))


def _spell_drawn(state: MSState, e: ev.SpellDrawn) -> MSState:
    p = state.players[e.seat]
    deck = tuple(c for c in state.spell_deck if c != e.card)
    return r(state, spell_deck=deck, players=_player(state, e.seat, spells=p.spells + (e.card,)))


def _first_player_chosen(state: MSState, e: ev.FirstPlayerChosen) -> MSState:
    return r(state, order=e.order)


def _turn_started(state: MSState, e: ev.TurnStarted) -> MSState:
    players = state.players
    for p in players.values():  # (a copy only when someone rejuvenated last turn)
        if p.rejuvenated:
            players = {s: r(p, rejuvenated=False) if p.rejuvenated else p for s, p in players.items()}
            break
    left = tuple([s for s in state.finale_left if s != e.seat]) if e.seat in state.finale_left else state.finale_left
    return r(state, active=e.seat, turn=e.turn, final=e.final, action=None, moving=(),
             delivery=None, delivered=(), trophies_this_turn=0, players=players,
             finale_left=left, trophy_choices=(), trophy_seat="", trophy_reveal=(),
             trophy_optional=False, declined=(), quests_checked=False)


def _action_chosen(state: MSState, e: ev.ActionChosen) -> MSState:
    moving = (1, 2) if e.action == "move" else ()
    return r(state, action=e.action, moving=moving, players=_player(state, e.seat, last_action=e.action))


def _seeker_moved(state: MSState, e: ev.SeekerMoved) -> MSState:
    p = state.players[e.seat]
    seekers = list(p.seekers)
    seekers[e.seeker - 1] = e.path[-1]
    board = state.board
    for k, n in e.carried.items():
        board = _add(board, e.path[0], k, -n)
        board = _add(board, e.path[-1], k, n)
    return r(state, board=board, moving=tuple([i for i in state.moving if i != e.seeker]),
             players=_player(state, e.seat, seekers=(seekers[0], seekers[1])))


def _seeker_stayed(state: MSState, e: ev.SeekerStayed) -> MSState:
    return r(state, moving=tuple(i for i in state.moving if i != e.seeker))


def _delivery_started(state: MSState, e: ev.DeliveryStarted) -> MSState:
    return r(state, delivery=Delivery(e.kind, e.count, e.need))


def _delivery_made(state: MSState, e: ev.DeliveryMade) -> MSState:
    board = _add(state.board, "castle", e.kind, -e.count)
    return r(state, board=board, supply=_sup(state.supply, e.kind, e.count), delivery=None,
             delivered=state.delivered + (e.kind,))


def _seekers_sent_home(state: MSState, e: ev.SeekersSentHome) -> MSState:
    p = state.players[e.seat]
    seekers = tuple(BASE if i + 1 in e.seekers else s for i, s in enumerate(p.seekers))
    return r(state, players=_player(state, e.seat, seekers=(seekers[0], seekers[1])))


def _track_moved(state: MSState, e: ev.TrackMoved) -> MSState:
    return r(state, players=_player(state, e.seat, **{e.track: e.after}))


def _pie_fight_pending(state: MSState, e: ev.PieFightPending) -> MSState:
    return r(state, pending_fights=state.pending_fights + (e.space,))


def _pie_fight_called_off(state: MSState, e: ev.PieFightCalledOff) -> MSState:
    return r(state, pending_fights=tuple(x for x in state.pending_fights if x != e.space))


def _pie_fight_started(state: MSState, e: ev.PieFightStarted) -> MSState:
    return r(state, fight=Fight(e.attacker, e.defender, e.space),
             pending_fights=tuple(x for x in state.pending_fights if x != e.space))


def _dial_set(state: MSState, e: ev.DialSet) -> MSState:
    f = state.fight
    assert f is not None
    return r(state, fight=r(f, pies={**f.pies, e.seat: e.pies}, spells={**f.spells, e.seat: e.spells}))


def _pie_fight_revealed(state: MSState, e: ev.PieFightRevealed) -> MSState:
    return r(state, fight=None)


def _spells_discarded(state: MSState, e: ev.SpellsDiscarded) -> MSState:
    p = state.players[e.seat]
    return r(state, spell_discard=state.spell_discard + e.cards,
             players=_player(state, e.seat, spells=tuple(c for c in p.spells if c not in e.cards)))


def _rejuvenation_owed(state: MSState, e: ev.RejuvenationOwed) -> MSState:
    return r(state, rejuv=state.rejuv + (e.seat,))


def _rejuvenated(state: MSState, e: ev.Rejuvenated) -> MSState:
    rejuv = list(state.rejuv)
    if e.seat in rejuv:
        rejuv.remove(e.seat)
    return r(state, rejuv=tuple(rejuv), players=_player(state, e.seat, rejuvenated=True, last_action=None))


def _token_placed(state: MSState, e: ev.TokenPlaced) -> MSState:
    return r(state, board=_add(state.board, e.space, e.kind, 1),
             supply=_sup(state.supply, e.kind, -1), seek=state.seek[1:])


def _token_skipped(state: MSState, e: ev.TokenSkipped) -> MSState:
    return r(state, seek=state.seek[1:])


def _resources_paid(state: MSState, e: ev.ResourcesPaid) -> MSState:
    board, supply = state.board, state.supply
    for space, kinds in e.taken.items():
        for k, n in kinds.items():
            board = _add(board, space, k, -n)
            supply = _sup(supply, k, n)
    return r(state, board=board, supply=supply)


def _resources_moved(state: MSState, e: ev.ResourcesMoved) -> MSState:
    board = state.board
    for space, kinds in e.taken.items():
        for k, n in kinds.items():
            board = _add(board, space, k, -n)
            board = _add(board, e.to_space, k, n)
    return r(state, board=board)


def _resources_gained(state: MSState, e: ev.ResourcesGained) -> MSState:
    board, supply = state.board, state.supply
    for k, n in e.gained.items():
        board = _add(board, e.space, k, n)
        supply = _sup(supply, k, -n)
    return r(state, board=board, supply=supply)


def _power_up_looked(state: MSState, e: ev.PowerUpLooked) -> MSState:
    pile = state.piles[e.pile][len(e.tiles):]
    return r(state, look=e.tiles, look_pile=e.pile, piles={**state.piles, e.pile: pile})


def _power_up_taken(state: MSState, e: ev.PowerUpTaken) -> MSState:
    p = state.players[e.seat]
    rest = tuple(t for t in state.look if t != e.tile)
    kw: dict[str, Any] = {"tiles": {**p.tiles, e.pile: e.tile}}
    if e.pile == "make":
        tile = next(t for t in state.content["power_ups"] if t["id"] == e.tile)
        kw["last_action"] = tile["action"]["id"]
    return r(state, look=(), look_pile="", piles={**state.piles, e.pile: state.piles[e.pile] + rest},
             players=_player(state, e.seat, **kw))


def _quests_pending(state: MSState, e: ev.QuestsPending) -> MSState:
    return r(state, quest_spaces=e.spaces, quests_checked=True)


def _quests_left(state: MSState, e: ev.QuestsLeft) -> MSState:
    return r(state, quest_spaces=())


def _quest_token_taken(state: MSState, e: ev.QuestTokenTaken) -> MSState:
    return r(state, board=_add(state.board, e.space, "quest", -1),
             supply=_sup(state.supply, "quest", 1),
             quest_spaces=tuple(s for s in state.quest_spaces if s != e.space))


def _quest_drawn(state: MSState, e: ev.QuestDrawn) -> MSState:
    return r(state, quest_deck=tuple(c for c in state.quest_deck if c != e.card), quest_card=e.card)


def _quest_deck_rebuilt(state: MSState, e: ev.QuestDeckRebuilt) -> MSState:
    players = {s: (r(p, quests=()) if s in e.taken_from else p) for s, p in state.players.items()}
    return r(state, players=players)


def _quest_resolved(state: MSState, e: ev.QuestResolved) -> MSState:
    p = state.players[e.seat]
    return r(state, quest_card=None, players=_player(state, e.seat, quests=p.quests + (e.card,)))


def _quest_declined(state: MSState, e: ev.QuestDeclined) -> MSState:
    return r(state, quest_card=None, quest_deck=state.quest_deck + (e.card,))


def _trophy_choice_offered(state: MSState, e: ev.TrophyChoiceOffered) -> MSState:
    return r(state, trophy_choices=e.choices, trophy_seat=e.seat, trophy_reveal=e.reveal,
             trophy_optional=e.optional)


def _trophy_declined(state: MSState, e: ev.TrophyDeclined) -> MSState:
    return r(state, trophy_choices=(), trophy_seat="", trophy_reveal=(), trophy_optional=False,
             declined=state.declined + e.trophies)


def _trophy_earned(state: MSState, e: ev.TrophyEarned) -> MSState:
    p = state.players[e.seat]
    # the Pie Fight Victory is outside the one-a-turn limit unless pie_fight_limit=own-turn
    counts = e.seat == state.active and (
        e.trophy != "pie-fight" or state.options.get("pie_fight_limit", "exception") == "own-turn")
    return r(state, players=_player(state, e.seat, trophies=p.trophies + (e.trophy,)), trophy_choices=(),
             trophy_seat="", trophy_reveal=(), trophy_optional=False,
             trophies_this_turn=state.trophies_this_turn + (1 if counts else 0))


def _turn_ended(state: MSState, e: ev.TurnEnded) -> MSState:
    return r(state, active=None, action=None, final=False, moving=(), quest_spaces=())


def _grand_finale_began(state: MSState, e: ev.GrandFinaleBegan) -> MSState:
    return r(state, finale=True, finale_left=e.final_turns)


def _game_ended(state: MSState, e: ev.GameEnded) -> MSState:
    return r(state, ended=True, winners=e.winners, end_reason=e.reason, active=None)


#: how each event changes the state (any other event changes nothing)
_EVOLVE: dict[type, Any] = {
    Shuffled: _shuffled,
    DiceRolled: _dice_rolled,
    ev.SetupTilePlaced: _setup_tile_placed,
    ev.PersonalityDealt: _personality_dealt,
    ev.PersonalityRevealed: _personality_revealed,
    ev.SpellDrawn: _spell_drawn,
    ev.FirstPlayerChosen: _first_player_chosen,
    ev.TurnStarted: _turn_started,
    ev.ActionChosen: _action_chosen,
    ev.SeekerMoved: _seeker_moved,
    ev.SeekerStayed: _seeker_stayed,
    ev.DeliveryStarted: _delivery_started,
    ev.DeliveryMade: _delivery_made,
    ev.SeekersSentHome: _seekers_sent_home,
    ev.TrackMoved: _track_moved,
    ev.PieFightPending: _pie_fight_pending,
    ev.PieFightCalledOff: _pie_fight_called_off,
    ev.PieFightStarted: _pie_fight_started,
    ev.DialSet: _dial_set,
    ev.PieFightRevealed: _pie_fight_revealed,
    ev.SpellsDiscarded: _spells_discarded,
    ev.RejuvenationOwed: _rejuvenation_owed,
    ev.Rejuvenated: _rejuvenated,
    ev.TokenPlaced: _token_placed,
    ev.TokenSkipped: _token_skipped,
    ev.ResourcesPaid: _resources_paid,
    ev.ResourcesMoved: _resources_moved,
    ev.ResourcesGained: _resources_gained,
    ev.PowerUpLooked: _power_up_looked,
    ev.PowerUpTaken: _power_up_taken,
    ev.QuestsPending: _quests_pending,
    ev.QuestsLeft: _quests_left,
    ev.QuestTokenTaken: _quest_token_taken,
    ev.QuestDrawn: _quest_drawn,
    ev.QuestDeckRebuilt: _quest_deck_rebuilt,
    ev.QuestResolved: _quest_resolved,
    ev.QuestDeclined: _quest_declined,
    ev.TrophyChoiceOffered: _trophy_choice_offered,
    ev.TrophyDeclined: _trophy_declined,
    ev.TrophyEarned: _trophy_earned,
    ev.TurnEnded: _turn_ended,
    ev.GrandFinaleBegan: _grand_finale_began,
    ev.GameEnded: _game_ended,
}


class MSProjection(Base[MSState]):
    events = ev.ALL
    sql_views = (
        ("ms_trophies",
         "SELECT e.game_id, e.seq, e.payload->>'$.seat' AS seat, e.payload->>'$.trophy' AS trophy,"
         " CAST(e.payload->>'$.turn' AS INTEGER) AS turn, e.payload->>'$.personality' AS personality"
         " FROM events e JOIN games g ON g.game_id = e.game_id"
         " WHERE g.kind = 'my-little-scythe' AND e.type = 'TrophyEarned'"),
        ("ms_pie_fights",
         "SELECT e.game_id, e.seq, e.payload->>'$.attacker' AS attacker,"
         " e.payload->>'$.defender' AS defender, e.payload->>'$.space' AS space,"
         " CAST(e.payload->>'$.attacker_score' AS INTEGER) AS attacker_score,"
         " CAST(e.payload->>'$.defender_score' AS INTEGER) AS defender_score,"
         " e.payload->>'$.winner' AS winner, e.payload->>'$.loser' AS loser"
         " FROM events e JOIN games g ON g.game_id = e.game_id"
         " WHERE g.kind = 'my-little-scythe' AND e.type = 'PieFightRevealed'"),
    )

    # -- folding ------------------------------------------------------------------------

    def initial(self, created: GameCreated) -> MSState:
        c = created.content
        n = str(len(created.seats))
        camps = c["camps_by_players"][n]
        tr = c["tracks"]
        players = {
            s: Player(camp=camps[i], friendship=tr["friendship"]["start"], pies=tr["pies"]["start"])
            for i, s in enumerate(created.seats)
        }
        supply = {k: c["supply"][k] for k in ("apple", "gem", "quest")}
        return MSState(content=c, options=dict(created.options), seats=created.seats,
                       players=players, board={}, supply=supply, order=created.seats)

    evolve = by_type(_EVOLVE)

    # -- whose decision -----------------------------------------------------------------

    def to_act(self, state: MSState) -> Decision:
        if state.ended:
            return Decision("over", ())
        if state.fight is not None:
            f = state.fight
            owing = tuple(s for s in (f.attacker, f.defender) if s not in f.pies)
            return Decision("simultaneous", owing, "pie fight: dial 0-7 pies in secret (and clip spells)")
        if state.rejuv:
            seat = state.rejuv[0]
            kind = "turn" if seat == state.active else "reaction"
            return Decision(kind, (seat,), "rejuvenate: take 1 spell or 2 pies")
        a = state.active
        if state.trophy_seat:
            seat = state.trophy_seat or a or ""
            kind = "turn" if seat == a else "reaction"
            if kind == "reaction":
                return Decision(kind, (seat,), "the tie went to the attacker: a personality card may still win"
                                " the Pie Fight Victory (`trophy pie-fight reveal`), or pass (`trophy none`)")
            return Decision(kind, (seat,), "choose the trophy to earn (`trophy NAME`)")
        if a is None:
            return Decision("over", ())
        if state.seek:
            kind, region = state.seek[0]
            return Decision("turn", (a,), f"place the {kind} token found in the {region_name(region, state.content)}")
        if state.look:
            return Decision("turn", (a,), "keep one of the power-up tiles")
        if state.moving:
            return Decision("turn", (a,), "move your Seekers")
        if state.quest_card:
            return Decision("turn", (a,), f"quest {state.quest_card}: choose an option or No Thanks")
        if state.quest_spaces:
            return Decision("turn", (a,), f"quest token under your Seeker on {', '.join(state.quest_spaces)}:"
                            " `explore SPACE` to draw its quest, or `leave quests`")
        return Decision("turn", (a,), "choose an action on your mat")

    def outcome(self, state: MSState) -> Outcome | None:
        if not state.ended:
            return None
        scores = {s: float(len(p.trophies)) for s, p in state.players.items()}
        return Outcome(state.winners, scores, state.end_reason)

    # -- hidden information ---------------------------------------------------------------

    def view(self, state: MSState, seat: str | None) -> MSState:
        r = msgspec.structs.replace
        players = {}
        for s, p in state.players.items():
            if s != seat:
                p = r(p, spells=(HIDDEN,) * len(p.spells),
                      personality=p.personality if p.personality_revealed else HIDDEN)
            players[s] = p
        fight = state.fight
        if fight is not None:
            fight = r(fight, pies={s: (v if s == seat else -1) for s, v in fight.pies.items()},
                      spells={s: (v if s == seat else ()) for s, v in fight.spells.items()})
        look = state.look if state.active == seat else (HIDDEN,) * len(state.look)
        if state.trophy_seat != seat:
            # a choice that needs the chooser's personality card would betray the card
            state = r(state, trophy_choices=tuple(t for t in state.trophy_choices if t not in state.trophy_reveal),
                      trophy_reveal=(), trophy_optional=False, declined=())
        return r(state, players=players, fight=fight, look=look,
                 quest_deck=(HIDDEN,) * len(state.quest_deck),
                 spell_deck=(HIDDEN,) * len(state.spell_deck),
                 piles={k: (HIDDEN,) * len(v) for k, v in state.piles.items()})

    def redact(self, event: Event, seat: str | None, state: MSState) -> Event | None:
        r = msgspec.structs.replace
        if seat == REFEREE:
            return event
        if isinstance(event, ev.PersonalityDealt) and event.seat != seat:
            if not state.players[event.seat].personality_revealed:
                return r(event, card=HIDDEN)
        # a dry run (`try`) must not tell the next card of a deck, not even to its drawer:
        # such an event names the card still on top of the live deck
        if isinstance(event, ev.SpellDrawn) and (event.seat != seat or event.card in state.spell_deck):
            return r(event, card=HIDDEN)
        if isinstance(event, ev.QuestDrawn) and event.card != state.quest_card and (
                not state.quest_deck  # the draw would follow a reshuffle still to come
                or (event.card in state.quest_deck[:1] and len(state.quest_deck) > 1)):
            return r(event, card=HIDDEN)
        if isinstance(event, ev.PowerUpLooked) and event.seat == seat and state.look != event.tiles:
            pile = state.piles.get(event.pile, ())
            # (even when they are the whole pile: a look is a look, and the pile is face down)
            if tuple(pile[:len(event.tiles)]) == tuple(event.tiles):
                return r(event, tiles=(HIDDEN,) * len(event.tiles))
        if isinstance(event, ev.DialSet) and event.seat != seat:
            return r(event, pies=-1, spells=())
        if isinstance(event, ev.TokenSkipped) and event.turn == state.turn and state.action is None:
            # a dry run of a Seek: the dice are not rolled yet, so neither is the region
            return r(event, region=HIDDEN)
        if after_hypothetical_reveal(event, state):
            return None
        if isinstance(event, ev.PieFightRevealed) and state.fight is not None and state.fight.space == event.space:
            # a hypothetical reveal (a dry run before the other dial is in): nothing of it shows
            hide = {x: -1 for x in event.pies}
            return r(event, pies=hide, spells={x: () for x in event.pies}, scores=hide,
                     attacker_score=-1, defender_score=-1, winner=HIDDEN, loser=HIDDEN)
        if isinstance(event, ev.TrophyChoiceOffered) and event.seat != seat:
            return r(event, choices=tuple(t for t in event.choices if t not in event.reveal), reveal=(),
                     optional=False)
        if isinstance(event, ev.TrophyDeclined) and event.seat != seat:
            return r(event, trophies=())
        if isinstance(event, ev.PowerUpLooked) and event.seat != seat:
            return r(event, tiles=(HIDDEN,) * len(event.tiles))
        return event

    def hidden_from(self, state: MSState, seat: str | None) -> set[str]:
        out: set[str] = set()
        for s, p in state.players.items():
            if s == seat:
                continue
            out.update(p.spells)
            if p.personality and not p.personality_revealed:
                out.add(p.personality)
        return out

    def describe(self, event: Event, state: MSState | None = None) -> str:
        return describe(event, state.content if state is not None else None)


def after_hypothetical_reveal(e: Event, state: MSState) -> bool:
    """While a live pie fight still waits for a dial, a dry run of the last dial would show the
    fight's outcome through its consequences (pies paid, who goes home, trophies, the turn
    running on). Such events cannot have happened yet in the live game; they are hidden.
    (An older event of the same kind may be hidden too until the dials are in: never a leak.)"""
    f = state.fight
    if f is None or len(f.pies) >= 2:
        return False
    sides = (f.attacker, f.defender)
    players = state.players
    if isinstance(e, ev.TrackMoved):
        return e.seat in sides and e.reason == "pies thrown" and e.before == players[e.seat].pies
    if isinstance(e, ev.SpellsDiscarded):
        return e.seat in sides and all(c in players[e.seat].spells for c in e.cards)
    if isinstance(e, ev.SeekersSentHome):
        return e.seat in sides and e.reason == "pie-fight" and any(
            players[e.seat].seekers[i - 1] == f.space for i in e.seekers if 0 < i <= 2)
    if isinstance(e, ev.TrophyEarned):
        return e.trophy not in players[e.seat].trophies
    if isinstance(e, ev.PersonalityRevealed):
        return not players[e.seat].personality_revealed
    if isinstance(e, (ev.RejuvenationOwed, ev.Rejuvenated)):
        return e.seat in sides and e.seat not in state.rejuv
    if isinstance(e, (ev.TrophyChoiceOffered, ev.TrophyDeclined)):
        return not state.trophy_seat
    if isinstance(e, ev.QuestsPending):
        return not state.quests_checked
    if isinstance(e, (ev.QuestTokenTaken, ev.QuestDrawn, ev.QuestsLeft)):
        return True
    if isinstance(e, ev.TurnEnded):
        return e.turn == state.turn
    if isinstance(e, ev.TurnStarted):
        return e.turn > state.turn
    if isinstance(e, ev.GrandFinaleBegan):
        return not state.finale
    if isinstance(e, ev.GameEnded):
        return not state.ended
    return False


def _res(d: dict[str, int]) -> str:
    return ", ".join(f"{n} {k}{'s' if n != 1 else ''}" for k, n in d.items() if n) or "nothing"


def _and(names: Any) -> str:
    """"ann", "ann and bob", "ann, bob and cy"."""
    names = list(names)
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def region_name(region: str, content: dict[str, Any] | None) -> str:
    """A region as the rulebook writes it ("red rock"), from the content when known."""
    for r in (content or {}).get("regions", ()):
        if r.get("id") == region:
            return str(r.get("name", region)).lower()
    return region


def a_token(kind: str) -> str:
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind} token"


def describe(e: Event, content: dict[str, Any] | None = None) -> str:  # noqa: C901 - one line per fact
    if isinstance(e, ev.SetupTilePlaced):
        return f"setup tile (orientation {e.orientation}) fills " + "; ".join(
            f"{s}: {_res(k)}" for s, k in e.placed.items())
    if isinstance(e, ev.PersonalityDealt):
        return f"{e.seat} is dealt a personality card" + ("" if e.card == HIDDEN else f" ({e.card})")
    if isinstance(e, ev.PersonalityRevealed):
        return f"{e.seat} reveals {e.card} for the {e.trophy} trophy"
    if isinstance(e, ev.SpellDrawn):
        return f"{e.seat} draws a magic spell" + ("" if e.card == HIDDEN else f" ({e.card})") + (
            f" [{e.reason}]" if e.reason else "")
    if isinstance(e, ev.FirstPlayerChosen):
        return f"{e.seat} goes first (turn order {', '.join(e.order)})"
    if isinstance(e, ev.TurnStarted):
        return f"turn {e.turn}: {e.seat}" + (" (final turn of the grand finale)" if e.final else "")
    if isinstance(e, ev.ActionChosen):
        return f"{e.seat} takes the {e.action} action"
    if isinstance(e, ev.SeekerMoved):
        carry = f" carrying {_res(e.carried)}" if e.carried else ""
        return f"{e.seat}'s Seeker {e.seeker} moves {' -> '.join(e.path)}{carry}"
    if isinstance(e, ev.SeekerStayed):
        return f"{e.seat}'s Seeker {e.seeker} stays put"
    if isinstance(e, ev.DeliveryStarted):
        return f"{e.seat} has {e.count} of {e.need} {e.kind}s at Castle Everfree"
    if isinstance(e, ev.DeliveryMade):
        extra = f" ({'; '.join(f'{s}: {_res(k)} stay behind' for s, k in e.extras_left.items())})" if e.extras_left else ""
        return f"{e.seat} delivers {e.count} {e.kind}s to Castle Everfree{extra}"
    if isinstance(e, ev.SeekersSentHome):
        many = len(e.seekers) > 1
        return (f"{e.seat}'s Seeker{'s' if many else ''} {_and(map(str, e.seekers))}"
                f" return{'' if many else 's'} to base camp ({e.reason})")
    if isinstance(e, ev.TrackMoved):
        return f"{e.seat}'s {e.track} {e.before} -> {e.after}" + (f" ({e.reason})" if e.reason else "")
    if isinstance(e, ev.PieFightPending):
        return f"{e.attacker}'s Seeker stops on {e.defender}'s on {e.space}: a pie fight once moving is done"
    if isinstance(e, ev.PieFightCalledOff):
        return f"no pie fight on {e.space} after all"
    if isinstance(e, ev.PieFightStarted):
        return f"pie fight on {e.space}: {e.attacker} attacks {e.defender}"
    if isinstance(e, ev.DialSet):
        return f"{e.seat} sets the pie fight dial" + ("" if e.pies < 0 else f" to {e.pies}" + (
            f" with {', '.join(e.spells)}" if e.spells else ""))
    if isinstance(e, ev.PieFightRevealed):
        if e.winner == HIDDEN:
            return "the dials would be revealed together (hidden until both dials are set)"
        return (f"dials revealed: {e.attacker} {e.attacker_score}, {e.defender} {e.defender_score};"
                f" {e.winner} wins the pie fight")
    if isinstance(e, ev.SpellsDiscarded):
        return f"{e.seat} discards {', '.join(e.cards)}"
    if isinstance(e, ev.RejuvenationOwed):
        return f"{e.seat} may rejuvenate (1 spell or 2 pies)"
    if isinstance(e, ev.Rejuvenated):
        return f"{e.seat} rejuvenates ({e.choice}); the action token leaves the mat"
    if isinstance(e, ev.TokenPlaced):
        gift = f" (a gift to {e.gift_to})" if e.gift_to else ""
        return f"{e.seat} places {a_token(e.kind)} on {e.space} in the {region_name(e.region, content)}{gift}"
    if isinstance(e, ev.TokenSkipped):
        return f"{e.seat} cannot place the {e.kind} found in the {region_name(e.region, content)}: {e.reason}"
    if isinstance(e, ev.ResourcesPaid):
        return f"{e.seat} pays " + "; ".join(f"{_res(k)} from {s}" for s, k in e.taken.items()) + (
            f" ({e.reason})" if e.reason else "")
    if isinstance(e, ev.ResourcesMoved):
        return f"{e.seat} gives " + "; ".join(f"{_res(k)} from {s}" for s, k in e.taken.items()) + (
            f" to {e.to_seat} on {e.to_space}")
    if isinstance(e, ev.ResourcesGained):
        return f"{e.seat} gains {_res(e.gained)} on {e.space}" + (f" ({e.reason})" if e.reason else "")
    if isinstance(e, ev.PowerUpLooked):
        return f"{e.seat} looks at the top {len(e.tiles)} {e.pile} power-ups" + (
            "" if HIDDEN in e.tiles else f" ({', '.join(e.tiles)})")
    if isinstance(e, ev.PowerUpTaken):
        return f"{e.seat} keeps {e.tile}; {e.returned} tile{' goes' if e.returned == 1 else 's go'} to the bottom"
    if isinstance(e, ev.QuestsPending):
        return (f"{e.seat} may take quests on {', '.join(e.spaces)}" if e.spaces
                else f"{e.seat} finds no quest under a Seeker")
    if isinstance(e, ev.QuestTokenTaken):
        return f"{e.seat} takes the quest token on {e.space}"
    if isinstance(e, ev.QuestsLeft):
        return f"{e.seat} leaves the quest token{'s' if len(e.spaces) > 1 else ''} on {_and(e.spaces)}"
    if isinstance(e, ev.QuestDrawn):
        return f"{e.seat} draws quest {e.card}"
    if isinstance(e, ev.QuestDeckRebuilt):
        return f"the quest deck is rebuilt from {', '.join(e.cards) or 'nothing'}"
    if isinstance(e, ev.QuestResolved):
        return f"{e.seat} completes {e.card} (option {e.option})"
    if isinstance(e, ev.QuestDeclined):
        return f"{e.seat} says No Thanks to {e.card}; it goes to the bottom of the quest deck"
    if isinstance(e, ev.TrophyChoiceOffered):
        if not e.choices:
            return f"{e.seat} considers a trophy"
        card = f" ({', '.join(e.reveal)} by revealing the personality card)" if e.reveal else ""
        must = "may take one or pass" if e.optional else "must choose"
        return f"{e.seat} qualifies for {', '.join(e.choices)}{card} and {must}"
    if isinstance(e, ev.TrophyDeclined):
        what = f" on {', '.join(e.trophies)}" if e.trophies else ""
        return f"{e.seat} keeps the personality card secret and passes{what}"
    if isinstance(e, ev.TrophyEarned):
        return f"{e.seat} earns the {e.trophy} trophy" + (f" thanks to {e.personality}" if e.personality else "")
    if isinstance(e, ev.TurnEnded):
        return f"{e.seat}'s turn ends"
    if isinstance(e, ev.GrandFinaleBegan):
        return (f"the grand finale begins ({_and(e.crowned)} {'have' if len(e.crowned) > 1 else 'has'} 4 trophies);"
                f" final turns: {', '.join(e.final_turns) or 'none'}")
    if isinstance(e, ev.GameEnded):
        return f"game over: {_and(e.winners)} {'share the rule of' if len(e.winners) > 1 else 'rules'} Pomme ({e.reason})"
    from arbiter.projections.kernel import describe_event
    return describe_event(e)


PROJECTION = MSProjection()
