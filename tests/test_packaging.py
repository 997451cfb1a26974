"""Packaging as users install it: a wheel (not an editable install) carries
every shipped scenario and registers the built-in games.

The scenarios stay in the repository's top-level ``scenarios/`` and ship as
the data package ``pbem_scenarios`` (``[tool.setuptools.package-dir]``;
``pbem_scenarios.<game>`` is ``scenarios/<game>/``); because of that mapping
pyproject lists the packages instead of finding them, so a package added
under ``pbem/`` or a folder under ``scenarios/`` must be added there too
(the first test says which).  ``.ci/run`` repeats the install check with a real
``python -m build`` and a fresh venv from PyPI; here it is offline: the
wheel is built by this environment's setuptools and installed into a venv
that sees this environment's site-packages as a plain path (so pbem's own
editable install is not active there).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

from pbem import games, scenario

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def shipped_files() -> list[str]:
    """Every file under scenarios/ the wheel must carry, as wheel paths."""
    out = []
    for f in sorted((REPO / "scenarios").rglob("*")):
        if f.is_file() and f.suffix in (".toml", ".md"):
            out.append("pbem_scenarios/" + f.relative_to(REPO / "scenarios").as_posix())
    return out


def test_every_package_is_listed_in_pyproject():
    from setuptools import find_packages

    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = set(find_packages(str(REPO), include=["pbem", "pbem.*"]))
    found |= {"pbem_scenarios"} | {f"pbem_scenarios.{p.name}" for p in (REPO / "scenarios").iterdir() if p.is_dir()}
    assert found - listed == set(), f"add to pyproject [tool.setuptools] packages: {sorted(found - listed)}"
    assert listed - found == set(), f"listed in pyproject but not in the tree: {sorted(listed - found)}"
    assert PYPROJECT["tool"]["setuptools"]["package-dir"] == {"pbem_scenarios": "scenarios"}


# Games whose data ships before their rules engine: their scenario folders
# exist (transcription, practice data) but no entry point may register them
# until they play, so `pbem scenarios` never lists a game that cannot start.
NOT_YET_PLAYABLE: dict[str, str] = {}


def test_every_scenario_folder_belongs_to_a_registered_game():
    folders = sorted(p.name for p in (REPO / "scenarios").iterdir() if p.is_dir())
    eps = PYPROJECT["project"]["entry-points"]["pbem.games"]
    for name in folders:
        if name in NOT_YET_PLAYABLE:
            assert name not in eps, f"{name} is registered: drop it from NOT_YET_PLAYABLE"
            continue
        assert name in eps, f"scenarios/{name}/ has no game in pyproject's pbem.games entry points"
        assert getattr(games.load(name), "scenario_package", None) == f"pbem_scenarios.{name}"
        assert set(scenario.shipped(name)) == {f"{name}/{p.stem}" for p in (REPO / "scenarios" / name).glob("*.toml")}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pbem's wheel, built offline from a copy of the working tree."""
    root = tmp_path_factory.mktemp("wheel")
    src = root / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "*.egg-info")
    shutil.copy2(REPO / "pyproject.toml", src)
    for folder in ("pbem", "scenarios"):
        shutil.copytree(REPO / folder, src / folder, ignore=ignore)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-index", "--no-build-isolation",
                        "--disable-pip-version-check", "-q", "-w", str(root / "dist"), str(src)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    [whl] = (root / "dist").glob("pbem-*.whl")
    return whl


def test_the_wheel_carries_every_scenario_and_module(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [f for f in shipped_files() if f not in names]
    assert not missing, missing
    modules = {p.relative_to(REPO).as_posix() for p in (REPO / "pbem").rglob("*.py")}
    assert modules - names == set()
    [eps] = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    text = zipfile.ZipFile(wheel).read(eps).decode()
    registered = PYPROJECT["project"]["entry-points"]["pbem.games"]
    listed = "".join(f"{gid} = {target}\n" for gid, target in sorted(registered.items()))
    assert "[pbem.games]\n" + listed in text


def test_installed_wheel_lists_and_plays(wheel, tmp_path):
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True, timeout=120)
    py = tmp_path / "venv" / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_") and k != "PYTHONPATH"}
    env.update(PYTHONDONTWRITEBYTECODE="1", COLUMNS="120", PBEM_HOME=str(tmp_path / "home"))

    def run(*args: str) -> str:
        r = subprocess.run([str(py), *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, f"{args}: {r.stderr}{r.stdout[-2000:]}"
        return r.stdout

    purelib = run("-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
    # The dependencies as a plain path: its .pth files (pbem's editable finder) stay inactive.
    Path(purelib, "_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    run("-m", "pip", "install", "--no-deps", "--no-index",
        "--disable-pip-version-check", "-q", str(wheel))
    where = run("-c", "import pbem, pbem_scenarios.avd as s; print(pbem.__file__); print(list(s.__path__)[0])")
    assert all(line.startswith(purelib) for line in where.split()), where
    listed = {line.split()[0] for line in run("-m", "pbem.cli", "scenarios").splitlines()}
    assert listed == {f[len("pbem_scenarios/"):-5] for f in shipped_files() if f.endswith(".toml")}
    for args in (("demo",), ("demo", "m41")):
        out = run("-m", "pbem.cli", *args, "--exchanges", "2")
        assert "state hash checked: valid" in out, out[-500:]
