"""The bodies of POST /galerias and POST /videos (POST /imagens/{id}/edicoes is validated by
graphql_api.geracao.render.parse_edicao)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from graphql_api.core.validation import linha
from graphql_api.geracao.render import AVATARES


class _Pedido(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class NovaGaleria(_Pedido):
    produtoId: linha(40, 1)
    quantidadeImagens: Annotated[StrictInt, Field(ge=1, le=12)]


class NovoVideo(_Pedido):
    produtoId: linha(40, 1)
    tipo: Literal["apresentacao", "cinepremium"]
    avatar: Literal[AVATARES] = "automatico"  # type: ignore[valid-type]


# API video tipo -> the media type of the quality check and of the price table
TIPO_GERACAO_VIDEO = {"apresentacao": "video_apresentacao", "cinepremium": "video_cinepremium"}
