"""Mutations take typed GraphQL inputs derived from the domain's pydantic models: introspection
shows their shape, Literals are enums, and the resolver gets back exactly the data given."""

from graphql_api.core.inputs import as_dados, input_type
from graphql_api.geracao.schemas import NovoVideo
from graphql_api.schema import schema

TYPED = {
    ("Mutation", "criarConta", "dados"): "NovaContaInput!",
    ("Mutation", "criarGaleria", "dados"): "NovaGaleriaInput!",
    ("Mutation", "criarVideo", "dados"): "NovoVideoInput!",
    ("Mutation", "registrarAviso", "dados"): "NovoAvisoInput!",
    ("Mutation", "rotacionarSegredoAviso", "dados"): "RotacaoInput",
    ("Mutation", "testarAviso", "dados"): "PedidoTesteInput",
    ("Query", "chamadas", "filtros"): "FiltroChamadasInput",
}


def test_converted_arguments_are_typed_inputs():
    graphql = schema._schema
    for (root, field, argument), expected in TYPED.items():
        assert str(graphql.get_type(root).fields[field].args[argument].type) == expected
    video = graphql.get_type("NovoVideoInput")
    assert set(video.fields) == {"produtoId", "tipo", "avatar"}
    assert str(video.fields["tipo"].type) == "NovoVideoTipo!"
    assert set(graphql.get_type("NovoVideoTipo").values) == {"apresentacao", "cinepremium"}


def test_input_back_to_data_leaves_out_what_was_not_given():
    NovoVideoInput = input_type(NovoVideo)
    tipo = NovoVideoInput.__annotations__["tipo"]
    value = NovoVideoInput(produtoId="prd_x", tipo=tipo("apresentacao"))
    assert as_dados(value) == {"produtoId": "prd_x", "tipo": "apresentacao"}
    assert NovoVideo.model_validate(as_dados(value)).avatar == "automatico"
