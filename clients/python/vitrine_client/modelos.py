# Gerado por clients/python/scripts/gerar_modelos a partir de /v1/openapi.json da Vitrine
# (datamodel-code-generator). Não edite à mão: rode o script de novo.

from __future__ import annotations

from datetime import date
from enum import IntEnum, StrEnum
from typing import Annotated, Any, Literal

from pydantic import AnyUrl, AwareDatetime, BaseModel, ConfigDict, Field, RootModel


class TipoErro(StrEnum):
    ACCOUNT_ALREADY_EXISTS = "ACCOUNT_ALREADY_EXISTS"
    BAD_REQUEST = "BAD_REQUEST"
    CHECK_LIMIT_EXCEEDED = "CHECK_LIMIT_EXCEEDED"
    CHECK_NOT_READY = "CHECK_NOT_READY"
    CLIENT_CLOSED_REQUEST = "CLIENT_CLOSED_REQUEST"
    CONTRACT_NOT_ACCEPTED = "CONTRACT_NOT_ACCEPTED"
    CORS_ORIGIN_NOT_ALLOWED = "CORS_ORIGIN_NOT_ALLOWED"
    FORBIDDEN = "FORBIDDEN"
    HEADERS_TOO_LARGE = "HEADERS_TOO_LARGE"
    IDEMPOTENCY_KEY_INVALID = "IDEMPOTENCY_KEY_INVALID"
    IDEMPOTENCY_KEY_IN_PROGRESS = "IDEMPOTENCY_KEY_IN_PROGRESS"
    IDEMPOTENCY_KEY_REQUIRED = "IDEMPOTENCY_KEY_REQUIRED"
    IDEMPOTENCY_KEY_REUSED = "IDEMPOTENCY_KEY_REUSED"
    INSUFFICIENT_CREDITS = "INSUFFICIENT_CREDITS"
    INTEGRATION_STEPS_PENDING = "INTEGRATION_STEPS_PENDING"
    INTEGRATOR_PAUSED = "INTEGRATOR_PAUSED"
    INTERNAL_ERROR = "INTERNAL_ERROR"
    INVALID_JSON = "INVALID_JSON"
    MEDIA_TYPE_NOT_APPROVED = "MEDIA_TYPE_NOT_APPROVED"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    NOTICE_ADDRESS_DISABLED = "NOTICE_ADDRESS_DISABLED"
    NOTICE_ADDRESS_LIMIT_REACHED = "NOTICE_ADDRESS_LIMIT_REACHED"
    NOTICE_ADDRESS_REQUIRED = "NOTICE_ADDRESS_REQUIRED"
    NOTICE_LISTEN_CLOSED = "NOTICE_LISTEN_CLOSED"
    NOTICE_LISTEN_LIMIT_REACHED = "NOTICE_LISTEN_LIMIT_REACHED"
    NOT_FOUND = "NOT_FOUND"
    OAUTH_APP_DISABLED = "OAUTH_APP_DISABLED"
    OAUTH_APP_HAS_NO_SECRET = "OAUTH_APP_HAS_NO_SECRET"
    OAUTH_APP_LIMIT_REACHED = "OAUTH_APP_LIMIT_REACHED"
    OAUTH_CLIENT_INVALID = "OAUTH_CLIENT_INVALID"
    OAUTH_REDIRECT_URI_INVALID = "OAUTH_REDIRECT_URI_INVALID"
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
    PAYMENT_CONFIRMATION_REUSED = "PAYMENT_CONFIRMATION_REUSED"
    PAYMENT_NOT_ALLOWED = "PAYMENT_NOT_ALLOWED"
    PAYMENT_SIGNATURE_INVALID = "PAYMENT_SIGNATURE_INVALID"
    PAYMENT_TIMESTAMP_INVALID = "PAYMENT_TIMESTAMP_INVALID"
    PRODUCTION_NOT_RELEASED = "PRODUCTION_NOT_RELEASED"
    PURCHASE_CLOSED = "PURCHASE_CLOSED"
    REAUTHENTICATION_REQUIRED = "REAUTHENTICATION_REQUIRED"
    REQUEST_TIMEOUT = "REQUEST_TIMEOUT"
    ROUTE_NOT_FOUND = "ROUTE_NOT_FOUND"
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"
    TEST_ENVIRONMENT_ONLY = "TEST_ENVIRONMENT_ONLY"
    TOO_MANY_CONNECTIONS = "TOO_MANY_CONNECTIONS"
    TOO_MANY_REQUESTS = "TOO_MANY_REQUESTS"
    UNAUTHORIZED = "UNAUTHORIZED"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    URI_TOO_LONG = "URI_TOO_LONG"
    VALIDATION_FAILED = "VALIDATION_FAILED"


class CampoErro(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    campo: str
    codigo: str
    mensagem: str
    id: str | None = None
    """
    existing resource (codigo ja_existe)
    """


class DetalheErro(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    type: TipoErro
    message: str
    description: str
    fields: list[CampoErro]
    documentation: AnyUrl


class Erro(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    error: DetalheErro


class Saldo(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    modeloCobranca: str
    ambiente: str
    creditosDisponiveis: int
    creditosReservados: int
    creditosPlano: int
    creditosPacote: int
    atualizadoEm: AwareDatetime


class Lancamento(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    tipo: str
    creditosDisponiveis: int
    creditosReservados: int
    creditosPlano: int
    creditosPacote: int
    disponiveisApos: int | None = None
    geracaoId: str | None = None
    recargaId: str | None = None
    descricao: str
    criadoEm: AwareDatetime


class Paginacao(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    limite: int
    proximoCursor: str | None = None


class Preco(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    tipo: str
    creditos: int
    unidade: str
    descricao: str


class LimitesPlano(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    porMinutoChave: int
    porMinutoIntegrador: int


class Plano(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    codigo: str
    nome: str
    versao: int
    precoCentavos: int
    creditosMensais: int
    limites: LimitesPlano


class MudancaPlanoAgendada(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    plano: Plano
    aplicaEm: AwareDatetime
    motivo: str


class PlanoAtual(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    ambiente: str
    plano: Plano
    cicloInicioEm: AwareDatetime
    cicloFimEm: AwareDatetime
    mudancaAgendada: MudancaPlanoAgendada | None = None


class CotaDoMes(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    ambiente: str
    cotaMensal: int
    creditosUsados: int
    creditosRestantes: int
    percentualUsado: int
    cicloInicioEm: AwareDatetime
    cicloFimEm: AwareDatetime
    alertasAtingidos: list[int]


class NovaConta(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    codigoExterno: Annotated[
        str,
        Field(
            max_length=100,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Codigoexterno",
        ),
    ]
    nome: Annotated[
        str,
        Field(
            max_length=200,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Nome",
        ),
    ]


class Conta(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    codigoExterno: str
    nome: str
    origem: str
    situacao: str
    ambiente: str
    criadoEm: AwareDatetime
    atualizadoEm: AwareDatetime


class Anuncio(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    marketplace: Annotated[
        str,
        Field(
            max_length=50,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Marketplace",
        ),
    ]
    id: Annotated[
        str,
        Field(
            max_length=100,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Id",
        ),
    ]


class Atributo(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    nome: Annotated[
        str,
        Field(
            max_length=100,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Nome",
        ),
    ]
    valor: Annotated[
        str,
        Field(
            max_length=500,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Valor",
        ),
    ]


class Texto(RootModel[str]):
    root: Annotated[
        str,
        Field(
            max_length=2000,
            min_length=0,
            pattern="^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$",
            title="Texto",
        ),
    ] = None


class Avaliacao(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    nota: Annotated[int, Field(ge=1, le=5, title="Nota")]
    texto: Annotated[Texto | None, Field(title="Texto")] = None
    data: Annotated[date | None, Field(title="Data")] = None


class Codigo(RootModel[str]):
    root: Annotated[
        str,
        Field(
            max_length=100,
            min_length=0,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Codigo",
        ),
    ] = None


class Nome(RootModel[str]):
    root: Annotated[
        str,
        Field(
            max_length=200,
            min_length=0,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Nome",
        ),
    ] = None


class Caminho(RootModel[str]):
    root: Annotated[
        str,
        Field(
            max_length=500,
            min_length=0,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Caminho",
        ),
    ] = None


class Categoria(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    codigo: Annotated[Codigo | None, Field(title="Codigo")] = None
    nome: Annotated[Nome | None, Field(title="Nome")] = None
    caminho: Annotated[Caminho | None, Field(title="Caminho")] = None


class Largura(RootModel[float]):
    root: Annotated[float, Field(ge=0.0, le=1000000.0, title="Largura")] = None


class Altura(RootModel[float]):
    root: Annotated[float, Field(ge=0.0, le=1000000.0, title="Altura")] = None


class Profundidade(RootModel[float]):
    root: Annotated[float, Field(ge=0.0, le=1000000.0, title="Profundidade")] = None


class Unidade(StrEnum):
    mm = "mm"
    cm = "cm"
    m = "m"


class PesoLiquido(RootModel[float]):
    root: Annotated[float, Field(ge=0.0, le=1000000.0, title="Pesoliquido")] = None


class PesoBruto(RootModel[float]):
    root: Annotated[float, Field(ge=0.0, le=1000000.0, title="Pesobruto")] = None


class UnidadePeso(StrEnum):
    g = "g"
    kg = "kg"


class Dimensoes(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    largura: Annotated[Largura | None, Field(title="Largura")] = None
    altura: Annotated[Altura | None, Field(title="Altura")] = None
    profundidade: Annotated[Profundidade | None, Field(title="Profundidade")] = None
    unidade: Annotated[Unidade | None, Field(title="Unidade")] = None
    pesoLiquido: Annotated[PesoLiquido | None, Field(title="Pesoliquido")] = None
    pesoBruto: Annotated[PesoBruto | None, Field(title="Pesobruto")] = None
    unidadePeso: Annotated[UnidadePeso | None, Field(title="Unidadepeso")] = None


class Imagem(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    url: Annotated[
        str,
        Field(
            max_length=2000,
            pattern="^https://([a-z0-9-]{1,30}\\.){1,3}[a-z]{2,10}(/[A-Za-z0-9/_.-]*)?$",
            title="Url",
        ),
    ]
    ordem: Annotated[int, Field(ge=1, le=1000, title="Ordem")]
    principal: Annotated[bool | None, Field(title="Principal")] = None


class ItemComposicao(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    item: Annotated[
        str,
        Field(
            max_length=200,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Item",
        ),
    ]
    quantidade: Annotated[int, Field(ge=1, le=10000, title="Quantidade")]


class Pergunta(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    pergunta: Annotated[
        str,
        Field(
            max_length=500,
            min_length=1,
            pattern="^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$",
            title="Pergunta",
        ),
    ]
    resposta: Annotated[
        str,
        Field(
            max_length=2000,
            min_length=1,
            pattern="^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$",
            title="Resposta",
        ),
    ]


class TotalAvaliacoes(RootModel[int]):
    root: Annotated[int, Field(ge=0, title="Totalavaliacoes")] = None


class NotaMedia(RootModel[float]):
    root: Annotated[float, Field(ge=0.0, le=5.0, title="Notamedia")] = None


class Vendidos(RootModel[int]):
    root: Annotated[int, Field(ge=0, title="Vendidos")] = None


class ProvaSocial(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    totalAvaliacoes: Annotated[
        TotalAvaliacoes | None, Field(title="Totalavaliacoes")
    ] = None
    notaMedia: Annotated[NotaMedia | None, Field(title="Notamedia")] = None
    vendidos: Annotated[Vendidos | None, Field(title="Vendidos")] = None


class Descricao(RootModel[str]):
    root: Annotated[
        str,
        Field(
            max_length=5000,
            min_length=0,
            pattern="^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$",
            title="Descricao",
        ),
    ] = None


class DescricaoComplementar(RootModel[str]):
    root: Annotated[
        str,
        Field(
            max_length=5000,
            min_length=0,
            pattern="^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$",
            title="Descricaocomplementar",
        ),
    ] = None


class Marca(RootModel[str]):
    root: Annotated[
        str,
        Field(
            max_length=100,
            min_length=0,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Marca",
        ),
    ] = None


class Modelo(RootModel[str]):
    root: Annotated[
        str,
        Field(
            max_length=100,
            min_length=0,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Modelo",
        ),
    ] = None


class Gtin(RootModel[str]):
    root: Annotated[str, Field(pattern="^([0-9]{8}|[0-9]{12,14})$", title="Gtin")] = (
        None
    )
    """
    GTIN-8, -12, -13 ou -14 (EAN/UPC), com o dígito verificador certo.
    """


class Atributos(RootModel[list[Atributo]]):
    root: Annotated[list[Atributo], Field(max_length=100, title="Atributos")] = None


class Imagens(RootModel[list[Imagem]]):
    root: Annotated[list[Imagem], Field(max_length=20, title="Imagens")] = None


class ComposicaoOferta(RootModel[list[ItemComposicao]]):
    root: Annotated[
        list[ItemComposicao], Field(max_length=50, title="Composicaooferta")
    ] = None


class Garantia(RootModel[str]):
    root: Annotated[
        str,
        Field(
            max_length=500,
            min_length=0,
            pattern="^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$",
            title="Garantia",
        ),
    ] = None


class Avaliacoes(RootModel[list[Avaliacao]]):
    root: Annotated[list[Avaliacao], Field(max_length=50, title="Avaliacoes")] = None


class Perguntas(RootModel[list[Pergunta]]):
    root: Annotated[list[Pergunta], Field(max_length=50, title="Perguntas")] = None


class Ficha(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    nome: Annotated[
        str,
        Field(
            max_length=200,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Nome",
        ),
    ]
    descricao: Annotated[Descricao | None, Field(title="Descricao")] = None
    descricaoComplementar: Annotated[
        DescricaoComplementar | None, Field(title="Descricaocomplementar")
    ] = None
    marca: Annotated[Marca | None, Field(title="Marca")] = None
    modelo: Annotated[Modelo | None, Field(title="Modelo")] = None
    gtin: Annotated[Gtin | None, Field(title="Gtin")] = None
    categoria: Categoria | None = None
    atributos: Annotated[Atributos | None, Field(title="Atributos")] = None
    imagens: Annotated[Imagens | None, Field(title="Imagens")] = None
    dimensoes: Dimensoes | None = None
    composicaoOferta: Annotated[
        ComposicaoOferta | None, Field(title="Composicaooferta")
    ] = None
    garantia: Annotated[Garantia | None, Field(title="Garantia")] = None
    avaliacoes: Annotated[Avaliacoes | None, Field(title="Avaliacoes")] = None
    perguntas: Annotated[Perguntas | None, Field(title="Perguntas")] = None
    provaSocial: ProvaSocial | None = None
    anuncio: Anuncio | None = None


class MotivoFoto(BaseModel):
    """
    Why a photo was refused (bloqueio) or weakened (fraco); codes at /docs/pendencias.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    codigo: str
    severidade: str
    detalhe: str | None = None


class FotoFicha(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str | None = None
    url: str
    ordem: int
    principal: bool
    situacao: str
    largura: int | None = None
    altura: int | None = None
    motivos: list[MotivoFoto]


class Fotos(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    recebidas: int
    aprovadas: int
    itens: list[FotoFicha]


class Produto(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    contaId: str
    codigo: str
    nome: str
    situacao: str
    versao: int
    fotos: Fotos
    criadoEm: AwareDatetime
    atualizadoEm: AwareDatetime


class Pendencia(BaseModel):
    """
    Something the ficha lacks for a media type; codes at /docs/pendencias.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    codigo: str
    severidade: str
    campo: str


class ResultadoConferencia(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    tipo: str
    aprovado: bool
    quantidadeMaximaImagens: int | None = None
    quantidadesAprovadas: list[int] | None = None
    notaVideo: int | None = None
    pendencias: list[Pendencia]


class Conferencia(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    produtoId: str
    versaoProduto: int
    situacao: str
    resultados: list[ResultadoConferencia]
    consultarNovamenteEm: AwareDatetime | None = None
    criadoEm: AwareDatetime
    concluidaEm: AwareDatetime | None = None


class Progresso(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    etapa: str
    percentual: int


class ImagemResultado(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    posicao: int
    url: str
    expiraEm: AwareDatetime
    largura: int
    altura: int
    tipo: str
    observacoes: list[str]


class VideoResultado(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    url: str
    expiraEm: AwareDatetime
    formato: str
    largura: int
    altura: int
    duracaoSegundos: float
    fps: int


class Fala(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    texto: str
    voz: str
    duracaoSegundos: float


class Legendas(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    url: str
    expiraEm: AwareDatetime
    idioma: str
    embutidas: bool


class Resultados(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    imagens: list[ImagemResultado]
    video: VideoResultado | None = None
    videos: list[VideoResultado]
    fala: Fala | None = None
    legendas: Legendas | None = None
    avatar: str | None = None


class FalhaSaida(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    saida: str
    erro: str


class ErroGeracao(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    codigo: str
    mensagem: str
    falhas: list[FalhaSaida]


class Geracao(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    tipo: str
    situacao: str
    creditosReservados: int
    creditosCobrados: int
    ambiente: str
    contaId: str | None = None
    produtoId: str | None = None
    progresso: Progresso
    resultados: Resultados
    erro: ErroGeracao | None = None
    criadoEm: AwareDatetime
    atualizadoEm: AwareDatetime


class NovaGaleria(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    produtoId: Annotated[
        str,
        Field(
            max_length=40,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Produtoid",
        ),
    ]
    quantidadeImagens: Annotated[int, Field(ge=1, le=12, title="Quantidadeimagens")]


class Tipo(StrEnum):
    apresentacao = "apresentacao"
    cinepremium = "cinepremium"


class Avatar(StrEnum):
    automatico = "automatico"
    legenda = "legenda"
    narrador = "narrador"
    narradora = "narradora"


class NovoVideo(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    produtoId: Annotated[
        str,
        Field(
            max_length=40,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Produtoid",
        ),
    ]
    tipo: Annotated[Tipo, Field(title="Tipo")]
    avatar: Annotated[Avatar | None, Field(title="Avatar")] = "automatico"


class Ajuste(BaseModel):
    """
    Brightness, contrast and saturation, each from -100 (none) to 100 (double); 0 keeps it.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    tipo: Annotated[Literal["ajuste"], Field(title="Tipo")]
    brilho: Annotated[int | None, Field(ge=-100, le=100, title="Brilho")] = 0
    contraste: Annotated[int | None, Field(ge=-100, le=100, title="Contraste")] = 0
    saturacao: Annotated[int | None, Field(ge=-100, le=100, title="Saturacao")] = 0


class Formato(StrEnum):
    quadrado_1200 = "quadrado_1200"
    quadrado_1000 = "quadrado_1000"
    retrato_1080x1350 = "retrato_1080x1350"
    vertical_1080x1920 = "vertical_1080x1920"
    paisagem_1200x628 = "paisagem_1200x628"


class Modo(StrEnum):
    conter = "conter"
    preencher = "preencher"
    produto = "produto"


class Enquadrar(BaseModel):
    """
    Reframe to a marketplace size. conter: the whole image, white around it; preencher: fill
    the frame, cropping the edges; produto: the product cut out through its mask onto white,
    contained with `margem` percent around (the whole image, with a note, when it cannot be).
    """

    model_config = ConfigDict(
        extra="allow",
    )
    tipo: Annotated[Literal["enquadrar"], Field(title="Tipo")]
    formato: Annotated[Formato, Field(title="Formato")]
    modo: Annotated[Modo | None, Field(title="Modo")] = "conter"
    margem: Annotated[int | None, Field(ge=0, le=30, title="Margem")] = 5


class FundoBranco(BaseModel):
    """
    The product cut out onto pure white (graphql_api.midia.recorte finds it); the image as it
    was, with a note, when the product cannot be told apart from its background.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    tipo: Annotated[Literal["fundo_branco"], Field(title="Tipo")]
    tolerancia: Annotated[int | None, Field(ge=1, le=80, title="Tolerancia")] = 24


class Posicao(StrEnum):
    superior_esquerdo = "superior_esquerdo"
    superior_direito = "superior_direito"
    inferior_esquerdo = "inferior_esquerdo"
    inferior_direito = "inferior_direito"


class Selo(BaseModel):
    """
    A round badge in a corner ("-20%", "Novo", "Frete grátis").
    """

    model_config = ConfigDict(
        extra="allow",
    )
    tipo: Annotated[Literal["selo"], Field(title="Tipo")]
    texto: Annotated[
        str,
        Field(
            max_length=24,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Texto",
        ),
    ]
    posicao: Annotated[Posicao | None, Field(title="Posicao")] = "superior_direito"
    cor: Annotated[str | None, Field(title="Cor")] = "#F2A541"
    corTexto: Annotated[str | None, Field(title="Cortexto")] = "#16324F"


class Posicao1(StrEnum):
    topo = "topo"
    rodape = "rodape"


class Texto1(BaseModel):
    """
    A band across the top or bottom with a short text (wrapped, shrunk to fit, two lines).
    """

    model_config = ConfigDict(
        extra="allow",
    )
    tipo: Annotated[Literal["texto"], Field(title="Tipo")]
    texto: Annotated[
        str,
        Field(
            max_length=80,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Texto",
        ),
    ]
    posicao: Annotated[Posicao1 | None, Field(title="Posicao")] = "rodape"
    cor: Annotated[str | None, Field(title="Cor")] = "#FFFFFF"
    fundo: Annotated[str | None, Field(title="Fundo")] = "#16324F"


class Operacoes(RootModel[FundoBranco | Enquadrar | Ajuste | Texto1 | Selo]):
    root: Annotated[
        FundoBranco | Enquadrar | Ajuste | Texto1 | Selo, Field(discriminator="tipo")
    ]


class EdicaoRequest(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    operacoes: Annotated[
        list[Operacoes], Field(max_length=10, min_length=1, title="Operacoes")
    ]


class Chamada(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    requestId: str
    criadoEm: AwareDatetime
    metodo: str
    endpoint: str
    caminho: str
    status: int
    duracaoMs: float
    codigoErro: str | None = None
    chave: str | None = None
    credencial: str
    clientId: str | None = None
    contaId: str | None = None
    ambiente: str
    idempotenteRepetida: bool


class ChamadaDetalhe(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    requestId: str
    criadoEm: AwareDatetime
    metodo: str
    endpoint: str
    caminho: str
    status: int
    duracaoMs: float
    codigoErro: str | None = None
    chave: str | None = None
    credencial: str
    clientId: str | None = None
    contaId: str | None = None
    ambiente: str
    idempotenteRepetida: bool
    mensagem: str | None = None
    causa: str | None = None
    comoCorrigir: str | None = None
    documentacao: str | None = None
    cabecalhosEnviados: Any | None = None
    cabecalhosResposta: Any | None = None
    corpoEnviado: Any | None = None
    corpoRecebido: Any | None = None
    corpoEnviadoCortado: bool
    corpoRecebidoCortado: bool
    corposExpurgados: bool


class ErroRecente(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    tipo: str
    status: int
    total: int
    ultimaOcorrencia: AwareDatetime
    ultimoRequestId: str
    mensagem: str
    causa: str
    comoCorrigir: str
    documentacao: str


class Producao(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    situacao: str
    liberacao: str | None = None
    motivo: str
    liberadaEm: AwareDatetime | None = None


class EtapaIntegracao(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    codigo: str
    titulo: str
    situacao: str
    verificadoEm: AwareDatetime | None = None
    evidencia: Any | None = None
    ultimaFalha: str | None = None
    comoConcluir: str
    documentacao: str


class AlertaAberto(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    tipo: str
    mensagem: str
    abertoEm: AwareDatetime
    evidencia: Any | None = None


class IntegracaoStatus(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    ambiente: str
    etapasConcluidas: int
    etapasObrigatorias: int
    producao: Producao
    etapas: list[EtapaIntegracao]
    alertasAbertos: list[AlertaAberto]


class Evento(StrEnum):
    produto_conferido = "produto.conferido"
    geracao_concluida = "geracao.concluida"
    geracao_falhou = "geracao.falhou"
    creditos_baixos = "creditos.baixos"
    cota_alerta = "cota.alerta"
    conta_desvinculada = "conta.desvinculada"


class NovoAviso(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    url: Annotated[
        str,
        Field(
            max_length=2048,
            min_length=1,
            pattern="^https://([a-z0-9-]{1,30}\\.){1,3}[a-z]{2,10}(/[A-Za-z0-9/_.-]*)?$",
            title="Url",
        ),
    ]
    eventos: Annotated[list[Evento], Field(max_length=6, min_length=1, title="Eventos")]


class Aviso(BaseModel):
    """
    Endereço de avisos. `segredo` vem só na criação (201) e na rotação.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    url: str
    eventos: list[str]
    situacao: str
    ambiente: str
    falhandoDesde: AwareDatetime | None = None
    desativadoEm: AwareDatetime | None = None
    motivoDesativacao: str | None = None
    segredoAnteriorExpiraEm: AwareDatetime | None = None
    criadoEm: AwareDatetime
    atualizadoEm: AwareDatetime


class Rotacao(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    carenciaHoras: Annotated[int | None, Field(ge=0, le=168, title="Carenciahoras")] = (
        24
    )


class TentativaEntrega(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    numero: int
    iniciadaEm: AwareDatetime
    duracaoMs: float | None = None
    status: int | None = None
    resposta: str | None = None
    erro: str | None = None
    falha: str | None = None
    motivoFalha: str | None = None


class Entrega(BaseModel):
    """
    Um evento para um endereço. `id` é o cabeçalho webhook-id, igual em todas as tentativas.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    eventoId: str
    tipo: str
    situacao: str
    amostra: bool
    ultimoStatus: int | None = None
    proximaTentativaEm: AwareDatetime | None = None
    criadoEm: AwareDatetime
    entregueEm: AwareDatetime | None = None
    tentativas: list[TentativaEntrega]


class PedidoTeste(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    avisoId: Annotated[str | None, Field(title="Avisoid")] = None


class EnvioTeste(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    cabecalhos: Any
    corpo: str


class RespostaTeste(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    status: int | None = None
    corpo: str | None = None
    erro: str | None = None
    duracaoMs: float | None = None
    cabecalhos: Any | None = None
    falha: str | None = None
    motivoFalha: str | None = None


class TesteAviso(BaseModel):
    """
    Uma das três entregas de POST /avisos/teste e o que o endereço respondeu.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    caso: str
    situacao: str
    esperado: str
    enviado: EnvioTeste | None = None
    resposta: RespostaTeste | None = None
    veredito: str | None = None
    criadoEm: AwareDatetime
    concluidoEm: AwareDatetime | None = None


class NovaEscuta(BaseModel):
    """
    Opening a listening session: the event types it receives (none listed: every one).
    """

    model_config = ConfigDict(
        extra="allow",
    )
    eventos: Annotated[list[Evento] | None, Field(max_length=6, title="Eventos")] = None


class EscutaAviso(BaseModel):
    """
    Sessão de escuta do vitrine-cli listen (só em teste). `segredo` vem só na abertura.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    eventos: list[str]
    situacao: str
    ambiente: str
    criadoEm: AwareDatetime
    conectadaEm: AwareDatetime | None = None
    encerradaEm: AwareDatetime | None = None


class EntregaEscuta(BaseModel):
    """
    Um evento para uma sessão de escuta e o que o endereço local respondeu. `id` é o webhook-id.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    eventoId: str
    tipo: str
    situacao: str
    status: int | None = None
    resposta: str | None = None
    erro: str | None = None
    duracaoMs: float | None = None
    criadoEm: AwareDatetime
    enviadaEm: AwareDatetime | None = None
    respondidaEm: AwareDatetime | None = None


class Status(RootModel[int]):
    root: Annotated[int, Field(ge=100, le=599, title="Status")] = None


class Resposta(RootModel[str]):
    root: Annotated[
        str,
        Field(
            max_length=1024,
            min_length=0,
            pattern="^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]*$",
            title="Resposta",
        ),
    ] = None


class Erro1(RootModel[str]):
    root: Annotated[
        str,
        Field(
            max_length=300,
            min_length=0,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Erro",
        ),
    ] = None


class ResultadoEscuta(BaseModel):
    """
    What the local address answered to one forwarded delivery, as the command saw it.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    status: Annotated[Status | None, Field(title="Status")] = None
    duracaoMs: Annotated[float, Field(ge=0.0, le=3600000.0, title="Duracaoms")]
    resposta: Annotated[Resposta | None, Field(title="Resposta")] = None
    erro: Annotated[Erro1 | None, Field(title="Erro")] = None


class Tipo1(StrEnum):
    produto_conferido = "produto.conferido"
    geracao_concluida = "geracao.concluida"
    geracao_falhou = "geracao.falhou"
    creditos_baixos = "creditos.baixos"
    cota_alerta = "cota.alerta"
    conta_desvinculada = "conta.desvinculada"


class Disparo(BaseModel):
    """
    A sample event to emit in the test environment.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    tipo: Annotated[Tipo1, Field(title="Tipo")]


class EventoEmitido(BaseModel):
    """
    Um evento emitido, com o corpo que as entregas levam.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    tipo: str
    criadoEm: AwareDatetime
    contaId: str | None = None
    data: Any


class Pacote(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    codigo: str
    nome: str
    creditos: int
    precoCentavos: int


class NovaRecarga(BaseModel):
    """
    Body of POST /recargas: the package to buy, by its codigo (GET /pacotes).
    """

    model_config = ConfigDict(
        extra="allow",
    )
    pacote: Annotated[
        str,
        Field(
            max_length=40,
            min_length=1,
            pattern="^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            title="Pacote",
        ),
    ]


class Recarga(BaseModel):
    model_config = ConfigDict(
        extra="allow",
    )
    id: str
    pacote: str
    situacao: str
    creditos: int
    precoCentavos: int
    ambiente: str
    linkPagamento: str
    expiraEm: AwareDatetime
    pagaEm: AwareDatetime | None = None
    encerradaEm: AwareDatetime | None = None
    criadoEm: AwareDatetime
    atualizadoEm: AwareDatetime


class Severidade(StrEnum):
    """
    `bloqueio` impede o tipo de mídia; `fraco` aprova, mas a qualidade cai.
    """

    bloqueio = "bloqueio"
    fraco = "fraco"


class PendenciaConferida(BaseModel):
    """
    Uma pendência de um tipo de mídia.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    codigo: Annotated[str, Field(title="Codigo")]
    """
    Código da pendência; causa e correção na página Pendências da documentação.
    """
    severidade: Annotated[Severidade, Field(title="Severidade")]
    """
    `bloqueio` impede o tipo de mídia; `fraco` aprova, mas a qualidade cai.
    """
    campo: Annotated[str, Field(title="Campo")]
    """
    O campo da ficha a que a pendência se refere (`imagens`, `descricao`, …).
    """


class Situacao(StrEnum):
    """
    `aprovado` quando a conferência aprovou ao menos um tipo de mídia; `reprovado` quando não aprovou nenhum.
    """

    aprovado = "aprovado"
    reprovado = "reprovado"


class ProdutoConferido(BaseModel):
    """
    O produto, como ficou depois da conferência.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: Annotated[str, Field(title="Id")]
    """
    Id do produto (`prd_…`).
    """
    contaId: Annotated[str, Field(title="Contaid")]
    """
    Conta do produto (`cta_…`).
    """
    codigo: Annotated[str, Field(title="Codigo")]
    """
    O código (SKU) do produto na conta.
    """
    situacao: Annotated[Situacao, Field(title="Situacao")]
    """
    `aprovado` quando a conferência aprovou ao menos um tipo de mídia; `reprovado` quando não aprovou nenhum.
    """
    versao: Annotated[int, Field(title="Versao")]
    """
    A versão da ficha que foi conferida (a atual do produto).
    """


class Tipo2(StrEnum):
    """
    O tipo de mídia julgado.
    """

    galeria = "galeria"
    video_apresentacao = "video_apresentacao"
    video_cinepremium = "video_cinepremium"


class ResultadoConferido(BaseModel):
    """
    O veredito da conferência para um tipo de mídia.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    tipo: Annotated[Tipo2, Field(title="Tipo")]
    """
    O tipo de mídia julgado.
    """
    aprovado: Annotated[bool, Field(title="Aprovado")]
    """
    Se a ficha permite gerar este tipo de mídia.
    """
    quantidadeMaximaImagens: Annotated[
        int | None, Field(title="Quantidademaximaimagens")
    ]
    """
    Galeria: quantas imagens a ficha sustenta; `null` nos vídeos.
    """
    quantidadesAprovadas: Annotated[
        list[int] | None, Field(title="Quantidadesaprovadas")
    ]
    """
    Galeria: os tamanhos de galeria que podem ser pedidos (vazia se reprovada); `null` nos vídeos.
    """
    notaVideo: Annotated[int | None, Field(title="Notavideo")]
    """
    Vídeos: 0 a 100, quanto do que o vídeo usa a ficha oferece; `null` na galeria.
    """
    pendencias: Annotated[list[PendenciaConferida], Field(title="Pendencias")]
    """
    O que falta ou enfraquece este tipo de mídia.
    """


class Tipo3(StrEnum):
    """
    O que foi pedido.
    """

    galeria = "galeria"
    video_apresentacao = "video_apresentacao"
    video_cinepremium = "video_cinepremium"
    edicao_imagem = "edicao_imagem"


class Situacao1(StrEnum):
    """
    `concluida`: todas as saídas entregues; `parcial`: algumas falharam (veja `falhas`).
    """

    concluida = "concluida"
    parcial = "parcial"


class FalhaGeracao(BaseModel):
    """
    Uma saída que não pôde ser gerada.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    saida: Annotated[str, Field(title="Saida")]
    """
    Qual saída falhou (por exemplo `imagem_2`).
    """
    erro: Annotated[str, Field(title="Erro")]
    """
    Por que falhou.
    """


class DadosGeracaoFalhou(BaseModel):
    """
    Uma geração falhou: nenhuma saída entregue, os créditos reservados voltaram à carteira.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: Annotated[str, Field(title="Id")]
    """
    Id da geração (`ger_…`): `GET /geracoes/{geracaoId}` traz a mídia, com links novos.
    """
    tipo: Annotated[Tipo3, Field(title="Tipo")]
    """
    O que foi pedido.
    """
    situacao: Annotated[Literal["falhou"], Field(title="Situacao")]
    """
    Sempre `falhou` neste evento.
    """
    produtoId: Annotated[str | None, Field(title="Produtoid")]
    """
    O produto (`prd_…`); `null` numa edição de imagem enviada sem produto.
    """
    creditosReservados: Annotated[int, Field(title="Creditosreservados")]
    """
    Créditos reservados no pedido.
    """
    creditosCobrados: Annotated[int, Field(title="Creditoscobrados")]
    """
    Sempre 0: uma geração que falhou não é cobrada.
    """
    falhas: Annotated[list[FalhaGeracao], Field(title="Falhas")]
    """
    As saídas que não puderam ser geradas (vazia quando nenhuma falhou).
    """
    motivo: Annotated[str, Field(title="Motivo")]
    """
    O que houve, em português.
    """


class EventoGeracaoFalhou(BaseModel):
    """
    Uma geração falhou: nenhuma saída entregue, os créditos reservados voltaram à carteira.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: Annotated[str, Field(title="Id")]
    """
    Id do evento (`evt_…`). Um evento que vai a vários endereços seus tem o mesmo `id` em todos, e cada entrega o seu `webhook-id`.
    """
    tipo: Annotated[Literal["geracao.falhou"], Field(title="Tipo")]
    """
    O tipo do evento.
    """
    criadoEm: Annotated[AwareDatetime, Field(title="Criadoem")]
    """
    Quando o evento aconteceu.
    """
    contaId: Annotated[str | None, Field(title="Contaid")]
    """
    A conta a que o evento se refere (subconta ou conta vinculada por OAuth), ou `null` nos eventos do integrador (`creditos.baixos`, `cota.alerta`, `aviso.teste`).
    """
    data: DadosGeracaoFalhou
    """
    O que aconteceu; o formato depende de `tipo`.
    """


class Ambiente(StrEnum):
    """
    O ambiente da carteira.
    """

    teste = "teste"
    producao = "producao"


class DadosCreditosBaixos(BaseModel):
    """
    Os créditos disponíveis da carteira ficaram abaixo do limite de alerta: a carteira logo depois
    do movimento que os levou até lá.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    ambiente: Annotated[Ambiente, Field(title="Ambiente")]
    """
    O ambiente da carteira.
    """
    creditosDisponiveis: Annotated[int, Field(title="Creditosdisponiveis")]
    """
    O saldo disponível depois do movimento (`creditosPlano + creditosPacote`).
    """
    creditosPlano: Annotated[int, Field(title="Creditosplano")]
    """
    Créditos do plano disponíveis no ciclo.
    """
    creditosPacote: Annotated[int, Field(title="Creditospacote")]
    """
    Créditos de pacote disponíveis.
    """
    creditosReservados: Annotated[int, Field(title="Creditosreservados")]
    """
    Créditos reservados em gerações em andamento.
    """
    limite: Annotated[int, Field(title="Limite")]
    """
    O limite de alerta: 10% de `cotaMensal`, no mínimo 50.
    """
    cotaMensal: Annotated[int, Field(title="Cotamensal")]
    """
    A cota do ciclo atual (0 no plano Gratuito).
    """


class EventoCreditosBaixos(BaseModel):
    """
    Os créditos disponíveis da carteira ficaram abaixo do limite de alerta: a carteira logo depois
    do movimento que os levou até lá.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: Annotated[str, Field(title="Id")]
    """
    Id do evento (`evt_…`). Um evento que vai a vários endereços seus tem o mesmo `id` em todos, e cada entrega o seu `webhook-id`.
    """
    tipo: Annotated[Literal["creditos.baixos"], Field(title="Tipo")]
    """
    O tipo do evento.
    """
    criadoEm: Annotated[AwareDatetime, Field(title="Criadoem")]
    """
    Quando o evento aconteceu.
    """
    contaId: Annotated[str | None, Field(title="Contaid")]
    """
    A conta a que o evento se refere (subconta ou conta vinculada por OAuth), ou `null` nos eventos do integrador (`creditos.baixos`, `cota.alerta`, `aviso.teste`).
    """
    data: DadosCreditosBaixos
    """
    O que aconteceu; o formato depende de `tipo`.
    """


class Limiar(IntEnum):
    """
    O limiar atingido; um movimento que passa de vários de uma vez gera um evento para cada.
    """

    integer_70 = 70
    integer_90 = 90
    integer_100 = 100


class DadosCotaAlerta(BaseModel):
    """
    A cota do mês atingiu 70%, 90% ou 100%: um evento por limiar, uma vez por ciclo.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    ambiente: Annotated[Ambiente, Field(title="Ambiente")]
    """
    O ambiente da carteira.
    """
    limiar: Annotated[Limiar, Field(title="Limiar")]
    """
    O limiar atingido; um movimento que passa de vários de uma vez gera um evento para cada.
    """
    percentualUsado: Annotated[int, Field(title="Percentualusado")]
    """
    Percentual da cota usado no ciclo, como em `GET /cota-do-mes`.
    """
    cotaMensal: Annotated[int, Field(title="Cotamensal")]
    """
    A cota do ciclo.
    """
    creditosUsados: Annotated[int, Field(title="Creditosusados")]
    """
    Créditos do plano usados no ciclo.
    """
    creditosRestantes: Annotated[int, Field(title="Creditosrestantes")]
    """
    Créditos do plano que restam no ciclo.
    """
    creditosPacote: Annotated[int, Field(title="Creditospacote")]
    """
    Créditos de pacote disponíveis (gastos depois que a cota acaba).
    """
    cicloInicioEm: Annotated[AwareDatetime, Field(title="Cicloinicioem")]
    """
    Início do ciclo a que o limiar se refere.
    """
    cicloFimEm: Annotated[AwareDatetime, Field(title="Ciclofimem")]
    """
    Fim do ciclo a que o limiar se refere.
    """


class EventoCotaAlerta(BaseModel):
    """
    A cota do mês atingiu 70%, 90% ou 100%: um evento por limiar, uma vez por ciclo.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: Annotated[str, Field(title="Id")]
    """
    Id do evento (`evt_…`). Um evento que vai a vários endereços seus tem o mesmo `id` em todos, e cada entrega o seu `webhook-id`.
    """
    tipo: Annotated[Literal["cota.alerta"], Field(title="Tipo")]
    """
    O tipo do evento.
    """
    criadoEm: Annotated[AwareDatetime, Field(title="Criadoem")]
    """
    Quando o evento aconteceu.
    """
    contaId: Annotated[str | None, Field(title="Contaid")]
    """
    A conta a que o evento se refere (subconta ou conta vinculada por OAuth), ou `null` nos eventos do integrador (`creditos.baixos`, `cota.alerta`, `aviso.teste`).
    """
    data: DadosCotaAlerta
    """
    O que aconteceu; o formato depende de `tipo`.
    """


class MotivoDesvinculacao(StrEnum):
    """
    Por que a conta vinculada perdeu a última autorização ativa.
    """

    vendedor_revogou = "vendedor_revogou"
    integrador_revogou = "integrador_revogou"
    app_desativado = "app_desativado"
    credencial_reutilizada = "credencial_reutilizada"


class DadosAvisoTeste(BaseModel):
    """
    Uma entrega de `POST /avisos/teste` (só ao endereço testado; não é assinável).
    """

    model_config = ConfigDict(
        extra="allow",
    )
    testeId: Annotated[str, Field(title="Testeid")]
    """
    O teste (`tst_…`): `GET /testes-de-avisos/{testeId}` mostra o veredito.
    """


class EventoAvisoTeste(BaseModel):
    """
    Uma entrega de `POST /avisos/teste` (só ao endereço testado; não é assinável).
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: Annotated[str, Field(title="Id")]
    """
    Id do evento (`evt_…`). Um evento que vai a vários endereços seus tem o mesmo `id` em todos, e cada entrega o seu `webhook-id`.
    """
    tipo: Annotated[Literal["aviso.teste"], Field(title="Tipo")]
    """
    O tipo do evento.
    """
    criadoEm: Annotated[AwareDatetime, Field(title="Criadoem")]
    """
    Quando o evento aconteceu.
    """
    contaId: Annotated[str | None, Field(title="Contaid")]
    """
    A conta a que o evento se refere (subconta ou conta vinculada por OAuth), ou `null` nos eventos do integrador (`creditos.baixos`, `cota.alerta`, `aviso.teste`).
    """
    data: DadosAvisoTeste
    """
    O que aconteceu; o formato depende de `tipo`.
    """


class ConferenciaConferida(BaseModel):
    """
    A conferência que terminou.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: Annotated[str, Field(title="Id")]
    """
    Id da conferência (`cnf_…`).
    """
    produtoId: Annotated[str, Field(title="Produtoid")]
    """
    O produto conferido (`prd_…`).
    """
    versaoProduto: Annotated[int, Field(title="Versaoproduto")]
    """
    A versão da ficha conferida.
    """
    situacao: Annotated[Literal["concluida"], Field(title="Situacao")]
    """
    Sempre `concluida` neste evento.
    """
    resultados: Annotated[list[ResultadoConferido], Field(title="Resultados")]
    """
    Um resultado por tipo de mídia.
    """


class DadosProdutoConferido(BaseModel):
    """
    A conferência de uma versão da ficha terminou: o produto e o resultado por tipo de mídia.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    produto: ProdutoConferido
    conferencia: ConferenciaConferida
    """
    A conferência, com o resultado por tipo de mídia.
    """


class EventoProdutoConferido(BaseModel):
    """
    A conferência de uma versão da ficha terminou: o produto e o resultado por tipo de mídia.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: Annotated[str, Field(title="Id")]
    """
    Id do evento (`evt_…`). Um evento que vai a vários endereços seus tem o mesmo `id` em todos, e cada entrega o seu `webhook-id`.
    """
    tipo: Annotated[Literal["produto.conferido"], Field(title="Tipo")]
    """
    O tipo do evento.
    """
    criadoEm: Annotated[AwareDatetime, Field(title="Criadoem")]
    """
    Quando o evento aconteceu.
    """
    contaId: Annotated[str | None, Field(title="Contaid")]
    """
    A conta a que o evento se refere (subconta ou conta vinculada por OAuth), ou `null` nos eventos do integrador (`creditos.baixos`, `cota.alerta`, `aviso.teste`).
    """
    data: DadosProdutoConferido
    """
    O que aconteceu; o formato depende de `tipo`.
    """


class DadosGeracaoConcluida(BaseModel):
    """
    Uma geração terminou e entregou suas saídas (todas, ou parte delas).
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: Annotated[str, Field(title="Id")]
    """
    Id da geração (`ger_…`): `GET /geracoes/{geracaoId}` traz a mídia, com links novos.
    """
    tipo: Annotated[Tipo3, Field(title="Tipo")]
    """
    O que foi pedido.
    """
    situacao: Annotated[Situacao1, Field(title="Situacao")]
    """
    `concluida`: todas as saídas entregues; `parcial`: algumas falharam (veja `falhas`).
    """
    produtoId: Annotated[str | None, Field(title="Produtoid")]
    """
    O produto (`prd_…`); `null` numa edição de imagem enviada sem produto.
    """
    creditosReservados: Annotated[int, Field(title="Creditosreservados")]
    """
    Créditos reservados no pedido.
    """
    creditosCobrados: Annotated[int, Field(title="Creditoscobrados")]
    """
    Créditos cobrados: só as saídas entregues; o resto da reserva voltou à carteira.
    """
    falhas: Annotated[list[FalhaGeracao], Field(title="Falhas")]
    """
    As saídas que não puderam ser geradas (vazia quando nenhuma falhou).
    """
    motivo: Annotated[str | None, Field(title="Motivo")]
    """
    Numa geração `parcial`, o que houve; `null` numa `concluida`.
    """


class EventoGeracaoConcluida(BaseModel):
    """
    Uma geração terminou e entregou suas saídas (todas, ou parte delas).
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: Annotated[str, Field(title="Id")]
    """
    Id do evento (`evt_…`). Um evento que vai a vários endereços seus tem o mesmo `id` em todos, e cada entrega o seu `webhook-id`.
    """
    tipo: Annotated[Literal["geracao.concluida"], Field(title="Tipo")]
    """
    O tipo do evento.
    """
    criadoEm: Annotated[AwareDatetime, Field(title="Criadoem")]
    """
    Quando o evento aconteceu.
    """
    contaId: Annotated[str | None, Field(title="Contaid")]
    """
    A conta a que o evento se refere (subconta ou conta vinculada por OAuth), ou `null` nos eventos do integrador (`creditos.baixos`, `cota.alerta`, `aviso.teste`).
    """
    data: DadosGeracaoConcluida
    """
    O que aconteceu; o formato depende de `tipo`.
    """


class DadosContaDesvinculada(BaseModel):
    """
    Uma conta vinculada por OAuth perdeu a última autorização ativa: os tokens dela deixam de valer
    e o vendedor precisa autorizar o aplicativo de novo.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    contaId: Annotated[str, Field(title="Contaid")]
    """
    A conta vinculada (`cta_…`).
    """
    clientId: Annotated[str, Field(title="Clientid")]
    """
    O `client_id` do aplicativo OAuth (`app_…`).
    """
    motivo: MotivoDesvinculacao
    """
    Por que a autorização acabou: `vendedor_revogou`, o vendedor revogou o acesso em "Apps conectados"; `integrador_revogou`, o integrador revogou o token (`POST /oauth/revogar`); `app_desativado`, o integrador desativou o aplicativo; `credencial_reutilizada`, um código de autorização ou refresh token foi apresentado duas vezes: a autorização foi encerrada por segurança.
    """
    desvinculadaEm: Annotated[AwareDatetime, Field(title="Desvinculadaem")]
    """
    Quando a última autorização acabou.
    """


class EventoContaDesvinculada(BaseModel):
    """
    Uma conta vinculada por OAuth perdeu a última autorização ativa: os tokens dela deixam de valer
    e o vendedor precisa autorizar o aplicativo de novo.
    """

    model_config = ConfigDict(
        extra="allow",
    )
    id: Annotated[str, Field(title="Id")]
    """
    Id do evento (`evt_…`). Um evento que vai a vários endereços seus tem o mesmo `id` em todos, e cada entrega o seu `webhook-id`.
    """
    tipo: Annotated[Literal["conta.desvinculada"], Field(title="Tipo")]
    """
    O tipo do evento.
    """
    criadoEm: Annotated[AwareDatetime, Field(title="Criadoem")]
    """
    Quando o evento aconteceu.
    """
    contaId: Annotated[str | None, Field(title="Contaid")]
    """
    A conta a que o evento se refere (subconta ou conta vinculada por OAuth), ou `null` nos eventos do integrador (`creditos.baixos`, `cota.alerta`, `aviso.teste`).
    """
    data: DadosContaDesvinculada
    """
    O que aconteceu; o formato depende de `tipo`.
    """
