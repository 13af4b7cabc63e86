"""`Vitrine` (sync, httpx.Client) and `AsyncVitrine` (asyncio, httpx.AsyncClient): with an API
key, `Vitrine("sk_test_…")` (or VITRINE_CHAVE), or with a seller's OAuth tokens,
`Vitrine(oauth=app.autenticacao(tokens))`; the service's address comes from `url`, else
VITRINE_URL, else http://localhost:8080."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import os
import time
from collections.abc import Awaitable, Callable, Generator
from typing import Any, Self, TypeVar

import httpx

from vitrine_client import recursos
from vitrine_client._nucleo import ERROS_DE_CONEXAO, Nucleo, Operacao, Pagina, Tentativas, user_agent
from vitrine_client.paginas import AsyncPaginas, Paginas

T = TypeVar("T")


class ChaveDeApi(httpx.Auth):
    """Authorization: Bearer sk_… on every call."""

    def __init__(self, chave: str) -> None:
        self._cabecalho = f"Bearer {chave}"

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["Authorization"] = self._cabecalho
        yield request


def _autenticacao(chave: str | None, oauth: httpx.Auth | None) -> httpx.Auth:
    if oauth is not None:
        if chave is not None:
            raise ValueError("Passe a chave de API ou o OAuth, não os dois.")
        return oauth
    chave = chave or os.environ.get("VITRINE_CHAVE")
    if not chave:
        raise ValueError("Falta a chave de API: passe Vitrine('sk_test_…') ou defina VITRINE_CHAVE.")
    return ChaveDeApi(chave)


class ClienteBase:
    """The resources, named as the contract names them, and what both clients configure."""

    _proprio: bool  # whether closing closes the httpx client (not one given by the caller)

    @staticmethod
    def _novo_http(timeout: float) -> Any:
        raise NotImplementedError

    def __init__(
        self,
        chave: str | None = None,
        *,
        url: str | None = None,
        oauth: httpx.Auth | None = None,
        max_tentativas: int = 3,
        espera_maxima: float = 60.0,
        tentativas: Tentativas | None = None,
        cabecalhos: dict[str, str] | None = None,
        timeout: float = 30.0,
        http: Any = None,
    ) -> None:
        self._auth = _autenticacao(chave, oauth)
        self._proprio = http is None
        self._http = http or self._novo_http(timeout)
        tentativas = tentativas or Tentativas(maximo=max_tentativas, espera_maxima=espera_maxima)
        self._nucleo = Nucleo(url, tentativas, cabecalhos)
        self._montar_recursos()

    def _montar_recursos(self) -> None:
        self.saldo = recursos.SaldoRecurso(self)
        self.extrato = recursos.ExtratoRecurso(self)
        self.precos = recursos.PrecosRecurso(self)
        self.planos = recursos.PlanosRecurso(self)
        self.cota_do_mes = recursos.CotaDoMesRecurso(self)
        self.contas = recursos.ContasRecurso(self)
        self.produtos = recursos.ProdutosRecurso(self)
        self.conferencia = recursos.ConferenciaRecurso(self)
        self.galerias = recursos.GaleriasRecurso(self)
        self.videos = recursos.VideosRecurso(self)
        self.edicoes = recursos.EdicoesRecurso(self)
        self.geracoes = recursos.GeracoesRecurso(self)
        self.avisos = recursos.AvisosRecurso(self)
        self.integracao = recursos.IntegracaoRecurso(self)
        self.pacotes = recursos.PacotesRecurso(self)
        self.recargas = recursos.RecargasRecurso(self)

    def com_cabecalhos(self, cabecalhos: dict[str, str]) -> Self:
        """This client with more headers on every call (e.g. X-Vitrine-Teste: forcar-429), sharing
        its connections, credential and the wait after a 429; closing it closes nothing."""
        copia = copy.copy(self)
        copia._nucleo = self._nucleo.com_cabecalhos(cabecalhos)
        copia._proprio = False
        copia._montar_recursos()
        return copia

    @property
    def url(self) -> str:
        """The service's address (the API is at url + '/v1')."""
        return self._nucleo.url

    def _executar(self, operacao: Operacao) -> Any:
        raise NotImplementedError

    def _paginar(self, operacao: Operacao) -> Any:
        raise NotImplementedError

    def _aguardar(
        self, buscar: Callable[[], Any], pronto: Callable[[Any], bool], intervalo: float, tempo_maximo: float
    ) -> Any:
        raise NotImplementedError

    @staticmethod
    def _com_cursor(operacao: Operacao, cursor: str | None) -> Operacao:
        parametros = dict(operacao.parametros)
        if cursor:
            parametros["cursor"] = cursor
        return dataclasses.replace(operacao, parametros=parametros)


class Vitrine(ClienteBase):
    """Synchronous client. `max_tentativas`: repeats after 429/503 (honouring Retry-After up to
    `espera_maxima` seconds) and after connection errors (back-off with jitter); nothing else is
    repeated. `tentativas` sets the whole policy at once (back-off base and ceiling too).
    `cabecalhos`: extra headers on every call (e.g. X-Vitrine-Teste: forcar-429 with a test key).
    `http`: your own httpx.Client (proxies, transports, event hooks); its base URL is not used."""

    _http: httpx.Client

    @staticmethod
    def _novo_http(timeout: float) -> httpx.Client:
        return httpx.Client(timeout=timeout, headers={"User-Agent": user_agent()})

    def _enviar(self, operacao: Operacao) -> httpx.Response:
        pedido = self._nucleo.pedido(operacao)
        tentativa = 0
        while True:
            time.sleep(self._nucleo.espera_da_pausa())
            try:
                resposta = self._http.request(**pedido, auth=self._auth)
            except ERROS_DE_CONEXAO as erro:
                time.sleep(self._nucleo.repetir_apos_conexao(tentativa, erro))
            except httpx.TransportError as erro:
                raise self._nucleo.sem_resposta(erro) from erro
            else:
                espera = self._nucleo.repetir_apos_resposta(tentativa, resposta)
                if espera is None:
                    return resposta
                time.sleep(espera)
            tentativa += 1

    def _executar(self, operacao: Operacao) -> Any:
        return self._nucleo.ler(operacao, self._enviar(operacao))

    def _paginar(self, operacao: Operacao) -> Paginas[Any]:
        def buscar(cursor: str | None) -> Pagina:
            return self._executar(self._com_cursor(operacao, cursor))

        return Paginas(buscar)

    def _aguardar(
        self, buscar: Callable[[], T], pronto: Callable[[T], bool], intervalo: float, tempo_maximo: float
    ) -> T:
        limite = time.monotonic() + tempo_maximo
        while True:
            valor = buscar()
            if pronto(valor):
                return valor
            if time.monotonic() + intervalo > limite:
                raise TimeoutError(f"Não ficou pronto em {tempo_maximo} s: {valor!r}")
            time.sleep(intervalo)

    def close(self) -> None:
        if self._proprio:
            self._http.close()

    def __enter__(self) -> Vitrine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncVitrine(ClienteBase):
    """Asynchronous client: the same resources, each call awaited (`await cliente.saldo.obter()`),
    lists walked with `async for`. Same options as Vitrine; `http` is an httpx.AsyncClient."""

    _http: httpx.AsyncClient

    @staticmethod
    def _novo_http(timeout: float) -> httpx.AsyncClient:
        return httpx.AsyncClient(timeout=timeout, headers={"User-Agent": user_agent()})

    async def _enviar(self, operacao: Operacao) -> httpx.Response:
        pedido = self._nucleo.pedido(operacao)
        tentativa = 0
        while True:
            await asyncio.sleep(self._nucleo.espera_da_pausa())
            try:
                resposta = await self._http.request(**pedido, auth=self._auth)
            except ERROS_DE_CONEXAO as erro:
                await asyncio.sleep(self._nucleo.repetir_apos_conexao(tentativa, erro))
            except httpx.TransportError as erro:
                raise self._nucleo.sem_resposta(erro) from erro
            else:
                espera = self._nucleo.repetir_apos_resposta(tentativa, resposta)
                if espera is None:
                    return resposta
                await asyncio.sleep(espera)
            tentativa += 1

    async def _executar(self, operacao: Operacao) -> Any:
        return self._nucleo.ler(operacao, await self._enviar(operacao))

    def _paginar(self, operacao: Operacao) -> AsyncPaginas[Any]:
        async def buscar(cursor: str | None) -> Pagina:
            return await self._executar(self._com_cursor(operacao, cursor))

        return AsyncPaginas(buscar)

    async def _aguardar(
        self, buscar: Callable[[], Awaitable[T]], pronto: Callable[[T], bool], intervalo: float, tempo_maximo: float
    ) -> T:
        limite = time.monotonic() + tempo_maximo
        while True:
            valor = await buscar()
            if pronto(valor):
                return valor
            if time.monotonic() + intervalo > limite:
                raise TimeoutError(f"Não ficou pronto em {tempo_maximo} s: {valor!r}")
            await asyncio.sleep(intervalo)

    async def aclose(self) -> None:
        if self._proprio:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncVitrine:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
