// The portal's only script of its own (htmx does the rest). Loaded as a file: the
// Content-Security-Policy allows no inline script.
"use strict";

// Copy buttons: <button data-copy="ID"> copies the value of the element with that id.
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-copy]");
  if (!button) return;
  var source = document.getElementById(button.dataset.copy);
  var status = document.getElementById(button.dataset.copy + "-status");
  var text = "value" in source ? source.value : source.textContent;
  function done(ok) {
    if (status) status.textContent = ok ? "Copiado para a área de transferência." : "Não foi possível copiar: selecione e copie manualmente.";
  }
  function fallback() {
    source.focus();
    source.select();
    try { done(document.execCommand("copy")); } catch (e) { done(false); }
  }
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
  } else {
    fallback();
  }
});

// Selecting the whole key on focus makes a manual copy one keystroke away.
document.addEventListener("focusin", function (event) {
  if (event.target.matches && event.target.matches("input[data-select-on-focus]")) event.target.select();
});
