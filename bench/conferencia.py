"""The quality check end to end, on the embedded default (SQLite, in-process tasks):

0. `medir` per photo, in a process of its own, on the synthetic scenes of tests/render/cenarios.py (plus a
   label printed on the product and two of the suite's 2000 px photos): the measures as they were
   before the cut-out and the OCR ("antes": those two stages stubbed out) against today's, A/B per
   photo in each round, medians of ROUNDS; with the cut-out's and the OCR's own share;
1. a ficha with 10 photos of 2000 x 2000 px served by a local HTTPS server (another process) is
   sent with PUT and polled with POST /produtos/{id}/conferencia until 200: prints the time and
   the peak memory of the service process;
2. a 16 MB photo (streamed without Content-Length), a decompression-bomb PNG (36 megapixels in a
   few kilobytes), and two legitimate photos that cost the most memory to decode (a JPEG just
   under 15 MB and the largest PNG decoded in full) are checked: the first two are refused, and the peak
   memory of the process is printed again.

    .venv/bin/python bench/conferencia.py

Targets: (0) OCR never started on a photo without text; (1) under 3 s; (2) refused without the
process passing 300 MB."""

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
ROUNDS = 5


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


def reference_loop_ns() -> float:
    """This shared machine's speed at the moment, to compare figures across days."""
    import timeit

    return min(timeit.repeat("sum(range(50))", number=200_000, repeat=5)) / 200_000 * 1e9


def medir_por_foto() -> None:
    """[0]: the per-photo cost of `medir` before and after the cut-out and the OCR, side by side."""
    import statistics
    from contextlib import contextmanager
    from types import SimpleNamespace

    from PIL import Image

    from graphql_api.conferencia import analise
    from graphql_api.midia import sobreposicao
    from graphql_api.midia.recorte import Recorte, recortar
    from tests.photos import cena, photo
    from tests.render.cenarios import CENARIOS

    @contextmanager
    def antes():
        """medir without the two stages this change added (the border lightness it dropped cost a
        256-pixel thumbnail: a few milliseconds)."""
        saved = analise.recortar, analise.sobreposicao
        analise.recortar = lambda imagem, metodo=None: Recorte(None, 0.0, "bench")
        analise.sobreposicao = SimpleNamespace(ler=lambda imagem, recorte: sobreposicao.Leitura((), 0.0, True))
        try:
            yield
        finally:
            analise.recortar, analise.sobreposicao = saved

    fotos = {nome: cena(nome, 1200) for nome in [*CENARIOS, "rotulada"]}
    fotos |= {f"suite {seed} ({SIDE} px)": photo(seed, size=SIDE) for seed in (1, 3)}
    analise.medir(fotos["branco"])  # imports, the first Tesseract start
    times: dict[str, dict[str, list[float]]] = {n: {"antes": [], "depois": [], "recorte": [], "ocr": []} for n in fotos}
    read: dict[str, sobreposicao.Leitura] = {}
    for round_ in range(ROUNDS):
        for nome, data in fotos.items():
            order = ("antes", "depois") if round_ % 2 == 0 else ("depois", "antes")  # A B, then B A
            for leg in order:
                started = time.perf_counter()
                if leg == "antes":
                    with antes():
                        analise.medir(data)
                else:
                    analise.medir(data)
                times[nome][leg].append(time.perf_counter() - started)
            working = Image.open(io.BytesIO(data))
            working.thumbnail((analise.WORKING_SIZE, analise.WORKING_SIZE))
            started = time.perf_counter()
            recorte = recortar(working)
            times[nome]["recorte"].append(time.perf_counter() - started)
            read[nome] = sobreposicao.ler(working, recorte)
            times[nome]["ocr"].append(read[nome].segundos)
    print(f"[0] medir por foto, mediana de {ROUNDS} rodadas (ms), antes e depois lado a lado:")
    print(f"    {'foto':26s} {'antes':>6s} {'depois':>7s} {'recorte':>8s} {'OCR':>6s}  texto lido (sobreposto?)")
    for nome in fotos:
        m = {k: statistics.median(v) * 1000 for k, v in times[nome].items()}
        words = " ".join(p.texto + ("*" if p.sobreposta else "") for p in read[nome].palavras) or "-"
        print(f"    {nome:26s} {m['antes']:6.0f} {m['depois']:7.0f} {m['recorte']:8.0f} {m['ocr']:6.0f}  {words}")
    everything = {leg: statistics.median(t for n in fotos for t in times[n][leg]) * 1000 for leg in ("antes", "depois")}
    with_text = [n for n in fotos if read[n].palavras]
    print(
        f"    todas: mediana antes {everything['antes']:.0f} ms, depois {everything['depois']:.0f} ms; "
        f"Tesseract chamado em {len(with_text)} de {len(fotos)} fotos ({', '.join(with_text)}); * = sobreposta"
    )


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
            conta = (await (await http.post(f"{api}/contas", json={"codigoExterno": "bench", "nome": "Bench"})).json())[
                "data"
            ]

            async def check(codigo: str, imagens: list[str], **ficha) -> tuple[float, dict]:
                body = {
                    "nome": "Produto de bench",
                    **ficha,
                    "imagens": [{"url": u, "ordem": i + 1} for i, u in enumerate(imagens)],
                }
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

            elapsed, produto = await check(
                "BENCH-10",
                [f"{photos}/foto/{s}.jpg?size={SIDE}" for s in range(1, PHOTOS + 1)],
                descricao="x" * 400,
                marca="Bench",
            )
            approved = produto["fotos"]["aprovadas"]
            print(
                f"[1] {PHOTOS} fotos de {SIDE}x{SIDE} (HTTPS local): triagem + conferência em {elapsed:.2f} s "
                f"(meta < 3 s) — {approved}/{PHOTOS} aprovadas, produto {produto['situacao']}; "
                f"pico de memória {peak_mb():.0f} MB"
            )

            elapsed, produto = await check(
                "BENCH-GRANDES",
                [f"{photos}/{name}" for name in ("grande.jpg", "bomba.png", "limite.jpg", "limite.png")],
            )
            itens = produto["fotos"]["itens"]
            verdicts = ", ".join(
                f"{label}: {item['situacao']} {[m['codigo'] for m in item['motivos'] if m['severidade'] == 'bloqueio']}"
                for label, item in zip(
                    ("16 MB", "bomba PNG 36 MP", f"JPEG {big_size / 1048576:.1f} MB 4000x3000", "PNG 4400x4400"),
                    itens,
                    strict=True,
                )
            )
            print(f"[2] {verdicts} em {elapsed:.2f} s; pico de memória do processo {peak_mb():.0f} MB (meta < 300 MB)")
    finally:
        await runner.cleanup()


def main() -> None:
    print(f"machine speed: sum(range(50)) in {reference_loop_ns():.0f} ns (lower is faster)")
    per_photo = multiprocessing.get_context("spawn").Process(target=medir_por_foto)  # its memory is not the service's
    per_photo.start()
    per_photo.join()
    data_dir = Path(tempfile.mkdtemp(prefix="vitrine-bench-conferencia-"))
    from tests.tls import make_tls_files

    ca, cert, key = make_tls_files(data_dir / "tls")
    os.environ.update(
        {
            "VITRINE_DATA_DIR": str(data_dir),
            "VITRINE_OUTBOUND_CA_BUNDLE": str(ca),
            "VITRINE_OUTBOUND_ALLOW_PRIVATE": "1",
            "VITRINE_SECRET_KEY": "bench",
        }
    )
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
