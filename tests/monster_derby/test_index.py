"""The rule index: every rule the code cites exists; house rules are labelled as such."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from arbiter.core.match import Match
from arbiter.core.monster_derby import GAME

ROOT = Path(__file__).resolve().parents[2]


def test_every_cited_rule_id_is_in_the_index():
    code = "".join(p.read_text() for p in (ROOT / "core" / "monster_derby").glob("*.py"))
    cited = set(re.findall(r'"(MD-[A-Z0-9-]+)"', code))
    assert cited and all(r in GAME.rules for r in cited), sorted(r for r in cited if r not in GAME.rules)


# the rulebook's headings (its Table of Contents): a rule's section, or where a quotation is from
HEADINGS = ("Components", "Setup", "Starting Play", "On Your Turn", "Control a Monster", "Terrain Effects",
            "Monster Actions", "Damage", "End Monster Turn", "Game End", "Megacarnage", "Example",
            "Monster Card Anatomy", "Ability Summary")
QUOTE = "“[^“”]+”"
FROM = r"(?: \((?:%s)\))?" % "|".join(HEADINGS)
SEE = r"(?: See MD-HOUSE-[A-Z0-9-]+(?:, MD-HOUSE-[A-Z0-9-]+)*\.)?"
BOOK_WORDS = re.compile(rf"{QUOTE}(?: (?:… )?{QUOTE}{FROM})*{FROM}{SEE}")


def test_a_rulebook_entry_holds_only_the_books_words_and_every_reading_is_a_house_entry():
    """A rulebook entry is the book's own sentences, quoted (with the heading of any quotation
    from another section), and at most a pointer to the house entries that read them; every
    house entry is an MD-HOUSE entry, and every MD-HOUSE entry is house."""
    for rule in (r for r in GAME.rules.rules.values() if r.id.startswith("MD-")):
        assert rule.section in HEADINGS, (rule.id, rule.section)
        assert rule.id.startswith("MD-HOUSE-") == (rule.source == "house"), rule.id
        if rule.source == "rulebook":
            assert BOOK_WORDS.fullmatch(rule.text), (rule.id, rule.text)
            for pointer in re.findall(r"MD-HOUSE-[A-Z0-9-]+", rule.text):
                assert GAME.rules.get(pointer).source == "house", (rule.id, pointer)


def test_content_is_labelled():
    content = GAME.default_content()
    assert all(m["source"] in ("house", "rulebook+house") for m in content["monsters"])
    named = {m["id"] for m in content["monsters"] if m["source"] == "rulebook+house"}
    assert named == {"giant", "cyclops", "griffin", "gargoyle", "golem", "hare", "siren"}
    cards = {m["id"]: m for m in content["monsters"]}
    assert cards["giant"]["attack"] == 6 and cards["giant"]["natives"] == ["rock"]
    assert cards["cyclops"]["natives"] == ["all"] and cards["cyclops"]["hp"] == 8
    assert cards["griffin"]["hp"] == 7 and cards["griffin"]["ability"] == "flies"
    assert cards["gargoyle"]["ability"] == "flies" and cards["golem"]["wacky_defense"] == "stun"
    assert cards["hare"]["ability"] == "double_move" and cards["siren"]["ability"] == "call"
    for name in ("medusa", "vampire", "zombie", "centaur", "dragon", "djinni", "doppelganger", "pixie", "minotaur"):
        assert name in cards
    abilities = {m["ability"] for m in content["monsters"]} | {m["wacky_attack"] for m in content["monsters"]} \
        | {m["wacky_defense"] for m in content["monsters"]}
    for needed in ("minus_one", "plus_one", "half_damage", "double_move", "attack_360", "attack_again",
                   "attack_dice_hp", "blast", "brushwalker", "call", "charge", "counter_strike", "curse",
                   "flies", "rage", "poison", "webs", "stun", "dodge"):
        assert needed in abilities, needed
    assert content["dice"]["attack"] == ["1", "1", "1", "0", "0", "0"]


def test_a_spectator_sees_no_agenda():
    m = Match.new(GAME, seed=1, seats=["ann", "bob"])
    view = msgspec.json.encode(m.view(None)).decode()
    for cards in m.state.dealt.values():
        assert all(c not in view for c in cards)
