"""Sign-up: a new integrator and its first person, the owner."""

from __future__ import annotations

from tortoise.exceptions import IntegrityError

from graphql_api.core.errors import ApiError, FieldError
from graphql_api.core.ids import new_id
from graphql_api.core.principal import Papel
from graphql_api.core.transactions import transaction
from graphql_api.core.validation import validate
from graphql_api.integrador import service as integradores
from graphql_api.usuario import repository
from graphql_api.usuario.models import Usuario
from graphql_api.usuario.schemas import Cadastro
from graphql_api.usuario.senhas import hash_password


def email_taken() -> ApiError:
    return ApiError(
        "VALIDATION_FAILED",
        fields=[FieldError("email", "duplicado", "Já existe uma pessoa com este e-mail: entre ou redefina a senha.")],
    )


async def cadastrar(dados: dict) -> Usuario:
    """A new integrator (no API key yet) and its first person, the owner."""
    cadastro = validate(Cadastro, dados)
    if await repository.by_email(cadastro.email) is not None:
        raise email_taken()
    hashed = await hash_password(cadastro.senha)
    try:
        async with transaction():
            criado = await integradores.criar_integrador(
                nome=cadastro.empresa, email=cadastro.emailAlertas, chave_teste=False
            )
            return await Usuario.create(
                id=new_id("usr_"),
                integrador_id=criado.integrador.id,
                nome=cadastro.nome,
                email=cadastro.email,
                papel=Papel.DONO.value,
                hash_senha=hashed,
            )
    except IntegrityError:  # the same e-mail signed up concurrently
        raise email_taken() from None
