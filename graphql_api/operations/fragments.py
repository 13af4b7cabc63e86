"""The fields of each resource as the contract shows it, shared by the operations that return it
(graphql_api/operations/*) and by the pages that show it.
A route's spec names the fragment its handler selects (RouteSpec.response): the OpenAPI document
derives each response schema from that selection, so both stay the same by construction."""

CONTA = """
fragment ContaFields on Conta {
  id codigoExterno nome origem situacao ambiente criadoEm atualizadoEm
}
"""

PRODUTO = """
fragment ProdutoFields on Produto {
  id contaId codigo nome situacao versao
  fotos {
    recebidas aprovadas
    itens { id url ordem principal situacao largura altura motivos { codigo severidade detalhe } }
  }
  criadoEm atualizadoEm
}
"""

CONFERENCIA = """
fragment ConferenciaFields on Conferencia {
  id produtoId versaoProduto situacao
  resultados {
    tipo aprovado quantidadeMaximaImagens quantidadesAprovadas notaVideo
    pendencias { codigo severidade campo }
  }
  consultarNovamenteEm criadoEm concluidaEm
}
"""

GERACAO = """
fragment VideoFields on VideoResultado { url expiraEm formato largura altura duracaoSegundos fps }
fragment GeracaoFields on Geracao {
  id tipo situacao creditosReservados creditosCobrados ambiente contaId produtoId
  progresso { etapa percentual }
  resultados {
    imagens { id posicao url expiraEm largura altura tipo observacoes }
    video { ...VideoFields }
    videos { ...VideoFields }
    fala { texto voz duracaoSegundos }
    legendas { url expiraEm idioma embutidas }
    avatar
  }
  erro { codigo mensagem falhas { saida erro } }
  criadoEm atualizadoEm
}
"""

SALDO = """
fragment SaldoFields on Saldo {
  modeloCobranca ambiente creditosDisponiveis creditosReservados creditosPlano creditosPacote atualizadoEm
}
"""

PAGINACAO = "paginacao { limite proximoCursor }"

_CHAMADA_CAMPOS = """
  requestId criadoEm metodo endpoint caminho status duracaoMs codigoErro chave credencial clientId
  contaId ambiente idempotenteRepetida
"""

CHAMADA = "fragment ChamadaFields on Chamada {" + _CHAMADA_CAMPOS + "}"

CHAMADA_DETALHE = (
    "fragment ChamadaDetalheFields on ChamadaDetalhe {"
    + _CHAMADA_CAMPOS
    + """ mensagem causa comoCorrigir documentacao cabecalhosEnviados cabecalhosResposta
  corpoEnviado corpoRecebido corpoEnviadoCortado corpoRecebidoCortado corposExpurgados
}"""
)

INTEGRACAO_STATUS = """
fragment IntegracaoStatusFields on IntegracaoStatus {
  ambiente etapasConcluidas etapasObrigatorias
  producao { situacao liberacao motivo liberadaEm }
  etapas { codigo titulo situacao verificadoEm evidencia ultimaFalha comoConcluir documentacao }
  alertasAbertos { id tipo mensagem abertoEm evidencia }
}
"""

AVISO = """
fragment AvisoFields on Aviso {
  id url eventos situacao ambiente falhandoDesde desativadoEm motivoDesativacao
  segredoAnteriorExpiraEm criadoEm atualizadoEm
}
"""

ENTREGA = """
fragment EntregaFields on Entrega {
  id eventoId tipo situacao amostra ultimoStatus proximaTentativaEm criadoEm entregueEm
  tentativas { numero iniciadaEm duracaoMs status resposta erro falha motivoFalha }
}
"""

ENTREGA_DETALHE = """
fragment EntregaDetalheFields on Entrega {
  id eventoId tipo situacao amostra ultimoStatus proximaTentativaEm criadoEm entregueEm corpo
  tentativas { numero iniciadaEm duracaoMs status resposta erro falha motivoFalha cabecalhosEnviados cabecalhosResposta }
}
"""

ESCUTA = """
fragment EscutaFields on EscutaAviso { id eventos situacao ambiente criadoEm conectadaEm encerradaEm }
"""

ENTREGA_ESCUTA = """
fragment EntregaEscutaFields on EntregaEscuta {
  id eventoId tipo situacao status resposta erro duracaoMs criadoEm enviadaEm respondidaEm
}
"""

EVENTO_EMITIDO = """
fragment EventoEmitidoFields on EventoEmitido { id tipo criadoEm contaId data }
"""

TESTE_AVISO = """
fragment TesteAvisoFields on TesteAviso {
  id caso situacao esperado
  enviado { cabecalhos corpo }
  resposta { status corpo erro duracaoMs cabecalhos falha motivoFalha }
  veredito criadoEm concluidoEm
}
"""

LANCAMENTO = """
fragment LancamentoFields on Lancamento {
  id tipo creditosDisponiveis creditosReservados creditosPlano creditosPacote disponiveisApos
  geracaoId recargaId descricao criadoEm
}
"""

PRECO = "fragment PrecoFields on Preco { tipo creditos unidade descricao }"

ERRO_RECENTE = """
fragment ErroRecenteFields on ErroRecente {
  tipo status total ultimaOcorrencia ultimoRequestId mensagem causa comoCorrigir documentacao
}
"""

APP_OAUTH = """
fragment AppOAuthFields on AppOAuth {
  id clientId nome ambiente tipo redirectUris escopos situacao finalSegredo
  finalSegredoAnterior segredoAnteriorExpiraEm criadoEm atualizadoEm segredoRotacionadoEm desativadoEm
}
"""

PACOTE = "fragment PacoteFields on Pacote { codigo nome creditos precoCentavos }"

RECARGA = """
fragment RecargaFields on Recarga {
  id pacote situacao creditos precoCentavos ambiente linkPagamento expiraEm pagaEm encerradaEm
  criadoEm atualizadoEm
}
"""

PLANO = """
fragment PlanoFields on Plano {
  codigo nome versao precoCentavos creditosMensais limites { porMinutoChave porMinutoIntegrador }
}
"""

PLANO_ATUAL = (
    """
fragment PlanoAtualFields on PlanoAtual {
  ambiente plano { ...PlanoFields } cicloInicioEm cicloFimEm
  mudancaAgendada { plano { ...PlanoFields } aplicaEm motivo }
}
"""
    + PLANO
)

COTA_DO_MES = """
fragment CotaDoMesFields on CotaDoMes {
  ambiente cotaMensal creditosUsados creditosRestantes percentualUsado cicloInicioEm cicloFimEm alertasAtingidos
}
"""
