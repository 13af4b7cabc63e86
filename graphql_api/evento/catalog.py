"""Every event type Vitrine emits, with what it means (served in the docs, docs/avisos.md). The
payload of each is its model in graphql_api/evento/payloads.py."""

# Events a notice address can subscribe to.
EVENT_TYPES: dict[str, str] = {
    "produto.conferido": "A conferência de uma versão da ficha terminou.",
    "geracao.concluida": "Uma geração terminou e entregou as saídas: todas, ou parte delas.",
    "geracao.falhou": "Uma geração falhou; os créditos reservados foram devolvidos.",
    "creditos.baixos": "Os créditos disponíveis da carteira ficaram abaixo do limite de alerta.",
    "cota.alerta": "A cota do mês atingiu 70%, 90% ou 100%.",
    "conta.desvinculada": "Uma conta vinculada por OAuth perdeu a última autorização ativa.",
}

# Sent only by POST /avisos/teste, to the address under test, whatever it subscribed to.
TEST_EVENT = "aviso.teste"
