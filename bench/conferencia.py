"""The quality check end to end, on the embedded default (SQLite, in-process tasks):

1. a ficha with 10 photos of 2000 x 2000 px served by a local HTTPS server (another process) is
   sent with PUT and polled with POST /produtos/{id}/conferencia until 200: prints the time and
   the peak memory of the service process;
2. a 16 MB photo (streamed without Content-Length), a decompression-bomb PNG (36 megapixels in a
   few kilobytes), and two legitimate photos that cost the most memory to decode (a JPEG just
   under 15 MB and the largest PNG decoded in full) are checked: the first two are refused, and the peak
   memory of the process is printed again.

    .venv/bin/python bench/conferencia.py

Targets: (1) under 3 s; (2) refused without the process passing 300 MB."""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import os
import resource
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PHOTOS = 10
SIDE = 2000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


def near_limit_jpeg() -> bytes:
    """A real 4000 x 3000 JPEG just under the 15 MB limit (noise compresses badly)."""
    from PIL import Image

    from graphql_api.conferencia.catalog import MAX_FOTO_BYTES

    image = Image.merge("RGB", [Image.effect_noise((4000, 3000), 90).convert("L") for _ in range(3)])
    for quality in (97, 96, 95, 94):
        out = io.BytesIO()
        image.save(out, "JPEG", quality=quality)
        if len(out.getvalue()) <= MAX_FOTO_BYTES:
            return out.getvalue()
    raise AssertionError("no quality fits")


def photo_host(port: int, cert: str, key: str, ready, big_size) -> None:
    """The photo server, in its own process so its memory is not the service's."""
    from aiohttp import web
    from PIL import Image

    from tests.photos import PhotoHost, bomb_png, photo
    from tests.tls import server_context

    for seed in range(1, PHOTOS + 1):
        photo(seed, size=SIDE)  # drawn before the clock starts
    bomb_png()
    big = near_limit_jpeg()
    big_size.value = len(big)
    host = PhotoHost()

    out = io.BytesIO()
    Image.new("RGB", (4400, 4400), "white").save(out, "PNG")  # 19.4 megapixels: the largest PNG decoded in full
    png = out.getvalue()

    async def limit(request: web.Request) -> web.Response:
        return web.Response(body=big if request.path.endswith(".jpg") else png)

    host.app.router.add_get("/limite.jpg", limit)
    host.app.router.add_get("/limite.png", limit)
    ready.set()
    web.run_app(host.app, host="127.0.0.1", port=port, ssl_context=server_context(Path(cert), Path(key)), print=None)


async def run(photos: str, big_size: int) -> None:
    from aiohttp import ClientSession, web

    from graphql_api.integrador import service as integradores
    from vitrine.app import create_app
    from vitrine.settings import Settings

    settings = Settings()
    app = create_app(settings, migrate=True)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    api = f"http://127.0.0.1:{port}/v1"
    try:
        created = await integradores.criar_integrador(nome="Bench", email="bench@example.com")
        headers = {"Authorization": f"Bearer {created.chave_teste}"}
        async with ClientSession(headers=headers) as http:
            conta = (await (await http.post(f"{api}/contas", json={"codigoExterno": "bench", "nome": "Bench"})).json())["data"]

            async def check(codigo: str, imagens: list[str], **ficha) -> tuple[float, dict]:
                body = {"nome": "Produto de bench", **ficha, "imagens": [{"url": u, "ordem": i + 1} for i, u in enumerate(imagens)]}
                started = time.perf_counter()
                response = await http.put(f"{api}/contas/{conta['id']}/produtos/{codigo}", json=body)
                produto = (await response.json())["data"]
                while True:
                    response = await http.post(f"{api}/produtos/{produto['id']}/conferencia")
                    if response.status == 200:
                        break
                    await asyncio.sleep(0.02)
                elapsed = time.perf_counter() - started
                produto = (await (await http.get(f"{api}/contas/{conta['id']}/produtos/{codigo}")).json())["data"]
                return elapsed, produto

            await check("AQUECIMENTO", [f"{photos}/foto/99.jpg?size=600"])  # imports, TLS, first decode
            print(f"memória antes: pico de {peak_mb():.0f} MB (processo do serviço)")

            elapsed, produto = await check("BENCH-10", [f"{photos}/foto/{s}.jpg?size={SIDE}" for s in range(1, PHOTOS + 1)],
                                           descricao="x" * 400, marca="Bench")
            approved = produto["fotos"]["aprovadas"]
            print(f"[1] {PHOTOS} fotos de {SIDE}x{SIDE} (HTTPS local): triagem + conferência em {elapsed:.2f} s "
                  f"(meta < 3 s) — {approved}/{PHOTOS} aprovadas, produto {produto['situacao']}; "
                  f"pico de memória {peak_mb():.0f} MB")

            elapsed, produto = await check(
                "BENCH-GRANDES", [f"{photos}/{name}" for name in ("grande.jpg", "bomba.png", "limite.jpg", "limite.png")]
            )
            itens = produto["fotos"]["itens"]
            verdicts = ", ".join(
                f"{label}: {item['situacao']} {[m['codigo'] for m in item['motivos'] if m['severidade'] == 'bloqueio']}"
                for label, item in zip(
                    ("16 MB", "bomba PNG 36 MP", f"JPEG {big_size / 1048576:.1f} MB 4000x3000", "PNG 4400x4400"), itens
                )
            )
            print(f"[2] {verdicts} em {elapsed:.2f} s; pico de memória do processo {peak_mb():.0f} MB (meta < 300 MB)")
    finally:
        await runner.cleanup()


def main() -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="vitrine-bench-conferencia-"))
    from tests.tls import make_tls_files

    ca, cert, key = make_tls_files(data_dir / "tls")
    os.environ.update({
        "VITRINE_DATA_DIR": str(data_dir),
        "VITRINE_OUTBOUND_CA_BUNDLE": str(ca),
        "VITRINE_OUTBOUND_ALLOW_PRIVATE": "1",
        "VITRINE_SECRET_KEY": "bench",
    })
    for name in ("VITRINE_DATABASE_URL", "VITRINE_REDIS_URL"):
        os.environ.pop(name, None)
    port = free_port()
    context = multiprocessing.get_context("spawn")
    ready, big_size = context.Event(), context.Value("q", 0)
    host = context.Process(target=photo_host, args=(port, str(cert), str(key), ready, big_size), daemon=True)
    host.start()
    try:
        if not ready.wait(120):
            raise SystemExit("photo host did not start")
        time.sleep(0.5)  # the listening socket opens right after
        asyncio.run(run(f"https://localhost:{port}", big_size.value))
    finally:
        host.terminate()
        host.join(5)


if __name__ == "__main__":
    main()
