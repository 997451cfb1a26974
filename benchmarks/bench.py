"""Benchmarks, run by hand (not part of the test suite)::

    python benchmarks/bench.py [--json] [--runs 7] [--exchanges 300] [--games avd,m41] [--seed S]

What a player waits for, measured on the shipped practice scenarios played
by the scripted demo players (with their standing orders) through the
exchange engine, each program verifying every exchange of the other:

* ``startup_ratio``: ``pbem --help`` over ``python -c pass`` (medians of
  the same run, both of the same interpreter: see below);
* for each game G (``avd``, ``m41``, ``ava``), on the first ``--exchanges`` exchanges
  of a whole sealed-dice game (up to six games are played to find one that
  long; else the longest, less its last exchange; ``exchanges_G`` says how
  many were used):

  - ``verify_300_G_s``: ``pbem verify FILE`` in a subprocess, with the
    player's key (a full, cold replay: verify never uses the kept matches;
    the scenario's parse is kept from the warm-up run, as it is for a
    player after his first command);
  - ``play_300_G_s``: ``pbem play FILE`` up to its first prompt (stdin
    closed, so it stops there), for the player whose turn it is, with the
    cache of verified matches warm (an earlier run of the same command);
    ``play_300_G_next_s`` the usual case, the kept match one exchange
    behind (the last command was on the file before) and the file new to
    this player (its version is kept first); ``play_300_G_cold_s`` with no
    kept match at all (a full replay);
  - ``replay_300_G_s``: ``cycle.replay`` of that file in this process;
  - ``bytes_per_exchange_G``: the file as written, over its exchanges;

* pooled over whole games in both dice timings (``--email-games`` of each,
  and for sealed dice every game played to find the file;
  ``emails_games_G_*`` says how many): ``emails_per_turn_G_sealed`` and
  ``_immediate`` (exchanges of kind ``play`` per game turn), and
  ``emails_floor_G``: the alternation floor, one email each time the side
  that must really decide (an order by a player, not by his standing orders
  or his program) changes, per game turn, counted over the same games;
  ``emails_ratio_G_sealed`` / ``_immediate``: each over that floor.  A
  forced answer (``by = "forced"``) and a planned order (``by = "plan"``)
  are no decision of their sender's: they count towards neither.  The
  scripted AVD player plans each Combat Segment and ART chit, the AVA one
  the resolution of each Combat Segment's declared attacks;
* why each email of those games was sent (:func:`classify`):
  ``emails_classes_G_sealed`` / ``_immediate`` count them by class
  (decision, return, relay-dice, relay-draw, relay-sure, hidden, end,
  other), ``emails_avoidable_G_*`` the relays (and their returns) that a
  pre-commitment could have spared, ``emails_relays_G_sealed`` the relays
  by the decision they stopped at; ``emails_floor_G_sealed`` is the sealed
  floor, per game turn of the sealed game: the alternation floor's
  decisions plus the relays no pre-commitment can spare (a die or a draw
  between two decisions of one side: docs/FILE-FORMAT.md, "Relays") with
  the emails that answer them, and the emails only a seat's secrets can
  write; ``emails_ratio_G_sealed_to_sealed_floor`` the sealed game over it.
  ``--emails-only`` measures only these (``--games`` may add ``ava``,
  ``ffs``).

Every subprocess figure measures pbem as a player installs it (README:
``pip install .``): by default the checkout is copied to a scratch folder
and installed, not editable, with its dependencies, into a fresh virtual
environment there (pip may use the network; its output is kept quiet and
shown only if it fails, with progress on stderr), and every subprocess runs
that environment's ``pbem`` script and ``python``; ``"installed": true`` in
the output says so.  ``--current-python`` runs ``python -m pbem.cli`` with
this interpreter instead (``"installed": false``): quicker to set up, but an
editable install's import finder (setuptools adds one to every start of such
an interpreter, ~10 ms) makes every figure slower and ``startup_ratio``
smaller than a player sees.  In-process figures (``replay_300_G_s``) always
use this checkout.

Subprocesses run with Python's bytecode cache on (``PYTHONPYCACHEPREFIX``
in a scratch folder, after a warm-up run), as an installed program does, and
with no ``PYTHONDONTWRITEBYTECODE``.  Every time is the median of ``--runs``;
``*_cpu_s`` is the same median in CPU seconds (user + system), steadier than
wall time on a busy machine, of the processes pbem waited for: a verify's
check worker is not waited for at its end (pbem.protocol.spawn.reap), so
``verify_300_G_cpu_s`` is the replay's own process alone.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO)]

# The first prompt of `pbem play`: an order, or (no decision of the player's
# own in this exchange) the confirmation before signing.
PROMPTS = "order (help for commands)|Sign and write this exchange?"

GAMES = {
    "avd": ("avd/practice", REPO / "scenarios" / "avd" / "practice.toml"),
    "m41": ("m41/practice", REPO / "scenarios" / "m41" / "practice.toml"),
    "ava": ("ava/practice", REPO / "scenarios" / "ava" / "practice.toml"),
    "ffs": ("ffs/practice", REPO / "scenarios" / "ffs" / "practice.toml"),
}
# The two seats of each game: the creator's, then the invited player's.
SEATS = {"avd": ("german", "soviet"), "m41": ("german", "soviet"), "ava": ("axis", "soviet"),
         "ffs": ("axis", "soviet")}


# ------------------------------------------------------------------ timing


class Program:
    """How a subprocess starts pbem (``pbem``) and a bare interpreter
    (``python``), and whether that is an installed copy (see the module)."""

    def __init__(self, pbem: list[str], python: str, installed: bool) -> None:
        self.pbem, self.python, self.installed = pbem, python, installed


def current_program() -> Program:
    return Program([sys.executable, "-m", "pbem.cli"], sys.executable, False)


def install_program(scratch: Path) -> Program:
    """A fresh virtual environment in ``scratch`` with this checkout
    installed into it as a player installs it (``pip install .``, not
    editable).  The checkout is copied first so that the build leaves
    nothing in it."""
    source, venv = scratch / "source", scratch / "venv"
    print("bench: installing pbem (not editable) into a fresh virtual environment...", file=sys.stderr, flush=True)
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", "__pycache__", "*.egg-info", "build", ".venv", ".pytest_cache", ".hypothesis", ".mypy_cache"))
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / ("python.exe" if os.name == "nt" else "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_REQUIRE_VIRTUALENV")}
    for cmd in ([sys.executable, "-m", "venv", str(venv)],
                [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(source)]):
        r = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(f"bench: {' '.join(cmd)}: exit {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    shutil.rmtree(source, ignore_errors=True)
    print("bench: installed", file=sys.stderr, flush=True)
    return Program([str(bindir / "pbem")], str(python), True)


def child_env(scratch: Path, home: Path | None = None, program: Program | None = None) -> dict[str, str]:
    out = dict(os.environ)
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    if program is not None and program.installed:
        out.pop("PYTHONPATH", None)     # the installed copy, not this checkout
    out.pop("PBEM_PASSPHRASE", None)
    out["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
    out["PBEM_HOME"] = str(home or scratch / "nohome")
    out["COLUMNS"] = "100"
    return out


def timed_runs(cmd: list[str], runs: int, env: dict[str, str], ok: tuple[int, ...] = (0,),
               expect: str | None = None, cwd: Path | None = None,
               before_each: Any = None) -> tuple[float, float]:
    """Median wall and CPU seconds of ``runs`` runs of ``cmd`` (after one
    warm-up run, which also fills the bytecode cache and pbem's own)."""
    walls, cpus = [], []
    for i in range(runs + 1):
        if before_each is not None:
            before_each()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        r = subprocess.run(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode not in ok or (expect is not None and not any(e in r.stdout for e in expect.split("|"))):
            raise SystemExit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
        if i:
            walls.append(wall)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def median_call(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


# ------------------------------------------------------------------ games


def play_scripted(game: str, dice: str, limit: int = 5000, trace: dict[int, Any] | None = None, *,
                  scenario: tuple[str, dict[str, Any], tuple[str, str]] | None = None,
                  options: dict[str, Any] | None = None, policies: dict[str, dict[str, str]] | None = None,
                  choose: Any = None) -> tuple[Any, dict[str, Any], dict[str, Any], Any]:
    """A whole game between the scripted demo players, each program
    advancing its verified match one exchange at a time (linear).
    ``trace``, if given, gets for each exchange number the decision the
    exchange was handed over on (None when it ended another way), the
    decisions its sender was asked, and every secret draw made in it, as the programs that could see them listed
    them: the facts :func:`classify` needs beyond the records.  A test game
    gives its ``scenario`` (name, data, the two seats), ``options``, each
    seat's standing orders (default: the game's ``demo_policies``) and
    ``choose(rules, state, decision)`` (default: the game's scripted
    player)."""
    from pbem import cycle
    from pbem.protocol.gamefile import GameFile
    from pbem.protocol.identity import generate
    from pbem.scenario import load_toml

    if scenario is None:
        name, sc, (first, second) = GAMES[game][0], load_toml(GAMES[game][1]), SEATS[game]
    else:
        name, sc, (first, second) = scenario
    ids = {first: generate("Anna", "anna@example.org"), second: generate("Pavel", "pavel@example.org")}
    gf = cycle.new_game(game_id=f"{game}-bench-{dice}", game=game, scenario_name=name, scenario=sc,
                        options=options or {},
                        dice=dice, creator=ids[first], creator_side=first,
                        invited={second: ids[second].public})
    joiner = cycle.replay(gf, sc, ids[second])
    join = cycle.join_exchange(joiner, ids[second], second)
    cycle.advance(joiner, join, ids[second])
    creator = cycle.replay(GameFile(gf.exchanges + [join]), sc, ids[first])
    matches = {first: creator, second: joiner}
    unset: dict[str, list[tuple[str, str]]] = {}     # standing orders not given yet
    for _ in range(limit):
        side = creator.next_sender()
        if side is None:
            break
        turn = cycle.Turn(matches[side], ids[side])
        rules = turn.m.rules
        if side not in unset:
            standing = policies[side] if policies is not None and side in policies else \
                rules.demo_policies(side) if hasattr(rules, "demo_policies") else {}
            unset[side] = list(standing.items())
        # A standing order may answer the decision at hand and end the
        # exchange (AVA): the rest go in the side's next one.
        while unset[side] and not turn.done:
            turn.push("policy {} {}".format(*unset[side].pop(0)))
        asked = []
        while not turn.done:
            d = turn.pending()
            asked.append(d)
            turn.push(choose(rules, turn.es["game"], d) if choose else rules.demo_order(turn.es["game"], d))
        ex = turn.finish()
        for s, m in matches.items():
            cycle.advance(m, ex, ids[s])
        if trace is not None:
            trace[turn.n] = {"handed": turn.sink.handed if turn.how == "handed" else None, "asked": asked,
                             "secret": [x for m in matches.values() for rs in m.records[-1].secret_rolls.values()
                                        for x in rs]}
    else:
        raise SystemExit(f"the {game} {dice} game did not end")
    return GameFile(list(creator.exchanges)), sc, ids, creator


def game_turns(m: Any) -> int:
    first = m.rules.initial_state().get("turn", 1)
    return int(m.state["turn"]) - int(first) + 1


def emails(m: Any) -> tuple[int, int]:
    """(exchanges of kind play, alternation floor) of a whole game."""
    played = sum(1 for r in m.records if r.kind == "play")
    deciders = [e["side"] for r in m.records for e in r.entries
                if e.get("by") == "player" and not e.get("order", {}).get("verb") == "policy"]
    floor = sum(1 for i, s in enumerate(deciders) if i == 0 or s != deciders[i - 1])
    return played, floor


#: Why an email was sent, as :func:`classify` reads it.
CLASSES = ("decision", "return", "relay-dice", "relay-draw", "relay-sure", "hidden", "end", "other")


def _own(r: Any) -> list[dict[str, Any]]:
    """The sender's own decisions in record ``r`` (not standing orders)."""
    return [e for e in r.entries if e["side"] == r.side and e.get("by") == "player"
            and e.get("order", {}).get("verb") != "policy"]


def classify(m: Any, trace: dict[int, Any]) -> list[dict[str, Any]]:
    """Why each email (exchange of kind play) of a whole game was sent:

    - ``decision``: it carries a decision of its sender, and the last
      decision before it was another side's (the alternation floor counts
      exactly these);
    - ``return``: it carries a decision of its sender, who also made the
      last one: it exists only because a relay or a ``hidden`` email came
      in between;
    - a relay: no decision of its sender; it resolves what the exchange
      before deferred for dice (sealed timing) and hands the game back to
      that exchange's sender (or ends the game): ``relay-draw`` when a cup
      was drawn from (the next chit, a reinforcement) before his next
      decision, ``relay-dice`` when only dice were rolled, ``relay-sure``
      when nothing random happened (a draw from a cup of one);
    - ``hidden``: no decision; its sender's program answered from his
      secrets what no other program may answer (a face-down item shown);
    - ``end``: no decision, nothing resolved; the game ended in it;
    - ``other``: anything else.

    Each row: ``n``, ``side``, ``cls``, ``stop`` (the kind of decision the
    exchange was handed over on) and ``avoidable``: for a relay, and the
    return that follows it, whether a pre-commitment of the owner could
    have carried the game past it in the email before: nothing random came
    between (``relay-sure``); or the decision it stopped at takes a standing
    order its owner had not set; or it takes a plan, the owner's last
    decision before the relay took one too, and only dice (no draw: the
    same segment) came between, so a longer plan would have answered it.  Any other relay is unavoidable while no player may foresee
    a die: random events sit between two decisions of the same side that
    no pre-commitment covers (docs/FILE-FORMAT.md, "Relays")."""
    rows: list[dict[str, Any]] = []
    last: str | None = None
    relay_avoidable = False
    prev: Any = None
    policies = m.es.get("policies") or {}
    for r in m.records:
        if r.kind != "play":
            prev = r
            continue
        d = trace[r.n]["handed"]
        row: dict[str, Any] = {"n": r.n, "side": r.side, "stop": d.kind if d is not None else "",
                               "avoidable": False}
        own = _own(r)
        over = d is None and r is m.records[-1]
        if own:
            row["cls"] = "decision" if last != r.side else "return"
            row["avoidable"] = row["cls"] == "return" and relay_avoidable
            last = r.side
        elif prev is not None and prev.deferred and prev.side != r.side \
                and (over or (d is not None and d.seat == prev.side)):
            rolls = list(r.rolls) + trace[r.n]["secret"]
            if any(x["op"] in ("draw", "shuffle") and x.get("size", 2) > 1 for x in rolls):
                row["cls"] = "relay-draw"
            elif any(x["op"] not in ("draw", "shuffle") for x in rolls):
                row["cls"] = "relay-dice"
            else:
                row["cls"] = "relay-sure"
            unset = d is not None and bool(d.policy) and d.policy not in (policies.get(d.seat) or {})
            asked = trace[prev.n].get("asked") or [None]
            planned = asked[-1] is not None and asked[-1].plannable     # he could have signed a plan there
            row["avoidable"] = relay_avoidable = row["cls"] == "relay-sure" or d is not None and not d.private and (
                unset or (d.plannable and planned and row["cls"] == "relay-dice"))
        elif any(e.get("by") == "private" for e in r.entries):
            row["cls"] = "hidden"
            relay_avoidable = False
        else:
            row["cls"] = "end" if over else "other"
            relay_avoidable = False
        rows.append(row)
        prev = r
    return rows


def sealed_floor(rows: list[dict[str, Any]]) -> int:
    """The emails a sealed-dice game cannot do without, from its
    :func:`classify` rows: each change of the deciding side (``decision``),
    each relay no pre-commitment could have spared and the return that
    follows it, and each email only its sender's secrets could write
    (``hidden``)."""
    return sum(1 for r in rows if r["cls"] not in ("end", "other") and not r["avoidable"])


def measure_emails(game: str, out: dict[str, Any], sealed: list[tuple[Any, dict[int, Any]]] | None = None,
                   games: int = 3) -> None:
    """The email figures, pooled over whole games (emails and classes over
    game turns): the sealed games given (or ``games`` played here) and
    ``games`` immediate ones.  One game's figures swing with its dice; a
    pool of several steadies them."""
    def play(dice: str) -> tuple[Any, dict[int, Any]]:
        trace: dict[int, Any] = {}
        return play_scripted(game, dice, trace=trace)[3], trace

    pools = {"sealed": sealed or [play("sealed") for _ in range(games)],
             "immediate": [play("immediate") for _ in range(games)]}
    floors = all_turns = 0
    for dice, pool in pools.items():
        turns = sum(game_turns(whole) for whole, _ in pool)
        played = sealed_floors = 0
        counts: dict[str, int] = {}
        stops: dict[str, int] = {}
        for whole, trace in pool:
            n, floor = emails(whole)
            played, floors = played + n, floors + floor
            rows = classify(whole, trace)
            sealed_floors += sealed_floor(rows)
            for r in rows:
                counts[r["cls"]] = counts.get(r["cls"], 0) + 1
                if r["avoidable"]:
                    counts["avoidable"] = counts.get("avoidable", 0) + 1
                if r["cls"].startswith("relay"):
                    key = f"{r['cls']}:{r['stop']}{':avoidable' if r['avoidable'] else ''}"
                    stops[key] = stops.get(key, 0) + 1
        all_turns += turns
        out[f"emails_games_{game}_{dice}"] = len(pool)
        out[f"emails_per_turn_{game}_{dice}"] = round(played / turns, 2)
        out[f"exchanges_whole_{game}_{dice}"] = round(statistics.mean(len(w.exchanges) for w, _ in pool))
        out[f"emails_classes_{game}_{dice}"] = {c: round(counts[c] / turns, 2) for c in CLASSES if c in counts}
        out[f"emails_avoidable_{game}_{dice}"] = round(counts.get("avoidable", 0) / turns, 2)
        if dice == "sealed":
            out[f"emails_relays_{game}_sealed"] = {k: round(v / turns, 2) for k, v in sorted(stops.items())}
            out[f"emails_floor_{game}_sealed"] = round(sealed_floors / turns, 2)
    out[f"emails_floor_{game}"] = round(floors / all_turns, 2)
    for dice in ("sealed", "immediate"):
        out[f"emails_ratio_{game}_{dice}"] = round(out[f"emails_per_turn_{game}_{dice}"] / out[f"emails_floor_{game}"], 2)
    out[f"emails_ratio_{game}_sealed_to_sealed_floor"] = round(
        out[f"emails_per_turn_{game}_sealed"] / out[f"emails_floor_{game}_sealed"], 2)


def measure_game(game: str, runs: int, length: int, scratch: Path, out: dict[str, Any],
                 emails_games: int = 3, program: Program | None = None) -> None:
    from pbem import cycle, session
    from pbem.protocol import identity
    from pbem.protocol.gamefile import GameFile

    t = time.perf_counter()
    trace: dict[int, Any] = {}
    gf, sc, ids, m = play_scripted(game, "sealed", trace=trace)
    out[f"build_{game}_s"] = round(time.perf_counter() - t, 1)
    played = [(m, trace)]
    for _ in range(5):      # fresh keys, fresh dice: another game may last long enough
        if len(gf.exchanges) > length and len(played) >= emails_games:
            break
        again_trace: dict[int, Any] = {}
        again = play_scripted(game, "sealed", trace=again_trace)
        played.append((again[3], again_trace))
        if len(gf.exchanges) <= length and len(again[0].exchanges) > len(gf.exchanges):
            gf, sc, ids, m = again
    measure_emails(game, out, played, emails_games)

    # The file: the first ``length`` exchanges, or fewer where the whole game
    # is shorter, ending where a player has to decide (so play prompts).
    n = min(length, len(gf.exchanges) - 1)
    while not m.records[n - 1].waiting:
        n -= 1
    part = GameFile(gf.exchanges[:n])
    side = cycle.replay(part, sc).next_sender()
    me = ids[side]
    mine = cycle.replay(part, sc, me)
    text = session.refresh_reading_copies(part, mine).to_toml()
    out[f"exchanges_{game}"] = n
    out[f"bytes_per_exchange_{game}"] = round(len(text.encode()) / n)
    out[f"replay_300_{game}_s"] = round(median_call(lambda: cycle.replay(part, sc, me), max(3, runs // 2)), 3)

    folder = scratch / game
    home = folder / "home"
    home.mkdir(parents=True)
    identity.save_private(me, home / "key.toml", None)
    path = folder / f"{game}-{n}.toml"
    path.write_text(text, encoding="utf-8")
    program = program or current_program()
    env = child_env(scratch, home, program)
    pbem = program.pbem
    wall, cpu = timed_runs(pbem + ["verify", str(path)], runs, env, expect="valid:")
    out[f"verify_300_{game}_s"], out[f"verify_300_{game}_cpu_s"] = round(wall, 3), round(cpu, 3)
    # No file is written before the prompt; stdin closed ends the run there.
    wall, cpu = timed_runs(pbem + ["play", str(path), "--out", str(folder)], runs, env, ok=(1, 2),
                           expect=PROMPTS, cwd=folder)
    out[f"play_300_{game}_s"], out[f"play_300_{game}_cpu_s"] = round(wall, 3), round(cpu, 3)
    # The usual case: the kept match is one exchange behind (the player's
    # last command was on the file before), and this file is new to him.
    prev = folder / f"{game}-{n - 1}.toml"
    prev.write_text(session.refresh_reading_copies(GameFile(part.exchanges[:-1]), cycle.replay(
        GameFile(part.exchanges[:-1]), sc, me)).to_toml(), encoding="utf-8")
    kept = folder / "kept-cache"

    def one_behind() -> None:
        if not kept.exists():
            shutil.rmtree(home / "cache", ignore_errors=True)
            subprocess.run(pbem + ["log", "--last", "1", str(prev)], env=env, check=True, capture_output=True)
            shutil.copytree(home / "cache", kept)
        shutil.rmtree(home / "cache", ignore_errors=True)
        shutil.rmtree(home / "games", ignore_errors=True)
        shutil.copytree(kept, home / "cache")

    wall, cpu = timed_runs(pbem + ["play", str(path), "--out", str(folder)], runs, env, ok=(1, 2),
                           expect=PROMPTS, cwd=folder, before_each=one_behind)
    out[f"play_300_{game}_next_s"], out[f"play_300_{game}_next_cpu_s"] = round(wall, 3), round(cpu, 3)
    # The same with no kept match (the first command after a pbem upgrade).
    wall, cpu = timed_runs(pbem + ["play", str(path), "--out", str(folder)], runs, env, ok=(1, 2),
                           expect=PROMPTS, cwd=folder,
                           before_each=lambda: shutil.rmtree(home / "cache", ignore_errors=True))
    out[f"play_300_{game}_cold_s"], out[f"play_300_{game}_cold_cpu_s"] = round(wall, 3), round(cpu, 3)
    out[f"play_300_{game}_side"] = side


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
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--exchanges", type=int, default=300)
    ap.add_argument("--games", default="avd,m41")
    ap.add_argument("--emails-only", action="store_true", help="only the email figures (no timing)")
    ap.add_argument("--email-games", type=int, default=3, help="whole games per dice timing for the email figures")
    ap.add_argument("--current-python", action="store_true",
                    help="run `python -m pbem.cli` with this interpreter, not an installed copy in a fresh venv")
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder (its game files and homes) and name it")
    ap.add_argument("--seed", help="play the same games on every run: the games' seeds (and so their dice) "
                                   "drawn from a generator seeded with this (keys stay random)")
    args = ap.parse_args()
    if args.seed is not None:
        # Every seat's dice-chain and secret seeds come from os.urandom
        # (never from its keys): seeded, the scripted players play the same
        # games on every run, so that two runs compare the code, not luck.
        import random

        os.urandom = random.Random(args.seed).randbytes     # type: ignore[assignment]

    out: dict[str, Any] = {
        "python": platform.python_version(), "cpu": cpu_model(), "nproc": os.cpu_count(), "seed": args.seed,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    scratch = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    try:
        if args.emails_only:
            for game in args.games.split(","):
                measure_emails(game, out, games=args.email_games)
        else:
            program = current_program() if args.current_python else install_program(scratch)
            out["installed"] = program.installed
            env = child_env(scratch, program=program)
            bare, bare_cpu = timed_runs([program.python, "-c", "pass"], args.runs * 3, env)
            helped, helped_cpu = timed_runs(program.pbem + ["--help"], args.runs * 3, env)
            out.update(python_pass_s=round(bare, 4), pbem_help_s=round(helped, 4),
                       startup_ratio=round(helped / bare, 2), startup_ratio_cpu=round(helped_cpu / bare_cpu, 2))
            for game in args.games.split(","):
                measure_game(game, args.runs, args.exchanges, scratch, out, args.email_games, program)
    finally:
        if args.keep:
            out["scratch"] = str(scratch)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"python {out['python']} | nproc {out['nproc']} | {out['cpu']}")
    width = max(len(k) for k in out)
    for k, v in out.items():
        print(f"{k:<{width}}  {v}")


if __name__ == "__main__":
    main()
