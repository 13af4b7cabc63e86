"""The 8 integration steps: what each asks, how to complete it, where it is documented."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Etapa:
    codigo: str
    titulo: str
    como_concluir: str


ETAPAS: tuple[Etapa, ...] = (
    Etapa(
        "CHAVE_E_PRIMEIRA_CHAMADA",
        "Chave e primeira chamada",
        "Faça uma chamada autenticada com uma chave sk_test_ que responda 2XX, por exemplo GET /v1/saldo.",
    ),
    Etapa(
        "SUBCONTA_CRIADA",
        "Subconta criada",
        "Crie uma subconta em teste: POST /v1/contas com codigoExterno e nome (resposta 201).",
    ),
    Etapa(
        "PRODUTO_APROVADO",
        "Produto aprovado",
        "Envie uma ficha em teste (PUT /v1/contas/{contaId}/produtos/{codigo}) cuja conferência aprove ao menos um tipo de mídia.",
    ),
    Etapa(
        "GALERIA_TESTE",
        "Galeria de teste",
        "Peça uma galeria em teste (POST /v1/galerias com Idempotency-Key) e espere ela concluir.",
    ),
    Etapa(
        "VIDEO_TESTE",
        "Vídeo de teste",
        "Peça um vídeo em teste (POST /v1/videos com Idempotency-Key) e espere ele concluir.",
    ),
    Etapa(
        "AVISOS_ASSINATURA",
        "Avisos assinados",
        "Registre um endereço de avisos e rode POST /v1/avisos/teste: responda 2XX à entrega válida e "
        "400, 401 ou 403 à de assinatura errada e à de horário de 10 minutos atrás.",
    ),
    Etapa(
        "IDEMPOTENCIA",
        "Idempotência",
        "Envie Idempotency-Key em toda chamada que gasta créditos e repita uma delas com a mesma chave e o "
        "mesmo corpo (a resposta volta com Idempotent-Replayed: true).",
    ),
    Etapa(
        "LIMITE_429",
        "Respeito ao 429",
        "Provoque um 429 (cabeçalho X-Vitrine-Teste: forcar-429) e só faça a próxima chamada com a mesma "
        "chave depois dos segundos de Retry-After.",
    ),
)

BY_CODE = {e.codigo: e for e in ETAPAS}
