from __future__ import annotations

import strawberry

from graphql_api.core.scalars import Timestamp
from graphql_api.produto.models import Produto


@strawberry.type(name="FotoFicha")
class FotoType:
    url: str
    ordem: int
    principal: bool
    situacao: str  # pendente until the photo is screened


@strawberry.type(name="Fotos")
class FotosType:
    recebidas: int
    aprovadas: int
    itens: list[FotoType]


@strawberry.type(name="Produto")
class ProdutoType:
    id: strawberry.ID
    conta_id: str
    codigo: str
    nome: str
    situacao: str
    versao: int
    fotos: FotosType
    criado_em: Timestamp
    atualizado_em: Timestamp

    @classmethod
    def from_model(cls, p: Produto) -> ProdutoType:
        imagens = p.ficha.get("imagens", [])
        itens = [
            FotoType(url=im["url"], ordem=im["ordem"], principal=bool(im.get("principal")), situacao="pendente")
            for im in imagens
        ]
        return cls(
            id=strawberry.ID(p.id),
            conta_id=p.conta_id,
            codigo=p.codigo,
            nome=p.nome,
            situacao=p.situacao,
            versao=p.versao,
            fotos=FotosType(recebidas=len(itens), aprovadas=0, itens=itens),
            criado_em=p.criado_em,
            atualizado_em=p.atualizado_em,
        )
