"""`vitrine-cli` (the integrators' client package, clients/python) as a user runs it: the installed
console script in its own process, tied to the test run, reading its output line by line."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from vitrine.infra.process import tied_to_this_process

SCRIPT = Path(sys.executable).parent / "vitrine-cli"


class Execucao:
    """One running command: its output lines as they come, and a way to stop it as Ctrl-C would."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.linhas: list[str] = []
        self._nova = asyncio.Event()
        self._leitor = asyncio.ensure_future(self._ler())

    async def _ler(self) -> None:
        assert self.process.stdout is not None
        async for linha in self.process.stdout:
            self.linhas.append(linha.decode().rstrip("\n"))
            self._nova.set()

    async def linha(self, contendo: str, *, timeout: float = 15.0) -> str:
        """The first output line containing `contendo`, waiting for it."""

        async def procurar() -> str:
            while True:
                for linha in self.linhas:
                    if contendo in linha:
                        return linha
                if self.process.returncode is not None and self._leitor.done():
                    raise AssertionError(f"vitrine-cli ended without {contendo!r}: {self.linhas} {await self.stderr()}")
                self._nova.clear()
                await asyncio.wait(
                    {asyncio.ensure_future(self._nova.wait()), self._leitor},
                    timeout=0.5,
                    return_when=asyncio.FIRST_COMPLETED,
                )

        return await asyncio.wait_for(procurar(), timeout)

    async def stderr(self) -> str:
        assert self.process.stderr is not None
        return (await self.process.stderr.read()).decode() if self.process.returncode is not None else ""

    async def interromper(self, *, timeout: float = 15.0) -> int:
        """SIGINT, as Ctrl-C in its terminal sends; its exit status."""
        self.process.send_signal(signal.SIGINT)
        return await self.fim(timeout=timeout)

    async def fim(self, *, timeout: float = 30.0) -> int:
        code = await asyncio.wait_for(self.process.wait(), timeout)
        await self._leitor
        return code


class VitrineCli:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.execucoes: list[Execucao] = []

    async def iniciar(self, *args: str, chave: str, url: str | None = None) -> Execucao:
        """`url`: VITRINE_URL when not the API's base URL."""
        env = {**os.environ, "VITRINE_CHAVE": chave, "VITRINE_URL": url or self.base_url, "PYTHONUNBUFFERED": "1"}
        process = await asyncio.create_subprocess_exec(
            str(SCRIPT),
            *args,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            preexec_fn=tied_to_this_process(),
        )
        execucao = Execucao(process)
        self.execucoes.append(execucao)
        return execucao

    async def executar(
        self, *args: str, chave: str, url: str | None = None, timeout: float = 30.0
    ) -> tuple[int, str, str]:
        """Run to the end: (exit status, stdout, stderr)."""
        execucao = await self.iniciar(*args, chave=chave, url=url)
        code = await execucao.fim(timeout=timeout)
        return code, "\n".join(execucao.linhas), await execucao.stderr()

    async def stop_all(self) -> None:
        for execucao in self.execucoes:
            if execucao.process.returncode is None:
                execucao.process.kill()
                await execucao.process.wait()
            execucao._leitor.cancel()
