"""The catalog of what the quality check can say: reasons a photo was refused or weakened
(motivos, in fotos.itens) and pendencias per media type (in the check's resultados). Each code has
one severity, a cause and a fix; it feeds /docs/pendencias. The thresholds quoted here are the
ones the rules use (graphql_api/conferencia/regras.py reads them from this module)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from graphql_api.midia import sobreposicao
from graphql_api.midia.enquadramento import (
    AMPLIACAO_MAXIMA,
    CONFIANCA_MINIMA,
    LADO_PRINCIPAL,
    PREENCHIMENTO,
    lado_necessario,
)

BLOQUEIO = "bloqueio"  # a photo: reprovada; a media type: not approved
FRACO = "fraco"  # still approved, quality drops

# Photo limits (docs/conferencia.md)
MAX_FOTO_BYTES = 15 * 1024 * 1024
MAX_FOTO_PIXELS = 25_000_000
# Memory one decode may take (JPEGs decode at reduced scale; PNG and WebP in full, twice with
# transparency): bounds a worker's memory whatever a file declares.
MAX_FOTO_DECODIFICADA = 60_000_000
FORMATOS = ("JPEG", "PNG", "WEBP")
MIN_LADO = 500
LADO_IDEAL = 1000
LADO_HD = 1080
MIN_NITIDEZ = 50.0
MAX_DISTANCIA_DUPLICADA = 20  # of the 256 bits of the perceptual hash
# The product's long side, in the photo's pixels, below which the main image enlarges it more than
# AMPLIACAO_MAXIMA (the rules use enquadramento.ampliacao; this is the same limit, for the texts).
MIN_LADO_PRODUTO = math.ceil(lado_necessario() / AMPLIACAO_MAXIMA)

# Media rules
PACOTES_GALERIA = (3, 5, 7, 10)
MAX_IMAGENS_GALERIA = PACOTES_GALERIA[-1]
MIN_ATRIBUTOS_DESTAQUES = 3
MIN_PERGUNTAS = 2
MIN_NOTA_PROVA_SOCIAL = 4.0
MIN_AVALIACOES_PROVA_SOCIAL = 3

TIPOS = ("galeria", "video_apresentacao", "video_cinepremium")


@dataclass(frozen=True, slots=True)
class Codigo:
    codigo: str
    tipo: str  # foto, galeria, video_apresentacao, video_cinepremium
    severidade: str
    titulo: str
    causa: str
    correcao: str


def _codes(*codes: Codigo) -> dict[str, Codigo]:
    return {c.codigo: c for c in codes}


def vezes(fator: float) -> str:
    """1.5 -> '1,5×' (the rules' details quote enlargements the same way)."""
    return f"{fator:.1f}×".replace(".", ",")


_MB = MAX_FOTO_BYTES // (1024 * 1024)
_CONFIANCA = f"{CONFIANCA_MINIMA:.0%}"
_FUNDO_LISO = (
    "sobre um fundo liso e claro (papel, cartolina ou tecido branco ou cinza-claro), sem textura nem "
    "outros objetos por perto, ou envie a foto em PNG com o fundo transparente"
)
_MP_TRANSPARENTE = f"{MAX_FOTO_DECODIFICADA / 8e6:.1f}".replace(".", ",")

MOTIVOS: dict[str, Codigo] = _codes(
    Codigo(
        "FOTO_URL_INVALIDA",
        "foto",
        BLOQUEIO,
        "URL ou redirecionamento inválido",
        "A URL, ou um redirecionamento dela, não é um endereço https:// válido.",
        "Publique a foto num endereço https:// e não redirecione para http://.",
    ),
    Codigo(
        "FOTO_ENDERECO_PROIBIDO",
        "foto",
        BLOQUEIO,
        "Endereço em rede privada",
        "O servidor da foto (ou um redirecionamento) resolve para um endereço privado, local, "
        "link-local ou reservado; a Vitrine não busca nada nessas redes.",
        "Sirva a foto de um endereço público da internet (por exemplo o seu CDN).",
    ),
    Codigo(
        "FOTO_REDIRECIONAMENTOS_DEMAIS",
        "foto",
        BLOQUEIO,
        "Redirecionamentos demais",
        "A URL passou de 3 redirecionamentos.",
        "Use a URL final da foto, sem cadeias de redirecionamento.",
    ),
    Codigo(
        "FOTO_INACESSIVEL",
        "foto",
        BLOQUEIO,
        "Servidor inacessível",
        "O nome do servidor não foi encontrado, a conexão falhou ou o certificado TLS não é válido.",
        "Confira a URL e o certificado do servidor. Se a falha foi passageira, peça uma nova "
        "conferência com POST /produtos/{produtoId}/conferencia?refazer=true.",
    ),
    Codigo(
        "FOTO_TEMPO_ESGOTADO",
        "foto",
        BLOQUEIO,
        "Servidor lento demais",
        "O servidor não entregou a foto inteira dentro do tempo limite.",
        "Sirva a foto de um servidor mais rápido (um CDN) e peça uma nova conferência com "
        "POST /produtos/{produtoId}/conferencia?refazer=true.",
    ),
    Codigo(
        "FOTO_HTTP_ERRO",
        "foto",
        BLOQUEIO,
        "Resposta HTTP de erro",
        "O servidor respondeu com um status diferente de 200 (o detalhe traz o status, por exemplo 404 ou 500).",
        "Corrija a URL (404) ou o servidor (5xx). Depois de um erro 5xx ou 429 passageiro, peça uma "
        "nova conferência com POST /produtos/{produtoId}/conferencia?refazer=true.",
    ),
    Codigo(
        "FOTO_GRANDE_DEMAIS",
        "foto",
        BLOQUEIO,
        f"Arquivo acima de {_MB} MB",
        f"O arquivo passa de {_MB} MB; o download é interrompido ao passar do limite.",
        f"Envie a foto com até {_MB} MB (um JPEG de qualidade 85 a 90 costuma bastar).",
    ),
    Codigo(
        "FOTO_NAO_E_IMAGEM",
        "foto",
        BLOQUEIO,
        "Não é uma imagem aceita",
        "O conteúdo recebido não é JPEG, PNG nem WebP (por exemplo uma página HTML de erro). "
        "O formato é identificado pelo conteúdo, não pelo Content-Type.",
        "Aponte a URL para o arquivo da imagem em JPEG, PNG ou WebP.",
    ),
    Codigo(
        "FOTO_CORROMPIDA",
        "foto",
        BLOQUEIO,
        "Imagem corrompida ou incompleta",
        "O arquivo parece uma imagem, mas não pôde ser decodificado até o fim (truncado ou danificado).",
        "Exporte a foto de novo e confira se o servidor entrega o arquivo inteiro.",
    ),
    Codigo(
        "FOTO_DIMENSOES_EXCESSIVAS",
        "foto",
        BLOQUEIO,
        "Dimensões excessivas",
        f"A imagem declara mais de {MAX_FOTO_PIXELS // 1_000_000} megapixels, ou ocuparia mais de "
        f"{MAX_FOTO_DECODIFICADA // 1_000_000} MB decodificada (PNG ou WebP acima de "
        f"{MAX_FOTO_DECODIFICADA / 3e6:.0f} megapixels, ou de {_MP_TRANSPARENTE} com transparência); "
        "ela não é decodificada, para "
        "proteger o serviço de imagens-bomba.",
        "Reduza a foto (por exemplo para 2000 × 2000 pixels) e envie de novo.",
    ),
    Codigo(
        "FOTO_RESOLUCAO_BAIXA",
        "foto",
        BLOQUEIO,
        "Resolução baixa",
        f"O menor lado da foto tem menos de {MIN_LADO} pixels: fica pixelada em qualquer anúncio.",
        f"Envie fotos com pelo menos {MIN_LADO} pixels no menor lado; o ideal é {LADO_IDEAL} ou mais.",
    ),
    Codigo(
        "FOTO_RESOLUCAO_ABAIXO_DO_IDEAL",
        "foto",
        FRACO,
        "Resolução abaixo do ideal",
        f"O menor lado da foto tem menos de {LADO_IDEAL} pixels: a foto é aceita, mas perde "
        "nitidez nas imagens de 1200 × 1200 e não serve ao vídeo CinePremium (1080p).",
        f"Envie a foto com {LADO_IDEAL} pixels ou mais no menor lado.",
    ),
    Codigo(
        "FOTO_DESFOCADA",
        "foto",
        BLOQUEIO,
        "Foto desfocada",
        "A nitidez medida (variância do Laplaciano nas regiões com mais detalhe, numa cópia de até "
        f"1000 pixels) ficou abaixo de {MIN_NITIDEZ:.0f}: a foto está fora de foco ou foi ampliada.",
        "Fotografe de novo com o produto em foco, ou envie o arquivo original em vez de uma cópia ampliada.",
    ),
    Codigo(
        "FOTO_QUASE_DUPLICADA",
        "foto",
        BLOQUEIO,
        "Foto repetida",
        "A foto é igual ou quase igual (hash perceptual) a outra de ordem menor da mesma ficha; a "
        "primeira é mantida e esta é reprovada.",
        "Troque por outra foto do produto (outro ângulo, detalhe, embalagem) ou remova-a.",
    ),
    Codigo(
        "FOTO_FUNDO_INSEPARAVEL",
        "foto",
        FRACO,
        "Fundo não se separa do produto",
        "A Vitrine não conseguiu separar o produto do fundo com segurança (a confiança do recorte ficou "
        f"abaixo de {_CONFIANCA}): fundo com textura (madeira, tecido estampado), cenário com outros "
        "objetos, ou fundo da mesma cor do produto. Esta foto não vira a imagem principal, que mostra o "
        "produto recortado sobre branco; nas outras imagens ela entra inteira, com o fundo.",
        f"Fotografe o produto {_FUNDO_LISO}.",
    ),
    Codigo(
        "FOTO_TEXTO_SOBREPOSTO",
        "foto",
        FRACO,
        "Texto ou logotipo sobre a foto",
        "Há texto escrito por cima da foto, fora do produto ou atravessando a borda dele: faixa de "
        "promoção, preço, nome da loja, @perfil, marca-d'água. Conta o texto lido com confiança de "
        f"{sobreposicao.MIN_CONFIANCA}% ou mais que some pelo menos {sobreposicao.MIN_CARACTERES} letras "
        "ou números; o que está impresso no próprio produto (rótulo, embalagem) não conta. Quando o fundo "
        "não se separa do produto, conta o texto junto às bordas da foto (a até "
        f"{sobreposicao.MARGEM_SEM_RECORTE:.0%} do lado). Marketplaces recusam fotos com texto por cima, e "
        "o texto aparece nas imagens e nos vídeos feitos com a foto.",
        "Envie a foto original, sem faixas, textos, logotipos nem marca-d'água; promoções, preço e o "
        "nome da loja vão nos campos do anúncio.",
    ),
    Codigo(
        "FOTO_PRODUTO_PEQUENO",
        "foto",
        FRACO,
        "Produto pequeno na foto",
        f"O produto ocupa menos de {MIN_LADO_PRODUTO} pixels no lado maior: para preencher "
        f"{PREENCHIMENTO:.0%} da imagem principal de {LADO_PRINCIPAL} × {LADO_PRINCIPAL} pixels "
        f"({lado_necessario()} pixels) ele seria ampliado mais de {vezes(AMPLIACAO_MAXIMA)} e ficaria "
        "desfocado.",
        "Fotografe mais perto, com o produto ocupando a maior parte da foto, ou envie o arquivo "
        "original da câmera em vez de uma cópia reduzida.",
    ),
)

_GALERIA = (
    Codigo(
        "GALERIA_SEM_FOTO_APROVADA",
        "galeria",
        BLOQUEIO,
        "Nenhuma foto aprovada",
        "A galeria começa pela foto do produto e nenhuma foto da ficha foi aprovada.",
        "Envie ao menos uma foto aprovada: veja os motivos em fotos.itens do produto.",
    ),
    Codigo(
        "GALERIA_CONTEUDO_INSUFICIENTE",
        "galeria",
        BLOQUEIO,
        "Conteúdo para menos de 3 imagens",
        f"Cada imagem da galeria precisa de uma foto aprovada ou de um conteúdo da ficha (atributos, "
        f"medidas, composição, garantia, avaliações, perguntas); a ficha sustenta menos de "
        f"{PACOTES_GALERIA[0]} imagens, o menor pacote.",
        "Acrescente fotos de outros ângulos ou preencha atributos, dimensoes, composicaoOferta, "
        "garantia, provaSocial ou perguntas.",
    ),
    Codigo(
        "GALERIA_QUANTIDADE_ACIMA_DO_SUPORTADO",
        "galeria",
        FRACO,
        "Mais conteúdo do que cabe",
        f"A ficha sustenta mais imagens do que o máximo de uma galeria ({MAX_IMAGENS_GALERIA}); "
        "as fotos de ordem mais alta ficam de fora.",
        "Nada a fazer se a escolha servir; para decidir quais fotos entram, ponha as preferidas nas "
        "menores posições de ordem.",
    ),
    Codigo(
        "GALERIA_FOTO_PRINCIPAL_REPROVADA",
        "galeria",
        FRACO,
        "Foto principal reprovada",
        "A foto marcada como principal foi reprovada; a galeria abre com a próxima foto aprovada.",
        "Corrija a foto principal (veja os motivos dela em fotos.itens) ou marque outra como principal.",
    ),
    Codigo(
        "GALERIA_PRINCIPAL_FUNDO_INSEPARAVEL",
        "galeria",
        FRACO,
        "Principal sem fundo separável",
        "A imagem principal mostra o produto recortado sobre fundo branco, mas na foto principal o "
        f"produto não se separa do fundo (confiança do recorte abaixo de {_CONFIANCA}). A imagem principal "
        "será feita com a primeira outra foto aprovada em que o recorte funciona, e a foto principal entra "
        "inteira, com o fundo, entre os outros ângulos.",
        f"Nada a fazer se a troca servir; senão, fotografe a principal {_FUNDO_LISO}.",
    ),
    Codigo(
        "GALERIA_SEM_FOTO_RECORTAVEL",
        "galeria",
        BLOQUEIO,
        "Nenhuma foto com fundo separável",
        "A galeria começa pelo produto recortado sobre fundo branco, e em nenhuma foto aprovada o produto "
        f"se separa do fundo com segurança (confiança do recorte de {_CONFIANCA} ou mais): fundos com "
        "textura, cenário com outros objetos, ou fundo da mesma cor do produto.",
        f"Envie ao menos uma foto do produto {_FUNDO_LISO}.",
    ),
    Codigo(
        "GALERIA_PRINCIPAL_TEXTO_SOBREPOSTO",
        "galeria",
        FRACO,
        "Texto sobre a foto principal",
        "A foto principal, ou a foto usada na imagem principal, tem texto, logotipo ou marca-d'água por "
        "cima (veja o motivo FOTO_TEXTO_SOBREPOSTO em fotos.itens). A Vitrine não apaga texto: o que passa "
        "por cima do produto fica na imagem principal, uma foto que não se recorta entra inteira na "
        "galeria, e marketplaces recusam imagem principal com texto.",
        "Troque a foto por uma sem textos por cima, ou marque como principal outra foto sem texto.",
    ),
    Codigo(
        "GALERIA_PRINCIPAL_RESOLUCAO_EFETIVA_BAIXA",
        "galeria",
        FRACO,
        "Produto pequeno na imagem principal",
        f"Na foto usada na imagem principal, o produto tem menos de {MIN_LADO_PRODUTO} pixels no lado "
        f"maior: para ocupar {PREENCHIMENTO:.0%} da imagem de {LADO_PRINCIPAL} × {LADO_PRINCIPAL} pixels "
        f"ele é ampliado mais de {vezes(AMPLIACAO_MAXIMA)} e fica desfocado.",
        "Use como principal uma foto em que o produto ocupe a maior parte da foto, ou envie o arquivo "
        "original da câmera, com mais pixels.",
    ),
    Codigo(
        "GALERIA_SEM_DESTAQUES",
        "galeria",
        FRACO,
        "Sem imagem de destaques",
        f"A imagem de destaques mostra características do produto e precisa de pelo menos "
        f"{MIN_ATRIBUTOS_DESTAQUES} atributos.",
        "Preencha atributos com o que o comprador procura (voltagem, material, capacidade, cor…).",
    ),
    Codigo(
        "GALERIA_SEM_MEDIDAS",
        "galeria",
        FRACO,
        "Sem imagem de medidas",
        "A imagem de medidas precisa de largura, altura, profundidade e unidade em dimensoes.",
        "Preencha dimensoes.largura, altura, profundidade e unidade.",
    ),
    Codigo(
        "GALERIA_SEM_COMPOSICAO",
        "galeria",
        FRACO,
        "Sem imagem do que vem na caixa",
        'A imagem "o que vem na caixa" precisa de composicaoOferta.',
        "Liste em composicaoOferta cada item da embalagem com a quantidade.",
    ),
    Codigo(
        "GALERIA_SEM_PROVA_SOCIAL",
        "galeria",
        FRACO,
        "Sem imagem de prova social",
        f"A imagem de prova social precisa de provaSocial com notaMedia de {MIN_NOTA_PROVA_SOCIAL:.0f} "
        f"ou mais e totalAvaliacoes, ou de {MIN_AVALIACOES_PROVA_SOCIAL} avaliações com média de "
        f"{MIN_NOTA_PROVA_SOCIAL:.0f} ou mais. Uma nota baixa não é exibida.",
        "Envie provaSocial (totalAvaliacoes, notaMedia, vendidos) ou avaliacoes do anúncio.",
    ),
)


@dataclass(frozen=True, slots=True)
class RequisitosVideo:
    """What a video type needs from the ficha; the rules and the catalog texts read the same numbers."""

    tipo: str
    prefixo: str
    nome: str
    min_fotos: int  # approved photos, blocking below
    fotos_ideais: int  # weak below
    min_fotos_hd: int  # approved photos with the smaller side >= LADO_HD, blocking below (0: none)
    min_descricao: int  # characters of descricao + descricaoComplementar, blocking below
    descricao_ideal: int
    atributos_ideais: int
    cena_medidas: bool  # has a measurements scene (weak without dimensoes)
    cena_prova_social: bool  # has a social-proof scene (weak without reviews)


APRESENTACAO = RequisitosVideo(
    "video_apresentacao",
    "APRESENTACAO",
    "vídeo de apresentação",
    min_fotos=2,
    fotos_ideais=4,
    min_fotos_hd=0,
    min_descricao=80,
    descricao_ideal=300,
    atributos_ideais=3,
    cena_medidas=False,
    cena_prova_social=False,
)
CINEPREMIUM = RequisitosVideo(
    "video_cinepremium",
    "CINEPREMIUM",
    "CinePremium",
    min_fotos=5,
    fotos_ideais=8,
    min_fotos_hd=5,
    min_descricao=300,
    descricao_ideal=800,
    atributos_ideais=5,
    cena_medidas=True,
    cena_prova_social=True,
)
VIDEOS = (APRESENTACAO, CINEPREMIUM)


def _video_codes(r: RequisitosVideo) -> list[Codigo]:
    p, nome = r.prefixo, r.nome
    codes = [
        Codigo(
            f"{p}_FOTOS_INSUFICIENTES",
            r.tipo,
            BLOQUEIO,
            f"Menos de {r.min_fotos} fotos aprovadas",
            f"O {nome} anima as fotos do produto e precisa de pelo menos {r.min_fotos} fotos aprovadas.",
            f"Envie pelo menos {r.min_fotos} fotos do produto (ângulos, detalhes) que passem na triagem; "
            "veja os motivos das reprovadas em fotos.itens.",
        ),
        Codigo(
            f"{p}_DESCRICAO_CURTA",
            r.tipo,
            BLOQUEIO,
            "Descrição curta para a fala",
            f"A fala do {nome} é escrita a partir da descrição, que precisa de pelo menos "
            f"{r.min_descricao} caracteres (descricao e descricaoComplementar somadas).",
            "Escreva em descricao o que o produto é, para quem serve e o que o diferencia.",
        ),
        Codigo(
            f"{p}_POUCAS_FOTOS",
            r.tipo,
            FRACO,
            f"Menos de {r.fotos_ideais} fotos",
            f"Com menos de {r.fotos_ideais} fotos aprovadas o {nome} repete imagens.",
            f"Envie {r.fotos_ideais} ou mais fotos aprovadas de ângulos diferentes.",
        ),
        Codigo(
            f"{p}_POUCOS_ATRIBUTOS",
            r.tipo,
            FRACO,
            f"Menos de {r.atributos_ideais} atributos",
            f"Os cartões de características do {nome} mostram atributos; com menos de "
            f"{r.atributos_ideais} ficam rasos ou repetidos.",
            f"Preencha pelo menos {r.atributos_ideais} atributos relevantes.",
        ),
        Codigo(
            f"{p}_SEM_MARCA",
            r.tipo,
            FRACO,
            "Sem marca",
            f"A abertura e o fechamento do {nome} citam a marca, que não foi informada.",
            "Preencha marca (e modelo, se houver).",
        ),
    ]
    if r.min_fotos_hd:
        codes.append(
            Codigo(
                f"{p}_RESOLUCAO_INSUFICIENTE",
                r.tipo,
                BLOQUEIO,
                "Fotos sem resolução 1080p",
                f"O {nome} sai em 1080p e precisa de pelo menos {r.min_fotos_hd} fotos aprovadas com "
                f"{LADO_HD} pixels ou mais no menor lado.",
                f"Envie os arquivos originais das fotos, com pelo menos {LADO_HD} pixels no menor lado.",
            )
        )
    if r.cena_medidas:
        codes.append(
            Codigo(
                f"{p}_SEM_MEDIDAS",
                r.tipo,
                FRACO,
                "Sem cena de medidas",
                "A cena de medidas precisa de largura, altura, profundidade e unidade em dimensoes.",
                "Preencha dimensoes.largura, altura, profundidade e unidade.",
            )
        )
    if r.cena_prova_social:
        codes.append(
            Codigo(
                f"{p}_SEM_PROVA_SOCIAL",
                r.tipo,
                FRACO,
                "Sem cena de prova social",
                f"A cena final do {nome} mostra a avaliação dos compradores: precisa de provaSocial ou "
                f"avaliacoes com média de {MIN_NOTA_PROVA_SOCIAL:.0f} ou mais.",
                "Envie provaSocial (totalAvaliacoes, notaMedia) ou avaliacoes do anúncio.",
            )
        )
    return codes


PENDENCIAS: dict[str, Codigo] = _codes(*_GALERIA, *(c for r in VIDEOS for c in _video_codes(r)))

CATALOG: dict[str, Codigo] = MOTIVOS | PENDENCIAS
