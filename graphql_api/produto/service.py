"""Product records (fichas): submission and versioning. A new version exists only when the
content differs from the previous one; each new version starts a quality check by itself."""

from __future__ import annotations

import hashlib
import json

from tortoise.exceptions import IntegrityError
from graphql_api.core.transactions import transaction

from graphql_api.conta import service as contas
from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import new_id
from graphql_api.core.pagination import PageRequest, paginate
from graphql_api.core.principal import Principal
from graphql_api.produto import repository
from graphql_api.produto.ficha import parse_ficha
from graphql_api.produto.models import Produto, ProdutoVersao

MAX_CODIGO = 100


def _content_hash(content: dict) -> str:
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _check_codigo(codigo: str) -> str:
    if not 1 <= len(codigo) <= MAX_CODIGO or any(ord(ch) < 32 for ch in codigo):
        raise ApiError(
            "VALIDATION_FAILED",
            fields=[FieldError("codigo", "formato_invalido", f"O código (SKU) deve ter de 1 a {MAX_CODIGO} caracteres visíveis.")],
        )
    return codigo


async def salvar_ficha(principal: Principal, conta_id: str, codigo: str, dados: object) -> Produto:
    """Create or update the ficha of (conta, codigo). Identical content changes nothing."""
    codigo = _check_codigo(codigo)
    conta = await contas.obter_conta(principal, conta_id)
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
            situacao="conferindo",
            versao=1,
            ficha=content,
            hash_ficha=digest,
        )
    elif produto.hash_ficha == digest:
        return produto
    else:
        produto.versao += 1
        produto.situacao = "conferindo"
        produto.nome = content["nome"]
        produto.ficha = content
        produto.hash_ficha = digest
        await produto.save()
    await ProdutoVersao.create(produto=produto, versao=produto.versao, ficha=content, hash_ficha=digest)
    return produto


async def listar_produtos(principal: Principal, conta_id: str, page: PageRequest) -> tuple[list[Produto], str | None]:
    """The products of one visible account, newest first."""
    conta = await contas.obter_conta(principal, conta_id)
    return await paginate(repository.visible(principal).filter(conta_id=conta.id), page)
