"""Media generations: galleries, videos and image edits (they spend credits)."""

from graphql_api.executor import Operation
from graphql_api.operations import fragments

OBTER_GERACAO = Operation("query Geracao($id: ID!) { geracao(id: $id) { ...GeracaoFields } }" + fragments.GERACAO)
CRIAR_GALERIA = Operation(
    "mutation CriarGaleria($dados: NovaGaleriaInput!) { criarGaleria(dados: $dados) { ...GeracaoFields } }"
    + fragments.GERACAO
)
CRIAR_VIDEO = Operation(
    "mutation CriarVideo($dados: NovoVideoInput!) { criarVideo(dados: $dados) { ...GeracaoFields } }"
    + fragments.GERACAO
)
CRIAR_EDICAO = Operation(
    "mutation CriarEdicao($imagemId: String!, $dados: EdicaoInput!) { criarEdicao(imagemId: $imagemId, dados: $dados) "
    "{ ...GeracaoFields } }" + fragments.GERACAO
)
