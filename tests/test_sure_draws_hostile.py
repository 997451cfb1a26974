"""Hostile programs against the ``sure-draws`` feature (docs/FILE-FORMAT.md,
Dice; pbem.cycle.run.SureDraws).  Under sealed dice a draw made after the
sender's own order may be made at once only from a cup of one: any larger
cup must wait for a stream the sender cannot know, else the sender would
choose the item.  Each test writes a file with a modified program (an
engine piece replaced inside the test) and shows that the honest program
refuses it, or, when the file is consistent, replays it as written.

The game is the duel test game whose defence first draws the arena from a
cup (the same rule in every program: only the engine is modified).  In it
blue sends exchange 6, whose own order, the defence, makes that draw."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from collections.abc import Callable
from typing import Any

import enginehelp as eh
import pytest
from click.testing import CliRunner
from clihelp import cli_env
from duelgame import DuelRules

from pbem import cycle
from pbem.cli import main
from pbem.cycle import run as run_mod
from pbem.errors import InvalidFile
from pbem.protocol import gamefile
from pbem.protocol.gamefile import GameFile
from pbem.protocol.stream import FrozenRng

DEFENCE = 6                     # the exchange in which blue defends (and draws)


def _arena_rule(monkeypatch: pytest.MonkeyPatch, cup: tuple[str, ...]) -> None:
    """Every program's duel draws the arena from ``cup`` when blue defends."""
    plain = DuelRules._defend

    def _defend(self, st, side, order, rng):
        st["arena"] = cup[rng.draw(cup, "arena")]
        return plain(self, st, side, order, rng)

    monkeypatch.setattr(DuelRules, "_defend", _defend)


def _start(monkeypatch: pytest.MonkeyPatch, features: tuple[str, ...] = run_mod.FEATURES,
           game_id: str = "g-sure-draws", ids: dict[str, Any] | None = None) -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    """A joined duel whose header names ``features`` (a program of another
    version, or a modified one, writes what it likes there)."""
    monkeypatch.setattr("pbem.cycle.write.FEATURES", features)
    sc = eh.duel_scenario()
    red, blue = (ids["red"], ids["blue"]) if ids else eh.players()
    gf = cycle.new_game(game_id=game_id, game="duel", scenario_name="duel/test", scenario=sc, options={},
                        dice="sealed", creator=red, creator_side="red", invited={"blue": blue.public})
    gf = GameFile(gf.exchanges + [cycle.join_exchange(cycle.replay(gf, sc, blue), blue, "blue")])
    monkeypatch.setattr("pbem.cycle.write.FEATURES", run_mod.FEATURES)
    assert gf.header.get("features", []) == list(features)
    return gf, sc, {"red": red, "blue": blue}


def _write(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any],
           cheat: Callable[[pytest.MonkeyPatch], None] | None = None) -> tuple[GameFile, Any]:
    """The seat whose turn it is writes its exchange (its program first
    modified by ``cheat``, undone after); the new file and the turn."""
    seat = cycle.replay(gf, sc).next_sender()
    assert seat is not None
    m = cycle.replay(gf, sc, ids[seat])
    with pytest.MonkeyPatch.context() as local:
        if cheat:
            cheat(local)
        t = cycle.Turn(m, ids[seat])
        while not t.done:
            t.push(eh.first_option(t.pending()))
        ex = t.finish()
    return GameFile(gf.exchanges + [ex]), t


def _before_defence(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any]) -> GameFile:
    while len(gf.exchanges) < DEFENCE - 1:
        gf, _ = _write(gf, sc, ids)
    m = cycle.replay(gf, sc)
    deferred = m.es["deferred"]
    assert m.next_sender() == "blue" and deferred is not None and deferred["order"] == {"verb": "attack"}
    return gf


def _defence(gf: GameFile) -> Any:
    (entry,) = [e for e in gf.exchanges[DEFENCE - 1]["orders"] if e["order"]["verb"] == "defend"]
    return entry


def _refusal(gf: GameFile, sc: dict[str, Any], ids: dict[str, Any]) -> str:
    """Red's program, then a bystander's, verify the last exchange: the
    reason both give (one line)."""
    prefix = GameFile(gf.exchanges[:-1])
    with pytest.raises(InvalidFile) as live:
        cycle.advance(cycle.replay(prefix, sc, ids["red"]), gf.last, ids["red"])
    with pytest.raises(InvalidFile) as cold:
        cycle.replay(gf, sc)
    assert str(live.value) == str(cold.value) and "\n" not in str(live.value)
    return str(live.value)


def _choosing(item: str) -> Callable[[pytest.MonkeyPatch], None]:
    """A modified program: any cup is a sure draw, and the item is the one
    its player wants (no stream is consulted)."""
    def cheat(mp: pytest.MonkeyPatch) -> None:
        mp.setattr(run_mod.SureDraws, "draw", lambda self, items, purpose: list(items).index(item))
    return cheat


# ------------------------------- (a) a cup of two or more drawn as if sure


@pytest.mark.parametrize("cup, wanted", [
    (("sand", "stone"), "stone"),
    (("sand", "stone"), "sand"),              # even the item a cup of one would give
    (("sand", "stone", "mud"), "mud"),
])
def test_hostile_a_real_draw_made_without_a_stream_is_refused(monkeypatch, cup, wanted):
    _arena_rule(monkeypatch, cup)
    gf, sc, ids = _start(monkeypatch)
    gf = _before_defence(gf, sc, ids)
    forged, t = _write(gf, sc, ids, cheat=_choosing(wanted))
    # The modified program did what it meant to: the defence went through in
    # blue's own exchange with the arena blue chose, no value of any stream.
    assert t.es["game"]["arena"] == wanted and not t.es.get("deferred")
    assert "deferred" not in _defence(forged) and not [r for r in t.rng.records if r["purpose"] == "arena"]
    # Validly signed (a replay of the honest program's own exchange 6 is
    # refused for a reason other than the signature), and refused by name.
    reason = _refusal(forged, sc, ids)
    assert reason == f"exchange {DEFENCE} by blue: order list differs from the replay at entry 1", reason
    honest, _ = _write(gf, sc, ids)
    assert _defence(honest)["deferred"] is True and cycle.replay(honest, sc).es["deferred"]["side"] == "blue"


# ---------------------- (b) the header and the exchanges disagreeing on it


def _old_style(mp: pytest.MonkeyPatch) -> None:
    """A modified program that defers every draw after its sender's order,
    whatever the header says (as pbem did before the feature)."""
    mp.setattr(run_mod.ExchangeRun, "_no_stream", lambda self: FrozenRng())


def _always_sure(mp: pytest.MonkeyPatch) -> None:
    """A modified program that draws from a cup of one at once, whatever
    the header says."""
    mp.setattr(run_mod.ExchangeRun, "_no_stream", lambda self: run_mod.SureDraws())


@pytest.mark.parametrize("features", [run_mod.FEATURES, ("sure-draws",)])
def test_hostile_a_header_claiming_sure_draws_over_old_style_exchanges_is_refused(monkeypatch, features):
    # The header is what every program reads the file by: with the feature
    # named, a draw from a cup of one is made at once, so an exchange that
    # deferred it is not the one the honest program replays.
    _arena_rule(monkeypatch, ("sand",))
    gf, sc, ids = _start(monkeypatch, features)
    gf = _before_defence(gf, sc, ids)
    forged, _ = _write(gf, sc, ids, cheat=_old_style)
    assert _defence(forged)["deferred"] is True
    assert _refusal(forged, sc, ids) == f"exchange {DEFENCE} by blue: order list differs from the replay at entry 1"


def test_hostile_sure_draws_used_in_a_file_whose_header_does_not_name_it_is_refused(monkeypatch):
    _arena_rule(monkeypatch, ("sand",))
    gf, sc, ids = _start(monkeypatch, ("forced", "plans"))
    gf = _before_defence(gf, sc, ids)
    forged, t = _write(gf, sc, ids, cheat=_always_sure)
    assert "deferred" not in _defence(forged) and t.es["game"]["arena"] == "sand"
    assert _refusal(forged, sc, ids) == f"exchange {DEFENCE} by blue: order list differs from the replay at entry 1"


@pytest.mark.parametrize("features, waits", [
    (("forced", "plans"), True),              # a new game written without the feature: as files before it
    (("sure-draws",), False),                 # the feature alone, the rest as before: drawn at once
    (run_mod.FEATURES, False),
])
def test_a_file_replays_by_the_features_its_header_names(monkeypatch, features, waits):
    # Consistent files, whatever program wrote them: every program (each
    # seat's and a bystander's) replays them whole, the draw from a cup of
    # one waiting for dice exactly when the header does not name the feature.
    _arena_rule(monkeypatch, ("sand",))
    gf, sc, ids = _start(monkeypatch, features, game_id=f"g-sure-{len(features)}")
    gf = eh.play_out(gf, sc, ids)
    for who in (None, ids["red"], ids["blue"]):
        assert cycle.replay(gf, sc, who).over()
    defences = [e for ex in gf.exchanges for e in ex.get("orders", []) if e["order"]["verb"] == "defend"]
    assert len(defences) == 6 and all(bool(e.get("deferred")) == waits for e in defences)


def test_hostile_the_feature_struck_from_a_signed_header_is_refused(monkeypatch):
    # A header edited after the game was made (to replay sure draws as
    # deferrals, or the reverse) breaks the creator's signature on exchange 1.
    _arena_rule(monkeypatch, ("sand",))
    gf, sc, ids = _start(monkeypatch)
    gf, _ = _write(gf, sc, ids)
    text = gf.to_toml()
    listed = "".join(f'    "{f}",\n' for f in run_mod.FEATURES) + "]"
    assert text.count(listed) == 2                              # exchange 1's header and its [game] copy
    edited = text.replace(listed, listed.replace('    "sure-draws",\n', ""))
    assert gamefile.parse(edited).header["features"] == [f for f in run_mod.FEATURES if f != "sure-draws"]
    with pytest.raises(InvalidFile) as refused:
        cycle.replay(gamefile.parse(edited), sc)
    assert "\n" not in str(refused.value) and re.match(r"exchange 1 by red: .*signature", str(refused.value)), \
        str(refused.value)
    cycle.replay(gamefile.parse(text), sc)                    # the unedited text verifies


# ------------------------- (c) a refused file leaves the player's home as it was


def _tree(home: Path) -> dict[str, str]:
    """Every file under ``home``: its path and the hash of its bytes."""
    return {str(p.relative_to(home)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(home.rglob("*")) if p.is_file()}


def _cli(home: Path, root: Path, *args: str):
    env = cli_env(home, root / "scenarios")
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def test_hostile_the_forged_file_through_the_cli_leaves_nothing_in_pbem_home(monkeypatch, tmp_path):
    (tmp_path / "scenarios").mkdir()
    homes = {seat: tmp_path / seat for seat in ("red", "blue")}
    for seat, home in homes.items():
        r = _cli(home, tmp_path, "keygen", "--name", seat.title(), "--email", f"{seat}@example.org",
                 "--no-passphrase", "--out", str(home))
        assert r.exit_code == 0, r.output
    from pbem.protocol.keyfile import load_private
    ids = {seat: load_private(home / "key.toml", None) for seat, home in homes.items()}
    _arena_rule(monkeypatch, ("sand", "stone"))
    gf, sc, ids = _start(monkeypatch, ids=ids)
    gf = _before_defence(gf, sc, ids)
    files = {}
    for name, cheat in (("forged", _choosing("stone")), ("honest", None)):
        files[name] = tmp_path / f"{name}.toml"
        files[name].write_text(_write(gf, sc, ids, cheat=cheat)[0].to_toml(), encoding="utf-8")
    (tmp_path / "before.toml").write_text(gf.to_toml(), encoding="utf-8")
    red, out = homes["red"], tmp_path / "out"
    # Red has kept the game so far (a version and a cached match).
    r = _cli(red, tmp_path, "play", str(tmp_path / "before.toml"), "--out", str(out))
    assert r.exit_code == 0 and "Nothing to do" in r.output, r.output
    kept = _tree(red)
    assert any(p.startswith("games/") for p in kept) and any(p.startswith("cache/") for p in kept), kept
    reason = f"exchange {DEFENCE} by blue: order list differs from the replay at entry 1"
    for args in (("verify", str(files["forged"])), ("play", str(files["forged"]), "--out", str(out))):
        r = _cli(red, tmp_path, *args)
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        assert r.exit_code == 1 and len(lines) == 1 and reason in lines[0], (args, r.output, r.stderr)
        assert _tree(red) == kept, args
        assert not out.exists() or not list(out.iterdir())
    # The same comparison sees what the honest file writes.
    orders = tmp_path / "none.toml"
    orders.write_text("orders = []\n", encoding="utf-8")
    r = _cli(red, tmp_path, "play", str(files["honest"]), "--orders", str(orders), "--out", str(out))
    assert r.exit_code == 0, r.output + r.stderr
    grown = set(_tree(red)) - set(kept)
    assert any(p.startswith("games/") and p.endswith(f"{DEFENCE:04d}.toml") for p in grown), grown
