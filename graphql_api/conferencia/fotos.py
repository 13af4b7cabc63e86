"""Photo intake: each photo of a ficha version is fetched through the shared outbound client
(https only, public addresses only, at most 3 redirects, size enforced while streaming),
measured in a worker process (the runtime's photo pool), and its original kept in media storage.

A photo whose URL and content did not change since an earlier version is re-used, measures
included: the fetch is conditional (If-None-Match / If-Modified-Since) when the server gave
validators, and otherwise the content hash decides. Measures taken by an older analysis (a lower
analise.VERSAO) are taken again from the stored original, once."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import dataclass

from tortoise.exceptions import IntegrityError

from graphql_api.conferencia import repository
from graphql_api.conferencia.analise import VERSAO, ImagemRecusada, Medidas, medir, miniatura
from graphql_api.conferencia.catalog import MAX_FOTO_BYTES
from graphql_api.conferencia.models import Foto
from vitrine.infra.cpu import ProcessPool
from vitrine.infra.outbound import OutboundClient, OutboundError, OutboundResponse
from vitrine.infra.storage import Storage

log = logging.getLogger(__name__)

CONCURRENT_DOWNLOADS = 4
RETRY_PAUSE = 0.5  # seconds before the one retry of a failure that may pass

# outbound failure -> (motivo, may pass by itself)
_OUTBOUND_CODES = {
    "url_invalida": ("FOTO_URL_INVALIDA", False),
    "nao_https": ("FOTO_URL_INVALIDA", False),
    "endereco_proibido": ("FOTO_ENDERECO_PROIBIDO", False),
    "redirecionamentos_demais": ("FOTO_REDIRECIONAMENTOS_DEMAIS", False),
    "dns_falhou": ("FOTO_INACESSIVEL", True),
    "conexao_falhou": ("FOTO_INACESSIVEL", True),
    "conexao_recusada": ("FOTO_INACESSIVEL", True),
    "tls_falhou": ("FOTO_INACESSIVEL", True),
    "tempo_esgotado": ("FOTO_TEMPO_ESGOTADO", True),
    "grande_demais": ("FOTO_GRANDE_DEMAIS", False),
}


class FotoRecusada(Exception):
    """A photo that could not be used; `codigo` is a blocking motivo of the catalog."""

    def __init__(self, codigo: str, detalhe: str, *, transitoria: bool = False) -> None:
        super().__init__(detalhe)
        self.codigo = codigo
        self.detalhe = detalhe
        self.transitoria = transitoria


@dataclass(frozen=True, slots=True)
class Recebida:
    url: str
    foto: Foto | None = None
    falha: FotoRecusada | None = None

    @property
    def medidas(self) -> Medidas | None:
        return Medidas.from_dict(self.foto.medidas) if self.foto is not None else None


async def baixar(
    outbound: OutboundClient, url: str, *, timeout: float, headers: dict[str, str] | None = None
) -> OutboundResponse:
    """GET one photo: its 200 (or 304 to a conditional request) response, else FotoRecusada."""
    try:
        response = await outbound.request("GET", url, max_bytes=MAX_FOTO_BYTES, timeout=timeout, headers=headers)
    except OutboundError as exc:
        codigo, transitoria = _OUTBOUND_CODES.get(exc.code, ("FOTO_INACESSIVEL", True))
        raise FotoRecusada(codigo, exc.detail, transitoria=transitoria) from None
    if response.status == 200 or (response.status == 304 and headers):
        return response
    raise FotoRecusada(
        "FOTO_HTTP_ERRO", f"HTTP {response.status}", transitoria=response.status >= 500 or response.status == 429
    )


async def garantir_miniatura(storage: Storage, pool: ProcessPool, foto: Foto) -> str:
    """The storage key of the photo's thumbnail, made from the stored original the first time."""
    key = foto.arquivo.rsplit(".", 1)[0] + ".min.jpg"
    if not await storage.has(key):
        data = await pool.run(miniatura, await storage.get(foto.arquivo))
        await storage.put(key, data)
    return key


def _header(response: OutboundResponse, name: str, max_length: int) -> str | None:
    """A validator header to send back later; one too long to keep is dropped, not cut."""
    wanted = name.lower()
    value = next((v for k, v in response.headers.items() if k.lower() == wanted), None)
    return value if value is not None and len(value) <= max_length else None


def _etag(response: OutboundResponse) -> str | None:
    return _header(response, "ETag", 200)


def _last_modified(response: OutboundResponse) -> str | None:
    return _header(response, "Last-Modified", 100)


def _validators(foto: Foto | None) -> dict[str, str]:
    headers = {}
    if foto is not None and foto.etag:
        headers["If-None-Match"] = foto.etag
    if foto is not None and foto.ultima_modificacao:
        headers["If-Modified-Since"] = foto.ultima_modificacao
    return headers


def url_hash(url: str) -> str:
    return hashlib.sha256(url.encode()).hexdigest()


class Recebimento:
    """The intake of the photos of one check: one fetch per distinct URL, a few at a time."""

    def __init__(
        self, produto_id: str, *, outbound: OutboundClient, storage: Storage, pool: ProcessPool, timeout: float
    ) -> None:
        self.produto_id = produto_id
        self.outbound = outbound
        self.storage = storage
        self.pool = pool
        self.timeout = timeout
        self._slots = asyncio.Semaphore(CONCURRENT_DOWNLOADS)

    async def receber_todas(self, urls: list[str]) -> dict[str, Recebida]:
        distinct = list(dict.fromkeys(urls))
        results = await asyncio.gather(*(self.receber(url) for url in distinct))
        return dict(zip(distinct, results, strict=True))

    async def receber(self, url: str) -> Recebida:
        digest_url = url_hash(url)
        anterior = await repository.ultima_foto(self.produto_id, digest_url)
        headers = _validators(anterior)
        try:
            response = await self._fetch(url, headers)
        except FotoRecusada as falha:
            return Recebida(url, falha=falha)
        if response.status == 304 and anterior is not None:
            await anterior.save(update_fields=["verificada_em"])
            return Recebida(url, await self._atualizada(anterior))
        digest = hashlib.sha256(response.body).hexdigest()
        known = (
            anterior
            if anterior is not None and anterior.sha256 == digest
            else (await repository.foto_por_conteudo(self.produto_id, digest_url, digest))
        )
        if known is not None:
            known.etag, known.ultima_modificacao = _etag(response), _last_modified(response)
            await known.save(update_fields=["etag", "ultima_modificacao", "verificada_em"])
            return Recebida(url, await self._atualizada(known))
        try:
            medidas = await self.pool.run(medir, response.body)
        except ImagemRecusada as exc:
            return Recebida(url, falha=FotoRecusada(exc.codigo, exc.detalhe))
        return Recebida(url, await self._store(url, digest_url, digest, response, medidas))

    async def _atualizada(self, foto: Foto) -> Foto:
        """A re-used photo with the current analysis' measures: measured again from its stored
        original when an older analysis measured it. Should that fail, the older measures stay (the
        rules say nothing about what they lack)."""
        if foto.medidas.get("versao", 0) >= VERSAO:
            return foto
        try:
            original = await self.storage.get(foto.arquivo)
            medidas = await self.pool.run(medir, original)
        except (OSError, ImagemRecusada) as exc:
            log.warning("photo %s kept its version %s measures: %s", foto.id, foto.medidas.get("versao", 0), exc)
            return foto
        foto.medidas = medidas.as_dict()
        await foto.save(update_fields=["medidas"])
        return foto

    async def _fetch(self, url: str, headers: dict[str, str]) -> OutboundResponse:
        async with self._slots:
            try:
                return await baixar(self.outbound, url, timeout=self.timeout, headers=headers)
            except FotoRecusada as falha:
                # A timeout already cost the whole time limit: only quick failures get a retry.
                if not falha.transitoria or falha.codigo == "FOTO_TEMPO_ESGOTADO":
                    raise
            await asyncio.sleep(RETRY_PAUSE)
            return await baixar(self.outbound, url, timeout=self.timeout, headers=headers)

    async def _store(
        self, url: str, digest_url: str, digest: str, response: OutboundResponse, medidas: Medidas
    ) -> Foto:
        key = f"fotos/{self.produto_id}/{digest}.{medidas.extensao}"
        if not await self.storage.has(key):
            await self.storage.put(key, response.body)
        try:
            return await Foto.create(
                produto_id=self.produto_id,
                url=url,
                url_hash=digest_url,
                sha256=digest,
                arquivo=key,
                bytes=len(response.body),
                medidas=medidas.as_dict(),
                etag=_etag(response),
                ultima_modificacao=_last_modified(response),
            )
        except IntegrityError:  # a concurrent check of the same product stored it first
            existing = await repository.foto_por_conteudo(self.produto_id, digest_url, digest)
            if existing is None:
                raise
            return existing
