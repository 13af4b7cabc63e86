// The API reference: Redoc (npm, served from /static/vendor) renders the service's own
// /v1/openapi.json inside #referencia. Loaded as a file: the docs run no inline script.
(function () {
  "use strict";
  var alvo = document.getElementById("referencia");
  if (!alvo || !window.Redoc) {
    return;
  }
  // Redoc jumps from an operation's h2 to h5 ("Authorizations", "Response Schema"): screen readers
  // navigate by level, so each heading that skips levels is announced one below the previous.
  function nivelarTitulos() {
    var anterior = 1;
    document.querySelectorAll("h1, h2, h3, h4, h5, h6").forEach(function (titulo) {
      var nivel = Number(titulo.tagName.slice(1));
      if (nivel > anterior + 1) {
        nivel = anterior + 1;
        if (titulo.getAttribute("aria-level") !== String(nivel)) titulo.setAttribute("aria-level", String(nivel));
      }
      anterior = nivel;
    });
  }
  window.Redoc.init(
    alvo.getAttribute("data-spec-url"),
    {
      hideDownloadButton: false,
      expandResponses: "200,201",
      jsonSampleExpandLevel: 3,
      nativeScrollbars: true,
      scrollYOffset: 0,
      theme: {
        typography: { fontFamily: "inherit", headings: { fontFamily: "inherit" }, code: { fontFamily: "ui-monospace, monospace" } },
        colors: { primary: { main: "#0b5d4b" } },
        // Inside the docs' column there is no room for Redoc's three panels: samples go below
        // each operation, and parameter tables get the column's whole width.
        breakpoints: { small: "50rem", medium: "300rem", large: "300rem" },
      },
    },
    alvo,
    function (erro) {
      if (erro) {
        alvo.insertAdjacentHTML("afterbegin", '<p role="alert">Não foi possível mostrar a referência aqui. Leia o documento OpenAPI pelo link acima.</p>');
        return;
      }
      nivelarTitulos();
      new MutationObserver(nivelarTitulos).observe(alvo, { childList: true, subtree: true });
    }
  );
})();
