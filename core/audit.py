"""Audits: prove that a stored game is exactly what the rules and the seed produced.

``verify_game`` checks, in order: the per-game hash chain (edits, insertions, deletions);
that every payload decodes; every seeded roll and shuffle against the seed; and then
re-decides every stored command from the start, comparing the events byte for byte.
``verify_ledger`` checks the global chain across games (a whole game deleted), and
``check_receipt`` proves that a receipt a player kept is still in the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arbiter.core import registry
from arbiter.core.dice import recompute
from arbiter.core.errors import ArbiterError
from arbiter.core.match import Match
from arbiter.events.base import DiceRolled, Event, GameCreated, Shuffled
from arbiter.events.envelope import GENESIS, Envelope, chain_hash, ledger_hash
from arbiter.events.store import Store
from arbiter.projections.fold import SETUP, step


@dataclass
class Problem:
    seq: int
    kind: str  # chain | decode | dice | decision | rules-changed | commands | ledger | receipt
    message: str


@dataclass
class Report:
    game_id: str
    events: int = 0
    commands: int = 0
    rolls: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def first(self) -> Problem | None:
        return min(self.problems, key=lambda p: p.seq) if self.problems else None

    def add(self, seq: int, kind: str, message: str) -> None:
        self.problems.append(Problem(seq, kind, message))


def check_chain(game_id: str, envs: list[Envelope], report: Report) -> bool:
    """Seqs run 1, 2, 3 ... and each hash covers its predecessor and its own content."""
    prev = GENESIS
    for expected_seq, env in enumerate(envs, start=1):
        if env.seq != expected_seq:
            report.add(expected_seq, "chain", f"seq {expected_seq} is missing (the log jumps to {env.seq})")
            return False
        if env.prev_hash != prev:
            report.add(env.seq, "chain", f"seq {env.seq} does not follow seq {env.seq - 1} (an event before it was changed, removed or inserted)")
            return False
        if chain_hash(prev, game_id, env.seq, env.type, env.payload) != env.hash:
            report.add(env.seq, "chain", f"seq {env.seq} ({env.type}) was edited after it was recorded")
            return False
        prev = env.hash
    return True


def verify_game(store: Store, game_id: str, *, redecide: bool = True) -> Report:
    report = Report(game_id)
    envs = store.envelopes(game_id)
    report.events = len(envs)
    if not envs:
        report.add(1, "chain", "the game has no events")
        return report
    chain_ok = check_chain(game_id, envs, report)
    head_seq, head_hash = store.head(game_id)
    if chain_ok and (head_seq, head_hash) != (envs[-1].seq, envs[-1].hash):
        report.add(min(head_seq, envs[-1].seq) + 1, "chain",
                   f"the log ends at seq {envs[-1].seq}, but the store recorded seq {head_seq} as"
                   " its last (events at the end were removed or added)")
    row = store.game(game_id)
    try:
        game = registry.get(row.kind)
    except ArbiterError as exc:
        report.add(1, "decode", str(exc))
        return report
    items: list[tuple[int, str, Event]] = []
    for env in envs:
        try:
            items.append((env.seq, env.command_id, game.codec.decode(env.type, env.version, env.payload)))
        except Exception as exc:  # noqa: BLE001 - a damaged payload is a finding, not a crash
            report.add(env.seq, "decode", f"seq {env.seq} does not decode as {env.type}: {exc}")
            return report
    created = items[0][2]
    if not isinstance(created, GameCreated):
        report.add(1, "decode", "the first event is not GameCreated")
        return report
    dice = game.dice(created)
    folded = None
    for seq, cid, ev in items:
        if isinstance(ev, (DiceRolled, Shuffled)):
            report.rolls += 1
            expected_n = folded.draws if folded is not None else 0
            if ev.n != expected_n:
                report.add(seq, "dice", f"seq {seq}: draw number {ev.n}, but the history says {expected_n}")
            elif isinstance(ev, DiceRolled) and ev.manual and created.dice != "manual":
                report.add(seq, "dice", f"seq {seq}: manual dice in a seeded game")
            elif not recompute(created.seed, ev, dice):
                what = f"faces {' '.join(ev.faces)}" if isinstance(ev, DiceRolled) else f"the {ev.deck} order"
                report.add(seq, "dice", f"seq {seq}: {what} are not what seed {created.seed} gives for draw {ev.n}")
        folded = step(game.projection, folded, seq, cid, ev)
    commands = store.commands(game_id)
    report.commands = len(commands)
    covered = 0
    for _cid, _seat, _text, first, last in commands:
        if first != covered + 1:
            report.add(covered + 1, "commands", f"events from seq {covered + 1} belong to no recorded command")
            break
        covered = last
    else:
        if covered != len(envs):
            report.add(covered + 1, "commands", f"events from seq {covered + 1} belong to no recorded command")
    if redecide and chain_ok and not report.problems:
        redecide_all(game, created, items, commands, row.rules_version, report)
    return report


def redecide_all(game: Any, created: GameCreated, items: list[tuple[int, str, Event]],
                 commands: list[tuple], rules_version: str, report: Report) -> None:
    """Decide every stored command again under today's rules and compare the events."""
    by_seq = {seq: ev for seq, _c, ev in items}
    try:
        match = Match.recreate(game, created)
    except ArbiterError as exc:
        report.add(1, "decision", f"the game can no longer be set up: {exc}")
        return
    differs = "decision" if rules_version == game.rules_version else "rules-changed"
    why = ("" if differs == "decision" else
           f" (recorded under rules v{rules_version}, today's rules are v{game.rules_version})")
    for seq, _c, ev in match.items:
        if seq not in by_seq or match.encode(ev) != match.encode(by_seq[seq]):
            report.add(seq, differs, f"seq {seq}: setup differs from what the rules produce{why}")
            return
    for cid, seat, text, first, last in commands:
        if text == SETUP:
            continue
        try:
            _s, _cmd, events = match.decide(seat, text)
        except ArbiterError as exc:
            report.add(first, differs, f"seq {first}: '{seat}: {text}' is refused today: {exc}{why}")
            return
        stored = [by_seq.get(s) for s in range(first, last + 1)]
        if [match.encode(e) for e in events] != [match.encode(e) if e else "" for e in stored]:
            report.add(first, differs, f"seq {first}: '{seat}: {text}' does not produce the stored events{why}")
            return
        match.extend(events, seat, cid, text)


def verify_ledger(store: Store) -> list[Problem]:
    """The global chain across games: every event of every game, in append order. A game
    deleted whole leaves a gap; an edited row breaks the chain after it."""
    problems: list[Problem] = []
    prev = GENESIS
    for i, (gseq, game_id, seq, event_hash, h) in enumerate(store.ledger(), start=1):
        if gseq != i:
            problems.append(Problem(seq, "ledger", f"entries {i}–{gseq - 1} of the global ledger are missing (events deleted, before {game_id} seq {seq})"))
            return problems
        if ledger_hash(prev, game_id, seq, event_hash) != h:
            problems.append(Problem(seq, "ledger", f"the global ledger is broken at entry {i} ({game_id} seq {seq})"))
            return problems
        prev = h
    return problems


def check_receipt(store: Store, receipt: str) -> Problem | None:
    """A receipt ``game:seq:hash-prefix`` is still in the log, unchanged."""
    parts = receipt.strip().split(":")
    if len(parts) != 3 or not parts[1].isdigit() or len(parts[2]) < 8:
        return Problem(0, "receipt", f"{receipt!r} is not a receipt (game:seq:hash, as arbiter printed it)")
    game_id, seq, prefix = parts[0], int(parts[1]), parts[2].lower()
    row = store.query("SELECT hash FROM events_log WHERE game_id = ? AND seq = ?", [game_id, seq])[1]
    if not row:
        last = store.last(game_id)[0]
        return Problem(seq, "receipt", f"receipt {receipt}: seq {seq} is gone (the log of {game_id} ends at {last})")
    if not row[0][0].startswith(prefix):
        return Problem(seq, "receipt", f"receipt {receipt}: seq {seq} now has hash {row[0][0][:16]}")
    return None
