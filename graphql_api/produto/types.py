from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from graphql_api.core.conversao import do_modelo
from graphql_api.core.scalars import Timestamp
from graphql_api.produto.models import Produto


@strawberry.type(
    name="MotivoFoto", description="Why a photo was refused (bloqueio) or weakened (fraco); codes at /docs/pendencias."
)
class MotivoType:
    codigo: str
    severidade: str
    detalhe: str | None


@strawberry.type(name="FotoFicha")
class FotoType:
    id: str | None  # img_ id of an approved photo: POST /imagens/{id}/edicoes edits it
    url: str
    ordem: int
    principal: bool
    situacao: str  # pendente until the check of the version screens it, then aprovada | reprovada
    largura: int | None
    altura: int | None
    motivos: list[MotivoType]
    miniatura: strawberry.Private[str | None] = None  # storage key of the thumbnail

    @strawberry.field(description="A signed link to a small JPEG of the photo as Vitrine received it (portal).")
    def miniatura_url(self, info: Info) -> str | None:
        return info.context.runtime.storage.signed_url(self.miniatura)[0] if self.miniatura else None

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> FotoType:
        return cls(
            id=item.get("id"),
            url=item["url"],
            ordem=item["ordem"],
            principal=item["principal"],
            situacao=item["situacao"],
            largura=item["largura"],
            altura=item["altura"],
            motivos=[
                MotivoType(codigo=m["codigo"], severidade=m["severidade"], detalhe=m.get("detalhe"))
                for m in item["motivos"]
            ],
            miniatura=item.get("miniatura"),
        )


@strawberry.type(name="Fotos")
class FotosType:
    recebidas: int
    aprovadas: int
    itens: list[FotoType]


def _pending_items(ficha: dict[str, Any]) -> list[FotoType]:
    imagens = ficha.get("imagens", [])
    principal = next((i for i, im in enumerate(imagens) if im.get("principal")), 0)
    return [
        FotoType(
            id=None,
            url=im["url"],
            ordem=im["ordem"],
            principal=i == principal,
            situacao="pendente",
            largura=None,
            altura=None,
            motivos=[],
        )
        for i, im in enumerate(imagens)
    ]


@strawberry.type(name="Produto")
class ProdutoType:
    id: strawberry.ID
    conta_id: str
    codigo: str
    nome: str
    situacao: str
    versao: int
    ficha: JSON  # the current version's content, as validated and normalised
    fotos: FotosType
    criado_em: Timestamp
    atualizado_em: Timestamp

    @classmethod
    def from_model(cls, p: Produto) -> ProdutoType:
        # Screening results once the check of this version is done; pendente until then.
        itens = [FotoType.from_item(item) for item in p.fotos] if p.fotos is not None else _pending_items(p.ficha)
        return do_modelo(
            cls,
            p,
            ficha=JSON(p.ficha),
            fotos=FotosType(
                recebidas=len(itens), aprovadas=sum(1 for f in itens if f.situacao == "aprovada"), itens=itens
            ),
        )
