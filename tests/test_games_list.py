"""``pbem games``: every game in the home, waiting-for-you first; who acts
(you, them, their program resolving your dice), turn and phase, exchange
and waiting time, finished games with their result; ``pbem play`` without
an argument when several games wait."""
from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

from clihelp import make_players, start_game, stem_of
from pbem import gamelist


def test_games_lists_waiting_for_you_first_then_them_then_finished(tmp_path: Path) -> None:
    anna, pavel = make_players(tmp_path)
    games = []
    for _ in range(3):
        joined = start_game(anna, pavel, "sealed")
        anna.run("fetch", str(joined))
        games.append((joined, stem_of(joined)))
    (g1, s1), (g2, s2), (g3, s3) = games
    # Several wait for her: `play` lists them and asks for one; a part of an id must name one game.
    r = anna.run("play", ok=False)
    assert "3 games wait for you: name one, `pbem play GAME`" in r.stderr
    assert r.stdout.count("YOUR MOVE") == 3
    r = anna.run("play", "duel", ok=False)
    assert "names 3 games" in r.stderr
    # Game 2: Anna plays her pick and attacks; her attack waits for Pavel's program (their dice).
    anna.run("play", str(g2), "--orders", str(anna.orders("2-3", ["pick 3"])), "--out", str(anna.out))
    pavel.run("play", str(anna.out / f"{s2}-003.toml"), "--orders", str(pavel.orders("2-4", ["pick 1"])),
              "--out", str(pavel.out))
    anna.run("fetch", str(pavel.out / f"{s2}-004.toml"))
    anna.run("play", s2.rsplit("-", 1)[1], "--orders", str(anna.orders("2-5", ["attack"])), "--out", str(anna.out))
    # Game 3: Anna resigns.
    anna.run("play", str(g3), "--orders", str(anna.orders("3-3", ["resign"])), "--out", str(anna.out))
    # Game 1 has waited longest.
    for path in (anna.home / "games").glob("*/0002.toml"):
        os.utime(path, (time.time() - 3 * 86400, time.time() - 3 * 86400))

    listing = json.loads(anna.run("games", "--json").stdout)
    assert [e["acts"] for e in listing] == ["you", "their dice", "over"]
    first, second, third = listing
    assert first["exchange"] == 2 and first["waiting"] == "3d" and first["seat"] == "red"
    assert first["opponents"] == ["Pavel (blue)"] and first["scenario"] == "duel/short"
    assert first["phase"] == "pick" and first["turn"] == "Duel" and first["who"] == "red"
    assert second["exchange"] == 5 and second["who"] == "blue"
    assert "first resolves the dice of red's last order" in second["summary"]
    assert third["result"] == "red resigns" and third["exchange"] == 3
    text = anna.run("games").stdout.splitlines()
    assert re.match(rf"{first['game_id']}  duel/short  you: red v Pavel \(blue\)  Duel, pick  YOUR MOVE  "
                    r"exchange 2, waiting 3d$", text[0]), text[0]
    assert "their program rolls your dice" in text[1]
    assert "finished: red resigns" in text[2]
    assert text[-1] == "3 games, 1 waiting for you: `pbem play GAME`"
    # Pavel's side: game 2 waits for his program to resolve Anna's dice.
    anna_files = [anna.out / f"{s2}-005.toml", anna.out / f"{s3}-003.toml"]
    r = pavel.run("fetch", *map(str, anna_files))
    assert "2 stored" in r.stdout
    pav = json.loads(pavel.run("games", "--json").stdout)
    assert [e["acts"] for e in pav] == ["you", "them", "over"]
    # The one game waiting for him is played with no argument: his program resolves Anna's dice.
    r = pavel.run("play", "--orders", str(pavel.orders("2-6", ["defend block"])), "--out", str(pavel.out))
    assert f"Game {pav[0]['game_id']} waits for you" in r.stdout and f"{s2}-006.toml" in r.stdout
    r = pavel.run("play")
    assert r.stdout.startswith("No game waits for you")


def test_age_units() -> None:
    assert gamelist.age(100, 100) == "0s"
    assert gamelist.age(0, 59) == "59s" and gamelist.age(0, 3600) == "1h" and gamelist.age(0, 2 * 86400 + 5) == "2d"
