from __future__ import annotations

import strawberry

from graphql_api.core.conversao import do_modelo
from graphql_api.core.scalars import Timestamp
from graphql_api.creditos.models import Carteira, Plano
from graphql_api.creditos.planos import Cota, MudancaAgendada, PlanoAtual


@strawberry.type(name="Saldo")
class SaldoType:
    modelo_cobranca: str
    ambiente: str
    creditos_disponiveis: int
    creditos_reservados: int
    creditos_plano: int = strawberry.field(
        description="Disponíveis do plano: concedidos no início do ciclo, expiram no fim dele; gastos primeiro."
    )
    creditos_pacote: int = strawberry.field(
        description="Disponíveis de pacotes avulsos (e créditos de teste): não expiram."
    )
    atualizado_em: Timestamp

    @classmethod
    def from_model(cls, c: Carteira) -> SaldoType:
        return do_modelo(cls, c)


@strawberry.type(name="Lancamento")
class LancamentoType:
    id: strawberry.ID
    tipo: str
    creditos_disponiveis: int = strawberry.field(description="Efeito nos créditos disponíveis (com sinal).")
    creditos_reservados: int = strawberry.field(description="Efeito nos créditos reservados (com sinal).")
    creditos_plano: int = strawberry.field(description="Parte de creditosDisponiveis que é do plano.")
    creditos_pacote: int = strawberry.field(description="Parte de creditosDisponiveis que é de pacotes.")
    disponiveis_apos: int | None = strawberry.field(
        description="Créditos disponíveis logo depois deste movimento (nulo em movimentos antigos)."
    )
    geracao_id: str | None
    recarga_id: str | None
    descricao: str
    criado_em: Timestamp

    @classmethod
    def from_model(cls, lan) -> LancamentoType:
        return do_modelo(
            cls,
            lan,
            creditos_disponiveis=lan.disponiveis,
            creditos_reservados=lan.reservados,
            creditos_plano=lan.plano,
            creditos_pacote=lan.pacote,
        )


@strawberry.type(name="Preco")
class PrecoType:
    tipo: str
    creditos: int
    unidade: str
    descricao: str


@strawberry.type(name="LimitesPlano")
class LimitesType:
    por_minuto_chave: int = strawberry.field(description="Requisições por minuto de cada chave ou token.")
    por_minuto_integrador: int = strawberry.field(description="Requisições por minuto somando todas as credenciais.")


@strawberry.type(name="Plano")
class PlanoType:
    codigo: str
    nome: str
    versao: int
    preco_centavos: int = strawberry.field(description="Mensalidade em centavos de real (BRL).")
    creditos_mensais: int = strawberry.field(description="A cota mensal: créditos do plano concedidos a cada ciclo.")
    limites: LimitesType

    @classmethod
    def from_model(cls, p: Plano) -> PlanoType:
        return do_modelo(
            cls,
            p,
            limites=LimitesType(
                por_minuto_chave=p.limite_por_minuto_chave, por_minuto_integrador=p.limite_por_minuto_integrador
            ),
        )


@strawberry.type(name="MudancaPlanoAgendada")
class MudancaAgendadaType:
    plano: PlanoType
    aplica_em: Timestamp = strawberry.field(description="O início do próximo ciclo, quando o plano muda.")
    motivo: str = strawberry.field(description="reducao (pedida pelo integrador) ou nova_versao (do catálogo).")

    @classmethod
    def of(cls, m: MudancaAgendada | None) -> MudancaAgendadaType | None:
        return cls(plano=PlanoType.from_model(m.plano), aplica_em=m.aplica_em, motivo=m.motivo) if m else None


@strawberry.type(name="PlanoAtual")
class PlanoAtualType:
    ambiente: str
    plano: PlanoType
    ciclo_inicio_em: Timestamp
    ciclo_fim_em: Timestamp
    mudanca_agendada: MudancaAgendadaType | None

    @classmethod
    def from_value(cls, p: PlanoAtual) -> PlanoAtualType:
        return do_modelo(
            cls,
            p,
            plano=PlanoType.from_model(p.assinatura.plano),
            ciclo_inicio_em=p.assinatura.ciclo_inicio_em,
            ciclo_fim_em=p.assinatura.ciclo_fim_em,
            mudanca_agendada=MudancaAgendadaType.of(p.mudanca),
        )


@strawberry.type(name="CotaDoMes")
class CotaType:
    ambiente: str
    cota_mensal: int = strawberry.field(description="Créditos do plano concedidos neste ciclo.")
    creditos_usados: int = strawberry.field(description="Créditos do plano gastos ou reservados neste ciclo.")
    creditos_restantes: int = strawberry.field(
        description="Créditos do plano ainda disponíveis (expiram no fim do ciclo)."
    )
    percentual_usado: int = strawberry.field(
        description="creditosUsados sobre cotaMensal, em %, arredondado para baixo."
    )
    ciclo_inicio_em: Timestamp
    ciclo_fim_em: Timestamp
    alertas_atingidos: list[int] = strawberry.field(description="Limiares (70, 90, 100 %) passados neste ciclo.")

    @classmethod
    def from_value(cls, c: Cota) -> CotaType:
        return do_modelo(cls, c)
