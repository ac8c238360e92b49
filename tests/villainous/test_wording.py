"""What a player reads (the log, the prompts, the board, the refusals) is in the rulebook's
words: no identifier of the code (``play_ally``) and no Python repr."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.cli.render.villainous import render
from arbiter.core.match import Match
from arbiter.core.villainous import GAME
from player_text import leaks, played_text

PROBES = ("end", "vanquish embo with hired gun", "fate ann", "play embo at coruscant", "hunt jedi",
          "move bilzen", "p", "choose nothing", "discard embo", "activate tracking fob")


def content_ids() -> set[str]:
    """The ids of the Villains, locations and cards that the content names."""
    out = set()
    for key, villain in GAME.default_content()["villains"].items():
        out.add(key)
        for part in ("locations", "villain_deck", "fate_deck"):
            out |= {item["id"] for item in villain[part]}
    return out


def log_text(m: Match) -> list[str]:
    from arbiter.core.explain import describe
    from arbiter.projections.kernel import REFEREE

    return [describe(m, e) for _s, _a, e in m.log(REFEREE)]


@pytest.mark.parametrize("seats,seed", [(2, 3), (3, 4)])
def test_a_played_game_shows_no_identifier_nor_repr(seats, seed):
    names = ["ann", "bob", "cy"][:seats]
    m = Match.new(GAME, seed=seed, seats=names)
    text = played_text(m, {s: GAME.bots["smart"] for s in names}, render, seed=seed, probes=PROBES)
    assert any("may play a Condition" in line for line in text)  # the windows were read
    assert leaks(text, allowed=[o.name for o in GAME.options]) == []
    # the log and the refusals name Villains, locations and cards by their names
    assert leaks(log_text(m), ids=content_ids()) == []
    assert any("villains: ann plays " in line and "-" not in line.split(": ", 1)[1] for line in log_text(m))


def test_a_refusal_names_the_card_not_its_id():
    m = Match.new(GAME, seed=2, seats=["ann", "bob"])
    m.apply("ann", "move coruscant")
    with pytest.raises(Exception) as exc:
        m.decide("ann", "play embo at coruscant")
    assert "you have no Embo in your hand" in str(exc.value)
    assert leaks(str(exc.value).splitlines(), ids=content_ids()) == []


def test_the_scan_catches_what_it_is_for():
    assert len(leaks(["bob may play a Condition (play_ally by ann)", "scores {'ann': 3}",
                      "cards ['a', 'b']", "('x', 'y')", '{"ann": 3}'])) == 5
    assert leaks(["bob chooses Embo", "ann's sector: Coruscant", "cb-embo-1 (house)",
                  "option hunt_turns=any"], allowed=["hunt_turns"]) == []
    # with the content's ids: a card, a copy of one, a Villain; a command or handle is typed
    found = leaks(["villains: ann plays cad-bane", "ann plays ssf-cere-junda-1 in bob's sector",
                   "you have no cb-embo in your hand", "Embo <cb-embo-1>", "try `play cb-embo-1 at coruscant`"],
                  ids=content_ids())
    assert len(found) == 3


def test_the_play_menu_names_the_cards_and_labels_house_ones(tmp_path):
    """games.md's policy: house content is labelled house where a player sees it, the menus
    of play included; choosing the entry by number still gives the plain command."""
    db = str(tmp_path / "s.duckdb")
    run = CliRunner()
    out = run.invoke(app, ["--db", db, "new", "villainous", "-p", "ann,bob", "--seed", "5"])
    gid = next(w for w in out.output.split() if w.startswith("sv-")).split(":")[0]
    for text in ("move bora-vio", "collect"):
        assert run.invoke(app, ["--db", db, "do", gid, "--as", "ann", *text.split()]).exit_code == 0
    shown = run.invoke(app, ["--db", db, "play", gid], input="quit\n", env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    entry = next(line for line in shown.output.splitlines() if "play cb-tracking-fob-1 at coruscant" in line)
    assert entry.rstrip().endswith("play cb-tracking-fob-1 at coruscant  (Tracking Fob, house)")
    number = entry.split()[0]
    chosen = run.invoke(app, ["--db", db, "play", gid], input=f"{number}\nquit\n", env={"COLUMNS": "200"})
    assert chosen.exit_code == 0, chosen.output
    log = run.invoke(app, ["--db", db, "log", gid]).output
    assert "ann plays Tracking Fob at Coruscant" in log


def test_the_log_says_discard_and_the_fate_choice_as_the_rulebook_does():
    """Discard Cards: "Discard as many cards from your hand as you wish, face up, onto your
    Villain discard pile"; Fate: "Choose one of them and play it immediately. Discard the
    other." The log says who discards, names the piles as the book does, and says the chosen
    Fate card once as chosen and once as played."""
    from villainous.helpers import give, new
    from villainous.test_fate_vehicles import stack_fate

    m = stack_fate(give(new(), "ann", "cb-twin-blasters-1"), "bob", "ssf-cal-kestis-1", "ssf-ezra-bridger-1")
    start = len(log_text(m))
    m.apply("ann", "move coruscant")  # Credits 2 | Fate | Play | Discard
    m.apply("ann", "discard twin blasters")
    m.apply("ann", "fate bob")
    m.apply("ann", "fate-play ezra bridger at bilzen")
    lines = log_text(m)[start:]
    assert "ann discards Twin Blasters" in lines
    assert "ann chooses Ezra Bridger of the revealed Fate cards" in lines
    assert "Cal Kestis goes to bob's Fate discard pile" in lines
    assert "ann plays Ezra Bridger in bob's sector at Bilzen" in lines


@pytest.mark.parametrize("command,says", [
    ("vanquish clone trooper with hired gun", "Clone Trooper is not in your sector"),
    ("vanquish cbf-clone-trooper-1 with hired gun", "Clone Trooper is not in your sector"),
    ("maneuver xanadu blood", "Xanadu Blood is not one of your Ally Vehicles in play"),
    ("hunt bounty debtor", "Bounty: Debtor is not one of your Bounties in play"),
])
def test_a_refusal_names_a_card_not_in_play_by_its_name(command, says):
    """Vanquish, Maneuver, Hunt: a card named but not in play is said by its name (as the
    rulebook and the board say it), never by the content's id."""
    from arbiter.core.errors import RuleViolation
    from villainous.helpers import new, put

    m = put(new(), "ann", "cb-hired-gun-1", "bora-vio")
    m.apply("ann", "move bora vio")  # Play | Move | Credits 3 | Vanquish
    with pytest.raises(RuleViolation) as e:
        m.apply("ann", command)
    assert says in str(e.value) and "cb-" not in str(e.value) and "bf-" not in str(e.value)


def test_a_card_removed_is_discarded_not_said_defeated():
    """Card Actions, Remove: "If a card tells you to remove a particular card ... from your
    Sector, discard it onto the appropriate pile"; Defeat is another card action. A content
    Ambush that removes a Hero logs the discard, and no defeat."""
    from villainous.helpers import content_with, credits, give, new, put

    c = content_with({"cb-ambush": {"text": "Remove a Hero.", "abilities": [
        {"when": "play", "effects": [{"do": "remove", "target": "hero"}]}]}})
    m = credits(give(put(new(content=c), "ann", "cbf-clone-trooper-1", "bora-vio"), "ann", "cb-ambush-1"), "ann", 5)
    start = len(log_text(m))
    m.apply("ann", "move coruscant")
    m.apply("ann", "play ambush")
    lines = log_text(m)[start:]
    assert "cbf-clone-trooper-1" not in m.state.sector["ann"]
    assert "Clone Trooper goes to ann's Fate discard pile" in lines
    assert not any("defeated" in line for line in lines), lines


def test_a_hunt_is_logged_with_its_cost_as_the_card_prints_it():
    """Bounties: "Hunt (X): When a Bounty is in play, you may pay the cost shown at the start
    of the card" - the log says the Hunt (X) paid, and the Credits once."""
    from villainous.helpers import credits, new, put

    m = new(2, villains="boba-fett,cad-bane")
    m = put(m, "ann", "bf-guild-master-1", "corellia")
    m = put(m, "ann", "bf-bounty-debtor-1", "corellia", on="bf-guild-master-1")
    m = credits(m, "ann", 3)
    start = len(log_text(m))
    m.apply("ann", "hunt bounty debtor")
    lines = log_text(m)[start:]
    assert "ann hunts with Bounty: Debtor, paying its Hunt (1)" in lines
    assert "ann loses 1 Credit (Hunt: Bounty: Debtor)" in lines
