"""Duel: a tiny game of our own that exercises every part of the protocol
without depending on any real game's rules.  Test fixture only.

Each round both sides secretly pick a number 1..3 (hidden, committed), the
attacker rolls a d6 (dice), the defender chooses "block" or "dodge" (a
non-active decision a standing order can answer), then both picks are
revealed (private decisions answered by each side's own program) and the
defender loses ``max(0, roll - (2 if block else 0)) + max(0, attacker pick -
defender pick)`` hit points, with a dodge taking nothing on a roll of 1-3.
"""
from __future__ import annotations

from pbem.game import BaseGame, BaseRules, TextBlock, View

from typing import Any

from pbem.game import Decision, Event, IllegalOrder, ScenarioError
from pbem.game import check_commitment as check, commit

SIDES = ("red", "blue")


def other(side: str) -> str:
    return "blue" if side == "red" else "red"


class DuelRules(BaseRules):
    def __init__(self, scenario: dict[str, Any], options: dict[str, Any]) -> None:
        try:
            self.hp = int(scenario["duel"]["hp"])
            self.rounds = int(scenario["duel"]["rounds"])
        except (KeyError, TypeError, ValueError):
            raise ScenarioError("duel scenario needs [duel] hp and rounds") from None
        self.options = options

    def initial_state(self) -> dict[str, Any]:
        # Option forced_toss: the game opens with a die the rules force (a
        # first decision no player makes, as a plug-in game may have).
        opening = {"step": "toss", "toss": None} if self.options.get("forced_toss") else {}
        return {
            **opening,
            "round": 1, "attacker": "red", "step": opening.get("step", "pick-red"), "hp": {s: self.hp for s in SIDES},
            "roll": None, "defense": None, "commit": {s: None for s in SIDES},
            "revealed": {s: None for s in SIDES},
            "hidden": {s: {"pick": None, "salt": None} for s in SIDES},
        }

    def pending(self, st: dict[str, Any]) -> Decision | None:
        step = st["step"]
        if step == "over":
            return None
        if step == "toss":
            return Decision("red", "toss", "the opening toss", ("toss",), forced=True)
        if step.startswith("pick-"):
            side = step[5:]
            picks = ("pick 1", "pick 2", "pick 3")
            return Decision(side, "pick", f"{side}: pick 1, 2 or 3 in secret",
                            (("pick N",) if self.options.get("pattern_option") else ()) + picks)
        if step == "attack":
            # One option, but the attacker's own order unless the rule
            # option says the rules force it: a lone option is not a forced
            # decision (the contract's Decision.forced).
            return Decision(st["attacker"], "attack", "roll the attack", ("attack",),
                            forced=bool(self.options.get("forced_attack")),
                            plannable=bool(self.options.get("plannable_attack")))
        if step == "defend":
            side = other(st["attacker"])
            return Decision(side, "defend", f"{side}: block or dodge", ("defend block", "defend dodge"), policy="defense")
        side = step[7:]
        return Decision(side, "reveal", f"{side} reveals the pick", private=True)

    def apply(self, st: dict[str, Any], side: str, order: dict[str, Any], rng: Any) -> tuple[dict[str, Any], list[Event]]:
        d = self.pending(st)
        if d is None or d.side != side:
            raise IllegalOrder("not your decision")
        verb = order.get("verb")
        if verb != d.kind:
            raise IllegalOrder(f"expected {d.kind}, got {verb}")
        return getattr(self, "_" + verb)(st, side, order, rng)

    def _pick(self, st, side, order, rng):
        value = order.get("commitment")
        if not isinstance(value, str):
            raise IllegalOrder("pick needs a commitment")
        if st["hidden"][side] is not None:
            secret = order.get("secret") or {}
            if secret.get("pick") not in (1, 2, 3) or not check({"pick": secret.get("pick")}, bytes.fromhex(secret.get("salt", "")), value):
                raise IllegalOrder("pick: secret does not match its commitment")
            st["hidden"][side] = {"pick": secret["pick"], "salt": secret["salt"]}
        st["commit"][side] = value
        st["step"] = "pick-blue" if side == "red" else "attack"
        return st, [Event(f"{side} picks in secret")]

    def _toss(self, st, side, order, rng):
        st["toss"] = rng.roll(6, "opening toss d6")
        st["step"] = "pick-red"
        return st, [Event(f"the opening toss: {st['toss']}")]

    def _attack(self, st, side, order, rng):
        st["roll"] = rng.roll(6, f"round {st['round']}, {side} attack d6")
        st["step"] = "defend"
        return st, [Event(f"{side} attacks: rolls {st['roll']}")]

    def _defend(self, st, side, order, rng):
        if order.get("how") not in ("block", "dodge"):
            raise IllegalOrder("defend block or defend dodge")
        st["defense"] = order["how"]
        st["step"] = "reveal-red"
        return st, [Event(f"{side} chooses to {order['how']}")]

    def _reveal(self, st, side, order, rng):
        pick, salt = order.get("pick"), order.get("salt", "")
        try:
            ok = check({"pick": pick}, bytes.fromhex(salt), st["commit"][side])
        except ValueError:
            ok = False
        if not ok:
            raise IllegalOrder(f"{side}'s revealed pick does not match its commitment")
        st["revealed"][side] = pick
        if side == "red":
            st["step"] = "reveal-blue"
            return st, [Event(f"red reveals {pick}")]
        return self._resolve(st, [Event(f"blue reveals {pick}")])

    def _resolve(self, st, events):
        att, dfn = st["attacker"], other(st["attacker"])
        roll = st["roll"]
        hit = max(0, roll - 2) if st["defense"] == "block" else (roll if roll >= 4 else 0)
        hit += max(0, st["revealed"][att] - st["revealed"][dfn])
        st["hp"][dfn] -= hit
        events.append(Event(f"{dfn} loses {hit} hp, {st['hp'][dfn]} left"))
        st["round"] += 1
        if st["hp"][dfn] <= 0 or st["round"] > self.rounds:
            st["step"] = "over"
        else:
            st["attacker"] = dfn
            st["step"] = "pick-red"
        st.update(roll=None, defense=None, commit={s: None for s in SIDES}, revealed={s: None for s in SIDES})
        for s in SIDES:
            if st["hidden"][s] is not None:
                st["hidden"][s] = {"pick": None, "salt": None}
        return st, events

    def parse(self, text: str, st: dict[str, Any], side: str) -> dict[str, Any]:
        words = text.split()
        if not words:
            raise IllegalOrder("empty order")
        if words[0] == "pick" and len(words) == 2 and words[1] in "123":
            return {"verb": "pick", "pick": int(words[1])}
        if words == ["attack"]:
            return {"verb": "attack"}
        if words == ["toss"]:
            return {"verb": "toss"}
        if words[0] == "defend" and len(words) == 2:
            return {"verb": "defend", "how": words[1]}
        raise IllegalOrder(f"cannot read {text!r}: orders are pick N, attack, defend block|dodge")

    def fill_secrets(self, st, side, order, new_salt):
        if order.get("verb") != "pick" or "secret" in order:
            return order
        salt = new_salt()
        pick = order["pick"]
        return {"verb": "pick", "commitment": commit({"pick": pick}, salt), "secret": {"pick": pick, "salt": salt.hex()}}

    def format(self, order: dict[str, Any]) -> str:
        verb = order.get("verb")
        if verb == "pick":
            return "pick (secret)"
        if verb == "defend":
            return f"defend {order['how']}"
        if verb == "reveal":
            return f"reveal {order['pick']}"
        return str(verb)

    def standing_answer(self, st, decision, policies):
        how = policies.get("defense")
        if decision.kind == "defend" and how in ("block", "dodge"):
            return {"verb": "defend", "how": how}
        return None

    def private_answer(self, st, decision):
        h = st["hidden"][decision.side]
        return {"verb": "reveal", "pick": h["pick"], "salt": h["salt"]}

    def query(self, st, side, text):
        if text.strip() == "hp":
            return f"red {st['hp']['red']}, blue {st['hp']['blue']}"
        raise IllegalOrder("the only question is: hp")

    def result(self, st):
        if st["step"] != "over":
            return None
        r, b = st["hp"]["red"], st["hp"]["blue"]
        return "draw" if r == b else ("red wins" if r > b else "blue wins")

    def view(self, st, seat):
        return View("Duel", (TextBlock("hit points", (
            f"Duel round {st['round']}: red {st['hp']['red']} hp, blue {st['hp']['blue']} hp",)),))


class DuelGame(BaseGame):
    id = "duel"
    title = "Duel (protocol test game)"
    sides = SIDES

    def check_scenario(self, data):
        return [] if "duel" in data else ["duel: the [duel] table is missing"]

    def options(self):
        return {"forced_attack": (False, "the attack is forced: the program rolls it without asking"),
                "plannable_attack": (False, "the attack may be given as a plan (sealed dice)"),
                "forced_toss": (False, "the game opens with a forced die (a first decision no player makes)"),
                "pattern_option": (False, "the pick lists its pattern first, as movement lists `move UNIT HEX`")}

    def policy_kinds(self):
        return {"defense": "block | dodge: answer every defend decision"}

    def rules(self, scenario, options):
        return DuelRules(scenario, options)


GAME = DuelGame()
