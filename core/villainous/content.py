"""Checking a card file (``--content FILE``): every error names the card at fault."""

from __future__ import annotations

import re
from typing import Any

from arbiter.core.errors import BadContent

SYMBOL = re.compile(r"^(credits:\d+|ambition|play|move|discard|activate|vanquish|fate)$")
VILLAIN_TYPES = {"ally", "item", "effect", "condition", "ally_vehicle", "contact", "bounty"}
FATE_TYPES = {"hero", "item", "effect", "condition", "hero_vehicle"}
WHEN = {"play", "activate", "ambition", "move_in", "condition", "reward", "turn_start", "turn_end", "whenever"}
PASSIVES = {"strength", "forbid", "allow", "hand_limit", "cost", "collect"}
HOOKS = {"play_ambition", "play_credits", "play_ally", "activate", "activate_ambition", "move_card", "vanquish",
         "fate", "collect", "ally_on_vehicle"}
APPLIES = {"self", "bearer", "allies_here", "heroes_here", "allies_all", "heroes_all"}
VERBS = {"gain", "lose", "draw", "discard", "target", "defeat", "remove", "move", "strength",
         "free_action", "choose", "play", "place", "find", "reveal", "look", "swap", "engage",
         "pay", "vanquish", "fate_self"}
#: the happenings a Condition, a Fate Condition's "until", a Bounty's Progress or a
#: "whenever" ability can answer (CARDS.md, "Happenings")
TRIGGERS = {"vanquish", "defeat", "vanquish_vehicle", "play_ally", "play_item", "play_effect", "play_vehicle",
            "play_contact", "play_bounty", "collect", "fate", "hunt", "activate", "move_card", "discard",
            "complete_bounty", "play_hero", "play_hero_vehicle", "fate_item", "fate_effect", "fate_condition"}
PROGRESS = TRIGGERS | {"vanquish_strong", "have"}
COUNTS = {"credits", "ambition", "targets", "rebels", "hand", "completed", "heroes_with_targets",
          "locations_with_heroes", "allies", "heroes", "items", "effects", "hero_vehicles", "ally_vehicles",
          "vehicles", "contacts", "bounties", "conditions"}
FILTERS = {"type": str, "named": str, "keyword": str, "min": int}
OBJECTIVES = {"targets", "rebels", "bounties"}
DECK_SIZES = {"villain_deck": 30, "fate_deck": 15}


def check_content(content: Any) -> None:
    if not isinstance(content, dict):
        raise BadContent("the card file must be a JSON object")
    if "dice" not in content:
        raise BadContent("the card file needs a 'dice' table (empty for Villainous: \"dice\": {})")
    villains = content.get("villains")
    if not isinstance(villains, dict) or len(villains) < 2:
        raise BadContent("'villains' must map at least two villain keys to their sector and decks")
    seen: set[str] = set()
    for vkey, v in villains.items():
        where = f"villain {vkey!r}"
        if not isinstance(v, dict):
            raise BadContent(f"{where}: must be an object")
        for field in ("name", "objective", "locations", "villain_deck", "fate_deck"):
            if field not in v:
                raise BadContent(f"{where}: missing {field!r}")
        obj = v["objective"]
        if obj.get("kind") not in OBJECTIVES or not isinstance(obj.get("count"), int) or obj["count"] < 1:
            raise BadContent(f"{where}: objective needs kind (one of {', '.join(sorted(OBJECTIVES))}) and a positive count")
        locs = v["locations"]
        if not isinstance(locs, list) or len(locs) != 4:
            raise BadContent(f"{where}: a Sector has exactly 4 locations (Deep Space is added by the game)")
        for loc in locs:
            if not isinstance(loc, dict) or not loc.get("id") or not loc.get("name"):
                raise BadContent(f"{where}: each location needs an id and a name")
            acts = loc.get("actions")
            if not isinstance(acts, list) or len(acts) != 4 or not all(isinstance(a, str) and SYMBOL.match(a) for a in acts):
                raise BadContent(f"{where}: location {loc.get('id')!r} needs 4 action symbols from credits:N, ambition, play, move, discard, activate, vanquish, fate")
        for deck, size in DECK_SIZES.items():
            cards = v[deck]
            if not isinstance(cards, list):
                raise BadContent(f"{where}: {deck} must be a list of cards")
            total = 0
            for c in cards:
                check_card(c, vkey, deck, seen)
                total += int(c.get("copies", 1))
            if total != size:
                raise BadContent(f"{where}: the {deck.replace('_', ' ')} holds {total} cards; it must hold {size}")


def check_card(c: Any, vkey: str, deck: str, seen: set[str]) -> None:
    if not isinstance(c, dict) or not isinstance(c.get("id"), str):
        raise BadContent(f"villain {vkey!r} {deck}: every card needs a string 'id'")
    cid = c["id"]
    where = f"card {cid!r} ({vkey} {deck.replace('_', ' ')})"
    if not re.match(r"^[a-z0-9]+(-[a-z0-9]+)*$", cid) or re.search(r"-\d$", cid):
        raise BadContent(f"{where}: ids are lower-case words joined by '-' and must not end in '-<digit>'")
    if cid in seen:
        raise BadContent(f"{where}: duplicate card id")
    seen.add(cid)
    if not c.get("name"):
        raise BadContent(f"{where}: missing 'name'")
    types = VILLAIN_TYPES if deck == "villain_deck" else FATE_TYPES
    if c.get("type") not in types:
        raise BadContent(f"{where}: type {c.get('type')!r} is not one of {', '.join(sorted(types))}")
    copies = c.get("copies", 1)
    if not isinstance(copies, int) or not 1 <= copies <= 9:
        raise BadContent(f"{where}: copies must be a whole number from 1 to 9")
    cost = c.get("cost", 0)
    if not isinstance(cost, int) or cost < 0:
        raise BadContent(f"{where}: cost must be a whole number, 0 or more")
    if c.get("cost_kind", "credits") not in ("credits", "ambition"):
        raise BadContent(f"{where}: cost_kind is credits or ambition")
    if c["type"] in ("ally", "hero") and not isinstance(c.get("strength"), int):
        raise BadContent(f"{where}: an {c['type']} needs a whole-number strength")
    if c["type"] == "ally_vehicle":
        acts = c.get("actions")
        if not isinstance(acts, list) or not all(isinstance(a, str) and SYMBOL.match(a) for a in acts):
            raise BadContent(f"{where}: an Ally Vehicle needs a list of action symbols")
    if c["type"] == "contact" and not (isinstance(c.get("limit"), int) and c["limit"] >= 1):
        raise BadContent(f"{where}: a Contact needs a 'limit' of Bounties (1 or more)")
    if c["type"] == "bounty":
        prog = c.get("progress")
        if not isinstance(prog, list) or not prog:
            raise BadContent(f"{where}: a Bounty needs a list of Progress requirements")
        for k, p in enumerate(prog):
            if not isinstance(p, dict) or p.get("kind") not in PROGRESS:
                raise BadContent(f"{where}: progress[{k}].kind {p.get('kind') if isinstance(p, dict) else p!r} is not one of {', '.join(sorted(PROGRESS))}")
            if p["kind"] == "have":
                check_count(p, f"{where}: progress[{k}]")
            else:
                check_filters(p, f"{where}: progress[{k}]")
        hunt = c.get("hunt")
        if not isinstance(hunt, dict) or not isinstance(hunt.get("cost", 0), int):
            raise BadContent(f"{where}: a Bounty needs a 'hunt' with a cost and effects")
        check_effects(hunt.get("effects", []), f"{where}: hunt")
    if c["type"] == "condition" and deck == "fate_deck" and c.get("until") not in (None, *TRIGGERS):
        raise BadContent(f"{where}: 'until' {c.get('until')!r} is not one of {', '.join(sorted(TRIGGERS))}")
    abilities = c.get("abilities", [])
    if not isinstance(abilities, list):
        raise BadContent(f"{where}: abilities must be a list")
    for k, a in enumerate(abilities):
        at = f"{where}: abilities[{k}]"
        if not isinstance(a, dict):
            raise BadContent(f"{at}: each ability is an object")
        if "if" in a:
            check_count(a["if"], f"{at}.if")
        if "passive" in a:
            check_passive(a, at)
            continue
        if a.get("when") not in WHEN:
            raise BadContent(f"{at}.when {a.get('when')!r} is not one of {', '.join(sorted(WHEN))}")
        if a["when"] == "condition" and a.get("trigger") not in TRIGGERS:
            raise BadContent(f"{at}.trigger {a.get('trigger')!r} is not one of {', '.join(sorted(TRIGGERS))}")
        if a["when"] == "whenever":
            if a.get("event") not in TRIGGERS:
                raise BadContent(f"{at}.event {a.get('event')!r} is not one of {', '.join(sorted(TRIGGERS))}")
            if a.get("where", "sector") not in ("here", "sector"):
                raise BadContent(f"{at}.where is here or sector, not {a.get('where')!r}")
            check_filters(a, at)
        if a["when"] in ("activate", "ambition") and not (isinstance(a.get("cost", 0), int) and a.get("cost", 0) >= 0):
            raise BadContent(f"{at}.cost must be a whole number, 0 or more")
        if "effects" not in a:
            raise BadContent(f"{at}: missing 'effects'")
        check_effects(a["effects"], at)


def check_passive(a: dict[str, Any], at: str) -> None:
    kind = a["passive"]
    if kind not in PASSIVES:
        raise BadContent(f"{at}.passive {kind!r} is not one of {', '.join(sorted(PASSIVES))}")
    if kind in ("strength", "hand_limit", "cost", "collect") and not isinstance(a.get("amount"), int):
        raise BadContent(f"{at}.amount: a {kind} modifier needs a whole-number amount")
    if kind == "strength" and a.get("applies") not in APPLIES:
        raise BadContent(f"{at}.applies {a.get('applies')!r} is not one of {', '.join(sorted(APPLIES))}")
    if kind in ("forbid", "allow") and a.get("hook") not in HOOKS:
        raise BadContent(f"{at}.hook {a.get('hook')!r} is not one of {', '.join(sorted(HOOKS))}")
    if kind == "cost":
        if a.get("type") is not None and a["type"] not in VILLAIN_TYPES:
            raise BadContent(f"{at}.type {a['type']!r} is not one of {', '.join(sorted(VILLAIN_TYPES))}")
        if a.get("cost_kind", "credits") not in ("credits", "ambition"):
            raise BadContent(f"{at}.cost_kind is credits or ambition")
    if "for_each" in a:
        check_count(a["for_each"], f"{at}.for_each")


def check_count(spec: Any, at: str) -> None:
    """A condition or a count: ``{"count": WHAT, "where": here|mover|sector, "min", "max"}``."""
    if not isinstance(spec, dict) or spec.get("count") not in COUNTS:
        got = spec.get("count") if isinstance(spec, dict) else spec
        raise BadContent(f"{at}.count {got!r} is not one of {', '.join(sorted(COUNTS))}")
    if spec.get("where", "sector") not in ("here", "mover", "sector"):
        raise BadContent(f"{at}.where is here, mover or sector, not {spec.get('where')!r}")
    for k in ("min", "max"):
        if k in spec and not (isinstance(spec[k], int) and spec[k] >= 0):
            raise BadContent(f"{at}.{k} must be a whole number, 0 or more")


def check_filters(spec: dict[str, Any], at: str) -> None:
    for k, typ in FILTERS.items():
        if k in spec and not isinstance(spec[k], typ):
            raise BadContent(f"{at}.{k} must be a {'whole number' if typ is int else 'string'}")


def check_effects(effects: Any, where: str) -> None:
    if not isinstance(effects, list):
        raise BadContent(f"{where}: effects must be a list")
    for k, e in enumerate(effects):
        at = f"{where}.effects[{k}]"
        if not isinstance(e, dict) or e.get("do") not in VERBS:
            verb = e.get("do") if isinstance(e, dict) else e
            raise BadContent(f"{at}.do: unknown effect verb {verb!r} (verbs: {', '.join(sorted(VERBS))})")
        for key in ("credits", "ambition", "n", "amount", "max_strength", "max_cost"):
            if key in e and not isinstance(e[key], int):
                raise BadContent(f"{at}.{key} must be a whole number")
        if "if" in e:
            check_count(e["if"], f"{at}.if")
        if "for_each" in e:
            check_count(e["for_each"], f"{at}.for_each")
