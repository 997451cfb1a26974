"""A situation report for Moscow '41: areas with their blocks, as one side
(or the public) may see them."""
from __future__ import annotations

from typing import Any

from . import mechanics as mx
from .model import SIDES, Scenario


def sitrep(sc: Scenario, state: dict[str, Any], side: str | None) -> Any:
    from rich.table import Table

    title = (f"Moscow '41 - turn {state['turn']} ({sc.sequence['months'][state['turn'] - 1]}), "
             f"{state['phase']}, weather {state['weather']}, initiative {state['initiative']}")
    table = Table(title=title)
    for col in ("area", "control", "german", "soviet", "DL"):
        table.add_column(col)
    hidden = (state.get("hidden") or {}).get(side) if side else None
    areas = sorted({v["area"] for v in state["tokens"].values()} | set(state["dl"]), key=mx.natural)
    for area in areas:
        cells = []
        for s in SIDES:
            parts = []
            for tok in mx.tokens_in(state, area, s):
                v = state["tokens"][tok]
                if v["revealed"]:
                    parts.append(f"{tok} {v['block']}:{v['strength']}")
                elif hidden is not None and s == side and tok in hidden["blocks"]:
                    e = hidden["blocks"][tok]
                    parts.append(f"{tok} [{e['block']}:{e['strength']}]")
                else:
                    parts.append(tok)
                if v.get("cube"):
                    parts[-1] += " (isolated)"
            cells.append(", ".join(parts))
        table.add_row(f"{area} {sc.area_name(area)}", state["control"].get(area, ""), *cells, state["dl"].get(area, ""))
    vps = {s: mx.vp(state, sc, s) for s in SIDES}
    table.caption = f"VP german {vps['german']} soviet {vps['soviet']}; pools {state['pool_count']}"
    return table
