"""Readings the rulebook leaves open: each is an option recorded in GameCreated, the default
argued from the text in rules.toml (house); each test plays both readings through a Match."""


from arbiter.core.match import Match
from arbiter.core.my_little_scythe import GAME
from arbiter.events import my_little_scythe as ev
from arbiter.projections.fold import SETUP
from my_little_scythe.helpers import events_of, position, rule_of


def test_every_open_reading_is_a_house_option_with_its_rule():
    names = {o.name: o for o in GAME.options}
    for name, rule in (("base_camp_pays", "MS-H-FIRST-TURN-BAKE"), ("pie_fight_limit", "MS-H-PIE-FIGHT-LIMIT"),
                       ("delivery_trophy", "MS-H-DELIVERY-TROPHY"), ("attack_friendship", "MS-H-ATTACK-FRIENDSHIP"),
                       ("personality_trophy", "MS-H-PERSONALITY-CHOICE"), ("quest_rebuild", "MS-H-QUEST-REBUILD"),
                       ("pie_fight_timing", "MS-H-FIGHT-TIMING"), ("quest_draw", "MS-H-QUEST-AUTO")):
        assert names[name].house and names[name].rule == rule
        assert GAME.rules.get(rule).source == "house"
    m = position()
    assert m.created.options["base_camp_pays"] == "front-spaces" and m.created.options["quest_rebuild"] == "on-draw"


# -- "On my first turn, I'll give away 2 apples and gain 2 pies by using one of the Make actions"

def first_turn(**options):
    # ann's camp (1) faces T3 T4 T5; both Seekers are still at base camp
    return position(resources={"T4": {"apple": 2}}, options=options)


def test_the_rulebooks_first_turn_bake_plays_as_told_by_default():
    """"Your Turn": "On my first turn, I'll give away 2 apples and gain 2 pies by using one of
    the Make actions. And on my next turn, I can choose any action from the Move, Seek, or Make
    sections." A default game, as set up: the setup tile filled the spaces in front of ann's
    camp (T3 a gem, T4 and T5 an apple each) and both her Seekers are at base camp."""
    m = Match.new(GAME, seed=1, seats=["ann", "bob"])
    assert m.created.options["base_camp_pays"] == "front-spaces"
    assert m.to_act().seats == ("ann",) and m.state.players["ann"].seekers == ("base", "base")
    assert "bake" in m.legal_texts("ann")
    evs = m.apply("ann", "bake")
    assert events_of(evs, ev.ResourcesPaid)[0].taken == {"T4": {"apple": 1}, "T5": {"apple": 1}}
    assert m.state.players["ann"].pies == 5  # 3 at setup, 2 gained
    m.apply("bob", "move")
    m.apply("bob", "go 2 F3")
    m.apply("bob", "go 1 F4")
    m.apply("bob", "leave quests")  # the quest token on F3
    # the next turn: any section, never the exact action used last turn (MS-SAME-ACTION)
    nxt = m.legal_texts("ann")
    assert "move" in nxt and "seek-apples" in nxt and "bake" not in nxt
    assert rule_of(m, "ann", "bake") == "MS-SAME-ACTION"


def test_first_turn_bake_is_refused_with_base_camp_pays_no():
    """"I snatch 2 apples from wherever my Seekers are hanging out" ("Craft"); base camp "is not
    a physical place ... You can't enter it or find anything there" ("Base Camps")."""
    m = first_turn(base_camp_pays="no")
    assert m.state.players["ann"].seekers == ("base", "base")
    assert rule_of(m, "ann", "bake") == "MS-PAY-NOT-ENOUGH"
    assert "bake" not in m.legal_texts("ann")


def test_first_turn_bake_from_the_spaces_in_front_of_the_camp():
    """The "Your Turn" example: "On my first turn, I'll give away 2 apples and gain 2 pies"."""
    m = first_turn()
    assert "bake" in m.legal_texts("ann")
    evs = m.apply("ann", "bake")
    assert events_of(evs, ev.ResourcesPaid)[0].taken == {"T4": {"apple": 2}}
    assert m.state.players["ann"].pies == 5 and m.state.board.get("T4") is None
    # a Seeker on the map pays from its own space only: the camp's front is no longer in reach
    m2 = position(seekers={"ann": ("M1", "M2")}, resources={"T4": {"apple": 2}})
    assert rule_of(m2, "ann", "bake") == "MS-PAY-NOT-ENOUGH"


def test_base_camp_does_not_reach_under_another_players_seeker():
    """"Deliveries": extras left on a space "might lose control over them"; "Seek", "Gaining
    Friendship": an apple placed on an opponent's Seeker's space is a gift to that player.
    So a Seeker at base camp (MS-H-FIRST-TURN-BAKE) pays from the spaces in front of its camp
    only where no other player's Seeker stands: bob's Seeker on T4 keeps its apples."""
    m = position(seekers={"ann": ("base", "base"), "bob": ("T4", "F1")},
                 resources={"T4": {"apple": 2}, "T5": {"apple": 1}})
    assert m.state.players["ann"].camp == 1  # in front of it: T3 T4 T5
    assert "bake" not in m.legal_texts("ann")
    assert rule_of(m, "ann", "bake") == "MS-PAY-NOT-ENOUGH"
    assert m.state.board["T4"] == {"apple": 2}
    m2 = position(seekers={"ann": ("base", "base"), "bob": ("F2", "F1")},
                  resources={"T4": {"apple": 2}, "T5": {"apple": 1}})
    evs = m2.apply("ann", "bake")  # nobody on T4: the camp reaches it
    assert events_of(evs, ev.ResourcesPaid)[0].taken == {"T4": {"apple": 2}}


# -- "The Pie Fight Victory trophy is an exception – you can earn it even outside of your turn"

def pie_fight(ann_dial: str, bob_dial: str, tracks, **options):
    """ann's Seeker moves onto bob's; both dial; bob rejuvenates if sent home."""
    m = position(seekers={"ann": ("T3", "base"), "bob": ("T4", "base")}, tracks=tracks, options=options)
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "stay 2")
    m.apply("ann", ann_dial)
    m.apply("bob", bob_dial)
    if m.state.rejuv:
        m.apply(m.state.rejuv[0], "rejuvenate pies")
    return m


# the default reading (both trophies in one turn) is test_trophies_and_finale's
# test_pie_fight_victory_does_not_count_against_the_one_trophy_a_turn

def test_pie_fight_victory_on_your_own_turn_is_that_turns_trophy_as_an_option():
    m = pie_fight("dial 1", "dial 0", {"ann": {"pies": 10, "friendship": 6}}, pie_fight_limit="own-turn")
    assert m.state.players["ann"].trophies == ("pie-fight",)
    assert m.to_act().seats == ("bob",)  # pies-8 waits for a later turn


def test_a_defender_winning_on_anothers_turn_is_never_limited():
    m = pie_fight("dial 0", "dial 1", {"bob": {"pies": 5}}, pie_fight_limit="own-turn")
    assert "pie-fight" in m.state.players["bob"].trophies


# -- "When you complete a delivery onto the Castle Everfree space, put one of your trophies ..."

def deliver_with_pies_8(**options):
    m = position(seekers={"ann": ("T1", "T5")}, resources={"T1": {"apple": 4}}, tracks={"ann": {"pies": 8}},
                 options=options)
    m.apply("ann", "move")
    evs = m.apply("ann", "carry 1 castle 4 apples")
    return m, evs


def test_the_delivery_trophy_waits_for_the_end_of_the_turn_by_default():
    m, evs = deliver_with_pies_8()
    assert not events_of(evs, ev.TrophyEarned)
    m.apply("ann", "rejuvenate spell")
    m.apply("ann", "stay 2")
    # qualifying for two, the player chooses one ("Trophy Limit")
    assert set(m.legal_texts("ann")) == {"trophy apple-delivery", "trophy pies-8"}


def test_the_delivery_trophy_is_placed_as_the_delivery_completes_as_an_option():
    m, evs = deliver_with_pies_8(delivery_trophy="at-once")
    assert [e.trophy for e in events_of(evs, ev.TrophyEarned)] == ["apple-delivery"]
    m.apply("ann", "rejuvenate spell")
    m.apply("ann", "stay 2")
    assert m.state.players["ann"].trophies == ("apple-delivery",)  # the turn's one trophy
    assert m.to_act().seats == ("bob",)


def test_a_delivery_at_friendship_two_earns_no_trophy_at_once():
    m = position(seekers={"ann": ("T1", "T5")}, resources={"T1": {"apple": 4}}, tracks={"ann": {"friendship": 2}},
                 options={"delivery_trophy": "at-once"})
    m.apply("ann", "move")
    evs = m.apply("ann", "carry 1 castle 4 apples")
    assert events_of(evs, ev.DeliveryMade) and not events_of(evs, ev.TrophyEarned)


# -- "When I attack another player, I will lose 1 friendship point right away."

def attack(**options):
    m = position(seekers={"ann": ("T3", "T5"), "bob": ("T4", "base")}, options=options)
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    return m


def test_the_attacker_loses_friendship_as_the_fight_begins_by_default():
    m = attack()
    assert m.state.pending_fights == ("T4",) and m.state.players["ann"].friendship == 3
    m.apply("ann", "stay 2")
    assert m.state.fight is not None and m.state.players["ann"].friendship == 2


def test_the_attacker_loses_friendship_on_moving_onto_the_opponent_as_an_option():
    m = attack(attack_friendship="on-moving")
    assert m.state.pending_fights == ("T4",) and m.state.players["ann"].friendship == 2
    m.apply("ann", "go 2 T4")  # the second Seeker joins the same fight: no second loss
    assert m.state.fight is not None and m.state.players["ann"].friendship == 2


def test_both_readings_agree_when_fights_are_immediate():
    for reading in ("fight-start", "on-moving"):
        m = attack(attack_friendship=reading, pie_fight_timing="immediate")
        assert m.state.fight is not None and m.state.players["ann"].friendship == 2


# -- "you can reveal the card" against "you have to place a trophy token"

def sweet(**options):
    """Sweet lowers 8 Pies to 7; ann has 7 pies."""
    m = position(personality={"ann": "personality-sweet"}, tracks={"ann": {"pies": 7}}, options=options)
    m.apply("ann", "move")
    m.apply("ann", "stay 1")
    m.apply("ann", "stay 2")
    return m


def test_a_trophy_met_only_through_the_card_is_the_players_choice_by_default():
    m = sweet()
    assert m.legal_texts("ann") == ["trophy pies-8 reveal", "trophy none"]
    m.apply("ann", "trophy none")
    assert m.state.players["ann"].trophies == () and not m.state.players["ann"].personality_revealed


def test_a_trophy_met_through_the_card_must_be_placed_as_an_option():
    m = sweet(personality_trophy="mandatory")
    assert m.state.players["ann"].trophies == ("pies-8",)
    assert m.state.players["ann"].personality_revealed
    assert m.to_act().seats == ("bob",)


def test_a_mandatory_card_delivers_three_apples_without_saying_reveal():
    m = position(seekers={"ann": ("T1", "base")}, resources={"T1": {"apple": 3}},
                 personality={"ann": "personality-hardworking"}, options={"personality_trophy": "mandatory"})
    m.apply("ann", "move")
    evs = m.apply("ann", "carry 1 castle 3 apples")
    assert events_of(evs, ev.PersonalityRevealed) and events_of(evs, ev.DeliveryMade)[0].count == 3


# -- "If the Quest deck is empty, I immediately gather quest cards from players who have
#    completed the '2 Quests' trophy"

def last_quest(**options):
    cards = [f"quest-{i:02d}" for i in range(1, 13)]
    m = position(seekers={"ann": ("T3", "base"), "bob": ("S3", "base")}, resources={"T4": {"quest": 1}},
                 quests_done={"bob": tuple(cards[:2]), "ann": tuple(cards[2:4])}, trophies={"bob": ("quests-2",)},
                 options=options)
    rest = list(m.state.quest_deck)
    extra = []
    for q in rest[:-1]:  # leave one card in the deck
        extra += [ev.QuestDrawn(seat="ann", card=q, space="T1"), ev.QuestResolved(seat="ann", card=q, option=2)]
    extra.append(ev.TurnStarted(seat="ann", turn=1))
    m = Match(GAME, list(m.items) + [(m.seq + i + 1, SETUP, e) for i, e in enumerate(extra)])
    assert len(m.state.quest_deck) == 1
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "stay 2")
    m.apply("ann", "explore T4")
    return m, cards


def test_the_quest_deck_is_rebuilt_when_a_draw_finds_it_empty_by_default():
    m, _cards = last_quest()
    assert m.state.quest_card and m.state.quest_deck == ()
    assert m.state.players["bob"].quests  # not gathered yet


def test_the_quest_deck_is_rebuilt_the_moment_it_runs_out_as_an_option():
    m, cards = last_quest(quest_rebuild="when-empty")
    assert m.state.quest_card and set(m.state.quest_deck) == set(cards[:2])
    assert m.state.players["bob"].quests == ()
