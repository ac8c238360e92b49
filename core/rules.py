"""The rule index: every rule id a rejection may cite, with its rulebook section."""

from __future__ import annotations

from dataclasses import dataclass

from arbiter import fixtures


@dataclass(frozen=True)
class Rule:
    id: str
    section: str
    text: str
    source: str  # "rulebook" or "house"


class RuleIndex:
    """The kernel's rules plus one kind of game's ``fixtures/<kind>/rules.toml``."""

    def __init__(self, kind: str | None) -> None:
        self.rules: dict[str, Rule] = {}
        for where in ("arbiter",) + ((kind,) if kind else ()):
            if not fixtures.exists(where, "rules.toml"):
                continue
            for entry in fixtures.load_toml(where, "rules.toml").get("rule", []):
                rule = Rule(entry["id"], entry.get("section", ""), entry.get("text", ""),
                            entry.get("source", "rulebook"))
                if rule.source not in ("rulebook", "house"):
                    raise ValueError(f"{where}/rules.toml: {rule.id} has source {rule.source!r}")
                if rule.id in self.rules:
                    raise ValueError(f"{where}/rules.toml: duplicate rule id {rule.id}")
                self.rules[rule.id] = rule

    def __contains__(self, rule_id: str) -> bool:
        return rule_id in self.rules

    def get(self, rule_id: str) -> Rule | None:
        return self.rules.get(rule_id)

    def search(self, words: list[str]) -> list[Rule]:
        want = [w.lower() for w in words]
        return [
            r for r in self.rules.values()
            if all(w in f"{r.id} {r.section} {r.text} {r.source}".lower() for w in want)
        ]
