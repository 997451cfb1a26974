"""Benchmarks of the core, run by hand (not part of the test suite)::

    python benchmarks/bench.py [--exchanges 300] [--runs 15]

Prints a small table:

* start-up of ``pbem --help`` against a bare ``python -c pass`` (median of
  ``--runs`` subprocess runs each): what the player waits for on every command;
* verifying a long game: a duel (the protocol test game, tests/duelgame.py)
  of ``--exchanges`` exchanges is built once through the library, then
  ``cycle.replay`` is timed on it (median of 5), as a bystander and as a
  player holding a key, plus ``pbem verify`` on the file in a subprocess;
* bytes per exchange of that file as written (``len(toml) / exchanges``).

Building the game advances each player's verified match one exchange at a
time with the replay's own steps, so that building stays linear in length.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"
sys.path[:0] = [str(REPO), str(TESTS)]
os.environ.setdefault("PBEM_GAME_MODULES", "duel=duelgame")


def env() -> dict[str, str]:
    out = dict(os.environ)
    out.update(PYTHONPATH=os.pathsep.join([str(REPO), str(TESTS)]), PBEM_GAME_MODULES="duel=duelgame",
               PBEM_SCENARIOS=str(TESTS / "data" / "scenarios"))
    out.pop("PBEM_HOME", None)
    return out


def median_run(cmd: list[str], runs: int, extra_env: dict[str, str] | None = None) -> float:
    times = []
    e = env() | (extra_env or {})
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def median_call(fn: Callable[[], Any], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def build_game(length: int) -> tuple[Any, dict[str, Any]]:
    """A sealed duel of ``length`` exchanges (enough rounds and hit points
    that it does not end first)."""
    import enginehelp as eh
    from pbem import cycle
    from pbem.protocol.gamefile import GameFile, exchange_hash

    sc = eh.duel_scenario()
    sc["duel"]["hp"] = 100_000
    sc["duel"]["rounds"] = 10_000
    gf, sc, ids = eh.start("sealed", sc)
    matches = {side: cycle.replay(gf, sc, ident) for side, ident in ids.items()}
    exchanges = list(gf.exchanges)
    while len(exchanges) < length:
        side = matches["red"].next_sender()
        turn = cycle.Turn(matches[side], ids[side])
        while not turn.done:
            turn.push(eh.first_option(turn.pending()))
        ex = turn.finish()
        for s, m in matches.items():
            cycle.advance(m, ex, ids[s])
        exchanges.append(ex)
    gf = GameFile(exchanges)
    return gf, {"scenario": sc, "ids": ids, "match": matches["red"]}


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exchanges", type=int, default=300)
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()

    from pbem import cycle, session
    from pbem.protocol.gamefile import parse

    rows: list[tuple[str, str]] = []
    bare = median_run([sys.executable, "-c", "pass"], args.runs)
    helped = median_run([sys.executable, "-m", "pbem.cli", "--help"], args.runs)
    rows.append(("python -c pass (median)", f"{bare * 1000:.0f} ms"))
    rows.append(("pbem --help (median)", f"{helped * 1000:.0f} ms"))
    rows.append(("pbem start-up over python", f"{(helped - bare) * 1000:.0f} ms"))

    t = time.perf_counter()
    gf, ctx = build_game(args.exchanges)
    built = time.perf_counter() - t
    sc, ids = ctx["scenario"], ctx["ids"]
    gf = session.refresh_reading_copies(gf, ctx["match"])
    text = gf.to_toml()
    n = len(gf.exchanges)
    rolls = sum(len(r.rolls) for r in cycle.replay(gf, sc).records)
    rows.append((f"game built ({n} exchanges, {rolls} rolls)", f"{built:.1f} s"))
    parse_t = median_call(lambda: parse(text))
    rows.append(("parse the TOML (median of 5)", f"{parse_t * 1000:.0f} ms"))
    bystander = median_call(lambda: cycle.replay(gf, sc))
    rows.append(("cycle.replay, bystander (median of 5)", f"{bystander * 1000:.0f} ms"))
    rows.append(("  per exchange", f"{bystander / n * 1000:.2f} ms"))
    player = median_call(lambda: cycle.replay(gf, sc, ids["red"]))
    rows.append(("cycle.replay, with red's key (median of 5)", f"{player * 1000:.0f} ms"))

    with tempfile.TemporaryDirectory() as tmp:
        sc_dir = Path(tmp) / "scenarios" / "duel"
        sc_dir.mkdir(parents=True)
        import tomli_w

        (sc_dir / "long.toml").write_text(tomli_w.dumps(sc))
        path = Path(tmp) / "long-game.toml"
        path.write_text(text, encoding="utf-8")
        cli = median_run([sys.executable, "-m", "pbem.cli", "verify", str(path), "--scenario", str(sc_dir / "long.toml")],
                         5, {"PBEM_HOME": str(Path(tmp) / "nohome")})
    rows.append(("pbem verify FILE, subprocess (median of 5)", f"{cli * 1000:.0f} ms"))
    rows.append(("file size", f"{len(text.encode()):,} bytes"))
    rows.append(("bytes per exchange", f"{len(text.encode()) / n:.0f}"))

    rows.extend(avd_rows())

    print(f"python {platform.python_version()} | nproc {os.cpu_count()} | {cpu_model()}")
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v:>12}")


def avd_rows() -> list[tuple[str, str]]:
    """A whole A Victory Denied practice game (the scripted demo players,
    sealed dice): how long a player's program takes to verify it."""
    import test_avd_engine_game as avd
    from pbem import cycle, session

    t = time.perf_counter()
    gf, sc, ids, matches = avd.play_game("sealed")
    built = time.perf_counter() - t
    n = len(gf.exchanges)
    text = session.refresh_reading_copies(gf, matches["german"]).to_toml()
    replay = median_call(lambda: cycle.replay(gf, sc, ids["german"]), runs=3)
    rows = []
    for dice in ("sealed", "immediate"):
        g, _, _, ms = avd.play_game(dice) if dice == "immediate" else (gf, sc, ids, matches)
        played = [r for r in ms["german"].records if r.kind == "play"]
        turns = ms["german"].state["turn"]
        rows.append((f"AVD emails per game turn, {dice} dice", f"{len(played) / turns:.1f}"))
    return rows + [
        (f"AVD practice game built ({n} exchanges, whole game)", f"{built:.1f} s"),
        ("AVD cycle.replay with german's key (median of 3)", f"{replay * 1000:.0f} ms"),
        ("  per exchange", f"{replay / n * 1000:.2f} ms"),
        ("AVD bytes per exchange", f"{len(text.encode()) / n:.0f}"),
    ]


if __name__ == "__main__":
    main()
