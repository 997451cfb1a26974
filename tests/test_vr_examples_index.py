"""Every worked example (T01-T29) and derived check (D01-D14) of the
Victory Roads rule notes §6 is either tested in one of the tests/test_vr_*.py
files (a test named ``test_<ID>_<rule>_...``) or listed here as PENDING
with the reason.  Removing a test without moving its case here fails."""
from __future__ import annotations

import re
from pathlib import Path

CASES = [f"T{i:02d}" for i in range(1, 30)] + [f"D{i:02d}" for i in range(1, 15)]

# Cases of the Advanced rules (§9-19), which the engine does not play yet.
PENDING: dict[str, str] = {}


def test_every_case_is_tested_or_pending():
    here = Path(__file__).parent
    text = "".join(f.read_text(encoding="utf-8") for f in sorted(here.glob("test_vr_*.py")))
    tested = set(re.findall(r"^def test_([TD]\d\d)_", text, re.M))
    assert tested.isdisjoint(PENDING), f"tested and still pending: {sorted(tested & set(PENDING))}"
    missing = [c for c in CASES if c not in tested and c not in PENDING]
    assert not missing, f"cases neither tested nor pending: {missing}"
    assert tested | set(PENDING) <= set(CASES)
