"""Pie fights: secret simultaneous dials, spells, ties to the attacker, the loser goes home."""

import msgspec
import pytest

from arbiter.core.errors import RuleViolation
from arbiter.events import my_little_scythe as ev
from my_little_scythe.helpers import events_of, position

SEEKERS = {"ann": ("T3", "base"), "bob": ("T4", "base")}


def fight(**kw):
    """ann's Seeker 1 moves onto bob's; by default the fight follows once both Seekers moved."""
    m = position(seekers=kw.pop("seekers", SEEKERS), **kw)
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    if m.state.options["pie_fight_timing"] == "after-moving":
        assert m.state.fight is None and m.state.pending_fights == ("T4",)
        m.apply("ann", "stay 2")
    return m


def test_attacker_loses_one_friendship_and_both_dial_simultaneously():
    m = fight()
    assert m.state.players["ann"].friendship == 2
    d = m.to_act()
    assert d.kind == "simultaneous" and set(d.seats) == {"ann", "bob"}
    assert m.state.players["ann"].seekers[0] == "T4"  # the attacker's movement stopped there


def test_dial_values_are_secret_until_the_reveal():
    m = fight(tracks={"bob": {"pies": 6}})
    m.apply("bob", "dial 5")
    assert m.to_act().seats == ("ann",)
    view = m.view("ann")
    assert view.fight.pies == {"bob": -1}
    shown = [e for _s, _a, e in m.log("ann") if isinstance(e, ev.DialSet)]
    assert shown and shown[0].pies == -1
    assert "5" not in repr(msgspec.to_builtins(view.fight))
    assert m.view("bob").fight.pies == {"bob": 5}  # the dialler sees their own
    m.apply("ann", "dial 3")
    revealed = [e for _s, _a, e in m.log("ann") if isinstance(e, ev.PieFightRevealed)][0]
    assert revealed.scores == {"ann": 3, "bob": 5} and revealed.winner == "bob"


def test_dial_cannot_exceed_pies_held_or_seven():
    m = fight(tracks={"ann": {"pies": 2}, "bob": {"pies": 10}})
    with pytest.raises(RuleViolation) as e:
        m.decide("ann", "dial 3")
    assert e.value.rule_id == "MS-DIAL-PIES"
    with pytest.raises(RuleViolation) as e:
        m.decide("bob", "dial 8")
    assert e.value.rule_id == "MS-DIAL-RANGE"
    assert "dial 8" not in m.legal_texts("bob") and "dial 7" in m.legal_texts("bob")


def test_tied_pie_fight_goes_to_the_attacker():
    m = fight()
    m.apply("ann", "dial 2")
    evs = m.apply("bob", "dial 2")
    r = events_of(evs, ev.PieFightRevealed)[0]
    assert r.winner == "ann" and r.attacker_score == r.defender_score == 2


def test_loser_goes_home_leaving_resources_both_pay_and_winner_earns_the_trophy():
    m = fight(seekers={"ann": ("T3", "base"), "bob": ("T4", "T5")}, resources={"T4": {"apple": 3}},
              tracks={"ann": {"friendship": 5, "pies": 5}, "bob": {"pies": 4}},
              options={"pie_fight_timing": "immediate"})
    m.apply("ann", "dial 4")
    m.apply("bob", "dial 1")
    s = m.state
    assert s.players["bob"].seekers == ("base", "T5")  # only the Seeker in the fight goes home
    assert s.board["T4"] == {"apple": 3}  # resources stay behind
    assert s.players["ann"].pies == 1 and s.players["bob"].pies == 3  # both pay
    assert "pie-fight" in s.players["ann"].trophies
    # the loser rejuvenates on the attacker's turn: a reaction decision for bob
    d = m.to_act()
    assert d.kind == "reaction" and d.seats == ("bob",)
    m.apply("bob", "rejuvenate pies")
    assert m.state.players["bob"].pies == 5 and m.state.players["bob"].last_action is None
    assert m.to_act().seats == ("ann",) and m.state.moving == (2,)


def test_worked_example_spells_alone_score_four():
    """"you got 4 points from the Magic Spell cards you used and didn't throw any pies
    directly. Your total score would be 4"."""
    m = fight(spells={"bob": ("spell-11", "spell-12")}, tracks={"ann": {"pies": 5}})  # 2 + 2
    m.apply("bob", "dial 0 with spell-11 spell-12")
    assert m.state.players["bob"].spells == ("spell-11", "spell-12")  # still held until the reveal
    evs = m.apply("ann", "dial 3")
    r = events_of(evs, ev.PieFightRevealed)[0]
    assert r.scores["bob"] == 4 and r.winner == "bob"
    assert m.state.players["bob"].spells == ()  # spells used are discarded face up
    assert {"spell-11", "spell-12"} <= set(m.state.spell_discard)
    # the defender won on the attacker's turn: the Pie Fight Victory trophy any time
    assert "pie-fight" in m.state.players["bob"].trophies
    assert m.state.players["ann"].seekers[0] == "base"


def test_only_own_spells_may_be_clipped():
    m = fight(spells={"bob": ("spell-11",), "ann": ("spell-12",)})
    with pytest.raises(RuleViolation) as e:
        m.decide("bob", "dial 0 with spell-12")
    assert e.value.rule_id == "MS-DIAL-SPELL"


def test_a_mistyped_spell_is_refused_without_naming_any_card():
    """Magic Spell cards are secret: a dial with a spell name that is no card is refused as
    bad input, and neither the message nor its hint names a spell (another seat's, or one
    still in the deck)."""
    import re

    from arbiter.core.errors import ParseError

    m = fight(spells={"bob": ("spell-11",), "ann": ("spell-12",)})
    with pytest.raises(ParseError) as e:
        m.decide("bob", "dial 0 with spell-1q")
    said = str(e.value)  # the message with its hint
    assert "spell-1q" in said and "hint" in said and not re.search(r"spell-\d\d", said), said


def test_attacker_at_three_friendship_drops_to_two_and_cannot_earn_the_trophy():
    m = fight()
    m.apply("ann", "dial 3")
    m.apply("bob", "dial 0")
    assert m.state.players["ann"].friendship == 2
    assert "pie-fight" not in m.state.players["ann"].trophies


def test_low_friendship_pie_fight_option_off():
    m = fight(options={"low_friendship_blocks_pie_fight": False, "pie_fight_timing": "after-moving"})
    m.apply("ann", "dial 3")
    m.apply("bob", "dial 0")
    assert "pie-fight" in m.state.players["ann"].trophies


def test_stubborn_defender_tie_earns_the_trophy_but_loses_the_fight():
    m = fight(personality={"bob": "personality-stubborn"}, tracks={"ann": {"friendship": 6}})
    m.apply("ann", "dial 2")
    m.apply("bob", "dial 2")
    assert m.state.players["bob"].seekers[0] == "base"  # the fight is lost all the same
    m.apply("bob", "rejuvenate pies")
    # revealing the card is bob's choice, on ann's turn
    assert m.to_act().seats == ("bob",) and m.to_act().kind == "reaction"
    assert m.legal_texts("bob") == ["trophy pie-fight reveal", "trophy none"]
    assert m.view("ann").trophy_choices == ()  # ann does not learn what bob could take
    evs = m.apply("bob", "trophy pie-fight reveal")
    assert events_of(evs, ev.PersonalityRevealed)
    assert "pie-fight" in m.state.players["bob"].trophies


def test_stubborn_defender_may_keep_the_card_secret():
    m = fight(personality={"bob": "personality-stubborn"}, tracks={"ann": {"friendship": 6}})
    m.apply("ann", "dial 2")
    m.apply("bob", "dial 2")
    m.apply("bob", "rejuvenate pies")
    evs = m.apply("bob", "trophy none")
    assert not events_of(evs, ev.PersonalityRevealed)
    assert "pie-fight" not in m.state.players["bob"].trophies
    assert m.view("ann").players["bob"].personality == "?"
    assert m.state.trophy_choices == () and m.state.active == "bob"  # ann's turn ran on to its end


def test_a_second_dial_is_refused():
    m = fight()
    m.apply("bob", "dial 1")
    with pytest.raises(RuleViolation) as e:
        m.decide("bob", "dial 2")
    assert e.value.rule_id in ("MS-DIAL-NOT-NOW", "ARB-TURN")


def test_rejuvenation_only_once_a_turn():
    """Losing a fight then delivering in the same turn: only the first return rejuvenates."""
    m = position(seekers={"ann": ("T3", "T1"), "bob": ("T4", "base")}, resources={"T1": {"apple": 4}},
                 tracks={"bob": {"pies": 5}}, options={"pie_fight_timing": "immediate"})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "dial 0")
    m.apply("bob", "dial 1")
    m.apply("ann", "rejuvenate pies")
    assert m.state.players["ann"].pies == 5
    evs = m.apply("ann", "carry 2 castle 4 apples")
    assert events_of(evs, ev.DeliveryMade) and not events_of(evs, ev.RejuvenationOwed)
    assert m.state.players["ann"].pies == 5


def test_by_default_the_fight_follows_once_both_seekers_have_moved():
    """"Once I finish moving, and dealing with any pie fights, I get to check quests"."""
    m = position(seekers={"ann": ("T3", "T5"), "bob": ("T4", "base")}, tracks={"ann": {"pies": 5}})
    m.apply("ann", "move")
    evs = m.apply("ann", "go 1 T4")
    assert events_of(evs, ev.PieFightPending) and m.state.fight is None
    assert m.state.players["ann"].friendship == 3  # not yet: the fight has not begun
    m.apply("ann", "go 2 T4")  # the second Seeker joins the same fight
    assert m.state.fight is not None and m.state.players["ann"].friendship == 2
    m.apply("ann", "dial 0")
    m.apply("bob", "dial 1")
    assert m.state.players["ann"].seekers == ("base", "base")  # both attackers lost and went home


def test_immediate_fights_before_the_other_seeker_moves():
    m = position(seekers={"ann": ("T3", "T5"), "bob": ("T4", "base")}, options={"pie_fight_timing": "immediate"})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    assert m.state.fight is not None and m.state.moving == (2,)
    assert m.to_act().kind == "simultaneous"


def test_every_defender_losing_a_tie_is_asked_so_the_question_betrays_no_card():
    m = fight(personality={"bob": "personality-sweet"}, tracks={"ann": {"friendship": 6}})
    m.apply("ann", "dial 2")
    m.apply("bob", "dial 2")
    m.apply("bob", "rejuvenate pies")
    assert m.to_act().seats == ("bob",) and m.legal_texts("bob") == ["trophy none"]
    with pytest.raises(RuleViolation) as e:
        m.decide("bob", "trophy pie-fight reveal")
    assert e.value.rule_id in ("MS-TROPHY-NOT-QUALIFIED", "MS-PERSONALITY")
    plain = [e for _s, _c, e in m.log("ann") if isinstance(e, ev.TrophyChoiceOffered)]
    stubborn = fight(personality={"bob": "personality-stubborn"}, tracks={"ann": {"friendship": 6}})
    stubborn.apply("ann", "dial 2")
    stubborn.apply("bob", "dial 2")
    stubborn.apply("bob", "rejuvenate pies")
    seen = [e for _s, _c, e in stubborn.log("ann") if isinstance(e, ev.TrophyChoiceOffered)]
    assert plain == seen and stubborn.to_act() == m.to_act()  # ann cannot tell the two apart
    m.apply("bob", "trophy none")
    assert "pie-fight" not in m.state.players["bob"].trophies
