"""The laptop dies while writing: the last good file is intact.

DESIGN.md, "Never lose a file": writes are a temp file, fsync, rename.  A
process killed (SIGKILL: no clean-up runs) at any moment leaves each final
name either absent, the old file, or the whole new file, never a part.
"""
from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pbem.protocol.gamefile import parse
from clihelp import cli_env, make_players, start_game, stem_of

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")

# The child writes records of a few MB: a sequence number, a body, and the
# SHA-256 of both, so a reader can tell a whole record from a torn one.
WRITER = textwrap.dedent("""\
    import hashlib, os, sys
    from pathlib import Path
    from pbem.protocol.gamefile import atomic_write

    target, overwrite = Path(sys.argv[1]), sys.argv[2] == "replace"
    size = int(sys.argv[3])
    i = 0
    print("ready", flush=True)
    while True:
        i += 1
        body = (b"%08d" % i) + os.urandom(32) * (size // 32)
        record = body + hashlib.sha256(body).hexdigest().encode()
        path = target if overwrite else target.with_name(f"{target.stem}-{i:05d}{target.suffix}")
        atomic_write(path, record, overwrite=overwrite)
""")


def whole(data: bytes) -> bool:
    body, tail = data[:-64], data[-64:]
    return len(data) > 64 and hashlib.sha256(body).hexdigest().encode() == tail


def start_writer(tmp_path: Path, target: Path, mode: str, size: int) -> subprocess.Popen[str]:
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    child = subprocess.Popen([sys.executable, str(script), str(target), mode, str(size)], env=env,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    return child


def kill(child: subprocess.Popen[str]) -> None:
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    if child.stdout:
        child.stdout.close()


def test_a_writer_killed_at_random_moments_never_leaves_a_torn_file(tmp_path: Path) -> None:
    """The last good game file sits beside the one being replaced over and
    over; the writer is killed at random moments, while a reader watches."""
    rng = random.Random(1812)
    good = tmp_path / "0005.toml"
    good.write_bytes(b"the last good file\n" * 1000)
    before = good.read_bytes()
    target = tmp_path / "0006.toml"
    seen = 0
    for _ in range(5):
        child = start_writer(tmp_path, target, "replace", 2 * 1024 * 1024)
        start = time.monotonic()
        deadline = start + rng.uniform(0.02, 0.3)
        # Until the first file is whole at the final name the reader waits
        # on (up to a minute): a loaded machine's disk may take longer than
        # every random window for a write and its fsync, and a reader that
        # saw nothing would fail the test whatever the writer does.
        while time.monotonic() < deadline or (not seen and time.monotonic() < start + 60):
            try:
                data = target.read_bytes()
            except FileNotFoundError:
                continue
            assert whole(data), "a reader saw a torn file at the final name"
            seen += 1
        kill(child)
        if target.exists():
            assert whole(target.read_bytes()), "the final name holds a torn file after the kill"
        assert good.read_bytes() == before
    assert seen > 0, "the reader never saw a written file: the test did not exercise the writer"


def test_new_files_killed_mid_write_are_absent_or_whole(tmp_path: Path) -> None:
    rng = random.Random(1944)
    target = tmp_path / "game.toml"
    for _ in range(4):
        child = start_writer(tmp_path, target, "new", 2 * 1024 * 1024)
        time.sleep(rng.uniform(0.02, 0.25))
        kill(child)
        written = sorted(tmp_path.glob("game-*.toml"))
        for path in written:
            assert whole(path.read_bytes()), f"{path.name} is torn"
        for path in written:
            path.unlink()
        # Leftover temp files are allowed (no clean-up runs after SIGKILL),
        # but never under a final name.
        for path in tmp_path.iterdir():
            assert path.name in ("writer.py",) or path.name.startswith(".game") and path.name.endswith(".tmp"), path


def test_a_play_killed_at_random_moments_leaves_the_game_folder_intact(tmp_path: Path) -> None:
    """Anna's `pbem play` is killed again and again; afterwards every kept
    version is whole and unchanged, and a last, uninterrupted play works."""
    anna, pavel = make_players(tmp_path)
    joined = start_game(anna, pavel, "sealed")
    STEM = stem_of(joined)
    # Anna has played once already, so her folder holds versions to lose.
    anna.run("play", str(joined), "--orders", str(anna.orders("3", ["pick 2"])), "--out", str(anna.out))
    third = anna.out / f"{STEM}-003.toml"
    pavel.run("play", str(third), "--orders", str(pavel.orders("4", ["pick 1"])), "--out", str(pavel.out))
    fourth = pavel.out / f"{STEM}-004.toml"
    games = anna.home / "games"
    kept = {p: p.read_bytes() for p in games.rglob("*.toml")}
    assert len(kept) == 3
    orders = anna.orders("5", ["attack"])
    rng = random.Random(1941)
    out = anna.root / "crash-out"
    out.mkdir()
    cmd = [sys.executable, "-m", "pbem.cli", "play", str(fourth), "--orders", str(orders), "--out", str(out)]
    env = cli_env(anna.home, anna.scenarios)
    for _ in range(6):
        child = subprocess.Popen(cmd, env=env, cwd=anna.root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.05, 0.45))
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        for path, data in kept.items():
            assert path.read_bytes() == data, f"{path} changed"
        for path in list(games.rglob("*.toml")) + list(out.glob("*.toml")):
            parse(path.read_text(encoding="utf-8"), str(path))      # whole, or it would not parse
        for path in out.glob("*"):
            path.unlink()     # so that the next run writes afresh
    held = sorted(games.rglob("0005.toml"))
    if held:
        # Killed after her exchange 5 was kept but before it reached the out
        # folder: it is whole, and playing the received file again hands her
        # the kept exchange to send instead of a second, different one.
        anna.run("verify", str(held[0]))
        r = anna.run("play", str(fourth), "--orders", str(orders), "--out", str(out))
        assert "You already answered this file (exchange 5)" in r.stdout
        anna.run("verify", str(out / f"{STEM}-005.toml"))
    else:
        r = anna.run("play", str(fourth), "--orders", str(orders), "--out", str(out))
        assert f"Written {out / f'{STEM}-005.toml'}" in r.stdout
        anna.run("verify", str(out / f"{STEM}-005.toml"))
