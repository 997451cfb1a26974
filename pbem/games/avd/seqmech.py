"""The few mechanics questions the sequence of play asks, answered through
the mechanics modules (``activation``, ``supply``, ``relocation``) in the
shape ``rules.py`` wants them (sorted lists, clusters per corps)."""
from __future__ import annotations

from pbem.games.avd import activation as _activation
from pbem.games.avd import relocation as _relocation
from pbem.games.avd import supply as _supply
from pbem.games.avd.board import Board
from pbem.games.avd.model import GERMAN

PANZER_RANGE = 3   # 7.4.2: chaining reaches 3 hexes


def hq_activation(board: Board, hq: str) -> tuple[list[str], list[str]]:
    """7.2.2 / 7.3: the HQs and combat units a drawn HQ activates."""
    hqs, units = _activation.hq_activation(board, hq)
    return sorted(hqs), sorted(units)


def panzer_clusters(board: Board, formation: str) -> dict[str, list[list[str]]]:
    """7.4.2: for each Panzer Corps of the Group on the map, the groups of
    its motorized units that chain together; one group per corps may be
    activated, so the German chooses only where a corps has several.
    Where the units stand decides it: kept with the position (speed only:
    the chit, the seed decision and its order each ask)."""
    key = ("panzer clusters", formation)
    found = board.cache.get(key)
    if found is None:
        found = board.cache[key] = _panzer_clusters(board, formation)
    return {corps: [list(group) for group in clusters] for corps, clusters in found.items()}


def _panzer_clusters(board: Board, formation: str) -> dict[str, list[list[str]]]:
    out: dict[str, list[list[str]]] = {}
    for corps in _activation.panzer_corps(board, formation):
        left = sorted(_activation.corps_members(board, corps))
        clusters = []
        while left:
            group = sorted(_activation.panzer_chain(board, corps, left[0]))
            clusters.append(group)
            left = [u for u in left if u not in group]
        out[corps] = clusters
    return dict(sorted(out.items()))


def formation_units(board: Board, formation: str) -> list[str]:
    """Every combat unit of a German formation on the map (the Turn 1
    special Combat Segment, 4.1.2)."""
    specs = board.scn.units     # (each unit's kind read as is_combat reads it: speed only)
    return sorted([u for u in board.units_of(GERMAN)
                   if (s := specs[u]).kind == "combat" and s.formation == formation])


def traces_supply(board: Board, h: str, side: str) -> bool:
    """10.2.2: whether a supply line of ``side`` can be traced from ``h``
    (one search from the sources, cached on the board)."""
    return _supply.traces_supply(board, side, h)


def isolated(board: Board, side: str) -> set[str]:
    """10.2 / 10.2.4: the combat units of ``side`` that trace no supply line."""
    return set(_supply.isolated_units(board, side))


def relocation_options(board: Board, hq: str, origin: str) -> list[str]:
    """12.6: where an HQ may be re-placed (rule-notes default 18)."""
    return _relocation.relocation_options(board, hq, origin=origin)


def hqs_to_remove(board: Board, side: str) -> list[str]:
    """12.5: HQs with no friendly combat unit in Command Range."""
    return _relocation.hq_removal(board, side)
