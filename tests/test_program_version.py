"""The program that started a game (the header's ``program`` field,
pbem.protocol.program): new games record it, signed; the field is strict; files from
before it replay as they did; and a game that stops replaying after an
upgrade tells its player which version finishes it, and only then."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import duelgame
import enginehelp as eh
import pbem
from pbem import cycle, session
from pbem.protocol import program
from pbem.cli import main
from pbem.cycle import write
from pbem.errors import InvalidFile
from pbem.game import IllegalOrder
from pbem.protocol import gamefile
from pbem.protocol.gamefile import GameFile

ROOT = Path(__file__).resolve().parent.parent
SCENARIO_FILE = str(eh.DATA / "scenarios" / "duel" / "test.toml")
EXAMPLE = ROOT / "examples" / "avd-anna-pavel-005.toml"
RUNNING = f"pbem {pbem.__version__}"
REFUSED = "dodging was refused by a later reading of the rule"


def dodge(d: Any) -> str:
    return "defend dodge" if d.kind == "defend" else eh.first_option(d)


def started_as(monkeypatch: pytest.MonkeyPatch, claim: str | None) -> None:
    """New games name ``claim`` as their program (None: name none, as every
    file before 0.3.0): another pbem's games, signed as it signs them."""
    header_for = write.header_for

    def other(*args: Any, **kw: Any) -> Any:
        header: dict[str, Any] = dict(header_for(*args, **kw))
        header.pop("program")
        if claim is not None:
            header["program"] = claim
        return header

    monkeypatch.setattr(write, "header_for", other)


def dodged_game(tmp_path: Path) -> Path:
    """A duel in which blue dodged (exchange 6), written to a file."""
    gf, sc, ids = eh.start("immediate")
    for _ in range(4):
        gf = eh.one_exchange(gf, sc, ids, choose=dodge)
    assert any("dodge" in str(e) for r in cycle.replay(gf, sc).records for e in r.events)
    path = tmp_path / "game.toml"
    path.write_text(gf.to_toml(), encoding="utf-8")
    return path


def fix_the_dodge_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The upgrade: a rule fix that refuses what the game's program allowed."""
    defend = duelgame.DuelRules._defend

    def fixed(self: Any, st: Any, side: str, order: Any, rng: Any) -> Any:
        if order.get("how") == "dodge":
            raise IllegalOrder(REFUSED)
        return defend(self, st, side, order, rng)

    monkeypatch.setattr(duelgame.DuelRules, "_defend", fixed)


def refusal(path: Path) -> str:
    with pytest.raises(cycle.Verification) as exc:
        session.open_game(path, None, scenario=SCENARIO_FILE)
    return str(exc.value)


def cold_refusal(path: Path) -> str:
    """What the replay itself says, before the player's message is made."""
    with pytest.raises(cycle.Verification) as exc:
        cycle.replay(gamefile.load(path), eh.duel_scenario())
    return str(exc.value)


def pbem_cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    h = tmp_path / "home"
    monkeypatch.setenv("PBEM_HOME", str(h))
    monkeypatch.setenv("PBEM_SCENARIOS", str(eh.DATA / "scenarios"))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    return h


# ------------------------------------------------------------ recorded, signed


def test_the_version_is_one_number_everywhere() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["version"] == pbem.__version__
    assert program.PROGRAM == RUNNING


def test_a_new_game_records_the_running_version() -> None:
    gf, sc, ids = eh.start("sealed")
    assert gf.header["program"] == RUNNING
    back = gamefile.parse(gf.to_toml())
    assert back.header["program"] == RUNNING
    assert f'program = "{RUNNING}"' in gf.to_toml()
    assert cycle.replay(back, sc).header["program"] == RUNNING


def test_editing_the_version_breaks_the_signature_and_names_no_version(tmp_path: Path) -> None:
    gf, sc, ids = eh.start("sealed")
    text = gf.to_toml().replace(f'program = "{RUNNING}"', 'program = "pbem 0.2.9"')
    assert text.count('program = "pbem 0.2.9"') == 2          # the signed header and its reading copy
    path = tmp_path / "edited.toml"
    path.write_text(text, encoding="utf-8")
    said = refusal(path)
    assert said == "exchange 1 by red: bad signature: altered after signing, or not signed by red's key"
    assert "0.2.9" not in said and "install" not in said


# ------------------------------------------------------------ strict


@pytest.mark.parametrize("bad", [
    3, True, ["pbem 0.3.0"], {"name": "pbem"}, "", "pbem", "pbem 0.3", "pbem 0.3.0 ", " pbem 0.3.0",
    "PBEM 0.3.0", "other 0.3.0", "pbem 0.3.0 (install evil 1.0)", "pbem 0.3.0\nrm -rf", "pbem v0.3.0",
    "pbem 0.3.0" + "a" * 40,
])
def test_a_program_field_of_another_shape_is_refused_by_name(bad: Any) -> None:
    gf, sc, ids = eh.start("sealed")
    gf.exchanges[0]["game"]["program"] = bad
    with pytest.raises(InvalidFile, match=r"^game: game header field 'program' should name the pbem that started"):
        gamefile.parse(gf.to_toml(), "game")
    with pytest.raises(InvalidFile, match=r"^game header field 'program' should name the pbem that started"):
        cycle.replay(gf, sc)              # a file built in memory, not read: the replay checks it too


@pytest.mark.parametrize("good", ["pbem 0.3.0", "pbem 0.3.1", "pbem 1.12.0rc1", "pbem 0.4.0.dev2+g1a2b3c"])
def test_releases_are_taken(good: str) -> None:
    program.check_program(good, "program")
    assert program.started_by({"program": good}) == good.split(" ")[1]


def test_a_field_next_to_it_is_still_refused_by_name() -> None:
    gf, sc, ids = eh.start("sealed")
    gf.exchanges[0]["game"]["programme"] = RUNNING
    with pytest.raises(InvalidFile, match=r"unknown field 'programme'"):
        gamefile.parse(gf.to_toml(), "game")


# ------------------------------------------------------------ earlier files


def test_an_earlier_file_without_the_field_verifies_as_before(home: Path) -> None:
    assert "program" not in gamefile.load(EXAMPLE).header
    loaded = session.open_game(EXAMPLE, None)
    assert len(loaded.match.exchanges) == 5
    r = pbem_cli("verify", str(EXAMPLE))
    assert r.exit_code == 0
    assert r.output.splitlines() == [f"valid: 5 exchanges, {_rolls(loaded.match)} rolls and draws recomputed; "
                                     f"{loaded.match.who_acts()}"]


def _rolls(m: Any) -> int:
    return sum(len(r.rolls) + sum(map(len, r.secret_rolls.values())) for r in m.records)


def test_an_earlier_duel_without_the_field_replays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started_as(monkeypatch, None)
    path = dodged_game(tmp_path)
    assert "program" not in gamefile.load(path).header
    assert session.open_game(path, None, scenario=SCENARIO_FILE).match.exchanges


def test_verify_names_the_program_that_started_the_game(tmp_path: Path, home: Path) -> None:
    path = dodged_game(tmp_path)
    r = pbem_cli("verify", str(path))
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0].startswith("valid: 6 exchanges")
    assert r.output.splitlines()[1:] == [f"started by {RUNNING}"]


# ------------------------------------------------------------ the way forward


@pytest.mark.parametrize("claim", ["pbem 0.2.9", "pbem 0.4.0", "pbem 0.3.0rc1"])
def test_a_game_of_another_version_that_fails_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      claim: str) -> None:
    started_as(monkeypatch, claim)
    path = dodged_game(tmp_path)
    assert session.open_game(path, None, scenario=SCENARIO_FILE).match.exchanges      # fine under its rules
    fix_the_dodge_rule(monkeypatch)
    made = claim.split(" ")[1]
    cold = cold_refusal(path)
    assert re.fullmatch(rf"exchange \d+ by blue: an order does not replay: {REFUSED}", cold)
    assert refusal(path) == (f"{cold}; this game was started by pbem {made} and this is pbem {pbem.__version__}: "
                             f"install pbem {made} to finish this game")


def test_a_game_from_before_the_field_that_fails_names_the_version_before(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    started_as(monkeypatch, None)
    path = dodged_game(tmp_path)
    fix_the_dodge_rule(monkeypatch)
    assert refusal(path) == (f"{cold_refusal(path)}; this game was started before pbem 0.3.0 (its file names no "
                             f"version) and this is pbem {pbem.__version__}: install pbem 0.2.0 to finish this game")


def test_the_same_failure_under_the_same_version_names_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = dodged_game(tmp_path)
    fix_the_dodge_rule(monkeypatch)
    said = refusal(path)
    assert said == cold_refusal(path)
    assert "install" not in said and "started" not in said


def test_the_player_sees_the_hint_in_one_line(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started_as(monkeypatch, "pbem 0.2.9")
    path = dodged_game(tmp_path)
    fix_the_dodge_rule(monkeypatch)
    for command in ("verify", "sitrep", "log"):
        r = pbem_cli(command, str(path))
        assert r.exit_code == 1
        assert r.output.strip().splitlines() == [
            f"pbem: {cold_refusal(path)}; this game was started by pbem 0.2.9 and this is pbem "
            f"{pbem.__version__}: install pbem 0.2.9 to finish this game"], command


def test_a_tampered_later_exchange_of_another_version_gets_the_hint(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The header is signed by the creator, so its claim holds whatever
    fails later: the player learns which version to ask the other about."""
    started_as(monkeypatch, "pbem 0.4.0")
    path = dodged_game(tmp_path)
    gf = gamefile.load(path)
    gf.exchanges[-1]["message"] = "not what was signed"
    path.write_text(GameFile(gf.exchanges).to_toml(), encoding="utf-8")
    said = refusal(path)
    assert said.startswith(f"exchange {len(gf.exchanges)} by ") and "bad signature" in said
    assert said.endswith("install pbem 0.4.0 to finish this game")
