"""What the sync and async clients share: the service's address, the retry policy, building a
request and reading an answer. Only the sending (and sleeping) differs between the two."""

from __future__ import annotations

import os
import random
import time
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime
from email.utils import parsedate_to_datetime
from functools import lru_cache
from typing import Any

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from vitrine_client.erros import ErroDeConexao, ErroVitrine, RespostaInesperada, classe_do_tipo
from vitrine_client.modelos import CampoErro, TipoErro

URL_PADRAO = "http://localhost:8080"
VERSAO = "0.1.0"

# Failures where the request is known not to have been answered: safe to send again (every POST
# carries its Idempotency-Key, the other methods are idempotent). A read timeout is not among
# them: the service may still be working on the first attempt.
ERROS_DE_CONEXAO: tuple[type[Exception], ...] = (
    httpx.ConnectError,
    httpx.ConnectTimeout,
    httpx.ReadError,
    httpx.WriteError,
    httpx.RemoteProtocolError,
    httpx.PoolTimeout,
)
STATUS_REPETIVEIS = (429, 503)
# Added to each Retry-After: the service counts it from when it answered, the client from when the
# answer arrived, and the repeat must land after the service's count (the LIMITE_429 step).
MARGEM_RETRY_AFTER = 0.1


def url_do_servico(url: str | None) -> str:
    """The service's address (without /v1): the argument, else VITRINE_URL, else localhost:8080.
    A URL ending in /v1 (the API's base) is accepted too."""
    escolhida = url or os.environ.get("VITRINE_URL") or URL_PADRAO
    return escolhida.rstrip("/").removesuffix("/v1")


@dataclass(frozen=True)
class Tentativas:
    """How the client repeats a call. `maximo`: repeats after the first attempt (0 = never);
    `espera_maxima`: the longest Retry-After (429/503) waited for, past it the error is raised at
    once; `base`/`teto`: exponential back-off with full jitter after a connection error."""

    maximo: int = 3
    espera_maxima: float = 60.0
    base: float = 0.5
    teto: float = 8.0

    def espera_apos_conexao(self, tentativa: int) -> float:
        return random.uniform(0, min(self.teto, self.base * 2**tentativa))


@dataclass
class Operacao:
    """One call of the API: path relative to /v1, JSON body, query, and how to read `data`."""

    metodo: str
    caminho: str
    corpo: Any = None
    parametros: dict[str, Any] = field(default_factory=dict)
    modelo: Any = None  # a pydantic model (or list[...] of one) for `data`; None keeps the JSON
    paginada: bool = False
    chave_idempotencia: str | None = None
    cabecalhos: dict[str, str] = field(default_factory=dict)


@dataclass
class Pagina:
    """One page of a list: its items and the cursor of the next (None on the last)."""

    itens: list[Any]
    proximo_cursor: str | None


@lru_cache(maxsize=256)
def _adaptador(modelo: Any) -> TypeAdapter[Any]:
    return TypeAdapter(modelo)


def json_de(valor: Any) -> Any:
    """A body or query value as JSON: models dumped by alias without unset fields."""
    if isinstance(valor, BaseModel):
        return valor.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(valor, dict):
        return {k: json_de(v) for k, v in valor.items() if v is not None}
    if isinstance(valor, list | tuple):
        return [json_de(v) for v in valor]
    if isinstance(valor, datetime | date):
        return valor.isoformat()
    return valor


def retry_after(resposta: httpx.Response) -> float | None:
    """Retry-After in seconds (delta-seconds or an HTTP date), or None."""
    valor = resposta.headers.get("Retry-After")
    if not valor:
        return None
    try:
        return max(0.0, float(valor))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(valor).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


@dataclass
class Pausa:
    ate: float = 0.0  # time.monotonic() before which no call leaves


class Nucleo:
    """Request building, retry decisions and answer reading for one client."""

    def __init__(self, url: str | None, tentativas: Tentativas, cabecalhos: dict[str, str] | None = None) -> None:
        self.url = url_do_servico(url)
        self.cabecalhos = dict(cabecalhos or {})
        self.api = self.url + "/v1"
        self.tentativas = tentativas
        # After a 429 TOO_MANY_REQUESTS the contract asks for no call with the same key before
        # Retry-After: every call of this client (and of its com_cabecalhos copies) waits until then.
        self.pausa = Pausa()

    def com_cabecalhos(self, cabecalhos: dict[str, str]) -> Nucleo:
        """The same client with more headers, sharing its pause."""
        copia = Nucleo(self.url, self.tentativas, {**self.cabecalhos, **cabecalhos})
        copia.pausa = self.pausa
        return copia

    def pedido(self, operacao: Operacao) -> dict[str, Any]:
        """Arguments of httpx's request(): the same on every attempt, Idempotency-Key included."""
        cabecalhos = {**self.cabecalhos, **operacao.cabecalhos}
        if operacao.metodo == "POST":
            cabecalhos.setdefault("Idempotency-Key", operacao.chave_idempotencia or str(uuid.uuid4()))
        argumentos: dict[str, Any] = {
            "method": operacao.metodo,
            "url": self.api + operacao.caminho,
            "headers": cabecalhos,
            "params": json_de(operacao.parametros),
        }
        if operacao.corpo is not None:
            argumentos["json"] = json_de(operacao.corpo)
        return argumentos

    def espera_da_pausa(self) -> float:
        return max(0.0, self.pausa.ate - time.monotonic())

    def repetir_apos_conexao(self, tentativa: int, erro: Exception) -> float:
        """Seconds to wait before repeating after a connection error; raises when out of tries."""
        if tentativa >= self.tentativas.maximo:
            raise ErroDeConexao(f"Sem resposta do serviço em {self.api}: {erro!r}") from erro
        return self.tentativas.espera_apos_conexao(tentativa)

    def sem_resposta(self, erro: Exception) -> ErroDeConexao:
        """Any other failure to get an answer (a read timeout, a malformed answer): not repeated,
        since the service may have the request, but raised in the client's family all the same."""
        return ErroDeConexao(f"Sem resposta do serviço em {self.api}: {erro!r}")

    def repetir_apos_resposta(self, tentativa: int, resposta: httpx.Response) -> float | None:
        """Seconds to wait before repeating this answer (429/503 within the limits), else None."""
        if resposta.status_code not in STATUS_REPETIVEIS:
            return None
        espera = retry_after(resposta)
        if espera is not None and espera > self.tentativas.espera_maxima:
            return None  # hours away (a product's daily check limit): the caller decides
        if espera is not None:
            espera += MARGEM_RETRY_AFTER
        if resposta.status_code == 429 and espera is not None and _tipo(resposta) == TipoErro.TOO_MANY_REQUESTS:
            self.pausa.ate = max(self.pausa.ate, time.monotonic() + espera)
        if tentativa >= self.tentativas.maximo:
            return None
        return espera if espera is not None else self.tentativas.espera_apos_conexao(tentativa)

    def ler(self, operacao: Operacao, resposta: httpx.Response) -> Any:
        """`data` of a 2xx answer as the operation's model (a Pagina for lists); raises the
        exception of the error type otherwise."""
        if resposta.status_code >= 400:
            raise erro_da_resposta(resposta)
        if resposta.status_code == 204 or not resposta.content:
            return None
        corpo = _json(resposta)
        if not isinstance(corpo, dict) or "data" not in corpo:
            raise RespostaInesperada(
                "Resposta sem 'data'.", status=resposta.status_code, request_id=_request_id(resposta), corpo=corpo
            )
        if operacao.paginada:
            dados = corpo["data"]
            if not isinstance(dados, list):
                raise RespostaInesperada("Lista sem itens em 'data'.", status=resposta.status_code, corpo=corpo)
            itens = [_validar(operacao.modelo, item, resposta) if operacao.modelo else item for item in dados]
            return Pagina(itens, (corpo.get("paginacao") or {}).get("proximoCursor"))
        return _validar(operacao.modelo, corpo["data"], resposta) if operacao.modelo else corpo["data"]


def _tipo(resposta: httpx.Response) -> str | None:
    try:
        return resposta.json()["error"]["type"]
    except (ValueError, KeyError, TypeError):
        return None


def _json(resposta: httpx.Response) -> Any:
    try:
        return resposta.json()
    except ValueError:
        raise RespostaInesperada(
            f"Resposta que não é JSON (HTTP {resposta.status_code}).",
            status=resposta.status_code,
            request_id=_request_id(resposta),
            corpo=resposta.text[:2000],
            cabecalhos=resposta.headers,
        ) from None


def _validar(modelo: Any, dados: Any, resposta: httpx.Response) -> Any:
    try:
        return _adaptador(modelo).validate_python(dados)
    except ValidationError as erro:
        raise RespostaInesperada(
            f"Resposta fora do contrato: {erro}",
            status=resposta.status_code,
            request_id=_request_id(resposta),
            corpo=dados,
        ) from erro


def _request_id(resposta: httpx.Response) -> str | None:
    return resposta.headers.get("X-Request-Id")


def erro_da_resposta(resposta: httpx.Response) -> ErroVitrine:
    """The typed exception of an error answer (`{"error": {...}}`)."""
    corpo = _json(resposta)
    erro = corpo.get("error") if isinstance(corpo, dict) else None
    if not isinstance(erro, dict) or "type" not in erro:
        return RespostaInesperada(
            f"HTTP {resposta.status_code} sem o objeto 'error'.",
            status=resposta.status_code,
            request_id=_request_id(resposta),
            corpo=corpo,
            cabecalhos=resposta.headers,
        )
    campos = [CampoErro.model_validate(c) for c in erro.get("fields") or [] if isinstance(c, dict)]
    return classe_do_tipo(erro["type"])(
        erro.get("message") or erro["type"],
        status=resposta.status_code,
        tipo=erro["type"],
        descricao=erro.get("description"),
        campos=campos,
        documentacao=erro.get("documentation"),
        request_id=_request_id(resposta),
        retry_after=retry_after(resposta),
        corpo=corpo,
        cabecalhos=resposta.headers,
    )


def user_agent() -> str:
    return f"vitrine-client-python/{VERSAO} httpx/{httpx.__version__}"
