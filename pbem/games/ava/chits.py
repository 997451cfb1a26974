"""Command chits of the *Fierce Fight!* family: what a side may select each
turn, how many, what must go in, what is held in hand, what is forced at the
end of the cup (AVA 6, 7, 15.2, 17.2, 18.x; FFS 6, 7, 15.2, 16.2).

Pure functions; the sequence of play (``seq_command.py``) keeps the cup itself with
:mod:`pbem.board.chitcup` and calls these to check and to resolve.

State keys read here (beside ``state["units"]``):

``state["extra_chits"]``
    ``{chit id: turn}``: the Soviet Army chits made available by the
    player's choice (AVA 18.x "1 Soviet Army chit of the Soviet player's
    choice" from Turn 4; FFS 15.2(5) one a turn on Turns 4-7), with the turn
    each was chosen.  A chit flagged ``choice`` in the scenario is available
    only once chosen.
``state["zhukov"]``
    The turn Zhukov's Command was declared (AVA 18.1), absent before.

Chit kinds (``ChitSpec.kind``): ``hq``, ``interrupt`` (Manstein, Guderian),
``reinforcement``, ``supply`` (common), ``reserve`` / ``okh`` (optional
17.2 / 16.2), ``army19`` (the 19th Army's chit: the group's entry while it
waits on the track, an HQ chit afterwards).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.game import IllegalOrder
from pbem.games.ava import movement, reinforce
from pbem.games.ava.board import Board
from pbem.games.ava.model import AXIS, SIDE_NAME, SOVIET, ChitSpec, Scenario
from pbem.games.ava.profile import Profile

State = dict[str, Any]

INTERRUPT = "interrupt"
RESERVE_KINDS = ("reserve", "okh")


@dataclass(frozen=True)
class Selection:
    """A checked selection: ``cup`` goes in face down (the side's secret),
    ``hand`` is held (interrupts; the Soviet Reinforcements under Zhukov)."""

    side: str
    cup: tuple[str, ...]
    hand: tuple[str, ...]


# ------------------------------------------------------------ availability
def first_turn(scn: Scenario, c: ChitSpec) -> int:
    """The first turn a chit may be selected: its schedule, and for the
    Reinforcements chit never before the reinforcements begin (AVA 12.0)."""
    if c.kind == "reinforcement":
        return max(c.turn, scn.params.reinforcements_from_turn)
    return c.turn


def extra_chosen(state: State) -> dict[str, int]:
    found: dict[str, int] = state.get("extra_chits") or {}
    return found


def available(scn: Scenario, profile: Profile, state: State, side: str, turn: int, *,
              reserve_okh: bool = False) -> list[str]:
    """The chits ``side`` may select on ``turn`` (the Supply Check, common to
    both, is not a selection).  A chit whose HQ is off the map is still
    selectable: drawn, it does nothing (AVA 13.0, FFS 13.2)."""
    chosen = extra_chosen(state)
    out = []
    for cid, c in sorted(scn.chits.items()):
        if c.side != side or (c.kind in RESERVE_KINDS and not reserve_okh):
            continue
        if c.choice:
            if chosen.get(cid, turn + 1) <= turn:
                out.append(cid)
        elif first_turn(scn, c) <= turn:
            out.append(cid)
    return out


def common(scn: Scenario) -> list[str]:
    """Chits that go in the cup every turn for both sides (AVA 6.2, FFS 6.2.4)."""
    return sorted(cid for cid, c in scn.chits.items() if c.kind == "supply")


def mandatory(scn: Scenario, profile: Profile, side: str, turn: int) -> list[str]:
    """The side's chits that must be selected once available (AVA 6.2)."""
    if not profile.reinforcement_chit_mandatory:
        return []
    return sorted(cid for cid, c in scn.chits.items()
                  if c.side == side and c.kind == "reinforcement" and first_turn(scn, c) <= turn)


def counts_against_quota(scn: Scenario, profile: Profile, cid: str) -> bool:
    """AVA A26: the Reinforcements chit is outside the count; FFS (notes 8
    #13) counts it.  Reserve/OKH replace an HQ chit, so they count."""
    kind = scn.chits[cid].kind
    if kind == "reinforcement":
        return profile.reinforcement_chit_counts
    return kind != "supply"


def quota(scn: Scenario, profile: Profile, state: State, side: str, turn: int, *,
          reserve_okh: bool = False) -> int:
    """How many counted chits ``side`` may select on ``turn``: the Soviet the
    track's SU number; the Axis every available chit in AVA (6.2 note; OKH
    in place of an HQ chit adds no slot, 17.2), the track's Axis Com in FFS.
    Interrupts held in hand count (AVA 6.3, FFS 6.3.1)."""
    track = scn.track
    if side == SOVIET:
        return _per_turn(track.soviet_chits, turn, "soviet_chits")
    if profile.axis_may_select_all:
        avail = available(scn, profile, state, side, turn, reserve_okh=reserve_okh)
        return sum(1 for c in avail
                   if counts_against_quota(scn, profile, c) and scn.chits[c].kind not in RESERVE_KINDS)
    return _per_turn(track.axis_chits, turn, "axis_chits")


def _per_turn(values: Sequence[int], turn: int, name: str) -> int:
    if not 1 <= turn <= len(values):
        raise ValueError(f"turn track {name} has no Turn {turn}")
    return int(values[turn - 1])


# ------------------------------------------------------------ selection
def select(scn: Scenario, profile: Profile, state: State, side: str, turn: int, chits: Sequence[str], *,
           hold: Sequence[str] = (), reserve_okh: bool = False) -> Selection:
    """Check a side's selection and sort it into cup and hand.  ``chits``:
    the chits chosen (the mandatory ones may be named or left out: they go
    in anyway); interrupts are held in hand, never cupped.  ``hold``: the
    Soviet Reinforcements chit kept in hand under Zhukov's Command (AVA
    18.1).  Raises IllegalOrder with one line."""
    who = SIDE_NAME[side]
    avail = available(scn, profile, state, side, turn, reserve_okh=reserve_okh)
    seen: set[str] = set()
    for cid in chits:
        if cid in seen:
            raise IllegalOrder(f"chit {cid} chosen twice")
        seen.add(cid)
        if cid not in avail:
            raise IllegalOrder(f"chit {cid} is not available to the {who} player on Turn {turn}")
    must = mandatory(scn, profile, side, turn)
    chosen = list(chits) + [c for c in must if c not in seen]
    _check_count(scn, profile, state, side, turn, chosen, avail, reserve_okh)
    _check_hold(scn, state, side, turn, hold, chosen)
    hand = tuple(c for c in chosen if scn.chits[c].kind == INTERRUPT or c in hold)
    cup = tuple(c for c in chosen if c not in hand)
    return Selection(side, cup, hand)


def check_selection(scn: Scenario, profile: Profile, state: State, side: str, turn: int, chits: Sequence[str], *,
                    hold: Sequence[str] = (), reserve_okh: bool = False) -> None:
    select(scn, profile, state, side, turn, chits, hold=hold, reserve_okh=reserve_okh)


def _check_count(scn: Scenario, profile: Profile, state: State, side: str, turn: int, chosen: list[str],
                 avail: list[str], reserve_okh: bool) -> None:
    """AVA A42: up to the quota; FFS 6.2: exactly it, or every counted chit
    when fewer are available."""
    n = quota(scn, profile, state, side, turn, reserve_okh=reserve_okh)
    counted = [c for c in chosen if counts_against_quota(scn, profile, c)]
    who = SIDE_NAME[side]
    if len(counted) > n:
        raise IllegalOrder(f"the {who} player may select {n} chit(s) on Turn {turn}, not {len(counted)}")
    if profile.chit_quota_exact:
        want = min(n, sum(1 for c in avail if counts_against_quota(scn, profile, c)))
        if len(counted) != want:
            raise IllegalOrder(f"the {who} player must select exactly {want} chit(s) on Turn {turn}, "
                               f"not {len(counted)}")


def _check_hold(scn: Scenario, state: State, side: str, turn: int, hold: Sequence[str], chosen: list[str]) -> None:
    for cid in hold:
        c = scn.chits.get(cid)
        if c is None or c.side != side or c.kind != "reinforcement" or cid not in chosen:
            raise IllegalOrder(f"only a selected Soviet Reinforcements chit may be held in hand, not {cid}")
        if not zhukov_active(state, turn):
            raise IllegalOrder("the Soviet Reinforcements chit is held only in the turns after "
                               "Zhukov's Command is declared (18.1)")


# ------------------------------------------------- extra Soviet Army chit
def extra_due(scn: Scenario, state: State, turn: int) -> int:
    """Army chits the Soviet still chooses this turn: one per entry of the
    turn in ``extra_army_chit_turns`` (AVA from Turn 4 every turn; FFS Turns
    4-7; a campaign giving one per map lists the turn once per map)."""
    due = scn.params.extra_army_chit_turns.count(turn)
    done = sum(1 for t in extra_chosen(state).values() if t == turn)
    return max(0, min(due - done, len(extra_candidates(scn, state))))


def extra_candidates(scn: Scenario, state: State) -> list[str]:
    """Soviet Army chits not yet made available (flagged ``choice``).  Their
    HQ need not be on the map: drawn without it, the chit is spent (13.0)."""
    chosen = extra_chosen(state)
    return sorted(cid for cid, c in scn.chits.items() if c.side == SOVIET and c.choice and cid not in chosen)


def check_extra(scn: Scenario, state: State, turn: int, picks: Sequence[str]) -> None:
    """The Soviet's choice of this turn's extra Army chit(s): exactly the
    number due, each a candidate, no repeats."""
    due = extra_due(scn, state, turn)
    if len(picks) != due:
        raise IllegalOrder(f"choose {due} extra Soviet Army chit(s) on Turn {turn}, not {len(picks)}")
    cands = extra_candidates(scn, state)
    if len(set(picks)) != len(picks):
        raise IllegalOrder("an extra Army chit was chosen twice")
    for cid in picks:
        if cid not in cands:
            raise IllegalOrder(f"{cid} is not a Soviet Army chit still to choose (choices: {', '.join(cands)})")


def add_extra(scn: Scenario, state: State, turn: int, picks: Sequence[str]) -> None:
    check_extra(scn, state, turn, picks)
    state.setdefault("extra_chits", {}).update({cid: turn for cid in picks})


# ------------------------------------------------------------ resolution
def effect(b: Board, cid: str) -> tuple[str, str]:
    """What a drawn (or played) chit does: ``("supply", "")``,
    ``("reinforcement", side)``, ``("reserve", kind)``, ``("army19", hq)``
    while the 19th Army waits off the map, ``("activate", hq)``, or
    ``("none", hq)`` for an HQ not on the map (AVA 13.0, FFS 13.2: the chit
    is spent)."""
    c = b.scn.chits[cid]
    if c.kind == "supply":
        return "supply", ""
    if c.kind == "reinforcement":
        return "reinforcement", c.side
    if c.kind in RESERVE_KINDS:
        return "reserve", c.kind
    if c.kind == "army19" and reinforce.army19_group(b):
        return "army19", c.hq
    hq = b.state["units"].get(c.hq)
    return ("activate", c.hq) if hq is not None and hq.get("hex") else ("none", c.hq)


def interrupt_hq(scn: Scenario, cid: str) -> str:
    """Manstein -> 4PzG, Guderian -> 2PzG (AVA 7.3, FFS 7.3.2): the chit's HQ."""
    c = scn.chits[cid]
    if c.kind != INTERRUPT:
        raise ValueError(f"{cid} is not an interrupt chit")
    return c.hq


def interrupters(scn: Scenario, state: State, hands: Mapping[str, Sequence[str]], turn: int) -> list[tuple[str, tuple[str, ...]]]:
    """Who may answer a chit just drawn from the cup, in order (A29): the
    Axis with his held interrupts first (any chit, his own and the Supply
    Check included, A28), then the Soviet with the Reinforcements held
    under Zhukov's Command.  A chit played from the hand is not drawn, so
    it opens no window (Manstein is never cancelled by Zhukov)."""
    out: list[tuple[str, tuple[str, ...]]] = []
    axis = tuple(c for c in hands.get(AXIS, ()) if scn.chits[c].kind == INTERRUPT)
    if axis:
        out.append((AXIS, axis))
    soviet = tuple(c for c in hands.get(SOVIET, ()) if scn.chits[c].kind == "reinforcement")
    if soviet and zhukov_active(state, turn):
        out.append((SOVIET, soviet))
    return out


def check_interrupt(scn: Scenario, hand: Sequence[str], cid: str) -> None:
    if cid not in hand:
        raise IllegalOrder(f"{cid} is not held in hand")


def end_of_cup(profile: Profile, scn: Scenario, hands: Mapping[str, Sequence[str]]) -> tuple[list[str], list[str]]:
    """The held chits when the cup is empty: (forced, optional).  AVA 7.3:
    an unplayed interrupt is played before the End Phase; FFS 7.3.3: it may
    be.  A Soviet Reinforcements held under Zhukov is always played, after
    the Axis ones (A29: it is a mandatory chit)."""
    axis = [c for c in hands.get(AXIS, ()) if scn.chits[c].kind == INTERRUPT]
    soviet = [c for c in hands.get(SOVIET, ()) if scn.chits[c].kind == "reinforcement"]
    if profile.interrupt_forced_at_end:
        return axis + soviet, []
    return soviet, axis


def check_end_order(profile: Profile, scn: Scenario, held: Sequence[str], order: Sequence[str]) -> list[str]:
    """The Axis's order of play for his held interrupts at the end of the cup
    (A28: he orders the forced ones).  AVA: every held one, once each; FFS:
    any of them, once each.  Returns the order."""
    held_i = [c for c in held if scn.chits[c].kind == INTERRUPT]
    if len(set(order)) != len(order):
        raise IllegalOrder("an interrupt chit named twice")
    for cid in order:
        if cid not in held_i:
            raise IllegalOrder(f"{cid} is not an interrupt chit held in hand")
    if profile.interrupt_forced_at_end and sorted(order) != sorted(held_i):
        missing = sorted(set(held_i) - set(order))
        raise IllegalOrder(f"every held interrupt is played before the End Phase (7.3): {', '.join(missing)} missing")
    return list(order)


# ------------------------------------------------------------ Reserve / OKH
def reserve_units(scn: Scenario, roll: int) -> int:
    """Units the Reserve/OKH chit activates for a d6 roll (AVA 17.2 / 18.1,
    FFS 16.2: the scenario's table)."""
    table = scn.params.reserve_table
    if len(table) != 6 or not 1 <= roll <= 6:
        raise ValueError(f"reserve table {table} has no face {roll}")
    return int(table[roll - 1])


@dataclass(frozen=True)
class ReserveLimits:
    """What a unit activated by Reserve/OKH may do: ``strategic`` movement
    allowed; ``mp_half`` its allowance halved (rounded down, FFS notes 8
    #59); ``attack`` "full", "half" or "none"; ``ezoc``: may enter and leave
    enemy ZOC.  The movement limits are :mod:`movement`'s (``reserve_out_*``),
    which the move itself applies: one reading of 17.2 / 16.2."""

    strategic: bool = True
    mp_half: bool = False
    attack: str = "full"
    ezoc: bool = True


def reserve_limits(scn: Scenario, profile: Profile, kind: str, in_range: bool) -> ReserveLimits:
    """AVA 17.2: a Soviet Reserve unit outside every HQ's command range moves
    normally only and attacks at half strength; FFS 16.2: outside the range
    of another HQ, half MP (normal or strategic movement, notes #59) and no
    attack.  OKH: no limit.  AVA 18.1
    (``reserve_no_ezoc``): Reserve units never enter or leave enemy ZOC and
    never attack.  ``in_range`` is :func:`activation.in_command_range`'s answer."""
    if kind != "reserve":
        return ReserveLimits()
    strategic, mp_half, attack = True, False, "full"
    if not in_range:
        strategic = movement.reserve_out_may_go_strategic(profile)
        mp_half = movement.reserve_out_halves_mp(profile)
        attack = "half" if profile.reserve_outside_range == "normal_half_attack" else "none"
    if scn.params.reserve_no_ezoc:
        return ReserveLimits(strategic, mp_half, "none", False)
    return ReserveLimits(strategic, mp_half, attack, True)


def check_reserve_pick(b: Board, kind: str, side: str, uids: Sequence[str], count: int) -> None:
    """The units a Reserve/OKH roll activates: at most ``count`` of the
    side's units on the map, each once; OKH activates German units only
    (A30, the nationality rule 8.3 by analogy)."""
    if len(set(uids)) != len(uids):
        raise IllegalOrder("a unit was picked twice")
    if len(uids) > count:
        raise IllegalOrder(f"the {kind.upper() if kind == 'okh' else 'Reserve'} roll activates {count} unit(s), "
                           f"not {len(uids)}")
    for uid in uids:
        spec = b.scn.units.get(uid)
        if spec is None or spec.side != side or not b.unit(uid).get("hex"):
            raise IllegalOrder(f"{uid} is not a {SIDE_NAME[side]} unit on the map")
        if kind == "okh" and spec.nationality != "ger":
            raise IllegalOrder(f"OKH activates German units only, not {uid}")


# ------------------------------------------------------------ Zhukov (AVA 18.1)
def leningrad(scn: Scenario) -> frozenset[str]:
    """The Leningrad hexes: the ``leningrad`` VP tag, else hexes so named."""
    tagged = scn.map.vp_hexes.get("leningrad")
    if tagged:
        return tagged
    return frozenset(h for h, n in scn.map.names.items() if n.lower() == "leningrad")


def next_to_leningrad(scn: Scenario, h: str) -> bool:
    """A hex adjacent to Leningrad and not in it: an Axis unit entering one
    opens Zhukov's Command (18.1)."""
    city = leningrad(scn)
    return h not in city and any(n in city for n in scn.map.neighbors(h))


def zhukov_trigger(scn: Scenario, state: State, entered: str) -> bool:
    """Whether an Axis unit entering ``entered`` lets the Soviet declare
    Zhukov's Command now (a hex next to Leningrad, not yet declared)."""
    return bool(scn.params.zhukov) and "zhukov" not in state and next_to_leningrad(scn, entered)


def zhukov_declarable(b: Board) -> bool:
    """Some Axis unit stands next to Leningrad and Zhukov is not declared."""
    return any(zhukov_trigger(b.scn, b.state, b.unit(uid)["hex"]) for uid in b.on_map(AXIS))


def zhukov_active(state: State, turn: int) -> bool:
    """18.1: the Reinforcements may be held in every turn after the declaration."""
    t = state.get("zhukov")
    return isinstance(t, int) and t < turn
