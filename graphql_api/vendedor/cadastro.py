"""Seller sign-up."""

from __future__ import annotations

from tortoise.exceptions import IntegrityError

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import new_id
from graphql_api.core.validation import validate
from graphql_api.usuario.senhas import hash_password
from graphql_api.vendedor import repository
from graphql_api.vendedor.models import Vendedor
from graphql_api.vendedor.schemas import CadastroVendedor


def email_taken() -> ApiError:
    # As much as the portal's sign-up says (docs/portal.md): sign-in never tells whether an e-mail exists.
    return ApiError(
        "VALIDATION_FAILED",
        fields=[FieldError("email", "duplicado", "Já existe um cadastro de vendedor com este e-mail: entre com ele.")],
    )


async def cadastrar(dados: dict) -> Vendedor:
    """A new seller, who can sign in at once."""
    cadastro = validate(CadastroVendedor, dados)
    if await repository.by_email(cadastro.email) is not None:
        raise email_taken()
    hashed = await hash_password(cadastro.senha)
    try:
        return await Vendedor.create(id=new_id("vnd_"), nome=cadastro.nome, email=cadastro.email, hash_senha=hashed)
    except IntegrityError:  # the same e-mail signed up concurrently
        raise email_taken() from None
