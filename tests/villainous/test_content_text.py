"""The house cards say what their data does: every number and requirement a card's text
states is checked against the data that plays it (CARDS.md). And a card file a user loads
with --content is refused with exit 2, naming the card and the field at fault."""

import copy
import json
import re

import pytest
from typer.testing import CliRunner

from arbiter.cli.app import app
from arbiter.core.errors import BadContent
from arbiter.core.villainous import GAME

CONTENT = GAME.default_content()
CARDS = [c for v in CONTENT["villains"].values() for deck in ("villain_deck", "fate_deck") for c in v[deck]]

#: a Progress requirement as the house texts write it, and the data it stands for
PROGRESS_WORDS = [
    (r"^vanquish a hero of strength (\d)\+$", lambda m: {"kind": "vanquish_strong", "min": int(m.group(1))}),
    (r"^vanquish a hero vehicle$", lambda m: {"kind": "vanquish_vehicle"}),
    (r"^vanquish a hero$", lambda m: {"kind": "vanquish"}),
    (r"^play an ally$", lambda m: {"kind": "play_ally"}),
    (r"^play an item$", lambda m: {"kind": "play_item"}),
    (r"^collect credits$", lambda m: {"kind": "collect"}),
    (r"^perform a fate action$", lambda m: {"kind": "fate"}),
    (r"^hunt$", lambda m: {"kind": "hunt"}),
    (r"^discard$", lambda m: {"kind": "discard"}),
]


def effects_of(card):
    out = [e for a in card.get("abilities", []) for e in a.get("effects", [])]
    return out + list((card.get("hunt") or {}).get("effects", []))


def ability_costs(card, when):
    return [a.get("cost", 0) for a in card.get("abilities", []) if a.get("when") == when]


@pytest.mark.parametrize("card", CARDS, ids=[c["id"] for c in CARDS])
def test_card_text_and_data_agree(card):
    text = card["text"]
    low = text.lower()
    if m := re.search(r"hunt \((\d+)\)", low):
        assert card["hunt"]["cost"] == int(m.group(1)), "Hunt cost"
    if m := re.search(r"progress: ([^.]*)\.", low):
        said = []
        for phrase in (p.strip() for p in m.group(1).split(";")):
            for pattern, data in PROGRESS_WORDS:
                if hit := re.match(pattern, phrase):
                    said.append(data(hit))
                    break
            else:
                pytest.fail(f"the test does not know the Progress phrase {phrase!r}")
        assert card["progress"] == said, "Progress requirements"
    if card["type"] == "bounty":
        assert "progress:" in low and "hunt (" in low, "a Bounty's text states its Hunt and Progress"
    if m := re.search(r"up to (\d+) bount", low):
        assert card["limit"] == int(m.group(1)), "Contact limit"
    if m := re.search(r"activate \((\d+)", low):
        assert ability_costs(card, "activate") == [int(m.group(1))], "activation cost"
    if m := re.search(r"ambition \((\d+)\)", low):
        assert ability_costs(card, "ambition") == [int(m.group(1))], "Ambition ability cost"
    for m in re.finditer(r"([+-]\d+) strength", low):
        amounts = [a["amount"] for a in card.get("abilities", []) if a.get("passive") == "strength"]
        assert int(m.group(1)) in amounts, "Strength modifier"
    for m in re.finditer(r"(?:gain|take) (\d+) (credit|ambition)", low):
        key = "credits" if m.group(2) == "credit" else "ambition"
        assert any(e["do"] == "gain" and e.get(key) == int(m.group(1)) for e in effects_of(card)), f"gain {key}"
    for m in re.finditer(r"loses? (\d+) (credit|ambition)", low):
        key = "credits" if m.group(2) == "credit" else "ambition"
        assert any(e["do"] == "lose" and e.get(key) == int(m.group(1)) for e in effects_of(card)), f"lose {key}"
    for m in re.finditer(r"strength (\d+) or less", low):
        assert any(e.get("max_strength") == int(m.group(1)) for e in effects_of(card)), "max Strength"
    for m in re.finditer(r"draw (\d+) cards?", low):
        assert any(e["do"] == "draw" and e.get("n") == int(m.group(1)) for e in effects_of(card)), "draw"
    assert ("rebel" in card.get("keywords", [])) == low.startswith("rebel."), "the Rebel keyword"
    if "attach to" in low:
        assert card.get("attach") is True, "an Item that must be attached"
    if m := re.search(r"(?:may not|cannot) (play ambition cards|perform fate actions|activate abilities)", low):
        hook = {"play ambition cards": "play_ambition", "perform fate actions": "fate",
                "activate abilities": "activate"}[m.group(1)]
        assert {"passive": "forbid", "hook": hook} in card["abilities"], "restriction"
    if m := re.search(r"discard when the villain (vanquishes a hero|plays an item)", low):
        assert card["until"] == {"vanquishes a hero": "vanquish", "plays an item": "play_item"}[m.group(1)]


def test_the_text_check_catches_the_old_jedi_bounty():
    """Bounty: Jedi said "vanquish a Hero Vehicle" while its data asked for a Hunt."""
    jedi = next(c for c in CARDS if c["id"] == "bf-bounty-jedi")
    wrong = {**jedi, "progress": [{"kind": "vanquish"}, {"kind": "hunt"}]}
    with pytest.raises(AssertionError, match="Progress requirements"):
        test_card_text_and_data_agree(wrong)


def broken(path, value):
    """The house file with one field of one card changed."""
    c = copy.deepcopy(CONTENT)
    vkey, deck, cid, *keys = path
    card = next(x for x in c["villains"][vkey][deck] if x["id"] == cid)
    target = card
    for k in keys[:-1]:
        target = target[k]
    target[keys[-1]] = value
    return c


@pytest.mark.parametrize("path,value,words", [
    (("boba-fett", "villain_deck", "bf-bounty-jedi", "progress", 1, "kind"), "vanquish_vehicles",
     ["bf-bounty-jedi", "progress[1].kind", "'vanquish_vehicles'"]),
    (("cad-bane", "villain_deck", "cb-embo", "abilities", 0, "applies"), "allies_near",
     ["cb-embo", "abilities[0].applies"]),
    (("cad-bane", "villain_deck", "cb-stolen-credits", "abilities", 0, "effects", 0, "credits"), "three",
     ["cb-stolen-credits", "abilities[0].effects[0].credits", "whole number"]),
    (("cad-bane", "villain_deck", "cb-double-cross", "abilities", 0, "trigger"), "vanquished",
     ["cb-double-cross", "abilities[0].trigger"]),
    (("seventh-sister", "villain_deck", "ss-interrogation", "abilities", 0, "when"), "whenver",
     ["ss-interrogation", "abilities[0].when"]),
    (("seventh-sister", "fate_deck", "ssf-spectre-network", "abilities", 0, "hook"), "fates",
     ["ssf-spectre-network", "abilities[0].hook"]),
])
def test_a_bad_card_file_names_the_card_and_the_field(path, value, words):
    with pytest.raises(BadContent) as e:
        GAME.check_content(broken(path, value))
    for w in words:
        assert w in str(e.value)


def test_new_with_a_bad_card_file_exits_2_naming_the_card_and_field(tmp_path):
    bad = broken(("cad-bane", "villain_deck", "cb-tracking-fob", "abilities", 0, "when"), "start_of_turn")
    f = tmp_path / "cards.json"
    f.write_text(json.dumps(bad))
    out = CliRunner().invoke(app, ["--db", str(tmp_path / "s.duckdb"), "new", "villainous", "--content", str(f)])
    assert out.exit_code == 2, out.output
    assert "cb-tracking-fob" in out.output and "abilities[0].when" in out.output and "turn_start" in out.output
    assert "Traceback" not in out.output
