"""Rulings where the referee and the rulebook parted, checked through the CLI a player
uses (`new --content`, `do`, `try`, `why`, `rules`) against the book's own sentences."""

from __future__ import annotations

import json
from typing import Any

from sp_helpers import content


def new_battle(cli, tmp_path, c: dict[str, Any], *options: str) -> str:
    """A two-player battle on crafted content, with physical dice and fixed placement."""
    path = tmp_path / "content.json"
    path.write_text(json.dumps(c))
    opts = [x for o in ("placement=fixed", *options) for x in ("-o", o)]
    out = cli("new", "scott-pilgrim", "--seed", "5", "-p", "good,bad", "--dice", "manual",
              "--content", str(path), *opts)
    assert out.exit_code == 0, out.output
    return out.output.split()[0]


def do(cli, gid: str, seat: str, text: str) -> str:
    out = cli("do", gid, "--as", seat, *text.split())
    assert out.exit_code == 0, out.output
    return out.output


def refused(cli, gid: str, seat: str, text: str) -> str:
    out = cli("try", gid, "--as", seat, *text.split())
    assert out.exit_code == 1, out.output
    return out.output


def referee_log(cli, gid: str) -> list[dict[str, Any]]:
    return json.loads(cli("log", gid, "--as", "referee", "--format", "json").output)


# -- Winning the Game: "The Good Guys win if Matthew Patel ... is knocked out." / "The Bad
# Guys win if all the Good Guys are knocked out." The book gives no order between them.

def test_one_effect_knocking_out_matthew_and_the_last_good_guy_is_a_good_guys_win(cli, tmp_path):
    """Hipster Swarm: Chick 1's knockback sends Scott into Matthew, who is knocked into the
    wall ("they still take damage if you knock them into a wall") and out; then Chick 2's
    hit knocks Scott out. The house reading SP-HOUSE-BOTH-OUT gives the win to the Good Guys."""
    c = content({"scott": "j4", "matthew": "k4", "chick1": "i4", "chick2": "j5", "chick3": "a8"},
                objects={}, boards={"matthew": {"starter": ["hipster-swarm", "fireballs"]}})
    c["health"]["matthew"] = 1
    c["health"]["good"]["normal"][0] = 3
    gid = new_battle(cli, tmp_path, c, "good_guys=scott")
    do(cli, gid, "bad", "roll [guts guts magic guts guts]")
    do(cli, gid, "bad", "matthew hipster-swarm")
    out = do(cli, gid, "good", "allow")
    assert "matthew is knocked out" in out and "scott is knocked out" in out
    assert "Good Guys win" in out
    seq = str(next(r["seq"] for r in referee_log(cli, gid) if r["type"] == "BattleOver"))
    why = cli("why", gid, seq).output
    assert "SP-HOUSE-BOTH-OUT" in why and "SP-WIN" in why
    rules = cli("rules", "scott-pilgrim").output
    assert "SP-HOUSE-BOTH-OUT" in rules and "SP-WIN" in rules


# -- The Rockit: "The venue's center row is full of item spaces."

def test_the_house_venue_says_how_it_reads_the_center_row_of_item_spaces(cli):
    rules = cli("rules", "scott-pilgrim").output
    venue = " ".join(rules.split("\nSP-HOUSE-VENUE", 1)[1].split("\nSP-", 1)[0].split())
    assert "center row" in venue and "f2-f7" in venue and "f1 and f8" in venue


# -- "Whenever Matthew moves, each Chick on the board moves the same number of spaces"

def test_a_chick_moving_twice_for_one_move_of_matthews_cites_the_books_rule(cli, tmp_path):
    c = content({"matthew": "j4", "chick1": "j5", "chick2": "j3", "chick3": "k4"})
    gid = new_battle(cli, tmp_path, c, "good_guys=scott")
    do(cli, gid, "bad", "roll [speed will magic magic guts]")
    # all five dice on the move: the Chicks still follow, spending none (not SP-TURN-END)
    do(cli, gid, "bad", "matthew move i4 h4 pay speed will magic magic guts")
    do(cli, gid, "bad", "chick1 move j6 j5")
    out = refused(cli, gid, "bad", "chick1 move j6 j5")
    assert "(SP-CHICK-MOVE," in out and "chick2, chick3 still to follow" in out
    do(cli, gid, "bad", "chick2 move j2 j3")
    do(cli, gid, "bad", "chick3 move k5 k4")
    out = refused(cli, gid, "bad", "chick2 move j2 j3")
    assert "(SP-CHICK-MOVE," in out and "still to follow" not in out


# -- Knocking Into the Wall: "the player taking their turn chooses where each thing goes"

def reversal_battle(cli, tmp_path) -> str:
    """Scott (with a full Combo box) beside Matthew, a table behind Matthew by the wall."""
    c = content({"scott": "h4", "matthew": "i4"}, objects={"table-1": "j4"},
                items=["xp-boost"])
    gid = new_battle(cli, tmp_path, c, "good_guys=scott")
    for seat, text in (("bad", "roll [speed speed speed speed speed]"), ("bad", "end"),
                       ("good", "roll [speed speed guts guts guts]"),
                       ("good", "use xp-boost scott"), ("good", "end"),
                       ("bad", "roll [will will guts magic magic]")):
        do(cli, gid, seat, text)
    return gid


def matthew_at(cli, gid: str) -> str:
    row = next(r for r in cli("show", gid).output.splitlines() if "Matthew Patel" in r)
    return row.split()[3]


def test_under_a_reversal_the_bad_guys_still_choose_where_a_thing_against_the_wall_ends(cli, tmp_path):
    """Scott turns Levitation Kick back: Matthew is knocked into the table, the table into
    the wall, and Matthew, the second thing against it, ends beside it. It is still the
    Bad Guys' turn, so the Bad Guys choose where (named on their ability)."""
    gid = reversal_battle(cli, tmp_path)
    do(cli, gid, "bad", "matthew levitation-kick scott land matthew@k5")
    out = refused(cli, gid, "good", "reversal land matthew@k3")
    assert "(SP-KNOCKBACK-WALL," in out and "player taking their turn" in out
    out = refused(cli, gid, "good", "allow land matthew@k3")
    assert "(SP-KNOCKBACK-WALL," in out
    do(cli, gid, "good", "reversal")
    assert matthew_at(cli, gid) == "k5"


def test_help_says_whose_the_land_and_reversal_knock_choices_are(cli, tmp_path):
    gid = new_battle(cli, tmp_path, content())
    out = cli("play", gid, stdin="help\nquit\n").output
    assert "chosen by the team whose turn it is" in out and "reversal knock matthew@e" in out


def test_without_the_bad_guys_choice_a_reversed_knockback_lands_on_the_nearest_space(cli, tmp_path):
    gid = reversal_battle(cli, tmp_path)
    do(cli, gid, "bad", "matthew levitation-kick scott")
    do(cli, gid, "good", "reversal")
    assert matthew_at(cli, gid) == "k3"


def test_the_direction_of_the_knockback_a_reversal_deals_is_scotts(cli, tmp_path):
    """"The player dealing the knockback chooses the direction": the Bad Guys may not name
    the direction Matthew is knocked, and the Good Guys may not name theirs in an 'allow'."""
    gid = reversal_battle(cli, tmp_path)
    out = refused(cli, gid, "bad", "matthew levitation-kick scott knock matthew@e")
    assert "(SP-CHOICE," in out
    do(cli, gid, "bad", "matthew levitation-kick scott")
    out = refused(cli, gid, "good", "allow knock scott@w")
    assert "(SP-KNOCKBACK-DIRECTION," in out


def blast_battle(cli, tmp_path, scott_at: str) -> str:
    """Matthew declares a blast (2 spaces around him, 1 damage, 1 knockback) at Scott, with
    a full Combo box, and Ramona, a knight's move away (an unclear direction, "the player
    dealing the knockback chooses"): the Bad Guys knock her east."""
    c = content({"scott": scott_at, "ramona": "g5", "matthew": "e4"}, objects={},
                items=["xp-boost", "brick"],
                boards={"matthew": {"starter": ["blast", "fireballs"]}})
    c["abilities"]["blast"] = {"name": "Blast", "source": "house", "cost": ["magic", "magic"],
                               "target": "each-range", "range": 2, "damage": 1, "knockback": 1}
    gid = new_battle(cli, tmp_path, c, "good_guys=scott,ramona")
    for seat, text in (("bad", "roll [speed speed speed speed speed]"), ("bad", "end"),
                       ("good", "roll [speed speed guts guts guts]"),
                       ("good", "use xp-boost scott"), ("good", "end"),
                       ("bad", "roll [will will guts magic magic]"),
                       ("bad", "matthew blast knock ramona@e")):
        do(cli, gid, seat, text)
    return gid


def places(cli, gid: str) -> dict[str, str]:
    """Where each character stands, by the two letters `show` marks them with."""
    rows = [r.split() for r in cli("show", gid).output.splitlines() if r.startswith("  ")]
    return {r[0]: r[3] for r in rows if len(r) > 3 and len(r[0]) == 2 and r[0].isupper()}


def test_under_a_reversal_the_knockback_matthew_still_deals_goes_where_the_bad_guys_chose(cli, tmp_path):
    """Scott turns his part of the blast back; Ramona is still knocked the way the Bad Guys
    named on their ability."""
    gid = blast_battle(cli, tmp_path, "d4")
    do(cli, gid, "good", "reversal")
    at = places(cli, gid)
    assert at["RA"] == "h5"  # east, as the Bad Guys chose (not the nearer north-east)
    assert at["MP"] == "f4"  # Scott's reversed knockback: straight away from him


def test_scott_chooses_the_unclear_direction_of_the_knockback_his_reversal_deals(cli, tmp_path):
    gid = blast_battle(cli, tmp_path, "c3")  # a knight's move from Matthew too
    out = cli("try", gid, "--as", "good", "reversal", "knock", "matthew@e")
    assert out.exit_code == 0, out.output
    checked = out.output.split("checked", 1)[1].split(")", 1)[0]
    assert "SP-KNOCKBACK-DIRECTION" in checked and "SP-KNOCKBACK-WALL" not in checked
    do(cli, gid, "good", "reversal knock matthew@e")
    assert places(cli, gid)["MP"] == "f4"  # east, not the nearer north-east


# -- Use a Special Ability: "You can use a special ability by spending the combination of
# dice it lists on your player board. The 'any die' icon means 'any die.'"

def test_an_any_die_cost_spends_the_dice_named_else_the_house_reading_says_which(cli, tmp_path):
    c = content({"scott": "e4", "matthew": "f4"}, objects={})
    gid = new_battle(cli, tmp_path, c, "good_guys=scott")
    for seat, text in (("bad", "roll [speed speed speed speed speed]"), ("bad", "end"),
                       ("good", "roll [speed will will guts health]")):
        do(cli, gid, seat, text)
    named = cli("try", gid, "--as", "good", "scott", "shadow-kick", "matthew", "pay", "speed", "guts")
    assert named.exit_code == 0 and "scott spends speed guts to shadow-kick" in named.output
    assert "SP-HOUSE-AUTO-PAY" not in named.output
    # none named: one die at a time from the face the team has most of, the wild Health
    # last: a Will (two of them), then of speed, will and guts one each, the Guts
    unnamed = cli("try", gid, "--as", "good", "scott", "shadow-kick", "matthew")
    assert "scott spends will guts to shadow-kick" in unnamed.output
    assert "SP-HOUSE-AUTO-PAY" in unnamed.output
    do(cli, gid, "good", "scott shadow-kick matthew")
    seq = str(max(r["seq"] for r in referee_log(cli, gid) if r["type"] == "DiceSpent"))
    assert "SP-HOUSE-AUTO-PAY" in cli("why", gid, seq).output
    assert "SP-HOUSE-AUTO-PAY" in cli("rules", "scott-pilgrim").output


# -- Booster Tokens: "a Good Guy can spend a booster token in place of a die"

def test_the_log_counts_the_booster_tokens_spent(cli, tmp_path):
    c = content({"scott": "e4", "matthew": "f4"}, objects={})
    gid = new_battle(cli, tmp_path, c, "good_guys=scott")
    for _ in range(3):  # Scott does not act: a booster token each round
        for seat, text in (("bad", "roll [speed speed speed speed speed]"), ("bad", "end"),
                           ("good", "roll [speed speed guts guts guts]"), ("good", "end")):
            do(cli, gid, seat, text)
    for seat, text in (("bad", "roll [speed speed speed speed speed]"), ("bad", "end"),
                       ("good", "roll [will speed guts guts guts]")):
        do(cli, gid, seat, text)
    out = do(cli, gid, "good", "scott punch matthew power pay booster booster")
    assert "scott spends two booster tokens to punch powered up" in out
    out = do(cli, gid, "good", "scott punch matthew power pay will booster")
    assert "scott spends will and a booster token to punch powered up" in out


# -- Ranged Abilities: "Some special abilities hit one or each character and object within
# the listed number of spaces"; the authored boards' ranged abilities name opponents only.

def test_an_authored_ranged_ability_at_an_object_cites_the_house_boards(cli, tmp_path):
    c = content({"kim": "e4", "matthew": "k8"}, objects={"amp": "g4"})
    gid = new_battle(cli, tmp_path, c, "good_guys=kim")
    for seat, text in (("bad", "roll [speed speed speed speed speed]"), ("bad", "end"),
                       ("good", "roll [speed speed guts guts guts]")):
        do(cli, gid, seat, text)
    out = refused(cli, gid, "good", "kim drum-stick-boomerang amp")
    assert "(SP-TARGET-ENEMY," in out
    rules = cli("rules", "scott-pilgrim").output
    target = " ".join(rules.split("\nSP-TARGET-ENEMY", 1)[1].split("\nSP-", 1)[0].split())
    boards = " ".join(rules.split("\nSP-HOUSE-BOARDS", 1)[1].split("\nSP-", 1)[0].split())
    assert "SP-HOUSE-BOARDS" in target
    assert "each character and object" in boards and "opponents only" in boards


# -- Matthew Patel's Dice: "Each Magic die can be spent to recover 2 Health or as a wild die"
# ("which he can spend"); the Chicks' punches and kicks are a house option.

def test_a_chick_kicking_with_a_magic_die_is_the_house_reading_it_names(cli, tmp_path):
    c = content({"scott": "e4", "chick1": "f4", "matthew": "k8"}, objects={})
    gid = new_battle(cli, tmp_path, c, "good_guys=scott")
    do(cli, gid, "bad", "roll [will will magic magic guts]")
    out = cli("try", gid, "--as", "bad", "chick1", "kick", "scott", "pay", "magic")
    assert out.exit_code == 0 and "SP-CHICK-ACTIONS" in out.output
    rules = cli("rules", "scott-pilgrim").output
    chicks = " ".join(rules.split("\nSP-CHICK-ACTIONS", 1)[1].split("\nSP-", 1)[0].split())
    assert "Magic die as a wild die" in chicks


# -- Held Objects Shield You: "you drop the object into an adjacent empty space of your choice"

def test_under_a_reversal_a_chick_holding_an_object_drops_it_where_the_bad_guys_chose(cli, tmp_path):
    """Scott turns back Chick 1's part of Hipster Swarm; the amp she holds takes the damage
    and drops where the Bad Guys (her player) named on the ability, not the Good Guys."""
    c = content({"scott": "e4", "chick1": "f4", "matthew": "k8"}, objects={"amp": "g4"},
                items=["xp-boost"], boards={"matthew": {"starter": ["hipster-swarm", "fireballs"]}})
    gid = new_battle(cli, tmp_path, c, "good_guys=scott")
    for seat, text in (("bad", "roll [speed speed speed speed speed]"), ("bad", "end"),
                       ("good", "roll [speed speed guts guts guts]"),
                       ("good", "use xp-boost scott"), ("good", "end"),
                       ("bad", "roll [will will magic magic guts]"),
                       ("bad", "chick1 grab amp"), ("good", "allow"),
                       ("bad", "matthew hipster-swarm drop amp@g5")):
        do(cli, gid, seat, text)
    out = refused(cli, gid, "good", "reversal drop amp@f5")
    assert "(SP-HELD-SHIELD," in out
    out = do(cli, gid, "good", "reversal")
    assert "g5" in out.split("amp", 1)[1].split("\n", 1)[0]


def test_with_no_window_the_bad_guys_still_do_not_choose_where_a_good_guys_shield_drops(cli, tmp_path):
    """"You drop the object into an adjacent empty space of your choice": with
    reaction_window=never the Good Guys have no answer to name it in, so the house default
    places it (SP-HOUSE-SHIELD-DROP); the Bad Guys may not name it for them."""
    c = content({"scott": "e4", "matthew": "f4"}, objects={"amp": "e5"})
    gid = new_battle(cli, tmp_path, c, "good_guys=scott", "reaction_window=never")
    for seat, text in (("bad", "roll [speed speed speed speed speed]"), ("bad", "end"),
                       ("good", "roll [will speed guts guts guts]"), ("good", "scott grab amp"),
                       ("good", "end"), ("bad", "roll [will will magic magic guts]")):
        do(cli, gid, seat, text)
    out = refused(cli, gid, "bad", "matthew punch scott drop amp@d3")
    assert "(SP-HELD-SHIELD," in out and "no window" in out
    out = do(cli, gid, "bad", "matthew punch scott")
    assert "amp" in out and "scott takes" not in out
