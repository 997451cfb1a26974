"""The kept matches of $PBEM_HOME/cache (pbem.cache): a command on a file
that extends a kept match replays only the new exchanges; a corrupted entry,
one from another home, for another reader or from another program is
ignored, and the answer is always the cold replay's; a tampered entry never
makes ``play`` accept what ``pbem verify`` refuses."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

import enginehelp as eh
from pbem import cache, cycle, session
from pbem.cli import main
from pbem.protocol import identity
from pbem.protocol.gamefile import GameFile, exchange_hash

TESTS = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def duel():
    """A sealed duel, every version of its file from the join on."""
    gf, sc, ids = eh.start("sealed")
    files = [gf]
    for _ in range(8):
        gf = eh.one_exchange(gf, sc, ids)
        files.append(gf)
    return files, sc, ids


@pytest.fixture
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    monkeypatch.setenv("PBEM_HOME", str(h))
    return h


class Counter:
    def __init__(self, monkeypatch):
        self.replays = self.advances = 0
        replay, advance = cycle.replay, cycle.advance

        def counted_replay(*a, **k):
            self.replays += 1
            return replay(*a, **k)

        def counted_advance(*a, **k):
            self.advances += 1
            return advance(*a, **k)

        monkeypatch.setattr(cycle, "replay", counted_replay)
        monkeypatch.setattr(cycle, "advance", counted_advance)


def same_as_cold(m, gf, sc, me):
    cold = cycle.replay(gf, sc, me)
    assert m.state_hash() == cold.state_hash()
    assert m.es == cold.es
    assert (m.me, m.known, m.my_seeds, m.my_secrets) == (cold.me, cold.known, cold.my_seeds, cold.my_secrets)
    assert m.seats == cold.seats
    assert m.next_sender() == cold.next_sender() and m.summary() == cold.summary()
    assert [r.__dict__ for r in m.records] == [r.__dict__ for r in cold.records]
    assert len(m.snapshots) == len(cold.snapshots) == len(gf.exchanges)
    assert all(m.snapshots[i] == cold.snapshots[i] for i in range(len(gf.exchanges)))


def entries(h: Path) -> list[Path]:
    """The kept matches (not the parsed files of cache/parsed and cache/scenarios)."""
    return sorted(p for p in (h / "cache").rglob("*.bin") if p.parent.name not in ("parsed", "scenarios"))


def test_a_kept_match_is_advanced_over_the_new_exchanges_only(duel, home, monkeypatch):
    files, sc, ids = duel
    red = ids["red"]
    n = Counter(monkeypatch)
    cache.open_match(files[3], sc, red)
    assert (n.replays, n.advances) == (1, 0)
    m = cache.open_match(files[8], sc, red)
    assert (n.replays, n.advances) == (1, 5)
    same_as_cold(m, files[8], sc, red)
    # The same file again: nothing to verify, nothing written.
    before = {p: p.stat().st_mtime_ns for p in entries(home)}
    m = cache.open_match(files[8], sc, red)
    assert (n.replays, n.advances) == (2, 5)     # (+1: same_as_cold's replay)
    assert {p: p.stat().st_mtime_ns for p in entries(home)} == before
    same_as_cold(m, files[8], sc, red)


def test_an_entry_one_exchange_behind_is_not_rewritten(duel, home, monkeypatch):
    """The usual play on the opponent's answer: the entry one exchange
    behind is advanced and serves again; a match moved further is kept."""
    files, sc, ids = duel
    cache.open_match(files[4], sc, ids["red"])
    before = {p: p.stat().st_mtime_ns for p in entries(home)}
    n = Counter(monkeypatch)
    for _ in range(2):
        m = cache.open_match(files[5], sc, ids["red"])
        assert {p: p.stat().st_mtime_ns for p in entries(home)} == before
    assert (n.replays, n.advances) == (0, 2)
    same_as_cold(m, files[5], sc, ids["red"])
    cache.open_match(files[6], sc, ids["red"])
    assert [p.name[-9:] for p in entries(home)] == [f"{len(files[k].exchanges):05d}.bin" for k in (4, 6)]


def test_an_older_file_uses_an_older_entry_or_replays(duel, home, monkeypatch):
    files, sc, ids = duel
    for k in (2, 4, 6, 8):
        cache.open_match(files[k], sc, ids["blue"])
    assert len(entries(home)) == cache.KEEP
    n = Counter(monkeypatch)
    m = cache.open_match(files[5], sc, ids["blue"])      # entry 4 + one exchange
    assert (n.replays, n.advances) == (0, 1)
    same_as_cold(m, files[5], sc, ids["blue"])
    m = cache.open_match(files[1], sc, ids["blue"])      # older than any entry
    assert n.replays == 2                                  # (one was same_as_cold's)
    same_as_cold(m, files[1], sc, ids["blue"])


def test_entries_are_private_to_the_player(duel, home):
    files, sc, ids = duel
    m = cache.open_match(files[8], sc, ids["red"])
    (entry,) = entries(home)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert stat.S_IMODE((home / "cache" / "mac.key").stat().st_mode) == 0o600
    assert stat.S_IMODE((home / "cache").stat().st_mode) == 0o700
    data = entry.read_bytes()
    seed, _ = m.my_seeds[0]
    assert seed not in data and seed.hex().encode() not in data       # encrypted under the player's key
    # A bystander's match (no key) is not kept.
    cache.open_match(files[8], sc, None)
    assert entries(home) == [entry]


CORRUPTIONS = {
    "mac": lambda d: d[:20] + bytes([d[20] ^ 1]) + d[21:],
    "body": lambda d: d[:-40] + bytes([d[-40] ^ 1]) + d[-39:],
    "truncated": lambda d: d[: len(d) // 2],
    "empty": lambda d: b"",
    "garbage": lambda d: os.urandom(len(d)),
}


@pytest.mark.parametrize("how", sorted(CORRUPTIONS))
def test_a_corrupted_entry_is_ignored(duel, home, monkeypatch, how):
    files, sc, ids = duel
    cache.open_match(files[4], sc, ids["red"])
    (entry,) = entries(home)
    entry.write_bytes(CORRUPTIONS[how](entry.read_bytes()))
    n = Counter(monkeypatch)
    m = cache.open_match(files[8], sc, ids["red"])
    assert n.replays == 1
    same_as_cold(m, files[8], sc, ids["red"])


def test_an_entry_from_another_home_is_ignored(duel, tmp_path, monkeypatch):
    files, sc, ids = duel
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "a"))
    cache.open_match(files[4], sc, ids["red"])
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "b"))
    cache._mac_key(create=True)                           # home b has its own MAC key
    (entry_a,) = entries(tmp_path / "a")
    (tmp_path / "b" / "cache" / entry_a.parent.name).mkdir()
    (tmp_path / "b" / "cache" / entry_a.parent.name / entry_a.name).write_bytes(entry_a.read_bytes())
    n = Counter(monkeypatch)
    m = cache.open_match(files[8], sc, ids["red"])
    assert n.replays == 1
    same_as_cold(m, files[8], sc, ids["red"])


def test_an_entry_for_another_reader_or_program_is_ignored(duel, home, monkeypatch):
    files, sc, ids = duel
    cache.open_match(files[4], sc, ids["red"])
    (entry,) = entries(home)
    # Renamed to where blue's entry would be: its MAC covers red's keys.
    shell = cycle.Match(files[4].header, sc)
    blue_tag = cache._tag(cache._context(shell, sc, ids["blue"]))
    entry.rename(entry.with_name(f"{blue_tag}-{len(files[4].exchanges):05d}.bin"))
    n = Counter(monkeypatch)
    m = cache.open_match(files[8], sc, ids["blue"])
    assert n.replays == 1
    same_as_cold(m, files[8], sc, ids["blue"])
    # An edited program (its code stamp changes) does not trust old entries.
    monkeypatch.setattr(cache, "code_stamp", lambda module: "another program")
    cache.open_match(files[8], sc, ids["blue"])
    assert n.replays == 3                                  # (one was same_as_cold's)


def test_a_fork_is_not_mistaken_for_the_kept_game(duel, home, monkeypatch):
    files, sc, ids = duel
    cache.open_match(files[7], sc, ids["red"])
    cache.open_match(files[8], sc, ids["red"])
    fork = eh.one_exchange(files[7], sc, ids, choose=lambda d: d.options[0])
    assert exchange_hash(fork.last) != exchange_hash(files[8].last)
    n = Counter(monkeypatch)
    m = cache.open_match(fork, sc, ids["red"])
    assert n.replays == 0 and n.advances == 1             # the entry before the fork, advanced
    same_as_cold(m, fork, sc, ids["red"])


def test_writing_an_exchange_keeps_the_match_for_mail(duel, home, tmp_path, monkeypatch):
    files, sc, ids = duel
    gf = files[8]
    side = cycle.replay(gf, sc).next_sender()
    me = ids[side]
    path = tmp_path / "in.toml"
    path.write_text(gf.to_toml(), encoding="utf-8")
    monkeypatch.setattr(session, "scenario_for", lambda gf, override=None: sc)
    loaded = session.open_game(path, me, cached=True)
    turn = cycle.Turn(loaded.match, me)
    while not turn.done:
        turn.push(eh.first_option(turn.pending()))
    out = tmp_path / "out"
    out.mkdir()
    written = session.append_and_write(loaded, turn.finish(), me, out)
    n = Counter(monkeypatch)
    m = session.open_game(written.path, me, cached=True).match      # what `pbem mail` does
    assert (n.replays, n.advances) == (0, 0)
    same_as_cold(m, session.load_game(written.path), sc, me)


def test_an_invalid_exchange_after_a_good_entry_gets_the_cold_verdict(duel, home, monkeypatch):
    files, sc, ids = duel
    cache.open_match(files[7], sc, ids["red"])
    bad = dict(files[8].last, state="0" * 64)
    gf = GameFile(files[7].exchanges + [bad])
    with pytest.raises(cycle.Verification) as cold:
        cycle.replay(gf, sc, ids["red"])
    with pytest.raises(cycle.Verification) as warm:
        cache.open_match(gf, sc, ids["red"])
    assert str(warm.value) == str(cold.value)


def test_an_exchange_altered_before_the_entrys_last_gets_the_cold_verdict(duel, home, monkeypatch):
    """The entry's last exchange is the file's, but an earlier one was
    altered after signing: the file's chain breaks there, and only the
    cold replay judges it (an entry is no licence for the prefix)."""
    files, sc, ids = duel
    cache.open_match(files[6], sc, ids["red"])
    altered = [dict(ex) for ex in files[8].exchanges]
    altered[3]["message"] = "not what was signed"
    gf = GameFile(altered)
    with pytest.raises(cycle.Verification) as cold:
        cycle.replay(gf, sc, ids["red"])
    with pytest.raises(cycle.Verification) as warm:
        cache.open_match(gf, sc, ids["red"])
    assert str(warm.value) == str(cold.value)


# ---------------------------------------------------------------- the CLI


def cli_home(tmp_path: Path, monkeypatch, me) -> Path:
    home = tmp_path / "clihome"
    home.mkdir()
    identity.save_private(me, home / "key.toml", None)
    monkeypatch.setenv("PBEM_HOME", str(home))
    monkeypatch.setenv("PBEM_SCENARIOS", str(TESTS / "data" / "scenarios"))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
    return home


def pbem(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_read_commands_use_the_kept_match(duel, tmp_path, monkeypatch):
    files, sc, ids = duel
    cli_home(tmp_path, monkeypatch, ids["red"])
    f6, f8 = tmp_path / "g6.toml", tmp_path / "g8.toml"
    f6.write_text(files[6].to_toml(), encoding="utf-8")
    f8.write_text(files[8].to_toml(), encoding="utf-8")
    cold = {cmd: pbem(cmd, str(f8)).output for cmd in ("log", "dice", "sitrep")}
    for entry in entries(tmp_path / "clihome"):
        entry.unlink()
    n = Counter(monkeypatch)
    assert pbem("log", str(f6)).exit_code == 0
    assert n.replays == 1
    for cmd in ("log", "dice", "sitrep"):
        r = pbem(cmd, str(f8))
        assert r.exit_code == 0 and r.output == cold[cmd]
    assert (n.replays, n.advances) == (1, 2)
    assert pbem("verify", str(f8)).exit_code == 0
    assert n.replays == 2                                  # verify stays a full, cold check


def test_a_tampered_entry_cannot_make_play_accept_what_verify_refuses(duel, tmp_path, monkeypatch):
    files, sc, ids = duel
    gf = files[8]
    side = cycle.replay(gf, sc).next_sender()
    me = ids[side]
    home = cli_home(tmp_path, monkeypatch, me)
    good = tmp_path / "good.toml"
    good.write_text(files[7].to_toml(), encoding="utf-8")
    assert pbem("sitrep", str(good)).exit_code == 0       # an entry for exchange 7
    # A file whose exchange 8 was edited after signing (its moves changed).
    edited = dict(gf.last, message="not what was signed")
    bad = tmp_path / "bad.toml"
    bad.write_text(GameFile(files[7].exchanges + [edited]).to_toml(), encoding="utf-8")
    verdict = pbem("verify", str(bad))
    assert verdict.exit_code == 1
    # The tamperer rewrites the kept entry to claim exchange 8 was verified.
    (entry,) = entries(home)
    data = entry.read_bytes()
    head = len(cache.MAGIC) + 32
    forged = data[:head] + exchange_hash(edited).encode() + data[head + 64:]
    entry.with_name(entry.name.replace(f"{len(files[7].exchanges):05d}", f"{len(gf.exchanges):05d}")).write_bytes(forged)
    r = pbem("play", str(bad), "--out", str(tmp_path))
    assert r.exit_code == 1
    assert r.output.strip().splitlines()[-1] == verdict.output.strip().splitlines()[-1]


# ---------------------------------------------------------------- parsed files


@pytest.fixture
def fresh_process(monkeypatch):
    """Each command as in a process of its own (no parse remembered in
    memory); counts the parses made."""
    from pbem.protocol import gamefile

    parses = []
    parse = gamefile.parse

    def counted(*a, **k):
        parses.append(1)
        return parse(*a, **k)

    monkeypatch.setattr(gamefile, "parse", counted)

    def new() -> list[int]:
        monkeypatch.setattr(session, "_PARSED", {})
        monkeypatch.setattr(session, "_DIGESTS", {})
        monkeypatch.setattr(session, "_UNKEPT", {})
        return parses
    return new


def _on_disk(gf: GameFile, tmp_path: Path, name: str = "g.toml") -> Path:
    path = tmp_path / name
    path.write_text(gf.to_toml(), encoding="utf-8")
    return path


def parsed_files(h: Path) -> list[Path]:
    return sorted((h / "cache" / "parsed").glob("*.bin"))


def test_a_file_verified_once_is_not_parsed_again(duel, home, tmp_path, monkeypatch, fresh_process):
    files, sc, ids = duel
    monkeypatch.setattr(session, "scenario_for", lambda gf, override=None: sc)
    path = _on_disk(files[8], tmp_path)
    parses = fresh_process()
    first = session.open_game(path, ids["red"], cached=True)
    assert len(parses) == 1 and len(parsed_files(home)) == 1
    parses = fresh_process()
    again = session.open_game(path, ids["red"], cached=True)
    assert len(parses) == 1                                 # (the count goes on from 1: no new parse)
    assert again.gf == first.gf and again.gf == GameFile(files[8].exchanges, again.gf.state)
    assert again.gf == gamefile_parse(path)


def gamefile_parse(path: Path) -> GameFile:
    from pbem.protocol import gamefile

    return gamefile.load(path)


@pytest.mark.parametrize("how", sorted(CORRUPTIONS))
def test_a_corrupted_parsed_file_is_ignored(duel, home, tmp_path, monkeypatch, fresh_process, how):
    files, sc, ids = duel
    monkeypatch.setattr(session, "scenario_for", lambda gf, override=None: sc)
    path = _on_disk(files[8], tmp_path)
    fresh_process()
    session.open_game(path, ids["red"], cached=True)
    (kept,) = parsed_files(home)
    kept.write_bytes(CORRUPTIONS[how](kept.read_bytes()))
    parses = fresh_process()
    before = len(parses)
    again = session.open_game(path, ids["red"], cached=True)
    assert len(parses) == before + 1 and again.gf == gamefile_parse(path)


def test_a_parsed_file_from_another_home_or_program_is_ignored(duel, tmp_path, monkeypatch, fresh_process):
    files, sc, ids = duel
    monkeypatch.setattr(session, "scenario_for", lambda gf, override=None: sc)
    path = _on_disk(files[8], tmp_path)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "a"))
    fresh_process()
    session.open_game(path, ids["red"], cached=True)
    (kept,) = parsed_files(tmp_path / "a")
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "b"))
    cache._mac_key(create=True)
    (tmp_path / "b" / "cache" / "parsed").mkdir()
    (tmp_path / "b" / "cache" / "parsed" / kept.name).write_bytes(kept.read_bytes())
    parses = fresh_process()
    before = len(parses)
    session.open_game(path, ids["red"], cached=True)
    assert len(parses) == before + 1
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "a"))
    monkeypatch.setattr(cache, "code_stamp", lambda module: "another program")
    parses = fresh_process()
    before = len(parses)
    session.open_game(path, ids["red"], cached=True)
    assert len(parses) == before + 1


def test_verify_a_bystander_and_a_refused_file_keep_no_parsed_file(duel, home, tmp_path, monkeypatch,
                                                                    fresh_process):
    files, sc, ids = duel
    monkeypatch.setattr(session, "scenario_for", lambda gf, override=None: sc)
    path = _on_disk(files[8], tmp_path)
    fresh_process()
    session.open_game(path, ids["red"])                     # what verify does: cold, no cache
    session.open_game(path, None, cached=True)              # a bystander's read
    bad = dict(files[8].last, state="0" * 64)
    refused = _on_disk(GameFile(files[7].exchanges + [bad]), tmp_path, "bad.toml")
    with pytest.raises(cycle.Verification):
        session.open_game(refused, ids["red"], cached=True)
    assert parsed_files(home) == []


def test_the_newest_parsed_files_are_kept(duel, home, tmp_path, monkeypatch, fresh_process):
    files, sc, ids = duel
    monkeypatch.setattr(session, "scenario_for", lambda gf, override=None: sc)
    monkeypatch.setattr(cache, "PARSED_KEEP", 2)
    for k in (5, 6, 7):
        fresh_process()
        session.open_game(_on_disk(files[k], tmp_path, f"g{k}.toml"), ids["red"], cached=True)
    assert len(parsed_files(home)) == 2
