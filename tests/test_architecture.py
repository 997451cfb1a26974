"""The layout shows the architecture (issue 7, item 4): the import arrows
run one way, cli -> session -> cycle -> protocol, and games -> kernel; a
game imports nothing of the protocol but the contract; no module outside a
game's rules is longer than about 400 lines; nothing outside a game's own
package names a game."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PBEM = Path(__file__).resolve().parent.parent / "pbem"
MAX_LINES = 420


def _modules() -> dict[str, Path]:  # noqa: D103
    out = {}
    for path in sorted(PBEM.rglob("*.py")):
        rel = path.relative_to(PBEM.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(path: Path, module: str) -> set[str]:
    """Every pbem module ``path`` imports, at any depth (lazy imports too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                found.add(sub if sub in MODULES else base)
    return {f for f in found if f.startswith("pbem.")}


def _layer(name: str) -> str:
    parts = name.split(".")
    if len(parts) == 1:
        return "pbem"
    if parts[1] == "games" and len(parts) > 2:
        return f"games.{parts[2]}"
    return parts[1]


# What each layer may import (besides itself).  The contract (pbem.game) and
# pbem.errors are for everyone.
MODULES = _modules()

ALLOWED = {
    "protocol": {"errors", "fsutil"},
    "board": {"errors"},
    "render": {"errors", "game", "board"},
    "game": {"errors", "protocol.commit"},
    "scenario": {"errors", "protocol.canon", "games"},
    "cycle": {"errors", "game", "protocol", "scenario", "games"},
    # The player's side of the table: his home, games, mail, contacts.
    "session": {"errors", "game", "protocol", "scenario", "cycle", "render", "mail", "fsutil", "games", "cache",
                "contacts", "credentials", "journal", "ordersfile", "prefetch"},
    "cli": {"*"},
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_run_one_way(name: str) -> None:
    layer = _layer(name)
    targets = {_layer(t) + ("." + t.split(".")[2] if t.startswith("pbem.protocol.") else "")
               for t in _imports(MODULES[name], name) if t in MODULES or t.rsplit(".", 1)[0] in MODULES}
    targets = {t for t in targets if t.split(".")[0] != layer.split(".")[0] or t.startswith("games.")}
    if layer.startswith("games."):
        own = layer
        bad = {t for t in targets if t not in ("errors", "game", "board", "scenario", own)}
        assert not bad, f"{name} (a game) imports {sorted(bad)}: a game sees only the contract and the kernel"
        return
    allowed = ALLOWED.get(layer)
    if allowed is None or "*" in allowed:
        return
    bad = {t for t in targets if t not in allowed and t.split(".")[0] not in allowed}
    assert not bad, f"{name} ({layer}) imports {sorted(bad)}"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if not n.startswith("pbem.games.")))
def test_modules_outside_the_games_stay_small(name: str) -> None:
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines: split it by job"


def test_nothing_outside_a_game_package_names_a_game() -> None:
    """Code may not name a game; docstrings may use one as an example."""
    game_ids = {p.name for p in (PBEM / "games").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    offenders = []
    for name, path in MODULES.items():
        if name.startswith("pbem.games."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                for gid in game_ids:
                    if node.value == gid or node.value.startswith(f"{gid}/") or f" {gid}/" in node.value:
                        offenders.append(f"{name}: {node.value[:40]!r}")
    assert not offenders, offenders


# ------------------------------------------------------------ the tests

TESTS = Path(__file__).resolve().parent

# Shared test helpers live in helper modules (avd_fixtures, m41help,
# enginehelp, clihelp, avahelp, vrhelp...), never in a test module.


def _imported_test_modules(path: Path) -> set[str]:
    """The ``test_*`` modules of tests/ that ``path`` imports, at any depth,
    bare (``from test_x import``) or as ``tests.test_x``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        for name in names:
            last = name.removeprefix("tests.")
            if last.startswith("test_") and "." not in last and (TESTS / f"{last}.py").exists():
                found.add(last)
    return found


def test_no_test_module_imports_another() -> None:
    """Shared helpers live in helper modules, not in test modules: a test
    module imported by another is collected twice under two roles, and its
    tests' names leak into the importer."""
    offending = sorted(f"{path.stem} imports {other}"
                       for path in sorted(TESTS.glob("test_*.py"))
                       for other in _imported_test_modules(path)
                       if other != path.stem)
    assert not offending, "move these helpers into a helper module: " + "; ".join(offending)
