"""``pbem map``, ``pbem sitrep --map all`` and the map in ``pbem mail``,
through the command line on the files of a scripted A Victory Denied
game: pictures written atomically where asked, every bad input one line
on stderr and a non-zero exit, the mail's picture the recipient's view
(text/plain first, then HTML with the PNG inline, the game attached)."""
from __future__ import annotations

import email
import io
import shutil
import xml.etree.ElementTree as ET
from email import policy

import pytest
from PIL import Image

from enginehelp import demo_states
from picturehelp import pbem


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    rules, state, folder, last = demo_states(tmp_path_factory, "avd", 4)
    home = folder / "anna-home"
    home.mkdir()
    shutil.copy(folder / "anna.key.toml", home / "key.toml")
    shutil.copy(folder / "anna.id.toml", home / "me.id.toml")
    return folder, last, home


def test_map_writes_png_and_svg_of_the_own_view(played, tmp_path):
    folder, last, home = played
    r = pbem(home, "map", str(last), "--png", str(tmp_path / "m.png"), "--svg", str(tmp_path / "m.svg"))
    assert "Map written" in r.stdout and "(german view)" in r.stdout
    img = Image.open(tmp_path / "m.png")
    assert img.format == "PNG" and img.size[0] > 1000 and img.size[1] > 1500
    root = ET.parse(tmp_path / "m.svg").getroot()
    assert root.get("width") == str(img.size[0]) and root.get("height") == str(img.size[1])
    assert not list(tmp_path.glob(".*.tmp"))
    r = pbem(home, "map", str(last))                        # default: beside the file, named for the seat
    assert (last.parent / f"{last.stem}-german.png").is_file()
    r = pbem(home, "map", str(last), "--side", "public", "--png", str(tmp_path / "p.png"))
    assert "(public view)" in r.stdout


@pytest.mark.parametrize("args, says", [
    (["--png", "/nonexistent-folder/x.png"], "folder /nonexistent-folder does not exist"),
    (["--svg", "{tmp}"], "is a folder"),
    (["--side", "soviet"], "you may only see your own seat's view"),
    (["--side", "nobody"], "no such seat"),
    (["--png", "{tmp}/same", "--svg", "{tmp}/same"], "name the same file"),
])
def test_map_bad_input_is_one_line_and_writes_nothing(played, tmp_path, args, says):
    folder, last, home = played
    r = pbem(home, "map", str(last), *[a.format(tmp=tmp_path) for a in args], ok=False)
    assert says in r.stderr
    assert not list(tmp_path.iterdir())


def test_map_of_a_missing_file_fails_in_one_line(played, tmp_path):
    _, _, home = played
    pbem(home, "map", str(tmp_path / "nope.toml"), ok=False)


def test_sitrep_map_all_draws_the_whole_map_at_the_terminal_width(played):
    _, last, home = played
    for columns in (80, 160):
        out = pbem(home, "sitrep", str(last), "--map", "all", columns=columns).stdout
        assert "map: columns 15-" in out and "map: legend" in out
        assert max(len(line) for line in out.splitlines()) <= columns
        for h in ("1501", "4032", "3919", "2110"):
            assert h in out
    window = pbem(home, "sitrep", str(last)).stdout
    assert "columns" not in window
    pbem(home, "sitrep", str(last), "--map", "some", ok=False)


def test_mail_shows_the_recipients_view_inline_with_the_log_first(played, tmp_path):
    folder, last, home = played
    game = tmp_path / last.name
    shutil.copy(last, game)
    r = pbem(home, "mail", str(game))
    assert "Email written" in r.stdout
    msg = email.message_from_bytes(game.with_suffix(".eml").read_bytes(), policy=policy.default)
    assert msg.get_content_type() == "multipart/mixed"
    alternative, attached = msg.get_payload()
    assert alternative.get_content_type() == "multipart/alternative"
    text, related = alternative.get_payload()
    assert text.get_content_type() == "text/plain" and "Exchange" in text.get_content()
    assert related.get_content_type() == "multipart/related"
    html, png = related.get_payload()
    assert html.get_content_type() == "text/html"
    assert png.get_content_type() == "image/png" and png.get_filename() == "map-soviet.png"
    assert f'src="cid:{png["Content-ID"][1:-1]}"' in html.get_content()
    img = Image.open(io.BytesIO(png.get_payload(decode=True)))
    assert img.size[0] > 1000
    assert attached.get_filename() == game.name and attached.get_payload(decode=True) == game.read_bytes()
