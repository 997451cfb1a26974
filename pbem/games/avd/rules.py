"""A Victory Denied: the sequence of play (rule 4) as a state machine.

The state carries a *stack of frames* (``state["stack"]``).  The frame on
top says where the turn stands: a decision someone owes (``chits``,
``move``, ``combat``, a retreat inside a ``battle``...) or an automatic step
(``execute`` draws the next chit, ``endturn`` runs the End of Turn Phase).
After every order, :meth:`AvdRules._run` works the automatic steps until a
decision is due, so :meth:`pending` only reads the top frame.

Secret chits (7.1.2, 7.1.3) are the sides' hidden items, kept by the core's
hidden-information service: a selection carries its chits in its secret
part; each chit sits under a public handle (``g3.2``) in the cup, mixed by
the owner's secret stream before the first draw; a drawn handle is turned
up by the owner's program opening it, and every program reads the chit from
the checked opening (``hidden_items``, ``identity_of``, ``check_opening``).
The rules make no salt, commitment or randomness of their own.

Rule numbers in comments are the rulebook's; "default N" points at the
rule-notes' ambiguity list (rules/avd.md section 8), and every ruling is
restated in scenarios/avd/RULINGS.md.
"""
from __future__ import annotations

from pbem.game import BaseRules

from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from pbem.game import Decision, Event, IllegalOrder, Rng, State
from pbem.games.avd import activation, combat, movement, orders, policies, position, seqmech, victory
from pbem.games.avd.board import SIDE_NAME, Board, enemy_of
from pbem.games.avd.model import GERMAN, SIDES, SOVIET, Scenario

if TYPE_CHECKING:
    from pbem.game import View

SEALED = "sealed:"         # a cup token "sealed:<handle>": a chit still face down
PANZER_KINDS = ("2PzG", "3PzG", "guderian")
MANDATORY = ("airpower", "art", "supply", "reinf")
START_BOX_HEXES = ("3919", "2110")   # 3.4: Vitebsk and Bobruysk chits start in the German box
LAST_TURN_DISTRACTED = 8             # 15.2
DISTRACTED_REMOVALS = 4              # 15.2
MINSK_TURNS = (1, 2, 3)              # 14.0: voluntary releases
MINSK_FORCED_TURN = 4                # 14.0
STARS_FROM_TURN = 4                  # 11.3
ART_COLUMN = "3-1"                   # 13.2
ROCKET_COLUMN = "7-1"                # 13.2
BOMBER_COLUMN = "8-1"                # 13.3
# A decision whose choices are a selection of several items lists every
# selection while there are at most this many; beyond, it lists one worked
# example, a template and, in the hint, every item the selection draws on.
COMBO_LIST_LIMIT = 400
# Tests set this: every board served again for a state is checked against
# a fresh one (a unit moved or the turn changed with no _moved call).
CHECK_BOARDS = False
_NO_UNIT: dict[str, Any] = {}        # what a unit missing from a state reads as (never written)
ATTACKS_KEPT = 4096                  # attack legalities a rules object remembers (speed only)


def _new_frame(frame_kind: str, **kw: Any) -> dict[str, Any]:
    return {"k": frame_kind, **kw}


def _selection(verb: str, pool: list[str], n: int, heads: tuple[str, ...] = ("",),
               word: str = "UNIT") -> tuple[Callable[[], list[str]], str]:
    """The options of a choose-``n``-different-of-``pool`` decision (each
    optionally led by one of ``heads``), listed by the function given (speed
    only: Decision.lazy), with its hint.  Every selection is listed while
    there are at most COMBO_LIST_LIMIT of them; otherwise the compact form
    says the same: one legal example, the template, and the pool in the
    hint, so a player still sees every choice."""
    from itertools import combinations
    from math import comb

    n = min(n, len(pool))
    lead = [h + " " if h else "" for h in heads]
    if len(heads) * comb(len(pool), n) <= COMBO_LIST_LIMIT:
        return lambda: [f"{verb} {h}" + " ".join(c) for h in lead for c in combinations(pool, n)], ""
    example = f"{verb} {lead[0]}" + " ".join(pool[:n])
    template = f"{verb} " + ("FIRST " if heads != ("",) else "") + " ".join([word] * n)
    hint = (f"FIRST: one of {' '.join(heads)}; then " if heads != ("",) else "") + \
        f"{word}: {n} different of {' '.join(pool)}"
    return lambda: [example, template], hint


class AvdRules(BaseRules):
    """The rules of A Victory Denied bound to one scenario and its options."""

    def __init__(self, scn: Scenario, options: dict[str, Any] | None = None) -> None:
        self.scn = scn
        self.options = dict(options or {})
        self.last_turn = max(scn.turns) if scn.turns else 10
        # Speed only (no rule depends on them): supply lines of recent
        # positions, shared by every board this object builds, and while a
        # decision is being asked (the state does not change) one board per
        # state instead of one per question.
        self._shared: dict[Any, Any] = {}
        self._scope: dict[int, Board] | None = None
        # The state, decision and board of the last pending (see apply_decided).
        self._asked: tuple[State, Decision, Board] | None = None
        # The state the last outer pending or apply left and its board,
        # still standing: the next call on that state starts from it (see
        # pending).
        self._left: tuple[State, Board] | None = None
        # 7.1.2: a side holds in secret at most the chits it selects in one
        # turn (Turn 1 German: one more, the 3rd Panzer Group chit set
        # aside, 3.7); every commit of its hidden items has this width.
        most = max([1] + [max(t.german_chits + (1 if n == 1 else 0), t.german_chits_moscow or 0, t.soviet_chits)
                          for n, t in scn.turns.items()])
        self.hidden_width = 1
        while self.hidden_width < most:
            self.hidden_width *= 2

    # ================================================================ setup
    position_map: dict[str, Any] | None = None     # the smaller map a position declared (position.py)

    def position_of(self, state: State, seat: str | None) -> dict[str, Any]:
        return position.position_of(self, state, seat)

    def state_from_position(self, pos: dict[str, Any]) -> State:
        return position.state_from_position(self, pos)

    def start_from(self, pos: dict[str, Any]) -> None:
        position.start_from(self, pos)

    def initial_state(self) -> State:
        """3.0: units where the counters say, VP chits face down, the
        Stukas, Bomber and Rocket ready; the first decision is the Turn 1
        chit selection (3.6, 3.7).  A game started from a position starts
        from its state."""
        start = self.positioned_start()
        if start is not None:
            return start
        scn = self.scn
        units: dict[str, Any] = {}
        pvo_turn = 1
        for uid in sorted(scn.units):
            s = scn.units[uid]
            u = {"where": "offmap", "hex": None, "steps": s.steps, "oos": False, "isolated": False,
                 "active": False, "moved": False, "attacked": False, "arrives": None}
            if s.setup:
                u["where"], u["hex"] = "map", s.setup
            elif s.code == "M":
                u["where"] = "minsk"
            elif s.side == SOVIET and s.code == "R":
                u["where"] = "reserve"
            elif s.side == SOVIET and s.code == "1":
                u["where"] = "timoshenko"
            elif s.side == SOVIET and s.code == "*":
                u["where"] = "stars"
            elif s.side == SOVIET and s.pvo:
                # 3.8: one red PVO per Turn Track space, turns 1-9
                if pvo_turn < self.last_turn:
                    u["where"], u["arrives"] = "turn_track", pvo_turn
                    pvo_turn += 1
                else:
                    u["where"] = "removed"
            elif s.side == SOVIET and s.formation == "red":
                u["where"] = "elite_cup"
            elif s.code.isdigit():
                u["where"], u["arrives"] = "turn_track", int(s.code)
            units[uid] = u
        vp: dict[str, Any] = {}
        box: list[Any] = []
        for h, cls in sorted(scn.map.victory.items()):
            if h in START_BOX_HEXES:
                vp[h] = None
                box.append(cls)
            else:
                vp[h] = "down"
        state: State = {
            "turn": 1, "phase": "command", "active": None,
            "stack": [_new_frame("chits", done=[])],
            "units": units, "attacked_hexes": [],
            "cup": [], "played": [], "sealed": {}, "set_aside": None, "guderian_box": False,
            "picks": {}, "shown": {}, "dealt": False,
            "unplayed": {GERMAN: 0, SOVIET: 0},
            "stukas_ready": int(scn.options.get("stukas", 3)), "stukas_used": 0,
            "bomber": bool(scn.options.get("bomber", True)), "rocket": bool(scn.options.get("rocket", True)),
            "vp": vp, "vp_box": box, "vp_minsk": [],
            "vp_pool": {cls: sorted(vals) for cls, vals in scn.vp_chits.items()},
            "minsk_drm": False, "directive": None, "timoshenko": False,
            "turn1_special_done": False, "art_hexes": [],
            "winner": None, "result": [],
            "hidden": {GERMAN: {"chits": {}}, SOVIET: {"chits": {}}},
        }
        return state

    # ============================================================ interface
    def pending(self, state: State) -> Decision | None:
        if self._scope is not None:
            return self._pending(state)
        # Each question is worked out afresh (what it needs of a position is
        # kept with the position, see Board.cache): remembering whole
        # decisions by a pickle of the state cost more than it saved
        # (callgrind: 8.6% of a cold verify's instructions, 3% of a scripted
        # game's).
        # The board the last pending or apply left for this very state
        # serves again (speed only: most questions come right after the
        # order that made the position).  It stands as long as the scope
        # would: between calls only this code changes a state (a game state
        # is the rules' own), and every change of position here calls
        # _moved, which drops it.
        scope: dict[int, Board] = {}
        left = self._left
        if left is not None and left[0] is state:
            scope[id(state)] = left[1]
        self._scope = scope
        try:
            d = self._pending(state)
        finally:
            self._scope = None
        # apply_decided, handed this very decision for this very state
        # (unchanged since, by its contract), starts from this board.
        b = scope.get(id(state))
        self._asked = (state, d, b) if b is not None and d is not None else None
        self._left = (state, b) if b is not None else None
        return d

    def _pending(self, state: State) -> Decision | None:
        if state.get("winner") or not state["stack"]:
            return None
        top = state["stack"][-1]
        fn = _STEPS["_ask_"].get(top["k"])
        if fn is None:
            raise RuntimeError(f"frame {top['k']} has no decision (the sequence stopped on it)")
        return fn(self, state, top)

    def apply(self, state: State, side: str, order: dict[str, Any], rng: Rng) -> tuple[State, list[Event]]:
        return self.apply_decided(state, side, order, rng, self.pending(state))

    def apply_decided(self, state: State, side: str, order: dict[str, Any], rng: Rng,
                      d: Decision | None) -> tuple[State, list[Event]]:
        """:meth:`apply`, given ``d``, what :meth:`pending` answered for this
        very ``state`` object, unchanged since: the engine, which has just
        asked, hands it over rather than have it asked again (speed only)."""
        why = self._not_yours(d, side)
        if why:
            raise IllegalOrder(why)
        # Every name known, of its kind, and given once, whatever the verb
        # (9.3.1: a unit named twice must not count twice).
        orders.check_shape(order, self.scn)
        top = state["stack"][-1]
        events: list[Event] = []
        # While the order and the automatic steps after it run, one board
        # per state serves every question until a unit moves or the turn
        # ends (_moved drops it): only this code changes the state then.
        # The board left standing at the end serves the next question (see
        # pending); an order refused half-way leaves none.
        outer = self._scope is None
        scope = self._scope
        if scope is None:
            self._left = None
            asked, self._asked = self._asked, None      # (the decision is answered now)
            scope = self._scope = {id(state): asked[2]} if asked and asked[0] is state and asked[1] is d else {}
        try:
            do = _STEPS["_do_"].get(top["k"])
            if do is None:
                raise AttributeError(f"'AvdRules' object has no attribute '_do_{top['k']}'")
            do(self, state, top, d, order, rng, events)
            self._run(state, rng, events)
            b = scope.get(id(state))
            if outer and b is not None:
                self._left = (state, b)
        finally:
            if outer:
                self._scope = None
        return state, events

    @staticmethod
    def _not_yours(d: Decision | None, side: str) -> str | None:
        """Why ``side`` may give no order now (apply's first check)."""
        if d is None:
            return "the game is over"
        if side != d.side:
            return (f"it is the {SIDE_NAME[d.side]} player's decision ({d.kind}), "
                    f"not the {SIDE_NAME.get(side, side)}")
        return None

    def attack_refusal(self, state: State, side: str, order: dict[str, Any]) -> str | None:
        """Why apply would refuse ``order`` (an attack) from ``side`` now, or
        None.  The ``odds`` question answers with this, so a question and
        the order it asks about always agree."""
        d = self.pending(state)
        why = self._not_yours(d, side)
        if why:
            return why
        assert d is not None        # _not_yours refuses a finished game
        try:
            orders.check_shape(order, self.scn)
        except IllegalOrder as exc:
            return str(exc)
        if d.kind != "combat":
            return f"no attack now: the {SIDE_NAME[d.side]} player's decision is {d.kind}"
        return self._attack_check(state, order)

    def _attack_check(self, state: State, order: dict[str, Any], b: Board | None = None) -> str | None:
        """The Combat Segment's check of an attack (9.1, 9.3.6, 13.3): the
        one function both the order and the question use."""
        h, attackers = order["hex"], list(order["units"])
        b = b or self.board(state)
        why = self._can_attack(state, b, attackers, h)
        if why:
            return why
        if b.side_of(attackers[0]) != state["active"]:
            return "only the active player's units attack"
        if order.get("stuka") and (state["active"] != GERMAN or state["stukas_ready"] < 1):
            return "no Stuka available (13.3)"
        return None

    def attack_odds(self, state: State, order: dict[str, Any]) -> combat.Odds:
        """The column ``order`` would be resolved on, as the battle reads it."""
        b = self.board(state)
        f = {"kind": "normal", "hex": order["hex"], "attackers": list(order["units"]),
             "stuka": 1 if order.get("stuka") else 0, "dstuka": None, "side": b.side_of(order["units"][0])}
        return self.battle_odds(state, f)

    def parse(self, text: str, state: State, side: str) -> dict[str, Any]:
        order = orders.parse(text, self.scn, state, side)
        return self._route(order, state)

    def _route(self, order: dict[str, Any], state: State) -> dict[str, Any]:
        """``move 7Pz 4020`` naming only a destination that is not next to
        the unit: take the cheapest legal path there (8.1), so a player need
        not spell out every hex.  The written order keeps the whole path."""
        path = order.get("path") or []
        if order.get("verb") != "move" or len(path) != 1 or order.get("unit") not in state.get("units", {}):
            return order
        b = self.board(state)
        start = b.hex_of(order["unit"])
        if start is None or path[0] == start or b.grid.adjacent(start, path[0]) or path[0] not in b.grid:
            return order
        reach = movement.reach(b, order["unit"])
        if path[0] in reach.endable:
            return dict(order, path=reach.path_to(path[0]))
        raise IllegalOrder(f"{self.name(order['unit'])} cannot reach {path[0]} this segment "
                           f"(ask `reach {orders.short(self.scn, order['unit'])}`)")

    def format(self, order: dict[str, Any]) -> str:
        return orders.format(order, self.scn)

    def check_policy(self, state: State, seat: str, name: str, value: str) -> str | None:
        return policies.refusal(self, seat, name, value)

    def standing_answer(self, state: State, decision: Decision, policies_: dict[str, Any]) -> dict[str, Any] | None:
        # A standing order only reads the state: one board serves it all.
        if self._scope is not None:
            return policies.answer(self, state, decision, policies_)
        asked = self._asked
        self._scope = {id(state): asked[2]} if asked and asked[0] is state and asked[1] is decision else {}
        try:
            return policies.answer(self, state, decision, policies_)
        finally:
            self._scope = None

    def private_answer(self, state: State, decision: Decision) -> dict[str, Any]:
        top = state["stack"][-1]
        hidden = state["hidden"].get(decision.side)
        if hidden is None:
            raise IllegalOrder(f"the {SIDE_NAME[decision.side]} secrets are not held by this program")
        if decision.kind == "reveal":
            # 7.2.1: the chit drawn is turned up; the core opens its handle and
            # every program reads the chit from the checked opening.
            return {"verb": "reveal", "open": [top["token"][len(SEALED):]]}
        if decision.kind == "add9a":
            return {"verb": "add-chit", "chits": self._forced_9a(state, top)}
        raise IllegalOrder(f"{decision.kind} is not a private decision")

    def fill_secrets(self, state: State, side: str, order: dict[str, Any], new_salt) -> dict[str, Any]:
        """A side's own chit selection goes into the file with how many
        chits it seals (public: the quota says it anyway) and the chits in
        its secret part, which the core seals to the side and commits among
        its hidden items.  No salt and no randomness here."""
        secret = order.get("secret")
        if order.get("verb") != "chits" or not isinstance(secret, dict) or not isinstance(secret.get("chits"), list):
            return order            # nothing to seal, or malformed: apply refuses it
        return dict(order, count=len(secret["chits"]))

    # ------------------------------------------------------ hidden items
    def hidden_items(self, state: State, seat: str) -> dict[str, Any]:
        """The chits ``seat`` put in the cup (or set aside) this turn, handle
        -> {chit, turn}: face down until drawn (7.1.3), kept until the turn
        ends."""
        mine = (state["hidden"].get(seat) or {}).get("chits") or {}
        return {h: {"chit": c, "turn": t} for h, (c, t) in mine.items()}

    def identity_of(self, seat: str, value: Any) -> str | None:
        """A chit goes into the cup at most once a turn (7.1.2): the same
        chit shown under two handles of one turn is a cheat."""
        if isinstance(value, dict) and isinstance(value.get("chit"), str) and isinstance(value.get("turn"), int):
            return f"{value['chit']} (turn {value['turn']})"
        return None

    def check_opening(self, state: State, seat: str, handle: str, value: Any) -> str | None:
        """What a chit turned up from the cup must be (every program checks
        it before the reveal is applied): one of ``seat``'s face-down
        handles, a chit of this turn that the side could select when it
        chose (7.1.1), never Guderian (his own box, 7.1.2), not one already
        face up in the cup or played this turn by another way, and for the
        chit set aside on Turn 1 a 3rd Panzer Group chit (3.7)."""
        if state.get("sealed", {}).get(handle) != seat:
            return f"{handle} is not a face-down {SIDE_NAME.get(seat, seat)} chit in the cup"
        if not isinstance(value, dict) or set(value) != {"chit", "turn"}:
            return "not a chit and its turn"
        chit, turn = value["chit"], value["turn"]
        spec = self.scn.chits.get(chit) if isinstance(chit, str) else None
        if spec is None or spec.side != seat:
            return f"{chit!r} is not a {SIDE_NAME.get(seat, seat)} chit"
        if turn != state["turn"]:
            return f"{chit} was put in the cup on turn {turn!r}, not this turn ({state['turn']})"
        pick = state["picks"].get(seat) or {}
        if spec.kind == "guderian":
            return "Guderian goes to his own box, never the cup (7.1.2)"
        if chit not in pick.get("from", []):
            return f"{chit} could not be selected this turn (7.1.1)"
        if handle == pick.get("first") and spec.kind != "3PzG":
            return f"the chit set aside on Turn 1 is a 3rd Panzer Group chit, not {chit} (3.7)"
        face_up = (set(state["played"]) | {c for c in state["cup"] if not c.startswith(SEALED)}) \
            - set(state["shown"].values())
        if chit in face_up:
            return f"{chit} is already face up this turn, so it was not selected (7.1.2)"
        return None

    def demo_order(self, state: State, decision: Decision) -> dict[str, Any] | str:
        """The scripted demo player's choice (``pbem demo``)."""
        from pbem.games.avd import bot

        return bot.demo_order(self, state, decision)

    def demo_policies(self, side: str) -> dict[str, str]:
        from pbem.games.avd import bot

        return dict(bot.POLICIES[side])

    def query(self, state: State, side: str, text: str) -> str:
        from pbem.games.avd import sitrep
        return sitrep.query(self, state, side, text)

    def result(self, state: State) -> str | None:
        if not state.get("winner"):
            return None
        return "\n".join(state["result"])

    def view(self, state: State, seat: str | None) -> View:
        from pbem.games.avd import view
        return view.view(self, state, seat)

    # ============================================================== helpers
    def board(self, state: State) -> Board:
        scope = self._scope
        if scope is None:
            return Board(self.scn, state, self._shared)
        b = scope.get(id(state))
        if b is None or b.state is not state:
            b = scope[id(state)] = Board(self.scn, state, self._shared)
        elif CHECK_BOARDS:
            fresh = Board(self.scn, state, self._shared)
            if fresh._at != b._at or fresh.turn != b.turn:
                raise AssertionError("a board outlived a move: a change of position without _moved")
        return b

    def _moved(self, state: State) -> None:
        """Units of ``state`` changed place (or the turn ended): the board
        kept for it no longer stands."""
        scope = self._scope
        if scope:
            scope.pop(id(state), None)
        left = self._left
        if left is not None and left[0] is state:
            self._left = None
        asked = self._asked
        if asked is not None and asked[0] is state:
            self._asked = None

    def name(self, uid: str) -> str:
        return self.scn.units[uid].name or uid

    # (Each unit's kind read from the scenario's table, as is_hq and
    # is_combat read it, with no call per unit: units_of lists only units
    # of the scenario.  Speed only.)
    @staticmethod
    def _hqs_on(b: Board, side: str) -> list[str]:
        """The HQs of ``side`` on the map, in units_of order."""
        specs = b.scn.units
        return [u for u in b.units_of(side) if specs[u].kind == "hq"]

    @staticmethod
    def _combat_on(b: Board, side: str) -> list[str]:
        """The combat units of ``side`` on the map, in units_of order."""
        specs = b.scn.units
        return [u for u in b.units_of(side) if specs[u].kind == "combat"]

    def _lazy(self, state: State, seat: str, kind: str, prompt: str, options: Callable[[], Iterable[str]], *,
              policy: str | None = None, hint: str = "", plannable: bool = False) -> Decision:
        """A decision whose options ``options()`` lists on their first read
        (speed only: Decision.lazy; most go unread).  They are read before
        any order changes ``state`` (Decision.lazy), so the board of this
        question still stands for them and serves them too."""
        b = self.board(state)

        def listed() -> list[str]:
            scope = self._scope
            if scope is not None:
                scope.setdefault(id(state), b)
                return list(options())
            self._scope = {id(state): b}
            try:
                return list(options())
            finally:
                self._scope = None
        return Decision.lazy(seat, kind, prompt, listed, state, policy=policy, hint=hint, plannable=plannable)

    def _run(self, state: State, rng: Rng, events: list[Event]) -> None:
        """Work automatic frames until a decision is due or the game ends."""
        autos = _STEPS["_auto_"]
        for _ in range(10000):
            if state.get("winner") or not state["stack"]:
                return
            top = state["stack"][-1]
            auto = autos.get(top["k"])
            if auto is None or not auto(self, state, top, rng, events):
                return
        raise RuntimeError("the sequence of play did not settle")

    def _pop(self, state: State, frame: dict[str, Any]) -> None:
        assert state["stack"][-1] is frame
        state["stack"].pop()

    def _win(self, state: State, winner: str, lines: list[str], events: list[Event]) -> None:
        state["winner"] = winner
        state["result"] = lines
        state["phase"] = "over"
        state["stack"] = []
        events.append(Event(lines[-1], {"winner": winner}))

    # ------------------------------------------------------------ chits
    def chit_available(self, state: State, cid: str, b: Board | None = None) -> bool:
        """7.1.1: an HQ chit needs its HQ on the map; a Panzer Group chit
        (and Guderian, which activates the 2nd) a unit it could command,
        that is a Panzer Corps motorized unit of that Group (7.4.1; the
        Group's infantry answer to HQs, 7.0: see RULINGS.md); the 9th Army
        chits any German HQ."""
        c = self.scn.chits[cid]
        b = b or self.board(state)
        if c.kind in MANDATORY:
            return False
        if c.hq:
            return b.on_map(c.hq)
        if c.kind in PANZER_KINDS:
            form = "2PzG" if c.kind == "guderian" else c.kind
            return bool(activation.panzer_corps(b, form))
        if c.kind == "9A":
            return bool(self._hqs_on(b, GERMAN))
        return False

    def available_chits(self, state: State, side: str) -> list[str]:
        taken = set(state["cup"]) | set(state["played"])
        b = self.board(state)
        # Kept with the position, by the side and the chits taken (speed
        # only: the decision and the selection each ask, often more than
        # once): chit_available reads where the units stand alone.
        key = ("available chits", side, frozenset(taken))
        found = b.cache.get(key)
        if found is None:
            found = b.cache[key] = sorted(c for c, spec in self.scn.chits.items()
                                          if spec.side == side and c not in taken and self.chit_available(state, c, b))
        return list(found)

    def quota(self, state: State, side: str) -> int:
        """7.1.2: the Turn Track count (turn 8 German: the directive's value)."""
        t = self.scn.turns[state["turn"]]
        n = t.german_chits if side == GERMAN else t.soviet_chits
        if side == GERMAN and state["turn"] == 8 and t.german_chits_moscow is not None \
                and state["directive"] in victory.MOSCOW_MODES:
            n = t.german_chits_moscow
        return n

    def _chit_kind(self, cid: str) -> str:
        return self.scn.chits[cid].kind

    def _chit_owner(self, state: State, token: str) -> str:
        if token.startswith(SEALED):
            return state["sealed"][token[len(SEALED):]]
        return self.scn.chits[token].side

    def _ask_chits(self, state: State, top: dict[str, Any]) -> Decision:
        side = GERMAN if GERMAN not in top["done"] else SOVIET
        avail = self.available_chits(state, side)
        n = min(self.quota(state, side), len(avail))
        extra = ""
        if state["turn"] == 1 and side == GERMAN:
            extra = " first the 3rd Panzer Group chit set aside to be played first (3.7), then"
        prompt = (f"Turn {state['turn']}: choose{extra} {n} chit(s) for the cup from: {', '.join(avail)}"
                  + (" (Guderian goes to its box)" if any(self._chit_kind(c) == "guderian" for c in avail) else ""))
        opts, hint = self._chit_option_list(state, side, avail, n)
        return self._lazy(state, side, "chits", prompt, opts, hint=hint or "chits ID ID ...")

    def _chit_option_list(self, state: State, side: str, avail: list[str],
                          n: int) -> tuple[Callable[[], list[str]], str]:
        """Every selection of ``n`` chits (Turn 1 German: led by the 3rd
        Panzer Group chit set aside, 3.7), listed by the function given, and
        the hint."""
        if state["turn"] == 1 and side == GERMAN:
            parts = [_selection("chits", [c for c in avail if c != f], n, heads=(f,), word="ID")
                     for f in avail if self._chit_kind(f) == "3PzG"]
            hints = [hint for _, hint in parts if hint]

            def listed() -> list[str]:
                out = [o for opts, hint in parts for o in (opts() if not hint else opts()[:1])]
                return (out + ["chits FIRST ID ..."]) if hints else out
            return listed, "; or ".join(hints)
        return _selection("chits", avail, n, word="ID")

    def _do_chits(self, state, top, d, order, rng, events) -> None:
        side = d.side
        if order["verb"] != "chits":
            raise IllegalOrder(f"expected a chit selection (chits ID ID ...), got {order['verb']}")
        avail = self.available_chits(state, side)
        turn1g = state["turn"] == 1 and side == GERMAN
        n = min(self.quota(state, side), len(avail)) + (1 if turn1g else 0)
        gud = bool(order.get("guderian"))
        if gud and not any(self._chit_kind(c) == "guderian" for c in avail):
            raise IllegalOrder("Guderian is not available (no 2nd Panzer Group unit on the map)")
        k = n - (1 if gud else 0)          # chits that go into the cup face down (7.1.3)
        if order.get("count") not in (None, k):
            raise IllegalOrder(f"choose exactly {n} chits, got {order['count'] + (1 if gud else 0)}")
        secret = order.get("secret")
        hidden = state["hidden"].get(side)
        if secret is None and hidden is not None:
            raise IllegalOrder("a chit selection carries its chits in its secret part (chits ID ID ...)")
        if secret is not None:
            chits = list(secret.get("chits", []))
            for c in chits:
                if c not in avail:
                    raise IllegalOrder(f"chit {c} is not available to the {SIDE_NAME[side]} player now")
                if self._chit_kind(c) == "guderian":
                    raise IllegalOrder("Guderian goes to its own box, not the cup (7.1.2)")
            if len(set(chits)) != len(chits):
                raise IllegalOrder("a chit was chosen twice")
            if turn1g and (not chits or self._chit_kind(chits[0]) != "3PzG"):
                raise IllegalOrder("Turn 1: the first chit must be the 3rd Panzer Group chit set aside (3.7)")
            if len(chits) != k:
                raise IllegalOrder(f"choose exactly {n} chits, got {len(chits) + (1 if gud else 0)}")
        # effect: k public handles, which say nothing of the chits under them
        handles = [f"{side[0]}{state['turn']}.{i}" for i in range(1, k + 1)]
        if secret is not None and hidden is not None:
            hidden["chits"] = {h: [c, state["turn"]] for h, c in zip(handles, secret["chits"])}
        state["picks"][side] = {"from": [c for c in avail if self._chit_kind(c) != "guderian"],
                                "first": handles[0] if turn1g and handles else None}
        tokens = [SEALED + h for h in handles]
        for h in handles:
            state["sealed"][h] = side
        if turn1g:
            state["set_aside"] = tokens.pop(0)
        state["cup"].extend(tokens)
        if gud:
            state["guderian_box"] = True
        state["unplayed"][side] = len(avail) - n
        top["done"].append(side)
        events.append(Event(f"{SIDE_NAME[side]} puts {len(tokens)} chit(s) in the cup"
                            + (", Guderian in its box" if gud else "")
                            + (", one 3rd Panzer Group chit set aside" if turn1g else "")))
        if len(top["done"]) == 2:
            self._pop(state, top)
            for cid, c in sorted(self.scn.chits.items()):
                if c.kind in MANDATORY and not (c.kind == "art" and state["turn"] == 1):
                    state["cup"].append(cid)   # 7.1.2 / 13.1: mandatory chits, no ART on Turn 1
            state["stack"].append(_new_frame("execute"))
            events.append(Event(f"Turn {state['turn']}: {len(state['cup'])} chits in the cup"))

    # ----------------------------------------------------- draw loop (7.2)
    def _auto_execute(self, state, top, rng, events) -> bool:
        if state["turn"] == 1 and not state["turn1_special_done"]:
            # 4.1.2 Turn 1: 2nd Panzer Group fights before any chit is drawn
            state["turn1_special_done"] = True
            b = self.board(state)
            units = seqmech.formation_units(b, "2PzG")
            if not self.options.get("turn1_special_all_2pzg", True):
                units = [u for u in units if b.spec(u).motorized]
            state["active"] = GERMAN
            for u in units:
                self._activate(state, u)
            events.append(Event("Turn 1 special Combat Segment: 2nd Panzer Group attacks without moving (4.1.2)"))
            if units:
                state["stack"].append(_new_frame("combat", special=True))
            return True
        if state["set_aside"]:
            token = state["set_aside"]
            state["set_aside"] = None
            state["stack"].append(_new_frame("drawn", token=token, chit=None, trump=False))
            return True
        if state["cup"]:
            if not state["dealt"]:
                self._deal(state, rng)
            i = rng.draw(state["cup"], f"turn {state['turn']} chit draw")
            token = state["cup"].pop(i)
            chit = None if token.startswith(SEALED) else token
            state["stack"].append(_new_frame("drawn", token=token, chit=chit, trump=state["guderian_box"]))
            if chit:
                events.append(Event(f"Drawn: {chit}"))
            else:
                events.append(Event(f"Drawn: a {SIDE_NAME[self._chit_owner(state, token)]} chit"))
            return True
        if state["guderian_box"]:
            # 7.2.2: an unplayed Guderian is played after the last draw
            state["guderian_box"] = False
            self._pop(state, top)
            state["stack"].append(_new_frame("execute_after"))
            self._play(state, self._guderian_id(), rng, events)
            return True
        self._pop(state, top)
        state["stack"].append(_new_frame("endturn"))
        return True

    def _deal(self, state: State, rng: Rng) -> None:
        """7.2.1: before the first draw each side's face-down chits are mixed
        under their handles by the side's secret stream, so that where a
        handle stands in the cup, or the order the chits were named in,
        tells nothing of the chit under it.  The draw itself is public (the
        shared stream picks a place in the cup); the chit there stays the
        owner's secret until it is turned up.  The chit set aside on Turn 1
        (3.7) is not mixed: it is drawn first, whatever it is."""
        state["dealt"] = True
        for side in SIDES:
            first = (state["picks"].get(side) or {}).get("first")
            handles = [h for h, s in sorted(state["sealed"].items()) if s == side and h != first]
            if len(handles) < 2:
                continue
            srng = rng.secret(side)
            mine = state["hidden"].get(side)
            if srng is not None and mine is not None:
                dealt = srng.shuffle([mine["chits"][h] for h in handles], f"{side} chits face down in the cup")
                mine["chits"].update(zip(handles, dealt))

    def _auto_execute_after(self, state, top, rng, events) -> bool:
        self._pop(state, top)
        state["stack"].append(_new_frame("endturn"))
        return True

    def _guderian_id(self) -> str:
        return next(c for c, s in self.scn.chits.items() if s.kind == "guderian")

    def _auto_drawn(self, state, top, rng, events) -> bool:
        if top["chit"] is None:
            return False            # the owner reveals
        if top["trump"]:
            return False            # the German may trump with Guderian
        self._pop(state, top)
        self._play(state, top["chit"], rng, events)
        return True

    def _ask_drawn(self, state, top) -> Decision:
        if top["chit"] is None:
            owner = self._chit_owner(state, top["token"])
            return Decision(owner, "reveal", "reveal the chit drawn from the cup", private=True)
        return Decision(GERMAN, "guderian", f"{top['chit']} was drawn: play Guderian instead? (7.2.2)",
                        ("guderian yes", "guderian no"), policy="guderian")

    def _do_drawn(self, state, top, d, order, rng, events) -> None:
        if d.kind == "reveal":
            if order["verb"] != "reveal":
                raise IllegalOrder("expected the reveal of the drawn chit")
            c = top["token"][len(SEALED):]
            ops = order.get("openings")
            mine = state["hidden"].get(d.side)
            if ops is None and order.get("open") == [c] and mine is not None and c in mine["chits"]:
                # A caller outside the engine that holds the side's hidden part
                # (tests, scripted positions): the opening the core would give.
                # Through the engine an `open` always carries its checked
                # openings (the core refuses it otherwise before apply).
                ops = [{"handle": c, "value": self.hidden_items(state, d.side)[c]}]
            if order.get("open") != [c] or not isinstance(ops, list) or len(ops) != 1 \
                    or not isinstance(ops[0], dict) or ops[0].get("handle") != c:
                raise IllegalOrder(f"the chit drawn is {c}: the reveal opens it, and nothing else")
            value = ops[0].get("value")
            why = self.check_opening(state, d.side, c, value)
            if why:
                raise IllegalOrder(f"revealed chit {c}: {why}")
            assert isinstance(value, dict)      # check_opening: a chit and its turn
            chit = value["chit"]
            top["chit"] = chit
            del state["sealed"][c]
            state["shown"][c] = chit
            events.append(Event(f"The chit is {chit}"))
            return
        if order["verb"] != "guderian":
            raise IllegalOrder("answer guderian yes or guderian no")
        top["trump"] = False
        if order.get("play"):
            state["guderian_box"] = False
            self._pop(state, top)
            state["cup"].append(top["chit"])   # 7.2.2: the drawn chit goes back (now known)
            events.append(Event(f"Guderian trumps {top['chit']}; it goes back in the cup"))
            self._play(state, self._guderian_id(), rng, events)

    # --------------------------------------------------- activation (7.3)
    def _activate(self, state: State, uid: str) -> None:
        u = state["units"][uid]
        u["active"], u["moved"], u["attacked"] = True, False, False

    def _clear_activation(self, state: State) -> None:
        for u in state["units"].values():
            u["active"] = u["moved"] = u["attacked"] = False
        state["attacked_hexes"] = []
        state["timoshenko"] = False
        state["active"] = None

    def _play(self, state: State, cid: str, rng: Rng, events: list[Event]) -> None:
        """7.2.1: the chit's owner becomes active and activates."""
        spec = self.scn.chits[cid]
        state["played"].append(cid)
        kind = spec.kind
        b = self.board(state)
        if kind == "supply":
            events.append(Event("Supply Phase (10)"))
            state["stack"].append(_new_frame("supply", stage="clear"))
            return
        if kind == "reinf":
            events.append(Event("Reinforcement Phase (11)"))
            state["stack"].append(_new_frame("reinf", stage="start"))
            return
        if kind == "airpower":
            state["active"] = GERMAN
            events.append(Event("Air Power chit (13.3)"))
            state["stack"].append(_new_frame("air"))
            return
        if kind == "art":
            state["active"] = SOVIET
            roll = rng.roll(6, "ART chit: number of artillery attacks, Soviet d6")
            n = roll // 2   # 13.2
            events.append(Event(f"ART chit: d6 {roll} -> {n} artillery attack(s) (13.2)"))
            state["stack"].append(_new_frame("art", left=n))
            return
        state["active"] = spec.side
        if spec.hq:
            if not b.on_map(spec.hq):
                events.append(Event(f"{cid}: its HQ is not on the map; no effect (default 37)"))
                return
            state["timoshenko"] = kind == "timoshenko"
            self._activate_hq(state, spec.hq, events, b)
            return
        if kind == "9A":
            hqs = sorted(self._hqs_on(b, GERMAN))
            if not hqs:
                events.append(Event(f"{cid}: no German HQ on the map; no effect (default 37)"))
            elif len(hqs) == 1:
                self._activate_hq(state, hqs[0], events, b)
            else:
                state["stack"].append(_new_frame("hq9a", chit=cid))
            return
        if kind in PANZER_KINDS:
            form = "2PzG" if kind == "guderian" else kind
            clusters = seqmech.panzer_clusters(b, form)
            if not clusters:
                events.append(Event(f"{cid}: no {form} motorized unit on the map; no effect (default 37)"))
                return
            if all(len(cl) == 1 for cl in clusters.values()):
                self._activate_panzers(state, [cl[0] for cl in clusters.values()], cid, events)
            else:
                state["stack"].append(_new_frame("seed", chit=cid, formation=form))
            return
        events.append(Event(f"{cid}: nothing to activate"))

    def _activate_hq(self, state: State, hq: str, events: list[Event], b: Board | None = None) -> None:
        b = b or self.board(state)
        hqs, units = seqmech.hq_activation(b, hq)
        for u in hqs + units:
            self._activate(state, u)
        events.append(Event(f"{self.name(hq)} activates {len(hqs)} HQ(s) and {len(units)} unit(s)"
                            + (" (Timoshenko: 1 column right, 7.5)" if state["timoshenko"] else "")))
        self._push_segments(state)

    def _activate_panzers(self, state: State, groups: list[list[str]], cid: str, events: list[Event]) -> None:
        n = 0
        for g in groups:
            for u in g:
                self._activate(state, u)
                n += 1
        events.append(Event(f"{cid}: {n} motorized unit(s) activate (7.4)"))
        self._push_segments(state)

    def _push_segments(self, state: State) -> None:
        state["stack"].append(_new_frame("combat", special=False))
        state["stack"].append(_new_frame("move", mode="normal"))

    def _ask_hq9a(self, state, top) -> Decision:
        return self._lazy(state, GERMAN, "hq", f"{top['chit']}: which German HQ activates? (7.2.2)",
                          lambda: [f"activate {orders.short(self.scn, h)}" for h in self._german_hqs(state)])

    def _german_hqs(self, state: State) -> list[str]:
        return sorted(self._hqs_on(self.board(state), GERMAN))

    def _do_hq9a(self, state, top, d, order, rng, events) -> None:
        if order["verb"] != "activate":
            raise IllegalOrder("answer activate HQ")
        hq = order.get("unit")
        b = self.board(state)
        if hq not in state["units"] or not b.on_map(hq) or not b.is_hq(hq) or b.side_of(hq) != GERMAN:
            raise IllegalOrder(f"{hq} is not a German HQ on the map")
        self._pop(state, top)
        self._activate_hq(state, hq, events)

    def _ask_seed(self, state, top) -> Decision:
        b = self.board(state)
        clusters = seqmech.panzer_clusters(b, top["formation"])
        from itertools import product
        from math import prod
        picks = [[cl[0] for cl in cls] for _, cls in sorted(clusters.items())]
        desc = "; ".join(f"{c}: " + " | ".join("+".join(orders.short(self.scn, u) for u in cl) for cl in cls)
                         for c, cls in sorted(clusters.items()))
        hint = ""
        if prod(len(p) for p in picks) <= COMBO_LIST_LIMIT:
            opts = ["seed " + " ".join(orders.short(self.scn, u) for u in combo) for combo in product(*picks)]
        else:
            # compact: any one unit of one group per corps, as the prompt lists them
            opts = ["seed " + " ".join(orders.short(self.scn, p[0]) for p in picks), "seed UNIT ..."]
            hint = "UNIT: one unit of one group per Panzer Corps (corps with one group may be left out): " + desc
        return Decision(GERMAN, "seed", f"{top['chit']}: pick one unit per Panzer Corps (7.4.2): {desc}",
                        tuple(opts), hint=hint)

    def _do_seed(self, state, top, d, order, rng, events) -> None:
        if order["verb"] != "seed":
            raise IllegalOrder("answer seed UNIT UNIT ... (one per Panzer Corps)")
        b = self.board(state)
        clusters = seqmech.panzer_clusters(b, top["formation"])
        chosen: list[list[str]] = []
        for u in order.get("units", []):
            hit = [(c, cl) for c, cls in clusters.items() for cl in cls if u in cl]
            if not hit:
                raise IllegalOrder(f"{self.name(u)} is not a {top['formation']} motorized unit on the map")
            corps, cl = hit[0]
            if any(corps == c2 for c2, _ in [(c, x) for c, cls in clusters.items() for x in cls if x in chosen]):
                raise IllegalOrder(f"two units of corps {corps}: one seed per corps (7.4.2)")
            chosen.append(cl)
        for c, cls in clusters.items():
            if len(cls) == 1 and cls[0] not in chosen:
                chosen.append(cls[0])
        covered = {c for c, cls in clusters.items() for cl in cls if cl in chosen}
        if covered != set(clusters):
            raise IllegalOrder("name one unit of every Panzer Corps: " + ", ".join(sorted(set(clusters) - covered)))
        self._pop(state, top)
        self._activate_panzers(state, chosen, top["chit"], events)

    # ---------------------------------------------------- movement (8)
    def _ask_move(self, state, top) -> Decision:
        side = state["active"]
        b = self.board(state)
        if top["mode"] == "normal":
            units = state["units"]
            specs = self.scn.units      # (every unit units_of lists is one of them)
            movers = [u for u in b.units_of(side) if (x := units[u])["active"] and not x["moved"]
                      and not specs[u].pvo]
            what = "Movement Segment"
        else:
            movers = list(top.get("entering", []))
            what = {"timoshenko": "Timoshenko enters from its box (11.2)",
                    "enter": "German reinforcements enter (11.1.2)"}[top["mode"]]
        short = orders.shorts(self.scn)
        names = ", ".join([short.get(u, u) for u in movers]) or "none"
        opts: tuple[str, ...] = ("move UNIT HEX HEX ...", "strat UNIT HEX ...", "end-move")
        prompt, hint = f"{what}: units to move: {names}", "reach UNIT lists reachable hexes"
        if top["mode"] != "normal":
            return self._lazy(state, side, "move", prompt, lambda: self._entry_options(state, top) + list(opts),
                              hint=hint)
        return Decision(side, "move", prompt, opts, hint=hint)

    def _entry_options(self, state, top) -> list[str]:
        """The one-hex entries open to the units waiting to enter."""
        out = []
        b = self.board(state)
        for u in top.get("entering", []):
            for h in top.get("entry_hexes", {}).get(u, []):
                for verb in ("move", "strat"):
                    try:
                        self._check_entry(state, b, u, [h], verb == "strat", top)
                    except IllegalOrder:
                        continue
                    out.append(f"{verb} {orders.short(self.scn, u)} {h}")
                    break
        return out

    def _do_move(self, state, top, d, order, rng, events) -> None:
        verb = order["verb"]
        if verb in ("end-move", "pass"):
            if top["mode"] == "timoshenko" and self._entry_options(state, top):
                raise IllegalOrder("Timoshenko's units must enter the map (11.2): "
                                   + "; ".join(self._entry_options(state, top)))
            self._pop(state, top)
            if top["mode"] != "normal":
                for u in top.get("entering", []):
                    # units that did not enter stay where they were waiting
                    events.append(Event(f"{self.name(u)} does not enter this turn"))
            events.append(Event("End of movement"))
            return
        if verb not in ("move", "strat"):
            raise IllegalOrder("expected move UNIT HEX..., strat UNIT HEX... or end-move")
        uid, path = order.get("unit"), list(order.get("path", []))
        if uid not in state["units"]:
            raise IllegalOrder(f"no unit {uid}")
        b = self.board(state)
        name = self.name(uid)
        entering = top["mode"] != "normal"
        if entering:
            if uid not in top.get("entering", []):
                raise IllegalOrder(f"{name} is not waiting to enter")
            if not path:
                raise IllegalOrder(f"{name}: give the entry hex and the path")
            self._check_entry(state, b, uid, path, verb == "strat", top)
        else:
            u = state["units"][uid]
            if b.side_of(uid) != state["active"] or not b.on_map(uid):
                raise IllegalOrder(f"{name} is not one of your units on the map")
            if not u["active"]:
                raise IllegalOrder(f"{name} is not activated")
            if u["moved"]:
                raise IllegalOrder(f"{name} has already moved this segment (8.1.1)")
            start = b.hex_of(uid)
            if not path or path[0] != start:
                path = [start] + path
            if len(path) < 2:
                raise IllegalOrder(f"{name}: a move enters at least one hex (to stay, leave it out)")
            if verb == "strat":
                movement.strategic_ok(b, uid, path)
            else:
                movement.check_move(b, uid, path)
            self._check_pocket(b, uid, path)
        # effect
        if entering:
            top["entering"].remove(uid)
            state["units"][uid]["where"] = "map"
            state["units"][uid]["hex"] = path[0]
            state["units"][uid]["arrives"] = None
            self._moved(state)
            self._entered(state, uid, path[0], rng, events)
            steps = path[1:]
        else:
            steps = path[1:]
        for h in steps:
            if state.get("winner"):
                return
            state["units"][uid]["hex"] = h
            self._moved(state)
            self._entered(state, uid, h, rng, events)
        state["units"][uid]["moved"] = True
        events.append(Event(f"{name} moves {' '.join(path)}", {"unit": uid, "path": path}))

    def _check_pocket(self, b: Board, uid: str, path: list[str]) -> None:
        if b.side_of(uid) == GERMAN and any(b.in_minsk_pocket(h) for h in path[1:]):
            raise IllegalOrder(f"{self.name(uid)}: German units may never enter the Minsk Pocket (14.0)")

    def _check_entry(self, state, b: Board, uid: str, path: list[str], strategic: bool, top) -> None:
        """Entering from off the map (11.1.2, 11.2): the first hex is an
        entry hex and costs its normal price (or strategic price)."""
        name = self.name(uid)
        allowed = top.get("entry_hexes", {}).get(uid, [])
        if path[0] not in allowed:
            raise IllegalOrder(f"{name} must enter at {' or '.join(allowed)}")
        spec = b.spec(uid)
        if strategic or (top["mode"] == "enter" and not spec.motorized):
            movement.strategic_ok(b, uid, path, from_offmap=True)
            return
        if b.enemy_occupied(path[0], spec.side):
            raise IllegalOrder(f"{name}: {path[0]} holds enemy units")
        t = b.terrain(path[0])
        first = t.cost_motor if spec.motorized else t.cost_foot
        if b.in_enemy_zoc(path[0], spec.side):
            first += movement.ZOC_COST   # 8.2.1: 2 MP to enter an enemy ZOC
        limit = movement.allowance(b, uid)
        if first > limit:
            raise IllegalOrder(f"{name}: entering {path[0]} costs {movement.mp(first)} MP, allowance {movement.mp(limit)}")
        if len(path) == 1:
            # Only the stack in the entry hex to check, which holds no enemy
            # unit (above): the unit's own entry changes nothing else there.
            why = b.stacking_ok(path[0], spec.side, [uid])
            if why:
                raise IllegalOrder(f"{name}: {why}")
            self._check_pocket(b, uid, [""] + path)
            return
        # try the rest of the path from the entry hex
        u = state["units"][uid]
        saved = dict(u)
        u["where"], u["hex"] = "map", path[0]
        try:
            # A board of its own: the state differs from the one self.board
            # may be holding for this decision.
            b2 = Board(self.scn, state, self._shared)
            cost = movement.check_move(b2, uid, path)
            if cost + first > limit:
                raise IllegalOrder(f"{name}: the move costs {movement.mp(cost + first)} MP, "
                                   f"allowance {movement.mp(limit)}")
        finally:
            u.clear()
            u.update(saved)
        self._check_pocket(b, uid, [""] + path)

    def _entered(self, state: State, uid: str, h: str, rng: Rng, events: list[Event]) -> None:
        """A unit entered ``h`` (move, retreat, advance, placement): overrun
        a lone enemy HQ (12.1), capture a VP chit (16.2), immediate wins
        (16.1)."""
        specs = self.scn.units
        spec = specs[uid]
        side = spec.side
        if spec.kind != "combat":
            return
        # The enemy HQs standing in ``h``, read straight from the state (a
        # board here would index every position a move passes through, each
        # once; speed only), in the state's order.
        units = state["units"]
        here = [u for u in self._hqs_not_of(side) if units.get(u, _NO_UNIT).get("hex") == h
                and units[u].get("where") == "map"]
        if len(here) > 1:
            order = {u: i for i, u in enumerate(units)}
            here.sort(key=order.__getitem__)
        for other in here:
            self._overrun(state, other, h, events)
        if side == GERMAN and h in self.scn.map.moscow:
            self._win(state, GERMAN, [f"{self.name(uid)} enters Moscow ({h}): immediate German victory (16.1)"],
                      events)
            return
        if side == SOVIET and h in self.scn.map.minsk_pocket:
            self._win(state, SOVIET, [f"{self.name(uid)} enters the Minsk Pocket ({h}): immediate Soviet "
                                      "victory (16.1)"], events)
            return
        if h not in state["vp"]:
            return
        chit = state["vp"][h]
        if side == GERMAN and chit is not None:
            # 16.2: the German takes it face down, unseen
            state["vp_box"].append(self.scn.map.victory[h] if chit == "down" else int(chit.split(":")[1]))
            state["vp"][h] = None
            events.append(Event(f"German captures the VP chit in {h}"))
        elif side == SOVIET and chit is None:
            self._soviet_draws_vp(state, h, rng, events)

    def _soviet_draws_vp(self, state: State, h: str, rng: Rng, events: list[Event]) -> None:
        """16.2: the Soviet draws a random chit from the German box and
        places it face up; none left is an immediate Soviet victory."""
        if not state["vp_box"]:
            self._win(state, SOVIET, [f"Soviet recaptures {h} with no VP chit left in the German box: "
                                      "immediate Soviet victory (16.1)"], events)
            return
        i = rng.draw(state["vp_box"], f"VP chit from the German box for {h}")
        entry = state["vp_box"].pop(i)
        value = victory.resolve(state, entry, rng, f"value of the VP chit placed in {h}")
        state["vp"][h] = f"up:{value}"
        events.append(Event(f"Soviet recaptures {h}: VP chit {value} placed face up"))

    _hqs_kept: tuple[Any, dict[str, list[str]]] | None = None     # (scenario units, side -> HQs not of it)

    def _hqs_not_of(self, side: str) -> list[str]:
        """The scenario's HQs of the sides other than ``side`` (kept for the
        scenario's table of units, which a loaded scenario never changes;
        speed only: asked at every hex a unit enters)."""
        specs = self.scn.units
        kept = self._hqs_kept
        if kept is None or kept[0] is not specs:
            kept = self._hqs_kept = (specs, {})
        found = kept[1].get(side)
        if found is None:
            found = kept[1][side] = [u for u, s in specs.items() if s.kind == "hq" and s.side != side]
        return found

    def _overrun(self, state: State, hq: str, h: str, events: list[Event]) -> None:
        events.append(Event(f"{self.name(hq)} is overrun in {h} and must relocate (12.1)", {"warn": "overrun"}))
        u = state["units"][hq]
        u["where"], u["hex"] = "limbo", None
        self._moved(state)
        state["stack"].append(_new_frame("relocate", hq=hq, origin=h, voluntary=False))

    # ------------------------------------------------ HQ relocation (12.6)
    def _relocation_hexes(self, state: State, hq: str, origin: str) -> list[str]:
        top = state["stack"][-1]
        if top.get("k") == "relocate" and top.get("hq") == hq and "opts" in top:
            return top["opts"]   # the map cannot change while this decision is open
        return seqmech.relocation_options(self.board(state), hq, origin)

    def _auto_relocate(self, state, top, rng, events) -> bool:
        opts = self._relocation_hexes(state, top["hq"], top["origin"])
        top["opts"] = opts
        if len(opts) > 1:
            return False
        self._pop(state, top)
        u = state["units"][top["hq"]]
        if not opts:
            u["where"], u["hex"] = "removed", None
            self._moved(state)
            events.append(Event(f"{self.name(top['hq'])} cannot relocate and is eliminated (12.6)"))
        else:
            u["where"], u["hex"] = "map", opts[0]
            self._moved(state)
            events.append(Event(f"{self.name(top['hq'])} relocates to {opts[0]}"))
        return True

    def _ask_relocate(self, state, top) -> Decision:
        opts = self._relocation_hexes(state, top["hq"], top["origin"])
        side = self.scn.units[top["hq"]].side
        short = orders.short(self.scn, top["hq"])
        # The hexes are worked out here in any case: only their text is left.
        return Decision(side, "relocate", f"{self.name(top['hq'])} relocates from {top['origin']} (12.6)",
                        tuple(f"relocate {short} {h}" for h in opts), policy="relocate")

    def _do_relocate(self, state, top, d, order, rng, events) -> None:
        if order["verb"] != "relocate" or order.get("unit") not in (None, top["hq"]):
            raise IllegalOrder(f"answer relocate {orders.short(self.scn, top['hq'])} HEX")
        h = order.get("hex")
        opts = self._relocation_hexes(state, top["hq"], top["origin"])
        if h not in opts:
            raise IllegalOrder(f"{h} is not a legal relocation hex (12.6): {' '.join(opts)}")
        self._pop(state, top)
        u = state["units"][top["hq"]]
        u["where"], u["hex"] = "map", h
        self._moved(state)
        events.append(Event(f"{self.name(top['hq'])} relocates to {h}"))

    # ------------------------------------------------------ combat (9)
    def _ask_combat(self, state, top) -> Decision:
        side = state["active"]
        prompt = ("Turn 1 special " if top.get("special") else "") + \
            "Combat Segment: attack HEX with UNIT ... [stuka], or end-combat"
        hint = "odds HEX with UNIT ... shows the column"
        # Forced when no attack is legal: the options name every hex some
        # attack may go in with all the units that may make it, and the odds
        # only grow with more attackers (9.3.6 reads them before any shift).
        # Speed only: one legal attack found is enough to know it is not.
        attacks = self._legal_attacks(state)
        first = next(attacks, None)
        if first is None:
            return Decision(side, "combat", prompt, ("end-combat",), hint=hint, forced=True, plannable=True)
        # The options go on from the target found first, with the same
        # search (speed only: not worked out again).  It reads the state
        # as it is now, and so does every read of the options (Decision.lazy).
        found: list[tuple[str, list[str]]] = []

        def options() -> list[str]:
            if not found:
                found.append(first)
                found.extend(attacks)
            return ["end-combat"] + self._attack_texts(found)
        # Plannable: 9.2, the attacks one at a time in the attacker's order.
        return self._lazy(state, side, "combat", prompt, options, hint=hint, plannable=True)

    def _attack_options(self, state: State) -> list[str]:
        """Every target with all the active adjacent units that may attack it."""
        return self._attack_texts(self._legal_attacks(state))

    def _attack_texts(self, attacks: Iterable[tuple[str, list[str]]]) -> list[str]:
        return [f"attack {h} with " + " ".join(orders.short(self.scn, u) for u in sorted(us))
                for h, us in attacks]

    def _legal_attacks(self, state: State) -> Iterator[tuple[str, list[str]]]:
        """The targets of :meth:`_attack_options` with their attackers, each
        worked out when it is asked for."""
        side = state["active"]
        b = self.board(state)
        units = state["units"]
        attacked = state["attacked_hexes"]
        # (the unit's flags, each read once, before is_combat: most units
        # are not active; speed only)
        ready = [u for u in b.units_of(side) if (x := units[u])["active"] and not x["attacked"] and b.is_combat(u)]
        targets: dict[str, list[str]] = {}
        # What the key below reads of each attacker, read once though it
        # may attack several targets (speed only).
        reads: dict[str, tuple[Any, ...]] = {}
        enemy = b.combat_hexes_not_of(side)
        neighbors = b.grid.neighbors
        for u in ready:
            at = activation.map_hex(b, u)
            for n in neighbors(at):
                if n in attacked:
                    continue
                if n in enemy:
                    targets.setdefault(n, []).append(u)
                    if u not in reads:
                        x = units[u]
                        reads[u] = (u, at, x.get("steps"), x.get("oos"), x.get("isolated"))
        # Each target's legality is asked again at every combat decision of
        # the segment, mostly of unchanged units: kept by what the odds read
        # (9.3: where each attacker stands, the steps and supply markers of
        # both sides' units; the map and CRT do not change).
        known = self._shared.setdefault("attack_legal", {})
        for h, us in sorted(targets.items()):
            key = (h, tuple([reads[u] for u in us]),
                   tuple([(x, units[x].get("steps"), units[x].get("isolated")) for x in b.combat_units_at(h)]))
            ok = known.get(key)
            if ok is None:
                if len(known) >= ATTACKS_KEPT:
                    known.clear()
                ok = known[key] = self._can_attack(state, b, us, h) is None
            if ok:
                yield h, us

    def _can_attack(self, state: State, b: Board, attackers: list[str], h: str) -> str | None:
        """combat.can_attack now (9.1, 9.3.6).  An attack found legal is
        kept by everything the check reads (speed only: an attack is
        checked when listed, when a plan is tried and when ordered): each
        attacker's hex, steps, supply markers and activation flags, the
        defenders' steps and Isolation, and whether the hex was attacked.
        A legal attack stays legal with its units in any order (every test
        holds for each unit; the strengths add up), so they are sorted in
        the key; a refusal, whose reason may name the first unit that
        fails, is worked out each time."""
        units = state["units"]
        if any(u not in units for u in attackers):
            return combat.can_attack(b, attackers, h, state["attacked_hexes"])
        key = (h, h in state["attacked_hexes"],
               tuple(sorted((u, b.hex_of(u), x.get("steps"), x.get("oos"), x.get("isolated"), x.get("active"),
                             x.get("attacked")) for u in attackers for x in (units[u],))),
               tuple((d, units[d].get("steps"), units[d].get("isolated")) for d in b.combat_units_at(h)))
        legal = self._shared.setdefault("attack_ok", set())
        if key in legal:
            return None
        why = combat.can_attack(b, attackers, h, state["attacked_hexes"])
        if why is None:
            if len(legal) >= ATTACKS_KEPT:
                legal.clear()
            legal.add(key)
        return why

    def _do_combat(self, state, top, d, order, rng, events) -> None:
        verb = order["verb"]
        if verb in ("end-combat", "pass"):
            self._pop(state, top)
            self._clear_activation(state)
            events.append(Event("End of combat"))
            return
        if verb != "attack":
            raise IllegalOrder("expected attack HEX with UNIT ... or end-combat")
        h, attackers = order["hex"], list(order["units"])
        # One board for the check and the battle: marking the attackers
        # moves no unit.
        b = self.board(state)
        why = self._attack_check(state, order, b)
        if why:
            raise IllegalOrder(why)
        stuka = bool(order.get("stuka"))
        for u in attackers:
            state["units"][u]["attacked"] = True
        state["attacked_hexes"].append(h)
        events.append(Event(f"Attack on {h} by {', '.join(self.name(u) for u in attackers)}"
                            + (" with a Stuka" if stuka else "")))
        self._start_battle(state, "normal", h, attackers, state["active"], stuka=1 if stuka else 0, b=b)

    def _start_battle(self, state: State, kind: str, h: str, attackers: list[str], side: str,
                      stuka: int = 0, b: Board | None = None) -> None:
        b = b or self.board(state)
        # 12.4: an HQ stacked with attacking units when the combat starts may
        # follow them in the advance; remember where each attacker stood.
        origins = {u: activation.map_hex(b, u) for u in attackers if b.on_map(u)}
        att_hqs = {}
        for o in sorted(set(origins.values())):
            hq = b.hq_at(o)
            if hq and b.side_of(hq) == side:
                att_hqs[hq] = o
        state["stack"].append(_new_frame(
            "battle", kind=kind, hex=h, attackers=attackers, side=side, stuka=stuka, dstuka=None,
            stage="dstuka", res=None, hq=b.hq_at(h), defenders=sorted(b.combat_units_at(h)),
            losses_done=False, retreating=[], retreat=0, advanced=[],
            origins=origins, att_hqs=att_hqs, adv_paths={}))

    def battle_odds(self, state: State, f: dict[str, Any], explain: bool = True) -> combat.Odds:
        """The battle's odds; with ``explain`` False the steps do not name
        the units (only the column or a strength is read)."""
        b = self.board(state)
        fixed = {"art": ART_COLUMN, "rocket": ROCKET_COLUMN, "bomber": BOMBER_COLUMN}.get(f["kind"])
        stuka = f["stuka"] - (1 if f["dstuka"] else 0)
        german_att = f["side"] == GERMAN
        turn1 = state["turn"] == 1 and german_att
        if f["kind"] == "bomber" and not self.options.get("bomber_turn1_shift", True):
            turn1 = False
        return combat.odds(b, f["attackers"], f["hex"], stuka=stuka,
                           timoshenko=state["timoshenko"] and f["kind"] == "normal" and not german_att,
                           turn1=turn1, fixed_column=fixed, explain=explain)

    def _auto_battle(self, state, f, rng, events) -> bool:
        stage = f["stage"]
        if stage == "dstuka":
            f["stage"] = "roll"
            if f["side"] == SOVIET and state["stukas_ready"] > 0 and self.battle_odds(state, f, False).defense > 0:
                f["stage"] = "dstuka_ask"
                return False
            return True
        if stage == "dstuka_ask":
            return False
        if stage == "roll":
            return self._roll_battle(state, f, rng, events)
        if stage == "elite":
            return False
        if stage == "aloss":
            opts = self._aloss_options(state, f)
            if len(opts) > 1:
                return False
            if opts and opts[0]:
                self._take_losses(state, opts[0], events)
            f["stage"] = "dloss"
            return True
        if stage == "dloss":
            opts = f.get("pvo_pending") or self._dloss_options(state, f)
            if len(opts) > 1:
                return False
            if opts and opts[0]:
                self._take_losses(state, opts[0], events)
            f.pop("pvo_pending", None)
            self._after_losses(state, f, events)
            return True
        if stage == "post":
            self._check_hq_loss(state, f, events)
            f["stage"] = "advance" if f["kind"] == "normal" else "done"
            return True
        if stage == "retreat":
            return self._auto_retreat(state, f, rng, events)
        if stage == "advance":
            if self._advance_choices(state, f):
                return False
            f["stage"] = "done"
            return True
        if stage == "done":
            self._pop(state, f)
            return True
        raise RuntimeError(f"battle stage {stage}")

    def _roll_battle(self, state, f, rng, events) -> bool:
        if f["stuka"] > 0 and not f.get("stuka_spent"):
            state["stukas_ready"] -= 1
            state["stukas_used"] += 1
            f["stuka_spent"] = True
        if f["dstuka"] and not f.get("dstuka_spent"):
            state["stukas_ready"] -= 1
            state["stukas_used"] += 1
            f["dstuka_spent"] = True
        soviet_normal = f["side"] == SOVIET and f["kind"] == "normal"
        if soviet_normal:
            die = rng.roll(10, f"combat {f['hex']}, Soviet d10")
            roll = die + (1 if state["minsk_drm"] else 0)
        else:
            who = "German" if f["side"] == GERMAN else "Soviet"
            die = roll = rng.roll(6, f"{f['kind'] if f['kind'] != 'normal' else 'combat'} {f['hex']}, {who} d6")
        # The column once the die is rolled (speed only: a probe stops at the
        # roll; the odds read neither the die nor the Stukas spent above).
        o = self.battle_odds(state, f, False)
        col = o.column if o.column is not None else 0
        label = self.scn.crt.columns[col]
        if soviet_normal and roll >= 10:
            # 9.4.3: a Soviet 10 draws an elite unit and rolls again
            cup = sorted([u for u, x in state["units"].items() if x["where"] == "elite_cup"])
            hosts = self._elite_hosts(state, f, None)
            if cup and hosts:
                i = rng.draw(cup, f"combat {f['hex']}, Soviet 10: elite unit")
                f["elite"] = cup[i]
                events.append(Event(f"Soviet rolls 10 on {label}: elite {self.name(cup[i])} joins (9.4.3)"))
                hosts = self._elite_hosts(state, f, cup[i])
                if not hosts:
                    f.pop("elite")
                    events.append(Event("it cannot be stacked with any attacker: row 9"))
                    roll = 9
                elif len(hosts) == 1:
                    self._place_elite(state, f, hosts[0], events)
                    return True
                else:
                    f["stage"] = "elite"
                    return False
            else:
                roll = 9
                events.append(Event("Soviet 10 with no elite unit to add: row 9 (9.4.3)"))
        res = combat.read_crt(self.scn, col, min(roll, max(self.scn.crt.rows)))
        f["res"] = {"a": res.attacker_steps, "d": res.defender_steps, "r": res.retreat, "text": str(res)}
        events.append(Event(f"Combat {f['hex']} at {label}: die {die}"
                            + (f" (+1 Minsk)" if soviet_normal and state["minsk_drm"] else "")
                            + f" -> {res}", {"hex": f["hex"], "column": label, "die": die, "result": str(res)}))
        if f["kind"] != "normal":
            f["res"]["a"] = 0            # 13.2 / 13.3: no attacker results
        if f["kind"] == "bomber":
            f["res"]["r"] = 0            # 13.3: the Bomber ignores retreats
        f["stage"] = "aloss"
        return True

    def _elite_hosts(self, state, f, uid) -> list[str]:
        b = self.board(state)
        out = []
        for a in f["attackers"]:
            h = b.hex_of(a)
            if h is None:
                continue
            if uid is None or b.stacking_ok(h, SOVIET, [uid]) is None:
                out.append(a)
        return out

    def _place_elite(self, state, f, host, events) -> None:
        uid = f.pop("elite")
        b = self.board(state)
        u = state["units"][uid]
        u["where"], u["hex"] = "map", b.hex_of(host)
        self._moved(state)
        u["active"], u["attacked"] = True, True
        f["attackers"] = f["attackers"] + [uid]
        f["stage"] = "roll"
        events.append(Event(f"{self.name(uid)} stacks with {self.name(host)}"))

    def _aloss_options(self, state, f) -> list[dict[str, int]]:
        a = (f["res"] or {}).get("a", 0)
        b = self.board(state)
        att = [u for u in f["attackers"] if b.on_map(u)]
        if not a or not att:
            return []
        return combat.loss_options(b, att, a)

    def _dloss_options(self, state, f) -> list[dict[str, int]]:
        b = self.board(state)
        defs = [u for u in f["defenders"] if b.on_map(u) and b.hex_of(u) == f["hex"]]
        d = (f["res"] or {}).get("d", 0)
        if d and defs:
            return combat.loss_options(b, defs, d)
        return []

    def _take_losses(self, state: State, alloc: dict[str, int], events: list[Event]) -> None:
        b = self.board(state)
        for uid, n in sorted(alloc.items()):
            u = state["units"][uid]
            u["steps"] -= n
            if u["steps"] <= 0:
                dest = combat.eliminated_destination(b, uid)
                u["where"], u["hex"], u["steps"] = dest, None, self.scn.units[uid].steps
                self._moved(state)
                u["oos"] = u["isolated"] = u["active"] = False
                events.append(Event(f"{self.name(uid)} is eliminated ({dest})"))
            else:
                events.append(Event(f"{self.name(uid)} loses {n} step(s)"))

    def _after_losses(self, state, f, events) -> None:
        b = self.board(state)
        r = f["res"]["r"]
        if r and not f.get("pvo_done"):
            pvo = combat.pvo_effect(b, f["hex"], r)
            if pvo is not None:
                f["pvo_done"] = True
                f["res"]["d"] = 0
                f["res"]["r"] = r = pvo.others_retreat
                if len(pvo.options) == 1:
                    self._take_losses(state, pvo.options[0], events)
                    b = self.board(state)       # the map as the losses left it
                else:
                    f["stage"] = "dloss"
                    f["pvo_pending"] = pvo.options
                    return
        survivors = [u for u in f["defenders"] if b.hex_of(u) == f["hex"] and not b.spec(u).pvo]
        f["retreat"] = r
        f["retreating"] = survivors if r else []
        f["stage"] = "retreat" if f["retreating"] else "post"

    def _retreat_choices(self, state, f) -> list[list[str]]:
        """The legal paths for the whole retreating stack moving together."""
        b = self.board(state)
        return combat.retreat_options(b, list(f["retreating"]), f["hex"], f["retreat"], enemy_of(f["side"]))

    def _unit_retreat_choices(self, state, f) -> dict[str, list[list[str]]]:
        """9.5.1: each retreating unit's own legal paths (the stack may
        split up; each unit keeps to the 9.5.3 priorities on the map as it
        stands after the units that went before it)."""
        b = self.board(state)
        side = enemy_of(f["side"])
        return {u: combat.retreat_options(b, [u], f["hex"], f["retreat"], side) for u in f["retreating"]}

    def _retreat_menu(self, state, f) -> list[tuple[str | None, list[str]]]:
        """Every retreat order open now: the stack together along a path
        (unit None), or one unit on its own (9.5.1)."""
        menu: list[tuple[str | None, list[str]]] = [(None, p) for p in self._retreat_choices(state, f)]
        if len(f["retreating"]) > 1:
            for u, ps in sorted(self._unit_retreat_choices(state, f).items()):
                menu.extend((u, p) for p in ps)
        return menu

    def _auto_retreat(self, state, f, rng, events) -> bool:
        if not f["retreating"]:
            return self._auto_hq_retreat(state, f, events)
        own = self._unit_retreat_choices(state, f)
        stuck = [u for u, ps in own.items() if not ps]
        if stuck:
            # 9.5.8: a unit with no legal retreat hex is eliminated; the rest
            # of the stack still retreats.
            for u in stuck:
                f["retreating"].remove(u)
                self._take_losses(state, {u: state["units"][u]["steps"]}, events)
                events.append(Event(f"{self.name(u)} cannot retreat (9.5.8)"))
            return True
        together = self._retreat_choices(state, f)
        distinct = {tuple(p) for ps in own.values() for p in ps} | {tuple(p) for p in together}
        if len(distinct) > 1 or not together:
            return False
        self._do_retreat_path(state, f, list(f["retreating"]), together[0], rng, events)
        return True

    def _do_retreat_path(self, state, f, group, path, rng, events) -> None:
        b = self.board(state)
        # 9.5.4: one step per enemy-ZOC hex entered, judged on the map before
        # anyone moves; a unit whose last step goes in a hex dies there: it
        # goes no further and neither overruns (9.5.7) nor captures in it.
        per_hex = {u: [combat.zoc_losses(b, u, [h]) for h in path] for u in group}
        lost: dict[str, int] = {}
        for u in group:
            f["retreating"].remove(u)
            steps, taken = state["units"][u]["steps"], 0
            for h, cost in zip(path, per_hex[u]):
                if state.get("winner"):
                    return
                taken += cost
                if taken >= steps:
                    state["units"][u]["hex"] = h
                    self._moved(state)
                    break
                state["units"][u]["hex"] = h
                self._moved(state)
                self._entered(state, u, h, rng, events)
            events.append(Event(f"{self.name(u)} retreats {' '.join(path)}"))
            if taken:
                lost[u] = min(taken, steps)
        if lost:
            events.append(Event("retreat through enemy ZOC (9.5.4)"))
            self._take_losses(state, lost, events)
        f.setdefault("parts", []).append({"units": list(group), "path": list(path)})

    def _hq_retreat_paths(self, state, f) -> list[list[str]]:
        """12.3 with 9.5.1: the HQ retreats with one of the parts its stack
        split into (the owner's choice, rule-notes default 17): the path of
        any part with a surviving unit whose last hex can take the HQ."""
        hq = f["hq"]
        if not hq or state["units"][hq]["where"] != "map" or state["units"][hq]["hex"] != f["hex"]:
            return []
        b = self.board(state)
        out: list[list[str]] = []
        for part in f.get("parts", []):
            alive = [u for u in part["units"] if b.on_map(u) and b.hex_of(u) == part["path"][-1]]
            if alive and part["path"] not in out and b.stacking_ok(part["path"][-1], b.side_of(hq), [hq]) is None:
                out.append(list(part["path"]))
        return out

    def _auto_hq_retreat(self, state, f, events) -> bool:
        paths = self._hq_retreat_paths(state, f)
        if len(paths) > 1:
            return False
        if paths:
            self._move_hq_retreat(state, f, paths[0], events)
        else:
            self._hq_left_behind(state, f, events)
        f["stage"] = "post"
        return True

    def _move_hq_retreat(self, state, f, path, events) -> None:
        hq = f["hq"]
        state["units"][hq]["hex"] = path[-1]   # 12.3: the HQ goes with its stack
        self._moved(state)
        events.append(Event(f"{self.name(hq)} retreats with its stack {' '.join(path)}"))

    def _hq_left_behind(self, state, f, events) -> None:
        """An HQ whose retreating units survive but none of whose parts'
        last hexes can take it (another HQ is there, 5.1) cannot stay in
        the hex it had to leave: it relocates (12.6)."""
        hq = f["hq"]
        if not hq or state["units"][hq]["where"] != "map" or state["units"][hq]["hex"] != f["hex"]:
            return
        b = self.board(state)
        if not any(b.on_map(u) for part in f.get("parts", []) for u in part["units"]):
            return          # every unit was eliminated: 12.2, handled after the retreat
        state["units"][hq]["where"], state["units"][hq]["hex"] = "limbo", None
        self._moved(state)
        events.append(Event(f"{self.name(hq)} cannot end with its retreating units and relocates (12.6)"))
        state["stack"].append(_new_frame("relocate", hq=hq, origin=f["hex"], voluntary=False))

    def _check_hq_loss(self, state, f, events) -> None:
        """12.2: an HQ whose stacked combat units were all eliminated relocates."""
        hq = f["hq"]
        if not hq or state["units"][hq]["where"] != "map":
            return
        if any(state["units"][u]["where"] == "map" for u in f["defenders"]):
            return
        if not f["defenders"]:
            return
        origin = state["units"][hq]["hex"]
        state["units"][hq]["where"], state["units"][hq]["hex"] = "limbo", None
        self._moved(state)
        events.append(Event(f"{self.name(hq)} lost its stack and must relocate (12.2)"))
        state["stack"].append(_new_frame("relocate", hq=hq, origin=origin, voluntary=False))

    def _advance_choices(self, state, f) -> dict[str, list[list[str]]]:
        """Each unit that may advance after the battle of ``f`` (9.6, 12.4)
        and its paths, kept with the position: read only (the frame's step,
        the decision and the order only read it; speed only: no copy)."""
        if f["kind"] != "normal":
            return {}
        b = self.board(state)
        if b.units_at(f["hex"]) and any(
                b.side_of(u) != f["side"] for u in b.units_at(f["hex"])):
            return {}
        # Asked by the frame, the decision and the answer of one position:
        # kept with it, by everything of the battle the answer reads.
        key = ("advance", f["hex"], f["side"], tuple(f["attackers"]), tuple(f["advanced"]),
               tuple(sorted(f.get("att_hqs", {}).items())), tuple(sorted(f.get("origins", {}).items())),
               tuple((u, tuple(p)) for u, p in sorted(f.get("adv_paths", {}).items())))
        found = b.cache.get(key)
        if found is None:
            found = b.cache[key] = self._advance_choices_now(state, f, b)
        return found  # type: ignore[no-any-return]

    def _advance_choices_now(self, state, f, b: Board) -> dict[str, list[list[str]]]:
        movers = [u for u in f["attackers"] if b.on_map(u) and u not in f["advanced"]
                  and b.hex_of(u) != f["hex"]]
        opts = combat.advance_options(b, movers, f["hex"])
        out = {u: [p for p in ps if b.stacking_ok(p[-1], f["side"], [u]) is None]
               for u, ps in opts.items() if ps}
        for hq, paths in self._hq_advance_paths(state, f, b).items():
            if paths:
                out[hq] = paths
        return {u: ps for u, ps in out.items() if ps}

    def _hq_advance_paths(self, state, f, b: Board) -> dict[str, list[list[str]]]:
        """12.4: an HQ that stood with attacking units at the start of the
        combat may advance with them: along the path a stack-mate advanced
        and to its end (the attacked hex, or the second hex of a motorized
        unit).  As in the retreat (12.3), "with them" means it ends where
        one of them ended, never in a hex a stack-mate only passed through."""
        out: dict[str, list[list[str]]] = {}
        for hq, origin in sorted(f.get("att_hqs", {}).items()):
            if hq in f["advanced"] or not b.on_map(hq) or b.hex_of(hq) != origin:
                continue
            paths: list[list[str]] = []
            for u, path in sorted(f.get("adv_paths", {}).items()):
                if f.get("origins", {}).get(u) != origin:
                    continue
                p = list(path)
                if p not in paths and b.stacking_ok(p[-1], f["side"], [hq]) is None:
                    paths.append(p)
            out[hq] = sorted(paths, key=lambda p: (len(p), p))
        return out

    def _ask_battle(self, state, f) -> Decision:
        stage = f["stage"]
        defender = enemy_of(f["side"])
        if stage == "dstuka_ask":
            o = self.battle_odds(state, f)
            return Decision(GERMAN, "stuka", f"Soviet attack on {f['hex']} at {o.label}: "
                            f"spend a defensive Stuka (2 left)? ({state['stukas_ready']} ready)",
                            ("stuka yes", "stuka no"), policy="stuka-defense")
        if stage == "elite":
            hosts = self._elite_hosts(state, f, f["elite"])
            return Decision(SOVIET, "elite", f"stack {self.name(f['elite'])} with which attacker? (9.4.3)",
                            tuple(f"elite {orders.short(self.scn, h)}" for h in hosts), policy="elite")
        if stage == "aloss":
            opts = self._aloss_options(state, f)
            return Decision(f["side"], "loss", f"attacker loses {f['res']['a']} step(s) at {f['hex']}",
                            tuple(orders.format_loss(self.scn, o) for o in opts), policy="losses")
        if stage == "dloss":
            opts = f.get("pvo_pending") or self._dloss_options(state, f)
            return Decision(defender, "loss", f"defender in {f['hex']} loses step(s): {f['res']['text']}",
                            tuple(orders.format_loss(self.scn, o) for o in opts), policy="losses")
        if stage == "retreat":
            if not f["retreating"]:
                hq = orders.short(self.scn, f["hq"])
                return Decision(defender, "retreat", f"{hq} retreats with which part of its stack? (12.3)",
                                tuple(f"retreat {hq} " + " ".join(p) for p in self._hq_retreat_paths(state, f)),
                                policy="retreat")
            names = " ".join(orders.short(self.scn, u) for u in f["retreating"])
            menu = tuple("retreat " + " ".join(([orders.short(self.scn, u)] if u else []) + p)
                         for u, p in self._retreat_menu(state, f))
            return Decision(defender, "retreat", f"{names} retreat {f['retreat']} hex(es) from {f['hex']} "
                            "(9.5; name a unit to split the stack)", menu, policy="retreat")
        if stage == "advance":
            ch = self._advance_choices(state, f)
            short = orders.shorts(self.scn)
            moves = ["pass"] + [f"advance {short.get(u, u)} {' '.join(p)}"
                                for u, ps in sorted(ch.items()) for p in ps]
            return Decision(f["side"], "advance", f"advance after combat into {f['hex']} (9.6)",
                            tuple(moves), policy="advance")
        raise RuntimeError(f"battle stage {stage} has no decision")

    def _do_battle(self, state, f, d, order, rng, events) -> None:
        stage = f["stage"]
        verb = order["verb"]
        if stage == "dstuka_ask":
            if verb != "stuka":
                raise IllegalOrder("answer stuka yes or stuka no")
            f["dstuka"] = bool(order.get("use"))
            f["stage"] = "roll"
            if f["dstuka"]:
                events.append(Event(f"German defensive Stuka over {f['hex']}"))
            return
        if stage == "elite":
            if verb != "elite":
                raise IllegalOrder("answer elite HOST-UNIT")
            hosts = self._elite_hosts(state, f, f["elite"])
            if order.get("unit") not in hosts:
                raise IllegalOrder(f"{order.get('unit')} cannot host {self.name(f['elite'])}")
            self._place_elite(state, f, order["unit"], events)
            return
        if stage in ("aloss", "dloss"):
            if verb != "loss":
                raise IllegalOrder("answer loss UNIT N ...")
            opts = self._aloss_options(state, f) if stage == "aloss" else (
                f.get("pvo_pending") or self._dloss_options(state, f))
            alloc = {u: int(n) for u, n in order.get("steps", {}).items() if int(n)}
            if alloc not in opts:
                raise IllegalOrder("that loss allocation is not legal: " + "; ".join(
                    orders.format_loss(self.scn, o) for o in opts))
            self._take_losses(state, alloc, events)
            if stage == "aloss":
                f["stage"] = "dloss"
            else:
                f.pop("pvo_pending", None)
                self._after_losses(state, f, events)
            return
        if stage == "retreat":
            if verb != "retreat":
                raise IllegalOrder("answer retreat HEX ... (the path)")
            path = list(order.get("path", []))
            if not f["retreating"]:
                if order.get("unit") not in (None, f["hq"]):
                    raise IllegalOrder(f"only {self.name(f['hq'])} has still to retreat")
                paths = self._hq_retreat_paths(state, f)
                if path not in paths:
                    raise IllegalOrder("the HQ retreats along one of its units' paths (12.3): "
                                       + "; ".join(" ".join(p) for p in paths))
                self._move_hq_retreat(state, f, path, events)
                f["stage"] = "post"
                return
            group = list(f["retreating"])
            if order.get("unit"):
                if order["unit"] not in group:
                    raise IllegalOrder(f"{order['unit']} is not retreating")
                group = [order["unit"]]
                paths = self._unit_retreat_choices(state, f)[order["unit"]]
            else:
                paths = self._retreat_choices(state, f)
            if path not in paths:
                raise IllegalOrder("not a legal retreat path (9.5.3): " + "; ".join(" ".join(p) for p in paths))
            self._do_retreat_path(state, f, group, path, rng, events)
            return
        if stage == "advance":
            if verb == "pass":
                f["stage"] = "done"
                return
            if verb != "advance":
                raise IllegalOrder("answer advance UNIT HEX [HEX] or pass")
            ch = self._advance_choices(state, f)
            uid, path = order.get("unit"), list(order.get("path", []))
            if uid not in ch or path not in ch[uid]:
                raise IllegalOrder(f"{self.name(uid) if uid in self.scn.units else uid} cannot advance "
                                   f"along {' '.join(path)} (9.6)")
            f["advanced"].append(uid)
            if not self.scn.units[uid].kind == "hq":
                f.setdefault("adv_paths", {})[uid] = path
            for h in path:
                if state.get("winner"):
                    return
                state["units"][uid]["hex"] = h
                self._moved(state)
                self._entered(state, uid, h, rng, events)
            events.append(Event(f"{self.name(uid)} advances {' '.join(path)}"))
            return
        raise IllegalOrder(f"no order expected at battle stage {stage}")

    # =========================================================== air/ART
    def _air_targets(self, state) -> list[str]:
        b = self.board(state)
        # (the hexes holding a combat unit of a side other than the German:
        # the Soviet's, kept with the position)
        return sorted(b.combat_hexes_not_of(GERMAN))

    def _ask_air(self, state, top) -> Decision:
        opts = ["pass"]
        if state["stukas_used"] > 0:
            opts.append("air recover")
        if state["bomber"]:
            targets = self._air_targets(state)
            opts += [f"air bomber {h}" for h in targets]
            if state["stukas_used"] > 0:   # 13.3: both in one Air Power chit
                opts += [f"air recover bomber {h}" for h in targets]
        return Decision(GERMAN, "air", f"Air Power: recover a Stuka ({state['stukas_used']} used) "
                        f"and/or use the Bomber ({'ready' if state['bomber'] else 'spent'}) (13.3)",
                        tuple(opts), policy="air")

    def _auto_air(self, state, top, rng, events) -> bool:
        if state["stukas_used"] == 0 and not state["bomber"]:
            self._pop(state, top)
            state["active"] = None
            return True
        return False

    def _do_air(self, state, top, d, order, rng, events) -> None:
        verb = order["verb"]
        if verb == "pass":
            self._pop(state, top)
            state["active"] = None
            return
        if verb != "air":
            raise IllegalOrder("answer air [recover] [bomber HEX] or pass")
        rec, bomb = bool(order.get("recover")), order.get("bomber")
        if rec and state["stukas_used"] < 1:
            raise IllegalOrder("no used Stuka to recover")
        if bomb and (not state["bomber"] or bomb not in self._air_targets(state)):
            raise IllegalOrder(f"the Bomber cannot attack {bomb} (once per game, a hex with Soviet combat units)")
        self._pop(state, top)
        if rec:
            state["stukas_used"] -= 1
            state["stukas_ready"] += 1
            events.append(Event("A Stuka returns to the Airfields box"))
        if bomb:
            state["bomber"] = False
            events.append(Event(f"Bomber attacks {bomb} (13.3)"))
            self._start_battle(state, "bomber", bomb, [], GERMAN)

    def art_targets(self, state: State) -> list[str]:
        """13.2: hexes with German combat units next to a Soviet unit or
        HQ, or two hexes from a Soviet unit on a hill; one ART per hex a turn."""
        b = self.board(state)
        # The hexes in reach depend on where the units stand alone: kept
        # with the position (asked at every ART decision, check and answer).
        found = b.cache.get("art_spots")
        if found is None:
            spots: set[str] = set()
            # (each hex holding Soviet units once, not each unit: speed only)
            enemy, soviet = b.hexes_with(SOVIET)
            for h in soviet:
                spots.update(b.grid.neighbors(h))
                if b.terrain(h).name == "hill":
                    spots.update(b.grid.within(h, 2))
            # (a hex holding no unit of another side than the Soviet holds
            # no German combat unit: those are left out at once, speed only)
            found = b.cache["art_spots"] = sorted(
                h for h in spots & enemy
                if any(b.side_of(x) == GERMAN for x in b.combat_units_at(h)))
        done = state["art_hexes"]
        return [h for h in found if h not in done]

    def _auto_art(self, state, top, rng, events) -> bool:
        if (top["left"] <= 0 and not state["rocket"]) or not self.art_targets(state):
            self._pop(state, top)
            state["active"] = None
            return True
        return False

    def _ask_art(self, state, top) -> Decision:
        return self._lazy(state, SOVIET, "art", f"ART: {top['left']} artillery attack(s) left"
                          + (", Rocket ready" if state["rocket"] else ""), lambda: self._art_options(state, top),
                          plannable=True)

    def _art_options(self, state, top) -> list[str]:
        t = self.art_targets(state)
        return ["pass"] + ([f"art {h}" for h in t] if top["left"] > 0 else []) + \
            ([f"rocket {h}" for h in t] if state["rocket"] else [])

    def _do_art(self, state, top, d, order, rng, events) -> None:
        verb = order["verb"]
        if verb == "pass":
            self._pop(state, top)
            state["active"] = None
            return
        if verb not in ("art", "rocket"):
            raise IllegalOrder("answer art HEX, rocket HEX or pass")
        h = order.get("hex")
        if h not in self.art_targets(state):
            raise IllegalOrder(f"{h} is not a legal artillery target (13.2)")
        if verb == "art":
            if top["left"] < 1:
                raise IllegalOrder("no artillery attacks left")
            top["left"] -= 1
        else:
            if not state["rocket"]:
                raise IllegalOrder("the Rocket was already used")
            state["rocket"] = False
        state["art_hexes"].append(h)
        events.append(Event(f"{'Artillery' if verb == 'art' else 'Rocket'} attack on {h}"))
        self._start_battle(state, "art" if verb == "art" else "rocket", h, [], SOVIET)

    # ============================================================ supply
    def _auto_supply(self, state, top, rng, events) -> bool:
        stage = top["stage"]
        b = self.board(state)
        if stage == "clear":
            for u in state["units"].values():
                u["oos"] = False   # 10.1.1
            top["stage"] = "oos"
            return True
        if stage == "oos":
            if self._oos_count(state) and self._oos_eligible(state):
                return False
            top["stage"] = "isolation"
            return True
        if stage == "isolation":
            # 10.2: both sides at once, judged on the map as it stands (none German on Turn 1)
            iso = seqmech.isolated(b, GERMAN) | seqmech.isolated(b, SOVIET)
            for uid in self._combat_on(b, GERMAN) + self._combat_on(b, SOVIET):
                state["units"][uid]["isolated"] = uid in iso
            n = len(iso)
            events.append(Event(f"Isolation: {n} unit(s) isolated (10.2)"))
            top["stage"] = "relocate_g"
            return True
        if stage in ("relocate_g", "relocate_s"):
            side = GERMAN if stage == "relocate_g" else SOVIET
            if self._voluntary_hqs(state, side, top):
                return False
            top["stage"] = "relocate_s" if side == GERMAN else "disband"
            return True
        if stage == "disband":
            if [u for u in self._combat_on(b, SOVIET) if not b.scn.units[u].pvo]:
                return False
            top["stage"] = "end"
            return True
        self._pop(state, top)
        return True

    def _oos_count(self, state) -> int:
        if state["turn"] == 1:
            return 0   # 10.1.3
        t = self.scn.turns[state["turn"]]
        if state["turn"] == 8 and t.german_oos_moscow is not None and state["directive"] in victory.MOSCOW_MODES:
            return t.german_oos_moscow
        return t.german_oos

    def _oos_eligible(self, state) -> list[str]:
        b = self.board(state)
        # Where the units stand decides it: kept with the position (speed
        # only: the step, the decision, its order and the standing order ask).
        found = b.cache.get("oos eligible")
        if found is None:
            pocket = self.scn.map.minsk_pocket      # (what in_minsk_pocket reads)
            found = b.cache["oos eligible"] = sorted(
                [u for u in self._combat_on(b, GERMAN) if activation.map_hex(b, u) not in pocket])
        return list(found)

    def _voluntary_hqs(self, state, side, top) -> list[str]:
        """HQs that may still relocate this Supply Phase (each once)."""
        b = self.board(state)
        done = top.setdefault("relocated", [])
        return sorted([u for u in self._hqs_on(b, side) if u not in done])

    def _ask_supply(self, state, top) -> Decision:
        stage = top["stage"]
        if stage == "oos":
            n = self._oos_count(state)
            el = self._oos_eligible(state)
            return self._lazy(state, SOVIET, "oos", f"mark up to {n} German combat unit(s) Out of Supply (10.1.2): "
                              + " ".join(orders.short(self.scn, u) for u in el),
                              lambda: ["pass"] + [f"oos {orders.short(self.scn, u)}" for u in el],
                              policy="oos", hint=f"oos UNIT UNIT ...: any {n} or fewer of the units listed")
        if stage in ("relocate_g", "relocate_s"):
            side = GERMAN if stage == "relocate_g" else SOVIET
            free = self._voluntary_hqs(state, side, top)
            hqs = " ".join(orders.short(self.scn, u) for u in free)
            return self._lazy(state, side, "relocate", f"voluntary HQ relocation (10.4, 12.6) of {hqs}: "
                              "relocate HQ HEX or pass", lambda: self._voluntary_moves(state, free),
                              policy="relocate-voluntary", hint="relocate HQ HEX, one HQ at a time")
        return self._lazy(state, SOVIET, "disband", "disband Soviet combat units (10.5): disband UNIT ... or pass",
                          lambda: self._disband_options(state),
                          policy="disband", hint="disband UNIT UNIT ...: any of the units listed together")

    def _voluntary_moves(self, state: State, free: list[str]) -> list[str]:
        b = self.board(state)
        return ["pass"] + [f"relocate {orders.short(self.scn, hq)} {h}" for hq in free
                           for h in seqmech.relocation_options(b, hq, activation.map_hex(b, hq))]

    def _disband_options(self, state: State) -> list[str]:
        b = self.board(state)
        units = [u for u in self._combat_on(b, SOVIET) if not b.scn.units[u].pvo]
        return ["pass"] + [f"disband {orders.short(self.scn, u)}" for u in units]

    def _do_supply(self, state, top, d, order, rng, events) -> None:
        stage = top["stage"]
        verb = order["verb"]
        b = self.board(state)
        if stage == "oos":
            if verb == "pass":
                top["stage"] = "isolation"
                return
            if verb != "oos":
                raise IllegalOrder("answer oos UNIT ... or pass")
            units = list(order.get("units", []))
            el = self._oos_eligible(state)
            if len(units) > self._oos_count(state) or any(u not in el for u in units) or len(set(units)) != len(units):
                raise IllegalOrder(f"choose up to {self._oos_count(state)} German combat units on the map")
            for u in units:
                state["units"][u]["oos"] = True
            events.append(Event("Out of Supply: " + ", ".join(self.name(u) for u in units)))
            top["stage"] = "isolation"
            return
        if stage in ("relocate_g", "relocate_s"):
            side = d.side
            if verb == "pass":
                top["stage"] = "relocate_s" if side == GERMAN else "disband"
                return
            if verb != "relocate":
                raise IllegalOrder("answer relocate HQ HEX or pass")
            hq, h = order.get("unit"), order.get("hex")
            if hq not in self._voluntary_hqs(state, side, top):
                raise IllegalOrder(f"{hq} is not one of your HQs still free to relocate")
            legal = seqmech.relocation_options(b, hq, activation.map_hex(b, hq))
            if h not in legal:
                raise IllegalOrder(f"{self.name(hq)} cannot relocate to {h} (12.6); legal: {' '.join(legal) or 'none'}")
            state["units"][hq]["hex"] = h
            self._moved(state)
            top["relocated"].append(hq)
            events.append(Event(f"{self.name(hq)} relocates to {h}"))
            return
        if verb == "pass":
            top["stage"] = "end"
            return
        if verb != "disband":
            raise IllegalOrder("answer disband UNIT ... or pass")
        if len(set(order["units"])) != len(order["units"]):
            raise IllegalOrder("disband: name each unit once (10.5)")
        for u in order.get("units", []):
            if u not in state["units"] or not b.on_map(u) or b.side_of(u) != SOVIET or not b.is_combat(u) \
                    or b.spec(u).pvo:
                raise IllegalOrder(f"{u} cannot be disbanded (10.5: Soviet non-PVO combat units on the map)")
        for u in order.get("units", []):
            dest = "removed" if b.isolated(u) else ("elite_cup" if b.spec(u).formation == "red" else "reserve")
            if b.spec(u).code == "*" and not b.isolated(u):
                dest = "reserve"   # default 23
            x = state["units"][u]
            x["where"], x["hex"], x["steps"], x["isolated"] = dest, None, self.scn.units[u].steps, False
            self._moved(state)
            events.append(Event(f"{self.name(u)} disbands ({dest})"))
        top["stage"] = "end"

    # ==================================================== reinforcements
    def _auto_reinf(self, state, top, rng, events) -> bool:
        stage = top["stage"]
        turn = state["turn"]
        if stage == "start":
            state["minsk_drm"] = False   # 14.0: the +1 lasts until this chit
            timo = sorted([u for u, x in state["units"].items() if x["where"] == "timoshenko"])
            top["stage"] = "buy"
            if turn == 1 and timo:
                top["stage"] = "timo_done"
                state["active"] = SOVIET
                entry = sorted(self.scn.map.timoshenko_entry)
                for u in timo:
                    self._activate(state, u)
                state["stack"].append(_new_frame("combat", special=False))
                state["stack"].append(_new_frame("move", mode="timoshenko", entering=timo,
                                                 entry_hexes={u: entry for u in timo}))
                events.append(Event("Timoshenko enters from its box (11.2)"))
            return True
        if stage == "timo_done":
            for u in [u for u, x in state["units"].items() if x["where"] == "timoshenko"]:
                state["units"][u]["where"] = "removed"   # 11.2: may not stay in the box
                self._moved(state)
            tchit = [c for c, s in self.scn.chits.items() if s.kind == "timoshenko"]
            if tchit:
                state["cup"].append(tchit[0])
            state["active"] = None
            top["stage"] = "buy"
            return True
        if stage == "buy":
            top.setdefault("rp", self.scn.turns[turn].soviet_rp)
            if top["rp"] > 0 and next(self._buyable(state, top), None) is not None:
                return False
            top["stage"] = "pvo"
            return True
        if stage == "pvo":
            specs = self.scn.units
            pvos = sorted([u for u, x in state["units"].items() if x["where"] == "turn_track"
                           and x["arrives"] == turn and specs[u].pvo])
            if pvos and self._pvo_hexes(state, pvos[0]):
                top["pvo"] = pvos[0]
                return False
            for u in pvos:
                state["units"][u]["where"] = "removed"
                self._moved(state)
            top["stage"] = "elite"
            top["elite_left"] = self.scn.turns[turn].elite
            return True
        if stage == "elite":
            if top.get("elite_unit"):
                if self._placement_hexes(state, top["elite_unit"]):
                    return False
                state["units"][top.pop("elite_unit")]["where"] = "elite_cup"
                self._moved(state)
            cup = sorted([u for u, x in state["units"].items() if x["where"] == "elite_cup"])
            if top["elite_left"] > 0 and cup:
                top["elite_left"] -= 1
                i = rng.draw(cup, "reinforcement: elite unit from the cup (11.1.1)")
                top["elite_unit"] = cup[i]
                state["units"][cup[i]]["where"] = "placing"
                self._moved(state)
                events.append(Event(f"Elite draw: {self.name(cup[i])}"))
                return True
            top["stage"] = "german"
            return True
        if stage == "german":
            specs = self.scn.units
            arriving = sorted([u for u, x in state["units"].items()
                               if specs[u].side == GERMAN and x["where"] == "turn_track"
                               and x["arrives"] is not None and x["arrives"] <= turn])
            top["stage"] = "german_chit"
            top["german_entered"] = bool(arriving)
            if arriving:
                state["active"] = GERMAN
                hexes = {u: [self._entry_hex(u, released=False)] for u in arriving}
                state["stack"].append(_new_frame("move", mode="enter", entering=arriving, entry_hexes=hexes))
            return True
        if stage == "german_chit":
            state["active"] = None
            top["stage"] = "minsk"
            if top.get("german_entered"):
                state["stack"].append(_new_frame("add9a", count=1))   # 11.1.2 / default 20
            return True
        if stage == "minsk":
            return self._auto_minsk(state, top, rng, events)
        if stage == "minsk_ask":
            return False
        if stage == "escape":
            if top.get("escapes", 0) > 0 and self._escapee_options(state):
                return False
            top["stage"] = "stars"
            return True
        if stage == "stars":
            stars = sorted([u for u, x in state["units"].items() if x["where"] == "stars"])
            if "stars_roll" in top and stars:
                return False
            if turn >= STARS_FROM_TURN and stars and "stars_roll" not in top:
                roll = rng.roll(6, "'*' units to the Reserve Box, Soviet d6 (11.3)")
                top["stars_roll"] = roll
                events.append(Event(f"'*' units: d6 {roll}"))
                if roll >= len(stars):
                    for u in stars:
                        state["units"][u]["where"] = "reserve"
                        self._moved(state)
                    events.append(Event(f"all {len(stars)} '*' units go to the Reserve Box"))
                else:
                    return False
            top["stage"] = "end"
            return True
        self._pop(state, top)
        return True

    def _entry_hex(self, uid: str, released: bool) -> str:
        """11.1.2 / 14.0: 9th Army through 3106, 3rd PzG through 3902,
        2nd PzG released from Minsk through 2704 (scenario ``entry``)."""
        form = self.scn.units[uid].formation
        e = self.scn.map.entry
        if released:
            return e.get(f"{form}_minsk") or e.get(form) or e.get("9A", "")
        return e.get(form) or e.get("9A", "")

    def _buyable(self, state, top) -> Iterator[str]:
        """11.1.1: the Reserve Box units the points left buy and that have
        a hex to be placed in, in id order, each found when asked for
        (speed only: the automatic step and ``buy first`` ask for the first
        alone; read at once, before the state changes)."""
        b = self.board(state)
        seen: dict[tuple[str, str], bool] = {}
        units = state["units"]
        # (the Reserve Box's units sorted, not the whole table: speed only)
        for u in sorted([u for u, x in units.items() if x["where"] == "reserve"]):
            spec = self.scn.units[u]
            if (2 if spec.kind == "hq" else 1) > top["rp"]:
                continue    # (before its placement, which its kind decides, as it does the cost: speed only)
            key = (spec.kind, spec.code)   # placement depends on kind and the "*" code only
            if key not in seen:
                seen[key] = bool(self._placement_hexes(state, u, top, b))
            if seen[key]:
                yield u

    def _placement_hexes(self, state, uid, top=None, b: Board | None = None) -> list[str]:
        # Asked many times for an unchanged position (options, checks): remember the answer.
        # Placement depends on the turn, where the units stand and the VP chits only.
        b = b or self.board(state)
        spec = self.scn.units[uid]
        # Off the map, units of one kind, colour and code place alike (11.1.1, 5.3).
        who = uid if b.on_map(uid) else (spec.side, spec.kind, spec.pvo, spec.formation == "red", spec.code == "*")
        # (Kept with the position, see Board.cache.  The VP chits in their
        # table's order, unsorted: the same chits listed in another order
        # could only miss; speed only.)
        key = ("placement", state["turn"], tuple(state["vp"].items()), who,
               tuple((top or {}).get("stars_placed", [])))
        found = b.cache.get(key)
        if found is None:
            found = b.cache[key] = self._placement_hexes_now(state, uid, top, b)
        return list(found)

    def _placement_hexes_now(self, state, uid, top=None, b: Board | None = None) -> list[str]:
        """11.1.1: an HQ in a Victory Hex holding a VP chit that traces
        supply; a combat unit in or next to a Soviet HQ, tracing supply, not
        in German ZOC unless a VP chit, a Soviet unit or an HQ is there."""
        b = b or self.board(state)
        spec = self.scn.units[uid]
        out = []
        if spec.kind == "hq":
            for h, chit in sorted(state["vp"].items()):
                if chit is not None and not b.enemy_occupied(h, SOVIET) and b.stacking_ok(h, SOVIET, [uid]) is None \
                        and seqmech.traces_supply(b, h, SOVIET):
                    out.append(h)
            return out
        if spec.pvo:
            return self._pvo_hexes(state, uid, b)
        stars_placed = list((top or {}).get("stars_placed", [])) if spec.code == "*" else []
        hq_hexes = self._soviet_hq_hexes(b) if stars_placed else []
        near_memo: dict[str, list[int]] = {}
        # The area holds no German unit, so its hexes with units are among
        # those holding Soviet ones; any other is empty, and one unit alone
        # in a hex is always a legal stack (stacking_ok's first answer):
        # stacking is asked only where units stand (speed only).
        soviet_at = b.hexes_with(SOVIET)[1]
        for h in self._placement_area(state, b):
            if h in soviet_at and b.stacking_ok(h, SOVIET, [uid]) is not None:
                continue
            if stars_placed and not self._stars_fit(b, stars_placed + [h], hq_hexes, near_memo):
                continue
            out.append(h)
        return out

    def _placement_area(self, state, b: Board) -> list[str]:
        """11.1.1, what every Soviet combat unit's placement needs, whatever
        the unit: the hexes in or next to a Soviet HQ, free of German units
        and outside the Minsk Pocket, not in German ZOC unless a VP chit or
        a unit is there, that trace supply (in id order).  Kept with the
        position (and the turn and VP chits it depends on): every unit
        placed from the same position asks again."""
        key = ("placement_area", state["turn"], tuple(state["vp"].items()))   # (unsorted: as above)
        found = b.cache.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        cand: set[str] = set()
        for hq in self._hqs_on(self.board(state), SOVIET):
            h0 = activation.map_hex(b, hq)
            cand.add(h0)
            cand.update(b.grid.neighbors(h0))
        found = []
        # (the position's sets that enemy_occupied, in_enemy_zoc and
        # in_minsk_pocket read, read once: speed only)
        enemy, zoc, pocket = b.hexes_with(SOVIET)[0], b.zoc(GERMAN), self.scn.map.minsk_pocket
        vp = state["vp"]
        for h in sorted(cand):
            if h in enemy or h in pocket:
                continue
            if h in zoc and not (vp.get(h) is not None or b.units_at(h)):
                continue
            if not seqmech.traces_supply(b, h, SOVIET):
                continue
            found.append(h)
        b.cache[key] = found
        return found

    def _soviet_hq_hexes(self, b: Board) -> list[str]:
        return sorted(activation.map_hex(b, hq) for hq in self._hqs_on(b, SOVIET))

    def _stars_fit(self, b: Board, hexes: list[str], hq_hexes: list[str] | None = None,
                   near_memo: dict[str, list[int]] | None = None) -> bool:
        """11.1.1: when several "*" units are placed in one turn, each must
        be on or next to a Soviet HQ of its own.  True if the "*" units in
        ``hexes`` can be matched to different HQs (an augmenting-path
        matching; a hex may be next to several HQs, and the owner need not
        say which one a unit was placed for)."""
        if hq_hexes is None:
            hq_hexes = self._soviet_hq_hexes(b)
        owner: dict[int, int] = {}
        # The HQs each unit may be placed for, worked out once (the search
        # below asks again for every path it tries; ``near_memo``, kept by a
        # caller that tries many hexes against the same ``hq_hexes``, across
        # calls).
        memo = near_memo if near_memo is not None else {}
        near = []
        for h in hexes:
            found = memo.get(h)
            if found is None:
                found = memo[h] = [j for j, hh in enumerate(hq_hexes) if b.distance(h, hh) <= 1]
            near.append(found)

        def assign(i: int, seen: set[int]) -> bool:
            for j in near[i]:
                if j in seen:
                    continue
                seen.add(j)
                if j not in owner or assign(owner[j], seen):
                    owner[j] = i
                    return True
            return False

        return all(assign(i, set()) for i in range(len(hexes)))

    def _pvo_hexes(self, state, uid, b: Board | None = None) -> list[str]:
        """11.1.1: a PVO unit goes in a Victory Hex holding a VP chit, free
        of German units, that can take it and traces supply.  Kept with the
        position, by the turn and the VP chits, the rest it reads (speed
        only: the automatic step, the decision and the order each ask)."""
        b = b or self.board(state)
        key = ("pvo", uid, state["turn"], tuple(state["vp"].items()))   # (unsorted: as _placement_hexes)
        found = b.cache.get(key)
        if found is None:
            found = b.cache[key] = [h for h, chit in sorted(state["vp"].items()) if chit is not None
                                    and not b.enemy_occupied(h, SOVIET) and b.stacking_ok(h, SOVIET, [uid]) is None
                                    and seqmech.traces_supply(b, h, SOVIET)]
        return list(found)

    def _ask_reinf(self, state, top) -> Decision:
        stage = top["stage"]
        if stage == "buy":
            return self._lazy(state, SOVIET, "buy", f"Reinforcements: {top['rp']} RP left (unit 1, HQ 2, +1 its "
                              "chit now) (11.1.1)", lambda: self._buy_options(state, top),
                              hint="buy UNIT HEX [chit]", policy="buy")
        if stage == "pvo":
            u = top["pvo"]
            return Decision(SOVIET, "place", f"place PVO {self.name(u)} in a Victory Hex with a VP chit (11.1.1)",
                            tuple(f"place {orders.short(self.scn, u)} {h}" for h in self._pvo_hexes(state, u)),
                            policy="place")
        if stage == "elite":
            u = top["elite_unit"]
            return Decision(SOVIET, "place", f"place elite {self.name(u)} (11.1.1)",
                            tuple(f"place {orders.short(self.scn, u)} {h}" for h in self._placement_hexes(state, u)),
                            policy="place")
        if stage == "minsk_ask":
            return self._lazy(state, GERMAN, "release", "Minsk Pocket: release units (HQ 2, unit 1; buy a 9th Army "
                              "chit per HQ for 1) (14.0): release UNIT ... [buy N] or pass",
                              lambda: ["pass"] + [f"release {orders.short(self.scn, u)}"
                                                  for u in self._minsk_german(state)],
                              hint="release UNIT ... [buy N]", policy="release")
        if stage == "escape":
            opts = self._escapee_options(state)
            return Decision(SOVIET, "place", f"{top['escapes']} Soviet unit(s) escape the Minsk Pocket (11.1.3)",
                            tuple(opts) + ("pass",), policy="place")
        if stage == "stars":
            stars = sorted([u for u, x in state["units"].items() if x["where"] == "stars"])
            n = top["stars_roll"]
            listing, hint = _selection("stars", [orders.short(self.scn, u) for u in stars], n)
            return self._lazy(state, SOVIET, "stars", f"choose {n} '*' unit(s) for the Reserve Box (11.3)", listing,
                              policy="stars", hint=hint)
        raise RuntimeError(f"reinforcement stage {stage}")

    def _buy_options(self, state, top) -> list[str]:
        return ["done"] + list(self._purchases(state, top))

    def first_purchase(self, state: State) -> str | None:
        """The first purchase the buy decision of ``state`` lists, or None
        (speed only: the ``buy first`` standing order's answer without the
        whole list, which nobody else reads then)."""
        return next(self._purchases(state, state["stack"][-1]), None)

    def _purchases(self, state, top) -> Iterator[str]:
        b = self.board(state)
        for u in self._buyable(state, top):
            s = orders.short(self.scn, u)
            chit = self.scn.units[u].kind == "hq" and top["rp"] >= 3 \
                and self.scn.units[u].chit not in self._in_play(state, SOVIET)
            for h in self._placement_hexes(state, u, top, b):
                yield f"buy {s} {h}"
                if chit:
                    yield f"buy {s} {h} chit"

    def _do_reinf(self, state, top, d, order, rng, events) -> None:
        stage = top["stage"]
        verb = order["verb"]
        if stage == "buy":
            if verb in ("done", "pass"):
                top["stage"] = "pvo"
                return
            if verb != "buy":
                raise IllegalOrder("answer buy UNIT HEX [chit] or done")
            uid, h, chit = order.get("unit"), order.get("hex"), bool(order.get("chit"))
            if uid not in state["units"] or state["units"][uid]["where"] != "reserve":
                raise IllegalOrder(f"{uid} is not in the Soviet Reserve Box")
            spec = self.scn.units[uid]
            cost = (2 + (1 if chit else 0)) if spec.kind == "hq" else 1
            if chit and spec.kind != "hq":
                raise IllegalOrder("only an HQ's chit can be bought")
            if cost > top["rp"]:
                raise IllegalOrder(f"{self.name(uid)} costs {cost} RP, {top['rp']} left (11.1.1)")
            if h not in self._placement_hexes(state, uid, top):
                raise IllegalOrder(f"{self.name(uid)} cannot be placed in {h} (11.1.1)")
            if chit and spec.chit and spec.chit in self._in_play(state, SOVIET):
                raise IllegalOrder(f"{spec.chit} is already in play this turn: a chit goes into the cup "
                                   "once a turn (7.1.2, 11.1.1)")
            top["rp"] -= cost
            self._place_soviet(state, uid, h, rng, events, top)
            if chit and spec.chit:
                state["cup"].append(spec.chit)
                events.append(Event(f"{spec.chit} goes into the cup at once"))
            return
        if stage in ("pvo", "elite"):
            if verb != "place":
                raise IllegalOrder("answer place UNIT HEX")
            uid = top["pvo"] if stage == "pvo" else top["elite_unit"]
            h = order.get("hex")
            if order.get("unit") not in (None, uid):
                raise IllegalOrder(f"place {self.name(uid)}, not {order.get('unit')}")
            legal = self._pvo_hexes(state, uid) if stage == "pvo" else self._placement_hexes(state, uid)
            if h not in legal:
                raise IllegalOrder(f"{self.name(uid)} cannot be placed in {h} (11.1.1)")
            self._place_soviet(state, uid, h, rng, events, top)
            if stage == "pvo":
                top["stage"] = "elite"
                top["elite_left"] = self.scn.turns[state["turn"]].elite
            else:
                top.pop("elite_unit")
            return
        if stage == "minsk_ask":
            self._do_minsk_release(state, top, order, rng, events)
            return
        if stage == "escape":
            if verb == "pass":
                top["escapes"] = 0
                return
            if verb != "place":
                raise IllegalOrder("answer place UNIT HEX")
            uid, h = order.get("unit"), order.get("hex")
            if f"place {orders.short(self.scn, uid)} {h}" not in self._escapee_options(state) \
                    if uid in self.scn.units else True:
                raise IllegalOrder(f"{uid} cannot escape to {h} (11.1.3)")
            top["escapes"] -= 1
            self._place_soviet(state, uid, h, rng, events, top)
            return
        if stage == "stars":
            if verb != "stars":
                raise IllegalOrder("answer stars UNIT ...")
            units = order.get("units", [])
            stars = [u for u, x in state["units"].items() if x["where"] == "stars"]
            if len(units) != top["stars_roll"] or any(u not in stars for u in units) or len(set(units)) != len(units):
                raise IllegalOrder(f"choose {top['stars_roll']} different '*' units")
            for u in units:
                state["units"][u]["where"] = "reserve"
                self._moved(state)
            events.append(Event("'*' units to the Reserve Box: " + ", ".join(self.name(u) for u in units)))
            top["stage"] = "end"
            return
        raise IllegalOrder(f"no order expected now ({stage})")

    def _place_soviet(self, state, uid, h, rng, events, top) -> None:
        u = state["units"][uid]
        u["where"], u["hex"], u["arrives"] = "map", h, None
        self._moved(state)
        u["steps"] = self.scn.units[uid].steps
        events.append(Event(f"{self.name(uid)} placed in {h}"))
        spec = self.scn.units[uid]
        if spec.code == "*" and top is not None:
            top.setdefault("stars_placed", []).append(h)   # 11.1.1: one "*" unit per HQ
        if spec.kind == "combat" and h in state["vp"] and state["vp"][h] is None:
            self._soviet_draws_vp(state, h, rng, events)   # 11.1.1 / 16.2

    # ------------------------------------------------------- Minsk (14)
    def _minsk_german(self, state) -> list[str]:
        specs = self.scn.units
        return sorted([u for u, x in state["units"].items() if x["where"] == "minsk" and specs[u].side == GERMAN])

    def _minsk_soviet(self, state) -> list[str]:
        specs = self.scn.units
        return sorted([u for u, x in state["units"].items() if x["where"] == "minsk" and specs[u].side == SOVIET])

    def _auto_minsk(self, state, top, rng, events) -> bool:
        turn = state["turn"]
        g = self._minsk_german(state)
        if turn in MINSK_TURNS and g:
            top["stage"] = "minsk_ask"
            return False
        if turn == MINSK_FORCED_TURN:
            # 14.0: everything left comes out, no roll; Soviet remnants die
            for u in self._minsk_soviet(state):
                state["units"][u]["where"] = "removed"
                self._moved(state)
            hqs = [u for u in g if self.scn.units[u].kind == "hq"]
            top["stage"] = "escape"
            top["escapes"] = 0
            if g:
                self._release_move(state, g, events)
                if hqs:
                    state["stack"].append(_new_frame("add9a", count=len(hqs)))
            return True
        top["stage"] = "escape"
        top["escapes"] = 0
        return True

    def _release_move(self, state, units, events) -> None:
        for u in units:
            state["units"][u]["where"] = "turn_track"
            state["units"][u]["arrives"] = state["turn"]   # one that does not enter tries next turn
            self._moved(state)
        state["active"] = GERMAN
        hexes = {u: [self._entry_hex(u, released=True)] for u in units}
        events.append(Event("Released from the Minsk Pocket: " + ", ".join(self.name(u) for u in units)))
        state["stack"].append(_new_frame("move", mode="enter", entering=list(units), entry_hexes=hexes))

    def _do_minsk_release(self, state, top, order, rng, events) -> None:
        verb = order["verb"]
        if verb == "pass":
            top["stage"] = "escape"
            top["escapes"] = 0
            return
        if verb != "release":
            raise IllegalOrder("answer release UNIT ... [buy N] or pass")
        g = self._minsk_german(state)
        units = list(order.get("units", []))
        if not units or any(u not in g for u in units) or len(set(units)) != len(units):
            raise IllegalOrder("release German units that are in the Minsk Pocket")
        hqs = [u for u in units if self.scn.units[u].kind == "hq"]
        buy = int(order.get("buy", 0))
        if buy < 0 or buy > len(hqs):
            raise IllegalOrder("at most one 9th Army chit per released HQ (14.0)")
        value = 2 * len(hqs) + (len(units) - len(hqs))
        if self.options.get("minsk_chit_adds_value", True):
            value += buy   # default 21: a bought chit adds its point to the release value
        table = self.scn.minsk_escape
        col = self._minsk_column(table, value)
        die = int(table.get("die", 6))
        roll = rng.roll(die, f"Minsk Escape Table, value {value}, German d{die}")
        mod = int(table.get("drm", {}).get(str(state["turn"]), 0))
        r = max(1, min(die, roll + mod))
        cell = str(table["rows"][str(r)][col])
        escapes = int(cell.rstrip("V"))
        events.append(Event(f"Minsk escape: value {value}, d{die} {roll}{mod:+d} -> {cell} (14.0)"))
        top["stage"] = "escape"
        top["escapes"] = min(escapes, len(self._minsk_soviet(state)))
        if top["escapes"]:
            state["minsk_drm"] = True   # 14.0: only if Soviet units do get out
        if cell.endswith("V"):
            if not state["vp_box"]:
                self._win(state, SOVIET, ["Minsk escape takes a VP chit from an empty German box: immediate "
                                          "Soviet victory (14.0)"], events)
                return
            i = rng.draw(state["vp_box"], "Minsk escape: VP chit taken from the German box")
            state["vp_minsk"].append(state["vp_box"].pop(i))
            events.append(Event("Soviet takes a VP chit from the German box, unseen (14.0)"))
        self._release_move(state, units, events)
        if buy:
            state["stack"].append(_new_frame("add9a", count=buy))

    def _minsk_column(self, table, value) -> int:
        for i, c in enumerate(table["columns"]):
            lo, _, hi = str(c).partition("-")
            if c.endswith("+"):
                if value >= int(c[:-1]):
                    return i
            elif int(lo) <= value <= int(hi or lo):
                return i
        return 0 if value < 1 else len(table["columns"]) - 1

    def _escapee_options(self, state) -> list[str]:
        out = []
        b = self.board(state)
        for u in self._minsk_soviet(state):
            s = orders.short(self.scn, u)
            for h in self._placement_hexes(state, u, None, b):
                out.append(f"place {s} {h}")
        return out

    def _in_play(self, state: State, side: str) -> set[str]:
        """The chits in play this turn: played or face up in the cup, and,
        where ``side``'s secrets are held (its own program, the audit), its
        face-down chits too.  A program without them checks the public part
        and the audit the rest."""
        mine = (state["hidden"].get(side) or {}).get("chits") or {}
        return set(state["played"]) | {c for c in state["cup"] if not c.startswith(SEALED)} \
            | {c for c, _ in mine.values()}

    # ---------------------------------------------------- 9th Army chit
    def _unplayed_of_kind(self, state, side, kind) -> list[str]:
        hidden = state["hidden"].get(side) or {"chits": {}}
        secret = {c for c, _ in hidden["chits"].values()}
        return sorted(c for c, s in self.scn.chits.items() if s.side == side and s.kind == kind
                      and c not in secret and c not in state["played"] and c not in state["cup"])

    def _forced_9a(self, state, top) -> list[str]:
        """11.1.2 / 14.0 / default 20: the 9th Army chits owed go into the
        cup, as many as are still unplayed.  The three are alike (any German
        HQ, 7.2.2), so the lowest-numbered go: the answer holds no choice."""
        return self._unplayed_of_kind(state, GERMAN, "9A")[:top["count"]]

    def _ask_add9a(self, state, top) -> Decision:
        return Decision(GERMAN, "add9a", f"{top['count']} unplayed 9th Army chit(s) go into the cup, or as many "
                        "as are left (forced: 11.1.2, 14.0)", private=True)

    def _do_add9a(self, state, top, d, order, rng, events) -> None:
        if order["verb"] != "add-chit":
            raise IllegalOrder("expected add-chit")
        chits = list(order.get("chits", []))
        if len(set(chits)) != len(chits):
            raise IllegalOrder("add-chit: name each chit once")
        if len(chits) > top["count"]:
            raise IllegalOrder(f"at most {top['count']} chit(s)")
        for c in chits:
            spec = self.scn.chits.get(c)
            if spec is None or spec.kind != "9A" or c in state["played"] or c in state["cup"]:
                raise IllegalOrder(f"{c} is not an unplayed 9th Army chit")
        if state["hidden"].get(GERMAN) is not None:
            # Whoever holds the German secrets (his own program, the final
            # audit) checks that the forced answer was given.
            forced = self._forced_9a(state, top)
            if chits != forced:
                raise IllegalOrder("the 9th Army chits owed are forced (11.1.2, 14.0): add-chit "
                                   + (" ".join(forced) or "(none left)"))
        self._pop(state, top)
        state["cup"].extend(chits)
        events.append(Event(f"{len(chits)} 9th Army chit(s) go into the cup" if chits
                            else "no unplayed 9th Army chit to add"))

    # ======================================================= end of turn
    def _auto_endturn(self, state, top, rng, events) -> bool:
        b = self.board(state)
        stage = top.get("stage", "removal")
        if stage == "removal":
            for hq in seqmech.hqs_to_remove(b, GERMAN) + seqmech.hqs_to_remove(b, SOVIET):
                state["units"][hq]["where"], state["units"][hq]["hex"] = "removed", None
                self._moved(state)
                events.append(Event(f"{self.name(hq)} has no combat unit in range and is removed (12.5)"))
            top["stage"] = "directive"
            return True
        if stage == "directive":
            top["stage"] = "end"
            if state["turn"] == 6 and state["directive"] is None and self.scn.hitler_directive:
                roll = rng.roll(self.scn.hitler_die or 6, f"Hitler Directive Table, German d{self.scn.hitler_die or 6}")
                res = self.scn.hitler_directive[roll]
                events.append(Event(f"Hitler Directive: d{self.scn.hitler_die} {roll} -> {res} (15)"))
                if res == "choice":
                    top["stage"] = "choice"
                    return False
                state["directive"] = res
            return True
        if stage == "choice":
            return False
        # end of game?
        last = LAST_TURN_DISTRACTED if state["directive"] in ("distracted", "choice_distracted") else self.last_turn
        if state["turn"] >= last:
            self._final_score(state, rng, events)
            return True
        self._pop(state, top)
        state["turn"] += 1
        self._moved(state)
        state["cup"], state["played"], state["guderian_box"] = [], [], False
        state["sealed"], state["art_hexes"] = {}, []
        state["picks"], state["shown"], state["dealt"] = {}, {}, False
        for side in SIDES:
            if state["hidden"].get(side) is not None:
                state["hidden"][side]["chits"] = {}
        self._clear_activation(state)
        state["stack"].append(_new_frame("chits", done=[]))
        events.append(Event(f"Turn {state['turn']} begins"))
        if state["turn"] == 7 and state["directive"] in ("distracted", "choice_distracted"):
            mot = self._withdrawable(state)
            if len(mot) <= DISTRACTED_REMOVALS:
                for u in mot:
                    state["units"][u]["where"], state["units"][u]["hex"] = "hitler_removed", None
                    self._moved(state)
                events.append(Event(f"Hitler Distracted: {len(mot)} motorized unit(s) leave (15.2)"))
            else:
                state["stack"].append(_new_frame("distracted"))
        return True

    def _ask_endturn(self, state, top) -> Decision:
        return Decision(GERMAN, "directive", "Guderian's Choice (15.3): directive moscow or directive distracted",
                        ("directive moscow", "directive distracted"))

    def _do_endturn(self, state, top, d, order, rng, events) -> None:
        if order["verb"] != "directive" or order.get("choice") not in ("moscow", "distracted"):
            raise IllegalOrder("answer directive moscow or directive distracted")
        state["directive"] = "choice_" + order["choice"]
        top["stage"] = "end"
        events.append(Event(f"Guderian's Choice: {order['choice']}"))

    def _withdrawable(self, state) -> list[str]:
        """Default 30: German motorized combat units on the map."""
        b = self.board(state)
        return sorted([u for u in self._combat_on(b, GERMAN) if b.scn.units[u].motorized])

    def _ask_distracted(self, state, top) -> Decision:
        mot = self._withdrawable(state)
        opts, hint = _selection("withdraw", [orders.short(self.scn, u) for u in mot], DISTRACTED_REMOVALS)
        return self._lazy(state, GERMAN, "withdraw",
                          f"Hitler Distracted: remove {DISTRACTED_REMOVALS} motorized units (15.2)", opts, hint=hint)

    def _do_distracted(self, state, top, d, order, rng, events) -> None:
        units = list(order.get("units", []))
        mot = self._withdrawable(state)
        if order["verb"] != "withdraw" or len(units) != DISTRACTED_REMOVALS or len(set(units)) != len(units) \
                or any(u not in mot for u in units):
            raise IllegalOrder(f"withdraw {DISTRACTED_REMOVALS} different German motorized units on the map")
        for u in units:
            state["units"][u]["where"], state["units"][u]["hex"] = "hitler_removed", None
            self._moved(state)
        self._pop(state, top)
        events.append(Event("Hitler Distracted: " + ", ".join(self.name(u) for u in units) + " leave (15.2)"))

    def _final_score(self, state, rng, events) -> None:
        """16.3: every chit turned up, then the count."""
        g = sum(victory.resolve(state, e, rng, "end of game: German box chit value") for e in state["vp_box"])
        unc = 0
        for h, chit in sorted(state["vp"].items()):
            if chit == "down":
                unc += victory.draw_value(state, self.scn.map.victory[h], rng, f"end of game: VP chit in {h}")
            elif chit:
                unc += int(chit.split(":")[1])
        minsk = sum(victory.resolve(state, e, rng, "end of game: Minsk chit value") for e in state["vp_minsk"])
        elim = sum(1 for u, x in state["units"].items() if x["where"] == "elim_motorized")
        winner, lines = victory.score(state["directive"], g, unc, minsk, elim,
                                      minsk_doubled=bool(self.options.get("minsk_chits_doubled", True)))
        self._win(state, winner, [f"Game over after turn {state['turn']}"] + lines, events)

    # ---------------------------------------------------------- queries
    def vp_known(self, state: State) -> dict[str, int]:
        """What anyone can count now: face-up chits and box size."""
        up = sum(int(c.split(":")[1]) for c in state["vp"].values() if c and c.startswith("up:"))
        down = sum(1 for c in state["vp"].values() if c == "down")
        return {"face_up": up, "face_down": down, "box": len(state["vp_box"]), "minsk": len(state["vp_minsk"])}


# Each frame kind's question, order and automatic step (``_ask_<kind>``,
# ``_do_<kind>``, ``_auto_<kind>``), looked up by kind: the same methods a
# getattr by name finds (nothing overrides them), without building the name
# and missing the lookup for every frame with no automatic step (speed only).
_STEPS: dict[str, dict[str, Callable[..., Any]]] = {
    prefix: {name[len(prefix):]: fn for name, fn in vars(AvdRules).items() if name.startswith(prefix)}
    for prefix in ("_ask_", "_do_", "_auto_")}
