"""Images addressable by id: generated ones and approved product photos."""

from __future__ import annotations

from graphql_api.conta import repository as contas
from graphql_api.core.ids import encontrar, new_id
from graphql_api.core.principal import Principal
from graphql_api.core.tenancy import can_see
from graphql_api.imagem import repository
from graphql_api.imagem.models import Imagem


async def registrar(
    *,
    integrador_id: str,
    ambiente: str,
    conta_id: str | None,
    produto_id: str | None,
    geracao_id: str | None,
    origem: str,
    arquivo: str,
    largura: int,
    altura: int,
) -> Imagem:
    """The image of this file: the same product photo keeps its id across versions, and a
    generation rendered again after its worker died keeps the ids of its images."""
    existing = await repository.by_file(produto_id, origem, arquivo)
    if existing is not None:
        return existing
    return await Imagem.create(
        id=new_id("img_"),
        integrador_id=integrador_id,
        ambiente=ambiente,
        conta_id=conta_id,
        produto_id=produto_id,
        geracao_id=geracao_id,
        origem=origem,
        arquivo=arquivo,
        largura=largura,
        altura=altura,
    )


async def obter(principal: Principal, imagem_id: str) -> Imagem:
    async def visivel() -> Imagem | None:
        imagem = await Imagem.get_or_none(id=imagem_id)
        if imagem is None or not can_see(principal, imagem):
            return None
        # A linked account's images: only through its own OAuth token (conta/service.py).
        if principal.conta_id is None and await contas.e_vinculada(imagem.conta_id):
            return None
        return imagem

    return await encontrar(imagem_id, "img_", visivel, f"Imagem {imagem_id} não encontrada.")
