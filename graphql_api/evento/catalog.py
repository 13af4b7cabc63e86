"""Every event type Vitrine emits, with what it means (served in the docs, docs/avisos.md)."""

# Events a notice address can subscribe to.
EVENT_TYPES: dict[str, str] = {
    "produto.conferido": "A conferência de uma versão da ficha terminou.",
    "geracao.concluida": "Uma geração terminou com todas as saídas entregues.",
    "geracao.falhou": "Uma geração falhou; os créditos reservados foram devolvidos.",
    "creditos.baixos": "Os créditos disponíveis da carteira ficaram abaixo do limite de alerta.",
    "cota.alerta": "A cota do mês atingiu 70%, 90% ou 100%.",
    "conta.desvinculada": "Uma conta vinculada perdeu sua última autorização ativa e foi pausada.",
}

# Sent only by POST /avisos/teste, to the address under test, whatever it subscribed to.
TEST_EVENT = "aviso.teste"
