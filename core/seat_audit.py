"""What one seat can check of a game with no more than the seat may know.

While the game is on a seat sees redacted events and only a commitment to the seed, so it
checks that the hashes it was given link up (each event names its predecessor's hash) and
nothing else: it cannot recompute the hash of an event it sees redacted, nor any roll.
Once the game is over every event is public and the kernel has revealed seed, salt and
entropy; then the seat checks the whole chain, the reveal against the commitment made at
creation (:func:`core.fairness.check_reveal`), and recomputes every roll and shuffle from
the revealed dice seed. It never trusts the referee's own ``games`` listing.
"""

from __future__ import annotations

from typing import Any

from arbiter.core import registry
from arbiter.core.audit import Report, check_chain
from arbiter.core.dice import recompute
from arbiter.core.fairness import check_reveal
from arbiter.events.base import DiceRolled, Event, GameCreated, SeedRevealed, Shuffled
from arbiter.events.envelope import GENESIS, Envelope
from arbiter.events.store import Store


def check_links(envs: list[Envelope], report: Report) -> bool:
    """Seqs run 1, 2, 3 ... and each event names the hash of the one before it."""
    prev = GENESIS
    for expected, env in enumerate(envs, start=1):
        if env.seq != expected:
            report.add(expected, "chain", f"seq {expected} is missing (the log jumps to {env.seq})")
            return False
        if env.prev_hash != prev:
            report.add(env.seq, "chain", f"seq {env.seq} does not follow seq {env.seq - 1}")
            return False
        prev = env.hash
    return True


def verify_as_seat(store: Store, game_id: str, seat: str) -> tuple[Report, str]:
    """(report, what was checked in words) for ``seat``'s audit of ``game_id``."""
    report = Report(game_id)
    envs = store.envelopes(game_id)
    report.events = len(envs)
    if not envs:
        report.add(1, "chain", "the game has no events")
        return report, "nothing"
    game = registry.get(store.game(game_id).kind)
    items: list[tuple[int, Event]] = []
    for env in envs:
        try:
            items.append((env.seq, game.codec.decode(env.type, env.version, env.payload)))
        except Exception as exc:  # noqa: BLE001 - a damaged payload is a finding, not a crash
            report.add(env.seq, "decode", f"seq {env.seq} does not decode as {env.type}: {exc}")
            return report, "the chain"
    created = items[0][1]
    if not isinstance(created, GameCreated):
        report.add(1, "decode", "the first event is not GameCreated")
        return report, "the chain"
    if seat not in created.seats:
        from arbiter.core.errors import ParseError

        raise ParseError(f"no player {seat!r} in this game (players: {', '.join(created.seats)})")
    reveals = [(seq, ev) for seq, ev in items if isinstance(ev, SeedRevealed)]
    if not reveals:
        check_links(envs, report)
        what = ("the chain's links only: the seed is secret until the game ends"
                + (f" (commitment {created.commitment.seed[:16]}…)" if created.commitment else ""))
        return report, what
    if not check_chain(game_id, envs, report):
        return report, "the chain"
    seq, revealed = reveals[0]
    if len(reveals) > 1:
        report.add(reveals[1][0], "reveal", f"seq {reveals[1][0]}: the seed is revealed a second time")
    if created.commitment is None:
        report.add(seq, "reveal", f"seq {seq}: a seed is revealed, but the game committed to none at creation")
        return report, "the chain and the reveal"
    for problem in check_reveal(created.commitment, revealed):
        report.add(seq, "reveal", f"seq {seq}: {problem}")
    recompute_draws(game, created, revealed, items, report)
    return report, "the chain, the reveal against the commitment, and every roll and shuffle"


def recompute_draws(game: Any, created: GameCreated, revealed: SeedRevealed,
                    items: list[tuple[int, Event]], report: Report) -> None:
    """Every seeded draw in the log against what the revealed dice seed gives."""
    dice = game.dice(created)
    for seq, ev in items:
        if not isinstance(ev, (DiceRolled, Shuffled)):
            continue
        report.rolls += 1
        if isinstance(ev, DiceRolled) and ev.manual and created.dice != "manual":
            report.add(seq, "dice", f"seq {seq}: manual dice in a seeded game")
        elif not recompute(revealed.dice_seed, ev, dice):
            what = f"faces {' '.join(ev.faces)}" if isinstance(ev, DiceRolled) else f"the {ev.deck} order"
            report.add(seq, "dice", f"seq {seq}: {what} are not what the revealed seed gives for draw {ev.n}")
