"""The one internal API: every domain's Query and Mutation joined into one Strawberry schema."""

from __future__ import annotations

import strawberry
from strawberry.extensions import ParserCache, ValidationCache
from strawberry.schema.config import StrawberryConfig
from strawberry.tools import merge_types

from graphql_api.aviso import schema as aviso
from graphql_api.chamada import schema as chamada
from graphql_api.chave import schema as chave
from graphql_api.conferencia import schema as conferencia
from graphql_api.conta import schema as conta
from graphql_api.core.scalars import SCALAR_MAP
from graphql_api.creditos import schema as creditos
from graphql_api.email import schema as email
from graphql_api.equipe import schema as equipe
from graphql_api.geracao import schema as geracao
from graphql_api.integracao import schema as integracao
from graphql_api.oauth import schema as oauth
from graphql_api.produto import schema as produto
from graphql_api.recarga import schema as recarga
from graphql_api.usuario import schema as usuario
from graphql_api.vendedor import schema as vendedor

Query = merge_types(
    "Query",
    (
        conta.Query,
        produto.Query,
        creditos.Query,
        geracao.Query,
        chamada.Query,
        chave.Query,
        email.Query,
        usuario.Query,
        integracao.Query,
        equipe.Query,
        aviso.Query,
        conferencia.Query,
        oauth.Query,
        vendedor.Query,
        recarga.Query,
    ),
)
Mutation = merge_types(
    "Mutation",
    (
        conta.Mutation,
        produto.Mutation,
        chave.Mutation,
        usuario.Mutation,
        integracao.Mutation,
        equipe.Mutation,
        creditos.Mutation,
        aviso.Mutation,
        conferencia.Mutation,
        geracao.Mutation,
        oauth.Mutation,
        vendedor.Mutation,
        recarga.Mutation,
    ),
)

schema = strawberry.Schema(
    query=Query,
    mutation=Mutation,
    # Factories, not instances: one per execution. Without them graphql-core parses and validates
    # every operation again (the staff endpoint; the doors run the in-process executor, which
    # caches itself).
    extensions=[lambda: ParserCache(maxsize=256), lambda: ValidationCache(maxsize=256)],
    config=StrawberryConfig(scalar_map=SCALAR_MAP),
)
