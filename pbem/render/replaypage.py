"""The replay page (``pbem replay FILE --html OUT``): one self-contained
HTML document that steps through every exchange of a game as one viewer
saw it - the map picture after the exchange, its turn-log lines and its
rolls with their purposes.

Pure: it is handed the steps and the canvases the viewer's views were drawn
on, and returns text.  It draws only what it is handed, so the page shows
no more than the views and turn logs it was built from (those already keep
each viewer's secrets).  No network: the style, the script and the pictures
(``data:`` URIs of PNGs) are inside the page.

Size: a game of 300 exchanges has well over a hundred distinct map states,
and an AVD map is about 1500 x 2400 pixels.  So each picture is drawn at
a reduced scale, and only its first state is stored whole; every later
state is that base plus the square tiles that differ from it, each tile
stored once however many states show it (a counter that stays put costs
nothing more).  The page's script lays the tiles over the base.
"""
from __future__ import annotations

import hashlib
import html
import io
import json
from base64 import b64encode
from dataclasses import dataclass, field
from typing import Any, Sequence

from pbem.render.canvas import Canvas, to_image
from pbem.render.turnlog import _roll_result

MAX_WIDTH = 1000      # pixels: a picture wider than this is drawn smaller...
MIN_SCALE = 0.65      # ...but never below this, where the smallest labels stop being legible
TILE = 48             # pixels: the side of a square that a later state replaces
COLOURS = 64          # the palette of every stored PNG (flat map colours; antialiased text needs a few)


@dataclass(frozen=True)
class Step:
    """One exchange as the page shows it: its heading, its turn-log lines
    (rolls apart), its public rolls, the viewer's own secret draws, and the
    picture (an index from :meth:`Pictures.add`; None: no picture)."""

    n: int
    heading: str
    lines: tuple[str, ...]
    rolls: tuple[dict[str, Any], ...]
    own_secret_rolls: tuple[dict[str, Any], ...]
    picture: int | None


@dataclass
class Pictures:
    """The map states of a game as bases and tiles: each state a base and
    the tiles that differ from it.  Identical tiles are stored once."""

    scale_to: int = MAX_WIDTH
    bases: list[tuple[int, int, bytes, Any]] = field(default_factory=list)     # w, h, PNG, the image
    tiles: list[tuple[int, int, int, int, bytes]] = field(default_factory=list)  # x, y, w, h, PNG
    states: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)     # base, tiles
    _tile_ids: dict[tuple[int, int, bytes], int] = field(default_factory=dict)

    def add(self, canvas: Canvas) -> int:
        """Store the picture ``canvas`` draws; its index for :class:`Step`."""
        from PIL import ImageChops

        small = scaled(canvas, min(1.0, max(MIN_SCALE, self.scale_to / canvas.width)))
        img = to_image(small)
        base = next((i for i, b in enumerate(self.bases) if b[3].size == img.size), None)
        if base is None:        # a picture of another size (a longer legend) starts a base of its own
            self.bases.append((img.width, img.height, _png(img), img))
            self.states.append((len(self.bases) - 1, ()))
            return len(self.states) - 1
        diff = ImageChops.difference(img, self.bases[base][3])
        changed: list[int] = []
        box = diff.getbbox()
        if box:
            for y in range(box[1] // TILE * TILE, box[3], TILE):
                band = (0, y, img.width, min(y + TILE, img.height))
                if not diff.crop(band).getbbox():
                    continue
                for x in range(box[0] // TILE * TILE, box[2], TILE):
                    square = (x, y, min(x + TILE, img.width), min(y + TILE, img.height))
                    if diff.crop(square).getbbox():
                        changed.append(self._tile(img.crop(square), x, y))
        self.states.append((base, tuple(changed)))
        return len(self.states) - 1

    def _tile(self, img: Any, x: int, y: int) -> int:
        key = (x, y, hashlib.sha256(img.tobytes()).digest())
        if key not in self._tile_ids:
            self._tile_ids[key] = len(self.tiles)
            self.tiles.append((x, y, img.width, img.height, _png(img)))
        return self._tile_ids[key]

    def stored_bytes(self) -> int:
        return sum(len(b[2]) for b in self.bases) + sum(len(t[4]) for t in self.tiles)


def _png(img: Any) -> bytes:
    """``img`` as a small PNG: a palette of :data:`COLOURS`, undithered
    (dither noise costs bytes and shows on flat colours), no metadata."""
    from PIL import Image

    buf = io.BytesIO()
    img.quantize(COLOURS, dither=Image.Dither.NONE).save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def scaled(canvas: Canvas, f: float) -> Canvas:
    """``canvas`` with every coordinate, width and font size times ``f``."""
    if f == 1.0:
        return canvas

    def p(pt: tuple[float, float]) -> tuple[float, float]:
        return (pt[0] * f, pt[1] * f)

    out = Canvas(max(1, round(canvas.width * f)), max(1, round(canvas.height * f)), canvas.background)
    for s in canvas.shapes:
        kind = s[0]
        if kind == "poly":
            out.shapes.append((kind, [p(q) for q in s[1]], s[2], s[3], s[4] * f, s[5]))
        elif kind == "line":
            out.shapes.append((kind, p(s[1]), p(s[2]), s[3], s[4] * f, *s[5:]))
        elif kind == "circle":
            out.shapes.append((kind, p(s[1]), s[2] * f, s[3], s[4], s[5] * f, s[6]))
        elif kind == "text":
            out.shapes.append((kind, p(s[1]), s[2], s[3] * f, *s[4:]))
    return out


def _uri(png: bytes) -> str:
    return "data:image/png;base64," + b64encode(png).decode("ascii")


def _roll_row(roll: dict[str, Any], secret: bool) -> str:
    e = html.escape
    whose = '<td class="secret">yours, secret</td>' if secret else "<td></td>"
    return (f"<tr><td>{e(str(roll.get('purpose', '')))}</td><td>{e(str(roll.get('op', '')))}</td>"
            f"<td>{e(_roll_result(roll))}</td><td>{e(str(roll.get('pos', '')))}</td>{whose}</tr>")


def _step_html(step: Step, total: int) -> str:
    e = html.escape
    rows = [_roll_row(r, False) for r in step.rolls] + [_roll_row(r, True) for r in step.own_secret_rolls]
    rolls = ('<table class="rolls"><thead><tr><th>purpose</th><th>roll</th><th>result</th><th>stream value</th>'
             f'<th></th></tr></thead><tbody>{"".join(rows)}</tbody></table>' if rows else
             '<p class="none">No rolls in this exchange.</p>')
    pic = "" if step.picture is None else f' data-picture="{step.picture}"'
    hidden = "" if step.n == 1 else " hidden"
    return (f'<section class="step" id="s{step.n}" data-n="{step.n}"{pic}{hidden}>'
            f'<h2>{e(step.heading)} <small>({step.n} of {total})</small></h2>'
            f'<pre class="log">{e(chr(10).join(step.lines))}</pre><h3>Rolls</h3>{rolls}</section>')


def page(title: str, viewer: str, notice: str, now: str, steps: Sequence[Step], pictures: Pictures) -> str:
    """The whole page.  ``viewer`` says whose view it is ("german's view"),
    ``notice`` is the practice-data notice (or empty), ``now`` the line
    saying what happens after the last exchange."""
    e = html.escape
    data = {"bases": [[w, h, _uri(png)] for w, h, png, _ in pictures.bases],
            "tiles": [[x, y, w, h, _uri(png)] for x, y, w, h, png in pictures.tiles],
            "states": [[b, list(t)] for b, t in pictures.states]}
    # "</" cannot close the script element from inside the JSON text.
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    sections = "\n".join(_step_html(s, len(steps)) for s in steps)
    banner = f'<p class="practice">{e(notice)}</p>' if notice else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)} - replay, {e(viewer)}</title>
<style>{_STYLE}</style></head>
<body data-step="1" data-steps="{len(steps)}">
<header><h1>{e(title)}</h1><p class="viewer">Replay, {e(viewer)}. Keys: &larr; &rarr; step, Home / End first and
last; a click on the map shows it at full size.</p>{banner}
<nav><button id="first" title="First (Home)">&laquo; First</button>
<button id="prev" title="Previous (&larr;)">&#x25C0; Previous</button>
<input id="slider" type="range" min="1" max="{len(steps)}" value="1" aria-label="exchange">
<button id="next" title="Next (&rarr;)">Next &#x25B6;</button>
<button id="last" title="Last (End)">Last &raquo;</button>
<span id="where">1 / {len(steps)}</span></nav></header>
<main><div id="map" class="map"><p class="none">No map picture for this game.</p></div>
<div id="steps">
{sections}
<p class="now">After the last exchange: {e(now)}</p>
</div></main>
<script type="application/json" id="pictures">{blob}</script>
<script>{_SCRIPT}</script>
</body></html>
"""


_STYLE = """
body{font-family:system-ui,sans-serif;margin:0;background:#f6f5f0;color:#222}
header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ccc;padding:.4em 1em;z-index:2}
h1{font-size:1.2em;margin:.1em 0}.viewer{margin:.1em 0;color:#555;font-size:.9em}
.practice{background:#fff3b0;border:1px solid #c9a800;padding:.2em .5em;margin:.2em 0;font-size:.9em}
nav{display:flex;gap:.4em;align-items:center;flex-wrap:wrap}#slider{flex:1;min-width:8em}
main{display:flex;flex-wrap:wrap;gap:1em;padding:1em}
.map{position:relative;flex:2 1 560px;max-width:1000px;align-self:flex-start}
.map img{display:block;width:100%}.map{cursor:zoom-in}
body.zoomed .map{flex:0 0 auto;max-width:none;cursor:zoom-out}main{overflow-x:auto}.map img.tile{position:absolute;display:block}
#steps{flex:1 1 380px;min-width:300px}
pre.log{white-space:pre-wrap;background:#fff;border:1px solid #ddd;padding:.5em;font-size:.85em}
h2{font-size:1.05em;margin:.2em 0}h2 small{color:#777;font-weight:normal}h3{font-size:.95em;margin:.6em 0 .2em}
table.rolls{border-collapse:collapse;background:#fff;font-size:.85em}
.rolls td,.rolls th{border:1px solid #ddd;padding:.15em .4em;text-align:left}.secret{color:#8a2be2}
.none{color:#777;font-style:italic}.now{display:none}body.at-last .now{display:block;font-weight:bold}
"""

# Reads #step=N (an exchange number), shows that section and lays the
# picture's tiles over its base, positioned in percent so the picture
# scales with the window.  Text only ever goes in through textContent.
_SCRIPT = """
(function(){
var P=JSON.parse(document.getElementById('pictures').textContent);
var steps=document.querySelectorAll('section.step'),total=steps.length,cur=0,map=document.getElementById('map');
var none=map.firstElementChild,slider=document.getElementById('slider'),where=document.getElementById('where');
function img(uri,cls){var i=document.createElement('img');i.src=uri;i.alt='';if(cls)i.className=cls;return i;}
function draw(k){
  map.replaceChildren();
  if(k===null||k===undefined||!P.states[k]){map.appendChild(none);return;}
  var st=P.states[k],b=P.bases[st[0]],W=b[0],H=b[1],base=img(b[2]);
  map.style.width=document.body.classList.contains('zoomed')?W+'px':'';
  base.alt='the map after this exchange';map.appendChild(base);
  st[1].forEach(function(t){var d=P.tiles[t],i=img(d[4],'tile');
    i.style.left=(100*d[0]/W)+'%';i.style.top=(100*d[1]/H)+'%';i.style.width=(100*d[2]/W)+'%';
    map.appendChild(i);});
}
function show(n){
  n=Math.max(1,Math.min(total,n|0||1));
  if(cur)steps[cur-1].hidden=true;
  cur=n;var s=steps[n-1];s.hidden=false;
  var p=s.getAttribute('data-picture');draw(p===null?null:+p);
  document.body.setAttribute('data-step',String(n));
  document.body.classList.toggle('at-last',n===total);
  slider.value=String(n);where.textContent=n+' / '+total;
  if(location.hash!=='#step='+n)history.replaceState(null,'','#step='+n);
}
function fromHash(){var m=/^#step=(\\d+)$/.exec(location.hash);return m?+m[1]:1;}
steps.forEach(function(s){s.hidden=true;});
document.getElementById('first').onclick=function(){show(1);};
document.getElementById('prev').onclick=function(){show(cur-1);};
document.getElementById('next').onclick=function(){show(cur+1);};
document.getElementById('last').onclick=function(){show(total);};
map.onclick=function(){document.body.classList.toggle('zoomed');show(cur);};
slider.oninput=function(){show(+slider.value);};
window.addEventListener('hashchange',function(){show(fromHash());});
document.addEventListener('keydown',function(e){
  if(e.target&&e.target.tagName==='INPUT')return;
  var to={ArrowLeft:cur-1,ArrowRight:cur+1,PageUp:cur-1,PageDown:cur+1,Home:1,End:total}[e.key];
  if(to!==undefined){e.preventDefault();show(to);}
});
show(fromHash());
})();
"""

__all__ = ["Pictures", "Step", "page", "scaled"]
