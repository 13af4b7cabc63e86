"""Integrators' OAuth apps: the portal's Apps page (and any staff tool) runs these."""

from graphql_api.executor import Operation
from graphql_api.operations import fragments

_COM_SEGREDO = "{ clientSecret app { ...AppOAuthFields } }"

LISTAR_APPS = Operation("query AppsOAuth { appsOAuth { ...AppOAuthFields } }" + fragments.APP_OAUTH)
OBTER_APP = Operation("query AppOAuth($id: ID!) { appOAuth(id: $id) { ...AppOAuthFields } }" + fragments.APP_OAUTH)
ESCOPOS_OAUTH = Operation("query EscoposOAuth { escoposOAuth { codigo descricao } }")
BLOQUEIO_PRODUCAO = Operation("query BloqueioAppOAuthProducao { bloqueioAppOAuthProducao { tipo mensagem } }")
CRIAR_APP = Operation(
    "mutation CriarAppOAuth($dados: NovoAppInput!) { criarAppOAuth(dados: $dados) "
    + _COM_SEGREDO
    + " }"
    + fragments.APP_OAUTH
)
EDITAR_APP = Operation(
    "mutation EditarAppOAuth($id: ID!, $dados: EdicaoAppInput!) { editarAppOAuth(id: $id, dados: $dados) "
    "{ ...AppOAuthFields } }" + fragments.APP_OAUTH
)
ROTACIONAR_SEGREDO = Operation(
    "mutation RotacionarSegredoAppOAuth($id: ID!, $dados: RotacaoSegredoInput) "
    "{ rotacionarSegredoAppOAuth(id: $id, dados: $dados) " + _COM_SEGREDO + " }" + fragments.APP_OAUTH
)
DESATIVAR_APP = Operation(
    "mutation DesativarAppOAuth($id: ID!) { desativarAppOAuth(id: $id) { ...AppOAuthFields } }" + fragments.APP_OAUTH
)
