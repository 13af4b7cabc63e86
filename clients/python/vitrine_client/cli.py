"""vitrine-cli: receive the test environment's notices on your own machine, and emit sample events.

    vitrine-cli listen --forward-to http://localhost:3000/avisos [--eventos geracao.concluida,geracao.falhou]
    vitrine-cli trigger geracao.concluida

The key comes from --chave or VITRINE_CHAVE (an sk_test_ key), the API address from --url or
VITRINE_URL (the service's address, with or without the API's /v1, as for the Python client). `listen` opens a listening session, prints its signing
secret (whsec_), and forwards every notice of the session to the local address, signed with that
secret exactly as the service signs deliveries to registered addresses (Standard Webhooks); the
local answer goes back to the service as the delivery's result. Ctrl-C ends the session."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import signal
import sys
import threading
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
from standardwebhooks import Webhook

from vitrine_client._nucleo import url_do_servico

FORWARD_TIMEOUT_SECONDS = 10.0  # as the service waits for a registered address
RESPOSTA_MAX = 1024  # characters of the local answer reported back
RESPOSTA_MAX_BYTES = 4 * RESPOSTA_MAX  # enough bytes for that many characters of UTF-8
# The stream sends at least a comment every 15 s: this long without a byte means the service is gone.
STREAM_READ_TIMEOUT_SECONDS = 60.0
USER_AGENT = "vitrine-cli"


class Falha(Exception):
    """An error to show the user and exit with status 1."""


@dataclass(frozen=True, slots=True)
class Evento:
    """One server-sent event: its name, its id line and its data."""

    nome: str
    id: str | None
    dados: str


def _ler_eventos(linhas: Iterator[str]) -> Iterator[Evento]:
    """Server-sent events from the stream's lines (comments, the heartbeats, are skipped)."""
    nome, ident = "message", None
    dados: list[str] = []
    for linha in linhas:
        if linha == "":
            if dados:
                yield Evento(nome, ident, "\n".join(dados))
            nome, ident, dados = "message", None, []
        elif linha.startswith(":"):
            continue
        else:
            campo, _, valor = linha.partition(":")
            valor = valor.removeprefix(" ")
            if campo == "event":
                nome = valor
            elif campo == "id":
                ident = valor
            elif campo == "data":
                dados.append(valor)


def _erro_da_api(response: httpx.Response) -> Falha:
    """The service's error body ({"error": {type, message, description, fields, documentation}}) in words."""
    try:
        erro = response.json()["error"]
    except (ValueError, KeyError, TypeError):
        return Falha(f"O serviço respondeu {response.status_code}: {response.text[:300]}")
    linhas = [f"Erro {erro.get('type')} ({response.status_code}): {erro.get('message')}"]
    if erro.get("description"):
        linhas.append(erro["description"])
    linhas += [f"  {f.get('campo')}: {f.get('mensagem')}" for f in erro.get("fields") or []]
    if erro.get("documentation"):
        linhas.append(f"Causa e como corrigir: {erro['documentation']}")
    return Falha("\n".join(linhas))


def _cliente(args: argparse.Namespace) -> httpx.Client:
    chave = args.chave or os.environ.get("VITRINE_CHAVE")
    if not chave:
        raise Falha("Informe a chave de teste: --chave sk_test_… ou a variável VITRINE_CHAVE.")
    # VITRINE_URL is shared with the Python client, which takes the service's address with or without /v1
    return httpx.Client(
        base_url=url_do_servico(args.url) + "/v1",
        headers={"Authorization": f"Bearer {chave}", "User-Agent": USER_AGENT},
        timeout=httpx.Timeout(30.0),
    )


def _dados(response: httpx.Response, *esperados: int) -> Any:
    if response.status_code not in esperados:
        raise _erro_da_api(response)
    return response.json()["data"]


def _agora() -> str:
    return datetime.now().strftime("%H:%M:%S")


def _texto(corpo: bytes) -> str:
    """The start of a local answer as text the service keeps (no control characters but line breaks)."""
    texto = corpo.decode("utf-8", "replace")[:RESPOSTA_MAX]
    return "".join(c for c in texto if c in "\t\n\r" or unicodedata.category(c) != "Cc")


def _encaminhar(local: httpx.Client, destino: str, webhook: Webhook, entrega: dict[str, Any]) -> dict[str, Any]:
    """Sign and POST one delivery to the local address; what it answered, as the service records it."""
    corpo: str = entrega["corpo"]
    momento = datetime.now(UTC)
    assinatura = webhook.sign(entrega["id"], momento, corpo)
    cabecalhos = {
        "Content-Type": "application/json",
        "webhook-id": entrega["id"],
        "webhook-timestamp": str(int(momento.timestamp())),
        "webhook-signature": assinatura,
        "X-Vitrine-Signature": assinatura,
    }
    inicio = time.perf_counter()
    esgotado = {"status": None, "erro": "tempo_esgotado"}
    try:
        with local.stream("POST", destino, content=corpo.encode(), headers=cabecalhos) as resposta:
            # Only the start of the answer is kept, and the whole exchange gets 10 s, as for a
            # registered address: an endless or trickling body must not hold the command (or its memory).
            lido = bytearray()
            for pedaco in resposta.iter_bytes():
                lido += pedaco
                if len(lido) >= RESPOSTA_MAX_BYTES:
                    break
                if time.perf_counter() - inicio > FORWARD_TIMEOUT_SECONDS:
                    return esgotado | {"duracaoMs": _ms(inicio)}
    except httpx.TimeoutException:
        return esgotado | {"duracaoMs": _ms(inicio)}
    except httpx.HTTPError as exc:
        return {"status": None, "duracaoMs": _ms(inicio), "erro": f"conexao_falhou: {exc}"[:300]}
    return {"status": resposta.status_code, "duracaoMs": _ms(inicio), "resposta": _texto(bytes(lido)) or None}


def _entrega(evento: Evento) -> dict[str, Any]:
    """The delivery an `aviso` event carries; Falha when it is not one (a proxy in between, a
    service of another version), rather than a traceback."""
    try:
        entrega = json.loads(evento.dados)
        if all(isinstance(entrega[campo], str) for campo in ("id", "eventoId", "tipo", "corpo")):
            return entrega
    except (ValueError, KeyError, TypeError):
        pass
    raise Falha(f"O fluxo da sessão trouxe um aviso fora do formato esperado: {evento.dados[:300]!r}")


def _destino(url: str) -> str:
    """--forward-to checked before the session opens (a bad one would only fail at the first notice)."""
    try:
        destino = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise Falha(f"--forward-to inválido ({exc}): use um endereço como http://localhost:3000/avisos") from None
    if destino.scheme not in ("http", "https") or not destino.host:
        raise Falha(
            f"--forward-to precisa de um endereço http:// ou https://, como http://localhost:3000/avisos: {url}"
        )
    return url


def _ms(inicio: float) -> float:
    return round((time.perf_counter() - inicio) * 1000, 1)


class _Parada:
    """Ctrl-C and SIGTERM as a request to stop at the next safe point. Raising KeyboardInterrupt
    wherever the signal lands can leave httpx's connection pool locked for good (between a lock's
    acquire and the block that releases it), and the goodbye DELETE would then wait forever; so
    the notice in flight finishes, its result is reported, and the session ends. A second signal
    ends the process at once."""

    def __init__(self) -> None:
        self.pedida = threading.Event()

    def __call__(self, signum: int, frame: object) -> None:
        if self.pedida.is_set():
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
        self.pedida.set()

    def instalar(self) -> None:
        signal.signal(signal.SIGINT, self)
        signal.signal(signal.SIGTERM, self)


_FIM_DO_FLUXO = object()


def _ler_fluxo(args: argparse.Namespace, escuta_id: str, fila: queue.Queue[object]) -> None:
    """The session's stream, read in a thread of its own, its events put on `fila` (then
    _FIM_DO_FLUXO, or the error that ended it), so the main thread waits on the queue and a stop
    never has to interrupt a read."""
    try:
        timeout = httpx.Timeout(30.0, read=STREAM_READ_TIMEOUT_SECONDS)
        with _cliente(args) as api, api.stream("GET", f"/avisos/escutas/{escuta_id}/eventos", timeout=timeout) as fluxo:
            if fluxo.status_code != 200:
                fluxo.read()
                raise _erro_da_api(fluxo)
            for evento in _ler_eventos(fluxo.iter_lines()):
                fila.put(evento)
        fila.put(_FIM_DO_FLUXO)
    except Exception as exc:  # handed to the main thread, which reports it
        fila.put(exc)


def _eventos(fila: queue.Queue[object], parada: _Parada) -> Iterator[Evento]:
    """The stream's events until it ends or a stop is asked; its error raised here."""
    while not parada.pedida.is_set():
        try:
            item = fila.get(timeout=0.2)
        except queue.Empty:
            continue
        if item is _FIM_DO_FLUXO:
            return
        if isinstance(item, Exception):
            raise item
        assert isinstance(item, Evento)
        yield item


def listen(args: argparse.Namespace) -> int:
    eventos = [e.strip() for e in (args.eventos or "").split(",") if e.strip()]
    destino = _destino(args.forward_to)
    parada = _Parada()
    parada.instalar()
    with _cliente(args) as api, httpx.Client(timeout=FORWARD_TIMEOUT_SECONDS, follow_redirects=False) as local:
        escuta = _dados(api.post("/avisos/escutas", json={"eventos": eventos}), 201)
        escuta_id = escuta["id"]
        try:
            print(f"Sessão de escuta {escuta_id} aberta (eventos: {', '.join(eventos) or 'todos'}).")
            print(f"Segredo de assinatura desta sessão: {escuta['segredo']}")
            print(f"Encaminhando os avisos de teste para {args.forward_to}. Ctrl-C encerra.", flush=True)
            webhook = Webhook(escuta["segredo"])
            fila: queue.Queue[object] = queue.Queue()
            threading.Thread(target=_ler_fluxo, args=(args, escuta_id, fila), daemon=True).start()
            for evento in _eventos(fila, parada):
                if evento.nome == "encerrada":
                    print(f"{_agora()}  A sessão foi encerrada pelo serviço.", flush=True)
                    return 0
                if evento.nome != "aviso":
                    continue
                entrega = _entrega(evento)
                resultado = _encaminhar(local, destino, webhook, entrega)
                situacao = resultado["status"] if resultado["status"] is not None else resultado["erro"]
                print(
                    f"{_agora()}  {entrega['tipo']}  {entrega['eventoId']}  -> {situacao} "
                    f"({resultado['duracaoMs']:.0f} ms)",
                    flush=True,
                )
                _dados(
                    api.post(f"/avisos/escutas/{escuta_id}/entregas/{entrega['id']}/resultado", json=resultado),
                    200,
                )
            if parada.pedida.is_set():
                return 0
            print(f"{_agora()}  A conexão com o serviço terminou.", file=sys.stderr, flush=True)
            return 1
        finally:
            # The service frees the session when the stream closes too; this says it at once (and
            # so ends the reader thread's stream).
            with contextlib.suppress(httpx.HTTPError):
                api.delete(f"/avisos/escutas/{escuta_id}", timeout=5.0)
            print(f"Sessão de escuta {escuta_id} encerrada.", flush=True)


def trigger(args: argparse.Namespace) -> int:
    with _cliente(args) as api:
        evento = _dados(api.post("/avisos/disparos", json={"tipo": args.tipo}), 202)
    print(f"Evento de amostra {evento['id']} ({evento['tipo']}) emitido no ambiente de teste.")
    return 0


def _parser() -> argparse.ArgumentParser:
    comum = argparse.ArgumentParser(add_help=False)
    comum.add_argument("--chave", help="chave de API de teste (sk_test_…); padrão: VITRINE_CHAVE")
    comum.add_argument(
        "--url", help="endereço do serviço (com ou sem o /v1 da API); padrão: VITRINE_URL ou http://localhost:8080"
    )
    parser = argparse.ArgumentParser(prog="vitrine-cli", description="Ferramentas de integração com a Vitrine.")
    comandos = parser.add_subparsers(dest="comando", required=True)
    escutar = comandos.add_parser(
        "listen", parents=[comum], help="recebe os avisos de teste e os encaminha a um endereço local"
    )
    escutar.add_argument("--forward-to", required=True, metavar="URL", help="ex.: http://localhost:3000/avisos")
    escutar.add_argument("--eventos", metavar="TIPOS", help="tipos de evento separados por vírgula (padrão: todos)")
    escutar.set_defaults(executar=listen)
    disparar = comandos.add_parser("trigger", parents=[comum], help="emite um evento de amostra no ambiente de teste")
    disparar.add_argument("tipo", help="tipo do evento, ex.: geracao.concluida")
    disparar.set_defaults(executar=trigger)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.executar(args)
    except Falha as falha:
        print(falha, file=sys.stderr)
        return 1
    except httpx.HTTPError as exc:
        print(f"Não foi possível falar com a Vitrine: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
