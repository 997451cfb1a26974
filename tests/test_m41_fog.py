"""Moscow '41 fog of war (1.5, 10.12.1): what the public state shows, what a
reveal must prove, and a scripted practice game replayed blind from each
side's point of view."""
from __future__ import annotations

import copy
import random

import pytest

from pbem.game import IllegalOrder, public
from pbem.protocol.canon import canonical
from m41help import (RULES, SC, FakeRng, begin, empty_board, german_everywhere, play, put, salts,
                            shown, started)
from pbem.games.m41 import mechanics as mx
from m41help import view_text


def assert_public_hides_secrets(state):
    blob = canonical(public(state)).decode()
    shown = 0
    for tok, v in state["tokens"].items():
        if v["revealed"]:
            shown += 1
            continue
        block = state["hidden"][v["side"]]["blocks"][tok]["block"]
        assert f'"{block}"' not in blob, f"{tok} leaks {block}"
        assert SC.spec(block).name not in blob
    for side in ("german", "soviet"):
        for block in state["hidden"][side]["pool"]:
            if block not in state["eliminated"]["german"] + state["eliminated"]["soviet"]:
                assert f'"{block}"' not in blob, f"pool leaks {block}"
    assert blob.count('"strength":') == shown
    assert '"salt"' not in blob


def test_1_5_public_state_after_setup_hides_every_block():
    state = started()
    assert all(not v["revealed"] and "commitment" not in v for v in state["tokens"].values())
    assert RULES.hidden_width == 32 and len(RULES.hidden_items(state, "german")) == 13
    assert_public_hides_secrets(state)
    assert RULES.audit(state) == []


def _battle_fixture():
    state = empty_board()
    german_everywhere(state, "22")
    put(state, "soviet", "S-16A", "22", strength=3)
    tank = put(state, "german", "G-24PzK", "17")
    gud = put(state, "german", "G-2Pg-HQ", "17")
    begin(state, "german")
    order = {"verb": "ti", "activate": [{"token": gud, "path": []}], "moves": [{"token": tank, "path": ["22"]}]}
    order = RULES.fill_secrets(state, "german", order, salts("g"))
    state, _ = RULES.apply(copy.deepcopy(state), "german", order, FakeRng(0))
    return state


def test_10_12_1_showdown_reveal_claiming_another_strength_is_refused():
    state = _battle_fixture()
    d = RULES.pending(state)
    assert (d.side, d.kind, d.private) == ("german", "reveal", True)
    state, _ = RULES.apply(copy.deepcopy(state), "german",
                           RULES.fill_secrets(state, "german", RULES.private_answer(state, d), salts("r")), FakeRng(0))
    d = RULES.pending(state)
    assert (d.side, d.kind) == ("soviet", "reveal")
    # the core opens the committed root (pbem.cycle.hidden): a changed value opens nothing
    from pbem.cycle import hidden
    es = {"game": state, "opened": {"german": {}, "soviet": {}}, "hidden_roots": {"german": "", "soviet": ""}}
    honest = hidden.fill_openings(RULES, es, "soviet", RULES.private_answer(state, d), bytes(32), 5)
    tok = honest["open"][0]
    for key, value in (("strength", 1), ("block", "S-19A")):
        lie = copy.deepcopy(honest)
        lie["openings"][0]["value"][key] = value
        with pytest.raises(IllegalOrder, match=f"^soviet's {tok}: the opening does not match the committed hidden state$"):
            hidden.check_openings(RULES, es, "soviet", lie, None)
    hidden.check_openings(RULES, es, "soviet", honest, None)
    after, _ = RULES.apply(copy.deepcopy(state), "soviet", honest, FakeRng(0))
    assert after["tokens"].get(tok, {}).get("block", "S-16A") == "S-16A"


def test_10_12_1_blind_program_resolves_the_battle_from_reveals_alone():
    state = _battle_fixture()
    rng_log = []
    full = copy.deepcopy(state)
    blind = copy.deepcopy(state)
    blind["hidden"]["soviet"] = None
    while RULES.pending(full) and RULES.pending(full).kind == "reveal":
        d = RULES.pending(full)
        ans = shown(full, d.side, RULES.fill_secrets(full, d.side, RULES.private_answer(full, d), salts(f"r{len(rng_log)}")))
        seed = len(rng_log)
        rng_log.append(seed)
        full, _ = RULES.apply(full, d.side, ans, FakeRng(seed))
        blind, _ = RULES.apply(blind, d.side, {k: v for k, v in ans.items()
                                               if k != "secret" or d.side != "soviet"}, FakeRng(seed))
    assert canonical(public(full)) == canonical(public(blind))


# --- a scripted practice game -------------------------------------------------------------------------

def _bot_orders(state, side, rnd):
    """Candidate orders, most ambitious first, from the side's own view."""
    h = state["hidden"][side]["blocks"]
    mine = sorted(t for t, v in state["tokens"].items() if v["side"] == side and not SC.is_box(v["area"]))
    ident = {t: mx.known(state, t) for t in mine}
    hqs = [t for t in mine if SC.spec(ident[t][0]).type == "hq"]
    out = []
    for hq in hqs:
        area = state["tokens"][hq]["area"]
        for tok in mine:
            if tok == hq or state["tokens"][tok]["area"] != area:
                continue
            for n in SC.graph.neighbors(area):
                if mx.has_units(state, n, "soviet" if side == "german" else "german"):
                    out.append({"verb": "ti", "activate": [{"token": hq, "path": []}],
                                "moves": [{"token": tok, "path": [n]}]})
    rnd.shuffle(out)
    moves = []
    for tok in mine:
        for n in SC.graph.neighbors(state["tokens"][tok]["area"]):
            moves.append({"verb": "pass", "moves": [{"token": tok, "path": [n]}]})
    rnd.shuffle(moves)
    return out[:3] + moves[:6] + [{"verb": "pass"}]


def _logistics(state, side):
    pause = {"verb": "logistics", "choice": "pause"}
    if side == "soviet":
        return [pause]
    lv = mx.logistics_value(state, SC, side)
    n = min(lv, state["pool_count"][side], 1)
    return [{"verb": "logistics", "choice": "activate", "lv": lv, "reinforce": [area] * n}
            for area in SC.staging] + [pause]


def _scripted_game(decisions=40, seed=7):
    """Play with both secrets held; record (side, full order, rng seed)."""
    rnd = random.Random(seed)
    state = RULES.initial_state()
    log = []
    checked = 0
    while len(log) < decisions and RULES.pending(state) is not None:
        d = RULES.pending(state)
        if d.private or d.kind == "setup":
            candidates = [RULES.private_answer(state, d)]
        elif d.kind in ("blitz", "exploit"):
            candidates = [{"verb": d.kind}]
        elif d.kind == "losses":
            candidates = [{"verb": "losses", "token": d.options[0].split()[1]}]
        elif d.kind == "logistics":
            candidates = _logistics(state, d.side)
        else:
            candidates = _bot_orders(state, d.side, rnd)
        for cand in candidates:
            step = len(log)
            try:
                order = shown(state, d.side, RULES.fill_secrets(state, d.side, cand, salts(f"{seed}/{step}")))
                new, _ = RULES.apply(copy.deepcopy(state), d.side, order, FakeRng(step))
            except IllegalOrder:
                continue
            log.append((d.side, order, step))
            state = new
            break
        else:
            raise AssertionError(f"no legal order for {d}")
        if not state["hidden"]["german"] is None and state["phase"] == "impulse" and checked < 4:
            assert_public_hides_secrets(state)
            checked += 1
    return state, log


def _replay_blind(log, blind_to):
    """Replay as the program of the side that does not hold ``blind_to``'s
    secrets: that side's orders lose their secret part."""
    state = RULES.initial_state()
    state["hidden"][blind_to] = None
    for side, order, step in log:
        o = copy.deepcopy(order)
        if side == blind_to:
            o.pop("secret", None)
        state, _ = RULES.apply(state, side, o, FakeRng(step, blind=(blind_to,)))
    return state


def test_scripted_practice_game_replays_blind_to_the_same_public_state():
    state, log = _scripted_game()
    kinds = {o["verb"] for _, o, _ in log}
    assert {"setup", "pass", "ti", "reveal"} <= kinds
    assert RULES.audit(state) == []
    for blind_to in ("german", "soviet"):
        seen = _replay_blind(log, blind_to)
        assert seen["hidden"][blind_to] is None
        assert seen["hidden"]["german" if blind_to == "soviet" else "soviet"] is not None
        assert canonical(public(seen)) == canonical(public(state))


def test_notation_round_trip():
    texts = ["pass", "pass; move G05 12 13", "ti; activate G03 9; move G05 13 14; dl G07; art G03 13; fight 17",
             "si A; move G05 13", "si B; reinforce 9A 4A", "logistics pause", "exploit no", "exploit; move G05 13",
             "logistics activate; regen G03 2; replace G05 1; reinforce 22 37"]
    for text in texts:
        order = RULES.parse(text, started(), "german")
        assert RULES.format(order) == text
    with pytest.raises(IllegalOrder):
        RULES.parse("charge G05", started(), "german")


def _hidden_names(state, side):
    """Block ids and names of ``side``'s tokens the opponent may not see."""
    out = []
    for tok, v in state["tokens"].items():
        if v["side"] == side and not v["revealed"]:
            block = state["hidden"][side]["blocks"][tok]["block"]
            out += [block, SC.spec(block).name]
    return out


def test_1_5_each_sitrep_shows_own_blocks_and_only_positions_and_colours_of_the_enemy():
    state = started()
    texts = {s: view_text(state, s) for s in ("german", "soviet")}
    wide = {s: view_text(state, s, width=400) for s in ("german", "soviet")}     # no cell wraps: no split names
    for side, enemy in (("german", "soviet"), ("soviet", "german")):
        secret = _hidden_names(state, enemy)
        assert secret and not [w for w in secret if w in texts[side] or w in wide[side]]
        assert all(w in wide[enemy] for w in _hidden_names(state, enemy))      # the owner sees them all
        for tok, v in state["tokens"].items():
            if v["side"] == enemy and v["area"]:
                assert f"{tok} ({v['colour']})" in texts[side]
    public_text = view_text(state, None)
    assert not [w for s in ("german", "soviet") for w in _hidden_names(state, s) if w in public_text]


def test_1_5_revealed_strength_shows_until_a_secret_change_hides_it():
    state = empty_board(side="soviet")
    german_everywhere(state, "22", "28", "33", "38")
    tok = put(state, "soviet", "S-16A", "22", strength=3)
    state["tokens"][tok].update(revealed=True, block="S-16A", strength=3)     # seen in a battle
    begin(state, "soviet")
    assert "S-16A 16th Army:3" in view_text(state, "german")
    after, _ = play(state, "soviet", {"verb": "pass", "dl": [tok]}, FakeRng(0))
    german, anyone = view_text(after, "german", width=400), view_text(after, None)
    assert "S-16A" not in anyone and "16th Army" not in anyone and f"{tok} (red)" in anyone
    assert "S-16A" not in german and f"{tok} (red) seen at turn 1 impulse" in german      # only his own note
    assert "16th Army, strength 3 (may be out of date)" in german
    assert "[S-16A 16th Army:2]" in view_text(after, "soviet")
