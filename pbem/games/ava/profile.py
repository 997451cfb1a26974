"""Two rulebooks, one engine: the rule profiles of the *Fierce Fight!* family.

*Fierce Fight! Smolensk Blitzkrieg* (Game Journal 53, game id ``ffs``) is the
earlier Japanese edition of the system that *A Victory Awaits* (MMP, game id
``ava``) re-publishes; AVA's scenario 18.2 is the same battle.  The two
rulebooks agree on the skeleton (a shared chit cup, HQs that activate every
unit in command range, +2/+2 MP zones of control, an odds CRT with a 1.5:1
column, step losses, retreats and advances) and differ in some thirty
places, listed in the FFS rule notes (section 9.2).  Each difference is one
field of :class:`Profile`, so the mechanics read ``profile.x`` and never
the game id, and a difference left out cannot be inherited silently: every
field is set explicitly for both profiles below.

Numbers that vary by scenario rather than by rulebook (turn length, the
Strategic Reserve's size, fortress building, chit schedules, thresholds)
live in the scenario files, not here.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    """The rule switches where AVA and FFS part.  Field comments give the
    rule numbers of both books (AVA first)."""

    game: str
    # -- command (AVA 6.2 note / FFS 6.2)
    axis_may_select_all: bool          # AVA: the Axis may cup every available chit
    reinforcement_chit_mandatory: bool
    command_range: int | None          # AVA 8.2: 4 for every HQ; FFS: printed on each HQ (None)
    interrupt_forced_at_end: bool      # AVA 7.3: an unplayed interrupt is played before the End Phase
    chit_quota_exact: bool             # FFS 6.2 (notes 8 #13): exactly the Com number; AVA (A42): up to it
    reinforcement_chit_counts: bool    # FFS (notes 8 #13): REINF counts against Com; AVA (A26): it does not
    # -- movement and zones of control
    major_river_ezoc: str              # "either" (AVA 9.2) or "both" (FFS 9.2) of the two hexes in EZOC bars it
    bridge_lifts_major_river_ezoc: bool  # AVA: a bridge lifts every major-river restriction; FFS: not the EZOC ban
    soviet_start_line: bool            # AVA 2.1: Soviet units never move, retreat or trace LOC across the red line
    # -- supply lines
    loc_blocked_by_enemy_city: bool    # FFS 3.3: an enemy-controlled city/town hex blocks a LOC
    supply_check_order: str            # "soviet_first" (AVA 11.1) or "together" (FFS 11.1)
    axis_available_needs_no_ezoc: bool  # FFS 11.2.1: a unit sent to the Available Box must not be in EZOC
    # -- combat
    declare_all_attacks_first: bool    # AVA 10.2(1): every attack is declared before the first roll
    halving: str                       # "total" (AVA 1.2: fractions dropped at the end) or "per_hex" (FFS 1.3)
    lone_hq_attackable: bool           # AVA 10.0: only empty hexes are immune
    zero_defence_top_column: bool      # FFS 10.3.5: a defence of 0 is attacked on the last column
    fortress_defence: str              # "per_step" (AVA 14.2) or "ffs" (a 2-step fortress adds 1, a 1-step 0)
    fortress_conversion: str           # "mandatory" (AVA 14.2) or "optional" (FFS 14.2.5: the defender may)
    retreat_priority: str              # "ava" (10.6: elimination, step loss, overstack) or "ffs" (EZOC, stacking)
    retreat_major_river_later_hex: str  # "unbridged" (AVA 10.6(3)) or "any" (FFS 10.6.2(4): bridged or not)
    mech_advance: str                  # "first_hex" (AVA 10.7) or "both_clear" (FFS 10.7)
    axis_hq_eliminated_to: str         # "eliminated" (AVA 10.8) or "available" (FFS 13.3)
    # -- optional rules (AVA 17 / FFS 16)
    hq_transfer: str                   # "in_range" (AVA 17.3) or "any" (FFS 16.3: any HQ with LOC, not in EZOC)
    reserve_outside_range: str         # "normal_half_attack" (AVA 17.2) or "half_mp_no_attack" (FFS 16.2)
    # -- set-up and victory
    deployment_area_filled: bool       # AVA 4.0(2)(a): every hex of a Deployment Area holds a unit
    victory: str                       # "threshold" (AVA 16: Axis-only VP) or "ffs" (15.5: both sides score)
    # -- added by COMBAT: a defence of 0 starts on the last column; AVA (notes A12) then shifts
    # for terrain like any ratio above 10:1, FFS 10.3.5 ignores the shifts
    zero_defence_shifts: bool = False
    # -- added for movement (MOVE engineer; defaults are AVA's)
    rail_bridge_lifts_minor_river: bool = False  # AVA 9.2 (notes A14): a railroad-only bridge still pays +1;
    #                                              FFS 2.1.3/9.2.1: any bridge lifts the river costs
    stacking_checked_at: str = "move"  # "move" (AVA 3.1: at the end of each move) or "segment" (FFS 3.1.3, #64)
    # -- added by ENGINE: the 19th Army's draw brings a Combat Segment for the group (FFS notes #50) or is
    # an entry by movement only (AVA 15.3, notes A24: its HQ is off the map when the chit is drawn)
    army19_combat: bool = False
    # -- added by the review fixes: an attack below the first column after the shifts is "cancelled" when
    # resolved, with no roll (AVA 10.3(4)), or "refused" when declared: it is not possible (FFS 10.3.4)
    below_first_column: str = "cancelled"


AVA = Profile(
    game="ava",
    axis_may_select_all=True,
    reinforcement_chit_mandatory=True,
    command_range=4,
    interrupt_forced_at_end=True,
    chit_quota_exact=False,
    reinforcement_chit_counts=False,
    major_river_ezoc="either",
    bridge_lifts_major_river_ezoc=True,
    soviet_start_line=True,
    loc_blocked_by_enemy_city=False,
    supply_check_order="soviet_first",
    axis_available_needs_no_ezoc=False,
    declare_all_attacks_first=True,
    halving="total",
    lone_hq_attackable=True,
    zero_defence_top_column=True,
    fortress_defence="per_step",
    fortress_conversion="mandatory",
    retreat_priority="ava",
    retreat_major_river_later_hex="unbridged",
    mech_advance="first_hex",
    axis_hq_eliminated_to="eliminated",
    hq_transfer="in_range",
    reserve_outside_range="normal_half_attack",
    deployment_area_filled=True,
    victory="threshold",
    zero_defence_shifts=True,
    rail_bridge_lifts_minor_river=False,
    stacking_checked_at="move",
    army19_combat=False,
    below_first_column="cancelled",
)

FFS = Profile(
    game="ffs",
    axis_may_select_all=False,
    reinforcement_chit_mandatory=True,
    command_range=None,
    interrupt_forced_at_end=False,
    chit_quota_exact=True,
    reinforcement_chit_counts=True,
    major_river_ezoc="both",
    bridge_lifts_major_river_ezoc=False,
    soviet_start_line=False,
    loc_blocked_by_enemy_city=True,
    supply_check_order="together",
    axis_available_needs_no_ezoc=True,
    declare_all_attacks_first=False,
    halving="per_hex",
    lone_hq_attackable=True,
    zero_defence_top_column=True,
    fortress_defence="ffs",
    fortress_conversion="optional",
    retreat_priority="ffs",
    retreat_major_river_later_hex="any",
    mech_advance="both_clear",
    axis_hq_eliminated_to="available",
    hq_transfer="any",
    reserve_outside_range="half_mp_no_attack",
    deployment_area_filled=False,
    victory="ffs",
    zero_defence_shifts=False,
    rail_bridge_lifts_minor_river=True,
    stacking_checked_at="segment",
    army19_combat=True,
    below_first_column="refused",
)

PROFILES = {p.game: p for p in (AVA, FFS)}
