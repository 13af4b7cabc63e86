"""Inputs of the people operations: the sign-up form and an invitation, with the e-mail, name
and password rules they share."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, StrictStr, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from graphql_api.core.principal import Papel
from graphql_api.core.validation import sem_controle

MIN_PASSWORD, MAX_PASSWORD = 10, 128
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def normalise_email(value: str) -> str:
    return value.strip().lower()


def _email(value: str) -> str:
    value = normalise_email(value)
    if len(value) > 254 or not _EMAIL.match(value):
        raise PydanticCustomError("formato_invalido", "Informe um e-mail válido, como nome@empresa.com.br.")
    return value


def _nome(value: str) -> str:
    value = sem_controle(value.strip())
    if not value:
        raise PydanticCustomError("obrigatorio", "Campo obrigatório.")
    if len(value) > 200:
        raise PydanticCustomError("muito_longo", "Máximo de 200 caracteres.")
    return value


def password_problem(senha: str, email: str) -> str | None:
    if len(senha) < MIN_PASSWORD:
        return f"Use pelo menos {MIN_PASSWORD} caracteres."
    if len(senha) > MAX_PASSWORD:
        return f"Use no máximo {MAX_PASSWORD} caracteres."
    if senha.strip().lower() == email:
        return "A senha não pode ser o seu e-mail."
    return None


# A person's or company's name, and an e-mail address: the same rule wherever they are asked.
Nome = Annotated[StrictStr, AfterValidator(_nome)]
Email = Annotated[StrictStr, AfterValidator(_email)]


class _Pessoa(BaseModel):
    model_config = ConfigDict(extra="forbid")

    nome: Nome
    email: Email


class PessoaComSenha(_Pessoa):
    """A person who signs up choosing a password: staff (the owner of a new integrator) and
    sellers follow the same rules."""

    senha: StrictStr

    @field_validator("senha")
    @classmethod
    def check_senha(cls, value: str, info: ValidationInfo) -> str:
        # Here rather than after the model, so the form shows it beside the field with the rest.
        problem = password_problem(value, info.data.get("email", ""))
        if problem:
            raise PydanticCustomError("muito_curto", problem)
        return value


class Cadastro(PessoaComSenha):
    """Sign-up form: the company, its alert contact, and the first person (the owner)."""

    empresa: Nome
    emailAlertas: Email


class Convite(_Pessoa):
    papel: StrictStr

    @field_validator("papel")
    @classmethod
    def check_papel(cls, value: str) -> str:
        if value not in {p.value for p in Papel}:
            raise PydanticCustomError("valor_invalido", "Escolha dono, desenvolvedor ou financeiro.")
        return value
