"""The multiplayer variant without a Controller (AVA 20): the Master cup,
each player's HQ cup, the team's secret split of its HQ chits, Soviet
dummy chits, Master chit draws and the interrupt window.

Pure functions over the scenario and small values; the integrator keeps
the cups.  Tokens of the Master cup: ``master:axis`` / ``master:soviet``
(one per Master chit; they are alike) and the scenario's chit ids for the
Reinforcements, Supply Check, OKH and Reserve chits.  An HQ cup holds chit
ids, and ``dummy:N`` where no unused chit is left to serve as a dummy.

Secrecy (how the core's hidden-item service carries it): a seat's HQ cup
is that seat's hidden items, one public handle per chit (the handle's
count is public, 20.2 makes the split secret, not its size); the seat's
program commits them with every exchange, mixes them under their handles
with ``rng.secret(seat)`` before the first draw of the turn, and a drawn
handle is turned up by the seat's opening, checked by
:func:`opening_refusal` in every program.  The whole split of a team is
checked by :func:`check_split` where it is known (the audit).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game import IllegalOrder, ScenarioError
from pbem.games.ava import chits as chitmod
from pbem.games.ava.model import AXIS, SIDE_NAME, SIDES, SOVIET, Scenario
from pbem.games.ava.profile import Profile

State = dict[str, Any]

MASTER = "master:"
DUMMY = "dummy:"
MASTER_CUP = "master"
HQ_CUP = "hq:"

# FACT TABLE (AVA 20.2): Master chits per side by team size, (Turn 1, later
# turns).  A scenario's [multiplayer.master_chits] (two = [..], three = [..])
# takes its place where given.
MASTER_CHITS: dict[int, tuple[int, int]] = {2: (7, 8), 3: (5, 6)}
TEAM_WORDS = {"two": 2, "three": 3}

# 20.2: the chits that go in the Master cup beside the Master chits.
COMMON_KINDS = ("supply", "okh", "reserve")
HQ_KINDS = ("hq", "army19")
WINDOW_KINDS = ("reinforcement", "supply", "okh", "reserve", *HQ_KINDS)


# ------------------------------------------------------------ Master cup
def master_table(data: Mapping[str, Any] | None = None) -> dict[int, tuple[int, int]]:
    """The 20.2 Master chit counts: the scenario's where it gives them."""
    given = ((data or {}).get("multiplayer") or {}).get("master_chits") or {}
    out = dict(MASTER_CHITS)
    for word, size in TEAM_WORDS.items():
        if word in given:
            first, later = given[word]
            out[size] = (int(first), int(later))
    return out


def master_chits(team: int, turn: int, table: Mapping[int, tuple[int, int]] | None = None) -> int:
    """Master chits one side puts in the Master cup: 8 for a team of two, 6
    for three, one fewer on Turn 1 (20.2).  A38: other team sizes are not
    priced, so not played."""
    t = table or MASTER_CHITS
    if team not in t:
        raise ScenarioError(f"the variant (20.2) prices teams of {' or '.join(map(str, sorted(t)))} players, "
                            f"not {team}")
    first, later = t[team]
    return first if turn == 1 else later


def master_cup(scn: Scenario, turn: int, teams: Mapping[str, int],
               table: Mapping[int, tuple[int, int]] | None = None) -> list[str]:
    """What goes in the Master cup on ``turn`` (20.2): each side's Master
    chits for its team size; both Reinforcements chits once reinforcements
    begin (Turn 4); the Supply Check, OKH and Reserve every turn, whatever
    the optional rules (20.2 lists them always; Map IDs ignored: one of
    each)."""
    out: list[str] = []
    for side in SIDES:
        out += [MASTER + side] * master_chits(teams[side], turn, table)
    for side in SIDES:
        out += [c for c in _of_kind(scn, "reinforcement", side) if chitmod.first_turn(scn, scn.chits[c]) <= turn][:1]
    for kind in COMMON_KINDS:
        out += _of_kind(scn, kind)[:1]
    return out


def _of_kind(scn: Scenario, kind: str, side: str | None = None) -> list[str]:
    return sorted(cid for cid, c in scn.chits.items() if c.kind == kind and (side is None or c.side == side))


def drawn(token: str) -> tuple[str, str]:
    """A Master cup draw: ``("master", side)`` or ``("chit", chit id)``,
    the latter resolved normally (20.2 (3)-(5))."""
    if token.startswith(MASTER):
        side = token[len(MASTER):]
        if side not in SIDES:
            raise ValueError(f"{token}: no such Master chit")
        return "master", side
    return "chit", token


def master_draws(side_seats: Sequence[str], cups: Mapping[str, int]) -> list[tuple[str, str]]:
    """A side's Master chit: every player of the side (``side_seats``, in
    seat order) draws one chit from his own HQ cup, all before any acts
    (20.2 (1), (2)): (seat, cup) pairs.  A38: a player whose HQ cup is
    empty draws nothing."""
    return [(s, HQ_CUP + s) for s in side_seats if cups.get(s, 0) > 0]


# ------------------------------------------------------------ HQ chits and the split
def hq_chits(scn: Scenario, profile: Profile, state: State, side: str, turn: int) -> list[str]:
    """The side's HQ chits to split among its players' HQ cups this turn:
    every available chit but the Master cup's and the held interrupts
    (20.1: every chit not a Master Control chit is an HQ chit; A38: no SU
    limit, the Master chits cap activations)."""
    return [c for c in chitmod.available(scn, profile, state, side, turn) if scn.chits[c].kind in HQ_KINDS]


def interrupts(scn: Scenario, profile: Profile, state: State, turn: int) -> list[str]:
    """20.2: Manstein and Guderian stay with the Axis team, in no cup."""
    return [c for c in chitmod.available(scn, profile, state, AXIS, turn) if scn.chits[c].kind == chitmod.INTERRUPT]


def pair_of(scn: Scenario, cid: str) -> list[str]:
    """The chits sharing ``cid``'s HQ in the HQ cups (1PzG's two, 3PzG's
    two); Manstein/Guderian are not cupped, so 2PzG and 4PzG have none."""
    c = scn.chits[cid]
    if not c.hq or c.kind not in HQ_KINDS:
        return []
    return sorted(o for o, s in scn.chits.items() if o != cid and s.hq == c.hq and s.kind in HQ_KINDS)


def check_split(scn: Scenario, side: str, seats: Sequence[str], available: Sequence[str],
                split: Mapping[str, Sequence[str]]) -> None:
    """A team's division of its HQ chits among its players' HQ cups (20.2):
    every available HQ chit in exactly one cup of a player of the team, no
    other chit, a Panzergruppe's two chits with one player.  Raises
    IllegalOrder with one line."""
    who = SIDE_NAME[side]
    owner: dict[str, str] = {}
    for seat, cup in split.items():
        if seat not in seats:
            raise IllegalOrder(f"{seat} is not a player of the {who} team")
        for cid in cup:
            _check_cupped(scn, side, available, cid)
            if cid in owner:
                raise IllegalOrder(f"{cid} is put in two HQ cups ({owner[cid]}, {seat})")
            owner[cid] = seat
    left = [c for c in available if scn.chits[c].kind in HQ_KINDS and c not in owner]
    if left:
        raise IllegalOrder(f"{', '.join(left)} must go in an HQ cup (20.2: the team divides all its HQ chits)")
    for cid, seat in sorted(owner.items()):
        for other in pair_of(scn, cid):
            if other in owner and owner[other] != seat:
                raise IllegalOrder(f"the two {scn.chits[cid].hq} chits go to the same player (20.2): "
                                   f"{cid} to {seat}, {other} to {owner[other]}")


def _check_cupped(scn: Scenario, side: str, available: Sequence[str], cid: str) -> None:
    c = scn.chits.get(cid)
    if c is None:
        raise IllegalOrder(f"no chit {cid}")
    if c.kind == chitmod.INTERRUPT:
        raise IllegalOrder(f"{cid} stays with the Axis team, outside any HQ cup (20.2)")
    if c.kind not in HQ_KINDS:
        raise IllegalOrder(f"{cid} goes in the Master cup, not an HQ cup (20.2)")
    if c.side != side:
        raise IllegalOrder(f"{cid} is not a {SIDE_NAME[side]} chit")
    if cid not in available:
        raise IllegalOrder(f"{cid} is not available this turn")


# ------------------------------------------------------------ dummy chits
def dummies_needed(seats: Sequence[str], split: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """20.2: each Soviet player with fewer HQ chits than a team-mate takes
    dummies to make up the difference (to the most any team-mate has)."""
    most = max((len(split.get(s, ())) for s in seats), default=0)
    return {s: most - len(split.get(s, ())) for s in seats if most > len(split.get(s, ()))}


def _hq_on_map(scn: Scenario, state: State, cid: str) -> bool:
    hq = scn.chits[cid].hq
    return bool(((state.get("units") or {}).get(hq) or {}).get("hex"))


def dummy_candidates(scn: Scenario, state: State, used: Sequence[str]) -> list[str]:
    """Unused Soviet HQ chits of HQs not on the map: any serves as a dummy
    (20.2)."""
    taken = set(used)
    return sorted(c for c, s in scn.chits.items()
                  if s.side == SOVIET and s.kind in HQ_KINDS and c not in taken and not _hq_on_map(scn, state, c))


def deal_dummies(scn: Scenario, state: State, seats: Sequence[str],
                 split: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """Dummies for each Soviet player short of chits, in seat order: unused
    chits first; where none is left, a ``dummy:N`` token (pbem's ruling: a
    dummy has no effect, so only its count matters)."""
    used = [c for cup in split.values() for c in cup]
    pool = dummy_candidates(scn, state, used)
    out: dict[str, list[str]] = {}
    n = 0
    for seat, k in dummies_needed(seats, split).items():
        mine = []
        for _ in range(k):
            if pool:
                mine.append(pool.pop(0))
            else:
                n += 1
                mine.append(f"{DUMMY}{n}")
        out[seat] = mine
    return out


def check_dummies(scn: Scenario, state: State, seats: Sequence[str], split: Mapping[str, Sequence[str]],
                  dummies: Mapping[str, Sequence[str]]) -> None:
    """The dummies a Soviet team takes: as many as each player is short,
    each an unused chit of an HQ not on the map or a ``dummy:N`` token,
    none twice."""
    need = dummies_needed(seats, split)
    for seat in set(need) | set(dummies):
        got = len(dummies.get(seat, ()))
        if got != need.get(seat, 0):
            raise IllegalOrder(f"{seat} takes {need.get(seat, 0)} dummy chit(s) (20.2), not {got}")
    used = [c for cup in split.values() for c in cup]
    ok = set(dummy_candidates(scn, state, used))
    seen: set[str] = set()
    for seat, cup in dummies.items():
        for d in cup:
            if d in seen:
                raise IllegalOrder(f"dummy {d} is taken twice")
            seen.add(d)
            if not d.startswith(DUMMY) and d not in ok:
                raise IllegalOrder(f"{d} cannot serve as a dummy: only an unused chit of an HQ not on the map (20.2)")


def is_dummy(scn: Scenario, state: State, token: str) -> bool:
    """A dummy drawn has no effect (20.2): a ``dummy:N`` token or a chit whose
    HQ is not on the map."""
    if token.startswith(DUMMY):
        return True
    c = scn.chits.get(token)
    return c is not None and c.kind in HQ_KINDS and bool(c.hq) and not _hq_on_map(scn, state, token)


# ------------------------------------------------------------ interrupts
def opens_window(scn: Scenario, token: str, *, dummy: bool = False) -> bool:
    """20.2: a drawn Reinforcements, Supply Check, OKH, Reserve or HQ chit
    may be interrupted with Manstein or Guderian; a Master chit is not a
    command and opens none; nor does a dummy (pbem ruling: it commands
    nothing, so there is nothing to cancel)."""
    if dummy or token.startswith((MASTER, DUMMY)):
        return False
    c = scn.chits.get(token)
    return c is not None and c.kind in WINDOW_KINDS


def returns_to(scn: Scenario, token: str, seat: str | None = None) -> str:
    """20.2: a cancelled chit goes back to its own cup: the Master cup's
    chits to the Master cup (``master``), an HQ chit to the HQ cup of the
    seat it was drawn from (``hq:SEAT``)."""
    c = scn.chits.get(token)
    if c is not None and c.kind in HQ_KINDS:
        if seat is None:
            raise ValueError(f"{token} came from an HQ cup: say whose")
        return HQ_CUP + seat
    return MASTER_CUP


# ------------------------------------------------------------ live checks of an opening
def opening_refusal(scn: Scenario, state: State, side: str, seat: str, cid: str, available: Sequence[str],
                    shown: Mapping[str, str], team: Sequence[str]) -> str | None:
    """What every program can check when a seat turns up a chit drawn from
    its HQ cup, before the split is known whole: an HQ chit of the seat's
    side available this turn (a Soviet dummy: any chit of an HQ off the map), not turned up this turn by a team-mate, its
    Panzergruppe partner not turned up from another player's cup.
    ``shown``: chit -> seat for the chits turned up this turn.  Why not, or
    None."""
    if cid.startswith(DUMMY):
        return None
    c = scn.chits.get(cid)
    if c is None or c.side != side or c.kind not in HQ_KINDS:
        return f"{cid} is not a {SIDE_NAME[side]} HQ chit"
    if cid not in available and not (side == SOVIET and not _hq_on_map(scn, state, cid)):
        return f"{cid} is not available this turn, nor an unused chit serving as a dummy"
    other = shown.get(cid)
    if other is not None and other != seat:
        return f"{cid} was already turned up from {other}'s HQ cup"
    for p in pair_of(scn, cid):
        if shown.get(p) not in (None, seat):
            return f"the two {c.hq} chits go to the same player (20.2): {p} came from {shown[p]}'s cup"
    if seat not in team:
        return f"{seat} is not a player of the {SIDE_NAME[side]} team"
    return None
