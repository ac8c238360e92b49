"""Where a player would argue: a forbidden command form is refused citing the rule that forbids
it (parse-level forms included), not as a typo; each test quotes the rulebook sentence."""


from my_little_scythe.helpers import position, rule_of
from my_little_scythe.test_quests import at_quest


def test_a_dial_below_zero_or_above_seven_cites_the_dial():
    """"On the dial, we can choose a number from 0 to 7" ("Pie Fight")."""
    m = position(seekers={"ann": ("T3", "base"), "bob": ("T4", "base")}, tracks={"bob": {"pies": 10}},
                 options={"pie_fight_timing": "immediate"})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    assert rule_of(m, "bob", "dial -1") == "MS-DIAL-RANGE"
    assert rule_of(m, "bob", "dial 8") == "MS-DIAL-RANGE"
    m.apply("bob", "dial 7")


def test_a_third_quest_option_cites_the_quest_rule():
    """"You can either choose one of the first two options or say 'No Thanks'" ("Quests")."""
    m = at_quest("quest-01")
    assert rule_of(m, "ann", "quest 3") == "MS-QUEST-OPTION"
    assert rule_of(m, "ann", "quest 0") == "MS-QUEST-OPTION"
    assert m.state.quest_card == "quest-01"


def test_a_trophy_named_twice_cites_each_trophy_once():
    """"Each trophy can only be earned once" ("The Importance of Trophies")."""
    m = position(tracks={"ann": {"pies": 8}}, spells={"ann": ("spell-01", "spell-02", "spell-03")})
    m.apply("ann", "move")
    m.apply("ann", "stay 1")
    m.apply("ann", "stay 2")
    assert rule_of(m, "ann", "trophy pies-8 pies-8") == "MS-TROPHY-ONCE"
    m.apply("ann", "trophy pies-8")
    assert m.state.players["ann"].trophies == ("pies-8",)


def test_as_many_magic_spells_as_you_want():
    """"You can have as many Magic Spells as you want" ("Craft")."""
    many = tuple(f"spell-{i:02d}" for i in range(1, 9))
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"gem": 2}}, spells={"ann": many})
    m.apply("ann", "cast")
    assert len(m.state.players["ann"].spells) == 9


def test_the_pie_track_stops_at_ten():
    """"that gets me 2 pies (I keep count using my token on the Pie Track, which can go up to 10)"."""
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 2}}, tracks={"ann": {"pies": 9}})
    m.apply("ann", "bake")
    assert m.state.players["ann"].pies == 10
