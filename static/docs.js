// The docs' only script of its own: a "Copiar" button on every code block. Loaded as a file (the
// docs' Content-Security-Policy runs no inline script); without it the blocks read as before.
(function () {
  "use strict";

  function anunciar(texto) {
    var anuncio = document.getElementById("copia-anuncio");
    if (!anuncio) {
      anuncio = document.createElement("p");
      anuncio.id = "copia-anuncio";
      anuncio.className = "sr-only";
      anuncio.setAttribute("role", "status");
      document.body.appendChild(anuncio);
    }
    anuncio.textContent = "";
    window.setTimeout(function () { anuncio.textContent = texto; }, 50);
  }

  function copiar(texto) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(texto);
    }
    // http://localhost is a secure context; other plain-HTTP hosts fall back to a selection.
    var area = document.createElement("textarea");
    area.value = texto;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = document.execCommand("copy");
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error("cópia recusada"));
  }

  function prepararBlocos() {
    var blocos = document.querySelectorAll(".docs-body pre");
    Array.prototype.forEach.call(blocos, function (pre, i) {
      if (pre.closest("#referencia") || pre.parentNode.classList.contains("codigo")) {
        return;
      }
      var caixa = document.createElement("div");
      caixa.className = "codigo";
      pre.parentNode.insertBefore(caixa, pre);
      caixa.appendChild(pre);
      var botao = document.createElement("button");
      botao.type = "button";
      botao.className = "copiar";
      botao.textContent = "Copiar";
      botao.setAttribute("aria-label", "Copiar código " + (i + 1));
      botao.addEventListener("click", function () {
        copiar(pre.innerText.replace(/\n$/, "")).then(
          function () {
            botao.textContent = "Copiado";
            anunciar("Código copiado.");
            window.setTimeout(function () { botao.textContent = "Copiar"; }, 2000);
          },
          function () { anunciar("Não foi possível copiar: selecione o texto e use Ctrl+C."); }
        );
      });
      caixa.appendChild(botao);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", prepararBlocos);
  } else {
    prepararBlocos();
  }
})();
