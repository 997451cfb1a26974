"""Games are plug-ins (pbem.games entry points).

The heart of it: a game in its own distribution (``tests/plugin_game``,
the two-seat dice race ``race``), pip-installed into a fresh venv, is found
by ``pbem scenarios``, ``pbem new``, ``pbem verify`` and ``pbem demo`` with
no change to ``pbem/``; in the same venv before the install it is not.

The venv is made offline in about a second: ``python -m venv
--without-pip``, a ``.pth`` that runs ``site.addsitedir`` on this
environment's site-packages (pbem, its dependencies, pip and setuptools
become importable), then this environment's pip installs the plug-in with
no index, no dependencies and no build isolation.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from pbem import games, scenario
from pbem.errors import UsageError

# The built-in games, by id: the order `pbem` lists its own games in.
BUILT_IN = sorted(tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
                ["project"]["entry-points"]["pbem.games"])

REPO = Path(__file__).resolve().parent.parent
PLUGIN = Path(__file__).resolve().parent / "plugin_game"


def venv_python(root: Path) -> Path:
    return root / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def make_venv(root: Path, pth_line: str) -> Path:
    """A venv without pip whose site-packages holds one ``.pth`` line;
    returns its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True, timeout=120)
    py = venv_python(root)
    purelib = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    Path(purelib, "_pbem_test_parent.pth").write_text(pth_line + "\n", encoding="utf-8")
    return py


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_") and k != "PYTHONPATH"}
    env.update(PYTHONDONTWRITEBYTECODE="1", COLUMNS="120", **extra)
    return env


class Venv:
    def __init__(self, root: Path) -> None:
        self.root = root
        here = sysconfig.get_paths()["purelib"]
        self.python = make_venv(root / "venv", f"import site; site.addsitedir({here!r})")

    def pbem(self, *args: str, home: str = "home", ok: bool = True) -> subprocess.CompletedProcess[str]:
        """``pbem ARGS`` run by the venv's python from outside the checkout."""
        r = subprocess.run([str(self.python), "-m", "pbem.cli", *args], cwd=self.root, capture_output=True,
                           text=True, timeout=120, env=clean_env(PBEM_HOME=str(self.root / home)))
        if ok:
            assert r.returncode == 0, f"pbem {' '.join(args)}: {r.stderr}{r.stdout[-2000:]}"
        return r

    def install(self, source: Path) -> None:
        # Built from a copy: the build writes build/ and *.egg-info beside the sources.
        copy = self.root / source.name
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
        r = subprocess.run([str(self.python), "-m", "pip", "install", "--no-deps", "--no-index",
                            "--no-build-isolation", "--disable-pip-version-check", "-q", str(copy)],
                           cwd=self.root, capture_output=True, text=True, timeout=300, env=clean_env())
        assert r.returncode == 0, r.stdout + r.stderr


@pytest.fixture(scope="module")
def plugin_venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Venv, dict[str, subprocess.CompletedProcess[str]]]:
    """The venv with the plug-in installed, and what pbem said before."""
    v = Venv(tmp_path_factory.mktemp("plugin"))
    before = {"scenarios": v.pbem("scenarios"), "demo": v.pbem("demo", "race", ok=False)}
    v.install(PLUGIN)
    return v, before


def test_not_there_before_the_install(plugin_venv):
    _, before = plugin_venv
    assert "avd/practice" in before["scenarios"].stdout          # pbem itself works there
    assert "race" not in before["scenarios"].stdout
    assert before["demo"].returncode == 2
    assert before["demo"].stderr.strip() == "pbem: unknown game 'race'; installed games: " + ", ".join(BUILT_IN)


def test_scenarios_lists_the_plugin_scenario(plugin_venv):
    v, _ = plugin_venv
    out = v.pbem("scenarios").stdout
    line = next(ln for ln in out.splitlines() if ln.startswith("race/short"))
    assert line.split()[:4] == ["race/short", "race", "practice", "data"] and "complete" in line
    assert "avd/practice" in out and "m41/practice" in out                # the built-in games too


def test_new_then_verify(plugin_venv):
    v, _ = plugin_venv
    for name, home in (("Anna", "anna"), ("Pavel", "pavel")):
        v.pbem("keygen", "--name", name, "--email", f"{home}@example.org", "--no-passphrase",
               "--out", str(v.root / home), home=home)
    out = v.root / "games"
    r = v.pbem("new", "race/short", "--side", "red=me", "--side", f"blue={v.root / 'pavel' / 'pavel.id.toml'}",
               "--out", str(out), home="anna")
    assert "created" in r.stdout
    [created] = sorted(out.glob("race-*.toml"))
    r = v.pbem("verify", str(created), home="pavel")
    assert "valid" in (r.stdout + r.stderr).lower()


def test_demo_plays_the_plugin(plugin_venv):
    v, _ = plugin_venv
    r = v.pbem("demo", "race", "--exchanges", "6")
    assert "Race to 12: red" in r.stdout
    assert "replayed from the file by a bystander" in r.stdout and "state hash checked: valid" in r.stdout


def test_registry_in_the_plugin_venv(plugin_venv):
    """pbem's own games first, by id, other distributions' games after; the
    default demo is the game that says demo_first (AVD), wherever it
    sorts."""
    v, _ = plugin_venv
    r = subprocess.run([str(v.python), "-c", "from pbem import games; print(games.ids(), games.default_demo())"],
                       capture_output=True, text=True, env=clean_env(), cwd=v.root, check=True)
    assert r.stdout.split("]")[0] + "]" == str([*BUILT_IN, 'race'])
    assert r.stdout.split()[-1] == "avd"


# ---------------------------------------------------------------- in process


def test_builtin_games_are_entry_points():
    from importlib.metadata import entry_points

    eps = {ep.name: ep.value for ep in entry_points(group=games.GROUP)}
    assert eps["avd"] == "pbem.games.avd:GAME" and eps["m41"] == "pbem.games.m41:GAME"
    for gid in ("avd", "m41"):
        g = games.load(gid)
        assert g.id == gid
        assert getattr(g, "demo_scenario").startswith(f"{gid}/")
        assert scenario.find(g.demo_scenario).is_file()


def test_env_override_adds_and_replaces(monkeypatch):
    monkeypatch.setenv("PBEM_GAME_MODULES", "duel=duelgame, avd=duelgame:GAME")
    reg = games.registered()
    assert list(reg)[-1] == "duel" and reg["duel"] == "duelgame" and reg["avd"] == "duelgame:GAME"
    assert games.load("duel").id == "duel"
    with pytest.raises(UsageError, match="whose id is 'duel'"):
        games.load("avd")


def test_unknown_and_broken_games(monkeypatch):
    monkeypatch.delenv("PBEM_GAME_MODULES", raising=False)
    with pytest.raises(UsageError, match=r"unknown game 'nope'; installed games: " + ", ".join(BUILT_IN)):
        games.load("nope")
    monkeypatch.setenv("PBEM_GAME_MODULES", "ghost=no_such_module_here")
    with pytest.raises(UsageError, match="not available in this installation"):
        games.load("ghost")
    rows = {row[0]: row for row in scenario.list_all()}
    assert rows["ghost/*"][2].startswith("unavailable:")            # listed, not a crash
    assert "avd/practice" in rows
    assert scenario.find("m41/practice").name == "practice.toml"


def test_scenarios_from_env_folders_after_the_shipped_ones(tmp_path, monkeypatch):
    (tmp_path / "avd").mkdir()
    (tmp_path / "avd" / "practice.toml").write_text("not even toml")   # shadowed: shipped first
    (tmp_path / "avd" / "extra.toml").write_text(
        '[scenario]\nid = "avd/extra"\ngame = "avd"\ntitle = "Extra"\npractice = true\n')
    monkeypatch.setenv("PBEM_SCENARIOS", str(tmp_path))
    assert scenario.find("avd/practice") == scenario.shipped("avd")["avd/practice"]
    assert scenario.find("avd/extra") == tmp_path / "avd" / "extra.toml"
    with pytest.raises(UsageError, match="available: .*avd/extra"):
        scenario.find("avd/nonesuch")


def test_shipped_scenarios_are_the_repository_folders():
    for gid in ("avd", "m41"):
        files = {p.resolve() for p in scenario.shipped(gid).values()}
        assert files == {p.resolve() for p in (REPO / "scenarios" / gid).glob("*.toml")}
