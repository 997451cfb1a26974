"""`pbem verify` counts what `pbem dice` lists: every value of the shared
streams and the secret draws this program knows (its own seat's).  Before
stop 19 verify counted the shared values only, so a player comparing the two
commands on one file saw two different numbers."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import m41help as h
from clihelp import cli_env
from pbem import cycle
from pbem.protocol import identity


def _count(out: str, pattern: str) -> int:
    found = re.search(pattern, out)
    assert found, out
    return int(found.group(1))


def test_verify_and_dice_count_the_same_rolls_and_draws(tmp_path: Path, seeded_urandom: None) -> None:
    gf, ids = h.start("sealed")
    for _ in range(8):          # the set-up draws its blocks from the pools in secret (5.3)
        gf, _ = h.one_exchange(gf, h.PRACTICE, ids)
    path = tmp_path / "m41.toml"
    path.write_text(gf.to_toml(), encoding="utf-8")
    for seat, key in ids.items():
        home = tmp_path / seat
        home.mkdir()
        identity.save_private(key, home / "key.toml", None)
        env = cli_env(home, tmp_path)
        run = [sys.executable, "-m", "pbem.cli"]
        verify = subprocess.run(run + ["verify", str(path)], env=env, capture_output=True, text=True, timeout=120)
        dice = subprocess.run(run + ["dice", str(path)], env=env, capture_output=True, text=True, timeout=120)
        assert verify.returncode == 0 and dice.returncode == 0, verify.stderr + dice.stderr
        counted = _count(verify.stdout, r"valid: \d+ exchanges, (\d+) rolls and draws recomputed")
        listed = _count(dice.stdout, r"(\d+) rolls and draws, each recomputed")
        m = cycle.replay(gf, h.PRACTICE, key)
        shared = sum(len(r.rolls) for r in m.records)
        own = sum(len(r.secret_rolls.get(seat, [])) for r in m.records)
        assert own > 0, "the set-up draws in secret"
        assert counted == listed == shared + own
