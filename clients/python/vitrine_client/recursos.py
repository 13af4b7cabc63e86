"""The API's resources, named as the contract names them. Each method builds one Operacao and
hands it to the client: `Vitrine` answers with the model, `AsyncVitrine` with an awaitable of the
same model (`await cliente.contas.criar(...)`), and lists are `Paginas`/`AsyncPaginas`.

Bodies may be dicts with the contract's field names or the models of `vitrine_client.modelos`;
the service validates them (its 422 is raised as ErroDeValidacao, with `campos`)."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from vitrine_client._nucleo import Operacao
from vitrine_client.modelos import (
    Aviso,
    Chamada,
    ChamadaDetalhe,
    Conferencia,
    Conta,
    CotaDoMes,
    Entrega,
    ErroRecente,
    Geracao,
    IntegracaoStatus,
    Lancamento,
    Pacote,
    Plano,
    PlanoAtual,
    Preco,
    Produto,
    Recarga,
    Saldo,
    TesteAviso,
)

if TYPE_CHECKING:
    from vitrine_client.cliente import ClienteBase

Momento = datetime | date | str
TERMINAIS = ("concluida", "parcial", "falhou")


def _seg(valor: str) -> str:
    """One path segment (a SKU may hold characters that need escaping)."""
    return quote(valor, safe="")


class Recurso:
    def __init__(self, cliente: ClienteBase) -> None:
        self._c = cliente

    def _chamar(self, metodo: str, caminho: str, modelo: Any = None, **campos: Any) -> Any:
        return self._c._executar(Operacao(metodo, caminho, modelo=modelo, **campos))

    def _listar(self, caminho: str, modelo: Any, limite: int | None, **filtros: Any) -> Any:
        return self._c._paginar(
            Operacao("GET", caminho, modelo=modelo, paginada=True, parametros={"limite": limite, **filtros})
        )


class SaldoRecurso(Recurso):
    def obter(self) -> Saldo:
        """GET /saldo: the wallet of the key's environment."""
        return self._chamar("GET", "/saldo", Saldo)


class ExtratoRecurso(Recurso):
    def listar(
        self,
        *,
        de: Momento | None = None,
        ate: Momento | None = None,
        tipo: str | None = None,
        geracao_id: str | None = None,
        limite: int | None = None,
    ) -> Any:
        """GET /extrato: the wallet's entries, newest first, across all pages."""
        return self._listar("/extrato", Lancamento, limite, de=de, ate=ate, tipo=tipo, geracaoId=geracao_id)


class PrecosRecurso(Recurso):
    def listar(self) -> list[Preco]:
        return self._chamar("GET", "/precos", list[Preco])


class PlanosRecurso(Recurso):
    def listar(self) -> list[Plano]:
        """GET /planos: the plan catalog."""
        return self._chamar("GET", "/planos", list[Plano])

    def atual(self) -> PlanoAtual:
        """GET /plano: the environment's plan, its cycle and a scheduled change."""
        return self._chamar("GET", "/plano", PlanoAtual)


class CotaDoMesRecurso(Recurso):
    def obter(self) -> CotaDoMes:
        return self._chamar("GET", "/cota-do-mes", CotaDoMes)


class ContasRecurso(Recurso):
    def criar(self, codigo_externo: str, nome: str, *, chave_idempotencia: str | None = None) -> Conta:
        """POST /contas: a sub-account (ContaJaExiste, with `existente`, when the code repeats)."""
        return self._chamar(
            "POST",
            "/contas",
            Conta,
            corpo={"codigoExterno": codigo_externo, "nome": nome},
            chave_idempotencia=chave_idempotencia,
        )

    def obter(self, conta_id: str) -> Conta:
        return self._chamar("GET", f"/contas/{_seg(conta_id)}", Conta)

    def listar(
        self,
        *,
        codigo_externo: str | None = None,
        origem: str | None = None,
        situacao: str | None = None,
        limite: int | None = None,
    ) -> Any:
        """GET /contas, across all pages (with an OAuth token: only the linked account)."""
        return self._listar("/contas", Conta, limite, codigoExterno=codigo_externo, origem=origem, situacao=situacao)


class ProdutosRecurso(Recurso):
    def salvar(self, conta_id: str, codigo: str, ficha: Any) -> Produto:
        """PUT /contas/{contaId}/produtos/{codigo}: the ficha (dict or modelos.Ficha). A new
        version, and its check, only when the content changed."""
        return self._chamar("PUT", f"/contas/{_seg(conta_id)}/produtos/{_seg(codigo)}", Produto, corpo=ficha)

    def obter(self, conta_id: str, codigo: str) -> Produto:
        return self._chamar("GET", f"/contas/{_seg(conta_id)}/produtos/{_seg(codigo)}", Produto)

    def listar(self, conta_id: str, *, situacao: str | None = None, limite: int | None = None) -> Any:
        return self._listar(f"/contas/{_seg(conta_id)}/produtos", Produto, limite, situacao=situacao)

    def excluir(self, conta_id: str, codigo: str) -> None:
        return self._chamar("DELETE", f"/contas/{_seg(conta_id)}/produtos/{_seg(codigo)}")


class ConferenciaRecurso(Recurso):
    def obter(self, produto_id: str, *, refazer: bool = False) -> Conferencia:
        """POST /produtos/{produtoId}/conferencia: the check of the current version, finished
        (situacao concluida) or still running (consultarNovamenteEm says when to ask again)."""
        parametros = {"refazer": "true"} if refazer else {}
        return self._chamar("POST", f"/produtos/{_seg(produto_id)}/conferencia", Conferencia, parametros=parametros)

    def aguardar(self, produto_id: str, *, intervalo: float = 1.0, tempo_maximo: float = 300.0) -> Conferencia:
        """The check once concluded (TimeoutError after tempo_maximo seconds)."""
        return self._c._aguardar(
            lambda: self.obter(produto_id), lambda c: c.situacao == "concluida", intervalo, tempo_maximo
        )


class GaleriasRecurso(Recurso):
    def criar(self, produto_id: str, quantidade_imagens: int, *, chave_idempotencia: str | None = None) -> Geracao:
        """POST /galerias (spends credits). Idempotency-Key: `chave_idempotencia` or a new UUID,
        the same on every retry; pass your own to repeat an order safely later."""
        return self._chamar(
            "POST",
            "/galerias",
            Geracao,
            corpo={"produtoId": produto_id, "quantidadeImagens": quantidade_imagens},
            chave_idempotencia=chave_idempotencia,
        )


class VideosRecurso(Recurso):
    def criar(
        self,
        produto_id: str,
        *,
        tipo: str = "apresentacao",
        avatar: str = "automatico",
        chave_idempotencia: str | None = None,
        **campos: Any,
    ) -> Geracao:
        """POST /videos (spends credits): tipo apresentacao or cinepremium."""
        corpo = {"produtoId": produto_id, "tipo": tipo, "avatar": avatar, **campos}
        return self._chamar("POST", "/videos", Geracao, corpo=corpo, chave_idempotencia=chave_idempotencia)


class EdicoesRecurso(Recurso):
    def criar(self, imagem_id: str, operacoes: list[Any], *, chave_idempotencia: str | None = None) -> Geracao:
        """POST /imagens/{imagemId}/edicoes (spends credits): operacoes as dicts or modelos
        (FundoBranco, Enquadrar, Ajuste, Texto, Selo)."""
        return self._chamar(
            "POST",
            f"/imagens/{_seg(imagem_id)}/edicoes",
            Geracao,
            corpo={"operacoes": operacoes},
            chave_idempotencia=chave_idempotencia,
        )


class GeracoesRecurso(Recurso):
    def obter(self, geracao_id: str) -> Geracao:
        """GET /geracoes/{geracaoId}, with fresh signed links."""
        return self._chamar("GET", f"/geracoes/{_seg(geracao_id)}", Geracao)

    def aguardar(self, geracao_id: str, *, intervalo: float = 5.0, tempo_maximo: float = 600.0) -> Geracao:
        """The generation once concluida, parcial or falhou, polling every `intervalo` seconds
        (the contract asks for 5 to 10)."""
        return self._c._aguardar(
            lambda: self.obter(geracao_id), lambda g: g.situacao in TERMINAIS, intervalo, tempo_maximo
        )


class AvisosRecurso(Recurso):
    def registrar(self, url: str, eventos: list[str]) -> Aviso:
        """PUT /avisos: registers (or updates, by url) a notice address. On creation the answer
        carries `segredo` (whsec_…) once: keep it for verificar_aviso."""
        return self._chamar("PUT", "/avisos", Aviso, corpo={"url": url, "eventos": list(eventos)})

    def listar(self, *, limite: int | None = None) -> Any:
        return self._listar("/avisos", Aviso, limite)

    def obter(self, aviso_id: str) -> Aviso:
        return self._chamar("GET", f"/avisos/{_seg(aviso_id)}", Aviso)

    def remover(self, aviso_id: str) -> None:
        return self._chamar("DELETE", f"/avisos/{_seg(aviso_id)}")

    def rotacionar_segredo(self, aviso_id: str, *, carencia_horas: int | None = None) -> Aviso:
        """A new secret (in `segredo`, once); the previous one still signs for carencia_horas."""
        corpo = {"carenciaHoras": carencia_horas} if carencia_horas is not None else {}
        return self._chamar("POST", f"/avisos/{_seg(aviso_id)}/segredo/rotacao", Aviso, corpo=corpo)

    def entregas(self, aviso_id: str, *, situacao: str | None = None, limite: int | None = None) -> Any:
        return self._listar(f"/avisos/{_seg(aviso_id)}/entregas", Entrega, limite, situacao=situacao)

    def reenviar(self, aviso_id: str, entrega_id: str) -> Entrega:
        return self._chamar("POST", f"/avisos/{_seg(aviso_id)}/entregas/{_seg(entrega_id)}/reenvio", Entrega)

    def testar(self, aviso_id: str | None = None) -> list[TesteAviso]:
        """POST /avisos/teste: three deliveries (valid, wrong signature, 10-minute-old timestamp)."""
        corpo = {"avisoId": aviso_id} if aviso_id else None
        return self._chamar("POST", "/avisos/teste", list[TesteAviso], corpo=corpo)

    def obter_teste(self, teste_id: str) -> TesteAviso:
        """GET /testes-de-avisos/{testeId}: what was sent and what the address answered."""
        return self._chamar("GET", f"/testes-de-avisos/{_seg(teste_id)}", TesteAviso)


class IntegracaoRecurso(Recurso):
    def status(self) -> IntegracaoStatus:
        """GET /integracao/status: the 8 steps, production access and open alerts."""
        return self._chamar("GET", "/integracao/status", IntegracaoStatus)

    def pedir_producao(self) -> IntegracaoStatus:
        """POST /integracao/pedido-producao (EtapasPendentes while steps are missing)."""
        return self._chamar("POST", "/integracao/pedido-producao", IntegracaoStatus)

    def chamadas(
        self,
        *,
        de: Momento | None = None,
        ate: Momento | None = None,
        status: str | int | None = None,
        metodo: str | None = None,
        endpoint: str | None = None,
        codigo_erro: str | None = None,
        conta_id: str | None = None,
        chave: str | None = None,
        ambiente: str | None = None,
        client_id: str | None = None,
        limite: int | None = None,
    ) -> Any:
        """GET /integracao/chamadas: the call log without bodies, across all pages."""
        return self._listar(
            "/integracao/chamadas",
            Chamada,
            limite,
            de=de,
            ate=ate,
            status=None if status is None else str(status),
            metodo=metodo,
            endpoint=endpoint,
            codigoErro=codigo_erro,
            contaId=conta_id,
            chave=chave,
            ambiente=ambiente,
            clientId=client_id,
        )

    def chamada(self, request_id: str) -> ChamadaDetalhe:
        """GET /integracao/chamadas/{requestId}: masked bodies, cause and how to fix."""
        return self._chamar("GET", f"/integracao/chamadas/{_seg(request_id)}", ChamadaDetalhe)

    def erros(self) -> list[ErroRecente]:
        """GET /integracao/erros: your errors of the last 7 days, by type."""
        return self._chamar("GET", "/integracao/erros", list[ErroRecente])


class PacotesRecurso(Recurso):
    def listar(self) -> list[Pacote]:
        return self._chamar("GET", "/pacotes", list[Pacote])


class RecargasRecurso(Recurso):
    def criar(self, pacote: str, *, chave_idempotencia: str | None = None) -> Recarga:
        """POST /recargas: buys a package; the answer has linkPagamento."""
        return self._chamar(
            "POST", "/recargas", Recarga, corpo={"pacote": pacote}, chave_idempotencia=chave_idempotencia
        )

    def listar(self, *, situacao: str | None = None, limite: int | None = None) -> Any:
        return self._listar("/recargas", Recarga, limite, situacao=situacao)

    def obter(self, recarga_id: str) -> Recarga:
        return self._chamar("GET", f"/recargas/{_seg(recarga_id)}", Recarga)
