"""Every worked example (T01-T29) and derived check (D01-D14) of the
Victory Roads rule notes §6 is either tested in tests/test_vr_examples.py
(a test named ``test_<ID>_<rule>_...``) or listed here as PENDING with the
reason.  Removing a test without moving its case here fails."""
from __future__ import annotations

import re
from pathlib import Path

CASES = [f"T{i:02d}" for i in range(1, 30)] + [f"D{i:02d}" for i in range(1, 15)]

# Cases the foundation cannot check yet: they need the combat procedure, the
# Support phase or the Approval track of the rules engine (its next stage).
PENDING = {
    "T06": "4.7 Withdrawal against the Führer's will: needs the Approval track and the retreat moves of the engine",
    "T07": "6.3 Abandon equipment: needs Strategic Movement, Supports and the Approval track in the engine",
    "T14": "5.4.4 combining Supports in one combat: needs the Support play decision",
    "T15": "1.5.2 expending an Air Support for an Armor Replacement: needs the R&R phase",
    "T20": "10.3 reinforcing infantry corps: needs the Support phase with TO ranges",
    "T27": "15-16 Approval, Dismissal and End of Reich (Memel): needs the Approval track procedure",
    "T29": "the Bagration goal (design notes): a victory check of the scenario card, not transcribed",
    "D10": "15.2.2 Approval +1 for an armored attack: needs the combat procedure",
    "D11": "7.12.1 Romanian-only stack loss reduction: needs loss allocation in the engine",
    "D12": "7.12.2 Romanian DR2 before terrain: needs the defender's loss and retreat procedure",
    "D14": "6.1.11 / 6.2.4 Reinforced corps flip: needs movement with TO ranges",
}


def test_every_case_is_tested_or_pending():
    text = (Path(__file__).parent / "test_vr_examples.py").read_text(encoding="utf-8")
    tested = set(re.findall(r"^def test_([TD]\d\d)_", text, re.M))
    assert tested.isdisjoint(PENDING), f"tested and still pending: {sorted(tested & set(PENDING))}"
    missing = [c for c in CASES if c not in tested and c not in PENDING]
    assert not missing, f"cases neither tested nor pending: {missing}"
    assert tested | set(PENDING) <= set(CASES)
