"""Strict input (issue 7, item 7): what the file format does not define is
refused by name, and no input reaches an internal error.

Each hostile input here once ended in ``pbem: internal error: ...`` (or hung,
or ate memory); each is now one line and a non-zero exit, through the real
program in a subprocess.  Signed exchanges are forged the way a hostile
opponent would: with his own key, so the signature is good and only the
content is wrong.
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from pbem.cycle import sign
from pbem.protocol import gamefile
from pbem.protocol.gamefile import GameFile, exchange_hash
from pbem.protocol.identity import load_private
from clihelp import Player, cli_env, make_players, start_game


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> tuple[Player, Player, Path]:
    """Anna (red) and Pavel (blue) with a joined game; Anna is to play."""
    root = tmp_path_factory.mktemp("strict")
    anna, pavel = make_players(root)
    return anna, pavel, start_game(anna, pavel, "sealed")


def key_of(p: Player) -> Any:
    return load_private(p.home / "key.toml", None)


def forged_play(joined: Path, signer: Any, **fields: Any) -> GameFile:
    """Anna's next exchange with ``fields`` changed (None drops one), signed
    with her key."""
    gf = gamefile.load(joined)
    ex = {"game_id": gf.game_id, "n": len(gf.exchanges) + 1, "kind": "play", "side": "red",
          "prev": exchange_hash(gf.last), "reveal": "ab" * 32, "orders": [], "state": "00" * 32,
          "sealed": "AAAA", "sealed_hash": "00" * 32}
    ex.update(fields)
    return GameFile(gf.exchanges + [sign({k: v for k, v in ex.items() if v is not None}, signer)])


def write(p: Player, name: str, content: GameFile | dict[str, Any] | str) -> Path:
    path = p.root / f"strict-{name}.toml"
    if isinstance(content, GameFile):
        content = content.to_toml()
    elif isinstance(content, dict):
        content = tomli_w.dumps(content)
    path.write_text(content, encoding="utf-8")
    return path


def refused(p: Player, *args: str, code: int | None = None) -> str:
    """``pbem ARGS``: one line on stderr, a non-zero exit, no internal error."""
    r = p.run(*args, ok=False)
    line = r.stderr.strip()
    assert "internal error" not in line, line
    assert line.startswith("pbem: "), line
    if code is not None:
        assert r.returncode == code, (r.returncode, line)
    return line


def bystander(p: Player) -> Player:
    return Player("Nobody", "-", p.root / "bystander", p.scenarios)


# ------------------------------------------------------- signed exchanges


FORGED = {
    "order not a table": (dict(orders=[{"side": "red", "by": "player", "order": "pick 1"}]),
                          "order entry 1: 'order' should be a table"),
    "order entry with an extra key": (dict(orders=[{"side": "red", "by": "player", "order": {}, "why": "x"}]),
                                      "order entry 1: unknown field 'why'"),
    "unknown field": (dict(bonus="free dice"), "unknown field 'bonus' for a play exchange"),
    "field of another kind": (dict(to=2), "unknown field 'to' for a play exchange"),
    "upper-case reveal": (dict(reveal="AB" * 32), "field 'reveal' should be exactly 64 lower-case hex digits"),
    "spaced anchor": (dict(anchor=" ".join(["abcd"] * 16), chain_n=256),
                      "field 'anchor' should be exactly 64 lower-case hex digits"),
    "anchor without chain_n": (dict(anchor="cd" * 32), "needs both 'anchor' and 'chain_n'"),
    "huge chain": (dict(anchor="cd" * 32, chain_n=10 ** 15), "field 'chain_n' should be 1 to 65536"),
    "upper-case state hash": (dict(state="AB" * 32), "field 'state' should be exactly 64 lower-case hex digits"),
    "unknown kind": (dict(kind="teleport"), "unknown kind 'teleport'"),
}


@pytest.mark.parametrize("name", sorted(FORGED))
def test_a_forged_signed_exchange_is_refused_by_name(table, name) -> None:
    anna, pavel, joined = table
    fields, reason = FORGED[name]
    path = write(anna, name.replace(" ", "-"), forged_play(joined, key_of(anna), **fields))
    line = refused(pavel, "verify", str(path), code=1)
    assert reason in line, line


def test_upper_case_prev_is_refused(table) -> None:
    anna, pavel, joined = table
    prev = exchange_hash(gamefile.load(joined).last).upper()
    line = refused(pavel, "verify", str(write(anna, "prev", forged_play(joined, key_of(anna), prev=prev))))
    assert "field 'prev' should be exactly 64 lower-case hex digits" in line, line


def test_upper_case_key_in_a_signed_join_is_refused(table) -> None:
    anna, pavel, joined = table
    gf = gamefile.load(joined)
    ex = {k: v for k, v in gf.exchanges[1].items() if k != "sig"}
    ex["player"] = dict(ex["player"], sign_pub=ex["player"]["sign_pub"].upper())
    path = write(pavel, "upper-key", GameFile([gf.exchanges[0], sign(ex, key_of(pavel))]))
    line = refused(anna, "verify", str(path), code=1)
    assert "sign_pub must be 64 lower-case hex digits" in line, line


@pytest.mark.parametrize("where, change, reason", [
    ("top", lambda d: d.update(extra={"a": 1}), "unknown top-level entry 'extra'"),
    ("header", lambda d: [t.update(bonus=1) for t in (d["game"], d["exchange"][0]["game"])],
     "game header: unknown field 'bonus'"),
    ("seats", lambda d: [t.update(seats={"red": {"side": "red", "colour": "x"}})
                         for t in (d["game"], d["exchange"][0]["game"])], "seats.red: unknown field 'colour'"),
    ("state", lambda d: d["state"].update(note="x"), "[state]: unknown field 'note'"),
])
def test_what_the_format_does_not_define_is_refused_by_name(table, where, change, reason) -> None:
    anna, pavel, joined = table
    doc = tomllib.loads(joined.read_text(encoding="utf-8"))
    change(doc)
    line = refused(pavel, "verify", str(write(anna, f"undefined-{where}", doc)), code=1)
    assert reason in line, line


def test_the_header_may_carry_a_seats_table(table) -> None:
    """The optional [seats] table is part of the format: it passes the
    schema (and then fails only on the signature it changes)."""
    anna, pavel, joined = table
    doc = tomllib.loads(joined.read_text(encoding="utf-8"))
    for t in (doc["game"], doc["exchange"][0]["game"]):
        t["seats"] = {"red": {"side": "red", "roles": []}, "blue": {"side": "blue", "roles": ["x"]}}
    line = refused(pavel, "verify", str(write(anna, "seats-ok", doc)), code=1)
    assert "bad signature" in line, line


# ------------------------------------------------------- nesting, sizes, types


DEEP = "x = " + "[" * 5000 + "]" * 5000 + "\n"


def test_toml_nested_5000_deep_is_refused_everywhere(table, tmp_path) -> None:
    anna, pavel, joined = table
    game = write(anna, "deep", joined.read_text(encoding="utf-8") + DEEP)
    assert "nested more than 48 levels deep" in refused(pavel, "verify", str(game), code=1)
    orders = write(anna, "deep-orders", DEEP)
    assert "nested more than 48 levels deep" in refused(anna, "play", str(joined), "--orders", str(orders))
    ident = write(anna, "deep-id", DEEP)
    line = refused(anna, "new", "duel/short", "--side", "red=me", "--side", f"blue={ident}",
                   "--out", str(tmp_path))
    assert "nested more than 48 levels deep" in line, line
    # dotted keys nest without brackets
    dotted = write(anna, "deep-dotted", "x" + ".x" * 200 + " = 1\n")
    assert "nested more than 48 levels deep" in refused(pavel, "verify", str(dotted))


@pytest.mark.parametrize("text, reason", [
    ("orders = [1, 2]\n", "order 1 is the number 1, not an order text"),
    ('orders = [{verb = "pick"}]\n', "order 1 is a table, not an order text"),
    ('order = ["pick 1"]\n', "unknown entry 'order'"),
    ('orders = ["pick 1"]\nmessage = 5\n', "`message` must be text"),
    ('orders = ["pick 1"]\nmessage = "' + "x" * 2001 + '"\n', "`message` has 2001 characters; at most 2000"),
    ('orders = ["pick 1"]\n[policies]\ndefense = 3\n', "policy defense must be text"),
    ('orders = ["pick 1"]\npolicies = ["dodge"]\n', "`policies` must be a table"),
    ('orders = ["pick 1"]\n[policies]\n"two words" = "x"\n', "is not a single word"),
])
def test_a_malformed_orders_file_is_refused_before_any_order(table, text, reason) -> None:
    anna, _, joined = table
    path = write(anna, "bad-orders", text)
    out = anna.root / f"out-orders-{abs(hash(text))}"
    out.mkdir()
    line = refused(anna, "play", str(joined), "--orders", str(path), "--out", str(out), code=2)
    assert reason in line, line
    assert list(out.iterdir()) == []


def test_dev_zero_is_refused_without_reading_it(table) -> None:
    anna, _, joined = table
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    assert "is a character device, not a regular file" in refused(anna, "verify", "/dev/zero", code=2)
    line = refused(anna, "play", str(joined), "--orders", "/dev/zero", code=2)
    assert "is a character device, not a regular file" in line, line


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_blocking(table, tmp_path) -> None:
    anna, pavel, joined = table
    fifo = tmp_path / "game.toml"
    os.mkfifo(fifo)
    assert "is a FIFO (named pipe), not a regular file" in refused(anna, "verify", str(fifo), code=2)
    line = refused(anna, "play", str(joined), "--orders", str(fifo), code=2)
    assert "is a FIFO" in line, line
    line = refused(anna, "new", "duel/short", "--side", "red=me", "--side", f"blue={fifo}", "--out", str(tmp_path))
    assert "is a FIFO" in line, line
    # A FIFO in place of the private key.
    stranger = Player("Stranger", "-", tmp_path / "stranger", anna.scenarios)
    stranger.home.mkdir(parents=True)
    os.mkfifo(stranger.home / "key.toml")
    assert "is a FIFO" in refused(stranger, "play", str(joined))


# ------------------------------------------------------- not a player


def test_a_strangers_file_is_not_kept(table, tmp_path) -> None:
    anna, _, joined = table
    carl = Player("Carl", "-", tmp_path / "carl", anna.scenarios)
    carl.root.mkdir(parents=True)
    carl.run("keygen", "--name", "Carl", "--email", "carl@example.org", "--no-passphrase", "--out", str(carl.root))
    out = carl.root / "out"
    out.mkdir()
    line = refused(carl, "play", str(joined), "--out", str(out), "--orders", str(anna.orders("carl", ["pick 1"])))
    assert "your key is not a player of this game" in line
    assert not (carl.home / "games").exists() or not any((carl.home / "games").rglob("*.toml"))
    assert list(out.iterdir()) == []
    assert "this game did not invite your key" in refused(carl, "join", str(joined), "--yes", "--out", str(out))
    assert not (carl.home / "games").exists() or not any((carl.home / "games").rglob("*.toml"))


# ------------------------------------------------------- output and games


def test_demo_into_a_closed_pipe_exits_quietly(table) -> None:
    anna, _, _ = table
    proc = subprocess.Popen([sys.executable, "-m", "pbem.cli", "demo"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=cli_env(anna.root / "demo-home", anna.scenarios))
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()           # `| head -1`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert err == "", err


def test_sitrep_of_a_finished_moscow_game(tmp_path) -> None:
    scen = tmp_path / "scenarios"
    scen.mkdir()
    p = Player("Demo", "-", tmp_path, scen)
    p.run("demo", "m41", "--exchanges", "5000", "--keep", str(tmp_path / "demo"))
    last = sorted((tmp_path / "demo").glob("demo-*.toml"))[-1]
    r = p.run("sitrep", str(last))          # exit 0: it once ended in IndexError
    assert "game over" in r.stdout and "internal error" not in r.stderr, r.stdout[:400]


def test_the_month_after_the_last_turn() -> None:
    from types import SimpleNamespace

    from pbem.games.m41.sitrep import month_of

    sc: Any = SimpleNamespace(sequence={"months": ["July", "August"]})
    assert [month_of(sc, t) for t in (1, 2, 3)] == ["July", "August", "after August"]


def test_m41_orders_of_the_wrong_shape_are_illegal() -> None:
    """A crafted signed order (``dl = [["G05"]]``, moves that are not
    tables...) is refused by the game as illegal, in one line."""
    from pbem.game import IllegalOrder
    from pbem.protocol.stream import NeedDice
    from fakedice import SeededDice
    from gamepositions import CASES

    rules, positions = CASES["m41"]
    for state in positions:
        d = rules.pending(state)
        if d.kind != "impulse":
            continue
        for part in ({"dl": [["G05"]]}, {"moves": [["G05"]]}, {"activate": [[1]]}, {"moves": {"a": 1}},
                     {"artillery": ["x"]}, {"fight": [5]}, {"secret": 3}):
            with pytest.raises((IllegalOrder, NeedDice)):
                rules.apply(pickle.loads(pickle.dumps(state)), d.side, {"verb": "ti", **part}, SeededDice(1))
        return
    pytest.fail("no impulse position")


def test_a_signed_message_longer_than_2000_characters_is_refused(table) -> None:
    """Issue 9, item 14: every input refuses such a message, and a file made
    by a modified program that carries one is refused by name."""
    anna, pavel, joined = table
    path = write(anna, "long-message", forged_play(joined, key_of(anna), message="x" * 2001))
    line = refused(pavel, "verify", str(path), code=1)
    assert "a message of 2001 characters; at most 2000" in line
