"""Helpers for the command-line tests: players with their own
``PBEM_HOME`` running ``pbem`` in subprocesses, the short duel scenario, a
loopback SMTP server.  Shared by the test_cli_* modules (and others), so
that no test module imports another."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import pytest

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"

# Two rounds of at most 8 hit points each against 12: the game always ends
# when round 2 is resolved, which makes the exchange count fixed.
SHORT_SCENARIO = """\
[scenario]
id = "duel/short"
game = "duel"
title = "Duel, two rounds"
practice = true
notice = "TEST GAME: exercises the protocol only"
source = "pbem test suite"

[duel]
hp = 12
rounds = 2
"""

STEM_PREFIX = "duel-anna-pavel-"


def stem_of(path: Path) -> str:
    """``duel-anna-pavel-3f2a`` from ``duel-anna-pavel-3f2a-004.toml``: a
    game's file names carry a short part of its id."""
    return Path(path).name.rsplit("-", 1)[0]


def write_scenario(folder: Path) -> Path:
    """A scenario folder holding ``duel/short``; returns the folder."""
    (folder / "duel").mkdir(parents=True, exist_ok=True)
    (folder / "duel" / "short.toml").write_text(SHORT_SCENARIO, encoding="utf-8")
    return folder


def cli_env(home: Path, scenarios: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(
        PBEM_HOME=str(home),
        PBEM_GAME_MODULES="duel=duelgame,trio=triogame",
        PBEM_SCENARIOS=os.pathsep.join([str(scenarios), str(TESTS / "data" / "scenarios")]),
        PYTHONPATH=os.pathsep.join([str(REPO), str(TESTS)]),
        PYTHONDONTWRITEBYTECODE="1",
        COLUMNS="120",
    )
    return env


@dataclass
class Player:
    """One player's computer: a home with the key, an out folder for what
    the program writes."""

    name: str
    side: str
    root: Path
    scenarios: Path
    runs: list[list[str]] = field(default_factory=list)

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def out(self) -> Path:
        return self.root / "out"

    def run(self, *args: str, input: str | None = None, ok: bool = True,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """``pbem ARGS`` as this player.  ``ok`` asserts exit 0 (and shows
        stderr if not); ``ok=False`` asserts a clean one-line failure.
        ``env`` adds variables (``PBEM_PASSPHRASE``...)."""
        cmd = [sys.executable, "-m", "pbem.cli", *args]
        self.runs.append(list(args))
        r = subprocess.run(cmd, env={**cli_env(self.home, self.scenarios), **(env or {})}, cwd=self.root, input=input,
                           capture_output=True, text=True, timeout=60)
        if ok:
            assert r.returncode == 0, f"pbem {' '.join(args)} failed ({r.returncode}): {r.stderr}{r.stdout[-2000:]}"
        else:
            assert r.returncode != 0, f"pbem {' '.join(args)} should have failed: {r.stdout}"
            assert "Traceback" not in r.stderr, r.stderr
            lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
            assert len(lines) == 1, f"expected one line on stderr, got: {r.stderr!r}"
        return r

    def orders(self, name: str, orders: list[str], policies: dict[str, str] | None = None) -> Path:
        path = self.root / f"orders-{name}.toml"
        text = "orders = [" + ", ".join(f'"{o}"' for o in orders) + "]\n"
        if policies:
            text += "\n[policies]\n" + "".join(f'{k} = "{v}"\n' for k, v in policies.items())
        path.write_text(text, encoding="utf-8")
        return path


def make_players(tmp_path: Path) -> tuple[Player, Player]:
    """Both players run keygen; each gets the other's public identity file."""
    scen = write_scenario(tmp_path / "scenarios")
    anna = Player("Anna", "red", tmp_path / "anna", scen)
    pavel = Player("Pavel", "blue", tmp_path / "pavel", scen)
    for p in (anna, pavel):
        p.out.mkdir(parents=True)
        r = p.run("keygen", "--name", p.name, "--email", f"{p.name.lower()}@example.org", "--no-passphrase",
                  "--out", str(p.root))
        assert re.search(r"Fingerprint: ([0-9A-F]{4} ){4}[0-9A-F]{4}", r.stdout), r.stdout
        assert (p.home / "key.toml").stat().st_mode & 0o777 == 0o600
    return anna, pavel


def start_game(anna: Player, pavel: Player, dice: str, options: tuple[str, ...] = ()) -> Path:
    """``new`` by Anna (red), with rule ``options`` (``NAME=VALUE``), ``join``
    by Pavel (blue): returns the joined file."""
    given = [w for o in options for w in ("--option", o)]
    r = anna.run("new", "duel/short", "--side", "red=me", "--side", f"blue={pavel.root / 'pavel.id.toml'}",
                 "--dice", dice, *given, "--out", str(anna.out))
    assert "Pavel <pavel@example.org> (blue)" in r.stdout
    created = Path(re.search(r"created: (\S+-001\.toml)", r.stdout).group(1))
    assert created.is_file() and created.name.startswith(STEM_PREFIX), created
    r = pavel.run("join", str(created), "--yes", "--out", str(pavel.out))
    assert f"Dice timing: {dice}" in r.stdout
    assert "Anna <anna@example.org> plays red" in r.stdout
    joined = pavel.out / f"{stem_of(created)}-002.toml"
    assert joined.is_file()
    return joined


@pytest.fixture
def smtp_server() -> Iterator[tuple[object, list]]:
    """A real SMTP server on the loopback interface, keeping what it gets."""
    import imapserver

    class Keep:
        def __init__(self) -> None:
            self.envelopes: list = []

        async def handle_DATA(self, server, session, envelope):  # noqa: ANN001
            self.envelopes.append(envelope)
            return "250 OK"

    handler = Keep()
    ctl = imapserver.start_smtp(handler)
    try:
        yield ctl, handler.envelopes
    finally:
        ctl.stop()


def play_script(players: dict[str, Player], received: Path, script: list[tuple[str, list[str]]]) -> Path:
    """Each (seat, orders) in turn, from an orders file: returns the last
    file written."""
    for k, (seat, orders) in enumerate(script):
        p = players[seat]
        r = p.run("play", str(received), "--orders", str(p.orders(f"s{k}-{received.stem}", orders)),
                  "--out", str(p.out))
        got = re.search(r"Written (\S+\.toml)", r.stdout)
        assert got, r.stdout
        received = Path(got.group(1))
    return received
