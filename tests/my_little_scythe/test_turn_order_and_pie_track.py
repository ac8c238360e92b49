"""Two gaps of the rulebook, played through the command line: which player's turn comes next
("Your Turn", house reading MS-H-TURN-ORDER) and Bake Pies with the Pie Track at 10 ("Craft",
house reading MS-H-BAKE-AT-TEN)."""

import json
import re

import pytest
from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.core.my_little_scythe import GAME
from my_little_scythe.helpers import position, rule_of

PLAYERS = ("ann", "bob", "cy", "dee")


@pytest.fixture
def cli(tmp_path, monkeypatch):
    monkeypatch.setenv("ARBITER_DB", str(tmp_path / "ms.duckdb"))
    monkeypatch.setenv("ARBITER_HOME", str(tmp_path / "home"))
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


def to_act(cli, gid: str) -> str:
    """Who `show` says is to act."""
    out = cli("show", gid).output
    return re.findall(r"^(\w+) to act:", out, re.M)[-1]


def place_what_the_seek_found(cli, gid: str, seat: str) -> None:
    """Each found token on the first space of its region that takes it (a quest token may
    not go where one already is, "Seek")."""
    while True:
        state = json.loads(cli("show", gid, "--as", seat, "-f", "json").output)
        if not state["seek"] or state["active"] != seat:
            return
        _kind, region = state["seek"][0]
        spaces = [s["id"] for s in state["content"]["spaces"] if s.get("region") == region]
        assert any(cli("do", gid, "--as", seat, "place", x).exit_code == 0 for x in spaces), (region, spaces)


def test_after_the_first_player_the_turn_goes_round_in_the_order_the_players_were_named(cli):
    """"After you've done 1 action and maybe earned 1 trophy, it's the next player's turn"
    ("Your Turn"); the first player is drawn from the action tokens (MS-FIRST-PLAYER); the
    rulebook names no direction, so the turn passes in the order the players were named
    (house reading MS-H-TURN-ORDER). Three rounds of four players, through `new`, `do`, `show`."""
    made = cli("new", "my-little-scythe", "--seed", "4", "-p", ",".join(PLAYERS))
    assert made.exit_code == 0, made.output
    gid = made.output.split()[0]
    first = to_act(cli, gid)
    i = PLAYERS.index(first)
    expected = (PLAYERS[i:] + PLAYERS[:i]) * 3
    seen = []
    for turn, seat in enumerate(expected):
        now = to_act(cli, gid)
        seen.append(now)
        assert now == seat, (turn, seen)
        # the player after them may not act yet: refused in words, nothing stored
        after = expected[(turn + 1) % len(expected)]
        before = cli("show", gid, "-f", "json").output
        early = cli("do", gid, "--as", after, "move")
        assert early.exit_code == 1 and f"waiting on {seat}" in early.output
        assert cli("show", gid, "-f", "json").output == before
        if turn // len(PLAYERS) % 2 == 0:  # a quiet Move, then a Seek: never the same action twice
            for line in ("move", "stay 1", "stay 2"):
                assert cli("do", gid, "--as", seat, line).exit_code == 0
        else:
            assert cli("do", gid, "--as", seat, "seek-gems").exit_code == 0
            place_what_the_seek_found(cli, gid, seat)
    assert seen == list(expected) and to_act(cli, gid) == first  # a fourth round begins
    rule = cli("rules", "my-little-scythe", "MS-H-TURN-ORDER").output
    assert "house" in rule and "no direction" in rule


def test_base_camps_are_handed_out_in_the_order_of_turns():
    """MS-H-TURN-ORDER: "the turn passes to the next active base camp" whoever goes first."""
    from arbiter.core.match import Match

    firsts = set()
    for seed in range(8):
        s = Match.new(GAME, seed=seed, seats=list(PLAYERS)).state
        firsts.add(s.order[0])
        camps = [s.players[x].camp for x in s.order]
        k = camps.index(min(camps))
        assert camps[k:] + camps[:k] == sorted(camps) == GAME.default_content()["camps_by_players"]["4"]
        assert s.order == PLAYERS[PLAYERS.index(s.order[0]):] + PLAYERS[:PLAYERS.index(s.order[0])]
    assert len(firsts) > 1


def test_bake_pies_at_ten_pies_is_refused_in_words_citing_the_pie_track():
    """"that gets me 2 pies (I keep count using my token on the Pie Track, which can go up to
    10)" ("Craft"): at 10 Bake Pies would pay 2 apples for nothing and is refused (house
    reading MS-H-BAKE-AT-TEN); the apples stay, and the menu does not offer it."""
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 4}}, tracks={"ann": {"pies": 10}})
    seq = m.seq
    with pytest.raises(Exception) as e:
        m.decide("ann", "bake")
    assert e.value.rule_id == "MS-H-BAKE-AT-TEN"
    assert "ann has 10 pies and the Pie Track can go up to 10" in str(e.value)
    assert m.seq == seq and m.state.board["T3"] == {"apple": 4}
    assert "bake" not in m.legal_texts("ann") and "move" in m.legal_texts("ann")
    assert GAME.rules.get("MS-H-BAKE-AT-TEN").source == "house"
    assert GAME.rules.get("MS-PIE-TRACK").source == "rulebook"


def test_bake_pies_at_nine_gains_one_and_the_second_pie_is_lost():
    """MS-PIE-TRACK: the track "can go up to 10"; Bake at 9 is taken and stops there."""
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 2}}, tracks={"ann": {"pies": 9}})
    m.apply("ann", "bake")
    assert m.state.players["ann"].pies == 10 and not m.state.board.get("T3")


def test_a_make_tile_at_ten_pies_is_refused_only_when_it_gives_nothing_else():
    """MS-H-BAKE-AT-TEN covers a Make tile that gives only pies (Pie Cannon); Friendship
    Bakery still gains a friendship at 10 pies and is taken."""
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 4}}, tracks={"ann": {"pies": 10}},
                 tiles={"ann": {"make": "pu-make-01"}}, last_action={"ann": "move"})
    assert rule_of(m, "ann", "pie-cannon") == "MS-H-BAKE-AT-TEN"
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 4}}, tracks={"ann": {"pies": 10}},
                 tiles={"ann": {"make": "pu-make-05"}}, last_action={"ann": "move"})
    m.apply("ann", "friendship-bakery")
    assert m.state.players["ann"].pies == 10 and m.state.players["ann"].friendship == 4


def test_rejuvenating_with_two_pies_at_ten_is_still_a_choice():
    """MS-H-BAKE-AT-TEN: rejuvenating is not an exchange; "2 pies" at 10 is taken and changes nothing."""
    m = position(seekers={"ann": ("T1", "base")}, resources={"T1": {"apple": 4}}, tracks={"ann": {"pies": 10}})
    m.apply("ann", "move")
    m.apply("ann", "carry 1 castle 4 apples")
    m.apply("ann", "rejuvenate pies")
    assert m.state.players["ann"].pies == 10 and not m.state.rejuv


def test_cli_bake_at_ten_exits_1_with_the_rule_and_its_section(cli, tmp_path):
    """Through `new --content` (a Pie Track starting at 10, apples in front of every camp) and
    `do`: exit 1, the refusal names the rule and "Craft", and nothing is stored."""
    content = GAME.default_content()
    content["tracks"]["pies"]["start"] = 10
    content["setup_tile"]["sides"] = [[{"apple": 2}] * 3] * len(content["setup_tile"]["sides"])
    (tmp_path / "ten.json").write_text(json.dumps(content))
    gid = cli("new", "my-little-scythe", "--seed", "2", "-p", "ann,bob", "--content", str(tmp_path / "ten.json")).output.split()[0]
    seat = to_act(cli, gid)
    before = cli("show", gid, "-f", "json").output
    out = cli("do", gid, "--as", seat, "bake")
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert f"{seat} has 10 pies and the Pie Track can go up to 10: Bake Pies would pay for nothing" in out.output
    assert '(MS-H-BAKE-AT-TEN, "Craft")' in out.output
    assert cli("show", gid, "-f", "json").output == before
    assert cli("do", gid, "--as", seat, "cast").exit_code == 1  # no gems in front: the cost, not the cap


# -- refusals and log lines found unclear in a whole game played through the command line --

def test_a_make_tiles_action_right_after_keeping_it_says_where_the_token_came_from():
    """"your action token should be replaced with the Power Up action from your new tile"
    ("Craft", house reading MS-H-MAKE-TILE): the player did not take the tile's action last
    turn, so the MS-SAME-ACTION refusal says the token was moved onto it."""
    m = position(seekers={"ann": ("T3", "base"), "bob": ("S3", "base")}, resources={"T3": {"apple": 4, "gem": 2}})
    m.apply("ann", "power-up make")
    m.apply("ann", f"keep {m.state.look[0]}")
    action = next(t for t in m.state.content["power_ups"] if t["id"] == m.state.players["ann"].tiles["make"])["action"]["id"]
    m.apply("bob", "move")
    m.apply("bob", "stay 1")
    m.apply("bob", "stay 2")
    with pytest.raises(Exception) as e:
        m.decide("ann", action)
    assert e.value.rule_id == "MS-SAME-ACTION"
    assert e.value.message == (f"ann's action token is on {action} from their last turn; it must go on a"
                            " different action (keeping a Make tile moves the token from Power Up onto the"
                            " tile's action)")
    m = position(last_action={"ann": "move"})
    with pytest.raises(Exception) as e:
        m.decide("ann", "move")
    assert e.value.message == "ann's action token is on move from their last turn; it must go on a different action"


def test_a_cost_not_covered_names_what_the_player_has_and_where():
    """"you can pay them from any space where you have a Seeker" ("Quests"); a Make action at
    base camp also reaches the spaces in front of it (house reading MS-H-FIRST-TURN-BAKE)."""
    m = position(seekers={"ann": ("T1", "T2")}, resources={"T1": {"apple": 1}})
    with pytest.raises(Exception) as e:
        m.decide("ann", "bake")
    assert e.value.message == "Bake Pies costs 2 apples but ann has only 1 on their Seekers' spaces"
    m = position(seekers={"ann": ("T1", "base")}, resources={"T1": {"gem": 1}})
    with pytest.raises(Exception) as e:
        m.decide("ann", "power-up move")
    assert e.value.message == ("Power Up costs 1 apple but ann has only 0 on their Seekers' spaces and those in"
                            " front of their camp")


def test_log_lines_say_one_seeker_or_two_and_one_winner_or_several():
    """The log reads as English: "Seeker 2 returns", "Seekers 1 and 2 return", "1 tile goes"."""
    from arbiter.core.explain import describe
    from arbiter.events import my_little_scythe as ev
    from my_little_scythe.helpers import events_of

    m = position(seekers={"ann": ("T1", "M1")}, resources={"T1": {"apple": 2}, "M1": {"apple": 2}})
    m.apply("ann", "move")
    m.apply("ann", "carry 1 castle 2 apples")
    evs = m.apply("ann", "carry 2 castle 2 apples")
    assert describe(m, events_of(evs, ev.SeekersSentHome)[0]) == "ann's Seekers 1 and 2 return to base camp (delivery)"
    m = position(seekers={"ann": ("T3", "base"), "bob": ("T4", "base")}, options={"pie_fight_timing": "immediate"})
    m.apply("ann", "move")
    m.apply("ann", "go 1 T4")
    m.apply("ann", "dial 1")
    evs = m.apply("bob", "dial 0")
    assert describe(m, events_of(evs, ev.SeekersSentHome)[0]) == "bob's Seeker 1 returns to base camp (pie-fight)"
    assert describe(m, ev.PowerUpTaken(seat="ann", pile="move", tile="pu-move-01", returned=1)) == \
        "ann keeps pu-move-01; 1 tile goes to the bottom"
    assert describe(m, ev.GameEnded(winners=("ann", "bob"), reason="r", trophies={}, friendship={})).startswith(
        "game over: ann and bob share the rule of Pomme")


def test_a_refused_token_placement_says_why_in_the_rulebooks_words():
    """"place a quest token on a space that doesn't already have one or any Seekers" and
    "the dice will tell you which regions the tokens are in" ("Seek"): the refusal names what
    is on the space, and the region as the rulebook writes it ("red rock")."""
    m = position(dice="manual", seekers={"ann": ("S1", "base"), "bob": ("S2", "base")},
                 resources={"S3": {"quest": 1}})
    m.apply("ann", "seek-apples [redrock tundra desert swamp]")
    with pytest.raises(Exception) as e:
        m.decide("ann", "place T1")
    assert e.value.rule_id == "MS-SEEK-REGION"
    assert e.value.message == "the apple was found in the red rock; T1 is in the tundra"
    for space in ("R2", "T1", "D1"):
        m.apply("ann", f"place {space}")
    for space, why in (("S1", "ann's Seeker stands there"), ("S2", "bob's Seeker stands there"),
                       ("S3", "a quest token is already there")):
        with pytest.raises(Exception) as e:
            m.decide("ann", f"place {space}")
        assert e.value.rule_id == "MS-SEEK-QUEST-SPACE"
        assert e.value.message == f"a quest token needs a space with no quest token and no Seekers, and on {space} {why}"
    m.apply("ann", "place S4")


def test_a_quest_that_takes_more_pies_than_you_have_cannot_be_chosen():
    """House reading MS-H-QUEST-PIES ("Quests" speaks of gems, apples and friendship, not pies):
    Pie Contest's "lose 3 pies" with 2 pies is refused under the house entry; the friendship
    option that would go below zero is still taken ("my friendship token will always stay at zero")."""
    from my_little_scythe.test_quests import at_quest

    m = at_quest("quest-12", tracks={"ann": {"pies": 2}})
    with pytest.raises(Exception) as e:
        m.decide("ann", "quest 1")
    assert e.value.rule_id == "MS-H-QUEST-PIES"
    assert e.value.message == "Pie Contest option 1 costs 3 pies; ann has 2"
    assert GAME.rules.get("MS-H-QUEST-PIES").source == "house"
    assert "gems or apples" in GAME.rules.get("MS-QUEST-CANNOT-PAY").text
    m = at_quest("quest-09", tracks={"ann": {"friendship": 0}})
    m.apply("ann", "quest 2")
    assert m.state.players["ann"].friendship == 0 and m.state.players["ann"].pies == 5


def test_a_step_onto_the_seekers_own_space_points_to_stay():
    """"I can move a Seeker up to 2 spaces" ("Moving my Seekers"); staying is `stay` (house
    reading MS-H-STAY): `go 1 T1` from T1 says so rather than "T1 is not adjacent to T1"."""
    m = position(seekers={"ann": ("T1", "T2")})
    m.apply("ann", "move")
    with pytest.raises(Exception) as e:
        m.decide("ann", "go 1 T1")
    assert e.value.rule_id == "MS-MOVE-ADJACENT"
    assert e.value.message == ("the Seeker is on T1 already; a step goes to an adjacent space (`stay` keeps a"
                               " Seeker where it is)")
    m.apply("ann", "stay 1")


@pytest.mark.parametrize("text,rule,why", [
    ("dial 3", "MS-DIAL-NOT-NOW", "there is no pie fight now (one starts when a Seeker moves onto an opponent's)"),
    ("rejuvenate pies", "MS-REJUVENATE-NOT-NOW", "no Seeker has just returned to base camp"),
    ("place T1", "MS-SEEK-NOT-NOW", "there are no found tokens to place (a Seek finds them)"),
    ("quest 1", "MS-QUEST-NOT-NOW", "there is no quest card to answer (quests come after moving)"),
    ("go 1 T3", "MS-MOVE-NOT-NOW", "Seekers move during a Move action"),
])
def test_a_later_step_given_before_any_action_says_why_it_cannot_be_now(text, rule, why):
    """"When it's your turn, you have to choose and do something on your player mat" ("Your
    Turn"): a dial, a placement or a quest answer before the action says what it waits for."""
    m = position(seekers={"ann": ("T1", "T2")})
    with pytest.raises(Exception) as e:
        m.decide("ann", text)
    assert e.value.rule_id == rule
    assert e.value.message == f"{why}; first choose an action on your mat (move, seek or make)"


def test_the_camps_run_anticlockwise_round_the_drawn_map_as_the_house_entry_says():
    """MS-H-TURN-ORDER names the way the turn travels on the drawn map: camp 1 at the bottom,
    then anticlockwise (rows drawn top to bottom, each half a hex to the right of the last)."""
    import math

    from arbiter.core.my_little_scythe.board import board_of

    b = board_of(GAME.default_content())
    angles = []
    for camp in sorted(b.fronts):
        spaces = [b.spaces[x] for x in b.fronts[camp]]
        x = sum(sp["q"] + sp["r"] / 2 for sp in spaces) / 3
        y = sum(sp["r"] for sp in spaces) / 3
        angles.append(math.degrees(math.atan2(-y, x)) % 360)  # screen rows go down
    assert 225 < angles[0] < 315  # camp 1 at the bottom edge
    assert all((b - a) % 360 < 90 for a, b in zip(angles, angles[1:]))  # each camp anticlockwise of the last
    assert "anticlockwise" in GAME.rules.get("MS-H-TURN-ORDER").text


def test_a_make_tile_that_gives_only_friendship_is_refused_at_the_top_without_naming_pies(monkeypatch):
    """MS-H-BAKE-AT-TEN for a content file's own Make tile: friendship only, at the top of its
    track -- the refusal does not speak of the Pie Track."""
    content = GAME.default_content()
    tile = next(t for t in content["power_ups"] if t["id"] == "pu-make-05")
    tile["action"] = {**tile["action"], "gain": {"friendship": 1}}
    monkeypatch.setattr(type(GAME), "default_content", lambda self: content)
    top = content["tracks"]["friendship"]["max"]
    m = position(seekers={"ann": ("T3", "base")}, resources={"T3": {"apple": 4}}, tracks={"ann": {"friendship": top}},
                 tiles={"ann": {"make": "pu-make-05"}}, last_action={"ann": "move"})
    with pytest.raises(Exception) as e:
        m.decide("ann", "friendship-bakery")
    assert e.value.rule_id == "MS-H-BAKE-AT-TEN" and e.value.message == "Friendship Bakery would pay for nothing"
