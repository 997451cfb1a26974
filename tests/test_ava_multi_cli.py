"""A four-seat A Victory Awaits game with a Game Controller (AVA 19) through
the command line, each player with his own PBEM_HOME: keygen, `pbem new
ava/practice-multi --seat ... --option ...`, the joins in seat order, a few
exchanges of `pbem play` from orders files (the orders the demo player
would give, worked out on the sender's own copy) and one typed on stdin,
`pbem mail` to the three other seats, each seat's `pbem sitrep` (its own
face-down chits only) and `pbem verify` by a fifth home that plays no seat.
Bad input a player may type gets one line on stderr."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import enginehelp  # noqa: F401  (registers the test games)
import pytest
from avamulti import SCENARIO, SEATS
from clihelp import Player

from pbem import cycle, session
from pbem.protocol import identity

LAYOUT = "ava/practice-multi"
OPTIONS = ("--option", "players=4", "--option", "multiplayer=controller", "--option", f"seat_layout={LAYOUT}")
NAMES = {"axis_north": "Hans", "axis_south": "Kurt", "soviet_north": "Olga", "soviet_south": "Ivan"}
SEALED = "sealed:"


def _homes(tmp_path: Path) -> tuple[dict[str, Player], Player]:
    scen = tmp_path / "scenarios"
    scen.mkdir()
    out = {}
    for seat, name in [*NAMES.items(), ("bystander", "Bea")]:
        p = Player(name, seat, tmp_path / name.lower(), scen)
        p.out.mkdir(parents=True)
        p.run("keygen", "--name", name, "--email", f"{name.lower()}@example.org", "--no-passphrase",
              "--out", str(p.root))
        out[seat] = p
    bystander = out.pop("bystander")
    return out, bystander


def _ident(p: Player) -> str:
    return str(p.root / f"{p.name.lower()}.id.toml")


def _written(stdout: str) -> Path:
    got = re.search(r"(?:Written|Joined as \w+:|created:) (\S+\.toml)", stdout)
    assert got, stdout
    return Path(got.group(1))


def _next_orders(path: Path, ps: dict[str, Player]) -> tuple[str, list[str]]:
    """The seat that sends next and the orders the demo player would give,
    worked out on that seat's own copy (its key, its secrets)."""
    gf = session.load_game(path)
    seat = cycle.replay(gf, SCENARIO).next_sender()
    assert seat in ps, seat
    me = identity.load_private(ps[seat].home / "key.toml", None)
    m = cycle.replay(gf, SCENARIO, me)
    turn = cycle.Turn(m, me)
    texts: list[str] = []
    while not turn.done:
        d = turn.pending()
        assert d is not None
        order: Any = m.rules.demo_order(turn.es["game"], d)
        texts.append(order if isinstance(order, str) else m.rules.format(order))
        turn.push(order)
    return seat, texts


def _face_down(path: Path, ps: dict[str, Player]) -> dict[str, list[str]]:
    """Each seat's chits face down now, read with its own key."""
    gf = session.load_game(path)
    out = {}
    for seat, p in ps.items():
        m = cycle.replay(gf, SCENARIO, identity.load_private(p.home / "key.toml", None))
        st = m.state
        mine = (st["hidden"].get(seat) or {}).get("chits") or {}
        out[seat] = [c for h, (c, _) in mine.items() if st["sealed"].get(h) == seat]
    return out


def _mentions(text: str, chit: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(chit) + r"(?![\w-])", text) is not None


def _panel(text: str, title: str) -> str:
    """One block of a rendered sitrep (its boxed panel)."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("╭") and f" {title} " in ln)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("╰"))
    return "\n".join(lines[start:end])


def _secret_search(text: str, chit: str) -> str:
    """Where ``chit`` may show only as a chit: the whole sitrep, or, for an
    HQ's chit (a unit prints as its counter id, and an HQ and its chit share
    one, as on the printed pieces), the situation panel, where the cup and
    the queue are."""
    return _panel(text, "situation") if chit in SCENARIO["units"] else text


def _mail_goes_to_the_three_others(p: Player, path: Path, ps: dict[str, Player]) -> None:
    r = p.run("mail", str(path))
    others = [f"{q.name} <{q.name.lower()}@example.org>" for s, q in ps.items() if s != p.side]
    assert f"(to {', '.join(others)})" in r.stdout, r.stdout
    eml = path.with_suffix(".eml").read_text(encoding="utf-8")
    assert f"To: {', '.join(others)}" in eml.replace("\n ", " ")


@pytest.fixture(autouse=True)
def _own_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This process reads the players' files too: it keeps nothing of its own
    in the real home."""
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "test-home"))


def test_four_homes_create_join_play_mail_and_a_bystander_verifies(tmp_path: Path) -> None:
    ps, bystander = _homes(tmp_path)
    creator = ps["axis_north"]
    invite = [a for s in SEATS[1:] for a in ("--seat", f"{s}={_ident(ps[s])}")]
    # Without the scenario's layout the options seat the rulebook's four players: one line says whom.
    r = creator.run("new", LAYOUT, "--seat", "axis_north=me", *invite, "--option", "players=4",
                    "--option", "multiplayer=controller", "--out", str(creator.out), ok=False)
    assert "name every seat of ava once: ag_north, ag_center, ag_south, soviet" in r.stderr
    r = creator.run("new", LAYOUT, "--seat", "axis_north=me", *invite, *OPTIONS[:2],
                    "--option", "multiplayer=controler", "--option", f"seat_layout={LAYOUT}", ok=False)
    assert "controler" in r.stderr
    # The layout's seats are four: five players was a confusing side_commands complaint.
    r = creator.run("new", LAYOUT, "--seat", "axis_north=me", *invite, "--option", "players=5", *OPTIONS[2:], ok=False)
    assert "the seat layout seats 4 players (axis_north, axis_south, soviet_north, soviet_south), not 5" in r.stderr
    r = creator.run("new", LAYOUT, "--seat", "axis_north=me", *invite, *OPTIONS, "--out", str(creator.out))
    created = _written(r.stdout)
    for s in SEATS[1:]:
        assert f"{NAMES[s]} <{NAMES[s].lower()}@example.org> ({s})" in r.stdout
    _mail_goes_to_the_three_others(creator, created, ps)
    # The joins go in seat order, each on the file the one before wrote.
    current = created
    for seat in SEATS[1:]:
        r = ps[seat].run("join", str(current), "--yes", "--out", str(ps[seat].out))
        assert f"You play {seat} for {seat.split('_')[0]}" in r.stdout
        assert "players = 4" in r.stdout and "multiplayer = controller" in r.stdout
        current = _written(r.stdout)
    ps["soviet_south"].run("join", str(current), "--yes", ok=False)          # already joined: one line
    # A seat whose turn it is not is told who acts; nothing is written.
    r = ps["axis_north"].run("play", str(current), "--orders", str(ps["axis_north"].orders("early", ["draw"])),
                             "--out", str(ps["axis_north"].out))
    assert "Nothing to do" in r.stdout and "axis_south" in r.stdout
    # A49: the Axis side seat makes the Surprise Attack and the selection; one exchange.
    p = ps["axis_south"]
    r = p.run("play", str(current), "--orders",
              str(p.orders("x1", ["end-combat", "chits AX-9A AX-4A AX-3PzG guderian"])), "--out", str(p.out))
    current = _written(r.stdout)
    _mail_goes_to_the_three_others(p, current, ps)
    # A chit the side does not have: one line, nothing written.
    p = ps["soviet_north"]
    r = p.run("play", str(current), "--orders", str(p.orders("bad", ["chits AX-9A"])), "--out", str(p.out), ok=False)
    assert "AX-9A" in r.stderr
    # ... typed at the prompt (stdin) instead of an orders file.
    r = p.run("play", str(current), "--out", str(p.out), input="chits SU-10A SU-3A SU-4A\ny\n")
    current = _written(r.stdout)
    # Then whoever the game names, with the orders the demo player would give.
    senders = []
    for k in range(8):
        seat, texts = _next_orders(current, ps)
        p = ps[seat]
        r = p.run("play", str(current), "--orders", str(p.orders(f"a{k}", texts)), "--out", str(p.out))
        current = _written(r.stdout)
        senders.append(seat)
        _mail_goes_to_the_three_others(p, current, ps)
    assert "soviet_south" in senders                        # the Controller drew (19.4)
    # Each seat's sitrep: the seat list, the queue, its own face-down chits and none of another seat's.
    held = _face_down(current, ps)
    assert held["axis_south"] or held["soviet_north"]       # A49: the side seats hold them; some still down
    for seat, p in ps.items():
        text = p.run("sitrep", str(current)).stdout
        assert re.search(rf"{seat} \(you\): {seat.split('_')[0].title()}", text), text
        assert "Game Controller (19.3)" in text and "queue (19.4)" in text
        for other, chits in held.items():
            for chit in chits:
                assert _mentions(_secret_search(text, chit), chit) is (other == seat), (seat, other, chit)
    ps["axis_north"].run("sitrep", str(current), "--side", "axis_south", ok=False)
    # The bystander holds no seat: he verifies every exchange and sees the public view.
    r = bystander.run("verify", str(current))
    assert r.stdout.startswith(f"valid: {len(session.load_game(current).exchanges)} exchanges")
    public = bystander.run("sitrep", str(current)).stdout
    assert "(you)" not in public and not any(_mentions(_secret_search(public, c), c) for cs in held.values() for c in cs)
