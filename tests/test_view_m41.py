"""Moscow '41: what each seat's view shows (1.5 fog of war), drawn by
pbem.render.view from the data the rules return.  Every hidden block name
of the other side is searched for in the text, as test_m41_file_secrecy
does for the files."""
from __future__ import annotations

import copy

from rich.console import Console

from pbem.game import TableBlock
from pbem.render.view import render_rich, render_text
from m41help import RULES, FakeRng, play, started
from m41help import hidden_blocks as _hidden
from m41help import seen_blocks as _seen

SEATS = ("german", "soviet", None)


def _texts(view) -> list[str]:
    out = [render_text(view), render_text(view, width=40)]
    for width in (120, 400):
        console = Console(record=True, width=width, color_system=None)
        console.print(render_rich(view))
        out.append(console.export_text())
    return out


def _assert_secret(state) -> int:
    checked = 0
    for seat in SEATS:
        texts = _texts(RULES.view(state, seat))
        seen = _seen(state, seat)
        for side in ("german", "soviet"):
            if side == seat:
                continue
            words = {w for ws in _hidden(state, side).values() for w in ws} - seen
            checked += len(words)
            leaks = [w for w in words for t in texts if w in t]
            assert not leaks, (seat, side, leaks)
    return checked


def test_every_seat_and_the_public_see_the_areas_and_the_counts():
    state = started()
    for seat in SEATS:
        view = RULES.view(state, seat)
        assert view.practice and isinstance(view.blocks[0], TableBlock)
        text = render_text(view)
        assert text.startswith("Moscow '41 - turn 1 (July)") and "PRACTICE DATA" in text.splitlines()[3]
        for want in ("12 Smolensk", "german", "22 Vyazma", "S02", "VP: german", "Leaders:",
                     "Pools:", "Bombers ready:", "Soviet blocks surrendered"):
            assert want in " ".join(text.split()), (seat, want)


def test_1_5_own_blocks_by_name_the_enemys_only_as_tokens_and_colours():
    state = started()
    for seat, enemy in (("german", "soviet"), ("soviet", "german")):
        wide = _texts(RULES.view(state, seat))[3]
        assert all(w in wide for ws in _hidden(state, seat).values() for w in ws)     # the owner sees his own
        for tok, v in state["tokens"].items():
            if v["side"] == enemy and v["area"]:
                assert f"{tok} ({v['colour']})" in wide
    assert _assert_secret(state)


def test_a_view_depends_on_no_hidden_part_but_the_seats_own():
    state = started()
    for seat in SEATS:
        blind = copy.deepcopy(state)
        blind["hidden"] = {s: (h if s == seat else None) for s, h in blind["hidden"].items()}
        assert RULES.view(state, seat) == RULES.view(blind, seat)


def test_1_5_no_view_names_a_hidden_enemy_block_through_the_opening_impulses():
    state, rng = started(), FakeRng(7)
    checked = battles = 0
    for _ in range(40):
        d = RULES.pending(state)
        if d is None:
            break
        order = RULES.demo_order(state, d)
        if isinstance(order, str):
            order = RULES.parse(order, state, d.side)
        state, _ = play(state, d.side, order, rng)
        battles += any(v["revealed"] for v in state["tokens"].values())
        checked += _assert_secret(state)
    assert checked and battles, "the opening should reveal some blocks"
