"""The check worker forked at the start of ``pbem verify`` (speed only,
issue 7: pbem.protocol.early).  It parses the game file, checks the key's
public halves and opens the reader's sealed parts while the replay's
modules are imported; whatever it says must leave the command's output,
its refusals and its exit status exactly those of the plain way, and no
process may be left behind."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import enginehelp as eh
from pbem import prefetch, session
from pbem.cli import quick
from pbem.cycle import background
from pbem.cycle import worker as cw
from pbem.protocol import early, spawn, worker
from pbem.protocol.gamefile import GameFile
from pbem.protocol.identity import Identity, generate
from pbem.protocol.keyfile import save_private

Lines = list[tuple[str, str]]
REAL_FORK = early.fork


@pytest.fixture(scope="module")
def game() -> tuple[GameFile, dict[str, Any], dict[str, Any]]:
    return eh.duel_played(9)


@pytest.fixture
def table(game, tmp_path: Path, monkeypatch) -> dict[str, Any]:
    """The game file on disk, a home for each seat and one with no key; a
    worker from the first exchange on, with a core free."""
    gf, _, ids = game
    path = tmp_path / "game.toml"
    path.write_text(gf.to_toml(), encoding="utf-8")
    homes: dict[str, Path] = {}
    for seat, ident in [*ids.items(), ("bystander", None)]:
        home = homes[seat] = tmp_path / seat
        home.mkdir()
        if ident is not None:
            save_private(ident, home / "key.toml", None)
    monkeypatch.setenv("PBEM_SCENARIOS", str(eh.DATA / "scenarios"))
    for module in (spawn, background):
        monkeypatch.setattr(module, "core_free", lambda: True)
    monkeypatch.setattr(background, "BACKGROUND_FROM", 1)
    monkeypatch.setattr(background, "HASH_FROM", 1)
    monkeypatch.setattr(early, "EARLY_FROM", 0)
    return {"path": path, "homes": homes, "ids": ids}


def verify(path: Path, home: Path, monkeypatch: Any, fork: bool) -> tuple[Lines, Any, list[int]]:
    """What ``pbem verify`` writes (stream, line) and its exit status, run
    the quick way with or without the forked worker; the pids of the workers
    forked."""
    monkeypatch.setenv("PBEM_HOME", str(home))
    monkeypatch.setattr(session, "_PARSED", {})      # (each run parses as a new command does)
    lines: Lines = []
    forked: list[int] = []

    def fork_and_note(data: bytes) -> bool:
        done = REAL_FORK(data)
        if done:
            assert early._current is not None
            forked.append(early._current.pid)
        return done

    def echo(message: str, err: bool = False) -> None:
        lines.append(("err" if err else "out", message))

    monkeypatch.setattr(early, "fork", fork_and_note)
    try:
        quick.run_guarded(lambda: quick.verify_command(path, None, lambda: None, echo, fork=fork), echo)
        status: Any = 0
    except SystemExit as done:
        status = done.code
    assert early._current is None
    return lines, status, forked


def gone(pid: int) -> bool:
    spawn.reap_exited(wait=True)    # (a worker still exiting when its answers were read is collected later)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_every_reader_is_told_what_the_plain_way_tells(table, monkeypatch) -> None:
    """Each seat and a bystander: the same lines and status; the worker
    was forked, and is gone when the command ends."""
    for seat, home in table["homes"].items():
        plain, plain_status, none = verify(table["path"], home, monkeypatch, fork=False)
        lines, status, forked = verify(table["path"], home, monkeypatch, fork=True)
        assert none == [] and len(forked) == 1, seat
        assert (lines, status) == (plain, plain_status), seat
        assert plain[0][1].startswith("valid: 11 exchanges"), seat
        assert gone(forked[0])


def test_the_replay_takes_the_parse_and_the_openings_from_the_worker(table, monkeypatch) -> None:
    """The replay parses nothing and opens none of the reader's sealed parts
    itself: the worker, forked at once, has done both by the time they are
    needed."""
    parsed_here: list[int] = []
    opened_here: list[int] = []
    real_parse, real_unseal = early.parsed, Identity.unseal

    def parsed(data: bytes) -> Any:
        got = real_parse(data)
        parsed_here.append(got is None)
        return got

    def unseal(self: Identity, blob: bytes, game_id: str, n: int) -> bytes:
        opened_here.append(n)
        return real_unseal(self, blob, game_id, n)

    monkeypatch.setattr(early, "parsed", parsed)
    monkeypatch.setattr(Identity, "unseal", unseal)
    lines, status, forked = verify(table["path"], table["homes"]["red"], monkeypatch, fork=True)
    assert status == 0 and len(forked) == 1
    assert parsed_here == [False]
    assert opened_here == []


@pytest.mark.parametrize("half", ["sign_pub", "seal_pub"])
@pytest.mark.parametrize("mode", [0o600, 0o644])
def test_a_key_whose_stored_half_is_not_its_own_is_refused_alike(table, monkeypatch, half, mode) -> None:
    """The worker's check of the key's public halves: the same one-line
    refusal, and no warning about a readable key that does not load."""
    key = table["homes"]["red"] / "key.toml"
    other = generate("Other", "other@example.org").public
    text = key.read_text(encoding="utf-8")
    key.write_text(text.replace(getattr(table["ids"]["red"].public, half), getattr(other, half)), encoding="utf-8")
    os.chmod(key, mode)
    plain = verify(table["path"], table["homes"]["red"], monkeypatch, fork=False)
    lines, status, forked = verify(table["path"], table["homes"]["red"], monkeypatch, fork=True)
    assert len(forked) == 1 and gone(forked[0])
    assert (lines, status) == plain[:2]
    assert lines == [("err", f"pbem: key file {key}: {half} does not belong to its private key")]
    assert status != 0


def test_a_readable_key_is_warned_about_alike(table, monkeypatch) -> None:
    os.chmod(table["homes"]["blue"] / "key.toml", 0o644)
    plain = verify(table["path"], table["homes"]["blue"], monkeypatch, fork=False)
    lines, status, forked = verify(table["path"], table["homes"]["blue"], monkeypatch, fork=True)
    assert len(forked) == 1
    assert (lines, status) == plain[:2]
    assert [stream for stream, _ in lines] == ["err", "out", "out"] and "can be read by others" in lines[0][1]


@pytest.mark.parametrize("bad_key", [False, True])
def test_a_file_that_does_not_parse_is_refused_alike(table, monkeypatch, bad_key) -> None:
    """The parse's refusal is the plain one; with a bad key too, the key's
    refusal comes first, as the plain way reports it."""
    path = table["path"]
    path.write_text(path.read_text(encoding="utf-8").replace('kind = "play"', 'kind = "plays"', 1), encoding="utf-8")
    if bad_key:
        key = table["homes"]["red"] / "key.toml"
        other = generate("Other", "other@example.org").public
        key.write_text(key.read_text(encoding="utf-8").replace(table["ids"]["red"].public.seal_pub, other.seal_pub),
                       encoding="utf-8")
    plain = verify(path, table["homes"]["red"], monkeypatch, fork=False)
    lines, status, forked = verify(path, table["homes"]["red"], monkeypatch, fork=True)
    assert len(forked) == 1 and gone(forked[0])
    assert (lines, status) == plain[:2]
    assert status != 0 and len(lines) == 1
    assert ("does not belong to its private key" in lines[0][1]) is bad_key


def test_a_forged_exchange_is_refused_alike(game, table, monkeypatch) -> None:
    gf, _, ids = game
    forged, told = eh.signed_by_other(gf, ids, 6)
    table["path"].write_text(forged.to_toml(), encoding="utf-8")
    for home in table["homes"].values():
        plain = verify(table["path"], home, monkeypatch, fork=False)
        lines, status, forked = verify(table["path"], home, monkeypatch, fork=True)
        assert len(forked) == 1
        assert (lines, status) == plain[:2]
        assert lines == [("err", "pbem: " + told.split(": ", 1)[1])]


@pytest.mark.parametrize("dies", ["at once", "after the parse"])
def test_a_worker_that_dies_changes_nothing(table, monkeypatch, dies) -> None:
    """Whatever the worker did not answer is done the plain way."""
    real = worker.serve_forked

    def die_at_once(*args: Any) -> None:
        raise RuntimeError("the worker fails")      # (and never comes back into the command)

    def die_after_the_parse(checks: int, answers: int, told: int, theirs: tuple[int, ...], data: bytes) -> None:
        with os.fdopen(told, "wb") as tell:
            _, body = worker._parse(data)
            tell.write(len(body).to_bytes(early.FRAME, "big") + body)
        os._exit(0)

    monkeypatch.setattr(worker, "serve_forked", die_at_once if dies == "at once" else die_after_the_parse)
    for home in table["homes"].values():
        monkeypatch.setattr(worker, "serve_forked", real)
        plain = verify(table["path"], home, monkeypatch, fork=False)
        monkeypatch.setattr(worker, "serve_forked", die_at_once if dies == "at once" else die_after_the_parse)
        lines, status, forked = verify(table["path"], home, monkeypatch, fork=True)
        assert len(forked) == 1 and gone(forked[0])
        assert (lines, status) == plain[:2]


def test_a_parse_is_taken_only_for_the_very_bytes(table) -> None:
    data = table["path"].read_bytes()
    assert early.fork(data)
    try:
        assert early.parsed(data[:-1] + b" ") is None
        assert early.parsed(data) is not None
    finally:
        pid = early._current.pid if early._current else None
        early.discard()
    assert pid is not None and gone(pid)


def test_a_worker_nobody_takes_is_ended(table) -> None:
    assert early.fork(table["path"].read_bytes())
    assert early._current is not None
    pid = early._current.pid
    early.discard()
    assert gone(pid) and not early.running()


def test_no_fork_where_it_is_not_safe(table, monkeypatch) -> None:
    """Another thread (a fork copies one), no free core, a short file."""
    import threading

    data = table["path"].read_bytes()
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not early.fork(data)
    finally:
        stop.set()
        other.join()
    monkeypatch.setattr(spawn, "core_free", lambda: False)
    assert not early.fork(data)
    monkeypatch.setattr(spawn, "core_free", lambda: True)
    monkeypatch.setattr(early, "EARLY_FROM", len(data) + 1)
    lines, status, forked = verify(table["path"], table["homes"]["red"], monkeypatch, fork=True)
    assert status == 0 and forked == []


def test_the_worker_taken_by_the_replay_waits_for_its_openings(table, monkeypatch) -> None:
    """The replay's CheckWorker is the forked one, and waits for a part
    rather than open it itself."""
    taken: list[cw.CheckWorker] = []
    real = cw.CheckWorker.start

    def start() -> cw.CheckWorker | None:
        got = real()
        if got is not None:
            taken.append(got)
        return got

    monkeypatch.setattr(cw.CheckWorker, "start", staticmethod(start))
    lines, status, forked = verify(table["path"], table["homes"]["blue"], monkeypatch, fork=True)
    assert status == 0 and len(forked) == 1
    assert len(taken) == 1 and taken[0]._wait


def test_the_hint_is_the_game_table_at_the_top() -> None:
    top = b'# pbem game file\n\n[game]\nid = "g"\ngame = "avd"\nscenario = "avd/practice"\n\n[[exchange]]\n'
    assert prefetch.hint(top) == ("avd", "avd/practice")
    assert prefetch.hint(top.replace(b"[game]", b"[games]")) is None
    assert prefetch.hint(top.replace(b'game = "avd"\n', b"")) is None
    assert prefetch.hint(b'[[exchange]]\ngame = "avd"\nscenario = "avd/practice"\n') is None
    assert prefetch.hint(top.replace(b"avd/practice", b"../../etc/passwd\x00")) is None


@pytest.mark.parametrize("named", [b'scenario = "avd/practice"', b'game = "nosuchgame"', b'scenario = "no/such"'])
def test_a_false_hint_changes_nothing(table, monkeypatch, named) -> None:
    """The [game] copy at the top is only a hint: one that names another
    scenario or game is refused as the plain way refuses it."""
    path = table["path"]
    text = path.read_text(encoding="utf-8")
    key = named.split(b" = ")[0].decode()
    line = next(x for x in text.splitlines() if x.startswith(f"{key} = "))
    path.write_text(text.replace(line, named.decode(), 1), encoding="utf-8")
    assert prefetch.hint(path.read_bytes()) is not None
    plain = verify(path, table["homes"]["red"], monkeypatch, fork=False)
    lines, status, forked = verify(path, table["homes"]["red"], monkeypatch, fork=True)
    assert len(forked) == 1
    assert (lines, status) == plain[:2]
    assert status != 0 and "differs from the signed header" in lines[0][1]
    assert prefetch._KEPT == {}


def test_the_scenario_loaded_ahead_is_taken_once(table, monkeypatch) -> None:
    monkeypatch.setattr(prefetch, "_KEPT", {})
    prefetch.warm("duel", "duel/test")
    first = prefetch.take_scenario("duel/test")
    assert first is not None and first == session.load_scenario("duel/test")
    assert prefetch.take_scenario("duel/test") is None


@pytest.mark.parametrize("forgery", ["state", "link", "orders"])
def test_a_re_signed_forgery_is_refused_alike(game, table, monkeypatch, forgery) -> None:
    """A false state hash, a broken link or an order list the replay does
    not give, each signed again with every exchange after it: the worker
    reads the exchanges from its own parse, and the refusal is the plain one."""
    gf, _, ids = game
    at = 6
    fields = {"state": {"state": "cd" * 32}, "link": {"prev": "ab" * 32},
              "orders": {"orders": [dict(gf.exchanges[at - 1]["orders"][0], skipped=True)]}}[forgery]
    table["path"].write_text(eh.lying(gf, ids, at, **fields).to_toml(), encoding="utf-8")
    sent: list[bytes] = []
    real = cw.CheckWorker._send

    def send(self: cw.CheckWorker, tag: bytes, body: bytes) -> int:
        sent.append(tag)
        return real(self, tag, body)

    monkeypatch.setattr(cw.CheckWorker, "_send", send)
    for home in table["homes"].values():
        plain = verify(table["path"], home, monkeypatch, fork=False)
        sent.clear()
        lines, status, forked = verify(table["path"], home, monkeypatch, fork=True)
        assert len(forked) == 1
        assert (lines, status) == plain[:2] and status != 0
        assert f"exchange {at} by " in lines[0][1]
        assert worker.EXCHANGE_AT in sent and worker.ENTRIES_AT in sent
        assert worker.EXCHANGE not in sent and worker.ENTRIES not in sent


@pytest.mark.parametrize("cores, average, running, free", [
    (2, 0.2, 1, True),       # a quiet machine
    (2, 4.5, 1, True),       # quiet now, after a busy minute: the average lags
    (2, 1.2, 3, True),       # one steady background task: the average says so
    (2, 4.5, 5, False),      # busy, and busy now
    (1, 0.0, 1, False),      # one core: never a second process
])
def test_a_core_is_free_by_the_minute_or_right_now(monkeypatch, cores, average, running, free) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    monkeypatch.setattr(os, "getloadavg", lambda: (average, average, average))
    monkeypatch.setattr(spawn, "_running_now", lambda: running)
    assert spawn.core_free() is free


@pytest.mark.parametrize("edit", ["none", "value", "not json"])
def test_the_reading_copy_is_checked_alike(game, table, monkeypatch, edit) -> None:
    """The [state] public copy's hash, worked out by the worker as it
    parses: an edited copy, or one that is not JSON, is refused as the
    plain way refuses it."""
    from pbem import cycle

    gf, sc, _ = game
    copied = session.refresh_reading_copies(gf, cycle.replay(gf, sc))
    public = copied.state["public"]
    copied.state["public"] = {"none": public, "value": public.replace('"roll": ', '"roll": 1', 1),
                              "not json": public[:-1]}[edit]
    assert edit == "none" or copied.state["public"] != public
    table["path"].write_text(copied.to_toml(), encoding="utf-8")
    plain = verify(table["path"], table["homes"]["blue"], monkeypatch, fork=False)
    lines, status, forked = verify(table["path"], table["homes"]["blue"], monkeypatch, fork=True)
    assert len(forked) == 1
    assert (lines, status) == plain[:2]
    told = {"none": "valid: ", "value": "differs from the replayed state", "not json": "not valid JSON"}[edit]
    assert told in lines[0][1]


def test_a_fifo_or_a_folder_forks_nothing_and_never_waits(tmp_path, monkeypatch) -> None:
    """Opening a FIFO to read would wait for a writer: the worker's early
    read must not (the plain way then refuses the file in its own words)."""
    monkeypatch.setattr(early, "EARLY_FROM", 0)
    fifo = tmp_path / "game.toml"
    os.mkfifo(fifo)
    assert early.fork_for(fifo) is False
    assert early.fork_for(tmp_path) is False
    assert early._current is None
