"""No tests here, and no helpers of its own: the A Victory Denied helpers
are in tests/avd_fixtures.py.  This name is kept only for
tests/test_avd_decision_positions.py (maintained elsewhere), which still
imports from it; remove this file once that module imports from
avd_fixtures."""
from __future__ import annotations

from avd_fixtures import clear_map, frame, practice_rules, put

__all__ = ["clear_map", "frame", "practice_rules", "put"]
