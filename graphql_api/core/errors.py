"""The one error catalog: every error type an integrator can meet, with its HTTP status,
message, cause and how to fix it. It feeds error bodies, the call-log detail and /docs/erros."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ErrorKind:
    type: str
    status: int
    message: str
    causa: str
    correcao: str


def _kinds(*kinds: ErrorKind) -> dict[str, ErrorKind]:
    return {k.type: k for k in kinds}


CATALOG: dict[str, ErrorKind] = _kinds(
    ErrorKind(
        "BAD_REQUEST",
        400,
        "Requisição malformada.",
        "A requisição HTTP não pôde ser interpretada (cabeçalhos ou parâmetros inválidos).",
        "Confira método, cabeçalhos e parâmetros na referência da API.",
    ),
    ErrorKind(
        "INVALID_JSON",
        400,
        "O corpo da requisição não é um JSON válido.",
        "O corpo enviado não pôde ser lido como JSON, não é um objeto JSON, passa de 64 níveis de "
        "aninhamento ou repete uma chave num mesmo objeto (a descrição diz qual).",
        "Envie um objeto JSON bem formado em UTF-8, com Content-Type: application/json.",
    ),
    ErrorKind(
        "IDEMPOTENCY_KEY_REQUIRED",
        400,
        "Esta chamada gasta ou compra créditos e exige o cabeçalho Idempotency-Key.",
        "POST /galerias, /videos, /imagens/{id}/edicoes e /recargas foram chamados sem Idempotency-Key.",
        "Gere um valor único por operação (por exemplo um UUID) e envie-o em Idempotency-Key; "
        "repita o mesmo valor ao reenviar a mesma operação.",
    ),
    ErrorKind(
        "IDEMPOTENCY_KEY_INVALID",
        400,
        "O cabeçalho Idempotency-Key tem formato inválido.",
        "A chave deve ter de 8 a 120 caracteres entre letras, dígitos, '_', '-', ':' e '.'.",
        "Use, por exemplo, um UUID v4 ou um identificador do seu sistema dentro desse alfabeto.",
    ),
    ErrorKind(
        "PAYMENT_TIMESTAMP_INVALID",
        400,
        "O horário da confirmação de pagamento é inválido.",
        "O cabeçalho webhook-timestamp falta, não é um número de segundos Unix ou está a mais de 5 "
        "minutos do relógio do serviço (uma confirmação velha pode ser uma repetição maliciosa).",
        "Assine cada envio com o horário atual (segundos Unix) em webhook-timestamp e confira o relógio "
        "do servidor do provedor (NTP).",
    ),
    ErrorKind(
        "PAYMENT_SIGNATURE_INVALID",
        401,
        "A assinatura da confirmação de pagamento não confere.",
        "Faltam webhook-id ou webhook-signature, ou nenhuma assinatura v1 confere com o segredo "
        'VITRINE_PAGAMENTO_SEGREDO (HMAC-SHA256 de "<webhook-id>.<webhook-timestamp>.<corpo>"), ou o '
        "serviço não tem segredo configurado e não aceita confirmações.",
        "Assine o corpo exato enviado, com o mesmo segredo whsec_ configurado no serviço, pelo esquema "
        "Standard Webhooks (veja /docs/creditos).",
    ),
    ErrorKind(
        "UNAUTHORIZED",
        401,
        "Credencial ausente, inválida ou revogada.",
        "O cabeçalho Authorization está ausente, não tem o formato 'Bearer <token>', ou a chave "
        "ou o token não existe, foi revogado ou expirou.",
        "Envie Authorization: Bearer sk_test_… (ou sk_live_…) com uma chave ativa do portal, "
        "ou um token OAuth válido; crie uma nova chave se a anterior foi revogada.",
    ),
    ErrorKind(
        "INSUFFICIENT_CREDITS",
        402,
        "Créditos insuficientes para esta operação.",
        "A carteira do ambiente não tem créditos disponíveis para cobrir a reserva da geração.",
        "Consulte GET /saldo; em teste, recarregue créditos de teste no portal; em produção, "
        "compre um pacote ou mude de plano.",
    ),
    ErrorKind(
        "INTEGRATOR_PAUSED",
        403,
        "A conta do integrador está pausada.",
        "O integrador foi pausado pela equipe do serviço; nenhuma chamada é aceita até a retomada.",
        "Fale com o suporte para entender o motivo da pausa e reativar a conta.",
    ),
    ErrorKind(
        "FORBIDDEN",
        403,
        "Esta credencial não pode fazer esta operação.",
        "A credencial não tem o escopo exigido (por exemplo um token OAuth numa rota exclusiva do "
        "integrador) ou o acesso de produção foi suspenso.",
        "Use a chave de API do integrador para rotas exclusivas; peça ao vendedor os escopos "
        "necessários; em produção suspensa, fale com o suporte.",
    ),
    ErrorKind(
        "CORS_ORIGIN_NOT_ALLOWED",
        403,
        "Esta página não pode chamar a API pelo navegador.",
        "O navegador perguntou (pedido OPTIONS de CORS) se uma página desta origem pode chamar a API, "
        "e ela não é a origem de nenhum endereço de retorno de um app OAuth público ativo. O "
        "navegador bloqueia a chamada.",
        "Cadastre, num app público, um endereço de retorno na mesma origem da página (esquema, "
        "servidor e porta: https://seu.app/retorno para uma página em https://seu.app). Código que "
        "roda no seu servidor não precisa de CORS: chame a API de lá.",
    ),
    ErrorKind(
        "REAUTHENTICATION_REQUIRED",
        403,
        "Confirme a sua senha para continuar.",
        "Criar chaves de produção, criar, editar ou rotacionar o segredo de apps OAuth de produção, "
        "revelar segredos (links de senha, novo segredo de avisos), aceitar o contrato e limpar os dados de "
        "teste no portal "
        "exigem a senha digitada há no máximo 5 minutos.",
        "Digite a sua senha de novo quando o portal pedir e repita a operação.",
    ),
    ErrorKind(
        "NOT_FOUND",
        404,
        "Recurso não encontrado.",
        "Não existe recurso com esse identificador visível para esta credencial e este ambiente.",
        "Confira o identificador e o ambiente da chave (sk_test_ vê só dados de teste, sk_live_ só "
        "de produção); tokens OAuth veem apenas a conta vinculada.",
    ),
    ErrorKind(
        "ROUTE_NOT_FOUND",
        404,
        "Rota não encontrada.",
        "O caminho pedido não existe nesta versão da API.",
        "Confira o caminho e o prefixo /v1 na referência da API, em /docs/referencia.",
    ),
    ErrorKind(
        "METHOD_NOT_ALLOWED",
        405,
        "Método não permitido nesta rota.",
        "A rota existe, mas não aceita este método HTTP.",
        "Use um dos métodos listados no cabeçalho Allow da resposta.",
    ),
    ErrorKind(
        "REQUEST_TIMEOUT",
        408,
        "O corpo da requisição não chegou a tempo.",
        "Os cabeçalhos chegaram, mas o corpo não chegou inteiro no prazo de leitura do serviço (30 "
        "segundos por padrão, contados dos cabeçalhos): o envio parou ou está lento demais, ou o "
        "Content-Length promete mais bytes do que foram enviados. Nada foi processado, e a conexão foi "
        "fechada.",
        "Envie o corpo inteiro logo depois dos cabeçalhos e confira se o Content-Length é o tamanho exato "
        "do corpo em bytes; repita a chamada numa conexão nova (com a mesma Idempotency-Key, se houver).",
    ),
    ErrorKind(
        "IDEMPOTENCY_KEY_REUSED",
        409,
        "Esta Idempotency-Key já foi usada com outra requisição.",
        "A mesma Idempotency-Key chegou antes com outro corpo, outra rota ou outros parâmetros de consulta "
        "(por exemplo ?refazer=true): é outra operação, e ela não foi executada.",
        "Gere uma nova chave para uma operação nova; para repetir a anterior, reenvie exatamente a mesma "
        "rota, parâmetros e corpo.",
    ),
    ErrorKind(
        "IDEMPOTENCY_KEY_IN_PROGRESS",
        409,
        "Uma requisição com esta Idempotency-Key ainda está em processamento.",
        "Chegou uma segunda requisição com a mesma chave enquanto a primeira não terminou; ela não "
        "foi executada para não repetir a operação.",
        "Aguarde a primeira terminar e repita com a mesma chave: você receberá a resposta "
        "original com Idempotent-Replayed: true.",
    ),
    ErrorKind(
        "ACCOUNT_ALREADY_EXISTS",
        409,
        "Já existe uma conta com este codigoExterno.",
        "codigoExterno é único por integrador e ambiente; a conta existente está em error.fields.",
        "Use a conta existente (id em fields[0].mensagem) ou escolha outro codigoExterno.",
    ),
    ErrorKind(
        "OAUTH_CLIENT_INVALID",
        400,
        "O aplicativo que pediu a autorização não é válido.",
        "O endereço de autorização (/oauth/autorizar) traz um client_id inexistente, repetido ou de um "
        "aplicativo desativado. Por segurança o vendedor não é mandado de volta ao aplicativo.",
        "Integrador: confira o client_id do aplicativo na página Apps do portal e se ele está ativo. "
        "Vendedor: volte ao site do integrador e comece de novo.",
    ),
    ErrorKind(
        "OAUTH_REDIRECT_URI_INVALID",
        400,
        "O endereço de retorno do aplicativo não é válido.",
        "O redirect_uri de /oauth/autorizar falta, veio repetido ou não é exatamente um dos endereços "
        "cadastrados no aplicativo (comparação exata: barra final, maiúsculas e parâmetros contam; só a "
        "porta de http://127.0.0.1 e http://[::1] é livre). "
        "Por segurança o vendedor não é mandado a um endereço não cadastrado.",
        "Integrador: envie redirect_uri idêntico a um dos cadastrados na página Apps do portal.",
    ),
    ErrorKind(
        "CHECK_NOT_READY",
        409,
        "A conferência da versão atual do produto ainda não terminou.",
        "Mídia só pode ser pedida depois que a conferência da versão atual da ficha termina.",
        "Consulte POST /v1/produtos/{produtoId}/conferencia (ou aguarde o aviso produto.conferido) e "
        "repita o pedido com a mesma Idempotency-Key.",
    ),
    ErrorKind(
        "MEDIA_TYPE_NOT_APPROVED",
        409,
        "A conferência reprovou este tipo de mídia para o produto.",
        "A conferência da versão atual da ficha tem pendências que bloqueiam este tipo; cada uma está "
        "em error.fields (campo da ficha, codigo da pendência).",
        "Corrija a ficha conforme as pendências (veja /docs/pendencias), envie a nova versão e peça de "
        "novo depois da conferência.",
    ),
    ErrorKind(
        "INTEGRATION_STEPS_PENDING",
        409,
        "Ainda há etapas de integração pendentes.",
        "A produção só é liberada com as 8 etapas ok; cada etapa que falta está em error.fields "
        "(campo etapas, codigo a etapa, mensagem como concluir).",
        "Conclua as etapas listadas com chamadas reais em teste e acompanhe em GET /v1/integracao/status.",
    ),
    ErrorKind(
        "PRODUCTION_NOT_RELEASED",
        409,
        "O acesso de produção ainda não foi liberado.",
        "Chaves sk_live_ e apps OAuth de produção só podem ser criados depois da liberação de produção.",
        "Conclua as 8 etapas e peça a liberação em POST /v1/integracao/pedido-producao.",
    ),
    ErrorKind(
        "CONTRACT_NOT_ACCEPTED",
        409,
        "O contrato vigente ainda não foi aceito.",
        "Chaves sk_live_ e apps OAuth de produção exigem o aceite da versão vigente do contrato de integração.",
        "Aceite o contrato vigente no portal (página Contrato) e tente de novo.",
    ),
    ErrorKind(
        "NOTICE_ADDRESS_REQUIRED",
        409,
        "Nenhum endereço de avisos ativo para testar.",
        "POST /avisos/teste precisa de um endereço ativo registrado neste ambiente (ou do avisoId "
        "de um endereço ativo no corpo).",
        "Registre o endereço com PUT /avisos (url e eventos) e repita o teste.",
    ),
    ErrorKind(
        "NOTICE_ADDRESS_DISABLED",
        409,
        "Este endereço de avisos está desativado.",
        "O endereço foi desativado (respondeu 410 ou falhou sem parar) e não recebe entregas.",
        "Corrija o servidor e registre a mesma url de novo com PUT /avisos: ela volta a ficar ativa, "
        "com o mesmo segredo; depois peça o reenvio das entregas que falharam.",
    ),
    ErrorKind(
        "NOTICE_ADDRESS_LIMIT_REACHED",
        409,
        "Limite de endereços de avisos atingido.",
        "Cada integrador pode ter até 20 endereços de avisos por ambiente.",
        "Remova um endereço que não usa (DELETE /avisos/{avisoId}) ou junte eventos num só endereço.",
    ),
    ErrorKind(
        "TEST_ENVIRONMENT_ONLY",
        403,
        "Esta operação existe só no ambiente de teste.",
        "Sessões de escuta (vitrine-cli listen) e eventos de amostra (vitrine-cli trigger) recebem e "
        "emitem só avisos de teste, e a chamada usou uma chave de produção (sk_live_).",
        "Use uma chave sk_test_ (opção --chave ou variável VITRINE_CHAVE). Em produção, os avisos vão "
        "para endereços https registrados com PUT /avisos.",
    ),
    ErrorKind(
        "NOTICE_LISTEN_LIMIT_REACHED",
        409,
        "Limite de sessões de escuta abertas atingido.",
        "Cada integrador pode ter até 3 sessões de escuta (vitrine-cli listen) abertas ao mesmo tempo no "
        "ambiente de teste.",
        "Pare uma das sessões abertas (Ctrl-C no terminal dela, ou DELETE /avisos/escutas/{escutaId}). "
        "Uma sessão cujo processo morreu sem fechar se encerra sozinha em até 1 minuto.",
    ),
    ErrorKind(
        "NOTICE_LISTEN_CLOSED",
        409,
        "Esta sessão de escuta não aceita mais conexões.",
        "Cada sessão de escuta aceita uma única conexão ao fluxo de eventos, até 1 minuto depois de aberta; "
        "esta já foi conectada, foi encerrada ou passou desse prazo.",
        "Abra uma nova sessão com POST /avisos/escutas (o vitrine-cli listen faz isso a cada execução) e "
        "conecte-se ao fluxo dela logo em seguida.",
    ),
    ErrorKind(
        "OAUTH_APP_LIMIT_REACHED",
        409,
        "Limite de apps OAuth ativos atingido.",
        "Cada integrador pode ter até 10 apps OAuth ativos, somando teste e produção; apps desativados não contam.",
        "Desative na página Apps do portal um app que não usa mais e crie o novo. Um app aceita até 5 "
        "endereços de retorno: servidores diferentes do mesmo sistema podem dividir um app.",
    ),
    ErrorKind(
        "OAUTH_APP_DISABLED",
        409,
        "Este app OAuth está desativado.",
        "Um app desativado não pode ser editado, ter o segredo rotacionado nem voltar a ficar ativo: "
        "a desativação é definitiva.",
        "Crie um novo app OAuth no portal (página Apps) e troque o client_id no seu sistema.",
    ),
    ErrorKind(
        "OAUTH_APP_HAS_NO_SECRET",
        409,
        "Apps públicos não têm segredo.",
        "O app é do tipo publico: ele se identifica só pelo client_id e prova cada autorização com PKCE; "
        "não há client_secret para rotacionar.",
        "Se o seu sistema roda num servidor que guarda segredos, crie um app confidencial e use o client_secret dele.",
    ),
    ErrorKind(
        "PURCHASE_CLOSED",
        409,
        "Esta recarga já foi encerrada.",
        "A recarga está paga, recusada ou expirada, e o pedido a contradiz: uma recarga expirada ou "
        "recusada nunca é creditada, e uma paga nunca volta atrás. A situação atual está na descrição.",
        "Integrador: crie uma nova recarga (POST /v1/recargas) e pague dentro do prazo (expiraEm). "
        "Provedor de pagamento: estorne ao cliente o valor recebido por uma recarga encerrada.",
    ),
    ErrorKind(
        "PAYMENT_CONFIRMATION_REUSED",
        409,
        "Este id de confirmação já foi usado com outro conteúdo.",
        "Uma confirmação de pagamento com o mesmo webhook-id chegou antes com outra recargaId ou outro "
        "resultado. O webhook-id identifica uma confirmação: repeti-lo só vale para reenviar a mesma.",
        "Gere um webhook-id novo para cada confirmação diferente; ao reenviar, repita o corpo original.",
    ),
    ErrorKind(
        "PAYMENT_NOT_ALLOWED",
        403,
        "Esta recarga não pode ser paga por este meio.",
        "Recargas de teste são pagas só no checkout do portal, com dinheiro de brincadeira; recargas de "
        "produção são confirmadas pelo provedor de pagamento ou pela equipe, nunca por um botão do checkout.",
        "Em teste, use o botão Pagar do link de pagamento (linkPagamento). Em produção, pague pelo meio "
        "indicado no link de pagamento e aguarde a confirmação.",
    ),
    ErrorKind(
        "PAYLOAD_TOO_LARGE",
        413,
        "O corpo da requisição passa de 1 MB.",
        "O limite de corpo de requisição é 1 MB (1.048.576 bytes).",
        "Envie fotos por URL (campo imagens[].url), não embutidas, e reduza textos longos.",
    ),
    ErrorKind(
        "URI_TOO_LONG",
        414,
        "O endereço da requisição é longo demais.",
        "A linha da requisição (o método e a URL com os parâmetros de consulta) passa de 8.190 bytes; "
        "ela não foi lida.",
        "Encurte a URL: nenhum parâmetro da API precisa de textos tão longos. Confira se o seu código não "
        "repete parâmetros ou embute um corpo na URL.",
    ),
    ErrorKind(
        "HEADERS_TOO_LARGE",
        431,
        "Os cabeçalhos da requisição são grandes demais.",
        "Um cabeçalho (nome e valor) passa de 8.190 bytes, ou a requisição tem mais de 128 cabeçalhos; "
        "ela não foi lida.",
        "Envie só os cabeçalhos de que a API precisa (Authorization, Content-Type, Idempotency-Key) e "
        "confira se o seu cliente não acumula cabeçalhos ou cookies a cada chamada.",
    ),
    ErrorKind(
        "UNSUPPORTED_MEDIA_TYPE",
        415,
        "Content-Type não suportado: envie application/json.",
        "A requisição tem corpo, mas o Content-Type não é application/json.",
        "Envie o cabeçalho Content-Type: application/json e o corpo em JSON.",
    ),
    ErrorKind(
        "VALIDATION_FAILED",
        422,
        "Alguns campos são inválidos.",
        "A requisição foi lida, mas um ou mais campos do corpo, parâmetros de consulta ou valores do caminho "
        "não seguem as regras; cada problema está em error.fields com campo, codigo e mensagem.",
        "Corrija cada campo listado em error.fields e reenvie.",
    ),
    ErrorKind(
        "TOO_MANY_REQUESTS",
        429,
        "Limite de requisições por minuto excedido.",
        "A chave ou o integrador passou do limite por minuto do plano, ou o seu endereço IP fez "
        "chamadas demais com credencial ausente ou inválida (ou confirmações de pagamento malformadas); "
        "a requisição não foi processada.",
        "Espere pelo menos os segundos de Retry-After antes da próxima chamada e espace as "
        "seguintes pelo X-RateLimit-Remaining de cada resposta; ao repetir um POST que gasta "
        "créditos, reutilize a mesma Idempotency-Key. Chamadas sem credencial válida contam no "
        "limite do endereço IP: confira o cabeçalho Authorization antes de tentar de novo.",
    ),
    ErrorKind(
        "TOO_MANY_CONNECTIONS",
        429,
        "Conexões abertas demais a partir do seu endereço.",
        "O seu endereço IP já mantém com o serviço o máximo de conexões abertas ao mesmo tempo (100 por "
        "padrão); esta conexão foi recusada antes de a requisição ser lida, e nada foi processado.",
        "Reaproveite conexões (keep-alive) com um pool de tamanho limitado, feche as que não usa e espere "
        "os segundos de Retry-After antes de abrir outra.",
    ),
    ErrorKind(
        "CLIENT_CLOSED_REQUEST",
        499,
        "O cliente fechou a conexão antes de enviar o corpo inteiro.",
        "A conexão foi fechada do seu lado (por um timeout do seu cliente HTTP, um processo encerrado ou "
        "uma queda de rede) enquanto o corpo da requisição chegava; nada foi processado e nenhuma resposta "
        "pôde ser enviada. Este registro existe só no registro de chamadas: não é um erro do serviço.",
        "Confira o timeout do seu cliente HTTP e se o processo que chamou continuou vivo até a resposta; "
        "repita a chamada (com a mesma Idempotency-Key, se houver).",
    ),
    ErrorKind(
        "CHECK_LIMIT_EXCEEDED",
        429,
        "Este produto já teve 10 conferências nas últimas 24 horas.",
        "Cada produto tem no máximo 10 conferências em 24 horas, contando as que começam sozinhas "
        "a cada nova versão da ficha; uma nova conferência foi pedida além disso. Só este produto é "
        "afetado, não a chave.",
        "Espere os segundos de Retry-After e peça de novo. Versões novas da ficha enviadas nesse "
        "meio tempo não se perdem: a conferência delas fica agendada e começa sozinha.",
    ),
    ErrorKind(
        "INTERNAL_ERROR",
        500,
        "Erro interno inesperado.",
        "Uma falha inesperada do serviço interrompeu a requisição; nada foi cobrado.",
        "Repita a chamada (com a mesma Idempotency-Key, se houver). Se persistir, envie o X-Request-Id ao suporte.",
    ),
    ErrorKind(
        "SERVICE_UNAVAILABLE",
        503,
        "Serviço temporariamente indisponível.",
        "O serviço está sobrecarregado ou em manutenção; nada foi cobrado.",
        "Espere os segundos de Retry-After e repita a chamada.",
    ),
)


# The cause of a VALIDATION_FAILED whose every field is a query parameter: the body, if any, is
# not what was wrong (the facade's error middleware says so).
CAUSA_NA_CONSULTA = (
    "Um ou mais parâmetros de consulta da URL (a parte depois de ?) não seguem as regras; cada problema "
    "está em error.fields, com o nome do parâmetro em campo."
)

# Codes of the `codigo` of an error.fields entry: what is wrong with one field.
FIELD_CODES: dict[str, str] = {
    "obrigatorio": "O campo é obrigatório e não foi enviado.",
    "tipo_invalido": "O valor não é do tipo esperado (texto, número, booleano, lista, objeto).",
    "formato_invalido": "O texto não segue o formato esperado (data, URL, GTIN, alfabeto).",
    "caractere_invalido": "O texto tem caracteres de controle (NUL, ESC…); só textos livres aceitam tabulação e quebra de linha.",
    "muito_curto": "O texto ou a lista está abaixo do tamanho mínimo.",
    "muito_longo": "O texto ou a lista passa do tamanho máximo.",
    "fora_do_intervalo": "O número está fora do intervalo permitido.",
    "valor_invalido": "O valor não está entre os permitidos.",
    "url_nao_https": "A URL precisa usar https://.",
    "duplicado": "O valor repete outro que deveria ser único.",
    "desconhecido": "O campo não existe neste recurso.",
    "endereco_proibido": "O endereço aponta para uma rede privada, local ou reservada.",
    "ja_existe": "Já existe um recurso com este valor (o id dele vem em mensagem).",
}


@dataclass(frozen=True, slots=True)
class FieldError:
    campo: str
    codigo: str
    mensagem: str
    id: str | None = None  # the existing resource, for codigo ja_existe

    def as_dict(self) -> dict[str, str]:
        entry = {"campo": self.campo, "codigo": self.codigo, "mensagem": self.mensagem}
        if self.id is not None:
            entry["id"] = self.id
        return entry


@dataclass(eq=False)
class ApiError(Exception):
    """An expected failure with a catalog type; every door renders it the same way."""

    type: str
    description: str | None = None
    fields: list[FieldError] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    message: str | None = None

    def __post_init__(self) -> None:
        if self.type not in CATALOG:
            raise KeyError(f"error type {self.type} is not in the catalog")
        super().__init__(self.type)

    @property
    def kind(self) -> ErrorKind:
        return CATALOG[self.type]

    @property
    def status(self) -> int:
        return self.kind.status

    def body(self, docs_url: str) -> dict[str, Any]:
        kind = self.kind
        return {
            "error": {
                "type": kind.type,
                "message": self.message or kind.message,
                "description": self.description or kind.causa,
                "fields": [f.as_dict() for f in self.fields],
                "documentation": f"{docs_url}/erros#{kind.type}",
            }
        }

    def extensions(self) -> dict[str, Any]:
        """The GraphQL `extensions` of this error, so /graphql clients see the same data."""
        return {
            "type": self.type,
            "status": self.status,
            "description": self.description or self.kind.causa,
            "fields": [f.as_dict() for f in self.fields],
            "headers": self.headers,
            "message": self.message,
        }
