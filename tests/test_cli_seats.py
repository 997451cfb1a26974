"""Three players, three homes, one game through the command line: `pbem new
--seat`, joins in seat order, play as `pending()` names the seat, and mail
addressed to both other players."""
from __future__ import annotations

from pathlib import Path

import enginehelp  # noqa: F401  (registers the test games)
from clihelp import Player


def _players(tmp_path: Path) -> dict[str, Player]:
    scen = tmp_path / "scenarios"
    scen.mkdir()
    out = {}
    for seat, name in (("north", "Nadia"), ("south", "Sergei"), ("blue", "Boris")):
        p = Player(name, seat, tmp_path / name.lower(), scen)
        p.out.mkdir(parents=True)
        p.run("keygen", "--name", name, "--email", f"{name.lower()}@example.org", "--no-passphrase",
              "--out", str(p.root))
        out[seat] = p
    return out


def test_three_players_create_join_and_play_a_round(tmp_path: Path) -> None:
    ps = _players(tmp_path)
    ident = {s: str(p.root / f"{p.name.lower()}.id.toml") for s, p in ps.items()}
    r = ps["north"].run("new", "trio/test", "--seat", "north=me", "--seat", f"south={ident['south']}",
                        "--seat", f"blue={ident['blue']}", "--dice", "sealed", "--out", str(ps["north"].out))
    created = next(ps["north"].out.glob("*-001.toml"))
    assert "Sergei <sergei@example.org> (south)" in r.stdout and "Boris <boris@example.org> (blue)" in r.stdout
    r = ps["north"].run("mail", str(created))
    assert "Sergei <sergei@example.org>, Boris <boris@example.org>" in r.stdout
    # Blue may not join before south's file reaches him: he joins on south's.
    r = ps["south"].run("join", str(created), "--yes", "--out", str(ps["south"].out))
    assert "You play south for red" in r.stdout and "Nadia <nadia@example.org> plays north" in r.stdout
    joined = next(ps["south"].out.glob("*-002.toml"))
    r = ps["blue"].run("join", str(joined), "--yes", "--out", str(ps["blue"].out))
    assert "Sergei <sergei@example.org> plays south" in r.stdout
    current = next(ps["blue"].out.glob("*-003.toml"))
    ps["blue"].run("join", str(current), "--yes", ok=False)           # already joined: one line
    for seat, orders in (("north", ["attack"]), ("blue", []), ("south", ["rest"]), ("blue", ["strike south"]),
                         ("north", [])):
        # north's attack waits for blue's dice (never south's: a team-mate);
        # blue's program resolves it and hands to south; south rests; blue
        # strikes, and his roll waits for north, the next red seat.
        p = ps[seat]
        r = p.run("play", str(current), "--orders", str(p.orders("x", orders)), "--out", str(p.out))
        current = sorted(p.out.glob("*.toml"))[-1]
    from pbem import cycle, session

    from pbem.scenario import load_toml

    scenario = load_toml(Path(__file__).parent / "data" / "scenarios" / "trio" / "test.toml")
    m = cycle.replay(session.load_game(current), scenario)
    by_n = {rec.n: rec for rec in m.records}
    assert by_n[5].side == "blue" and by_n[5].rolls[0]["purpose"] == "round 1, north d6"
    assert by_n[8].side == "north" and by_n[8].rolls[0]["purpose"] == "round 1, blue d6"
    for p in ps.values():
        r = p.run("verify", str(current))
        assert r.stdout.startswith("valid:")
