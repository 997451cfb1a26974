"""A file of an earlier format says what it is and what to do, instead of
failing obscurely (issue 7, item 4)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

OLD = Path(__file__).parent / "data" / "pbem1" / "avd-anna-pavel-005.toml"


def test_a_pbem1_file_names_its_format_and_the_version_to_finish_it_with(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env["PBEM_HOME"] = str(tmp_path)
    r = subprocess.run([sys.executable, "-m", "pbem.cli", "verify", str(OLD)], capture_output=True, text=True,
                       env=env, timeout=60)
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == [r.stderr.strip()]
    assert "a pbem/1 file, written by pbem 0.1; this pbem reads pbem/2" in r.stderr
    assert "pip install 'pbem==0.1.*'" in r.stderr
