"""Property tests for the area-graph kernel (pbem.board.areagraph)."""
from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings, strategies as st

from pbem.board.areagraph import AreaGraph


@st.composite
def graphs(draw):
    n = draw(st.integers(min_value=2, max_value=12))
    areas = [str(i) for i in range(1, n + 1)]
    pairs = [(a, b) for i, a in enumerate(areas) for b in areas[i + 1:]]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    weights = {frozenset(p): draw(st.integers(min_value=1, max_value=3)) for p in chosen}
    edges = [(a, b, {"river": "R"} if weights[frozenset((a, b))] == 3 else {}) for a, b in chosen]
    return areas, edges, weights


def _bfs(areas, edges, start):
    adj = {a: set() for a in areas}
    for a, b, _ in edges:
        adj[a].add(b)
        adj[b].add(a)
    dist = {start: 0}
    q = deque([start])
    while q:
        x = q.popleft()
        for y in adj[x]:
            if y not in dist:
                dist[y] = dist[x] + 1
                q.append(y)
    return dist


@settings(max_examples=60, deadline=None)
@given(graphs())
def test_neighbors_are_symmetric_and_features_shared(g):
    areas, edges, _ = g
    graph = AreaGraph(areas, edges)
    for a in areas:
        for b in graph.neighbors(a):
            assert a in graph.neighbors(b)
            assert graph.feature(a, b, "river") == graph.feature(b, a, "river")


@settings(max_examples=60, deadline=None)
@given(graphs(), st.integers(min_value=0, max_value=6))
def test_within_matches_breadth_first_distance(g, steps):
    areas, edges, _ = g
    graph = AreaGraph(areas, edges)
    expected = {a: d for a, d in _bfs(areas, edges, "1").items() if d <= steps}
    assert graph.within("1", steps) == expected


@settings(max_examples=60, deadline=None)
@given(graphs(), st.integers(min_value=0, max_value=8))
def test_reachable_costs_are_cheapest_path_costs(g, allowance):
    areas, edges, weights = g
    graph = AreaGraph(areas, edges)
    cost = lambda a, b: weights[frozenset((a, b))]
    reach = graph.reachable("1", allowance, cost)
    for area, spent in reach.items():
        assert spent <= allowance
        found = graph.cheapest("1", area, cost)
        assert found is not None and found[0] == spent
        assert graph.path_cost(found[1], cost) == spent
    # an area outside the allowance has no path within it
    for area in areas:
        if area not in reach:
            found = graph.cheapest("1", area, cost)
            assert found is None or found[0] > allowance


@settings(max_examples=60, deadline=None)
@given(graphs(), st.sets(st.integers(min_value=1, max_value=12)))
def test_reachable_never_passes_through_a_stop_area(g, stops):
    areas, edges, weights = g
    stop = {str(s) for s in stops} - {"1"}
    graph = AreaGraph(areas, edges)
    reach = graph.reachable("1", 20, lambda a, b: 1, can_pass=lambda a: a not in stop)
    # recompute with stop areas removed: every reached non-stop area is reachable
    # without entering a stop area, and every reached stop area borders one of those
    inner = [(a, b, f) for a, b, f in edges if a not in stop and b not in stop]
    free = _bfs([a for a in areas if a not in stop], inner, "1")
    for area in reach:
        if area in stop:
            assert any(n in free for n in graph.neighbors(area))
        else:
            assert area in free


@settings(max_examples=60, deadline=None)
@given(graphs(), st.sets(st.integers(min_value=1, max_value=12)), st.sets(st.integers(min_value=1, max_value=12)))
def test_traced_lines_run_only_through_permitted_areas(g, blocked, sources):
    areas, edges, _ = g
    bad = {str(b) for b in blocked}
    src = {str(s) for s in sources} & set(areas)
    graph = AreaGraph(areas, edges)
    linked = graph.traced(src, can_enter=lambda a: a not in bad, can_start=lambda a: True)
    good_edges = [(a, b, f) for a, b, f in edges if a not in bad and b not in bad]
    good = [a for a in areas if a not in bad]
    core: set[str] = set()
    for s in src - bad:
        core |= set(_bfs(good, good_edges, s))
    assert {a for a in linked if a not in bad} == core
    for a in linked & bad:
        assert any(n in core for n in graph.neighbors(a))


def test_unknown_area_in_border_is_refused():
    with pytest.raises(ValueError, match="unknown area"):
        AreaGraph(["1", "2"], [("1", "3", {})])


def test_path_cost_refuses_non_adjacent_steps():
    graph = AreaGraph(["1", "2", "3"], [("1", "2", {"road": True}), ("2", "3", {})])
    assert graph.path_cost(["1", "2", "3"], lambda a, b: 2) == 4
    assert graph.path_cost(["1", "3"], lambda a, b: 1) is None
    assert graph.feature("2", "1", "road") is True
