"""`arbiter bench`: speed as ratios against baselines measured in the same run.

The machines are shared and noisy, so every figure is printed next to a baseline taken
moments before on the same machine, and the ratio is what to compare between runs.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import msgspec

from arbiter.cli.common import console, emit_rows
from arbiter.core import registry
from arbiter.core.bots import autoplay, random_bot
from arbiter.core.engine import Engine, fold_stored, read_log
from arbiter.core.match import UNDO, Match
from arbiter.core.porting import EventLine, export_jsonl
from arbiter.events.envelope import GENESIS, chain_hash
from arbiter.projections.fold import Cursor, few_collections
from arbiter.events.store import open_store


def unending_move(match: Match, rng: random.Random) -> tuple[str, str] | None:
    """(seat, text) of a legal move that does not end the game, or None when every move
    would (a game that is over reveals its seed, and then nothing can be taken back)."""
    from arbiter.events.base import SeedRevealed

    game = match.game
    seat = match.to_act().seats[0]
    legal = list(match.legal(seat))
    rng.shuffle(legal)
    texts = [game.command_text(random_bot(match.state, seat, legal, rng))] + [game.command_text(c) for c in legal]
    for text in texts:
        if not any(isinstance(e, SeedRevealed) for e in match.decide(seat, text)[2]):
            return seat, text
    return None


def long_match(game_id: str, events: int, seed: int = 1) -> Match:
    """A game with at least ``events`` events: bots play, never the move that would end the
    game; when every move would end it, a few moves are undone (the Undone events stay in
    the log) so that the history keeps growing and play diverges."""
    game = registry.get(game_id)
    # made as a game of engine 0.1.0, whose undo may take back a draw (ARB-UNDO-HIDDEN came
    # with 0.2.0): when every move would end the game, play can always be wound back
    match = Match.new(game, seed=seed, seats=game.default_seats(min(3, game.max_seats)),
                      engine_version="0.1.0")
    rng = random.Random(seed)
    while match.seq < events:
        move = unending_move(match, rng)
        if move is not None:
            match.apply(*move)
            continue
        for _ in range(rng.randint(1, 12)):
            if match.folded is None or match.folded.top is None:
                break
            match.apply(match.to_act().seats[0], UNDO)
    return match


_START = [time.perf_counter()]


def say(what: str) -> None:
    """A progress line, with the seconds bench has run so far."""
    console.print(f"[dim][{time.perf_counter() - _START[0]:5.0f} s][/] {what}")


def timed(fn: Any, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def writers_row(url: str) -> tuple[str, str, str, str, str]:
    """8 writer processes on one PostgreSQL store (two sharing a game) against one writer
    alone, both measured now on the same server."""
    from arbiter.cli.writers import run_writers

    one = run_writers(url, processes=1, commands=160, seed=11, sharing=0)
    many = run_writers(url, processes=8, commands=40, seed=12)
    return ("8 writer processes, PostgreSQL", f"{many.per_second:.0f} commands/s;"
            f" {many.storage_errors} storage errors, {many.refused} refused after a clash",
            f"{one.per_second:.0f} commands/s, one writer", f"{many.per_second / one.per_second:.2f}x",
            "0 lost, 0 exit 3")


def arbiter_argv() -> list[str]:
    """How a user starts arbiter: the installed command, or the same entry point."""
    # the command installed beside this Python (another arbiter on PATH would be other code)
    found = shutil.which("arbiter", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-c", "from arbiter.cli.app import main; main()"]


def rounds(commands: dict[str, Any], env: dict[str, str], runs: int = 5) -> dict[str, list[tuple[float, float]]]:
    """(wall, CPU) seconds of each command as a whole process, ``runs`` rounds of one run
    each in turn (after one round untimed, which also leaves Python's bytecode cache
    written). A command is an argv, or a function of the round that prepares it untimed and
    returns its argv. Taking turns keeps a ratio of two of them honest on a shared machine
    whose speed drifts: compare them round by round (:func:`ratio`), not one's runs all
    before the other's."""
    out: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for i in range(runs + 1):
        for name, cmd in commands.items():
            argv = cmd(i) if callable(cmd) else cmd
            wall, cpu, _peak, _code = measured(argv, env)
            if i:
                out[name].append((wall, cpu))
    return out


def ratio(times: dict[str, list[tuple[float, float]]], a: str, b: str) -> tuple[float, float]:
    """The median over rounds of ``a``'s time over ``b``'s, (wall, CPU)."""
    pairs = list(zip(times[a], times[b]))
    return (statistics.median(x[0] / y[0] for x, y in pairs),
            statistics.median(x[1] / y[1] for x, y in pairs))


def median_ms(times: dict[str, list[tuple[float, float]]], name: str) -> str:
    """``name``'s median wall time, and its median CPU time."""
    return (f"{statistics.median(t[0] for t in times[name]) * 1000:.0f} ms"
            f" (CPU {statistics.median(t[1] for t in times[name]) * 1000:.0f} ms)")


def process_rows(path: str, eng: Engine, game_id: str, long_gid: str, runs: int = 5) -> list[tuple[str, str, str, str, str]]:
    """What a user waits for: whole processes, against floors timed in the same rounds."""
    env = {**os.environ, "ARBITER_DB": path}
    cmd = arbiter_argv()
    short = long_match(game_id, 100, seed=5)
    rng = random.Random(5)
    with eng.open() as store:
        short_gid = eng.store_match(store, short)

    def next_move(gid: str):
        def before(_i: int) -> list[str]:
            m = eng.load(gid)
            move = unending_move(m, rng)
            if move is None:  # every move would end it: time an undo instead
                return cmd + ["undo", gid]
            return cmd + ["do", gid, "--as", move[0], move[1]]
        return before

    n_long = eng.load(long_gid).seq
    times = rounds({"typer": [sys.executable, "-c", "import typer"], "help": cmd + ["--help"],
                    "do short": next_move(short_gid), "do long": next_move(long_gid),
                    "show short": cmd + ["show", short_gid, "--at", "10"],
                    "show long": cmd + ["show", long_gid, "--at", "10"]}, env, runs)

    def row(what: str, a: str, b: str, floor: str, aim: str) -> tuple[str, str, str, str, str]:
        wall, cpu = ratio(times, a, b)
        return (what, median_ms(times, a), f"{median_ms(times, b)} {floor}", f"{wall:.2f}x (CPU {cpu:.2f}x)", aim)

    return [
        row("arbiter --help (whole process)", "help", "typer", "python -c 'import typer'", "≤ 2x"),
        row("arbiter do, short game (whole process)", "do short", "help", "arbiter --help", "≤ 3x"),
        row(f"arbiter do, {n_long:,}-event game", "do long", "do short", f"on a {short.seq}-event game", "≤ 1.3x"),
        row(f"arbiter show --at 10, {n_long:,}-event game", "show long", "show short",
            f"on a {short.seq}-event game", "≤ 1.3x"),
    ]


def game_replay_rows(eng: Engine, events: int, rounds: int = 7) -> list[tuple[str, str, str, str, str]]:
    """For every game, a long game of its own (bots play it, as the main one) replayed
    against the column floor of the same events: whole replays (read, decode, fold) and
    floors in alternating rounds, the median of the rounds' ratios, in wall and CPU time
    (the CPU time a round takes is the figure a shared machine's load disturbs least)."""
    out = []
    for game_id in registry.known():
        game = registry.get(game_id)
        match = long_match(game_id, events, seed=3)
        with eng.open() as store:
            gid = eng.store_match(store, match)
        with eng.open(read_only=True) as store:
            def replay() -> None:
                fold_stored(store, gid, game)

            def cols() -> None:
                with few_collections():
                    column_floor(store, game.codec, gid)

            replay(), cols()  # once untimed: caches warm alike
            times: dict[str, list[tuple[float, float]]] = {"replay": [], "floor": []}
            for _ in range(rounds):
                for name, fn in (("replay", replay), ("floor", cols)):
                    w, c = time.perf_counter(), time.process_time()
                    fn()
                    times[name].append((time.perf_counter() - w, time.process_time() - c))
        wall, cpu = ratio(times, "replay", "floor")
        n = match.seq
        out.append((f"replay against the column floor, {game.title} ({n:,} events)",
                    f"{median_ms(times, 'replay')}", f"{median_ms(times, 'floor')} the column floor",
                    f"{wall:.2f}x (CPU {cpu:.2f}x)", "≤ 3x"))
    return out


FLOOR_SQL = ("SELECT seq, command_id, type, version, CAST(payload AS VARCHAR) AS payload"
             " FROM events_log WHERE game_id = ? ORDER BY seq")


def column_floor(store: Any, codec: Any, game_id: str) -> str:
    """The least a replay must do: read only the columns a fold needs and decode them
    (through Arrow when pyarrow is installed, else DuckDB's own row fetch). Returns how."""
    import importlib.util

    dec = codec.decode
    if importlib.util.find_spec("pyarrow") is not None:
        # a cursor of its own: DuckDB 2 refuses a relation while the store's connection
        # holds a result not read to the end
        rel = store.con.cursor().sql(FLOOR_SQL, params=[game_id])
        # DuckDB 2 calls it to_arrow_table; before, fetch_arrow_table
        table = rel.to_arrow_table() if hasattr(rel, "to_arrow_table") else rel.fetch_arrow_table()
        cols = table.to_pydict()
        [dec(t, v, p) for t, v, p in zip(cols["type"], cols["version"], cols["payload"])]
        return "Arrow read of the 5 columns + decode"
    rows = store.con.execute(FLOOR_SQL, [game_id]).fetchall()
    [dec(r[2], r[3], r[4]) for r in rows]
    return "DuckDB fetchall of the 5 columns + decode (pyarrow is not a dependency)"


#: Runs a command and prints its wall and CPU seconds, peak resident KiB and exit code. A
#: child's peak starts at its parent's size when it was forked, so arbiter is started from
#: this small process rather than from bench itself.
_MEASURE = ("import os, sys, time\n"
            "t = time.perf_counter()\n"
            "pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, file_actions=["
            "(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),"
            " (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])\n"
            "_p, status, u = os.wait4(pid, 0)\n"
            "print(time.perf_counter() - t, u.ru_utime + u.ru_stime, u.ru_maxrss,"
            " os.waitstatus_to_exitcode(status))\n")


def measured(argv: list[str], env: dict[str, str]) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak MiB, exit code) of ``argv`` as a whole process. The
    peak is the largest resident size of the process or of any worker it waited for
    (``wait4``'s rusage: one process's peak, not a sum)."""
    out = subprocess.run([sys.executable, "-S", "-c", _MEASURE, *argv], env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]) / 1024, int(out[3])


class _Line(msgspec.Struct):
    format: str | None = None
    game: dict | None = None
    event: EventLine | None = None
    command: dict | None = None


def copies_jsonl(exports: list[str], out: str, events: int) -> int:
    """A jsonl export of at least ``events`` events, as an export of a store of that many
    would be: copies of ``exports``' games in turn, each under an id of its own (its command
    ids renamed with it) and its chain computed for that id. Returns the events written.
    Much quicker than playing or storing that many (and the store is then made by the very
    import that is measured)."""
    dec, enc = msgspec.json.Decoder(_Line), msgspec.json.Encoder()
    games = []
    for text in exports:
        lines = [dec.decode(line) for line in text.splitlines() if line.strip()]
        first = {c["first_seq"]: c["text"] for ln in lines if ln.command for c in [ln.command]}
        games.append((lines, first))
    total = i = 0
    with open(out, "wb") as fh:
        while total < events:
            lines, first = games[i % len(games)]
            old = lines[0].game["game_id"]
            gid = f"{old}-{i:05d}"
            rename = (f"{old}/".encode(), f"{gid}/".encode())
            prev = GENESIS
            for ln in lines:
                if ln.game is not None:
                    ln = _Line(format=ln.format, game={**ln.game, "game_id": gid})
                elif ln.event is not None:
                    e = ln.event
                    payload = bytes(e.payload).replace(*rename)
                    cid = e.command_id.replace(old + "/", gid + "/", 1)
                    h = chain_hash(prev, gid, e.seq, e.type, payload.decode(), version=e.version,
                                   actor=e.actor, command_id=cid, command_text=first.get(e.seq))
                    ln = _Line(event=EventLine(e.seq, e.type, e.version, e.actor, msgspec.Raw(payload),
                                                cid, prev, h))
                    prev = h
                    total += 1
                else:
                    cmd = ln.command
                    ln = _Line(command={**cmd, "command_id": cmd["command_id"].replace(old + "/", gid + "/", 1)})
                fh.write(enc.encode({k: v for k, v in msgspec.structs.asdict(ln).items() if v is not None}))
                fh.write(b"\n")
            i += 1
    return total


def read_json_argv(jsonl: str, target: str) -> list[str]:
    """DuckDB loading the same file into a table with ``read_json``, as a whole process (the
    floor of reading and storing it: no hash, no rules, no audit)."""
    sql = ("import duckdb, sys\n"
           "con = duckdb.connect(sys.argv[1])\n"
           "con.execute(\"CREATE TABLE dump AS SELECT * FROM read_json(?, format = 'newline_delimited')\","
           " [sys.argv[2]])\n"
           "con.close()\n")
    return [sys.executable, "-c", sql, target, jsonl]


def faster(ratio: float) -> str:
    """A speed-up in words: '1.83x faster', or '1.69x slower' for a ratio under 1."""
    return f"{ratio:.2f}x faster" if ratio >= 1 else f"{1 / ratio:.2f}x slower"


#: Alternating rounds of the large store's compared runs (see :func:`store_rows`).
STORE_ROUNDS = 3


def median_run(runs: list[tuple[float, float, float, int]]) -> tuple[float, float, float, int]:
    """The run of median wall time (a failed run, if any failed: it is what to show)."""
    failed = [r for r in runs if r[3] != 0]
    return failed[0] if failed else sorted(runs)[len(runs) // 2]


def store_rows(tmp: str, exports: list[str], small: int, large: int
               ) -> list[tuple[str, str, str, str, str]]:
    """`import` of a jsonl export and `verify --all` of the store it made, as whole
    processes, on a small and a large store: throughput, peak memory (large against small),
    --jobs 2 against --jobs 1, and the import against DuckDB's own read_json of the same
    file. The rows that compare two runs on the large store (--jobs 1 against --jobs 2,
    the import against read_json) run in alternating rounds, and each shows the run of
    median time and the median of the rounds' ratios: one run of a few seconds moves by a
    tenth from one to the next."""
    cmd = arbiter_argv()
    env = dict(os.environ)
    runs: dict[Any, Any] = {}

    def fresh(name: str) -> str:
        path = os.path.join(tmp, name)
        for leftover in (path, path + ".wal"):
            if os.path.exists(leftover):
                os.unlink(leftover)
        return path

    for label, want in (("small", small), ("large", large)):
        dump = os.path.join(tmp, f"{label}.jsonl")
        runs[label, "n"] = copies_jsonl(exports, dump, want)
        store = fresh(f"store-{label}.duckdb")
        say(f"import and verify --all, {runs[label, 'n']:,} events …")
        runs[label, "import1"] = measured(cmd + ["--db", store, "import", dump, "--jobs", "1"], env)
        runs[label, "verify1"] = measured(cmd + ["--db", store, "verify", "--all", "--jobs", "1"], env)
        if label == "large":
            taken: dict[str, list[tuple[float, float, float, int]]] = {}
            for i in range(STORE_ROUNDS):
                if i:
                    taken.setdefault("verify1", []).append(
                        measured(cmd + ["--db", store, "verify", "--all", "--jobs", "1"], env))
                else:
                    taken["verify1"] = [runs[label, "verify1"]]
                taken.setdefault("verify2", []).append(
                    measured(cmd + ["--db", store, "verify", "--all", "--jobs", "2"], env))
                other = fresh("import-2.duckdb")
                taken.setdefault("import2", []).append(
                    measured(cmd + ["--db", other, "import", dump, "--jobs", "2"], env))
                os.unlink(other)
                target = fresh("read_json.duckdb")
                taken.setdefault("read_json", []).append(measured(read_json_argv(dump, target), env))
                os.unlink(target)
            for name in ("verify1", "verify2", "import2"):
                runs[label, name] = median_run(taken[name])
            runs["read_json"] = median_run(taken["read_json"])
            runs["verify speed-up"] = statistics.median(
                a[0] / b[0] for a, b in zip(taken["verify1"], taken["verify2"]))
            runs["import2 / read_json"] = statistics.median(
                a[0] / b[0] for a, b in zip(taken["import2"], taken["read_json"]))
        os.unlink(dump)
        os.unlink(store)
    ns, nl = runs["small", "n"], runs["large", "n"]
    failed = {k for k, v in runs.items() if isinstance(v, tuple) and v[3] != 0}

    def rate(n: int, r: tuple) -> str:
        return f"{n / r[0]:,.0f} ev/s ({r[1]:.0f} s CPU)" if r[3] == 0 else f"failed (exit {r[3]})"

    rows = []
    for verb in ("import", "verify"):
        one_s, one_l = runs["small", f"{verb}1"], runs["large", f"{verb}1"]
        two = runs["large", f"{verb}2"]
        bad = {("small", f"{verb}1"), ("large", f"{verb}1")} & failed
        name = "verify --all" if verb == "verify" else "import (jsonl, every command re-decided)"
        rows.append((f"{name}, {nl:,} events, --jobs 1: peak memory", f"{one_l[2]:.0f} MiB; {rate(nl, one_l)}",
                     f"{one_s[2]:.0f} MiB on {ns:,} events; {rate(ns, one_s)}",
                     "" if bad else f"{one_l[2] / one_s[2]:.2f}x", "≤ 1.5x"))
        bad = {("large", f"{verb}1"), ("large", f"{verb}2")} & failed
        rows.append((f"{name}, {nl:,} events, --jobs 2", f"{rate(nl, two)}; peak {two[2]:.0f} MiB a process",
                     f"{rate(nl, one_l)} with --jobs 1",
                     "" if bad else faster(runs.get(f"{verb} speed-up", one_l[0] / two[0])), "≥ 1.6x"))
    best = min(runs["large", "import1"][0], runs["large", "import2"][0])
    rj = runs["read_json"]
    against = runs["import2 / read_json"] if best == runs["large", "import2"][0] else best / rj[0]
    rows.append((f"import, {nl:,} events (whole process, the better --jobs)", f"{nl / best:,.0f} ev/s",
                 f"{nl / rj[0]:,.0f} ev/s DuckDB read_json of the same file into a table (whole process)",
                 f"{against:.1f}x", "≥ 100,000 ev/s or ≤ 3x"))
    return rows


def run_bench(events: int = 10000, commands: int = 300, game_id: str | None = None,
              postgres: str | None = None, store_events: int = 250_000, quick: bool = False) -> None:
    """Every row, with a long game of ``events`` events and stores of ``store_events`` and
    a fifth of that (``quick``: tiny sizes, to see that every row runs, not to measure)."""
    if quick:
        events, commands, store_events = min(events, 600), min(commands, 20), min(store_events, 3_000)
    game_id = game_id or ("monster-derby" if "monster-derby" in registry.known() else registry.known()[0])
    game = registry.get(game_id)
    rows: list[tuple[str, str, str, str, str]] = []
    _START[0] = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.duckdb")
        eng = Engine(path)
        say(f"a {events}-event game of {game.title} …")
        match = long_match(game_id, events)
        with eng.open() as store:
            gid = eng.store_match(store, match)

        # replay against the floor of reading and decoding the same events
        with eng.open(read_only=True) as store:
            def floor() -> None:
                with few_collections():
                    read_log(store, gid, game)

            def replay() -> None:  # what a load without snapshots does
                fold_stored(store, gid, game)

            def cols() -> str:  # under the collector settings a load runs with, as the others
                with few_collections():
                    return column_floor(store, game.codec, gid)

            how = cols()
            # in alternating rounds, the best of each: a drifting machine meets them all alike
            best: dict[Any, float] = {}
            for _ in range(7):
                for fn in (floor, replay, cols):
                    best[fn] = min(best.get(fn, float("inf")), timed(fn, 1))
            t_floor, t_replay, t_cols = best[floor], best[replay], best[cols]
        n = match.seq
        rows.append(("replay (read+decode+fold)", f"{n / t_replay:,.0f} ev/s",
                     f"{n / t_floor:,.0f} ev/s arbiter's own read+decode", f"{t_replay / t_floor:.2f}x", "≤ 3x"))
        rows.append(("replay against the column floor", f"{n / t_replay:,.0f} ev/s",
                     f"{n / t_cols:,.0f} ev/s {how}", f"{t_replay / t_cols:.2f}x", "≤ 3x"))
        say("replay of every game against its column floor …")
        rows += game_replay_rows(eng, events, rounds=2 if quick else 7)
        say("whole processes: --help, do, show, in turns …")
        if sys.flags.dont_write_bytecode:
            say("PYTHONDONTWRITEBYTECODE is set: a module without its bytecode cached is"
                " compiled again by every process, and start-up figures count that")
        rows += process_rows(path, eng, game_id, gid, runs=1 if quick else 5)
        say("stepping back, stored commands, bot games …")

        # stepping back to random points
        cursor = Cursor(game.projection, match.items)
        rng = random.Random(7)
        picks = [rng.randrange(len(match.items)) for _ in range(200)]
        times = []
        for i in picks:
            t0 = time.perf_counter()
            cursor.at_index(i)
            times.append(time.perf_counter() - t0)
        full = timed(lambda: Cursor(game.projection, match.items), 1)
        rows.append(("step back to a random seq", f"median {statistics.median(times) * 1000:.2f} ms,"
                     f" max {max(times) * 1000:.2f} ms", f"cursor built once in {full * 1000:.0f} ms",
                     "", "< 20 ms"))

        # command latency: decide + append + commit, against a bare insert + commit of the
        # very rows the command wrote into a table shaped like the log, interleaved one for
        # one so that load drift cancels out
        fresh = Match.new(game, seed=3, seats=game.default_seats(min(3, game.max_seats)))
        with eng.open() as store:
            gid2 = eng.store_match(store, fresh)
            con = store.con
            con.execute("CREATE TABLE IF NOT EXISTS bare AS SELECT * FROM events_log LIMIT 0")
            m = eng.load_from(store, gid2)
            brng = random.Random(3)
            ours, bare = [], []
            while len(ours) < commands and m.outcome() is None:
                seat = m.to_act().seats[0]
                text = game.command_text(random_bot(m.state, seat, m.legal(seat), brng))
                t0 = time.perf_counter()  # the bot's choice is not the command's cost
                _r, m, _e = eng.do(gid2, text, seat, store=store)
                t1 = time.perf_counter()
                written = con.execute("SELECT * FROM events_log WHERE game_id = ? AND seq >= ?",
                                      [gid2, _r.first_seq]).fetchall()
                t2 = time.perf_counter()  # the same rows again, inserted bare
                con.execute("BEGIN")
                con.execute("INSERT INTO bare VALUES " + ", ".join(
                    ["(" + ", ".join("?" * len(written[0])) + ")"] * len(written)),
                    [v for row in written for v in row])
                con.execute("COMMIT")
                ours.append(t1 - t0)
                bare.append(time.perf_counter() - t2)
            t_cmd, t_bare = statistics.median(ours), statistics.median(bare)
        # no aim: the bare insert leaves out the heads' UPDATE every append makes in its
        # transaction (a DuckDB statement of its own, most of the difference; README says why)
        rows.append(("stored command (decide+append+commit)", f"{t_cmd * 1000:.2f} ms (median)",
                     f"{t_bare * 1000:.2f} ms bare insert+commit of its rows", f"{t_cmd / t_bare:.2f}x", ""))
        t_open = timed(lambda: open_store(path).__enter__().close(), 3)
        rows.append(("opening the store (per CLI command)", f"{t_open * 1000:.1f} ms", "", "", ""))

        # bot games per second, in memory and stored
        games = 20
        t0 = time.perf_counter()
        played = []
        for i in range(games):
            mm = Match.new(game, seed=100 + i, seats=game.default_seats())
            autoplay(mm, {}, random.Random(i))
            played.append(mm)
        t_mem = time.perf_counter() - t0
        with eng.open() as store:
            t_store = timed(lambda: [eng.store_match(store, mm) for mm in played], 1)
        rows.append(("bot games", f"{games / t_mem:.1f} games/s in memory",
                     f"storing them: {games / t_store:.1f} games/s", "", ""))

        # stores for verify --all and import: copies of two long games, as an export
        per_game = min(2_500, max(100, store_events // 40))
        say(f"stores of {store_events // 5:,} and {store_events:,} events …")
        with eng.open() as store:
            ids = [eng.store_match(store, long_match(game_id, per_game, seed=s)) for s in (21, 22)]
        with eng.open(read_only=True) as store:
            exports = [export_jsonl(store, g) for g in ids]
        rows += store_rows(tmp, exports, store_events // 5, store_events)
        say("the service …")
        rows.append(service_row(os.path.join(tmp, "served.duckdb"), t_cmd, quick))
        if postgres:
            rows.append(writers_row(postgres))
    emit_rows(["measure", "arbiter", "baseline (same run)", "ratio", "aim"], rows, "table",
              title=f"arbiter bench — {game.title}, {n:,}-event game")


def service_row(path: str, t_cmd: float, quick: bool = False) -> tuple[str, str, str, str, str]:
    """50 games, 2–4 clients each, through the HTTP API: against the same stored command
    decided in-process (the floor the service adds HTTP, JSON and per-seat views to)."""
    from arbiter.service.server import CLIENT_NEEDS, NEEDS, missing

    if missing(NEEDS + CLIENT_NEEDS):
        return ("service (50 games over HTTP)", "not measured: install the server extra", "", "", "")
    from arbiter.service.load import run_load
    games = 4 if quick else 50
    res = run_load(path, kinds=sorted(registry.known()), games=games, per_game=5 if quick else 20, seed=1)
    return (f"service ({games} games, 2–4 clients each, HTTP)",
            f"{res.per_second:.0f} commands/s; p50 {res.p50_ms:.1f} ms, p99 {res.p99_ms:.1f} ms;"
            f" {res.server_errors} server errors",
            f"{t_cmd * 1000:.2f} ms a stored command in-process", f"p50 {res.p50_ms / (t_cmd * 1000):.1f}x",
            "0 errors, 0 lost")
