"""Mutation check of the rule core (issue 9 item 20).  Not a CI step.

Changes one thing at a time in the rule core -- the board kernel
(``pbem/board/*.py``), A Victory Denied's combat (``pbem/games/avd/combat.py``),
Moscow '41's mechanics (``pbem/games/m41/mechanics.py``), the *Fierce Fight!*
family's combat and movement (``pbem/games/ava/combat.py``, ``movement.py``)
and Victory Roads' combat (``pbem/games/vr/combat.py``, ``seq_battle.py``) --
and runs the tests that execute the changed line.  A mutant the tests do not notice
*survives*: either it is equivalent (it cannot change what the rules do;
listed with the reason in ``benchmarks/MUTANTS-EQUIVALENT.md``) or a rule
lacks a test.

Operators (each applied alone):

* ``cmp``    comparison flips: ``<``/``<=``, ``>``/``>=``, ``==``/``!=``,
             ``in``/``not in``, ``is``/``is not``;
* ``int``    an integer constant plus one and minus one;
* ``bool``   ``and`` <-> ``or``;
* ``raise``  a ``raise ...`` statement deleted (``pass``);
* ``not``    the condition of an ``if``, ``elif``, ``while`` or a
             conditional expression negated.

How it runs: one coverage pass over each module's test subset records which
test executes which line (``coverage`` must be installed); then each mutant
is written into a private copy of the ``pbem`` package (first on
``PYTHONPATH``; the checkout itself is never touched) and only the tests
covering its line run, fastest first, stopping at the first failure.  A
mutant on a line no test executes survives without a run ("uncovered").

Run it in a throw-away worktree and venv (the tests are read from the
current directory)::

    git -C /work/main worktree add /tmp/mutwt HEAD
    python3 -m venv /tmp/mutvenv && . /tmp/mutvenv/bin/activate
    pip install -q -e '/tmp/mutwt[test]' coverage
    cd /tmp/mutwt && python benchmarks/mutation.py --out /tmp/mutation.json

``--coverage DIR`` saves the coverage pass (or reuses it: same commit and
tests only), ``--module pbem/board/odds.py`` (repeatable) limits the run, ``--limit-minutes``
stops it cleanly (the mutants not run are reported as such),
``--list`` only lists the mutants.

The AVA/FFS and VR test sets hold whole scripted games: their coverage pass
takes a quarter of an hour on a busy machine and a survivor runs up to
``MOST`` slow covering tests, minutes each.  Two options make a quick loop:
``--against tests/FILE.py`` (repeatable) skips coverage and runs every
selected mutant against those files only (a screen with the module's own
tests; with ``--confirm`` a survivor is run again in a fresh interpreter,
which also catches module constants copied by ``from m import CONST``), and
``--survivors-of OLD.json`` selects the mutants an earlier run left alive,
e.g. to see whether new tests kill them::

    python benchmarks/mutation.py --module pbem/games/vr/combat.py \\
        --against tests/test_vr_examples.py --confirm --out /tmp/screen.json
    python benchmarks/mutation.py --module pbem/games/vr/combat.py --survivors-of /tmp/screen.json \\
        --against tests/test_mut_vr_combat.py --confirm --out /tmp/after.json

The summary counts killed, survived and
equivalent mutants and prints each survivor not known to be equivalent, as
``path:line:col op`` with the changed line.
"""
from __future__ import annotations

import argparse
import ast
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tokenize
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT_FILE = ROOT / "benchmarks" / "MUTANTS-EQUIVALENT.md"

BOARD_TESTS = ["tests/test_board_*.py", "tests/test_speed_hexgrid.py"]
AVD_TESTS = ["tests/test_avd_*.py", "tests/test_view_avd.py"]
M41_TESTS = ["tests/test_m41_*.py", "tests/test_view_m41.py"]
AVA_TESTS = ["tests/test_ava_*.py", "tests/test_ffs_*.py", "tests/test_mut_ava_*.py"]
VR_TESTS = ["tests/test_vr_*.py", "tests/test_mut_vr_*.py"]

# module -> the test files that may reach it (coverage narrows this per line).
TARGETS: dict[str, list[str]] = {
    "pbem/board/odds.py": BOARD_TESTS + AVD_TESTS,
    "pbem/games/avd/combat.py": AVD_TESTS,
    "pbem/games/m41/mechanics.py": M41_TESTS,
    "pbem/board/retreat.py": BOARD_TESTS + AVD_TESTS,
    "pbem/board/supply.py": BOARD_TESTS + AVD_TESTS + M41_TESTS,
    "pbem/board/movement.py": BOARD_TESTS + AVD_TESTS,
    "pbem/board/areagraph.py": BOARD_TESTS + M41_TESTS,
    "pbem/board/hexgrid.py": BOARD_TESTS + AVD_TESTS,
    "pbem/games/ava/combat.py": AVA_TESTS,
    "pbem/games/ava/movement.py": AVA_TESTS,
    "pbem/games/vr/combat.py": VR_TESTS,
    "pbem/games/vr/seq_battle.py": VR_TESTS,
}

FIRST = 10     # covering tests run first, fastest first; the rest only if the mutant survives them
MOST = 120     # at most this many covering tests per mutant (own tests first, then fastest): see --all-tests

CMP_FLIP = {ast.Lt: "<=", ast.LtE: "<", ast.Gt: ">=", ast.GtE: ">", ast.Eq: "!=", ast.NotEq: "==",
            ast.In: "not in", ast.NotIn: "in", ast.Is: "is not", ast.IsNot: "is"}


@dataclass
class Mutant:
    path: str
    line: int
    col: int
    op: str             # cmp / int / bool / raise / not
    change: str         # e.g. "< -> <=", "3 -> 4"
    start: int          # character offsets into the source
    end: int
    new: str
    source_line: str = ""
    status: str = "pending"       # killed / survived / uncovered / timeout / error / not run
    tests_run: int = 0
    seconds: float = 0.0
    killer: str = ""

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}:{self.col} {self.op} {self.change}"


# ------------------------------------------------------------------ mutants

class _Offsets:
    """(line, utf-8 byte column) -> character offset into the text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.starts = [0]
        for ln in self.lines:
            self.starts.append(self.starts[-1] + len(ln))

    def at(self, line: int, byte_col: int) -> int:
        raw = self.lines[line - 1].encode("utf-8")
        return self.starts[line - 1] + len(raw[:byte_col].decode("utf-8"))

    def node(self, n: ast.AST) -> tuple[int, int]:
        return self.at(n.lineno, n.col_offset), self.at(n.end_lineno, n.end_col_offset)

    def line_col(self, offset: int) -> tuple[int, int]:
        import bisect
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i]


def _tokens(text: str, off: _Offsets) -> list[tuple[int, int, str]]:
    out = []
    for t in tokenize.generate_tokens(io.StringIO(text).readline):
        if t.type in (tokenize.OP, tokenize.NAME):
            s = off.starts[t.start[0] - 1] + t.start[1]
            e = off.starts[t.end[0] - 1] + t.end[1]
            out.append((s, e, t.string))
    return out


def _between(tokens, lo: int, hi: int, words: set[str]) -> list[tuple[int, int, str]]:
    return [t for t in tokens if lo <= t[0] and t[1] <= hi and t[2] in words]


def mutants_of(path: str, text: str) -> list[Mutant]:
    tree = ast.parse(text)
    off = _Offsets(text)
    toks = _tokens(text, off)
    docstrings = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and n.body:
            first = n.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    found: list[Mutant] = []

    def add(op: str, change: str, start: int, end: int, new: str) -> None:
        line, col = off.line_col(start)
        found.append(Mutant(path, line, col, op, change, start, end, new,
                            off.lines[line - 1].strip()))

    for n in ast.walk(tree):
        if isinstance(n, ast.Compare):
            operands = [n.left] + list(n.comparators)
            for i, cop in enumerate(n.ops):
                lo = off.node(operands[i])[1]
                hi = off.node(operands[i + 1])[0]
                gap = [t for t in toks if lo <= t[0] and t[1] <= hi and t[2] not in "()"]
                if not gap:
                    continue
                s, e = gap[0][0], gap[-1][1]
                new = CMP_FLIP[type(cop)]
                add("cmp", f"{text[s:e]} -> {new}", s, e, new)
        elif isinstance(n, ast.Constant) and type(n.value) is int and id(n) not in docstrings:
            s, e = off.node(n)
            for d in (1, -1):
                v = n.value + d
                add("int", f"{n.value} -> {v}", s, e, str(v) if v >= 0 else f"({v})")
        elif isinstance(n, ast.BoolOp):
            word = "and" if isinstance(n.op, ast.And) else "or"
            other = "or" if word == "and" else "and"
            for a, b in zip(n.values, n.values[1:]):
                lo, hi = off.node(a)[1], off.node(b)[0]
                for s, e, _ in _between(toks, lo, hi, {word}):
                    add("bool", f"{word} -> {other}", s, e, other)
        elif isinstance(n, ast.Raise) and n.exc is not None:
            s, e = off.node(n)
            add("raise", "raise deleted", s, e, "pass")
        elif isinstance(n, (ast.If, ast.While, ast.IfExp)):
            s, e = off.node(n.test)
            add("not", "condition negated", s, e, f"not ({text[s:e]})")
    good = []
    seen = set()
    base = ast.dump(tree)
    for m in sorted(found, key=lambda m: (m.start, m.op, m.change)):
        new_text = apply(text, m)
        try:
            if ast.dump(ast.parse(new_text)) == base:
                continue
        except SyntaxError:
            continue
        if m.id in seen:
            continue
        seen.add(m.id)
        good.append(m)
    return good


def apply(text: str, m: Mutant) -> str:
    return text[:m.start] + m.new + text[m.end:]


# ------------------------------------------------------------------ equivalents

def known_equivalent() -> dict[str, str]:
    """Mutant ids listed in MUTANTS-EQUIVALENT.md (lines starting with
    ``- `id` ``), each with its reason."""
    out = {}
    if EQUIVALENT_FILE.exists():
        for line in EQUIVALENT_FILE.read_text().splitlines():
            m = re.match(r"^\s*[-*]\s+`([^`]+)`\s*[:\u2014-]?\s*(.*)$", line)
            if m:
                out[m.group(1)] = m.group(2)
    return out


# ------------------------------------------------------------------ coverage

PLUGIN = '''
import json, os, coverage, pytest
_cov = coverage.Coverage(data_file=os.environ["MUT_COVFILE"], include=os.environ["MUT_INCLUDE"].split(","))
_durations = {}
def pytest_configure(config):
    _cov.start()
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _cov.switch_context(item.nodeid)
    yield
    _cov.switch_context("")
def pytest_runtest_logreport(report):
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration
def pytest_unconfigure(config):
    _cov.stop(); _cov.save()
    with open(os.environ["MUT_DURATIONS"], "w") as fh:
        json.dump(_durations, fh)
'''


def _files(patterns: list[str]) -> list[str]:
    out = []
    for p in patterns:
        out += sorted(str(x) for x in Path.cwd().glob(p))
    return sorted(set(out))


def coverage_map(modules: list[str], pkgdir: Path, work: Path, keep: Path | None = None
                 ) -> tuple[dict[str, dict[int, set[str]]], dict[str, float]]:
    """For each module: line -> the test node ids that execute it (``"*"``
    for lines run at import); and each test's duration.  ``keep``: a folder
    where the pass is saved, and read back instead of run when it is there
    (same commit and tests only: the caller's business)."""
    if keep and (keep / ".coverage").exists():
        return _read_coverage(modules, keep)
    tests = _files(sorted({p for m in modules for p in TARGETS[m]}))
    plug = work / "mutcovplugin.py"
    plug.write_text(PLUGIN)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(pkgdir), str(work), os.getcwd()]), PYTHONDONTWRITEBYTECODE="1",
               MUT_COVFILE=str(work / ".coverage"), MUT_DURATIONS=str(work / "durations.json"),
               MUT_INCLUDE=",".join(str(pkgdir / m) for m in modules))
    p = subprocess.run([sys.executable, "-P", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "mutcovplugin",
                    *tests], env=env, check=False, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"coverage pass failed (pytest exit {p.returncode}):\n{p.stdout[-3000:]}{p.stderr[-3000:]}")
    if p.returncode:
        print("coverage pass: some tests fail unmutated; mutants they would kill count as killed:\n"
              + "\n".join(ln for ln in p.stdout.splitlines() if ln.startswith("FAILED")), flush=True)
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
        shutil.copy(work / ".coverage", keep / ".coverage")
        shutil.copy(work / "durations.json", keep / "durations.json")
    return _read_coverage(modules, work)


def _read_coverage(modules: list[str], where: Path) -> tuple[dict[str, dict[int, set[str]]], dict[str, float]]:
    import coverage
    data = coverage.CoverageData(basename=str(where / ".coverage"))
    data.read()
    measured = list(data.measured_files())
    per: dict[str, dict[int, set[str]]] = {}
    for m in modules:
        lines: dict[int, set[str]] = {}
        for f in measured:
            if f.endswith("/" + m):
                for ln, ctxs in data.contexts_by_lineno(f).items():
                    lines.setdefault(ln, set()).update(c if c else "*" for c in ctxs)
        per[m] = lines
    durations = json.loads((where / "durations.json").read_text())
    return per, durations


# a module's own tests: run before the others that cover a line
OWN = {
    "pbem/board/odds.py": ("tests/test_board_odds", "tests/test_avd_crt_cells"),
    "pbem/board/retreat.py": ("tests/test_board_retreat",),
    "pbem/board/supply.py": ("tests/test_board_supply",),
    "pbem/board/movement.py": ("tests/test_board_movement",),
    "pbem/board/areagraph.py": ("tests/test_board_areagraph",),
    "pbem/board/hexgrid.py": ("tests/test_board_hexgrid", "tests/test_speed_hexgrid"),
    "pbem/games/avd/combat.py": ("tests/test_avd_mechanics_combat", "tests/test_avd_sequence_combat",
                                 "tests/test_avd_rules_reached", "tests/test_avd_examples"),
    "pbem/games/m41/mechanics.py": ("tests/test_m41_rules", "tests/test_m41_derived", "tests/test_m41_unreached"),
    "pbem/games/ava/combat.py": ("tests/test_mut_ava_combat", "tests/test_ava_combat", "tests/test_ffs_combat"),
    "pbem/games/ava/movement.py": ("tests/test_mut_ava_movement", "tests/test_ava_movement", "tests/test_ffs_movement"),
    "pbem/games/vr/combat.py": ("tests/test_mut_vr_combat", "tests/test_vr_examples"),
    "pbem/games/vr/seq_battle.py": ("tests/test_mut_vr_", "tests/test_vr_engine_rules", "tests/test_vr_engine_basic"),
}


def tests_for(m: Mutant, cover: dict[int, set[str]], durations: dict[str, float], all_tests: list[str],
              end_line: int) -> list[str]:
    """The tests executing the mutated lines: the module's own tests first,
    then the rest, each group fastest first."""
    ids: set[str] = set()
    for ln in range(m.line, end_line + 1):
        ids |= cover.get(ln, set())
    if "*" in ids:
        ids = set(all_tests)
    ids.discard("*")
    own = OWN.get(m.path, ())
    return sorted(ids, key=lambda t: (not t.startswith(own), durations.get(t, 1.0), t))


# ------------------------------------------------------------------ running
#
# Fast path: one pytest session collects the tests once (every module
# imported), then forks a child per mutant.  The child compiles the mutated
# module and puts each mutated function's code into the function objects
# already imported (``f.__code__``, defaults; caches cleared), so every
# ``from x import f`` sees the mutant, and runs the covering items.  A kill
# there counts.  A survivor is run again the slow, sure way (a fresh interpreter
# importing the mutated file) if asked: objects built at import from the unmutated
# code (a grid's tables, a rules object) could otherwise hide it: with
# ``--confirm`` (slow; use it with ``--only``).  A module constant that
# changes is set on the module (read at call time); a ``from m import
# CONST`` copy elsewhere keeps the old value, so confirm such survivors.

def _module_name(path: str) -> str:
    return path[:-3].replace("/", ".")


def _in_function(tree: ast.AST, off: "_Offsets", m: Mutant) -> bool:
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            s = off.at(n.lineno, n.col_offset)
            e = off.at(n.end_lineno, n.end_col_offset)
            if s <= m.start and m.end <= e:
                decs = [off.node(d) for d in n.decorator_list]
                if not any(ds <= m.start < de for ds, de in decs):
                    return True
    return False


def _patch(module, new_ns: dict) -> None:
    import functools
    import inspect

    def fix(old, new) -> None:
        if isinstance(old, functools._lru_cache_wrapper):
            old.cache_clear()
            fix(old.__wrapped__, getattr(new, "__wrapped__", None))
            return
        if isinstance(old, (staticmethod, classmethod)):
            fix(old.__func__, getattr(new, "__func__", None))
            return
        if isinstance(old, property):
            for part in ("fget", "fset", "fdel"):
                fix(getattr(old, part), getattr(new, part, None))
            return
        if inspect.isfunction(old) and inspect.isfunction(new):
            if old.__code__.co_freevars != new.__code__.co_freevars:
                raise RuntimeError(f"cannot patch {old.__qualname__}")
            old.__code__ = new.__code__
            old.__defaults__ = new.__defaults__
            old.__kwdefaults__ = new.__kwdefaults__

    for name, old in list(vars(module).items()):
        new = new_ns.get(name)
        if new is None:
            continue
        if inspect.isclass(old) and inspect.isclass(new) and old.__module__ == module.__name__:
            for attr, o in list(vars(old).items()):
                if attr in vars(new):
                    fix(o, vars(new)[attr])
        elif inspect.isfunction(old) or isinstance(old, functools._lru_cache_wrapper):
            if getattr(old, "__module__", None) == module.__name__:
                fix(old, new)
        elif isinstance(old, (int, str, tuple, frozenset)) and not isinstance(old, bool) and new != old:
            setattr(module, name, new)       # a module constant, read at call time


class _Session:
    """A pytest plugin that, once the tests are collected, hands the
    collected items to ``work`` instead of running them: the parent of every
    mutant's child is then a process with the tests collected and every
    module imported, and a child only runs its few items."""

    def __init__(self, work) -> None:
        self.work = work

    def pytest_runtestloop(self, session) -> bool:
        self.work({item.nodeid: item for item in session.items})
        return True


def session_fork_run(m: Mutant, text: str, items: list, timeout: float) -> str:
    """Run ``items`` against mutant ``m`` in a forked child
    (``_pytest.runner.runtestprotocol``); returns 'killed', 'survived',
    'timeout' or 'error'."""
    import importlib

    from _pytest.runner import runtestprotocol
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:       # child
        os.close(r)
        rc = 70
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            module = importlib.import_module(_module_name(m.path))
            ns = {"__name__": module.__name__, "__file__": module.__file__, "__package__": module.__package__}
            exec(compile(apply(text, m), module.__file__, "exec"), ns)
            _patch(module, ns)
            rc = 0
            for item in items:
                reports = runtestprotocol(item, nextitem=None, log=False)
                if any(rep.failed for rep in reports):
                    os.write(w, item.nodeid.encode())
                    rc = 1
                    break
        except BaseException as exc:   # noqa: BLE001
            try:
                os.write(w, f"patch failed: {exc!r}".encode()[:500])
            except OSError:
                pass
            rc = 70
        finally:
            os._exit(rc)
    os.close(w)
    t0 = time.monotonic()
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() - t0 > timeout:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            os.close(r)
            return "timeout"
        time.sleep(0.005)
    msg = os.read(r, 4096).decode(errors="replace")
    os.close(r)
    rc = os.waitstatus_to_exitcode(status)
    m.killer = msg
    return {0: "survived", 1: "killed"}.get(rc, "error")


def run_one(m: Mutant, text: str, pkgdir: Path, tests: list[str], timeout: float) -> None:
    """The slow, sure way: a fresh interpreter importing the mutated file."""
    target = pkgdir / m.path
    target.write_text(apply(text, m))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(pkgdir), os.getcwd()]), PYTHONDONTWRITEBYTECODE="1",
               HYPOTHESIS_STORAGE_DIRECTORY=str(pkgdir / ".hypothesis"))
    t0 = time.monotonic()
    try:
        # node ids go through a file: a long list could pass the argv limit.
        args = pkgdir / "tests.txt"
        args.write_text("\n".join(tests))
        p = subprocess.run([sys.executable, "-P", "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                            "-W", "ignore", *tests],
                           env=env, timeout=timeout, capture_output=True, text=True)
        if p.returncode == 0:
            m.status = "survived"
        elif p.returncode in (1, 2, 3):
            m.status = "killed"
            hit = re.search(r"^FAILED (\S+)", p.stdout, re.M) or re.search(r"^ERROR (\S+)", p.stdout, re.M)
            m.killer = hit.group(1) if hit else f"exit {p.returncode}"
        else:
            m.status = "error"
            m.killer = f"pytest exit {p.returncode}: {p.stdout[-300:]}"
    except subprocess.TimeoutExpired:
        m.status = "timeout"          # counted as killed (an infinite loop is noticed)
    finally:
        target.write_text(text)
        m.tests_run = len(tests)
        m.seconds = round(time.monotonic() - t0, 2)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--module", action="append", help="a target module path (repeatable); default all")
    ap.add_argument("--limit-minutes", type=float, default=40.0)
    ap.add_argument("--out", default="mutation-results.json")
    ap.add_argument("--coverage", help="folder to save the coverage pass in, or reuse it from "
                    "(same commit and tests only)")
    ap.add_argument("--all-tests", action="store_true",
                    help=f"run every covering test on a survivor, not only the first {MOST} (slow)")
    ap.add_argument("--confirm", action="store_true",
                    help="run each survivor again in a fresh interpreter (slow: tens of seconds each)")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--only", action="append", help="run only mutants whose id starts with this")
    ap.add_argument("--survivors-of", metavar="JSON",
                    help="run only the mutants an earlier run's --out file reports as survived or uncovered")
    ap.add_argument("--against", action="append", metavar="TESTFILE",
                    help="no coverage pass: run every selected mutant against these test files only "
                         "(repeatable; to see whether new tests kill an earlier run's survivors)")
    a = ap.parse_args(argv)
    modules = a.module or list(TARGETS)
    for mod in modules:
        if mod not in TARGETS:
            ap.error(f"not a target: {mod} (targets: {', '.join(TARGETS)})")
    texts = {mod: Path(mod).read_text() for mod in modules}
    mutants = [m for mod in modules for m in mutants_of(mod, texts[mod])]
    generated = {m.id for m in mutants}
    if a.only:
        mutants = [m for m in mutants if any(m.id.startswith(o) for o in a.only)]
    if a.survivors_of:
        earlier = json.loads(Path(a.survivors_of).read_text())["mutants"]
        live = {e["id"] for e in earlier if e["status"] in ("survived", "uncovered")}
        mutants = [m for m in mutants if m.id in live]
    if a.list:
        for m in mutants:
            print(f"{m.id}    | {m.source_line}")
        print(f"{len(mutants)} mutants")
        return 0
    equivalent = known_equivalent()
    work = Path(tempfile.mkdtemp(prefix="pbem-mut-"))
    started = time.monotonic()
    try:
        pkgdirs = []
        for j in range(1):
            d = work / f"w{j}"
            shutil.copytree("pbem", d / "pbem", ignore=shutil.ignore_patterns("__pycache__"))
            pkgdirs.append(d)
        deadline = started + a.limit_minutes * 60
        todo: list[tuple[Mutant, list[str] | None, float]] = []
        if a.against:       # every collected test of the named files, no coverage
            print(f"{len(mutants)} mutants in {len(modules)} modules; against {', '.join(a.against)}", flush=True)
            todo = [(m, None, 120.0) for m in mutants]
        else:
            print(f"{len(mutants)} mutants in {len(modules)} modules; coverage pass...", flush=True)
            cover, durations = coverage_map(modules, pkgdirs[0], work, Path(a.coverage) if a.coverage else None)
            all_tests = {mod: sorted(t for ln in cover[mod].values() for t in ln if t != "*") for mod in modules}
            print(f"coverage pass done in {time.monotonic() - started:.0f}s", flush=True)
        for m in mutants if not a.against else ():
            end_line = _Offsets(texts[m.path]).line_col(m.end)[0]
            tests = tests_for(m, cover[m.path], durations, all_tests[m.path], end_line)
            if not tests:
                m.status = "uncovered"
            else:
                base = sum(durations.get(t, 1.0) for t in tests)
                todo.append((m, tests, max(30.0, 5 * base + 10)))
        pkgdir = pkgdirs[0]
        sys.path[:0] = [str(pkgdir), str(Path.cwd() / "tests")]
        sys.path.append(os.getcwd())
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        sys.dont_write_bytecode = True

        def loop(items: dict) -> None:
            for i, (m, tests, timeout) in enumerate(todo, 1):
                if time.monotonic() > deadline:
                    m.status = "not run"
                    continue
                t0 = time.monotonic()
                if tests is None:
                    tests = list(items)
                chosen = [items[t] for t in tests if t in items][:None if a.all_tests else MOST]
                if not chosen:
                    m.status = "uncovered"
                    continue
                # the fastest covering tests first; all of them only if those pass
                m.status = session_fork_run(m, texts[m.path], chosen[:FIRST], timeout)
                if m.status == "survived" and len(chosen) > FIRST:
                    m.status = session_fork_run(m, texts[m.path], chosen[FIRST:], timeout)
                m.tests_run, m.seconds = len(chosen), round(time.monotonic() - t0, 2)
                if m.status == "error" and m.killer.startswith("patch failed"):
                    run_one(m, texts[m.path], pkgdir, tests, timeout)
                elif m.status == "survived" and a.confirm:      # make sure, in a fresh interpreter
                    run_one(m, texts[m.path], pkgdir, tests, timeout)
                if m.status == "survived":
                    print(f"  survived: {m.id}  | {m.source_line}", flush=True)
                if i % 100 == 0:
                    print(f"  {i}/{len(todo)} run, {time.monotonic() - started:.0f}s", flush=True)

        import pytest
        files = _files(a.against or sorted({p for mod in modules for p in TARGETS[mod]}))
        pytest.main(["-q", "-p", "no:cacheprovider", "-W", "ignore", *files], plugins=[_Session(loop)])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    # an entry is stale only if its module was mutated here and the mutant is gone
    stale = {e for e in equivalent if e.split(":", 1)[0] in modules} - generated
    return report(mutants, equivalent, a.out, time.monotonic() - started, stale)


def report(mutants: list[Mutant], equivalent: dict[str, str], out: str, seconds: float,
           stale: set[str]) -> int:
    for m in mutants:
        if m.status in ("survived", "uncovered") and m.id in equivalent:
            m.status = "equivalent"
    count = {}
    for m in mutants:
        count[m.status] = count.get(m.status, 0) + 1
    killed = count.get("killed", 0) + count.get("timeout", 0)
    live = count.get("survived", 0) + count.get("uncovered", 0)
    scored = killed + live
    score = 100.0 * killed / scored if scored else 100.0
    by_module: dict[str, dict[str, int]] = {}
    for m in mutants:
        c = by_module.setdefault(m.path, {})
        c[m.status] = c.get(m.status, 0) + 1
    Path(out).write_text(json.dumps({
        "date": time.strftime("%Y-%m-%d"), "seconds": round(seconds), "counts": count,
        "score_percent": round(score, 1), "by_module": by_module,
        "mutants": [dict(asdict(m), id=m.id) for m in mutants]}, indent=1))
    print(f"\n{len(mutants)} mutants in {seconds / 60:.1f} min: " +
          ", ".join(f"{k} {v}" for k, v in sorted(count.items())))
    for mod, c in by_module.items():
        print(f"  {mod}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    print(f"score without equivalent mutants: {killed}/{scored} = {score:.1f}%")
    for m in mutants:
        if m.status in ("survived", "uncovered"):
            print(f"  {m.status:9} {m.id}    | {m.source_line}")
    for s in sorted(stale):
        print(f"  (listed as equivalent but no longer generated: {s})")
    return 0 if not live else 1


if __name__ == "__main__":
    sys.exit(main())
