"""Mutations take typed GraphQL inputs derived from the domain's pydantic models: introspection
shows their shape, Literals are enums, and the resolver gets back exactly the data given."""

from graphql import GraphQLInputObjectType, GraphQLScalarType, get_named_type

from graphql_api.core.inputs import as_dados, input_type
from graphql_api.geracao.schemas import NovoVideo
from graphql_api.produto.schemas import Dimensoes
from graphql_api.schema import schema

TYPED = {
    ("Mutation", "criarConta", "dados"): "NovaContaInput!",
    ("Mutation", "criarGaleria", "dados"): "NovaGaleriaInput!",
    ("Mutation", "criarVideo", "dados"): "NovoVideoInput!",
    ("Mutation", "registrarAviso", "dados"): "NovoAvisoInput!",
    ("Mutation", "rotacionarSegredoAviso", "dados"): "RotacaoInput",
    ("Mutation", "testarAviso", "dados"): "PedidoTesteInput",
    ("Query", "chamadas", "filtros"): "FiltroChamadasInput",
    ("Mutation", "salvarFicha", "ficha"): "FichaInput!",
    ("Mutation", "criarEdicao", "dados"): "EdicaoInput!",
    ("Mutation", "cadastrarIntegrador", "dados"): "CadastroInput!",
    ("Mutation", "convidarUsuario", "dados"): "ConviteInput!",
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


def _scalars_reached(graphql_type, seen):
    named = get_named_type(graphql_type)
    if named.name in seen:
        return
    seen.add(named.name)
    if isinstance(named, GraphQLInputObjectType):
        for field in named.fields.values():
            _scalars_reached(field.type, seen)


def test_no_argument_of_a_query_or_mutation_is_free_form_json():
    graphql = schema._schema
    free_form = []
    for root in (graphql.query_type, graphql.mutation_type):
        for name, field in root.fields.items():
            for argument_name, argument in field.args.items():
                seen: set[str] = set()
                _scalars_reached(argument.type, seen)
                if "JSON" in seen:
                    free_form.append(f"{root.name}.{name}({argument_name})")
    assert free_form == []
    assert isinstance(graphql.get_type("JSON"), GraphQLScalarType)  # still there, for outputs


def test_the_edit_operations_are_one_input_with_tipo_and_every_operation_field():
    operacao = schema._schema.get_type("OperacaoEdicaoInput")
    assert str(operacao.fields["tipo"].type) == "OperacaoEdicaoTipo!"
    assert set(schema._schema.get_type("OperacaoEdicaoTipo").values) == {
        "fundo_branco",
        "enquadrar",
        "ajuste",
        "texto",
        "selo",
    }
    assert {"tolerancia", "formato", "brilho", "texto", "corTexto", "posicao"} <= set(operacao.fields)
    # posicao of a text band and of a badge: one enum with both sets of values
    posicoes = set(schema._schema.get_type("OperacaoEdicaoPosicao").values)
    assert {"topo", "rodape", "superior_direito", "inferior_esquerdo"} <= posicoes


def test_numbers_int_or_float_are_float_and_a_whole_one_comes_back_an_int():
    graphql = schema._schema
    assert str(graphql.get_type("DimensoesInput").fields["largura"].type) == "Float"
    assert str(graphql.get_type("ProvaSocialInput").fields["vendidos"].type) == "Inteiro64"
    assert str(graphql.get_type("ImagemInput").fields["ordem"].type) == "Int!"
    DimensoesInput = input_type(Dimensoes)
    assert as_dados(DimensoesInput(largura=12.0, altura=7.5)) == {"largura": 12, "altura": 7.5}
    assert type(as_dados(DimensoesInput(largura=12.0))["largura"]) is int
