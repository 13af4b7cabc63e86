"""Product records (fichas): submission and versioning. A new version exists only when the
content differs from the previous one; each new version starts a quality check by itself (the
checks build on the products: graphql_api/conferencia receives `versao_nova` and `excluido`)."""

from __future__ import annotations

import hashlib
import json

from tortoise.exceptions import IntegrityError
from tortoise.queryset import QuerySet

from graphql_api.conta import service as contas
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import new_id
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.principal import Principal
from graphql_api.core.relogio import agora
from graphql_api.core.sinais import Sinal
from graphql_api.core.transactions import transaction
from graphql_api.core.validation import exigir_aceito, tem_controle
from graphql_api.produto import repository
from graphql_api.produto.models import APROVADO, CONFERENCIA_FALHOU, CONFERINDO, REPROVADO, Produto, ProdutoVersao
from graphql_api.produto.schemas import parse_ficha

MAX_CODIGO = 100
SITUACOES = (CONFERINDO, APROVADO, REPROVADO, CONFERENCIA_FALHOU)
# Prefix of the code of a deleted product: below the characters a SKU may use (_check_codigo).
_DELETED = "\x1f"

# Inside the transaction that saved it: a new version of a product (its automatic check starts),
# a product deleted (its pending checks are cancelled).
versao_nova: Sinal[Produto] = Sinal("produto.versao_nova")
excluido: Sinal[str] = Sinal("produto.excluido")


def _content_hash(content: dict) -> str:
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _codigo_valido(codigo: str) -> bool:
    return 1 <= len(codigo) <= MAX_CODIGO and not tem_controle(codigo)


def _check_codigo(codigo: str) -> str:
    if not _codigo_valido(codigo):
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[
                FieldError(
                    "codigo", "formato_invalido", f"O código (SKU) deve ter de 1 a {MAX_CODIGO} caracteres visíveis."
                )
            ],
        )
    return codigo


async def salvar_ficha(principal: Principal, conta_id: str, codigo: str, dados: object) -> Produto:
    """Create or update the ficha of (conta, codigo). Identical content changes nothing."""
    codigo = _check_codigo(codigo)
    conta = await contas.obter_conta_com_conteudo(principal, conta_id)
    ficha = parse_ficha(dados)
    content = ficha.normalised()
    digest = _content_hash(content)
    for attempt in range(2):
        try:
            async with transaction():
                return await _store_version(conta, codigo, content, digest)
        except IntegrityError:
            if attempt:  # a concurrent first submission created the row; retry as an update
                raise
    raise AssertionError("unreachable")


async def _store_version(conta, codigo: str, content: dict, digest: str) -> Produto:
    produto = await repository.for_update(conta.id, codigo)
    if produto is None:
        produto = await Produto.create(
            id=new_id("prd_"),
            conta_id=conta.id,
            integrador_id=conta.integrador_id,
            ambiente=conta.ambiente,
            codigo=codigo,
            nome=content["nome"],
            situacao=CONFERINDO,
            versao=1,
            ficha=content,
            hash_ficha=digest,
        )
    elif produto.hash_ficha == digest:
        return produto
    else:
        produto.versao += 1
        produto.situacao = CONFERINDO
        produto.nome = content["nome"]
        produto.ficha = content
        produto.hash_ficha = digest
        produto.fotos = None  # pendente until this version is screened
        await produto.save()
    await ProdutoVersao.create(produto=produto, versao=produto.versao, ficha=content, hash_ficha=digest)
    await versao_nova.emitir(produto)
    return produto


def _not_found(codigo: str) -> ApiError:
    return ApiError("NOT_FOUND", description=f"Produto {codigo} não encontrado nesta conta.")


async def obter_produto(principal: Principal, conta_id: str, codigo: str) -> Produto:
    conta = await contas.obter_conta_com_conteudo(principal, conta_id)
    # A SKU that could never be saved names no product (and is not worth a query).
    produto = (
        await repository.visible(principal).filter(conta_id=conta.id, codigo=codigo).first()
        if _codigo_valido(codigo)
        else None
    )
    if produto is None:
        raise _not_found(codigo)
    return produto


async def listar_produtos(
    principal: Principal, conta_id: str, page: PageRequest, *, situacao: str | None = None
) -> tuple[list[Produto], str | None]:
    conta = await contas.obter_conta_com_conteudo(principal, conta_id)
    if situacao is not None:
        exigir_aceito("situacao", situacao, SITUACOES)
    # a product deleted or whose situacao changed since is still of this list (its cursor pages on)
    return await paginate(
        consulta_produtos(principal, conta.id, situacao), page, escopo=repository.of_account(conta.id)
    )


def consulta_produtos(principal: Principal, conta_id: str, situacao: str | None) -> QuerySet[Produto]:
    """An account's products before their page: (conta, id) and (conta, situacao, id) indexes."""
    query = repository.visible(principal).filter(conta_id=conta_id)
    return query.filter(situacao=situacao) if situacao is not None else query


async def excluir_ficha(principal: Principal, conta_id: str, codigo: str) -> Produto:
    """Delete the product: it disappears from the API at once and its pending checks are
    cancelled; generations already ordered keep their versions and finish (docs/conferencia.md)."""
    conta = await contas.obter_conta_com_conteudo(principal, conta_id)
    if not _codigo_valido(codigo):
        raise _not_found(codigo)
    async with transaction():
        produto = await repository.for_update(conta.id, codigo)
        if produto is None:
            raise _not_found(codigo)
        produto.excluido_em = agora()
        produto.codigo_excluido = produto.codigo
        produto.codigo = _DELETED + produto.id
        await produto.save(update_fields=["excluido_em", "codigo_excluido", "codigo", "atualizado_em"])
        await excluido.emitir(produto.id)
    return produto
