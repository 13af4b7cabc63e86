// The API reference: Redoc (npm, served from /static/vendor) renders the service's own
// /v1/openapi.json inside #referencia. Loaded as a file: the docs run no inline script.
(function () {
  "use strict";
  var alvo = document.getElementById("referencia");
  if (!alvo || !window.Redoc) {
    return;
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
      },
    },
    alvo,
    function (erro) {
      if (erro) {
        alvo.insertAdjacentHTML("afterbegin", '<p role="alert">Não foi possível mostrar a referência aqui. Leia o documento OpenAPI pelo link acima.</p>');
      }
    }
  );
})();
