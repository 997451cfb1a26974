"""Map sheets joined along seams (pbem.board.multimap): one grid behaves as
its HexGrid, adjacency is symmetric, distance is the fewest steps along the
joined board, and the AVA campaign's inferred seam (notes §5.4) joins
Smolensk row 30 to Kiev row 01."""
from __future__ import annotations

from collections import deque

import pytest
from hypothesis import assume, given, settings, strategies as st

from pbem.board.hexgrid import OFFSETS, HexGrid
from pbem.board.multimap import MultiMap, Seam, join, map_of, seams_from_table, split

FAST = settings(max_examples=120, deadline=None)
LATTICE = HexGrid(0, 99, 0, 99, "odd-q")


@st.composite
def grids(draw, offsets: tuple[str, ...] = OFFSETS) -> HexGrid:
    c0, r0 = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    return HexGrid(c0, c0 + draw(st.integers(0, 6)), r0, r0 + draw(st.integers(0, 6)),
                   draw(st.sampled_from(offsets)))


def expected_seam_edges(board: MultiMap) -> set[frozenset[str]]:
    """Cross-map neighbours by the seam's definition, worked out hex pair by
    hex pair: a lower hex touches an upper row hex when, moved into the
    upper map's numbering, the two would be neighbours on an endless sheet."""
    out: set[frozenset[str]] = set()
    for s in board.seams:
        up, lo = board.grids[s.upper], board.grids[s.lower]
        sheet = HexGrid(0, 99, 0, 99, up.offset)
        first, last = s.cols or (0, 99)
        for a in up.hexes():
            ca, ra = up.col_row(a)
            for b in lo.hexes():
                cb, rb = lo.col_row(b)
                moved = (cb + s.shift, rb + s.upper_row + 1 - s.lower_row)
                if ra != s.upper_row or rb != s.lower_row or not (first <= ca <= last and first <= moved[0] <= last):
                    continue
                if 0 <= moved[0] <= 99 and sheet.adjacent(a, sheet.hex_id(*moved)):
                    out.add(frozenset((join(s.upper, a), join(s.lower, b))))
    out |= {frozenset(p) for p in board.pairs}
    return out


def reference_distance(board: MultiMap, a: str, b: str) -> int | None:
    """Breadth-first steps over each grid's own neighbours plus the
    expected seam edges."""
    extra: dict[str, set[str]] = {}
    for e in expected_seam_edges(board):
        x, y = sorted(e)
        extra.setdefault(x, set()).add(y)
        extra.setdefault(y, set()).add(x)
    seen, todo = {a: 0}, deque([a])
    while todo:
        h = todo.popleft()
        if h == b:
            return seen[h]
        p, local = split(h)
        for n in [join(p, x) for x in board.grids[p].neighbors(local)] + sorted(extra.get(h, ())):
            if n not in seen:
                seen[n] = seen[h] + 1
                todo.append(n)
    return None


@st.composite
def boards(draw, *, with_pairs: bool = True) -> MultiMap:
    """Two or three maps, each joined below an earlier one along a row (a
    tree of row seams), sometimes with explicit extra pairs."""
    flat = draw(st.booleans())
    offsets = ("odd-q", "even-q") if flat else ("odd-r", "even-r")
    prefixes = ["A", "B", "C"][:draw(st.integers(2, 3))]
    gs = {p: draw(grids(offsets)) for p in prefixes}
    seams = []
    for i, p in enumerate(prefixes[1:], 1):
        upper = prefixes[draw(st.integers(0, i - 1))]
        up, lo = gs[upper], gs[p]
        cols = draw(st.one_of(st.none(), st.tuples(st.integers(0, 12), st.integers(6, 20))))
        seams.append(Seam(upper, p, draw(st.integers(up.first_row, up.last_row)),
                          draw(st.integers(lo.first_row, lo.last_row)), cols, draw(st.integers(-3, 3))))
    pairs = []
    if with_pairs and draw(st.booleans()):
        every = [join(p, h) for p, g in gs.items() for h in g.hexes()]
        for _ in range(draw(st.integers(1, 2))):
            a, b = draw(st.sampled_from(every)), draw(st.sampled_from(every))
            if a != b:
                pairs.append((a, b))
    try:
        return MultiMap(gs, seams, pairs)
    except ValueError as exc:
        assume("stagger differently" not in str(exc))
        raise


@st.composite
def board_and_hexes(draw, n: int, **kw: bool):
    board = draw(boards(**kw))
    hs = board.hexes()
    return board, [draw(st.sampled_from(hs)) for _ in range(n)]


# ----------------------------------------------------------- one map = its grid
@FAST
@given(grids(), st.sampled_from(["", "X"]), st.data())
def test_one_map_answers_exactly_as_its_grid(g, prefix, data):
    board = MultiMap({prefix: g})
    hs = g.hexes()
    assert board.hexes() == [join(prefix, h) for h in hs] and len(board) == len(g)
    a, b = data.draw(st.sampled_from(hs)), data.draw(st.sampled_from(hs))
    pa, pb = join(prefix, a), join(prefix, b)
    assert pa in board and board.check(pa) == pa
    assert board.neighbors(pa) == [join(prefix, n) for n in g.neighbors(a)]
    assert board.adjacent(pa, pb) == g.adjacent(a, b)
    assert board.distance(pa, pb) == g.distance(a, b)
    r = data.draw(st.integers(0, 4))
    assert board.within(pa, r) == sorted(join(prefix, n) for n in g.within(a, r))
    assert board.by_distance(pa) == {d: tuple(sorted(join(prefix, n) for n in ring))
                                     for d, ring in g.by_distance(a).items()}
    assert board.hex_id(*board.col_row(pa)) == pa
    assert (board.first_col, board.last_col, board.first_row, board.last_row, board.offset) == \
        (g.first_col, g.last_col, g.first_row, g.last_row, g.offset)
    off = g.hex_id(g.last_col + 1, g.last_row) if g.last_col < 99 else g.hex_id(g.first_col - 1, g.first_row)
    assert (join(prefix, off) in board) is False
    with pytest.raises(ValueError, match="off the map"):
        board.check(join(prefix, off))


def test_plain_ids_on_an_unprefixed_map_fail_as_the_grid_fails():
    g = HexGrid(1, 10, 1, 10, "odd-q")
    board = MultiMap({"": g})
    for bad in ("123", "ab12", "S:0101"):
        assert bad not in board
        with pytest.raises(ValueError):
            board.check(bad)


# ------------------------------------------------------------- joined boards
@FAST
@given(board_and_hexes(2))
def test_adjacency_is_symmetric_and_matches_the_neighbour_lists(bh):
    board, (a, b) = bh
    assert board.adjacent(a, b) == board.adjacent(b, a) == (b in board.neighbors(a)) == (a in board.neighbors(b))
    ns = board.neighbors(a)
    assert len(ns) == len(set(ns)) and a not in ns


@FAST
@given(boards())
def test_seam_neighbours_are_the_seam_definition(board):
    got = {frozenset((a, n)) for a in board.hexes() for n in board.neighbors(a) if map_of(a) != map_of(n)}
    want = {e for e in expected_seam_edges(board) if len({map_of(h) for h in e}) == 2}
    assert got == want


@FAST
@given(board_and_hexes(2))
def test_distance_is_the_fewest_steps_on_the_joined_board(bh):
    board, (a, b) = bh
    want = reference_distance(board, a, b)
    if want is None:
        with pytest.raises(ValueError, match="no seam joins"):
            board.distance(a, b)
    else:
        assert board.distance(a, b) == board.distance(b, a) == want
        assert (want == 0) == (a == b) and (want == 1) == board.adjacent(a, b)


@FAST
@given(board_and_hexes(3))
def test_distance_triangle_inequality(bh):
    board, (a, b, c) = bh
    try:
        ab, bc = board.distance(a, b), board.distance(b, c)
    except ValueError:
        return
    assert board.distance(a, c) <= ab + bc


@FAST
@given(board_and_hexes(1), st.integers(0, 5))
def test_within_and_rings_agree_with_distance(bh, r):
    board, (h,) = bh
    rings = board.by_distance(h)
    assert rings[0] == (h,)
    for d, ring in rings.items():
        assert list(ring) == sorted(ring) and all(board.distance(h, x) == d for x in ring)
    assert board.within(h, r) == sorted(x for d, ring in rings.items() if 0 < d <= r for x in ring)


@FAST
@given(board_and_hexes(2, with_pairs=False))
def test_a_tree_of_row_seams_keeps_each_map_its_own_distance(bh):
    """With row seams only, no way through another sheet is shorter than
    the map's own hex distance (the fast path's premise)."""
    board, (a, b) = bh
    if map_of(a) == map_of(b):
        grid = board.grids[map_of(a)]
        assert reference_distance(board, a, b) == grid.distance(split(a)[1], split(b)[1])


def test_a_shortcut_pair_shortens_a_maps_own_distance():
    g = HexGrid(1, 20, 1, 5, "odd-q")
    board = MultiMap({"A": g, "B": HexGrid(1, 2, 1, 2, "odd-q")}, pairs=[("A:0103", "B:0101"), ("B:0101", "A:2003")])
    assert g.distance("0103", "2003") == 19
    assert board.distance("A:0103", "A:2003") == 2
    assert board.adjacent("B:0101", "A:0103") and "B:0101" in board.neighbors("A:2003")


# ---------------------------------------------------------------- AVA campaign
def campaign_board() -> MultiMap:
    seams, pairs = seams_from_table({"L-S": {"rows": [30, 1]}, "S-K": {"rows": [30, 1]}})
    return MultiMap({p: HexGrid(1, 55, 1, 30, "odd-q") for p in "LSK"}, seams, pairs)


def test_ava_5_4_kiev_row_01_continues_smolensk_row_30():
    """Notes §5.4 / 18.2: 2730 touches 2701 and 2801, 2801 touches 2830 and
    2930, 2930 touches 2901 across the Smolensk-Kiev seam."""
    board = campaign_board()
    for a, b in [("S:2730", "K:2701"), ("S:2730", "K:2801"), ("S:2830", "K:2801"),
                 ("S:2930", "K:2801"), ("S:2930", "K:2901")]:
        assert board.adjacent(a, b) and board.adjacent(b, a)
    assert set(board.neighbors("K:2801")) == {"K:2802", "K:2701", "K:2901", "S:2730", "S:2830", "S:2930"}
    assert not board.adjacent("S:2801", "K:2830")            # the far ends of the sheets
    assert not board.adjacent("S:2730", "L:2701")
    assert board.adjacent("L:4030", "S:4001")
    assert board.distance("S:2728", "K:2703") == 5
    assert board.distance("L:3602", "K:3507") == 66          # 65 rows down and a column across
    assert board.distance("S:4112", "S:4130") == 18


def test_seams_from_table_reads_rows_cols_shift_and_pairs():
    seams, pairs = seams_from_table({"S-K": {"rows": [30, 1], "cols": [20, 40], "shift": 2},
                                     "pairs": ["S:5530|K:5601"]})
    assert seams == [Seam("S", "K", 30, 1, (20, 40), 2)] and pairs == [("S:5530", "K:5601")]
    for bad in ({"SK": {"rows": [30, 1]}}, {"S-K": {"row": [30, 1]}}, {"S-K": {"rows": ["30", 1]}},
                {"pairs": ["S:5530K:5601"]}):
        with pytest.raises(ValueError):
            seams_from_table(bad)


def test_bad_boards_are_refused_in_one_line():
    g = HexGrid(1, 10, 1, 10, "odd-q")
    cases = [({"S": g}, [Seam("S", "K", 10, 1)], "no map 'K'"),
             ({"S": g, "K": g}, [Seam("S", "K", 11, 1)], "not a row of map S"),
             ({"S": g, "K": g}, [Seam("S", "K", 10, 1, shift=1)], "stagger differently"),
             ({"S": g, "K": HexGrid(1, 10, 1, 10, "odd-r")}, [Seam("S", "K", 10, 1)], "flat-topped"),
             ({"S": g, "K": g}, [Seam("S", "S", 10, 1)], "cannot continue itself"),
             ({"S:": g}, [], "bad map prefix")]
    for gs, seams, msg in cases:
        with pytest.raises(ValueError, match=msg):
            MultiMap(gs, seams)
    with pytest.raises(ValueError, match="off the map"):
        MultiMap({"S": g, "K": g}, pairs=[("S:0110", "K:0111")])
    board = MultiMap({"S": g, "K": g})
    with pytest.raises(ValueError, match="names no map"):
        board.check("X:0101")
    with pytest.raises(ValueError, match="names no map"):
        board.neighbors("0101")
    assert "X:0101" not in board and 4112 not in board
    with pytest.raises(ValueError, match="no seam joins"):
        board.distance("S:0101", "K:0101")
    assert set(board.by_distance("S:0101")[1]) == {"S:0102", "S:0201", "S:0202"}
    assert board.col_row("K:0307") == (3, 7)
    with pytest.raises(ValueError, match="draw each map's grid"):
        board.hex_id(1, 1)
    with pytest.raises(ValueError, match="no single grid"):
        board.first_col


def test_split_join_and_map_of():
    assert split("S:4112") == ("S", "4112") and split("4112") == ("", "4112")
    assert join("K", "3507") == "K:3507" and join("", "3507") == "3507"
    assert map_of("L:3602") == "L" and map_of("3602") == ""
