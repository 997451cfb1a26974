"""Two players run the program on different machines, so anything that
depends on Python's per-process string hashing (set order, dict of sets)
would make their replays disagree.  A game recorded in this process must
verify in another one with a different hash seed."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem import session

ROOT = Path(__file__).resolve().parent.parent


def _verify_elsewhere(path: Path, seed: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONHASHSEED=seed, PBEM_HOME=str(path.parent / "nohome"),
               PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    return subprocess.run([sys.executable, "-m", "pbem.cli", "verify", str(path)], env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("game", ["avd", "m41", "ava", "ffs", "vr"])
def test_a_recorded_game_verifies_under_other_hash_seeds(game: str, tmp_path: Path) -> None:
    if game == "avd":
        from avd_fixtures import play_game

        gf, _, _, matches = play_game("sealed", stop_after=60)
        m = matches["german"]
    elif game == "vr":
        from vrhelp import play_practice

        gf, _, _, matches = play_practice("sealed")
        m = matches["german"]
    elif game in ("ava", "ffs"):
        from enginehelp import play_ava

        gf, _, _, matches = play_ava(game, "sealed", stop_after=80)
        m = matches["axis"]
    else:
        from m41help import PRACTICE, play_campaign

        from pbem import cycle

        gf, _ = play_campaign("sealed", stop_after=40)
        m = cycle.replay(gf, PRACTICE)
    path = tmp_path / f"{game}.toml"
    path.write_text(session.refresh_reading_copies(gf, m).to_toml(), encoding="utf-8")
    for seed in ("1", "2", "12345"):
        r = _verify_elsewhere(path, seed)
        assert r.returncode == 0 and r.stdout.startswith("valid:"), r.stderr
