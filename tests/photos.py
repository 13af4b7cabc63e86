"""Real photos for the tests, drawn with Pillow, and a real HTTPS photo host that serves them
(and every kind of bad answer the quality check must survive)."""

from __future__ import annotations

import asyncio
import hashlib
import io
import random
from collections import Counter
from functools import lru_cache

from aiohttp import web
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from tests.render.cenarios import FONT_BOLD, cenario


@lru_cache(maxsize=64)
def photo(
    seed: int = 1,
    *,
    size: int = 1200,
    fundo: str = "white",
    blur: float = 0,
    fmt: str = "JPEG",
    quality: int = 88,
    copia: int = 0,
) -> bytes:
    """A product-like photo: coloured blocks with dark outlines, centred on a background.
    `copia`: the same photo resized to that side (a near-duplicate)."""
    rnd = random.Random(seed)
    background = {"white": (255, 255, 255), "escuro": (40, 45, 60), "cena": (120, 160, 90)}[fundo]
    image = Image.new("RGB", (size, size), background)
    draw = ImageDraw.Draw(image)
    for _ in range(25):
        x, y = rnd.randrange(size // 4, size * 3 // 4), rnd.randrange(size // 4, size * 3 // 4)
        r = rnd.randrange(size // 30, size // 8)
        colour = tuple(rnd.randrange(256) for _ in range(3))
        draw.rectangle((x - r, y - r, x + r, y + r), fill=colour, outline="black", width=max(1, size // 400))
    if blur:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    if copia:
        image = image.resize((copia, copia), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, fmt, **({"quality": quality} if fmt == "JPEG" else {}))
    return out.getvalue()


@lru_cache(maxsize=8)
def rotulada(side: int = 1200) -> bytes:
    """The bottle on white (the `branco` scene) with "CAFÉ 500 g" printed on its label: text on
    the product itself, which is not an overlay."""
    scene = cenario("branco", side)
    box = scene.mascara.getbbox()
    assert box is not None
    x0, y0, x1, y1 = box
    image = scene.imagem.convert("RGB")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT_BOLD, round((x1 - x0) * 0.2))
    top = y0 + (y1 - y0) * 0.47  # the label band: 45 % to 60 % of the bottle's height
    draw.text(((x0 + x1) / 2, top), "CAFÉ", font=font, fill=(30, 30, 30), anchor="mt")
    draw.text(((x0 + x1) / 2, top + (x1 - x0) * 0.24), "500 g", font=font, fill=(30, 30, 30), anchor="mt")
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90)
    return out.getvalue()


@lru_cache(maxsize=32)
def cena(nome: str, side: int = 1200) -> bytes:
    """A synthetic scene of tests/render/cenarios.py as sent (or `rotulada`), by name."""
    return rotulada(side) if nome == "rotulada" else cenario(nome, side).dados


@lru_cache(maxsize=4)
def bomb_png(side: int = 6000) -> bytes:
    """A few kilobytes that declare side × side pixels (36 megapixels by default)."""
    out = io.BytesIO()
    Image.new("1", (side, side)).save(out, "PNG", optimize=True)
    return out.getvalue()


class PhotoHost:
    """The aiohttp application of the photo host. `hits` counts requests per path and
    `not_modified` the conditional ones answered 304 (ETags are the content's hash)."""

    BIG = 16 * 1024 * 1024

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        self.not_modified: Counter[str] = Counter()
        self.app = web.Application()
        self.app.router.add_get("/foto/{seed}.jpg", self.foto)
        self.app.router.add_get("/cena/{nome}", self.cena)
        self.app.router.add_get("/html", self.html)
        self.app.router.add_get("/truncada.jpg", self.truncated)
        self.app.router.add_get("/status/{code}", self.status)
        self.app.router.add_get("/lenta.jpg", self.slow)
        self.app.router.add_get("/grande.jpg", self.big)
        self.app.router.add_get("/bomba.png", self.bomb)
        self.app.router.add_get("/redir/{hops}", self.redirect)
        self.app.router.add_get("/para-http", self.to_http)
        self.app.router.add_get("/para-privado", self.to_private)

    def _count(self, request: web.Request) -> None:
        self.hits[request.path_qs] += 1

    async def foto(self, request: web.Request) -> web.Response:
        """/foto/<seed>.jpg?size=&fundo=&blur=&fmt=&q=&copia=&atraso= (atraso: seconds before answering)."""
        self._count(request)
        q = request.query
        body = photo(
            int(request.match_info["seed"]),
            size=int(q.get("size", 1200)),
            fundo=q.get("fundo", "white"),
            blur=float(q.get("blur", 0)),
            fmt=q.get("fmt", "JPEG"),
            quality=int(q.get("q", 88)),
            copia=int(q.get("copia", 0)),
        )
        if "atraso" in q:
            await asyncio.sleep(float(q["atraso"]))
        etag = f'"{hashlib.sha256(body).hexdigest()[:16]}"'
        if request.headers.get("If-None-Match") == etag:
            self.not_modified[request.path_qs] += 1
            return web.Response(status=304, headers={"ETag": etag})
        # A lying Content-Type on purpose: the check sniffs the bytes.
        return web.Response(body=body, content_type="application/octet-stream", headers={"ETag": etag})

    async def cena(self, request: web.Request) -> web.Response:
        """/cena/<name>?size= : a scene of tests/render/cenarios.py, or `rotulada` (see above)."""
        self._count(request)
        nome, size = request.match_info["nome"].rsplit(".", 1)[0], int(request.query.get("size", 1200))
        body = await asyncio.get_running_loop().run_in_executor(None, cena, nome, size)  # drawing takes a second
        return web.Response(body=body, content_type="image/jpeg")

    async def html(self, request: web.Request) -> web.Response:
        self._count(request)
        return web.Response(
            text="<!doctype html><html><body>Página não encontrada</body></html>", content_type="image/jpeg"
        )

    async def truncated(self, request: web.Request) -> web.Response:
        self._count(request)
        whole = photo(7)
        return web.Response(body=whole[: len(whole) // 2], content_type="image/jpeg")

    async def status(self, request: web.Request) -> web.Response:
        self._count(request)
        return web.Response(status=int(request.match_info["code"]), text="erro")

    async def slow(self, request: web.Request) -> web.Response:
        self._count(request)
        await asyncio.sleep(30)
        return web.Response(body=photo(1), content_type="image/jpeg")

    async def big(self, request: web.Request) -> web.StreamResponse:
        """16 MB, streamed without Content-Length, so only the running count can stop it."""
        self._count(request)
        response = web.StreamResponse(headers={"Content-Type": "image/jpeg"})
        await response.prepare(request)
        chunk = b"\xff" * (1024 * 1024)
        try:
            for _ in range(self.BIG // len(chunk)):
                await response.write(chunk)
        except (ConnectionResetError, RuntimeError):
            pass  # the client hung up past its limit, as it should
        return response

    async def bomb(self, request: web.Request) -> web.Response:
        self._count(request)
        return web.Response(body=bomb_png(), content_type="image/png")

    async def redirect(self, request: web.Request) -> web.Response:
        self._count(request)
        hops = int(request.match_info["hops"])
        raise web.HTTPFound("/foto/9.jpg" if hops == 0 else f"/redir/{hops - 1}")

    async def to_http(self, request: web.Request) -> web.Response:
        self._count(request)
        raise web.HTTPFound(f"http://{request.host}/foto/1.jpg")

    async def to_private(self, request: web.Request) -> web.Response:
        self._count(request)
        raise web.HTTPFound("https://10.0.0.1/foto.jpg")
