"""Rule by rule beyond refusals: for each rule id no other test named, the position where
players would argue, played through the public Match; each test names its rule id and quotes
the rulebook sentence (or the house reading) that decides it."""

import pytest

from arbiter.core.errors import ParseError, RuleViolation
from arbiter.core.match import Match
from arbiter.core.my_little_scythe import GAME
from arbiter.events import my_little_scythe as ev
from my_little_scythe.helpers import ALL, events_of, pass_turn, position, rule_of


def test_ms_one_action_and_ms_h_one_action_a_second_action_in_the_turn_is_refused():
    """MS-ONE-ACTION / MS-H-ONE-ACTION: "choose and do one action" -- the introduction's
    "three actions" loses to the turn rules: Bake after Move in the same turn is refused."""
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 4}})
    m.apply("ann", "move")
    assert rule_of(m, "ann", "bake") == "MS-MOVE-NOT-NOW"  # the Move is still being taken
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 4}})
    m.apply("ann", "bake")
    assert m.to_act().seats == ("bob",)
    assert rule_of(m, "ann", "bake") == "MS-ONE-ACTION"


def test_ms_action_not_on_mat_a_tiles_action_is_not_yours_until_you_hold_the_tile():
    """MS-ACTION-NOT-ON-MAT: only the actions printed on your mat (or your Make tile)."""
    m = position()
    tile = next(t for t in GAME.default_content()["power_ups"] if t["pile"] == "make")
    with pytest.raises((RuleViolation, ParseError)) as e:
        m.decide("ann", tile["action"]["id"])
    assert getattr(e.value, "rule_id", None) == "MS-ACTION-NOT-ON-MAT"


def test_ms_make_tile_replaces_power_up_stays_on_the_mat():
    """MS-MAKE-TILE-REPLACES ("Craft": "your action token should be replaced with the Power Up
    action from your new tile"), as house reading MS-H-MAKE-TILE lays the tile on the mat:
    the token moves onto the tile's action, and Power Up stays for the other section."""
    m = position(seekers={"ann": ("T3", "base"), "bob": ("S3", "base")},
                 resources={"T3": {"apple": 4, "gem": 2}})
    m.apply("ann", "power-up make")
    m.apply("ann", f"keep {m.state.look[0]}")
    assert "make" in m.state.players["ann"].tiles
    action = next(t for t in m.state.content["power_ups"] if t["id"] == m.state.players["ann"].tiles["make"])["action"]["id"]
    assert m.state.players["ann"].last_action == action
    pass_turn(m, "bob")
    assert "power-up move" in m.legal_texts("ann") and action not in m.legal_texts("ann")
    assert GAME.rules.get("MS-H-MAKE-TILE").source == "house"


def test_ms_spell_deck_empty_spellcasting_is_refused_and_the_discards_stay_out():
    """MS-SPELL-DECK-EMPTY: with the spell deck empty no spell can be taken."""
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"gem": 2}},
                 spells={"ann": tuple(f"spell-{i:02d}" for i in range(1, 31))})
    assert not m.state.spell_deck
    assert rule_of(m, "ann", "cast") == "MS-SPELL-DECK-EMPTY"


def test_ms_power_up_pile_empty_cannot_be_chosen():
    """MS-POWERUP-PILE-EMPTY: a pile with no tiles cannot be chosen; the other still can."""
    from arbiter.projections.fold import SETUP
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 2, "gem": 2}})
    taken = []
    for tile in m.state.piles["move"]:
        taken += [ev.PowerUpLooked(seat="bob", pile="move", tiles=(tile,)),
                  ev.PowerUpTaken(seat="bob", pile="move", tile=tile, returned=0)]
    m = Match(GAME, list(m.items) + [(m.seq + i + 1, SETUP, e) for i, e in enumerate(taken)])
    assert not m.state.piles["move"]
    assert rule_of(m, "ann", "power-up move") == "MS-POWERUP-PILE-EMPTY"
    assert "power-up move" not in m.legal_texts("ann")
    m.apply("ann", "power-up make")
    assert m.state.look


def test_ms_seeker_moved_each_seeker_once_per_move():
    """MS-SEEKER-MOVED: each Seeker moves once per Move action, or stays where it is (house
    reading MS-H-STAY: "Move both your Seeker miniatures" sets no minimum)."""
    m = position(seekers={"ann": ("T3", "T1")})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    assert rule_of(m, "ann", "go 1 T5") == "MS-SEEKER-MOVED"
    assert rule_of(m, "ann", "stay 1") == "MS-SEEKER-MOVED"
    m.apply("ann", "stay 2")  # Seeker 2 stays on T1
    assert m.state.players["ann"].seekers == ("T4", "T1")
    assert GAME.rules.get("MS-H-STAY").source == "house"


def test_ms_carry_nothing_base_camp_holds_nothing_and_an_empty_carry_is_a_go():
    """MS-CARRY-NOTHING: carrying takes resources on the Seeker's space; base camp has none."""
    m = position(seekers={"ann": ("base", "T3")})
    m.apply("ann", "move")
    assert rule_of(m, "ann", "carry 1 T3 1 apples") == "MS-CARRY-NOTHING"


def test_ms_delivery_teleport_the_other_seeker_still_moves_after_the_delivery():
    """MS-DELIVERY-TELEPORT: the delivery is at once; the Seeker goes home and the player
    rejuvenates, then the other Seeker moves."""
    m = position(seekers={"ann": ("T1", "T5")}, resources={"T1": {"gem": 4}})
    m.apply("ann", "move")
    m.apply("ann", "carry 1 castle 4 gems")
    assert m.state.players["ann"].seekers[0] == "base"
    assert rule_of(m, "ann", "go 2 T4") == "MS-REJUVENATE-NOT-NOW"  # rejuvenate first
    m.apply("ann", "rejuvenate pies")
    m.apply("ann", "go 2 T4")
    assert m.state.players["ann"].seekers == ("base", "T4")


def test_ms_pie_fight_the_loser_goes_home_leaving_what_it_carried():
    """MS-PIE-FIGHT: higher score wins, ties to the attacker; the loser goes home leaving its
    resources; both pay their pies."""
    m = position(seekers={"ann": ("T3", "base"), "bob": ("T4", "base")}, resources={"T4": {"apple": 2}},
                 tracks={"ann": {"pies": 5}, "bob": {"pies": 5}}, options={"pie_fight_timing": "immediate"})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "dial 2")
    m.apply("bob", "dial 2")  # a tie: the attacker wins
    assert m.state.players["bob"].seekers[0] == "base"
    assert m.state.board["T4"] == {"apple": 2}
    assert (m.state.players["ann"].pies, m.state.players["bob"].pies) == (3, 3)


def test_ms_rejuvenate_not_now_only_when_a_seeker_returns_home():
    """MS-REJUVENATE-NOT-NOW: rejuvenation follows a Seeker's return home, not at will."""
    m = position(seekers={"ann": ("T3", "base")})
    with pytest.raises(RuleViolation) as e:
        m.decide("ann", "rejuvenate pies")
    assert e.value.rule_id == "MS-REJUVENATE-NOT-NOW"


def test_ms_seek_not_now_tokens_only_after_a_seek_roll():
    """MS-SEEK-NOT-NOW: tokens are placed only after a Seek roll."""
    m = position()
    with pytest.raises(RuleViolation) as e:
        m.decide("ann", "place T3")
    assert e.value.rule_id == "MS-SEEK-NOT-NOW"


def test_ms_seek_gift_one_friendship_per_resource_and_none_for_a_quest_token():
    """MS-SEEK-GIFT: an apple or gem on an opponent's Seeker gains 1 friendship each."""
    m = position(dice="manual", seekers={"ann": ("T3", "base"), "bob": ("T4", "base")})
    m.apply("ann", "seek-apples [tundra tundra tundra desert]")
    m.apply("ann", "place T4")
    m.apply("ann", "place T4")
    assert m.state.players["ann"].friendship == 5
    m.apply("ann", "place T4")  # the gem
    assert m.state.players["ann"].friendship == 6
    m.apply("ann", m.legal_texts("ann")[0])  # the quest token, in the desert: no gift
    assert m.state.players["ann"].friendship == 6


def test_ms_seek_exhausted_and_gifts_only_for_tokens_placed():
    """MS-SEEK-EXHAUSTED: with the gem supply empty no gem is placed (and gifts nothing)."""
    total = GAME.default_content()["supply"]["gem"]
    m = position(dice="manual", seekers={"ann": ("T3", "base"), "bob": ("T4", "base")},
                 resources={"D3": {"gem": total}})
    m.apply("ann", "seek-gems [tundra tundra tundra tundra]")
    evs = m.apply("ann", "place T4")  # the apple, a gift to bob's Seeker
    assert [e.kind for e in events_of(evs, ev.TokenSkipped)] == ["gem", "gem"]
    assert m.state.players["ann"].friendship == 4  # one gift, none for the gems not placed


def test_ms_quest_reshuffle_nobody_with_the_trophy_no_quest_is_drawn():
    """MS-QUEST-RESHUFFLE / MS-H-QUEST-EMPTY: rebuilt only from the 2 Quests trophy holders;
    with none the token is taken and no quest drawn."""
    cards = [f"quest-{i:02d}" for i in range(1, 13)]
    m = position(seekers={"ann": ("T3", "base"), "bob": ("S3", "base")}, resources={"T4": {"quest": 1}},
                 quests_done={"ann": tuple(cards)})
    assert not m.state.quest_deck
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "stay 2")
    m.apply("ann", "explore T4")
    assert m.state.quest_card is None and not m.state.board.get("T4", {}).get("quest")
    assert not m.state.quest_deck and m.to_act().seats == ("bob",)


def test_ms_grand_finale_players_past_the_trigger_take_one_final_turn():
    """MS-GRAND-FINALE: when a turn ends with a player at 4 trophies, each player without 4
    takes one final turn."""
    m = position(seats=("ann", "bob", "cy"), trophies={"ann": ALL[:3]}, tracks={"ann": {"pies": 8}})
    pass_turn(m, "ann")
    assert "pies-8" in m.state.players["ann"].trophies and m.state.finale
    pass_turn(m, "bob")
    assert m.outcome() is None
    pass_turn(m, "cy")
    assert m.outcome() is not None and m.outcome().winners == ("ann",)


def test_ms_tie_break_a_further_tie_is_shared():
    """MS-TIE-BREAK: more friendship wins; MS-H-TIE-SHARED: equal friendship too shares the
    win, and the ending says it is the house reading."""
    m = position(trophies={"ann": ALL[:3], "bob": ALL[:3]},
                 tracks={"ann": {"pies": 8, "friendship": 5}, "bob": {"pies": 8, "friendship": 5}})
    pass_turn(m, "ann")
    pass_turn(m, "bob")
    assert set(m.outcome().winners) == {"ann", "bob"}
    assert "MS-H-TIE-SHARED" in m.outcome().reason
    assert GAME.rules.get("MS-H-TIE-SHARED").source == "house"


def test_ms_h_map_base_camps_and_setup_tile():
    """MS-H-MAP / MS-H-BASE-CAMPS / MS-H-SETUP-TILE: 37 spaces, six camps of three front
    spaces; two players use camps 1 and 4, and only their front spaces are filled."""
    c = GAME.default_content()
    assert len(c["spaces"]) == 37 and len(c["base_camps"]) == 6
    assert c["camps_by_players"]["2"] == [1, 4]
    m = Match.new(GAME, seed=2, seats=["ann", "bob"])
    fronts = {s for camp in c["base_camps"] if camp["id"] in (1, 4) for s in camp["front"]}
    assert set(m.state.board) <= fronts


def test_ms_h_mat_and_content():
    """MS-H-MAT / MS-H-CONTENT: the mat's six actions; 12 quests, 30 spells, 8+8 tiles, 8
    personalities."""
    c = GAME.default_content()
    assert [a["id"] for a in c["mat"]] == ["move", "seek-apples", "seek-gems", "bake", "cast", "power-up"]
    assert (len(c["quests"]), len(c["spells"]), len(c["power_ups"]), len(c["personalities"])) == (12, 30, 16, 8)


def test_ms_h_round_limit_is_off_by_default():
    """MS-H-ROUND-LIMIT: off by default: many quiet rounds do not end the game."""
    m = position()
    for _ in range(5):
        pass_turn(m, "ann")
        pass_turn(m, "bob")
    assert m.outcome() is None


def test_ms_h_delivery_extras_refuse_reading():
    """MS-H-DELIVERY-EXTRAS: under 'refuse', five gems cannot be brought for a delivery."""
    m = position(seekers={"ann": ("T1", "T5")}, resources={"T1": {"gem": 5}},
                 options={"delivery_extras": "refuse"})
    m.apply("ann", "move")
    with pytest.raises(RuleViolation):
        m.decide("ann", "carry 1 castle 5 gems")
    m.apply("ann", "carry 1 castle 4 gems")


def test_ms_h_section_name_both_words_are_accepted():
    """MS-H-SECTION-NAME: Make and Craft name the same section."""
    for word in ("make", "craft"):
        m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 4, "gem": 2}})
        m.apply("ann", f"power-up {word}")
        assert m.state.look


def test_ms_h_low_friendship_pie_fight_option_off_lets_the_trophy_through():
    """MS-H-LOW-FRIENDSHIP-PIE-FIGHT: by default 'any trophies' includes Pie Fight Victory."""
    for blocks, earned in ((True, False), (False, True)):
        m = position(seekers={"ann": ("T3", "base"), "bob": ("T4", "base")},
                     tracks={"ann": {"pies": 5, "friendship": 2}, "bob": {"pies": 5}},
                     options={"pie_fight_timing": "immediate", "low_friendship_blocks_pie_fight": blocks})
        m.apply("ann", "move")
        m.apply("ann", "go 1 T4")
        m.apply("ann", "dial 3")
        m.apply("bob", "dial 0")
        while m.to_act().seats == ("bob",) and m.state.rejuv:
            m.apply("bob", "rejuvenate pies")
        assert ("pie-fight" in m.state.players["ann"].trophies) is earned


def test_ms_h_carry_a_seeker_takes_what_it_names_and_the_rest_stays():
    """MS-H-CARRY: a carrying Seeker names how many it takes."""
    m = position(seekers={"ann": ("T3", "T1")}, resources={"T3": {"apple": 3}})
    m.apply("ann", "move")
    m.apply("ann", "carry 1 T4 2 apples")
    assert m.state.board["T4"] == {"apple": 2} and m.state.board["T3"] == {"apple": 1}


def test_ms_h_friendship_max_the_track_stops_at_16():
    """MS-H-FRIENDSHIP-MAX: the friendship track stops at 16."""
    m = position(dice="manual", seekers={"ann": ("T3", "base"), "bob": ("T4", "base")},
                 tracks={"ann": {"friendship": 15}})
    m.apply("ann", "seek-apples [tundra tundra tundra desert]")
    m.apply("ann", "place T4")
    m.apply("ann", "place T4")
    assert m.state.players["ann"].friendship == 16


def test_ms_h_rejuvenate_auto_with_the_spell_deck_empty_two_pies_without_asking():
    """MS-H-REJUVENATE-AUTO: the spell deck empty, rejuvenation takes 2 pies at once."""
    m = position(seekers={"ann": ("T1", "T5")}, resources={"T1": {"gem": 4}},
                 spells={"ann": tuple(f"spell-{i:02d}" for i in range(1, 31))})
    pies = m.state.players["ann"].pies
    m.apply("ann", "move")
    m.apply("ann", "carry 1 castle 4 gems")
    assert m.state.players["ann"].pies == min(10, pies + 2) and not m.state.rejuv


def test_ms_h_endgame_four_trophies_does_not_end_the_game_before_the_finale():
    """MS-H-ENDGAME: the Grand Finale rules win over "ends when one player has four"."""
    m = position(trophies={"ann": ALL[:3]}, tracks={"ann": {"pies": 8}})
    pass_turn(m, "ann")
    assert len(m.state.players["ann"].trophies) == 4 and m.outcome() is None
    pass_turn(m, "bob")
    assert m.outcome() is not None


def test_ms_h_dial_spells_any_number_from_hand():
    """MS-H-DIAL-SPELLS ("Pie Fight"): "I can secretly attach a Magic Spell Card" against "the
    value of my magic spell(s) will be added": every spell clipped counts, each once."""
    m = position(seekers={"ann": ("T3", "base"), "bob": ("T4", "base")},
                 spells={"ann": ("spell-11", "spell-12"), "bob": ()})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "stay 2")
    assert rule_of(m, "ann", "dial 0 with spell-11 spell-11") == "MS-DIAL-SPELL"
    m.apply("ann", "dial 0 with spell-11 spell-12")
    evs = m.apply("bob", "dial 0")
    reveal = [e for e in evs if isinstance(e, ev.PieFightRevealed)][0]
    values = {c["id"]: c["value"] for c in m.state.content["spells"]}
    assert reveal.scores["ann"] == values["spell-11"] + values["spell-12"]
    assert GAME.rules.get("MS-H-DIAL-SPELLS").source == "house"


def test_ms_h_final_turns_are_settled_as_the_grand_finale_begins():
    """MS-H-FINAL-TURNS ("Grand Finale": "each player who doesn't have 4 trophies yet takes 1
    final turn"): cy, without 4 when the finale begins, wins a pie fight as the defender on
    bob's final turn (her 4th trophy) and still takes her own final turn."""
    m = position(seats=("ann", "bob", "cy"), trophies={"ann": ALL[:3], "cy": ALL[:3]},
                 tracks={"ann": {"pies": 8}}, seekers={"bob": ("T3", "base"), "cy": ("T4", "base")})
    pass_turn(m, "ann")
    assert m.state.finale and m.state.finale_left == ("cy",)
    m.apply("bob", "move")
    m.apply("bob", "go 1 T4")
    m.apply("bob", "stay 2")
    m.apply("bob", "dial 0")
    m.apply("cy", "dial 1")
    assert len(m.state.players["cy"].trophies) == 4 and "pie-fight" in m.state.players["cy"].trophies
    m.apply("bob", "rejuvenate pies")
    assert m.outcome() is None and m.state.active == "cy" and m.state.final
    pass_turn(m, "cy")
    assert m.outcome() is not None
    assert GAME.rules.get("MS-H-FINAL-TURNS").source == "house"
