"""The cycle's usage chart of the Créditos page, drawn on the server as SVG (no script, nothing
from other origins): credits used per day as bars, the cumulative use as a line, and the quota
as a dashed line. The page also shows the same figures as a table (the chart's text fallback)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

LARGURA, ALTURA = 640, 220
MARGEM_ESQ, MARGEM_DIR, MARGEM_TOPO, MARGEM_BASE = 48, 12, 12, 28


@dataclass(frozen=True, slots=True)
class Dia:
    data: datetime
    usados: int
    acumulado: int


@dataclass(frozen=True, slots=True)
class Grafico:
    dias: list[Dia]
    cota: int
    barras: list[dict]  # x, y, largura, altura, rotulo
    linha: str  # SVG points of the cumulative use
    cota_y: float | None
    escala: list[dict]  # y, rotulo: ticks of the vertical axis
    rotulos_x: list[dict]  # x, rotulo: a few days along the bottom
    largura: int = LARGURA
    altura: int = ALTURA


def por_dia(inicio: datetime, fim: datetime, hoje: datetime, capturas: list[tuple[datetime, int]]) -> list[Dia]:
    """Credits charged per day of the cycle, from its first day to today (or its end)."""
    ultimo = min(fim - timedelta(seconds=1), hoje)
    dias: list[Dia] = []
    acumulado = 0
    dia = inicio
    while dia.date() <= ultimo.date():
        usados = sum(c for quando, c in capturas if quando.date() == dia.date())
        acumulado += usados
        dias.append(Dia(dia, usados, acumulado))
        dia += timedelta(days=1)
    return dias


def desenhar(dias: list[Dia], cota: int, total_dias: int) -> Grafico:
    total_dias = max(total_dias, len(dias), 1)
    topo = max([cota, *(d.acumulado for d in dias), 10])
    topo = int(topo * 1.1) + 1
    area_w = LARGURA - MARGEM_ESQ - MARGEM_DIR
    area_h = ALTURA - MARGEM_TOPO - MARGEM_BASE
    passo = area_w / total_dias

    def y(valor: float) -> float:
        return round(MARGEM_TOPO + area_h - valor * area_h / topo, 1)

    barras = []
    pontos = []
    for i, dia in enumerate(dias):
        x = MARGEM_ESQ + i * passo
        barras.append(
            {
                "x": round(x + passo * 0.15, 1),
                "y": y(dia.usados),
                "largura": round(passo * 0.7, 1),
                "altura": round(MARGEM_TOPO + area_h - y(dia.usados), 1),
                "rotulo": f"{dia.data:%d/%m}: {dia.usados} créditos",
            }
        )
        pontos.append(f"{round(x + passo / 2, 1)},{y(dia.acumulado)}")
    escala = [{"y": y(topo * k / 4), "rotulo": f"{int(topo * k / 4)}"} for k in range(5)]
    marcas = sorted({0, len(dias) - 1, *range(0, len(dias), 7)}) if dias else []
    rotulos_x = [
        {"x": round(MARGEM_ESQ + i * passo + passo / 2, 1), "rotulo": f"{dias[i].data:%d/%m}"} for i in marcas if i >= 0
    ]
    return Grafico(
        dias=dias,
        cota=cota,
        barras=barras,
        linha=" ".join(pontos),
        cota_y=y(cota) if cota > 0 else None,
        escala=escala,
        rotulos_x=rotulos_x,
    )
