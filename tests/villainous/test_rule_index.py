"""The rule index: a rulebook entry holds only the book's words; where the book leaves
something open our reading is its own entry (SV-HOUSE-*, source house), and each reading
named here is played through the public Match."""

import re

import pytest

from arbiter.core.errors import RuleViolation
from arbiter.core.match import Match
from arbiter.core.villainous import GAME
from arbiter.events import villainous as ev
from villainous.helpers import fold, new, rule_of

POINTER = re.compile(r"\(?[^.()]*\bis (SV-HOUSE-[A-Z-]+)\.\)?")


def entries():
    return [r for i, r in GAME.rules.rules.items() if i.startswith("SV-")]


def test_rulebook_entries_hold_only_the_books_words_and_point_to_the_readings():
    """A rulebook entry may name the house entry that reads it ("... is SV-HOUSE-X."), but
    says nothing of arbiter, its options or defaults; every reading is an SV-HOUSE-* entry."""
    for rule in entries():
        if rule.source == "rulebook":
            assert not rule.id.startswith("SV-HOUSE-"), rule.id
            for target in POINTER.findall(rule.text):
                assert GAME.rules.get(target).source == "house", (rule.id, target)
            words = POINTER.sub("", rule.text).lower()
            for word in ("arbiter", "options?", "default", "house", "reading", "does not ask",
                         "is refused"):
                assert not re.search(rf"\b{word}\b", words), (rule.id, word)
            assert "=" not in words, rule.id
        else:
            assert rule.id.startswith("SV-HOUSE-"), rule.id


def test_a_fate_card_with_no_effect_is_refused_under_the_house_reading_that_names_it():
    """Fate: "If none of the cards you revealed can be played or has any effect, you must
    still choose one and play it without applying its effect" (SV-FATE-NO-EFFECT). That the
    card which can be played must be chosen while there is one is a reading, and a refusal
    says so: SV-HOUSE-FATE-LIVE-CARD."""
    from villainous.test_fate_vehicles import stack_fate

    m = stack_fate(new(), "bob", "ssf-rebel-blaster-1", "ssf-kanan-jarrus-1")  # no Hero for the Item
    m.apply("ann", "move coruscant")
    m.apply("ann", "fate bob")
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", "fate-play rebel blaster")
    assert rule_of(e) == "SV-HOUSE-FATE-LIVE-CARD"
    assert GAME.rules.get("SV-HOUSE-FATE-LIVE-CARD").source == "house"


def test_play_goes_on_in_seat_order_from_the_first_player():
    """Setup: "The last player to have used the Force... or the oldest player goes first"
    (SV-FIRST-PLAYER); who plays next is SV-HOUSE-TURN-ORDER: the seats in order, from the
    first player round to the seats listed before them."""
    m = Match.new(GAME, seed=1, seats=["ann", "bob", "cy"], options={"first_player": "bob",
                                                                     "condition_windows": "holders"})
    turns = []
    for _ in range(4):
        seat = m.to_act().seats[0]
        turns.append(seat)
        here = m.state.mover[seat]
        to = next(loc for loc in _locations(m, seat) if loc != here)
        m.apply(seat, f"move {to}")
        m.apply(seat, "end")
    assert turns == ["bob", "cy", "ann", "bob"]


def _locations(m, seat):
    from arbiter.core.villainous.board import Table
    return Table(m.state).location_ids(seat)


def test_two_villains_achieving_their_objectives_at_once_share_the_win():
    """End of the Game: "As soon as a player has achieved their Objective, the game stops
    immediately and that player wins." Two at once share it (SV-HOUSE-SHARED-WIN)."""
    m = new(villains="cad-bane,seventh-sister")
    m = fold(m, ev.TargetsCollected(seat="ann", hero="cbf-clone-trooper-1", count=5),
             *[ev.RebelRemoved(seat="bob", hero=f"ssf-ezra-bridger-{i}") for i in (1, 2, 3)])
    events = m.apply("ann", "move coruscant")
    won = [e for e in events if isinstance(e, ev.GameWon)]
    assert won and set(won[0].winners) == {"ann", "bob"}
    assert GAME.rules.get("SV-HOUSE-SHARED-WIN").source == "house"


def test_a_fate_condition_is_discarded_as_soon_as_met_even_on_another_players_turn():
    """Conditions (Fate): "Discard the Condition as soon as the conditions mentioned on the
    card are met." Wanted by the Senate goes when Cad Bane vanquishes a Hero; a Hero his own
    Condition card defeats on the Seventh Sister's turn counts (SV-HOUSE-DEFEAT-IS-VANQUISH),
    so it is discarded then, not at his next turn (SV-HOUSE-OWN-TURN)."""
    from villainous.helpers import content_with, give, put

    c = content_with({"cb-double-cross": {"text": "Play when an opponent vanquishes a Hero: defeat a Hero.",
                                          "abilities": [{"when": "condition", "trigger": "vanquish",
                                                         "effects": [{"do": "defeat", "target": "hero"}]}]}})
    m = new(villains="seventh-sister,cad-bane", content=c)
    m = put(m, "bob", "cbf-clone-trooper-1", "coruscant")
    m = put(m, "bob", "cbf-wanted-by-the-senate-1", "mover")
    m = put(m, "ann", "ssf-ezra-bridger-1", "bilzen")
    m = put(m, "ann", "ss-purge-trooper-1", "bilzen")
    m = put(m, "ann", "ss-purge-trooper-2", "bilzen")
    m = give(m, "bob", "cb-double-cross-1")
    m.apply("ann", "move garel city")  # Credits 3 | Vanquish | Discard | Play
    m.apply("ann", "vanquish ezra bridger with ss-purge-trooper-1 ss-purge-trooper-2")
    m.apply("bob", "condition double cross")
    assert m.state.active == "ann"
    assert "cbf-clone-trooper-1" not in m.state.sector["bob"]
    assert "cbf-wanted-by-the-senate-1" not in m.state.sector["bob"]
    assert "cbf-wanted-by-the-senate-1" in m.state.fate_discard["bob"]
