from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from graphql_api.aviso import escutas
from graphql_api.aviso.entregas import motivo_falha
from graphql_api.aviso.models import Aviso, Entrega, EntregaEscuta, Escuta, RodadaTeste, Tentativa, TesteAviso
from graphql_api.aviso.testes import ESPERADO
from graphql_api.core.conversao import do_modelo
from graphql_api.core.scalars import Timestamp
from graphql_api.evento.models import Evento


@strawberry.type(name="Aviso", description="Endereço de avisos. `segredo` vem só na criação (201) e na rotação.")
class AvisoType:
    id: strawberry.ID
    url: str
    eventos: list[str]
    situacao: str
    ambiente: str
    falhando_desde: Timestamp | None
    desativado_em: Timestamp | None
    motivo_desativacao: str | None
    segredo_anterior_expira_em: Timestamp | None
    criado_em: Timestamp
    atualizado_em: Timestamp

    @classmethod
    def from_model(cls, a: Aviso) -> AvisoType:
        return do_modelo(
            cls,
            a,
            eventos=list(a.eventos),
            segredo_anterior_expira_em=a.segredo_anterior_expira_em if a.segredo_anterior_cifrado else None,
        )


@strawberry.type(name="RegistroAviso")
class RegistroAvisoType:
    aviso: AvisoType
    criado: bool
    segredo: str | None


@strawberry.type(name="TentativaEntrega")
class TentativaType:
    numero: int
    iniciada_em: Timestamp
    duracao_ms: float | None
    status: int | None
    resposta: str | None = strawberry.field(description="The first 4 KB of the body the address answered.")
    erro: str | None
    falha: str | None = strawberry.field(
        description="Why no answer came: dns, tls, tempo_esgotado, recusada, endereco_proibido or conexao; "
        "null when the address answered (whatever the status)."
    )
    motivo_falha: str | None = strawberry.field(
        description="The failure for people: we did not reach your server, and why."
    )
    cabecalhos_enviados: JSON | None = strawberry.field(description="The exact headers sent with this attempt.")
    cabecalhos_resposta: JSON | None

    @classmethod
    def from_model(cls, t: Tentativa) -> TentativaType:
        return do_modelo(
            cls,
            t,
            motivo_falha=motivo_falha(t.falha, t.erro),
            cabecalhos_enviados=JSON(t.cabecalhos_enviados) if t.cabecalhos_enviados is not None else None,
            cabecalhos_resposta=JSON(t.cabecalhos_resposta) if t.cabecalhos_resposta is not None else None,
        )


@strawberry.type(
    name="Entrega",
    description="Um evento para um endereço. `id` é o cabeçalho webhook-id, igual em todas as tentativas.",
)
class EntregaType:
    id: strawberry.ID
    evento_id: str
    tipo: str
    situacao: str
    ultimo_status: int | None
    proxima_tentativa_em: Timestamp | None
    criado_em: Timestamp
    entregue_em: Timestamp | None
    tentativas: list[TentativaType]
    amostra: bool = strawberry.field(
        description='A sample (the portal\'s "Enviar evento de teste" or vitrine-cli trigger): one attempt, '
        "no effect on the address's health."
    )
    corpo: str = strawberry.field(description="The exact JSON body sent, identical on every attempt.")

    @classmethod
    def from_model(cls, e: Entrega, tentativas: list[Tentativa]) -> EntregaType:
        return do_modelo(
            cls,
            e,
            proxima_tentativa_em=e.proxima_tentativa_em if e.situacao == "pendente" else None,
            tentativas=[TentativaType.from_model(t) for t in tentativas],
        )


@strawberry.type(name="EnvioTeste")
class EnvioTesteType:
    cabecalhos: JSON
    corpo: str


@strawberry.type(name="RespostaTeste")
class RespostaTesteType:
    status: int | None
    corpo: str | None
    erro: str | None
    duracao_ms: float | None
    cabecalhos: JSON | None = None
    falha: str | None = None
    motivo_falha: str | None = None


@strawberry.type(
    name="TesteAviso", description="Uma das três entregas de POST /avisos/teste e o que o endereço respondeu."
)
class TesteAvisoType:
    id: strawberry.ID
    caso: str
    situacao: str
    esperado: str
    enviado: EnvioTesteType | None
    resposta: RespostaTesteType | None
    veredito: str | None
    criado_em: Timestamp
    concluido_em: Timestamp | None

    @classmethod
    def from_model(cls, t: TesteAviso) -> TesteAvisoType:
        done = t.situacao == "concluido"
        return do_modelo(
            cls,
            t,
            esperado=ESPERADO[t.caso],
            enviado=EnvioTesteType(cabecalhos=JSON(t.cabecalhos_enviados or {}), corpo=t.corpo_enviado or "")
            if done and t.corpo_enviado
            else None,
            resposta=RespostaTesteType(
                status=t.status,
                corpo=t.resposta,
                erro=t.erro,
                duracao_ms=t.duracao_ms,
                cabecalhos=JSON(t.cabecalhos_resposta) if t.cabecalhos_resposta is not None else None,
                falha=t.falha,
                motivo_falha=motivo_falha(t.falha, t.erro),
            )
            if done
            else None,
        )


@strawberry.type(name="RodadaTesteAviso", description="One POST /avisos/teste run: its three tests, to one address.")
class RodadaTesteType:
    id: strawberry.ID
    aviso_id: str | None  # null once the address was removed
    url: str
    situacao: str  # pendente | enviando | concluida
    criado_em: Timestamp
    concluida_em: Timestamp | None
    testes: list[TesteAvisoType]

    @classmethod
    def from_model(cls, r: RodadaTeste, testes: list[TesteAviso]) -> RodadaTesteType:
        return do_modelo(
            cls,
            r,
            testes=[TesteAvisoType.from_model(t) for t in testes],
        )


@strawberry.type(name="EventoAviso", description="An event an address can subscribe to.")
class EventoAvisoType:
    nome: str
    descricao: str


@strawberry.type(
    name="EscutaAviso",
    description="Sessão de escuta do vitrine-cli listen (só em teste). `segredo` vem só na abertura.",
)
class EscutaType:
    id: strawberry.ID
    eventos: list[str]
    situacao: str  # aberta | conectada | encerrada
    ambiente: str
    criado_em: Timestamp
    conectada_em: Timestamp | None
    encerrada_em: Timestamp | None

    @classmethod
    def from_model(cls, e: Escuta) -> EscutaType:
        return do_modelo(
            cls,
            e,
            eventos=list(e.eventos),
            situacao=escutas.situacao(e),
        )


@strawberry.type(name="AberturaEscutaAviso")
class AberturaEscutaType:
    escuta: EscutaType
    segredo: str


@strawberry.type(
    name="EntregaEscuta",
    description="Um evento para uma sessão de escuta e o que o endereço local respondeu. `id` é o webhook-id.",
)
class EntregaEscutaType:
    id: strawberry.ID
    evento_id: str
    tipo: str
    corpo: str
    situacao: str  # pendente | enviando | entregue | falhou
    status: int | None
    resposta: str | None
    erro: str | None
    duracao_ms: float | None
    criado_em: Timestamp
    enviada_em: Timestamp | None
    respondida_em: Timestamp | None

    @classmethod
    def from_model(cls, e: EntregaEscuta) -> EntregaEscutaType:
        return do_modelo(cls, e)


@strawberry.type(name="LoteEscuta", description="The next deliveries of a session's stream; encerrada ends it.")
class LoteEscutaType:
    encerrada: bool
    entregas: list[EntregaEscutaType]


@strawberry.type(name="EventoEmitido", description="Um evento emitido, com o corpo que as entregas levam.")
class EventoEmitidoType:
    id: strawberry.ID
    tipo: str
    criado_em: Timestamp
    conta_id: str | None
    data: JSON

    @classmethod
    def from_model(cls, e: Evento) -> EventoEmitidoType:
        return do_modelo(
            cls,
            e,
            data=JSON(e.dados),
        )
